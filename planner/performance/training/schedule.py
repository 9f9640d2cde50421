"""Step time of one layout: compute at the fitted efficiency, exposed communication, pipeline.

Notes
-----
Per optimizer step (``M`` micro-batches of ``b`` sequences per replica, ``F`` peak FLOP/s,
``eta`` :mod:`~planner.performance.training.efficiency` (it depends on the recomputation), ``L_r``
the layers on rank ``r`` of the layout's split and ``L_s`` their maximum
(:mod:`~planner.performance.training.pipeline`: even or with the embedding and output layer
balanced), ``x = 1.5`` with full recomputation else 1)::

    compute = M b s max_r (L_r (3 layer + recomputed) + [r = pp - 1] 3 (logits + mtp)) / (tp cp) / (F eta)
              (mtp: the multi-token prediction modules, :func:`~planner.performance.training.flops.mtp_flops`;
              their blocks count with the last rank's layers in TP, CP and EP below)
              (FP8: F is the FP8 peak, but the attention cores run at the BF16 peak; with
              fp8_attention at the BF16 peak times the published FP8 attention-kernel speed-up,
              :func:`~planner.performance.training.efficiency.attention_core_slowdown`)
    TP      = M L_s x 4 (AG + RS of s b h 2 / cp B over tp GPUs) x (1 - tp overlap)
    CP      = M L_s max(0, 3 AG of the K,V of s b h_kv 4 / tp B over cp GPUs - attention core)
              (cp_comm_type p2p, the default; all_gather: the 3 AG in full, nothing hides them)
    EP      = M L_moe x 4 all-to-all of s b h k 2 / (tp cp) B over ep GPUs, and the expert
              GEMMs, permutation and per-expert kernels (:mod:`~planner.performance.training.moe`)
    bubble  = (pp - 1) / v x (compute + TP + CP + EP) / M     (1F1B; interleaved with v chunks)
    PP p2p  = (2 (pp v - 1) + (1 - f_pp) 2 v M) x send/recv of s b h 2 / (tp cp) B
              (fill and drain, plus the steady-state sends a blocking schedule waits for; without
              sequence parallelism each receive also all-gathers the s b h 2 / cp B over tp GPUs)
    DP      = T - min(f T, backward)   T = all-reduce of 2 Phi over dp cp GPUs
              (+ ZeRO-3: 2 M all-gathers of 2 Phi per step; NeMo AutoModel's FSDP2 under
              pipelining instead: per schedule run one gather per chunk and a reduce-scatter
              chain the backward waits for, :meth:`StepModel.pipelined_fsdp_s`)
    optim.  = q_opt x Phi_gpu / B_hbm  (the optimizer's passes over its states; Phi_gpu sharded by
              ZeRO >= 1)
    offload = M n (max(0, c - t_f) + max(0, c - 2 t_f))   c = one layer's stored activations / B_host
              (n layers offloaded; t_f one layer's forward; the copy out runs under the next layer's
              forward, the copy back under a backward, Transformer Engine's asynchronous offloading)
    step    = compute + TP + CP + EP + bubble + PP p2p + DP + optim. + offload
    bound   = eta <= B: where the catalog states an MFU bound ``B`` for the GPU and precision
              (:func:`~planner.performance.training.efficiency.kernel_efficiency_bound`), each micro-batch's
              compute (recomputation included) is scaled by ``eta / B`` when the kernel efficiency
              ``eta`` is above ``B``, before the communication, bubble and overlap windows are
              counted on it: the kernels are never faster than the record run's end to end, what a
              fabric adds still shows, and the end-to-end MFU stays below ``B``

With distributed checkpoints (full recomputation, no sequence parallelism) TP also counts one
all-gather of ``s b h 2 / cp`` B over tp GPUs per recomputed layer and micro-batch, exposed.

Sources: Narayanan et al., SC 2021, arXiv 2104.04473 (bubble ``(p - 1) / (v m)``, interleaving
multiplies p2p by ``v``; section 5.3.2: the point-to-point traffic grows with the batch and lets
the non-interleaved schedule catch up, so the steady-state sends are on the critical path when the
schedule blocks on them, as Megatron-LM's did before Megatron-Core's ``overlap_p2p_comm``; section
5.1: Table 1's throughput includes the optimizer step; section 4.1: the scatter/gather of the
pipeline sends); Korthikanti et al., arXiv 2205.05198 (sequence-parallel all-gather and
reduce-scatter, 4 of each per layer; full recomputation repeats the forward's 2 of each);
Rajbhandari et al., SC 2020 (ZeRO-3 moves ``3 Phi`` instead of ``2 Phi``); Liu et al., "Ring
Attention", arXiv 2310.01889 (K,V rotate around the context-parallel ring, hidden behind the
attention core when it is long enough); Transformer Engine's ``DotProductAttention`` and Megatron-Core's
``TransformerConfig.cp_comm_type`` (``p2p``, the default, "can be overlapped with attention compute";
``all_gather`` "cannot be overlapped"); Llama 3, arXiv 2407.21783 section 3.3.2 (its all-gather based
context parallelism, the all-gather's latency exposed on the critical path); Lepikhin et al., arXiv 2006.16668 (expert all-to-all);
Transformer Engine documentation, "CPU Offloading" (asynchronous copies hidden behind computation
as far as the host link allows) and Megatron-Bridge's "CPU Offloading" page (overlaps computation
with the host-to-device and device-to-host transfers; pipeline parallelism 1); Megatron-LM
``tensor_parallel.random.CheckpointFunction`` (the distributed input gathered before recomputation).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from planner.catalog.schema import GB_BYTES, PCIE_GEN5_X16_GBYTE_PER_S
from planner.inputs.training import TrainingJob
from planner.performance.collectives import CollectiveFabric, collective_time, send_recv_time_s
from planner.performance.training.efficiency import EfficiencyCoefficients, attention_core_slowdown
from planner.performance.training.flops import (
    Recompute,
    model_flops_per_token,
    recompute_flops_per_layer_token,
    token_flops,
)
from planner.performance.training.memory import (
    GRADIENT_BYTES_OF,
    Parallel,
    ZeroStage,
    activation_bytes_per_layer,
    activation_shares,
    params_per_gpu,
    pipeline_split,
)
from planner.performance.training.moe import (
    ALLTOALLS_PER_LAYER,
    BF16_BYTES,
    MoeCoefficients,
    MoeModel,
    gpu_copies,
    network_share,
    sm_shared_slowdown,
    unpaired_share,
)
from planner.performance.training.pipeline import StageSplit
from planner.performance.training.shape import ModelShape

BACKWARD_SHARE = 2.0 / 3.0
"""Backward share of training FLOPs (4 of 6): the window the gradient reduction can hide in."""
TP_COLLECTIVES_PER_LAYER = 4
"""All-gathers (and as many reduce-scatters) per layer per micro-batch with sequence parallelism:
2 forward, 2 backward (Korthikanti et al. 2022, section 4.2.2)."""
CP_COLLECTIVES_PER_LAYER = 3
"""K,V gathered in the forward, again in the backward, and their gradients scattered."""
FULL_RECOMPUTE_COMM_FACTOR = 1.5
"""Full recomputation repeats the forward's collectives: 6 instead of 4 per layer."""
FP32_BYTES = 4.0
"""Bytes of an fp32 gradient element (FSDP2's ``reduce_dtype`` in NeMo AutoModel)."""
KEY_DIGITS = 9
"""Decimals [s] the layout search compares bounded steps to (:meth:`StepModel.result_key`)."""
BOUND_MARGIN = 1e-12
"""Relative margin the search's lower bound keeps below the step it bounds [-]: floating-point sums
of the same terms in another order differ by about 1e-16 of the step (:meth:`StepModel.lower_bound_key`)."""


