"""The scenario inputs every page shares: their defaults, ranges, URL form and scenario form.

Pure (no Streamlit): the sidebar renders these, the URL carries them, the engine receives them.
Ranges come from the engine's pydantic fields, so the widgets and the engine agree.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel

from planner import Facility, Scenario
from planner.design import SLUG_PATTERN
from planner.errors import field_bounds, shorten
from planner.fabric.collectives import IN_SWITCH_REDUCTIONS
from planner.files import parse_decimal, parse_whole
from planner.inputs.layout import LayoutParams
from planner.inputs.scenario import MAX_PRICE_USD

LANGS = ("en", "zh")
CURRENCIES = ("USD", "CNY")
WIDGET_MAX_GPUS = 65_536
"""Ceiling of the GPU-count widget: above every preset's three-tier limit we care about."""


def _default(model: type[BaseModel], field: str) -> Any:
    return model.model_fields[field].default


@dataclass(frozen=True)
class Input:
    """One shared input: its name (also the URL parameter), type, default and range."""

    name: str
    kind: str
    """``int``, ``float``, ``choice`` (fixed options) or ``id`` (a catalog slug)."""
    default: Any
    lo: float | None = None
    hi: float | None = None
    step: float | None = None
    options: tuple[str, ...] = ()
    optional: bool = False
    """Empty means "use the catalog's value"."""
    page: str | None = None
    """The page whose form draws the input (``layout``); ``None``: the sidebar."""

    def parse(self, text: str) -> Any:
        """The value of a URL parameter; :class:`ValueError` when it is not acceptable."""
        if self.optional and text == "":
            return self.default
        if (
            self.kind == "int"
        ):  # ASCII digits only, as on the command line ("１２８", " 12 ", "1_000" refused)
            value: Any = parse_whole(text, field=self.name)
        elif self.kind == "float":
            value = parse_decimal(text, field=self.name)  # no nan/inf: not decimal numbers
        elif self.kind == "choice":
            if text not in self.options:
                raise ValueError(f"{self.name}: {text!r} is not one of {', '.join(self.options)}")
            return text
        else:
            if not re.fullmatch(r"^[a-z0-9][a-z0-9_-]*$", text):
                raise ValueError(f"{self.name}: {text!r} is not a catalog id")
            return text
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            lo = "-inf" if self.lo is None else f"{self.lo:g}"
            hi = "inf" if self.hi is None else f"{self.hi:g}"
            raise ValueError(f"{self.name}: {text} is outside {lo} to {hi}")
        return value

    def format(self, value: Any) -> str:
        if value is None:
            return ""
        if self.kind == "float":
            return f"{value:g}"
        return str(value)


def _facility_input(name: str, field: str, *, step: float, optional: bool = False, lo: float = 0) -> Input:
    field_lo, field_hi = field_bounds(Facility.model_fields[field])
    return Input(
        name=name,
        kind="int" if isinstance(_default(Facility, field), int) and not optional else "float",
        default=_default(Facility, field),
        lo=max(lo, field_lo or 0),
        hi=field_hi,
        step=step,
        optional=optional,
    )


def _floor_input(name: str, field: str, *, step: float, optional: bool = False) -> Input:
    """A floor input (:class:`planner.inputs.layout.LayoutParams`), drawn on the Layout page."""
    info = LayoutParams.model_fields[field]
    lo, hi = field_bounds(info)
    return Input(
        name=name,
        kind="int" if optional else "float",
        default=info.default,
        lo=lo,
        hi=hi,
        step=step,
        optional=optional,
        page="layout",
    )


