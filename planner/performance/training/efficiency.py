"""Compute efficiency of the training kernels: matrix units against HBM-bound element-wise work.

Notes
-----
Per token and layer on one GPU, the matrix multiplies run at a share ``eta_mm`` of peak ``F`` and the
element-wise work moves ``Q`` bytes through HBM at bandwidth ``B`` while the multiplies do ``W``
FLOPs; the two add up in time, so the share of peak the layer reaches is::

    1 / eta = 1 / eta_mm + (F / B) Q / W
    eta_mm  = eta_max x w / (w + w_half) x n / (n + n_half)

with ``w = h / tp`` the per-GPU GEMM width (tile occupancy) and ``n = s b / cp`` the tokens of one
micro-batch on one GPU (the GEMMs' other dimension). ``Q`` has two parts:

- norms, bias-GeLU, bias-dropout-add and residuals: ``72 k h`` bytes when the forward runs twice
  (full recomputation), three quarters of it otherwise (forward, backward = twice the forward,
  and the recomputed forward are the four equal shares of the count behind ``k``); divided over
  ``tp`` GPUs, except the norms and dropouts that every tensor-parallel GPU repeats without
  sequence parallelism;
- with FP8 matrix multiplies, the casts of their inputs: ``q_cast`` bytes per element of every
  matrix-multiply input in the forward (QKV, output projection, the two FFN matrices: ``3 h + f k``)
  and of every output gradient in the backward (``3 h + 2 h_kv + g' f k``, ``g' = 2`` gated else 1);
- the attention scores, only where the kernel writes them to HBM (``attention_kernel =
  "materialized"``: Megatron-LM and DeepSpeed before FlashAttention, 2022): ``a / tp x s`` score
  elements per token, each moving ``q_fwd`` bytes in the forward, ``q_bwd`` in the backward and
  ``q_drop`` per pass for the attention dropout, plus one more forward when recomputation (selective
  or full) repeats the attention core. A fused (flash) kernel keeps them on chip: no bytes.

``F / B`` is the GPU's peak FLOP/s over its HBM bandwidth (312 TFLOP/s / 2.04 TB/s = 153 FLOP/B on
A100 80 GB). Wider models and longer micro-batches reach a larger share of peak, and models with
many narrow heads lose more to the scores (Megatron-LM SC21 Table 1: 137 TFLOP/s per A100 at 1.7B,
163 at 1T, arXiv 2104.04473). ``k`` and the score bytes are counted, not fitted; ``eta_max``,
``w_half`` and ``n_half`` are fitted only to validation cases whose role is ``calibration``
(``data/training.yaml``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from planner.catalog import Catalog
from planner.catalog.rules import rule_values
from planner.errors import InputError
from planner.i18n.message import msg

FP8_SPEEDUP = 2.0
"""FP8 dense peak / BF16 dense peak: 1979 / 989 TFLOPS on H100 SXM (NVIDIA datasheet). Applied to
every GPU (an assumption for non-NVIDIA parts)."""

LATEST_RELEASE = "latest"
"""The framework release each GPU's own coefficients are calibrated on (``data/training.yaml``)."""

RULES = (
    "training_efficiency_max_fraction",
    "training_efficiency_width_half",
    "training_efficiency_elementwise_bytes",
    "training_efficiency_tokens_half",
    "training_score_bytes_forward",
    "training_score_bytes_backward",
    "training_score_dropout_bytes",
    "training_fp8_cast_bytes",
    "training_optimizer_bytes_per_param",
    "training_fp8_attention_speedup_forward",
    "training_fp8_attention_speedup_backward",
)
"""Catalog sizing rules holding the coefficients, in the order of :class:`EfficiencyCoefficients`."""

FORWARD_SHARE_OF_ELEMENTWISE = 0.25
"""Share of the element-wise count ``k`` that is one forward pass: ``k`` counts forward, backward
(twice the forward) and the recomputed forward."""


