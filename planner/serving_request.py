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

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from planner.errors import InputError, describe_validation_error
from planner.i18n.message import msg

Precision = Literal["bf16", "fp8", "fp4"]
KvPrecision = Literal["bf16", "fp8"]
DecodeAttention = Literal["grouped", "per_query_head"]
MoeDispatchMode = Literal["auto", "normal", "low_latency"]

DEFAULT_MOE_EXPERTS = 256
"""Routed experts assumed when only ``active_params_b`` says the model is a mixture of experts:
DeepSeek-V3's fine-grained routing (arXiv 2412.19437, section 4.2: 256 routed experts, 8 per
token, 1 shared)."""
DEFAULT_MOE_TOP_K = 8
"""Experts per token assumed with :data:`DEFAULT_MOE_EXPERTS` (DeepSeek-V3)."""


# The transformer's shape and parallelism, as the serving request and the training job
# (planner.performance.training.job) both take them: one definition, so that the two forms, the
# CLI and the store accept the same ranges.
ParamsB = Annotated[float, Field(gt=0, le=100_000, description="Total parameters [billions].")]
Layers = Annotated[int | None, Field(ge=1, le=2000, description="Transformer layers; empty = derived.")]
HiddenSize = Annotated[int | None, Field(ge=64, le=1_000_000, description="Model width; empty = derived.")]
Heads = Annotated[int | None, Field(ge=1, le=4096, description="Attention heads; empty = h / 128.")]
FfnHidden = Annotated[int | None, Field(ge=1, le=10_000_000, description="FFN width; empty = 4 h.")]
GatedMlp = Annotated[bool, Field(description="Gated (SwiGLU) feed-forward: three matrices.")]
SharedExperts = Annotated[int, Field(ge=0, le=64, description="Experts every token passes through.")]
TensorParallel = Annotated[
    int | None, Field(ge=1, le=1024, description="Tensor-parallel GPUs; empty = searched.")
]
ExpertParallel = Annotated[
    int | None, Field(ge=1, le=4096, description="Expert-parallel GPUs; empty = searched.")
]


class ServingRequest(BaseModel):
    """A model to serve, its formats, the request mix and (optionally) the latency targets."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    params_b: ParamsB
    active_params_b: float | None = Field(
        default=None, gt=0, le=100_000, description="Parameters a token passes through (MoE) [billions]."
    )
    layers: Layers = None
    hidden_size: HiddenSize = None
    heads: Heads = None
    kv_heads: int | None = Field(
        default=None, ge=1, le=4096, description="Key/value heads (GQA < heads, MHA = heads); empty = heads."
    )
    head_dim: int | None = Field(
        default=None, ge=8, le=1024, description="Width of one attention head; empty = h / heads."
    )
    kv_lora_rank: int | None = Field(
        default=None,
        ge=1,
        le=65_536,
        description="Multi-head latent attention (MLA): compressed KV width per token and layer; empty = no MLA.",
    )
    rope_head_dim: int = Field(
        default=64, ge=0, le=1024, description="MLA: decoupled RoPE key width cached beside the latent [-]."
    )
    ffn_hidden: FfnHidden = None
    gated_mlp: GatedMlp = False
    vocab: int | None = Field(
        default=None, ge=1, le=10_000_000, description="Vocabulary; empty = not counted."
    )
    experts: int | None = Field(
        default=None, ge=1, le=4096, description="Routed experts per MoE layer; empty = 1 (dense)."
    )
    top_k: int | None = Field(default=None, ge=1, le=64, description="Experts each token is routed to.")
    shared_experts: SharedExperts = 0
    precision: Precision = Field(default="bf16", description="Weight format: bf16, fp8 or fp4.")
    kv_precision: KvPrecision = Field(default="bf16", description="KV-cache format: bf16 or fp8.")
    decode_attention: DecodeAttention = Field(
        default="grouped",
        description=(
            "How the decode attention kernel reads the KV cache of a grouped-query model: grouped = "
            "once per KV head, shared by its query heads (FlashDecoding, TensorRT-LLM's XQA); "
            "per_query_head = once per query head (one thread block per head: TensorRT-LLM's masked "
            "multi-head attention kernel before XQA)."
        ),
    )
    input_tokens: int = Field(default=2048, ge=1, le=1_048_576, description="Prompt length [tokens].")
    output_tokens: int = Field(default=256, ge=1, le=1_048_576, description="Generated length [tokens].")
    batch: int | None = Field(
        default=None,
        ge=1,
        le=1_000_000,
        description="Concurrent sequences per model instance; empty = the largest that fits (and meets the SLOs).",
    )
    ttft_ms: float | None = Field(
        default=None, gt=0, le=3_600_000, description="Time-to-first-token target [ms]."
    )
    tpot_ms: float | None = Field(
        default=None, gt=0, le=3_600_000, description="Time-per-output-token target [ms]."
    )
    requests_per_s: float | None = Field(
        default=None, gt=0, le=1e9, description="Request rate to serve (reverse sizing) [1/s]."
    )
    disaggregate: bool = Field(default=False, description="Separate prefill and decode pools.")
    tp: TensorParallel = None
    ep: ExpertParallel = None
    moe_dispatch_mode: MoeDispatchMode = Field(
        default="auto",
        description=(
            "Expert dispatch kernels: normal = throughput kernels that send each token once per node "
            "and forward it over the scale-up links; low_latency = every copy sent directly over the "
            "network, no forwarding (DeepEP's low-latency mode); auto = normal for prefill steps, "
            "low_latency for decode steps, as disaggregated pools run them."
        ),
    )
    moe_node_limit: int | None = Field(
        default=None, ge=1, le=1024, description="Node-limited routing: nodes a token is sent to at most."
    )
    moe_overlap: bool = Field(
        default=False,
        description="Two micro-batches in flight: one's expert all-to-all hidden behind the other's compute.",
    )
    moe_load_imbalance: float = Field(
        default=1.0, ge=1, le=64, description="Tokens on the busiest expert GPU over the mean [-]."
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
    """Validate a mapping into a :class:`ServingRequest`; :class:`InputError` names field and range."""
    try:
        return ServingRequest.model_validate(dict(data))
    except ValidationError as exc:
        raise InputError(
            msg(
                "{source}: {error}", source=source, error=describe_validation_error(exc, model=ServingRequest)
            )
        ) from None
