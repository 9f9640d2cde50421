"""Layout search: TP x CP x PP x DP x EP x v, micro-batch, recomputation and ZeRO stage under memory.

Notes
-----
Pruned in this order: divisibility (``tp cp pp dp = N``, ``tp`` within a scale-up domain, ``pp <=
L``, ``ep | gcd(dp cp, E)``, ``pp v <= L`` and ``M >= pp`` for interleaving (uneven chunks cost
the slowest stage ``v ceil(L / (pp v))`` layers), ``cp`` only
when ``s / cp >= 4096`` and ``s >= 16384``); then memory (:mod:`~planner.performance.training.memory`),
taking for each recomputation the lowest ZeRO stage that fits (a higher stage is never faster);
then a lower bound (compute and bubble alone, and the MFU bound's floor) against the best step found
so far; only the rest is timed. Among steps the MFU bound makes equal, the one the model finds
fastest without the bound wins; other ties go to simpler layouts (fewer stages, narrower TP, fewer expert groups). A job that
offloads activations to host memory is searched on one pipeline stage without block recomputation
(Megatron-Bridge's CPU offloading runs with pipeline parallelism 1); the offloaded layers are the
job's input, never searched.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import get_args

from planner.errors import InputError
from planner.i18n.message import msg
from planner.inputs.training import TrainingJob
from planner.performance.training.flops import Recompute
from planner.performance.training.memory import (
    BF16_OPTIMIZER_BYTES,
    GRADIENT_BYTES_OF,
    OPTIMIZER_BYTES,
    MemoryBreakdown,
    MemoryBudget,
    Parallel,
    ZeroStage,
    activation_and_buffer_bytes,
    memory_breakdown,
    pipeline_split,
    state_bytes,
)
from planner.performance.training.pipeline import StageSplit
from planner.performance.training.schedule import StepModel, StepResult
from planner.performance.training.shape import ModelShape

MICRO_BATCHES = (1, 2, 4, 8)
"""Micro-batch sizes searched when none is given [sequences]."""
CP_MIN_SHARD_TOKENS = 4096
"""Context parallelism is searched only while each shard keeps this many tokens."""
CP_MIN_SEQ_LEN = 16384
"""Context parallelism is searched from this sequence length on (Llama 3 used none at 8K)."""
MAX_VIRTUAL_STAGES = 8
"""Interleaving depth searched at most (and at most the layers per stage, ``pp v <= L``): one layer per
chunk on 8 stages of a 64-layer model, on 16 of Llama 3 405B's 126; deeper is seldom faster (the sends
grow with v) and would double the search."""


def divisors(n: int) -> list[int]:
    """The divisors of ``n``, ascending.

    Parameters
    ----------
    n : int
        A whole number >= 1 (GPUs, layers) [count].

    Returns
    -------
    list[int]
        Every ``d`` with ``n % d == 0``, 1 and ``n`` included [count].

    Examples
    --------
    >>> divisors(12)
    [1, 2, 3, 4, 6, 12]
    """
    small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
    return sorted({*small, *(n // d for d in small)})


@dataclass(frozen=True)
class Fit:
    """A layout with the recomputation and ZeRO stage that make it fit."""

    lay: Parallel
    recompute: Recompute
    zero: ZeroStage
    parts: tuple[float, float, float, float, float]
    """Weights, gradients, optimizer, activations, buffers [B] (:class:`MemoryBreakdown`)."""


def check_layout(job: TrainingJob, shape: ModelShape, gpus: int) -> None:
    """Raise :class:`InputError` when the given parts of the layout cannot be.

    Parameters
    ----------
    job : TrainingJob
        The job; its fixed ``tp``, ``pp``, ``dp``, ``cp``, ``ep`` and recomputation are checked.
    shape : ModelShape
        The model (its layers bound ``pp``).
    gpus : int
        GPUs of the plan the job runs on [count].

    Raises
    ------
    InputError
        A given size does not divide the GPUs (or ``ep`` the experts), ``tp x pp x dp`` is not
        the GPUs, ``pp`` exceeds the layers, or block recomputation is asked of a mixture of
        experts; the message names the field.
    """
    for name, value in (("tp", job.tp), ("pp", job.pp), ("dp", job.dp), ("cp", job.cp)):
        if value is not None and gpus % value:
            raise InputError(
                msg(
                    "{name}: {value} does not divide the {gpus} GPUs of the plan",
                    name=name,
                    value=value,
                    gpus=gpus,
                )
            )
    if job.tp is not None and job.pp is not None and job.dp is not None:
        product = job.tp * (job.cp or 1) * job.pp * job.dp
        if product != gpus and job.cp in (None, 1):
            raise InputError(
                msg("dp: tp x pp x dp = {product}, the plan has {gpus} GPUs", product=product, gpus=gpus)
            )
    if job.pp is not None and job.pp > shape.layers:
        raise InputError(
            msg(
                "pp: {pp} stages for {layers} layers (allowed: 1 to {layers})", pp=job.pp, layers=shape.layers
            )
        )
    if job.recompute == "block" and job.experts > 1:
        raise InputError(msg("recompute: block recomputation is modelled for dense models only (experts 1)"))
    if job.ep is not None and job.experts % job.ep:
        raise InputError(
            msg("ep: {ep} does not divide the {experts} experts", ep=job.ep, experts=job.experts)
        )


def _cps(job: TrainingJob, gpus: int) -> list[int]:
    if job.cp is not None:
        return [job.cp]
    if job.seq_len < CP_MIN_SEQ_LEN:
        return [1]
    return [
        c for c in divisors(gpus) if c == 1 or (c & (c - 1) == 0 and job.seq_len / c >= CP_MIN_SHARD_TOKENS)
    ]


def structures(
    job: TrainingJob, shape: ModelShape, gpus: int, domain_gpus: int
) -> Iterator[tuple[int, int, int, int, int]]:
    """Every ``(tp, cp, pp, dp, ep)`` the job allows on ``gpus`` GPUs.

    Parameters
    ----------
    job : TrainingJob
        The job: its fixed sizes, global batch, experts and sequence length (module notes).
    shape : ModelShape
        The model (its layers bound ``pp``).
    gpus : int
        GPUs of the plan [count].
    domain_gpus : int
        GPUs per scale-up domain, the most ``tp`` searched [count].

    Yields
    ------
    tuple[int, int, int, int, int]
        Tensor-, context-, pipeline-, data- and expert-parallel sizes with ``tp cp pp dp =
        gpus`` [count].
    """
    tps = [job.tp] if job.tp is not None else [t for t in divisors(gpus) if t <= domain_gpus]
    for tp in tps:
        for cp in _cps(job, gpus // tp):
            rest = gpus // (tp * cp)
            if rest * tp * cp != gpus:
                continue
            pps = [job.pp] if job.pp is not None else [p for p in divisors(rest) if p <= shape.layers]
            if job.offload_activation_layers:  # offloading runs on one pipeline stage
                pps = [p for p in pps if p == 1]
            for pp in pps:
                if rest % pp:
                    continue
                dp = rest // pp
                if (job.dp is not None and dp != job.dp) or dp > job.global_batch_seqs:
                    continue
                if job.ep is not None:
                    # experts may refold the stage's tp x cp x dp GPUs (Parallel.etp)
                    etp = job.expert_tp or 1
                    eps = [job.ep] if (tp * dp * cp) % (job.ep * etp) == 0 else []
                else:
                    eps = divisors(math.gcd(dp * cp, job.experts))
                for ep in eps:
                    yield tp, cp, pp, dp, ep


def schedules(
    job: TrainingJob, shape: ModelShape, tp: int, cp: int, pp: int, dp: int, ep: int, *, exact: bool = False
) -> Iterator[Parallel]:
    """Micro-batch sizes and interleaving depths of one structure; with ``exact`` only those whose
    ``dp x micro-batch`` divides the global batch (no rounding up).

    Parameters
    ----------
    job : TrainingJob
        The job: its micro-batch size, interleaving depth, global batch [sequences].
    shape : ModelShape
        The model (``pp v`` at most its layers).
    tp, cp, pp, dp, ep : int
        The structure's parallel sizes (:func:`structures`) [count].
    exact : bool
        Only micro-batch sizes that run the global batch exactly.

    Yields
    ------
    Parallel
        One layout per micro-batch size [sequences] and interleaving depth ``v`` [count], with
        ``ceil(global batch / (dp x micro-batch))`` micro-batches per step.
    """
    mbs = [job.micro_batch_seqs] if job.micro_batch_seqs is not None else list(MICRO_BATCHES)
    for mb in mbs:
        if dp * mb > job.global_batch_seqs or (exact and job.global_batch_seqs % (dp * mb)):
            continue
        m = math.ceil(job.global_batch_seqs / (dp * mb))
        if job.virtual_stages is not None:
            vs = [job.virtual_stages]
        elif pp == 1 or m < pp:
            vs = [1]
        else:
            vs = [v for v in range(1, MAX_VIRTUAL_STAGES + 1) if pp * v <= shape.layers]
        for v in vs:
            yield Parallel(
                tp=tp, cp=cp, pp=pp, dp=dp, ep=ep, v=v, micro_batch_seqs=mb, micro_batches=m,
                expert_tp=job.expert_tp or 0,
            )  # fmt: skip


def optimizer_bytes_per_param(job: TrainingJob) -> float:
    """Optimizer-state bytes per parameter the job's framework keeps [B] (memory notes).

    Parameters
    ----------
    job : TrainingJob
        The job (its ``optimizer_states``).

    Returns
    -------
    float
        4 with bf16 Adam moments and no master copy, else 12 (fp32 master and moments) [B].
    """
    return BF16_OPTIMIZER_BYTES if job.optimizer_states == "bf16" else OPTIMIZER_BYTES


def fits(
    job: TrainingJob, shape: ModelShape, lay: Parallel, usable_bytes: float, split: StageSplit | None = None,
    worth: Callable[[Parallel], bool] | None = None,
) -> tuple[list[Fit], tuple[float, float, float, float, float]]:  # fmt: skip
    """For each recomputation, the lowest ZeRO stage that fits; and the parts of the smallest need.

    Block recomputation is tried when recomputing nothing does not fit at the lowest ZeRO stage and
    ``worth`` (the search's lower bound against its best so far) does not rule out its fewest
    recomputed layers: for each lower ZeRO stage, the fewest recomputed layers per chunk that fit
    (:func:`block_counts`).

    Parameters
    ----------
    job : TrainingJob
        The job (its recomputation, ZeRO stage and memory options).
    shape : ModelShape
        The model.
    lay : Parallel
        The layout and schedule to fit.
    usable_bytes : float
        GPU memory the job may use [B].
    split : StageSplit or None
        The layout's split of layers; ``None``: :func:`~planner.performance.training.memory.pipeline_split`.
    worth : callable or None
        Whether a block-recomputation trial could still beat the best step found; ``None``: always.

    Returns
    -------
    tuple[list[Fit], tuple[float, float, float, float, float]]
        The fits (layout, recomputation, ZeRO stage and their memory parts), and the weights,
        gradients, optimizer, activations and buffers of the least memory-hungry choice [B].
    """
    recomputes: tuple[Recompute, ...] = get_args(Recompute) if job.recompute == "auto" else (job.recompute,)
    zeros: tuple[ZeroStage, ...] = (1, 2, 3) if job.zero_stage is None else (job.zero_stage,)
    opt = optimizer_bytes_per_param(job)
    grad = GRADIENT_BYTES_OF[job.grad_reduce_precision]
    states = {zero: state_bytes(shape, lay, zero, optimizer_bytes=opt, gradient_bytes=grad) for zero in zeros}
    totals = {zero: sum(parts) for zero, parts in states.items()}
    found: list[Fit] = []
    least: tuple[float, float, float, float, float] | None = None

    def activations(rc: Recompute, trial: Parallel) -> tuple[float, float]:
        return activation_and_buffer_bytes(
            shape, trial, seq_len=job.seq_len, recompute=rc, dropout=job.dropout, split=split,
            sequence_parallel=job.sequence_parallel,
            materialized_scores=job.attention_kernel == "materialized", fp8=job.precision == "fp8",
            offload_layers=job.offload_activation_layers, distribute_saved=job.distribute_saved_activations,
        )  # fmt: skip

    for rc in recomputes:
        if rc == "block":
            continue
        act = activations(rc, lay)
        act_total = act[0] + act[1]
        for zero in zeros:
            if totals[zero] + act_total <= usable_bytes:
                found.append(Fit(lay, rc, zero, (*states[zero], *act)))
                break
        # the highest ZeRO stage holds the least
        if least is None or totals[zeros[-1]] + act_total < sum(least):
            least = (*states[zeros[-1]], *act)
    unrecomputed = next((f for f in found if f.recompute == "none"), None)
    if (
        "block" in recomputes
        and shape.experts <= 1
        and not job.offload_activation_layers
        and (unrecomputed is None or unrecomputed.zero > zeros[0])
    ):
        # per ZeRO stage below the one nothing-recomputed needs, the fewest layers that fit
        stages = [z for z in zeros if unrecomputed is None or z < unrecomputed.zero]
        counts = block_counts(job, split or pipeline_split(shape, lay, seq_len=job.seq_len))
        # no counts when every chunk holds one layer (block is then "none" or "full"); searched, the
        # fewest recomputed layers are the fastest: skipped when even they cannot beat the best
        pruned = not counts or (
            worth is not None
            and job.recompute == "auto"
            and not worth(replace(lay, recompute_layers=counts[0]))
        )
        if not pruned:
            block, act = _block_fits(
                lay, counts, stages, totals, usable_bytes, lambda t: activations("block", t)
            )
            found += [Fit(trial, "block", z, (*states[z], *need)) for trial, z, need in block]
            if least is None or totals[zeros[-1]] + act[0] + act[1] < sum(least):
                least = (*states[zeros[-1]], *act)
    assert least is not None
    return found, least


def block_counts(job: TrainingJob, split: StageSplit) -> list[int]:
    """Recomputed layers per chunk to try under block recomputation, fewest first: the given
    ``recompute_layers``, else 1 up to one fewer than the largest chunk when searched (all of them is
    full recomputation), up to all of them when block is asked for.

    Parameters
    ----------
    job : TrainingJob
        The job (its ``recompute_layers`` and ``recompute``).
    split : StageSplit
        The layout's split of layers over chunks.

    Returns
    -------
    list[int]
        Recomputed layers per chunk, ascending [count]; empty when every chunk holds one layer and
        block is searched.
    """
    if job.recompute_layers is not None:
        return [job.recompute_layers]
    largest = max(split.chunk_layers)
    return list(range(1, largest if job.recompute == "auto" else largest + 1))


def _block_fits(
    lay: Parallel, counts: list[int], stages: list[ZeroStage], totals: dict[ZeroStage, float],
    usable_bytes: float, activations: Callable[[Parallel], tuple[float, float]],
) -> tuple[list[tuple[Parallel, ZeroStage, tuple[float, float]]], tuple[float, float]]:  # fmt: skip
    """For each ZeRO stage, the fewest recomputed layers per chunk that fit, when fewer than a lower
    stage needs; and the activations with the most recomputed (the least memory).

    The activations fall as layers are recomputed (``2 s b h / t`` replaces a layer's whole set), so
    the fewest that fit is found by bisection.
    """
    memo: dict[int, tuple[Parallel, tuple[float, float]]] = {}

    def need(i: int) -> tuple[Parallel, tuple[float, float]]:
        if counts[i] not in memo:
            trial = replace(lay, recompute_layers=counts[i])
            memo[counts[i]] = (trial, activations(trial))
        return memo[counts[i]]

    found: list[tuple[Parallel, ZeroStage, tuple[float, float]]] = []
    upper = len(counts)  # a higher stage never needs more layers recomputed than a lower one
    for zero in stages:
        lo, hi = 0, upper
        while lo < hi:  # the first index whose activations fit
            mid = (lo + hi) // 2
            act = need(mid)[1]
            if totals[zero] + act[0] + act[1] <= usable_bytes:
                hi = mid
            else:
                lo = mid + 1
        if lo < upper:
            trial, act = need(lo)
            found.append((trial, zero, act))
            upper = lo
        if upper == 0:
            break
    return found, need(len(counts) - 1)[1]


@dataclass(frozen=True)
class SearchResult:
    best: StepResult
    memory: MemoryBreakdown
    fitting: int


def search(
    job: TrainingJob, shape: ModelShape, model: StepModel, *, gpus: int, budget: MemoryBudget
) -> tuple[SearchResult | None, tuple[Parallel, MemoryBreakdown] | None, bool]:
    """The fastest fitting layout, how many ``(tp, cp, pp, dp, ep)`` fit with some schedule; else the
    least memory-hungry layout; and whether any layout existed.

    Layouts that run the global batch exactly come first; only when none fits are layouts that
    round it up to whole micro-batches searched (the estimate then says so in a note).

    Parameters
    ----------
    job : TrainingJob
        The job: its fixed sizes and the options searched (module notes).
    shape : ModelShape
        The model.
    model : StepModel
        The step-time model of the job on the plan's fabric.
    gpus : int
        GPUs of the plan [count].
    budget : MemoryBudget
        What each layout may allocate per GPU [B] (the reserve beside it depends on the layout).

    Returns
    -------
    tuple[SearchResult or None, tuple[Parallel, MemoryBreakdown] or None, bool]
        The fastest fitting step with its memory [B] and the count of fitting structures (``None``
        when nothing fits); the layout needing the least memory with its breakdown [B] (``None``
        when no layout exists); whether any layout exists at all.
    """
    exact = _search(job, shape, model, gpus=gpus, budget=budget, exact=True)
    if exact[0] is not None:
        return exact
    rounded = _search(job, shape, model, gpus=gpus, budget=budget, exact=False)
    return rounded if rounded[2] or not exact[2] else exact


def _search(
    job: TrainingJob, shape: ModelShape, model: StepModel, *, gpus: int, budget: MemoryBudget, exact: bool
) -> tuple[SearchResult | None, tuple[Parallel, MemoryBreakdown] | None, bool]:
    best: tuple[tuple[float, float, int, int, int, int], StepResult, Fit] | None = None
    least: tuple[Parallel, tuple[float, float, float, float, float]] | None = None
    least_held = math.inf
    fitting = 0
    any_layout = False
    cheapest: Recompute = "none" if job.recompute == "auto" else job.recompute
    for struct in structures(job, shape, gpus, model.fabric.domain_gpus):
        counted = False
        for lay in schedules(job, shape, *struct, exact=exact):
            any_layout = True
            # a counted structure's schedules need no memory check when they cannot be faster
            if counted and best is not None and model.lower_bound_key(lay, cheapest) > best[0][:2]:
                continue
            bound = best[0][:2] if best is not None else (math.inf, math.inf)
            found, need = fits(
                job, shape, lay, budget.allocatable_bytes(lay), model.split(lay),
                worth=lambda trial: model.lower_bound_key(trial, "block") <= bound,  # noqa: B023
            )  # fmt: skip
            held = budget.needed_bytes(sum(need), lay)  # with the layout's reserve
            if least is None or held < least_held:
                least, least_held = (lay, need), held
            if found and not counted:
                fitting += 1
                counted = True
            for fit in found:
                if best is not None and model.lower_bound_key(fit.lay, fit.recompute) > best[0][:2]:
                    continue
                result = model.step(fit.lay, fit.recompute, fit.zero)
                key = (*model.result_key(result), lay.pp, lay.tp, lay.cp, lay.ep)
                if best is None or key < best[0]:
                    best = (key, result, fit)
    least_memory = (
        None if least is None else (least[0], budget.with_reserve(MemoryBreakdown(*least[1]), least[0]))
    )
    if best is None:
        return None, least_memory, any_layout
    memory = budget.with_reserve(MemoryBreakdown(*best[2].parts), best[2].lay)
    return SearchResult(best[1], memory, fitting), least_memory, any_layout


def largest_micro_batch(job: TrainingJob, shape: ModelShape, result: StepResult, usable_bytes: float) -> int:
    """The largest micro-batch [sequences] that fits with the chosen layout, recomputation and ZeRO stage.

    Parameters
    ----------
    job : TrainingJob
        The job (global batch and memory options).
    shape : ModelShape
        The model.
    result : StepResult
        The chosen step: its layout, recomputation and ZeRO stage are kept.
    usable_bytes : float
        GPU memory the job may use [B].

    Returns
    -------
    int
        The chosen micro-batch doubled while ``dp x micro-batch`` stays within the global batch and
        the memory fits [sequences].
    """
    lay = result.lay
    largest = mb = lay.micro_batch_seqs
    while lay.dp * mb * 2 <= job.global_batch_seqs:
        mb *= 2
        m = math.ceil(job.global_batch_seqs / (lay.dp * mb))
        trial = replace(lay, micro_batch_seqs=mb, micro_batches=m)
        mem = memory_breakdown(
            shape,
            trial,
            seq_len=job.seq_len,
            recompute=result.recompute,
            zero=result.zero,
            dropout=job.dropout,
            sequence_parallel=job.sequence_parallel,
            materialized_scores=job.attention_kernel == "materialized",
            fp8=job.precision == "fp8",
            offload_layers=job.offload_activation_layers,
            distribute_saved=job.distribute_saved_activations,
            optimizer_bytes=optimizer_bytes_per_param(job),
            gradient_bytes=GRADIENT_BYTES_OF[job.grad_reduce_precision],
        )
        if mem.total_bytes > usable_bytes:
            break
        largest = mb
    return largest
