"""Headless tests of the Serving page (``AppTest``): it renders in both languages with KPI cards,
the designs side by side and the charts; a rejected field is named under its input; the reverse
sizing gives a cluster per design."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import streamlit as st
from apptest import start

from planner import i18n
from planner.i18n import tr
from ui import keys
from ui.views import serving


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    st.cache_data.clear()
    st.cache_resource.clear()
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
    shown = " ".join(str(e.value) for e in (*at.error, *at.warning))
    assert "tpot_ms" in shown and "short" in shown


def test_reverse_sizing_gives_a_cluster_per_design() -> None:
    at = start("serving", lang="zh")
    submit = next(b for b in at.button if b.label == tr("sv.sizing_run", "zh"))
    submit.click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert len(at.table) >= 2
