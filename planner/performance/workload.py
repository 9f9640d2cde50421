"""LLM training estimate on a planned cluster: layout, step time, time, energy and cost to train.

A dense or mixture-of-experts transformer is trained on every GPU of a plan with tensor (TP),
pipeline (PP), data (DP) and expert (EP) parallelism, either given or searched among the
layouts that fit in GPU memory. Communication times come from :mod:`planner.performance.collectives` on the
plan's fabric, so a design's bandwidth shows up as step time and money.

Notes
-----
Shape: ``P = L h^2 (4 + 8 E)`` (attention ``4h^2`` and ``E`` feed-forward experts of ``8h^2``
per layer, Kaplan et al.), with ``h = 128 L`` unless layers or hidden size are given; active
parameters ``P_a = P (4 + 8k) / (4 + 8E)`` for top-``k`` routing.

Per step (global batch ``B`` sequences of ``s`` tokens, ``M = ceil(B / (dp mb))`` micro-batches
of ``mb`` sequences, ``N = tp pp dp`` GPUs, peak ``F`` FLOP/s at the precision)::

    compute   = 6 P_a B s / N / (F mfu) x ceil(L/pp) pp / L            (6ND; slowest stage)
    TP        = M ceil(L/pp) x 4 (AG + RS of s mb h 2 B over tp GPUs) x (1 - tp overlap)
    EP        = M ceil(L/pp) x 4 all-to-all of s mb h k 2 / tp B over ep GPUs
    bubble    = (pp - 1) / v x (compute + TP + EP) / M                 (1F1B, v virtual stages)
    PP p2p    = 2 (pp - 1) x send/recv of s mb h 2 / tp B              (fill and drain only)
    DP        = T - min(f T, 2/3 compute)   with T = all-reduce of 2 P / (tp pp) B over dp GPUs
    step      = compute + TP + EP + bubble + PP p2p + DP

Memory per GPU (bytes): states ``P_dense / (tp pp) (4 + 12 / dp) + P_expert / (tp pp ep)
(4 + 12 ep / dp)`` (bf16 weights and gradients, fp32 master weights and Adam moments sharded
over data-parallel ranks, i.e. a distributed optimizer), plus activations ``34 s mb h L / tp``
(sequence parallelism with selective recomputation; the first stage holds ``pp`` micro-batches
of ``L / pp`` layers), or ``2 s mb h L / tp`` with full recomputation, which costs an extra
forward pass (compute x 8/6, TP collectives x 1.5). A layout fits when this is at most the usable share of HBM.

Time to train = steps x step / goodput (:mod:`planner.performance.reliability`); GPU-hours = N x time;
energy = the plan's average facility power x time; cost = GPU-hours x the plan's cost per
GPU-hour.

References
----------
J. Kaplan et al., "Scaling Laws for Neural Language Models", arXiv 2001.08361 (C = 6ND,
P = 12 L h^2). M. Shoeybi et al., "Megatron-LM", arXiv 1909.08053 (tensor parallel
communication). D. Narayanan et al., "Efficient Large-Scale Language Model Training on GPU
Clusters Using Megatron-LM", SC 2021, arXiv 2104.04473 (bubble (p-1)/m, interleaving (p-1)/(v m)).
V. Korthikanti et al., "Reducing Activation Recomputation in Large Transformer Models",
arXiv 2205.05198 (34 s b h / t bytes per layer). S. Rajbhandari et al., "ZeRO", SC 2020
(16 bytes per parameter for mixed-precision Adam). D. Lepikhin et al., "GShard", arXiv
2006.16668 (expert all-to-all). Llama 3 (arXiv 2407.21783) Table 3 (h / L = 128 for 8B and
405B) and Table 4 (38-43 % end-to-end BF16 MFU on 8-16K H100).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from planner.catalog import Catalog
from planner.catalog.schema import Gpu
from planner.compare import DEFAULT_DESIGNS, compare
from planner.engine import Plan
from planner.errors import InfeasibleError, InputError, describe_validation_error
from planner.i18n.message import msg
from planner.performance.collectives import (
    CollectiveFabric,
    collective_time,
    fabric_from_plan,
    send_recv_time_s,
)
from planner.performance.reliability import Reliability, ReliabilityParams, reliability
from planner.resolve import resolve
from planner.scenario import Scenario

Precision = Literal["bf16", "fp8"]
Recompute = Literal["selective", "full"]

HIDDEN_PER_LAYER = 128
"""Default aspect ratio h / L: Llama 3 8B (4096 / 32) and 405B (16384 / 126) (arXiv 2407.21783
Table 3)."""
FP8_SPEEDUP = 2.0
"""FP8 dense peak / BF16 dense peak: 1979 / 989 TFLOPS on H100 SXM (NVIDIA datasheet). Applied to
every GPU (an assumption for non-NVIDIA parts)."""
ACTIVATION_BYTES_PER_TOKEN_PER_HIDDEN = 34.0
"""Activation memory per layer is 34 s b h / t bytes with sequence parallelism and selective
recomputation (Korthikanti et al. 2022, eq. 5 with recomputed attention core)."""
STATE_BYTES_PER_PARAM = 4.0
"""bf16 weights (2) and bf16 gradients (2) kept on every model-parallel shard [B]."""
OPTIMIZER_BYTES_PER_PARAM = 12.0
"""fp32 master weights, Adam m and v [B], sharded across data-parallel ranks."""
BACKWARD_SHARE = 2.0 / 3.0
"""Backward pass share of training FLOPs (4ND of 6ND): the window DP reduction can hide in."""
TP_COLLECTIVES_PER_LAYER = 4
"""All-gathers (and as many reduce-scatters) per layer per micro-batch with sequence parallelism:
2 forward, 2 backward (Korthikanti et al. 2022, section 4.2.2)."""
EP_ALLTOALLS_PER_LAYER = 4
"""Dispatch and combine, forward and backward (GShard)."""
FULL_RECOMPUTE_BYTES_PER_TOKEN_PER_HIDDEN = 2.0
"""With full recomputation only each layer's bf16 input is kept: 2 s b h / t bytes per layer
(sequence parallel), Korthikanti et al. 2022, section 5."""
FULL_RECOMPUTE_COMPUTE_FACTOR = 8.0 / 6.0
"""Full recomputation runs the forward pass twice: 8ND hardware FLOPs for 6ND model FLOPs."""


class TrainingJob(BaseModel):
    """A transformer training run and, optionally, its parallel layout."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    params_b: float = Field(gt=0, le=100_000, description="Total parameters [billions].")
    tokens_b: float = Field(gt=0, le=1_000_000, description="Training tokens [billions].")
    seq_len: int = Field(default=4096, ge=128, le=1_048_576, description="Sequence length [tokens].")
    global_batch_seqs: int = Field(default=1024, ge=1, le=10_000_000, description="Global batch [sequences].")
    micro_batch_seqs: int = Field(default=1, ge=1, le=4096, description="Micro-batch [sequences].")
    precision: Precision = Field(default="bf16", description="Math precision of the matrix multiplies.")
    mfu: float = Field(
        default=0.5,
        gt=0,
        le=1,
        description="Share of dense peak the compute kernels reach, communication apart [-].",
    )
    layers: int | None = Field(
        default=None, ge=1, le=2000, description="Transformer layers; empty = derived."
    )
    hidden_size: int | None = Field(
        default=None, ge=64, le=1_000_000, description="Model width; empty = derived."
    )
    experts: int = Field(default=1, ge=1, le=4096, description="Experts per MoE layer; 1 = dense.")
    top_k: int = Field(default=1, ge=1, le=64, description="Experts each token is routed to.")
    tp: int | None = Field(default=None, ge=1, le=1024, description="Tensor-parallel GPUs; empty = searched.")
    pp: int | None = Field(default=None, ge=1, le=1024, description="Pipeline stages; empty = searched.")
    dp: int | None = Field(
        default=None, ge=1, le=1_048_576, description="Data-parallel replicas; empty = searched."
    )
    ep: int | None = Field(default=None, ge=1, le=4096, description="Expert-parallel GPUs; empty = searched.")
    virtual_stages: int = Field(default=1, ge=1, le=64, description="Interleaved stages per GPU (v) [-].")
    dp_overlap_fraction: float = Field(
        default=0.5, ge=0, le=1, description="Share of the gradient reduction hidden behind backward [-]."
    )
    tp_overlap_fraction: float = Field(
        default=0.0, ge=0, le=1, description="Share of tensor-parallel communication hidden [-]."
    )
    in_network_reduction: bool = Field(
        default=False, description="Reduce gradients in the switches (SHARP) where they support it."
    )
    recompute: Recompute = Field(
        default="selective", description="Activation recomputation: selective (attention core) or full."
    )
    usable_memory_fraction: float = Field(
        default=0.9,
        gt=0,
        le=1,
        description="Share of HBM a layout may fill (the rest: workspace, fragmentation) [-].",
    )

    @model_validator(mode="after")
    def _routing(self) -> TrainingJob:
        if self.top_k > self.experts:
            raise ValueError(
                msg(
                    "top_k ({top_k}) must not exceed experts ({experts})",
                    top_k=self.top_k,
                    experts=self.experts,
                )
            )
        if self.experts == 1 and self.ep not in (None, 1):
            raise ValueError(msg("ep > 1 needs experts > 1"))
        return self


