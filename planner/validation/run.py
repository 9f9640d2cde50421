"""Evaluate the validation cases against the model: predicted vs published, per case.

Each case of :mod:`planner.validation.cases` is turned into engine inputs and evaluated through
the engine's public entry points only: :func:`planner.engine.plan` for switch counts and
server power, :mod:`planner.performance.collectives` for bus bandwidth,
:func:`planner.performance.workload.estimate_workload` for training throughput and memory fit,
the training model's state memory for ZeRO figures, and
:func:`planner.performance.reliability.reliability` for interruptions and goodput. A training
case passes every input it states that the training model takes (shape incl. heads, KV heads,
FFN width, gated FFN, vocabulary, experts; layout tp/cp/pp/dp/ep/v; micro and global batch;
recomputation; ZeRO stage; sequence parallelism; dropout; precision; how much of the gradient
reduction and of the pipeline sends the framework overlaps). Where a case needs an
input the model cannot take (NVLink SHARP, a GPU or fabric without a catalog record, FP32
math) or the source leaves out one the figure depends on (global batch, micro-batch, how FLOPs
were counted), the result is ``not_modelled`` with the reason, never a number the model did
not compute.

Notes
-----
Status: ``pass`` when the case agrees (``low (1 - t) <= predicted <= high (1 + t)``), ``fail``
otherwise. Error: ``(predicted - low) / low`` below the published range, ``(predicted - high) /
high`` above it, 0 inside it.

Comparisons that need a conversion, each with its reason:

- ``achieved_tflops_per_gpu``: the case says how its source counts FLOPs (``flops_counted``).
  ``hardware`` (Megatron-LM SC21 eq. 3, MT-NLG: recomputed forward passes counted) is compared
  with the estimate's ``achieved_hardware_tflops_per_gpu``, ``model`` (Llama 3 Table 4, BF16
  MFU) with ``achieved_tflops_per_gpu``; ``model_flops_utilization`` with ``end_to_end_mfu``;
- ``fp16`` runs use the BF16 dense peak (the same on A100 and H100 tensor cores);
- ``allreduce_busbw_gbyte_per_s_per_nic``: busbw / NICs per node. A multi-node ring runs one
  channel per NIC, each crossing between nodes on its own NIC, so busbw = NICs per node x the
  per-NIC bandwidth (nccl-tests' ``busBw`` of 2 x 8 H100 at NDR: 8 x 47 GB/s);
- memory and reliability figures do not depend on the fabric's bandwidth, so a case without a
  design uses the catalog design whose default GPU is the case's GPU (named in the reason).

References
----------
``validation/README.md`` (cases and roles); ``docs/model.md`` (the equations evaluated).
"""

from __future__ import annotations

import dataclasses
import math
import re
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, get_args

from planner.errors import InfeasibleError, InputError
from planner.i18n.message import Message, msg
from planner.validation.cases import (
    AREAS,
    ROLES,
    Area,
    Role,
    ValidationCase,
    calibration_twins,
    contradictions,
    load_cases,
)

if TYPE_CHECKING:
    from planner.catalog import Catalog
    from planner.engine import Plan
    from planner.fabric.collectives import CollectiveFabric
    from planner.jobmix.simulate import SimResult

Status = Literal["pass", "fail", "not_modelled"]
STATUSES: tuple[Status, ...] = get_args(Status)

NOMINAL_TOKENS_B = 1000.0
"""Training tokens given to a job when the case states none [billions]: throughput per step does
not depend on it (only time to train does)."""

LARGE_MESSAGE_BYTES = 4 * 1024**3
"""nccl-tests buffer when the case states none: 4 GiB, the end of the usual sweep, where busbw
reaches its plateau [B]."""


SPINE_CORE_M = 50.0
"""Spine-core cable length of every case [m]: no source states one (see :func:`_plan`)."""


@dataclass(frozen=True)
class CaseResult:
    """The model's value for one published figure and how far it is from it."""

    id: str
    area: Area
    role: Role
    quantity: str
    predicted: float | None
    """Model value in the case's unit; ``None`` when not modelled."""
    published: float
    """Published value (midpoint of a published range)."""
    published_low: float
    published_high: float
    unit: str
    error_fraction: float | None
    """Signed relative distance to the nearest end of the published range [-]; 0 inside it."""
    tolerance: float
    status: Status
    reason: str
    """Why not modelled, or the stand-in and conversions used (empty when none)."""
    url: str
    citation: str
    calibration_twin: str = ""
    """Id of a calibration case of the same run on paper (:func:`~planner.validation.cases.
    calibration_twins`); a validation result with one is weak evidence, counted apart."""
    contradicted_by: tuple[str, ...] = ()
    """Ids of cases of identical inputs whose published figure no prediction can meet together
    with this one (:func:`~planner.validation.cases.contradictions`): at most one of them can pass."""


