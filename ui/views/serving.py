"""Serving page blocks: the model and request form, KPI cards, designs side by side, TPOT against
batch, the decode step per design (the expert all-to-all share), and the reverse sizing."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from planner import InputError, Plan
from planner.decision.bands import serving_note
from planner.performance.serving import (
    ServingEstimate,
    ServingRequest,
    SizingResult,
    serving_request,
)
from planner.report import performance_tables
from ui import engine, forms, state, widgets
from ui.forms import FormField, ranged
from ui.state import t, tx

FORM = "serving_form"
LAST_GOOD = "serving_last_good"
SIZING_FORM = "serving_sizing_form"
SIZING_WIDGET = "serving_sizing_widget"
SIZING_ASKED = "serving_sizing_asked"

PRECISIONS = {
    "bf16": "sv.precision.bfloat",
    "fp8": "sv.precision.float_eight",
    "fp4": "sv.precision.float_four",
}
KV_PRECISIONS = {"bf16": "sv.precision.bfloat", "fp8": "sv.precision.float_eight"}


def _optional_int(name: str, label_key: str, help_key: str, step: int = 1) -> FormField:
    return ranged(
        ServingRequest, name, label_key=label_key, help_key=help_key, kind="int", optional=True, step=step,
        placeholder_key="sv.placeholder.derived",
    )  # fmt: skip


MODEL_FIELDS: tuple[FormField, ...] = (
    ranged(ServingRequest, "params_b", label_key="sv.field.params_b", help_key="sv.help.params_b",
           kind="float", default=671.0, step=1.0, number_format="%.1f"),
    ranged(ServingRequest, "active_params_b", label_key="sv.field.active_params_b",
           help_key="sv.help.active_params_b", kind="float", default=37.0, optional=True, step=1.0,
           number_format="%.1f", placeholder_key="sv.placeholder.dense"),
    _optional_int("layers", "sv.field.layers", "sv.help.layers"),
    _optional_int("hidden_size", "sv.field.hidden_size", "sv.help.hidden_size", 256),
    _optional_int("kv_heads", "sv.field.kv_heads", "sv.help.kv_heads"),
    _optional_int("kv_lora_rank", "sv.field.kv_lora_rank", "sv.help.kv_lora_rank", 64),
    _optional_int("experts", "sv.field.experts", "sv.help.experts"),
)  # fmt: skip
FORMAT_FIELDS: tuple[FormField, ...] = (
    FormField("precision", "sv.field.precision", "sv.help.precision", "choice", "fp8", options=PRECISIONS),
    FormField("kv_precision", "sv.field.kv_precision", "sv.help.kv_precision", "choice", "bf16",
              options=KV_PRECISIONS),
    FormField("disaggregate", "sv.field.disaggregate", "sv.help.disaggregate", "bool", False),
)  # fmt: skip
LOAD_FIELDS: tuple[FormField, ...] = (
    ranged(ServingRequest, "input_tokens", label_key="sv.field.input_tokens", help_key="sv.help.input_tokens",
           kind="int", default=2048, step=256),
    ranged(ServingRequest, "output_tokens", label_key="sv.field.output_tokens", help_key="sv.help.output_tokens",
           kind="int", default=512, step=64),
    ranged(ServingRequest, "batch", label_key="sv.field.batch", help_key="sv.help.batch", kind="int",
           optional=True, step=8, placeholder_key="sv.placeholder.batch"),
    ranged(ServingRequest, "ttft_ms", label_key="sv.field.ttft_ms", help_key="sv.help.ttft_ms", kind="float",
           optional=True, step=50.0, number_format="%.0f", placeholder_key="sv.placeholder.no_target"),
    ranged(ServingRequest, "tpot_ms", label_key="sv.field.tpot_ms", help_key="sv.help.tpot_ms", kind="float",
           optional=True, step=5.0, number_format="%.1f", placeholder_key="sv.placeholder.no_target"),
)  # fmt: skip
GROUPS = (
    ("sv.group.model", MODEL_FIELDS),
    ("sv.group.format", FORMAT_FIELDS),
    ("sv.group.load", LOAD_FIELDS),
)
FIELDS: tuple[FormField, ...] = (*MODEL_FIELDS, *FORMAT_FIELDS, *LOAD_FIELDS)
SIZING_FIELDS: tuple[FormField, ...] = (
    ranged(ServingRequest, "requests_per_s", label_key="sv.field.requests_per_s",
           help_key="sv.help.requests_per_s", kind="float", default=20.0, step=5.0, number_format="%.1f"),
)  # fmt: skip


Run = engine.ServingRun
"""The request shown, its estimate per design and the designs it could not be served on."""
SEEDED = "serving_seeded_from"
"""str: JSON of the scenario's serving request the form was last filled from (or gave it)."""


