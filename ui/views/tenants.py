"""Tenants page blocks: the tenant table editor, the placement summary, per-tenant cards, the
placement on the fabric (who owns which server links on which plane), the same tenant set on other
designs, and the job-mix simulation with a progress bar."""

from __future__ import annotations

import html
import json
import math
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from planner import Plan, PlannerError
from planner.i18n import error_text
from planner.jobmix.jobs import job_mix, synthetic_jobs
from planner.jobmix.simulate import POLICIES, SimResult, simulate
from planner.progress import Steps, part_of
from planner.report import fmt, tables
from planner.report.charts import PALETTE
from planner.report.performance_tables import escape_markdown
from planner.tenancy.fabric import fabric_view, sim_cluster
from planner.tenancy.place import Placement
from planner.tenancy.run import COMPARE_DESIGNS, comparison_rows, ownership_grid
from planner.tenancy.tenants import ISOLATIONS, TenantSet, tenants_from_data
from ui import engine, progress, state, widgets
from ui.state import t, tx

TABLE_KEY = "tenants_table"
TABLE_ORIGIN = "tenants_table_origin"
"""str: what the table started from (:func:`_origin`); a new origin starts a new table."""
TABLE_VERSION = "tenants_table_version"
SIM_KEY = "tenants_simulation"
SIM_ASKED = "tenants_simulation_asked"
COLUMNS = ("name", "gpus", "isolation", "bandwidth_gbit_per_s_per_gpu", "storage_gbyte_per_s")
EXAMPLE = (
    ("foundation", 0.5, "plane", 400.0, 100.0),
    ("finetune", 0.25, "leaf", 400.0, 50.0),
    ("inference", 0.125, "domain", 200.0, 0.0),
    ("research", 0.125, "shared", 100.0, 0.0),
)
"""The starting table: the README's four tenants, as shares of the cluster's GPUs."""

ISOLATION_KEYS = {
    "shared": "tn.isolation.shared",
    "leaf": "tn.isolation.leaf",
    "plane": "tn.isolation.plane",
    "domain": "tn.isolation.domain",
}
FIELD_KEYS = {
    "gpus": "tn.field.gpus",
    "bandwidth_gbit_per_s_per_gpu": "tn.field.bandwidth_gbit_per_s_per_gpu",
    "storage_gbyte_per_s": "tn.field.storage_gbyte_per_s",
    "isolation": "tn.field.isolation",
}
"""Label of each field an unmet guarantee names (:class:`planner.tenancy.place.Unmet`)."""
POLICY_KEYS = {"first-fit": "tn.policy.first_fit", "topology": "tn.policy.topology"}
KPIS = (
    ("tn.kpi.free", "tn.kpi.free.help"),
    ("tn.kpi.stranded_gpus", "tn.kpi.stranded_gpus.help"),
    ("tn.kpi.stranded_ports", "tn.kpi.stranded_ports.help"),
    ("tn.kpi.fragmentation", "tn.kpi.fragmentation.help"),
    ("tn.kpi.tenants_per_leaf", "tn.kpi.tenants_per_leaf.help"),
)
COMPARE_COLUMNS = {
    "design": "tn.cmp.design",
    "tenant": "tn.cmp.tenant",
    "isolation": "tn.cmp.isolation",
    "allocated_gpus": "tn.cmp.allocated_gpus",
    "guaranteed_gbit_per_s_per_gpu": "tn.cmp.guaranteed_gbit_per_s_per_gpu",
    "worst_hops": "tn.cmp.worst_hops",
    "usd_per_gpu_hour": "tn.cmp.usd_per_gpu_hour",
    "stranded_gpus": "tn.cmp.stranded_gpus",
    "stranded_ports": "tn.cmp.stranded_ports",
    "unmet": "tn.cmp.unmet",
}
"""Header of each column of :func:`planner.tenancy.run.comparison_rows`."""
COMPARE_DIGITS = {
    "allocated_gpus": 0,
    "guaranteed_gbit_per_s_per_gpu": 0,
    "worst_hops": 0,
    "usd_per_gpu_hour": 2,
    "stranded_gpus": 0,
    "stranded_ports": 0,
    "unmet": 0,
}
"""Decimals of each figure of the comparison table."""