class _NotModelledError(Exception):
    """The case needs an input the model cannot take; carries the reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class _Value:
    value: float
    note: str = ""


def error_fraction(*, predicted: float, low: float, high: float) -> float:
    """Signed relative distance of ``predicted`` to ``[low, high]``; 0 inside.

    Parameters
    ----------
    predicted : float
        The model's value, in the case's unit.
    low : float
        Lower end of the published range, same unit.
    high : float
        Upper end of the published range, same unit.

    Returns
    -------
    float
        ``(predicted - bound) / bound`` for the nearer bound [fraction]; 0 inside the range.

    Examples
    --------
    >>> error_fraction(predicted=110, low=100, high=100), error_fraction(predicted=47, low=46, high=48)
    (0.1, 0.0)
    """
    if predicted < low:
        return (predicted - low) / low if low else -math.inf
    if predicted > high:
        return (predicted - high) / high if high else math.inf
    return 0.0


# --- engine inputs of a case ------------------------------------------------------------------


def _gpu_id(case: ValidationCase, catalog: Catalog) -> str:
    gpu_id = case.inputs.gpu_id
    if gpu_id is None:
        raise _NotModelledError(msg("GPU not in the catalog: {gpu}", gpu=case.inputs.gpu or "not stated"))
    if gpu_id not in catalog.gpus:
        raise _NotModelledError(msg("GPU not in the catalog: {gpu}", gpu=gpu_id))
    return gpu_id


def _stand_in_design(case: ValidationCase, catalog: Catalog) -> str | None:
    """The catalog design made for the case's GPU, else one whose GPU sits in the same server
    (H200 in HGX H100); ``None`` when there is none."""
    gpu_id = _gpu_id(case, catalog)
    server_id = case.inputs.server_id or catalog.gpus[gpu_id].default_server_id
    for design in sorted(catalog.designs.values(), key=lambda d: d.default_gpu_id != gpu_id):
        if catalog.gpus[design.default_gpu_id].default_server_id == server_id:
            return design.id
    return None


def _design_id(case: ValidationCase, catalog: Catalog, *, stand_in: bool) -> tuple[str, str]:
    """The case's design, or, for a case that states its fabric or a figure that does not depend
    on the fabric, a stand-in design made for the case's GPU or for a GPU of the same server."""
    design_id = case.inputs.design_id
    if design_id is not None:
        if design_id not in catalog.designs:
            raise _NotModelledError(msg("design not in the catalog: {design}", design=design_id))
        return design_id, ""
    if stand_in or case.inputs.stated_fabric is not None:
        found = _stand_in_design(case, catalog)
        if found is not None and case.inputs.stated_fabric is not None:
            return found, ""  # the note comes with the scaled fabric (_stated_fabric)
        if found is not None:
            note = msg("stand-in design {design} (the figure does not depend on the fabric)", design=found)
            return found, note
    # the fabric's name only (its first clause): the case file keeps the full description, the
    # reason has to fit one line of `planner validate`
    fabric = re.split(r"[:,(]", case.inputs.fabric or "not stated", maxsplit=1)[0].strip()
    raise _NotModelledError(msg("fabric without a design preset: {fabric}", fabric=fabric))


def _stated_fabric(case: ValidationCase, catalog: Catalog, p: Plan) -> tuple[CollectiveFabric | None, str]:
    """The collective fabric of a case that states its own (``inputs.stated_fabric``), and a note.

    The case is planned on the stand-in design for its GPU (:func:`_design_id`); every network
    level of that plan's collective fabric is scaled by the stated line rate per GPU over the
    design's, ``(nics_per_node x nic_speed / gpus_per_node) / (port_speed x ports_per_gpu /
    gpus_per_port)``. Latency and NCCL efficiency stay the stand-in's; a different protocol
    (Omni-Path on an InfiniBand stand-in) is named in the note, not modelled.
    """
    from planner.performance.collectives import fabric_from_plan

    stated = case.inputs.stated_fabric
    if stated is None or case.inputs.design_id is not None:
        return None, ""
    design_id, _ = _design_id(case, catalog, stand_in=False)
    design = catalog.designs[design_id].fabric
    per_gpu = stated.nics_per_node * stated.nic_speed_gbit_per_s / (case.inputs.gpus_per_node or 8)
    design_per_gpu = design.port_speed_gbit_per_s * design.ports_per_gpu / design.gpus_per_port
    factor = per_gpu / design_per_gpu
    note: str = msg(
        "stated fabric {nics} x {speed:g} Gb/s per server ({topology}): the network of {design} at {factor:.2f} x its bandwidth",
        nics=stated.nics_per_node,
        speed=stated.nic_speed_gbit_per_s,
        topology=stated.topology,
        design=design_id,
        factor=factor,
    )
    if stated.protocol != design.family:
        note = _joined(
            note,
            msg(
                "{protocol} at {family} efficiency and latency",
                protocol=stated.protocol,
                family=design.family,
            ),
        )
    return fabric_from_plan(plan=p, catalog=catalog).scaled(network_bandwidth=factor), note


