"""Memory per GPU in training: weights, gradients, optimizer, activations, buffers.

Notes
-----
States (mixed-precision Adam, Rajbhandari et al., "ZeRO", SC 2020): ``Phi`` parameters per GPU
(``P_dense / (tp pp) + P_expert / (etp pp ep)``, :attr:`Parallel.etp`), bf16 weights ``2 Phi``, bf16 gradients ``2 Phi``,
fp32 master weights and Adam moments ``12 Phi`` (``4 Phi``, bf16 moments and no master copy, when the
framework runs Adam on bf16 parameters: ``TrainingJob.optimizer_states``); ZeRO stage 1 (Megatron's distributed optimizer)
divides the 12 by the sharding group ``g = dp cp`` (``edp = tp cp dp / (ep etp)`` for expert weights), stage 2
also the gradients, stage 3 (FSDP) also the weights, which then need two layers gathered.

Activations per layer and micro-batch [B] (Korthikanti et al., arXiv 2205.05198, section 4,
generalised to GQA, FFN width and gate; ``r = h_kv / h``, ``d = 2`` with dropout else 0,
``c = 6`` gated FFN else 4; sequence parallelism divides everything by ``t``, without it the
``(8 + d) s b h`` of norms, masks and the QKV and FFN inputs stay whole, their eq. 4; context
parallelism divides ``s`` by ``cp``; FP8 matrix multiplies keep 1-byte copies of their inputs,
:func:`activation_shares`)::

    none       s b h (12 + 4r + d + c f/h) / t + 5 a s^2 b / t  (scores materialised)
               s b h (12 + 4r + d + c f/h) / t + 4 a s b / t    (flash kernel: one fp32 per row)
    selective  s b h (12 + 4r + d + c f/h) / t              (attention core recomputed)
    full       2 s b h / t  (+ one layer's working set)     (only each layer's input kept)
    block      per chunk: its first n layers as ``full``, the others as ``none`` (+ one layer's
               working set); Megatron-LM's ``--recompute-method block --recompute-num-layers n``

With MHA, ``f = 4 h``, dropout: ``34 s b h / t + 5 a s^2 b / t`` (their eq. 2 with sequence
parallelism). Rank ``r`` of a 1F1B pipeline holds its warm-up's chunk passes plus one, counted per
chunk of the layout's split (:mod:`~planner.performance.training.pipeline`: uneven and balanced
stages; interleaving gives the first stage of an even split Korthikanti et al.'s ``1 + (pp - 1) /
(pp v)``, their section 4.2.3). Buffers: the last stage's logits of one micro-batch (bf16 and fp32,
``6 s b V / (t cp)``); with ``D`` multi-token prediction modules (on the last stage, after the
last layer) ``(1 + D)`` of them and the ``D`` modules' block activations of one micro-batch (the last
chunk's one pass in flight at the 1F1B peak); their parameters are spread over the stages with the
model's (:func:`params_per_gpu`). The breakdown is that of the fullest GPU: the rank holding the most layer
activations, or the last rank with its logits when that holds more.

Offloading (Transformer Engine's and Megatron-Core's CPU offloading, ``cpu_offloading_num_layers
= n``; one pipeline stage): the activations of the first ``n`` layers (the offload handler's groups
with index below ``num_offload_group``) are copied to host memory in the forward and back in the
backward, asynchronously, one layer behind the compute. The peak, when the backward begins, holds
the other ``L - n`` layers; an offloaded layer's set is in flight only while fewer are held.
Distributed checkpoints (Megatron-LM's ``--distribute-saved-activations``, full recomputation
without sequence parallelism): the kept layer input ``2 s b h`` is split over the ``t`` GPUs,
``2 s b h / t``, and all-gathered before the layer is recomputed (Megatron-LM's
``CheckpointFunction``; counted in the step time).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from planner.catalog.load import Catalog
from planner.catalog.rules import rule_values
from planner.i18n.message import msg
from planner.performance.training.flops import Recompute, token_flops
from planner.performance.training.pipeline import (
    StageSplit,
    held_layer_micro_batches_of,
    held_layers_per_rank,
    stage_split,
)
from planner.performance.training.shape import ModelShape

ZeroStage = Literal[0, 1, 2, 3]

FLASH_STATISTIC_BYTES = 4.0
"""fp32 log-sum-exp a flash-attention kernel keeps per query row and head for its backward (Dao et
al., "FlashAttention", arXiv 2205.14135, algorithm 2) [B]."""
WEIGHT_BYTES = 2.0
"""bf16 weights [B per parameter]."""
GRADIENT_BYTES = 2.0
"""bf16 gradients [B per parameter]."""
GRADIENT_BYTES_OF = {"bf16": GRADIENT_BYTES, "fp32": 4.0}
"""Gradient buffer and reduction bytes per parameter by ``TrainingJob.grad_reduce_precision`` [B]:
Megatron-Core allocates its gradient buffer in fp32 when ``grad_reduce_in_fp32``, else in the
parameters' dtype (``megatron/core/distributed/param_and_grad_buffer.py``, ``grad_dtype``)."""
OPTIMIZER_BYTES = 12.0
"""fp32 master weights, Adam m and v [B per parameter]."""
BF16_OPTIMIZER_BYTES = 4.0
"""Adam m and v in bf16, no master copy (PyTorch Adam on bf16 parameters) [B per parameter]."""
LOGIT_BYTES = 6.0
"""bf16 logits and their fp32 softmax [B per token per vocabulary entry]."""


