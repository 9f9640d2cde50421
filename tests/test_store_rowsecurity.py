"""Roles hold in the database: PostgreSQL row-level security (migration 0003,
``planner/store/rowsecurity.py``, ``docs/security.md``).

Every test runs on the PostgreSQL server of ``PLANNER_TEST_PG_URL`` (marker ``pg``), in a fresh
schema, with login roles made for the test (dropped after it): a person's credential (a member of
``planner_viewer`` ... ``planner_admin``, its user and teams in ``store_members``) and an app
server's (a member of ``planner_server``). The table owner (the fixture's own login) sets up.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from planner.access import AccessDeniedError, Identity
from planner.cli import run
from planner.inputs.scenario import Scenario
from planner.store import ScenarioStore, StoreError, open_store

pytest_plugins = ["store_fixtures"]

PASSWORD = "rls-test-password"


def person(name: str, role: str, *teams: str) -> Identity:
    return Identity(user=f"{name}@example.com", name=name, role=role, teams=teams, signed_in=True)  # type: ignore[arg-type]


ANN = person("ann", "architect", "emea")
CARL = person("carl", "architect", "apac")

Login = Callable[..., str]
"""``login(group, user=..., teams=...)``: a new login role in ``planner_<group>`` (``""``: in
none); its URL."""


@pytest.fixture
def owner(pg_url: str) -> Iterator[ScenarioStore]:
    """The table owner's store (it migrates the fresh schema): the deployment's admin credential."""
    with open_store(url=pg_url) as store:
        yield store


@pytest.fixture
def login(pg_url: str, owner: ScenarioStore) -> Iterator[Login]:
    made: list[str] = []

    def make(group: str, *, user: str = "", teams: tuple[str, ...] = ()) -> str:
        name = f"rls_{uuid.uuid4().hex[:10]}"
        with owner.engine.begin() as connection:
            member = f" IN ROLE planner_{group}" if group else ""
            connection.exec_driver_sql(f"CREATE ROLE {name} LOGIN PASSWORD '{PASSWORD}'{member}")
            made.append(name)
            if user:
                connection.execute(
                    text("INSERT INTO store_members (login, user_id, teams) VALUES (:l, :u, :t)"),
                    {"l": name, "u": user, "t": json.dumps(list(teams))},
                )
        return make_url(pg_url).set(username=name, password=PASSWORD).render_as_string(hide_password=False)

    yield make
    with owner.engine.begin() as connection:
        for name in made:
            connection.exec_driver_sql(f"DROP ROLE IF EXISTS {name}")


def raw(url: str) -> Engine:
    """A plain SQLAlchemy engine on ``url``: SQL typed by hand, no store in between."""
    return create_engine(url)


@pytest.fixture
def carls(owner: ScenarioStore) -> int:
    """A scenario of carl's, shared with team apac (saved through the owner as the app would)."""
    return owner.as_user(identity=CARL).create(name="APAC 512", scenario=Scenario(gpus=512)).id


def rows_changed(engine: Engine, sql: str, **params: object) -> int:
    with engine.begin() as connection:
        return int(connection.execute(text(sql), params).rowcount)


def test_a_viewer_credential_cannot_update_another_teams_scenario_even_with_raw_sql(
    login: Login, carls: int
) -> None:
    viewer = raw(login("viewer", user="vera@example.com", teams=("emea",)))
    with pytest.raises(DBAPIError, match="permission denied for table scenarios"):
        rows_changed(viewer, "UPDATE scenarios SET name = 'mine' WHERE id = :id", id=carls)
    with pytest.raises(DBAPIError, match="permission denied"):
        rows_changed(viewer, "SELECT count(*) FROM scenario_versions")
    viewer.dispose()


