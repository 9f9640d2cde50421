"""Bounded work (the hostile-input issue, item 3): a file that expands, a cluster too large to
simulate port by port, or a trace the csv module chokes on is refused in one line, from counts
known before the work starts.

Measured before: a 1.6 MB Parquet upload of 60 M constant rows took the server from 0.35 to
3.6 GB and stayed cached with no expiry; ``tenants simulate --synthetic --jobs 200000 --gpus
1048576`` passed 4 GB and ended in a MemoryError traceback; a trace field over 128 kB or CR-only
line ends ended in a traceback.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from planner.errors import InputError
from planner.jobmix.jobs import read_trace_csv
from planner.sweep import results
from planner.tenancy.fabric import MAX_VIEW_GPUS

ROOT = Path(__file__).resolve().parents[1]


def constant_sweep(path: Path, *, row_groups: int, rows: int = 1_000_000) -> Path:
    """A sweep-shaped Parquet file of ``row_groups`` x ``rows`` identical rows (compresses to
    about 24 kB per million rows), written one row group at a time."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    batch = pa.table(
        {
            "point": pa.array([0] * rows, pa.int64()),
            "gpus_grid": pa.array([8] * rows, pa.int64()),
            "error": pa.array([""] * rows),
            "design": pa.array(["ib-ndr"] * rows),
            "gpus": pa.array([8] * rows, pa.int64()),
            "cost.capex_usd": pa.array([1.0] * rows),
        }
    )
    with pq.ParquetWriter(path, batch.schema, compression="zstd") as writer:
        for _ in range(row_groups):
            writer.write_table(batch, row_group_size=rows)
    return path


@pytest.mark.slow  # writes a 60-row-group Parquet file (~3 s CPU)
def test_a_60_million_row_parquet_upload_is_refused_before_decoding(tmp_path: Path) -> None:
    import pyarrow as pa

    content = constant_sweep(tmp_path / "big.parquet", row_groups=60).read_bytes()
    assert len(content) < 2_000_000, "it passes the upload size limit"
    before = pa.total_allocated_bytes()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(InputError, match=r"60,000,000 rows, more than the 1,000,000"):
        results.read_sweep(content, name="big.parquet", internal_cost=True)
    assert pa.total_allocated_bytes() - before < 1_000_000, "no column was decoded"
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak
    assert grown_kb < 200 * 1024, f"{grown_kb} kB"  # the budget: under 200 MB


def test_a_file_within_the_limits_is_read(tmp_path: Path) -> None:
    sweep = results.read_sweep(
        constant_sweep(tmp_path / "ok.parquet", row_groups=1, rows=1000),
        name="ok.parquet",
        internal_cost=False,
    )
    assert len(sweep.frame) == 1000 and sweep.hidden == 1  # cost.capex_usd left out for the role


def test_the_scaling_page_caches_a_bounded_number_of_uploads_for_a_while() -> None:
    text = (ROOT / "ui" / "views" / "scaling.py").read_text(encoding="utf-8")
    assert text.count("max_entries=2, ttl=600") == 2


def test_simulating_a_million_gpus_exits_2_naming_the_limit() -> None:
    """Under an address-space cap of 1 GB: a refusal passes, an attempt dies of MemoryError."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1024**3, 1024**3))

    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "planner",
            "tenants",
            "simulate",
            "--synthetic",
            "--jobs",
            "200000",
            "--gpus",
            "1048576",
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=120,
        preexec_fn=cap,
    )
    assert result.returncode == 2, result.stderr[-400:]
    assert result.stderr.count("\n") == 1 and f"{MAX_VIEW_GPUS:,} GPUs" in result.stderr, result.stderr


@pytest.mark.parametrize(
    ("content", "phrase"),
    [
        (b"arrival_s,gpus,duration_s\n0,8," + b"1" * 140_000 + b"\n", "field larger than field limit"),
        pytest.param(  # reads 200,000 rows before the limit trips (~2 s CPU)
            b"arrival_s,gpus,duration_s\n" + b"0,8,100\n" * 200_001,
            "more than 200000 jobs",
            marks=pytest.mark.slow,
        ),
    ],
)
def test_a_hostile_trace_is_refused_in_one_line(content: bytes, phrase: str) -> None:
    with pytest.raises(InputError, match=phrase):
        read_trace_csv(content, name="trace.csv", cluster_gpus=64)


def test_a_trace_with_cr_only_line_ends_is_read() -> None:
    jobs = read_trace_csv(b"arrival_s,gpus,duration_s\r0,8,100\r1,8,100\r", name="t.csv", cluster_gpus=64)
    assert len(jobs) == 2
