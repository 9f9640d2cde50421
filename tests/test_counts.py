"""No "1 GPUs": a count of 1 takes the singular noun in English, and Chinese is left as written
(issue 29, "Smaller": found by running a plan of 1 GPU and the pages at 8 GPUs, one server)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from apptest import fresh_session, start
from streamlit.testing.v1 import AppTest

from planner import Scenario, load_catalog, plan
from planner.cli import run
from planner.i18n import tr, translate
from planner.i18n.counts import SINGULAR, agree
from planner.i18n.message import msg

ONE_PLURAL = re.compile(r"(?<![\d.,])1 (?:[a-z][\w-]* )?(" + "|".join(SINGULAR) + r")\b")
"""A count of 1 before a plural noun (or before a word and a plural noun)."""


@pytest.fixture
def _fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with fresh_session(tmp_path, monkeypatch):
        yield


def texts(at: AppTest) -> str:
    """Every caption, Markdown text and table cell of the page, one string."""
    parts = [str(el.value) for kind in ("caption", "markdown", "info", "warning") for el in getattr(at, kind)]
    parts += [frame.value.to_string() for frame in (*at.dataframe, *at.table)]
    return "\n".join(parts)


def test_a_count_of_one_takes_the_singular() -> None:
    assert str(msg("{gpus} GPUs in {nodes} whole nodes", gpus=1, nodes=1)) == "1 GPU in 1 whole node"
    assert str(msg("{gpus} GPUs in {nodes} whole nodes", gpus=16, nodes=2)) == "16 GPUs in 2 whole nodes"
    # the template's words change, a filled-in value never does; the template kept for translation
    m = msg("{name}: {n} racks", name="1 nodes", n=1)
    assert str(m) == "1 nodes: 1 rack" and m.template == "{name}: {n} racks"
    assert tr("scenario.line", "en", gpus="8", gpu="g", design="d", nodes="1", racks="2", currency="USD") == (
        "8 × g · d · 1 node · 2 racks · costs in USD"
    )
    assert agree("{n} GPUs", {"n": 1.0}) == "{n} GPUs"  # a share, not a count


def test_the_check_can_fail() -> None:
    assert ONE_PLURAL.search("8 × g · 1 nodes · 2 racks") and ONE_PLURAL.search("1 compute racks")
    assert not ONE_PLURAL.search("11 nodes, 2.1 racks, 1 node")


def test_a_plan_of_one_gpu_says_one_gpu_in_one_node(capsys: pytest.CaptureFixture[str]) -> None:
    """``planner plan --gpus 1``: the head line and the rounding note, in English; the note in
    Chinese is its translation, without a plural to get wrong."""
    assert run(["plan", "--gpus", "1"]) == 0
    out = capsys.readouterr().out
    assert "8 x Biren BR100 (OAM) in 1 node, 2 racks" in out
    assert "1 GPU rounded up to 1 whole node of 8 GPUs = 8 GPUs" in out
    assert not ONE_PLURAL.search(out), ONE_PLURAL.search(out)
    p = plan(scenario=Scenario(gpus=1), catalog=load_catalog())
    (note,) = [n for n in p.notes if "rounded up" in n]
    assert translate(note, "zh").startswith("1 ") and "GPUs" not in translate(note, "zh")


@pytest.mark.usefixtures("_fresh")
@pytest.mark.parametrize("page", ["compare", "topology", "reliability", "tenants"])
def test_pages_at_one_server_say_one(page: str) -> None:
    """8 GPUs = one server: the scenario line, the comparison ("8 GPUs · 1 server"), the rack
    chart and table, the failure table ("1 unit × ..."), the tenants' fabric caption."""
    at = start(page, gpus="8")
    shown = texts(at)
    assert "1 node · 2 racks" in shown
    assert not ONE_PLURAL.search(shown), ONE_PLURAL.search(shown)


@pytest.mark.usefixtures("_fresh")
def test_the_chinese_pages_keep_their_counts() -> None:
    at = start("compare", gpus="8", lang="zh")
    assert "1 台服务器 · 2 个机柜" in texts(at)


def test_the_reliability_table_says_one_gpu_loses(capsys: pytest.CaptureFixture[str]) -> None:
    """A node-leaf link of ib-ndr serves one GPU: "1 GPU loses 100.00%", noun and verb agreed."""
    assert run(["reliability", "--gpus", "1024", "--design", "ib-ndr", "--params-b", "70"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"node-leaf link +1 GPU loses 100\.00%", out), out
    assert re.search(r"leaf switch +32 GPUs lose 100\.00%", out), out
    assert not ONE_PLURAL.search(out), ONE_PLURAL.search(out)
