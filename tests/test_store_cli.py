"""``planner scenarios ...`` on SQLite and PostgreSQL: output contracts, exit codes, durability."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from planner.cli import run
from planner.store import EXPORT_FORMAT, open_store

pytest_plugins = ["store_fixtures"]

ROOT = Path(__file__).resolve().parents[1]

Cli = Callable[..., tuple[int, str, str]]


@pytest.fixture
def cli(db_url: str, capsys: pytest.CaptureFixture[str]) -> Cli:
    """Run ``planner scenarios --database-url URL ARGS...`` in-process: (exit code, stdout, stderr)."""

    def scenarios(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = run(["scenarios", "--database-url", db_url, *args])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return scenarios


def ok(result: tuple[int, str, str]) -> str:
    code, out, err = result
    assert code == 0, err
    return out


def one_line_error(result: tuple[int, str, str]) -> str:
    code, _, err = result
    assert code == 2
    assert err.startswith("planner: error: ")
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def test_save_prints_the_new_id_and_list_json_has_the_contract_keys(cli: Cli) -> None:
    first = ok(
        cli("save", "--name", "Acme 1024", "--gpus", "1024", "--design", "rail4-npo", "--customer", "Acme")
    )
    second = ok(cli("save", "--name", "Beta", "--gpus", "256", "--tag", "Workshop", "--tag", "npo"))
    assert first.strip().isdigit() and second.strip().isdigit() and first != second
    listed = json.loads(ok(cli("list", "--format", "json")))
    assert [item["id"] for item in listed] == [int(second), int(first)]
    for item in listed:
        assert {"id", "name", "version", "updated_at"} <= set(item)
    beta = listed[0]
    assert (beta["name"], beta["version"], beta["gpus"], beta["tags"]) == (
        "Beta",
        1,
        256,
        ["npo", "workshop"],
    )
    table = ok(cli("list"))
    assert "Acme 1024" in table and "Beta" in table
    csv_lines = ok(cli("list", "--format", "csv")).splitlines()
    assert csv_lines[0].startswith("id,name,customer") and len(csv_lines) == 3
    assert ok(cli("list", "-q", "no such thing", "--format", "csv")).splitlines() == csv_lines[:1]


def test_save_uses_the_same_scenario_options_as_plan(cli: Cli, tmp_path: Path) -> None:
    scenario_file = tmp_path / "s.yaml"
    scenario_file.write_text("gpus: 128\nfacility:\n  years: 7\n", encoding="utf-8")
    new_id = ok(
        cli(
            "save",
            "--name",
            "From file",
            "--scenario",
            str(scenario_file),
            "--rack-kw",
            "55",
            "--cooling",
            "air",
            "--currency",
            "CNY",
            "--gpu",
            "h100_sxm",
            "--design",
            "ib-ndr",
        )
    ).strip()
    shown = json.loads(ok(cli("show", new_id, "--format", "json")))
    scenario = shown["scenario"]
    assert (scenario["name"], scenario["gpus"], scenario["design_id"], scenario["gpu_id"]) == (
        "From file",
        128,
        "ib-ndr",
        "h100_sxm",
    )
    assert scenario["facility"]["years"] == 7
    assert scenario["facility"]["rack_power_limit_kw"] == 55.0
    assert (scenario["facility"]["cooling_id"], scenario["facility"]["currency"]) == ("air", "CNY")


def test_save_a_version_then_a_stale_save_is_a_one_line_conflict(cli: Cli) -> None:
    new_id = ok(cli("save", "--name", "Shared", "--gpus", "256", "--rack-kw", "40")).strip()
    out = ok(cli("save", "--id", new_id, "--expected-version", "1", "--gpus", "512", "--format", "json"))
    assert json.loads(out) == {"id": int(new_id), "version": 2}
    # Flags not given keep the saved values (the edit is layered on the version it names).
    shown = json.loads(ok(cli("show", new_id, "--format", "json")))
    assert (shown["scenario"]["gpus"], shown["scenario"]["facility"]["rack_power_limit_kw"]) == (512, 40.0)
    err = one_line_error(cli("save", "--id", new_id, "--expected-version", "1", "--gpus", "1024"))
    assert "version 2 is the latest" in err and "Nothing was saved" in err
    versions = json.loads(ok(cli("versions", new_id, "--format", "json")))
    assert [v["gpus"] for v in versions] == [256, 512]
    err = one_line_error(cli("save", "--id", new_id, "--gpus", "64"))
    assert "--expected-version is required" in err and "latest is 2" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["save", "--gpus", "64"], "--name is required"),
        (["save", "--name", "x", "--expected-version", "1"], "goes with --id"),
        (["save", "--name", "x", "--rack-kw", "1000"], "rack_power_limit_kw"),
        (["save", "--name", "x", "--gpu", "no_such_gpu"], "no_such_gpu"),
        (["save", "--name", " "], "name: must not be empty"),
        (["save", "--name", "x", "--gpus", "zero"], "gpus must be a whole number"),
        (["show", "99"], "no saved scenario with id 99"),
        (["show", "abc"], "must be a whole number"),
        (["diff", "1@x"], "ID or ID@VERSION"),
        (["list", "--limit", "5000"], "limit"),
        (["import", "/nonexistent/file.json"], "cannot read"),
    ],
)
def test_bad_input_exits_2_with_one_line(cli: Cli, args: list[str], message: str) -> None:
    err = one_line_error(cli(*args))
    assert message in err
    assert json.loads(ok(cli("list", "--format", "json"))) == []


def test_show_versions_and_diff(cli: Cli) -> None:
    new_id = ok(cli("save", "--name", "Diff me", "--gpus", "512", "--design", "rail8-npo")).strip()
    ok(
        cli(
            "save", "--id", new_id, "--expected-version", "1", "--design", "rail4-npo", "--comment", "4 rails"
        )
    )
    shown = ok(cli("show", new_id))
    assert "Scenario" in shown and "Version    2 of 2" in shown and "Comment    4 rails" in shown
    old = json.loads(ok(cli("show", new_id, "--version", "1", "--format", "json")))
    assert (old["version"], old["latest_version"], old["scenario"]["design_id"]) == (1, 2, "rail8-npo")
    assert "4 rails" in ok(cli("versions", new_id))
    table = ok(cli("diff", new_id))
    assert "design_id" in table and '"rail8-npo" -> "rail4-npo"' in table and "per_gpu_gbit_per_s" in table
    data = json.loads(ok(cli("diff", f"{new_id}@1", f"{new_id}@2", "--format", "json")))
    assert [c["field"] for c in data["inputs"]] == ["design_id"]
    moved = {r["metric"]: r for r in data["results"] if r["changed"]}
    assert (moved["per_gpu_gbit_per_s"]["before"], moved["per_gpu_gbit_per_s"]["after"]) == (1600.0, 800.0)
    assert json.loads(ok(cli("diff", f"{new_id}@1", "--format", "json")))["after"]["version"] == 2
    only_one = ok(cli("save", "--name", "Single")).strip()
    assert "one version" in one_line_error(cli("diff", only_one))


def test_delete_restore_rename_duplicate_tag(cli: Cli) -> None:
    new_id = ok(cli("save", "--name", "Trash me", "--gpus", "64")).strip()
    assert "restore" in ok(cli("delete", new_id))
    assert json.loads(ok(cli("list", "--format", "json"))) == []
    trashed = json.loads(ok(cli("list", "--deleted", "--format", "json")))
    assert [t["id"] for t in trashed] == [int(new_id)] and trashed[0]["deleted_at"]
    ok(cli("restore", new_id))
    assert [s["id"] for s in json.loads(ok(cli("list", "--format", "json")))] == [int(new_id)]
    ok(cli("rename", new_id, "Kept"))
    copy_id = ok(cli("duplicate", new_id, "--name", "Kept copy")).strip()
    assert ok(cli("tag", copy_id, "B", "a")) == f"scenario {copy_id} tags: a, b\n"
    listed = {s["name"]: s for s in json.loads(ok(cli("list", "--format", "json")))}
    assert set(listed) == {"Kept", "Kept copy"}
    assert listed["Kept copy"]["tags"] == ["a", "b"]
    assert [s["name"] for s in json.loads(ok(cli("list", "--tag", "a", "--format", "json")))] == ["Kept copy"]
    assert [s["name"] for s in json.loads(ok(cli("list", "-q", "copy", "--format", "json")))] == ["Kept copy"]


def test_export_and_import_files(cli: Cli, tmp_path: Path) -> None:
    new_id = ok(cli("save", "--name", "Portable", "--gpus", "256", "--customer", "Acme")).strip()
    exported = tmp_path / "portable.json"
    ok(cli("export", new_id, "--output", str(exported)))
    document = json.loads(exported.read_text(encoding="utf-8"))
    assert document["format"] == EXPORT_FORMAT and document["scenario"]["gpus"] == 256
    on_stdout = json.loads(ok(cli("export", new_id)))
    assert {**on_stdout, "exported_at": None} == {**document, "exported_at": None}
    imported_id = ok(cli("import", str(exported))).strip()
    assert imported_id != new_id
    shown = json.loads(ok(cli("show", imported_id, "--format", "json")))
    assert (shown["name"], shown["customer"], shown["scenario"]["gpus"]) == ("Portable", "Acme", 256)

    before = ok(cli("list", "--format", "json"))
    document["schema_version"] = 99
    bad = tmp_path / "future.json"
    bad.write_text(json.dumps(document), encoding="utf-8")
    err = one_line_error(cli("import", str(bad)))
    assert "schema_version 99 is unknown" in err and "future.json" in err
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{ this is not json", encoding="utf-8")
    assert "not valid JSON" in one_line_error(cli("import", str(garbage)))
    assert ok(cli("list", "--format", "json")) == before


def test_database_options_work_after_the_subcommand(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["scenarios", "save", "--name", "After", "--database-url", db_url]) == 0
    new_id = int(capsys.readouterr().out)
    with open_store(url=db_url) as store:
        assert store.get(scenario_id=new_id).name == "After"


def test_unsupported_database_url_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["scenarios", "--database-url", "mysql://u@h/db", "list"]) == 2
    assert "unsupported database 'mysql'" in capsys.readouterr().err


def _planner(*args: str, env: dict[str, str]) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "planner", "scenarios", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PLANNER_DATABASE_URL", "PLANNER_DB_PATH")}


@pytest.mark.slow  # whole planner processes one after the other
def test_saved_in_one_process_listed_by_the_next(db_url: str) -> None:
    env = {**_clean_env(), "PLANNER_DATABASE_URL": db_url}
    new_id = int(_planner("save", "--name", "Restart-proof", "--gpus", "512", "--tag", "kept", env=env))
    listed = json.loads(_planner("list", "--format", "json", env=env))
    assert [(s["id"], s["name"], s["version"], s["gpus"]) for s in listed] == [
        (new_id, "Restart-proof", 1, 512)
    ]


@pytest.mark.slow  # whole planner processes one after the other
def test_default_sqlite_file_per_user_survives_processes(tmp_path: Path) -> None:
    env = {**_clean_env(), "HOME": str(tmp_path), "XDG_DATA_HOME": ""}
    new_id = _planner("save", "--name", "Default location", "--gpus", "64", env=env).strip()
    assert (tmp_path / ".local/share/gpu-cluster-planner/scenarios.db").is_file()
    shown = json.loads(_planner("show", new_id, "--format", "json", env=env))
    assert shown["name"] == "Default location"
    env_path = {**env, "PLANNER_DB_PATH": str(tmp_path / "team" / "shared.db")}
    _planner("save", "--name", "Elsewhere", env=env_path)
    assert (tmp_path / "team" / "shared.db").is_file()
    assert [s["name"] for s in json.loads(_planner("list", "--format", "json", env=env_path))] == [
        "Elsewhere"
    ]
