"""Designs side by side, sweeps over sizes, and crossovers between designs.

A sweep reports the sizes a design cannot build and goes on with the others
(:class:`SkippedSizes`). A refusal that names the design's largest count (the ``max_gpus`` of
the three-tier limit in :func:`planner.fabric.topology.build_topology`, "allowed: 1 to N") holds
for every larger size, so those sizes are skipped without planning each; any other refusal skips
only its size. The pairs actually planned are bounded by :data:`MAX_SWEEP_PLANS`: at 3-8 ms a
plan (2-core machine), 4,096 plans take 15-30 s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from planner.catalog import Catalog
from planner.engine import Plan, plan
from planner.errors import InputError, PlannerError
from planner.i18n import error_text
from planner.i18n.message import Message, msg
from planner.inputs.scenario import Scenario
from planner.outputs import plan_summary_row
from planner.progress import Steps, checkpoint

if TYPE_CHECKING:
    import pandas as pd

    from planner.catalog.schema import Design

DEFAULT_DESIGNS = ("rail4-npo", "rail8-npo", "ib-ndr")

MAX_SWEEP_PLANS = 4096
"""Most (design, size) pairs one sweep plans [count]; the default sweep plans 3 x 128 = 384."""


def _common_gpu(scenario: Scenario, catalog: Catalog, design_ids: Sequence[str]) -> str:
    """One GPU for every design: the scenario's, else the first design's default."""
    if scenario.gpu_id:
        return scenario.gpu_id
    return _known_design(catalog, design_ids[0]).default_gpu_id


def _known_design(catalog: Catalog, design_id: str) -> Design:
    """The catalog's design ``design_id``; an unknown id is the caller's mistake (not a size to skip)."""
    if design_id not in catalog.designs:
        raise InputError(
            msg(
                "designs: unknown design id {id} (known: {known})",
                id=repr(design_id),
                known=", ".join(sorted(catalog.designs)),
            )
        )
    return catalog.designs[design_id]


def compare(
    *, scenario: Scenario, catalog: Catalog, design_ids: Sequence[str] = DEFAULT_DESIGNS
) -> tuple[Plan, ...]:
    """Plan one scenario on each design, with the same GPU across designs.

    Parameters
    ----------
    scenario : Scenario
        The scenario; its design and custom fabric are replaced by each design's.
    catalog : Catalog
        The catalog the designs and records come from.
    design_ids : sequence of str
        The designs to plan, in the order of the result.

    Returns
    -------
    tuple of Plan
        One plan per design, each on the scenario's GPU (else the first design's default GPU).

    Raises
    ------
    InputError
        No design named, or an unknown design id.
    """
    if not design_ids:
        raise InputError(msg("designs: name at least one design"))
    gpu_id = _common_gpu(scenario, catalog, design_ids)
    return tuple(
        plan(scenario=scenario.with_updates(design_id=d, gpu_id=gpu_id, fabric=None), catalog=catalog)
        for d in design_ids
    )


def default_sizes(*, gpus_per_node: int = 8, low: int = 8, high: int = 1024) -> tuple[int, ...]:
    """Every multiple of the node size from ``low`` to ``high``.

    Parameters
    ----------
    gpus_per_node : int
        GPUs per server, the step [count].
    low : int
        Smallest size wanted, rounded up to a whole server [GPUs].
    high : int
        Largest size [GPUs].

    Returns
    -------
    tuple of int
        The sizes [GPUs], ascending.

    Examples
    --------
    >>> default_sizes()[:3], len(default_sizes())
    ((8, 16, 24), 128)
    """
    first = max(gpus_per_node, -(-low // gpus_per_node) * gpus_per_node)
    return tuple(range(first, high + 1, gpus_per_node))


@dataclass(frozen=True, kw_only=True)
class SkippedSizes:
    """Sizes of one design a sweep could not plan, for one reason (a run of sizes)."""

    design_id: str
    gpus_from: int
    """Smallest skipped size of the run [GPUs]."""
    gpus_to: int
    """Largest skipped size of the run [GPUs]."""
    sizes: int
    """Sizes in the run [count]."""
    reason: str
    """The engine's refusal of the first size of the run (a :class:`Message` when it was one)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "design": self.design_id,
            "gpus_from": self.gpus_from,
            "gpus_to": self.gpus_to,
            "sizes": self.sizes,
            "reason": str(self.reason),
        }