@dataclass(frozen=True)
class EfficiencyCoefficients:
    """Coefficients of the kernel-efficiency model (module notes)."""

    max_fraction: float
    """Efficiency of very wide GEMMs on long micro-batches [-]."""
    width_half: float
    """``h / tp`` at which the per-GPU width term is one half [count]."""
    elementwise_bytes: float
    """``k``: element-wise HBM traffic per token and layer over ``72 h`` [B], recomputation included."""
    tokens_half: float
    """Tokens per micro-batch per GPU at which the token term is one half [count]."""
    score_bytes_forward: float = 0.0
    """HBM bytes per attention-score element in the forward, when the scores are materialised [B]."""
    score_bytes_backward: float = 0.0
    """HBM bytes per attention-score element in the backward [B]."""
    score_dropout_bytes: float = 0.0
    """HBM bytes per score element of the attention dropout, per pass [B]."""
    fp8_cast_bytes: float = 0.0
    """HBM bytes per element cast to FP8 (with its transposed copy) before a matrix multiply [B]."""
    optimizer_bytes_per_param: float = 0.0
    """HBM bytes the optimizer step moves per parameter whose state the GPU holds [B] (not an
    efficiency: the step model's one memory-bound term outside the layers)."""
    fp8_attention_speedup_forward: float = 1.0
    """Speed of the fused attention kernel's forward with FP8 inputs over BF16 inputs on the GPU [-]
    (:func:`attention_core_slowdown`; 1 where the catalog has no published figure)."""
    fp8_attention_speedup_backward: float = 1.0
    """The same for the backward kernel [-]."""

    def matmul(self, *, width: float, tokens: float) -> float:
        """Share of dense peak the matrix multiplies reach [-]: ``eta_mm`` (module notes).

        >>> c = EfficiencyCoefficients(0.8, 256, 10, 512)
        >>> c.matmul(width=256, tokens=512)  # 0.8 x 1/2 x 1/2
        0.2
        """
        return self.max_fraction * width / (width + self.width_half) * tokens / (tokens + self.tokens_half)

    def __call__(self, *, width: float, tokens: float, flops_per_byte: float, bytes_per_flop: float) -> float:
        """Share of dense peak a layer reaches [-]: ``1 / (1 / eta_mm + (F / B) Q / W)``.

        >>> c = EfficiencyCoefficients(0.8, 256, 10, 512)
        >>> round(c(width=256, tokens=512, flops_per_byte=100, bytes_per_flop=0.03), 6)  # 1/(5 + 3)
        0.125
        """
        return 1.0 / (1.0 / self.matmul(width=width, tokens=tokens) + flops_per_byte * bytes_per_flop)

    def score_bytes(self, *, dropout: bool, recomputed: bool) -> float:
        """HBM bytes per materialised score element over one training step of a layer [B].

        >>> EfficiencyCoefficients(0.8, 256, 4, 512, 8.0, 14.0, 5.0).score_bytes(dropout=True, recomputed=True)
        45.0
        """
        forward = self.score_bytes_forward + (self.score_dropout_bytes if dropout else 0.0)
        backward = self.score_bytes_backward + (self.score_dropout_bytes if dropout else 0.0)
        return forward * (2 if recomputed else 1) + backward

    def elementwise_bytes_per_width(self, *, full_recompute: bool) -> float:
        """Element-wise HBM bytes per token and layer over ``h`` [B]: ``72 k`` or three quarters of it."""
        share = 1.0 if full_recompute else 1.0 - FORWARD_SHARE_OF_ELEMENTWISE
        return 72.0 * self.elementwise_bytes * share


