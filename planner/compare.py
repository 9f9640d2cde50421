"""Designs side by side, sweeps over sizes, and crossovers between designs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from planner.catalog import Catalog
from planner.engine import Plan, plan
from planner.errors import InputError
from planner.i18n.message import msg
from planner.outputs import plan_summary_row
from planner.scenario import Scenario

DEFAULT_DESIGNS = ("rail4-npo", "rail8-npo", "ib-ndr")


def _common_gpu(scenario: Scenario, catalog: Catalog, design_ids: Sequence[str]) -> str:
    """One GPU for every design: the scenario's, else the first design's default."""
    if scenario.gpu_id:
        return scenario.gpu_id
    first = design_ids[0]
    if first not in catalog.designs:
        raise InputError(
            msg(
                "designs: unknown design id {id} (known: {known})",
                id=repr(first),
                known=", ".join(sorted(catalog.designs)),
            )
        )
    return catalog.designs[first].default_gpu_id


def compare(
    *, scenario: Scenario, catalog: Catalog, design_ids: Sequence[str] = DEFAULT_DESIGNS
) -> tuple[Plan, ...]:
    """Plan one scenario on each design, with the same GPU across designs."""
    if not design_ids:
        raise InputError(msg("designs: name at least one design"))
    gpu_id = _common_gpu(scenario, catalog, design_ids)
    return tuple(
        plan(scenario=scenario.with_updates(design_id=d, gpu_id=gpu_id, fabric=None), catalog=catalog)
        for d in design_ids
    )


def default_sizes(*, gpus_per_node: int = 8, low: int = 8, high: int = 1024) -> tuple[int, ...]:
    """Every multiple of the node size from ``low`` to ``high``.

    >>> default_sizes()[:3], len(default_sizes())
    ((8, 16, 24), 128)
    """
    first = max(gpus_per_node, -(-low // gpus_per_node) * gpus_per_node)
    return tuple(range(first, high + 1, gpus_per_node))


def sweep(
    *,
    scenario: Scenario,
    catalog: Catalog,
    design_ids: Sequence[str] = DEFAULT_DESIGNS,
    sizes: Sequence[int] | None = None,
) -> pd.DataFrame:
    """Headline figures for every design and size: one row per (design, GPUs)."""
    if not design_ids:
        raise InputError(msg("designs: name at least one design"))
    gpu_id = _common_gpu(scenario, catalog, design_ids)
    if sizes is None:
        gpu = catalog.gpus.get(gpu_id)
        per_node = catalog.servers[gpu.default_server_id].gpus_per_node if gpu else 8
        sizes = default_sizes(gpus_per_node=per_node)
    base = scenario.with_updates(gpu_id=gpu_id, fabric=None)
    rows = []
    for design_id in design_ids:
        for size in sizes:
            p = plan(scenario=base.with_updates(design_id=design_id, gpus=int(size)), catalog=catalog)
            rows.append(plan_summary_row(p))
    return pd.DataFrame(rows)


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
    """Sizes where the better of two designs on ``metric`` changes, for every pair of designs."""
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
