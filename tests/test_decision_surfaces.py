"""The recommendation where people decide: the Compare page, Overview and the proposal show the
figures ``planner compare`` prints (issue: "the same numbers on the Compare page and in the
proposal (en/zh), read back from the printed PDF")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from apptest import fresh_session, start
from pdf_fixtures import Printer

from planner import Scenario, load_catalog
from planner.decision.draws import decide
from planner.decision.sentence import money, percent_of_draws
from planner.inputs.scenario import workload_from_data
from ui import keys

pytest_plugins = ["pdf_fixtures"]

DESIGNS = ("rail4-npo", "rail8-npo", "ib-ndr")
DENSE_70B = [{"kind": "training", "name": "70B dense", "weight": 1, "params_b": 70, "tokens_b": 1000}]


def _cli_figures() -> list[tuple[str, str]]:
    """Each design's cost per outcome and probability as the surfaces print them (the CLI's decision)."""
    scenario = Scenario(gpus=1024, workload=workload_from_data(DENSE_70B))
    decision = decide(scenario=scenario, catalog=load_catalog(), design_ids=DESIGNS)
    return [(money(d.cost_per_outcome), f"{percent_of_draws(d.p_best)} %") for d in decision.designs]


def test_compare_page_shows_the_clis_decision(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with fresh_session(tmp_path, monkeypatch):
        at = start()
        at.session_state[keys.WORKLOAD] = json.dumps(DENSE_70B)
        at.switch_page("pages/compare.py").run()
        assert not at.exception, at.exception
        sentence = at.success[0].value
        assert "lower cost per trained token" in sentence and "of draws" in sentence
        shown = at.table[0].value.to_string()
        for cost, p in _cli_figures():
            assert cost in shown and p in shown, (cost, p, shown)
        at.switch_page("pages/overview.py").run()
        assert any("of draws" in i.value for i in at.info), [i.value for i in at.info]


def test_the_printed_proposal_states_the_clis_figures_in_both_languages(printer: Printer) -> None:
    figures = _cli_figures()
    for lang, lowest in (("en", "of draws"), ("zh", "的抽样中最低")):
        scenario = Scenario(gpus=1024, workload=workload_from_data(DENSE_70B))
        printed = printer.document(scenario=scenario, options={"lang": lang, "edition": "internal"})
        text = re.sub(r"\s+", " ", printed.text)
        assert lowest in text
        for cost, p in figures:
            # each design's row: its cost per outcome, then (after the band) its probability
            # (pdftotext may close up the space before %)
            number = re.escape(p.removesuffix(" %")) + r" ?%"
            assert re.search(re.escape(cost) + r" .{0,40}?" + number, text), (lang, cost, p)
