"""Two processes save the same scenario at the same moment against one PostgreSQL: optimistic
locking lets exactly one through, refuses the other with a clear one-line message, and loses no
write.

Each process is the real command line (``planner scenarios save --id N --expected-version 1``)
started in its own interpreter, with its own connection pool. To make the saves truly
simultaneous rather than merely close, the test holds the scenario's row lock (``SELECT ... FOR
UPDATE``) until PostgreSQL reports both processes' guarded ``UPDATE`` waiting on it, then lets go:
one update moves the version pointer, the other re-checks its ``WHERE current_version = 1``
against the committed row, matches nothing and is refused. Needs ``PLANNER_TEST_PG_URL``
(``store_fixtures``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from planner import Scenario
from planner.access import Identity
from planner.store import open_store

pytest_plugins = ["store_fixtures"]

ROUNDS = 3
"""Races run one after another on the same scenario; each must add exactly one version."""

WORKER = """
import sys
import time
from pathlib import Path
from planner.cli import run  # imported before the start signal: the race is the save, not the import
ready, go, *args = sys.argv[1:]
Path(ready).touch()
while not Path(go).exists():
    time.sleep(0.001)
sys.exit(run(args))
"""


@pytest.fixture
def locker(pg_url: str) -> Iterator[object]:
    engine = create_engine(pg_url)
    yield engine
    engine.dispose()


def _waiting_updates(engine: object, timeout_s: float = 120.0) -> int:
    """Wait until two sessions wait for a lock on an ``UPDATE scenarios``; their count."""
    deadline = time.monotonic() + timeout_s
    count = 0
    with engine.connect() as probe:  # type: ignore[attr-defined]
        while time.monotonic() < deadline:
            count = probe.execute(
                text(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                    "AND query ILIKE 'UPDATE scenarios%'"
                )
            ).scalar_one()
            probe.commit()
            if count >= 2:
                return int(count)
            time.sleep(0.05)
    return int(count)


def _start(tmp: Path, name: str, args: list[str]) -> tuple[subprocess.Popen[str], Path]:
    ready = tmp / f"{name}.ready"
    process = subprocess.Popen(
        [sys.executable, "-c", WORKER, str(ready), str(tmp / "go"), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PLANNER_USER": f"{name}@example.com"},
    )
    return process, ready


def _finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=120)
    return process.returncode, out, err


def test_two_processes_save_at_once_one_wins_one_is_refused(
    pg_url: str, locker: object, tmp_path: Path
) -> None:
    with open_store(url=pg_url) as store:
        sid = store.create(name="Race", scenario=Scenario(gpus=64)).id
    gpus = {"ann": 512, "bob": 1024}
    for round_ in range(ROUNDS):
        expected = round_ + 1
        folder = tmp_path / f"round{round_}"
        folder.mkdir()
        workers = {
            name: _start(
                folder,
                name,
                [
                    "scenarios",
                    "--database-url",
                    pg_url,
                    "save",
                    "--id",
                    str(sid),
                    "--expected-version",
                    str(expected),
                    "--gpus",
                    str(count),
                    "--comment",
                    name,
                ],
            )
            for name, count in gpus.items()
        }
        deadline = time.monotonic() + 120
        while not all(ready.exists() for _, ready in workers.values()) and time.monotonic() < deadline:
            time.sleep(0.05)
        with locker.connect() as hold:  # type: ignore[attr-defined]
            hold.execute(text("SELECT id FROM scenarios WHERE id = :id FOR UPDATE"), {"id": sid})
            (folder / "go").touch()
            waiting = _waiting_updates(locker)
            hold.rollback()  # let go: both updates were queued behind this lock
        results = {name: _finish(process) for name, (process, _) in workers.items()}
        assert waiting == 2, f"both saves were in flight at once (round {round_}): {results}"
        codes = sorted(code for code, _, _ in results.values())
        assert codes == [0, 2], results
        winner = next(name for name, (code, _, _) in results.items() if code == 0)
        loser = next(name for name in gpus if name != winner)
        message = results[loser][2]
        assert message.count("\n") == 1, "one line"
        assert message.startswith(
            f"planner: error: scenario {sid} changed since you opened it: you edited version {expected} "
            f"but version {expected + 1} is the latest. Nothing was saved"
        ), message
        assert f"reload: planner scenarios show {sid}" in message
        with open_store(url=pg_url) as store:
            admin = store.as_user(identity=Identity(user="root", name="root", role="admin"))
            versions = admin.versions(scenario_id=sid)
            assert [v.version for v in versions] == list(range(1, expected + 2)), "exactly one new version"
            latest = admin.load(scenario_id=sid)
            assert latest.scenario.gpus == gpus[winner], "the winner's write is the one kept"
            assert versions[-1].comment == winner
            saves = [e for e in admin.audit_log() if e.action == "save" and e.version == expected + 1]
            assert [e.actor for e in saves] == [f"{winner}@example.com"], "the refused save left no trace"
    # nothing lost across the rounds: every version is there, in order, each from one of the two
    with open_store(url=pg_url) as store:
        history = [
            store.load(scenario_id=sid, version=info.version).scenario.gpus
            for info in store.versions(scenario_id=sid)
        ]
    assert history[0] == 64 and len(history) == ROUNDS + 1
    assert set(history[1:]) <= set(gpus.values())
