"""The serving model's coefficients (catalog ``sizing_rules`` in ``data/serving.yaml``) and the GPU
figures it uses, as numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from planner.catalog import Catalog
from planner.catalog.rules import rule_values
from planner.catalog.schema import device_memory_bytes
from planner.i18n.message import msg
from planner.performance.training.efficiency import FP8_SPEEDUP

RULES = (
    "serving_prefill_compute_efficiency",
    "serving_decode_compute_efficiency",
    "serving_hbm_efficiency",
    "serving_layer_overhead_us",
    "serving_workspace_gbyte",
    "serving_usable_memory_fraction",
    "serving_fp4_compute_speedup",
    "serving_prefill_layer_overhead_us",
    "serving_grouped_gemm_efficiency_256_tokens",
    "serving_grouped_gemm_efficiency_1024_tokens",
    "serving_grouped_gemm_efficiency_8192_tokens",
)
"""Catalog sizing rules holding the coefficients, in the order of :class:`ServingCoefficients`."""


@dataclass(frozen=True)
class ServingCoefficients:
    """Efficiencies, fixed costs and memory reserves of the serving model."""

    prefill_compute_efficiency: float
    """Share of dense peak the prefill kernels reach [-]."""
    decode_compute_efficiency: float
    """Share of dense peak compute-bound decode steps reach [-]."""
    hbm_efficiency: float
    """Achieved / datasheet HBM bandwidth [-]."""
    layer_overhead_us: float
    """Fixed time per layer and step [us]."""
    workspace_gbyte: float
    """HBM per GPU kept out of the KV cache [GB]."""
    usable_memory_fraction: float
    """Share of HBM a serving engine fills [-]."""
    fp4_compute_speedup: float
    """Matrix peak with FP4 weights / BF16 peak [-]."""
    prefill_layer_overhead_us: float
    """Fixed time per layer of a prefill step (a decode step pays ``layer_overhead_us``) [us]."""
    grouped_gemm_efficiency_256: float
    """Share of dense peak an expert grouped GEMM reaches with 256 tokens per expert [-]."""
    grouped_gemm_efficiency_1024: float
    """Share of dense peak the same GEMM reaches with 1,024 tokens per expert [-]."""
    grouped_gemm_efficiency_8192: float
    """Share of dense peak the same GEMM reaches with 8,192 tokens per expert [-]."""

    def grouped_gemm_efficiency(self, *, tokens_per_expert: float) -> float:
        """Share of dense peak the routed experts' grouped GEMM reaches at ``m`` tokens per expert [-].

        Linear in ``log2 m`` between the catalog's points at 256, 1,024 and 8,192 tokens per expert
        (DeepGEMM's H800 table, ``data/serving.yaml``), held at the end points outside them: below
        256 tokens the GEMM is bound by reading the experts' weights, which the roofline's memory
        side counts::

            eta_g(m) = eta_a + (eta_b - eta_a) log2(m / m_a) / log2(m_b / m_a),   m_a <= m <= m_b

        >>> c = ServingCoefficients(0.48, 0.5, 0.8, 10, 4, 0.9, 2, 140, 0.45, 0.56, 0.62)
        >>> round(c.grouped_gemm_efficiency(tokens_per_expert=512), 3)  # halfway from 256 to 1,024
        0.505
        >>> c.grouped_gemm_efficiency(tokens_per_expert=64), c.grouped_gemm_efficiency(tokens_per_expert=1e5)
        (0.45, 0.62)
        """
        points = (
            (256.0, self.grouped_gemm_efficiency_256),
            (1024.0, self.grouped_gemm_efficiency_1024),
            (8192.0, self.grouped_gemm_efficiency_8192),
        )
        m = min(max(tokens_per_expert, points[0][0]), points[-1][0])
        (m_a, eta_a), (m_b, eta_b) = points[:2] if m <= points[1][0] else points[1:]
        return eta_a + (eta_b - eta_a) * math.log2(m / m_a) / math.log2(m_b / m_a)


def serving_coefficients(catalog: Catalog) -> ServingCoefficients:
    """The coefficients in the catalog; :class:`CatalogError` names a missing one.

    Parameters
    ----------
    catalog : Catalog
        Loaded catalog whose ``sizing_rules`` hold the ``serving_*`` rules of :data:`RULES`
        (``data/serving.yaml``).

    Returns
    -------
    ServingCoefficients
        The rules' values in field order: efficiencies and memory shares [fraction], per-layer
        overheads [us], workspace [GB], FP4 speed-up [dimensionless].
    """
    values = rule_values(catalog, RULES, needed_by=msg("the serving model"))
    return ServingCoefficients(*(values[r] for r in RULES))


@dataclass(frozen=True)
class GpuFigures:
    """One GPU as the serving model sees it."""

    gpu_id: str
    peak_flops: float
    """Dense matrix peak at the request's weight format [FLOP/s]."""
    hbm_bytes: float
    """[B]"""
    hbm_byte_per_s: float
    """[B/s]"""


def gpu_figures(
    *, catalog: Catalog, gpu_id: str, precision: str, coefficients: ServingCoefficients
) -> GpuFigures:
    """Peak FLOP/s at ``precision`` (BF16 x 1, FP8 x the training model's FP8 speed-up, FP4 x the
    serving coefficient) and HBM of a catalog GPU.

    Parameters
    ----------
    catalog : Catalog
        Loaded catalog holding the GPU.
    gpu_id : str
        Catalog GPU id [dimensionless]; must be a key of ``catalog.gpus``.
    precision : str
        Weight format the matrix units run at: ``"bf16"``, ``"fp8"`` or ``"fp4"`` [dimensionless].
    coefficients : ServingCoefficients
        Serving coefficients; only ``fp4_compute_speedup`` [dimensionless] is read.

    Returns
    -------
    GpuFigures
        The GPU's dense matrix peak at ``precision`` [FLOP/s] (BF16 dense TFLOPS x 1e12 x the
        speed-up), its device memory [B] and its datasheet HBM bandwidth [B/s].
    """
    gpu = catalog.gpus[gpu_id]
    speedup = {"bf16": 1.0, "fp8": FP8_SPEEDUP, "fp4": coefficients.fp4_compute_speedup}[precision]
    return GpuFigures(
        gpu_id=gpu_id,
        peak_flops=gpu.bf16_dense_tflops * 1e12 * speedup,
        hbm_bytes=device_memory_bytes(gpu),
        hbm_byte_per_s=gpu.hbm_bandwidth_gbyte_per_s * 1e9,
    )
