"""The FP8 recipe input: per-tensor scaling (FP8-CS) or MXFP8 block scaling, each with its own ceiling.

Calibration is not validation: each Blackwell GPU's MXFP8 ceiling is fitted to the FP8-MX figure of
its Llama 3 8B row (Megatron-Bridge 25.11 performance summary), and the 405B B200 FP8-MX figure of
the same table checks it.
"""

from __future__ import annotations

import dataclasses

import pytest

from planner import Catalog, Scenario, load_catalog, plan
from planner.cli import run
from planner.inputs.training import training_job
from planner.performance.training.efficiency import efficiency_coefficients, efficiency_precision
from planner.performance.workload import estimate_workload
from planner.validation import load_cases

LLAMA3_8B = {
    "params_b": 8, "layers": 32, "hidden_size": 4096, "heads": 32, "kv_heads": 8, "ffn_hidden": 14336,
    "gated_mlp": True, "vocab": 128256, "seq_len": 8192, "global_batch_seqs": 128, "micro_batch_seqs": 2,
    "tokens_b": 100, "precision": "fp8", "tp": 1, "pp": 1, "cp": 1, "dp": 8, "attention_kernel": "flash",
}  # fmt: skip


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def test_the_recipe_key_is_mxfp8_only_for_fp8_jobs_with_block_scaling() -> None:
    assert efficiency_precision(precision="fp8", fp8_recipe="mxfp8") == "mxfp8"
    assert efficiency_precision(precision="fp8", fp8_recipe="tensor") == "fp8"
    assert efficiency_precision(precision="bf16", fp8_recipe="mxfp8") == "bf16"  # no FP8 matrix multiplies
    assert training_job(LLAMA3_8B).fp8_recipe == "tensor"  # the default keeps every earlier estimate


@pytest.mark.parametrize("gpu_id", ["b200_hgx", "gb200", "gb300"])
def test_each_blackwell_gpu_has_a_lower_mxfp8_ceiling_and_mxfp8_casts_carry_their_scales(
    catalog: Catalog, gpu_id: str
) -> None:
    tensor = efficiency_coefficients(catalog, gpu_id=gpu_id, precision="fp8")
    mx = efficiency_coefficients(catalog, gpu_id=gpu_id, precision="mxfp8")
    # the same Llama 3 8B row is 3.6-5.5 % slower with FP8-MX than with FP8-CS on every Blackwell system
    assert mx.max_fraction < tensor.max_fraction
    # 2 (read BF16) + 1 + 1 (row- and column-wise FP8) + 2 / 32 (one E8M0 scale per 32 elements, twice)
    assert mx.fp8_cast_bytes == 2 + 1 + 1 + 2 / 32 == 4.0625
    assert tensor.fp8_cast_bytes == 4.0
    # the FP8 attention kernel has its own published speed per recipe (docs/model.md, FP8 attention)
    assert mx.fp8_attention_speedup_backward < tensor.fp8_attention_speedup_backward
    # nothing else moves: the curve's shape and the other counted bytes are the recipe's too
    attention = {
        "fp8_attention_speedup_forward": tensor.fp8_attention_speedup_forward,
        "fp8_attention_speedup_backward": tensor.fp8_attention_speedup_backward,
    }
    assert (
        dataclasses.replace(mx, max_fraction=tensor.max_fraction, fp8_cast_bytes=4.0, **attention) == tensor
    )


def test_a_gpu_without_an_mxfp8_ceiling_keeps_its_per_tensor_one(catalog: Catalog) -> None:
    tensor = efficiency_coefficients(catalog, gpu_id="h100_sxm", precision="fp8")
    mx = efficiency_coefficients(catalog, gpu_id="h100_sxm", precision="mxfp8")
    assert mx.max_fraction == tensor.max_fraction


def test_the_recipe_reaches_the_estimate(catalog: Catalog) -> None:
    p = plan(scenario=Scenario(gpus=72, design_id="gb300-nvl72-ib-xdr", gpu_id="gb300"), catalog=catalog)
    fields = {**LLAMA3_8B, "job_gpus": 8}
    cs = estimate_workload(job=training_job(fields), plan=p, catalog=catalog)
    mx = estimate_workload(job=training_job({**fields, "fp8_recipe": "mxfp8"}), plan=p, catalog=catalog)
    # the table's row: 37,556 tokens/s per GPU with FP8-CS, 36,108 with FP8-MX (ratio 0.961); each
    # figure is the calibration of its own ceiling, so the estimates keep that ratio within 1 %
    assert mx.tokens_per_s / cs.tokens_per_s == pytest.approx(36108 / 37556, rel=0.01)


def test_each_mxfp8_ceiling_is_calibrated_on_one_row_and_the_fp8_cases_state_their_recipe() -> None:
    cases = {c.id: c for c in load_cases()}
    calibration = {i for i, c in cases.items() if c.role == "calibration" and c.inputs.fp8_recipe == "mxfp8"
                   and (c.inputs.experts or 1) == 1}  # fmt: skip
    assert calibration == {f"megatron-bridge-llama3-8b-{s}-mxfp8" for s in ("b200", "gb200", "gb300")}
    assert cases["megatron-bridge-llama31-405b-b200-mxfp8"].role == "validation"
    # the Megatron-Bridge rows whose table names FP8-MX or MXFP8 say so; the H100 rows are FP8-CS
    for case_id in (
        "megatron-bridge-2511-deepseek-v3-gb300-fp8",
        "megatron-bridge-2511-qwen3-235b-a22b-b200-fp8",
    ):
        assert cases[case_id].inputs.fp8_recipe == "mxfp8"
    assert cases["megatron-bridge-qwen3-235b-a22b-h100-fp8"].inputs.fp8_recipe is None


def test_a_bad_recipe_names_the_field(capsys: pytest.CaptureFixture[str]) -> None:
    code = run(["workload", "--design", "ib-ndr", "--gpus", "8", "--params-b", "8", "--tokens-b", "1",
                "--precision", "fp8", "--fp8-recipe", "nvfp4"])  # fmt: skip
    assert code == 2
    err = capsys.readouterr().err
    assert "fp8" in err and "Traceback" not in err
