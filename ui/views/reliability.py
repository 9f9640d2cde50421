"""Reliability page blocks: checkpoint and failure settings, per-design results and charts."""

from __future__ import annotations

import streamlit as st

from planner import InputError, Plan
from planner.inputs.reliability import ReliabilityParams, reliability_params
from planner.report import performance_charts, performance_tables
from ui import engine, forms, keys, state, widgets
from ui.forms import FormField
from ui.state import t

FORM = keys.RELIABILITY_FORM

GROUPS = forms.model_groups(ReliabilityParams)
FIELDS: tuple[FormField, ...] = tuple(f for _, fields in GROUPS for f in fields)


def _validated(data: dict[str, object]) -> ReliabilityParams:
    return reliability_params({k: v for k, v in data.items() if v is not None})


def params_form() -> ReliabilityParams:
    """Checkpoint, storage and failure settings; the model size starts from the Workload page's."""
    workload = st.session_state.get(keys.WORKLOAD_FORM) or {}
    data = forms.values(FORM, FIELDS, seed={"params_b": workload.get("params_b")} if workload else None)
    slots, general = forms.draw_groups(FORM, GROUPS, t("rel.form"))
    try:
        params = _validated(data)
        st.session_state[keys.RELIABILITY_LAST_GOOD] = dict(data)
    except InputError as exc:
        forms.show_error(slots, FIELDS, str(exc), general)
        last = st.session_state.get(keys.RELIABILITY_LAST_GOOD) or {f.name: f.default for f in FIELDS}
        params = _validated(last)
        st.warning(t("form.stale"), icon=":material/history:")
    return params


def results(plans: tuple[Plan, ...], params: ReliabilityParams) -> None:
    """Per design: the figures, the goodput curve, interruptions by class, failure impacts."""
    lang = state.lang()
    computed = engine.reliability_of(plans, params)
    found = [r for r, _ in computed]
    curves = [c for _, c in computed]
    labels = performance_tables.design_labels(plans, engine.catalog(), lang)
    st.subheader(t("rel.per_design"))
    widgets.starred_table(performance_tables.reliability_table(found, labels, lang))
    st.caption(t("rel.table_caption", gpus=f"{plans[0].gpus:,}"))
    left, right = st.columns([3, 2])
    with left:
        widgets.chart(
            performance_charts.goodput_curves(curves, found, labels, lang), key="reliability_goodput"
        )
    with right:
        widgets.chart(
            performance_charts.interruptions_by_class(found, labels, lang), key="reliability_classes"
        )
    st.subheader(t("rel.impacts"))
    st.caption(t("rel.impacts_caption"))
    st.table(performance_tables.impacts_table(found, labels, lang))
    st.subheader(t("rel.classes"))
    st.table(performance_tables.class_rates_table(found, labels, lang).set_index(t("rel.col.class")))
    st.caption(t("rel.calibration"))
    widgets.model_notes(n for r in found for n in r.notes)
