"""The README's generated blocks: the test suite's size and time, and the benchmark table.

    python tools/readme_blocks.py tests artifacts/pytest.xml     # make readme-tests, after make test
    python bench/run.py --readme                                 # make bench (calls replace_block)

A block sits between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->`` in ``README.md``; only
its inside is rewritten, so the prose around it stays as written. The test block is built from
the JUnit XML file that ``make test`` writes (``pytest --junitxml``): the counts and the run's wall
time (the file's ``time``: pytest's session from its start to its end, not the sum of the tests'
times, which is about twice as long on two workers), with the number of workers, the machine, the
load average and the tests per tier that ``tests/conftest.py`` records in it as properties.
Nobody types these numbers.
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
TIERS = ("unit", "app", "pdf", "browser", "pg", "slow")


def markers(name: str) -> tuple[str, str]:
    """The begin and end lines of block ``name``."""
    return f"<!-- {name}:begin -->", f"<!-- {name}:end -->"


def replace_block(text: str, name: str, body: str) -> str:
    """``text`` with the inside of block ``name`` replaced by ``body``.

    >>> replace_block("a\\n<!-- x:begin -->\\nold\\n<!-- x:end -->\\nb\\n", "x", "new")
    'a\\n<!-- x:begin -->\\nnew\\n<!-- x:end -->\\nb\\n'
    """
    begin, end = markers(name)
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        raise SystemExit(f"readme: no {begin} ... {end} block in README.md")
    return text[: start + len(begin)] + "\n" + body.strip("\n") + "\n" + text[stop:]


def write_block(name: str, body: str, readme: Path = README) -> bool:
    """Rewrite block ``name`` of ``readme``; True when the file changed."""
    old = readme.read_text(encoding="utf-8")
    new = replace_block(old, name, body)
    if new != old:
        readme.write_text(new, encoding="utf-8")
    return new != old


@dataclass(frozen=True)
class Run:
    """One pytest run, as its JUnit XML file records it."""

    tests: int
    skipped: int
    failed: int
    seconds: float
    properties: Mapping[str, str]


def read_junit(path: Path) -> Run:
    """The counts, time and recorded properties of a ``pytest --junitxml`` file."""
    root = ET.parse(path).getroot()
    suite = root if root.tag == "testsuite" else root.find("testsuite")
    if suite is None:
        raise SystemExit(f"readme: {path} holds no <testsuite>")
    # the run's own properties (a test's line may hold its own: the worker that ran it)
    recorded = suite.find("properties")
    properties = {p.get("name", ""): p.get("value", "") for p in (recorded if recorded is not None else ())}
    return Run(
        tests=int(suite.get("tests", 0)),
        skipped=int(suite.get("skipped", 0)),
        failed=int(suite.get("failures", 0)) + int(suite.get("errors", 0)),
        seconds=float(suite.get("time", 0.0)),
        properties=properties,
    )


def _duration(seconds: float) -> str:
    """``"5 min 12 s"``.

    >>> _duration(312.4), _duration(42.0)
    ('5 min 12 s', '42 s')
    """
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


def tests_block(run: Run) -> str:
    """The README's lines on the suite: how many tests, per tier, how long the run took (wall time)
    and on how many workers."""
    p = run.properties
    tiers = ", ".join(f"{tier} {p[f'tier_{tier}']}" for tier in TIERS if f"tier_{tier}" in p)
    where = ", ".join(
        part
        for part in (
            p.get("date", ""),
            p.get("machine", ""),
            f"load average {p['load_average']}" if "load_average" in p else "",
        )
        if part
    )
    outcome = f"{run.tests:,} tests" + (f", {run.skipped} skipped" if run.skipped else "")
    if run.failed:
        outcome += f", {run.failed} failed"
    workers = p.get("workers", "1")
    on = "in one process" if workers == "1" else f"on {workers} pytest-xdist workers"
    lines = [
        f"Last full run (`make test`, written by `make readme-tests`): **{outcome}** in "
        f"**{_duration(run.seconds)}** of wall time, {on} ({where}).",
    ]
    if tiers:
        lines.append(f"Tests per tier (a test can be in two): {tiers}.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("block", choices=["tests"])
    parser.add_argument("junit", type=Path, help="the JUnit XML file of a whole `make test` run")
    args = parser.parse_args(argv)
    if not args.junit.is_file():
        print(f"readme: {args.junit} not found; run make test first", file=sys.stderr)
        return 2
    changed = write_block("tests", tests_block(read_junit(args.junit)))
    print("README.md: tests block " + ("rewritten" if changed else "unchanged"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
