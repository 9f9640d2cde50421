"""Mixture-of-experts layers in training: expert GEMMs, routing, permutation and expert all-to-all.

Notes
-----
Per micro-batch, on one GPU of the slowest stage, each of its ``L_moe`` expert layers (the layers
after the first-k dense ones) costs, forward and backward (``x = 4 / 3`` under full recomputation,
which repeats the forward, else 1)::

    tokens per GPU        n   = s b / (cp tp)                       (sequence parallel split)
    tokens per expert     t_e = n etp k ep / E                     (mean, per local expert)
    imbalance             u   = 1 + (u_0 - 1) E / (E + R)           (R redundant experts, EPLB)
    expert GEMMs          x 3 n k 2 g h f u / (F eta_e)
                          eta_e = eta_max x w / (w + w_half) x t_e / (t_e + n_half),  w = f / etp
    element-wise          x n etp k Q_e u / B_hbm                  (every routed copy)
    framework             x n etp k c_r u + f w                    (every routed copy; every host wait)
                          Q_e = q_h h + q_f f g / 3 + q_cast (2 h + g f)   (q_cast with FP8 only)
    all-to-all            x (A(q_d) + 3 A(2)) u                    (dispatch, combine; fwd and bwd)

``eta_e`` is the kernel-efficiency curve of the dense layers
(:mod:`~planner.performance.training.efficiency`) evaluated at the expert's own GEMM: its width is
the expert FFN width per GPU and its token count the tokens each expert receives, so a grouped GEMM
loses efficiency as the tokens per expert fall (many experts, small micro-batches, large ``ep``).
``c_r`` is what the framework's expert path costs per routed copy beyond the GEMMs and the counted
bytes (token dispatcher bookkeeping, permutation, grouped-GEMM preparation), a catalog value per
accelerator and framework (``data/moe.yaml``; Megatron-Core's by default, NeMo AutoModel's with
``moe_framework`` automodel) fitted to calibration cases only; a GPU without a fit of its own
takes the fitted GPU nearest in HBM bandwidth, scaled by the bandwidth ratio within the span
of the fits (:func:`scaled_copy_overhead_ns`: the per-copy work runs as GPU kernels). ``w`` is what one expert-layer
forward loses while the dispatcher makes the host wait for the GPU's token counts (the GPU idles
while the host then launches what follows: a cost per wait, not per token), ``f = 1`` wait per
forward, 2 under full recomputation (the recomputed forward dispatches again); the two H100
calibration rows, four-fold apart in copies per layer pass, fit ``c_r`` and ``w`` together. A
fused dispatcher whose router and preprocessing run in CUDA graphs waits on no host copy: no
``w``, and its own, smaller ``c_g`` instead of ``c_r`` (what still launches from the host per
layer), while Megatron-Core's all-to-all dispatcher keeps both under those graphs (it still copies
its split sizes to the host and waits on them before the all-to-all). With the whole iteration in
one CUDA graph (``TrainingJob.full_iteration_graph``) nothing launches from the host per layer: a
fused or HybridEP dispatcher pays its own ``c_f`` instead, and no ``w``. ``Q_e`` counts the
HBM bytes each routed copy moves outside the GEMMs: the permutation and un-permutation (``q_h``), the expert's activation function (``q_f``,
``g = 3`` gated else 2) and, with FP8 matrix multiplies, the casts of the two GEMM inputs and the
two output gradients (``q_cast``, the dense layers' coefficient). With a width ``f`` small against
``h`` these memory-bound bytes weigh as much as the expert GEMMs themselves, which is why
fine-grained experts reach a small share of peak.

``A(q)`` is one all-to-all over the ``ep`` GPUs of a buffer of ``n k h q`` bytes from the one
collective model (:func:`planner.performance.collectives.collective_time`): ``q_d = 1`` when the
dispatch is FP8, the combine and both backward all-to-alls BF16. Fused (DeepEP-style) dispatch
kernels send a token across the network once per distinct remote domain among its ``k`` experts,
``(g - 1)(1 - (1 - 1/g)^k)`` copies for ``g`` domains in the expert group, ``M (g - 1) / g`` when
node-limited routing (DeepSeek-V3 section 2.1.2) sends it to ``M`` domains, and forward it to its experts over the scale-up
links, which overlaps the network leg: ``A = max(A_net, A_up)``. Over the scale-up links they move
one copy per destination GPU (:func:`gpu_copies`: the receiving GPU copies it to its local
experts in the permutation, the combine returns one row per GPU), inside a single domain too. The plain all-to-all sends each
of the ``k`` copies on its own (``(n - m) / n`` of them across the network), node limit or not.

Overlap is an explicit option, never assumed (``TrainingJob.moe_overlap``): ``none`` puts every
all-to-all on the critical path; ``two_micro_batches`` runs one micro-batch's all-to-all under the
other's compute, so only what exceeds the compute is exposed (with fused dispatch kernels, which
communicate from streaming multiprocessors, the compute runs on ``1 - s_c`` of them while they
run, :func:`sm_shared_slowdown`: 20 of 132 on H800, DeepSeek-V3 section 3.2.2); ``dualpipe`` does that and schedules
the pipeline both ways, whose bubble is ``(pp / 2 - 1)`` micro-batch slots instead of ``pp - 1``
(DeepSeek-V3 section 3.2.1, Table 2).

References
----------
DeepSeek-AI, "DeepSeek-V3 Technical Report", arXiv 2412.19437 (node-limited routing, DualPipe,
FP8 dispatch); D. Lepikhin et al., "GShard", arXiv 2006.16668 (dispatch and combine all-to-all);
T. Gale et al., "MegaBlocks", arXiv 2211.15841 (grouped GEMMs and token permutation); D. Liu et
al., "MoE Parallel Folding", arXiv 2504.14960 (expert tensor parallelism apart from attention's).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from planner.catalog import Catalog
from planner.catalog.rules import rule_values
from planner.i18n.message import msg
from planner.performance.training.memory import Parallel
from planner.performance.training.shape import ModelShape

RULES = (
    "moe_copy_overhead_ns",
    "moe_elementwise_bytes_per_hidden",
    "moe_elementwise_bytes_per_ffn",
    "moe_comm_sm_fraction",
    "moe_graphed_copy_overhead_ns",
    "moe_host_wait_us",
    "moe_full_graph_copy_overhead_ns",
)
"""Catalog sizing rules of the MoE terms, in the order of :class:`MoeCoefficients`; a rule
``<id>_<gpu_id>`` replaces the general one for that GPU."""

FULL_RECOMPUTE_FACTOR = 4.0 / 3.0
"""Forward + backward (3 forward-equivalents) plus the recomputed forward."""
ALLTOALLS_PER_LAYER = 4
"""Dispatch and combine in the forward, their gradients in the backward (GShard)."""
BF16_BYTES = 2.0
FP8_BYTES = 1.0


@dataclass(frozen=True)
class MoeCoefficients:
    """Per-accelerator coefficients of the expert layers (module notes)."""

    copy_overhead_ns: float = 0.0
    """``c_r``: time per routed token copy per expert layer, forward and backward, beyond its GEMMs
    and element-wise bytes: the framework's token dispatcher and grouped-GEMM path [ns]."""
    elementwise_bytes_per_hidden: float = 0.0
    """``q_h``: HBM bytes per routed copy and model-width element, forward and backward: the
    permutation and un-permutation [B]."""
    elementwise_bytes_per_ffn: float = 0.0
    """``q_f``: HBM bytes per routed copy and expert-width element of a gated expert, forward and
    backward: its activation function [B]."""
    comm_sm_fraction: float = 0.0
    """Share of the GPU's streaming multiprocessors that fused dispatch kernels keep while they
    overlap compute; the compute runs on the rest [-]."""
    graphed_copy_overhead_ns: float = 0.0
    """``c_g``: what a fused dispatcher whose router and token preprocessing run in CUDA graphs
    still spends per routed copy and expert layer, forward and backward, beyond the GEMMs and
    counted bytes (no host synchronisation; replaces ``c_r``) [ns]."""
    host_wait_us: float = 0.0
    """``w``: time one forward pass of one expert layer loses when its dispatcher makes the host
    wait for the GPU's token counts (a recomputed forward waits again); none on the graph-captured
    fused path [us]."""
    full_graph_copy_overhead_ns: float = 0.0
    """``c_f``: what a fused or HybridEP dispatcher still spends per routed copy and expert layer,
    forward and backward, beyond the GEMMs and counted bytes when the whole training iteration is
    one CUDA graph (nothing launched from the host per layer; replaces ``c_r`` and ``c_g``) [ns]."""

    def bytes_per_copy(self, *, hidden: float, ffn: float, gated: bool, fp8_cast_bytes: float) -> float:
        """Element-wise HBM bytes of one routed copy through one expert layer [B] (module notes).

        >>> MoeCoefficients(0, 16, 16).bytes_per_copy(hidden=2048, ffn=768, gated=True, fp8_cast_bytes=4)
        70656.0
        """
        gates = 3.0 if gated else 2.0
        activation = self.elementwise_bytes_per_ffn * ffn * gates / 3.0
        casts = fp8_cast_bytes * (2.0 * hidden + (gates - 1.0 + 1.0) * ffn)
        return self.elementwise_bytes_per_hidden * hidden + activation + casts


