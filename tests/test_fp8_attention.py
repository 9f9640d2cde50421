"""FP8 attention (``fp8_attention``): the attention core of an FP8 job at the published FP8 / BF16
attention-kernel speed (docs/model.md, "FP8 attention (`fp8_attention`)").

Goldens carry their derivation from the catalog's ratios (data/training.yaml, cuDNN's published
kernel times, NVIDIA cudnn-frontend benchmark/sdpa_benchmark_training, 2026-07-24): GB200 MXFP8
r_f = 0.391 / 0.321 = 1.218, r_b = 1.173 / 1.333 = 0.880; GB300 MXFP8 r_f = 0.303 / 0.238 = 1.273,
r_b = 1.096 / 1.203 = 0.911.
"""

from __future__ import annotations

import json

import pytest

from planner import load_catalog
from planner.cli import run
from planner.errors import InputError
from planner.inputs.training import TrainingJob, training_job
from planner.performance.collectives import two_level_fabric
from planner.performance.training.efficiency import (
    FP8_SPEEDUP,
    attention_core_slowdown,
    efficiency_coefficients,
)
from planner.performance.training.memory import Parallel
from planner.performance.training.schedule import StepModel
from planner.performance.training.shape import model_shape
from planner.validation.cases import load_cases

CATALOG = load_catalog()
GB200_MXFP8 = efficiency_coefficients(CATALOG, gpu_id="gb200", precision="mxfp8")
SHAPE = model_shape(params_b=22, layers=48, hidden_size=6144, heads=64)
LAY = Parallel(tp=8, cp=1, pp=1, dp=1, ep=1, v=1, micro_batch_seqs=1, micro_batches=1)


def test_the_catalog_gives_each_gpu_and_recipe_its_published_ratio() -> None:
    def ratios(gpu_id: str, precision: str) -> tuple[float, float]:
        c = efficiency_coefficients(CATALOG, gpu_id=gpu_id, precision=precision)
        return c.fp8_attention_speedup_forward, c.fp8_attention_speedup_backward

    assert ratios("gb200", "mxfp8") == (1.218, 0.880)
    assert ratios("gb200", "fp8") == (1.265, 1.005)  # 0.391 / 0.309, 1.173 / 1.167
    assert ratios("gb300", "mxfp8") == (1.273, 0.911)
    assert ratios("b300_hgx", "mxfp8") == ratios("gb300", "mxfp8")  # the same GPU, assumed
    # FlashAttention-3 forward, 1.2 PFLOP/s / 740 TFLOP/s; no Hopper FP8 backward figure: 1.0
    assert ratios("h100_sxm", "fp8") == (1.62, 1.0)
    # no published figure: the BF16 rate, an assumption
    assert ratios("mi300x", "fp8") == (1.0, 1.0)
    assert CATALOG.sizing_rules["training_fp8_attention_speedup_forward"].assumption


@pytest.mark.parametrize(
    ("gpu_id", "passes", "expected"),
    [
        # 2 x (1 / 1.218 + 2 / 0.880) / 3 = 2 x (0.821018 + 2.272727) / 3 = 2.062497: the MXFP8
        # backward is slower than BF16 at 4,096 tokens, so the core is slower than without it
        ("gb200", 1, 2.0624968900830970),
        # a recomputed forward: 2 x (2 / 1.218 + 2 / 0.880) / 4 = 1.957382
        ("gb200", 2, 1.9573816987610092),
        # 2 x (1 / 1.273 + 2 / 0.911) / 3 = 2 x (0.785546 + 2.195390) / 3 = 1.987290
        ("gb300", 1, 1.9872904240712206),
    ],
)
def test_the_core_runs_at_the_bf16_rate_times_the_published_ratio(
    gpu_id: str, passes: int, expected: float
) -> None:
    c = efficiency_coefficients(CATALOG, gpu_id=gpu_id, precision="mxfp8")
    slowdown = attention_core_slowdown(
        precision="fp8", fp8_attention=True, forward_passes=passes, coefficients=c
    )
    assert slowdown == pytest.approx(expected, rel=1e-12)
    # without it the core stays at the BF16 peak: FP8_SPEEDUP (2) over the FP8 rate; BF16 jobs: 1
    assert (
        attention_core_slowdown(precision="fp8", fp8_attention=False, forward_passes=passes, coefficients=c)
        == FP8_SPEEDUP
    )
    assert (
        attention_core_slowdown(precision="bf16", fp8_attention=False, forward_passes=passes, coefficients=c)
        == 1.0
    )


