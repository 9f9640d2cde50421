"""``planner serve``: the interface's JSON keys, reverse sizing, bad input exits 2 with one line."""

from __future__ import annotations

import json

import pytest

from planner.cli import run

DEEPSEEK = ["--params-b", "671", "--active-params-b", "37", "--precision", "fp8", "--gpu", "h100_sxm"]
KEYS = {
    "layout", "batch", "ttft_ms", "tpot_ms", "tokens_per_s_per_gpu", "tokens_per_s",
    "usd_per_million_tokens", "kv_cache_gbyte_per_gpu", "ep_alltoall_ms_per_step", "bound",
}  # fmt: skip


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = run(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_serve_json_has_the_interface_keys(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["serve", "--gpus", "64", "--design", "rail8-npo", *DEEPSEEK, "--input-tokens", "2048",
            "--output-tokens", "512", "--batch", "256", "--format", "json"]  # fmt: skip
    code, out, err = _run(argv, capsys)
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert set(data) >= KEYS
    assert data["batch"] == 256 and data["layout"]["ep"] > 1 and data["ep_alltoall_ms_per_step"] > 0
    assert data["tokens_per_s"] == pytest.approx(data["tokens_per_s_per_gpu"] * 64, rel=1e-3)


def test_serve_with_targets_meets_them(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["serve", "--gpus", "8", "--design", "ib-ndr", "--gpu", "h100_sxm", "--params-b", "70", "--layers", "80",
            "--hidden", "8192", "--kv-heads", "8", "--precision", "fp8", "--ttft-ms", "500", "--tpot-ms", "30",
            "--format", "json"]  # fmt: skip
    code, out, _ = _run(argv, capsys)
    data = json.loads(out)
    assert code == 0 and data["ttft_ms"] <= 500 and data["tpot_ms"] <= 30


def test_serve_disaggregated_table(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["serve", "--gpus", "64", "--designs", "rail4-npo,ib-ndr", *DEEPSEEK, "--disaggregate"]
    code, out, err = _run(argv, capsys)
    assert (code, err) == (0, "")
    assert "disaggregated" in out and "prefill" in out and "ep_alltoall_ms_per_step" in out


def test_serve_size_json_gives_the_smallest_cluster_per_design(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["serve", "--size", "--requests-per-s", "20", "--ttft-ms", "2000", "--tpot-ms", "50", *DEEPSEEK,
            "--input-tokens", "2048", "--output-tokens", "512", "--format", "json"]  # fmt: skip
    code, out, err = _run(argv, capsys)
    assert (code, err) == (0, "")
    rows = json.loads(out)
    assert [r["design"] for r in rows] == ["rail4-npo", "rail8-npo", "ib-ndr"]
    for r in rows:
        assert KEYS | {"gpus"} <= set(r)
        assert r["gpus"] % 8 == 0 and r["tpot_ms"] <= 50 and r["ttft_ms"] <= 2000
        assert r["requests_per_s"] >= 20 and r["one_size_smaller"]


@pytest.mark.parametrize(
    ("argv", "pattern"),
    [
        (["serve", "--gpus", "8", "--design", "ib-ndr", "--params-b", "700"], "memory: .* GB short"),
        (
            ["serve", "--gpus", "8", "--design", "ib-ndr", "--params-b", "70", "--tpot-ms", "1"],
            "tpot_ms: .* ms short",
        ),
        (
            [
                "serve",
                "--size",
                "--requests-per-s",
                "5",
                "--tpot-ms",
                "0.5",
                "--params-b",
                "70",
                "--max-gpus",
                "32",
            ],
            "tpot_ms: .* ms short",
        ),
        (["serve", "--gpus", "8", "--params-b", "-1"], "--params-b"),
        (["serve", "--gpus", "8", "--params-b", "7", "--precision", "int4"], "--precision"),
        (["serve", "--size", "--params-b", "7"], "--requests-per-s"),
        (["serve", "--gpus", "8"], "--params-b"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    argv: list[str], pattern: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import re

    code, out, err = _run(argv, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and re.search(pattern, err), err


LLAMA3_8B = ["--gpus", "8", "--design", "ib-ndr", "--gpu", "h100_sxm", "--params-b", "8", "--layers", "32",
             "--hidden", "4096", "--heads", "32", "--kv-heads", "8", "--ffn-hidden", "14336", "--vocab", "128256",
             "--gated-mlp", "--input-tokens", "512", "--output-tokens", "256", "--batch", "8"]  # fmt: skip


def test_serve_table_shows_the_wait_and_ttft_at_the_offered_load(capsys: pytest.CaptureFixture[str]) -> None:
    # 8 GPUs at batch 8 serve about 34 requests/s; at 30 the M/M/c wait is tens of ms, and the table
    # prints the same figures as the JSON's queue_wait_ms / ttft_at_load_ms (to 0.1 ms)
    argv = ["serve", *LLAMA3_8B, "--requests-per-s", "30"]
    code, table, _ = _run([*argv, "--format", "table"], capsys)
    _, out, _ = _run([*argv, "--format", "json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["queue_wait_ms"] > 1.0
    expected = f"queue wait {data['queue_wait_ms']:.1f} ms, TTFT at load {data['ttft_at_load_ms']:.1f} ms"
    assert expected in table


def test_serve_table_says_when_the_queue_has_no_bound(capsys: pytest.CaptureFixture[str]) -> None:
    code, table, _ = _run(["serve", *LLAMA3_8B, "--requests-per-s", "50"], capsys)
    assert code == 0 and "the queue has no bound" in table and "queue wait" not in table


def test_a_service_on_part_of_an_nvl72_plan_keeps_its_gpus(capsys: pytest.CaptureFixture[str]) -> None:
    # 128 GPUs asked; the plan rounds up to two NVL72 racks (144); the service uses 128, 64 a rack
    import json

    code, out, err = _run(
        ["serve", "--gpus", "128", "--design", "gb200-nvl72-ib-ndr", "--params-b", "70", "--format", "json"],
        capsys,
    )
    assert code == 0, err
    result = json.loads(out)
    result = result[0] if isinstance(result, list) else result
    assert result["gpus"] == 128
    assert any("128 of the plan's 144 GPUs" in note for note in result["notes"])