DEFAULT_FRAMEWORK = "megatron_core"
"""The framework the general per-copy cost is fitted on; another reads ``<id>_<framework>``."""


def moe_coefficients(
    catalog: Catalog, *, gpu_id: str = "", framework: str = DEFAULT_FRAMEWORK
) -> MoeCoefficients:
    """The coefficients in the catalog, the GPU's own where it has them and, for a framework other
    than Megatron-Core, that framework's own; :class:`CatalogError` names a missing one.

    Parameters
    ----------
    catalog : Catalog
        The component catalog; its ``sizing_rules`` hold the coefficients (:data:`RULES`).
    gpu_id : str
        Catalog id of the GPU whose ``<rule>_<gpu_id>`` records replace the general ones; ``""``:
        the general records only.
    framework : str
        Training framework (``TrainingJob.moe_framework``); other than ``megatron_core``, its
        ``<rule>_<framework>`` records replace the general and the GPU's ones (a framework's
        per-copy cost is its code path's).

    Returns
    -------
    MoeCoefficients
        Per-copy overheads ``c_r``, ``c_g`` [ns], the host wait per expert-layer forward ``w`` [us],
        element-wise bytes ``q_h``, ``q_f`` [B] and the streaming-multiprocessor share of fused
        dispatch kernels [fraction].
    """
    values = rule_values(catalog, RULES, needed_by=msg("the mixture-of-experts model"))
    if gpu_id:  # the GPU's own fit below replaces these; without one, the fits scaled by HBM bandwidth
        values[COPY_OVERHEAD_RULE] = scaled_copy_overhead_ns(catalog, gpu_id=gpu_id)
        for kernel_rule in (KERNEL_COPY_OVERHEAD_RULE, FULL_GRAPH_COPY_OVERHEAD_RULE):
            values[kernel_rule] = scaled_copy_overhead_ns(catalog, gpu_id=gpu_id, rule=kernel_rule)
    suffixes = [f"_{gpu_id}"] if gpu_id else []
    if framework != DEFAULT_FRAMEWORK:
        suffixes.append(f"_{framework}")
    for rule_id in RULES:
        for suffix in suffixes:  # the later suffix wins
            specific = catalog.sizing_rules.get(f"{rule_id}{suffix}")
            if specific is not None:
                values[rule_id] = specific.value
    return MoeCoefficients(*(values[r] for r in RULES))


