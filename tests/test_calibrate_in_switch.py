"""``planner calibrate`` considers in-switch reduction (NVLS, SHARP) when the runs say they used it
or when only it explains their figures (issue 28, note on two-node NVLS runs; issue 26 added the
NVLS tree and ``--in-switch-reduction``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_measure import H100, _base

from planner.cli import run
from planner.measure.nccl import in_switch_of, read_nccl_tests
from planner.measure.synthetic import synthetic_run
from planner.units import GIB

NVLS_LINES = (
    "n1:101:101 [0] NCCL INFO NVLS multicast support is available on dev 0\n"
    "n1:101:101 [0] NCCL INFO Connected NVLS Tree\n"
)


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _nvls_run(tmp_path: Path, *, info: str = "", hosts: int = 2, slowdown: float = 1.0) -> Path:
    """A run generated on the NVLS tree of ib-ndr (``auto`` on H100), with ``info`` after the
    rank lines (where NCCL_DEBUG=INFO prints while the communicator starts)."""
    names = tuple(f"n{i + 1}" for i in range(hosts))
    text = synthetic_run(
        _base(8 * hosts), values={}, collective="all_reduce", hosts=names, gpus_per_host=8, seed=3,
        slowdown=slowdown,
    )  # fmt: skip
    if info:
        head, sep, tail = text.partition("#       size")
        assert sep
        text = head + info + sep + tail
    path = tmp_path / "all_reduce_perf.txt"
    path.write_text(text, encoding="utf-8")
    return path


def _calibrate(
    capsys: pytest.CaptureFixture[str], path: Path, gpus: int, out: Path, *extra: str
) -> tuple[int, dict[str, Any], str]:
    code, stdout, err = cli(
        capsys, "calibrate", "--nccl", str(path), "--gpus", str(gpus), "--design", "ib-ndr", *extra,
        "--out", str(out), "--format", "json",
    )  # fmt: skip
    return code, (json.loads(stdout) if code == 0 else {}), err


def _busbw(capsys: pytest.CaptureFixture[str], *args: str) -> float:
    code, out, err = cli(capsys, "plan", *args, "--format", "json")
    assert code == 0, err
    value: float = json.loads(out)["bandwidth"]["allreduce_busbw_gbyte_per_s"]
    return value


def test_info_lines_say_nvls_or_sharp() -> None:
    assert in_switch_of("n1:1:1 [0] NCCL INFO NVLS comm 0x55 headRank 0 nHeads 8 buffSize 4194304") == "nvls"
    assert in_switch_of("n1:1:1 [0] NCCL INFO Connected CollNet") == "sharp"
    assert in_switch_of("n1:1:1 [0] NCCL INFO NVLS multicast support is not available on dev 0") is None
    assert in_switch_of("n1:1:1 [0] NCCL INFO Connected all trees") is None


def test_the_reader_keeps_what_the_run_says(tmp_path: Path) -> None:
    (said,) = read_nccl_tests(_nvls_run(tmp_path, info=NVLS_LINES))
    assert said.in_switch == "nvls"
    (silent,) = read_nccl_tests(_nvls_run(tmp_path))
    assert silent.in_switch is None
    assert read_nccl_tests(H100)[0].in_switch is None  # the public GCP file has no NCCL INFO lines


@pytest.mark.slow  # calibration fits over both in-switch reductions (~2 s CPU)
def test_nvls_runs_on_a_plan_without_in_switch_reduction_are_fitted_with_nvls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # two hosts on the NVLS tree reach about 460 GB/s at 1 GiB (NCCL's per-head ceiling, 8 x 57.7
    # GB/s); without NVLS (rings and trees over
    # 400 Gb/s NICs) the model's ceiling is about 400 GB/s: before, such runs were refused
    path = _nvls_run(tmp_path)
    measured = read_nccl_tests(path)[0].busbw_at(GIB)
    assert measured is not None and measured > 450
    out = tmp_path / "o.yaml"
    code, cal, err = _calibrate(capsys, path, 16, out, "--in-switch-reduction", "none")
    assert code == 0, err
    assert cal["in_switch_reduction"] == "nvls"
    planned = _busbw(
        capsys, "--gpus", "16", "--design", "ib-ndr", "--in-switch-reduction", "nvls", "--catalog", str(out)
    )
    assert abs(planned / measured - 1) <= 0.05, (planned, measured)
    assert "with in-switch reduction nvls" in out.read_text(encoding="utf-8")


@pytest.mark.slow  # calibration fits over both in-switch reductions (~2 s CPU)
def test_what_the_runs_say_is_tried_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the same NVLS run, slowed to 0.6 x its speed (about 276 GB/s): a ring without NVLS could
    # reproduce it too, but the INFO lines say NVLS ran, so the fit is made on the NVLS tree
    path = _nvls_run(tmp_path, info=NVLS_LINES, slowdown=1 / 0.6)
    code, cal, err = _calibrate(capsys, path, 16, tmp_path / "o.yaml", "--in-switch-reduction", "none")
    assert code == 0, err
    assert cal["in_switch_reduction"] == "nvls"
    silent = _nvls_run(tmp_path, slowdown=1 / 0.6)
    code, cal, err = _calibrate(capsys, silent, 16, tmp_path / "o.yaml", "--in-switch-reduction", "none")
    assert code == 0, err
    assert cal["in_switch_reduction"] is None  # not said, and the plan's own rings explain it


@pytest.mark.slow  # calibration fits over both in-switch reductions (~2 s CPU)
def test_runs_only_sharp_explains_are_fitted_with_sharp(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # four hosts at 0.7 x the times of NICs at full line rate (about 521 GB/s at 8 GiB): above the
    # NVLS tree's ceiling (8 x 45.5 = 364 GB/s from three domains on), below the ceiling
    # with SHARP in the NDR switches (about 529 GB/s at the catalog's efficiency)
    text = synthetic_run(
        _base(32), values={"nccl_efficiency": 1.0}, collective="all_reduce",
        hosts=("n1", "n2", "n3", "n4"), gpus_per_host=8, slowdown=0.7,
    )  # fmt: skip
    path = tmp_path / "all_reduce_perf.txt"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "o.yaml"
    code, cal, err = _calibrate(capsys, path, 32, out)
    assert code == 0, err
    assert cal["in_switch_reduction"] == "sharp"
    measured = read_nccl_tests(path)[0].busbw_at(GIB)
    assert measured is not None
    planned = _busbw(
        capsys, "--gpus", "32", "--design", "ib-ndr", "--in-switch-reduction", "sharp", "--catalog", str(out)
    )
    assert abs(planned / measured - 1) <= 0.05, (planned, measured)


def test_the_public_run_keeps_the_plans_algorithm(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the public 2-host H100 run (297.86 GB/s at 1 GiB) says nothing about NVLS and the plan's own
    # algorithm reproduces it, with or without in-switch reduction: no other reduction is assumed
    for mode in ("auto", "none"):
        code, cal, err = _calibrate(capsys, H100, 16, tmp_path / "o.yaml", "--in-switch-reduction", mode)
        assert code == 0, err
        assert cal["in_switch_reduction"] is None


@pytest.mark.slow  # calibration fits over both in-switch reductions (~2 s CPU)
def test_saving_a_calibration_fitted_with_nvls_sets_the_reduction_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, db = tmp_path / "o.yaml", str(tmp_path / "s.db")
    code, _, err = _calibrate(capsys, _nvls_run(tmp_path), 16, out, "--in-switch-reduction", "none")
    assert code == 0, err
    code, _, err = cli(
        capsys, "scenarios", "--db", db, "save", "--name", "N", "--gpus", "16", "--design", "ib-ndr",
        "--in-switch-reduction", "none", "--calibration", str(out),
    )  # fmt: skip
    assert code == 0 and "in-switch reduction set to nvls (was none)" in err
    code, shown, _ = cli(capsys, "scenarios", "--db", db, "show", "1", "--format", "json")
    scenario = json.loads(shown)["scenario"]
    assert scenario["in_switch_reduction"] == "nvls"
    assert scenario["calibration"]["in_switch_reduction"] == "nvls"
