"""Page-level input forms (optimizer limits, training job, reliability settings).

The fields of a form are generated from the engine model's declarations (:mod:`planner.inputs`:
each field's :class:`~planner.inputs.Input` names its label, help, group and widget details) by
:func:`model_fields` and :func:`model_groups`, so that the form, the CLI and the engine accept the
same inputs and ranges.

Each form keeps its canonical values in one session-state dict (so they survive page switches,
which drop the widgets' own state); a widget's state is set from that dict before it draws and
copied back on change, as the sidebar does with :mod:`ui.state`. Under every input sits an
empty slot for the engine's message about that field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import streamlit as st
from pydantic import BaseModel
from streamlit.delta_generator import DeltaGenerator

from planner.errors import field_bounds
from planner.i18n import tr
from planner.inputs import Declared, declared
from planner.report.performance_tables import escape_markdown
from ui import engine, keys, state
from ui.inputs import plain_number, range_text
from ui.state import t

Kind = Literal["float", "int", "choice", "radio", "bool", "text", "textarea"]
Slots = dict[str, DeltaGenerator]


@dataclass(frozen=True)
class FormField:
    """One input of a page form: engine field name, widget kind, default and range."""

    name: str
    label_key: str
    help_key: str
    kind: Kind
    default: Any = None
    lo: float | None = None
    hi: float | None = None
    step: float | None = None
    number_format: str | None = None
    optional: bool = False
    """Empty means "let the engine decide" (the placeholder says what)."""
    placeholder_key: str | None = None
    options: Mapping[str, str] = field(default_factory=dict)
    """Choice value -> i18n key of its label."""
    catalog_rule: str | None = None
    """Empty means the catalog's ``sizing_rules`` record of this id; the placeholder shows its value."""


def ranged(model: type[BaseModel], name: str, **spec: Any) -> FormField:
    """A field whose range is the engine model's (so the widget and the engine agree)."""
    lo, hi = field_bounds(model.model_fields[name])
    return FormField(name=name, lo=lo, hi=hi, **spec)


def _form_field(item: Declared) -> FormField:
    """The form field an engine model's declaration describes (its label key must be given)."""
    spec = item.spec
    kind = item.kind if item.kind != "choice" else spec.widget or "choice"
    if kind == "text" and spec.widget:
        kind = spec.widget
    default = spec.form_default if spec.form_default is not None else item.default
    return FormField(
        name=item.name,
        label_key=str(spec.label),
        help_key=spec.help or str(spec.label).replace(".field.", ".help.", 1),
        kind=kind,  # type: ignore[arg-type]
        default=default,
        lo=item.lo,
        hi=item.hi,
        step=spec.step,
        number_format=spec.number_format,
        optional=item.kind in ("int", "float") and not item.required and item.default is None,
        placeholder_key=spec.placeholder,
        options=dict(spec.choices or {}),
        catalog_rule=spec.catalog_rule,
    )


def model_fields(
    model: type[BaseModel], *, group: str | None = None, names: Sequence[str] | None = None
) -> tuple[FormField, ...]:
    """The form fields of ``model``'s declared inputs that have a label: those of ``group``, or
    those named in ``names`` (in that order), else all, in declaration order."""
    found = {
        d.name: _form_field(d)
        for d in declared(model)
        if d.spec.label and (group is None or d.spec.group == group)
    }
    return tuple(found[n] for n in names) if names is not None else tuple(found.values())


def model_groups(model: type[BaseModel]) -> tuple[tuple[str, tuple[FormField, ...]], ...]:
    """``(group key, fields)`` of every group ``model``'s inputs declare, in declaration order."""
    groups = dict.fromkeys(str(d.spec.group) for d in declared(model) if d.spec.label and d.spec.group)
    return tuple((key, model_fields(model, group=key)) for key in groups)


def _placeholder(spec: FormField) -> str | None:
    """What an empty field means: the catalog's value, or the text its placeholder key names."""
    if spec.catalog_rule:
        rule = engine.catalog().sizing_rules.get(spec.catalog_rule)
        return None if rule is None else t("form.placeholder.catalog", value=plain_number(rule.value))
    return t(spec.placeholder_key) if spec.placeholder_key else None