def pipeline_bubble_fraction(*, stages: int, micro_batches: int, virtual_stages: int = 1) -> float:
    """Idle share of ideal time in a 1F1B pipeline [-]: ``(p - 1) / (v m)``.

    Parameters
    ----------
    stages : int
        Pipeline stages, ``p`` [count].
    micro_batches : int
        Micro-batches per step, ``m`` [count].
    virtual_stages : int
        Chunks per stage (interleaving), ``v`` [count].

    Returns
    -------
    float
        Bubble time over the ideal (bubble-free) step time [fraction].

    Examples
    --------
    >>> pipeline_bubble_fraction(stages=8, micro_batches=64)
    0.109375
    """
    return (stages - 1) / (virtual_stages * micro_batches)


def exposed_after_overlap_s(*, comm_s: float, overlap_fraction: float, window_s: float) -> float:
    """Communication left on the critical path [s]: ``T - min(f T, window)``.

    Never larger than ``T`` and never decreasing in ``T``.

    Parameters
    ----------
    comm_s : float
        Communication time before overlap, ``T`` [s].
    overlap_fraction : float
        Share of it the schedule can overlap, ``f`` [fraction].
    window_s : float
        Compute time it can hide behind [s].

    Returns
    -------
    float
        Exposed communication time [s].

    Examples
    --------
    >>> exposed_after_overlap_s(comm_s=1.0, overlap_fraction=0.5, window_s=10.0)
    0.5
    >>> exposed_after_overlap_s(comm_s=1.0, overlap_fraction=0.9, window_s=0.2)
    0.8
    """
    return comm_s - min(overlap_fraction * comm_s, window_s)


@dataclass(frozen=True)
class StepBreakdown:
    """Where one optimizer step's time goes [s]; communication is the exposed part."""

    compute_s: float
    tp_comm_s: float
    ep_comm_s: float
    pp_bubble_s: float
    pp_comm_s: float
    dp_comm_s: float
    cp_comm_s: float = 0.0
    optimizer_s: float = 0.0
    moe_overhead_s: float = 0.0
    """Element-wise bytes and framework cost of the routed token copies
    (:mod:`~planner.performance.training.moe`)."""
    host_offload_s: float = 0.0
    """Activation copies to and from host memory not hidden behind a layer's compute (module notes)."""

    @property
    def total_s(self) -> float:
        return sum(self.as_dict().values())

    def as_dict(self) -> dict[str, float]:
        return {
            "compute_s": self.compute_s,
            "moe_overhead_s": self.moe_overhead_s,
            "tp_comm_s": self.tp_comm_s,
            "cp_comm_s": self.cp_comm_s,
            "ep_comm_s": self.ep_comm_s,
            "pp_bubble_s": self.pp_bubble_s,
            "pp_comm_s": self.pp_comm_s,
            "dp_comm_s": self.dp_comm_s,
            "optimizer_s": self.optimizer_s,
            "host_offload_s": self.host_offload_s,
        }


@dataclass(frozen=True)
class StepResult:
    """One timed layout."""

    lay: Parallel
    recompute: Recompute
    zero: ZeroStage
    step: StepBreakdown
    efficiency: float
    dp_comm_total_s: float
    dp_bound_level: str
    ep_bound_level: str
    bounded_s: float = 0.0
    """Time the kernel-efficiency bound added to compute and bubble [s] (module notes); 0 when not
    bounded."""


def fp8_cast_elements(shape: ModelShape, *, full_recompute: bool) -> float:
    """Elements cast to FP8 per token and layer before matrix multiplies [count] (efficiency notes).

    Forward: the inputs of QKV, the output projection and the two FFN matrices, ``2 h + q + f k``;
    backward: their output gradients, ``2 h + q + 2 h_kv + g' f k`` with ``g' = 2`` gated, else 1;
    the forward again under full recomputation.

    Parameters
    ----------
    shape : ModelShape
        The model (widths of Q, K/V and the FFN a token passes through; gate).
    full_recompute : bool
        The forward runs twice (its casts counted twice).

    Returns
    -------
    float
        Elements cast per token and layer over one training step [count].

    Examples
    --------
    >>> from planner.performance.training.shape import model_shape
    >>> fp8_cast_elements(model_shape(params_b=1, layers=1, hidden_size=1024, heads=8), full_recompute=False)
    16384.0
    """
    h, q, ffn = shape.hidden_size, shape.q_width, shape.ffn_hidden * shape.ffn_per_token
    forward = 2.0 * h + q + ffn
    backward = 2.0 * h + q + 2.0 * shape.kv_width + (2.0 if shape.gated_mlp else 1.0) * ffn
    return forward * (2 if full_recompute else 1) + backward


