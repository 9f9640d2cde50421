"""Time of one prefill and one decode step of a model instance, and its memory per GPU.

Notes
-----
An instance of the model spans ``n = max(tp, ep)`` GPUs. Attention and the dense weights are
split over ``tp`` GPUs (tensor parallelism inside the scale-up domain) and replicated over the
``n / tp`` attention groups, each serving ``B tp / n`` of the instance's ``B`` sequences
(data-parallel attention, as DeepSeek-V3 serves, arXiv 2412.19437 section 3.4); routed experts are
split over all ``n = ep`` GPUs (expert parallelism). Per GPU and step of ``T`` tokens::

    bytes    = W_d / tp + f(T) W_e / ep + KV read (decode; x heads / kv_heads with a kernel that
               reads it per query head) or written (prefill)
    FLOPs    = T x (2 A + L 4 c h) / n
    t_math   = max(FLOPs / (F eta_c), bytes / (B_hbm eta_hbm))          (roofline)
    t_tp     = 2 L x all-reduce(T tp / n x h x 2 B, tp GPUs)            (after attention and FFN)
    t_ep     = L_moe x [all-to-all(T / n x k x h x b_d, ep) + all-to-all(T / n x k x h x 2 B, ep)] x u
    t        = t_math + t_tp + t_ep + L x t_layer                       (no overlap)

(``t_layer``: a fixed cost per layer, one for decode steps and one for prefill steps, whose
kernels run outside CUDA graphs; ``data/serving.yaml``)

In a decode step the routed experts' share of the FLOPs runs at the grouped GEMM's own efficiency
``eta_g(m)`` at ``m = T k / E`` tokens per expert instead of ``eta_c``: a GEMM of a few hundred rows
per expert fills the tensor cores less than a dense one (DeepGEMM's H800 table, 0.45 of peak at 256
tokens per expert, 0.56 at 1,024; :meth:`ServingCoefficients.grouped_gemm_efficiency`)::

    t_compute = (FLOPs - FLOPs_routed) / (F eta_c) + FLOPs_routed / (F eta_g(T k / E))
    t_ep    -> max(0, t_ep - t_math)                     (two micro-batches in flight, prefill)

Decode with two micro-batches follows DeepSeek's published decode schedule (profile-data README and
decode figure, github.com/deepseek-ai/profile-data, 2025): per layer, a micro-batch of ``T / 2``
tokens runs its shared expert and attention projections under its own dispatch, its routed experts
with nothing to hide behind, its attention core under its combine; the other micro-batch's stages
interleave, so::

    t = 2 [max(t_dense, A_dispatch) + t_routed + max(t_core, A_combine)] + 2 L t_layer

with each part its own roofline, the dense weights and the routed experts a micro-batch touches
read once per micro-batch, and the KV cache once in all (:meth:`Instance._two_batch_decode`).

The dispatch mode is an input: ``normal`` kernels send a token once per distinct remote domain
under node-limited routing and forward it over the scale-up links
(:func:`planner.performance.training.moe.remote_domain_copies`); ``low_latency`` kernels (DeepEP's
pure-RDMA mode) send every copy over the network when the group spans domains, so the collective
model is asked for an all-to-all with one GPU per domain; inside one domain they use its links
(``moe_low_latency_path`` ``nvlink``, DeepEP since 2025-06) or, with ``rdma`` (DeepEP's first release,
whose README calls the kernels pure RDMA), the GPUs' NICs as well; ``auto`` (the default) runs prefill steps
with the first and decode steps with the second, as disaggregated pools do. ``u`` is the load imbalance (the busiest GPU's share over the
mean), ``L_moe`` the expert layers.

with ``f(T)`` the share of experts touched (:meth:`ServedModel.experts_touched`), ``b_d`` the
dispatch bytes (1 with FP8/FP4 weights, whose dispatch is quantised, else 2), ``c`` the context a
token attends over (decode: ``I + O / 2`` on average; prefill: ``I / 2``, causal). Every collective
time is :func:`planner.fabric.collectives.collective_time` on the plan's fabric, so a group that
spans scale-up domains pays the network's bandwidth and latency: this is where 4-rail, 8-rail and
InfiniBand designs differ.

Speculative decoding with the multi-token prediction module as the draft (``mtp_draft_tokens d``,
``mtp_acceptance a``; DeepSeek-V3, arXiv 2412.19437 section 5.4.3): per decode step the model
verifies ``1 + d`` tokens per sequence (a step of ``T (1 + d)`` tokens: GEMM rows, expert tokens and
all-to-all bytes ``x (1 + d)``, attention FLOPs for ``1 + d`` query tokens, the KV cache read once)
and the module runs ``d`` times on ``T`` tokens, each run one layer's share of a ``T``-token decode
step plus the shared output head::

    t_step = t(T (1 + d)) + d [t(T) / L + roofline(2 h V T / n, h V b_w / tp)]
    E      = 1 + sum_{i=1..d} a^i                     (tokens emitted per sequence and step)
    TPOT   = t_step / E

(:func:`emitted_tokens`; the parts of the two add before the roofline's max; the module's own KV
cache, one layer's, not counted).

Memory per GPU: weights ``W_d / tp + W_e / ep``, the workspace, and the KV cache of its sequences
``B tp / n x (I + O) x kv / min(tp, kv_split)``; the KV capacity is the usable HBM left after
weights and workspace.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from planner.errors import InputError
from planner.i18n.message import msg
from planner.performance.collectives import CollectiveFabric, collective_time
from planner.performance.serving.coefficients import GpuFigures, ServingCoefficients
from planner.performance.serving.model import ACTIVATION_BYTES, ServedModel
from planner.performance.training.moe import network_share, sm_shared_slowdown

BOUND_COMPUTE = "compute"
BOUND_MEMORY = "memory_bandwidth"
BOUND_TP = "tp_allreduce"
BOUND_EP = "ep_alltoall"
BOUND_OVERHEAD = "overhead"


@dataclass(frozen=True)
class InstanceLayout:
    """How one model instance is split: ``tp`` GPUs per attention group, ``ep`` expert-parallel GPUs."""

    tp: int
    ep: int = 1

    @property
    def gpus(self) -> int:
        """GPUs of one instance [count]."""
        return max(self.tp, self.ep)

    @property
    def attention_groups(self) -> int:
        """Data-parallel attention groups of ``tp`` GPUs [count]."""
        return self.gpus // self.tp


@dataclass(frozen=True)
class StepTime:
    """One step of an instance, its parts and what bounds it."""

    compute_s: float
    memory_s: float
    tp_s: float
    ep_s: float
    overhead_s: float
    ep_bound_level: str
    """Fabric level bounding the all-to-all (``none`` without expert parallelism)."""
    emitted_tokens: float = 1.0
    """Expected tokens each sequence emits per step [count]: 1, or ``1 + sum a^i`` when
    speculative decoding with multi-token prediction drafts (module notes)."""

    @property
    def per_token_s(self) -> float:
        """Step time per emitted token of a sequence [s]: ``total_s / emitted_tokens``."""
        return self.total_s / self.emitted_tokens

    @property
    def math_s(self) -> float:
        """Roofline part: the slower of compute and memory [s]."""
        return max(self.compute_s, self.memory_s)

    @property
    def total_s(self) -> float:
        return self.math_s + self.tp_s + self.ep_s + self.overhead_s

    @property
    def bound(self) -> str:
        """The largest part: compute, memory bandwidth, TP all-reduce, EP all-to-all or overhead."""
        parts = {
            BOUND_COMPUTE if self.compute_s >= self.memory_s else BOUND_MEMORY: self.math_s,
            BOUND_TP: self.tp_s,
            BOUND_EP: self.ep_s,
            BOUND_OVERHEAD: self.overhead_s,
        }
        return max(parts, key=lambda k: parts[k])


@dataclass(frozen=True)
class Instance:
    """A model instance on a fabric: the numbers every step needs."""

    model: ServedModel
    layout: InstanceLayout
    gpu: GpuFigures
    fabric: CollectiveFabric
    coefficients: ServingCoefficients
    dispatch_bytes: float
    """Bytes per element of the expert dispatch [B]."""
    dispatch_mode: str = "auto"
    """``normal`` (one copy per node, forwarded over the scale-up links), ``low_latency`` (every
    copy directly over the network) or ``auto`` (normal in prefill, low-latency in decode)."""
    low_latency_path: str = "nvlink"
    """Low-latency kernels: a copy for a GPU of the own scale-up domain over its links (``nvlink``) or
    through the GPU's NIC like every other copy (``rdma``, DeepEP's first release)."""
    node_limit: int | None = None
    """Node-limited routing: domains a token is sent to at most (normal mode)."""
    overlap: bool = False
    """Two micro-batches: the expert all-to-all of one under the other's compute."""
    imbalance: float = 1.0
    """Busiest expert GPU over the mean [-]."""
    attention_slowdown: float = 1.0
    """Peak at the weights' format / the BF16 peak the attention core runs at [-]."""
    comm_sm_fraction: float = 0.0
    """Share of the SMs normal (throughput) dispatch kernels keep while they overlap compute [-]
    (``moe_comm_sm_fraction``, 20 of 132 on H800, DeepSeek-V3 section 3.2.2)."""
    draft_tokens: int = 0
    """Tokens the multi-token prediction module drafts per sequence and decode step [count]."""
    acceptance: float = 1.0
    """Probability that a draft token is accepted, given the ones before it were [-]."""

    # --- memory -----------------------------------------------------------------------------

    @property
    def weights_bytes_per_gpu(self) -> float:
        lay = self.layout
        return self.model.dense_bytes / lay.tp + self.model.expert_bytes / lay.ep

    @property
    def usable_bytes_per_gpu(self) -> float:
        return self.gpu.hbm_bytes * self.coefficients.usable_memory_fraction

    @property
    def kv_capacity_bytes_per_gpu(self) -> float:
        """HBM left for the KV cache after weights and workspace [B] (negative: does not fit)."""
        workspace = self.coefficients.workspace_gbyte * 1e9
        return self.usable_bytes_per_gpu - self.weights_bytes_per_gpu - workspace

    def kv_bytes_per_gpu(self, *, sequences: float, tokens_each: float) -> float:
        """KV cache of ``sequences`` of the instance, ``tokens_each`` tokens long, on one GPU [B]."""
        lay = self.layout
        per_group = sequences / lay.attention_groups
        return per_group * tokens_each * self.model.kv_bytes_per_token / self.model.kv_split(lay.tp)

    def max_batch(self, *, tokens_each: int) -> int:
        """Most sequences of ``tokens_each`` tokens the instance's KV cache holds [count]."""
        capacity = self.kv_capacity_bytes_per_gpu
        if capacity <= 0:
            return 0
        per_sequence = self.kv_bytes_per_gpu(sequences=1, tokens_each=tokens_each)
        return int(capacity // per_sequence) if per_sequence > 0 else 1_000_000

    # --- time -------------------------------------------------------------------------------

    def _collectives(self, tokens: float, *, decode: bool = False) -> tuple[float, float, str]:
        """TP all-reduce and EP all-to-all time of one step of ``tokens`` tokens [s], EP bound level."""
        lay, m = self.layout, self.model
        layers, h = m.shape.layers, m.shape.hidden_size
        domain = self.fabric.domain_gpus
        tp_s = 0.0
        if lay.tp > 1:
            size = tokens / lay.attention_groups * h * ACTIVATION_BYTES
            t = collective_time(
                fabric=self.fabric, collective="all_reduce", message_bytes=size, gpus=lay.tp,
                gpus_per_domain=min(lay.tp, domain),
            )  # fmt: skip
            tp_s = 2 * layers * t.time_s
        dispatch_s, combine_s, level = self.ep_parts(tokens, decode=decode)
        return tp_s, dispatch_s + combine_s, level

    def ep_parts(self, tokens: float, *, decode: bool = False) -> tuple[float, float, str]:
        """Every expert layer's dispatch and every combine of one step of ``tokens`` tokens [s], on
        the busiest GPU (``u`` times the mean), and the EP bound level."""
        lay, m = self.layout, self.model
        if not (m.moe and lay.ep > 1):
            return 0.0, 0.0, "none"
        routed = tokens / lay.gpus * m.top_k * m.shape.hidden_size
        dispatch, level = self._alltoall(routed * self.dispatch_bytes, decode=decode)
        combine, level = self._alltoall(routed * ACTIVATION_BYTES, decode=decode)
        scale = m.shape.moe_layers * self.imbalance  # only the expert layers dispatch
        return dispatch * scale, combine * scale, level

    def _mode(self, *, decode: bool) -> str:
        """The dispatch kernels a step runs: the request's, or low-latency in decode and normal in prefill."""
        return self.dispatch_mode if self.dispatch_mode != "auto" else ("low_latency" if decode else "normal")

    def _alltoall(self, size: float, *, decode: bool = False) -> tuple[float, str]:
        """One dispatch or combine of ``size`` bytes per GPU over the expert group [s], and its bound.

        Low-latency kernels send every copy over the network (one GPU per domain as the collective
        model sees it) when the group spans domains, and, with the pure-RDMA path, inside one domain
        too (each GPU's NIC to the peer's NIC through the leaf); normal kernels with node-limited routing send one copy per distinct remote
        domain (:func:`planner.performance.training.moe.network_share`) and forward it inside the
        scale-up domain, the slower of the two legs bounding the time.
        """
        lay, domain = self.layout, self.fabric.domain_gpus
        low_latency = self._mode(decode=decode) == "low_latency"
        rdma = low_latency and self.low_latency_path == "rdma"
        if rdma and len(self.fabric.levels) == 1:
            raise InputError(
                msg(
                    "moe_low_latency_path: rdma sends every copy through the GPUs' NICs and this plan "
                    "has no network between them (allowed: nvlink)"
                )
            )
        if low_latency and (lay.ep > domain or rdma):
            t = collective_time(
                fabric=self.fabric,
                collective="all_to_all",
                message_bytes=size,
                gpus=lay.ep,
                gpus_per_domain=1,
            )
            return t.time_s, t.bound_level
        per_domain = min(lay.ep, domain)
        share = network_share(
            ep=lay.ep, per_domain=per_domain, top_k=self.model.top_k, node_limit=self.node_limit
        )
        t = collective_time(
            fabric=self.fabric, collective="all_to_all", message_bytes=size * share, gpus=lay.ep,
            gpus_per_domain=per_domain,
        )  # fmt: skip
        if share < 1.0 and per_domain > 1:
            inside = collective_time(
                fabric=self.fabric, collective="all_to_all", message_bytes=size, gpus=per_domain,
                gpus_per_domain=per_domain,
            )  # fmt: skip
            if inside.time_s > t.time_s:
                return inside.time_s, inside.bound_level
        return t.time_s, t.bound_level

    def _step(
        self,
        *,
        tokens: float,
        context: float,
        kv_read_bytes: float,
        efficiency: float,
        decode: bool = False,
    ) -> StepTime:
        m, lay, c = self.model, self.layout, self.coefficients
        # the attention core runs in BF16 whatever the weights' format (its share of peak / the speed-up)
        # decode runs MLA with its up-projections absorbed (serving/model.py)
        attention = m.attention_flops_per_token(context=context, absorbed=decode) * self.attention_slowdown
        flops = tokens * (2.0 * m.params_active + attention) / lay.gpus
        weights = m.dense_bytes / lay.tp + m.experts_touched(tokens=tokens) * m.expert_bytes / lay.ep
        memory_bytes = weights + kv_read_bytes
        if decode and self.overlap and m.moe and lay.ep > 1:
            return self._two_batch_decode(tokens=tokens, context=context, kv_read_bytes=kv_read_bytes)
        tp_s, ep_s, level = self._collectives(tokens, decode=decode)
        compute_s = flops / (self.gpu.peak_flops * efficiency)
        if decode and m.moe:
            # the routed experts run as a grouped GEMM of T k / E tokens per expert (module notes)
            routed = tokens * 2.0 * (m.params_active - m.params_dense) / lay.gpus
            compute_s += self._routed_compute_s(routed, tokens=tokens) - routed / (
                self.gpu.peak_flops * efficiency
            )
        memory_s = memory_bytes / (self.gpu.hbm_byte_per_s * c.hbm_efficiency)
        if self.overlap and ep_s > 0:
            # two micro-batches: one's all-to-all runs under the other's compute and memory traffic;
            # normal kernels communicate from SMs, so the compute runs on the rest of them (DeepSeek's
            # profile-data README: prefill's all-to-all occupies SMs, decode's does not) while it runs
            if self._mode(decode=decode) == "normal":
                compute_s *= sm_shared_slowdown(
                    busy_s=ep_s, window_s=compute_s, sm_fraction=self.comm_sm_fraction
                )
            ep_s = max(0.0, ep_s - max(compute_s, memory_s))
        return StepTime(
            compute_s=compute_s,
            memory_s=memory_s,
            tp_s=tp_s,
            ep_s=ep_s,
            overhead_s=m.shape.layers
            * (c.layer_overhead_us if decode else c.prefill_layer_overhead_us)
            * 1e-6,
            ep_bound_level=level,
        )

    def _routed_compute_s(self, flops: float, *, tokens: float) -> float:
        """Compute time of the routed experts' grouped GEMM of a decode step of ``tokens`` tokens,
        ``flops`` per GPU, at ``T k / E`` tokens per expert [s]
        (:meth:`ServingCoefficients.grouped_gemm_efficiency`)."""
        m = self.model
        eta = self.coefficients.grouped_gemm_efficiency(tokens_per_expert=tokens * m.top_k / m.experts)
        return flops / (self.gpu.peak_flops * eta)

    def _part(self, *, flops: float, hbm_bytes: float) -> tuple[float, float]:
        """Compute and memory time of one part of a decode step on one GPU [s]."""
        c = self.coefficients
        return (
            flops / (self.gpu.peak_flops * c.decode_compute_efficiency),
            hbm_bytes / (self.gpu.hbm_byte_per_s * c.hbm_efficiency),
        )

    def _two_batch_decode(self, *, tokens: float, context: float, kv_read_bytes: float) -> StepTime:
        """A decode step as two micro-batches in DeepSeek's overlapped schedule (module notes).

        Each micro-batch of ``T / 2`` tokens, per layer: its dense part (shared expert, attention
        projections) runs under its own dispatch, its routed experts alone, the attention core
        under its combine; the other micro-batch's stages interleave, so the step is twice
        ``max(t_dense, t_dispatch) + t_routed + max(t_attention, t_combine)``, each part its own
        roofline, the dense weights read once per micro-batch.
        """
        m, lay, c = self.model, self.layout, self.coefficients
        half = tokens / 2.0
        per_gpu = half / lay.gpus
        attention = m.attention_flops_per_token(context=context, absorbed=True) * self.attention_slowdown
        routed_params = m.params_active - m.params_dense
        dense = self._part(flops=per_gpu * 2.0 * m.params_dense, hbm_bytes=m.dense_bytes / lay.tp)
        routed = (
            self._routed_compute_s(per_gpu * 2.0 * routed_params, tokens=half),
            self._part(flops=0.0, hbm_bytes=m.experts_touched(tokens=half) * m.expert_bytes / lay.ep)[1],
        )
        core = self._part(flops=per_gpu * attention, hbm_bytes=kv_read_bytes / 2.0)
        dispatch_s, combine_s, level = self.ep_parts(half, decode=True)
        tp_s, _, _ = self._collectives(half, decode=True)
        stages = max(max(dense), dispatch_s) + max(routed) + max(max(core), combine_s)
        compute_s = 2.0 * (dense[0] + routed[0] + core[0])
        memory_s = 2.0 * (dense[1] + routed[1] + core[1])
        return StepTime(
            compute_s=compute_s,
            memory_s=memory_s,
            tp_s=2.0 * tp_s,
            ep_s=max(0.0, 2.0 * stages - max(compute_s, memory_s)),
            overhead_s=2.0 * m.shape.layers * c.layer_overhead_us * 1e-6,
            ep_bound_level=level,
        )

    @property
    def emitted_per_step(self) -> float:
        """Expected tokens a sequence emits per decode step [count] (:func:`emitted_tokens`)."""
        return emitted_tokens(draft_tokens=self.draft_tokens, acceptance=self.acceptance)

    def decode_step(self, *, batch: float, context: float) -> StepTime:
        """One decode step of ``batch`` sequences attending over ``context`` tokens each (the
        cached K,V read ``decode_kv_reads`` times, :class:`ServedModel`); with ``draft_tokens d``
        the model verifies ``1 + d`` tokens per sequence and the multi-token prediction module
        drafts ``d`` times (module notes)."""
        kv = self.kv_bytes_per_gpu(sequences=batch, tokens_each=context) * self.model.decode_kv_reads
        d = self.draft_tokens
        verify = self._step(
            tokens=batch * (1 + d),
            context=context,
            kv_read_bytes=kv,
            efficiency=self.coefficients.decode_compute_efficiency,
            decode=True,
        )
        if d == 0:
            return verify
        draft = self._draft_run(batch=batch, context=context, kv_read_bytes=kv)
        return StepTime(
            compute_s=verify.compute_s + d * draft.compute_s,
            memory_s=verify.memory_s + d * draft.memory_s,
            tp_s=verify.tp_s + d * draft.tp_s,
            ep_s=verify.ep_s + d * draft.ep_s,
            overhead_s=verify.overhead_s + d * draft.overhead_s,
            ep_bound_level=verify.ep_bound_level,
            emitted_tokens=self.emitted_per_step,
        )

    def _draft_run(self, *, batch: float, context: float, kv_read_bytes: float) -> StepTime:
        """One run of the multi-token prediction module on ``batch`` tokens (module notes): one
        layer's share ``1 / L`` of a decode step of ``batch`` tokens, plus the shared output head
        (``2 h V`` FLOPs per token, ``h V`` weights read by every tensor-parallel group)."""
        m, lay = self.model, self.layout
        layers = m.shape.layers
        one = self._step(
            tokens=batch, context=context, kv_read_bytes=kv_read_bytes,
            efficiency=self.coefficients.decode_compute_efficiency, decode=True,
        )  # fmt: skip
        head_params = float(m.shape.hidden_size * m.shape.vocab)
        head = self._part(
            flops=batch * 2.0 * head_params / lay.gpus,
            hbm_bytes=head_params * m.weight_bytes_per_param / lay.tp,
        )
        return StepTime(
            compute_s=one.compute_s / layers + head[0],
            memory_s=one.memory_s / layers + head[1],
            tp_s=one.tp_s / layers,
            ep_s=one.ep_s / layers,
            overhead_s=one.overhead_s / layers,
            ep_bound_level=one.ep_bound_level,
        )

    def prefill(self, *, prompts: float, prompt_tokens: int) -> StepTime:
        """Prefill of ``prompts`` prompts of ``prompt_tokens`` tokens in one batch (KV written)."""
        tokens = prompts * prompt_tokens
        kv = self.kv_bytes_per_gpu(sequences=prompts, tokens_each=prompt_tokens)
        return self._step(
            tokens=tokens, context=prompt_tokens / 2.0, kv_read_bytes=kv,
            efficiency=self.coefficients.prefill_compute_efficiency,
        )  # fmt: skip


def emitted_tokens(*, draft_tokens: int, acceptance: float) -> float:
    """Expected tokens a sequence emits per decode step of speculative decoding.

    The step verifies the ``d`` draft tokens in order; draft ``i`` is kept only when drafts
    ``1 ... i - 1`` were, each accepted with probability ``a`` (independently), and the verifying
    model adds one token of its own, so::

        E = 1 + sum_{i=1..d} a^i = (1 - a^(d+1)) / (1 - a)

    (Leviathan, Kalman and Matias, 'Fast Inference from Transformers via Speculative Decoding',
    ICML 2023, equation 1; DeepSeek-V3 with one MTP module, arXiv 2412.19437 section 5.4.3).

    Parameters
    ----------
    draft_tokens : int
        Draft tokens ``d`` per sequence and step [count], >= 0.
    acceptance : float
        Acceptance probability ``a`` of each draft token [-], in (0, 1].

    Returns
    -------
    float
        Expected tokens emitted per sequence and step ``E`` [count], between 1 and ``1 + d``.

    >>> emitted_tokens(draft_tokens=2, acceptance=0.5)  # 1 + 0.5 + 0.25
    1.75
    >>> emitted_tokens(draft_tokens=0, acceptance=0.9)
    1.0
    """
    return 1.0 + sum(acceptance**i for i in range(1, draft_tokens + 1))


def ceil_div(a: int, b: int) -> int:
    """``ceil(a / b)`` for positive integers.

    Parameters
    ----------
    a : int
        Dividend [count], positive.
    b : int
        Divisor [count], positive.

    Returns
    -------
    int
        Smallest integer not below ``a / b`` [count].

    >>> ceil_div(10, 4)
    3
    """
    return -(-a // b)


def powers_of_two(limit: int) -> tuple[int, ...]:
    """1, 2, 4, ... up to ``limit``.

    Parameters
    ----------
    limit : int
        Largest value allowed [count]; below 1 is read as 1.

    Returns
    -------
    tuple[int, ...]
        The powers of two from 1 up to and including the largest not above ``limit``, ascending
        [count].

    >>> powers_of_two(12)
    (1, 2, 4, 8)
    """
    return tuple(2**i for i in range(int(math.log2(max(1, limit))) + 1))
