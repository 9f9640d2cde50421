"""The training job: model shape, data, precision and (optionally) its parallel layout.

It sits below the scenario (beside :mod:`planner.serving_request`) so that a scenario's workload mix
carries training jobs; :mod:`planner.performance.training.job` re-exports it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from planner.errors import InputError, describe_validation_error
from planner.i18n.message import msg
from planner.serving_request import (
    ExpertParallel,
    FfnHidden,
    GatedMlp,
    Heads,
    HiddenSize,
    Layers,
    ParamsB,
    SharedExperts,
    TensorParallel,
)

Precision = Literal["bf16", "fp8"]
RecomputeChoice = Literal["auto", "none", "selective", "full"]
AttentionKernel = Literal["flash", "materialized"]
MoeOverlap = Literal["none", "two_micro_batches", "dualpipe"]
MoeDispatcher = Literal["alltoall", "fused"]

FP8_SPEEDUP = 2.0
"""FP8 dense peak / BF16 dense peak: 1979 / 989 TFLOPS on H100 SXM (NVIDIA datasheet). Applied to
every GPU (an assumption for non-NVIDIA parts)."""


class TrainingJob(BaseModel):
    """A transformer training run and, optionally, its parallel layout (empty = searched)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    params_b: ParamsB
    tokens_b: float = Field(gt=0, le=1_000_000, description="Training tokens [billions].")
    seq_len: int = Field(default=4096, ge=128, le=1_048_576, description="Sequence length [tokens].")
    global_batch_seqs: int = Field(default=1024, ge=1, le=10_000_000, description="Global batch [sequences].")
    micro_batch_seqs: int | None = Field(
        default=None, ge=1, le=4096, description="Micro-batch [sequences]; empty = searched."
    )
    precision: Precision = Field(default="bf16", description="Math precision of the matrix multiplies.")
    mfu: float | None = Field(
        default=None,
        gt=0,
        le=1,
        description="Share of dense peak the compute kernels reach [-]; empty = fitted curve.",
    )
    layers: Layers = None
    hidden_size: HiddenSize = None
    heads: Heads = None
    kv_heads: int | None = Field(
        default=None, ge=1, le=4096, description="KV heads (GQA/MQA); empty = heads."
    )
    head_dim: int | None = Field(
        default=None, ge=8, le=4096, description="Width of one attention head; empty = h / heads."
    )
    ffn_hidden: FfnHidden = None
    gated_mlp: GatedMlp = False
    vocab: int | None = Field(default=None, ge=1, le=10_000_000, description="Vocabulary; empty = no logits.")
    experts: int = Field(default=1, ge=1, le=4096, description="Experts per MoE layer; 1 = dense.")
    top_k: int = Field(default=1, ge=1, le=64, description="Experts each token is routed to.")
    shared_experts: SharedExperts = 0
    tp: TensorParallel = None
    cp: int | None = Field(
        default=None, ge=1, le=1024, description="Context-parallel GPUs; empty = searched."
    )
    pp: int | None = Field(default=None, ge=1, le=1024, description="Pipeline stages; empty = searched.")
    dp: int | None = Field(
        default=None, ge=1, le=1_048_576, description="Data-parallel replicas; empty = searched."
    )
    ep: ExpertParallel = None
    virtual_stages: int | None = Field(
        default=None, ge=1, le=64, description="Interleaved stages per GPU (v); empty = searched."
    )
    zero_stage: Literal[0, 1, 2, 3] | None = Field(
        default=None,
        description="Optimizer sharding: 0 none, 1 optimizer, 2 + gradients, 3 + weights (FSDP).",
    )
    dp_overlap_fraction: float = Field(
        default=0.5, ge=0, le=1, description="Share of the gradient reduction hidden behind backward [-]."
    )
    tp_overlap_fraction: float = Field(
        default=0.0, ge=0, le=1, description="Share of tensor-parallel communication hidden [-]."
    )
    pp_overlap_fraction: float = Field(
        default=1.0,
        ge=0,
        le=1,
        description=(
            "Share of the steady-state pipeline sends hidden behind compute [-]: 1 = overlapped "
            "(Megatron-Core's overlap_p2p_comm), 0 = blocking (Megatron-LM and DeepSpeed before 2023)."
        ),
    )
    in_network_reduction: bool = Field(
        default=False, description="Reduce gradients in the switches (SHARP) where they support it."
    )
    recompute: RecomputeChoice = Field(
        default="auto", description="Activation recomputation: none, selective, full; auto = searched."
    )
    dropout: bool = Field(default=False, description="Dropout layers keep their masks (GPT-3-era models).")
    attention_kernel: AttentionKernel = Field(
        default="flash",
        description=(
            "flash: the attention scores stay on chip (FlashAttention, 2022 on); materialized: they are "
            "written to HBM (Megatron-LM and DeepSpeed before 2022)."
        ),
    )
    sequence_parallel: bool = Field(
        default=True, description="Split norms and dropout over the TP GPUs (Megatron-LM since 2022)."
    )
    usable_memory_fraction: float = Field(
        default=0.9,
        gt=0,
        le=1,
        description="Share of HBM a layout may fill (the rest: workspace, fragmentation) [-].",
    )
    # --- mixture of experts (planner/performance/training/moe.py) ---
    dense_layers: int = Field(
        default=0,
        ge=0,
        le=1024,
        description="First layers with a dense FFN instead of experts (first-k dense).",
    )
    dense_ffn_hidden: int | None = Field(
        default=None,
        ge=1,
        le=1_000_000,
        description="FFN width of the dense first layers; empty = ffn_hidden.",
    )
    q_lora_rank: int | None = Field(
        default=None, ge=1, le=65536, description="Multi-head latent attention: query compression rank."
    )
    kv_lora_rank: int | None = Field(
        default=None, ge=1, le=65536, description="Multi-head latent attention: key/value compression rank."
    )
    qk_rope_head_dim: int = Field(
        default=0, ge=0, le=4096, description="Multi-head latent attention: rotary part of a query/key head."
    )
    v_head_dim: int | None = Field(
        default=None, ge=1, le=4096, description="Multi-head latent attention: width of a value head."
    )
    expert_tp: int | None = Field(
        default=None,
        ge=1,
        le=1024,
        description="Tensor-parallel GPUs of each expert; empty = tp when ep divides dp x cp, else 1.",
    )
    moe_load_imbalance: float = Field(
        default=1.0,
        ge=1,
        le=64,
        description="Tokens on the busiest expert-parallel GPU over the mean [-] (1 = force-balanced).",
    )
    moe_redundant_experts: int = Field(
        default=0, ge=0, le=4096, description="Redundant expert copies per layer (EPLB) over the expert GPUs."
    )
    moe_node_limit: int | None = Field(
        default=None,
        ge=1,
        le=1024,
        description="Node-limited routing: scale-up domains a token is sent to at most, then forwarded inside.",
    )
    moe_dispatcher: MoeDispatcher = Field(
        default="alltoall",
        description=(
            "alltoall: NCCL all-to-all with separate permutation kernels (Megatron-Core's default); "
            "fused: DeepEP-style kernels that communicate from the GPU's own multiprocessors and keep "
            "some of them while they overlap compute."
        ),
    )
    moe_dispatch_fp8: bool = Field(
        default=False, description="Dispatch tokens in FP8 (1 byte per element); the combine stays BF16."
    )
    moe_overlap: MoeOverlap = Field(
        default="none",
        description=(
            "Expert all-to-all hidden behind compute: none; two_micro_batches (one micro-batch's "
            "all-to-all runs under the other's compute); dualpipe (that, and DualPipe's halved bubble)."
        ),
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
        if self.expert_tp is not None and self.tp is not None and self.tp % self.expert_tp:
            raise ValueError(msg("expert_tp ({etp}) must divide tp ({tp})", etp=self.expert_tp, tp=self.tp))
        if self.layers is not None and self.dense_layers >= self.layers and self.experts > 1:
            raise ValueError(
                msg(
                    "dense_layers ({dense}) must be fewer than layers ({layers})",
                    dense=self.dense_layers,
                    layers=self.layers,
                )
            )
        return self


def training_job(data: Mapping[str, Any], *, source: str = "workload") -> TrainingJob:
    """Validate a mapping into a :class:`TrainingJob`; :class:`InputError` names field and range."""
    try:
        return TrainingJob.model_validate(dict(data))
    except ValidationError as exc:
        raise InputError(
            msg("{source}: {error}", source=source, error=describe_validation_error(exc, model=TrainingJob))
        ) from None