@dataclass(frozen=True)
class MemoryBreakdown:
    """Bytes on the fullest GPU (the first pipeline stage) [B]: the tensors the job allocates and,
    once the layout is chosen, the reserve beside them (:class:`MemoryReserve`; 0 while searching
    and when an explicit usable fraction replaces the reserve)."""

    weights_bytes: float
    gradients_bytes: float
    optimizer_bytes: float
    activations_bytes: float
    buffers_bytes: float
    context_bytes: float = 0.0
    """CUDA context and cuBLAS workspace [B]."""
    nccl_bytes: float = 0.0
    """NCCL's buffers for the communicators the layout uses [B]."""
    allocator_bytes: float = 0.0
    """Caching-allocator memory reserved beyond the allocated peak (fragmentation) [B]."""

    @property
    def allocated_bytes(self) -> float:
        """The tensors: weights, gradients, optimizer states, activations and buffers [B]."""
        return (
            self.weights_bytes
            + self.gradients_bytes
            + self.optimizer_bytes
            + self.activations_bytes
            + self.buffers_bytes
        )

    @property
    def total_bytes(self) -> float:
        """The tensors and the reserve beside them [B]."""
        return self.allocated_bytes + self.context_bytes + self.nccl_bytes + self.allocator_bytes

    def as_gbyte(self) -> dict[str, float]:
        parts = {
            "weights": self.weights_bytes / 1e9,
            "gradients": self.gradients_bytes / 1e9,
            "optimizer": self.optimizer_bytes / 1e9,
            "activations": self.activations_bytes / 1e9,
            "buffers": self.buffers_bytes / 1e9,
        }
        reserve = {
            "cuda_context": self.context_bytes / 1e9,
            "nccl": self.nccl_bytes / 1e9,
            "allocator": self.allocator_bytes / 1e9,
        }
        return parts | {k: v for k, v in reserve.items() if v}


