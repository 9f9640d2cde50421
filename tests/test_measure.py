"""Measurements against the plan: the strict nccl-tests reader, ``planner calibrate`` and
``planner accept`` (issue: plan, build, verify)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from planner.catalog import load_catalog
from planner.cli import run
from planner.engine import plan
from planner.errors import shorten
from planner.inputs.scenario import scenario_from_data
from planner.measure.model import Baseline, baseline, fabric_with
from planner.measure.nccl import read_nccl_tests
from planner.measure.roundtrip import load_round_trips
from planner.measure.synthetic import synthetic_run
from planner.measure.text import MAX_LINES
from planner.units import GIB

FIXTURES = Path(__file__).parent / "measure_fixtures"
H100 = FIXTURES / "all_reduce_perf-h100-2x8.txt"
MI300X = FIXTURES / "all_reduce_perf-mi300x-1x8.txt"

# Known coefficients of the synthetic cluster (none equal to the catalog's, so a fit that kept the
# catalog values would fail the round trip).
KNOWN = {"nccl_efficiency": 0.70, "network_alpha_us": 12.0, "nvls_alpha_us": 30.0, "scale_up_alpha_us": 2.0}


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _base(gpus: int, design: str = "ib-ndr") -> Baseline:
    catalog = load_catalog()
    the_plan = plan(
        scenario=scenario_from_data({"gpus": gpus, "design_id": design}, source="t"), catalog=catalog
    )
    return baseline(plan=the_plan, catalog=catalog)


def _write(path: Path, *runs: str) -> Path:
    path.write_text("".join(runs), encoding="utf-8")
    return path


# --- the reader -------------------------------------------------------------------------------


def test_public_outputs_are_read_with_hosts_and_sizes() -> None:
    # figures as printed in the fixtures (sources in tests/measure_fixtures/README.md)
    (h100,) = read_nccl_tests(H100)
    assert (h100.collective, h100.gpus, h100.gpus_per_host) == ("all_reduce", 16, 8)
    assert h100.hosts == ("ztan-mig-235z", "ztan-mig-gq73")
    assert len(h100.rows) == 31 and h100.busbw_at(GIB) == 297.86
    (mi300x,) = read_nccl_tests(MI300X)
    assert (mi300x.gpus, mi300x.hosts, mi300x.busbw_at(GIB)) == (8, ("SMC-SC-DC19-06",), 312.97)


def test_several_runs_in_one_file_are_read(tmp_path: Path) -> None:
    base = _base(32)
    text = "".join(
        synthetic_run(base, values={}, collective=c, hosts=("a", "b"), gpus_per_host=8, seed=i)
        for i, c in enumerate(
            ("all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast", "sendrecv")
        )
    )
    runs = read_nccl_tests(_write(tmp_path / "six.txt", text))
    assert [r.collective for r in runs] == [
        "all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast", "sendrecv"
    ]  # fmt: skip


def _truncated(tmp_path: Path) -> Path:
    lines = H100.read_text().splitlines()
    return _write(tmp_path / "cut.txt", "\n".join(lines[:40]) + "\n   1073741824     2684")


def _other_tool(tmp_path: Path) -> Path:
    text = (
        "---------------------------------------------------------------------------------------\n"
        "                    RDMA_Write BW Test\n"
        " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
        " 65536      5000             392.10            391.87		   0.747\n"
    )
    return _write(tmp_path / "ib.txt", text)


def _units_changed(tmp_path: Path) -> Path:
    text = H100.read_text().replace(
        "(us)  (GB/s)  (GB/s)            (us)", "(ms)  (GB/s)  (GB/s)            (ms)", 1
    )
    return _write(tmp_path / "ms.txt", text)


def _million_lines(tmp_path: Path) -> Path:
    return _write(tmp_path / "huge.txt", H100.read_text() + "#\n" * 1_000_000)


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (_truncated, "line 41: 2 fields where the header has 13"),
        (_other_tool, "line 1: no nccl-tests run found"),
        (_units_changed, "line 29: column time is in (ms) where nccl-tests prints (us)"),
        (_million_lines, f"line {MAX_LINES + 1}: more than {MAX_LINES} lines"),
    ],
)
@pytest.mark.parametrize("command", ["calibrate", "accept"])
def test_bad_files_exit_2_naming_file_and_line_and_write_nothing(
    make: object, expected: str, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = make(tmp_path)  # type: ignore[operator]
    out = tmp_path / "override.yaml"
    extra = ["--out", str(out)] if command == "calibrate" else ["--csv", str(out)]
    code, stdout, err = cli(
        capsys, command, "--nccl", str(H100), str(bad), "--gpus", "16", "--design", "ib-ndr", *extra
    )
    assert code == 2 and stdout == ""
    assert err.count("\n") == 1 and shorten(str(bad)) in err and expected in err, err
    assert not out.exists()


def test_a_row_with_wrong_results_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # line 57 is the 1 GiB row (tests/measure_fixtures/all_reduce_perf-h100-2x8.txt)
    text = H100.read_text().replace("297.86      0", "297.86      3", 1)
    code, _, err = cli(
        capsys,
        "accept",
        "--nccl",
        str(_write(tmp_path / "w.txt", text)),
        "--gpus",
        "16",
        "--design",
        "ib-ndr",
    )
    assert code == 2 and "line 57: #wrong is 3" in err


# --- calibrate ----------------------------------------------------------------------------------


def _round_trip(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    files: list[Path],
    gpus: int,
    extra: tuple[str, ...] = (),
) -> tuple[float, dict[str, Any]]:
    """``planner calibrate`` then ``planner plan --catalog``: (plan busbw at 1 GiB, calibration)."""
    override = tmp_path / "override.yaml"
    args = ["--gpus", str(gpus), "--design", "ib-ndr", *extra]
    code, out, err = cli(
        capsys, "calibrate", "--nccl", *map(str, files), *args, "--out", str(override), "--format", "json"
    )
    assert code == 0, err
    code, out_plan, err = cli(capsys, "plan", *args, "--catalog", str(override), "--format", "json")
    assert code == 0, err
    return json.loads(out_plan)["bandwidth"]["allreduce_busbw_gbyte_per_s"], json.loads(out)


@pytest.mark.parametrize(("path", "gpus", "extra"), [(H100, 16, ()), (MI300X, 8, ("--gpu", "mi300x"))])
def test_calibrated_plan_meets_public_busbw_at_1_gib_within_5_percent(
    path: Path, gpus: int, extra: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    measured = read_nccl_tests(path)[0].busbw_at(GIB)
    assert measured is not None
    planned, _ = _round_trip(tmp_path, capsys, [path], gpus, extra)
    assert abs(planned / measured - 1) <= 0.05, (planned, measured)


def test_synthetic_round_trip_recovers_known_coefficients(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # four nodes: the NIC efficiency bounds the large messages (network 8 x 50 x 0.7 = 280 GB/s per
    # node, below the NVLS tree's 8 x 45.5 = 364 GB/s ceiling); on two nodes that ceiling
    # (8 x 57.7 = 462 GB/s) would bind first and hide the NIC efficiency from the fit
    base = _base(32)
    text = synthetic_run(
        base, values=KNOWN, collective="all_reduce", hosts=("n1", "n2", "n3", "n4"), gpus_per_host=8, seed=7
    )
    path = _write(tmp_path / "all_reduce_perf.txt", text)
    measured = read_nccl_tests(path)[0].busbw_at(GIB)
    assert measured is not None
    planned, cal = _round_trip(tmp_path, capsys, [path], 32)
    assert abs(planned / measured - 1) <= 0.05
    fitted = {c["name"]: c["fitted"] for c in cal["coefficients"]}
    # noise is +/- 2 % on each time, so the large-message efficiency comes back within 3 %
    assert fitted["nccl_efficiency"] == pytest.approx(KNOWN["nccl_efficiency"], rel=0.03)


def test_override_carries_provenance_and_is_the_fabric_the_fit_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import yaml

    override = tmp_path / "o.yaml"
    code, _, _ = cli(
        capsys,
        "calibrate",
        "--nccl",
        str(H100),
        "--gpus",
        "16",
        "--design",
        "ib-ndr",
        "--out",
        str(override),
        "--measured-on",
        "2024-05-01",
    )
    assert code == 0
    data = yaml.safe_load(override.read_text())
    nic = data["nics"][0]
    assert nic["id"] == "cx7_400g" and nic["as_of"] == "2024-05-01"
    assert (
        "ztan-mig-235z" in nic["source"] and "sha256" in nic["source"] and "all_reduce_perf" in nic["source"]
    )
    # wiring: the plan made with the override has the fabric calibration computed with
    catalog = load_catalog()
    scenario = scenario_from_data({"gpus": 16, "design_id": "ib-ndr"}, source="t")
    base = baseline(plan=plan(scenario=scenario, catalog=catalog), catalog=catalog)
    values = {"nccl_efficiency": nic["nccl_efficiency"], "network_alpha_us": nic["alpha_us"]}
    values.update({r["id"]: r["value"] for r in data.get("sizing_rules", [])})
    expected = fabric_with(base=base, values=values)
    calibrated = plan(scenario=scenario, catalog=load_catalog(overrides=[override])).bandwidth.fabric
    for got, want in zip(calibrated.levels, expected.levels, strict=True):
        assert got.bandwidth_gbyte_per_s == pytest.approx(want.bandwidth_gbyte_per_s)
        assert got.alpha_us == pytest.approx(want.alpha_us)
    assert calibrated.nvls_alpha_us == pytest.approx(expected.nvls_alpha_us)


def test_calibrate_names_what_the_runs_cannot_determine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, cal = _round_trip(tmp_path, capsys, [MI300X], 8, ("--gpu", "mi300x"))
    reasons = {c["name"]: c["reason"] for c in cal["coefficients"] if c["fitted"] is None}
    assert "no run crossed the network" in reasons["nccl_efficiency"]
    assert "no NVLS" in reasons["nvls_efficiency"]


# --- accept -------------------------------------------------------------------------------------


def _accept(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, gpus: int = 16) -> dict[str, Any]:
    path = _write(tmp_path / "runs.txt", text)
    code, out, err = cli(
        capsys, "accept", "--gpus", str(gpus), "--design", "ib-ndr", "--nccl", str(path), "--format", "json"
    )
    assert code == 0, err
    data: dict[str, object] = json.loads(out)
    return data


def test_a_run_that_matches_the_plan_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = synthetic_run(_base(16), values={}, collective="all_reduce", hosts=("n1", "n2"), gpus_per_host=8)
    data = _accept(tmp_path, capsys, text)
    assert data["verdict"] == "pass"
    check = data["checks"][0]
    for key in (
        "collective",
        "size_bytes",
        "measured_busbw_gbyte_per_s",
        "planned_busbw_gbyte_per_s",
        "shortfall_fraction",
        "status",
    ):
        assert key in check
    assert data["suspects"] == []


def test_a_run_30_percent_below_the_plan_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # every time / 0.7: busbw is 70 % of the plan's, a 30 % shortfall against the 10 % tolerance
    text = synthetic_run(
        _base(16), values={}, collective="all_reduce", hosts=("n1", "n2"), gpus_per_host=8, slowdown=1 / 0.7
    )
    data = _accept(tmp_path, capsys, text)
    assert data["verdict"] == "fail"
    large = [c for c in data["checks"] if c["size_bytes"] == GIB]
    assert large[0]["status"] == "fail" and large[0]["shortfall_fraction"] == pytest.approx(0.30, abs=0.02)


def test_a_slow_host_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # four hosts tested in pairs (six runs, one file); every run with n3 is 35 % slower
    base = _base(32)
    hosts = ("n1", "n2", "n3", "n4")
    pairs = [(a, b) for i, a in enumerate(hosts) for b in hosts[i + 1 :]]
    text = "".join(
        synthetic_run(
            base,
            values={},
            collective="all_reduce",
            hosts=pair,
            gpus_per_host=8,
            seed=i,
            slowdown=1.35 if "n3" in pair else 1.0,
        )
        for i, pair in enumerate(pairs)
    )
    data = _accept(tmp_path, capsys, text, gpus=32)
    assert data["verdict"] == "fail"
    assert [s["host"] for s in data["suspects"]] == ["n3"]
    assert any("n3" in c for c in data["commands"])


def test_acceptance_csv_is_formula_safe(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = synthetic_run(
        _base(16), values={}, collective="all_reduce", hosts=("=cmd|x", "n2"), gpus_per_host=8
    )
    path = _write(tmp_path / "runs.txt", text)
    out = tmp_path / "acc.csv"
    code, _, err = cli(
        capsys,
        "accept",
        "--gpus",
        "16",
        "--design",
        "ib-ndr",
        "--nccl",
        str(path),
        "--csv",
        str(out),
        "--lang",
        "zh",
    )
    assert code == 0, err
    body = out.read_text(encoding="utf-8-sig")
    assert "实测 busbw" in body and "'=cmd|x n2" in body and "\n=cmd" not in body


# --- perftest -----------------------------------------------------------------------------------


def _ib_write_bw(device: str, gbit: float, unit: str = "Gb/sec") -> str:
    """ib_write_bw --report_gbits output in perftest's layout (linux-rdma/perftest README)."""
    dashes = "-" * 87
    return (
        f"{dashes}\n                    RDMA_Write BW Test\n"
        f" Dual-port       : OFF\t\tDevice         : {device}\n"
        " Number of qps   : 1\t\tTransport type : IB\n Mtu             : 4096[B]\n Link type       : IB\n"
        f"{dashes}\n local address: LID 0x09 QPN 0x0077 PSN 0x3c5b3a RKey 0x1fffbd VAddr 0x007f8c3a5fe000\n"
        f" remote address: LID 0x0a QPN 0x0077 PSN 0x8a4c1d RKey 0x1fffbd VAddr 0x007fa2e7a00000\n{dashes}\n"
        f" #bytes     #iterations    BW peak[{unit}]    BW average[{unit}]   MsgRate[Mpps]\n"
        f" 65536      5000             {gbit + 0.1:.2f}             {gbit:.2f}\t\t   0.748356\n{dashes}\n"
    )


