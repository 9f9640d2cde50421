"""LLM training estimate on a planned cluster: layout, step time, time, energy and cost to train.

A dense or mixture-of-experts transformer is trained on every GPU of a plan with tensor (TP),
context (CP), pipeline (PP), data (DP) and expert (EP) parallelism, either given or searched among
the layouts that fit in GPU memory, together with the interleaving depth ``v``, the micro-batch,
activation recomputation (none, selective, full) and the ZeRO stage. Communication times come
from :mod:`planner.performance.collectives` on the plan's fabric, so a design's bandwidth shows
up as step time and money.

The model lives in :mod:`planner.performance.training`, one module per concept: ``shape``
(layers, heads, GQA, FFN, vocabulary, experts), ``flops`` (attention with its ``s^2`` term and
logits; model vs hardware FLOPs), ``efficiency`` (kernel efficiency against the per-GPU GEMM
width, coefficients in ``data/training.yaml``), ``memory`` (Korthikanti et al. activations per
stage, ZeRO 0-3), ``schedule`` (step time: TP, CP, EP, 1F1B / interleaved bubble, p2p, DP) and
``search``. This module joins them to a plan: reliability, time, energy and cost.

Notes
-----
Time to train = steps x step / goodput (:mod:`planner.performance.reliability`); GPU-hours = N x
time; energy = the plan's average facility power x time; cost = GPU-hours x the plan's cost per
GPU-hour. ``achieved_tflops_per_gpu`` counts model FLOPs (MFU); ``achieved_hardware_tflops_per_gpu``
adds what recomputation computes again (HFU), as Megatron-LM's papers count.

References
----------
J. Kaplan et al., arXiv 2001.08361 (C = 6ND). M. Shoeybi et al., arXiv 1909.08053. D. Narayanan
et al., SC 2021, arXiv 2104.04473 (FLOPs eq. 3, bubble, interleaving). V. Korthikanti et al.,
arXiv 2205.05198 (activation memory, selective recomputation, MFU/HFU). S. Rajbhandari et al.,
"ZeRO", SC 2020. D. Lepikhin et al., arXiv 2006.16668. Llama 3, arXiv 2407.21783 (Tables 3-4).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from planner.catalog import Catalog
from planner.catalog.schema import (
    GB_BYTES,
    PCIE_GEN5_X16_GBYTE_PER_S,
    device_memory_bytes,
    host_link_byte_per_s,
)
from planner.compare import DEFAULT_DESIGNS, compare
from planner.engine import Plan
from planner.errors import InfeasibleError, InputError
from planner.fabric.collectives import part_of_fabric
from planner.i18n.message import msg
from planner.inputs.reliability import ReliabilityParams
from planner.inputs.scenario import Scenario
from planner.inputs.training import Precision, TrainingJob, training_job
from planner.performance.collectives import CollectiveFabric, fabric_from_plan
from planner.performance.reliability import Reliability, reliability
from planner.performance.training.efficiency import (
    FP8_SPEEDUP,
    EfficiencyCoefficients,
    efficiency_coefficients,
    efficiency_precision,
    kernel_efficiency_bound,
    published_ceiling,
)
from planner.performance.training.flops import (
    Recompute,
    model_flops_per_token,
    recompute_flops_per_layer_token,
    token_flops,
    training_flops,
)
from planner.performance.training.memory import (
    NO_RESERVE,
    MemoryBreakdown,
    MemoryReserve,
    Parallel,
    ZeroStage,
    memory_budget,
    memory_reserve,
    pipeline_split,
)
from planner.performance.training.moe import MoeCoefficients, moe_coefficients
from planner.performance.training.schedule import (
    StepBreakdown,
    StepModel,
    StepResult,
    exposed_after_overlap_s,
    pipeline_bubble_fraction,
)
from planner.performance.training.search import check_layout, largest_micro_batch, search
from planner.performance.training.shape import HIDDEN_PER_LAYER, ModelShape, model_shape
from planner.resolve import resolve

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "FP8_SPEEDUP",
    "FULL_RECOMPUTE_COMPUTE_FACTOR",
    "HIDDEN_PER_LAYER",
    "SUMMARY_COLUMNS",
    "Layout",
    "ModelShape",
    "Precision",
    "StepBreakdown",
    "TrainingJob",
    "WorkloadEstimate",
    "compare_workload",
    "estimate_workload",
    "exposed_after_overlap_s",
    "model_shape",
    "pipeline_bubble_fraction",
    "step_breakdown_frame",
    "training_flops",
    "training_job",
    "workload_frame",
    "workload_rows",
    "workload_to_dict",
]

FULL_RECOMPUTE_COMPUTE_FACTOR = 8.0 / 6.0
"""Hardware / model FLOPs of a layer with full recomputation (4 passes for 3), attention and
logits aside; the estimate itself reports both (``achieved_hardware_tflops_per_gpu``)."""


@dataclass(frozen=True)
class Layout:
    """One parallel layout: ``tp x cp x pp x dp = GPUs``; ``ep`` divides ``dp x cp``."""

    tp: int
    pp: int
    dp: int
    ep: int
    micro_batches: int
    memory_gbyte_per_gpu: float
    cp: int = 1
    virtual_stages: int = 1
    micro_batch_seqs: int = 1
    recompute: Recompute = "selective"
    zero_stage: ZeroStage = 1
    max_micro_batch_seqs: int = 1
    """The largest micro-batch that fits with this layout [sequences]."""
    recompute_layers: int = 0
    """Layers of each pipeline chunk recomputed in full when ``recompute`` is ``block`` [count]."""


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
    """Model FLOPs of the whole run [FLOP]."""
    peak_tflops_per_gpu: float
    achieved_tflops_per_gpu: float
    """Model FLOPs per second per GPU [TFLOP/s]."""
    achieved_hardware_tflops_per_gpu: float
    """Hardware FLOPs (recomputation counted) per second per GPU [TFLOP/s]."""
    compute_efficiency: float
    """Share of peak the kernels reach, communication apart [-]."""
    memory: MemoryBreakdown
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

    @property
    def end_to_end_hfu(self) -> float:
        """Hardware FLOPs utilisation (recomputation counted) [-]."""
        return self.achieved_hardware_tflops_per_gpu / self.peak_tflops_per_gpu

    def layout_inputs(self) -> dict[str, Any]:
        """The job fields that pin this estimate's layout (for re-running it with other inputs)."""
        lay = self.layout
        return {
            "tp": lay.tp, "cp": lay.cp, "pp": lay.pp, "dp": lay.dp, "ep": lay.ep,
            "virtual_stages": lay.virtual_stages, "micro_batch_seqs": lay.micro_batch_seqs,
            "recompute": lay.recompute, "zero_stage": lay.zero_stage,
            "recompute_layers": lay.recompute_layers if lay.recompute == "block" else None,
        }  # fmt: skip


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
        Layout, memory breakdown, step breakdown [s], tokens/s, MFU and HFU, time to train [days],
        GPU-hours, energy [MWh], cost [USD]; see :mod:`planner.performance.training`.

    Raises
    ------
    InputError
        A given layout does not divide the GPUs or the batch.
    InfeasibleError
        No layout fits in GPU memory; the message gives the smallest requirement found.
    """
    r = resolve(scenario=plan.scenario, catalog=catalog)
    if fabric is None:
        fabric = fabric_from_plan(plan=plan, catalog=catalog, in_network_reduction=job.in_network_reduction)
    gpus = job_gpus(job, plan)
    fabric = part_of_fabric(fabric, gpus=gpus)
    peak_flops = r.gpu.bf16_dense_tflops * 1e12 * (FP8_SPEEDUP if job.precision == "fp8" else 1.0)
    best, memory, fitting, max_mb = best_layout(
        job, fabric, peak_flops=peak_flops, gpus=gpus, memory_bytes=device_memory_bytes(r.gpu),
        hbm_gbyte_per_s=r.gpu.hbm_bandwidth_gbyte_per_s,
        coefficients=efficiency_coefficients(
            catalog, gpu_id=r.gpu.id, precision=efficiency_precision(precision=job.precision, fp8_recipe=job.fp8_recipe),
            release=job.software_release,
        ),
        gpu_id=r.gpu.id, moe=moe_coefficients(catalog, gpu_id=r.gpu.id, framework=job.moe_framework) if job.experts > 1 else None,
        host_byte_per_s=host_link_byte_per_s(r.gpu), kernel_efficiency_bound=_bound(catalog, gpu_id=r.gpu.id, precision=job.precision),
        reserve=memory_reserve(catalog),
    )  # fmt: skip
    rel = _job_reliability(plan, job, reliability_params, catalog)
    shape = job_shape(job)
    lay = best.lay
    tokens_per_step = float(lay.micro_batches * lay.dp * lay.micro_batch_seqs * job.seq_len)
    step_s = best.step.total_s
    tokens = job.tokens_b * 1e9
    steps = tokens / tokens_per_step
    wall_h = steps * step_s / rel.goodput / 3600.0
    tokens_per_s = tokens_per_step / step_s
    per_token, hardware_per_token = _flops_per_token(shape, job.seq_len, best.recompute, best.lay)
    mfu = per_token * tokens_per_s / gpus / peak_flops
    guard = _plausibility_notes(catalog, gpu_id=r.gpu.id, precision=job.precision, mfu=mfu)
    guard += _bound_notes(catalog, gpu_id=r.gpu.id, precision=job.precision, best=best)
    return WorkloadEstimate(
        design_id=plan.design_id, gpu_id=plan.gpu_id, gpus=gpus, job=job, shape=shape,
        layout=_layout(best, memory, max_mb), step=best.step, dp_comm_total_s=best.dp_comm_total_s,
        dp_bound_level=best.dp_bound_level, ep_bound_level=best.ep_bound_level, layouts_fitting=fitting,
        tokens_per_step=tokens_per_step, tokens_per_s=tokens_per_s, steps=steps,
        training_flops=per_token * tokens, peak_tflops_per_gpu=peak_flops / 1e12,
        achieved_tflops_per_gpu=per_token * tokens_per_s / gpus / 1e12,
        achieved_hardware_tflops_per_gpu=hardware_per_token * tokens_per_s / gpus / 1e12,
        compute_efficiency=best.efficiency, memory=memory,
        time_to_train_ideal_days=steps * step_s / 86400.0, reliability=rel,
        time_to_train_days=wall_h / 24.0, gpu_hours=gpus * wall_h,
        energy_mwh=plan.power.facility_avg_kw * gpus / plan.gpus * wall_h / 1000.0,
        usd_per_gpu_hour=plan.cost.usd_per_gpu_hour,
        cost_to_train_usd=gpus * wall_h * plan.cost.usd_per_gpu_hour,
        notes=(*_part_notes(gpus, plan, fabric), *_workload_notes(job, fabric, best, tokens_per_step), *guard),
    )  # fmt: skip


def job_gpus(job: TrainingJob, plan: Plan) -> int:
    """The GPUs a job runs on [count]: ``job.job_gpus``, else the GPUs the scenario asked for (a plan
    rounds up to whole servers or scale-up domains; the job does not grow with it), spread over the
    domains by :func:`planner.fabric.collectives.part_of_fabric`.

    Raises
    ------
    InputError
        The job asks for more GPUs than the plan has.
    """
    gpus = job.job_gpus if job.job_gpus is not None else min(plan.gpus_requested, plan.gpus)
    if gpus > plan.gpus:
        raise InputError(
            msg(
                "job_gpus: the job asks for {job} GPUs, the plan has {plan} (allowed: 1 to {plan})",
                job=gpus,
                plan=plan.gpus,
            )
        )
    return gpus


def _plausibility_notes(catalog: Catalog, *, gpu_id: str, precision: str, mfu: float) -> tuple[str, ...]:
    """A note when the estimate's end-to-end MFU is above the best published one for the GPU and
    precision (:func:`~planner.performance.training.efficiency.published_ceiling`)."""
    ceiling = published_ceiling(catalog, gpu_id=gpu_id, precision=precision)
    if ceiling is None or mfu <= ceiling.mfu:
        return ()
    values = {
        "mfu": mfu,
        "best": ceiling.mfu,
        "gpu": gpu_id,
        "precision": precision,
        "figure": ceiling.figure,
    }
    if ceiling.assumption:
        return (
            msg(
                "end-to-end MFU {mfu:.0%} is above the {best:.0%} assumed as the best for {gpu} {precision} "
                "({figure}): treat this estimate as optimistic",
                **values,
            ),
        )
    return (
        msg(
            "end-to-end MFU {mfu:.0%} is above the best published {best:.0%} for {gpu} {precision} "
            "({figure}): treat this estimate as optimistic",
            **values,
        ),
    )


def _part_notes(gpus: int, plan: Plan, fabric: CollectiveFabric) -> tuple[str, ...]:
    if gpus == plan.gpus:
        return ()
    return (
        msg(
            "the job runs on {gpus} of the plan's {plan} GPUs ({per_domain} in each of {domains} scale-up "
            "domains); time, energy and cost are the job's share",
            gpus=gpus,
            plan=plan.gpus,
            per_domain=fabric.domain_gpus,
            domains=fabric.domains,
        ),
    )


def _flops_per_token(
    shape: ModelShape, seq_len: int, recompute: Recompute, lay: Parallel
) -> tuple[float, float]:
    """Model and hardware FLOPs per token [FLOP]; block recomputation repeats the forward of its
    recomputed layers."""
    per_token = model_flops_per_token(shape, seq_len=seq_len)
    flops = token_flops(shape, seq_len=seq_len)
    redone = shape.layers * recompute_flops_per_layer_token(flops, recompute)
    if recompute == "block":
        split = pipeline_split(shape, lay, seq_len=seq_len)
        redone = sum(split.block_parts(lay.recompute_layers)[1].chunk_layers) * flops.layer
    return per_token, per_token + redone


def _layout(best: StepResult, memory: MemoryBreakdown, max_mb: int) -> Layout:
    lay = best.lay
    return Layout(
        tp=lay.tp, pp=lay.pp, dp=lay.dp, ep=lay.ep, micro_batches=lay.micro_batches,
        memory_gbyte_per_gpu=memory.total_bytes / 1e9, cp=lay.cp, virtual_stages=lay.v,
        micro_batch_seqs=lay.micro_batch_seqs, recompute=best.recompute, zero_stage=best.zero,
        max_micro_batch_seqs=max_mb, recompute_layers=lay.recompute_layers,
    )  # fmt: skip


def job_shape(job: TrainingJob) -> ModelShape:
    """The model shape a job describes (derived where it gives only the parameter count)."""
    return model_shape(
        params_b=job.params_b, experts=job.experts, top_k=job.top_k, layers=job.layers,
        hidden_size=job.hidden_size, heads=job.heads, kv_heads=job.kv_heads, ffn_hidden=job.ffn_hidden,
        gated_mlp=job.gated_mlp, vocab=job.vocab, shared_experts=job.shared_experts, head_dim=job.head_dim,
        dense_layers=job.dense_layers, dense_ffn_hidden=job.dense_ffn_hidden, q_lora_rank=job.q_lora_rank,
        kv_lora_rank=job.kv_lora_rank, qk_rope_head_dim=job.qk_rope_head_dim, v_head_dim=job.v_head_dim,
        mtp_layers=job.mtp_layers,
    )  # fmt: skip


def _bound(catalog: Catalog, *, gpu_id: str, precision: str) -> float | None:
    """The catalog's kernel-efficiency bound for the GPU and precision [-]
    (:func:`~planner.performance.training.efficiency.kernel_efficiency_bound`)."""
    bound = kernel_efficiency_bound(catalog, gpu_id=gpu_id, precision=precision)
    return None if bound is None else bound.mfu


def _bound_notes(catalog: Catalog, *, gpu_id: str, precision: str, best: StepResult) -> tuple[str, ...]:
    """A note when the kernel-efficiency bound slowed the estimate's compute."""
    bound = kernel_efficiency_bound(catalog, gpu_id=gpu_id, precision=precision)
    if bound is None or best.bounded_s <= 0.0:
        return ()
    return (
        msg(
            "compute slowed by {added:.2f} s per step to a kernel efficiency of {bound:.1%} for {gpu} {precision}, "
            "the {figure}: the kernel-efficiency curve is not trusted above the best published run",
            added=best.bounded_s,
            bound=bound.mfu,
            gpu=gpu_id,
            precision=precision,
            figure=bound.figure,
        ),
    )


