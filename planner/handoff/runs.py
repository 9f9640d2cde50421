"""The cables of a sized plan at the lengths its layout gives them: the one place cable lengths
are computed for the BOM, the TCO, the proposal and the Layout page's order list.

Every cable of the wiring (:func:`planner.handoff.wiring.build_wiring`) runs between two devices
the layout placed (:func:`planner.handoff.layout.build_layout`); its run is
:func:`planner.handoff.layout.cable_length_m`, and it is ordered at the next standard length at
or above the run (:func:`ordered_length_m`). :func:`cable_runs` counts the cables of each link
class per ordered length; the BOM writes one cable line per length (:func:`planner.bom.bom_lines`),
priced with :func:`planner.fabric.media.cable_unit_cost_usd` at that length.

A run depends only on the two devices a cable joins, so :func:`cable_runs` does not build the
wiring link by link: it counts the cables per pair of devices from the same rules
(:func:`planner.handoff.pairs.cable_pairs`), lays out the devices and computes one run per pair
(:func:`laid_out_cables`): about 4 ms of CPU for a 1,024-GPU rail8-npo plan against 150 ms port by
port, the same runs (tests/test_cable_pairs.py). The hand-off files (cabling plan, NetBox) keep the
port-by-port wiring (:func:`link_lengths_m`, :func:`runs_of`).

The engine lays out the default floor (:class:`planner.inputs.layout.LayoutParams`); the Layout
page states what another floor would change. The answer is kept per catalog and sized cluster (a
price, finance or currency edit reuses it); plans of more than :data:`MAX_LAID_OUT_CABLES` cables
keep the scenario's one length per link class.

Assumption: the bins of :data:`LENGTH_BINS_M` are the lengths cable makers commonly list for
DAC (0.5-3 m, then 5 m) and for MPO trunk/AOC cables (up to 100 m); beyond 100 m a trunk is
made to order in 10 m steps. Set per project when the supplier's list differs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from planner.catalog import Catalog
from planner.handoff.layout import RACK_UNIT_M, Anchor, Layout, anchors, build_layout, cable_length_m
from planner.handoff.pairs import Block, CablePairs, cable_pairs
from planner.handoff.sized import Sized
from planner.handoff.wiring import Link, Wiring, inventory, optics_power_w
from planner.inputs.layout import LayoutParams

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

MAX_LAID_OUT_CABLES = 40_000
"""Largest wiring the engine lays out to price its cables [cables]; a 1,024-GPU 8-rail plan has
about 17,800 (compute and auxiliary fabrics). Above it the BOM keeps the scenario's one length per
link class (the plan says so in a note)."""

_KEPT = 64
"""Layouts kept per process before the cache starts over [count]."""


def ordered_length_m(length_m: float) -> float:
    """The length a cable of run ``length_m`` is ordered at [m]: the next bin at or above it.

    Parameters
    ----------
    length_m : float
        Cable run [m].

    Returns
    -------
    float
        Ordered length [m]: a stock bin of ``LENGTH_BINS_M``, above the longest bin rounded up to
        ``MADE_TO_ORDER_STEP_M``.

    >>> ordered_length_m(11.2), ordered_length_m(3.0), ordered_length_m(104.0)
    (15.0, 3.0, 110.0)
    """
    for step in LENGTH_BINS_M:
        if length_m <= step + 1e-9:
            return step
    return math.ceil(length_m / MADE_TO_ORDER_STEP_M) * MADE_TO_ORDER_STEP_M


def ordered_bins(runs_m: Iterable[float]) -> dict[float, int]:
    """Cables per ordered length [m -> count], shortest first, of runs ``runs_m`` [m].

    Parameters
    ----------
    runs_m : Iterable[float]
        One run per cable [m].

    Returns
    -------
    dict[float, int]
        Cables per ordered length [m -> count].

    >>> ordered_bins([11.0, 6.0, 14.0, 21.0])
    {7.0: 1, 15.0: 2, 25.0: 1}
    """
    runs: dict[float, int] = {}
    for run in runs_m:  # runs repeat (whole metres): each distinct run is binned once
        runs[run] = runs.get(run, 0) + 1
    return counted_bins(runs)


def counted_bins(runs: Mapping[float, int]) -> dict[float, int]:
    """Cables per ordered length [m -> count], shortest first, of ``runs`` (run [m] -> cables).

    Parameters
    ----------
    runs : Mapping[float, int]
        Cables per run [m -> count].

    Returns
    -------
    dict[float, int]
        Cables per ordered length [m -> count].

    >>> counted_bins({11.0: 1, 6.0: 1, 14.0: 2})
    {7.0: 1, 15.0: 3}
    """
    bins: dict[float, int] = {}
    for run, count in sorted(runs.items()):
        length = ordered_length_m(run)
        bins[length] = bins.get(length, 0) + count
    return bins


@dataclass(frozen=True)
class CableRun:
    """The cables of one link class and cable part, by the length they are ordered at."""

    link_class: str
    cable_part: str
    ordered_m: tuple[tuple[float, int], ...]
    """(ordered length [m], cables [count]), shortest first."""
    longest_m: float
    """Longest run of the class [m]."""
    reach_m: float
    """Longest cable the class's medium carries [m] (the cable's or an optic's reach)."""
    reach_part: str
    """The part whose reach that is."""

    @property
    def cables(self) -> int:
        return sum(n for _, n in self.ordered_m)

    @property
    def metres(self) -> float:
        """Cable ordered for the class [m]: the sum of the ordered lengths."""
        return sum(length * n for length, n in self.ordered_m)


