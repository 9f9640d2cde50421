"""Headless test of the Measurements page (``streamlit.testing.v1.AppTest``): uploads in the
session, the verdict, the suspects as text, the curves and the coefficients, in both languages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from apptest import fresh_session, start

from planner.i18n import tr
from ui import keys

FIXTURES = Path(__file__).parent / "measure_fixtures"


@pytest.fixture(autouse=True)
def _fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with fresh_session(tmp_path, monkeypatch):
        yield


def test_without_files_the_page_asks_for_them() -> None:
    at = start("measurements", gpus="16", design="ib-ndr")
    assert at.title[0].value == tr("page.measurements", "en")
    assert [i.value for i in at.info] == [tr("meas.none", "en")]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_public_run_is_accepted_and_calibrated(lang: str) -> None:
    at = start("measurements", gpus="16", design="ib-ndr", lang=lang)
    name = "all_reduce_perf-h100-2x8.txt"
    at.session_state[keys.MEASURE_NCCL] = ((name, (FIXTURES / name).read_bytes()),)
    at.run()
    assert not at.exception, at.exception
    # the 2-node H100 run sits below the uncalibrated plan at large sizes: the verdict is fail
    assert at.error[0].value.startswith(tr("meas.verdict_fail", lang).split("(")[0].split("（")[0])
    assert len(at.dataframe) == 1
    table = at.dataframe[0].value
    fitted = dict(
        zip(table[tr("meas.col.coefficient", lang)], table[tr("meas.col.fitted", lang)], strict=True)
    )
    # the public run's hosts have 200 Gb/s NICs (GCP A3 Mega); on the 400 Gb/s ib-ndr design the
    # two-host NVLS tree (each shard sent once) needs about 0.44 of the line rate
    assert 0.35 < fitted["nccl_efficiency"] < 0.55


def test_a_refused_file_is_named_and_the_page_keeps_working() -> None:
    at = start("measurements", gpus="16", design="ib-ndr")
    at.session_state[keys.MEASURE_NCCL] = (("bad.txt", b"<script>alert(1)</script>\n"),)
    at.run()
    assert not at.exception, at.exception
    assert "bad.txt: line 1: no nccl-tests run found" in at.error[0].value
    assert [i.value for i in at.info] == [tr("meas.none", "en")]
