"""Collectives on a planned cluster: the plan's fabric, busbw curves and side-by-side frames.

The model itself (levels, algorithms, alpha-beta costs, the choice of algorithm by least time)
lives in :mod:`planner.fabric.collectives`, below the engine, so that ``Plan.bandwidth`` and
everything here are the same numbers; this module re-exports its names for the performance
pages and adds what needs a :class:`~planner.engine.Plan`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from planner.catalog import Catalog
from planner.engine import Plan
from planner.fabric.collectives import (
    COLLECTIVES,
    LEVEL_CORE,
    LEVEL_LEAF,
    LEVEL_NONE,
    LEVEL_SCALE_UP,
    LEVEL_SPINE,
    MESSAGE_SIZES_BYTES,
    Algorithm,
    Collective,
    CollectiveFabric,
    CollectiveTime,
    FabricLevel,
    Regime,
    algorithms_for,
    busbw_factor,
    collective_time,
    send_recv_time_s,
    two_level_fabric,
    with_options,
)
from planner.units import GIB

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "COLLECTIVES",
    "CURVE_COLUMNS",
    "LEVEL_CORE",
    "LEVEL_LEAF",
    "LEVEL_NONE",
    "LEVEL_SCALE_UP",
    "LEVEL_SPINE",
    "Algorithm",
    "Collective",
    "CollectiveFabric",
    "CollectiveTime",
    "FabricLevel",
    "Regime",
    "algorithms_for",
    "busbw_curve",
    "busbw_factor",
    "busbw_vs_gpus",
    "collective_time",
    "collectives_frame",
    "default_gpu_counts",
    "fabric_from_plan",
    "send_recv_time_s",
    "two_level_fabric",
]


def fabric_from_plan(
    *, plan: Plan, catalog: Catalog, in_network_reduction: bool = False, nvls: bool | None = None
) -> CollectiveFabric:
    """The levels of a planned cluster, as the engine built them for ``plan.bandwidth``.

    Parameters
    ----------
    plan
        A plan from :func:`planner.engine.plan`.
    catalog
        The catalog the plan was made with. Unused since the plan carries its fabric
        (:func:`planner.fabric.collectives.build_fabric`); kept so callers need not change.
    in_network_reduction
        Use in-network reduction (SHARP) for all-reduce where every network switch supports it;
        where one does not, the fabric carries a note saying so.
    nvls
        NVLink SHARP inside the scale-up domain: ``None`` where the GPU supports it (NCCL's
        default), ``True`` requested (a note where unsupported), ``False`` off.
    """
    del catalog  # the plan's fabric was built with it
    return with_options(plan.bandwidth.fabric, in_network_reduction=in_network_reduction, nvls=nvls)


CURVE_COLUMNS = (
    "design",
    "collective",
    "algorithm",
    "gpus",
    "message_bytes",
    "time_us",
    "algbw_gbyte_per_s",
    "busbw_gbyte_per_s",
    "bound_level",
    "regime",
)


def _row(fabric: CollectiveFabric, t: CollectiveTime) -> dict[str, object]:
    return {
        "design": fabric.label,
        "collective": t.collective,
        "algorithm": t.algorithm,
        "gpus": t.gpus,
        "message_bytes": t.message_bytes,
        "time_us": t.time_us,
        "algbw_gbyte_per_s": t.algbw_gbyte_per_s,
        "busbw_gbyte_per_s": t.busbw_gbyte_per_s,
        "bound_level": t.bound_level,
        "regime": t.regime,
    }


def busbw_curve(
    *,
    fabric: CollectiveFabric,
    collective: Collective,
    algorithm: Algorithm = "auto",
    gpus: int | None = None,
    gpus_per_domain: int | None = None,
    sizes_bytes: Sequence[float] = MESSAGE_SIZES_BYTES,
) -> pd.DataFrame:
    """Time and busbw against message size (default 1 KiB ... 8 GiB): one row per size."""
    import pandas as pd

    rows = [
        _row(
            fabric,
            collective_time(
                fabric=fabric,
                collective=collective,
                message_bytes=size,
                gpus=gpus,
                gpus_per_domain=gpus_per_domain,
                algorithm=algorithm,
            ),
        )
        for size in sizes_bytes
    ]
    return pd.DataFrame(rows, columns=list(CURVE_COLUMNS))


def default_gpu_counts(*, gpus: int) -> tuple[int, ...]:
    """Powers of two from 2 up to ``gpus``, and ``gpus`` itself.

    >>> default_gpu_counts(gpus=24)
    (2, 4, 8, 16, 24)
    """
    counts = [2**i for i in range(1, gpus.bit_length()) if 2**i < gpus]
    return (*counts, gpus) if gpus > 1 else (1,)


def busbw_vs_gpus(
    *,
    fabric: CollectiveFabric,
    collective: Collective,
    message_bytes: float = GIB,
    algorithm: Algorithm = "auto",
    gpu_counts: Sequence[int] | None = None,
) -> pd.DataFrame:
    """Time and busbw of contiguous groups of growing size on one fabric: one row per count."""
    import pandas as pd

    counts = default_gpu_counts(gpus=fabric.gpus) if gpu_counts is None else tuple(gpu_counts)
    rows = [
        _row(
            fabric,
            collective_time(
                fabric=fabric, collective=collective, message_bytes=message_bytes, gpus=n, algorithm=algorithm
            ),
        )
        for n in counts
    ]
    return pd.DataFrame(rows, columns=list(CURVE_COLUMNS))


def collectives_frame(
    *,
    plans: Sequence[Plan],
    catalog: Catalog,
    collectives: Sequence[Collective] = ("all_reduce", "all_to_all"),
    sizes_bytes: Sequence[float] = MESSAGE_SIZES_BYTES,
    in_network_reduction: bool = False,
) -> pd.DataFrame:
    """busbw against message size for several designs and collectives, side by side (tidy)."""
    import pandas as pd

    frames = []
    for p in plans:
        fabric = fabric_from_plan(plan=p, catalog=catalog, in_network_reduction=in_network_reduction)
        for collective in collectives:
            frames.append(busbw_curve(fabric=fabric, collective=collective, sizes_bytes=sizes_bytes))
    if not frames:
        return pd.DataFrame(columns=list(CURVE_COLUMNS))
    return pd.concat(frames, ignore_index=True)