IB_READ_LAT = (
    "-"
    * 87
    + "\n                    RDMA_Read Latency Test\n Dual-port       : OFF\t\tDevice         : mlx5_1\n"
    " Link type       : IB\n" + "-" * 87 + "\n"
    " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]"
    "   99% percentile[usec]   99.9% percentile[usec] \n"
    " 2       1000          3.63           7.54         3.70     \t       3.71        \t0.08   \t\t4.06    \t\t7.54   \n"
    + "-" * 87
    + "\n"
)


def test_perftest_bandwidth_and_latency_are_read(tmp_path: Path) -> None:
    from planner.measure.perftest import read_perftest

    (bw,) = read_perftest(_write(tmp_path / "host-a.txt", _ib_write_bw("mlx5_0", 392.37)))
    assert (bw.tool, bw.host, bw.device, bw.values) == ("ib_write_bw", "host-a", "mlx5_0", (392.37,))
    # 49046 MB/s without --report_gbits is 392.37 Gb/s (perftest's MB is 10^6 bytes)
    (mb,) = read_perftest(_write(tmp_path / "h.txt", _ib_write_bw("mlx5_0", 49046.25, "MB/sec")))
    assert mb.values[0] == pytest.approx(392.37)
    (lat,) = read_perftest(_write(tmp_path / "host-b.txt", IB_READ_LAT))
    assert (lat.tool, lat.device, lat.values) == ("ib_read_lat", "mlx5_1", (3.70,))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (_ib_write_bw("mlx5_0", 392.0, "KB/sec"), "line 11: column BW peak is in [KB/sec]"),
        (
            _ib_write_bw("mlx5_0", 392.0).rsplit("-" * 87, 1)[0],
            "line 12: the test that starts at line 2 ends without",
        ),
        (H100.read_text(), "line 1: not perftest output"),
    ],
)
def test_bad_perftest_files_are_refused(
    text: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _write(tmp_path / "bad.txt", text)
    code, out, err = cli(
        capsys, "accept", "--gpus", "16", "--design", "ib-ndr", "--nccl", str(H100), "--perftest", str(bad)
    )
    assert code == 2 and out == "" and shorten(str(bad)) in err and expected in err, err


def test_a_slow_rail_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # cx7_400g ports of ib-ndr run at 400 Gb/s; mlx5_3 on host-b reaches 250 (a bad cable or optic)
    files = [
        _write(
            tmp_path / f"{host}.txt",
            "".join(
                _ib_write_bw(f"mlx5_{d}", 250.0 if (host, d) == ("host-b", 3) else 392.0) for d in range(4)
            ),
        )
        for host in ("host-a", "host-b")
    ]
    run_text = synthetic_run(
        _base(16), values={}, collective="all_reduce", hosts=("host-a", "host-b"), gpus_per_host=8
    )
    nccl = _write(tmp_path / "runs.txt", run_text)
    code, out, err = cli(
        capsys,
        "accept",
        "--gpus",
        "16",
        "--design",
        "ib-ndr",
        "--nccl",
        str(nccl),
        "--perftest",
        *map(str, files),
        "--format",
        "json",
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["verdict"] == "fail"
    assert [(s["host"], "mlx5_3" in s["reason"]) for s in data["suspects"]] == [("host-b", True)]


# --- training logs and the compute efficiency ---------------------------------------------------


def _megatron_log(seconds: float, batch: int, steps: int = 5) -> str:
    """Megatron-LM training_log lines (the layout of megatron/training/training.py)."""
    return (
        "".join(
            f" [2024-05-01 12:00:{i:02d}] iteration {10 * i:8d}/  500000 | consumed samples: {10 * i * batch:12d} | "
            f"elapsed time per iteration (ms): {seconds * 1000:.1f} | learning rate: 1.500000E-04 | "
            f"global batch size: {batch:5d} | lm loss: 8.123456E+00 | loss scale: 1.0 |\n"
            for i in range(1, steps + 1)
        )
        + "some other log line\n"
    )


def test_training_logs_are_read(tmp_path: Path) -> None:
    from planner.measure.training import read_training_log

    log = read_training_log(_write(tmp_path / "train.log", _megatron_log(2.0, 256)))
    # 256 sequences x 4096 tokens / 2 s = 524,288 tokens/s
    assert log.kind == "megatron" and log.tokens_per_s(seq_len=4096) == pytest.approx(524_288)
    csv_log = read_training_log(
        _write(tmp_path / "t.csv", "step,seconds,tokens\n1,3.0,900\n2,1.0,1000\n3,1.0,1000\n")
    )
    assert csv_log.tokens_per_s(seq_len=4096) == 1000.0
    nemo = (
        "Epoch 0: 10/100 [reduced_train_loss=2.3, global_step=9.0, consumed_samples=1280.0, train_step_timing in s=1.5]\n"
        "Epoch 0: 20/100 [reduced_train_loss=2.2, global_step=19.0, consumed_samples=2560.0, train_step_timing in s=2.0]\n"
    )
    # (2560 - 1280) / 10 steps = 128 sequences per step, 128 x 2048 / 2.0 s
    assert read_training_log(_write(tmp_path / "n.log", nemo)).tokens_per_s(seq_len=2048) == pytest.approx(
        131_072
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            " iteration 10/ 100 | elapsed time per iteration (ms): fast | global batch size: 8 |\n",
            "line 1: elapsed time",
        ),
        (
            " iteration 10/ 100 | elapsed time per iteration (ms): 12.0 |\n",
            "line 1: a Megatron-LM iteration line without global batch size",
        ),
        ("step,seconds,tokens\n1,2.0\n", "line 2: 2 fields where step,seconds,tokens has 3"),
        ("just a log\n", "line 1: no training steps found"),
    ],
)
def test_bad_training_logs_are_refused(
    text: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _write(tmp_path / "bad.log", text)
    out = tmp_path / "o.yaml"
    code, _, err = cli(
        capsys,
        "calibrate",
        "--training",
        str(bad),
        "--params-b",
        "8",
        "--gpus",
        "64",
        "--design",
        "ib-ndr",
        "--out",
        str(out),
    )
    assert code == 2 and shorten(str(bad)) in err and expected in err, err
    assert not out.exists()


def test_compute_efficiency_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import yaml

    from planner.inputs.training import TrainingJob
    from planner.measure.compute import _with_rule
    from planner.performance.workload import estimate_workload

    catalog = load_catalog()
    the_plan = plan(
        scenario=scenario_from_data({"gpus": 64, "design_id": "ib-ndr"}, source="t"), catalog=catalog
    )
    job = TrainingJob(params_b=8, tokens_b=1, seq_len=4096, global_batch_seqs=256)
    # the log a cluster whose kernels reach 0.45 of peak would print
    known = 0.45
    rate = estimate_workload(
        job=job,
        plan=the_plan,
        catalog=_with_rule(catalog, "training_efficiency_max_fraction_h100_sxm", known),
    ).tokens_per_s
    log = _write(tmp_path / "train.log", _megatron_log(256 * 4096 / rate, 256))
    out = tmp_path / "o.yaml"
    code, _, err = cli(
        capsys,
        "calibrate",
        "--training",
        str(log),
        "--params-b",
        "8",
        "--gpus",
        "64",
        "--design",
        "ib-ndr",
        "--out",
        str(out),
    )
    assert code == 0, err
    (rule,) = yaml.safe_load(out.read_text())["sizing_rules"]
    assert rule["id"] == "training_efficiency_max_fraction_h100_sxm"
    # the log's time is printed to 0.1 ms of ~1.6 s, so the fit comes back within 0.1 %
    assert rule["value"] == pytest.approx(known, rel=1e-3)
    assert "train.log" in rule["source"] and "sha256" in rule["source"]


# --- the calibration round trip of the validation suite ----------------------------------------


@pytest.mark.slow  # a calibration fit per published case, seconds of CPU each
@pytest.mark.parametrize("case", load_round_trips(), ids=lambda c: str(c["id"]))
def test_calibration_round_trip(case: Mapping[str, Any]) -> None:
    from planner.measure.roundtrip import run_round_trip

    catalog = load_catalog()
    results = [r for seed in case["seeds"] for r in run_round_trip(case, catalog=catalog, seed=seed)]
    failed = [(r.seed, r.coefficient, r.known, r.fitted) for r in results if not r.passed]
    assert not failed, failed


def test_an_upload_too_large_names_its_line() -> None:
    from planner.measure.text import MeasurementError, read_lines

    # 30,000 lines of 100 bytes: 3 MB, past the 2 MB limit at line 20,001
    with pytest.raises(MeasurementError, match=r"^big\.txt: line 20001: the file is larger than 2 MB$"):
        read_lines(("x" * 99 + "\n").encode() * 30_000, name="big.txt")


def test_runs_faster_than_the_model_can_go_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # times 0.3 x those of NICs at full line rate (about 1,290 GB/s busbw at 8 GiB on four hosts):
    # no nccl_efficiency <= 1 reproduces them, on the plan (the NVLS tree sends each shard twice
    # from three domains on, so the network bounds the run) nor with SHARP in the network switches
    # (its ceiling is about 530 GB/s here); at 0.7 x SHARP explains them (the next test)
    base = _base(32)
    text = synthetic_run(
        base,
        values={"nccl_efficiency": 1.0},
        collective="all_reduce",
        hosts=("n1", "n2", "n3", "n4"),
        gpus_per_host=8,
        slowdown=0.3,
    )
    path = _write(tmp_path / "fast.txt", text)
    out = tmp_path / "o.yaml"
    code, _, err = cli(
        capsys, "calibrate", "--nccl", str(path), "--gpus", "32", "--design", "ib-ndr", "--out", str(out)
    )
    assert code == 2 and "nccl_efficiency: the runs need more than 1.0" in err and err.count("\n") == 1
    assert not out.exists()


def test_a_run_larger_than_the_plan_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "accept", "--nccl", str(H100), "--gpus", "8", "--design", "ib-ndr")
    assert code == 2 and "line 7: the run has 16 GPUs, the plan 8" in err
