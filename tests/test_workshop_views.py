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