INPUTS: tuple[Input, ...] = (
    Input(name="lang", kind="choice", default="en", options=LANGS),
    Input(name="gpus", kind="int", default=_default(Scenario, "gpus"), lo=1, hi=WIDGET_MAX_GPUS, step=8),
    Input(name="design", kind="id", default=_default(Scenario, "design_id")),
    Input(name="gpu", kind="id", default="", optional=True),
    # "" = the design's default GPU (a select box option, so not None)
    Input(name="cooling", kind="id", default=_default(Facility, "cooling_id")),
    _facility_input("rack_kw", "rack_power_limit_kw", step=5.0),
    _facility_input("elec", "electricity_usd_per_kwh", step=0.01, optional=True, lo=0.001),
    _facility_input("years", "years", step=1),
    Input(name="currency", kind="choice", default=_default(Facility, "currency"), options=CURRENCIES),
    _facility_input("discount", "discount_rate", step=0.01),
    _facility_input("load", "load_factor", step=0.05),
    _facility_input("util", "utilization", step=0.05, lo=0.01),
    _facility_input("pue", "pue_override", step=0.01, optional=True),
    _facility_input("fx", "usd_to_cny", step=0.01, optional=True, lo=0.01),
    Input(
        name="reduction",
        kind="choice",
        default=_default(Scenario, "in_switch_reduction"),
        options=IN_SWITCH_REDUCTIONS,
    ),
    _floor_input("row_m", "row_length_m", step=0.6),
    _floor_input("max_rows", "max_rows", step=1, optional=True),
)
FLOOR_FIELDS = {"row_m": "row_length_m", "max_rows": "max_rows"}
"""Input -> field of ``Scenario.floor`` it sets (the floor's other fields come from a loaded scenario)."""
BY_NAME: dict[str, Input] = {i.name: i for i in INPUTS}
PRICES_PARAM = "prices"
"""URL parameter of unit-price overrides: ``id:usd,id:usd``."""

_SLUG = re.compile(SLUG_PATTERN)


def plain_number(value: float) -> str:
    """A bound or a typed number with every digit of a whole number (``:g`` would write
    ``1.04858e+06`` for 2**20) and at most six significant digits otherwise.

    >>> plain_number(1_048_576), plain_number(1e12), plain_number(0.001), plain_number(2.5)
    ('1,048,576', '1,000,000,000,000', '0.001', '2.5')
    >>> plain_number(1_234_567.5)
    '1,234,567.5'
    """
    if float(value).is_integer() and abs(value) < 1e18:
        return f"{int(value):,}"
    if abs(value) >= 1e5:  # ",.6g" turns to an exponent from 1e6 on: 1.23457e+06
        return f"{value:,.1f}"
    return f"{value:,.6g}"


def range_text(lo: float | None, hi: float | None) -> str:
    """The accepted range as a label shows it.

    >>> range_text(1, 65536), range_text(0.001, 2), range_text(0.5, None), range_text(None, None)
    ('1–65,536', '0.001–2', '≥ 0.5', '')
    >>> range_text(128, 2**20)
    '128–1,048,576'
    """
    if lo is not None and hi is not None:
        return f"{plain_number(lo)}–{plain_number(hi)}"
    if lo is not None:
        return f"≥ {plain_number(lo)}"
    return f"≤ {plain_number(hi)}" if hi is not None else ""


class Ranged(Protocol):
    """A numeric input's kind and range: a sidebar :class:`Input` or a page form's field
    (:class:`ui.forms.FormField`)."""

    @property
    def kind(self) -> str: ...
    @property
    def lo(self) -> float | None: ...
    @property
    def hi(self) -> float | None: ...


def out_of_range(spec: Ranged, value: Any) -> bool:
    """True for a typed number outside the input's range (an empty optional input is fine).

    >>> out_of_range(BY_NAME["rack_kw"], 500.0), out_of_range(BY_NAME["pue"], None)
    (True, False)
    """
    if value is None or spec.kind not in ("int", "float"):
        return False
    return (spec.lo is not None and value < spec.lo) or (spec.hi is not None and value > spec.hi)


def defaults() -> dict[str, Any]:
    """Every input at its default value."""
    return {i.name: i.default for i in INPUTS}


def parse_query(params: Mapping[str, str]) -> tuple[dict[str, Any], dict[str, float], list[str]]:
    """Read inputs and price overrides from URL parameters.

    Returns the recognised values, the price overrides [USD] and the ignored parameters as
    ``name=value`` (language-neutral, so any UI language can list them).

    >>> values, prices, problems = parse_query({"gpus": "256", "years": "99", "prices": "br100:9000,x:-1"})
    >>> values, prices, problems
    ({'gpus': 256}, {'br100': 9000.0}, ['years=99', 'prices=x:-1'])
    """
    values: dict[str, Any] = {}
    problems: list[str] = []
    for name, text in params.items():
        if name == PRICES_PARAM:
            continue
        spec = BY_NAME.get(name)
        if spec is None:
            continue
        try:
            values[name] = spec.parse(str(text))
        except ValueError:
            problems.append(f"{name}={shorten(str(text))}")
    prices: dict[str, float] = {}
    for item in filter(None, str(params.get(PRICES_PARAM, "")).split(",")):
        record_id, _, text = item.partition(":")
        try:
            price = parse_decimal(text, field=PRICES_PARAM)
            if not _SLUG.fullmatch(record_id) or not 0 <= price < MAX_PRICE_USD:
                raise ValueError
        except ValueError:
            problems.append(f"{PRICES_PARAM}={shorten(item)}")
            continue
        prices[record_id] = price
    return values, prices, problems


