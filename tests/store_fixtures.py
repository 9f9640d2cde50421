"""Fixtures of the store tests: one database per test, on SQLite and on PostgreSQL.

Test modules load this with ``pytest_plugins = ["store_fixtures"]``. ``db_url`` (and ``store``)
run each test twice: on a fresh SQLite file, and on a fresh schema of the PostgreSQL server named
by ``PLANNER_TEST_PG_URL`` (start one with ``eval "$(bash .ci/start-postgres.sh)"``). Without
that variable the PostgreSQL runs are skipped -- except under ``CI=true``, where they fail, so CI
cannot pass by skipping them.

PYTEST_DONT_REWRITE: the whole-suite run imports this file for doctests before the test modules
register it as a plugin; it has no asserts to rewrite, and this marker tells pytest not to warn
that it cannot rewrite them.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.schema import CreateSchema, DropSchema

from planner.store import ScenarioStore, open_store
from planner.store.location import normalize_url, sqlite_url

PG_URL_ENV = "PLANNER_TEST_PG_URL"
BACKENDS = ("sqlite", "postgresql")
START_HINT = 'eval "$(bash .ci/start-postgres.sh)"'


@pytest.fixture(scope="session")
def pg_server_url() -> str:
    url = os.environ.get(PG_URL_ENV, "").strip()
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail(
                f"{PG_URL_ENV} is not set under CI=true: .ci/run must start PostgreSQL ({START_HINT})"
            )
        pytest.skip(f"PostgreSQL tests need {PG_URL_ENV}; start a server with: {START_HINT}")
    return normalize_url(url)


ROLES_LOCK_KEY = 0x706C616E
"""The PostgreSQL advisory lock (a server-wide number) :func:`make_group_roles` holds."""


def make_group_roles(engine: Engine) -> None:
    """Migrate one throwaway schema while holding a server-wide advisory lock, then drop it.

    The store's migration creates the group roles (``planner_viewer`` ... ``planner_server``) and
    grants each to the next: roles belong to the whole server, not to a schema. ``make test``'s two
    pytest-xdist workers each migrate schemas of their own, and on a fresh server (CI) their first
    migrations would create and grant the same roles at once; here the first worker makes them
    while the other waits, and every later migration finds them made.
    """
    schema = f"planner_roles_{uuid.uuid4().hex[:12]}"
    with engine.connect() as lock:
        lock.execute(text("SELECT pg_advisory_lock(:key)"), {"key": ROLES_LOCK_KEY})
        try:
            with engine.begin() as connection:
                connection.execute(CreateSchema(schema))
            url = engine.url.update_query_dict({"options": f"-csearch_path={schema}"})
            with open_store(url=url.render_as_string(hide_password=False)):
                pass
            with engine.begin() as connection:
                connection.execute(DropSchema(schema, cascade=True))
        finally:
            lock.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": ROLES_LOCK_KEY})
            lock.commit()


@pytest.fixture(scope="session")
def pg_admin_engine(pg_server_url: str) -> Iterator[Engine]:
    engine = create_engine(pg_server_url)
    make_group_roles(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def pg_url(pg_admin_engine: Engine) -> Iterator[str]:
    """A URL whose connections work in a new, empty schema (dropped after the test)."""
    schema = f"planner_test_{uuid.uuid4().hex[:12]}"
    with pg_admin_engine.begin() as connection:
        connection.execute(CreateSchema(schema))
    url = pg_admin_engine.url.update_query_dict({"options": f"-csearch_path={schema}"})
    yield url.render_as_string(hide_password=False)
    with pg_admin_engine.begin() as connection:
        connection.execute(DropSchema(schema, cascade=True))


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database: a new SQLite file, or a new PostgreSQL schema."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path / "scenarios.db")
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def store(db_url: str) -> Iterator[ScenarioStore]:
    with open_store(url=db_url) as opened:
        yield opened


def saved_without(store: ScenarioStore, field: str) -> tuple[int, dict[str, Any]]:
    """A saved scenario (256 GPUs) whose stored JSON lacks ``field``, as a planner from before
    the field wrote it; returns its id and that JSON (for an import of the same old document)."""
    from planner.inputs.scenario import Scenario, scenario_to_json

    saved = store.create(name="Old", scenario=Scenario(gpus=256))
    old_json: dict[str, Any] = json.loads(scenario_to_json(Scenario(gpus=256)))
    del old_json[field]
    with store.engine.begin() as connection:
        connection.execute(
            text("UPDATE scenario_versions SET scenario_json = :j WHERE scenario_id = :i"),
            {"j": json.dumps(old_json), "i": saved.id},
        )
    return saved.id, old_json