@dataclass(frozen=True, kw_only=True)
class Sweep:
    """A sweep's rows (one per design and planned size) and the sizes it skipped.

    The rows are plain dictionaries (:func:`planner.outputs.plan_summary_row`), so a caller that
    writes JSON needs no pandas; :attr:`frame` builds the table once, on first use.
    """

    rows: tuple[dict[str, Any], ...]
    """Headline figures: one row per (design, GPUs) that could be planned."""
    skipped: tuple[SkippedSizes, ...]
    """Runs of sizes the engine refused, in design order."""

    @cached_property
    def frame(self) -> pd.DataFrame:
        """The rows as a table (one column per headline figure), built on first use."""
        import pandas as pd

        return pd.DataFrame(list(self.rows))

    def skipped_frame(self) -> pd.DataFrame:
        """The skipped runs as a table (design, gpus_from, gpus_to, sizes, reason); the reason
        stays the engine's :class:`Message`, so a front end can show it translated."""
        import pandas as pd

        columns = ["design", "gpus_from", "gpus_to", "sizes", "reason"]
        rows = [(s.design_id, s.gpus_from, s.gpus_to, s.sizes, s.reason) for s in self.skipped]
        return pd.DataFrame(rows, columns=columns)


def _size_limit(error: PlannerError, size: int) -> int | None:
    """The design's largest count when ``error`` refuses ``size`` for exceeding it, else ``None``.

    Only a refusal that names ``max_gpus`` below ``size`` counts: the three-tier limit of the
    fabric holds for every larger size too (a bigger cluster needs more leaves, never fewer).
    """
    text = error_text(error)
    limit = text.params.get("max_gpus") if isinstance(text, Message) else None
    return limit if isinstance(limit, int) and not isinstance(limit, bool) and limit < size else None


def _template(reason: str) -> str:
    return reason.template if isinstance(reason, Message) else reason


def _runs(design_id: str, outcomes: list[tuple[int, str | None]]) -> list[SkippedSizes]:
    """Runs of sizes refused one after the other (in sweep order) with the same template;
    ``outcomes`` holds each size with its refusal, ``None`` when it was planned."""
    runs: list[list[tuple[int, str]]] = []
    previous: str | None = None
    for size, reason in outcomes:
        if reason is not None:
            if previous is not None and _template(previous) == _template(reason):
                runs[-1].append((size, reason))
            else:
                runs.append([(size, reason)])
        previous = reason
    return [_skipped(design_id=design_id, sizes=[size for size, _ in run], reason=run[0][1]) for run in runs]


def _skipped(*, design_id: str, sizes: Sequence[int], reason: str) -> SkippedSizes:
    """One run of refused ``sizes`` [GPUs] of a design, with the refusal of its first size."""
    return SkippedSizes(
        design_id=design_id, gpus_from=min(sizes), gpus_to=max(sizes), sizes=len(sizes), reason=reason
    )


def _check_designs(catalog: Catalog, design_ids: Sequence[str]) -> None:
    if not design_ids:
        raise InputError(msg("designs: name at least one design"))
    for design_id in design_ids:
        _known_design(catalog, design_id)


@dataclass(frozen=True)
class _DesignWork:
    """What a sweep plans for one design after planning its largest size."""

    base: Scenario
    """The sweep's scenario on this design."""
    todo: list[int]
    """Sizes to plan one by one [GPUs]."""
    above_limit: SkippedSizes | None
    """The sizes above the design's largest count, skipped without planning each."""
    largest_plan: Plan | None
    """The plan of the largest size, when it could be built."""


def _sized_only(scenario: Scenario, catalog: Catalog) -> Plan:
    """One size of a sweep: its cables priced at the scenario's one length per link class.

    Laying out every size's cables port by port would make a 384-plan sweep about a hundred times
    slower; the plan of one size (Overview, BOM, proposal) prices the layout's lengths
    (:func:`planner.handoff.runs.cable_runs`), so a sweep's CAPEX at a size can differ from that
    plan's by the cables' length difference.
    """
    return plan(scenario=scenario, catalog=catalog, layout_cable_lengths=False)


