"""Workshop polish (issue 13): the navigation bar lists only a role's pages and carries the
scenario's address, the "start here" box stays closed in this browser, range messages write
large numbers in full, and the proposal PDF follows the display units the reader chose.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from apptest import AUTH, fresh_session, start
from prose import english_runs
from streamlit.testing.v1 import AppTest

from planner import Scenario, load_catalog, plan
from planner.access import VIEWER_PAGES
from planner.catalog import FAMILIES
from planner.i18n import tr
from planner.report import catalog_table, display, proposal, tables
from ui import keys, workshop
from ui.workshop import onboarding

APP = Path(__file__).resolve().parents[1] / "app.py"


@pytest.fixture(autouse=True)
def _fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with fresh_session(tmp_path, monkeypatch):
        yield


def linked_pages(at: AppTest) -> list[str]:
    """The url paths the navigation bar links to ("" is the default page, the overview)."""
    found = []
    for link in at.get("page_link"):
        found.append(link.proto.page.rsplit("/", 1)[-1].removesuffix(".py") or "overview")
    return found


# --- the navigation bar ---------------------------------------------------------------------------


def test_a_viewer_sees_only_the_pages_it_may_open() -> None:
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.secrets["auth"] = AUTH
    at.user = {"is_logged_in": True, "email": "v@example.com", "name": "V", "roles": ["viewer"]}
    at.run()
    assert not at.exception, at.exception
    shown = linked_pages(at)
    assert shown, "the bar is drawn"
    assert set(shown) <= VIEWER_PAGES, sorted(set(shown) - VIEWER_PAGES)
    assert "catalog" not in shown and "bom" not in shown


def test_an_admin_sees_every_page() -> None:
    at = start()
    shown = linked_pages(at)
    assert {"catalog", "bom", "scenarios", "assumptions", "compare"} <= set(shown), shown


def test_page_links_carry_the_scenario_address() -> None:
    """Streamlit clears the query on a page switch; the app writing it back made a second history
    entry, so Back stayed on the page. The links carry the query: one entry per switch."""
    at = start()
    at.number_input(key=keys.widget("gpus")).set_value(256).run()
    queries = [link.proto.query_string for link in at.get("page_link")]
    assert queries and all("gpus=256" in query for query in queries), queries[:3]


# --- "start here" stays closed ---------------------------------------------------------------------


def _welcome_shown(at: AppTest) -> bool:
    return any(tr("welcome.title", "en") in m.value for m in at.markdown)


def test_closing_start_here_sets_the_cookie_a_new_session_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    at = start()
    assert _welcome_shown(at)
    at.button(key=keys.WELCOME_CLOSE).click().run()
    assert not _welcome_shown(at)
    scripts = "\n".join(h.proto.body for h in at.get("html"))
    assert f"{workshop.WELCOME_COOKIE}=closed" in scripts and "max-age=31536000" in scripts
    # a new session of the same browser sends the cookie back
    monkeypatch.setattr(onboarding, "welcome_remembered", lambda: True)
    again = start()
    assert not _welcome_shown(again)
    assert workshop.WELCOME_COOKIE not in "\n".join(h.proto.body for h in again.get("html"))


# --- range messages -------------------------------------------------------------------------------


def test_a_large_number_out_of_range_is_written_in_full() -> None:
    """``f"{1_000_000:,g}"`` is ``1e+06``: the message writes 1,000,000."""
    at = start()
    at.number_input(key=keys.widget("gpus")).set_value(1_000_000).run()
    [message] = [e.value for e in at.error]
    assert "1,000,000" in message and "e+" not in message, message
    assert "65,536" in message and "1,024" in message, message  # the range and the value kept


# --- the proposal follows the display units --------------------------------------------------------


def _html(units: dict[str, str], lang: str = "en") -> str:
    p = proposal.build_proposal(
        scenario=Scenario(gpus=64),
        catalog=load_catalog(),
        options=proposal.options_from_data({"lang": lang, "units": units}),
    )
    return proposal.proposal_html(p, {key: "data:," for key, _ in proposal.chart_figures(p)})


def test_the_proposal_writes_power_and_bandwidth_in_the_chosen_units() -> None:
    default = _html({})
    chosen = _html({"bandwidth": "Gb/s", "power": "BTU/h"})
    # the KPI's IT power and the power section: kW by default, BTU/h when chosen (the heat-load
    # line always shows both, so count, not presence)
    assert chosen.count("BTU/h") > default.count("BTU/h") + 3
    assert chosen.count(" kW<") < default.count(" kW<")
    # bus bandwidths (KPI cards, the glance and comparison tables): GB/s by default, Gb/s chosen
    assert chosen.count("GB/s") < default.count("GB/s") - 3
    assert chosen.count("Gb/s") > default.count("Gb/s") + 3


def test_the_chinese_proposal_groups_money_as_chosen() -> None:
    myriad = _html({}, "zh")
    million = _html({"money": "million"}, "zh")
    assert "万美元" in myriad
    assert re.search(r"\d M 美元", million), "the KPI cards in millions"


def test_the_proposal_page_passes_the_sidebar_units() -> None:
    """The Proposal page builds its options with the session's units (the cache key too)."""
    source = (Path(__file__).resolve().parents[1] / "ui" / "views" / "proposal.py").read_text("utf-8")
    assert source.count("workshop.units()") >= 2, "options and cache key"
    assert display.DisplayUnits(power="BTU/h") != display.DisplayUnits()


