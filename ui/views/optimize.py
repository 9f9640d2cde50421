"""Optimize page blocks: the limits form, the result beside the preset, and the Pareto front.

A run is the scenario as it was when the user clicked "Optimize" plus the request; both are kept
as JSON in the session, so the result stays put while the user explores (loading a design from
the front changes the app's current scenario, not the run).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

import streamlit as st

from planner import InputError, Plan, Scenario, scenario_from_data
from planner.i18n import tr
from planner.inputs.optimize import OptimizeRequest, request_from_data
from planner.optimize import OptimizeResult
from planner.optimize.changes import material_changes as changes_against_preset
from planner.optimize.pareto import ParetoPoint
from planner.report import fmt, performance_charts, performance_tables, tables
from planner.report.performance_tables import PARETO_KEYS, escape_markdown
from ui import engine, forms, keys, state, widgets
from ui.forms import FormField
from ui.state import t

FORM = keys.OPT_FORM

GROUPS = forms.model_groups(OptimizeRequest)
FIELDS: tuple[FormField, ...] = tuple(f for _, fields in GROUPS for f in fields)
LIMIT_OF_ERROR = {"power_cap_kw": "power_cap_kw", "budget_usd": "budget_usd", "rack_kw": "rack_kw"}


def request_data(values: Mapping[str, Any]) -> dict[str, Any]:
    """The optimizer request of the form's values (empty limits left out).

    >>> request_data({"objective": "capex", "budget_usd": None, "power_cap_kw": 900.0, "max_gpus": 64})
    {'objective': 'capex', 'power_cap_kw': 900.0, 'max_gpus': 64}
    """
    return {k: v for k, v in values.items() if v is not None}


def submit(scenario_json: str) -> None:
    """Form callback: validate the request; remember the run (scenario + request) or the error."""
    forms.commit(FORM, FIELDS)
    ss = st.session_state
    try:
        request = request_from_data(request_data(ss[FORM]))
    except InputError as exc:
        ss[keys.OPT_ERRORS] = str(exc)
        ss[keys.OPT_RUN] = None
        return
    ss[keys.OPT_ERRORS] = ""
    ss[keys.OPT_RUN] = {"scenario": scenario_json, "request": request.model_dump_json()}
    ss[keys.OPT_LOADED] = ""


def form(plan: Plan) -> forms.Slots:
    """Objective, limits and what the optimizer may choose; "Optimize" starts a run."""
    forms.values(FORM, FIELDS)
    slots: forms.Slots = {}
    with st.form("optimize_form_widget", border=True):
        for column, (title, fields) in zip(st.columns(len(GROUPS)), GROUPS, strict=True):
            column.markdown(f"**{t(title)}**")
            slots.update(forms.draw_group(FORM, fields, column, live=False))
        st.form_submit_button(
            t("opt.submit"),
            type="primary",
            icon=":material/auto_fix_high:",
            key=keys.OPT_SUBMIT,
            on_click=submit,
            args=(plan.scenario.model_dump_json(),),
        )
    st.caption(t("opt.form_caption", rack_kw=fmt.number(plan.scenario.facility.rack_power_limit_kw)))
    error = st.session_state.get(keys.OPT_ERRORS)
    if error:
        forms.show_error(slots, FIELDS, error, st)
    return slots


def current_run() -> dict[str, str] | None:
    run = st.session_state.get(keys.OPT_RUN)
    return dict(run) if run else None


def solved(run: Mapping[str, str]) -> engine.Solved:
    with st.spinner(t("opt.solving"), show_time=True):
        return engine.solve(run["scenario"], run["request"])


def _run_scenario(run: Mapping[str, str]) -> Scenario:
    return engine.scenario_of(run["scenario"])


def result(run: Mapping[str, str], outcome: engine.Solved, slots: forms.Slots, plan: Plan) -> None:
    """The optimizer's answer beside the preset, or why there is none."""
    if outcome.result is None:
        title = t("opt.infeasible_title") if outcome.infeasible else t("opt.rejected_title")
        st.error(
            f"**{title}**  \n{performance_tables.escape_markdown(outcome.error or '')}",
            icon=":material/block:",
        )
        forms.show_error(slots, FIELDS, outcome.error or "", st.empty())
        st.stop()
    found = outcome.result
    if run["scenario"] != plan.scenario.model_dump_json():
        st.info(_differs_text(run, plan), icon=":material/info:")
    _status_cards(found)
    preset, optimized = _labels(found)
    plans = (
        performance_tables.relabeled(found.preset_plan, "preset"),
        performance_tables.relabeled(found.plan, "optimized"),
    )
    st.subheader(t("opt.side_by_side"))
    widgets.compare_table(plans, {"preset": preset, "optimized": optimized})
    st.subheader(t("opt.choices"))
    st.table(
        performance_tables.choices_table(
            (found.preset_plan, found.plan), (preset, optimized), engine.catalog(), state.lang()
        )
    )
    widgets.model_notes(found.notes)
    accepted = material_changes(found)
    left, right = st.columns(2)
    left.button(
        t("opt.load_result"),
        type="primary",
        icon=":material/open_in_new:",
        key=keys.OPT_LOAD_RESULT,
        on_click=load_design,
        args=(found.scenario.model_dump_json(), t("opt.legend.optimized")),
        width="stretch",
        disabled=not accepted,
    )
    right.download_button(
        t("opt.download_json"),
        data=json.dumps(found.to_dict(), indent=2, ensure_ascii=False),
        file_name=f"optimized_{found.plan.gpus}gpu.json",
        mime="application/json",
        icon=":material/download:",
        width="stretch",
    )


