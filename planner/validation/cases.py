"""Schema and loader of the validation cases: published figures the model is compared with.

A case is one published figure (a per-GPU throughput, a bus bandwidth, a switch count, a rack
power, an interruption count) with its exact source, the configuration it was measured on,
written as planner inputs, and a relative tolerance. Its ``role`` says whether a model
coefficient was fitted to it (``calibration``) or not (``validation``): only validation cases
are evidence of the model's accuracy, because a coefficient tuned to a figure reproduces that
figure by construction.

Cases live in ``validation/cases/<area>.yaml`` (or ``<area>-<source>.yaml``) at the project root, each file a mapping with a
``cases`` list. Evaluating cases against the model is a separate step; this module only reads
and checks them.

Notes
-----
A case passes when ``|model - published| <= tolerance x published`` for a single value, or when
the model lies in ``[low (1 - tolerance), high (1 + tolerance)]`` for a published range.

References
----------
``validation/README.md`` (what a case is, the two roles, how to add one); ``docs/model.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from planner.errors import CatalogError
from planner.files import read_mapping
from planner.i18n.message import msg
from planner.inputs import parse
from planner.inputs.training import SoftwareRelease

Area = Literal["topology", "collectives", "training", "memory", "power", "reliability", "serving", "tenancy"]
Role = Literal["calibration", "validation"]
Recompute = Literal["none", "selective", "full"]
Precision = Literal["fp32", "fp16", "bf16", "fp8", "fp4"]
FlopsCounted = Literal["model", "hardware"]
Collective = Literal["all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast"]

AREAS: tuple[Area, ...] = get_args(Area)
ROLES: tuple[Role, ...] = get_args(Role)

CASES_DIR = Path(__file__).resolve().parents[2] / "validation" / "cases"
"""Folder of the bundled case files (``validation/cases`` at the project root)."""

_ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CaseSource(_Frozen):
    """Where a published figure comes from, precisely enough to find it again."""

    citation: str = Field(
        min_length=10,
        description="Authors or organisation, title, venue or document, year; arXiv id when there is one.",
    )
    locator: str = Field(min_length=3, description="Table, figure, section or comment that holds the figure.")
    url: str = Field(pattern=r"^https?://", description="Public address of the source.")


class PublishedRange(_Frozen):
    """A published range, recorded as the source gives it (e.g. "46-48 GB/s")."""

    low: float = Field(description="Lower end of the published range, in the case's unit.")
    high: float = Field(description="Upper end of the published range, in the case's unit.")

    @model_validator(mode="after")
    def _ordered(self) -> PublishedRange:
        if self.low > self.high:
            raise ValueError(f"low ({self.low}) must not exceed high ({self.high})")
        return self


class Tolerance(_Frozen):
    """How far the model may be from the published figure and still agree with it."""

    relative: float = Field(gt=0, le=1, description="Allowed |model - published| / published [-].")
    reason: str = Field(
        min_length=10,
        description="One line: measurement spread, rounding in the source, what the model leaves out.",
    )


class StatedFabric(_Frozen):
    """A scale-out fabric the case states when no design preset matches (validation only).

    It never becomes a design of ``data/designs.yaml``: the evaluator plans the case on the
    catalog design made for its GPU and scales that design's network bandwidth to the stated
    NIC ports and line rate (``planner.validation.run``; ``validation/README.md``).
    """

    nics_per_node: int = Field(ge=1, description="Scale-out NIC ports per server [count].")
    nic_speed_gbit_per_s: float = Field(gt=0, description="Line rate of one scale-out port [Gb/s].")
    topology: Literal["fat_tree", "rail_optimized_fat_tree"] = Field(
        description="Switch topology: a fat tree, or one with leaves per rail (GPU index)."
    )
    protocol: Literal["infiniband", "omni_path", "ethernet"] = Field(
        description="Link protocol (the collective efficiency is the stand-in design's)."
    )
    source: CaseSource = Field(description="Where the NIC count, speed and topology are stated.")
    assumption: str = Field(
        default="",
        description="What the sources leave out and is assumed here, with the reason (empty: nothing).",
    )


class CaseInputs(_Frozen):
    """The configuration behind a published figure, as planner inputs; empty = not stated."""

    gpus: int | None = Field(default=None, ge=1, description="GPUs the figure was measured on [count].")
    cluster_gpus: int | None = Field(
        default=None,
        ge=1,
        description="GPUs of the planned cluster when the job ran on part of it (8 GPUs of one NVL72 rack) [count].",
    )
    gpu_id: str | None = Field(
        default=None, description="GPU id in data/gpus.yaml; empty when the catalog has no such part."
    )
    gpu: str | None = Field(
        default=None, description="The accelerator in words when gpu_id is empty (e.g. 'A100 SXM 80 GB')."
    )
    design_id: str | None = Field(default=None, description="Design id in data/designs.yaml.")
    fabric: str | None = Field(
        default=None, description="The scale-out fabric in words when no design preset matches."
    )
    stated_fabric: StatedFabric | None = Field(
        default=None,
        description="The scale-out fabric as the sources state it, when no design preset matches.",
    )
    server_id: str | None = Field(default=None, description="Server id in data/servers.yaml.")
    switch_id: str | None = Field(default=None, description="Switch id in data/switches.yaml.")
    nodes: int | None = Field(default=None, ge=1, description="Servers [count].")
    gpus_per_node: int | None = Field(default=None, ge=1, description="GPUs per server [count].")
    scalable_units: int | None = Field(default=None, ge=1, description="DGX SuperPOD scalable units [count].")
    servers_per_rack: int | None = Field(default=None, ge=1, description="Servers in one rack [count].")
    rail_optimized: bool | None = Field(default=None, description="Leaves per rail (GPU index).")
    params_b: float | None = Field(default=None, gt=0, description="Total parameters [billions].")
    active_params_b: float | None = Field(
        default=None, gt=0, description="Parameters a token passes through (MoE) [billions]."
    )
    layers: int | None = Field(default=None, ge=1, description="Transformer layers [count].")
    hidden_size: int | None = Field(default=None, ge=1, description="Model width [-].")
    heads: int | None = Field(default=None, ge=1, description="Attention heads [count].")
    kv_heads: int | None = Field(default=None, ge=1, description="Key/value heads (GQA) [count].")
    head_dim: int | None = Field(default=None, ge=8, description="Width of one attention head [count].")
    ffn_hidden: int | None = Field(default=None, ge=1, description="Feed-forward width [-].")
    gated_mlp: bool | None = Field(
        default=None, description="Gated feed-forward (SwiGLU): three matrices instead of two."
    )
    dropout: bool | None = Field(
        default=None, description="Dropout layers on (their masks are stored activations)."
    )
    vocab: int | None = Field(default=None, ge=1, description="Vocabulary [tokens].")
    experts: int | None = Field(default=None, ge=1, description="Routed experts per MoE layer [count].")
    top_k: int | None = Field(default=None, ge=1, description="Experts each token is routed to [count].")
    shared_experts: int | None = Field(
        default=None, ge=0, description="Shared experts per MoE layer [count]."
    )
    dense_layers: int | None = Field(
        default=None, ge=0, description="First layers with a dense FFN (first-k dense) [count]."
    )
    dense_ffn_hidden: int | None = Field(default=None, ge=1, description="FFN width of those layers [-].")
    mtp_layers: int | None = Field(
        default=None, ge=0, description="Multi-token prediction modules after the last layer [count]."
    )
    q_lora_rank: int | None = Field(default=None, ge=1, description="MLA query compression rank [-].")
    kv_lora_rank: int | None = Field(default=None, ge=1, description="MLA key/value compression rank [-].")
    qk_rope_head_dim: int | None = Field(default=None, ge=0, description="MLA rotary head part [-].")
    v_head_dim: int | None = Field(default=None, ge=1, description="MLA value head width [-].")
    moe_overlap: Literal["none", "two_micro_batches", "dualpipe"] | None = Field(
        default=None, description="How the framework hides the expert all-to-all behind compute."
    )
    expert_tp: int | None = Field(default=None, ge=1, description="Expert tensor parallelism [count].")
    moe_node_limit: int | None = Field(
        default=None, ge=1, description="Node-limited routing: nodes a token is sent to at most [count]."
    )
    moe_dispatch_fp8: bool | None = Field(default=None, description="Tokens dispatched in FP8.")
    fp8_recipe: Literal["tensor", "mxfp8"] | None = Field(
        default=None, description="FP8 scaling: per tensor (FP8-CS, delayed) or per 32-element block (MXFP8)."
    )
    moe_graphed_dispatch: bool | None = Field(
        default=None, description="Router and token preprocessing captured in CUDA graphs (no host sync)."
    )
    full_iteration_graph: bool | None = Field(
        default=None,
        description="The whole training iteration captured in one CUDA graph (cuda_graph_impl full_iteration).",
    )
    expert_bias: bool | None = Field(
        default=None, description="The experts' linear layers carry bias terms (GPT-OSS)."
    )
    moe_framework: Literal["megatron_core", "automodel"] | None = Field(
        default=None, description="Framework whose per-copy expert-path cost applies."
    )
    moe_dispatch_mode: Literal["auto", "normal", "low_latency"] | None = Field(
        default=None, description="Serving expert dispatch kernels: normal (throughput) or low_latency."
    )
    moe_low_latency_path: Literal["nvlink", "rdma"] | None = Field(
        default=None,
        description="Low-latency kernels: copies inside the scale-up domain over its links or through the NIC.",
    )
    moe_dispatcher: Literal["alltoall", "fused", "hybridep"] | None = Field(
        default=None, description="Token dispatcher: NCCL all-to-all or fused (DeepEP-style) kernels."
    )
    optimizer_states: Literal["fp32_master", "bf16"] | None = Field(
        default=None, description="Adam states: fp32 master weights and moments, or bf16 moments, no master."
    )
    grad_reduce_precision: Literal["bf16", "fp32"] | None = Field(
        default=None,
        description="Data-parallel gradient buffers and reduction: bf16 or fp32 (the recipe's setting).",
    )
    offload_activation_layers: int | None = Field(
        default=None, ge=0, description="Layers whose activations the recipe offloads to host memory [count]."
    )
    distribute_saved_activations: bool | None = Field(
        default=None, description="Checkpointed layer inputs split over the tensor-parallel GPUs."
    )
    seq_len: int | None = Field(default=None, ge=1, description="Sequence length [tokens].")
    tokens_b: float | None = Field(default=None, gt=0, description="Training tokens [billions].")
    global_batch_seqs: int | None = Field(default=None, ge=1, description="Global batch [sequences].")
    micro_batch_seqs: int | None = Field(default=None, ge=1, description="Micro-batch [sequences].")
    tp: int | None = Field(default=None, ge=1, description="Tensor-parallel GPUs [count].")
    pp: int | None = Field(default=None, ge=1, description="Pipeline stages [count].")
    dp: int | None = Field(default=None, ge=1, description="Data-parallel replicas [count].")
    ep: int | None = Field(default=None, ge=1, description="Expert-parallel GPUs [count].")
    cp: int | None = Field(default=None, ge=1, description="Context-parallel GPUs [count].")
    virtual_stages: int | None = Field(
        default=None, ge=1, description="Interleaved pipeline stages per GPU (v) [count]."
    )
    sequence_parallel: bool | None = Field(default=None, description="Megatron sequence parallelism on.")
    attention_kernel: Literal["flash", "materialized"] | None = Field(
        default=None,
        description="Whether the attention scores are written to HBM (before FlashAttention) or not.",
    )
    fp8_attention: bool | None = Field(
        default=None,
        description="The attention core runs in FP8 too (Transformer Engine's fp8_dot_product_attention).",
    )
    recompute: Recompute | None = Field(default=None, description="Activation recomputation.")
    precision: Precision | None = Field(default=None, description="Math precision of the matrix multiplies.")
    software_release: SoftwareRelease | None = Field(
        default=None, description="Training framework release of the run, when the model has its calibration."
    )
    zero_stage: int | None = Field(
        default=None, ge=0, le=3, description="ZeRO / FSDP sharding stage (0 = none, 1 = optimizer)."
    )
    dp_overlap_fraction: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="Share of the gradient reduction the framework hides behind the backward [-].",
    )
    pp_overlap_fraction: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="Share of the steady-state pipeline sends the framework hides (0 = blocking) [-].",
    )
    accumulation_rounds: int | None = Field(
        default=None, ge=1, description="Pipeline schedules run per optimizer step (AutoModel's GA) [count]."
    )
    cp_comm_type: Literal["p2p", "all_gather"] | None = Field(
        default=None,
        description="Context parallelism's K/V exchange: p2p ring (hidden) or all-gather (exposed).",
    )
    input_tokens: int | None = Field(
        default=None, ge=1, description="Prompt length of a serving run [tokens]."
    )
    output_tokens: int | None = Field(
        default=None, ge=1, description="Generated length of a serving run [tokens]."
    )
    concurrent_seqs: int | None = Field(
        default=None, ge=1, description="Sequences a serving run batches together [count]."
    )
    kv_precision: Literal["bf16", "fp8"] | None = Field(
        default=None, description="KV-cache format of a serving run."
    )
    decode_attention: Literal["grouped", "per_query_head"] | None = Field(
        default=None,
        description="How the serving run's decode kernel reads the KV cache (grouped-query models).",
    )
    collective: Collective | None = Field(default=None, description="nccl-tests collective.")
    algorithm: str | None = Field(
        default=None, description="NCCL algorithm (ring, tree, nvls, nvlstree) when the source names it."
    )
    message_bytes: int | None = Field(default=None, ge=1, description="nccl-tests buffer size [B].")
    nics_per_node: int | None = Field(
        default=None, ge=1, description="Scale-out NIC ports per server [count]."
    )
    nic_speed_gbit_per_s: float | None = Field(
        default=None, gt=0, description="Line rate of one scale-out NIC port [Gb/s]."
    )
    duration_h: float | None = Field(default=None, gt=0, description="Observation window [h].")
    flops_counted: FlopsCounted | None = Field(
        default=None,
        description=(
            "How the source counts a FLOP/s figure: model (what the model needs, e.g. 6ND) or "
            "hardware (what the GPUs compute, recomputation included)."
        ),
    )


class ValidationCase(_Frozen):
    """One published figure, its source, its configuration and how close the model must come."""

    id: str = Field(pattern=_ID_PATTERN, description="Slug, unique across all case files.")
    area: Area = Field(description="Which part of the model the figure checks.")
    role: Role = Field(
        description="calibration: a model coefficient was fitted to it; validation: it was not."
    )
    quantity: str = Field(
        pattern=r"^[a-z][a-z0-9_]*$",
        description="What is compared, with its unit in the name (achieved_tflops_per_gpu, ...).",
    )
    published: float | PublishedRange = Field(
        description="The published value, or {low, high} when the source gives a range."
    )
    unit: str = Field(min_length=1, description="Unit of the published value ('TFLOP/s', 'GB/s', 'count').")
    tolerance: Tolerance = Field(description="Allowed relative deviation and why.")
    source: CaseSource = Field(description="Exact citation of the figure.")
    inputs: CaseInputs = Field(description="The configuration as planner inputs.")
    notes: str = Field(
        default="",
        description=(
            "What the model cannot express yet; for calibration cases, which coefficient was fitted."
        ),
    )

    @model_validator(mode="after")
    def _calibration_says_which_coefficient(self) -> ValidationCase:
        if self.role == "calibration" and not self.notes.strip():
            raise ValueError("a calibration case must name the fitted coefficient in notes")
        return self

    @property
    def published_low(self) -> float:
        """Lower end of the published figure (the value itself when it is not a range)."""
        return self.published.low if isinstance(self.published, PublishedRange) else self.published

    @property
    def published_high(self) -> float:
        """Upper end of the published figure (the value itself when it is not a range)."""
        return self.published.high if isinstance(self.published, PublishedRange) else self.published

    def agrees(self, *, model_value: float) -> bool:
        """Whether a model value lies within the tolerance of the published figure.

        ``low (1 - t) <= model <= high (1 + t)`` for relative tolerance ``t``.

        >>> case = ValidationCase.model_validate({
        ...     "id": "x", "area": "power", "role": "validation", "quantity": "power_kw",
        ...     "published": 10.2, "unit": "kW",
        ...     "tolerance": {"relative": 0.05, "reason": "maximum rating, rounded"},
        ...     "source": {"citation": "NVIDIA DGX H100 User Guide", "locator": "Introduction",
        ...                "url": "https://docs.nvidia.com/dgx/"},
        ...     "inputs": {}})
        >>> case.agrees(model_value=10.6), case.agrees(model_value=10.8)
        (True, False)
        """
        t = self.tolerance.relative
        return self.published_low * (1 - t) <= model_value <= self.published_high * (1 + t)


def _cases_of_file(path: Path) -> list[ValidationCase]:
    # the case files ship with the planner and share source texts by YAML anchor: trusted
    data = read_mapping(path, what=msg("validation case file"), error=CatalogError, trusted=True)
    if data is None or set(data) != {"cases"} or not isinstance(data["cases"], list):
        raise CatalogError(f"{path}: a validation case file must hold one key, 'cases', with a list")
    cases = []
    for index, raw in enumerate(data["cases"]):
        label = raw.get("id", "?") if isinstance(raw, Mapping) else "?"
        where = f"{path}: cases[{index}] ({label}): "
        if not isinstance(raw, Mapping):
            raise CatalogError(f"{where}a case must be a mapping")
        case = parse(ValidationCase, raw, prefix=where, error=CatalogError)
        # an area may span several files: serving.yaml, serving-<source>.yaml
        if case.area != path.stem.split("-", 1)[0]:
            raise CatalogError(f"{where}area: {case.area!r} does not match the file name {path.name!r}")
        cases.append(case)
    return cases


def load_cases(*, directory: Path | None = None) -> tuple[ValidationCase, ...]:
    """Read every ``<area>.yaml`` case file of ``directory``, in file and list order.

    Parameters
    ----------
    directory
        Folder of case files; defaults to :data:`CASES_DIR`.

    Returns
    -------
    tuple of ValidationCase
        The cases.

    Raises
    ------
    CatalogError
        One line naming the file, the case and the field: unreadable file, unknown or missing
        field, value out of range, a case filed under the wrong area, or an id used twice.
    """
    folder = CASES_DIR if directory is None else directory
    paths = sorted(folder.glob("*.yaml"))
    if not paths:
        raise CatalogError(f"{folder}: no validation case files (*.yaml)")
    seen: dict[str, Path] = {}
    cases: list[ValidationCase] = []
    for path in paths:
        for case in _cases_of_file(path):
            if case.id in seen:
                raise CatalogError(f"{path}: id {case.id!r} is already used in {seen[case.id]}")
            seen[case.id] = path
            cases.append(case)
    return tuple(cases)


TWIN_FIELDS = (
    "gpu_id",
    "gpus",
    "params_b",
    "layers",
    "hidden_size",
    "experts",
    "top_k",
    "seq_len",
    "tp",
    "pp",
    "cp",
    "ep",
    "precision",
)
"""The inputs that make two training figures the same run on paper: the model, the GPUs and the
layout. A validation figure with a calibration twin (the same run from another release or
report) agrees with its twin by construction as far as the fitted coefficient goes, so it is
weak evidence and is counted apart (:func:`calibration_twins`)."""


def calibration_twins(cases: tuple[ValidationCase, ...]) -> dict[str, str]:
    """Validation case id -> id of a calibration case of the same training run on paper.

    Two training cases of the same quantity are twins when they state the GPU, the GPU count and
    the model size and agree on every input of :data:`TWIN_FIELDS` (one left unstated on both
    sides agrees: a dense model states no experts). A different software release, micro-batch or
    fabric does not make another run: the fitted coefficient carries over.

    Parameters
    ----------
    cases : tuple of ValidationCase
        All cases, both roles.

    Returns
    -------
    dict of str to str
        For each validation case with a twin, the first calibration twin's id (file order).
    """

    def key(case: ValidationCase) -> tuple[object, ...] | None:
        values = tuple(getattr(case.inputs, name) for name in TWIN_FIELDS)
        if case.area != "training" or any(v is None for v in values[:3]):
            return None
        return (case.quantity, *values)

    calibrated: dict[tuple[object, ...], str] = {}
    for case in cases:
        found = key(case)
        if case.role == "calibration" and found is not None:
            calibrated.setdefault(found, case.id)
    twins = {}
    for case in cases:
        found = key(case)
        if case.role == "validation" and found is not None and found in calibrated:
            twins[case.id] = calibrated[found]
    return twins


def contradictions(cases: tuple[ValidationCase, ...]) -> dict[str, tuple[str, ...]]:
    """Case id -> ids of the cases of identical inputs whose published figure it contradicts.

    Two cases contradict each other when they compare the same quantity in the same area for the
    same inputs (every input equal, as stated) and no single model value lies within both
    tolerances: ``max(low_a (1 - t_a), low_b (1 - t_b)) > min(high_a (1 + t_a), high_b (1 + t_b))``.
    A model is a function of its inputs, so at most one of the two can pass, whatever the model:
    the source itself disagrees (a later release of the same table, the same preset, a different
    figure). Such a pair is not evidence about the model and is named in every summary.

    Parameters
    ----------
    cases : tuple of ValidationCase
        All cases, both roles.

    Returns
    -------
    dict of str to tuple of str
        For each case contradicted by another, the other cases' ids (file order); cases that
        contradict none are absent.

    Examples
    --------
    >>> base = {"area": "power", "role": "validation", "quantity": "power_kw", "unit": "kW",
    ...         "tolerance": {"relative": 0.1, "reason": "maximum rating"},
    ...         "source": {"citation": "A vendor datasheet", "locator": "Table 1",
    ...                    "url": "https://example.org/"},
    ...         "inputs": {"gpus": 8}}
    >>> a, b, c = (ValidationCase.model_validate({**base, "id": i, "published": v})
    ...            for i, v in (("a", 10.0), ("b", 13.0), ("c", 11.0)))
    >>> contradictions((a, b, c))
    {'a': ('b',), 'b': ('a',)}
    """
    groups: dict[tuple[str, str, str], list[ValidationCase]] = {}
    for case in cases:
        key = (case.area, case.quantity, case.inputs.model_dump_json(exclude_none=True))
        groups.setdefault(key, []).append(case)
    found: dict[str, list[str]] = {}
    for group in groups.values():
        for a in group:
            for b in group:
                ta, tb = a.tolerance.relative, b.tolerance.relative
                lowest = max(a.published_low * (1 - ta), b.published_low * (1 - tb))
                highest = min(a.published_high * (1 + ta), b.published_high * (1 + tb))
                if a is not b and lowest > highest:
                    found.setdefault(a.id, []).append(b.id)
    return {case_id: tuple(others) for case_id, others in found.items()}


def by_role(cases: tuple[ValidationCase, ...]) -> dict[Role, tuple[ValidationCase, ...]]:
    """Cases split by role: calibration and validation are counted apart, never pooled.

    Parameters
    ----------
    cases : tuple of ValidationCase
        The cases.

    Returns
    -------
    dict of Role to tuple of ValidationCase
        The cases of each role, ``calibration`` and ``validation``.
    """
    return {role: tuple(c for c in cases if c.role == role) for role in ROLES}