def _example(gpus: int) -> pd.DataFrame:
    rows = [(name, max(1, int(gpus * share)), iso, bw, sto) for name, share, iso, bw, sto in EXAMPLE]
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows of the editor as tenant data: empty cells left out (the defaults apply), whole floats
    as integers (the editor hands back floats once a cell was empty)."""
    out = []
    for row in frame.to_dict("records"):
        item = {
            str(k): v
            for k, v in row.items()
            if v is not None and not (isinstance(v, float) and math.isnan(v))
        }
        if isinstance(item.get("gpus"), float) and float(item["gpus"]).is_integer():
            item["gpus"] = int(item["gpus"])
        if item:
            out.append(item)
    return out


def _origin(items: list[dict[str, Any]], gpus: int) -> str:
    """What the table starts from: the scenario's tenant set, or the example for ``gpus``."""
    return json.dumps(items, sort_keys=True, ensure_ascii=False) if items else f"example:{gpus}"


def _start(plan: Plan) -> tuple[pd.DataFrame, str]:
    """The table's starting rows and its widget key.

    The key changes only when the tenant set came from elsewhere (a scenario opened, the set
    removed, another GPU count for the example): the table's own edits are kept as the widget's
    edits on top of the rows it started from, so writing them into the scenario must not restart it.
    """
    items = [tenant.model_dump() for tenant in plan.scenario.tenants]
    origin = _origin(items, plan.gpus)
    if st.session_state.get(TABLE_ORIGIN) != origin:
        st.session_state[TABLE_ORIGIN] = origin
        st.session_state[TABLE_VERSION] = st.session_state.get(TABLE_VERSION, 0) + 1
    frame = pd.DataFrame(items, columns=list(COLUMNS)) if items else _example(plan.gpus)
    return frame, f"{TABLE_KEY}_{st.session_state[TABLE_VERSION]}"


def _edited(key: str) -> bool:
    """True once the user changed the table (a cell, an added or a deleted row)."""
    changes = st.session_state.get(key) or {}
    return any(changes.get(part) for part in ("edited_rows", "added_rows", "deleted_rows"))


def _keep(items: list[dict[str, Any]], gpus: int) -> None:
    """Make ``items`` the scenario's tenant set (the table's origin follows, so it keeps its edits)."""
    state.set_tenants(items)
    st.session_state[TABLE_ORIGIN] = _origin(items, gpus)


def editor(plan: Plan) -> TenantSet | None:
    """The tenant table; ``None`` (with the problem shown) when it does not validate.

    The table starts from the scenario's tenant set (or an example when it has none); every
    valid edit becomes the scenario's tenant set, so saving the scenario keeps it and the
    proposal shows it.
    """
    st.subheader(t("tn.editor"))
    start, key = _start(plan)
    frame = st.data_editor(
        start,
        num_rows="dynamic",
        width="stretch",
        key=key,
        column_config={
            "name": st.column_config.TextColumn(t("tn.col.name"), required=True, max_chars=64),
            "gpus": st.column_config.NumberColumn(t("tn.col.gpus"), min_value=1, step=1, required=True),
            "isolation": st.column_config.SelectboxColumn(
                t("tn.col.isolation"), options=list(ISOLATIONS), required=True, help=t("tn.help.isolation")
            ),
            "bandwidth_gbit_per_s_per_gpu": st.column_config.NumberColumn(
                t("tn.col.bandwidth"), min_value=0.0
            ),
            "storage_gbyte_per_s": st.column_config.NumberColumn(t("tn.col.storage"), min_value=0.0),
        },
    )
    try:
        tenants = tenants_from_data(_records(frame), source=t("tn.table"))
    except PlannerError as exc:
        st.error(escape_markdown(tx(error_text(exc))), icon=":material/warning:")
        tenants = None
    _scenario_status(plan, tenants, key)
    return tenants


def _scenario_status(plan: Plan, tenants: TenantSet | None, key: str) -> None:
    """Write a valid edited table into the scenario; say whether the scenario carries the set."""
    saved = [tenant.model_dump() for tenant in plan.scenario.tenants]
    items = [tenant.model_dump() for tenant in tenants.tenants] if tenants is not None else None
    if items is not None and _edited(key) and items != saved:
        _keep(items, plan.gpus)
        saved = items
    if saved:
        st.caption(t("tn.in_scenario"))
        st.button(t("tn.remove"), on_click=_keep, args=([], plan.gpus), key="tenants_remove")
    else:
        st.caption(t("tn.example"))
        if items is not None:
            st.button(t("tn.keep"), on_click=_keep, args=(items, plan.gpus), key="tenants_keep")


def placements(plan: Plan, tenants: TenantSet | None) -> tuple[Placement, ...]:
    """The tenant set on the current design first, then on the other compared designs (cached
    in :func:`ui.engine.tenant_placements`)."""
    if tenants is None:
        return ()
    designs = (plan.design_id, *(d for d in COMPARE_DESIGNS if d != plan.design_id))
    return widgets.computed(engine.tenant_placements, plan.scenario, tenants, designs)