CHANGE_KEYS = {"facility_power": "opt.change.facility_power", "racks": "opt.change.racks"}
"""The sentence of each measured change (the cooling method has its own)."""


def material_changes(found: OptimizeResult) -> bool:
    """Name what the result changes beyond its objective (cooling, facility power, racks); with a
    large change, ask before the design is taken over. Returns whether it may be taken over."""
    changes = changes_against_preset(preset=found.preset_plan, optimized=found.plan)
    if not changes:
        return True
    lang = state.lang()
    lines = [t("opt.changes_title")]
    for change in changes:
        if change.kind == "cooling":
            before, after = (tr(f"cooling.{c}", lang) for c in (change.before, change.after))
            lines.append("- " + t("opt.change.cooling", before=before, after=after))
            continue
        digits = 1 if change.kind == "facility_power" else 0
        unit = " kW" if change.kind == "facility_power" else ""
        lines.append(
            "- "
            + t(
                CHANGE_KEYS[change.kind],
                before=fmt.number(float(change.before), digits) + unit,
                after=fmt.number(float(change.after), digits) + unit,
                delta=fmt.percent(change.relative or 0.0, 0, signed=True),
            )
        )
    st.warning("\n".join(lines), icon=":material/swap_horiz:")
    if not any(change.large for change in changes):
        return True
    return st.checkbox(t("opt.accept_changes"), key=keys.OPT_ACCEPT_CHANGES)


def _differs_text(run: Mapping[str, str], plan: Plan) -> str:
    """Why the result is not for the current scenario: a design from it was loaded and is shown
    as loaded, or the sidebar changed since "Optimize" was pressed."""
    gpus = fmt.number(_run_scenario(run).gpus)
    loaded = st.session_state.get(keys.OPT_LOADED)
    base = state.base_scenario()
    shows_loaded = base is not None and plan.scenario == scenario_from_data(base)
    if loaded and state.base_origin().get("kind") == "optimizer" and shows_loaded:
        return t("opt.run_loaded", gpus=gpus, label=loaded)
    return t("opt.run_differs", gpus=gpus)


def _labels(found: OptimizeResult) -> tuple[str, str]:
    names = performance_tables.design_labels((found.preset_plan,), engine.catalog(), state.lang())
    return t("opt.col.preset", name=names[0]), t("opt.col.optimized")


def _status_cards(found: OptimizeResult) -> None:
    lang = state.lang()
    money = tables.money_of(found.plan)
    cards = st.columns(5)
    cards[0].metric(
        t("opt.kpi.status"),
        performance_tables.status_text(found.status, lang),
        border=True,
        help=t("opt.help.status"),
    )
    cards[1].metric(t("opt.kpi.solver"), found.solver, border=True)
    cards[2].metric(
        t("opt.kpi.gap"), performance_tables.gap_text(found.gap), border=True, help=t("opt.help.gap")
    )
    cards[3].metric(t("opt.kpi.time"), f"{fmt.number(found.solve_time_s, 2)} s", border=True)
    if found.saving_vs_preset_usd is None:
        cards[4].metric(
            t("opt.kpi.gpus"),
            fmt.number(found.plan.gpus),
            delta=fmt.number(found.plan.gpus - found.preset_plan.gpus),
            border=True,
        )
        return
    saving = money(found.saving_vs_preset_usd)
    key = "opt.kpi.saving_tco" if found.objective == "tco" else "opt.kpi.saving_capex"
    cards[4].metric(
        t(key),
        fmt.money(saving, money.currency, lang),
        delta=fmt.percent(found.saving_vs_preset_usd / max(_preset_value(found), 1.0), 1),
        delta_color="normal" if saving >= 0 else "inverse",
        border=True,
        help=t("opt.help.saving"),
    )


