"""The serving request: the model, its numeric formats, the request mix and the service targets.

A request is validated at the boundary (pydantic, frozen, no unknown fields); everything below
takes a :class:`ServingRequest` and never re-checks it. It lives here, below the scenario and the
serving engine (``planner.performance.serving``), so that a scenario carries its serving request
through the store, the JSON/YAML export and the share link (``docs/architecture.md``). See ``docs/model.md`` (Inference and
serving) for what each field does to the estimate.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from planner.i18n.message import msg
from planner.inputs import Input, count_option, offered, parse, switch_option

Precision = Literal["bf16", "fp8", "fp4"]
KvPrecision = Literal["bf16", "fp8"]
DecodeAttention = Literal["grouped", "per_query_head"]
MoeDispatchMode = Literal["auto", "normal", "low_latency"]
MoeLowLatencyPath = Literal["nvlink", "rdma"]

DEFAULT_MOE_EXPERTS = 256
"""Routed experts assumed when only ``active_params_b`` says the model is a mixture of experts:
DeepSeek-V3's fine-grained routing (arXiv 2412.19437, section 4.2: 256 routed experts, 8 per
token, 1 shared)."""
DEFAULT_MOE_TOP_K = 8
"""Experts per token assumed with :data:`DEFAULT_MOE_EXPERTS` (DeepSeek-V3)."""


# The transformer's shape and parallelism, as the serving request and the training job
# (planner.inputs.training) both take them: one definition, so that the two forms, the CLI and the
# store accept the same ranges.
ParamsB = Annotated[
    float,
    Field(gt=0, le=100_000, description="Total parameters [billions]."),
    Input(flag="--params-b", step=1.0, number_format="%.1f"),
]
Layers = Annotated[
    int | None,
    Field(ge=1, le=2000, description="Transformer layers; empty = derived."),
    Input(flag="--layers"),
]
HiddenSize = Annotated[
    int | None,
    Field(ge=64, le=1_000_000, description="Model width; empty = derived."),
    Input(flag="--hidden"),
]
Heads = Annotated[
    int | None, Field(ge=1, le=4096, description="Attention heads; empty = h / 128."), Input(flag="--heads")
]
FfnHidden = Annotated[
    int | None,
    Field(ge=1, le=10_000_000, description="FFN width, per expert for MoE; empty = 4 h."),
    Input(flag="--ffn-hidden"),
]
GatedMlp = Annotated[
    bool, Field(description="Gated (SwiGLU) feed-forward: three matrices."), Input(flag="--gated-mlp")
]
SharedExperts = Annotated[
    int, Field(ge=0, le=64, description="Experts every token passes through."), Input(flag="--shared-experts")
]
TensorParallel = Annotated[
    int | None,
    Field(ge=1, le=1024, description="Tensor-parallel GPUs; empty = searched."),
    Input(flag="--tp"),
]
ExpertParallel = Annotated[
    int | None,
    Field(ge=1, le=4096, description="Expert-parallel GPUs; empty = searched."),
    Input(flag="--ep"),
]
# Inputs both models take with the same range and option; each model says in its own words what
# the field means there (and what empty means).
KvHeads = Annotated[int | None, Field(ge=1, le=4096), Input(flag="--kv-heads", step=1)]
"""Key/value heads (GQA when fewer than the heads)."""
KvLoraRank = Annotated[int | None, Field(ge=1, le=65_536), Input(flag="--kv-lora-rank")]
"""Multi-head latent attention: the compressed key/value width."""
Vocab = Annotated[int | None, Field(ge=1, le=10_000_000), Input(flag="--vocab")]
"""Vocabulary [tokens]."""
MoeNodeLimit = Annotated[int | None, Field(ge=1, le=1024), Input(flag="--moe-node-limit")]
"""Node-limited routing: the most scale-up domains (nodes) a token is sent to."""
MoeLoadImbalance = Annotated[float, Field(ge=1, le=64), Input(flag="--moe-imbalance")]
"""Tokens on the busiest expert-parallel GPU over the mean [-]."""

_MODEL = "sv.group.model"
_FORMAT = "sv.group.format"
_LOAD = "sv.group.load"
_DERIVED = "sv.placeholder.derived"
_NO_TARGET = "sv.placeholder.no_target"
_PRECISIONS = {
    "bf16": "sv.precision.bfloat",
    "fp8": "sv.precision.float_eight",
    "fp4": "sv.precision.float_four",
}


def _latency_target(flag: str, label: str, step: float, number_format: str, description: str) -> Any:
    """A service-level latency target [ms], up to an hour; empty = no target (the form's load group)."""
    spec = Input(flag=flag, label=label, group=_LOAD, step=step, number_format=number_format,
                 placeholder=_NO_TARGET)  # fmt: skip
    return offered(Field(default=None, gt=0, le=3_600_000, description=description), spec)


class ServingRequest(BaseModel):
    """A model to serve, its formats, the request mix and (optionally) the latency targets."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    params_b: Annotated[
        ParamsB,
        Input(
            cli_note="required unless --hf-config gives them",
            label="sv.field.params_b",
            group=_MODEL,
            form_default=671.0,
        ),
    ]
    active_params_b: Annotated[
        float | None,
        Input(
            flag="--active-params-b",
            label="sv.field.active_params_b",
            group=_MODEL,
            form_default=37.0,
            step=1.0,
            number_format="%.1f",
            placeholder="sv.placeholder.dense",
        ),
    ] = Field(
        default=None, gt=0, le=100_000, description="Parameters a token passes through (MoE) [billions]."
    )
    layers: Annotated[Layers, Input(label="sv.field.layers", group=_MODEL, step=1, placeholder=_DERIVED)] = (
        None
    )
    hidden_size: Annotated[
        HiddenSize, Input(label="sv.field.hidden_size", group=_MODEL, step=256, placeholder=_DERIVED)
    ] = None
    heads: Heads = None
    kv_heads: Annotated[KvHeads, Input(label="sv.field.kv_heads", group=_MODEL, placeholder=_DERIVED)] = (
        Field(default=None, description="Key/value heads (GQA < heads, MHA = heads); empty = heads.")
    )
    head_dim: int | None = count_option(
        "--head-dim", ge=8, le=1024, description="Width of one attention head; empty = h / heads."
    )
    kv_lora_rank: Annotated[
        KvLoraRank, Input(label="sv.field.kv_lora_rank", group=_MODEL, step=64, placeholder=_DERIVED)
    ] = Field(
        default=None,
        description="Multi-head latent attention (MLA): compressed KV width per token and layer "
        "(DeepSeek: 512); empty = no MLA.",
    )
    rope_head_dim: int = Field(
        default=64, ge=0, le=1024, description="MLA: decoupled RoPE key width cached beside the latent [-]."
    )
    ffn_hidden: FfnHidden = None
    gated_mlp: GatedMlp = False
    vocab: Vocab = Field(default=None, description="Vocabulary; empty = not counted.")
    experts: Annotated[
        int | None,
        Input(flag="--experts", label="sv.field.experts", group=_MODEL, step=1, placeholder=_DERIVED),
    ] = Field(
        default=None,
        ge=1,
        le=4096,
        description="Routed experts per MoE layer; empty = 1 (dense), or 256 when only active_params_b is given.",
    )
    top_k: int | None = count_option(
        "--top-k", le=64, description="Experts each token is routed to; empty = 8 for MoE."
    )
    shared_experts: SharedExperts = 0
    precision: Annotated[
        Precision,
        Input(
            flag="--precision",
            label="sv.field.precision",
            group=_FORMAT,
            form_default="fp8",
            choices=_PRECISIONS,
        ),
    ] = Field(default="bf16", description="Weight format: bf16, fp8 or fp4.")
    kv_precision: Annotated[
        KvPrecision,
        Input(
            flag="--kv-precision",
            label="sv.field.kv_precision",
            group=_FORMAT,
            choices={k: _PRECISIONS[k] for k in ("bf16", "fp8")},
        ),
    ] = Field(default="bf16", description="KV-cache format: bf16 or fp8.")
    decode_attention: Annotated[DecodeAttention, Input(flag="--decode-attention")] = Field(
        default="grouped",
        description=(
            "How the decode attention kernel reads the KV cache of a grouped-query model: grouped = "
            "once per KV head, shared by its query heads (FlashDecoding, TensorRT-LLM's XQA); "
            "per_query_head = once per query head (one thread block per head: TensorRT-LLM's masked "
            "multi-head attention kernel before XQA)."
        ),
    )
    input_tokens: Annotated[
        int, Input(flag="--input-tokens", label="sv.field.input_tokens", group=_LOAD, step=256)
    ] = Field(default=2048, ge=1, le=1_048_576, description="Prompt length [tokens].")
    output_tokens: Annotated[
        int,
        Input(flag="--output-tokens", label="sv.field.output_tokens", group=_LOAD, form_default=512, step=64),
    ] = Field(default=256, ge=1, le=1_048_576, description="Generated length [tokens].")
    batch: Annotated[
        int | None,
        Input(
            flag="--batch", label="sv.field.batch", group=_LOAD, step=8, placeholder="sv.placeholder.batch"
        ),
    ] = Field(
        default=None,
        ge=1,
        le=1_000_000,
        description="Concurrent sequences per model instance; empty = the largest that fits (and meets the SLOs).",
    )
    ttft_ms: float | None = _latency_target(
        "--ttft-ms", "sv.field.ttft_ms", 50.0, "%.0f", "Time-to-first-token target [ms]."
    )
    tpot_ms: float | None = _latency_target(
        "--tpot-ms", "sv.field.tpot_ms", 5.0, "%.1f", "Time-per-output-token target [ms]."
    )
    requests_per_s: Annotated[
        float | None,
        Input(
            flag="--requests-per-s",
            cli_note="with --size",
            label="sv.field.requests_per_s",
            form_default=20.0,
            step=5.0,
            number_format="%.1f",
        ),
    ] = Field(default=None, gt=0, le=1e9, description="Request rate to serve (reverse sizing) [1/s].")
    disaggregate: Annotated[
        bool, Input(flag="--disaggregate", label="sv.field.disaggregate", group=_FORMAT)
    ] = Field(default=False, description="Separate prefill and decode pools.")
    tp: TensorParallel = None
    ep: ExpertParallel = None
    moe_dispatch_mode: Annotated[MoeDispatchMode, Input(flag="--moe-dispatch-mode")] = Field(
        default="auto",
        description=(
            "Expert dispatch kernels: normal = throughput kernels that send each token once per node "
            "and forward it over the scale-up links; low_latency = every copy sent directly over the "
            "network, no forwarding (DeepEP's low-latency mode); auto = normal for prefill steps, "
            "low_latency for decode steps, as disaggregated pools run them."
        ),
    )
    moe_node_limit: MoeNodeLimit = Field(
        default=None, description="Node-limited routing: nodes a token is sent to at most."
    )
    moe_overlap: bool = switch_option(
        "--moe-overlap",
        description="Two micro-batches in flight: one's expert all-to-all hidden behind the other's compute "
        "(decode: DeepSeek's staged schedule, the routed experts never hidden).",
    )
    moe_low_latency_path: Annotated[MoeLowLatencyPath, Input(flag="--moe-low-latency-path")] = Field(
        default="nvlink",
        description=(
            "Where low-latency dispatch kernels send a copy for a GPU of their own scale-up domain: "
            "nvlink = over the scale-up links (DeepEP since 2025-06); rdma = through the GPU's own "
            "NIC like every other copy (DeepEP's first, pure-RDMA release, 2025-02)."
        ),
    )
    moe_load_imbalance: MoeLoadImbalance = Field(
        default=1.0, description="Tokens on the busiest expert GPU over the mean [-]."
    )
    mtp_draft_tokens: Annotated[
        int, Input(flag="--mtp-draft-tokens", label="sv.field.mtp_draft_tokens", group=_FORMAT, step=1)
    ] = Field(
        default=0,
        ge=0,
        le=16,
        description=(
            "Speculative decoding with the model's multi-token prediction module as the draft: tokens "
            "it drafts per sequence and decode step, all verified in the next step; 0 = none."
        ),
    )
    mtp_acceptance: Annotated[
        float | None,
        Input(
            flag="--mtp-acceptance",
            cli_note="with --mtp-draft-tokens",
            label="sv.field.mtp_acceptance",
            group=_FORMAT,
            step=0.05,
            number_format="%.2f",
            placeholder="sv.placeholder.mtp_acceptance",
        ),
    ] = Field(
        default=None,
        gt=0,
        le=1,
        description=(
            "Share of draft tokens accepted, each given the ones before it were [-]; needed with "
            "--mtp-draft-tokens (DeepSeek-V3 reports 0.85-0.9 for its second token)."
        ),
    )

    @model_validator(mode="after")
    def _consistent(self) -> ServingRequest:
        if self.active_params_b is not None and self.active_params_b > self.params_b:
            raise ValueError(
                msg(
                    "active_params_b ({active}) must not exceed params_b ({total})",
                    active=self.active_params_b,
                    total=self.params_b,
                )
            )
        if self.top_k is not None and self.top_k > self.routed_experts:
            raise ValueError(
                msg(
                    "top_k ({top_k}) must not exceed experts ({experts})",
                    top_k=self.top_k,
                    experts=self.routed_experts,
                )
            )
        if self.mtp_draft_tokens > 0 and self.mtp_acceptance is None:
            raise ValueError(msg("mtp_acceptance (0 < a <= 1) is needed with mtp_draft_tokens > 0"))
        if self.routed_experts == 1 and self.ep not in (None, 1):
            raise ValueError(msg("ep > 1 needs a mixture-of-experts model (experts > 1)"))
        return self

    @property
    def moe_from_active_only(self) -> bool:
        """True when only ``active_params_b`` marks the model as a mixture of experts."""
        return (
            self.experts is None and self.active_params_b is not None and self.active_params_b < self.params_b
        )

    @property
    def routed_experts(self) -> int:
        """Routed experts per layer: given, or :data:`DEFAULT_MOE_EXPERTS` when only the active
        parameters mark the model as MoE, else 1 [count]."""
        if self.experts is not None:
            return self.experts
        return DEFAULT_MOE_EXPERTS if self.moe_from_active_only else 1

    @property
    def experts_per_token(self) -> int:
        """Routed experts each token uses [count]."""
        if self.top_k is not None:
            return self.top_k
        return min(DEFAULT_MOE_TOP_K, self.routed_experts) if self.routed_experts > 1 else 1


def serving_request(data: Mapping[str, Any], *, source: str = "serving") -> ServingRequest:
    """Validate a mapping into a :class:`ServingRequest`; :class:`~planner.errors.InputError` names
    the field and its range.

    Parameters
    ----------
    data : mapping of str to Any
        The serving request's fields.
    source : str
        What the values came from, opening the message.

    Returns
    -------
    ServingRequest
        The validated request.
    """
    return parse(ServingRequest, data, source=source)
