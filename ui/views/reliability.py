"""Reliability page blocks: checkpoint and failure settings, per-design results and charts."""

from __future__ import annotations

import streamlit as st

from planner import InputError, Plan
from planner.inputs.reliability import ReliabilityParams, reliability_params
from planner.report import performance_charts, performance_tables
from ui import engine, forms, keys, state, widgets
from ui.forms import FormField, ranged
from ui.state import t
from ui.views.workload import starred_table

FORM = keys.RELIABILITY_FORM

CHECKPOINT_FIELDS: tuple[FormField, ...] = (
    ranged(
        ReliabilityParams,
        "params_b",
        label_key="rel.field.params_b",
        help_key="rel.help.params_b",
        kind="float",
        default=70.0,
        step=1.0,
        number_format="%.1f",
        optional=True,
        placeholder_key="rel.placeholder.params_b",
    ),
    ranged(
        ReliabilityParams,
        "checkpoint_gbyte",
        label_key="rel.field.checkpoint_gbyte",
        help_key="rel.help.checkpoint_gbyte",
        kind="float",
        optional=True,
        step=100.0,
        number_format="%.0f",
        placeholder_key="rel.placeholder.checkpoint_gbyte",
    ),
    ranged(
        ReliabilityParams,
        "checkpoint_bytes_per_param",
        label_key="rel.field.bytes_per_param",
        help_key="rel.help.bytes_per_param",
        kind="float",
        default=14.0,
        step=1.0,
        number_format="%.1f",
    ),
)
STORAGE_FIELDS: tuple[FormField, ...] = (
    ranged(
        ReliabilityParams,
        "write_bandwidth_gbyte_per_s",
        label_key="rel.field.write_bandwidth",
        help_key="rel.help.write_bandwidth",
        kind="float",
        optional=True,
        step=10.0,
        number_format="%.0f",
        placeholder_key="rel.placeholder.write_bandwidth",
    ),
    ranged(
        ReliabilityParams,
        "restart_min",
        label_key="rel.field.restart_min",
        help_key="rel.help.restart_min",
        kind="float",
        default=10.0,
        step=1.0,
        number_format="%.1f",
    ),
    ranged(
        ReliabilityParams,
        "checkpoint_interval_min",
        label_key="rel.field.interval_min",
        help_key="rel.help.interval_min",
        kind="float",
        optional=True,
        step=5.0,
        number_format="%.1f",
        placeholder_key="rel.placeholder.interval_min",
    ),
)
FAILURE_FIELDS: tuple[FormField, ...] = (
    ranged(
        ReliabilityParams,
        "failure_rate_scale",
        label_key="rel.field.failure_rate_scale",
        help_key="rel.help.failure_rate_scale",
        kind="float",
        default=1.0,
        step=0.1,
        number_format="%.2f",
    ),
    FormField("network_failover", "rel.field.network_failover", "rel.help.network_failover", "bool", False),
)
GROUPS = (
    ("rel.group.checkpoint", CHECKPOINT_FIELDS),
    ("rel.group.storage", STORAGE_FIELDS),
    ("rel.group.failures", FAILURE_FIELDS),
)
FIELDS: tuple[FormField, ...] = (*CHECKPOINT_FIELDS, *STORAGE_FIELDS, *FAILURE_FIELDS)


def _validated(data: dict[str, object]) -> ReliabilityParams:
    return reliability_params({k: v for k, v in data.items() if v is not None})


def params_form() -> ReliabilityParams:
    """Checkpoint, storage and failure settings; the model size starts from the Workload page's."""
    workload = st.session_state.get(keys.WORKLOAD_FORM) or {}
    data = forms.values(FORM, FIELDS, seed={"params_b": workload.get("params_b")} if workload else None)
    slots: forms.Slots = {}
    with st.expander(t("rel.form"), expanded=True):
        for column, (title, fields) in zip(st.columns(len(GROUPS)), GROUPS, strict=True):
            column.markdown(f"**{t(title)}**")
            slots.update(forms.draw_group(FORM, fields, column))
        general = st.empty()
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
    starred_table(performance_tables.reliability_table(found, labels, lang))
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