def summary(placed: tuple[Placement, ...]) -> None:
    """Cluster figures of the current design and every guarantee not met."""
    if not placed:
        return
    p = placed[0]
    st.subheader(t("tn.summary"))
    values = (
        fmt.number(p.free_gpus),
        fmt.number(p.stranded_gpus),
        fmt.number(p.stranded_ports),
        f"{p.fragmentation:.0%}",
        fmt.number(p.max_tenants_per_leaf),
    )
    for column, (key, help_key), value in zip(st.columns(len(KPIS)), KPIS, values, strict=True):
        column.metric(t(key), value, help=t(help_key))
    if not p.unmet:
        st.success(t("tn.all_met"))
    for u in p.unmet:
        st.warning(
            t(
                "tn.unmet",
                name=escape_markdown(u.name),
                field=t(FIELD_KEYS[u.field]),
                shortfall=f"{u.shortfall:,.4g}",
            )
        )


def cards(placed: tuple[Placement, ...]) -> None:
    """One card per tenant: what it got, what it is guaranteed, what one failure takes, its price."""
    if not placed:
        return
    st.subheader(t("tn.cards"))
    columns = st.columns(min(3, len(placed[0].tenants)))
    for n, tenant in enumerate(placed[0].tenants):
        with columns[n % len(columns)].container(border=True):
            st.markdown(
                f"**{escape_markdown(tenant.name)}** · {t(ISOLATION_KEYS[tenant.isolation])}"
            )  # a name, as text
            a, b = st.columns(2)
            a.metric(t("tn.card.gpus"), f"{fmt.number(tenant.allocated_gpus)} / {fmt.number(tenant.gpus)}")
            b.metric(t("tn.card.price"), f"{tenant.usd_per_gpu_hour:.2f}")
            a.metric(t("tn.card.guaranteed"), f"{tenant.guaranteed_gbit_per_s_per_gpu:,.0f}")
            b.metric(t("tn.card.hops"), str(tenant.worst_hops))
            st.caption(
                t(
                    "tn.card.detail",
                    servers=fmt.number(len(tenant.servers)),
                    switches=fmt.number(len(tenant.switches)),
                    planes=", ".join(tenant.planes) or "-",
                    racks=fmt.number(len(tenant.racks)),
                    best=f"{tenant.best_effort_gbit_per_s_per_gpu:,.0f}",
                    leaf=fmt.number(tenant.blast_radius_gpus["leaf"]),
                    spine=fmt.number(tenant.blast_radius_gpus["spine"]),
                    plane=fmt.number(tenant.blast_radius_gpus["plane"]),
                    capex=fmt.number(round(tenant.capex_share_usd)),
                )
            )


def fabric_map(placed: tuple[Placement, ...]) -> None:
    """Servers (columns) by plane (rows), coloured by the tenant whose traffic the links carry."""
    if not placed or not placed[0].tenants:
        return
    servers, planes, grid = ownership_grid(placed[0])
    if not planes:
        return
    names = [html.escape(tenant.name) for tenant in placed[0].tenants]  # Plotly reads tags in text
    hover = [[names[c] if c >= 0 else t("tn.map.dark") for c in row] for row in grid]
    colors = [PALETTE[i % (len(PALETTE) - 1)] for i in range(len(names))]  # the pale grey left out
    fig = go.Figure(
        go.Heatmap(
            z=[[c if c >= 0 else None for c in row] for row in grid],
            x=list(servers),
            y=list(planes),
            text=hover,
            hovertemplate="%{x} · %{y}: %{text}<extra></extra>",
            colorscale=_steps(colors),
            zmin=-0.5,
            zmax=len(names) - 0.5,
            showscale=False,
        )
    )
    for name, color in zip(names, colors, strict=True):  # the legend: one entry per tenant
        fig.add_trace(
            go.Scatter(
                x=[None],
                y=[None],
                mode="markers",
                marker={"symbol": "square", "size": 12, "color": color},
                name=name,
                showlegend=True,
            )
        )
    fig.update_layout(
        title=t("tn.map.title"),
        xaxis={"title": t("tn.map.servers"), "showticklabels": False},
        yaxis={"title": t("tn.map.planes")},
        height=200 + 20 * len(planes),
    )
    st.subheader(t("tn.map"))
    widgets.chart(fig, key="tenants_map")
    st.caption(t("tn.map.caption"))


def _steps(colors: list[str]) -> list[tuple[float, str]]:
    """A colour scale of one flat step per tenant (tenant ``i`` at z = i, z from -0.5 to n - 0.5)."""
    n = len(colors)
    scale: list[tuple[float, str]] = []
    for i, color in enumerate(colors):
        scale += [(i / n, color), ((i + 1) / n, color)]
    return scale