def training_job(data: Mapping[str, Any], *, source: str = "workload") -> TrainingJob:
    """Validate a mapping into a :class:`TrainingJob`; :class:`InputError` names field and range."""
    try:
        return TrainingJob.model_validate(dict(data))
    except ValidationError as exc:
        raise InputError(
            msg("{source}: {error}", source=source, error=describe_validation_error(exc, model=TrainingJob))
        ) from None


@dataclass(frozen=True)
class ModelShape:
    """Sizes that communication and memory depend on."""

    layers: int
    hidden_size: int
    params: float
    """Total parameters [count]."""
    params_active: float
    """Parameters a token passes through [count]."""
    params_dense: float
    """Parameters outside the experts (all of a dense model's) [count]."""
    params_expert: float
    """Expert feed-forward parameters, all experts; 0 for a dense model [count]."""


def model_shape(
    *,
    params_b: float,
    experts: int = 1,
    top_k: int = 1,
    layers: int | None = None,
    hidden_size: int | None = None,
) -> ModelShape:
    """Layers and width of a transformer of ``params_b`` billion parameters.

    Notes
    -----
    ``P = L h^2 (4 + 8E)``; with ``h = 128 L``, ``L = (P / (128^2 (4 + 8E)))^(1/3)``.

    >>> s = model_shape(params_b=70)
    >>> (s.layers, s.hidden_size)  # L = (70e9 / (16384 x 12))^(1/3) = 70.9; h = (70e9 / (71 x 12))^0.5
    (71, 9064)
    >>> round(model_shape(params_b=141, experts=8, top_k=2).params_active / 1e9, 1)  # 141 x 20/68
    41.5
    """
    params = params_b * 1e9
    per_layer_h2 = 4.0 + 8.0 * experts
    if hidden_size is not None and layers is None:
        layers = max(1, round(params / (hidden_size**2 * per_layer_h2)))
    if layers is None:
        layers = max(1, round((params / (HIDDEN_PER_LAYER**2 * per_layer_h2)) ** (1.0 / 3.0)))
    if hidden_size is None:
        hidden_size = max(64, round(math.sqrt(params / (layers * per_layer_h2))))
    # a dense model's feed-forward weights are not experts: they are replicated like attention's
    dense_share = 4.0 / per_layer_h2 if experts > 1 else 1.0
    return ModelShape(
        layers=layers,
        hidden_size=hidden_size,
        params=params,
        params_active=params * (4.0 + 8.0 * top_k) / per_layer_h2,
        params_dense=params * dense_share,
        params_expert=params * (1.0 - dense_share),
    )