# --- catalog prose in Chinese: sources, units, regions ---------------------------------------------

PROSE_COLUMNS = ("name", "description", "reason", "notes", "source", "unit", "region")


def test_the_catalog_page_tables_in_chinese_hold_no_english_prose() -> None:
    """Every family as the Catalog page shows it in 中文: the prose columns (cited sources
    included: their prose translated, titles in 《》, names and addresses as published) hold no
    English phrase (``tests/prose.py``). A source without a translation fails here and in
    ``tests/test_i18n.py`` (every catalog text has a zh translation)."""
    catalog = load_catalog()
    found = []
    for family in FAMILIES:
        frame = catalog_table.family_records(catalog, family, "zh")
        for column in (c for c in PROSE_COLUMNS if c in frame):
            for cell in frame[column]:
                found += [
                    f"{family}.{column}: {run!r} in {str(cell)[:80]!r}" for run in english_runs(str(cell))
                ]
        reference = catalog_table.field_reference(family, "zh")[tr("col.description_field", "zh")]
        found += [
            f"{family} field reference: {run!r}" for cell in reference for run in english_runs(str(cell))
        ]
    assert not found, "\n".join(found)


def test_the_assumptions_page_cites_its_sources_in_chinese() -> None:
    frame = tables.assumptions_table(plan(scenario=Scenario(), catalog=load_catalog()), "zh")
    sources = [str(s) for s in frame[tr("col.source", "zh")] if s != "—"]
    assert sources and all(re.search(r"[\u4e00-\u9fff]", s) for s in sources), sources[:3]
    assert not [run for s in sources for run in english_runs(s)]
    english = tables.assumptions_table(plan(scenario=Scenario(), catalog=load_catalog()), "en")
    assert any(english_runs(str(s)) for s in english[tr("col.source", "en")]), "the check can fail"


# --- share links: the chart module is asked for with the first elements ------------------------------


def test_the_plotly_module_is_requested_once_per_session() -> None:
    """The first run sends the script that imports Streamlit's Plotly module (the file Streamlit
    ships); later runs do not send it again (the module stays loaded in the page)."""
    chunk = workshop.chart_module()
    assert chunk is not None and (Path(st.__file__).parent / "static" / "static" / "js" / chunk).is_file()
    at = start()
    first = [h.proto.body for h in at.get("html") if chunk in h.proto.body]
    assert len(first) == 1 and "import(" in first[0]
    at.number_input(key=keys.widget("gpus")).set_value(256).run()
    assert not [h for h in at.get("html") if chunk in h.proto.body]