def _gpus_bounds() -> tuple[int, int]:
    """The counts :attr:`Scenario.gpus` accepts, read from its field [GPUs]."""
    meta = Scenario.model_fields["gpus"].metadata
    return next(m.ge for m in meta if hasattr(m, "ge")), next(m.le for m in meta if hasattr(m, "le"))


_GPUS_FROM, _GPUS_TO = _gpus_bounds()


def _with_gpus(scenario: Scenario, gpus: int) -> Scenario:
    """``scenario.with_updates(gpus=gpus)``: a count the field accepts replaces the old one in a
    copy, without validating the rest of the (already valid) scenario again at every size; any
    other count goes through :meth:`Scenario.with_updates`, whose error names the field."""
    if type(gpus) is int and _GPUS_FROM <= gpus <= _GPUS_TO:
        return scenario.model_copy(update={"gpus": gpus})
    return scenario.with_updates(gpus=gpus)


def _probe(base: Scenario, catalog: Catalog, wanted: list[int], largest: int) -> _DesignWork:
    """Plan the largest size; when it exceeds the design's largest count, cut the sizes there."""
    try:
        return _DesignWork(base, wanted, None, _sized_only(_with_gpus(base, largest), catalog))
    except PlannerError as exc:
        limit = _size_limit(exc, largest)
        if limit is None:  # refused for another reason: each size is tried and reported on its own
            return _DesignWork(base, wanted, None, None)
        above = [size for size in wanted if size > limit]
        reason = error_text(exc)
        if min(above) != largest:  # the run's reason names its first size, as a skipped size's does
            try:
                _sized_only(_with_gpus(base, min(above)), catalog)
            except PlannerError as first:
                reason = error_text(first)
        skipped = _skipped(design_id=base.design_id, sizes=above, reason=reason)
        return _DesignWork(base, [size for size in wanted if size <= limit], skipped, None)