def _preset_value(found: OptimizeResult) -> float:
    cost = found.preset_plan.cost
    return float(cost.tco_usd if found.objective == "tco" else cost.capex_usd)


# --- loading a design ------------------------------------------------------------------------------


def load_design(scenario_json: str, label: str) -> None:
    """Button/selection callback: make a design the app's current scenario."""
    state.load_scenario(engine.scenario_of(scenario_json), origin={"kind": "optimizer", "label": label})
    st.session_state[keys.OPT_LOADED] = label


def on_point_selected(chart_key: str, points: tuple[ParetoPoint, ...]) -> None:
    """``on_select`` callback of the Pareto chart: load the clicked point's design."""
    event = st.session_state.get(chart_key) or {}
    selection = event.get("selection", {}) if isinstance(event, Mapping) else {}
    point = performance_tables.pareto_choice(points, selection.get("points", []))
    if point is None:
        return
    index = points.index(point)
    load_design(point.scenario.model_dump_json(), point_label(points, index))


def point_label(points: tuple[ParetoPoint, ...], index: int) -> str:
    """A Pareto point's name: its number and fabric, and the design whose switches it uses.

    A point of the bandwidth front can have another port count than its design (1 x 200G from
    the 8-rail design), so the design name alone would describe a different network.
    """
    point = points[index]
    names = tables.design_names(engine.catalog(), state.lang())
    base = point.scenario.design_id
    return t(
        "opt.point_label",
        number=_rank(points, index),
        label=point.label,
        design=names.get(base, base),
    )


def _rank(points: tuple[ParetoPoint, ...], index: int) -> int:
    """The number a point carries in the chart and table (cheapest first, from 1)."""
    order = sorted(range(len(points)), key=lambda i: points[i].capex_usd)
    return order.index(index) + 1


def loaded_message() -> None:
    label = st.session_state.get(keys.OPT_LOADED)
    if label:
        st.success(t("opt.loaded", label=label), icon=":material/check_circle:")


# --- Pareto front ------------------------------------------------------------------------------------


def pareto(run: Mapping[str, str], outcome: engine.Solved) -> None:
    """The front the user picks (cost vs power or vs bandwidth), clickable, with its points listed."""
    lang = state.lang()
    st.subheader(t("opt.pareto"))
    kind = widgets.choice(
        t("opt.pareto_kind"), PARETO_KEYS, key=keys.OPT_PARETO_KIND, help=t("opt.help.pareto")
    )
    found = engine.front(kind, run["scenario"], run["request"])
    if found is None:  # cancelled: the line is shown
        return
    if not found.points:
        st.warning(
            t("opt.pareto_error", message=escape_markdown(found.error or "")), icon=":material/warning:"
        )
        return
    result = outcome.result
    money = tables.money_of(result.plan if result else found.points[0].plan)
    figure = performance_charts.pareto(
        found.points,
        str(kind),
        lang,
        money=money,
        preset=result.preset_plan if result else None,
        optimized=result.plan if result else None,
    )
    chart_key = f"{keys.OPT_PARETO_CHART}_{kind}"
    st.plotly_chart(
        figure,
        width="stretch",
        config=widgets.PLOTLY_CONFIG,
        key=chart_key,
        on_select=functools.partial(on_point_selected, chart_key, found.points),
        selection_mode="points",
    )
    st.caption(t("opt.pareto_caption"))
    widgets.table(performance_tables.pareto_table(found.points, money, lang))


def custom_fabric_note() -> None:
    """Say that a loaded design's explicit fabric lives in this session, not in the link."""
    origin = state.base_origin()
    if state.custom_fabric_active() and origin.get("kind") != "saved":
        st.info(t("opt.session_only"), icon=":material/link:")
