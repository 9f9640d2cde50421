"""Every third-party package the code imports is declared in pyproject.toml, directly.

A package that only arrives as someone else's dependency (Pillow through Streamlit, say) works
until that dependency drops it; ``pip install .`` on a clean machine is the test that fails then.
This check finds every top-level ``import`` in the project's code, maps the import name to its
distribution with :func:`importlib.metadata.packages_distributions` (``PIL`` -> ``Pillow``,
``yaml`` -> ``PyYAML``) and requires that distribution in ``[project] dependencies`` or an
extra. The other way round, every declared distribution is imported somewhere, or listed in
:data:`USED_WITHOUT_IMPORT` with what uses it: a dependency nobody uses any more is removed.
"""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import re
import sys
import tomllib
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CODE = ("planner", "ui", "app.py", "pages", "tests", "bench", "tools")
USED_WITHOUT_IMPORT = {
    "authlib": "Streamlit's st.login needs it installed (ui/auth.py); Streamlit imports it",
    "psycopg": "SQLAlchemy loads it for postgresql+psycopg:// URLs (planner/store/location.py)",
    "dask": "installed with its [distributed] extra; planner/sweep imports the distributed scheduler",
    "ruff": "a command: make lint",
    "mypy": "a command: make lint",
    "import-linter": "a command (lint-imports): make lint, tests/test_architecture.py",
    "types-pyyaml": "type stubs mypy reads",
    "pandas-stubs": "type stubs mypy reads",
    "oidc-provider-mock": "a command the sign-in browser test starts (tests/browser/test_signin.py)",
    "pytest-xdist": "a pytest plugin (-n): make test-fast runs the unit tier on two workers",
}
"""Declared distributions that no ``import`` names, each with what uses it."""


def _normalise(name: str) -> str:
    """PEP 503 name: ``PyYAML`` and ``pyyaml``, ``SQLAlchemy`` and ``sqlalchemy`` are one."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _python_files(paths: Iterable[str]) -> list[Path]:
    files: list[Path] = []
    for entry in paths:
        path = ROOT / entry
        files.extend([path] if path.is_file() else sorted(path.rglob("*.py")))
    return [f for f in files if ".venv" not in f.parts]


def imported_top_levels(files: Iterable[Path]) -> dict[str, str]:
    """``top-level module -> first file:line importing it`` (absolute imports only)."""
    found: dict[str, str] = {}
    for file in files:
        tree = ast.parse(file.read_text(encoding="utf-8"), filename=str(file))
        where = file.relative_to(ROOT) if file.is_relative_to(ROOT) else file.name
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.split(".")[0], f"{where}:{node.lineno}")
    return found


def declared_distributions(pyproject: Path = ROOT / "pyproject.toml") -> set[str]:
    """Normalised names of ``[project] dependencies`` and every optional-dependency extra."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    requirements = list(project.get("dependencies", []))
    for extra in project.get("optional-dependencies", {}).values():
        requirements.extend(extra)
    return {_normalise(re.split(r"[\s<>=!~;\[]", r, maxsplit=1)[0]) for r in requirements}


def first_party(files: Iterable[Path]) -> set[str]:
    """Names the project's own code can be imported by: packages, modules, test helpers
    (``tests/browser/harness.py`` is imported as ``harness``)."""
    names = {entry.removesuffix(".py") for entry in CODE}
    for file in files:
        names.add(file.stem)
        names.update(part for part in file.relative_to(ROOT).parts[:-1])
    return names


def undeclared(imports: dict[str, str], declared: set[str], *, local: set[str]) -> dict[str, str]:
    """Third-party imports whose distribution is not declared: ``module -> 'where (dist)'``."""
    providers = importlib.metadata.packages_distributions()
    missing: dict[str, str] = {}
    for module, where in sorted(imports.items()):
        if module in local or module in sys.stdlib_module_names:
            continue
        dists = providers.get(module)
        if not dists:
            missing[module] = f"{where} (no installed distribution provides it)"
        elif not any(_normalise(d) in declared for d in dists):
            missing[module] = f"{where} (install name: {', '.join(sorted(set(dists)))})"
    return missing


@functools.cache
def _project_imports() -> tuple[dict[str, str], frozenset[str]]:
    """The project's imports and first-party names (scanned once for the two checks)."""
    files = _python_files(CODE)
    return imported_top_levels(files), frozenset(first_party(files))


def test_every_third_party_import_is_declared() -> None:
    imports, local = _project_imports()
    assert {"yaml", "pydantic", "PIL"} <= imports.keys(), "the scan must see the project's imports"
    assert undeclared(imports, declared_distributions(), local=set(local)) == {}


def test_the_check_can_fail(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import yaml\nfrom PIL import Image\nimport json\nfrom planner import plan\nfrom . import x\n"
    )
    imports = imported_top_levels([sample])
    assert imports == {
        "yaml": "sample.py:1",
        "PIL": "sample.py:2",
        "json": "sample.py:3",
        "planner": "sample.py:4",
    }
    missing = undeclared(imports, {"pyyaml"}, local={"planner"})
    assert list(missing) == ["PIL"] and "pillow" in missing["PIL"].lower()


def test_removed_dependencies_stay_removed() -> None:
    # PDFs are printed by Chromium (planner/report/export/browser.py), and no test benchmarks
    declared = declared_distributions()
    assert "reportlab" not in declared and "pytest-benchmark" not in declared


def unused(imports: dict[str, str], declared: set[str], *, without_import: set[str]) -> list[str]:
    """Declared distributions that no import provides and :data:`USED_WITHOUT_IMPORT` does not
    explain."""
    providers = importlib.metadata.packages_distributions()
    used = {_normalise(dist) for module in imports for dist in providers.get(module, [])}
    return sorted(declared - used - without_import)


def test_every_declared_dependency_is_used() -> None:
    imports, _ = _project_imports()
    declared = declared_distributions()
    assert unused(imports, declared, without_import=set(USED_WITHOUT_IMPORT)) == []
    assert set(USED_WITHOUT_IMPORT) <= declared, "an explained dependency is no longer declared"


def test_the_unused_check_can_fail() -> None:
    assert unused({"yaml": "a.py:1"}, {"pyyaml", "pillow", "ruff"}, without_import={"ruff"}) == ["pillow"]


@pytest.mark.parametrize(
    ("module", "args", "extra"),
    [
        ("distributed", ["sweep", "--grid", "{tmp}/grid.yaml", "--out", "{tmp}/out.parquet"], "sweep"),
        ("pynetbox", ["netbox", "push", "--url", "http://127.0.0.1:9", "--token", "x"], "netbox"),
    ],
)
def test_a_missing_extra_is_one_line_naming_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    module: str,
    args: list[str],
    extra: str,
) -> None:
    """Without an extra's packages (``None`` in ``sys.modules`` makes their import fail as on a
    machine without them), the command that needs them exits 2 with one line naming the extra."""
    from planner.cli import run

    (tmp_path / "grid.yaml").write_text("gpus: [8]\n", encoding="utf-8")
    monkeypatch.setitem(sys.modules, module, None)
    code = run([arg.format(tmp=tmp_path) for arg in args])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and f"pip install 'gpu-cluster-planner[{extra}]'" in err, err
    assert f"({module} is not installed)" in err
    assert not (tmp_path / "out.parquet").exists()