def training_flops(*, params_active: float, tokens: float) -> float:
    """Model FLOPs of training [FLOP]: ``6 P D`` (forward 2PD, backward 4PD).

    >>> training_flops(params_active=70e9, tokens=1.4e12)  # 6 x 70e9 x 1.4e12
    5.88e+23
    """
    return 6.0 * params_active * tokens


def pipeline_bubble_fraction(*, stages: int, micro_batches: int, virtual_stages: int = 1) -> float:
    """Idle share of ideal time in a 1F1B pipeline [-]: ``(p - 1) / (v m)``.

    >>> pipeline_bubble_fraction(stages=8, micro_batches=64)
    0.109375
    """
    return (stages - 1) / (virtual_stages * micro_batches)


def exposed_after_overlap_s(*, comm_s: float, overlap_fraction: float, window_s: float) -> float:
    """Communication left on the critical path [s]: ``T - min(f T, window)``.

    Never larger than ``T`` and never decreasing in ``T``.

    >>> exposed_after_overlap_s(comm_s=1.0, overlap_fraction=0.5, window_s=10.0)
    0.5
    >>> exposed_after_overlap_s(comm_s=1.0, overlap_fraction=0.9, window_s=0.2)
    0.8
    """
    return comm_s - min(overlap_fraction * comm_s, window_s)


@dataclass(frozen=True)
class Layout:
    """One parallel layout: ``tp x pp x dp = GPUs``; ``ep`` divides ``dp``."""

    tp: int
    pp: int
    dp: int
    ep: int
    micro_batches: int
    memory_gbyte_per_gpu: float


@dataclass(frozen=True)
class StepBreakdown:
    """Where one optimizer step's time goes [s]; communication is the exposed part."""

    compute_s: float
    tp_comm_s: float
    ep_comm_s: float
    pp_bubble_s: float
    pp_comm_s: float
    dp_comm_s: float

    @property
    def total_s(self) -> float:
        return (
            self.compute_s
            + self.tp_comm_s
            + self.ep_comm_s
            + self.pp_bubble_s
            + self.pp_comm_s
            + self.dp_comm_s
        )

    def as_dict(self) -> dict[str, float]:
        return {
            "compute_s": self.compute_s,
            "tp_comm_s": self.tp_comm_s,
            "ep_comm_s": self.ep_comm_s,
            "pp_bubble_s": self.pp_bubble_s,
            "pp_comm_s": self.pp_comm_s,
            "dp_comm_s": self.dp_comm_s,
        }


