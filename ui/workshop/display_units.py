"""Display units the reader picks (GB/s or Gb/s, kW or BTU/h, 万/亿 or M): only how figures are written."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from planner.i18n import tr
from planner.report import display
from ui import keys, state
from ui.state import t


def units() -> display.DisplayUnits:
    """The reader's display units (the engine's own units until chosen)."""
    chosen = dict(st.session_state.get(keys.UNITS) or {})
    default = display.DisplayUnits()
    return display.DisplayUnits(
        bandwidth=chosen.get("bandwidth", default.bandwidth),
        power=chosen.get("power", default.power),
        money=chosen.get("money", default.money),
    )


def _set_unit(name: str) -> None:
    picked = st.session_state.get(f"{keys.UNITS}_{name}")
    if picked is not None:
        st.session_state[keys.UNITS] = {**(st.session_state.get(keys.UNITS) or {}), name: picked}


UNIT_CHOICES: dict[str, tuple[str, dict[str, str]]] = {
    "bandwidth": (
        "units.bandwidth",
        {"native": "units.bandwidth.native", "GB/s": "units.bandwidth.gbyte", "Gb/s": "units.bandwidth.gbit"},
    ),
    "power": ("units.power", {"kW": "units.power.kw", "BTU/h": "units.power.btu"}),
    "money": ("units.money", {"myriad": "units.money.myriad", "million": "units.money.million"}),
}
"""Display unit -> (label key, option -> option label key)."""


def _option_label(labels: dict[str, str]) -> Callable[[str], str]:
    lang = state.lang()  # bound when drawn, as the sidebar's option labels are
    return lambda option: tr(labels[option], lang)


def units_controls(sb: DeltaGenerator) -> None:
    """Bandwidth in GB/s or Gb/s, power in kW or BTU/h and, in Chinese, money in 万/亿 or M."""
    current = units()
    shown = ["bandwidth", "power", *(["money"] if state.lang() == "zh" else [])]
    with sb.expander(t("units.title")):
        for name in shown:
            label_key, options = UNIT_CHOICES[name]
            key = f"{keys.UNITS}_{name}"
            st.session_state[key] = getattr(current, name)
            st.segmented_control(
                t(label_key),
                options=list(options),
                format_func=_option_label(options),
                key=key,
                required=True,
                on_change=_set_unit,
                args=(name,),
            )
