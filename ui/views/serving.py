"""Serving page blocks: the model and request form, KPI cards, designs side by side, TPOT against
batch, the decode step per design (the expert all-to-all share), and the reverse sizing."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from planner import InputError, Plan
from planner.decision.bands import serving_note
from planner.inputs.serving import ServingRequest, serving_request
from planner.performance.serving import ServingEstimate, SizingResult
from planner.report import charts as report_charts
from ui import engine, forms, state, widgets
from ui.forms import FormField
from ui.state import t, tx

FORM = "serving_form"
LAST_GOOD = "serving_last_good"
SIZING_FORM = "serving_sizing_form"
SIZING_WIDGET = "serving_sizing_widget"
SIZING_ASKED = "serving_sizing_asked"

GROUPS = forms.model_groups(ServingRequest)
FIELDS: tuple[FormField, ...] = tuple(f for _, fields in GROUPS for f in fields)
SIZING_FIELDS = forms.model_fields(ServingRequest, names=("requests_per_s",))


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
    slots, general = forms.draw_groups(FORM, GROUPS, t("sv.form"))
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


def _design_warnings(run: Run, plans: tuple[Plan, ...]) -> None:
    labels = widgets.design_labels(plans)
    for design, message in run.errors:
        st.warning(
            t("sv.design_error", design=labels.get(design, design), message=tx(message)),
            icon=":material/warning:",
        )


def kpis(run: Run, current: Plan) -> None:
    """KPI cards of the current design (or the first served one)."""
    plan, e = next(((p, e) for p, e in run.estimates if p.design_id == current.design_id), run.estimates[0])
    label = widgets.design_labels((plan,))[plan.design_id]
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
    labels = widgets.design_labels(plans)
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
    """TPOT against batch per design; tokens/s per GPU; the decode step's parts per design.

    Each design in its own colour (:func:`planner.report.charts.design_color`, as on every other
    page), the house style's legend below the plot, design names wrapped under the bars."""
    labels = widgets.design_labels(plans)
    colors = {
        p.design_id: report_charts.design_color(p.design_id, i) for i, (p, _) in enumerate(run.estimates)
    }
    tpot = go.Figure()
    for (p, _), rows in zip(run.estimates, engine.serving_batch_sweeps(run), strict=True):
        tpot.add_scatter(x=[r["batch"] for r in rows], y=[r["tpot_ms"] for r in rows], mode="lines+markers",
                         name=labels[p.design_id], line={"color": colors[p.design_id]})  # fmt: skip
    report_charts.styled(tpot, t("sv.chart.tpot"))
    tpot.update_layout(xaxis={"title": t("sv.axis.batch"), "type": "log"}, yaxis={"title": t("sv.axis.tpot")})
    widgets.chart(tpot, key="serving_tpot")
    left, right = st.columns(2)
    names = [report_charts.wrapped(labels[p.design_id], 14) for p, _ in run.estimates]
    tokens = go.Figure(
        go.Bar(
            x=names,
            y=[e.tokens_per_s_per_gpu for _, e in run.estimates],
            marker={"color": [colors[p.design_id] for p, _ in run.estimates]},
        )
    )
    report_charts.styled(tokens, t("sv.chart.tokens"), legend=None)
    tokens.update_layout(yaxis={"title": t("sv.axis.tokens_per_gpu")})
    with left:
        widgets.chart(tokens, key="serving_tokens")
    step = go.Figure()
    for key, attr in STEP_PARTS:
        step.add_bar(x=names, y=[getattr(e.decode, attr) * 1e3 for _, e in run.estimates], name=t(key))
    report_charts.styled(step, t("sv.chart.step"), height=440)
    step.update_layout(barmode="stack", yaxis={"title": t("sv.axis.step_ms")}, legend={"y": -0.38})
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
    labels = widgets.design_labels(plans)
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
