"""Speculative decoding with the multi-token prediction module as the draft (serving decode step).

The equations are in planner/performance/serving/step.py's module notes and docs/model.md
("Multi-token prediction in serving decode").
"""

from __future__ import annotations

import json
from functools import cache

import pytest

from planner.catalog import Catalog
from planner.cli import run
from planner.engine import Plan, plan
from planner.errors import InputError
from planner.inputs.scenario import scenario_from_data
from planner.inputs.serving import ServingRequest, serving_request
from planner.performance.serving.estimate import _context, phase_rate
from planner.performance.serving.step import InstanceLayout, emitted_tokens

# Llama 3 8B's shape (arXiv 2407.21783 Table 3) with its 128,256-token vocabulary: a dense model,
# so a step's FLOPs are linear in its tokens and its weight reads do not depend on them
LLAMA8 = {
    "params_b": 8.0, "layers": 32, "hidden_size": 4096, "heads": 32, "kv_heads": 8, "gated_mlp": True,
    "vocab": 128256, "input_tokens": 512, "output_tokens": 256,
}  # fmt: skip


@cache
def _plan() -> Plan:
    from planner.catalog import load_catalog

    scenario = scenario_from_data({"gpus": 8, "design_id": "ib-ndr", "gpu_id": "h100_sxm"})
    return plan(scenario=scenario, catalog=load_catalog())


def _instance(catalog: Catalog, **mtp: float):  # type: ignore[no-untyped-def]
    request = ServingRequest(**LLAMA8, **mtp)
    return _context(request, _plan(), catalog, None).instance(InstanceLayout(tp=1))


@pytest.mark.parametrize(
    ("draft", "acceptance", "expected"),
    [
        (0, 0.9, 1.0),  # no drafts: one token per step, as without the input
        (1, 0.85, 1.85),  # DeepSeek-V3's one module at its reported 85 % second-token acceptance
        (3, 0.5, 1.875),  # 1 + 0.5 + 0.25 + 0.125
        (4, 1.0, 5.0),  # every draft accepted: 1 + d
    ],
)
def test_expected_emitted_tokens_per_step(draft: int, acceptance: float, expected: float) -> None:
    assert emitted_tokens(draft_tokens=draft, acceptance=acceptance) == pytest.approx(expected)


def test_emitted_tokens_match_the_closed_form() -> None:
    # Leviathan et al. 2023, equation 1: (1 - a^(d+1)) / (1 - a)
    for d in range(6):
        for a in (0.3, 0.6, 0.85):
            assert emitted_tokens(draft_tokens=d, acceptance=a) == pytest.approx((1 - a ** (d + 1)) / (1 - a))


def test_no_draft_tokens_leaves_the_decode_step_as_it_was(catalog: Catalog) -> None:
    before = _instance(catalog).decode_step(batch=4, context=640)
    after = _instance(catalog, mtp_draft_tokens=0, mtp_acceptance=0.7).decode_step(batch=4, context=640)
    assert after == before and after.emitted_tokens == 1.0