def medium_reach_m(cable_part: str, optics: Iterable[str | None], catalog: Catalog) -> tuple[float, str]:
    """Longest cable a medium carries [m]: the shortest of the cable's and each optic's reach, and
    the part that sets it.

    Parameters
    ----------
    cable_part : str
        Cable part id (dimensionless).
    optics : Iterable[str or None]
        Optic part ids at the ends; ``None`` or empty for a copper end.
    catalog : Catalog
        Catalog of cables and optics (their reach [m]).

    Returns
    -------
    tuple[float, str]
        Reach [m] and the id of the part that limits it.
    """
    reaches = [(catalog.cables[cable_part].max_reach_m, cable_part)]
    reaches += [(catalog.optics[o].max_reach_m, o) for o in optics if o]
    return min(reaches)


def link_lengths_m(wiring: Wiring, layout: Layout) -> list[float]:
    """The run of every link of ``wiring`` on ``layout`` [m], in link order (one computation per
    pair of devices: parallel cables between two devices run the same way).

    Parameters
    ----------
    wiring : Wiring
        Devices and links of the plan.
    layout : Layout
        Where each device sits (rack, position [U], coordinates [m]).

    Returns
    -------
    list[float]
        Length of each link [m], whole metres.
    """
    where = layout.location()
    by_pair: dict[tuple[str, str], float] = {}
    lengths = []
    for link in wiring.links:
        pair = (link.a_device, link.b_device)
        length = by_pair.get(pair)
        if length is None:
            length = by_pair[pair] = cable_length_m(where[link.a_device], where[link.b_device], layout.params)
        lengths.append(length)
    return lengths


def runs_of(wiring: Wiring, lengths_m: list[float], catalog: Catalog) -> tuple[CableRun, ...]:
    """The links of ``wiring`` with their runs ``lengths_m`` [m], per link class and cable part
    (port by port: :func:`runs_of_pairs` gives the same from the cables per pair of devices).

    Parameters
    ----------
    wiring : Wiring
        Devices and links of the plan.
    lengths_m : list[float]
        Run of each link of ``wiring`` in link order [m] (:func:`link_lengths_m`).
    catalog : Catalog
        Catalog of cables and optics (their reach [m]).

    Returns
    -------
    tuple[CableRun, ...]
        One entry per (link class, cable part): cables per ordered length [m -> count], longest run
        [m], reach [m] and the part that limits it.
    """
    groups: dict[tuple[str, str], list[float]] = {}
    first: dict[tuple[str, str], Link] = {}
    for link, length in zip(wiring.links, lengths_m, strict=True):
        key = (link.link_class, link.cable_part)
        groups.setdefault(key, []).append(length)
        first.setdefault(key, link)
    runs = []
    for key, lengths in groups.items():
        sample = first[key]
        runs.append(
            _cable_run(
                link_class=key[0],
                cable_part=key[1],
                optics=(sample.optic_a, sample.optic_b),
                ordered=ordered_bins(lengths),
                longest_m=max(lengths),
                catalog=catalog,
            )
        )
    return tuple(runs)