def _request(data: dict[str, object], carried: ServingRequest | None) -> ServingRequest:
    # what the form does not show (heads, FFN width, TP/EP, ...) of a loaded request is kept
    kept = {} if carried is None else carried.model_dump(exclude={f.name for f in FIELDS})
    given = {k: v for k, v in data.items() if v is not None}
    return serving_request({**{k: v for k, v in kept.items() if v is not None}, **given}, source="serving")


def _form(carried: ServingRequest | None) -> dict[str, object]:
    """The form's values, filled from the scenario's serving request when it brings a new one."""
    if carried is None:
        return forms.values(FORM, FIELDS)
    carried_json = engine.canonical_json(carried)
    if st.session_state.get(SEEDED) != carried_json:
        st.session_state.pop(FORM, None)
        st.session_state[SEEDED] = carried_json
        return forms.values(FORM, FIELDS, seed=carried.model_dump(include={f.name for f in FIELDS}))
    return forms.values(FORM, FIELDS)


def _keep(request: ServingRequest | None) -> None:
    if request is None:  # back to the defaults, or the edited form would give it back at once
        st.session_state.pop(FORM, None)
        st.session_state.pop(LAST_GOOD, None)
    state.set_serving(None if request is None else request.model_dump(mode="json", exclude_none=True))
    st.session_state[SEEDED] = None if request is None else engine.canonical_json(request)


def _scenario_link(run: Run, carried: ServingRequest | None, edited: bool) -> None:
    """The request becomes the scenario's (Compare rows, proposal, saved with it) once it is edited
    or kept; until then the page only shows it."""
    if carried is not None or edited:
        if carried != run.request:
            _keep(run.request)
        left, right = st.columns([4, 1])
        left.caption(t("sv.in_scenario"))
        right.button(t("sv.remove"), icon=":material/close:", on_click=_keep, args=(None,), key="sv_remove")
        return
    left, right = st.columns([4, 1])
    left.caption(t("sv.not_in_scenario"))
    right.button(t("sv.keep"), icon=":material/check:", on_click=_keep, args=(run.request,), key="sv_keep")


def request_and_estimates(plans: tuple[Plan, ...], carried: ServingRequest | None = None) -> Run:
    """The form in three groups, then the request on every design; a value the engine rejects is
    named under its input and the last accepted request stays on screen. ``carried`` is the
    scenario's serving request: it fills the form, and an edited request becomes it."""
    data = _form(carried)
    defaults = {f.name: f.default for f in FIELDS}
    slots: forms.Slots = {}
    with st.expander(t("sv.form"), expanded=True):
        for column, (title, fields) in zip(st.columns(len(GROUPS)), GROUPS, strict=True):
            column.markdown(f"**{t(title)}**")
            slots.update(forms.draw_group(FORM, fields, column))
        general = st.empty()
    try:
        run = engine.serving(plans, _request(data, carried))
        problem = None if run.estimates else "; ".join(sorted({m for _, m in run.errors}))
    except InputError as exc:
        problem = str(exc)
    if problem is None:
        st.session_state[LAST_GOOD] = dict(data)
        _scenario_link(run, carried, edited=dict(data) != defaults)
        _design_warnings(run, plans)
        return run
    forms.show_error(slots, FIELDS, problem, general)
    last = st.session_state.get(LAST_GOOD)
    if not last or last == data:
        st.stop()
    run = engine.serving(plans, _request(last, carried))
    st.warning(t("form.stale"), icon=":material/history:")
    _design_warnings(run, plans)
    return run


def _labels(plans: tuple[Plan, ...]) -> dict[str, str]:
    names = performance_tables.design_labels(plans, engine.catalog(), state.lang())
    return dict(zip([p.design_id for p in plans], names, strict=True))


def _design_warnings(run: Run, plans: tuple[Plan, ...]) -> None:
    labels = _labels(plans)
    for design, message in run.errors:
        st.warning(
            t("sv.design_error", design=labels.get(design, design), message=tx(message)),
            icon=":material/warning:",
        )


