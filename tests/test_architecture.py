"""The one-way architecture (docs/architecture.md), checked.

The package layers are import-linter contracts in ``pyproject.toml`` (``make lint`` runs
``lint-imports``); this file proves those contracts can fail, checks that they name every module,
and holds the rules import-linter cannot express: dynamic imports, and the scripts ``app.py`` and
``pages/*.py``, which are not a package.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
PAGES = sorted((ROOT / "pages").glob("*.py"))
SCRIPTS = [ROOT / "app.py", *PAGES]
PAGE_MAX_LINES = 80
"""A page reads a form, calls one ui function and renders; anything longer belongs in ui/views."""


def _contracts() -> dict[str, dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["id"]: c for c in config["tool"]["importlinter"]["contracts"]}


def _layer_modules(contract_id: str) -> set[str]:
    layers = _contracts()[contract_id]["layers"]
    assert isinstance(layers, list)
    return {name.strip() for layer in layers for name in layer.split("|")}


def _children(package: str) -> set[str]:
    """The modules and subpackages directly inside ``package`` (a folder of this repository)."""
    folder = ROOT.joinpath(*package.split("."))
    modules = {p.stem for p in folder.glob("*.py") if p.stem not in ("__init__", "__main__")}
    packages = {p.parent.name for p in folder.glob("*/__init__.py")}
    return {f"{package}.{name}" for name in modules | packages}


def _imported_modules(path: Path) -> list[str]:
    """Every module a file imports; ``from a import b`` counts as ``a`` (b may be a name)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append("." * node.level + (node.module or ""))
    return found


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with ``root``'s pyproject.toml against the packages under ``root``."""
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo", "--config", str(root / "pyproject.toml")],
        capture_output=True,
        text=True,
        check=False,
        cwd=root,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)},
    )


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


def test_the_import_contracts_hold() -> None:
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


# Each bad import breaks the contract named beside it: an upward import, an import between
# siblings of one layer, the engine reaching the web app, a view's helper reaching up to a view.
@pytest.mark.parametrize(
    ("module", "line", "broken"),
    [
        ("planner/units.py", "import ui", "pure-engine"),
        ("planner/report/fmt.py", "import streamlit", "pure-engine"),
        ("planner/engine.py", "import planner.report", "layers"),
        ("planner/fabric/media.py", "import planner.cost", "layers"),
        ("ui/state.py", "import ui.views.overview", "ui-layers"),
    ],
)
def test_a_bad_import_breaks_the_contract(tmp_path: Path, module: str, line: str, broken: str) -> None:
    """The contracts can fail: a copy of the packages with one bad import does not pass."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    for package in ("planner", "ui"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    target = tmp_path / module
    target.write_text(target.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")
    result = _lint_imports(tmp_path)
    assert result.returncode != 0, result.stdout
    assert f"{_contracts()[broken]['name']} BROKEN" in result.stdout, result.stdout
    # the copy, not the installed checkout, was analysed: the report names the added import
    assert line.split()[-1] in result.stdout


@pytest.mark.parametrize(("contract_id", "package"), [("layers", "planner"), ("ui-layers", "ui")])
def test_every_module_has_a_layer(contract_id: str, package: str) -> None:
    """A new module outside the layers would escape the contract: name it in pyproject.toml."""
    assert _children(package) - _layer_modules(contract_id) == set()


def test_planner_names_no_ui_module_in_a_dynamic_import() -> None:
    """import-linter reads only import statements; importlib and __import__ are checked here."""
    dynamic = {"import_module", "__import__", "find_spec"}
    offenders = []
    for path in (ROOT / "planner").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            target = node.args[0]
            if (
                name in dynamic
                and isinstance(target, ast.Constant)
                and isinstance(target.value, str)
                and target.value.split(".")[0] in ("ui", "streamlit")
            ):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {target.value}")
    assert offenders == []


def test_every_public_name_of_planner_loads_without_ui() -> None:
    """The lazy names of ``planner`` (module ``__getattr__``) resolve without the web app."""
    code = (
        "import sys, planner\n"
        "for name in planner.__all__:\n"
        "    getattr(planner, name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ui', 'streamlit')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.strip() == "[]"


def _page_offenders(script: Path) -> list[str]:
    """The imports of a page that are not the standard library, streamlit, ``ui``, ``planner`` or
    ``planner.report``."""
    allowed = {"planner", "planner.report", "streamlit"}
    return [
        name
        for name in _imported_modules(script)
        if name not in allowed
        and name.split(".")[0] != "ui"
        and name.split(".")[0] not in sys.stdlib_module_names
    ]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_pages_use_only_ui_and_the_front_doors_of_planner(script: Path) -> None:
    """app.py and pages/ reach planner through ``planner`` and ``planner.report`` only (``from
    planner.report import charts``); engine, store and export internals are ui's business."""
    assert _page_offenders(script) == []


def test_the_page_rule_can_fail(tmp_path: Path) -> None:
    page = tmp_path / "page.py"
    page.write_text(
        "import json\nimport pandas\nimport planner.engine\nfrom planner import plan\n"
        "from planner.report.export import html\nfrom planner.store import open_store\n"
        "from ui.views import overview\n",
        encoding="utf-8",
    )
    assert _page_offenders(page) == ["pandas", "planner.engine", "planner.report.export", "planner.store"]


LOGIC = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
"""Loops and comprehensions: a page that iterates is computing something ui/views should own."""
ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.MatMult)


def _page_logic(script: Path) -> list[str]:
    """The loops and arithmetic in a page, as ``line: code``."""
    found = []
    for node in ast.walk(ast.parse(script.read_text(encoding="utf-8"))):
        is_arithmetic = isinstance(node, ast.BinOp | ast.AugAssign) and isinstance(node.op, ARITHMETIC)
        if isinstance(node, LOGIC) or is_arithmetic:
            assert isinstance(node, ast.stmt | ast.expr)
            found.append((node.lineno, node.col_offset, ast.unparse(node).splitlines()[0]))
    return [f"{line}: {code}" for line, _, code in sorted(found)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_pages_hold_no_loops_and_no_arithmetic(page: Path) -> None:
    assert _page_logic(page) == []


def test_the_logic_rule_can_fail(tmp_path: Path) -> None:
    page = tmp_path / "page.py"
    page.write_text(
        "total = price * 2\nfor row in rows:\n    show(row)\nnames = [r.name for r in rows]\n"
        "n += 1\nlabel = f'{x}'\n",
        encoding="utf-8",
    )
    assert _page_logic(page) == [
        "1: price * 2",
        "2: for row in rows:",
        "4: [r.name for r in rows]",
        "5: n += 1",
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_pages_are_thin(page: Path) -> None:
    lines = len(page.read_text(encoding="utf-8").splitlines())
    assert lines <= PAGE_MAX_LINES, f"{page.name}: {lines} lines; move the logic into ui/views/{page.name}"