def best_layout(
    job: TrainingJob, fabric: CollectiveFabric, *, peak_flops: float, gpus: int, memory_bytes: float,
    hbm_gbyte_per_s: float, coefficients: EfficiencyCoefficients, gpu_id: str = "",
    moe: MoeCoefficients | None = None, host_byte_per_s: float = PCIE_GEN5_X16_GBYTE_PER_S * GB_BYTES,
    kernel_efficiency_bound: float | None = None, reserve: MemoryReserve = NO_RESERVE,
) -> tuple[StepResult, MemoryBreakdown, int, int]:  # fmt: skip
    """The fastest layout that fits, its memory, how many fit, and the largest micro-batch that fits.

    Takes the GPU as numbers (peak FLOP/s at the job's precision; ``memory_bytes``, the device
    memory the driver reports [B], :func:`planner.catalog.schema.device_memory_bytes` for a catalog
    GPU) so that GPUs without a catalog record can be studied. A layout may fill
    ``memory_bytes`` less ``reserve`` (:func:`~planner.performance.training.memory.memory_budget`), or
    ``memory_bytes × job.usable_memory_fraction`` when the job gives that share; ``kernel_efficiency_bound``
    is the catalog's bound on the layers' kernel efficiency
    (:func:`~planner.performance.training.efficiency.kernel_efficiency_bound`).
    """
    shape = job_shape(job)
    check_layout(job, shape, gpus)
    model = StepModel(
        job=job, shape=shape, fabric=fabric, peak_flops=peak_flops, efficiency=job.mfu,
        coefficients=coefficients, hbm_byte_per_s=hbm_gbyte_per_s * 1e9, moe_coefficients=moe,
        host_byte_per_s=host_byte_per_s, kernel_efficiency_bound=kernel_efficiency_bound,
    )  # fmt: skip
    budget = memory_budget(
        device_bytes=memory_bytes, usable_fraction=job.usable_memory_fraction, reserve=reserve,
        domain_gpus=fabric.domain_gpus, nccl_all_to_all=job.moe_dispatcher == "alltoall",
    )  # fmt: skip
    found, least, any_layout = search(job, shape, model, gpus=gpus, budget=budget)
    if (not any_layout or least is None) and (job.tp, job.cp, job.pp, job.dp, job.ep) != (None,) * 5:
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
    if not any_layout or least is None:
        raise InfeasibleError(
            msg(
                "global_batch_seqs: {global_batch} sequences cannot be split over {gpus} GPUs "
                "at any layout; raise the batch or lower micro_batch_seqs",
                global_batch=job.global_batch_seqs,
                gpus=gpus,
            )
        )
    if found is None:
        lay, need = least
        raise InfeasibleError(
            msg(
                "memory: no layout fits in {usable_gb:.0f} GB per GPU ({gpu}); the smallest, "
                "tp={tp} pp={pp} dp={dp} ep={ep}, needs {need_gb:.0f} GB; "
                "use more GPUs, a shorter seq_len or a smaller micro_batch_seqs",
                usable_gb=budget.usable_bytes / 1e9,
                gpu=gpu_id,
                tp=lay.tp,
                pp=lay.pp,
                dp=lay.dp,
                ep=lay.ep,
                need_gb=need.total_bytes / 1e9,
            )
        )
    max_mb = largest_micro_batch(job, shape, found.best, budget.allocatable_bytes(found.best.lay))
    return found.best, found.memory, found.fitting, max_mb