def kpis(run: Run, current: Plan) -> None:
    """KPI cards of the current design (or the first served one)."""
    plan, e = next(((p, e) for p, e in run.estimates if p.design_id == current.design_id), run.estimates[0])
    label = _labels((plan,))[plan.design_id]
    st.subheader(t("sv.kpis", design=label))
    cards = (
        ("sv.kpi.ttft", f"{e.ttft_s * 1e3:,.0f} ms"),
        ("sv.kpi.tpot", f"{e.tpot_s * 1e3:,.1f} ms"),
        ("sv.kpi.tokens_per_gpu", f"{e.tokens_per_s_per_gpu:,.0f}"),
        ("sv.kpi.usd_per_mtok", f"{e.usd_per_million_tokens:,.3f}"),
        ("sv.kpi.tokens_per_mw", f"{e.tokens_per_s_per_mw / 1e3:,.0f}k"),
        ("sv.kpi.alltoall", f"{e.ep_alltoall_share:.0%}"),
    )
    for column, (key, value) in zip(st.columns(len(cards)), cards, strict=True):
        column.metric(t(key), value)
    pools = "; ".join(
        t(
            "sv.pool",
            role=t(ROLES[p.role]),
            instances=p.instances,
            tp=p.layout.tp,
            ep=p.layout.ep,
            batch=p.batch,
        )
        for p in e.pools
    )
    st.caption(t("sv.layout_caption", pools=pools, bound=t(BOUNDS[e.bound]), limit=t(LIMITS[e.batch_limit])))
    st.caption(tx(serving_note()))


TABLE_ROWS: tuple[tuple[str, Callable[[ServingEstimate], str]], ...] = (
    (
        "sv.row.layout",
        lambda e: " + ".join(f"{p.instances}×(TP{p.layout.tp}·EP{p.layout.ep})" for p in e.pools),
    ),
    ("sv.row.batch", lambda e: f"{e.batch:,}"),
    ("sv.row.ttft", lambda e: f"{e.ttft_s * 1e3:,.1f}"),
    ("sv.row.tpot", lambda e: f"{e.tpot_s * 1e3:,.2f}"),
    ("sv.row.tokens", lambda e: f"{e.tokens_per_s:,.0f}"),
    ("sv.row.tokens_per_gpu", lambda e: f"{e.tokens_per_s_per_gpu:,.1f}"),
    ("sv.row.tokens_per_mw", lambda e: f"{e.tokens_per_s_per_mw:,.0f}"),
    ("sv.row.usd_per_mtok", lambda e: f"{e.usd_per_million_tokens:,.3f}"),
    ("sv.row.alltoall", lambda e: f"{e.ep_alltoall_s_per_step * 1e3:,.3f}"),
    ("sv.row.kv_cache", lambda e: f"{e.decode_pool.kv_cache_gbyte_per_gpu:,.1f}"),
)


def results_table(run: Run, plans: tuple[Plan, ...]) -> None:
    """Designs side by side: layout, batch, latency, throughput, cost, all-to-all per step."""
    labels = _labels(plans)
    st.subheader(t("sv.per_design"))
    frame = pd.DataFrame(
        {labels[p.design_id]: [fmt(e) for _, fmt in TABLE_ROWS] for p, e in run.estimates},
        index=[t(key) for key, _ in TABLE_ROWS],
    )
    st.table(frame)
    widgets.model_notes(n for _, e in run.estimates for n in e.notes)


STEP_PARTS = (
    ("sv.part.math", "math_s"),
    ("sv.part.tp", "tp_s"),
    ("sv.part.ep", "ep_s"),
    ("sv.part.overhead", "overhead_s"),
)