def to_query(values: Mapping[str, Any], prices: Mapping[str, float]) -> dict[str, str]:
    """URL parameters of the inputs (empty optional inputs left out) and the price overrides.

    >>> to_query({"gpus": 256, "gpu": None, "rack_kw": 40.0}, {"br100": 9000.0})
    {'gpus': '256', 'rack_kw': '40', 'prices': 'br100:9000'}
    """
    query = {name: BY_NAME[name].format(v) for name, v in values.items() if v is not None and v != ""}
    if prices:
        query[PRICES_PARAM] = ",".join(f"{k}:{v:g}" for k, v in sorted(prices.items()))
    return query


def scenario_data(values: Mapping[str, Any], prices: Mapping[str, float]) -> dict[str, Any]:
    """The mapping :func:`planner.scenario_from_data` validates."""
    return {
        "gpus": int(values["gpus"]),
        "design_id": values["design"],
        "gpu_id": values["gpu"] or None,
        "in_switch_reduction": values.get("reduction", BY_NAME["reduction"].default),
        "facility": {
            "cooling_id": values["cooling"],
            "rack_power_limit_kw": float(values["rack_kw"]),
            "electricity_usd_per_kwh": values["elec"],
            "years": int(values["years"]),
            "currency": values["currency"],
            "discount_rate": float(values["discount"]),
            "load_factor": float(values["load"]),
            "utilization": float(values["util"]),
            "pue_override": values["pue"],
            "usd_to_cny": values["fx"],
        },
        "price_overrides_usd": dict(prices),
        "floor": floor_data(values),
    }


def floor_data(values: Mapping[str, Any]) -> dict[str, Any] | None:
    """``Scenario.floor`` of the floor inputs: ``None`` (the default floor) while they hold their
    defaults, so a scenario made without the Layout page keeps no floor.

    >>> floor_data({"row_m": 12.0, "max_rows": None}), floor_data({"row_m": 6.0, "max_rows": None})
    (None, {'row_length_m': 6.0, 'max_rows': None})
    """
    data = {field: values.get(name, BY_NAME[name].default) for name, field in FLOOR_FIELDS.items()}
    if all(data[field] == BY_NAME[name].default for name, field in FLOOR_FIELDS.items()):
        return None
    return {"row_length_m": float(data["row_length_m"]), "max_rows": data["max_rows"]}


FIELD_OF_INPUT: dict[str, tuple[str, ...]] = {
    "gpus": ("gpus",),
    "design": ("design_id", "fabric", "designs"),
    "gpu": ("gpu_id", "server_id"),
    "cooling": ("facility.cooling_id",),
    "rack_kw": ("facility.rack_power_limit_kw",),
    "elec": ("facility.electricity_usd_per_kwh", "facility.energy_price_id"),
    "years": ("facility.years",),
    "currency": ("facility.currency",),
    "discount": ("facility.discount_rate",),
    "load": ("facility.load_factor",),
    "util": ("facility.utilization",),
    "pue": ("facility.pue_override",),
    "fx": ("facility.usd_to_cny",),
    "reduction": ("in_switch_reduction",),
    # a floor field as the scenario names it, and as the layout does when the floor holds no
    # layout of the plan (planner.handoff.layout: layout.row_length_m, layout.max_rows)
    **{name: (f"floor.{field}", f"layout.{field}") for name, field in FLOOR_FIELDS.items()},
}
"""Engine field names (as they open an error message) that each input sets."""


def input_of_error(message: str) -> str | None:
    """The input an engine error message is about, from the field it names first.

    >>> input_of_error("scenario: facility.rack_power_limit_kw: one server needs 10.2 kW")
    'rack_kw'
    >>> input_of_error("gpus: 99999 GPUs exceed the three-tier limit"), input_of_error("oops")
    ('gpus', None)
    """
    text = message.removeprefix("scenario: ")
    field = text.split(":", 1)[0].strip()
    for name, fields in FIELD_OF_INPUT.items():
        if any(field == f or field.startswith(f + ".") for f in fields):
            return name
    return None
