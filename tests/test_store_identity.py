"""Who the command line acts as (``planner scenarios --user/--team/--role`` or ``PLANNER_USER``,
``PLANNER_TEAM``, ``PLANNER_ROLE``): the owner and team of what it saves, the actor of its audit
lines, and what it lists; on SQLite and on PostgreSQL (``store_fixtures``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from planner.access import LOCAL_IDENTITY, cli_identity
from planner.cli import run
from planner.errors import InputError

pytest_plugins = ["store_fixtures"]


def cli(capsys: pytest.CaptureFixture[str], db_url: str, *args: str) -> tuple[int, str, str]:
    code = run(["scenarios", "--database-url", db_url, *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def listed(capsys: pytest.CaptureFixture[str], db_url: str, *who: str) -> list[dict[str, Any]]:
    code, out, err = cli(capsys, db_url, "list", "--format", "json", *who)
    assert code == 0, err
    rows: list[dict[str, Any]] = json.loads(out)
    return rows


def save(capsys: pytest.CaptureFixture[str], db_url: str, name: str, *who: str) -> int:
    code, out, err = cli(capsys, db_url, "save", "--name", name, "--gpus", "64", *who)
    assert code == 0, err
    return int(out)


def test_saves_are_owned_shared_and_audited_as_the_cli_user(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = save(capsys, db_url, "Ann's", "--user", "ann@example.com", "--team", "emea,apac")
    monkeypatch.setenv("PLANNER_USER", "bob@example.com")
    monkeypatch.setenv("PLANNER_TEAM", "apac")
    bob = save(capsys, db_url, "Bob's")  # from the environment
    monkeypatch.delenv("PLANNER_USER")
    monkeypatch.delenv("PLANNER_TEAM")
    local = save(capsys, db_url, "Laptop's")
    rows = {r["id"]: r for r in listed(capsys, db_url)}  # local admin: every row
    assert (rows[ann]["owner"], rows[ann]["team"]) == ("ann@example.com", "emea")  # the first team
    assert (rows[bob]["owner"], rows[bob]["team"]) == ("bob@example.com", "apac")
    assert (rows[local]["owner"], rows[local]["team"]) == ("local", "")
    code, out, _ = cli(capsys, db_url, "audit", "--format", "json")
    assert code == 0
    actors = {(e["scenario_id"], e["actor"]) for e in json.loads(out) if e["action"] == "save"}
    assert actors == {(ann, "ann@example.com"), (bob, "bob@example.com"), (local, "local")}
    code, out, _ = cli(capsys, db_url, "list")
    assert code == 0
    header = out.splitlines()[0].split()
    assert "owner" in header and "team" in header
    assert "ann@example.com" in out and "emea" in out


def test_a_role_lists_and_changes_what_the_app_would_let_it(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ann = save(capsys, db_url, "Ann's", "--user", "ann@example.com", "--team", "emea")
    dan = save(capsys, db_url, "Dan's", "--user", "dan@example.com", "--team", "apac")
    carol = ("--user", "carol@example.com", "--team", "emea", "--role", "architect")
    assert [r["id"] for r in listed(capsys, db_url, *carol)] == [ann]  # her team's, not apac's
    code, _, err = cli(capsys, db_url, "show", str(dan), *carol)
    assert code == 2 and "not shared with carol@example.com" in err and len(err.splitlines()) == 1
    code, _, err = cli(capsys, db_url, "delete", str(ann), *carol)  # a teammate, not the owner
    assert code == 2 and "only its owner ann@example.com" in err
    code, _, err = cli(
        capsys, db_url, "save", "--name", "x", "--team", "apac", "--user", "eve", "--role", "viewer"
    )
    assert code == 2 and "viewer" in err
    assert len(listed(capsys, db_url)) == 2  # nothing was saved by the refused commands
    code, out, _ = cli(capsys, db_url, "audit", "--format", "json", *carol)
    assert code == 0 and json.loads(out) == []  # her own lines only, and she has none


def test_bad_identities_exit_2_naming_the_option(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, db_url, "list", "--role", "boss")
    assert code == 2 and err.startswith("planner: error: --role (or PLANNER_ROLE): one of viewer")
    code, _, err = cli(capsys, db_url, "list", "--user", "x" * 201)
    assert code == 2 and "--user (or PLANNER_USER): at most 200 characters (got 201)" in err
    code, _, err = cli(capsys, db_url, "list", "--team", "ok," + "t" * 101)
    assert code == 2 and "--team (or PLANNER_TEAM): at most 100 characters" in err


def test_cli_identity_defaults_to_the_laptop_user() -> None:
    assert cli_identity(user=None, teams=None, role=None, env={}) == LOCAL_IDENTITY
    ann = cli_identity(
        user="  ann ", teams=" emea ,, apac,emea", role="commercial", env={"PLANNER_USER": "x"}
    )
    assert (ann.user, ann.teams, ann.role, ann.team) == ("ann", ("emea", "apac"), "commercial", "emea")
    env = {"PLANNER_USER": "bob", "PLANNER_TEAM": "apac", "PLANNER_ROLE": "architect"}
    bob = cli_identity(user=None, teams=None, role=None, env=env)
    assert (bob.user, bob.teams, bob.role) == ("bob", ("apac",), "architect")
    with pytest.raises(InputError, match="PLANNER_ROLE"):
        cli_identity(user=None, teams=None, role=None, env={"PLANNER_ROLE": "root"})