def _job_reliability(
    plan: Plan, job: TrainingJob, params: ReliabilityParams | None, catalog: Catalog
) -> Reliability:
    """Interruptions and goodput of ``job`` on ``plan``; a job that never makes progress is refused."""
    rel = reliability(plan=plan, params=params or ReliabilityParams(params_b=job.params_b), catalog=catalog)
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


def _workload_notes(
    job: TrainingJob, fabric: CollectiveFabric, best: StepResult, tokens_per_step: float
) -> tuple[str, ...]:
    notes: list[str] = list(fabric.notes)  # requested SHARP/NVLS the hardware lacks
    if tokens_per_step != job.global_batch_seqs * job.seq_len:
        notes.append(
            msg(
                "global batch rounded up to {sequences:,.0f} sequences ({micro_batches} micro-batches x dp {dp})",
                sequences=tokens_per_step / job.seq_len,
                micro_batches=best.lay.micro_batches,
                dp=best.lay.dp,
            )
        )
    if best.lay.tp > fabric.domain_gpus:
        notes.append(
            msg("tp {tp} spans more than one scale-up domain: TP traffic crosses the network", tp=best.lay.tp)
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
    """The same job on each design, with the same GPU (see :func:`planner.compare.compare`).

    Parameters
    ----------
    job : TrainingJob
        The training job: model, tokens, batch, precision and optional layout.
    scenario : Scenario
        The cluster scenario each design is planned for.
    catalog : Catalog
        Loaded catalog.
    design_ids : Sequence[str]
        Designs to compare [dimensionless].
    reliability_params : ReliabilityParams or None
        Failure-model parameters; ``None`` as in :func:`estimate_workload`.

    Returns
    -------
    tuple[WorkloadEstimate, ...]
        One estimate per design, in the order :func:`planner.compare.compare` returns the plans
        (step time [s], tokens/s, time to train [days], cost to train [USD]).

    Raises
    ------
    InputError, InfeasibleError
        As :func:`estimate_workload`, on any design.
    """
    plans = compare(scenario=scenario, catalog=catalog, design_ids=design_ids)
    return tuple(
        estimate_workload(job=job, plan=p, catalog=catalog, reliability_params=reliability_params)
        for p in plans
    )


def workload_to_dict(estimate: WorkloadEstimate) -> dict[str, Any]:
    """JSON-ready view of an estimate (units in the keys).

    Parameters
    ----------
    estimate : WorkloadEstimate
        One design's training estimate.

    Returns
    -------
    dict[str, Any]
        Key -> rounded value, the unit in each key: step time [s], tokens/s [tokens/s], time to
        train [days], cost [USD], energy [MWh], GPU-hours [GPU-h], cost per GPU-hour
        [USD/GPU-h], achieved TFLOPS per GPU [TFLOP/s], training FLOPs [FLOP], goodput and
        MFU/HFU [fraction]; the model and layout (memory per GPU [GB]), the memory breakdown
        [GB], the step breakdown [s], reliability (interruptions per day [1/day], MTBI [h],
        checkpoint interval [min], checkpoint write [s]) and the notes [dimensionless].
    """
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
        "end_to_end_hfu": round(e.end_to_end_hfu, 4),
        "achieved_tflops_per_gpu": round(e.achieved_tflops_per_gpu, 2),
        "achieved_hardware_tflops_per_gpu": round(e.achieved_hardware_tflops_per_gpu, 2),
        "compute_efficiency": round(e.compute_efficiency, 4),
        "training_flops": e.training_flops,
        "tokens_per_step": e.tokens_per_step,
        "steps": round(e.steps, 1),
        "model": {
            "params_b": e.job.params_b,
            "params_active_b": round(e.shape.params_active / 1e9, 3),
            "layers": e.shape.layers,
            "hidden_size": e.shape.hidden_size,
            "heads": e.shape.heads,
            "kv_heads": e.shape.kv_heads,
            "ffn_hidden": e.shape.ffn_hidden,
            "gated_mlp": e.shape.gated_mlp,
            "vocab": e.shape.vocab,
            "experts": e.job.experts,
            "top_k": e.job.top_k,
            "shared_experts": e.job.shared_experts,
            "seq_len": e.job.seq_len,
            "precision": e.job.precision,
            "mfu": e.job.mfu,
            "recompute": e.layout.recompute,
        },
        "layout": {
            "tp": e.layout.tp,
            "pp": e.layout.pp,
            "dp": e.layout.dp,
            "ep": e.layout.ep,
            "micro_batches": e.layout.micro_batches,
            "memory_gbyte_per_gpu": round(e.layout.memory_gbyte_per_gpu, 2),
            "layouts_fitting": e.layouts_fitting,
            "cp": e.layout.cp,
            "virtual_stages": e.layout.virtual_stages,
            "micro_batch_seqs": e.layout.micro_batch_seqs,
            "max_micro_batch_seqs": e.layout.max_micro_batch_seqs,
            "recompute": e.layout.recompute,
            "zero_stage": e.layout.zero_stage,
            "recompute_layers": e.layout.recompute_layers,
        },
        "memory_breakdown_gbyte": {k: round(v, 3) for k, v in e.memory.as_gbyte().items()},
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


def workload_rows(estimates: Sequence[WorkloadEstimate]) -> list[dict[str, Any]]:
    """Designs side by side: one mapping per estimate, the unit-suffixed :data:`SUMMARY_COLUMNS`.

    Parameters
    ----------
    estimates : Sequence[WorkloadEstimate]
        Estimates to tabulate, one per design, in row order.

    Returns
    -------
    list[dict[str, Any]]
        Column -> unrounded value: ids [dimensionless], GPUs and ``tp``/``pp``/``dp``/``ep``
        [count], ``step_time_s`` [s], ``tokens_per_s`` [tokens/s], ``end_to_end_mfu`` and
        ``goodput`` [fraction], ``time_to_train_days`` [days], ``gpu_hours`` [GPU-h],
        ``energy_mwh`` [MWh], ``cost_to_train_usd`` [USD].
    """
    return [
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


def workload_frame(estimates: Sequence[WorkloadEstimate]) -> pd.DataFrame:
    """Designs side by side: one row per estimate, unit-suffixed columns.

    Parameters
    ----------
    estimates : Sequence[WorkloadEstimate]
        Estimates to tabulate, one per design, in row order.

    Returns
    -------
    pandas.DataFrame
        The rows of :func:`workload_rows` in the :data:`SUMMARY_COLUMNS` order.
    """
    import pandas as pd

    return pd.DataFrame(workload_rows(estimates), columns=list(SUMMARY_COLUMNS))


def step_breakdown_frame(estimates: Sequence[WorkloadEstimate]) -> pd.DataFrame:
    """Tidy step breakdown for a stacked bar chart: ``design``, ``component``, ``time_s``.

    Parameters
    ----------
    estimates : Sequence[WorkloadEstimate]
        Estimates whose step breakdowns are listed.

    Returns
    -------
    pandas.DataFrame
        One row per estimate and step component: ``design`` [dimensionless], ``component``
        (the breakdown's name without ``_s``, e.g. ``compute``, ``dp_comm``) [dimensionless]
        and ``time_s``, the component's time per step [s].
    """
    import pandas as pd

    rows = [
        {"design": e.design_id, "component": name.removesuffix("_s"), "time_s": value}
        for e in estimates
        for name, value in e.step.as_dict().items()
    ]
    return pd.DataFrame(rows, columns=["design", "component", "time_s"])