COPY_OVERHEAD_RULE = "moe_copy_overhead_ns"
KERNEL_COPY_OVERHEAD_RULE = "moe_graphed_copy_overhead_ns"
FULL_GRAPH_COPY_OVERHEAD_RULE = "moe_full_graph_copy_overhead_ns"
KERNEL_FIT_GPU = "gb200"
"""The GPU ``moe_graphed_copy_overhead_ns`` (``c_g``) and ``moe_full_graph_copy_overhead_ns`` (``c_f``) are
fitted on (Megatron-Bridge's DGX-GB200 HybridEP rows)."""
GENERAL_FIT_GPU = "h100_sxm"
"""The GPU the general ``moe_copy_overhead_ns`` record is fitted on (Megatron-Bridge's DGX-H100 rows)."""


def copy_overhead_fits(catalog: Catalog) -> dict[str, float]:
    """Every fitted Megatron-Core per-copy cost ``c_r`` in the catalog, keyed by the GPU it was fitted on [ns].

    The general record belongs to :data:`GENERAL_FIT_GPU`; a record ``moe_copy_overhead_ns_<gpu_id>``
    to its GPU (records of other suffixes, a framework's, are not GPU fits). Only GPUs the catalog
    holds are returned.

    Parameters
    ----------
    catalog : Catalog
        The component catalog (``sizing_rules`` and ``gpus``).

    Returns
    -------
    dict of str to float
        ``c_r`` [ns] by the catalog id of the GPU it was fitted on.
    """
    rules, gpus = catalog.sizing_rules, catalog.gpus
    fits: dict[str, float] = {}
    if GENERAL_FIT_GPU in gpus and COPY_OVERHEAD_RULE in rules:
        fits[GENERAL_FIT_GPU] = rules[COPY_OVERHEAD_RULE].value
    prefix = f"{COPY_OVERHEAD_RULE}_"
    for rule_id, rule in rules.items():
        gpu = rule_id.removeprefix(prefix)
        if rule_id.startswith(prefix) and gpu in gpus:
            fits[gpu] = rule.value
    return fits


