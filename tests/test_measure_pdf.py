"""The acceptance report as PDF (``planner accept --pdf``), opened with poppler's pdftotext: the
verdict, the suspects and the re-run commands in English and Chinese, host names as typed. Needs
Debian's Chromium, the Noto CJK fonts and poppler-utils (``make system-deps``), as the proposal's
PDF tests."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from planner.catalog import load_catalog
from planner.cli import run
from planner.engine import plan
from planner.i18n import tr
from planner.inputs.scenario import scenario_from_data
from planner.measure.model import baseline
from planner.measure.synthetic import synthetic_run


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_acceptance_pdf_states_verdict_suspect_and_commands(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = load_catalog()
    the_plan = plan(
        scenario=scenario_from_data({"gpus": 32, "design_id": "ib-ndr"}, source="t"), catalog=catalog
    )
    base = baseline(plan=the_plan, catalog=catalog)
    hosts = ("n1", "n2", "<b>n3</b>", "n4")
    pairs = [(a, b) for i, a in enumerate(hosts) for b in hosts[i + 1 :]]
    text = "".join(
        synthetic_run(
            base,
            values={},
            collective="all_reduce",
            hosts=pair,
            gpus_per_host=8,
            seed=i,
            slowdown=1.35 if "<b>n3</b>" in pair else 1.0,
            sizes_bytes=(2**20, 2**26, 2**30),
        )
        for i, pair in enumerate(pairs)
    )
    runs = tmp_path / "runs.txt"
    runs.write_text(text, encoding="utf-8")
    pdf = tmp_path / "acceptance.pdf"
    code = run(
        [
            "accept",
            "--gpus",
            "32",
            "--design",
            "ib-ndr",
            "--nccl",
            str(runs),
            "--pdf",
            str(pdf),
            "--lang",
            lang,
        ]
    )
    capsys.readouterr()
    assert code == 0 and pdf.read_bytes().startswith(b"%PDF")
    body = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert tr("acc.title", lang) in body
    assert f"{tr('acc.verdict', lang)}: {tr('acc.status.fail', lang)}" in body
    assert "<b>n3</b>" in body  # user text as typed, never markup
    assert "mpirun -np 16 -H <b>n3</b>:8,n1:8 all_reduce_perf" in body
