"""Bill of materials lines, CAPEX, OPEX, TCO and cost per GPU-hour.

Notes
-----
- CAPEX = sum of BOM lines (quantity x unit price) + installation and spares as fractions of
  hardware;
- OPEX per year = energy (facility average kW x 8760 h x price) + maintenance (fraction of
  hardware per year) + space (racks x price per rack-year);
- TCO = CAPEX + OPEX x sum_{t=1..N} (1+r)^-t;
- cost per GPU-hour = (CAPEX x CRF(r, N) + OPEX) / (GPUs x 8760 h x utilisation), where CRF is
  the capital recovery factor.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from planner.units import HOURS_PER_YEAR, annuity_factor, present_value_factor

BOM_CATEGORIES = (
    "gpus",
    "servers",
    "nics",
    "fabric_switches",
    "optics",
    "cables",
    "storage",
    "management",
    "racks_power",
    "cooling",
    "services",
)


@dataclass(frozen=True)
class BomLine:
    """One line of the bill of materials."""

    id: str
    category: str
    description: str
    quantity: int
    unit_cost_usd: float
    source: str
    link_classes: tuple[str, ...] = ()
    """Link classes a cable or optics line counts (``node_leaf``, ``storage_access`` ...; empty on
    every other line): what the hand-off's cabling plan is checked against."""
    quantity_unit: str = ""
    """Unit of ``quantity`` when it is no count of items: ``kW`` for cooling bought per kW of IT
    load (a reader saw "cooling 1,226" and asked: 1,226 what?)."""
    length_m: float | None = None
    """Length a cable line's cables are ordered at [m] (one line per length the layout orders,
    :mod:`planner.handoff.runs`); ``None`` on every other line."""

    @property
    def total_usd(self) -> float:
        return self.quantity * self.unit_cost_usd


@dataclass(frozen=True)
class Cost:
    by_category_usd: Mapping[str, float]
    hardware_usd: float
    capex_usd: float
    opex_by_item_usd_per_year: Mapping[str, float]
    opex_usd_per_year: float
    tco_usd: float
    years: int
    discount_rate: float
    usd_per_gpu_hour: float
    usd_per_gpu: float
    usd_to_cny: float
    currency: str
    electricity_usd_per_kwh: float
    """The electricity price the OPEX used [USD/kWh] (scenario value or catalog default)."""

    def in_currency(self, amount_usd: float) -> float:
        """Convert a USD amount to the report currency."""
        return amount_usd * self.usd_to_cny if self.currency == "CNY" else amount_usd


def by_category(lines: Sequence[BomLine]) -> dict[str, float]:
    """Sum BOM lines per category, every category present.

    Parameters
    ----------
    lines : Sequence[BomLine]
        The bill of materials (each line's ``total_usd`` [USD] and ``category``).

    Returns
    -------
    dict[str, float]
        Total per category [USD], in :data:`BOM_CATEGORIES` order (0.0 for an empty category).
    """
    totals = dict.fromkeys(BOM_CATEGORIES, 0.0)
    for line in lines:
        totals[line.category] = totals.get(line.category, 0.0) + line.total_usd
    return totals


def cost_summary(
    *,
    lines: Sequence[BomLine],
    gpus: int,
    facility_avg_kw: float,
    electricity_usd_per_kwh: float,
    maintenance_fraction_per_year: float,
    racks: int,
    space_usd_per_rack_year: float,
    years: int,
    discount_rate: float,
    utilization: float,
    usd_to_cny: float,
    currency: str,
) -> Cost:
    """CAPEX from BOM lines; OPEX, TCO and cost per GPU-hour (see module notes).

    Parameters
    ----------
    lines : Sequence[BomLine]
        The bill of materials [USD per line].
    gpus : int
        GPUs of the cluster [count], above zero.
    facility_avg_kw : float
        Average facility power, IT load times PUE [kW].
    electricity_usd_per_kwh : float
        Electricity price [USD/kWh].
    maintenance_fraction_per_year : float
        Yearly maintenance as a fraction of the hardware CAPEX [1/year].
    racks : int
        Racks occupied [count].
    space_usd_per_rack_year : float
        Colocation space price [USD/(rack year)].
    years : int
        Depreciation and TCO horizon [years].
    discount_rate : float
        Discount rate [fraction/year].
    utilization : float
        Fraction of GPU-hours sold or used [fraction], in (0, 1].
    usd_to_cny : float
        Exchange rate [CNY/USD], for the report currency.
    currency : str
        Report currency, ``"USD"`` or ``"CNY"``.

    Returns
    -------
    Cost
        CAPEX = sum of lines [USD]; OPEX = energy + maintenance + space [USD/year];
        TCO = CAPEX + OPEX * PVF(r, n) [USD]; cost per GPU-hour =
        (CAPEX * CRF(r, n) + OPEX) / (GPUs * 8760 h * utilization) [USD/GPU-h]
        (:func:`planner.units.annuity_factor`, :func:`planner.units.present_value_factor`).
    """
    categories = by_category(lines)
    capex = sum(categories.values())
    hardware = capex - categories["services"] - categories["cooling"]
    opex_items = {
        "energy": facility_avg_kw * HOURS_PER_YEAR * electricity_usd_per_kwh,
        "maintenance": hardware * maintenance_fraction_per_year,
        "space": racks * space_usd_per_rack_year,
    }
    opex = sum(opex_items.values())
    tco = capex + opex * present_value_factor(rate=discount_rate, years=years)
    yearly = capex * annuity_factor(rate=discount_rate, years=years) + opex
    return Cost(
        by_category_usd=categories,
        hardware_usd=hardware,
        capex_usd=capex,
        opex_by_item_usd_per_year=opex_items,
        opex_usd_per_year=opex,
        tco_usd=tco,
        years=years,
        discount_rate=discount_rate,
        usd_per_gpu_hour=yearly / (gpus * HOURS_PER_YEAR * utilization),
        usd_per_gpu=capex / gpus,
        usd_to_cny=usd_to_cny,
        currency=currency,
        electricity_usd_per_kwh=electricity_usd_per_kwh,
    )