def _kernel_copy_overhead_fits(catalog: Catalog, rule: str = KERNEL_COPY_OVERHEAD_RULE) -> dict[str, float]:
    """The fitted ``c_g`` (or, by ``rule``, ``c_f``) keyed by the GPU it was fitted on
    (:data:`KERNEL_FIT_GPU`) [ns]; empty when the catalog lacks that GPU (``<rule>_<gpu_id>`` records
    of other GPUs are read by :func:`moe_coefficients`).

    >>> from planner.catalog import load_catalog
    >>> _kernel_copy_overhead_fits(load_catalog())
    {'gb200': 27.0}
    """
    rules = catalog.sizing_rules
    if KERNEL_FIT_GPU not in catalog.gpus or rule not in rules:
        return {}
    return {KERNEL_FIT_GPU: rules[rule].value}


def scaled_copy_overhead_ns(catalog: Catalog, *, gpu_id: str, rule: str = COPY_OVERHEAD_RULE) -> float:
    """A per-copy framework cost for a GPU [ns]: its own fit, else the fit of the GPU nearest in HBM
    bandwidth scaled by the bandwidth ratio within the span of Megatron-Core's fits (docs/model.md,
    "framework cost per copy on other GPUs"). ``rule`` :data:`COPY_OVERHEAD_RULE` is Megatron-Core's
    permutation path ``c_r``; :data:`KERNEL_COPY_OVERHEAD_RULE` is ``c_g``, HybridEP's own kernels or
    a captured fused path, fitted on :data:`KERNEL_FIT_GPU` only and scaled by the same law.

    ``c_r(G) = c_r(F) B_F / clamp(B_G, B_min, B_max)`` with ``F`` the fitted GPU minimising
    ``|ln(B_F / B_G)|`` (ties: the first id in alphabetical order) and ``[B_min, B_max]`` the span of
    the fitted GPUs' bandwidths: the law is checked between the fits only, so a GPU outside the span
    takes the nearest fit unscaled. The per-copy work is device work (permutation index sorts and
    gathers, grouped-GEMM preparation run as GPU kernels; the host sees per-layer counts only), and
    the two independent fits agree with a cost that scales with the device: 339 ns on H100 (3,350
    GB/s) scaled to B200's 8,000 GB/s is 142 ns, B200's own fit 128 ns. A GPU missing from the
    catalog, or no fit at all, keeps the general record.

    Parameters
    ----------
    catalog : Catalog
        The component catalog (``sizing_rules`` and ``gpus``).
    gpu_id : str
        Catalog id of the GPU.
    rule : str
        The per-copy record: :data:`COPY_OVERHEAD_RULE` (``c_r``), :data:`KERNEL_COPY_OVERHEAD_RULE`
        (``c_g``) or :data:`FULL_GRAPH_COPY_OVERHEAD_RULE` (``c_f``).

    Returns
    -------
    float
        ``c_r``, ``c_g`` or ``c_f`` [ns].

    Examples
    --------
    >>> from planner.catalog import load_catalog
    >>> round(scaled_copy_overhead_ns(load_catalog(), gpu_id="h200_sxm"), 1)  # 339 x 3,350 / 4,800
    236.6
    >>> scaled_copy_overhead_ns(load_catalog(), gpu_id="a100_sxm_80gb")  # below the span: the H100's
    339.0
    >>> round(scaled_copy_overhead_ns(load_catalog(), gpu_id="h100_sxm", rule=KERNEL_COPY_OVERHEAD_RULE), 1)
    64.5
    """
    law = copy_overhead_fits(catalog)  # the span the device-cost law is checked over
    fits = law if rule == COPY_OVERHEAD_RULE else _kernel_copy_overhead_fits(catalog, rule)
    own = fits.get(gpu_id)
    if own is not None:
        return own
    general = catalog.sizing_rules[rule].value
    gpu = catalog.gpus.get(gpu_id)
    if gpu is None or not fits or not law:
        return general
    spans = [catalog.gpus[g].hbm_bandwidth_gbyte_per_s for g in law]
    bandwidth = min(max(gpu.hbm_bandwidth_gbyte_per_s, min(spans)), max(spans))
    nearest = min(
        sorted(fits), key=lambda g: abs(math.log(catalog.gpus[g].hbm_bandwidth_gbyte_per_s / bandwidth))
    )
    return fits[nearest] * catalog.gpus[nearest].hbm_bandwidth_gbyte_per_s / bandwidth


