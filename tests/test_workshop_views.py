"""Workshop views for each reader (issue 29): the "start here" box names only pages the reader's
role may open (a viewer was sent to Optimize and Scenarios, which refuse it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from apptest import APP, AUTH
from streamlit.testing.v1 import AppTest

from planner.i18n import tr


@pytest.fixture(autouse=True)
def _own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PLANNER_DATABASE_URL", raising=False)
    monkeypatch.setenv("PLANNER_DB_PATH", str(tmp_path / "scenarios.db"))


@pytest.mark.parametrize(("role", "key"), [("viewer", "welcome.body_viewer"), ("architect", "welcome.body")])
def test_start_here_names_only_pages_the_reader_may_open(role: str, key: str) -> None:
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.secrets["auth"] = AUTH
    at.user = {"is_logged_in": True, "email": f"{role}@example.com", "name": role.title(), "roles": [role]}
    at.run()
    assert not at.exception, at.exception
    shown = [m.value for m in at.markdown]
    assert tr(key, "en") in shown
    if role == "viewer":
        assert not any(tr("page.scenarios", "en") in text for text in shown)


def test_retyping_the_value_in_use_clears_the_range_message() -> None:
    """Issue 29: "70,000 is outside … still using 1,024" stayed on every page after a valid value
    (typing the value still in use changed nothing in the reset field, so nothing cleared it)."""
    from apptest import start

    from ui import keys

    at = start()
    field = keys.widget("gpus")
    at.number_input(key=field).set_value(70000).run()
    assert [e for e in at.error if "70000" in e.value or "70,000" in e.value]
    assert at.number_input(key=field).value == 70000, "the field shows what was typed"
    at.number_input(key=field).set_value(1024).run()
    assert not at.error and at.session_state[keys.INPUTS]["gpus"] == 1024
    at.switch_page("pages/compare.py").run()
    assert not at.error
