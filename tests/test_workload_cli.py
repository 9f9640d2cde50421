"""``planner workload`` and ``planner reliability``: JSON keys, tables, exit 2 on bad input."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys

import pytest

from planner.cli import run

WORKLOAD = ["workload", "--params-b", "70", "--tokens-b", "1400", "--gpus", "1024", "--gpu", "h100_sxm"]
RELIABILITY = ["reliability", "--params-b", "70", "--gpus", "1024", "--gpu", "h100_sxm"]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = run(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_workload_json_has_the_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run([*WORKLOAD, "--design", "ib-ndr", "--format", "json"], capsys)
    assert (code, err) == (0, "")
    data = json.loads(out)
    for key in (
        "step_time_s",
        "tokens_per_s",
        "time_to_train_days",
        "cost_to_train_usd",
        "energy_mwh",
        "goodput",
    ):
        assert isinstance(data[key], float) and data[key] > 0, key
    assert data["design"] == "ib-ndr" and data["gpus"] == 1024
    assert set(data["layout"]) >= {"tp", "pp", "dp", "ep"}
    assert sum(data["step_breakdown_s"].values()) == pytest.approx(data["step_time_s"], rel=1e-4)


def test_workload_designs_side_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run([*WORKLOAD, "--designs", "rail4-npo,rail8-npo,ib-ndr", "--format", "json"], capsys)
    assert code == 0
    rows = json.loads(out)
    assert [r["design"] for r in rows] == ["rail4-npo", "rail8-npo", "ib-ndr"]
    assert {r["gpu"] for r in rows} == {"h100_sxm"}
    code, out, _ = _run([*WORKLOAD, "--designs", "rail4-npo,ib-ndr"], capsys)
    assert code == 0
    assert "rail4-npo" in out and "time_to_train_days" in out and "Step breakdown" in out


def test_workload_options_reach_the_model(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [*WORKLOAD, "--design", "rail8-npo", "--format", "json", "--tp", "8", "--pp", "2", "--experts", "8",
            "--top-k", "2", "--ep", "8", "--precision", "fp8", "--restart-min", "30", "--network-failover"]  # fmt: skip
    code, out, _ = _run(argv, capsys)
    assert code == 0
    data = json.loads(out)
    assert (data["layout"]["tp"], data["layout"]["pp"], data["layout"]["ep"]) == (8, 2, 8)
    assert data["model"]["precision"] == "fp8" and data["step_breakdown_s"]["ep_comm_s"] > 0


def test_reliability_json_has_the_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run([*RELIABILITY, "--design", "rail8-npo", "--format", "json"], capsys)
    assert (code, err) == (0, "")
    data = json.loads(out)
    for key in ("interruptions_per_day", "mtbi_hours", "checkpoint_interval_min", "goodput"):
        assert isinstance(data[key], float) and data[key] > 0, key
    assert data["mtbi_hours"] == pytest.approx(24 / data["interruptions_per_day"], rel=1e-3)
    assert {i["element"] for i in data["failure_impacts"]} >= {"node-leaf link", "leaf switch", "plane"}


def test_reliability_table_and_failover(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run([*RELIABILITY, "--designs", "rail4-npo,ib-ndr", "--network-failover"], capsys)
    assert code == 0
    assert "MTBI [h]" in out and "stops the job" in out and "survivable" in out
    code, out, _ = _run([*RELIABILITY, "--checkpoint-gbyte", "500", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["checkpoint_gbyte"] == 500


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["workload", "--params-b", "-5", "--tokens-b", "10"],
            "--params-b (params_b): Input should be greater than 0",
        ),
        (["workload", "--tokens-b", "10"], "--params-b (params_b): Field required"),
        (["workload", "--params-b", "70", "--tokens-b", "1", "--mfu", "2"], "allowed: 0 to 1"),
        (["workload", "--params-b", "abc", "--tokens-b", "1"], "--params-b: 'abc' is not a number"),
        (["workload", "--params-b", "70", "--tokens-b", "1", "--tp", "3"], "tp: 3 does not divide"),
        (["workload", "--params-b", "70", "--tokens-b", "1", "--precision", "fp4"], "precision"),
        (["workload", "--params-b", "400", "--tokens-b", "1", "--gpus", "8"], "memory: no layout fits"),
        (["workload", "--params-b", "7", "--tokens-b", "1", "--design", "nope"], "design_id: unknown"),
        (["reliability", "--gpus", "64"], "--params-b or --checkpoint-gbyte"),
        ([*WORKLOAD, "--recompute-layers", "2"], "recompute_layers needs recompute block"),
        (
            [*WORKLOAD, "--gpu", "b200_hgx", "--software-release", "nemo-24.07"],
            "software_release: nemo-24.07",
        ),
        ([*WORKLOAD, "--software-release", "nemo-99"], "--software-release (software_release)"),
        ([*WORKLOAD, "--recompute", "block", "--experts", "8", "--top-k", "2"], "recompute: block"),
        (["reliability", "--params-b", "7", "--restart-min", "-1"], "--restart-min (restart_min)"),
        (["reliability", "--params-b", "7", "--failure-rate-scale", "0"], "allowed: 0 to 100"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(argv, capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("planner: error: ")
    assert expected in err
    assert "Traceback" not in err


def test_bad_input_in_a_real_process() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "planner", "workload", "--params-b", "0", "--tokens-b", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "--params-b (params_b)" in proc.stderr


def test_attention_kernel_flag_reaches_the_model() -> None:
    """--attention-kernel materialized charges the scores' HBM traffic: a 1.7B model with 24 heads
    of 96 is slower per FLOP than with a flash kernel (training/efficiency.py)."""
    common = ["workload", "--params-b", "1.7", "--layers", "24", "--hidden", "2304", "--heads", "24",
              "--seq-len", "2048", "--tokens-b", "100", "--gpus", "32", "--gpu", "a100_sxm_80gb",
              "--cooling", "air", "--design", "ib-ndr", "--tp", "1", "--pp", "1", "--recompute", "full",
              "--format", "json"]  # fmt: skip
    speeds = {}
    for kernel in ("flash", "materialized"):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert run([*common, "--attention-kernel", kernel]) == 0
        speeds[kernel] = json.loads(out.getvalue())["achieved_tflops_per_gpu"]
    assert speeds["materialized"] < 0.9 * speeds["flash"]


def test_attention_kernel_flag_refuses_other_values(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["workload", "--params-b", "7", "--tokens-b", "100", "--attention-kernel", "sdpa"]) == 2
    assert "--attention-kernel (attention_kernel)" in capsys.readouterr().err


def test_a_512_gpu_job_on_nvl72_keeps_its_gpus_and_batch(capsys: pytest.CaptureFixture[str]) -> None:
    # the plan rounds 512 up to 8 NVL72 racks (576 GPUs); the job stays 512 GPUs, 64 per rack,
    # and runs the 128 sequences x 4096 tokens it asked for
    code, out, err = _run(
        ["workload", "--gpus", "512", "--design", "gb200-nvl72-ib-ndr",
         "--params-b", "70", "--tokens-b", "1000", "--global-batch", "128", "--format", "json"],
        capsys,
    )  # fmt: skip
    assert code == 0, err
    result = json.loads(out)
    result = result[0] if isinstance(result, list) else result
    assert result["gpus"] == 512
    assert result["tokens_per_step"] == 128 * 4096
    assert any("512 of the plan's 576 GPUs" in note for note in result["notes"])


def test_a_job_larger_than_the_plan_exits_2_naming_the_field(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(
        ["workload", "--gpus", "512", "--design", "gb200-nvl72-ib-ndr",
         "--params-b", "70", "--tokens-b", "1000", "--job-gpus", "600"],
        capsys,
    )  # fmt: skip
    assert code == 2
    assert err.count("\n") == 1 and "job_gpus: the job asks for 600 GPUs, the plan has 576" in err


def test_block_recomputation_flags_reach_the_layout(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        [*WORKLOAD, "--pp", "4", "--recompute", "block", "--recompute-layers", "2", "--format", "json"],
        capsys,
    )
    assert code == 0
    result = json.loads(out)
    result = result[0] if isinstance(result, list) else result
    assert (result["layout"]["recompute"], result["layout"]["recompute_layers"]) == ("block", 2)
