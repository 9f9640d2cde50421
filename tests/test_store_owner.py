"""Owner and team of saved scenarios, sharing, internal prices and the audit log, on SQLite and on
PostgreSQL (``tests/store_fixtures.py``: the PostgreSQL runs need ``PLANNER_TEST_PG_URL``)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from planner.access import AccessDeniedError, Identity
from planner.cli import run
from planner.inputs.scenario import Scenario
from planner.store import ConflictError, ScenarioStore, open_store
from planner.store.migrate import current_revision, head_revision, upgrade

pytest_plugins = ["store_fixtures"]

PRICED = Scenario(gpus=256, price_overrides_usd={"br100": 9_000.0})


def user(name: str, role: str, *teams: str) -> Identity:
    return Identity(user=f"{name}@example.com", name=name, role=role, teams=teams, signed_in=True)  # type: ignore[arg-type]


ANN = user("ann", "architect", "emea")
BOB = user("bob", "architect", "emea")
CARL = user("carl", "architect", "apac")
CLAIRE = user("claire", "commercial", "emea")
VERA = user("vera", "viewer", "emea")
ADA = user("ada", "admin")


def test_existing_rows_get_owner_local_when_migrated(db_url: str) -> None:
    with open_store(url=db_url, migrate=False) as store:
        upgrade(store.engine, revision="0001")
        now = datetime.now(UTC)
        with store.engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO scenarios (name, customer, notes, current_version, created_at, updated_at) "
                    "VALUES ('before owners', 'Acme', '', 1, :now, :now)"
                ),
                {"now": now},
            )
            connection.execute(
                text(
                    "INSERT INTO scenario_versions (scenario_id, version, format_version, scenario_json, gpus, "
                    "design_id, author, comment, created_at) VALUES (1, 1, 1, :json, 1024, 'rail8-npo', '', '', :now)"
                ),
                {"json": Scenario().model_dump_json(), "now": now},
            )
        upgrade(store.engine)
        assert current_revision(store.engine) == head_revision()
        (old,) = ScenarioStore(engine=store.engine, migrate=False).list_scenarios()
        assert (old.name, old.owner, old.team) == ("before owners", "local", "")
        # without sign-in (the local admin) nothing changed: it opens as before
        assert store.load(scenario_id=old.id).scenario == Scenario()


def test_owner_and_team_decide_who_lists_and_opens(store: ScenarioStore) -> None:
    saved = store.as_user(identity=ANN).create(name="Acme EMEA", scenario=Scenario(), customer="Acme")
    assert (saved.record.owner, saved.record.team) == ("ann@example.com", "emea")
    private = store.as_user(identity=ANN).create(name="Ann's draft", scenario=Scenario(), team="")
    assert [s.name for s in store.as_user(identity=BOB).list_scenarios()] == ["Acme EMEA"]
    assert store.as_user(identity=BOB).load(scenario_id=saved.id).record.name == "Acme EMEA"
    carl = store.as_user(identity=CARL)
    assert carl.list_scenarios() == ()
    assert carl.customers() == () and carl.tags() == ()
    for action in (
        lambda: carl.load(scenario_id=saved.id),
        lambda: carl.get(scenario_id=saved.id),
        lambda: carl.versions(scenario_id=saved.id),
        lambda: carl.export_json(scenario_id=saved.id),
        lambda: carl.save(scenario_id=saved.id, scenario=Scenario(gpus=64), expected_version=1),
        lambda: carl.duplicate(scenario_id=saved.id),
    ):
        with pytest.raises(
            AccessDeniedError, match=rf"scenario {saved.id}: not shared with carl@example.com"
        ):
            action()
    with pytest.raises(AccessDeniedError, match="not shared with bob"):
        store.as_user(identity=BOB).load(scenario_id=private.id)
    assert {s.name for s in store.as_user(identity=ADA).list_scenarios()} == {"Acme EMEA", "Ann's draft"}
    assert len(store.list_scenarios()) == 2  # the local admin (sign-in off) sees everything


def test_team_members_edit_and_only_the_owner_deletes(store: ScenarioStore) -> None:
    saved = store.as_user(identity=ANN).create(name="Acme", scenario=Scenario())
    edited = store.as_user(identity=BOB).save(
        scenario_id=saved.id, scenario=Scenario(gpus=512), expected_version=1
    )
    assert edited.record.version == 2
    with pytest.raises(AccessDeniedError, match=r"only its owner ann@example\.com or an admin"):
        store.as_user(identity=BOB).delete(scenario_id=saved.id)
    assert store.as_user(identity=ANN).delete(scenario_id=saved.id).deleted
    assert not store.as_user(identity=ADA).restore(scenario_id=saved.id).deleted


def test_a_team_one_is_not_in_is_refused(store: ScenarioStore) -> None:
    with pytest.raises(AccessDeniedError, match=r"team: ann@example\.com is not a member of 'apac'"):
        store.as_user(identity=ANN).create(name="x", scenario=Scenario(), team="apac")
    assert (
        store.as_user(identity=ADA).create(name="x", scenario=Scenario(), team="apac").record.team == "apac"
    )


def test_a_viewer_has_no_store(store: ScenarioStore) -> None:
    saved = store.as_user(identity=ANN).create(name="Acme", scenario=Scenario())
    viewer = store.as_user(identity=VERA)
    for action in (
        viewer.list_scenarios,
        lambda: viewer.load(scenario_id=saved.id),
        lambda: viewer.export_json(scenario_id=saved.id),
        lambda: viewer.create(name="x", scenario=Scenario()),
        lambda: viewer.import_json(text=Scenario().model_dump_json()),
    ):
        with pytest.raises(AccessDeniedError, match="saved scenarios are not available to the viewer role"):
            action()


def test_scenario_json_export_strips_internal_prices_for_non_commercial_roles(store: ScenarioStore) -> None:
    saved = store.as_user(identity=CLAIRE).create(name="Priced", scenario=PRICED)
    commercial = json.loads(store.as_user(identity=CLAIRE).export_json(scenario_id=saved.id))
    architect = json.loads(store.as_user(identity=ANN).export_json(scenario_id=saved.id))
    assert commercial["scenario"]["price_overrides_usd"] == {"br100": 9000.0}
    assert architect["scenario"]["price_overrides_usd"] == {}
    assert store.as_user(identity=ANN).load(scenario_id=saved.id).scenario.price_overrides_usd == {}


def test_an_architects_edit_keeps_the_internal_prices_it_never_saw(store: ScenarioStore) -> None:
    saved = store.as_user(identity=CLAIRE).create(name="Priced", scenario=PRICED)
    ann = store.as_user(identity=ANN)
    opened = ann.load(scenario_id=saved.id)
    edited = ann.save(
        scenario_id=saved.id, scenario=opened.scenario.with_updates(gpus=512), expected_version=1
    )
    assert edited.scenario.price_overrides_usd == {}  # not shown to the architect
    kept = store.as_user(identity=CLAIRE).load(scenario_id=saved.id)
    assert (kept.scenario.gpus, kept.scenario.price_overrides_usd) == (512, {"br100": 9000.0})
    copy = ann.duplicate(scenario_id=saved.id)
    assert store.load(scenario_id=copy.id).scenario.price_overrides_usd == {"br100": 9000.0}
    # an architect cannot set internal prices: a new scenario or an import carries none
    assert store.load(scenario_id=ann.create(name="n", scenario=PRICED).id).scenario.price_overrides_usd == {}
    imported = ann.import_json(text=PRICED.model_dump_json(), source="priced.json")
    assert store.load(scenario_id=imported.id).scenario.price_overrides_usd == {}


def test_optimistic_locking_holds_between_two_users(store: ScenarioStore) -> None:
    saved = store.as_user(identity=ANN).create(name="Acme", scenario=Scenario())
    store.as_user(identity=BOB).save(scenario_id=saved.id, scenario=Scenario(gpus=64), expected_version=1)
    with pytest.raises(ConflictError):
        store.as_user(identity=ANN).save(
            scenario_id=saved.id, scenario=Scenario(gpus=128), expected_version=1
        )


def test_audit_log_records_who_what_when(store: ScenarioStore) -> None:
    before = datetime.now(UTC)
    ann, ada = store.as_user(identity=ANN), store.as_user(identity=ADA)
    saved = ann.create(name="Acme", scenario=Scenario())
    ann.save(scenario_id=saved.id, scenario=Scenario(gpus=64), expected_version=1, comment="smaller")
    ann.export_json(scenario_id=saved.id)
    imported = ann.import_json(text=Scenario().model_dump_json(), source="bob.json")
    ann.delete(scenario_id=imported.id)
    ada.restore(scenario_id=imported.id)
    ada.record(action="export", detail="proposal PDF (customer edition)", scenario_id=saved.id)
    with pytest.raises(AccessDeniedError):
        store.as_user(identity=CARL).export_json(scenario_id=saved.id)  # refused: nothing recorded
    log = ada.audit_log()
    assert [(e.actor, e.action, e.scenario_id, e.version) for e in log] == [
        ("ada@example.com", "export", saved.id, None),
        ("ada@example.com", "restore", imported.id, None),
        ("ann@example.com", "delete", imported.id, None),
        ("ann@example.com", "import", imported.id, 1),
        ("ann@example.com", "export", saved.id, 2),
        ("ann@example.com", "save", saved.id, 2),
        ("ann@example.com", "save", saved.id, 1),
    ]
    assert log[5].detail == "smaller" and log[3].detail == "imported from bob.json"
    assert all(e.at >= before and e.role in ("architect", "admin") for e in log)
    assert [e.action for e in ann.audit_log()] == ["delete", "import", "export", "save", "save"]  # own lines
    assert store.as_user(identity=CARL).audit_log() == ()
    with pytest.raises(ValueError, match="action: must be one of"):
        ada.record(action="peek", detail="")


def test_cli_scenarios_audit(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(url=db_url) as store:
        saved = store.create(name="Acme", scenario=Scenario())
        store.export_json(scenario_id=saved.id)
    assert run(["scenarios", "--database-url", db_url, "audit", "--format", "json"]) == 0
    entries = json.loads(capsys.readouterr().out)
    assert [(e["actor"], e["role"], e["action"], e["scenario_id"]) for e in entries] == [
        ("local", "admin", "export", saved.id),
        ("local", "admin", "save", saved.id),
    ]
    assert datetime.fromisoformat(entries[0]["at"]).tzinfo is not None
    assert run(["scenarios", "--database-url", db_url, "audit"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ["when", "who", "role", "action", "scenario", "version", "detail"]
    assert "local admin export" in " ".join(table[1].split())


def test_an_export_a_page_prepares_is_recorded_only_when_downloaded(store: ScenarioStore) -> None:
    """The Scenarios page builds the file on every run; the download's click records it."""
    saved = store.create(name="Acme", scenario=Scenario())
    assert json.loads(store.export_json(scenario_id=saved.id, audit=False))["name"] == "Acme"
    assert [e.action for e in store.audit_log()] == ["save"]