def _job(**update: object) -> TrainingJob:
    data = {"params_b": 22, "tokens_b": 1, "layers": 48, "hidden_size": 6144, "heads": 64, "seq_len": 2048,
            "global_batch_seqs": 1, "tp": 8, "pp": 1, "dp": 1, "precision": "fp8",
            "fp8_recipe": "mxfp8"}  # fmt: skip
    return training_job({**data, **update})


def _model(job: TrainingJob) -> StepModel:
    fabric = two_level_fabric(gpus=8, domain_gpus=8, scale_up_gbyte_per_s=900, network_gbyte_per_s=100)
    return StepModel(
        job=job, shape=SHAPE, fabric=fabric, peak_flops=5e15, efficiency=0.5, coefficients=GB200_MXFP8,
        hbm_byte_per_s=8e12,
    )  # fmt: skip


def test_only_the_attention_core_moves_in_the_step() -> None:
    off_s, off_core_s = _model(_job()).compute_micro_s(LAY, "none")
    on_s, on_core_s = _model(_job(fp8_attention=True)).compute_micro_s(LAY, "none")
    # core FLOPs: 48 layers x 3 passes x 4 s h = 4 x 2048 x 6144 per token x 2048 / 8 tokens
    # = 1,855,425,871,872 FLOP; without fp8_attention at the BF16 rate: x 2 / (5e15 x 0.5) = 1.484 ms
    core_flops = 48 * 3 * 4 * 2048 * 6144 * 2048 / 8
    assert core_flops == 1_855_425_871_872
    assert off_core_s == pytest.approx(core_flops * 2 / 2.5e15)
    assert on_core_s == pytest.approx(core_flops * 2.0624968900830970 / 2.5e15)  # GB200 MXFP8, above
    # the projections, FFN and logits are untouched
    assert on_s - on_core_s == pytest.approx(off_s - off_core_s)


def test_it_needs_fp8() -> None:
    with pytest.raises(InputError, match="fp8_attention"):
        _job(precision="bf16", fp8_recipe="tensor", fp8_attention=True)


def test_the_option_is_generated_and_changes_the_estimate(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["workload", "--help"]) == 0
    assert "--fp8-attention" in capsys.readouterr().out
    args = ["workload", "--gpus", "72", "--gpu", "gb200", "--design", "gb200-nvl72-ib-ndr", "--params-b", "70",
            "--tokens-b", "1", "--layers", "80", "--hidden", "8192", "--heads", "64", "--kv-heads", "8",
            "--tp", "8", "--pp", "1", "--dp", "9", "--global-batch", "72", "--format", "json"]  # fmt: skip
    assert run([*args, "--fp8-attention"]) == 2  # BF16 by default: refused in one line
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "fp8_attention" in err[0]
    fp8 = [*args, "--precision", "fp8", "--fp8-recipe", "mxfp8"]
    assert run(fp8) == 0
    off = json.loads(capsys.readouterr().out)
    assert run([*fp8, "--fp8-attention"]) == 0
    on = json.loads(capsys.readouterr().out)
    # GB200's MXFP8 backward (0.880) outweighs its forward (1.218): the step is longer
    assert on["step_breakdown_s"]["compute_s"] > off["step_breakdown_s"]["compute_s"]
    assert set(on) == set(off)  # an addition: no key lost or renamed


def test_every_case_that_states_it_names_its_preset_setting() -> None:
    """The rule the cases follow: a case states fp8_attention exactly when its release preset sets
    fp8_dot_product_attention=True, and its notes say so."""
    stated = [c for c in load_cases() if c.inputs.fp8_attention]
    assert len(stated) == 23  # 9 of 26.06, 7 of 26.06.01, 7 of 26.08 (docs/model.md)
    for case in stated:
        assert case.inputs.precision == "fp8", case.id
        assert "fp8_dot_product_attention=True" in " ".join((case.notes or "").split()), case.id
