"""Bill of materials: unit prices edited in place become scenario price overrides."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from planner import Plan
from planner.access import Permission
from planner.outputs import bom_frame
from planner.report import tables
from ui import auth, keys, state, widgets
from ui.state import t


def editor(plan: Plan) -> None:
    """The BOM table; an edited unit price becomes ``Scenario.price_overrides_usd`` and reruns."""
    lang = state.lang()
    money = tables.money_of(plan)
    frame = tables.bom_table(plan, lang)
    frame["unit_cost_report"] = frame["unit_cost_usd"] * money.per_usd
    currency = plan.cost.currency
    column_config = {
        "id": None,
        "category": None,
        "editable": None,
        "category_label": st.column_config.TextColumn(t("col.category"), disabled=True),
        "description": st.column_config.TextColumn(t("col.description"), disabled=True, width="large"),
        "quantity": st.column_config.NumberColumn(t("col.quantity"), disabled=True, format="localized"),
        "unit_cost_usd": st.column_config.NumberColumn(
            t("col.unit_price_usd"),
            min_value=0.0,
            format="dollar",
            help=t("help.unit_price"),
            required=True,
            disabled=not auth.can(Permission.INTERNAL_COST),  # prices are set by the commercial role
        ),
        "total_usd": st.column_config.NumberColumn(t("col.total_usd"), disabled=True, format="localized"),
        "total_report": st.column_config.NumberColumn(
            t("col.total_in", currency=t(f"currency.{currency}")), disabled=True, format="localized"
        ),
        "source": st.column_config.TextColumn(t("col.source"), disabled=True),
    }
    if currency == "USD":
        column_config["total_report"] = None
        column_config["unit_cost_report"] = None
    else:
        # prices are edited in the display currency and stored in USD (the catalog's unit)
        column_config["unit_cost_usd"] = None
        column_config["unit_cost_report"] = st.column_config.NumberColumn(
            t("col.unit_price_in", currency=t(f"currency.{currency}")),
            min_value=0.0,
            format="localized",
            help=t("help.unit_price_in", currency=t(f"currency.{currency}"), rate=f"{money.per_usd:.4f}"),
            required=True,
        )
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
    changes = _usd_changes(frame, edited, money) if currency != "USD" else tables.price_changes(frame, edited)
    if changes:
        state.set_prices({**state.prices(), **changes})
        st.rerun()
    st.caption(t("bom.caption"))


def _usd_changes(before: pd.DataFrame, after: pd.DataFrame, money: tables.Money) -> dict[str, float]:
    """Prices edited in the display currency, as the USD overrides the scenario stores."""
    edited = tables.price_changes(
        before.assign(unit_cost_usd=before["unit_cost_report"]),
        after.assign(unit_cost_usd=after["unit_cost_report"]),
    )
    return {record_id: price / money.per_usd for record_id, price in edited.items()}


def actions(plan: Plan) -> None:
    """CSV download and the reset of edited prices."""
    left, right = st.columns([1, 1])
    widgets.csv_download(
        left,
        t("bom.download_csv"),
        bom_frame(plan),
        file_name=f"bom_{plan.design_id}_{plan.gpus}gpu.csv",
        audit=f"BOM CSV {plan.design_id} {plan.gpus} GPUs",
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
