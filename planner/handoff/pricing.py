"""Cables priced at the lengths the layout gives them, next to the plan's one length per class.

The plan's BOM prices every cable of a link class at the scenario's assumed length
(``facility.link_lengths``). The layout measures each cable (:mod:`planner.handoff.cabling`); a
cable is ordered at the next standard length at or above its run, so it is priced at that bin:
``price = unit_cost_usd + cost_usd_per_m x ordered_length_m`` (:func:`planner.fabric.media.cable_unit_cost_usd`).
Optics do not depend on the length within their reach, and the layout already refuses a cable
longer than its medium reaches, so the transceiver lines stay as the BOM has them.

Assumption: the bins of :data:`LENGTH_BINS_M` are the lengths cable makers commonly list for
DAC (0.5-3 m, then 5 m) and for MPO trunk/AOC cables (up to 100 m); beyond 100 m a trunk is
made to order in 10 m steps. Set per project when the supplier's list differs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from planner.catalog import Catalog
from planner.fabric.media import cable_unit_cost_usd, length_field
from planner.handoff.cabling import Handoff

LENGTH_BINS_M = (
    0.5,
    1.0,
    1.5,
    2.0,
    2.5,
    3.0,
    5.0,
    7.0,
    10.0,
    15.0,
    20.0,
    25.0,
    30.0,
    40.0,
    50.0,
    70.0,
    100.0,
)
"""Standard orderable cable lengths [m] (an assumption, see the module text)."""
MADE_TO_ORDER_STEP_M = 10.0


def ordered_length_m(length_m: float) -> float:
    """The length a cable of run ``length_m`` is ordered at [m]: the next bin at or above it.

    >>> ordered_length_m(11.2), ordered_length_m(3.0), ordered_length_m(104.0)
    (15.0, 3.0, 110.0)
    """
    for step in LENGTH_BINS_M:
        if length_m <= step + 1e-9:
            return step
    return math.ceil(length_m / MADE_TO_ORDER_STEP_M) * MADE_TO_ORDER_STEP_M


@dataclass(frozen=True)
class CablePricing:
    """One link class and cable part: its cables priced at the plan's length and at the layout's."""

    link_class: str
    cable_part: str
    cables: int
    plan_length_m: float
    plan_usd: float
    """cables x price at the plan's length [USD]."""
    layout_usd: float
    """Sum over the cables of the price at the ordered length of each one's run [USD]."""
    ordered_m: dict[float, int]
    """Cables per ordered length [m -> count]."""

    @property
    def difference_usd(self) -> float:
        return self.layout_usd - self.plan_usd


def layout_cable_pricing(handoff: Handoff, catalog: Catalog) -> tuple[CablePricing, ...]:
    """Per link class and cable part (compute and auxiliary fabrics): the cables priced from the
    layout's lengths."""
    lengths = handoff.plan.scenario.facility.link_lengths
    groups: dict[tuple[str, str], list[float]] = {}
    for cable in handoff.cables:
        groups.setdefault((cable.link_class, cable.cable_part), []).append(cable.length_m)
    rows = []
    for (link_class, part), runs in groups.items():
        record = catalog.cables[part]
        ordered = [ordered_length_m(run) for run in runs]
        bins: dict[float, int] = {}
        for length in sorted(ordered):
            bins[length] = bins.get(length, 0) + 1
        plan_length = getattr(lengths, length_field(link_class))
        rows.append(
            CablePricing(
                link_class=link_class,
                cable_part=part,
                cables=len(runs),
                plan_length_m=plan_length,
                plan_usd=len(runs) * cable_unit_cost_usd(record, plan_length),
                layout_usd=sum(cable_unit_cost_usd(record, length) for length in ordered),
                ordered_m=bins,
            )
        )
    return tuple(rows)


def pricing_rows(pricing: tuple[CablePricing, ...]) -> list[dict[str, object]]:
    """Table rows (JSON-ready): link class, part, cables, the ordered lengths, both prices."""
    return [
        {
            "link_class": p.link_class,
            "cable_part": p.cable_part,
            "cables": p.cables,
            "ordered_lengths": ", ".join(f"{n} x {m:g} m" for m, n in p.ordered_m.items()),
            "plan_length_m": p.plan_length_m,
            "plan_usd": round(p.plan_usd, 2),
            "layout_usd": round(p.layout_usd, 2),
            "difference_usd": round(p.difference_usd, 2),
        }
        for p in pricing
    ]
