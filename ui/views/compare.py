"""The Compare page: the recommendation by the cost of the work, the pools and the claims tables."""

from __future__ import annotations

import streamlit as st

from planner import Plan
from planner.errors import PlannerError
from planner.i18n import error_text
from planner.inputs.scenario import WorkloadEntry, load_workload
from planner.report import recommendation_section, serving_section, tables
from planner.report.performance_tables import escape_markdown
from ui import engine, keys, state
from ui.state import t, tx
from ui.widgets import chart, table


def claims(plans: tuple[Plan, ...], names: dict[str, str]) -> None:
    frame = tables.claims_table(plans, engine.catalog(), names, state.lang())
    st.subheader(t("compare.claims"))
    if frame.empty:
        st.caption(t("compare.no_claims"))
        return
    st.caption(t("compare.claims_caption"))
    table(frame)


def pools(plans: tuple[Plan, ...], names: dict[str, str]) -> None:
    st.subheader(t("pools.title"))
    st.caption(t("pools.caption"))
    table(tables.pools_table(plans, names, state.lang()).reset_index())


def serving(plans: tuple[Plan, ...], names: dict[str, str]) -> None:
    """The scenario's serving request (Serving page) on each design; nothing without one."""
    request = plans[0].scenario.serving if plans else None
    if request is None:
        return
    run = engine.serving(plans, request)
    found = serving_section.Serving(run.request, run.estimates, run.errors)
    st.subheader(t("compare.serving", model=escape_markdown(tx(serving_section.model_line(request)))))
    st.caption(t("compare.serving_caption"))
    frame = serving_section.serving_frame(found, names, state.lang())
    if not frame.empty:
        table(frame.reset_index(names=t("col.item")))
    for line in serving_section.problem_lines(found, names, state.lang()):
        st.warning(line, icon=":material/warning:")


def decision(plan: Plan, names: dict[str, str]) -> None:
    """The designs ranked by the cost of the scenario's workload: the sentence, the chart with the
    bands and probabilities, the table and the rule; then the workload file that sets the mix."""
    st.subheader(t("compare.decision"))
    try:
        result = engine.decision_of(plan.scenario, plan)
    except PlannerError as exc:
        st.warning(t("error.page", message=tx(error_text(exc))), icon=":material/warning:")
        result = None
    if result is not None:
        lang = state.lang()
        catalog = engine.catalog()
        st.success(escape_markdown(recommendation_section.sentence(result, catalog=catalog, lang=lang)))
        chart(recommendation_section.decision_chart(result, names, lang), key="compare_decision")
        table(recommendation_section.decision_frame(result, names, lang))
        st.caption(escape_markdown(recommendation_section.rule_text(result, lang)))
        failures = recommendation_section.failure_frame(result, names, lang, catalog)
        if not failures.empty:
            with st.expander(t("compare.failures")):
                table(failures)
    workload_file(plan)


def _entry_text(entry: WorkloadEntry) -> str:
    """An entry as the caption lists it: its label and its share or its required rate."""
    rate = entry.required_rate_tokens_per_s
    if rate is not None:
        return t("compare.workload_rate", entry=entry.label, rate=f"{rate:,.0f}")
    return t("compare.workload_share", entry=entry.label, weight=f"{entry.share_weight:g}")


def workload_file(plan: Plan) -> None:
    """Upload a workload file (YAML/JSON list of entries) into the scenario, or clear it."""
    entries = plan.scenario.workload
    if entries:
        st.caption(t("compare.workload_now", entries=escape_markdown(", ".join(map(_entry_text, entries)))))
    link_problem = st.session_state.get(keys.WORKLOAD_LINK_PROBLEM)
    if entries and link_problem:
        st.caption(t("compare.workload_not_in_link", reason=escape_markdown(tx(link_problem))))
    upload = st.file_uploader(t("compare.workload_file"), type=["yaml", "yml", "json"], key="workload_upload")
    if upload is not None:
        try:
            mix = load_workload(upload.getvalue(), name=upload.name)
        except PlannerError as exc:
            st.error(tx(error_text(exc)), icon=":material/warning:")
        else:
            items = [e.model_dump(mode="json") for e in mix]
            if [e.model_dump(mode="json") for e in entries] != items:
                state.set_workload(items)
                st.rerun()
    if entries and st.button(t("compare.workload_clear"), key="workload_clear"):
        state.set_workload([])
        st.rerun()