def test_an_architect_credential_sees_and_changes_only_its_own_and_its_teams_rows(
    login: Login, owner: ScenarioStore, carls: int
) -> None:
    anns = owner.as_user(identity=ANN).create(name="EMEA 256", scenario=Scenario(gpus=256)).id
    ann = raw(login("architect", user=ANN.user, teams=("emea",)))
    with ann.connect() as connection:
        assert [r[0] for r in connection.execute(text("SELECT id FROM scenarios"))] == [anns]
        assert connection.execute(text("SELECT count(*) FROM scenario_versions")).scalar_one() == 1
    # Carl's row is invisible to every statement; the settings a server uses change nothing here.
    assert rows_changed(ann, "UPDATE scenarios SET name = 'mine' WHERE id = :id", id=carls) == 0
    forged = (
        "SELECT set_config('planner.user', 'carl@example.com', false), "
        "set_config('planner.role', 'admin', false), set_config('planner.teams', '[\"apac\"]', false)"
    )
    with ann.begin() as connection:
        connection.execute(text(forged))
        assert (
            connection.execute(
                text("UPDATE scenarios SET name = 'mine' WHERE id = :id"), {"id": carls}
            ).rowcount
            == 0
        )
    # A temporary table cannot stand in for store_members (the functions skip pg_temp).
    with ann.begin() as connection:
        connection.execute(
            text("CREATE TEMP TABLE store_members (login text, user_id text, teams text) ON COMMIT DROP")
        )
        connection.execute(
            text("INSERT INTO store_members VALUES (session_user, 'carl@example.com', '[\"apac\"]')")
        )
        assert (
            connection.execute(
                text("SELECT count(*) FROM scenarios WHERE id = :id"), {"id": carls}
            ).scalar_one()
            == 0
        )
    # Nor can it write a row owned by someone else, or move its own row to another team.
    with pytest.raises(DBAPIError, match="row-level security"):
        rows_changed(
            ann,
            "INSERT INTO scenarios (name, customer, notes, current_version, created_at, updated_at, owner, team) "
            "VALUES ('forged', '', '', 1, now(), now(), 'carl@example.com', 'apac')",
        )
    with pytest.raises(DBAPIError, match="only an admin may change its owner or team"):
        rows_changed(ann, "UPDATE scenarios SET team = 'apac' WHERE id = :id", id=anns)
    with pytest.raises(DBAPIError, match="permission denied"):
        rows_changed(ann, "DELETE FROM scenarios WHERE id = :id", id=anns)
    ann.dispose()


def test_a_teammate_may_edit_but_not_trash_or_take_over_a_shared_scenario(
    login: Login, owner: ScenarioStore
) -> None:
    bob = person("bob", "architect", "emea")
    shared = owner.as_user(identity=bob).create(name="shared", scenario=Scenario(gpus=128)).id
    ann = raw(login("architect", user=ANN.user, teams=("emea",)))
    assert rows_changed(ann, "UPDATE scenarios SET notes = 'checked' WHERE id = :id", id=shared) == 1
    with pytest.raises(DBAPIError, match="only its owner or an admin may delete or restore it"):
        rows_changed(ann, "UPDATE scenarios SET deleted_at = now() WHERE id = :id", id=shared)
    with pytest.raises(DBAPIError, match="only an admin may change its owner or team"):
        rows_changed(ann, "UPDATE scenarios SET owner = :me WHERE id = :id", me=ANN.user, id=shared)
    ann.dispose()


@pytest.mark.parametrize("group", ["viewer", "architect", "admin"])
def test_nobody_deletes_or_rewrites_audit_rows(
    login: Login, owner: ScenarioStore, carls: int, group: str
) -> None:
    credential = raw(login(group, user=f"{group}@example.com"))
    with pytest.raises(DBAPIError, match="permission denied for table audit_log"):
        rows_changed(credential, "DELETE FROM audit_log")
    with pytest.raises(DBAPIError, match="permission denied for table audit_log"):
        rows_changed(credential, "UPDATE audit_log SET actor = 'nobody'")
    # It adds lines as itself only.
    with pytest.raises(DBAPIError, match="row-level security"):
        rows_changed(
            credential,
            "INSERT INTO audit_log (at, actor, role, action, detail) VALUES (now(), 'carl@example.com', 'viewer', 'read', '')",
        )
    credential.dispose()
    assert [e.action for e in owner.audit_log()] == ["save"]  # carl's save, untouched