def runs_of_pairs(pairs: CablePairs, layout: Layout, catalog: Catalog) -> tuple[CableRun, ...]:
    """The cables ``pairs`` laid out on ``layout``, per link class and cable part: each pair of
    devices' run computed once (:func:`planner.handoff.layout.anchored_length_m`) and counted
    with its cables.

    Parameters
    ----------
    pairs : CablePairs
        Cables per pair of devices, per link class, with each class's media.
    layout : Layout
        Where each device sits (rack, position [U], coordinates [m]).
    catalog : Catalog
        Catalog of cables and optics (their reach [m]).

    Returns
    -------
    tuple[CableRun, ...]
        One entry per link class: cables per ordered length [m -> count], longest run [m], reach [m]
        and the part that limits it.
    """
    where = anchors(layout)
    slack = layout.params.slack_m
    runs = []
    for item in pairs.classes:
        counts = pair_runs(item.blocks, where, slack_m=slack)
        m = item.media
        runs.append(
            _cable_run(
                link_class=m.link_class,
                cable_part=m.cable_id,
                optics=(m.lower.optic_id, m.upper.optic_id),
                ordered=counted_bins(counts),
                longest_m=max(counts),
                catalog=catalog,
            )
        )
    return tuple(runs)


def _cable_run(
    *,
    link_class: str,
    cable_part: str,
    optics: tuple[str | None, str | None],
    ordered: Mapping[float, int],
    longest_m: float,
    catalog: Catalog,
) -> CableRun:
    """The :class:`CableRun` of one medium, its reach looked up from the same parts it names
    (the port-by-port and the per-pair counts share it).

    Parameters
    ----------
    link_class : str
        The link class (dimensionless id).
    cable_part : str
        Cable part id of the medium.
    optics : tuple of (str or None)
        Optic part ids at the two ends; ``None`` or empty for a copper end.
    ordered : Mapping[float, int]
        Cables per ordered length [m -> count], shortest first.
    longest_m : float
        The longest run [m].
    catalog : Catalog
        Catalog of cables and optics (their reach [m]).

    Returns
    -------
    CableRun
        The run with the medium's reach [m] and the part that limits it.
    """
    reach, part = medium_reach_m(cable_part, optics, catalog)
    return CableRun(
        link_class=link_class,
        cable_part=cable_part,
        ordered_m=tuple(ordered.items()),
        longest_m=longest_m,
        reach_m=reach,
        reach_part=part,
    )


def pair_runs(blocks: Iterable[Block], where: Mapping[str, Anchor], *, slack_m: float) -> dict[float, int]:
    """Cables [count] per run [m] of ``blocks`` (cables by pair of devices,
    :class:`planner.handoff.pairs.ClassPairs`) between the devices anchored at ``where``:
    :func:`planner.handoff.layout.anchored_length_m` written out in the loop (the same operations
    in the same order: a call per pair costs about a fifth of a new-size plan), a pair of devices
    at a time; tests/test_cable_pairs.py holds the two equal on every preset.

    Parameters
    ----------
    blocks : Iterable[Block]
        Cables by pair of devices: ``(a devices, ((b device, cables [count]), ...))``.
    where : Mapping[str, Anchor]
        Anchor of each device (rise [m], middle [U], rack ``x, y`` [m]).
    slack_m : float
        Extra length per cable [m].

    Returns
    -------
    dict[float, int]
        Cables per run [m -> count], runs in whole metres, at least 1.
    """
    unit, ceil = RACK_UNIT_M, math.ceil
    counts: dict[int, int] = {}
    for a_devices, targets in blocks:
        anchored = [(*where[b], cables) for b, cables in targets]
        for a_id in a_devices:
            a_rack, a_rise, a_middle, a_x, a_y = where[a_id]
            for b_rack, b_rise, b_middle, b_x, b_y, cables in anchored:
                if a_rack == b_rack:
                    length = abs(a_middle - b_middle) * unit + slack_m
                else:
                    length = a_rise + b_rise + (abs(a_x - b_x) + abs(a_y - b_y)) + slack_m
                metres = ceil(length - 1e-9)
                counts[metres] = counts.get(metres, 0) + cables
    runs: dict[float, int] = {}
    for metres, cables in counts.items():
        run = float(max(1, metres))
        runs[run] = runs.get(run, 0) + cables
    return runs


