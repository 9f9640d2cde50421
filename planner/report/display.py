"""The reader's display units: bandwidth in GB/s or Gb/s, power in kW or BTU/h, large money
figures grouped in millions or in 万/亿 (pure: no Streamlit).

The engine computes in one unit per quantity (``*_gbyte_per_s``, ``*_kw``, USD); these helpers
only change how a figure is written, never what is computed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from planner.report import fmt
from planner.units import BITS_PER_BYTE, BTU_PER_H_PER_KW

BandwidthUnit = Literal["native", "GB/s", "Gb/s"]
"""``native``: line rates in Gb/s and bus bandwidths in GB/s, as vendors and NCCL write them."""
PowerUnit = Literal["kW", "BTU/h"]
MoneyGrouping = Literal["myriad", "million"]

BANDWIDTH_UNITS: tuple[BandwidthUnit, ...] = ("native", "GB/s", "Gb/s")
POWER_UNITS: tuple[PowerUnit, ...] = ("kW", "BTU/h")
MONEY_GROUPINGS: tuple[MoneyGrouping, ...] = ("myriad", "million")


@dataclass(frozen=True)
class DisplayUnits:
    """How figures are written for one reader (defaults: what the engine computes in)."""

    bandwidth: BandwidthUnit = "native"
    power: PowerUnit = "kW"
    money: MoneyGrouping = "myriad"
    """Only Chinese has a choice: 万/亿 (``myriad``) or millions (``million``, as in English)."""


def bandwidth(value_gbyte_per_s: float, unit: BandwidthUnit, digits: int = 1) -> str:
    """A bandwidth given in GB/s, written in ``unit``.

    Equation: ``Gb/s = 8 · GB/s`` (8 bits per byte).

    Parameters
    ----------
    value_gbyte_per_s : float
        Bandwidth [GB/s].
    unit : BandwidthUnit
        ``native`` or ``GB/s`` (kept), ``Gb/s`` (times 8).
    digits : int
        Decimals in GB/s [count].

    Returns
    -------
    str
        Number with its unit.

    >>> bandwidth(205.4, "native"), bandwidth(205.4, "GB/s"), bandwidth(205.4, "Gb/s")
    ('205.4 GB/s', '205.4 GB/s', '1,643 Gb/s')
    """
    if unit == "Gb/s":
        return f"{fmt.number(value_gbyte_per_s * BITS_PER_BYTE)} Gb/s"
    return f"{fmt.number(value_gbyte_per_s, digits)} GB/s"


def link_rate(value_gbit_per_s: float, unit: BandwidthUnit) -> str:
    """A line rate given in Gb/s, written in ``unit`` (``GB/s = Gb/s / 8``).

    Parameters
    ----------
    value_gbit_per_s : float
        Line rate [Gb/s].
    unit : BandwidthUnit
        ``native`` or ``Gb/s`` (kept), ``GB/s`` (divided by 8).

    Returns
    -------
    str
        Number with its unit.

    >>> link_rate(400, "native"), link_rate(400, "Gb/s"), link_rate(400, "GB/s")
    ('400 Gb/s', '400 Gb/s', '50.0 GB/s')
    """
    if unit == "GB/s":
        return f"{fmt.number(value_gbit_per_s / BITS_PER_BYTE, 1)} GB/s"
    return f"{fmt.number(value_gbit_per_s)} Gb/s"


def power(value_kw: float, unit: PowerUnit, lang: str = "en") -> str:
    """A power given in kW, written in ``unit``; BTU/h (a heat load, for cooling plant sized in
    it) is grouped like money (``4.14 M BTU/h`` / ``414万 BTU/h``) so it fits a KPI card.

    Equation: ``BTU/h = 3,412.142 · kW`` (see :data:`planner.units.BTU_PER_H_PER_KW`).

    Parameters
    ----------
    value_kw : float
        Power [kW].
    unit : PowerUnit
        ``kW`` or ``BTU/h``.
    lang : str
        Language of the BTU/h grouping (``en`` or ``zh``).

    Returns
    -------
    str
        Number with its unit.

    >>> power(1213.5, "kW"), power(1213.5, "BTU/h"), power(1213.5, "BTU/h", "zh")
    ('1,213.5 kW', '4.14 M BTU/h', '414万 BTU/h')
    """
    if unit == "BTU/h":
        return f"{fmt.compact(value_kw * BTU_PER_H_PER_KW, lang)} BTU/h"
    return f"{fmt.number(value_kw, 1)} kW"


def money(amount: float, currency: str, lang: str, grouping: MoneyGrouping = "myriad") -> str:
    """An amount already in ``currency``; Chinese readers may choose millions over 万/亿.

    Parameters
    ----------
    amount : float
        Amount [currency].
    currency : str
        Currency code.
    lang : str
        Language (``en`` or ``zh``).
    grouping : MoneyGrouping
        ``myriad`` (万/亿 in Chinese) or ``million``.

    Returns
    -------
    str
        Amount with its currency.

    >>> money(47_151_667, "USD", "zh"), money(47_151_667, "USD", "zh", "million")
    ('4,715万美元', '47.2 M 美元')
    >>> money(47_151_667, "USD", "en", "million"), money(950, "CNY", "zh", "million")
    ('$47.2 M', '950.00 元')
    """
    if lang == "zh" and grouping == "million" and abs(amount) >= 1e6:
        return f"{fmt.compact(amount, 'en')} {fmt.money(0, currency, 'zh').split(' ', 1)[1]}"
    return fmt.money(amount, currency, lang)


def scale(unit: str, units: DisplayUnits) -> tuple[float, str]:
    """Factor and symbol that show a quantity the engine gives in ``unit`` in the reader's units
    (tables and charts multiply by the factor; anything else is shown as computed).

    Equations: ``Gb/s = 8 · GB/s``; ``BTU/h = 3,412.142 · kW`` (:data:`planner.units.BTU_PER_H_PER_KW`).

    Parameters
    ----------
    unit : str
        The engine's unit of the quantity.
    units : DisplayUnits
        The reader's units.

    Returns
    -------
    tuple[float, str]
        Factor [reader unit per engine unit] and the reader's unit symbol.

    >>> scale("GB/s", DisplayUnits(bandwidth="Gb/s")), scale("Gb/s", DisplayUnits(bandwidth="GB/s"))
    ((8, 'Gb/s'), (0.125, 'GB/s'))
    >>> scale("kW", DisplayUnits(power="BTU/h")), scale("GB/s", DisplayUnits()), scale("ns", DisplayUnits())
    ((3412.142, 'BTU/h'), (1.0, 'GB/s'), (1.0, 'ns'))
    """
    if unit == "GB/s" and units.bandwidth == "Gb/s":
        return BITS_PER_BYTE, "Gb/s"
    if unit == "Gb/s" and units.bandwidth == "GB/s":
        return 1 / BITS_PER_BYTE, "GB/s"
    if unit == "kW" and units.power == "BTU/h":
        return BTU_PER_H_PER_KW, "BTU/h"
    return 1.0, unit


def retitle(title: str, unit: str, units: DisplayUnits) -> str:
    """An axis or column title whose unit is in brackets, with the reader's unit in them.

    Parameters
    ----------
    title : str
        Title with ``[unit]`` in it.
    unit : str
        The engine's unit in the title.
    units : DisplayUnits
        The reader's units.

    Returns
    -------
    str
        The title with the reader's unit.

    >>> retitle("busbw [GB/s]", "GB/s", DisplayUnits(bandwidth="Gb/s"))
    'busbw [Gb/s]'
    >>> retitle("IT power [kW]", "kW", DisplayUnits(power="BTU/h")), retitle("x [kW]", "kW", DisplayUnits())
    ('IT power [BTU/h]', 'x [kW]')
    """
    return title.replace(f"[{unit}]", f"[{scale(unit, units)[1]}]")


def money_grouping_lang(lang: str, units: DisplayUnits) -> str:
    """The language whose grouping writes large money figures: Chinese readers who chose
    millions get ``47.2 M``, everyone else their own language's (``4,715万`` in Chinese).

    Parameters
    ----------
    lang : str
        The reader's language (``en`` or ``zh``).
    units : DisplayUnits
        The reader's units (its money grouping).

    Returns
    -------
    str
        Language code whose grouping to use.

    >>> money_grouping_lang("zh", DisplayUnits()), money_grouping_lang("zh", DisplayUnits(money="million"))
    ('zh', 'en')
    """
    return "en" if lang == "zh" and units.money == "million" else lang