def effective_imbalance(*, imbalance: float, experts: int, redundant: int) -> float:
    """Load of the busiest expert GPU over the mean after redundant copies [-].

    An assumption, stated in ``docs/model.md``: each of the ``R`` redundant copies takes over the
    excess of one hot expert, so the excess shrinks by ``E / (E + R)``.

    Parameters
    ----------
    imbalance : float
        Busiest expert's load over the mean without redundant copies, ``u_0`` [-] (>= 1).
    experts : int
        Routed experts, ``E`` [count].
    redundant : int
        Redundant expert copies, ``R`` [count].

    Returns
    -------
    float
        ``u = 1 + (u_0 - 1) E / (E + R)`` [-].

    Examples
    --------
    >>> effective_imbalance(imbalance=1.5, experts=256, redundant=32)  # 1 + 0.5 x 256 / 288
    1.4444444444444444
    """
    return 1.0 + (imbalance - 1.0) * experts / (experts + redundant)


def remote_domain_copies(*, top_k: int, domains: int, node_limit: int | None, dedupe: bool = True) -> float:
    """Copies of one token that cross the network [count] (module notes).

    A plain all-to-all sends each routed copy to another domain on its own: ``k (g - 1) / g`` (a
    node limit alone does not change that: the copies only land on fewer nodes). Kernels that
    deduplicate (DeepEP-style, ``dedupe``) send one copy per distinct remote domain: a token's
    experts spread evenly over the ``g`` domains reach ``D = g (1 - (1 - 1/g)^k)`` distinct ones,
    node-limited routing caps ``D`` at ``M``, and each of them is the token's own with probability
    ``1 / g``, so ``min(D, M) (g - 1) / g`` cross the network.

    Parameters
    ----------
    top_k : int
        Routed experts per token, ``k`` [count].
    domains : int
        Scale-up domains the expert-parallel group spans, ``g`` [count]; 1 or fewer: no copy
        crosses the network.
    node_limit : int or None
        Most domains a token may be routed to, ``M`` [count]; ``None``: no limit.
    dedupe : bool
        The dispatch kernels send one copy per distinct remote domain.

    Returns
    -------
    float
        Expected copies of one token sent across the network per dispatch [count].

    Examples
    --------
    >>> remote_domain_copies(top_k=8, domains=8, node_limit=None, dedupe=False)
    7.0
    >>> round(remote_domain_copies(top_k=8, domains=8, node_limit=None), 3)  # 7 (1 - (7/8)^8)
    4.595
    >>> remote_domain_copies(top_k=8, domains=8, node_limit=4)  # 4 x 7/8
    3.5
    >>> remote_domain_copies(top_k=8, domains=8, node_limit=1)  # all 8 on one node, 7/8 of them remote
    0.875
    >>> round(remote_domain_copies(top_k=8, domains=4, node_limit=4), 3)  # 3 (1 - (3/4)^8)
    2.7
    """
    g = domains
    if g <= 1:
        return 0.0
    if not dedupe:
        return top_k * (g - 1) / g
    distinct = g * (1.0 - (1.0 - 1.0 / g) ** top_k)
    if node_limit is not None:
        distinct = min(float(node_limit), distinct)
    return distinct * (g - 1) / g


