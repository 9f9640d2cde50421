"""Headless test of the Validation page in both languages (``streamlit.testing.v1.AppTest``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from apptest import reset_caches
from streamlit.testing.v1 import AppTest

from planner import i18n
from planner.i18n import tr
from planner.validation.run import CaseResult
from ui import keys
from ui.views import validation as validation_view

APP = Path(__file__).resolve().parents[1] / "app.py"


@pytest.fixture(autouse=True)
def _fresh_caches(
    validation_results: tuple[CaseResult, ...], monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """Each module starts from empty caches (:func:`apptest.reset_caches`): the page's two
    languages read the cases once, as a server does for its second visitor. The page's
    ``run_all()`` gives the run's evaluation of every case (the session fixture
    ``validation_results``: the same function on the same bundled catalog, seconds of CPU
    spent once per run; tests/test_validation_run.py checks what it returns)."""
    monkeypatch.setattr(validation_view, "run_all", lambda: validation_results)
    reset_caches()
    i18n.MISSING.clear()
    yield
    assert not i18n.MISSING, f"UI strings looked up without a translation: {sorted(i18n.MISSING)}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_validation_page_renders(lang: str, validation_results: tuple[CaseResult, ...]) -> None:
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    at.segmented_control(key=keys.widget("lang")).set_value(lang).run()
    at.switch_page("pages/validation.py").run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    assert at.title[0].value == tr("page.validation", lang)
    summary = next(
        m.value for m in at.markdown if tr("val.summary", lang).split("{")[0].strip("* ") in m.value
    )
    assert summary
    assert len(at.dataframe) == 2
    cases = at.dataframe[1].value
    # every status the suite has today, in the reader's language (none is "not modelled" now: the
    # label is checked to exist, the column holds only the three labels)
    statuses = set(cases[tr("val.col.status", lang)])
    labels = {tr(f"val.status.{s}", lang) for s in ("pass", "fail", "not_modelled")}
    assert {tr("val.status.pass", lang), tr("val.status.fail", lang)} <= statuses <= labels
    assert tr("val.role.calibration", lang) in set(cases[tr("val.col.role", lang)])
    # the cases a case of identical inputs contradicts: counted in the summary, named in the table
    contradicted = {r.id: ", ".join(r.contradicted_by) for r in validation_results if r.contradicted_by}
    validation_contradicted = sum(
        r.role == "validation" and bool(r.contradicted_by) for r in validation_results
    )
    phrase = {
        "en": "; {n} of the cases contradicted by a case of identical inputs",
        "zh": "其中 {n} 个与输入完全相同",
    }[lang]
    assert contradicted and phrase.format(n=validation_contradicted) in summary
    named = dict(zip(cases[tr("val.col.case", lang)], cases[tr("val.col.contradicts", lang)], strict=True))
    assert {case: others for case, others in named.items() if others} == contradicted