def _nic_fabric(case: ValidationCase, catalog: Catalog, design_id: str) -> dict[str, Any] | None:
    """The design's fabric with the case's NIC ports per server, or ``None`` when they agree.

    A case with fewer ports than GPUs per server (4 HDR ports for 8 A100s) shares each port
    between GPUs (``gpus_per_port``); more ports than GPUs give each GPU several ports.
    """
    fabric = catalog.designs[design_id].fabric
    i = case.inputs
    per_node = i.gpus_per_node or 8
    if i.nic_speed_gbit_per_s is not None and i.nic_speed_gbit_per_s != fabric.port_speed_gbit_per_s:
        raise _NotModelledError(
            msg(
                "{speed:g} Gb/s NIC ports: the design has {design_speed} Gb/s",
                speed=i.nic_speed_gbit_per_s,
                design_speed=fabric.port_speed_gbit_per_s,
            )
        )
    ports = i.nics_per_node
    if ports is None or ports == per_node * fabric.ports_per_gpu // fabric.gpus_per_port:
        return None
    if per_node % ports == 0:
        ratio = {"ports_per_gpu": 1, "gpus_per_port": per_node // ports}
    elif ports % per_node == 0:
        ratio = {"ports_per_gpu": ports // per_node, "gpus_per_port": 1}
    else:
        raise _NotModelledError(
            msg(
                "{nics} NIC ports for {gpus} GPUs per server: neither divides the other",
                nics=ports,
                gpus=per_node,
            )
        )
    return {**fabric.model_dump(), **ratio, "nics_per_server": None, "ports_per_nic": None}


def _plan(case: ValidationCase, catalog: Catalog, *, stand_in: bool = False) -> tuple[Plan, str]:
    """The plan of a case's cluster, and a note naming any stand-in."""
    from planner.engine import plan
    from planner.inputs.scenario import scenario_from_data

    design_id, note = _design_id(case, catalog, stand_in=stand_in)
    nic_fabric = _nic_fabric(case, catalog, design_id)
    gpu_id = _gpu_id(case, catalog)
    i = case.inputs
    gpus = i.cluster_gpus or i.gpus or (i.nodes or 1) * (i.gpus_per_node or 8)
    server_id = i.server_id or catalog.gpus[gpu_id].default_server_id
    data: dict[str, Any] = {"gpus": gpus, "design_id": design_id, "gpu_id": gpu_id, "server_id": server_id}
    design = catalog.designs[design_id]
    if nic_fabric is not None:
        data["fabric"] = nic_fabric
    if i.switch_id is not None and i.switch_id != design.fabric.switch_id:
        data["fabric"] = {**(data.get("fabric") or design.fabric.model_dump()), "switch_id": i.switch_id}
    rail = i.rail_optimized
    if i.stated_fabric is not None and i.design_id is None:
        rail = i.stated_fabric.topology == "rail_optimized_fat_tree"
    if rail is not None and rail != design.fabric.rail_optimized:
        fabric = data.get("fabric") or design.fabric.model_dump()
        data["fabric"] = {**fabric, "rail_optimized": rail}
    cooling = catalog.servers[server_id].cooling
    # the default liquid cooling is refused by air-only servers (DGX A100); the figures compared
    # here (counts, bandwidth, server power) do not depend on the cooling method
    data["facility"] = {
        "cooling_id": "direct_liquid" if "direct_liquid" in cooling else cooling[0],
        # the sources give no cable lengths; 50 m keeps every tier within multimode reach, so
        # the 200G SR optic of the HDR design serves three tiers (lengths move latency by ns only)
        "link_lengths": {"spine_core_m": SPINE_CORE_M},
    }
    if i.servers_per_rack:
        data["facility"]["rack_power_limit_kw"] = 300
    return plan(scenario=scenario_from_data(data, source=case.id), catalog=catalog), note


# --- one evaluator per kind of quantity -------------------------------------------------------


def _switch_count(case: ValidationCase, catalog: Catalog) -> _Value:
    tier = case.quantity.removesuffix("_switches")
    p, note = _plan(case, catalog)
    count = next((t.switches for t in p.topology.tier_counts if t.tier == tier), 0)
    return _Value(float(count), note)


def _server_power(case: ValidationCase, catalog: Catalog) -> _Value:
    p, note = _plan(case, catalog, stand_in=True)
    return _Value(p.power.node_kw, note)


def _rack_power(case: ValidationCase, catalog: Catalog) -> _Value:
    p, note = _plan(case, catalog, stand_in=True)
    per_rack = case.inputs.servers_per_rack or p.nodes
    return _Value(p.power.node_kw * per_rack, note)


def _busbw(case: ValidationCase, catalog: Catalog) -> _Value:
    from planner.performance import collectives

    i = case.inputs
    algorithm = i.algorithm or "auto"
    if algorithm not in get_args(collectives.Algorithm):
        raise _NotModelledError(
            msg("NCCL algorithm {algorithm} is not in the collective model", algorithm=algorithm)
        )
    # one server: the collective stays on NVLink, so any design with the case's GPU stands in
    p, note = _plan(case, catalog, stand_in=(i.nodes or 0) == 1)
    stated, stated_note = _stated_fabric(case, catalog, p)
    fabric = stated or collectives.fabric_from_plan(plan=p, catalog=catalog)
    note = _joined(note, stated_note)
    t = collectives.collective_time(
        fabric=fabric,
        collective=i.collective or "all_reduce",
        message_bytes=float(i.message_bytes or LARGE_MESSAGE_BYTES),
        algorithm=algorithm,  # type: ignore[arg-type]
    )
    busbw = t.busbw_gbyte_per_s
    if case.quantity.endswith("_per_nic"):
        # one ring channel per NIC, each crossing between nodes on its own NIC (module notes)
        busbw /= i.nics_per_node or p.topology.ports_per_node_per_plane
    return _Value(busbw, note)


_PRECISION = {"fp16": "bf16", "bf16": "bf16", "fp8": "fp8"}
"""Case precision -> training-model precision: FP16 and BF16 share the dense tensor-core peak on
A100 and H100 (module notes); FP32 math has no peak in the catalog."""


_TRAINING_INPUTS = (
    "seq_len", "global_batch_seqs", "micro_batch_seqs", "layers", "hidden_size", "heads", "kv_heads",
    "head_dim", "ffn_hidden", "gated_mlp", "vocab", "experts", "top_k", "tp", "cp", "pp", "dp", "ep",
    "virtual_stages", "sequence_parallel", "attention_kernel", "dropout", "recompute", "zero_stage",
    "dp_overlap_fraction", "pp_overlap_fraction", "accumulation_rounds", "cp_comm_type", "shared_experts", "dense_layers",
    "dense_ffn_hidden", "q_lora_rank", "kv_lora_rank", "qk_rope_head_dim", "v_head_dim", "moe_overlap",
    "expert_tp", "moe_node_limit", "moe_dispatch_fp8", "moe_dispatcher", "moe_graphed_dispatch", "full_iteration_graph",
    "expert_bias",
    "moe_framework", "fp8_recipe", "optimizer_states", "grad_reduce_precision", "software_release", "offload_activation_layers",
    "distribute_saved_activations", "mtp_layers",
    "fp8_attention",
)  # fmt: skip
"""Case inputs passed to the training job when the case states them, under the job's field names
(``active_params_b`` is not: the model derives it from the shape, experts and top_k)."""


def _stated(case: ValidationCase, names: Sequence[str]) -> dict[str, Any]:
    """The inputs among ``names`` that ``case`` states (left empty: the engine's default), keyed
    by the names the engine's models give them (a name the case does not have is an error)."""
    values = {name: getattr(case.inputs, name) for name in names}
    return {name: value for name, value in values.items() if value is not None}


def _training_job(case: ValidationCase) -> Any:
    """The case's training job with every input it states that the training model takes."""
    from planner.inputs.training import training_job

    i = case.inputs
    if i.params_b is None:
        raise _NotModelledError(msg("parameter count not stated"))
    precision = _PRECISION.get(i.precision or "bf16")
    if precision is None:
        raise _NotModelledError(msg("{precision} math is not in the training model", precision=i.precision))
    data: dict[str, Any] = {
        "params_b": i.params_b,
        "tokens_b": i.tokens_b or NOMINAL_TOKENS_B,
        "precision": precision,
    }
    if i.cluster_gpus is not None and i.gpus is not None:
        data["job_gpus"] = i.gpus  # the job runs on part of the planned cluster
    data.update(_stated(case, _TRAINING_INPUTS))
    return training_job(data, source=case.id)


def _estimate(case: ValidationCase, catalog: Catalog, *, stand_in: bool) -> tuple[Any, str]:
    from planner.performance.workload import estimate_workload

    job = _training_job(case)
    p, note = _plan(case, catalog, stand_in=stand_in)
    fabric, fabric_note = _stated_fabric(case, catalog, p)
    estimate = estimate_workload(job=job, plan=p, catalog=catalog, fabric=fabric)
    return estimate, _joined(note, fabric_note)


def _joined(*notes: str) -> str:
    return "; ".join(n for n in notes if n)


def _throughput(case: ValidationCase, catalog: Catalog) -> _Value:
    if case.inputs.global_batch_seqs is None:
        raise _NotModelledError(msg("global batch not stated: the pipeline bubble depends on it"))
    estimate, note = _estimate(case, catalog, stand_in=False)
    if case.quantity == "model_flops_utilization":
        return _Value(estimate.end_to_end_mfu, note)
    if case.quantity == "tokens_per_s":
        return _Value(estimate.tokens_per_s, note)
    counted = case.inputs.flops_counted
    if counted is None:  # the two differ by a third under full recomputation: never guess
        raise _NotModelledError(
            msg("the source does not say whether its FLOP/s count recomputation (model or hardware FLOPs)")
        )
    if counted == "hardware":
        # Megatron-LM's eq. 3 counts what the GPUs compute, recomputed forward passes included
        return _Value(estimate.achieved_hardware_tflops_per_gpu, _joined(note, msg("hardware FLOPs")))
    return _Value(estimate.achieved_tflops_per_gpu, _joined(note, msg("model FLOPs")))


def _gpu_hours_per_trillion(case: ValidationCase, catalog: Catalog) -> _Value:
    estimate, note = _estimate(case, catalog, stand_in=False)
    tokens_t = (case.inputs.tokens_b or NOMINAL_TOKENS_B) / 1000.0
    return _Value(estimate.gpu_hours / tokens_t, note)


def _fits(case: ValidationCase, catalog: Catalog) -> _Value:
    try:
        _, note = _estimate(case, catalog, stand_in=True)
    except InfeasibleError as exc:
        return _Value(0.0, exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc))
    return _Value(1.0, note)


def _memory_per_gpu(case: ValidationCase, catalog: Catalog) -> _Value:
    if case.inputs.micro_batch_seqs is None:
        raise _NotModelledError(msg("micro-batch not stated: activation memory depends on it"))
    estimate, note = _estimate(case, catalog, stand_in=True)
    return _Value(estimate.layout.memory_gbyte_per_gpu, note)


def _model_state_memory(case: ValidationCase, catalog: Catalog) -> _Value:
    """Weights, gradients and optimizer states per GPU [GB]: the estimate's memory breakdown
    without activations and buffers. They depend on the parameters, the layout and the ZeRO
    stage only, so no GPU, plan or memory fit is involved (the ZeRO paper's Figure 1 is
    arithmetic, and its 120 GB baseline fits no single GPU)."""
    from planner.performance.training.memory import GRADIENT_BYTES_OF, Parallel, state_bytes
    from planner.performance.training.search import optimizer_bytes_per_param
    from planner.performance.workload import job_shape

    i = case.inputs
    if i.zero_stage is None:
        raise _NotModelledError(msg("ZeRO stage not stated"))
    job = _training_job(case)
    lay = Parallel(
        tp=i.tp or 1, cp=i.cp or 1, pp=i.pp or 1, dp=i.dp or 1, ep=i.ep or 1,
        v=i.virtual_stages or 1, micro_batch_seqs=1, micro_batches=1,
    )  # fmt: skip
    zero: Any = i.zero_stage
    states = state_bytes(
        job_shape(job), lay, zero, optimizer_bytes=optimizer_bytes_per_param(job),
        gradient_bytes=GRADIENT_BYTES_OF[job.grad_reduce_precision],
    )  # fmt: skip
    return _Value(sum(states) / 1e9)


def _reliability(case: ValidationCase, catalog: Catalog) -> Any:
    from planner.inputs.reliability import ReliabilityParams
    from planner.performance.reliability import reliability

    p, note = _plan(case, catalog, stand_in=True)
    params = ReliabilityParams(params_b=case.inputs.params_b or 1.0)
    return reliability(plan=p, params=params, catalog=catalog), note


def _interruptions(case: ValidationCase, catalog: Catalog) -> _Value:
    if case.inputs.duration_h is None:
        raise _NotModelledError(msg("observation window not stated"))
    rel, note = _reliability(case, catalog)
    return _Value(rel.interruptions_per_day * case.inputs.duration_h / 24.0, note)


def _goodput(case: ValidationCase, catalog: Catalog) -> _Value:
    rel, note = _reliability(case, catalog)
    return _Value(rel.goodput, note)


def _fleet_fraction(case: ValidationCase, catalog: Catalog) -> _Value:
    from planner.performance.reliability import reliability_coefficients

    coef = reliability_coefficients(catalog)
    constant = {
        "link_failure_fraction_per_month": coef.hpn_link_failure_fraction_per_month,
        "switch_failure_fraction_per_month": coef.hpn_tor_failure_fraction_per_month,
    }[case.quantity]
    return _Value(constant, msg("the model's constant, taken from this figure"))


_SERVING_PRECISION = {"fp16": "bf16", "bf16": "bf16", "fp8": "fp8", "fp4": "fp4"}
"""Case precision -> serving weight format (FP16 and BF16 weigh the same and share the peak)."""


def _serving_precision(case: ValidationCase) -> str:
    """The case's weight format as the serving model names it; one it does not have is not modelled."""
    precision = _SERVING_PRECISION.get(case.inputs.precision or "bf16")
    if precision is None:
        raise _NotModelledError(
            msg("{precision} weights are not in the serving model", precision=case.inputs.precision)
        )
    return precision


def _serving(case: ValidationCase, catalog: Catalog) -> _Value:
    """TTFT [ms] or output tokens/s per GPU of one static batch, as serving benchmarks run it
    (:func:`planner.performance.serving.estimate.static_batch`); within one server the fabric does
    not matter, so a design with the case's GPU stands in."""
    from planner.inputs.serving import serving_request
    from planner.performance.serving.estimate import static_batch

    i = case.inputs
    if i.params_b is None or i.input_tokens is None:
        raise _NotModelledError(msg("parameter count or prompt length not stated"))
    precision = _serving_precision(case)
    p, note = _plan(case, catalog, stand_in=True)
    stated = _stated(case, (
        "active_params_b", "layers", "hidden_size", "heads", "kv_heads", "ffn_hidden", "gated_mlp", "vocab",
        "experts", "top_k", "tp", "ep", "kv_precision", "decode_attention",
    ))  # fmt: skip
    data: dict[str, Any] = {
        "params_b": i.params_b, "precision": precision, "input_tokens": i.input_tokens,
        "output_tokens": i.output_tokens or 1, "batch": i.concurrent_seqs or 1, **stated,
    }  # fmt: skip
    try:
        run = static_batch(request=serving_request(data, source=case.id), plan=p, catalog=catalog)
    except InfeasibleError as exc:
        raise _NotModelledError(str(exc)) from None
    value = run.ttft_s * 1e3 if case.quantity == "ttft_ms" else run.tokens_per_s_per_gpu
    return _Value(value, _joined(note, msg("static batch")))


def _serving_phase(case: ValidationCase, catalog: Catalog) -> _Value:
    """Input or output tokens/s per GPU of a prefill or decode pool at the load the source states
    (:func:`planner.performance.serving.estimate.phase_rate`), on the case's fabric: the expert
    all-to-all of a large expert-parallel group crosses it."""
    from planner.inputs.serving import serving_request
    from planner.performance.serving.estimate import phase_rate

    i = case.inputs
    if i.params_b is None or i.input_tokens is None or i.concurrent_seqs is None:
        raise _NotModelledError(msg("parameter count, context length or load per GPU not stated"))
    precision = _serving_precision(case)
    p, note = _plan(case, catalog)
    stated = _stated(case, (
        "active_params_b", "layers", "hidden_size", "heads", "kv_heads", "ffn_hidden", "gated_mlp", "vocab",
        "experts", "top_k", "shared_experts", "tp", "ep", "kv_precision", "kv_lora_rank", "moe_node_limit",
        "moe_dispatch_mode", "moe_low_latency_path",
    ))  # fmt: skip
    data: dict[str, Any] = {
        "params_b": i.params_b,
        "precision": precision,
        "input_tokens": i.input_tokens,
        **stated,
    }
    data["moe_overlap"] = i.moe_overlap not in (None, "none")
    phase: Literal["prefill", "decode"] = "prefill" if case.quantity.startswith("prefill") else "decode"
    try:
        rate = phase_rate(
            request=serving_request(data, source=case.id), plan=p, catalog=catalog, phase=phase,
            sequences_per_gpu=i.concurrent_seqs, context_tokens=i.input_tokens,
        )  # fmt: skip
    except InfeasibleError as exc:
        raise _NotModelledError(str(exc)) from None
    return _Value(rate.tokens_per_s_per_gpu, _joined(note, msg("{phase} pool", phase=phase)))


def _moe_alltoall_us(case: ValidationCase, catalog: Catalog) -> _Value:
    """One expert layer's dispatch or combine [us] of ``concurrent_seqs`` tokens per GPU over
    ``ep`` (default ``gpus``) expert-parallel GPUs of a ``gpus``-GPU cluster, as a kernel benchmark times it
    (:func:`planner.performance.serving.estimate.expert_alltoall_s`)."""
    from planner.inputs.serving import serving_request
    from planner.performance.serving.estimate import expert_alltoall_s

    i = case.inputs
    if i.params_b is None or i.concurrent_seqs is None or i.gpus is None:
        raise _NotModelledError(msg("parameter count, tokens per GPU or GPU count not stated"))
    p, note = _plan(case, catalog)
    stated = _stated(case, (
        "active_params_b", "layers", "hidden_size", "heads", "experts", "top_k", "moe_dispatch_mode",
        "moe_low_latency_path",
    ))  # fmt: skip
    data: dict[str, Any] = {
        "params_b": i.params_b,
        "precision": _SERVING_PRECISION.get(i.precision or "bf16"),
        "ep": i.ep or i.gpus,
        **stated,
    }
    dispatch_s, combine_s = expert_alltoall_s(
        request=serving_request(data, source=case.id), plan=p, catalog=catalog, tokens_per_gpu=i.concurrent_seqs,
    )  # fmt: skip
    value = dispatch_s if case.quantity == "moe_dispatch_latency_us" else combine_s
    return _Value(value * 1e6, note)


JOB_MIX_SEED = 1
"""Seed of the tenancy cases' job stream (one run per cluster size and window)."""
SERVERS_PER_LEAF_GROUP = 16
"""Servers under one leaf pair in the tenancy cases' two-tier cluster [count]; it changes only
which placements span leaves, not whether a job fits (first-fit placement)."""
_JOB_MIX_RUNS: dict[tuple[int, int, float, str], SimResult] = {}


def _job_mix_run(case: ValidationCase, catalog: Catalog) -> SimResult:
    """One seeded simulation of the fitted job stream at the trace's arrival rate (both tenancy
    quantities of a case come from the same run, computed once per process)."""
    from planner.jobmix.jobs import GPU_JOBS_PER_DAY_ID, job_mix, synthetic_jobs
    from planner.jobmix.simulate import SimCluster, simulate

    gpus, hours, per_node = case.inputs.gpus, case.inputs.duration_h, case.inputs.gpus_per_node or 8
    if gpus is None or hours is None or GPU_JOBS_PER_DAY_ID not in catalog.sizing_rules:
        raise _NotModelledError(msg("a tenancy case needs gpus, duration_h and the trace's job rate"))
    mix = dataclasses.replace(job_mix(catalog), high_priority_share=0.0)
    rate_per_s = catalog.sizing_rules[GPU_JOBS_PER_DAY_ID].value / 86_400
    key = (gpus, per_node, hours, repr(mix) + repr(rate_per_s))
    if key not in _JOB_MIX_RUNS:
        sizes = {g: w for g, w in mix.size_weights.items() if g <= gpus and w > 0}
        jobs = synthetic_jobs(
            count=round(rate_per_s * hours * 3600),
            cluster_gpus=gpus,
            seed=JOB_MIX_SEED,
            load=rate_per_s * mix.mean_gpu_seconds(sizes) / gpus,
            mix=mix,
        )
        cluster = SimCluster.uniform(
            servers=gpus // per_node, gpus_per_server=per_node, servers_per_group=SERVERS_PER_LEAF_GROUP
        )
        _JOB_MIX_RUNS[key] = simulate(cluster=cluster, jobs=jobs, policy="first-fit")
    return _JOB_MIX_RUNS[key]


def _utilization(case: ValidationCase, catalog: Catalog) -> _Value:
    return _Value(_job_mix_run(case, catalog).utilization)


def _mean_queue_delay(case: ValidationCase, catalog: Catalog) -> _Value:
    return _Value(_job_mix_run(case, catalog).mean_queue_delay_s)


EVALUATORS: Mapping[str, Callable[[ValidationCase, Catalog], _Value]] = {
    "spine_switches": _switch_count,
    "leaf_switches": _switch_count,
    "core_switches": _switch_count,
    "server_power_kw": _server_power,
    "rack_power_kw": _rack_power,
    "allreduce_busbw_gbyte_per_s": _busbw,
    "allreduce_busbw_gbyte_per_s_per_nic": _busbw,
    "achieved_tflops_per_gpu": _throughput,
    "model_flops_utilization": _throughput,
    "tokens_per_s": _throughput,
    "gpu_hours_per_trillion_tokens": _gpu_hours_per_trillion,
    "fits_in_hbm": _fits,
    "memory_per_gpu_gbyte": _memory_per_gpu,
    "model_state_memory_per_gpu_gbyte": _model_state_memory,
    "unexpected_interruptions": _interruptions,
    "interruptions": _interruptions,
    "goodput_fraction": _goodput,
    "link_failure_fraction_per_month": _fleet_fraction,
    "switch_failure_fraction_per_month": _fleet_fraction,
    "ttft_ms": _serving,
    "output_tokens_per_s_per_gpu": _serving,
    "prefill_tokens_per_s_per_gpu": _serving_phase,
    "decode_tokens_per_s_per_gpu": _serving_phase,
    "moe_dispatch_latency_us": _moe_alltoall_us,
    "moe_combine_latency_us": _moe_alltoall_us,
    "gpu_utilization_fraction": _utilization,
    "mean_queue_delay_s": _mean_queue_delay,
}
"""How each quantity is computed; a quantity not listed is reported as not modelled."""


def evaluate(case: ValidationCase, *, catalog: Catalog) -> CaseResult:
    """The model's value for one case, its error and its status.

    Parameters
    ----------
    case
        A published figure with its configuration (:func:`planner.validation.cases.load_cases`).
    catalog
        The component catalog (:func:`planner.catalog.load_catalog`).

    Returns
    -------
    CaseResult
        ``pass`` / ``fail`` with the signed relative error, or ``not_modelled`` with the reason
        (an input the model cannot take, or an engine refusal naming the field).
    """
    low, high = case.published_low, case.published_high
    evaluator = EVALUATORS.get(case.quantity)
    predicted: float | None = None
    try:
        if evaluator is None:
            raise _NotModelledError(
                msg("quantity {quantity} is not computed by the model", quantity=case.quantity)
            )
        value = evaluator(case, catalog)
        predicted, reason = value.value, value.note
    except _NotModelledError as exc:
        reason = exc.reason
    except (InputError, InfeasibleError) as exc:  # the engine refuses: say why, with its field
        reason = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
    if predicted is None:
        status: Status = "not_modelled"
        error = None
    else:
        status = "pass" if case.agrees(model_value=predicted) else "fail"
        error = error_fraction(predicted=predicted, low=low, high=high)
    return CaseResult(
        id=case.id,
        area=case.area,
        role=case.role,
        quantity=case.quantity,
        predicted=predicted,
        published=(low + high) / 2.0,
        published_low=low,
        published_high=high,
        unit=case.unit,
        error_fraction=error,
        tolerance=case.tolerance.relative,
        status=status,
        reason=reason,
        url=case.source.url,
        citation=case.source.citation,
    )


def run_all(
    *,
    catalog: Catalog | None = None,
    cases: Iterable[ValidationCase] | None = None,
    area: Area | None = None,
    role: Role | None = None,
) -> tuple[CaseResult, ...]:
    """Evaluate every case (or those of one area and/or role), in case-file order.

    Parameters
    ----------
    catalog : Catalog or None
        The catalog; ``None`` loads the bundled one.
    cases : iterable of ValidationCase or None
        The cases; ``None`` loads them all.
    area : Area or None
        Only the cases of this area; ``None`` for all.
    role : Role or None
        Only the cases of this role; ``None`` for both.

    Returns
    -------
    tuple of CaseResult
        One result per case: predicted and published value, error [fraction] and status.
    """
    if catalog is None:
        from planner.catalog import load_catalog

        catalog = load_catalog()
    chosen = load_cases() if cases is None else tuple(cases)
    twins = calibration_twins(chosen)
    contradicted = contradictions(chosen)
    return tuple(
        dataclasses.replace(
            evaluate(c, catalog=catalog),
            calibration_twin=twins.get(c.id, ""),
            contradicted_by=contradicted.get(c.id, ()),
        )
        for c in chosen
        if (area is None or c.area == area) and (role is None or c.role == role)
    )


@dataclass(frozen=True)
class Summary:
    """Counts of one role in one area (or all areas when ``area`` is empty)."""

    area: str
    role: Role
    passed: int
    failed: int
    not_modelled: int
    median_abs_error: float | None
    """Median |error| of the evaluated cases [-]; ``None`` when none was evaluated."""

    @property
    def total(self) -> int:
        return self.passed + self.failed + self.not_modelled


def summarize(results: Sequence[CaseResult], *, role: Role, area: str = "") -> Summary:
    """Pass / fail / not-modelled counts and median |error| of one role (never pooled).

    Parameters
    ----------
    results : sequence of CaseResult
        The results.
    role : Role
        ``calibration`` or ``validation``.
    area : str
        Only this area; ``""`` for all.

    Returns
    -------
    Summary
        Pass, fail and not-modelled counts [count] and the median absolute error [fraction].
    """
    chosen = [r for r in results if r.role == role and (not area or r.area == area)]
    errors = [abs(r.error_fraction) for r in chosen if r.error_fraction is not None]
    return Summary(
        area=area,
        role=role,
        passed=sum(r.status == "pass" for r in chosen),
        failed=sum(r.status == "fail" for r in chosen),
        not_modelled=sum(r.status == "not_modelled" for r in chosen),
        median_abs_error=statistics.median(errors) if errors else None,
    )


def summary_line(results: Sequence[CaseResult]) -> Message:
    """One line: validation counts first, calibration apart.

    Parameters
    ----------
    results : sequence of CaseResult
        The results.

    Returns
    -------
    Message
        The line, translatable.
    """
    v = summarize(results, role="validation")
    c = summarize(results, role="calibration")
    twins = [r for r in results if r.role == "validation" and r.calibration_twin]
    contradicted = [r for r in results if r.role == "validation" and r.contradicted_by]
    return msg(
        "validation: {passed} pass / {failed} fail / {not_modelled} not modelled "
        "({twins} of them the same run on paper as a calibration case, {twins_passed} of those pass; "
        "{contradicted} contradicted by a case of identical inputs, which no prediction can meet together, "
        "{contradicted_passed} of those pass); "
        "calibration (fitted, not evidence): {c_passed} pass / {c_failed} fail / {c_not_modelled} not modelled",
        passed=v.passed,
        failed=v.failed,
        not_modelled=v.not_modelled,
        twins=len(twins),
        twins_passed=sum(r.status == "pass" for r in twins),
        contradicted=len(contradicted),
        contradicted_passed=sum(r.status == "pass" for r in contradicted),
        c_passed=c.passed,
        c_failed=c.failed,
        c_not_modelled=c.not_modelled,
    )


__all__ = [
    "AREAS",
    "EVALUATORS",
    "ROLES",
    "STATUSES",
    "CaseResult",
    "Status",
    "Summary",
    "error_fraction",
    "evaluate",
    "run_all",
    "summarize",
    "summary_line",
]
