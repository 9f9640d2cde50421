"""Compute efficiency of the training kernels against the per-GPU matrix sizes.

Notes
-----
``eta = eta_max x w / (w + w_half) x n / (n + n_half) x h / (h + k F / B)`` with ``w = h / tp`` the
per-GPU GEMM width (tile occupancy), ``n = s b / cp`` the tokens of one micro-batch on one GPU
(the GEMMs' other dimension) and ``h`` the model width: element-wise work (norms, softmax,
activations, residuals, dropout) moves ``~ k s h`` bytes through HBM against ``~ s h^2`` matrix
FLOPs, so its time relative to the GEMMs is ``k (F / B) / h`` with ``F / B`` the GPU's peak FLOP/s
over its HBM bandwidth (312 TFLOP/s / 2.0 TB/s = 153 FLOP/B on A100, 989 / 3.35 = 295 on H100). A
saturating form in each, so wider models reach a larger share of peak (Megatron-LM SC21 Table 1 rises from 137 to 163 TFLOP/s per
A100 from 1.7B to 1T parameters, arXiv 2104.04473). The coefficients are catalog records
(``data/training.yaml``), fitted only to validation cases whose role is ``calibration``.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.catalog import Catalog
from planner.catalog.rules import rule_values
from planner.i18n.message import msg

RULES = (
    "training_efficiency_max_fraction",
    "training_efficiency_width_half",
    "training_efficiency_elementwise_bytes",
    "training_efficiency_tokens_half",
)
"""Catalog sizing rules holding the coefficients, in the order of :class:`EfficiencyCoefficients`."""


@dataclass(frozen=True)
class EfficiencyCoefficients:
    """Coefficients of the saturating efficiency curve."""

    max_fraction: float
    """Efficiency of very wide GEMMs on long micro-batches [-]."""
    width_half: float
    """``h / tp`` at which the per-GPU width term is one half [count]."""
    elementwise_bytes: float
    """``k``: element-wise HBM traffic per token and layer over the width ``h`` [B]."""
    tokens_half: float
    """Tokens per micro-batch per GPU at which the token term is one half [count]."""

    def __call__(self, *, width: float, model_width: float, tokens: float, flops_per_byte: float) -> float:
        """Share of dense peak the kernels reach [-] (module notes).

        >>> c = EfficiencyCoefficients(0.8, 256, 10, 512)
        >>> c(width=256, model_width=1000, tokens=512, flops_per_byte=100)  # 0.8 x 1/2 x 1/2 x 1/2
        0.1
        """
        return (
            self.max_fraction
            * width / (width + self.width_half)
            * tokens / (tokens + self.tokens_half)
            * model_width / (model_width + self.elementwise_bytes * flops_per_byte)
        )  # fmt: skip


def efficiency_coefficients(catalog: Catalog) -> EfficiencyCoefficients:
    """The coefficients in the catalog; :class:`CatalogError` names a missing one."""
    values = rule_values(catalog, RULES, needed_by=msg("the training model"))
    return EfficiencyCoefficients(*(values[r] for r in RULES))
