"""The training job: model shape, data, precision and (optionally) its parallel layout.

Each field is the one declaration of its input: the ``planner workload`` option and the Workload
page's form field are generated from it (:mod:`planner.inputs`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from planner.i18n.message import msg
from planner.inputs import Input, count_option, offered, parse, switch_option
from planner.inputs.serving import (
    ExpertParallel,
    FfnHidden,
    GatedMlp,
    Heads,
    HiddenSize,
    KvHeads,
    KvLoraRank,
    Layers,
    MoeLoadImbalance,
    MoeNodeLimit,
    ParamsB,
    SharedExperts,
    TensorParallel,
    Vocab,
)

Precision = Literal["bf16", "fp8"]
Fp8Recipe = Literal["tensor", "mxfp8"]
"""Scaling of FP8 matrix multiplies: one scale per tensor (delayed or current scaling) or one per
32-element block (MXFP8, Blackwell)."""
SoftwareRelease = Literal["latest", "nemo-24.07", "megatron-deepspeed-2021"]
"""Framework release the kernel efficiency is calibrated on: ``latest`` = each GPU's own calibration
(Megatron-Bridge 25.11 for H100, B200, GB200, GB300; Megatron-LM 2022 for A100)."""
RecomputeChoice = Literal["auto", "none", "selective", "full", "block"]
AttentionKernel = Literal["flash", "materialized"]
MoeOverlap = Literal["none", "two_micro_batches", "dualpipe"]
MoeDispatcher = Literal["alltoall", "fused", "hybridep"]
MoeFramework = Literal["megatron_core", "automodel"]
"""Framework whose expert path's cost per routed copy the catalog applies (``data/moe.yaml``)."""
OptimizerStates = Literal["fp32_master", "bf16"]
GradReducePrecision = Literal["bf16", "fp32"]

_MODEL = "wl.group.model"
_COMPUTE = "wl.group.compute"
_LAYOUT = "wl.group.layout"
_NETWORK = "wl.group.network"
_SEARCHED = "wl.placeholder.searched"
_DERIVED = "wl.placeholder.derived"


def _searched_degree(flag: str, label: str, *, le: int, description: str) -> Any:
    """A parallel degree of the layout: a whole number from 1 to ``le`` the search picks when it is
    left empty (the form's layout group)."""
    spec = Input(flag=flag, label=label, group=_LAYOUT, step=1, placeholder=_SEARCHED)
    return offered(Field(default=None, ge=1, le=le, description=description), spec)


def _hidden_share(flag: str, default: float, description: str) -> Any:
    """A share of some communication hidden behind compute, from 0 (none) to 1 (all) [-]; a
    command-line option."""
    return offered(Field(default=default, ge=0, le=1, description=description), Input(flag=flag))


