"""The Assumptions page: every source and assumption the plan used, and the scenario download."""

from __future__ import annotations

import json

import streamlit as st

from planner import Plan
from planner.access import Permission
from planner.i18n import tr_enum
from planner.report import tables
from planner.report.export.pricing import redact_prices
from ui import auth, keys, state
from ui.state import t
from ui.widgets import table


def assumptions(plan: Plan) -> None:
    lang = state.lang()
    frame = tables.assumptions_table(plan, lang)
    if not auth.can(Permission.INTERNAL_COST):  # the sources quote the unit costs
        frame[t("col.text")] = frame[t("col.text")].map(redact_prices)
    kinds = {"all": t("assumptions.all"), "assumption": tr_enum("assumption_kind", "assumption", lang)}
    kinds["source"] = tr_enum("assumption_kind", "source", lang)
    choice = st.segmented_control(
        t("assumptions.filter"),
        options=list(kinds),
        format_func=kinds.__getitem__,
        default="all",
        key=keys.ASSUMPTION_KIND,
    )
    if choice in ("assumption", "source"):
        frame = frame[frame[t("col.kind")] == kinds[choice]]
    counts = tables.assumption_counts(plan)
    st.caption(t("assumptions.caption", sources=counts["source"], assumptions=counts["assumption"]))
    table(frame, wide=t("col.text"), narrow=(t("col.kind"),))


def scenario_download(plan: Plan) -> None:
    st.download_button(
        t("assumptions.download_scenario"),
        data=json.dumps(plan.scenario.model_dump(mode="json"), indent=2, ensure_ascii=False),
        file_name="scenario.json",
        mime="application/json",
    )