def values(form: str, fields: Sequence[FormField], seed: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The form's canonical values, created from the defaults (and ``seed``) on first use."""
    ss = st.session_state
    if form not in ss:
        start = {f.name: f.default for f in fields}
        start.update({k: v for k, v in (seed or {}).items() if k in start})
        ss[form] = start
    current: dict[str, Any] = ss[form]
    for f in fields:
        current.setdefault(f.name, f.default)
    return current


def _accept(form: str, spec: FormField, value: Any) -> None:
    """Take a widget's value, or keep the last good one and remember what was typed (the form
    says why under the field, as the sidebar does)."""
    if state.in_range(keys.FORM_RANGE_ERRORS, (form, spec.name), spec, value):
        st.session_state[form][spec.name] = value


def _sync(form: str, spec: FormField) -> None:
    _accept(form, spec, st.session_state[keys.field(form, spec.name)])


def commit(form: str, fields: Sequence[FormField]) -> None:
    """Copy every widget of a submitted ``st.form`` into the canonical values."""
    for f in fields:
        key = keys.field(form, f.name)
        if key in st.session_state:
            _accept(form, f, st.session_state[key])


def range_error(form: str, spec: FormField) -> str | None:
    """The message for a number typed out of range into this field: the field, the typed value,
    the accepted range and the value still in use; ``None`` when there is none."""
    typed = dict(st.session_state.get(keys.FORM_RANGE_ERRORS) or {}).get((form, spec.name))
    if typed is None:
        return None
    kept = st.session_state[form].get(spec.name)
    return state.range_error_text(label=t(spec.label_key), spec=spec, typed=typed, kept=kept)


def draw(form: str, spec: FormField, where: Any, *, live: bool = True) -> DeltaGenerator:
    """Draw one input (``live``: rerun on change; else part of an ``st.form``); return its slot."""
    key = keys.field(form, spec.name)
    st.session_state[key] = st.session_state[form][spec.name]
    lang = state.lang()
    common: dict[str, Any] = {"key": key, "help": t(spec.help_key)}
    if live:
        common.update(on_change=_sync, args=(form, spec))
    if spec.kind == "bool":
        where.toggle(t(spec.label_key), **common)
    elif spec.kind in ("text", "textarea"):
        draw_text = where.text_area if spec.kind == "textarea" else where.text_input
        draw_text(
            t(spec.label_key),
            max_chars=int(spec.hi) if spec.hi else None,
            placeholder=t(spec.placeholder_key) if spec.placeholder_key else None,
            **common,
        )
    elif spec.kind == "choice":
        where.selectbox(
            t(spec.label_key),
            options=list(spec.options),
            format_func=lambda v: tr(spec.options[v], lang),
            **common,
        )
    elif spec.kind == "radio":
        where.radio(
            t(spec.label_key),
            options=list(spec.options),
            format_func=lambda v: tr(spec.options[v], lang),
            **common,
        )
    else:
        integer = spec.kind == "int"

        def number(x: float | None) -> int | float | None:
            return None if x is None else int(x) if integer else float(x)

        optional: dict[str, Any] = {"value": None} if spec.optional else {}
        # No min/max on the widget: the browser would only draw a red border around a number out
        # of range; here it reaches _accept, which keeps the last good value and says why.
        where.number_input(
            _ranged(spec),
            **optional,
            step=number(spec.step or 1),
            format=spec.number_format,
            placeholder=_placeholder(spec),
            **common,
        )
    slot: DeltaGenerator = where.empty()
    problem = range_error(form, spec)
    if problem is not None:
        slot.error(problem, icon=":material/warning:")
    return slot


def _ranged(spec: FormField) -> str:
    """A number field's label with its accepted range (``Rack limit [kW] (5–300)``)."""
    shown = range_text(spec.lo, spec.hi)
    return t("input.ranged", label=t(spec.label_key), range=shown) if shown else t(spec.label_key)


def draw_group(form: str, fields: Sequence[FormField], where: Any, *, live: bool = True) -> Slots:
    return {f.name: draw(form, f, where, live=live) for f in fields}


def draw_groups(
    form: str, groups: Sequence[tuple[str, Sequence[FormField]]], title: str
) -> tuple[Slots, DeltaGenerator]:
    """An open expander titled ``title`` with one column per ``(group key, fields)``; returns the
    fields' message slots and a slot below for a message about no one field."""
    slots: Slots = {}
    with st.expander(title, expanded=True):
        for column, (key, fields) in zip(st.columns(len(groups)), groups, strict=True):
            column.markdown(f"**{t(key)}**")
            slots.update(draw_group(form, fields, column))
        general: DeltaGenerator = st.empty()
    return slots, general


_SOURCE = re.compile(r"^(workload|reliability|options|scenario): ")


def field_of_error(message: str, names: Sequence[str]) -> str | None:
    """The form field an engine message is about: the field it opens with, else the first
    field it names (``"(top level): top_k (4) must not exceed experts"`` -> ``top_k``).

    >>> field_of_error("workload: tp: 3 does not divide the GPUs", ["tp", "pp"])
    'tp'
    >>> field_of_error("workload: (top level): Value error, ep > 1 needs experts > 1", ["experts", "ep"])
    'ep'
    >>> field_of_error("memory: no layout fits", ["tp"]) is None
    True
    """
    text = _SOURCE.sub("", message)
    head = text.split(":", 1)[0].strip()
    if head in names:
        return head
    found = [(m.start(), n) for n in names for m in [re.search(rf"\b{re.escape(n)}\b", text)] if m]
    return min(found)[1] if found else None


def show_error(slots: Slots, fields: Sequence[FormField], message: str, fallback: Any) -> None:
    """The engine's message under the input it names (or in ``fallback`` when it names none)."""
    names = [f.name for f in fields]
    name = field_of_error(message, names)
    if name is not None and name in slots:
        spec = next(f for f in fields if f.name == name)
        slots[name].error(
            t("form.error_field", field=t(spec.label_key), message=escape_markdown(state.tx(message))),
            icon=":material/warning:",
        )
    else:
        fallback.error(t("form.error", message=escape_markdown(state.tx(message))), icon=":material/warning:")
