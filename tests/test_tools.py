"""The maintainer tools: the API reference (``make docs``) and the README's generated blocks."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tools import api_docs, readme_blocks

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # imports every module of the package to document it (~4 s CPU)
def test_make_docs_writes_the_engine_reference_from_its_docstrings(tmp_path: Path) -> None:
    written = api_docs.write(tmp_path)
    names = {path.name for path in written}
    assert {"index.md", "planner.engine.md", "planner.bom.md"} <= names
    assert not any(name.startswith(("planner.cli", "planner.store.migrations")) for name in names)
    engine = (tmp_path / "planner.engine.md").read_text(encoding="utf-8")
    assert (
        "## function `plan`" in engine
        and "plan(*, scenario: 'Scenario', catalog: 'Catalog', layout_cable_lengths: 'bool' = True)" in engine
    )
    bom = (tmp_path / "planner.bom.md").read_text(encoding="utf-8")
    section = bom[bom.index("## function `bom_lines`") :]
    assert "**Parameters**" in section and "**Returns**" in section and "it_kw" in section
    assert "[`planner.engine`](planner.engine.md)" in (tmp_path / "index.md").read_text(encoding="utf-8")


JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" errors="0" failures="1" skipped="3" tests="2300" time="312.4">
<properties><property name="tier_unit" value="1600"/><property name="tier_app" value="300"/>
<property name="machine" value="2 cores, AMD EPYC, Python 3.11.7"/>
<property name="load_average" value="0.9 1.1 1.0"/><property name="date" value="2026-12-01"/>
<property name="workers" value="2"/></properties>
<testcase classname="t" name="a" time="1"/></testsuite></testsuites>
"""


def test_the_tests_block_is_written_from_the_junit_file(tmp_path: Path) -> None:
    path = tmp_path / "pytest.xml"
    path.write_text(JUNIT, encoding="utf-8")
    block = readme_blocks.tests_block(readme_blocks.read_junit(path))
    # 312.4 s of pytest = 5 min 12 s; the counts and facts are the file's, nothing typed
    assert (
        "**2,300 tests, 3 skipped, 1 failed** in **5 min 12 s** of wall time, on 2 pytest-xdist workers"
        in block
    )
    assert "2026-12-01, 2 cores, AMD EPYC, Python 3.11.7, load average 0.9 1.1 1.0" in block
    assert "unit 1600, app 300." in block
    readme = tmp_path / "README.md"
    readme.write_text("intro\n<!-- tests:begin -->\nold\n<!-- tests:end -->\nrest\n", encoding="utf-8")
    assert readme_blocks.write_block("tests", block, readme)
    assert (
        readme.read_text(encoding="utf-8")
        == f"intro\n<!-- tests:begin -->\n{block}\n<!-- tests:end -->\nrest\n"
    )
    assert not readme_blocks.write_block("tests", block, readme)


def test_the_readme_has_its_generated_blocks() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in ("tests", "bench"):
        begin, end = readme_blocks.markers(name)
        assert text.count(begin) == 1 and text.count(end) == 1 and text.index(begin) < text.index(end), name
    begin, end = readme_blocks.markers("tests")
    inside = text[text.index(begin) + len(begin) : text.index(end)]
    assert "written by `make readme-tests`" in inside, "the test count and time are generated, not typed"


@pytest.mark.slow  # a pytest run on two worker processes (~10 s of CPU)
def test_a_run_on_two_workers_keeps_its_groups_and_records_its_facts(tmp_path: Path) -> None:
    """``make test`` runs on two pytest-xdist workers (``--dist loadgroup``): each browser test on
    the same worker (the browser group; test_gate.py's need no Chromium), each other module whole
    on one worker; the workers write no JUnit file, so the controller must still record every test
    and the facts the README's line is made of (tests/conftest.py)."""
    junit = tmp_path / "pytest.xml"
    command = [sys.executable, "-m", "pytest", "-v", "-n", "2", "--dist", "loadgroup"]
    command += ["--no-loadscope-reorder", f"--junitxml={junit}"]
    command += ["tests/browser/test_gate.py", "tests/test_shorten.py", "tests/test_check_clean.py"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    workers: dict[str, set[str]] = {}
    for worker, nodeid in re.findall(r"^\[(gw\d)\] .*?(?:PASSED|SKIPPED|FAILED) (\S+)", done.stdout, re.M):
        workers.setdefault(nodeid.split("::")[0], set()).add(worker)
    assert len(workers) == 3 and all(len(used) == 1 for used in workers.values()), workers
    run = readme_blocks.read_junit(junit)
    cases = list(ET.parse(junit).getroot().iter("testcase"))
    names = [case.get("name", "") for case in cases]
    assert run.tests == len(names) > 10 and run.failed == 0
    assert not [name for name in names if "@" in name], "a group name leaked into the test names"
    # each test's line names the worker that ran it (the same as -v printed) and when it started
    recorded = [{p.get("name"): p.get("value", "") for p in case.iter("property")} for case in cases]
    assert all(props.keys() == {"worker", "started"} for props in recorded), recorded
    assert all(float(props["started"]) > 1.7e9 for props in recorded)  # seconds since the epoch
    by_file: dict[str, set[str]] = {}
    for case, props in zip(cases, recorded, strict=True):
        by_file.setdefault(case.get("classname", "").replace(".", "/") + ".py", set()).add(props["worker"])
    assert by_file == workers, (by_file, workers)
    facts = run.properties
    assert facts["workers"] == "2" and int(facts["tier_browser"]) == sum(
        case.get("classname", "").startswith("tests.browser.") for case in cases
    )
    assert {"machine", "load_average", "date", "tier_unit"} <= set(facts)
    assert "on 2 pytest-xdist workers" in readme_blocks.tests_block(run)