def laid_out_cables(
    *, plan: Sized, catalog: Catalog, params: LayoutParams
) -> tuple[tuple[CableRun, ...], Layout]:
    """The cables of ``plan`` per link class by ordered length on the floor ``params``, and the
    layout, from the cables per pair of devices (:func:`planner.handoff.pairs.cable_pairs`): no
    link is built. The port-by-port wiring (:func:`planner.handoff.wiring.build_wiring`, then
    :func:`link_lengths_m` and :func:`runs_of`) gives the same runs (tests/test_cable_pairs.py).

    Parameters
    ----------
    plan
        The sized cluster.
    catalog
        Component catalog (rack, optics, cables).
    params
        The floor: row length, rack size, aisles, tray height, slack [m].

    Returns
    -------
    tuple[tuple[CableRun, ...], Layout]
        Per link class and cable part, cables [count] per ordered length [m], the longest run [m]
        and the medium's reach [m]; and the racks in rows.

    Raises
    ------
    InputError
        ``layout.row_length_m`` or ``layout.max_rows`` when the floor holds no layout.
    """
    pairs = cable_pairs(plan=plan, catalog=catalog)
    devices = inventory(plan=plan, catalog=catalog, optics_w=optics_power_w(pairs.modules, catalog))
    inventoried = Wiring(devices=tuple(devices), links=())
    layout = build_layout(plan=plan, catalog=catalog, wiring=inventoried, params=params)
    return runs_of_pairs(pairs, layout, catalog), layout


def cable_runs(*, plan: Sized, catalog: Catalog, params: LayoutParams | None = None) -> tuple[CableRun, ...]:
    """The cables of ``plan`` laid out on the floor ``params`` (default floor when ``None``), per
    link class and part, by ordered length; ``()`` above :data:`MAX_LAID_OUT_CABLES` cables.

    Kept per catalog object and sized cluster: the key is every count the wiring and the layout
    read (:class:`planner.handoff.sized.Sized`), never a price.

    Parameters
    ----------
    plan : Sized
        The sized cluster (media per link class, counts the wiring reads).
    catalog : Catalog
        Catalog of racks, cables and optics.
    params : LayoutParams or None
        Floor geometry [m]; ``None`` takes the default floor.

    Returns
    -------
    tuple[CableRun, ...]
        One entry per (link class, cable part): cables per ordered length [m -> count], longest run,
        reach [m]; empty above ``MAX_LAID_OUT_CABLES`` cables.

    Raises
    ------
    InputError
        ``layout.row_length_m`` or ``layout.max_rows`` when the floor holds no layout
        (:func:`planner.handoff.layout.build_layout`); never with the default floor.
    """
    floor = params or LayoutParams()
    cables = sum(m.links for m in (*plan.media, *plan.aux_media))
    if cables > MAX_LAID_OUT_CABLES:
        return ()
    key = (id(catalog), _sized_key(plan), floor)
    kept = _CACHE.get(key)
    if kept is not None and kept[0] is catalog:
        return kept[1]
    runs, _ = laid_out_cables(plan=plan, catalog=catalog, params=floor)
    if len(_CACHE) >= _KEPT:
        _CACHE.clear()
    _CACHE[key] = (catalog, runs)
    return runs


_CACHE: dict[tuple[int, str, LayoutParams], tuple[Catalog, tuple[CableRun, ...]]] = {}


def _sized_key(plan: Sized) -> str:
    """Everything of ``plan`` the wiring and the layout read, as one string (the auxiliary
    fabrics hold a mapping, so the parts are not hashable as they are)."""
    models = plan.switch_models
    return repr(
        (
            plan.scenario.facility.rack_id,
            plan.nodes,
            plan.server_id,
            plan.topology,
            plan.media,
            plan.aux_media,
            plan.auxiliary,
            plan.scale_up,
            plan.server_ports,
            (models.leaf_id, models.spine_id, models.core_id),
            plan.power.node_kw,
            plan.racks,
        )
    )
