"""User text in the app is shown as text (the hostile-input issue, item 2): a URL parameter, an
upload's file name or a tenant's name never becomes a Markdown image, link or HTML. Measured
before: ``?gpu=![c](http://attacker/p.png)`` made a teammate's browser fetch the outside image.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from apptest import fresh_session, start

IMAGE = "![c](http://attacker.example/p.png)"
LINK = "[sign in again](http://attacker.example/login)"


@pytest.fixture(autouse=True)
def _fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with fresh_session(tmp_path, monkeypatch):
        yield


def markdown_of(at: object) -> list[str]:
    """The Markdown source of every element that renders Markdown on the page."""
    found: list[str] = []
    for kind in ("markdown", "caption", "warning", "error", "info", "success", "title", "subheader"):
        found += [str(e.value) for e in getattr(at, kind)]
    return found


def test_a_url_parameter_is_shown_as_text() -> None:
    at = start(None, gpu=IMAGE, design=LINK)
    shown = markdown_of(at)
    assert any("attacker" in text for text in shown), "the ignored parameters are listed"
    for text in shown:
        assert "![" not in text and "](" not in text, text  # escaped: \!\[c\]\(http...\)
