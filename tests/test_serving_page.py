"""Headless tests of the Serving page (``AppTest``): it renders in both languages with KPI cards,
the designs side by side and the charts; a rejected field is named under its input; the reverse
sizing gives a cluster per design."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from apptest import rendered, reset_caches, start

from planner import i18n
from planner.i18n import tr
from ui import keys
from ui.views import serving


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    reset_caches()  # each module from empty caches (tests/apptest.py)
    i18n.MISSING.clear()
    yield
    assert not i18n.MISSING, f"UI strings looked up without a translation: {sorted(i18n.MISSING)}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_serving_renders_in_both_languages(lang: str) -> None:
    at = start("serving", lang=lang)
    assert not at.error, [e.value for e in at.error]
    assert at.title[0].value == tr("page.serving", lang)
    labels = [m.label for m in at.metric]
    assert tr("sv.kpi.tpot", lang) in labels and tr("sv.kpi.alltoall", lang) in labels
    assert len(at.table) >= 1


def test_a_rejected_field_is_named_under_its_input() -> None:
    at = start("serving", lang="en")
    at.number_input(key=keys.field(serving.FORM, "tpot_ms")).set_value(0.01).run()
    assert not at.exception
    shown = " ".join(rendered(str(e.value)) for e in (*at.error, *at.warning))
    assert "tpot_ms" in shown and "short" in shown


def test_reverse_sizing_gives_a_cluster_per_design() -> None:
    at = start("serving", lang="zh")
    submit = next(b for b in at.button if b.label == tr("sv.sizing_run", "zh"))
    submit.click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert len(at.table) >= 2


def test_an_edited_request_becomes_the_scenarios_and_the_compare_page_shows_it() -> None:
    at = start("serving", lang="en")
    assert keys.SERVING not in at.session_state  # only shown until edited or kept
    assert any(b.label == tr("sv.keep", "en") for b in at.button)
    at.number_input(key=keys.field(serving.FORM, "output_tokens")).set_value(1024).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert '"output_tokens": 1024' in at.session_state[keys.SERVING]
    at.switch_page("pages/compare.py").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert any(s.value.startswith("Serving: 671B model") for s in at.subheader)
    at.switch_page("pages/serving.py").run()
    remove = next(b for b in at.button if b.label == tr("sv.remove", "en"))
    remove.click().run()
    assert at.session_state[keys.SERVING] == "null"
    at.switch_page("pages/compare.py").run()
    assert not any(s.value.startswith("Serving:") for s in at.subheader)
