"""The Scenarios page's team field and owner/team columns (Streamlit's AppTest, sign-in on, the
user handed in as ``st.user`` with a ``teams`` claim, as ``tests/test_access_app.py`` does)."""

from __future__ import annotations

from pathlib import Path

import pytest
from apptest import AUTH
from streamlit.testing.v1 import AppTest
from test_access_app import APP

from planner import Scenario
from planner.access import Identity
from planner.i18n import tr
from planner.store import open_store
from planner.store.location import sqlite_url
from ui import keys
from ui.views import scenarios as view


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "scenarios.db"
    monkeypatch.delenv("PLANNER_DATABASE_URL", raising=False)
    monkeypatch.setenv("PLANNER_DB_PATH", str(path))
    return path


def signed_in(role: str, teams: list[str]) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.secrets["auth"] = AUTH
    at.user = {
        "is_logged_in": True,
        "email": f"{role}@example.com",
        "name": role.title(),
        "roles": [role],
        "teams": teams,
    }
    at.run()
    assert not at.exception, at.exception
    at.switch_page("pages/scenarios.py").run()
    assert not at.exception, at.exception
    return at


def save_new(at: AppTest, name: str) -> None:
    at.text_input(key=keys.field(keys.SAVE_FORM, "name")).input(name)
    at.button(key=keys.SAVE_NEW).click().run()
    assert not at.exception, at.exception


def test_a_new_scenario_goes_to_the_chosen_team_and_the_list_says_whose(db: Path) -> None:
    at = signed_in("architect", ["emea", "apac"])
    team = at.selectbox(key=view.SAVE_TEAM)
    assert team.options == [tr("sc.team.nobody", "en"), "emea", "apac"]
    assert team.value == "emea"  # the first team by default
    team.select("apac")
    save_new(at, "Shared with APAC")
    at.selectbox(key=view.SAVE_TEAM).select("")
    save_new(at, "Mine only")
    with open_store(url=sqlite_url(db)) as store:
        admin = store.as_user(identity=Identity(user="root", name="root", role="admin"))
        rows = {s.name: (s.owner, s.team) for s in admin.list_scenarios()}
    assert rows == {
        "Shared with APAC": ("architect@example.com", "apac"),
        "Mine only": ("architect@example.com", ""),
    }
    listing = next(d.value for d in at.dataframe if tr("sc.col.owner", "en") in d.value.columns)
    assert set(listing[tr("sc.col.team", "en")]) == {"apac", ""}
    assert set(listing[tr("sc.col.owner", "en")]) == {"architect@example.com"}


def test_a_teammate_sees_the_shared_one_and_an_outsider_does_not(db: Path) -> None:
    with open_store(url=sqlite_url(db)) as store:
        ann = store.as_user(
            identity=Identity(user="ann@example.com", name="Ann", role="architect", teams=("apac",))
        )
        ann.create(name="APAC plan", scenario=Scenario(), team="apac")
        ann.create(name="Ann's own", scenario=Scenario(), team="")
    mate = signed_in("architect", ["apac"])
    listing = next(d.value for d in mate.dataframe if tr("sc.col.owner", "en") in d.value.columns)
    assert list(listing[tr("sc.col.name", "en")]) == ["APAC plan"]
    assert list(listing[tr("sc.col.owner", "en")]) == ["ann@example.com"]
    outsider = signed_in("architect", ["emea"])
    assert not [d for d in outsider.dataframe if tr("sc.col.owner", "en") in d.value.columns]