class StepModel:
    """Times layouts of one job on one fabric; collective times are memoised across layouts."""

    def __init__(
        self, *, job: TrainingJob, shape: ModelShape, fabric: CollectiveFabric, peak_flops: float,
        efficiency: float | None, coefficients: EfficiencyCoefficients, hbm_byte_per_s: float,
        moe_coefficients: MoeCoefficients | None = None,
        host_byte_per_s: float = PCIE_GEN5_X16_GBYTE_PER_S * GB_BYTES, kernel_efficiency_bound: float | None = None,
    ) -> None:  # fmt: skip
        self.job, self.shape, self.fabric, self.peak_flops = job, shape, fabric, peak_flops
        # a job with a fixed efficiency is the user's statement: never bounded
        self.kernel_efficiency_bound = kernel_efficiency_bound if efficiency is None else None
        self.model_flops_per_token = model_flops_per_token(shape, seq_len=job.seq_len)
        self.host_byte_per_s = host_byte_per_s
        self.fixed_efficiency = efficiency
        self.coefficients = coefficients
        self.flops_per_byte = peak_flops / hbm_byte_per_s
        self.hbm_byte_per_s = hbm_byte_per_s
        # the attention cores' factor with one and with two forward passes per step (recomputed)
        self.attention_slowdown = {
            passes: attention_core_slowdown(
                precision=job.precision, fp8_attention=job.fp8_attention, forward_passes=passes,
                coefficients=coefficients,
            )
            for passes in (1, 2)
        }  # fmt: skip
        self.flops = token_flops(shape, seq_len=job.seq_len)
        self._cache: dict[tuple[object, ...], tuple[float, str]] = {}
        # the search times thousands of layouts that share these few per-GPU shapes
        self._efficiency: dict[tuple[int, int, int, str], float] = {}
        self._compute: dict[tuple[int, int, int, int, int, str, int], tuple[float, float]] = {}
        self._splits: dict[tuple[int, int], StageSplit] = {}
        self._expert_efficiency: dict[tuple[int, int, int, int, int], float] = {}
        self._moe_cache: dict[tuple[object, ...], tuple[float, str]] = {}
        moe_c = moe_coefficients or MoeCoefficients()
        if job.moe_dispatcher == "hybridep" or (job.moe_graphed_dispatch and job.moe_dispatcher == "fused"):
            # HybridEP permutes inside its own dispatch kernel (Megatron-Core's _HybridEPManager hands the
            # experts its output as is), and a captured fused path launches no permutation from the host:
            # c_g per copy, not Megatron-Core's permute (c_r)
            moe_c = replace(moe_c, copy_overhead_ns=moe_c.graphed_copy_overhead_ns)
        # biased experts: Megatron-Core's expert MLP waits on the host in every forward (moe module notes)
        host_synced_experts = job.expert_bias and job.moe_framework == "megatron_core"
        if job.full_iteration_graph and job.moe_dispatcher != "alltoall" and not host_synced_experts:
            # the whole iteration is one graph: nothing launched from the host per layer (moe module notes)
            moe_c = replace(moe_c, copy_overhead_ns=moe_c.full_graph_copy_overhead_ns)
        graphed = job.moe_graphed_dispatch or job.full_iteration_graph
        if graphed and job.moe_dispatcher != "alltoall" and not host_synced_experts:
            # no host round trip per layer: no wait. Megatron-Core's all-to-all dispatcher still copies its
            # split sizes to the host and waits on them (before the all-to-all) when the preprocess is
            # captured: there the wait stays (moe module notes)
            moe_c = replace(moe_c, host_wait_us=0.0)
        if job.moe_copy_overhead_ns is not None:  # the user's framework, not Megatron-Core's fit
            moe_c = replace(moe_c, copy_overhead_ns=job.moe_copy_overhead_ns)
        self.moe = MoeModel(
            shape=shape, seq_len=job.seq_len, coefficients=moe_c,
            load_imbalance=job.moe_load_imbalance, redundant_experts=job.moe_redundant_experts,
            node_limit=job.moe_node_limit, dispatch_fp8=job.moe_dispatch_fp8,
        )  # fmt: skip

    def efficiency(self, lay: Parallel, recompute: Recompute) -> float:
        """Kernel efficiency of a layout's layers [-] (:mod:`~planner.performance.training.efficiency`)."""
        if self.fixed_efficiency is not None:
            return self.fixed_efficiency
        if recompute == "block":  # the layers that keep their activations; recomputed ones as "full"
            recompute = "none"
        key = (lay.tp, lay.cp, lay.micro_batch_seqs, recompute)
        if key not in self._efficiency:
            self._efficiency[key] = self._efficiency_of(lay, recompute)
        return self._efficiency[key]

    def _efficiency_of(self, lay: Parallel, recompute: Recompute) -> float:
        c, shape, job = self.coefficients, self.shape, self.job
        elementwise = c.elementwise_bytes_per_width(full_recompute=recompute == "full") * shape.hidden_size
        if not job.sequence_parallel:
            # every TP GPU repeats the norms and dropouts: their share of the element-wise traffic
            # (taken as their share of the activations) is not divided by tp
            replicated, split = activation_shares(shape, dropout=job.dropout)
            elementwise *= 1 + replicated / (replicated + split) * (lay.tp - 1)
        if job.precision == "fp8":
            elementwise += c.fp8_cast_bytes * fp8_cast_elements(shape, full_recompute=recompute == "full")
        scores = 0.0
        if job.attention_kernel == "materialized":
            per_element = c.score_bytes(dropout=job.dropout, recomputed=recompute != "none")
            scores = per_element * shape.heads * job.seq_len / lay.cp
        f = self.flops
        flops = 3.0 * f.layer + recompute_flops_per_layer_token(f, recompute)
        # bytes and FLOPs per token and layer on one GPU: both divided by tp
        return c(
            width=shape.hidden_size / lay.tp,
            tokens=job.seq_len * lay.micro_batch_seqs / lay.cp,
            flops_per_byte=self.flops_per_byte,
            bytes_per_flop=(elementwise + scores) / flops,
        )

    def split(self, lay: Parallel) -> StageSplit:
        """The layers of each pipeline stage and chunk (:mod:`~planner.performance.training.pipeline`)."""
        key = (lay.pp, lay.v)
        if key not in self._splits:
            self._splits[key] = pipeline_split(self.shape, lay, seq_len=self.job.seq_len)
        return self._splits[key]

    def stage_blocks(self, lay: Parallel) -> int:
        """Transformer blocks on the slowest stage [count]: the most layers of a rank, or the last
        rank's with its multi-token prediction modules' blocks (one each, after the last layer)."""
        split = self.split(lay)
        if not self.shape.mtp_layers:
            return split.max_layers
        return max(split.max_layers, split.rank_layers[-1] + self.shape.mtp_layers)

    def micro_flops(self, lay: Parallel, recompute: Recompute) -> tuple[float, float]:
        """Hardware FLOPs of one micro-batch on one GPU of the slowest stage, and of its attention
        cores (forward, backward and a recomputed forward) [FLOP]."""
        f = self.flops
        per_layer = 3.0 * f.layer + recompute_flops_per_layer_token(f, recompute)
        split = self.split(lay)
        # the slowest rank: the most layers, or the last one's with the output layer
        per_token = split.max_cost(logits_layers=3.0 * (f.logits + f.mtp) / per_layer) * per_layer
        layers = split.max_layers
        attention_per_token = layers * f.layer_attention * (3.0 if recompute == "none" else 4.0)
        tokens = self.job.seq_len * lay.micro_batch_seqs / (lay.tp * lay.cp)
        return per_token * tokens, attention_per_token * tokens

    def compute_micro_s(self, lay: Parallel, recompute: Recompute) -> tuple[float, float]:
        """Compute time of one micro-batch on the slowest stage, and of its attention cores [s].

        With FP8 only the matrix multiplies of the projections, FFN and logits run at the FP8
        peak; the attention core stays at BF16 (Transformer Engine's FP8 recipe casts the inputs
        of its linear layers, the fused attention runs in BF16): its FLOPs take ``FP8_SPEEDUP``
        times longer than the rest, unless the job runs the core in FP8 too (``fp8_attention``:
        :func:`~planner.performance.training.efficiency.attention_core_slowdown`).
        """
        key = (lay.tp, lay.cp, lay.pp, lay.v, lay.micro_batch_seqs, recompute, lay.recompute_layers)
        if key not in self._compute and recompute == "block":
            self._compute[key] = self._block_compute_micro_s(lay)
        if key not in self._compute:
            flops, attention = self.micro_flops(lay, recompute)
            rate = self.peak_flops * self.efficiency(lay, recompute)
            attention_s = attention * self.attention_slowdown[1 if recompute == "none" else 2] / rate
            routed = self._routed_micro_flops(lay, recompute)
            self._compute[key] = ((flops - attention - routed) / rate + attention_s, attention_s)
        dense_s, attention_s = self._compute[key]
        if not self.moe.active:
            return dense_s, attention_s
        # the expert GEMMs at their own efficiency, on the busiest expert GPU
        routed = self._routed_micro_flops(lay, recompute)
        expert_s = routed * self.moe.imbalance / (self.peak_flops * self.expert_efficiency(lay))
        return dense_s + expert_s, attention_s

    def _block_compute_micro_s(self, lay: Parallel) -> tuple[float, float]:
        """Compute time of one micro-batch on the slowest stage under block recomputation, and of its
        attention cores [s]: the kept layers at the efficiency without recomputation, the recomputed
        ones (four passes) at that of full recomputation (dense models only)."""
        f = self.flops
        tokens = self.job.seq_len * lay.micro_batch_seqs / (lay.tp * lay.cp)
        rate_kept = self.peak_flops * self.efficiency(lay, "none")
        rate_redone = self.peak_flops * self.efficiency(lay, "full")
        kept, redone = self.split(lay).block_parts(lay.recompute_layers)
        slowest = (0.0, 0.0)
        for rank in range(lay.pp):
            n_kept, n_redone = kept.rank_layers[rank], redone.rank_layers[rank]
            attention_kept = (
                n_kept * 3.0 * f.layer_attention * tokens * self.attention_slowdown[1] / rate_kept
            )
            attention_redone = (
                n_redone * 4.0 * f.layer_attention * tokens * self.attention_slowdown[2] / rate_redone
            )
            logits = 3.0 * (f.logits + f.mtp) if rank == lay.pp - 1 else 0.0
            other = (n_kept * 3.0 * f.layer_matmul + logits) * tokens / rate_kept
            other += n_redone * 4.0 * f.layer_matmul * tokens / rate_redone
            total = other + attention_kept + attention_redone
            if total > slowest[0]:
                slowest = (total, attention_kept + attention_redone)
        return slowest

    def tp_layer_passes(self, lay: Parallel, recompute: Recompute) -> float:
        """Layers of the slowest stage weighted by their forward collectives [count]: a recomputed
        layer repeats its forward's (``FULL_RECOMPUTE_COMM_FACTOR``)."""
        split = self.split(lay)
        if recompute != "block":
            factor = FULL_RECOMPUTE_COMM_FACTOR if recompute == "full" else 1.0
            return self.stage_blocks(lay) * factor
        kept, redone = split.block_parts(lay.recompute_layers)
        return max(
            k + FULL_RECOMPUTE_COMM_FACTOR * r
            for k, r in zip(kept.rank_layers, redone.rank_layers, strict=True)
        )

    def expert_efficiency(self, lay: Parallel) -> float:
        """Share of peak the expert GEMMs reach at their own width and tokens per expert [-]."""
        if self.fixed_efficiency is not None:
            return self.fixed_efficiency
        etp = lay.etp
        key = (lay.tp, lay.cp, lay.micro_batch_seqs, lay.ep, etp)
        if key not in self._expert_efficiency:
            self._expert_efficiency[key] = self.coefficients.matmul(
                width=self.shape.ffn_hidden / etp, tokens=self.moe.tokens_per_expert(lay)
            )
        return self._expert_efficiency[key]

    def _routed_micro_flops(self, lay: Parallel, recompute: Recompute) -> float:
        """Routed-expert FLOPs of one micro-batch on one GPU of the slowest stage [FLOP]
        (:mod:`~planner.performance.training.moe`); 0 for a dense model."""
        if not self.moe.active:
            return 0.0
        passes = 4.0 if recompute == "full" else 3.0
        layers = self.stage_blocks(lay)
        tokens = self.job.seq_len * lay.micro_batch_seqs / (lay.tp * lay.cp)
        return layers * passes * self.moe.routed_flops_per_token() * tokens

    def moe_overhead_micro_s(self, lay: Parallel, recompute: Recompute) -> float:
        """Element-wise bytes and framework cost of the routed copies of one micro-batch on the
        slowest stage [s]."""
        if not self.moe.active:
            return 0.0
        key = ("copies", lay.tp, lay.cp, lay.pp, lay.v, lay.micro_batch_seqs, recompute, lay.ep, lay.etp)
        if key not in self._moe_cache:
            self._moe_cache[key] = (self._moe_overhead_micro_s(lay, recompute), "")
        return self._moe_cache[key][0]

    def _moe_overhead_micro_s(self, lay: Parallel, recompute: Recompute) -> float:
        moe, c = self.moe, self.moe.c
        factor = 4.0 / 3.0 if recompute == "full" else 1.0
        layers = moe.moe_layers_on_stage(self.stage_blocks(lay))
        per_copy = c.bytes_per_copy(
            hidden=self.shape.hidden_size, ffn=self.shape.ffn_hidden / lay.etp, gated=self.shape.gated_mlp,
            fp8_cast_bytes=self.coefficients.fp8_cast_bytes if self.job.precision == "fp8" else 0.0,
        )  # fmt: skip
        framework_s = c.copy_overhead_ns * 1e-9
        per_copy_s = per_copy / self.hbm_byte_per_s + framework_s
        forwards = 2.0 if recompute == "full" else 1.0  # the recomputed forward dispatches, and waits, again
        return layers * (factor * moe.routed_copies(lay) * per_copy_s + forwards * c.host_wait_us * 1e-6)

    def _collective(self, kind: str, size: float, gpus: int, per_domain: int) -> tuple[float, str]:
        key = (kind, size, gpus, per_domain)
        if key not in self._cache:
            t = collective_time(
                fabric=self.fabric, collective=kind, message_bytes=size, gpus=gpus,  # type: ignore[arg-type]
                gpus_per_domain=per_domain,
            )  # fmt: skip
            self._cache[key] = (t.time_s, t.bound_level)
        return self._cache[key]

    def step(self, lay: Parallel, recompute: Recompute, zero: ZeroStage) -> StepResult:
        """The step breakdown of one layout (module notes)."""
        eta = self.efficiency(lay, recompute)
        # pipeline schedule runs of the step, each filling and draining
        rounds = min(self.job.accumulation_rounds, lay.micro_batches)
        compute_micro, attention_s = self.compute_micro_s(lay, recompute)
        raised_micro = compute_micro * (self.bound_factor(eta) - 1.0)
        compute_micro += raised_micro  # the kernels no faster than the bound allows (module notes)
        tp_s = self._tp_micro_s(lay, recompute)
        cp_s = self._cp_micro_s(lay, attention_s)
        ep_all, ep_level = self._ep_micro_s(lay, recompute)
        moe_s = self.moe_overhead_micro_s(lay, recompute)
        if self.job.moe_overlap == "none" or ep_all == 0.0:
            ep_s = ep_all
        else:  # one micro-batch's all-to-all under the other's compute (moe module notes)
            if self.job.moe_dispatcher != "alltoall":  # the dispatch kernels keep some SMs while they run
                slowdown = sm_shared_slowdown(
                    busy_s=ep_all, window_s=compute_micro + moe_s, sm_fraction=self.moe.c.comm_sm_fraction
                )
                compute_micro, moe_s = compute_micro * slowdown, moe_s * slowdown
            hidden_s = exposed_after_overlap_s(
                comm_s=ep_all, overlap_fraction=1.0, window_s=compute_micro + moe_s
            )
            alone = 0.0  # DualPipe pairs its warm-up chunks too (DeepSeek-V3 section 3.2.1)
            if self.job.moe_overlap == "two_micro_batches":  # each schedule run warms up and cools down
                per_run = lay.micro_batches / rounds
                alone = unpaired_share(pp=lay.pp, virtual_stages=lay.v, micro_batches=per_run)
            ep_s = alone * ep_all + (1.0 - alone) * hidden_s
        offload_s = self.offload_micro_s(lay, recompute, compute_micro)
        per_micro = compute_micro + tp_s + cp_s + ep_s + moe_s + offload_s
        bubble_slots = self.bubble_slots(lay)
        compute_s = compute_micro * lay.micro_batches
        bubble_s = bubble_slots * per_micro * rounds
        dp_total, dp_chain, dp_level = self._dp_s(lay, zero)
        window = compute_s * ((1 - 2.0 / 8.0) if recompute == "full" else BACKWARD_SHARE)
        step = StepBreakdown(
            compute_s=compute_s,
            tp_comm_s=tp_s * lay.micro_batches,
            cp_comm_s=cp_s * lay.micro_batches,
            ep_comm_s=ep_s * lay.micro_batches,
            pp_bubble_s=bubble_s,
            pp_comm_s=self._pp_s(lay),
            dp_comm_s=dp_chain  # on the pipeline's critical path, nothing hides it
            + exposed_after_overlap_s(
                comm_s=dp_total - dp_chain, overlap_fraction=self.job.dp_overlap_fraction, window_s=window
            ),
            optimizer_s=self.optimizer_s(lay, zero),
            moe_overhead_s=moe_s * lay.micro_batches,
            host_offload_s=offload_s * lay.micro_batches,
        )
        bounded_s = raised_micro * (lay.micro_batches + bubble_slots)
        bounded_eta = eta / self.bound_factor(eta)  # what the kernels run at: min(eta, B)
        return StepResult(lay, recompute, zero, step, bounded_eta, dp_total, dp_level, ep_level, bounded_s)

    def bound_factor(self, eta: float) -> float:
        """How much the MFU bound slows the compute of a layout whose kernels run at ``eta`` of
        peak [-]: ``max(1, eta / B)`` (module notes); 1 without a bound."""
        if self.kernel_efficiency_bound is None:
            return 1.0
        return max(1.0, eta / self.kernel_efficiency_bound)

    def offload_micro_s(self, lay: Parallel, recompute: Recompute, compute_micro_s: float) -> float:
        """Host copies of one micro-batch left exposed [s] (module notes): for each of the ``n``
        offloaded layers, ``max(0, c - forward) + max(0, c - backward)``, ``c`` one layer's stored
        activations over the host link, ``forward`` and ``backward`` one layer's passes (a third and
        two thirds of its compute; a quarter and a half under full recomputation)."""
        n = self.job.offload_activation_layers
        if not n:
            return 0.0
        job = self.job
        layer_bytes = activation_bytes_per_layer(
            self.shape, seq_len=job.seq_len, micro_batch_seqs=lay.micro_batch_seqs, tp=lay.tp, cp=lay.cp,
            recompute=recompute, dropout=job.dropout, sequence_parallel=job.sequence_parallel,
            materialized_scores=job.attention_kernel == "materialized", fp8=job.precision == "fp8",
        )  # fmt: skip
        copy_s = layer_bytes / self.host_byte_per_s
        forward_s = compute_micro_s / (self.split(lay).max_layers * (4.0 if recompute == "full" else 3.0))
        return n * (max(0.0, copy_s - forward_s) + max(0.0, copy_s - 2.0 * forward_s))

    def bubble_slots(self, lay: Parallel) -> float:
        """Micro-batch slots one schedule run leaves idle on a stage [count]: ``(pp - 1) / v``, and
        ``max(0, pp / 2 - 1) / v`` under DualPipe, which fills half of the bubble with the other
        direction's micro-batches (DeepSeek-V3, arXiv 2412.19437, section 3.2.1)."""
        if self.job.moe_overlap == "dualpipe":
            return max(0.0, lay.pp / 2.0 - 1.0) / lay.v
        return (lay.pp - 1) / lay.v

    def lower_bound_key(self, lay: Parallel, recompute: Recompute) -> tuple[float, float]:
        """Lower bounds of the search's key (:meth:`result_key`), component by component [s].

        :meth:`step` charges the compute (raised to the MFU bound), the tensor-parallel
        communication and the expert copies' cost on every micro-batch and in the bubble
        (``per_micro``), overlap or not (an overlapped all-to-all only slows them down), and the
        bubble is the one it charges (:meth:`bubble_slots`): so ``(c B + t + e)(M + slots)`` bounds the
        step from below, and ``(c + t + e)(M + slots)`` the step without the raise. A bound above the
        step would make the search skip a faster layout (as the (pp - 1)/v bubble once did under
        DualPipe). Both are lowered by :data:`BOUND_MARGIN` so that rounding in the sums never lifts
        a bound above a step it equals.
        """
        compute_s, _ = self.compute_micro_s(lay, recompute)
        others_s = self._tp_micro_s(lay, recompute) + self.moe_overhead_micro_s(lay, recompute)
        slots = (lay.micro_batches + self.bubble_slots(lay)) * (1.0 - BOUND_MARGIN)
        unbounded = (compute_s + others_s) * slots
        raised = compute_s * (self.bound_factor(self.efficiency(lay, recompute)) - 1.0) * slots
        return round(unbounded + raised, KEY_DIGITS), unbounded

    def result_key(self, result: StepResult) -> tuple[float, float]:
        """What the search minimises [s]: the step, then, among steps equal to the rounding, the
        step without the MFU bound's raise (the layout the model itself finds fastest). The first
        part is rounded so that steps equal but for floating point compare equal."""
        return round(result.step.total_s, KEY_DIGITS), result.step.total_s - result.bounded_s

    def _activation_bytes(self, lay: Parallel) -> float:
        """One micro-batch's bf16 activations at a layer boundary, one context shard [B]."""
        return self.job.seq_len * lay.micro_batch_seqs * self.shape.hidden_size * 2.0 / lay.cp

    def _tp_micro_s(self, lay: Parallel, recompute: Recompute) -> float:
        if lay.tp == 1:
            return 0.0
        size = self._activation_bytes(lay)
        per_domain = min(lay.tp, self.fabric.domain_gpus)
        gather, _ = self._collective("all_gather", size, lay.tp, per_domain)
        scatter, _ = self._collective("reduce_scatter", size, lay.tp, per_domain)
        layers = self.tp_layer_passes(lay, recompute)
        tp_s = layers * TP_COLLECTIVES_PER_LAYER * (gather + scatter) * (1 - self.job.tp_overlap_fraction)
        if self.job.distribute_saved_activations and recompute == "full":
            # each recomputed layer first gathers its split input (module notes), nothing hides it
            tp_s += self.split(lay).max_layers * gather
        return tp_s

    def _cp_micro_s(self, lay: Parallel, attention_s: float) -> float:
        if lay.cp == 1:
            return 0.0
        kv = 2.0 * self.job.seq_len * lay.micro_batch_seqs * self.shape.kv_width * 2.0 / lay.tp
        per_domain = max(1, min(lay.cp, self.fabric.domain_gpus // lay.tp))
        gather, _ = self._collective("all_gather", kv, lay.cp, per_domain)
        layers = self.stage_blocks(lay)
        comm = layers * CP_COLLECTIVES_PER_LAYER * gather
        if self.job.cp_comm_type == "all_gather":  # gathered whole before attention: nothing hides it
            return comm
        return exposed_after_overlap_s(comm_s=comm, overlap_fraction=1.0, window_s=attention_s)

    def _ep_micro_s(self, lay: Parallel, recompute: Recompute) -> tuple[float, str]:
        """Every expert all-to-all of one micro-batch on the slowest stage, before overlap [s]."""
        if lay.ep == 1 or not self.moe.active:
            return 0.0, "none"
        key = ("a2a", lay.tp, lay.cp, lay.dp, lay.pp, lay.v, lay.micro_batch_seqs, recompute, lay.ep, lay.etp)
        if key not in self._moe_cache:
            self._moe_cache[key] = self._ep_micro_uncached_s(lay, recompute)
        return self._moe_cache[key]

    def _ep_micro_uncached_s(self, lay: Parallel, recompute: Recompute) -> tuple[float, str]:
        if lay.etp == 1 and lay.tp > 1:  # folded: the expert group runs over consecutive ranks
            per_domain = min(lay.ep, self.fabric.domain_gpus)
        else:
            per_domain = min(lay.ep, self._dp_per_domain(lay))
        dispatch, level = self._alltoall(lay, per_domain, self.moe.dispatch_bytes)
        other, _ = self._alltoall(lay, per_domain, BF16_BYTES)
        per_layer = dispatch + (ALLTOALLS_PER_LAYER - 1) * other
        if recompute == "full":  # the recomputed forward dispatches and combines again
            per_layer += dispatch + other
        layers = self.moe.moe_layers_on_stage(self.stage_blocks(lay))
        return layers * per_layer * self.moe.imbalance, level

    def _alltoall(self, lay: Parallel, per_domain: int, element_bytes: float) -> tuple[float, str]:
        """One dispatch (or combine) over the expert group, node-limited routing applied [s]."""
        size = self.moe.dispatch_buffer_bytes(lay, element_bytes)
        dedupe = self.job.moe_dispatcher != "alltoall"
        share = network_share(
            ep=lay.ep, per_domain=per_domain, top_k=self.shape.top_k, node_limit=self.job.moe_node_limit,
            dedupe=dedupe,
        )  # fmt: skip
        # deduplicating kernels move one copy per destination GPU over the scale-up links (moe notes)
        reach = (
            lay.ep if self.job.moe_node_limit is None else min(lay.ep, self.job.moe_node_limit * per_domain)
        )
        up_size = size * gpu_copies(top_k=self.shape.top_k, gpus=reach) / self.shape.top_k if dedupe else size
        if lay.ep <= per_domain:  # the whole group inside one scale-up domain
            return self._collective("all_to_all", up_size, lay.ep, per_domain)
        t, level = self._collective("all_to_all", size * share, lay.ep, per_domain)
        if share < 1.0 and per_domain > 1:  # forwarded to the experts inside the scale-up domain
            forward, _ = self._collective("all_to_all", up_size, per_domain, per_domain)
            if forward > t:
                return forward, self.fabric.scale_up.name
        return t, level

    def _pp_s(self, lay: Parallel) -> float:
        """Pipeline sends on the critical path [s]: fill and drain, and the steady state's when
        the schedule blocks on them (module notes)."""
        if lay.pp == 1:
            return 0.0
        domains_apart = max(1, math.ceil(lay.tp * lay.cp * lay.dp / self.fabric.domain_gpus))
        send = send_recv_time_s(
            fabric=self.fabric,
            message_bytes=self._activation_bytes(lay) / lay.tp,
            domains_apart=domains_apart,
        )
        if lay.tp > 1 and not self.job.sequence_parallel:
            # scatter/gather: each TP GPU sends 1/tp of the activation, the receivers all-gather it
            # over the scale-up links (with sequence parallelism it stays split: no gather)
            gather, _ = self._collective(
                "all_gather", self._activation_bytes(lay), lay.tp, min(lay.tp, self.fabric.domain_gpus)
            )
            send += gather
        # each micro-batch crosses each of the stage's v chunk boundaries once forward, once backward
        steady = (1 - self.job.pp_overlap_fraction) * 2 * lay.v * lay.micro_batches
        return (2 * (lay.pp * lay.v - 1) + steady) * send

    def optimizer_s(self, lay: Parallel, zero: ZeroStage) -> float:
        """The optimizer update of one step [s]: ``q_opt x Phi_gpu / B_hbm``.

        Memory-bound passes over the fp32 master weights, Adam moments and gradients of the
        parameters whose optimizer state the GPU holds (all of its own, or its ``1 / (dp cp)``
        share with ZeRO >= 1; expert parameters over ``dp cp / ep``), at the HBM bandwidth.
        """
        dense, expert = params_per_gpu(self.shape, lay)
        if zero >= 1:
            group = lay.dp * lay.cp
            dense, expert = dense / group, expert / lay.edp
        return self.coefficients.optimizer_bytes_per_param * (dense + expert) / self.hbm_byte_per_s

    def _dp_per_domain(self, lay: Parallel) -> int:
        # ranks are ordered tp (fastest), cp, dp, then pp: dp neighbours share a domain when tp cp < domain
        inner = lay.tp * lay.cp
        domain = self.fabric.domain_gpus
        return max(1, min(lay.dp, domain // inner)) if inner < domain else 1

    def _dp_s(self, lay: Parallel, zero: ZeroStage) -> tuple[float, float, str]:
        """Gradient reduction of one step (dense, then expert) [s], the part of it on the pipeline's
        critical path that nothing hides [s] (:meth:`pipelined_fsdp_s`), and the level bounding the
        dense one."""
        group = lay.dp * lay.cp
        if group == 1:
            return 0.0, 0.0, "none"
        dense, expert = params_per_gpu(self.shape, lay)
        per_domain = (
            max(1, min(group, self.fabric.domain_gpus // lay.tp)) if lay.tp < self.fabric.domain_gpus else 1
        )
        if zero == 3 and lay.pp > 1 and self.job.moe_framework == "automodel":
            return self.pipelined_fsdp_s(lay, per_domain=per_domain)
        total, level = self._grad_reduce_s(dense, group, per_domain, zero)
        if zero == 3:
            gather, _ = self._collective("all_gather", 2.0 * dense, group, per_domain)
            total += 2 * lay.micro_batches * gather
        expert_group = lay.edp
        if expert_group > 1 and expert > 0:
            expert_per_domain = max(1, min(expert_group, per_domain // lay.ep))
            total += self._grad_reduce_s(expert, expert_group, expert_per_domain, zero)[0]
        return total, 0.0, level

    def _grad_reduce_s(self, params: float, gpus: int, per_domain: int, zero: ZeroStage) -> tuple[float, str]:
        """Gradient reduction of ``params`` parameters over ``gpus`` GPUs [s] and its bounding level.

        With ``g`` bytes per gradient (:data:`GRADIENT_BYTES_OF`: 2 bf16, 4 fp32)::

            ZeRO 0     t = AR(g P)                      (one all-reduce of the gradient buffer)
            ZeRO >= 1  t = AR(2 P) + RS((g - 2) P)      (RS(g P) + AG(2 P) on a ring)

        Under the distributed optimizer (ZeRO >= 1) the gradients are reduce-scattered at ``g`` bytes
        and the updated parameters all-gathered in bf16; on a ring ``RS(4 P) + AG(2 P)`` moves as
        much as ``AR(2 P) + RS(2 P)``, so bf16 keeps the all-reduce the model always charged.
        Sources: Megatron-LM ``megatron/training/arguments.py`` (bf16 runs accumulate and reduce
        gradients in fp32 unless ``--grad-reduce-in-bf16``); Megatron-Core
        ``megatron/core/distributed/param_and_grad_buffer.py`` (``grad_dtype``).
        """
        grad_bytes = GRADIENT_BYTES_OF[self.job.grad_reduce_precision]
        if zero == 0:
            return self._collective("all_reduce", grad_bytes * params, gpus, per_domain)
        total, level = self._collective("all_reduce", BF16_BYTES * params, gpus, per_domain)
        if grad_bytes > BF16_BYTES:
            rest, _ = self._collective("reduce_scatter", (grad_bytes - BF16_BYTES) * params, gpus, per_domain)
            total += rest
        return total, level

    def pipelined_fsdp_s(self, lay: Parallel, *, per_domain: int) -> tuple[float, float, str]:
        """Weight gathers and gradient reduce-scatters of one step of PyTorch FSDP2 under
        ``torch.distributed.pipelining`` (NeMo AutoModel with pipeline parallelism) [s]: their
        total, the reduce-scatters' share on the critical path, and the level bounding the dense ones.

        Per pipeline schedule run (``r = min(accumulation_rounds, M)`` per step) each of the ``v``
        chunks of a GPU gathers its weights once (bf16) and reduce-scatters its gradients once
        (fp32), dense ones over ``dp cp`` GPUs and expert ones over ``edp``::

            gathers = r v (AG(2 P_d / v, dp cp) + AG(2 P_e / v, edp))      (overlappable)
            chain   = r pp v (RS(4 P_d / v, dp cp) + RS(4 P_e / v, edp))   (exposed)

        ``P_d``, ``P_e`` the dense and expert parameters of the GPU before sharding. The chain: the
        compute stream waits for a stage's reduce-scatter after its last backward, before the input
        gradient goes to the stage before, so the last micro-batch's backward waits for the
        reduce-scatter of every one of the ``pp v`` stages in turn.

        Sources: NeMo AutoModel ``components/moe/parallelizer.py:apply_fsdp`` (commit 89e3a9f:
        ``reshard_after_forward=not pp_enabled``, ``reduce_dtype=torch.float32``, experts sharded
        over the ``ep_shard`` mesh) and ``recipes/llm/train_ft.py`` (``schedule.step`` per
        gradient-accumulation batch, no sync context under pipelining); PyTorch 2.8 (AutoModel
        pins ``torch<=2.8.0``) ``torch/distributed/pipelining/stage.py:backward_maybe_with_nosync``
        (gradient sync and resharding off until a stage's last backward, then ``post_backward`` and
        ``_root_post_backward_final_callback``, added by pytorch/pytorch#144535, which makes the
        compute stream wait for the reduce-scatter); pytorch/pytorch#165106 (October 2025, after
        2.8: that wait holds up the other stages' backwards and leaves bubbles, so the
        reduce-scatters moved to the end of the schedule step).
        """
        dense, expert = params_per_gpu(self.shape, lay)
        group, v = lay.dp * lay.cp, lay.v
        gather, level = self._collective("all_gather", BF16_BYTES * dense / v, group, per_domain)
        scatter, _ = self._collective("reduce_scatter", FP32_BYTES * dense / v, group, per_domain)
        if lay.edp > 1 and expert > 0:
            expert_per_domain = max(1, min(lay.edp, per_domain // lay.ep))
            gather += self._collective("all_gather", BF16_BYTES * expert / v, lay.edp, expert_per_domain)[0]
            scatter += self._collective(
                "reduce_scatter", FP32_BYTES * expert / v, lay.edp, expert_per_domain
            )[0]
        runs = min(self.job.accumulation_rounds, lay.micro_batches)
        chain = runs * lay.pp * v * scatter
        return runs * v * gather + chain, chain, level