def attention_core_slowdown(
    *, precision: str, fp8_attention: bool, forward_passes: int, coefficients: EfficiencyCoefficients
) -> float:
    """Time of the attention cores' FLOPs over their time at the layers' rate [-].

    The layers' rate is ``F eta`` with ``F`` the dense peak at the job's precision. The attention
    core (``QK^T`` and ``PV``) of an FP8 job runs at the BF16 peak unless the job runs it in FP8
    (``fp8_attention``); then each pass runs at the BF16 rate times the catalog's published speed of
    the FP8 attention kernel over the BF16 one, ``r_f`` forward and ``r_b`` backward::

        bf16                      1
        fp8                       S
        fp8 with fp8_attention    S (n_f / r_f + 2 / r_b) / (n_f + 2)

    with ``S = FP8_SPEEDUP`` (the FP8 peak over the BF16 peak) and ``n_f`` the forward passes of
    the core per training step (1, or 2 when recomputation repeats it), the backward counting
    twice the forward's FLOPs.

    Parameters
    ----------
    precision : str
        ``bf16`` or ``fp8``: the math precision of the matrix multiplies.
    fp8_attention : bool
        The attention core runs in FP8 too (Transformer Engine's ``fp8_dot_product_attention``).
    forward_passes : int
        Forward passes of the attention core per training step, ``n_f`` [count].
    coefficients : EfficiencyCoefficients
        Its ``fp8_attention_speedup_forward`` ``r_f`` and ``fp8_attention_speedup_backward`` ``r_b`` [-].

    Returns
    -------
    float
        Factor on the attention cores' FLOPs over ``F eta`` [-].

    Notes
    -----
    Transformer Engine runs the backward in FP8 too (``NVTE_FP8_DPA_BWD``, default 1), with the
    attention's own recipe following the linear layers' (MXFP8 for MXFP8, per-tensor otherwise;
    ``transformer_engine/pytorch/attention/dot_product_attention``). The published kernel speeds are
    cuDNN's (NVIDIA cudnn-frontend ``benchmark/sdpa_benchmark_training`` results; data/training.yaml).

    Examples
    --------
    >>> c = EfficiencyCoefficients(0.8, 256, 4, 512, fp8_attention_speedup_forward=1.25,
    ...                            fp8_attention_speedup_backward=0.8)
    >>> attention_core_slowdown(precision="fp8", fp8_attention=False, forward_passes=1, coefficients=c)
    2.0
    >>> round(attention_core_slowdown(precision="fp8", fp8_attention=True, forward_passes=1, coefficients=c), 9)
    2.2
    >>> twice = EfficiencyCoefficients(0.8, 256, 4, 512, fp8_attention_speedup_forward=2.0,
    ...                                fp8_attention_speedup_backward=2.0)
    >>> attention_core_slowdown(precision="fp8", fp8_attention=True, forward_passes=2, coefficients=twice)
    1.0
    """
    if precision != "fp8":
        return 1.0
    if not fp8_attention:
        return FP8_SPEEDUP
    forward, backward = (
        coefficients.fp8_attention_speedup_forward,
        coefficients.fp8_attention_speedup_backward,
    )
    per_forward = (forward_passes / forward + 2.0 / backward) / (forward_passes + 2.0)
    return FP8_SPEEDUP * per_forward


def release_suffix(release: str) -> str:
    """The rule-id suffix of a framework release: ``nemo-24.07`` -> ``nemo_24_07``.

    Parameters
    ----------
    release : str
        Framework release name, e.g. ``nemo-24.07`` (dimensionless).

    Returns
    -------
    str
        The name lower-cased, each run of characters other than ``a-z`` and ``0-9`` replaced by
        one ``_`` (dimensionless).

    Examples
    --------
    >>> release_suffix("nemo-24.07")
    'nemo_24_07'
    """
    return re.sub(r"[^a-z0-9]+", "_", release.lower())


MXFP8 = "mxfp8"
"""Rule-id precision key of FP8 matrix multiplies with MXFP8 block scaling (:func:`efficiency_precision`)."""


def efficiency_precision(*, precision: str, fp8_recipe: str = "tensor") -> str:
    """The precision key of a job's kernel-efficiency rules: ``mxfp8`` for FP8 with block scaling.

    Parameters
    ----------
    precision : str
        ``bf16`` or ``fp8``: the math precision of the matrix multiplies.
    fp8_recipe : str
        ``tensor`` (one scale per tensor: Transformer Engine's delayed or current scaling) or
        ``mxfp8`` (one E8M0 scale per 32 elements, Blackwell's block-scaled matrix units).

    Returns
    -------
    str
        ``precision``, or ``mxfp8`` for an FP8 job with the MXFP8 recipe.

    Notes
    -----
    The same dense Llama 3 8B run on one DGX node runs 3.6 to 5.5 % fewer tokens/s with MXFP8
    than with per-tensor current scaling (Megatron-Bridge 25.11 performance summary: 29,521 against
    30,624 on B200, 29,789 against 31,508 on GB200, 36,108 against 37,556 on GB300), so each GPU
    has its own MXFP8 ceiling ``training_efficiency_max_fraction_<gpu_id>_mxfp8``, calibrated on
    those MXFP8 figures; a GPU without one keeps its per-tensor value.

    >>> efficiency_precision(precision="fp8", fp8_recipe="mxfp8")
    'mxfp8'
    >>> efficiency_precision(precision="bf16", fp8_recipe="mxfp8")
    'bf16'
    """
    return MXFP8 if precision == "fp8" and fp8_recipe == MXFP8 else precision


