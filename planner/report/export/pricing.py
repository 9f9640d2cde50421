"""Selling prices for proposals: the customer edition's view of a plan.

Notes
-----
- list unit price = unit cost x (1 + margin);
- offered unit price = list unit price x (1 - discount), rounded to the cent [USD];
- the customer's CAPEX is the sum of offered line totals; their OPEX keeps energy and space as
  the engine computes them (the customer pays those to others) and maintenance at the engine's
  fraction of *their* hardware price; TCO and price per GPU-hour follow from
  :func:`planner.cost.cost_summary`, the one place those formulas live.

:func:`priced_plan` returns a :class:`planner.Plan` whose every money figure is the offered
price, so charts and tables built for plans show prices without knowing about editions, and no
internal cost can leak into a customer document: the cost plan never reaches it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from planner.catalog import Catalog
from planner.cost import cost_summary
from planner.engine import Plan
from planner.inputs import parse

Edition = Literal["customer", "internal"]
EDITIONS: tuple[Edition, ...] = ("customer", "internal")


class Pricing(BaseModel):
    """Commercial terms of a proposal: margin on cost and discount off the list price."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    margin: float = Field(default=0.15, ge=0.0, le=3.0, description="Margin on cost [fraction].")
    discount: float = Field(default=0.0, ge=0.0, le=0.9, description="Discount off list price [fraction].")

    @property
    def list_factor(self) -> float:
        """List price per unit of cost [-]."""
        return 1.0 + self.margin

    @property
    def price_factor(self) -> float:
        """Offered price per unit of cost [-].

        >>> Pricing(margin=0.25, discount=0.2).price_factor
        1.0
        """
        return self.list_factor * (1.0 - self.discount)

    @property
    def effective_margin(self) -> float:
        """Gross margin on the offered price, (price - cost) / price [fraction].

        >>> round(Pricing(margin=0.25).effective_margin, 3), Pricing(margin=0.25, discount=0.2).effective_margin
        (0.2, 0.0)
        """
        return 1.0 - 1.0 / self.price_factor


def pricing_from_data(data: Mapping[str, Any], *, source: str = "pricing") -> Pricing:
    """Validate margin and discount; :class:`InputError` names the field and its range.

    Parameters
    ----------
    data : Mapping[str, Any]
        ``margin`` and ``discount`` [fraction].
    source : str
        Name of the input in error messages.

    Returns
    -------
    Pricing
        The validated pricing.
    """
    return parse(Pricing, data, source=source)


def offered_unit_price_usd(unit_cost_usd: float, pricing: Pricing) -> float:
    """Offered price of one unit [USD], rounded to the cent.

    Parameters
    ----------
    unit_cost_usd : float
        Unit cost [USD].
    pricing : Pricing
        Margin and discount [fraction].

    Returns
    -------
    float
        ``unit_cost_usd x price_factor`` [USD], two decimals.

    >>> offered_unit_price_usd(12_000.0, Pricing(margin=0.15)), offered_unit_price_usd(0.333, Pricing(margin=0.0))
    (13800.0, 0.33)
    """
    return round(unit_cost_usd * pricing.price_factor, 2)


def priced_plan(plan: Plan, *, catalog: Catalog, pricing: Pricing) -> Plan:
    """``plan`` with every BOM unit price and every money figure at the offered price.

    Parameters
    ----------
    plan : Plan
        A plan at cost.
    catalog : Catalog
        Catalog of cost factors (maintenance [fraction/year], space [USD/rack/year]).
    pricing : Pricing
        Margin and discount [fraction].

    Returns
    -------
    Plan
        The plan with offered BOM prices and the cost summary recomputed from them [USD].
    """
    lines = tuple(
        dataclasses.replace(line, unit_cost_usd=offered_unit_price_usd(line.unit_cost_usd, pricing))
        for line in plan.bom
    )
    facility = plan.scenario.facility
    cost = cost_summary(
        lines=lines,
        gpus=plan.gpus,
        facility_avg_kw=plan.power.facility_avg_kw,
        electricity_usd_per_kwh=plan.cost.electricity_usd_per_kwh,
        maintenance_fraction_per_year=catalog.cost_factors["maintenance_fraction_per_year"].value,
        racks=plan.racks.total,
        space_usd_per_rack_year=catalog.cost_factors["space_usd_per_rack_year"].value,
        years=plan.cost.years,
        discount_rate=plan.cost.discount_rate,
        utilization=facility.utilization,
        usd_to_cny=plan.cost.usd_to_cny,
        currency=plan.cost.currency,
    )
    return dataclasses.replace(plan, bom=lines, cost=cost)


_MONEY = re.compile(
    r"(\$|US\$|\bUSD\b|\bCNY\b|\bRMB\b|\bEUR\b|€|¥|￥|美元|人民币|元|"
    r"\bpric(e|es|ed|ing)\b|\bcosts?\b|\bcosting\b|_cost_|_usd\b|\bcents?\b|\bbudget|"
    r"价格|价|成本|费用|预算|美分)",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.;!?。；！？])\s+|(?<=[。；！？])")
_OPEN, _CLOSE = "(（", ")）"


def _drop_money_brackets(text: str) -> str:
    """``text`` without the bracketed remarks that mention money, nested ones included.

    A remark is judged whole, with what it encloses: "(Quality A (EIA data). 2022 was 8.3 US
    cents/kWh.)" goes as one. An unmatched bracket is kept as an ordinary character.

    >>> _drop_money_brackets("US average (Quality A (EIA data). 8.3 US cents/kWh.) in 2023 (EIA)")
    'US average in 2023 (EIA)'
    """
    out: list[str] = []
    depth, start = 0, 0
    for index, char in enumerate(text):
        if char in _OPEN:
            if depth == 0:
                out.append(text[start:index])
                start = index
            depth += 1
        elif char in _CLOSE and depth:
            depth -= 1
            if depth == 0:
                group = text[start : index + 1]
                if mentions_money(group):
                    out[-1] = out[-1].rstrip()
                else:
                    out.append(group[0] + _drop_money_brackets(group[1:-1]) + group[-1])
                start = index + 1
    out.append(text[start:])
    return "".join(out)


def mentions_money(text: str) -> bool:
    """True when ``text`` names a price, a cost or a currency.

    Parameters
    ----------
    text : str
        Any text.

    Returns
    -------
    bool
        Whether a money word, currency or price field appears.

    >>> mentions_money("unit_cost_usd = 12,000 is assumed"), mentions_money("300 W typical"), mentions_money("单价 5 元")
    (True, False, True)
    """
    return bool(_MONEY.search(text))


def redact_prices(text: str) -> str:
    """``text`` without the parenthesised remarks and sentences that mention money.

    Catalog sources and assumptions cite the prices the costs were built from; a customer
    document keeps what they say about the hardware and drops what they say about money.

    Parameters
    ----------
    text : str
        A source or assumption text.

    Returns
    -------
    str
        The text left; empty when every sentence mentions money.

    >>> redact_prices("luxoptx.com (n.d.; MPO-16 trunk 50-150 USD per cable, C)")
    'luxoptx.com'
    >>> redact_prices("BR100: unit_cost_usd = 12,000 is assumed. TDP 550 W from the datasheet.")
    'TDP 550 W from the datasheet.'
    >>> redact_prices("No price found.")
    ''
    """
    kept_brackets = _drop_money_brackets(text)
    sentences = [s for s in _SENTENCE_END.split(kept_brackets) if s.strip()]
    return " ".join(s.strip() for s in sentences if not mentions_money(s)).strip()