def comparison(placed: tuple[Placement, ...]) -> None:
    """The same tenant set on each design, one row per design and tenant: designs by name, figures
    written as the rest of the app writes them (not ``400.000000``)."""
    if len(placed) < 2:
        return
    st.subheader(t("tn.compare"))
    frame = pd.DataFrame(comparison_rows(placed))
    names = tables.design_names(engine.catalog(), state.lang())
    frame["design"] = [names.get(d, d) for d in frame["design"]]
    frame["isolation"] = [t(ISOLATION_KEYS[i]) for i in frame["isolation"]]
    for column, digits in COMPARE_DIGITS.items():
        frame[column] = [fmt.number(float(v), digits) for v in frame[column]]
    widgets.table(frame.rename(columns={c: t(COMPARE_COLUMNS[c]) for c in frame.columns}))


def simulation(plan: Plan) -> None:
    """The job-mix form; on submit both policies run with a progress bar, and the charts follow."""
    st.subheader(t("tn.sim"))
    st.caption(t("tn.sim.caption"))
    with st.form("tenants_sim_form"):
        a, b, c, d = st.columns(4)
        jobs = a.number_input(t("tn.sim.jobs"), min_value=100, max_value=50_000, value=10_000, step=1000)
        load = b.slider(t("tn.sim.load"), min_value=0.1, max_value=1.5, value=0.9, step=0.05)
        seed = c.number_input(t("tn.sim.seed"), min_value=0, max_value=2**31 - 1, value=1, step=1)
        preempt = d.checkbox(t("tn.sim.preempt"))
        # a flag set by the callback, not the button's value: the app may rerun before the page
        # is reached (URL and history bookkeeping), and a button is true for one run only
        st.form_submit_button(t("tn.sim.run"), on_click=_ask)
    if st.session_state.get(SIM_ASKED, False):  # cleared once run or cancelled (ui/progress.py)
        ran = progress.run(
            name="tenants_sim",
            label=t("tn.sim.running"),
            compute=lambda steps: _run(plan, int(jobs), float(load), int(seed), bool(preempt), steps),
        )
        st.session_state.pop(SIM_ASKED, None)
        if ran is not None:  # a cancelled run keeps the results shown before
            st.session_state[SIM_KEY] = ran
    results: dict[str, SimResult] | None = st.session_state.get(SIM_KEY)
    if results:
        _sim_results(results)


def _ask() -> None:
    st.session_state[SIM_ASKED] = True


def _run(plan: Plan, jobs: int, load: float, seed: int, preempt: bool, steps: Steps) -> dict[str, SimResult]:
    cluster = sim_cluster(widgets.computed(lambda: fabric_view(plan=plan, catalog=engine.catalog())))
    stream = widgets.computed(
        lambda: synthetic_jobs(
            count=jobs, cluster_gpus=cluster.gpus, seed=seed, load=load, mix=job_mix(engine.catalog())
        )
    )
    out = {}
    for n, policy in enumerate(POLICIES):
        part = part_of(steps, index=n, count=len(POLICIES))
        out[policy] = simulate(cluster=cluster, jobs=stream, policy=policy, preempt=preempt, steps=part)
    return out


def _sim_results(results: dict[str, SimResult]) -> None:
    rows = [
        {
            t("tn.sim.policy"): t(POLICY_KEYS[policy]),
            t("tn.sim.utilization"): f"{r.utilization:.1%}",
            t("tn.sim.p50"): f"{r.queue_delay_s['p50']:,.0f}",
            t("tn.sim.p95"): f"{r.queue_delay_s['p95']:,.0f}",
            t("tn.sim.p99"): f"{r.queue_delay_s['p99']:,.0f}",
            t("tn.sim.fragmentation"): f"{r.fragmentation:.1%}",
            t("tn.sim.spanning"): fmt.number(r.spanning_jobs),
            t("tn.sim.preemptions"): fmt.number(r.preemptions),
        }
        for policy, r in results.items()
    ]
    widgets.table(pd.DataFrame(rows))
    for index, (metric, key) in enumerate(
        (("busy", "tn.sim.chart.utilization"), ("frag", "tn.sim.chart.fragmentation"))
    ):
        fig = go.Figure()
        for policy, r in results.items():
            fig.add_trace(
                go.Scatter(
                    x=[s[0] / 3600 for s in r.series],
                    y=[s[1] if metric == "busy" else s[2] for s in r.series],
                    mode="lines",
                    name=t(POLICY_KEYS[policy]),
                )
            )
        fig.update_layout(
            title=t(key), xaxis={"title": t("tn.sim.hours")}, yaxis={"tickformat": ".0%", "range": [0, 1]}
        )
        widgets.chart(fig, key=f"tenants_sim_{index}")
