"""The Tenants page in both languages: the table, the placement summary and cards, the design
comparison, a simulation run from the form, and the tenant set kept with the scenario (saved with
it, opened with it)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from apptest import start
from streamlit.testing.v1 import AppTest

from planner import Scenario
from planner.i18n import MISSING, tr
from planner.store import ScenarioStore, open_store
from ui import keys


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tenants_page_places_the_example_and_simulates(lang: str) -> None:
    MISSING.clear()
    at = start("tenants", gpus="1024", design="rail8-npo", lang=lang)
    assert at.title[0].value == tr("page.tenants", lang)
    subheaders = [s.value for s in at.subheader]
    for key in ("tn.editor", "tn.summary", "tn.cards", "tn.map", "tn.compare", "tn.sim"):
        assert tr(key, lang) in subheaders
    # the default four tenants (the README example) fit 1024 GPUs on rail8-npo: no unmet guarantee
    assert [s.value for s in at.success] == [tr("tn.all_met", lang)]
    assert len(at.get("plotly_chart")) == 1  # the placement map
    next(n for n in at.number_input if n.label == tr("tn.sim.jobs", lang)).set_value(300)
    next(b for b in at.button if b.label == tr("tn.sim.run", lang)).click().run()
    assert not at.exception, at.exception
    assert len(at.get("plotly_chart")) == 3  # the map, utilisation and fragmentation over time
    assert not MISSING, MISSING


# --- the tenant set kept with the scenario ------------------------------------------------------


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ScenarioStore]:
    """The app's scenario store (a SQLite file of this test) and a handle on it."""
    path = tmp_path / "scenarios.db"
    monkeypatch.delenv("PLANNER_DATABASE_URL", raising=False)
    monkeypatch.setenv("PLANNER_DB_PATH", str(path))
    with open_store(path=path) as handle:
        yield handle


def _captions(at: AppTest) -> list[str]:
    return [str(c.value) for c in at.caption]


def test_keeping_the_table_puts_it_in_the_scenario_and_the_save(store: ScenarioStore) -> None:
    at = start("tenants", gpus="256", design="rail8-npo")
    assert tr("tn.example", "en") in _captions(at)
    assert keys.TENANTS not in at.session_state
    at.button(key="tenants_keep").click().run()
    assert not at.exception, at.exception
    assert tr("tn.in_scenario", "en") in _captions(at)
    kept = json.loads(at.session_state[keys.TENANTS])
    # the example's shares of 256 GPUs: 128 / 64 / 32 / 32
    assert [(t["name"], t["gpus"]) for t in kept] == [
        ("foundation", 128),
        ("finetune", 64),
        ("inference", 32),
        ("research", 32),
    ]
    # saving the scenario keeps the set
    at.switch_page("pages/scenarios.py").run()
    at.text_input(key=keys.field(keys.SAVE_FORM, "name")).input("Shared 256")
    at.button(key=keys.SAVE_NEW).click().run()
    assert not at.exception, at.exception
    [saved] = store.list_scenarios()
    assert [t.name for t in store.load(scenario_id=saved.id).scenario.tenants] == [t["name"] for t in kept]
    # removing it leaves the scenario without tenants
    at.switch_page("pages/tenants.py").run()
    at.button(key="tenants_remove").click().run()
    assert json.loads(at.session_state[keys.TENANTS]) == []
    assert tr("tn.example", "en") in _captions(at)


def test_a_saved_scenario_opens_with_its_tenants(store: ScenarioStore) -> None:
    tenants = [{"name": "only", "gpus": 64, "isolation": "leaf", "bandwidth_gbit_per_s_per_gpu": 100.0}]
    saved = store.create(
        name="One tenant", scenario=Scenario(gpus=128, design_id="rail8-npo", tenants=tenants)
    )
    at = start(scenario=str(saved.id), lang="zh")
    at.switch_page("pages/tenants.py").run()
    assert not at.exception, at.exception
    assert tr("tn.in_scenario", "zh") in _captions(at)
    # the cards show the saved tenant, not the example
    assert any("only" in str(m.value) for m in at.markdown)
    assert not any("foundation" in str(m.value) for m in at.markdown)
