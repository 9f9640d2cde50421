"""The CLI starts fast and explains itself: building the parser loads no heavy library, every
option has help, every command has examples, ``--version`` and a bare ``planner`` work.

Start-up is checked by the set of modules a fresh interpreter has loaded, never by a clock (these
machines are shared and noisy; ``bench/bench_cli.py`` times it).
"""

from __future__ import annotations

import argparse
import ast
import csv
import io
import json
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import pytest

import planner
from planner.cli import COMMAND_GROUPS, build_parser, main, run
from planner.cli import catalog as catalog_cli
from planner.cli import export as export_cli
from planner.cli.options import MAX_GPUS_TEXT

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("pandas", "plotly", "sqlalchemy", "pulp", "streamlit")
MAX_FUNCTION_LINES = 80


def _fresh_modules(code: str) -> set[str]:
    """The top-level packages a fresh interpreter holds after running ``code``."""
    probe = f"{code}\nimport sys\nprint(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))\n"
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return set(result.stdout.split())


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _every_parser(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    yield path, parser
    for name, child in _subparsers(parser).items():
        yield from _every_parser(child, (*path, name))


COMMAND_PATHS = [path for path, _ in _every_parser(build_parser())]


def test_help_loads_no_heavy_library() -> None:
    """``planner --help`` and every ``planner COMMAND --help`` build the parser without the engine."""
    code = (
        "import contextlib, io\n"
        "from planner.cli import build_parser, run\n"
        "build_parser()\n"
        f"for path in {[list(p) for p in COMMAND_PATHS]!r}:\n"
        "    with contextlib.redirect_stdout(io.StringIO()):\n"
        "        assert run([*path, '--help']) == 0, path\n"
    )
    loaded = _fresh_modules(code)
    assert loaded.isdisjoint(HEAVY), sorted(loaded & set(HEAVY))
    assert "planner" in loaded  # the probe ran


def test_the_probe_sees_heavy_modules_when_they_load() -> None:
    """The start-up check can fail: running a command does load the engine's libraries."""
    loaded = _fresh_modules(
        "import contextlib, io\nfrom planner.cli import run\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    run(['plan', '--gpus', '64', '--format', 'csv'])\n"
    )
    assert "pandas" in loaded


def test_plan_json_needs_neither_pandas_nor_the_other_heavy_libraries() -> None:
    loaded = _fresh_modules(
        "import contextlib, io\nfrom planner.cli import run\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert run(['plan', '--gpus', '1024', '--design', 'rail8-npo', '--format', 'json']) == 0\n"
    )
    assert loaded.isdisjoint(HEAVY), sorted(loaded & set(HEAVY))


def test_sweep_json_needs_no_pandas() -> None:
    """A sweep written as JSON keeps plain rows (``Sweep.rows``); the table is built only to print."""
    loaded = _fresh_modules(
        "import contextlib, io\nfrom planner.cli import run\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert run(['sweep', '--designs', 'rail8-npo', '--sizes', '8:64:8', '--format', 'json']) == 0\n"
    )
    assert loaded.isdisjoint(HEAVY), sorted(loaded & set(HEAVY))


def test_importing_planner_loads_only_what_is_used() -> None:
    assert _fresh_modules("import planner, planner.cli, planner.errors").isdisjoint((*HEAVY, "numpy", "yaml"))


def test_lazy_public_names() -> None:
    """``from planner import compare`` is the function even after the submodule ``planner.compare``
    was imported first (importing a submodule binds it on the package)."""
    code = (
        "import planner.compare\n"
        "from planner import DEFAULT_DESIGNS, Plan, compare\n"
        "print(type(compare).__name__, compare.__module__, Plan.__name__, DEFAULT_DESIGNS[0])\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.split() == ["function", "planner.compare", "Plan", "rail4-npo"]
    assert set(planner.__all__) <= set(dir(planner))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        planner.nope  # noqa: B018


@pytest.mark.parametrize("path", COMMAND_PATHS, ids=lambda p: " ".join(p) or "planner")
def test_every_option_has_help(path: tuple[str, ...]) -> None:
    parser = dict(_every_parser(build_parser()))[path]
    missing = [
        "/".join(action.option_strings) or action.dest
        for action in parser._actions
        if not isinstance(action, argparse._SubParsersAction)
        and (not action.help or action.help == argparse.SUPPRESS)
    ]
    assert missing == []


@pytest.mark.parametrize("path", COMMAND_PATHS, ids=lambda p: " ".join(p) or "planner")
def test_every_command_help_shows_examples(path: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    assert run([*path, "--help"]) == 0
    out = capsys.readouterr().out
    assert "\nexamples:\n  planner " in out
    assert out.startswith(f"usage: {' '.join(('planner', *path))}")


def test_the_help_check_can_fail() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quiet")
    assert [a.dest for a in parser._actions if not a.help] == ["quiet"]


def test_version_comes_from_the_installed_package(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--version"]) == 0
    assert capsys.readouterr().out == f"planner {version('gpu-cluster-planner')}\n"


def test_bare_planner_lists_the_commands_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run([]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    for name in _subparsers(build_parser()):
        assert f"\n    {name}" in captured.err, name
    assert "Traceback" not in captured.err


def test_main_exits_with_the_code_of_run(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["plan", "--gpus", "0"])
    assert exited.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_every_group_is_registered_once() -> None:
    commands = list(_subparsers(build_parser()))
    assert len(commands) == len(set(commands))
    # planning (plan, compare, sweep), measure (calibrate, accept) + 10 modules of one group each
    assert len(COMMAND_GROUPS) == 12
    assert {
        "plan", "compare", "sweep", "catalog", "scenarios", "optimize", "workload", "serve", "export", "layout", "validate",
        "tenants", "netbox", "calibrate", "accept",
    } <= set(commands)  # fmt: skip


def test_no_function_in_the_cli_is_longer_than_80_lines() -> None:
    long = []
    for path in sorted((ROOT / "planner" / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{path.name}:{node.name} ({lines} lines)")
    assert long == []


def test_values_repeated_for_a_light_parser_match_the_engine() -> None:
    """The parser repeats two engine values so that ``--help`` need not import the engine."""
    from planner.inputs.scenario import MAX_GPUS
    from planner.report.export.pricing import EDITIONS

    assert export_cli.EDITIONS == EDITIONS
    assert str(MAX_GPUS) == MAX_GPUS_TEXT


def _columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def test_catalog_list_fits_120_columns_and_cuts_long_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["catalog", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(_columns(line) for line in lines) <= catalog_cli.TABLE_WIDTH
    assert "gpus (" in lines[0] and lines[1].split() == ["ID", "NAME", "FIGURES"]
    h100 = next(line for line in lines if line.startswith("  h100_sxm "))
    assert "tdp_w 700" in h100  # a key figure of the H100 SXM5 (700 W board power)
    assert any(line.endswith("...") for line in lines)
    assert "http" not in "\n".join(lines), "sources only with --wide or --format"


def test_catalog_list_wide_and_csv_have_every_column(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["catalog", "list", "--family", "gpus", "--wide"]) == 0
    wide = capsys.readouterr().out
    assert "SOURCE" in wide and "..." not in wide
    assert max(_columns(line) for line in wide.splitlines()) > catalog_cli.TABLE_WIDTH
    assert run(["catalog", "list", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert list(rows[0]) == catalog_cli.ROW_COLUMNS
    h100 = next(r for r in rows if r["id"] == "h100_sxm")
    assert h100["source"] and "tdp_w 700" in h100["figures"] and h100["family"] == "gpus"
    assert run(["catalog", "list", "--family", "designs", "--format", "json"]) == 0
    designs = json.loads(capsys.readouterr().out)
    assert [list(d) for d in designs] == [catalog_cli.ROW_COLUMNS] * len(designs)
    # ib-ndr and the rack-scale presets 1, spectrumx-800g-2plane 2, rail4 4, rail8 8
    assert {d["figures"]["fabric"]["planes"] for d in designs} == {1, 2, 4, 8}


def test_catalog_list_unknown_family_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["catalog", "list", "--family", "nope"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "'nope'" in captured.err and "gpus" in captured.err


def test_console_script_exists_and_runs() -> None:
    script = Path(sys.executable).with_name("planner")
    assert script.is_file(), "pip install -e . creates the console script"
    result = subprocess.run([str(script), "--help"], capture_output=True, text=True, check=False)
    assert result.returncode == 0 and result.stdout.startswith("usage: planner")


def test_bad_input_in_a_real_process_is_one_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "planner", "sweep", "--sizes", "8:4:8"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "sizes must be" in result.stderr
    assert "Traceback" not in result.stderr


def test_planner_package_still_exports_the_engine() -> None:
    assert planner.plan.__module__ == "planner.engine"
    assert planner.Scenario.__module__ == "planner.inputs.scenario"


def test_the_group_of_each_command_is_the_group_that_registers_it(capsys: pytest.CaptureFixture[str]) -> None:
    """``run`` builds only the group of the command it runs: the table it reads must stay true."""
    from planner.cli import GROUP_OF_COMMAND

    assert set(GROUP_OF_COMMAND) == set(_subparsers(build_parser()))
    for command, add in GROUP_OF_COMMAND.items():
        assert set(_subparsers(build_parser(command))) == {
            name for name, group in GROUP_OF_COMMAND.items() if group is add
        }, command
    assert run(["plan", "--gpus", "0"]) == 2  # a one-group parser still exits 2 with one line
    assert capsys.readouterr().err.count("\n") == 1


def test_workload_table_needs_neither_pandas_nor_scipy() -> None:
    """``planner workload`` prints its table in plain Python (issue 24: a CLI path that prints no
    table of data loads no heavy library; SciPy only fits, NumPy only builds frames)."""
    loaded = _fresh_modules(
        "import contextlib, io\nfrom planner.cli import run\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert run(['workload', '--gpus', '1024', '--design', 'ib-ndr', '--params-b', '70',"
        " '--tokens-b', '1000']) == 0\n"
    )
    assert loaded.isdisjoint((*HEAVY, "scipy", "numpy")), sorted(loaded & {*HEAVY, "scipy", "numpy"})
