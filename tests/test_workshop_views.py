"""Workshop views for each reader (issue 29): the "start here" box names only pages the reader's
role may open (a viewer was sent to Optimize and Scenarios, which refuse it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from apptest import APP, AUTH
from streamlit.testing.v1 import AppTest

from planner import Catalog
from planner.i18n import tr


@pytest.fixture(autouse=True)
def _own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PLANNER_DATABASE_URL", raising=False)
    monkeypatch.setenv("PLANNER_DB_PATH", str(tmp_path / "scenarios.db"))


@pytest.mark.parametrize(("role", "key"), [("viewer", "welcome.body_viewer"), ("architect", "welcome.body")])
def test_start_here_names_only_pages_the_reader_may_open(role: str, key: str) -> None:
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.secrets["auth"] = AUTH
    at.user = {"is_logged_in": True, "email": f"{role}@example.com", "name": role.title(), "roles": [role]}
    at.run()
    assert not at.exception, at.exception
    shown = [m.value for m in at.markdown]
    assert tr(key, "en") in shown
    if role == "viewer":
        assert not any(tr("page.scenarios", "en") in text for text in shown)


def test_retyping_the_value_in_use_clears_the_range_message() -> None:
    """Issue 29: "70,000 is outside … still using 1,024" stayed on every page after a valid value
    (typing the value still in use changed nothing in the reset field, so nothing cleared it)."""
    from apptest import start

    from ui import keys

    at = start()
    field = keys.widget("gpus")
    at.number_input(key=field).set_value(70000).run()
    assert [e for e in at.error if "70000" in e.value or "70,000" in e.value]
    assert at.number_input(key=field).value == 70000, "the field shows what was typed"
    at.number_input(key=field).set_value(1024).run()
    assert not at.error and at.session_state[keys.INPUTS]["gpus"] == 1024
    at.switch_page("pages/compare.py").run()
    assert not at.error


def test_the_optimizer_names_what_it_changes_beyond_the_objective() -> None:
    """Issue 29: the lowest-CAPEX result switched to air cooling and added 414 kW of facility power
    (+29 %) for a 2.2 % saving without a word. Every such change is named, and a large one must be
    accepted before the design can be taken over."""
    from apptest import start

    from ui import keys

    at = start("optimize")
    at.button(key=keys.OPT_SUBMIT).click().run()
    assert not at.exception, at.exception
    warnings = [str(w.value) for w in at.warning if tr("opt.changes_title", "en") in str(w.value)]
    load = at.button(key=keys.OPT_LOAD_RESULT)
    accept = [c for c in at.checkbox if c.key == keys.OPT_ACCEPT_CHANGES]
    if accept:  # a large change: the button waits for the architect's consent
        assert warnings and load.disabled
        accept[0].check().run()
        assert not at.button(key=keys.OPT_LOAD_RESULT).disabled
    else:
        assert not load.disabled


def test_a_change_of_cooling_or_a_tenth_more_power_is_large(catalog: Catalog) -> None:
    from planner import Scenario, plan
    from planner.optimize.changes import material_changes

    liquid = plan(scenario=Scenario(gpus=1024), catalog=catalog)
    air = plan(scenario=Scenario(gpus=1024, facility={"cooling_id": "air"}), catalog=catalog)
    changes = {c.kind: c for c in material_changes(preset=liquid, optimized=air)}
    assert changes["cooling"].large and (changes["cooling"].before, changes["cooling"].after) == (
        "direct_liquid",
        "air",
    )
    power = changes["facility_power"]
    before, after = float(power.before), float(power.after)
    # PUE 1.15 (direct liquid) vs the air record's PUE: the same IT load, more facility power
    assert after > before and power.relative == pytest.approx(after / before - 1)
    assert material_changes(preset=liquid, optimized=liquid) == ()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tenants_comparison_and_map_read_as_the_app_writes(lang: str) -> None:
    """Issue 29: the Tenants comparison showed ``400.000000``, ``2.281000`` and raw design ids in
    中文, and the tenant map had no legend."""
    import json
    import re

    from apptest import start

    from planner import load_catalog
    from planner.report import tables

    at = start("tenants", gpus="1024", design="rail8-npo", lang=lang)
    assert not at.exception, at.exception
    compare = at.table[-1].value  # the comparison is the page's last table before a simulation
    cells = [str(v) for v in compare.to_numpy().ravel()]
    assert not [c for c in cells if re.fullmatch(r"-?\d+\.\d{4,}", c)], cells
    names = tables.design_names(load_catalog(), lang)
    assert "rail8-npo" not in cells and names["rail8-npo"] in cells
    figure = json.loads(at.get("plotly_chart")[0].proto.spec)
    legend = [d["name"] for d in figure["data"] if d.get("showlegend")]
    assert legend and len(legend) == len(set(legend)), "one legend entry per tenant"


def test_serving_charts_use_the_design_colours_and_keep_legends_off_the_axes() -> None:
    """Issue 29: the Serving legends covered axis titles and design labels, and its design colours
    differed from every other page."""
    import json

    from apptest import start

    from planner.report.charts import DESIGN_COLORS

    at = start("serving", lang="en")
    assert not at.exception, at.exception
    figures = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    tpot = figures[0]
    colours = {d["line"]["color"] for d in tpot["data"]}
    assert colours and colours <= set(DESIGN_COLORS.values())
    for figure in figures:
        legend = figure["layout"].get("legend", {})
        if figure["layout"].get("showlegend", True) and legend:
            assert legend.get("y", 1.0) < 0 and legend.get("orientation") == "h", "below the plot"


def test_a_share_link_carries_the_language(tmp_path: Path) -> None:
    """Issue 29: share links carried no language; a Chinese workshop's link opened in English."""
    from apptest import start

    from planner import Scenario
    from planner.store import open_store
    from ui import keys

    with open_store(path=tmp_path / "scenarios.db") as store:
        saved = store.create(name="Golf", scenario=Scenario(gpus=256))
    at = start(scenario=str(saved.id), lang="zh")
    at.switch_page("pages/scenarios.py").run()
    links = [c.value for c in at.code if f"scenario={saved.id}" in c.value]
    assert links and all(link.endswith("&lang=zh") for link in links), links
    again = start(**dict(part.split("=") for part in links[0].split("?", 1)[1].split("&")))
    assert again.session_state[keys.INPUTS]["lang"] == "zh"