def test_one_draft_token_verifies_two_tokens_and_runs_the_module_once(catalog: Catalog) -> None:
    # Derivation (step.py notes), dense model, tp 1, batch B = 4 at context 640, d = 1, a = 0.5:
    #   verify  = the step of 2B tokens: FLOPs x 2 (GEMM rows and attention queries), the weights and
    #             the KV cache of the B sequences read once (memory unchanged), overhead unchanged
    #   draft   = one layer's share (1 / 32) of the B-token step + the output head: 2 h V B FLOPs and
    #             h V x 2 B of BF16 weights (h V = 4096 x 128256 = 525.3 M parameters)
    base_inst = _instance(catalog)
    base = base_inst.decode_step(batch=4, context=640)
    step = _instance(catalog, mtp_draft_tokens=1, mtp_acceptance=0.5).decode_step(batch=4, context=640)
    gpu, c = base_inst.gpu, base_inst.coefficients
    head_params = 4096 * 128256
    head_compute_s = 4 * 2.0 * head_params / (gpu.peak_flops * c.decode_compute_efficiency)
    head_memory_s = head_params * 2.0 / (gpu.hbm_byte_per_s * c.hbm_efficiency)
    assert step.compute_s == pytest.approx(2 * base.compute_s + base.compute_s / 32 + head_compute_s)
    assert step.memory_s == pytest.approx(base.memory_s * (1 + 1 / 32) + head_memory_s)
    assert step.overhead_s == pytest.approx(base.overhead_s * (1 + 1 / 32))
    assert step.emitted_tokens == pytest.approx(1.5)  # 1 + 0.5
    assert step.per_token_s == pytest.approx(step.total_s / 1.5)
    # memory-bound at batch 4: the step grows by a layer's share and the head (+4.7 %, 16.06 GB of
    # weights against 1.05 GB of head), so the time per emitted token falls by about 30 %
    assert step.bound == base.bound == "memory_bandwidth"
    assert step.per_token_s == pytest.approx(base.total_s * (1 + 1 / 32 + 0.065) / 1.5, rel=0.03)


def test_decode_tokens_per_gpu_count_the_accepted_drafts(catalog: Catalog) -> None:
    def rate(**mtp: float):  # type: ignore[no-untyped-def]
        request = serving_request({**LLAMA8, **mtp})
        return phase_rate(
            request=request,
            plan=_plan(),
            catalog=catalog,
            phase="decode",
            sequences_per_gpu=8,
            context_tokens=640,
        )

    base, spec = rate(), rate(mtp_draft_tokens=2, mtp_acceptance=0.8)
    # E = 1 + 0.8 + 0.64 = 2.44 tokens per sequence and step; 8 sequences on the instance's 1 GPU
    assert spec.tokens_per_gpu == pytest.approx(8 * 2.44)
    assert spec.tokens_per_s_per_gpu == pytest.approx(8 * 2.44 / spec.step.total_s)
    assert base.tokens_per_gpu == 8


def test_the_service_estimate_divides_the_step_by_the_emitted_tokens(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["serve", "--gpus", "8", "--design", "ib-ndr", "--gpu", "h100_sxm", "--params-b", "8", "--layers", "32",
            "--hidden", "4096", "--heads", "32", "--kv-heads", "8", "--vocab", "128256", "--gated-mlp",
            "--input-tokens", "512", "--output-tokens", "256", "--batch", "8", "--disaggregate",
            "--format", "json"]  # fmt: skip
    assert run(argv) == 0
    base = json.loads(capsys.readouterr().out)
    assert run([*argv, "--mtp-draft-tokens", "1", "--mtp-acceptance", "0.9"]) == 0
    spec = json.loads(capsys.readouterr().out)
    # TPOT = step / 1.9; the decode step (one extra token per sequence at batch 8, memory-bound, plus
    # a layer's share and the head) is well under 1.9 times as long, so TPOT falls and tokens/s rise
    assert spec["tpot_ms"] == pytest.approx(spec["decode_step_ms"] / 1.9, rel=1e-3)
    assert spec["tpot_ms"] < base["tpot_ms"] and spec["tokens_per_s_per_gpu"] > base["tokens_per_s_per_gpu"]


@pytest.mark.parametrize(
    "data",
    [
        {"mtp_draft_tokens": 1},  # no acceptance stated
        {"mtp_draft_tokens": 1, "mtp_acceptance": 0.0},
        {"mtp_draft_tokens": 1, "mtp_acceptance": 1.2},
        {"mtp_draft_tokens": -1},
    ],
)
def test_bad_speculation_inputs_name_the_field(data: dict[str, float]) -> None:
    with pytest.raises(InputError, match=r"mtp_(acceptance|draft_tokens)"):
        serving_request({**LLAMA8, **data})


def test_draft_tokens_without_acceptance_exit_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = run(["serve", "--gpus", "8", "--params-b", "8", "--mtp-draft-tokens", "1"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and "mtp" in err, err