@dataclass(frozen=True)
class MoeLayerTimes:
    """One micro-batch's expert layers on one GPU of the slowest stage [s]."""

    expert_compute_s: float
    """Expert GEMMs (forward, backward, recomputation)."""
    overhead_s: float
    """Per-expert kernels and token permutation."""
    alltoall_s: float
    """Every dispatch and combine, before any overlap."""
    expert_efficiency: float
    """``eta_e`` [-]."""
    tokens_per_expert: float
    """``t_e`` [count]."""


class MoeModel:
    """The expert-layer terms of one job on one fabric; ``alltoall`` is the collective model's."""

    def __init__(
        self, *, shape: ModelShape, seq_len: int, coefficients: MoeCoefficients, load_imbalance: float,
        redundant_experts: int, node_limit: int | None, dispatch_fp8: bool,
    ) -> None:  # fmt: skip
        self.shape, self.seq_len, self.c = shape, seq_len, coefficients
        self.imbalance = effective_imbalance(
            imbalance=load_imbalance, experts=shape.experts, redundant=redundant_experts
        )
        self.redundant = redundant_experts
        self.node_limit = node_limit
        self.dispatch_bytes = FP8_BYTES if dispatch_fp8 else BF16_BYTES
        gates = shape.ffn_matrices
        self._routed_flops = (
            2.0 * gates * shape.hidden_size * shape.ffn_hidden * shape.top_k * shape.moe_layers / shape.layers
        )

    @property
    def active(self) -> bool:
        return self.shape.experts > 1 and self.shape.moe_layers > 0

    def routed_flops_per_token(self) -> float:
        """Forward FLOPs of the routed experts per token, averaged over the layers [FLOP]."""
        return self._routed_flops

    def tokens_per_gpu(self, lay: Parallel) -> float:
        """``n = s b / (cp tp)`` [count]."""
        return self.seq_len * lay.micro_batch_seqs / (lay.cp * lay.tp)

    def tokens_per_expert(self, lay: Parallel) -> float:
        """``t_e = n etp k ep / E`` [count]."""
        s = self.shape
        return self.tokens_per_gpu(lay) * lay.etp * s.top_k * lay.ep / s.experts

    def routed_copies(self, lay: Parallel) -> float:
        """Routed token copies one GPU handles per expert layer and micro-batch, busiest GPU [count]."""
        return self.tokens_per_gpu(lay) * lay.etp * self.shape.top_k * self.imbalance

    def local_experts(self, lay: Parallel) -> float:
        """Experts (redundant copies included) on one expert-parallel GPU [count]."""
        return (self.shape.experts + self.redundant) / lay.ep

    def dispatch_buffer_bytes(self, lay: Parallel, element_bytes: float) -> float:
        """Buffer one GPU sends in one all-to-all: ``n k h q`` [B]."""
        return self.tokens_per_gpu(lay) * self.shape.top_k * self.shape.hidden_size * element_bytes

    def moe_layers_on_stage(self, layers_on_stage: int) -> float:
        """Expert layers on the slowest stage (the layer average) [count]."""
        return layers_on_stage * self.shape.moe_layers / self.shape.layers


def unpaired_share(*, pp: int, virtual_stages: int, micro_batches: float) -> float:
    """Share of a stage's forward (and backward) chunk passes that Megatron-Core's combined 1F1B
    schedule runs alone, their all-to-all exposed [-] (module notes).

    ``w = 2 (pp - 1) + (v - 1) pp + 1`` warm-up forward chunks on the first stage (the interleaved
    schedule's count plus the one extra forward the overlap schedules first; 1 without a pipeline:
    the first forward, and the last backward, run alone); the share is ``min(1, w / (M v))`` over
    ``M`` micro-batches of ``v`` chunks.

    Parameters
    ----------
    pp : int
        Pipeline stages [count].
    virtual_stages : int
        Chunks per stage, ``v`` [count].
    micro_batches : int
        Micro-batches per step, ``M`` [count].

    Returns
    -------
    float
        ``min(1, w / (M v))`` [fraction].

    Examples
    --------
    >>> unpaired_share(pp=1, virtual_stages=1, micro_batches=16)
    0.0625
    >>> unpaired_share(pp=8, virtual_stages=2, micro_batches=16)
    0.71875
    """
    warmup = 2.0 * (pp - 1) + (virtual_stages - 1) * pp + 1.0
    return min(1.0, warmup / (micro_batches * virtual_stages))