def efficiency_coefficients(
    catalog: Catalog, *, gpu_id: str = "", precision: str = "", release: str = LATEST_RELEASE
) -> EfficiencyCoefficients:
    """The coefficients in the catalog; :class:`CatalogError` names a missing one.

    A rule ``<id>_<gpu_id>_<precision>`` (e.g. ``training_efficiency_max_fraction_h100_sxm_fp8``),
    else ``<id>_<gpu_id>``, else ``<id>_<precision>``, where the catalog has one, replaces the
    general ``<id>`` for that GPU: the matrix units of each GPU generation, and each precision,
    reach their own share of peak (``precision`` may be ``mxfp8``: :func:`efficiency_precision`).
    A framework release other than the latest reads ``<id>_<gpu_id>_<release>`` first (each release
    calibrated on one row of its own benchmark table); :class:`InputError` names ``software_release``
    when the GPU has no calibration for it.

    Parameters
    ----------
    catalog : Catalog
        The component catalog; its ``sizing_rules`` hold the coefficients (:data:`RULES`).
    gpu_id : str
        Catalog id of the GPU whose own rules replace the general ones; ``""``: the general
        rules only.
    precision : str
        Matrix-multiply precision key (``bf16``, ``fp8`` or ``mxfp8``: :func:`efficiency_precision`)
        whose rules are looked up first.
    release : str
        Framework release (``latest`` or e.g. ``nemo-24.07``); another than :data:`LATEST_RELEASE`
        requires the GPU's calibration for it.

    Returns
    -------
    EfficiencyCoefficients
        Peak matrix-multiply share [fraction], half-width [count], element-wise bytes [B],
        half-tokens [count], score, cast and optimizer bytes [B], most specific rule first.
    """
    values = rule_values(catalog, RULES, needed_by=msg("the training model"))
    if release != LATEST_RELEASE:
        own = f"{RULES[0]}_{gpu_id}_{release_suffix(release)}"
        if own not in catalog.sizing_rules:
            raise InputError(
                msg(
                    "software_release: {release} has no calibration for {gpu} (allowed: latest)",
                    release=release,
                    gpu=gpu_id or "-",
                )
            )
    for rule_id in RULES:
        suffixes = (f"_{gpu_id}_{precision}", f"_{gpu_id}") if gpu_id else ()
        if precision:  # a precision's own counted value, e.g. MXFP8's cast bytes with their scales
            suffixes = (*suffixes, f"_{precision}")
        if release != LATEST_RELEASE:
            suffixes = (f"_{gpu_id}_{release_suffix(release)}", *suffixes)
        for suffix in suffixes:
            specific = catalog.sizing_rules.get(f"{rule_id}{suffix}")
            if specific is not None:
                values[rule_id] = specific.value
                break
    return EfficiencyCoefficients(*(values[r] for r in RULES))


BEST_PUBLISHED_MFU = "training_best_published_mfu"
"""Catalog rule prefix of the best published end-to-end MFU per accelerator and precision:
``training_best_published_mfu_<gpu_id>_<precision>`` (the plausibility guard)."""


@dataclass(frozen=True)
class PublishedCeiling:
    """The best published end-to-end model-FLOPs utilisation of one accelerator and precision."""

    mfu: float
    """[-]"""
    figure: str
    """What the figure is (the rule's name: run, model, source)."""
    assumption: bool
    """True when no published figure was found and the value is a stated assumption."""


