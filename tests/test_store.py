"""The scenario store on SQLite and on a real PostgreSQL: every test runs on both backends.

Covers the issue's "must show" list: round-trip, migration from an empty database, concurrent
update conflict, soft delete and restore, restart durability (a new process reads what this one
wrote), bad imports; plus versions, diff, search, tags, duplicate and rename.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import column, inspect, table, update

from planner import Scenario, scenario_from_data
from planner.errors import InputError
from planner.inputs.scenario import scenario_to_json
from planner.store import (
    EXPORT_FORMAT,
    KEY_METRICS,
    ConflictError,
    ImportRejectedError,
    ScenarioDeletedError,
    ScenarioNotFoundError,
    ScenarioStore,
    StoreError,
    open_store,
)
from planner.store.migrate import current_revision, downgrade, head_revision, upgrade
from planner.store.models import Base

pytest_plugins = ["store_fixtures"]

ROOT = Path(__file__).resolve().parents[1]
STORE_TABLES = {"scenarios", "scenario_versions", "scenario_tags"}


def rich_scenario() -> Scenario:
    """Every kind of field set: explicit fabric, facility, link lengths, price overrides, CJK text.

    The ids are the bundled catalog's, so the scenario plans (an import plans what it stores).
    """
    return scenario_from_data(
        {
            "name": "华为客户 1024 卡超节点",
            "gpus": 1000,
            "design_id": "rail4-npo",
            "fabric": {
                "family": "ethernet",
                "ports_per_gpu": 4,
                "port_speed_gbit_per_s": 200,
                "planes": 4,
                "rail_optimized": True,
                "switch_id": "th5_51t_switch",
                "nic_id": "npo_nic_200g",
                "optics_id": "npo_200g_port",
                "oversubscription": 1.5,
                "scale_up_domain_gpus": 8,
            },
            "gpu_id": "br100",
            "facility": {
                "rack_power_limit_kw": 61.5,
                "cooling_id": "air",
                "pue_override": 1.234567890123,
                "currency": "CNY",
                "usd_to_cny": 7.1,
                "link_lengths": {"node_leaf_m": 3.5, "leaf_spine_m": 45.0, "spine_core_m": 120.0},
            },
            "price_overrides_usd": {"br100": 12345.67, "npo_200g_port": 0.1},
        }
    )


# -- round trip -----------------------------------------------------------------------------------


def test_create_and_load_round_trip_exactly(store: ScenarioStore) -> None:
    original = rich_scenario()
    saved = store.create(
        name="  Acme supernode ", scenario=original, customer="Acme 中国", tags=["NPO", "workshop", "npo"]
    )
    loaded = store.load(scenario_id=saved.id)
    assert loaded.scenario == original
    assert scenario_to_json(loaded.scenario) == scenario_to_json(original)
    assert (loaded.record.name, loaded.record.customer, loaded.record.tags) == (
        "Acme supernode",
        "Acme 中国",
        ("npo", "workshop"),
    )
    assert (loaded.record.version, loaded.version.version, loaded.is_latest) == (1, 1, True)
    assert (loaded.record.gpus, loaded.record.design_id) == (1000, "rail4-npo")
    assert loaded.record.created_at.tzinfo is not None
    assert loaded.record.created_at.utcoffset() == UTC.utcoffset(None)
    assert loaded == saved


def test_ids_are_distinct_and_not_reused(store: ScenarioStore) -> None:
    ids = [store.create(name=f"s{i}", scenario=Scenario(gpus=8 * (i + 1))).id for i in range(3)]
    assert len(set(ids)) == 3
    store.delete(scenario_id=ids[-1])
    assert store.create(name="next", scenario=Scenario()).id not in ids


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"name": "   "}, "name"),
        ({"name": "x" * 201}, "name"),
        ({"name": "two\nlines"}, "name"),
        ({"name": "ok", "customer": "c" * 201}, "customer"),
        ({"name": "ok", "tags": ["t" * 51]}, "tag"),
        ({"name": "ok", "tags": "not-a-list"}, "tags"),
        ({"name": "ok", "tags": [f"t{i}" for i in range(21)]}, "tags"),
    ],
)
def test_bad_labels_are_rejected_and_nothing_saved(
    store: ScenarioStore, kwargs: dict[str, object], field: str
) -> None:
    with pytest.raises(InputError, match=field):
        store.create(scenario=Scenario(), **kwargs)  # type: ignore[arg-type]
    assert store.list_scenarios(state="all") == ()


# -- versions and optimistic locking --------------------------------------------------------------


def test_every_save_is_a_version_and_any_version_opens(store: ScenarioStore) -> None:
    first = store.create(name="Growth", scenario=Scenario(gpus=256), author="ann", comment="start")
    second = store.save(
        scenario_id=first.id, scenario=Scenario(gpus=512), expected_version=1, author="bob", comment="double"
    )
    third = store.save(
        scenario_id=first.id,
        scenario=Scenario(gpus=512, design_id="rail4-npo"),
        expected_version=2,
        name="Growth v3",
        tags=["final"],
    )
    assert (second.version.version, third.version.version, third.record.version) == (2, 3, 3)
    versions = store.versions(scenario_id=first.id)
    assert [(v.version, v.gpus, v.design_id, v.author, v.comment) for v in versions] == [
        (1, 256, "rail8-npo", "ann", "start"),
        (2, 512, "rail8-npo", "bob", "double"),
        (3, 512, "rail4-npo", "", ""),
    ]
    old = store.load(scenario_id=first.id, version=1)
    assert (old.scenario.gpus, old.is_latest, old.record.version, old.record.name) == (
        256,
        False,
        3,
        "Growth v3",
    )
    assert store.get(scenario_id=first.id).tags == ("final",)
    with pytest.raises(ScenarioNotFoundError, match="versions 1 to 3"):
        store.load(scenario_id=first.id, version=4)


def test_stale_save_conflicts_and_nothing_is_lost(db_url: str) -> None:
    # Two app instances (two engines) on one database, both editing version 1.
    with open_store(url=db_url) as alice, open_store(url=db_url) as bob:
        saved = alice.create(name="Shared", scenario=Scenario(gpus=256))
        alice_edit = Scenario(gpus=512)
        bob_edit = Scenario(gpus=1024, design_id="ib-ndr")
        alice.save(scenario_id=saved.id, scenario=alice_edit, expected_version=1)
        with pytest.raises(ConflictError, match="version 2 is the latest") as conflict:
            bob.save(scenario_id=saved.id, scenario=bob_edit, expected_version=1, name="Bob's name")
        error = conflict.value
        assert (error.scenario_id, error.expected_version, error.current_version) == (saved.id, 1, 2)
        assert error.rejected == bob_edit
        # Nothing was written by the refused save ...
        assert [v.version for v in bob.versions(scenario_id=saved.id)] == [1, 2]
        assert bob.get(scenario_id=saved.id).name == "Shared"
        assert bob.load(scenario_id=saved.id).scenario == alice_edit
        # ... and Bob can keep his edit either way the error offers.
        as_new = bob.create(name="Shared (Bob)", scenario=error.rejected)
        reloaded = bob.save(
            scenario_id=saved.id, scenario=error.rejected, expected_version=error.current_version
        )
        assert bob.load(scenario_id=as_new.id).scenario == bob_edit
        assert reloaded.version.version == 3
        assert [v.gpus for v in alice.versions(scenario_id=saved.id)] == [256, 512, 1024]


def test_simultaneous_saves_exactly_one_wins(db_url: str) -> None:
    writers = 4
    with open_store(url=db_url) as one, open_store(url=db_url) as two:
        saved = one.create(name="Race", scenario=Scenario(gpus=64))
        start = threading.Barrier(writers)

        def attempt(i: int) -> str:
            target = (one, two)[i % 2]
            start.wait()
            try:
                target.save(scenario_id=saved.id, scenario=Scenario(gpus=128 * (i + 1)), expected_version=1)
            except ConflictError:
                return "conflict"
            return "saved"

        with ThreadPoolExecutor(max_workers=writers) as pool:
            outcomes = sorted(pool.map(attempt, range(writers)))
        assert outcomes == ["conflict"] * (writers - 1) + ["saved"]
        assert [v.version for v in one.versions(scenario_id=saved.id)] == [1, 2]


def test_save_with_a_future_or_bad_version_is_input_error(store: ScenarioStore) -> None:
    saved = store.create(name="x", scenario=Scenario())
    with pytest.raises(InputError, match="versions 1 to 1"):
        store.save(scenario_id=saved.id, scenario=Scenario(), expected_version=5)
    with pytest.raises(InputError, match="expected_version"):
        store.save(scenario_id=saved.id, scenario=Scenario(), expected_version=0)
    with pytest.raises(ScenarioNotFoundError):
        store.save(scenario_id=saved.id + 100, scenario=Scenario(), expected_version=1)


# -- trash ----------------------------------------------------------------------------------------


def test_soft_delete_and_restore_keep_every_version(store: ScenarioStore) -> None:
    saved = store.create(name="Keep me", scenario=Scenario(gpus=128), tags=["t"])
    store.save(scenario_id=saved.id, scenario=Scenario(gpus=256), expected_version=1)
    other = store.create(name="Other", scenario=Scenario())

    trashed = store.delete(scenario_id=saved.id)
    assert trashed.deleted and trashed.deleted_at is not None
    assert [s.id for s in store.list_scenarios()] == [other.id]
    assert [s.id for s in store.list_scenarios(state="deleted")] == [saved.id]
    assert {s.id for s in store.list_scenarios(state="all")} == {saved.id, other.id}
    assert store.tags() == ()
    with pytest.raises(ScenarioDeletedError, match="restore"):
        store.load(scenario_id=saved.id)
    with pytest.raises(ScenarioDeletedError):
        store.save(scenario_id=saved.id, scenario=Scenario(), expected_version=2)
    with pytest.raises(ScenarioDeletedError):
        store.rename(scenario_id=saved.id, name="nope")
    assert store.load(scenario_id=saved.id, include_deleted=True).scenario.gpus == 256
    assert store.delete(scenario_id=saved.id).deleted_at == trashed.deleted_at  # idempotent

    restored = store.restore(scenario_id=saved.id)
    assert not restored.deleted
    assert [v.gpus for v in store.versions(scenario_id=saved.id)] == [128, 256]
    assert store.load(scenario_id=saved.id).record.tags == ("t",)
    assert {s.id for s in store.list_scenarios()} == {saved.id, other.id}
    with pytest.raises(ScenarioNotFoundError):
        store.delete(scenario_id=999)


# -- search, tags, customer, rename, duplicate ----------------------------------------------------


def test_search_by_name_customer_tag_and_filters(store: ScenarioStore) -> None:
    a = store.create(
        name="Acme training cluster", scenario=Scenario(), customer="Acme Corp", tags=["workshop"]
    )
    b = store.create(name="Beta inference", scenario=Scenario(), customer="Beta Ltd", tags=["npo", "q3"])
    c = store.create(name="50% discount case_1", scenario=Scenario(), customer="", tags=["Workshop"])

    def ids(**kwargs: object) -> set[int]:
        return {s.id for s in store.list_scenarios(**kwargs)}  # type: ignore[arg-type]

    assert ids() == {a.id, b.id, c.id}
    assert ids(query="ACME") == {a.id}
    assert ids(query="beta ltd") == {b.id}
    assert ids(query="workshop") == {a.id, c.id}
    assert ids(query="q3") == {b.id}
    assert ids(tag="WORKSHOP") == {a.id, c.id}
    assert ids(tag="work") == set()
    assert ids(customer="corp") == {a.id}
    assert ids(query="workshop", customer="acme") == {a.id}
    # LIKE wildcards are literal text, not patterns.
    assert ids(query="50%") == {c.id}
    assert ids(query="%") == {c.id}
    assert ids(query="_") == {c.id}
    assert ids(query=str(b.id)) >= {b.id}
    # Quotes and SQL in a search are just text.
    assert ids(query="'; DROP TABLE scenarios; --") == set()
    assert ids(query="x' OR '1'='1") == set()
    assert len(store.list_scenarios()) == 3
    assert store.tags() == ("npo", "q3", "workshop")
    assert store.customers() == ("Acme Corp", "Beta Ltd")
    # Most recently changed first, and paging.
    store.rename(scenario_id=a.id, name="Acme training cluster v2")
    assert store.list_scenarios()[0].id == a.id
    assert len(store.list_scenarios(limit=2)) == 2
    assert len(store.list_scenarios(limit=2, offset=2)) == 1
    with pytest.raises(InputError, match="limit"):
        store.list_scenarios(limit=0)
    with pytest.raises(InputError, match="state"):
        store.list_scenarios(state="gone")  # type: ignore[arg-type]


def test_rename_tags_and_details_do_not_add_versions(store: ScenarioStore) -> None:
    saved = store.create(name="Old", scenario=Scenario(), customer="A")
    renamed = store.rename(scenario_id=saved.id, name="New <b>name</b> & co")
    assert renamed.name == "New <b>name</b> & co"  # stored as typed; escaping is the page's job
    tagged = store.set_tags(scenario_id=saved.id, tags=["x", "Y"])
    assert tagged.tags == ("x", "y")
    details = store.update_details(scenario_id=saved.id, customer="B", notes="line 1\nline 2", tags=[])
    assert (details.customer, details.notes, details.tags, details.version) == ("B", "line 1\nline 2", (), 1)
    assert details.updated_at >= saved.record.updated_at
    assert [v.version for v in store.versions(scenario_id=saved.id)] == [1]


def test_duplicate_copies_a_version_into_a_new_scenario(store: ScenarioStore) -> None:
    saved = store.create(name="Base", scenario=Scenario(gpus=256), customer="Acme", tags=["t"], notes="n")
    store.save(scenario_id=saved.id, scenario=Scenario(gpus=512), expected_version=1)
    copy = store.duplicate(scenario_id=saved.id, version=1)
    assert copy.id != saved.id
    assert (copy.record.name, copy.record.customer, copy.record.tags, copy.record.notes) == (
        "Base (copy)",
        "Acme",
        ("t",),
        "n",
    )
    assert (copy.scenario.gpus, copy.version.version) == (256, 1)
    assert f"scenario {saved.id} version 1" in copy.version.comment
    named = store.duplicate(scenario_id=saved.id, name="Variant")
    assert (named.record.name, named.scenario.gpus) == ("Variant", 512)


# -- diff -----------------------------------------------------------------------------------------


def test_diff_names_changed_inputs_and_moved_results(store: ScenarioStore) -> None:
    base = Scenario(gpus=512, design_id="rail8-npo")
    saved = store.create(name="Diff", scenario=base)
    store.save(
        scenario_id=saved.id,
        scenario=base.with_updates(design_id="rail4-npo", facility={"rack_power_limit_kw": 60.0}),
        expected_version=1,
    )
    diff = store.diff(scenario_id=saved.id, from_version=1)
    assert [(c.field, c.before, c.after) for c in diff.inputs] == [
        ("design_id", "rail8-npo", "rail4-npo"),
        ("facility.rack_power_limit_kw", 40.0, 60.0),
    ]
    assert diff.results_error is None
    assert [r.metric for r in diff.results] == list(KEY_METRICS)
    moved = {r.metric: r for r in diff.moved_results}
    # Half the rails: half the injection bandwidth per GPU (8 x 200G -> 4 x 200G).
    assert (moved["per_gpu_gbit_per_s"].before, moved["per_gpu_gbit_per_s"].after) == (1600.0, 800.0)
    assert moved["per_gpu_gbit_per_s"].relative_change == pytest.approx(-0.5)
    assert "gpus" not in moved
    assert (diff.before.version, diff.after.version) == (1, 2)
    assert json.loads(json.dumps(diff.to_dict()))["inputs"][0]["field"] == "design_id"
    same = store.diff(scenario_id=saved.id, from_version=2, to_version=2)
    assert same.inputs == () and same.moved_results == ()


def test_compare_two_scenarios_side_by_side(store: ScenarioStore) -> None:
    left = store.create(name="IB", scenario=Scenario(gpus=256, design_id="ib-ndr"))
    right = store.create(name="NPO", scenario=Scenario(gpus=256, design_id="rail8-npo"))
    diff = store.compare(left_id=left.id, right_id=right.id)
    assert [c.field for c in diff.inputs] == ["design_id"]
    assert (diff.before.scenario_id, diff.after.scenario_id) == (left.id, right.id)
    assert any(r.metric == "capex_usd" and r.changed for r in diff.results)


def test_diff_still_lists_inputs_when_a_side_no_longer_plans(store: ScenarioStore) -> None:
    saved = store.create(name="x", scenario=Scenario(gpus=64))
    store.save(scenario_id=saved.id, scenario=Scenario(gpus=64, gpu_id="retired_gpu"), expected_version=1)
    diff = store.diff(scenario_id=saved.id, from_version=1, to_version=2)
    assert [c.field for c in diff.inputs] == ["gpu_id"]
    assert diff.results == ()
    assert diff.results_error is not None and "retired_gpu" in diff.results_error


# -- import and export ----------------------------------------------------------------------------


def test_export_then_import_round_trips(store: ScenarioStore) -> None:
    saved = store.create(
        name="Export me", scenario=rich_scenario(), customer="Acme", tags=["a", "b"], notes="n"
    )
    text = store.export_json(scenario_id=saved.id)
    document = json.loads(text)
    assert (document["format"], document["schema_version"]) == (EXPORT_FORMAT, 1)
    assert document["exported_from"] == {"scenario_id": saved.id, "version": 1}
    imported = store.import_json(text=text, source="acme.json")
    assert imported.id != saved.id
    assert imported.scenario == saved.scenario
    assert (imported.record.name, imported.record.customer, imported.record.tags, imported.record.notes) == (
        "Export me",
        "Acme",
        ("a", "b"),
        "n",
    )
    assert "acme.json" in imported.version.comment
    renamed = store.import_json(text=text.encode("utf-8"), name="Renamed")
    assert renamed.record.name == "Renamed"


def test_import_accepts_a_bare_scenario(store: ScenarioStore) -> None:
    imported = store.import_json(text=scenario_to_json(Scenario(name="Bare one", gpus=64)))
    assert (imported.record.name, imported.scenario.gpus) == ("Bare one", 64)
    unnamed = store.import_json(text='{"gpus": 16}')
    assert unnamed.record.name == "Imported scenario"


def _envelope(**changes: object) -> str:
    document: dict[str, object] = {
        "format": EXPORT_FORMAT,
        "schema_version": 1,
        "name": "Imported",
        "scenario": {"gpus": 64},
    }
    document.update(changes)
    return json.dumps(document)


BAD_IMPORTS: dict[str, tuple[str | bytes, str]] = {
    "not JSON": ("{not json", "not valid JSON"),
    "empty": ("", "not valid JSON"),
    "a list": ("[1, 2]", "expected a JSON object"),
    "NaN": ('{"gpus": 64, "price_overrides_usd": {"br100": NaN}}', "NaN"),
    "other format": (_envelope(format="someone-else/plan"), "format"),
    "unknown schema": (_envelope(schema_version=2), "schema_version 2 is unknown"),
    "schema as text": (_envelope(schema_version="1"), "schema_version"),
    "unknown envelope key": (_envelope(extra=1), "extra: unknown key"),
    "no scenario": (_envelope(scenario=None), "scenario"),
    "unknown scenario key": (_envelope(scenario={"gpus": 64, "gpu_count": 8}), "gpu_count: unknown key"),
    "gpus out of range": (_envelope(scenario={"gpus": 0}), "gpus"),
    "negative price": (_envelope(scenario={"price_overrides_usd": {"br100": -1}}), "must be >= 0"),
    "tags not a list": (_envelope(tags="a,b"), "tags"),
    "tag too long": (_envelope(tags=["t" * 51]), "tag"),
    "bare with unknown key": ('{"gpus": 64, "colour": "red"}', "colour: unknown key"),
    "not UTF-8": (b"\xff\xfe\x00", "not UTF-8"),
}


@pytest.mark.parametrize("case", list(BAD_IMPORTS))
def test_bad_imports_are_rejected_and_change_nothing(store: ScenarioStore, case: str) -> None:
    kept = store.create(name="Existing", scenario=Scenario(gpus=32))
    before = store.list_scenarios(state="all")
    text, message = BAD_IMPORTS[case]
    with pytest.raises(ImportRejectedError, match="nothing was saved") as rejected:
        store.import_json(text=text, source="upload.json")
    assert message in str(rejected.value)
    assert "upload.json" in str(rejected.value)
    assert "\n" not in str(rejected.value)
    assert store.list_scenarios(state="all") == before
    assert [v.version for v in store.versions(scenario_id=kept.id)] == [1]


# -- migrations -----------------------------------------------------------------------------------


def test_migration_from_an_empty_database(db_url: str) -> None:
    with open_store(url=db_url, migrate=False) as empty:
        assert current_revision(empty.engine) is None
        assert STORE_TABLES.isdisjoint(inspect(empty.engine).get_table_names())
    with open_store(url=db_url) as store:
        assert current_revision(store.engine) == head_revision()
        assert set(inspect(store.engine).get_table_names()) >= STORE_TABLES
        saved = store.create(name="after migration", scenario=Scenario())
    with open_store(url=db_url) as again:  # upgrading an up-to-date database is a no-op
        assert again.load(scenario_id=saved.id).record.name == "after migration"


def test_models_and_migrations_agree(store: ScenarioStore) -> None:
    with store.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == []


def test_downgrade_to_empty_and_upgrade_again(store: ScenarioStore) -> None:
    store.create(name="x", scenario=Scenario())
    downgrade(store.engine, revision="base")
    assert STORE_TABLES.isdisjoint(inspect(store.engine).get_table_names())
    upgrade(store.engine)
    assert store.list_scenarios() == ()


def test_a_schema_from_a_newer_planner_is_a_clear_store_error(db_url: str) -> None:
    with open_store(url=db_url) as store:
        saved = store.create(name="kept", scenario=Scenario())
        versions = table("alembic_version", column("version_num"))
        with store.engine.begin() as connection:
            connection.execute(update(versions).values(version_num="9999_from_the_future"))
    with pytest.raises(StoreError, match=r"9999_from_the_future.*newer planner"):
        open_store(url=db_url)
    with open_store(url=db_url, migrate=False) as store:  # the data is untouched
        assert store.get(scenario_id=saved.id).name == "kept"


def test_several_instances_starting_at_once_migrate_once(db_url: str) -> None:
    def start(_: int) -> str:
        with open_store(url=db_url) as opened:
            return str(current_revision(opened.engine))

    with ThreadPoolExecutor(max_workers=3) as pool:
        assert set(pool.map(start, range(3))) == {head_revision()}


def test_unreachable_database_is_a_store_error() -> None:
    with pytest.raises(
        StoreError, match=re.escape("scenario store postgresql+psycopg://u:***@127.0.0.1:1/db")
    ):
        open_store(url="postgresql://u:secret@127.0.0.1:1/db")


# -- durability across processes ------------------------------------------------------------------


def _python(code: str, *, db_url: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PLANNER_DATABASE_URL", "PLANNER_DB_PATH")}
    env["PLANNER_DATABASE_URL"] = db_url
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.slow  # whole planner processes
def test_a_new_process_reads_what_this_one_wrote(db_url: str) -> None:
    with open_store(url=db_url) as store:
        saved = store.create(name="Durable 持久", scenario=rich_scenario(), tags=["kept"])
        store.save(scenario_id=saved.id, scenario=Scenario(gpus=64), expected_version=1)
        store.delete(scenario_id=saved.id)
    # A fresh interpreter, configured only through PLANNER_DATABASE_URL, as an app restart would be.
    out = _python(
        "import json; from planner.store import open_store\n"
        "with open_store() as s:\n"
        f"    v1 = s.load(scenario_id={saved.id}, version=1, include_deleted=True)\n"
        "    print(json.dumps({'name': v1.record.name, 'version': v1.record.version,\n"
        "                      'deleted': v1.record.deleted, 'scenario': v1.scenario.model_dump_json()}))\n",
        db_url=db_url,
    )
    seen = json.loads(out)
    assert (seen["name"], seen["version"], seen["deleted"]) == ("Durable 持久", 2, True)
    assert Scenario.model_validate_json(seen["scenario"]) == rich_scenario()


@pytest.mark.slow  # whole planner processes
def test_this_process_reads_what_a_finished_process_wrote(db_url: str) -> None:
    out = _python(
        "from planner import Scenario; from planner.store import open_store\n"
        "with open_store() as s:\n"
        "    print(s.create(name='From another process', scenario=Scenario(gpus=96), customer='C').id)\n",
        db_url=db_url,
    )
    with open_store(url=db_url) as store:
        loaded = store.load(scenario_id=int(out))
    assert (loaded.record.name, loaded.record.customer, loaded.scenario.gpus) == (
        "From another process",
        "C",
        96,
    )