def test_the_store_on_a_persons_credential_acts_as_that_person(
    login: Login, owner: ScenarioStore, carls: int
) -> None:
    url = login("architect", user=ANN.user, teams=("emea",))
    with open_store(url=url) as store:
        assert store.actor == Identity(user=ANN.user, name=ANN.user, role="architect", teams=("emea",))
        saved = store.create(name="EMEA 256", scenario=Scenario(gpus=256), tags=["draft"])
        assert (saved.record.owner, saved.record.team) == (ANN.user, "emea")
        edited = store.save(
            scenario_id=saved.id, scenario=Scenario(gpus=512), expected_version=1, tags=["final"]
        )
        store.delete(scenario_id=saved.id)
        store.restore(scenario_id=saved.id)
        assert [s.id for s in store.list_scenarios()] == [saved.id]
        assert edited.record.tags == ("final",) and store.tags() == ("final",)
        copy = store.import_json(text=store.export_json(scenario_id=saved.id))
        assert (copy.record.owner, copy.record.team) == (ANN.user, "emea")
        assert {e.action for e in store.audit_log()} == {"save", "delete", "restore", "export", "import"}
        with pytest.raises(
            AccessDeniedError, match=r"role admin: the database login .* holds the architect role"
        ):
            store.as_user(identity=person("ann", "admin"))
        with pytest.raises(AccessDeniedError, match=r"acts as 'ann@example\.com' only"):
            store.as_user(identity=CARL)
        narrowed = store.as_user(identity=Identity(user=ANN.user, name="Ann", role="viewer"))
        with pytest.raises(AccessDeniedError):
            narrowed.list_scenarios()


def test_a_login_without_a_planner_role_is_refused_in_one_line(login: Login, owner: ScenarioStore) -> None:
    with owner.engine.begin() as connection:  # as PostgreSQL's public schema is
        schema = connection.execute(text("SELECT current_schema()")).scalar_one()
        connection.exec_driver_sql(f"GRANT USAGE ON SCHEMA {schema} TO PUBLIC")
    with pytest.raises(AccessDeniedError, match="holds none of the roles planner_viewer"):
        open_store(url=login(""))


def cli(capsys: pytest.CaptureFixture[str], url: str, *args: str) -> tuple[int, str, str]:
    code = run(["scenarios", "--database-url", url, *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_an_architect_credential_claiming_admin_on_the_cli_is_refused(
    login: Login, carls: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for variable in ("PLANNER_USER", "PLANNER_TEAM", "PLANNER_ROLE"):
        monkeypatch.delenv(variable, raising=False)
    url = login("architect", user=ANN.user, teams=("emea",))
    code, out, err = cli(capsys, url, "--role", "admin", "list", "--format", "json")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "role admin: the database login" in err
    code, _, err = cli(capsys, url, "--user", "carl@example.com", "list")
    assert code == 2 and "acts as 'ann@example.com' only" in err
    code, _, err = cli(capsys, url, "--team", "apac", "list")
    assert code == 2 and "is not a member of it" in err
    # Without a claim it is the credential's own user: carl's scenario is not listed.
    code, out, err = cli(capsys, url, "list", "--format", "json")
    assert (code, err, json.loads(out)) == (0, "", [])
    code, out, _ = cli(capsys, url, "show", str(carls))
    assert code == 2


def test_the_app_servers_login_acts_for_each_signed_in_user(
    login: Login, owner: ScenarioStore, carls: int
) -> None:
    with open_store(url=login("server")) as server:
        assert server.credential is not None and server.credential.sets_identity
        anns = server.as_user(identity=ANN)
        saved = anns.create(name="EMEA 256", scenario=Scenario(gpus=256))
        assert [s.id for s in anns.list_scenarios()] == [saved.id]
        with pytest.raises(StoreError):
            anns.load(scenario_id=carls)  # the database hides it: "no saved scenario" is a StoreError
        carls_view = server.as_user(identity=CARL)
        assert [s.id for s in carls_view.list_scenarios()] == [carls]
        admin = server.as_user(identity=person("ada", "admin"))
        assert {s.id for s in admin.list_scenarios()} == {carls, saved.id}
        vera = server.as_user(identity=person("vera", "viewer", "emea"))
        vera.record(action="sign_in", detail="")  # the app audits a viewer's sign-in
        # The server's own SQL acting for ann (as the store does per transaction) cannot touch carl's row.
        with server.engine.begin() as connection:
            connection.execute(
                text(
                    "SELECT set_config('planner.user', :u, true), set_config('planner.role', 'architect', true), "
                    "set_config('planner.teams', '[\"emea\"]', true)"
                ),
                {"u": ANN.user},
            )
            assert (
                connection.execute(
                    text("UPDATE scenarios SET name = 'x' WHERE id = :id"), {"id": carls}
                ).rowcount
                == 0
            )
    # The owner's connection (the compose deployment's app) keeps working as before, for anyone.
    assert [s.id for s in owner.as_user(identity=CARL).list_scenarios()] == [carls]
    assert {e.actor for e in owner.audit_log()} == {CARL.user, ANN.user, "vera@example.com"}