def charts(run: Run, plans: tuple[Plan, ...]) -> None:
    """TPOT against batch per design; tokens/s per GPU; the decode step's parts per design."""
    labels = _labels(plans)
    tpot = go.Figure()
    for (p, _), rows in zip(run.estimates, engine.serving_batch_sweeps(run), strict=True):
        tpot.add_scatter(x=[r["batch"] for r in rows], y=[r["tpot_ms"] for r in rows], mode="lines+markers",
                         name=labels[p.design_id])  # fmt: skip
    tpot.update_layout(title=t("sv.chart.tpot"), xaxis={"title": t("sv.axis.batch"), "type": "log"},
                       yaxis={"title": t("sv.axis.tpot")}, legend={"orientation": "h"})  # fmt: skip
    widgets.chart(tpot, key="serving_tpot")
    left, right = st.columns(2)
    names = [labels[p.design_id] for p, _ in run.estimates]
    tokens = go.Figure(go.Bar(x=names, y=[e.tokens_per_s_per_gpu for _, e in run.estimates]))
    tokens.update_layout(title=t("sv.chart.tokens"), yaxis={"title": t("sv.axis.tokens_per_gpu")})
    with left:
        widgets.chart(tokens, key="serving_tokens")
    step = go.Figure()
    for key, attr in STEP_PARTS:
        step.add_bar(x=names, y=[getattr(e.decode, attr) * 1e3 for _, e in run.estimates], name=t(key))
    step.update_layout(barmode="stack", title=t("sv.chart.step"), yaxis={"title": t("sv.axis.step_ms")},
                       legend={"orientation": "h"})  # fmt: skip
    with right:
        widgets.chart(step, key="serving_step")
    st.caption(t("sv.chart_caption"))


def size_serving_on(
    request: ServingRequest, current: Plan, design_ids: tuple[str, ...]
) -> tuple[SizingResult, ...]:
    """The reverse sizing of ``request`` on the designs, with the current scenario's GPU (cached)."""
    return engine.serving_sizing(request, current.scenario, design_ids)


def _on_size() -> None:
    forms.commit(SIZING_FORM, SIZING_FIELDS)
    st.session_state[SIZING_ASKED] = True


def sizing(run: Run, scenario_plan: Plan, plans: tuple[Plan, ...]) -> None:
    """The smallest cluster per design for a request rate within the targets (on demand)."""
    st.subheader(t("sv.sizing"))
    st.caption(t("sv.sizing_caption"))
    forms.values(SIZING_FORM, SIZING_FIELDS)
    with st.form(SIZING_WIDGET):
        forms.draw_group(SIZING_FORM, SIZING_FIELDS, st, live=False)
        st.form_submit_button(t("sv.sizing_run"), icon=":material/search:", on_click=_on_size)
    if not st.session_state.get(SIZING_ASKED):
        return
    rate = st.session_state[SIZING_FORM]["requests_per_s"]
    request = run.request.model_copy(update={"requests_per_s": rate, "batch": None})
    labels = _labels(plans)
    results = widgets.computed(size_serving_on, request, scenario_plan, tuple(p.design_id for p in plans))
    rows = [
        {
            t("sv.col.design"): labels.get(r.design_id, r.design_id),
            t("sv.col.gpus"): "—" if r.gpus is None else f"{r.gpus:,}",
            t("sv.col.layout"): ""
            if r.estimate is None
            else " + ".join(f"{p.instances}×(TP{p.layout.tp}·EP{p.layout.ep})" for p in r.estimate.pools),
            t("sv.col.usd_per_mtok"): ""
            if r.estimate is None
            else f"{r.estimate.usd_per_million_tokens:,.3f}",
            t("sv.col.binds"): t(BINDS[r.binds]) if r.binds in BINDS else r.binds,
            t("sv.col.why"): tx(r.smaller or r.reason),
        }
        for r in results
    ]
    widgets.table(pd.DataFrame(rows), wide=t("sv.col.why"))


ROLES = {"aggregated": "sv.role.aggregated", "prefill": "sv.role.prefill", "decode": "sv.role.decode"}
BOUNDS = {
    "compute": "sv.bound.compute",
    "memory_bandwidth": "sv.bound.memory_bandwidth",
    "tp_allreduce": "sv.bound.tp_allreduce",
    "ep_alltoall": "sv.bound.ep_alltoall",
    "overhead": "sv.bound.overhead",
}
LIMITS = {
    "given": "sv.limit.given",
    "kv_cache": "sv.limit.kv_cache",
    "batch_cap": "sv.limit.batch_cap",
    "tpot_slo": "sv.limit.tpot_slo",
    "ttft_slo": "sv.limit.ttft_slo",
}
BINDS = {
    "memory": "sv.binds.memory",
    "requests_per_s": "sv.binds.requests_per_s",
    "tpot_ms": "sv.binds.tpot_ms",
    "ttft_ms": "sv.binds.ttft_ms",
    "batch": "sv.binds.batch",
}
