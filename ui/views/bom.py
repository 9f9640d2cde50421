"""Bill of materials: unit prices edited in place become scenario price overrides."""

from __future__ import annotations

import streamlit as st

from planner import Plan
from planner.outputs import bom_frame
from planner.report import tables
from ui import keys, state
from ui.state import t


def editor(plan: Plan) -> None:
    """The BOM table; an edited unit price becomes ``Scenario.price_overrides_usd`` and reruns."""
    lang = state.lang()
    frame = tables.bom_table(plan, lang)
    currency = plan.cost.currency
    column_config = {
        "id": None,
        "category": None,
        "editable": None,
        "category_label": st.column_config.TextColumn(t("col.category"), disabled=True),
        "description": st.column_config.TextColumn(t("col.description"), disabled=True, width="large"),
        "quantity": st.column_config.NumberColumn(t("col.quantity"), disabled=True, format="localized"),
        "unit_cost_usd": st.column_config.NumberColumn(
            t("col.unit_price_usd"), min_value=0.0, format="dollar", help=t("help.unit_price"), required=True
        ),
        "total_usd": st.column_config.NumberColumn(t("col.total_usd"), disabled=True, format="localized"),
        "total_report": st.column_config.NumberColumn(
            t("col.total_in", currency=t(f"currency.{currency}")), disabled=True, format="localized"
        ),
        "source": st.column_config.TextColumn(t("col.source"), disabled=True),
    }
    if currency == "USD":
        column_config["total_report"] = None
    version = int(st.session_state.get(keys.BOM_EDITOR_VERSION, 0))
    edited = st.data_editor(
        frame,
        key=keys.bom_editor(version),
        column_config=column_config,
        hide_index=True,
        width="stretch",
        height=38 + 35 * len(frame),
        num_rows="fixed",
    )
    changes = tables.price_changes(frame, edited)
    if changes:
        state.set_prices({**state.prices(), **changes})
        st.rerun()
    st.caption(t("bom.caption"))


def actions(plan: Plan) -> None:
    """CSV download and the reset of edited prices."""
    left, right = st.columns([1, 1])
    left.download_button(
        t("bom.download_csv"),
        data=bom_frame(plan).to_csv(index=False).encode("utf-8-sig"),
        file_name=f"bom_{plan.design_id}_{plan.gpus}gpu.csv",
        mime="text/csv",
        icon=":material/download:",
    )
    overrides = state.prices()
    if overrides:
        right.button(
            t("bom.reset_prices", count=len(overrides)),
            key=keys.RESET_PRICES,
            on_click=state.set_prices,
            args=({},),
            icon=":material/restart_alt:",
        )
        st.caption(
            t("bom.overrides", items=", ".join(f"{k} = {v:,.2f} USD" for k, v in sorted(overrides.items())))
        )