@dataclass(frozen=True)
class Parallel:
    """A parallel layout and schedule (GPUs = ``tp cp pp dp``; ``ep`` divides ``tp cp dp``)."""

    tp: int
    cp: int
    pp: int
    dp: int
    ep: int
    v: int
    micro_batch_seqs: int
    micro_batches: int
    expert_tp: int = 0
    """Expert tensor parallelism as given; 0 = :attr:`etp`'s default."""
    recompute_layers: int = 0
    """Layers of each pipeline chunk recomputed in full under ``recompute = "block"`` [count]."""

    @property
    def etp(self) -> int:
        """Expert tensor parallelism [count]: as given, else ``tp`` when ``ep`` divides ``dp cp``
        (experts sharded like the dense FFN), else 1: the expert layers refold the ``tp cp dp`` GPUs
        of a stage into ``etp x ep x edp`` (Megatron-Core's MoE parallel folding, arXiv 2504.14960)."""
        if self.expert_tp:
            return self.expert_tp
        return self.tp if (self.dp * self.cp) % self.ep == 0 else 1

    @property
    def edp(self) -> int:
        """Expert data parallelism: replicas of each expert shard per stage, ``tp cp dp / (ep etp)``."""
        return max(1, self.tp * self.cp * self.dp // (self.ep * self.etp))


@dataclass(frozen=True)
class MemoryReserve:
    """Device memory a training process holds beside its tensors (module notes, reserve).

    Each figure is a catalog record of ``data/training.yaml`` (:data:`RESERVE_RULES`) with its source.
    NCCL's buffers are counted by what a communicator is used for: a collective one (tensor,
    context, data parallelism; expert parallelism when another library moves its tokens) holds the
    measured ``nccl_bytes_per_communicator``; the pipeline's and an NCCL all-to-all's, which only
    send and receive, hold NCCL's point-to-point buffers: one shared send and one receive buffer
    for all peers across the network, and the connections to each peer over the scale-up links
    (:meth:`pipeline_nccl_bytes`, :meth:`expert_nccl_bytes`).
    """

    context_bytes: float
    """CUDA context with lazy module loading [B]."""
    workspace_bytes: float
    """cuBLAS workspace of the compute stream [B]."""
    nccl_bytes_per_communicator: float
    """NCCL buffers of one collective communicator once it has run a collective [B]."""
    allocator_fraction: float
    """Caching-allocator reserve beyond the allocated peak, per allocated byte [-]."""
    nccl_p2p_net_bytes: float = 0.0
    """NCCL's shared send and receive buffers of a point-to-point communicator over the network [B]."""
    nccl_p2p_bytes_per_scale_up_peer: float = 0.0
    """NCCL's buffers for sending to and receiving from one peer over the scale-up links [B]."""

    @staticmethod
    def communicators(lay: Parallel, *, nccl_all_to_all: bool = False) -> int:
        """Collective communicators the fullest rank runs [count]: one per parallel dimension
        larger than 1 among tensor, context and data, and expert unless NCCL's all-to-all moves the
        tokens (the pipeline's and the all-to-all's only send and receive:
        :meth:`pipeline_nccl_bytes`, :meth:`expert_nccl_bytes`).

        >>> MemoryReserve.communicators(Parallel(8, 1, 16, 64, 1, 8, 1, 32))  # TP, DP
        2
        """
        ep = 0 if nccl_all_to_all else lay.ep
        return sum(1 for size in (lay.tp, lay.cp, lay.dp, ep) if size > 1)

    def pipeline_nccl_bytes(self, lay: Parallel, *, domain_gpus: int) -> float:
        """NCCL's buffers of the pipeline communicator [B] (module notes, reserve).

        A stage's neighbours are ``tp cp dp`` ranks away (the step model's placement): across the
        network when that fills a scale-up domain of ``domain_gpus``, else on the same links, with
        ``min(2, pp - 1)`` peers (the previous and the next stage)::

            tp cp dp >= domain:  B_p2p,net
            otherwise:           min(2, pp - 1) x B_p2p,peer

        >>> r = MemoryReserve(0.0, 0.0, 0.0, 0.0, 1e8, 4e8)
        >>> r.pipeline_nccl_bytes(Parallel(8, 1, 16, 64, 1, 8, 1, 32), domain_gpus=8)
        100000000.0
        >>> r.pipeline_nccl_bytes(Parallel(2, 1, 4, 1, 1, 1, 1, 8), domain_gpus=8)
        800000000.0
        """
        if lay.pp == 1:
            return 0.0
        if lay.tp * lay.cp * lay.dp >= domain_gpus:
            return self.nccl_p2p_net_bytes
        return min(2, lay.pp - 1) * self.nccl_p2p_bytes_per_scale_up_peer

    def expert_nccl_bytes(self, lay: Parallel, *, domain_gpus: int) -> float:
        """NCCL's buffers of an expert-parallel all-to-all [B] (module notes, reserve): a
        connection to each of the other ``min(ep, domain) - 1`` ranks of the group inside the
        scale-up domain, and the shared network buffers when the group spans domains::

            (min(ep, domain) - 1) x B_p2p,peer + [ep > domain] x B_p2p,net

        >>> r = MemoryReserve(0.0, 0.0, 0.0, 0.0, 1e8, 4e8)
        >>> r.expert_nccl_bytes(Parallel(1, 1, 1, 64, 32, 1, 1, 8), domain_gpus=8)  # 7 peers + network
        2900000000.0
        """
        if lay.ep == 1:
            return 0.0
        inside = (min(lay.ep, domain_gpus) - 1) * self.nccl_p2p_bytes_per_scale_up_peer
        return inside + (self.nccl_p2p_net_bytes if lay.ep > domain_gpus else 0.0)

    def nccl_bytes(self, lay: Parallel, *, domain_gpus: int, nccl_all_to_all: bool = False) -> float:
        """NCCL's buffers for the communicators the layout uses [B]; ``nccl_all_to_all``: the
        expert tokens move by NCCL's all-to-all (else by another library, counted as a collective
        communicator)."""
        collective = self.nccl_bytes_per_communicator * self.communicators(
            lay, nccl_all_to_all=nccl_all_to_all
        )
        experts = self.expert_nccl_bytes(lay, domain_gpus=domain_gpus) if nccl_all_to_all else 0.0
        return collective + experts + self.pipeline_nccl_bytes(lay, domain_gpus=domain_gpus)

    def fixed_bytes(self, lay: Parallel, *, domain_gpus: int, nccl_all_to_all: bool = False) -> float:
        """Context, workspace and NCCL buffers of the layout [B]."""
        nccl = self.nccl_bytes(lay, domain_gpus=domain_gpus, nccl_all_to_all=nccl_all_to_all)
        return self.context_bytes + self.workspace_bytes + nccl


NO_RESERVE = MemoryReserve(0.0, 0.0, 0.0, 0.0)
"""No reserve: an explicit usable fraction of the device stands for all of it."""

RESERVE_RULES = (
    "training_cuda_context_gbyte",
    "training_cublas_workspace_gbyte",
    "training_nccl_gbyte_per_communicator",
    "training_allocator_reserve_fraction",
    "training_nccl_p2p_net_gbyte_per_communicator",
    "training_nccl_p2p_gbyte_per_scale_up_peer",
)
"""``sizing_rules`` ids of :class:`MemoryReserve`'s fields, in order (all in GB but the allocator's
fraction)."""

DEFAULT_DOMAIN_GPUS = 8
"""GPUs per scale-up domain when the budget is not told (an HGX H100 node) [count]."""


@dataclass(frozen=True)
class MemoryBudget:
    """What a layout may allocate on one GPU (module notes, reserve).

    ``usable_bytes`` is the device memory the driver reports, or a user's fraction of it; the
    reserve's fixed parts come off it and the allocator's share is kept beside what is allocated::

        allocatable = (usable - context - workspace - NCCL(layout)) / (1 + a)
    """

    usable_bytes: float
    reserve: MemoryReserve = NO_RESERVE
    domain_gpus: int = DEFAULT_DOMAIN_GPUS
    """GPUs per scale-up domain: which peers are across the network [count]."""
    nccl_all_to_all: bool = True
    """The expert tokens move by NCCL's all-to-all (Megatron-Core's ``alltoall`` dispatcher)."""

    def _fixed_bytes(self, lay: Parallel) -> float:
        return self.reserve.fixed_bytes(
            lay, domain_gpus=self.domain_gpus, nccl_all_to_all=self.nccl_all_to_all
        )

    def allocatable_bytes(self, lay: Parallel) -> float:
        """Tensor bytes the layout may allocate [B]."""
        return (self.usable_bytes - self._fixed_bytes(lay)) / (1.0 + self.reserve.allocator_fraction)

    def needed_bytes(self, allocated_bytes: float, lay: Parallel) -> float:
        """Device bytes the layout holds when it allocates ``allocated_bytes`` [B]."""
        return allocated_bytes * (1.0 + self.reserve.allocator_fraction) + self._fixed_bytes(lay)

    def with_reserve(self, memory: MemoryBreakdown, lay: Parallel) -> MemoryBreakdown:
        """``memory`` with the reserve's terms for the layout [B]."""
        r = self.reserve
        return replace(
            memory,
            context_bytes=r.context_bytes + r.workspace_bytes,
            nccl_bytes=r.nccl_bytes(lay, domain_gpus=self.domain_gpus, nccl_all_to_all=self.nccl_all_to_all),
            allocator_bytes=r.allocator_fraction * memory.allocated_bytes,
        )


def memory_budget(
    *,
    device_bytes: float,
    usable_fraction: float | None,
    reserve: MemoryReserve,
    domain_gpus: int = DEFAULT_DOMAIN_GPUS,
    nccl_all_to_all: bool = True,
) -> MemoryBudget:
    """The training budget of one GPU: the whole device less the sourced reserve, or, when the user
    gives ``usable_fraction``, that share of the device with no reserve counted beside it.

    Parameters
    ----------
    device_bytes : float
        Device memory the driver reports [B].
    usable_fraction : float or None
        The user's share of the device a layout may fill (``--usable-memory``) [-]; ``None``: the
        reserve is counted instead.
    reserve : MemoryReserve
        The catalog's reserve (:func:`memory_reserve`).
    domain_gpus : int
        GPUs per scale-up domain of the fabric [count].
    nccl_all_to_all : bool
        The expert tokens move by NCCL's all-to-all (not DeepEP-style fused kernels).

    Returns
    -------
    MemoryBudget
        The usable bytes and the reserve counted beside the tensors.

    >>> r = MemoryReserve(4e8, 0.0, 1e9, 0.1)
    >>> memory_budget(device_bytes=80e9, usable_fraction=0.9, reserve=r).allocatable_bytes(
    ...     Parallel(8, 1, 1, 1, 1, 1, 1, 1))
    72000000000.0
    >>> round(memory_budget(device_bytes=80e9, usable_fraction=None, reserve=r).allocatable_bytes(
    ...     Parallel(8, 1, 1, 1, 1, 1, 1, 1)) / 1e9, 3)  # (80 - 0.4 - 1) / 1.1
    71.455
    """
    if usable_fraction is not None:
        return MemoryBudget(device_bytes * usable_fraction, domain_gpus=domain_gpus)
    return MemoryBudget(device_bytes, reserve, domain_gpus, nccl_all_to_all)


def memory_reserve(catalog: Catalog) -> MemoryReserve:
    """The reserve's figures from the catalog's ``sizing_rules`` (:data:`RESERVE_RULES`).

    Parameters
    ----------
    catalog : Catalog
        The component catalog (its sizing rules; each record in GB, the allocator's as a fraction).

    Returns
    -------
    MemoryReserve
        CUDA context, cuBLAS workspace and NCCL buffers per collective communicator [B], the
        allocator's reserve per allocated byte [-], NCCL's point-to-point buffers over the network
        per communicator and over the scale-up links per peer [B].
    """
    context, workspace, nccl, allocator, p2p_net, p2p_peer = (
        rule_values(catalog, RESERVE_RULES, needed_by=msg("the training memory model"))[rule_id]
        for rule_id in RESERVE_RULES
    )
    return MemoryReserve(context * 1e9, workspace * 1e9, nccl * 1e9, allocator, p2p_net * 1e9, p2p_peer * 1e9)


@lru_cache(maxsize=256)
def logits_layers(shape: ModelShape, *, seq_len: int) -> float:
    """The output layer's work in layer equivalents [-]: ``2 h V / layer`` forward FLOPs per token,
    and the multi-token prediction modules' on the same last stage
    (:func:`~planner.performance.training.flops.mtp_flops`), to three decimals (the split's choice
    needs no more)."""
    f = token_flops(shape, seq_len=seq_len)
    return round((f.logits + f.mtp) / f.layer, 3)


def pipeline_split(shape: ModelShape, lay: Parallel, *, seq_len: int) -> StageSplit:
    """The layout's split of layers over stages and chunks (:mod:`~planner.performance.training.pipeline`).

    Parameters
    ----------
    shape : ModelShape
        The model (its layers; its output layer's work, :func:`logits_layers`).
    lay : Parallel
        The layout (its ``pp`` stages and ``v`` chunks per stage).
    seq_len : int
        Tokens per sequence [count].

    Returns
    -------
    StageSplit
        Layers of each of the ``pp v`` chunks [count]: the even split, or the balanced one when
        its slowest rank is faster.
    """
    return stage_split(
        layers=shape.layers,
        pp=lay.pp,
        v=lay.v,
        logits_layers=logits_layers(shape, seq_len=seq_len),
        mtp=shape.mtp_layers > 0,
    )


def stage_layers(layers: int, pp: int, v: int = 1) -> int:
    """Layers on the fullest rank of an even split [count].

    Parameters
    ----------
    layers : int
        Transformer layers of the model [count].
    pp : int
        Pipeline stages [count].
    v : int
        Chunks per stage (interleaving) [count].

    Returns
    -------
    int
        The most layers one rank holds, its output layer not counted [count].

    Examples
    --------
    >>> stage_layers(126, 16), stage_layers(126, 16, 4)  # 14 stages of 8; chunks of 3 and 4, 8
    (8, 8)
    """
    return stage_split(layers=layers, pp=pp, v=v, logits_layers=0.0).max_layers


def held_layer_micro_batches(layers: int, pp: int, v: int, micro_batches: int) -> float:
    """Layer activations of one micro-batch the fullest rank of an even split keeps at the 1F1B
    peak [count] (:meth:`~planner.performance.training.pipeline.StageSplit.held_layers`).

    Parameters
    ----------
    layers : int
        Transformer layers of the model [count].
    pp : int
        Pipeline stages [count].
    v : int
        Chunks per stage (interleaving) [count].
    micro_batches : int
        Micro-batches per step [count].

    Returns
    -------
    float
        Layer x micro-batch activation sets held by the rank that holds the most [count].

    Examples
    --------
    >>> held_layer_micro_batches(126, 16, 1, 32)  # 2 stages of 7 (16 x 7), 14 of 8 (14 x 8)
    112
    >>> held_layer_micro_batches(96, 8, 2, 64)  # 8 x 12 x (1 + 7 / 16)
    138
    """
    split = stage_split(layers=layers, pp=pp, v=v, logits_layers=0.0)
    return held_layer_micro_batches_of(split, micro_batches)[0]


def activation_shares(shape: ModelShape, *, dropout: bool, fp8: bool = False) -> tuple[float, float]:
    """Per-layer activations in units of ``s b h`` [B]: the part sequence parallelism splits
    over ``t`` (norms' inputs, dropout masks, the QKV and first FFN inputs: ``8 + d``) and the
    part tensor parallelism always splits (``4 + 4r + c f/h``); module notes.

    With FP8 matrix multiplies the inputs kept for the weight gradients are the FP8 copies, 1 byte
    instead of 2: the QKV and first FFN inputs (``6 + d``), the output projection's input and the
    last FFN matrix's (``3 + 4r + (c - 1) f/h``).

    Parameters
    ----------
    shape : ModelShape
        The model (widths of Q, K/V and the FFN; gate).
    dropout : bool
        Dropout masks are kept (``d = 2``).
    fp8 : bool
        The matrix multiplies run in FP8 (1-byte input copies).

    Returns
    -------
    tuple[float, float]
        The part only sequence parallelism splits and the part tensor parallelism splits, each
        [B per ``s b h``].

    Examples
    --------
    >>> from planner.performance.training.shape import model_shape
    >>> s = model_shape(params_b=22, layers=48, hidden_size=6144, heads=64)
    >>> activation_shares(s, dropout=True), activation_shares(s, dropout=True, fp8=True)
    ((10.0, 24.0), (8.0, 19.0))
    """
    ffn_per_width = shape.ffn_matrices_per_token / shape.hidden_size
    ffn = (6.0 if shape.gated_mlp else 4.0) * ffn_per_width
    q_per_width = shape.q_width / shape.hidden_size
    replicated = 8.0 + (2.0 if dropout else 0.0)
    # Q and the output projection's input (q wide), K and V (h_kv wide), bf16
    split = 4.0 * q_per_width + 4.0 * shape.kv_width / shape.hidden_size + ffn
    if fp8:
        replicated -= 2.0
        split -= q_per_width + ffn_per_width
    return replicated, split


def activation_bytes_per_layer(
    shape: ModelShape, *, seq_len: int, micro_batch_seqs: int, tp: int, cp: int,
    recompute: Recompute, dropout: bool, sequence_parallel: bool = True, materialized_scores: bool = True,
    fp8: bool = False, distribute_saved: bool = False,
) -> float:  # fmt: skip
    """One layer's stored activations for one micro-batch [B] (module notes); ``distribute_saved``
    splits a fully recomputed layer's kept input over the ``t`` GPUs without sequence parallelism.

    Parameters
    ----------
    shape : ModelShape
        The model (width, heads, FFN, gate).
    seq_len : int
        Tokens per sequence, ``s`` [count].
    micro_batch_seqs : int
        Sequences per micro-batch, ``b`` [count].
    tp : int
        Tensor-parallel size, ``t`` [count].
    cp : int
        Context-parallel size (divides ``s``) [count].
    recompute : {"none", "selective", "full"}
        The activation recomputation; ``block`` raises :class:`ValueError` (two per-layer sizes:
        :func:`activation_and_buffer_bytes`).
    dropout : bool
        Dropout masks are kept.
    sequence_parallel : bool
        Sequence parallelism splits the norms' inputs and masks over ``t`` too.
    materialized_scores : bool
        The attention scores are written to HBM (``5 a s^2 b / t``); ``False``: a flash kernel
        keeps one fp32 statistic per query row and head.
    fp8 : bool
        The matrix multiplies run in FP8 (:func:`activation_shares`).
    distribute_saved : bool
        Under ``full``, the kept layer input is split over the ``t`` GPUs.

    Returns
    -------
    float
        Activations one layer keeps for one micro-batch on one GPU [B].

    Examples
    --------
    >>> from planner.performance.training.shape import model_shape
    >>> s = model_shape(params_b=22, layers=48, hidden_size=6144, heads=64)
    >>> a = activation_bytes_per_layer(s, seq_len=2048, micro_batch_seqs=1, tp=8, cp=1,
    ...                                recompute="none", dropout=True)
    >>> a == (34 * 2048 * 6144 + 5 * 64 * 2048**2) / 8  # Korthikanti eq. 2 / t
    True
    >>> a = activation_bytes_per_layer(s, seq_len=2048, micro_batch_seqs=1, tp=8, cp=1,
    ...                                recompute="selective", dropout=True, sequence_parallel=False)
    >>> a == 2048 * 6144 * (10 + 24 / 8)  # their eq. 4 without the attention core
    True
    """
    s = seq_len / cp
    b = micro_batch_seqs
    h = shape.hidden_size
    if recompute == "block":  # per chunk: its recomputed layers as "full", the others as "none"
        raise ValueError("block recomputation mixes two per-layer sizes: activation_and_buffer_bytes")
    if recompute == "full":
        return 2.0 * s * b * h / (tp if sequence_parallel or distribute_saved else 1)
    replicated, split = activation_shares(shape, dropout=dropout, fp8=fp8)
    per_sbh = (replicated + split) / tp if sequence_parallel else replicated + split / tp
    if recompute != "none":
        core = 0.0
    elif materialized_scores:
        core = 5.0 * shape.heads * s * seq_len * b / tp
    else:  # a flash kernel keeps one fp32 softmax statistic per query row and head
        core = FLASH_STATISTIC_BYTES * shape.heads * s * b / tp
    return s * b * h * per_sbh + core


def params_per_gpu(shape: ModelShape, lay: Parallel) -> tuple[float, float]:
    """Dense and expert parameters held by one GPU [count].

    Parameters
    ----------
    shape : ModelShape
        The model (its dense and expert parameters).
    lay : Parallel
        The layout: ``tp pp`` divide the dense parameters, ``etp pp ep`` the expert ones.

    Returns
    -------
    tuple[float, float]
        Dense parameters ``P_dense / (tp pp)`` and expert parameters ``P_expert / (etp pp ep)``
        per GPU, before ZeRO sharding [count].
    """
    return shape.params_dense / (lay.tp * lay.pp), shape.params_expert / (lay.etp * lay.pp * lay.ep)


def state_bytes(
    shape: ModelShape, lay: Parallel, zero: ZeroStage, *, optimizer_bytes: float = OPTIMIZER_BYTES,
    gradient_bytes: float = GRADIENT_BYTES,
) -> tuple[float, float, float]:  # fmt: skip
    """Weights, gradients and optimizer states per GPU [B] (module notes); ``optimizer_bytes`` per
    parameter, 12 with fp32 master weights, :data:`BF16_OPTIMIZER_BYTES` without; ``gradient_bytes``
    per parameter, 2 (bf16) or 4 (fp32 gradient buffers, :data:`GRADIENT_BYTES_OF`).

    Parameters
    ----------
    shape : ModelShape
        The model (parameters, layers).
    lay : Parallel
        The layout (``tp pp ep etp`` split the parameters; ``dp cp``, ``edp`` shard them).
    zero : {0, 1, 2, 3}
        ZeRO stage: 1 shards the optimizer states, 2 also the gradients, 3 also the weights.
    optimizer_bytes : float
        Optimizer state per parameter [B].
    gradient_bytes : float
        Gradient buffer per parameter [B].

    Returns
    -------
    tuple[float, float, float]
        Weights (with ZeRO 3 plus two gathered layers), gradients and optimizer states per GPU [B].
    """
    dense, expert = params_per_gpu(shape, lay)
    group = lay.dp * lay.cp
    sharded = dense / group + expert / lay.edp
    whole = dense + expert
    weights = WEIGHT_BYTES * (sharded if zero == 3 else whole)
    if zero == 3:  # the layer in use and the next one, gathered
        weights += 2 * WEIGHT_BYTES * whole / max(1, stage_layers(shape.layers, lay.pp, lay.v))
    return (
        weights,
        gradient_bytes * (sharded if zero >= 2 else whole),
        optimizer_bytes * (sharded if zero >= 1 else whole),
    )


def activation_and_buffer_bytes(
    shape: ModelShape, lay: Parallel, *, seq_len: int, recompute: Recompute, dropout: bool = False,
    sequence_parallel: bool = True, materialized_scores: bool = True, fp8: bool = False,
    split: StageSplit | None = None, offload_layers: int = 0, distribute_saved: bool = False,
) -> tuple[float, float]:  # fmt: skip
    """Activations held on the fullest stage and the logits buffer, per GPU [B] (module notes);
    ``split`` is the layout's split when the caller has it (:func:`pipeline_split`);
    ``offload_layers`` of a single stage keep their activations in host memory
    (:func:`offloaded_activation_bytes`).

    Parameters
    ----------
    shape : ModelShape
        The model.
    lay : Parallel
        The layout and schedule (micro-batch size and count, ``recompute_layers`` under ``block``).
    seq_len : int
        Tokens per sequence [count].
    recompute : {"none", "selective", "full", "block"}
        The activation recomputation; ``full`` and ``block`` add one layer's working set.
    dropout, sequence_parallel, materialized_scores, fp8, distribute_saved : bool
        As in :func:`activation_bytes_per_layer`.
    split : StageSplit or None
        The layout's split; ``None``: :func:`pipeline_split`.
    offload_layers : int
        Layers whose activations go to host memory [count].

    Returns
    -------
    tuple[float, float]
        Layer activations on the fullest rank and its logits buffer (0 unless that rank is the
        last), per GPU [B].
    """

    def per_layer(rc: Recompute) -> float:
        return activation_bytes_per_layer(
            shape, seq_len=seq_len, micro_batch_seqs=lay.micro_batch_seqs, tp=lay.tp, cp=lay.cp,
            recompute=rc, dropout=dropout, sequence_parallel=sequence_parallel,
            materialized_scores=materialized_scores, fp8=fp8, distribute_saved=distribute_saved,
        )  # fmt: skip

    split = split or pipeline_split(shape, lay, seq_len=seq_len)
    logits = LOGIT_BYTES * seq_len * lay.micro_batch_seqs * shape.vocab / (lay.tp * lay.cp)
    if shape.mtp_layers:  # each module's logits, and its block's activations of one micro-batch
        logits = logits * (1 + shape.mtp_layers) + shape.mtp_layers * per_layer(
            "none" if recompute == "block" else recompute
        )
    if recompute == "block":
        activations, logits = _block_activation_bytes(
            split, lay, kept_bytes=per_layer("none"), redone_bytes=per_layer("full"), logits=logits
        )
    else:
        one = per_layer(recompute)
        # the fullest rank: the most layer activations, or the last one's with the logits
        held, rank, last = held_layer_micro_batches_of(split, lay.micro_batches)
        if rank != lay.pp - 1 and held * one >= last * one + logits:
            logits = 0.0  # the fullest rank is not the one with the output layer
        else:
            held = last
        activations = one * held - offloaded_activation_bytes(one, offload_layers)
    if recompute in ("full", "block"):  # the layer being recomputed holds its full working set
        activations += per_layer("selective")
    return activations, logits


def offloaded_activation_bytes(layer_bytes: float, offload_layers: int) -> float:
    """Activations a single pipeline stage no longer holds on the GPU at its peak when its first
    ``n`` layers offload theirs to host memory [B]: ``n x layer`` (module notes, offloading).

    Parameters
    ----------
    layer_bytes : float
        One layer's stored activations for one micro-batch [B].
    offload_layers : int
        Layers whose activations go to host memory, ``n`` [count].

    Returns
    -------
    float
        Activations moved off the GPU at its peak [B].

    >>> offloaded_activation_bytes(3.0e9, 40), offloaded_activation_bytes(3.0e9, 0)
    (120000000000.0, 0.0)
    """
    return layer_bytes * offload_layers


def _block_activation_bytes(
    split: StageSplit, lay: Parallel, *, kept_bytes: float, redone_bytes: float, logits: float
) -> tuple[float, float]:
    """Activations on the fullest rank and its logits buffer under block recomputation [B]: the
    recomputed layers of each chunk keep only their input (module notes)."""
    kept, redone = split.block_parts(lay.recompute_layers)
    held_kept = held_layers_per_rank(kept, lay.micro_batches)
    held_redone = held_layers_per_rank(redone, lay.micro_batches)
    per_rank = [k * kept_bytes + r * redone_bytes for k, r in zip(held_kept, held_redone, strict=True)]
    fullest = max(range(lay.pp), key=lambda r: per_rank[r] + (logits if r == lay.pp - 1 else 0.0))
    return per_rank[fullest], logits if fullest == lay.pp - 1 else 0.0


def memory_breakdown(
    shape: ModelShape, lay: Parallel, *, seq_len: int, recompute: Recompute, zero: ZeroStage,
    dropout: bool = False, sequence_parallel: bool = True, materialized_scores: bool = True, fp8: bool = False,
    offload_layers: int = 0, distribute_saved: bool = False, optimizer_bytes: float = OPTIMIZER_BYTES,
    gradient_bytes: float = GRADIENT_BYTES,
) -> MemoryBreakdown:  # fmt: skip
    """Bytes per GPU on the first pipeline stage (module notes).

    Parameters
    ----------
    shape : ModelShape
        The model.
    lay : Parallel
        The layout and schedule.
    seq_len : int
        Tokens per sequence [count].
    recompute : {"none", "selective", "full", "block"}
        The activation recomputation.
    zero : {0, 1, 2, 3}
        ZeRO stage (:func:`state_bytes`).
    dropout, sequence_parallel, materialized_scores, fp8, distribute_saved : bool
        As in :func:`activation_bytes_per_layer`.
    offload_layers : int
        Layers whose activations go to host memory [count].
    optimizer_bytes : float
        Optimizer state per parameter [B].
    gradient_bytes : float
        Gradient buffer per parameter [B] (:data:`GRADIENT_BYTES_OF`).

    Returns
    -------
    MemoryBreakdown
        Weights, gradients, optimizer states, activations and buffers on the fullest GPU [B].
    """
    weights, gradients, optimizer = state_bytes(
        shape, lay, zero, optimizer_bytes=optimizer_bytes, gradient_bytes=gradient_bytes
    )
    activations, buffers = activation_and_buffer_bytes(
        shape, lay, seq_len=seq_len, recompute=recompute, dropout=dropout, sequence_parallel=sequence_parallel,
        materialized_scores=materialized_scores, fp8=fp8, offload_layers=offload_layers,
        distribute_saved=distribute_saved,
    )  # fmt: skip
    return MemoryBreakdown(weights, gradients, optimizer, activations, buffers)
