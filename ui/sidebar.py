"""The shared sidebar: language, presets and the scenario inputs, each with room for its error."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from planner import Catalog, Facility
from planner.i18n import LANGUAGE_NAMES, STRINGS, tr
from planner.report.performance_tables import escape_markdown
from ui import engine, inputs, keys, state, workshop
from ui.presets import PRESETS
from ui.state import t

Slots = dict[str, DeltaGenerator]
"""An empty placeholder under each input, filled with the engine's error for that input."""


def _keep_known(name: str, options: list[str]) -> None:
    """A value from an old link or a removed override may not be an option any more."""
    if state.value(name) not in options:
        problem = f"{name}={state.value(name)}"
        known = list(st.session_state.get(keys.URL_PROBLEMS, []))
        st.session_state[keys.URL_PROBLEMS] = known if problem in known else [*known, problem]
        state.set_value(
            name, inputs.BY_NAME[name].default if inputs.BY_NAME[name].default in options else options[0]
        )


def _on_change(name: str) -> dict[str, Any]:
    return {"on_change": state.sync_from_widget, "args": (name,)}


def render() -> Slots:
    """Draw the sidebar; return the error slot of each input.

    Option labels bind the language when drawn (``tr(..., lang)``), not when called, so a
    widget's labels never mix languages.
    """
    lang = state.lang()
    catalog = engine.catalog()
    sb = st.sidebar
    _language_and_presets(sb)
    sb.markdown(f"**{t('sidebar.scenario')}**")
    calibrated = state.calibration()
    if calibrated is not None:
        sb.caption(t("sidebar.calibrated", label=escape_markdown(calibrated.label)))
    slots: Slots = {"": sb.empty()}
    _cluster_fields(sb, slots, catalog, lang)
    shown_defaults = _facility_fields(sb, slots, catalog, lang)
    with sb.expander(t("sidebar.advanced")):
        for name, number_format in (
            ("discount", "%.2f"),
            ("load", "%.2f"),
            ("util", "%.2f"),
            ("pue", "%.2f"),
            ("fx", "%.4f"),
        ):
            draw_key = state.prepare_widget(name)
            number_field(st, name, draw_key, number_format, shown_defaults.get(name))
            slots[name] = st.empty()
        _in_switch_reduction(lang)
    workshop.units_controls(sb)
    sb.caption(t("sidebar.share"))
    show_range_errors(slots)
    return slots


def _in_switch_reduction(lang: str) -> None:
    """Where an all-reduce may reduce in the switches (NVLS, SHARP): a small toggle."""
    st.segmented_control(
        t("input.reduction"),
        options=list(inputs.BY_NAME["reduction"].options),
        format_func=lambda mode: tr(f"reduction.{mode}", lang),
        key=state.prepare_widget("reduction"),
        required=True,
        help=t("help.input.reduction"),
        **_on_change("reduction"),
    )


def _language_and_presets(sb: DeltaGenerator) -> None:
    """The language switch, then one button per preset (the active one highlighted)."""
    sb.segmented_control(
        t("sidebar.language"),
        options=list(inputs.LANGS),
        format_func=LANGUAGE_NAMES.__getitem__,
        key=state.prepare_widget("lang"),
        required=True,
        **_on_change("lang"),
    )
    sb.markdown(f"**{t('sidebar.presets')}**")
    active = state.active_preset()
    for preset in PRESETS:
        sb.button(
            t(preset.label_key),
            key=keys.preset_button(preset.id),
            on_click=state.apply_preset,
            args=(preset.id,),
            type="primary" if preset.id == active else "secondary",
            width="stretch",
        )


def _field(sb: DeltaGenerator, slots: Slots, name: str, draw: Callable[[str], Any]) -> None:
    """Draw one input under its widget key, and an empty error slot right below it."""
    draw(state.prepare_widget(name))
    slots[name] = sb.empty()


def _cluster_fields(sb: DeltaGenerator, slots: Slots, catalog: Catalog, lang: str) -> None:
    """GPU count, network design and GPU model."""
    spec = inputs.BY_NAME
    _field(
        sb,
        slots,
        "gpus",
        lambda key: sb.number_input(
            ranged_label("gpus"),
            step=int(spec["gpus"].step or 8),
            key=key,
            help=t("help.input.gpus"),
            **_on_change("gpus"),
        ),
    )
    designs = list(engine.design_ids())
    _keep_known("design", designs)
    names = {d.id: (d.name_zh if lang == "zh" else d.name) for d in catalog.designs.values()}
    _field(
        sb,
        slots,
        "design",
        lambda key: sb.selectbox(
            t("input.design"),
            options=designs,
            format_func=lambda d: names.get(d, d),
            key=key,
            help=t("help.input.design"),
            **_on_change("design"),
        ),
    )
    gpus = ["", *sorted(catalog.gpus)]
    _keep_known("gpu", gpus)
    design = catalog.designs.get(state.value("design"))
    default_gpu = catalog.gpus.get(design.default_gpu_id) if design else None
    _field(
        sb,
        slots,
        "gpu",
        lambda key: sb.selectbox(
            t("input.gpu"),
            options=gpus,
            format_func=lambda g: (
                catalog.gpus[g].name
                if g
                else tr("input.gpu_default", lang, name=default_gpu.name if default_gpu else "—")
            ),
            key=key,
            help=t("help.input.gpu"),
            **_on_change("gpu"),
        ),
    )


