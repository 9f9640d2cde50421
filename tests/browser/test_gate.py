"""The browser tests skip without Chromium on a laptop, and fail without it in CI."""

from __future__ import annotations

from pathlib import Path

import harness
import pytest


@pytest.fixture
def no_chromium(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(harness, "CHROMIUM", tmp_path / "no-chromium")


@pytest.mark.usefixtures("no_chromium")
@pytest.mark.parametrize("value", ["true", "1", "yes"])
def test_missing_chromium_fails_in_ci(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("CI", value)
    with pytest.raises(pytest.fail.Exception, match="CI is set"):
        harness.require_chromium()


@pytest.mark.usefixtures("no_chromium")
@pytest.mark.parametrize("value", [None, "", "false", "0"])
def test_missing_chromium_skips_outside_ci(monkeypatch: pytest.MonkeyPatch, value: str | None) -> None:
    if value is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", value)
    with pytest.raises(pytest.skip.Exception):
        harness.require_chromium()


def test_present_chromium_neither_skips_nor_fails(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake = tmp_path / "chromium"
    fake.write_text("")
    monkeypatch.setattr(harness, "CHROMIUM", fake)
    monkeypatch.setenv("CI", "true")
    harness.require_chromium()
