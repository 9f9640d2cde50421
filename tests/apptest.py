"""Start the app headless (Streamlit's AppTest) on a page, shared by the page test modules."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = Path(__file__).resolve().parents[1] / "app.py"


def start(page: str | None = None, **query: str) -> AppTest:
    """The app opened with ``query`` as URL parameters, then switched to ``pages/<page>.py``;
    fails the test on an exception box at either step."""
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    if page is not None:
        at.switch_page(f"pages/{page}.py").run()
        assert not at.exception, at.exception
    return at