def sweep(
    *,
    scenario: Scenario,
    catalog: Catalog,
    design_ids: Sequence[str] = DEFAULT_DESIGNS,
    sizes: Sequence[int] | None = None,
    steps: Steps | None = None,
) -> Sweep:
    """Headline figures for every design and size, and the sizes a design cannot build.

    ``steps`` hears of each pair planned and may stop the sweep (:mod:`planner.progress`).

    Each design's largest size is planned first: when it is refused for exceeding the design's
    largest count, every size above that count is skipped in one run with that reason. The
    remaining pairs are planned one by one; a refused size is skipped with its reason and the
    sweep goes on. Cables: the scenario's one length per link class (:func:`_sized_only`).

    Parameters
    ----------
    scenario : Scenario
        The scenario every size is planned on (its GPU count, design and custom fabric replaced).
    catalog : Catalog
        The catalog.
    design_ids : sequence of str
        The designs to sweep.
    sizes : sequence of int or None
        Cluster sizes [GPUs]; ``None`` for every server multiple from 8 to 1024
        (:func:`default_sizes`).
    steps : Steps or None
        Progress listener; ``None`` for none.

    Returns
    -------
    Sweep
        One row of headline figures per planned design and size (GPUs [count], power [kW], cost
        [USD], busbw [GB/s] ..., :func:`planner.outputs.plan_summary_row`) and the runs of sizes
        skipped with their reasons.

    Raises
    ------
    InputError
        No design named, an unknown design id, more than :data:`MAX_SWEEP_PLANS` pairs to plan,
        or no size of any design could be planned (the first refusal, e.g. a cooling method the
        server does not support).
    """
    _check_designs(catalog, design_ids)
    gpu_id = _common_gpu(scenario, catalog, design_ids)
    if sizes is None:
        gpu = catalog.gpus.get(gpu_id)
        per_node = catalog.servers[gpu.default_server_id].gpus_per_node if gpu else 8
        sizes = default_sizes(gpus_per_node=per_node)
    base = scenario.with_updates(gpu_id=gpu_id, fabric=None)
    wanted = [int(size) for size in sizes]
    if not wanted:
        raise InputError(msg("sizes: name at least one size"))
    largest = max(wanted)
    work = [_probe(base.with_updates(design_id=d), catalog, wanted, largest) for d in design_ids]
    planned = sum(len(w.todo) for w in work)
    if planned > MAX_SWEEP_PLANS:
        raise InputError(
            msg(
                "sizes: this sweep would plan {plans:,} design-size pairs ({sizes:,} sizes, {designs} "
                "designs, each up to its largest buildable size), more than the {limit:,} a sweep "
                "plans; use a step {every} times larger, or fewer designs",
                plans=planned,
                sizes=len(wanted),
                designs=len(design_ids),
                limit=MAX_SWEEP_PLANS,
                every=-(-planned // MAX_SWEEP_PLANS),
            )
        )
    rows: list[dict[str, Any]] = []
    skipped: list[SkippedSizes] = []
    first_error: PlannerError | None = None
    done = 0
    for w in work:
        outcomes: list[tuple[int, str | None]] = []
        for size in w.todo:
            checkpoint(steps, done=done, total=planned)
            done += 1
            try:
                if w.largest_plan is not None and size == largest:
                    p = w.largest_plan
                else:
                    p = _sized_only(_with_gpus(w.base, size), catalog)
            except PlannerError as exc:
                first_error = first_error or exc
                outcomes.append((size, error_text(exc)))
                continue
            rows.append(plan_summary_row(p))
            outcomes.append((size, None))
        skipped += _runs(w.base.design_id, outcomes)
        if w.above_limit:
            skipped.append(w.above_limit)
    if not rows:
        if first_error is not None:
            raise first_error
        raise InputError(skipped[0].reason)  # every size above every design's limit
    return Sweep(rows=tuple(rows), skipped=tuple(skipped))


@dataclass(frozen=True)
class Crossover:
    """Where design ``a`` stops being better than ``b`` on ``metric`` (or the reverse)."""

    metric: str
    design_a: str
    design_b: str
    gpus_before: int
    gpus_after: int
    better_before: str
    better_after: str


def crossovers(
    sweep_frame: pd.DataFrame, *, metric: str = "usd_per_alltoall_gbyte_per_s", lower_is_better: bool = True
) -> tuple[Crossover, ...]:
    """Sizes where the better of two designs on ``metric`` changes, for every pair of designs.

    Parameters
    ----------
    sweep_frame : pandas.DataFrame
        A sweep's rows (:attr:`Sweep.frame`): ``gpus``, ``design`` and the metric's column.
    metric : str
        The column compared (its unit in its name, e.g. USD per GB/s of all-to-all busbw).
    lower_is_better : bool
        Whether the smaller value wins (cost) or the larger (bandwidth).

    Returns
    -------
    tuple of Crossover
        For each pair of designs, each pair of neighbouring sizes [GPUs] between which the better
        design changes; sizes where the two are equal are passed over.

    Raises
    ------
    InputError
        ``metric`` is not a column of the frame.
    """
    if metric not in sweep_frame.columns:
        raise InputError(msg("metric: unknown column {column}", column=repr(metric)))
    table = sweep_frame.pivot_table(index="gpus", columns="design", values=metric).sort_index()
    designs = list(table.columns)
    found: list[Crossover] = []
    for i, a in enumerate(designs):
        for b in designs[i + 1 :]:
            diff = (table[a] - table[b]).dropna()
            if not lower_is_better:
                diff = -diff
            previous_size: int | None = None
            previous_sign = 0
            for size, value in zip(diff.index.astype(int), diff.to_numpy(), strict=True):
                sign = int(value > 0) - int(value < 0)
                if sign and previous_sign and sign != previous_sign and previous_size is not None:
                    found.append(
                        Crossover(
                            metric=metric,
                            design_a=a,
                            design_b=b,
                            gpus_before=previous_size,
                            gpus_after=int(size),
                            better_before=a if previous_sign < 0 else b,
                            better_after=a if sign < 0 else b,
                        )
                    )
                if sign:
                    previous_size, previous_sign = int(size), sign
    return tuple(found)