def _ceiling_rule(catalog: Catalog, *, prefix: str, gpu_id: str, precision: str) -> PublishedCeiling | None:
    """The catalog rule ``<prefix>_<gpu_id>_<precision>`` as a :class:`PublishedCeiling`
    (its value [fraction of dense peak], name and assumption flag), or ``None`` where it has none."""
    rule = catalog.sizing_rules.get(f"{prefix}_{gpu_id}_{precision}")
    if rule is None:
        return None
    return PublishedCeiling(mfu=rule.value, figure=rule.name, assumption=rule.assumption)


def published_ceiling(catalog: Catalog, *, gpu_id: str, precision: str) -> PublishedCeiling | None:
    """The best published MFU for ``gpu_id`` at ``precision``, or ``None`` when the catalog has none.

    Parameters
    ----------
    catalog : Catalog
        The component catalog (its sizing rules, :data:`BEST_PUBLISHED_MFU` prefix).
    gpu_id : str
        Catalog id of the GPU.
    precision : str
        ``bf16`` or ``fp8``.

    Returns
    -------
    PublishedCeiling or None
        The figure [fraction of dense peak] in ``mfu``, the run it comes from in ``figure`` and
        whether it is an assumption; ``None`` when the catalog has no such rule.

    Notes
    -----
    An estimate whose end-to-end MFU exceeds this figure is more optimistic than any run the
    catalog knows of on that accelerator and precision; the estimate says so in a note (it is not
    capped: a new kernel can beat an old record, but the architect should know).
    """
    return _ceiling_rule(catalog, prefix=BEST_PUBLISHED_MFU, gpu_id=gpu_id, precision=precision)


KERNEL_EFFICIENCY_BOUND = "training_kernel_efficiency_bound"
"""Catalog rule prefix of the bound on the layers' kernel efficiency:
``training_kernel_efficiency_bound_<gpu_id>_<precision>`` (:func:`kernel_efficiency_bound`)."""


def kernel_efficiency_bound(catalog: Catalog, *, gpu_id: str, precision: str) -> PublishedCeiling | None:
    """The bound on the kernel efficiency for ``gpu_id`` at ``precision``, or ``None``.

    Parameters
    ----------
    catalog : Catalog
        The component catalog (its sizing rules).
    gpu_id : str
        Catalog id of the GPU.
    precision : str
        ``bf16`` or ``fp8``.

    Returns
    -------
    PublishedCeiling or None
        The bound ``B`` [fraction of dense peak] in ``mfu`` and the run it reproduces in
        ``figure``; ``None`` where the catalog states none.

    Notes
    -----
    The kernel-efficiency curve is fitted on layouts with tensor-parallel sizes 4 and 8 (H100: one
    FP8 row at TP 4, its value used for BF16 too); where a layout has little tensor-parallel
    communication to pay for it, it extrapolates above every published run (the Megatron-LM
    README's H100 BF16 rows at TP 1 and 2 are estimated 32 % and 17 % fast, and the layout search
    goes there: a 70B model on 1,024 H100 at TP 2, 57.8 % MFU against a best published 49.4 %). No
    single term of the model was found to explain it, so where the catalog states a bound ``B``
    the layers' kernels never run faster than ``B`` of peak::

        compute = compute_curve x max(1, eta / B)

    (``eta`` the curve's kernel efficiency of the layout); communication, bubble and overlap
    windows are counted on the slowed compute, so what a fabric adds still shows. ``B`` is set
    (``bench/fit_training_efficiency.py``) on the GPU's best published run, a calibration case:
    fitted so the run is met end to end where the curve overshoots it (H100 BF16), else that run's
    own kernel efficiency under the fitted curve (H100 and B200 FP8); no validation case checks its
    own source. Where no run exists the catalog states ``B`` as an assumption, the best published
    MFU (:func:`published_ceiling`) times the H100 BF16 bound's margin over its run,
    ``0.566 / 0.494 = 1.146`` (``tests/test_plausibility.py`` sweeps the defaults against the
    figures). A job with a fixed ``mfu`` is not bounded.
    """
    return _ceiling_rule(catalog, prefix=KERNEL_EFFICIENCY_BOUND, gpu_id=gpu_id, precision=precision)
