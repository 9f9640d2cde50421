"""Cables priced at the lengths a layout gives them, next to the BOM's price.

The BOM prices the cables at the lengths of the plan's layout on the scenario's floor
(``Scenario.floor``, :mod:`planner.handoff.runs`; ``bom_m`` below), and the Layout page and
``planner layout`` lay out that same floor, so the two agree: the page shows the order list and
checks it against the BOM. Each cable is ordered at the next standard length at or above its run
(:func:`planner.handoff.runs.ordered_length_m`) and priced at that length:
``price = unit_cost_usd + cost_usd_per_m x ordered_length_m``
(:func:`planner.fabric.media.cable_unit_cost_usd`). A hand-off built on another floor than its
plan's (``build_handoff(params=...)``) shows what that floor's cables would cost. Optics do not
depend on the length within their reach, and the layout already refuses a cable longer than its
medium reaches, so the transceiver lines stay as the BOM has them.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.catalog import Catalog
from planner.fabric.media import cable_unit_cost_usd
from planner.handoff.cabling import Handoff
from planner.handoff.runs import ordered_bins


@dataclass(frozen=True)
class CablePricing:
    """One link class and cable part: its cables as the BOM prices them and at this layout's
    lengths."""

    link_class: str
    cable_part: str
    cables: int
    bom_m: dict[float, int]
    """The BOM's cables per ordered length [m -> count] (the layout on the plan's scenario's floor)."""
    plan_usd: float
    """The BOM's cable lines of the class [USD]."""
    layout_usd: float
    """Sum over the cables of the price at the ordered length of each one's run on this floor [USD]."""
    ordered_m: dict[float, int]
    """Cables per ordered length on this floor [m -> count]."""

    @property
    def difference_usd(self) -> float:
        return self.layout_usd - self.plan_usd


def layout_cable_pricing(handoff: Handoff, catalog: Catalog) -> tuple[CablePricing, ...]:
    """Per link class and cable part (compute and auxiliary fabrics): the cables priced from the
    layout's lengths, beside the plan's BOM lines of the same cables (a price override of the
    part applies to both).

    Parameters
    ----------
    handoff : Handoff
        The plan's cables (lengths [m]) and its BOM lines [USD].
    catalog : Catalog
        Catalog of cable parts (price per length [USD]).

    Returns
    -------
    tuple[CablePricing, ...]
        One entry per (link class, cable part) in first-cable order: cables [count], BOM and layout
        ordered lengths [m -> count], BOM price and layout price [USD].
    """
    overrides = handoff.plan.scenario.price_overrides_usd
    groups: dict[tuple[str, str], list[float]] = {}
    for cable in handoff.cables:
        groups.setdefault((cable.link_class, cable.cable_part), []).append(cable.length_m)
    rows = []
    for (link_class, part), runs in groups.items():
        record = catalog.cables[part]
        bins = ordered_bins(runs)
        lines = [
            line
            for line in handoff.plan.bom
            if line.category == "cables" and line.id == part and line.link_classes == (link_class,)
        ]
        rows.append(
            CablePricing(
                link_class=link_class,
                cable_part=part,
                cables=len(runs),
                bom_m={line.length_m or 0.0: line.quantity for line in lines},
                plan_usd=sum(line.total_usd for line in lines),
                layout_usd=sum(
                    n * overrides.get(part, cable_unit_cost_usd(record, length)) for length, n in bins.items()
                ),
                ordered_m=bins,
            )
        )
    return tuple(rows)


def _lengths(bins: dict[float, int]) -> str:
    """``3336 x 15 m, 1104 x 20 m``: cables per ordered length."""
    return ", ".join(f"{n} x {m:g} m" for m, n in bins.items())


def pricing_rows(pricing: tuple[CablePricing, ...]) -> list[dict[str, object]]:
    """Table rows (JSON-ready): link class, part, cables, the ordered lengths, both prices.

    Parameters
    ----------
    pricing : tuple[CablePricing, ...]
        Entries from :func:`layout_cable_pricing`.

    Returns
    -------
    list[dict[str, object]]
        One row per entry: ``link_class``, ``cable_part``, ``cables`` [count], ``ordered_lengths`` and
        ``bom_lengths`` (text, [m] x count), ``plan_usd``, ``layout_usd``, ``difference_usd`` [USD,
        two decimals].
    """
    return [
        {
            "link_class": p.link_class,
            "cable_part": p.cable_part,
            "cables": p.cables,
            "ordered_lengths": _lengths(p.ordered_m),
            "bom_lengths": _lengths(p.bom_m),
            "plan_usd": round(p.plan_usd, 2),
            "layout_usd": round(p.layout_usd, 2),
            "difference_usd": round(p.difference_usd, 2),
        }
        for p in pricing
    ]