def _facility_fields(sb: DeltaGenerator, slots: Slots, catalog: Catalog, lang: str) -> dict[str, str]:
    """Cooling, rack power, electricity price, TCO years and currency; returns what an empty
    optional input falls back to (it depends on the cooling just chosen)."""
    spec = inputs.BY_NAME
    cooling = sorted(catalog.cooling)
    _keep_known("cooling", cooling)
    _field(
        sb,
        slots,
        "cooling",
        lambda key: sb.selectbox(
            t("input.cooling"),
            options=cooling,
            format_func=lambda c: (
                tr(f"cooling.{c}", lang) if f"cooling.{c}" in STRINGS else catalog.cooling[c].name
            ),
            key=key,
            help=t("help.input.cooling"),
            **_on_change("cooling"),
        ),
    )
    _field(sb, slots, "rack_kw", lambda key: number_field(sb, "rack_kw", key, "%.0f"))
    shown_defaults = _catalog_defaults(catalog)
    _field(sb, slots, "elec", lambda key: number_field(sb, "elec", key, "%.3f", shown_defaults.get("elec")))
    _field(
        sb,
        slots,
        "years",
        lambda key: sb.slider(
            ranged_label("years"),
            min_value=int(spec["years"].lo or 1),
            max_value=int(spec["years"].hi or 15),
            key=key,
            help=t("help.input.years"),
            **_on_change("years"),
        ),
    )
    _field(
        sb,
        slots,
        "currency",
        lambda key: sb.segmented_control(
            t("input.currency"),
            options=list(inputs.CURRENCIES),
            format_func=lambda c: tr(f"currency.{c}", lang),
            key=key,
            required=True,
            help=t("help.input.currency"),
            **_on_change("currency"),
        ),
    )
    return shown_defaults


def _catalog_defaults(catalog: Catalog) -> dict[str, str]:
    """What an empty optional input means: the catalog's value, shown as the placeholder."""
    shown: dict[str, str] = {}
    price = catalog.energy_prices.get(str(Facility.model_fields["energy_price_id"].default))
    if price is not None:
        shown["elec"] = f"{price.usd_per_kwh:.3f}"
    cooling = catalog.cooling.get(str(state.value("cooling")))
    if cooling is not None:
        shown["pue"] = f"{cooling.pue_default:.2f}"
    rate = catalog.exchange_rates.get("cny")
    if rate is not None:
        shown["fx"] = f"{rate.per_usd:.4f}"
    return shown


def number_field(
    where: Any,
    name: str,
    key: str,
    number_format: str,
    default: str | None = None,
    *,
    empty: str | None = None,
) -> Any:
    """A number input; an optional one shows the catalog value it falls back to when empty (or
    ``empty``, what an empty field means when that is no catalog value)."""
    spec = inputs.BY_NAME[name]
    # value=None makes an optional field clearable (its state is set before it draws, so the
    # None default does not override it); a required field keeps Streamlit's "min" default.
    optional: dict[str, Any] = {"value": None} if spec.optional else {}
    # No min/max on the widget: the browser would only draw a red border around a number out of
    # range; here it reaches state.sync_from_widget, which keeps the last good value and the
    # sidebar says why (show_range_errors).
    return where.number_input(
        ranged_label(name),
        **optional,
        step=float(spec.step or 1),
        format=number_format,
        key=key,
        help=t(f"help.input.{name}"),
        placeholder=(empty or t("input.empty_means", value=default or "—")) if spec.optional else None,
        **_on_change(name),
    )


def ranged_label(name: str) -> str:
    """An input's label with its accepted range: ``Rack power limit [kW] (5–300)``."""
    spec = inputs.BY_NAME[name]
    return t("input.ranged", label=t(f"input.{name}"), range=inputs.range_text(spec.lo, spec.hi))


def show_range_errors(slots: Slots) -> None:
    """Under each input a number out of range was typed into: the field, its range, and the value
    still in use."""
    for name, typed in dict(st.session_state.get(keys.RANGE_ERRORS) or {}).items():
        if inputs.BY_NAME[name].page is None:  # a page's input says it under its own field
            slots.get(name, slots[""]).error(range_error_text(name, typed), icon=":material/warning:")


def range_error_text(name: str, typed: Any) -> str:
    """The field a number out of range was typed into, its range, and the value still in use."""
    return state.range_error_text(
        label=t(f"input.{name}"), spec=inputs.BY_NAME[name], typed=typed, kept=state.value(name)
    )


def show_error(slots: Slots, current: engine.Current) -> None:
    """Put the engine's message under the input it names (or at the top of the inputs)."""
    if current.error is None:
        return
    slot = slots.get(current.input_name or "", slots[""])
    slot.error(t("error.input", message=escape_markdown(state.tx(current.error))), icon=":material/warning:")