class TrainingJob(BaseModel):
    """A transformer training run and, optionally, its parallel layout (empty = searched)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    params_b: Annotated[
        ParamsB,
        Input(
            cli_note="required unless --hf-config gives the shape",
            label="wl.field.params_b",
            group=_MODEL,
            form_default=70.0,
        ),
    ]
    job_gpus: Annotated[
        int | None, Input(flag="--job-gpus", cli_note="default: --gpus, even when the plan rounds up")
    ] = Field(
        default=None,
        ge=1,
        le=1_048_576,
        description=(
            "GPUs the job runs on [count]; empty = the GPUs asked for, which may be fewer than the "
            "plan's (whole servers or scale-up domains)."
        ),
    )
    tokens_b: Annotated[
        float,
        Input(
            flag="--tokens-b",
            label="wl.field.tokens_b",
            group=_MODEL,
            form_default=1400.0,
            step=100.0,
            number_format="%.0f",
        ),
    ] = Field(gt=0, le=1_000_000, description="Training tokens [billions].")
    seq_len: Annotated[int, Input(flag="--seq-len", label="wl.field.seq_len", group=_MODEL, step=1024)] = (
        Field(default=4096, ge=128, le=1_048_576, description="Sequence length [tokens].")
    )
    global_batch_seqs: Annotated[
        int, Input(flag="--global-batch", label="wl.field.global_batch", group=_MODEL, step=128)
    ] = Field(default=1024, ge=1, le=10_000_000, description="Global batch [sequences].")
    micro_batch_seqs: int | None = count_option(
        "--micro-batch", le=4096, description="Micro-batch [sequences]; empty = searched."
    )
    precision: Annotated[
        Precision,
        Input(
            flag="--precision",
            label="wl.field.precision",
            group=_COMPUTE,
            choices={"bf16": "wl.precision.bfloat", "fp8": "wl.precision.float_eight"},
        ),
    ] = Field(default="bf16", description="Math precision of the matrix multiplies.")
    fp8_recipe: Annotated[Fp8Recipe, Input(flag="--fp8-recipe")] = Field(
        default="tensor",
        description=(
            "Scaling of FP8 matrix multiplies (with precision fp8): tensor = one scale per tensor "
            "(Transformer Engine's delayed or current scaling); mxfp8 = one scale per 32-element block "
            "(Blackwell's MXFP8), with its own kernel-efficiency ceiling where the catalog states one."
        ),
    )
    mfu: Annotated[
        float | None,
        Input(
            flag="--mfu",
            label="wl.field.mfu",
            group=_COMPUTE,
            step=0.05,
            number_format="%.2f",
            placeholder="wl.placeholder.fitted",
        ),
    ] = Field(
        default=None,
        gt=0,
        le=1,
        description="Share of dense peak the compute kernels reach [-]; empty = fitted curve.",
    )
    layers: Layers = None
    hidden_size: HiddenSize = None
    heads: Heads = None
    kv_heads: Annotated[KvHeads, Input(label="wl.field.kv_heads", group=_MODEL, placeholder=_DERIVED)] = (
        Field(default=None, description="KV heads (GQA/MQA); empty = heads.")
    )
    head_dim: int | None = count_option(
        "--head-dim", ge=8, le=4096, description="Width of one attention head; empty = h / heads."
    )
    ffn_hidden: FfnHidden = None
    gated_mlp: GatedMlp = False
    vocab: Annotated[Vocab, Input(label="wl.field.vocab", group=_MODEL, step=1024, placeholder=_DERIVED)] = (
        Field(default=None, description="Vocabulary; empty = no logits.")
    )
    experts: Annotated[int, Input(flag="--experts", label="wl.field.experts", group=_COMPUTE, step=1)] = (
        Field(default=1, ge=1, le=4096, description="Experts per MoE layer; 1 = dense.")
    )
    top_k: Annotated[int, Input(flag="--top-k", label="wl.field.top_k", group=_COMPUTE, step=1)] = Field(
        default=1, ge=1, le=64, description="Experts each token is routed to."
    )
    shared_experts: SharedExperts = 0
    mtp_layers: Annotated[
        int, Input(flag="--mtp-layers", label="wl.field.mtp_layers", group=_COMPUTE, step=1)
    ] = Field(
        default=0,
        ge=0,
        le=16,
        description=(
            "Multi-token prediction modules trained after the last layer (DeepSeek-V3: 1): each a "
            "projection, one transformer layer and the shared output layer, on the last pipeline stage; 0 = none."
        ),
    )
    tp: Annotated[
        TensorParallel, Input(label="wl.field.tp", group=_LAYOUT, step=1, placeholder=_SEARCHED)
    ] = None
    cp: int | None = _searched_degree(
        "--cp", "wl.field.cp", le=1024, description="Context-parallel GPUs; empty = searched from 16K tokens."
    )
    pp: int | None = _searched_degree(
        "--pp", "wl.field.pp", le=1024, description="Pipeline stages; empty = searched."
    )
    dp: int | None = _searched_degree(
        "--dp", "wl.field.dp", le=1_048_576, description="Data-parallel replicas; empty = searched."
    )
    ep: Annotated[
        ExpertParallel, Input(label="wl.field.ep", group=_LAYOUT, step=1, placeholder=_SEARCHED)
    ] = None
    virtual_stages: int | None = count_option(
        "--virtual-stages", le=64, description="Interleaved stages per GPU (v); empty = searched."
    )
    zero_stage: Annotated[Literal[0, 1, 2, 3] | None, Input(flag="--zero-stage")] = Field(
        default=None,
        description="Optimizer sharding: 0 none, 1 optimizer, 2 + gradients, 3 + weights (FSDP); "
        "empty = searched 1-3.",
    )
    optimizer_states: Annotated[OptimizerStates, Input(flag="--optimizer-states")] = Field(
        default="fp32_master",
        description="fp32_master: fp32 master weights and Adam moments, 12 B per parameter "
        "(Megatron, DeepSpeed mixed precision); bf16: Adam moments in the bf16 weights' dtype and no "
        "master copy, 4 B per parameter (PyTorch Adam on bf16 parameters).",
    )
    grad_reduce_precision: Annotated[GradReducePrecision, Input(flag="--grad-reduce-precision")] = Field(
        default="bf16",
        description="Precision of the data-parallel gradient buffers and their reduction: bf16, 2 B per "
        "gradient (Megatron-Bridge's performance recipes, grad_reduce_in_fp32 False); fp32, 4 B per "
        "gradient (Megatron-LM's default for bf16 runs, accumulate_allreduce_grads_in_fp32).",
    )
    dp_overlap_fraction: float = _hidden_share(
        "--dp-overlap", 0.5, "Share of the gradient reduction hidden behind backward [-]."
    )
    tp_overlap_fraction: float = _hidden_share(
        "--tp-overlap", 0.0, "Share of tensor-parallel communication hidden [-]."
    )
    pp_overlap_fraction: float = _hidden_share(
        "--pp-overlap",
        1.0,
        "Share of the steady-state pipeline sends hidden behind compute [-]: 1 = overlapped "
        "(Megatron-Core's overlap_p2p_comm), 0 = blocking (Megatron-LM and DeepSpeed before 2023).",
    )
    accumulation_rounds: Annotated[int, Input(flag="--accumulation-rounds")] = Field(
        default=1,
        ge=1,
        le=4096,
        description=(
            "Pipeline schedules run per optimizer step, each over its share of the micro-batches and "
            "each with its own fill and drain: 1 = one schedule over all of them (Megatron-Core); "
            "NeMo AutoModel runs one per gradient-accumulation step (its GA)."
        ),
    )
    cp_comm_type: Annotated[Literal["p2p", "all_gather"], Input(flag="--cp-comm-type")] = Field(
        default="p2p",
        description=(
            "How context parallelism moves K and V: p2p = chunks passed around a ring, hidden behind "
            "the attention core (Megatron-Core and Transformer Engine's default); all_gather = gathered "
            "whole before attention, exposed (Llama 3's context parallelism)."
        ),
    )
    in_network_reduction: bool = switch_option(
        "--in-network-reduction",
        label="wl.field.in_network_reduction",
        group=_NETWORK,
        description="Reduce gradients in the switches (SHARP) where they support it.",
    )
    recompute: Annotated[
        RecomputeChoice,
        Input(
            flag="--recompute",
            label="wl.field.recompute",
            group=_COMPUTE,
            choices={
                "auto": "wl.recompute.auto",
                "none": "wl.recompute.none",
                "selective": "wl.recompute.selective",
                "full": "wl.recompute.full",
                "block": "wl.recompute.block",
            },
        ),
    ] = Field(
        default="auto",
        description=(
            "Activation recomputation: none, selective, full, block (the first recompute_layers layers "
            "of each pipeline chunk in full, Megatron-LM's block method); auto = searched."
        ),
    )
    recompute_layers: int | None = count_option(
        "--recompute-layers",
        le=2000,
        description="Layers of each pipeline chunk recomputed in full with recompute block; empty = the fewest "
        "that fit.",
    )
    offload_activation_layers: Annotated[int, Input(flag="--offload-activation-layers")] = Field(
        default=0,
        ge=0,
        le=2000,
        description=(
            "Layers whose stored activations go to host memory in the forward and come back for the "
            "backward over the GPU's host link (Megatron-Core's cpu_offloading_num_layers; one pipeline "
            "stage); 0 = none. Stated, never searched."
        ),
    )
    distribute_saved_activations: bool = switch_option(
        "--distribute-saved-activations",
        description=(
            "With full recomputation, each layer's checkpointed input is split over the tensor-parallel "
            "GPUs and all-gathered before it is recomputed (Megatron-LM's --distribute-saved-activations, "
            "metaseq's --distribute-checkpointed-activations); needs sequence parallelism off."
        ),
    )
    dropout: bool = switch_option(
        "--dropout", description="Dropout layers keep their masks (GPT-3-era models)."
    )
    attention_kernel: Annotated[AttentionKernel, Input(flag="--attention-kernel")] = Field(
        default="flash",
        description=(
            "flash: the attention scores stay on chip (FlashAttention, 2022 on); materialized: they are "
            "written to HBM (Megatron-LM and DeepSpeed before 2022)."
        ),
    )
    fp8_attention: Annotated[
        bool, Input(flag="--fp8-attention", label="wl.field.fp8_attention", group=_COMPUTE)
    ] = Field(
        default=False,
        description=(
            "The attention core (QK^T and PV, forward and backward) also runs in FP8, at the catalog's "
            "published FP8 / BF16 attention-kernel speed for the GPU (Transformer Engine's "
            "fp8_dot_product_attention, cuDNN's fused FP8 attention); needs precision fp8."
        ),
    )
    sequence_parallel: Annotated[bool, Input(negative_flag="--no-sequence-parallel")] = Field(
        default=True, description="Split norms and dropout over the TP GPUs (Megatron-LM since 2022)."
    )
    usable_memory_fraction: Annotated[float | None, Input(flag="--usable-memory")] = Field(
        default=None,
        gt=0,
        le=1,
        description=(
            "Share of the driver-reported device memory a layout may fill, standing for every reserve "
            "[-]; empty = the device less its counted reserve (CUDA context, NCCL buffers per "
            "communicator, allocator fragmentation; data/training.yaml)."
        ),
    )

    software_release: Annotated[SoftwareRelease, Input(flag="--software-release")] = Field(
        default="latest",
        description=(
            "Training framework release whose kernel efficiency applies: latest (each GPU's own "
            "calibration: Megatron-Bridge 25.11 on H100, B200, GB200, GB300), nemo-24.07 (H100) or "
            "megatron-deepspeed-2021 (A100: DeepSpeed's pipeline engine with Megatron tensor parallelism)."
        ),
    )

    # --- mixture of experts (planner/performance/training/moe.py) ---
    dense_layers: Annotated[int, Input(flag="--dense-layers")] = Field(
        default=0,
        ge=0,
        le=1024,
        description="First layers with a dense FFN instead of experts (first-k dense).",
    )
    dense_ffn_hidden: int | None = count_option(
        "--dense-ffn-hidden",
        le=1_000_000,
        description="FFN width of the dense first layers; empty = ffn_hidden.",
    )
    q_lora_rank: int | None = count_option(
        "--q-lora-rank", le=65536, description="Multi-head latent attention: query compression rank."
    )
    kv_lora_rank: KvLoraRank = Field(
        default=None, description="Multi-head latent attention: key/value compression rank."
    )
    qk_rope_head_dim: Annotated[int, Input(flag="--qk-rope-head-dim")] = Field(
        default=0, ge=0, le=4096, description="Multi-head latent attention: rotary part of a query/key head."
    )
    v_head_dim: int | None = count_option(
        "--v-head-dim", le=4096, description="Multi-head latent attention: width of a value head."
    )
    expert_tp: int | None = count_option(
        "--expert-tp",
        le=1024,
        description="Tensor-parallel GPUs of each expert; empty = tp when ep divides dp x cp, else 1.",
    )
    moe_load_imbalance: MoeLoadImbalance = Field(
        default=1.0,
        description="Tokens on the busiest expert-parallel GPU over the mean [-] (1 = force-balanced).",
    )
    moe_redundant_experts: Annotated[int, Input(flag="--moe-redundant-experts")] = Field(
        default=0, ge=0, le=4096, description="Redundant expert copies per layer (EPLB) over the expert GPUs."
    )
    moe_node_limit: MoeNodeLimit = Field(
        default=None,
        description="Node-limited routing: scale-up domains a token is sent to at most, then forwarded inside.",
    )
    moe_dispatcher: Annotated[
        MoeDispatcher,
        Input(
            flag="--moe-dispatcher",
            label="wl.field.moe_dispatcher",
            group=_NETWORK,
            choices={
                "alltoall": "wl.moe_dispatcher.alltoall",
                "fused": "wl.moe_dispatcher.fused",
                "hybridep": "wl.moe_dispatcher.hybridep",
            },
        ),
    ] = Field(
        default="alltoall",
        description=(
            "alltoall: NCCL all-to-all with separate permutation kernels (Megatron-Core's default); "
            "fused: DeepEP-style kernels that communicate from the GPU's own multiprocessors and keep "
            "some of them while they overlap compute, then Megatron-Core's permutation; "
            "hybridep: fused kernels that also permute the tokens to their experts (HybridEP)."
        ),
    )
    moe_copy_overhead_ns: Annotated[float | None, Input(flag="--moe-copy-overhead-ns")] = Field(
        default=None,
        ge=0,
        le=100_000,
        description=(
            "Framework time per routed token copy and expert layer, forward and backward, beyond the "
            "expert GEMMs, counted bytes and host waits [ns]; empty = the catalog's for --moe-framework "
            "(Megatron-Core's or AutoModel's fit). State your framework's own when you have measured it."
        ),
    )
    moe_framework: Annotated[MoeFramework, Input(flag="--moe-framework")] = Field(
        default="megatron_core",
        description=(
            "Framework whose per-copy expert-path cost applies: megatron_core (fitted on Megatron-Bridge "
            "rows) or automodel (NeMo AutoModel's PyTorch path, fitted on its own row); the host wait "
            "per expert-layer forward is the same."
        ),
    )
    moe_graphed_dispatch: bool = switch_option(
        "--moe-graphed-dispatch",
        label="wl.field.moe_graphed_dispatch",
        group=_NETWORK,
        description="The router and the token preprocessing run inside CUDA graphs (Megatron-Core's "
        "cuda_graph_scope moe_router and moe_preprocess): with the fused or HybridEP dispatcher, which "
        "then has no host synchronisation on the token counts, waits on nothing and the captured path's "
        "own per-copy cost applies (HybridEP's own, graphs or not); the all-to-all dispatcher still "
        "waits on the host and keeps both.",
    )
    full_iteration_graph: bool = switch_option(
        "--full-iteration-graph",
        label="wl.field.full_iteration_graph",
        group=_NETWORK,
        description="The whole training iteration runs as one CUDA graph (Megatron-Core's cuda_graph_impl "
        "full_iteration, with the expert buffers sized ahead so nothing waits on the host): with the fused "
        "or HybridEP dispatcher nothing is launched from the host per expert layer, so neither the host "
        "wait nor the partial capture's per-copy cost applies, only the full graph's own; needs a "
        "dispatcher other than alltoall for a mixture-of-experts model.",
    )
    expert_bias: bool = switch_option(
        "--expert-bias",
        label="wl.field.expert_bias",
        group=_COMPUTE,
        description="The experts' linear layers carry bias terms (GPT-OSS; read from a Hugging Face config). "
        "Megatron-Core's unfused expert MLP adds them expert by expert on token counts it copies to the host "
        "in every forward, so its expert layers wait on the host whatever runs in CUDA graphs: neither the "
        "captured router nor a whole-iteration graph removes the host wait, and the whole graph's per-copy "
        "cost does not apply.",
    )
    moe_dispatch_fp8: bool = switch_option(
        "--moe-dispatch-fp8",
        description="Dispatch tokens in FP8 (1 byte per element); the combine stays BF16.",
    )
    moe_overlap: Annotated[
        MoeOverlap,
        Input(
            flag="--moe-overlap",
            label="wl.field.moe_overlap",
            group=_NETWORK,
            choices={
                "none": "wl.moe_overlap.none",
                "two_micro_batches": "wl.moe_overlap.two_micro_batches",
                "dualpipe": "wl.moe_overlap.dualpipe",
            },
        ),
    ] = Field(
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
        if self.recompute_layers is not None and self.recompute != "block":
            raise ValueError(msg("recompute_layers needs recompute block"))
        if self.experts == 1 and self.ep not in (None, 1):
            raise ValueError(msg("ep > 1 needs experts > 1"))
        if self.expert_tp is not None and self.tp is not None and self.tp % self.expert_tp:
            raise ValueError(msg("expert_tp ({etp}) must divide tp ({tp})", etp=self.expert_tp, tp=self.tp))
        if self.fp8_attention and self.precision != "fp8":
            raise ValueError(msg("fp8_attention needs precision fp8"))
        if self.full_iteration_graph and self.experts > 1 and self.moe_dispatcher == "alltoall":
            raise ValueError(msg("full_iteration_graph needs moe_dispatcher fused or hybridep"))
        self._memory_options()
        if self.layers is not None and self.dense_layers >= self.layers and self.experts > 1:
            raise ValueError(
                msg(
                    "dense_layers ({dense}) must be fewer than layers ({layers})",
                    dense=self.dense_layers,
                    layers=self.layers,
                )
            )
        return self

    def _memory_options(self) -> None:
        """Activation offloading and distributed checkpoints: the combinations the frameworks allow."""
        offload = self.offload_activation_layers
        if offload and self.layers is not None and offload >= self.layers:
            raise ValueError(
                msg(
                    "offload_activation_layers ({offload}) must be fewer than layers ({layers})",
                    offload=offload,
                    layers=self.layers,
                )
            )
        if offload and self.pp not in (None, 1):
            raise ValueError(msg("offload_activation_layers needs pp 1 (one pipeline stage)"))
        if offload and self.recompute == "block":
            raise ValueError(msg("offload_activation_layers cannot be combined with recompute block"))
        if self.distribute_saved_activations and self.recompute != "full":
            raise ValueError(msg("distribute_saved_activations needs recompute full"))
        if self.distribute_saved_activations and self.sequence_parallel:
            raise ValueError(msg("distribute_saved_activations needs sequence parallelism off"))


def training_job(data: Mapping[str, Any], *, source: str = "workload") -> TrainingJob:
    """Validate a mapping into a :class:`TrainingJob`; :class:`~planner.errors.InputError` names
    the field and its range.

    Parameters
    ----------
    data : mapping of str to Any
        The training job's fields.
    source : str
        What the values came from, opening the message.

    Returns
    -------
    TrainingJob
        The validated job.
    """
    return parse(TrainingJob, data, source=source)
