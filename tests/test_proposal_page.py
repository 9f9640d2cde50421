"""The Proposal page (AppTest): renders in both languages, offers the downloads, builds and previews the PDF."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from apptest import reset_caches
from streamlit.testing.v1 import AppTest

from planner import i18n
from planner.i18n import tr
from ui.views import proposal

APP = Path(__file__).resolve().parents[1] / "app.py"


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    reset_caches()  # each module from empty caches (tests/apptest.py)
    i18n.MISSING.clear()
    yield
    assert not i18n.MISSING, f"UI strings looked up without a translation: {sorted(i18n.MISSING)}"


def open_page(lang: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params.update({"lang": lang, "gpus": "256", "design": "rail4-npo"})
    at.run()
    at.switch_page("pages/proposal.py").run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_renders_with_form_and_downloads(lang: str) -> None:
    at = open_page(lang)
    assert not at.error, [e.value for e in at.error]
    assert at.title[0].value == tr("page.proposal", lang)
    labels = [b.label for b in at.download_button]
    assert labels == [
        tr("export.download.csv", lang),
        tr("export.download.xlsx", lang),
        tr("export.download.json", lang),
    ]
    assert [b.label for b in at.button if b.label == tr("export.form.build", lang)], "the build button"
    assert {w.label for w in at.text_input} >= {
        tr("export.form.customer", lang),
        tr("export.form.project", lang),
    }
    assert any(info.value == tr("export.pdf_pending", lang) for info in at.info)


def test_building_shows_the_preview_and_the_pdf_download() -> None:
    at = open_page("zh")
    at.text_input[0].input("=ACME <b>")
    next(b for b in at.button if b.label == tr("export.form.build", "zh")).click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    built = at.session_state[proposal.BUILT]
    assert built.pdf.startswith(b"%PDF-") and built.pages >= 10
    assert built.file_name.endswith(".pdf") and "<" not in built.file_name
    labels = [b.label for b in at.download_button]
    assert labels[0] == tr("export.download.pdf", "zh") and len(labels) == 4
    assert len(built.preview) == proposal.PREVIEW_PAGES and len(at.image) == proposal.PREVIEW_PAGES
    assert at.session_state[proposal.OPTIONS]["customer"] == "=ACME <b>"


def test_the_pdf_of_other_details_is_never_offered() -> None:
    """Issue 29: while a proposal was rebuilt (or after the scenario changed) the previous PDF's
    button stayed live, and a customer edition was downloaded as the internal one. The button is
    off until the PDF of the details shown is built; the downloads are drawn before a build starts,
    so during it the page shows the button off."""
    at = open_page("en")
    next(b for b in at.button if b.label == tr("export.form.build", "en")).click().run()
    pdf = next(b for b in at.download_button if b.label == tr("export.download.pdf", "en"))
    assert not pdf.proto.disabled
    at.number_input(key="w_gpus").set_value(512).run()  # the scenario changed since the build
    assert not at.exception, at.exception
    pdf = next(b for b in at.download_button if b.label == tr("export.download.pdf", "en"))
    assert pdf.proto.disabled, "the PDF of the 256-GPU scenario is not offered for 512 GPUs"
    assert any(w.value == tr("export.stale", "en") for w in at.warning)
