"""Sizing in reverse: the smallest cluster per design that serves a request rate within the targets.

Notes
-----
For each design (one GPU for all, as :func:`planner.compare.compare` picks it) the sizes are the
whole servers from one server up to ``max_gpus``. A size *meets* when
:func:`~planner.performance.serving.estimate.estimate_serving` finds a layout whose TTFT and TPOT
are within the targets and whose completed requests/s reach the rate. The search jumps ahead by
the rate still missing (``size x R / rate``, or doubles the size when nothing fits yet) and, once a
size meets, walks down one server at a time until one misses, so the answer meets every target and
the size one server smaller misses at least one. What binds is what that smaller size misses:
``memory`` (the model fits no layout), ``tpot_ms`` or ``ttft_ms`` (no layout reaches the target, or
requests wait for a free slot long enough to miss the TTFT target at the rate, M/M/c),
or ``requests_per_s`` (it serves fewer requests than asked).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from planner.catalog import Catalog
from planner.compare import DEFAULT_DESIGNS, compare, default_sizes
from planner.engine import Plan
from planner.errors import InfeasibleError, InputError
from planner.i18n.message import msg
from planner.inputs.scenario import Scenario
from planner.inputs.serving import ServingRequest
from planner.performance.serving.estimate import ServingEstimate, estimate_serving

DEFAULT_MAX_GPUS = 4096
"""Largest cluster the reverse sizing tries [GPUs]."""

BINDS_MEMORY = "memory"
BINDS_RATE = "requests_per_s"


@dataclass(frozen=True)
class SizingResult:
    """The smallest cluster of one design that meets the request, or why none does."""

    design_id: str
    gpus: int | None
    """GPUs of the smallest cluster that meets every target; ``None`` when none up to the limit does."""
    estimate: ServingEstimate | None
    binds: str
    """What the next smaller size misses: ``memory``, ``tpot_ms``, ``ttft_ms`` or ``requests_per_s``."""
    smaller: str
    """How the next smaller size misses (empty when the answer is a single server)."""
    reason: str = ""
    """Why no size up to the limit meets (empty when one does)."""


@dataclass(frozen=True)
class _Trial:
    gpus: int
    estimate: ServingEstimate | None
    miss: str
    """Empty when the size meets; else what it misses."""
    binds: str


def _binds_of(error: InfeasibleError) -> str:
    text = str(error)
    field = text.split(":", 1)[0]
    return field if field in ("tpot_ms", "ttft_ms", "batch") else BINDS_MEMORY


def size_serving(
    *,
    request: ServingRequest,
    scenario: Scenario,
    catalog: Catalog,
    design_ids: Sequence[str] = DEFAULT_DESIGNS,
    max_gpus: int = DEFAULT_MAX_GPUS,
) -> tuple[SizingResult, ...]:
    """The smallest cluster per design that serves ``request.requests_per_s`` within the targets.

    Parameters
    ----------
    request : ServingRequest
        Model, targets (``ttft_ms``, ``tpot_ms`` [ms]) and the request rate to size for
        (``requests_per_s`` [1/s], required).
    scenario : Scenario
        Scenario each size's plan is built from (its ``gpus`` replaced by the size tried).
    catalog : Catalog
        Loaded catalog.
    design_ids : Sequence[str]
        Designs to size, each with its own answer [dimensionless]; the first one's server sets
        the size step.
    max_gpus : int
        Largest cluster tried [count].

    Returns
    -------
    tuple[SizingResult, ...]
        One result per design, in ``design_ids`` order: the smallest meeting size [count] with
        its estimate, what binds one server smaller, or ``gpus=None`` with the reason.

    Raises
    ------
    InputError
        No request rate is given.
    """
    if request.requests_per_s is None:
        raise InputError(msg("requests_per_s: give the request rate to size for (allowed: above 0)"))
    plans: dict[int, dict[str, Plan]] = {}

    def plan_of(gpus: int, design_id: str) -> Plan:
        if gpus not in plans:
            chosen = compare(
                scenario=scenario.with_updates(gpus=gpus), catalog=catalog, design_ids=design_ids
            )
            plans[gpus] = {p.design_id: p for p in chosen}
        return plans[gpus][design_id]

    first = plan_of(1, design_ids[0])
    sizes = default_sizes(gpus_per_node=first.gpus, low=first.gpus, high=max(first.gpus, max_gpus))
    return tuple(_size_design(request, design_id, sizes, plan_of, catalog) for design_id in design_ids)


def _size_design(request: ServingRequest, design_id: str, sizes: Sequence[int],
                 plan_of: Callable[[int, str], Plan], catalog: Catalog) -> SizingResult:  # fmt: skip
    rate = request.requests_per_s or 0.0
    unconstrained = request.model_copy(update={"requests_per_s": None})
    trials: dict[int, _Trial] = {}

    def trial(index: int) -> _Trial:
        gpus = sizes[index]
        if gpus not in trials:
            try:
                e = estimate_serving(request=unconstrained, plan=plan_of(gpus, design_id), catalog=catalog)
            except InfeasibleError as exc:
                trials[gpus] = _Trial(gpus, None, str(exc), _binds_of(exc))
            else:
                e = replace(e, request=request)  # the same estimate; its request carries the rate
                miss, binds = "", BINDS_RATE
                if e.requests_per_s < rate * (1 - 1e-9):
                    miss = msg(
                        "requests_per_s: {gpus} GPUs serve {served:.2f} requests/s of {rate:g}",
                        gpus=gpus,
                        served=e.requests_per_s,
                        rate=rate,
                    )
                elif (
                    request.ttft_ms is not None
                    and e.ttft_at_load_s(requests_per_s=rate) * 1e3 > request.ttft_ms
                ):
                    # enough capacity, but requests wait for a slot long enough to miss the target
                    miss, binds = (
                        msg(
                            "ttft_ms: {gpus} GPUs at {rate:g} requests/s wait {wait:.0f} ms for a slot: "
                            "TTFT {ttft:.0f} ms of {target:g}",
                            gpus=gpus,
                            rate=rate,
                            wait=e.queue_wait_s(requests_per_s=rate) * 1e3,
                            ttft=e.ttft_at_load_s(requests_per_s=rate) * 1e3,
                            target=request.ttft_ms,
                        ),
                        "ttft_ms",
                    )
                trials[gpus] = _Trial(gpus, e, miss, binds)
        return trials[gpus]

    i = 0
    while True:
        t = trial(i)
        if not t.miss:
            while i > 0 and not trial(i - 1).miss:
                i -= 1
            below = trial(i - 1) if i > 0 else None
            return SizingResult(
                design_id=design_id, gpus=sizes[i], estimate=trial(i).estimate,
                binds=below.binds if below else BINDS_RATE, smaller=below.miss if below else "",
            )  # fmt: skip
        if i == len(sizes) - 1:
            break
        if t.estimate is not None and t.estimate.requests_per_s > 0:
            need = t.gpus * rate / t.estimate.requests_per_s
        else:
            need = 2 * t.gpus  # nothing fits yet: double
        i = max(i + 1, next((k for k, s in enumerate(sizes) if s >= need), len(sizes) - 1))
    last = trial(len(sizes) - 1)
    reason = last.miss or msg("no size meets")
    return SizingResult(
        design_id=design_id,
        gpus=None,
        estimate=None,
        binds=last.binds,
        smaller="",
        reason=msg(
            "no cluster up to {max_gpus} GPUs meets the targets on {design}; at {max_gpus}: {reason}",
            max_gpus=sizes[-1],
            design=design_id,
            reason=reason,
        ),
    )