@dataclass(frozen=True)
class _StepResult:
    layout: Layout
    step: StepBreakdown
    dp_comm_total_s: float
    dp_bound_level: str
    ep_bound_level: str
    tokens_per_step: float


@dataclass(frozen=True)
class WorkloadEstimate:
    """The training estimate of one job on one plan."""

    design_id: str
    gpu_id: str
    gpus: int
    job: TrainingJob
    shape: ModelShape
    layout: Layout
    step: StepBreakdown
    dp_comm_total_s: float
    """Gradient reduction per step before overlap [s]."""
    dp_bound_level: str
    ep_bound_level: str
    layouts_fitting: int
    tokens_per_step: float
    tokens_per_s: float
    steps: float
    training_flops: float
    peak_tflops_per_gpu: float
    achieved_tflops_per_gpu: float
    time_to_train_ideal_days: float
    """Without failures [days]."""
    reliability: Reliability
    time_to_train_days: float
    """Including failures: ideal / goodput [days]."""
    gpu_hours: float
    energy_mwh: float
    usd_per_gpu_hour: float
    cost_to_train_usd: float
    notes: tuple[str, ...]

    @property
    def step_time_s(self) -> float:
        return self.step.total_s

    @property
    def goodput(self) -> float:
        return self.reliability.goodput

    @property
    def end_to_end_mfu(self) -> float:
        """Model FLOPs utilisation including communication and bubbles [-]."""
        return self.achieved_tflops_per_gpu / self.peak_tflops_per_gpu


