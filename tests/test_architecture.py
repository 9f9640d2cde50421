"""The engine is a pure library: importing it (and its CLI) never loads Streamlit."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_importing_the_engine_leaves_streamlit_out() -> None:
    code = (
        "import sys, pkgutil, importlib, planner\n"
        "for m in pkgutil.walk_packages(planner.__path__, 'planner.'):\n"
        "    if m.name != 'planner.__main__':\n"
        "        importlib.import_module(m.name)\n"
        "print('streamlit' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.strip() == "False"


def test_no_module_under_planner_imports_streamlit() -> None:
    offenders = []
    for path in (ROOT / "planner").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path}: {n}" for n in names if n.split(".")[0] == "streamlit"]
    assert offenders == []


def test_public_entry_points_are_keyword_only() -> None:
    import inspect

    import planner

    for name in ("plan", "compare", "sweep", "load_catalog"):
        parameters = inspect.signature(getattr(planner, name)).parameters.values()
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters), name