def sm_shared_slowdown(*, busy_s: float, window_s: float, sm_fraction: float) -> float:
    """Factor by which compute that overlaps SM-resident dispatch kernels stretches [-].

    Fused dispatch kernels (DeepEP, HybridEP) communicate from streaming multiprocessors and keep a
    share ``s`` of them only while they run; the compute beside them runs on ``1 - s`` for that
    time and on all of them otherwise. Work that takes ``W`` alone and shares the GPU for ``T``
    takes ``W + s min(T, W / (1 - s))``: the whole window stretches by ``1 / (1 - s)`` only when
    the kernels run at least as long as the compute.

    Parameters
    ----------
    busy_s : float
        Time the dispatch kernels run beside the compute, ``T`` [s].
    window_s : float
        The compute and element-wise work they overlap, alone, ``W`` [s].
    sm_fraction : float
        Share of the SMs the kernels keep, ``s`` (``moe_comm_sm_fraction``) [fraction].

    Returns
    -------
    float
        ``1 + s min(T, W / (1 - s)) / W`` (1 for an empty window) [-].

    Examples
    --------
    >>> round(sm_shared_slowdown(busy_s=1.0, window_s=10.0, sm_fraction=0.2), 6)
    1.02
    >>> round(sm_shared_slowdown(busy_s=100.0, window_s=10.0, sm_fraction=0.2), 6)
    1.25
    """
    if window_s <= 0.0:
        return 1.0
    shared_s = min(busy_s, window_s / (1.0 - sm_fraction))
    return 1.0 + sm_fraction * shared_s / window_s


def gpu_copies(*, top_k: int, gpus: int) -> float:
    """Copies of one token a deduplicating dispatch moves over the scale-up links [count].

    DeepEP-style kernels send a token once to each GPU that holds one or more of its ``k``
    experts (``is_token_in_rank``; the receiving GPU copies it to its local experts in the
    permutation, and the combine sends back one row per GPU, its local experts' outputs summed
    first): with the experts spread evenly over ``G`` GPUs, ``G (1 - (1 - 1/G)^k)`` distinct GPUs,
    the token's own among them.

    Parameters
    ----------
    top_k : int
        Routed experts per token, ``k`` [count].
    gpus : int
        GPUs the experts are spread over, ``G`` [count].

    Returns
    -------
    float
        Expected distinct GPUs one token is sent to [count], between 1 and ``min(k, G)``.

    Examples
    --------
    >>> round(gpu_copies(top_k=8, gpus=8), 3)  # 8 (1 - (7/8)^8)
    5.251
    >>> gpu_copies(top_k=8, gpus=1)
    1.0
    """
    return gpus * (1.0 - (1.0 - 1.0 / gpus) ** top_k)


def network_share(
    *, ep: int, per_domain: int, top_k: int, node_limit: int | None, dedupe: bool = True
) -> float:
    """Network bytes of a deduplicating dispatch over those of a plain all-to-all [-].

    A plain all-to-all sends ``(n - m) / n`` of the buffer across the network; deduplicating
    kernels send :func:`remote_domain_copies` of the ``k`` copies and forward them inside the
    scale-up domain.

    Parameters
    ----------
    ep : int
        Expert-parallel size, ``n`` [count].
    per_domain : int
        GPUs of the group per scale-up domain, ``m`` [count].
    top_k : int
        Routed experts per token [count].
    node_limit : int or None
        Most domains a token may be routed to [count]; ``None``: no limit.
    dedupe : bool
        The dispatch kernels deduplicate; ``False`` gives 1.

    Returns
    -------
    float
        Deduplicated over plain network bytes [-]; 1 when the group fits in one domain.

    Examples
    --------
    >>> network_share(ep=64, per_domain=8, top_k=8, node_limit=4)  # 3.5 / (8 x 56 / 64)
    0.5
    >>> network_share(ep=64, per_domain=8, top_k=8, node_limit=4, dedupe=False)
    1.0
    """
    if not dedupe or ep <= per_domain:
        return 1.0
    domains = math.ceil(ep / per_domain)
    plain = top_k * (ep - per_domain) / ep
    return remote_domain_copies(top_k=top_k, domains=domains, node_limit=node_limit) / plain