def _divisors(n: int) -> list[int]:
    small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
    return sorted({*small, *(n // d for d in small)})


def _memory_bytes(job: TrainingJob, shape: ModelShape, tp: int, pp: int, dp: int, ep: int) -> float:
    dense = shape.params_dense / (tp * pp) * (STATE_BYTES_PER_PARAM + OPTIMIZER_BYTES_PER_PARAM / dp)
    expert = (
        shape.params_expert / (tp * pp * ep) * (STATE_BYTES_PER_PARAM + OPTIMIZER_BYTES_PER_PARAM * ep / dp)
    )
    tokens = job.seq_len * job.micro_batch_seqs
    per_token = (
        FULL_RECOMPUTE_BYTES_PER_TOKEN_PER_HIDDEN
        if job.recompute == "full"
        else ACTIVATION_BYTES_PER_TOKEN_PER_HIDDEN
    )
    activations = per_token * tokens * shape.hidden_size * shape.layers / tp
    return dense + expert + activations


def _candidates(
    job: TrainingJob, shape: ModelShape, gpus: int, domain_gpus: int
) -> list[tuple[int, int, int, int]]:
    """Every (tp, pp, dp, ep) the job allows on ``gpus`` GPUs; raises when the user's layout cannot be."""
    for name, value in (("tp", job.tp), ("pp", job.pp), ("dp", job.dp)):
        if value is not None and gpus % value:
            raise InputError(
                msg(
                    "{name}: {value} does not divide the {gpus} GPUs of the plan",
                    name=name,
                    value=value,
                    gpus=gpus,
                )
            )
    if job.tp is not None and job.pp is not None and job.dp is not None and job.tp * job.pp * job.dp != gpus:
        raise InputError(
            msg(
                "dp: tp x pp x dp = {product}, the plan has {gpus} GPUs",
                product=job.tp * job.pp * job.dp,
                gpus=gpus,
            )
        )
    if job.pp is not None and job.pp > shape.layers:
        raise InputError(
            msg(
                "pp: {pp} stages for {layers} layers (allowed: 1 to {layers})", pp=job.pp, layers=shape.layers
            )
        )
    if job.ep is not None and job.experts % job.ep:
        raise InputError(
            msg("ep: {ep} does not divide the {experts} experts", ep=job.ep, experts=job.experts)
        )
    tps = [job.tp] if job.tp is not None else [t for t in _divisors(gpus) if t <= domain_gpus]
    found: list[tuple[int, int, int, int]] = []
    for tp in tps:
        pps = [job.pp] if job.pp is not None else [p for p in _divisors(gpus // tp) if p <= shape.layers]
        for pp in pps:
            if (gpus // tp) % pp:
                continue
            dp = gpus // (tp * pp)
            if job.dp is not None and dp != job.dp:
                continue
            if dp * job.micro_batch_seqs > job.global_batch_seqs:
                continue
            if job.ep is not None:
                eps = [job.ep] if dp % job.ep == 0 else []
            else:
                eps = _divisors(math.gcd(dp, job.experts))
            found.extend((tp, pp, dp, ep) for ep in eps)
    if not found and (job.tp, job.pp, job.dp, job.ep) != (None, None, None, None):
        raise InputError(
            msg(
                "tp/pp/dp/ep: no layout with tp={tp}, pp={pp}, dp={dp}, ep={ep} on {gpus} GPUs "
                "with global_batch_seqs {global_batch} and micro_batch_seqs {micro_batch}",
                tp=job.tp,
                pp=job.pp,
                dp=job.dp,
                ep=job.ep,
                gpus=gpus,
                global_batch=job.global_batch_seqs,
                micro_batch=job.micro_batch_seqs,
            )
        )
    return found


@dataclass(frozen=True)
class _Micro:
    """What one micro-batch of one pipeline stage computes and sends."""

    micro_batches: int
    tokens_per_step: float
    stage_layers: int
    compute_s: float
    """Whole step, every micro-batch [s]."""
    activation_bytes: float
    """One micro-batch's bf16 activations at a layer boundary [B]."""
    dp_per_domain: int
    """Data-parallel peers inside one scale-up domain [count]."""


def _micro(
    job: TrainingJob,
    shape: ModelShape,
    fabric: CollectiveFabric,
    peak_flops: float,
    tp: int,
    pp: int,
    dp: int,
) -> _Micro:
    micro_batches = math.ceil(job.global_batch_seqs / (dp * job.micro_batch_seqs))
    tokens_per_step = float(micro_batches * dp * job.micro_batch_seqs * job.seq_len)
    stage_layers = math.ceil(shape.layers / pp)
    imbalance = stage_layers * pp / shape.layers
    compute_s = (
        6.0 * shape.params_active * tokens_per_step / (tp * pp * dp) / (peak_flops * job.mfu) * imbalance
    )
    if job.recompute == "full":
        compute_s *= FULL_RECOMPUTE_COMPUTE_FACTOR
    domain = fabric.domain_gpus
    return _Micro(
        micro_batches=micro_batches,
        tokens_per_step=tokens_per_step,
        stage_layers=stage_layers,
        compute_s=compute_s,
        activation_bytes=job.seq_len * job.micro_batch_seqs * shape.hidden_size * 2.0,  # bf16
        # ranks are ordered tp (fastest), then dp, then pp: dp neighbours share a domain when tp < domain
        dp_per_domain=max(1, min(dp, domain // tp)) if tp < domain else 1,
    )


def _tp_per_micro_s(job: TrainingJob, fabric: CollectiveFabric, tp: int, micro: _Micro) -> float:
    """Sequence-parallel all-gathers and reduce-scatters of one micro-batch, after overlap [s]."""
    if tp == 1:
        return 0.0
    m_tp = min(tp, fabric.domain_gpus)
    gather = collective_time(
        fabric=fabric,
        collective="all_gather",
        message_bytes=micro.activation_bytes,
        gpus=tp,
        gpus_per_domain=m_tp,
    )
    scatter = collective_time(
        fabric=fabric,
        collective="reduce_scatter",
        message_bytes=micro.activation_bytes,
        gpus=tp,
        gpus_per_domain=m_tp,
    )
    return (
        micro.stage_layers
        * TP_COLLECTIVES_PER_LAYER
        * (gather.time_s + scatter.time_s)
        * (1 - job.tp_overlap_fraction)
    )


def _ep_per_micro(
    job: TrainingJob, fabric: CollectiveFabric, tp: int, ep: int, micro: _Micro
) -> tuple[float, str]:
    """Expert all-to-alls of one micro-batch [s] and the level that bounds them."""
    if ep == 1:
        return 0.0, "none"
    alltoall = collective_time(
        fabric=fabric,
        collective="all_to_all",
        message_bytes=micro.activation_bytes * job.top_k / tp,
        gpus=ep,
        gpus_per_domain=min(ep, micro.dp_per_domain),
    )
    return micro.stage_layers * EP_ALLTOALLS_PER_LAYER * alltoall.time_s, alltoall.bound_level


def _pp_comm_s(fabric: CollectiveFabric, tp: int, pp: int, dp: int, micro: _Micro) -> float:
    """Activation sends between pipeline stages, forward and backward [s]."""
    if pp == 1:
        return 0.0
    domains_apart = max(1, math.ceil(tp * dp / fabric.domain_gpus))
    send_s = send_recv_time_s(
        fabric=fabric, message_bytes=micro.activation_bytes / tp, domains_apart=domains_apart
    )
    return 2 * (pp - 1) * send_s


def _dp_comm(
    shape: ModelShape, fabric: CollectiveFabric, tp: int, pp: int, dp: int, ep: int, micro: _Micro
) -> tuple[float, str]:
    """Gradient all-reduces of one step (dense, then expert) [s] and the level bounding the dense one."""
    if dp == 1:
        return 0.0, "none"
    dense = collective_time(
        fabric=fabric,
        collective="all_reduce",
        message_bytes=2.0 * shape.params_dense / (tp * pp),
        gpus=dp,
        gpus_per_domain=micro.dp_per_domain,
    )
    total_s = dense.time_s
    expert_dp = dp // ep
    if expert_dp > 1 and shape.params_expert > 0:
        expert = collective_time(
            fabric=fabric,
            collective="all_reduce",
            message_bytes=2.0 * shape.params_expert / (tp * pp * ep),
            gpus=expert_dp,
            gpus_per_domain=max(1, min(expert_dp, micro.dp_per_domain // ep)),
        )
        total_s += expert.time_s
    return total_s, dense.bound_level


def _step(
    job: TrainingJob,
    shape: ModelShape,
    fabric: CollectiveFabric,
    peak_flops: float,
    tp: int,
    pp: int,
    dp: int,
    ep: int,
    memory_bytes: float,
) -> _StepResult:
    micro = _micro(job, shape, fabric, peak_flops, tp, pp, dp)
    per_micro_compute_s = micro.compute_s / micro.micro_batches
    tp_per_micro_s = _tp_per_micro_s(job, fabric, tp, micro)
    ep_per_micro_s, ep_level = _ep_per_micro(job, fabric, tp, ep, micro)
    bubble_s = (pp - 1) / job.virtual_stages * (per_micro_compute_s + tp_per_micro_s + ep_per_micro_s)
    dp_total_s, dp_level = _dp_comm(shape, fabric, tp, pp, dp, ep, micro)
    # with full recomputation the backward window also holds the repeated forward (2 of 8 ND)
    backward_s = micro.compute_s * (1 - 2.0 / 8.0 if job.recompute == "full" else BACKWARD_SHARE)
    dp_exposed_s = exposed_after_overlap_s(
        comm_s=dp_total_s, overlap_fraction=job.dp_overlap_fraction, window_s=backward_s
    )
    step = StepBreakdown(
        compute_s=micro.compute_s,
        tp_comm_s=tp_per_micro_s * micro.micro_batches,
        ep_comm_s=ep_per_micro_s * micro.micro_batches,
        pp_bubble_s=bubble_s,
        pp_comm_s=_pp_comm_s(fabric, tp, pp, dp, micro),
        dp_comm_s=dp_exposed_s,
    )
    layout = Layout(tp, pp, dp, ep, micro.micro_batches, memory_bytes / 1e9)
    return _StepResult(layout, step, dp_total_s, dp_level, ep_level, micro.tokens_per_step)


def estimate_workload(
    *,
    job: TrainingJob,
    plan: Plan,
    catalog: Catalog,
    reliability_params: ReliabilityParams | None = None,
    fabric: CollectiveFabric | None = None,
) -> WorkloadEstimate:
    """Step time, tokens per second, time, energy and cost to train ``job`` on every GPU of ``plan``.

    Parameters
    ----------
    job
        The model, data and (optionally) layout.
    plan
        The cluster (:func:`planner.engine.plan`).
    catalog
        The catalog of the plan (GPU peak and memory, NIC and switch figures).
    reliability_params
        Checkpoint and failure settings; default: checkpoint sized from ``job.params_b``.
    fabric
        Override the plan's collective fabric (sensitivity studies scale its bandwidth).

    Returns
    -------
    WorkloadEstimate
        Layout, step breakdown [s], tokens/s, time to train [days], GPU-hours, energy [MWh],
        cost [USD]; see the module notes for the equations.

    Raises
    ------
    InputError
        A given layout does not divide the GPUs or the batch.
    InfeasibleError
        No layout fits in GPU memory; the message gives the smallest requirement found.
    """
    r = resolve(scenario=plan.scenario, catalog=catalog)
    shape = _job_shape(job)
    if fabric is None:
        fabric = fabric_from_plan(plan=plan, catalog=catalog, in_network_reduction=job.in_network_reduction)
    peak_flops = r.gpu.bf16_dense_tflops * 1e12 * (FP8_SPEEDUP if job.precision == "fp8" else 1.0)
    best, fitting = _best_layout(job, shape, fabric, peak_flops, gpus=plan.gpus, gpu=r.gpu)
    rel = _job_reliability(plan, job, reliability_params)
    step_s = best.step.total_s
    tokens = job.tokens_b * 1e9
    steps = tokens / best.tokens_per_step
    ideal_s = steps * step_s
    wall_s = ideal_s / rel.goodput
    wall_h = wall_s / 3600.0
    gpu_hours = plan.gpus * wall_h
    tokens_per_s = best.tokens_per_step / step_s
    return WorkloadEstimate(
        design_id=plan.design_id,
        gpu_id=plan.gpu_id,
        gpus=plan.gpus,
        job=job,
        shape=shape,
        layout=best.layout,
        step=best.step,
        dp_comm_total_s=best.dp_comm_total_s,
        dp_bound_level=best.dp_bound_level,
        ep_bound_level=best.ep_bound_level,
        layouts_fitting=fitting,
        tokens_per_step=best.tokens_per_step,
        tokens_per_s=tokens_per_s,
        steps=steps,
        training_flops=training_flops(params_active=shape.params_active, tokens=tokens),
        peak_tflops_per_gpu=peak_flops / 1e12,
        achieved_tflops_per_gpu=6.0 * shape.params_active * tokens_per_s / plan.gpus / 1e12,
        time_to_train_ideal_days=ideal_s / 86400.0,
        reliability=rel,
        time_to_train_days=wall_s / 86400.0,
        gpu_hours=gpu_hours,
        energy_mwh=plan.power.facility_avg_kw * wall_h / 1000.0,
        usd_per_gpu_hour=plan.cost.usd_per_gpu_hour,
        cost_to_train_usd=gpu_hours * plan.cost.usd_per_gpu_hour,
        notes=_workload_notes(job, fabric, best),
    )


def _job_shape(job: TrainingJob) -> ModelShape:
    return model_shape(
        params_b=job.params_b,
        experts=job.experts,
        top_k=job.top_k,
        layers=job.layers,
        hidden_size=job.hidden_size,
    )


def _job_reliability(plan: Plan, job: TrainingJob, params: ReliabilityParams | None) -> Reliability:
    """Interruptions and goodput of ``job`` on ``plan``; a job that never makes progress is refused."""
    rel = reliability(plan=plan, params=params or ReliabilityParams(params_b=job.params_b))
    if rel.goodput <= 0:
        raise InfeasibleError(
            msg(
                "goodput: failures and checkpoints leave no useful time (MTBI {mtbi_h:.2f} h, "
                "checkpoint write {write_s:.0f} s); add storage bandwidth or lower the failure rate",
                mtbi_h=rel.mtbi_hours,
                write_s=rel.checkpoint_write_s,
            )
        )
    return rel


def _best_layout(
    job: TrainingJob,
    shape: ModelShape,
    fabric: CollectiveFabric,
    peak_flops: float,
    *,
    gpus: int,
    gpu: Gpu,
) -> tuple[_StepResult, int]:
    """The fastest layout that fits in memory, and how many layouts fit."""
    usable_bytes = gpu.hbm_gbyte * 1e9 * job.usable_memory_fraction
    candidates = _candidates(job, shape, gpus, fabric.domain_gpus)
    if not candidates:
        raise InfeasibleError(
            msg(
                "global_batch_seqs: {global_batch} sequences cannot be split over {gpus} GPUs "
                "at any layout; raise the batch or lower micro_batch_seqs",
                global_batch=job.global_batch_seqs,
                gpus=gpus,
            )
        )
    memory = {c: _memory_bytes(job, shape, *c) for c in candidates}
    fitting = [c for c in candidates if memory[c] <= usable_bytes]
    if not fitting:
        least = min(candidates, key=lambda c: memory[c])
        raise InfeasibleError(
            msg(
                "memory: no layout fits in {usable_gb:.0f} GB per GPU ({gpu}); the smallest, "
                "tp={tp} pp={pp} dp={dp} ep={ep}, needs {need_gb:.0f} GB; "
                "use more GPUs, a shorter seq_len or a smaller micro_batch_seqs",
                usable_gb=usable_bytes / 1e9,
                gpu=gpu.id,
                tp=least[0],
                pp=least[1],
                dp=least[2],
                ep=least[3],
                need_gb=memory[least] / 1e9,
            )
        )
    results = [_step(job, shape, fabric, peak_flops, *c, memory[c]) for c in fitting]
    # ties: simpler layouts
    best = min(results, key=lambda x: (x.step.total_s, x.layout.pp, x.layout.tp, x.layout.ep))
    return best, len(fitting)


def _workload_notes(job: TrainingJob, fabric: CollectiveFabric, best: _StepResult) -> tuple[str, ...]:
    notes: list[str] = []
    if best.tokens_per_step != job.global_batch_seqs * job.seq_len:
        notes.append(
            msg(
                "global batch rounded up to {sequences:,.0f} sequences ({micro_batches} micro-batches x dp {dp})",
                sequences=best.tokens_per_step / job.seq_len,
                micro_batches=best.layout.micro_batches,
                dp=best.layout.dp,
            )
        )
    if best.layout.tp > fabric.domain_gpus:
        notes.append(
            msg(
                "tp {tp} spans more than one scale-up domain: TP traffic crosses the network",
                tp=best.layout.tp,
            )
        )
    return tuple(notes)


def compare_workload(
    *,
    job: TrainingJob,
    scenario: Scenario,
    catalog: Catalog,
    design_ids: Sequence[str] = DEFAULT_DESIGNS,
    reliability_params: ReliabilityParams | None = None,
) -> tuple[WorkloadEstimate, ...]:
    """The same job on each design, with the same GPU (see :func:`planner.compare.compare`)."""
    plans = compare(scenario=scenario, catalog=catalog, design_ids=design_ids)
    return tuple(
        estimate_workload(job=job, plan=p, catalog=catalog, reliability_params=reliability_params)
        for p in plans
    )


def workload_to_dict(estimate: WorkloadEstimate) -> dict[str, Any]:
    """JSON-ready view of an estimate (units in the keys)."""
    e = estimate
    return {
        "design": e.design_id,
        "gpu": e.gpu_id,
        "gpus": e.gpus,
        "step_time_s": round(e.step_time_s, 6),
        "tokens_per_s": round(e.tokens_per_s, 1),
        "time_to_train_days": round(e.time_to_train_days, 4),
        "time_to_train_ideal_days": round(e.time_to_train_ideal_days, 4),
        "cost_to_train_usd": round(e.cost_to_train_usd, 0),
        "energy_mwh": round(e.energy_mwh, 3),
        "gpu_hours": round(e.gpu_hours, 0),
        "goodput": round(e.goodput, 5),
        "usd_per_gpu_hour": round(e.usd_per_gpu_hour, 4),
        "end_to_end_mfu": round(e.end_to_end_mfu, 4),
        "achieved_tflops_per_gpu": round(e.achieved_tflops_per_gpu, 2),
        "training_flops": e.training_flops,
        "tokens_per_step": e.tokens_per_step,
        "steps": round(e.steps, 1),
        "model": {
            "params_b": e.job.params_b,
            "params_active_b": round(e.shape.params_active / 1e9, 3),
            "layers": e.shape.layers,
            "hidden_size": e.shape.hidden_size,
            "experts": e.job.experts,
            "top_k": e.job.top_k,
            "seq_len": e.job.seq_len,
            "precision": e.job.precision,
            "mfu": e.job.mfu,
            "recompute": e.job.recompute,
        },
        "layout": {
            "tp": e.layout.tp,
            "pp": e.layout.pp,
            "dp": e.layout.dp,
            "ep": e.layout.ep,
            "micro_batches": e.layout.micro_batches,
            "memory_gbyte_per_gpu": round(e.layout.memory_gbyte_per_gpu, 2),
            "layouts_fitting": e.layouts_fitting,
        },
        "step_breakdown_s": {k: round(v, 6) for k, v in e.step.as_dict().items()},
        "dp_comm_total_s": round(e.dp_comm_total_s, 6),
        "dp_bound_level": e.dp_bound_level,
        "ep_bound_level": e.ep_bound_level,
        "reliability": {
            "interruptions_per_day": round(e.reliability.interruptions_per_day, 4),
            "mtbi_hours": round(e.reliability.mtbi_hours, 3),
            "checkpoint_interval_min": round(e.reliability.checkpoint_interval_min, 3),
            "checkpoint_write_s": round(e.reliability.checkpoint_write_s, 3),
        },
        "notes": list(e.notes) + list(e.reliability.notes),
    }


SUMMARY_COLUMNS = (
    "design",
    "gpu",
    "gpus",
    "tp",
    "pp",
    "dp",
    "ep",
    "step_time_s",
    "tokens_per_s",
    "end_to_end_mfu",
    "goodput",
    "time_to_train_days",
    "gpu_hours",
    "energy_mwh",
    "cost_to_train_usd",
)


def workload_frame(estimates: Sequence[WorkloadEstimate]) -> pd.DataFrame:
    """Designs side by side: one row per estimate, unit-suffixed columns."""
    rows = [
        {
            "design": e.design_id,
            "gpu": e.gpu_id,
            "gpus": e.gpus,
            "tp": e.layout.tp,
            "pp": e.layout.pp,
            "dp": e.layout.dp,
            "ep": e.layout.ep,
            "step_time_s": e.step_time_s,
            "tokens_per_s": e.tokens_per_s,
            "end_to_end_mfu": e.end_to_end_mfu,
            "goodput": e.goodput,
            "time_to_train_days": e.time_to_train_days,
            "gpu_hours": e.gpu_hours,
            "energy_mwh": e.energy_mwh,
            "cost_to_train_usd": e.cost_to_train_usd,
        }
        for e in estimates
    ]
    return pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS))


def step_breakdown_frame(estimates: Sequence[WorkloadEstimate]) -> pd.DataFrame:
    """Tidy step breakdown for a stacked bar chart: ``design``, ``component``, ``time_s``."""
    rows = [
        {"design": e.design_id, "component": name.removesuffix("_s"), "time_s": value}
        for e in estimates
        for name, value in e.step.as_dict().items()
    ]
    return pd.DataFrame(rows, columns=["design", "component", "time_s"])
