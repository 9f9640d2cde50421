"""Headless tests of the web app with ``streamlit.testing.v1.AppTest``.

Every page renders for every preset in both languages; inputs change the numbers; bad input,
bad links and bad uploads show messages instead of crashing; the URL carries the scenario.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from apptest import PresetWalks, rendered, reset_caches
from streamlit.testing.v1 import AppTest

from planner import Plan, Scenario, compare, i18n, load_catalog, plan
from planner.i18n import tr
from planner.report import charts, tables
from ui import inputs, keys
from ui.presets import PRESETS
from ui.upload import read_override

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"
PAGES = ("overview", "compare", "scaling", "topology", "bom", "catalog", "assumptions")


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    """``st.cache_data`` outlives an AppTest: each module starts from empty caches
    (:func:`apptest.reset_caches`)."""
    reset_caches()
    i18n.MISSING.clear()
    yield
    assert not i18n.MISSING, f"UI strings looked up without a translation: {sorted(i18n.MISSING)}"


def start(**query: str) -> AppTest:
    """The app after its first run, opened with ``query`` as the URL's parameters."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params.update(query)
    at.run()
    assert not at.exception
    return at


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def choose_language(at: AppTest, lang: str) -> None:
    at.segmented_control(key=keys.widget("lang")).set_value(lang).run()


def _begin(lang: str) -> AppTest:
    """The app's first run, then the language chosen in the sidebar."""
    at = start()
    choose_language(at, lang)
    return at


@pytest.fixture(scope="module")
def preset_pages() -> PresetWalks:
    """Every page after each preset click in each language, one session per preset and language."""
    return PresetWalks(_begin, PAGES)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("preset", [p.id for p in PRESETS])
@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_for_every_preset_and_language(
    preset_pages: PresetWalks, page: str, preset: str, lang: str
) -> None:
    visit = preset_pages(preset, lang)[page]
    assert not visit.exceptions, "\n".join(visit.exceptions)
    assert not visit.errors, visit.errors
    assert visit.title == tr(f"page.{page}", lang)
    expected = {**inputs.defaults(), **dict(PRESETS[[p.id for p in PRESETS].index(preset)].values)}
    assert visit.inputs["design"] == expected["design"]
    assert visit.inputs["gpus"] == expected["gpus"]
    assert not visit.missing, f"UI strings looked up without a translation: {sorted(visit.missing)}"


def test_every_shared_input_has_a_sidebar_widget() -> None:
    at = start()
    widgets = [*at.number_input, *at.selectbox, *at.slider, *at.segmented_control]
    drawn = {w.key for w in widgets}
    assert {keys.widget(i.name) for i in inputs.INPUTS if i.page is None} <= drawn
    at.switch_page("pages/layout.py").run()
    on_page = {w.key for w in at.number_input}
    assert {keys.widget(i.name) for i in inputs.INPUTS if i.page == "layout"} <= on_page


def test_changing_the_gpu_count_changes_the_kpis() -> None:
    at = start()
    before = metrics(at)
    at.number_input(key=keys.widget("gpus")).set_value(256).run()
    after = metrics(at)
    assert before[tr("kpi.gpus", "en")] == "1,024"
    assert after[tr("kpi.gpus", "en")] == "256"
    for key in ("kpi.nodes", "kpi.racks", "kpi.capex", "kpi.it_power"):
        assert after[tr(key, "en")] != before[tr(key, "en")], key
    capex = next(m for m in at.metric if m.label == tr("kpi.capex", "en"))
    assert capex.delta is not None and capex.delta.startswith("-"), "a smaller cluster costs less"


def test_kpis_match_the_engine() -> None:
    at = start(gpus="256", design="rail4-npo")
    expected = plan(scenario=Scenario(gpus=256, design_id="rail4-npo"), catalog=load_catalog())
    shown = metrics(at)
    assert shown[tr("kpi.nodes", "en")] == str(expected.nodes)
    assert shown[tr("kpi.switches", "en")] == str(expected.topology.switches_total)
    assert shown[tr("kpi.latency", "en")] == f"{expected.latency.gpu_to_gpu_ns:,.0f} ns"


def test_presets_are_one_click_away() -> None:
    at = start()
    at.button(key=keys.preset_button("rail4_256")).click().run()
    assert metrics(at)[tr("kpi.gpus", "en")] == "256"
    at.button(key=keys.preset_button("ib_1024")).click().run()
    assert at.session_state[keys.INPUTS]["design"] == "ib-ndr"
    assert metrics(at)[tr("kpi.gpus", "en")] == "1,024"
    assert at.button(key=keys.preset_button("ib_1024")).proto.type == "primary", "active preset marked"


def test_language_survives_page_switches() -> None:
    at = start()
    choose_language(at, "zh")
    for page in ("compare", "bom", "catalog", "overview"):
        at.switch_page(f"pages/{page}.py").run()
        assert at.title[0].value == tr(f"page.{page}", "zh")
    assert any(m.label == tr("kpi.capex", "zh") for m in at.metric)
    assert at.query_params["lang"] == ["zh"] or at.query_params["lang"] == "zh"


def test_numbers_are_formatted_for_the_language() -> None:
    at = start(lang="zh")
    assert metrics(at)[tr("kpi.capex", "zh")].endswith("万美元")
    at = start(lang="en")
    assert metrics(at)[tr("kpi.capex", "en")].startswith("$")


def test_url_opens_the_same_scenario() -> None:
    at = start(gpus="256", design="rail4-npo", lang="zh", currency="CNY", rack_kw="60", prices="br100:9000")
    values = at.session_state[keys.INPUTS]
    assert (values["gpus"], values["design"], values["lang"], values["currency"], values["rack_kw"]) == (
        256,
        "rail4-npo",
        "zh",
        "CNY",
        60.0,
    )
    assert at.session_state[keys.PRICES] == {"br100": 9000.0}
    assert metrics(at)[tr("kpi.capex", "zh")].endswith("元")
    written = {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}
    assert written["gpus"] == "256" and written["prices"] == "br100:9000"


def test_bad_link_parameters_are_ignored_with_a_message() -> None:
    at = start(gpus="abc", years="99", design="no-such-design")
    assert at.session_state[keys.INPUTS]["years"] == inputs.BY_NAME["years"].default
    assert at.session_state[keys.INPUTS]["design"] == inputs.BY_NAME["design"].default
    shown = [rendered(w.value) for w in at.warning]
    assert any("years=99" in w and "design=no-such-design" in w and "gpus=abc" in w for w in shown)


def test_engine_error_shows_next_to_the_input_and_the_page_keeps_working() -> None:
    at = start()
    at.number_input(key=keys.widget("rack_kw")).set_value(5.0).run()
    assert not at.exception
    sidebar_errors = [rendered(e.value) for e in at.sidebar.error]
    assert len(sidebar_errors) == 1 and "rack_power_limit_kw" in sidebar_errors[0]
    assert "allowed" in sidebar_errors[0]
    widgets = list(at.sidebar)
    where = widgets.index(next(w for w in widgets if getattr(w, "key", None) == keys.widget("rack_kw")))
    assert widgets[where + 1].type == "error", "the message sits right under the rack power input"
    assert at.warning, "stale results are labelled as such"
    assert metrics(at)[tr("kpi.gpus", "en")] == "1,024", "last valid results stay on screen"
    at.number_input(key=keys.widget("rack_kw")).set_value(40.0).run()
    assert not at.error and not at.sidebar.error


def test_bad_catalog_upload_shows_an_error_in_the_page() -> None:
    at = start()
    at.switch_page("pages/catalog.py").run()
    at.file_uploader(key=keys.UPLOAD).set_value(
        ("bad.yaml", b"gpus:\n  - id: br100\n    tdp_w: -5\n", "text/yaml")
    )
    at.run()
    assert not at.exception
    errors = [rendered(e.value) for e in at.error]
    assert len(errors) == 1 and "gpus[br100].tdp_w" in errors[0] and "50 to 3000" in errors[0]
    assert at.session_state[keys.CATALOG_OVERRIDE] == "", "a rejected file changes nothing"


def test_good_catalog_upload_changes_the_numbers_and_can_be_removed() -> None:
    at = start()
    capex = metrics(at)[tr("kpi.capex", "en")]
    at.switch_page("pages/catalog.py").run()
    at.file_uploader(key=keys.UPLOAD).set_value(
        ("cheap.yaml", b"gpus:\n  - id: br100\n    unit_cost_usd: 1\n", "text/yaml")
    )
    at.run()
    assert not at.error and at.success
    at.switch_page("pages/overview.py").run()
    assert metrics(at)[tr("kpi.capex", "en")] != capex
    at.switch_page("pages/catalog.py").run()
    at.button(key=keys.CLEAR_OVERRIDE).click().run()
    at.switch_page("pages/overview.py").run()
    assert metrics(at)[tr("kpi.capex", "en")] == capex


def test_editing_a_unit_price_recomputes() -> None:
    at = start()
    at.switch_page("pages/bom.py").run()
    capex = metrics(at)[tr("kpi.capex", "en")]
    version = at.session_state[keys.BOM_EDITOR_VERSION]
    gpu_row = 0  # the BOM starts with the GPU line
    at.session_state[keys.bom_editor(version)] = {
        "edited_rows": {gpu_row: {"unit_cost_usd": 1.0}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception
    assert at.session_state[keys.PRICES] == {"br100": 1.0}
    assert metrics(at)[tr("kpi.capex", "en")] != capex
    at.button(key=keys.RESET_PRICES).click().run()
    assert at.session_state[keys.PRICES] == {}
    assert metrics(at)[tr("kpi.capex", "en")] == capex


def test_currency_switch_converts_costs() -> None:
    at = start()
    at.segmented_control(key=keys.widget("currency")).set_value("CNY").run()
    assert metrics(at)[tr("kpi.capex", "en")].startswith("¥")


def test_optional_inputs_fall_back_to_the_catalog() -> None:
    at = start(currency="CNY")
    tco = metrics(at)[tr("kpi.tco", "en", years=5)]
    at.number_input(key=keys.widget("elec")).set_value(0.5).run()
    assert metrics(at)[tr("kpi.tco", "en", years=5)] != tco, "dearer energy raises the TCO"
    at.number_input(key=keys.widget("elec")).set_value(None).run()
    assert metrics(at)[tr("kpi.tco", "en", years=5)] == tco, "empty means the catalog price again"
    at.number_input(key=keys.widget("fx")).set_value(1.0).run()
    assert at.session_state[keys.INPUTS]["fx"] == 1.0
    assert metrics(at)[tr("kpi.gpu_hour", "en")].startswith("¥")
    assert at.query_params["fx"] in ("1", ["1"])


# --- ui functions the AppTest cannot reach ---------------------------------------------------


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("x.yaml", b"gpus: [id: br100", "not valid YAML"),
        ("x.json", b"{", "not valid JSON"),
        ("x.yaml", b"- 1\n- 2\n", "must be a mapping"),
        ("x.yaml", b"", "empty"),
        ("x.yaml", b"robots: []\n", "unknown section 'robots'"),
        ("x.yaml", b"gpus: {id: br100}\n", "must be a list"),
        ("x.yaml", b"gpus: [{id: br100, tdp_w: 1e9}]\n", "gpus[br100].tdp_w"),
        ("x.yaml", b"gpus: [{id: new_gpu, name: New}]\n", "gpus[new_gpu]"),
        ("x.yaml", b"designs: [{id: rail4-npo, default_gpu_id: nope}]\n", "unknown gpus id 'nope'"),
        ("x.txt", b"gpus: []\n", "expected a .yaml"),
        ("x.yaml", b"\xff\xfe", "not UTF-8"),
    ],
)
def test_upload_errors_are_messages_not_exceptions(name: str, content: bytes, expected: str) -> None:
    result = read_override(name, content)
    assert not result.ok
    assert expected in result.message
    assert "\n" not in result.message


def test_upload_accepts_a_valid_override() -> None:
    result = read_override("ok.json", b'{"gpus": [{"id": "br100", "unit_cost_usd": 9000}]}')
    assert result.ok and result.records == (("gpus", "br100"),)
    assert '"unit_cost_usd": 9000' in result.override_json


def _plans() -> tuple[Plan, ...]:
    return compare(scenario=Scenario(gpus=1024), catalog=load_catalog())


def test_winners_follow_each_metrics_direction() -> None:
    frame = tables.summary(_plans(), tables.money_of(_plans()[0]))
    best = tables.winners(frame)
    cheapest = frame.loc[frame["capex_usd"].idxmin(), "design"]
    fastest = frame.loc[frame["alltoall_busbw_gbyte_per_s"].idxmax(), "design"]
    assert best["capex_usd"] == (cheapest,)
    assert best["alltoall_busbw_gbyte_per_s"] == (fastest,)
    assert "gpus" not in best, "equal everywhere: no winner"


def test_vendor_claims_are_labelled_and_compared_with_the_model() -> None:
    plans = _plans()
    names = tables.design_names(load_catalog(), "en", plans)
    frame = tables.claims_table(plans, load_catalog(), names, "en")
    assert len(frame) == sum(len(p.claims) for p in plans) > 0
    assert set(frame[tr("col.status", "en")]) == {tr("claim_status.not verified", "en")}
    assert frame[tr("col.computed", "en")].str.contains("InfiniBand").all()


def test_radar_scores_put_the_best_design_at_one() -> None:
    scores = tables.radar_scores(_plans())
    for column in tables.RADAR_METRICS:
        assert scores[column].max() == pytest.approx(1.0)
        assert (scores[column] > 0).all()


def test_rack_groups_place_every_server() -> None:
    for preset in PRESETS:
        p = plan(
            scenario=Scenario(gpus=int(preset.values["gpus"]), design_id=str(preset.values["design"])),
            catalog=load_catalog(),
        )
        groups = tables.rack_groups(p)
        assert sum(g.count * g.nodes for g in groups) == p.nodes
        assert sum(g.count for g in groups) == p.racks.total


@pytest.mark.parametrize("gpus", [8, 1024, 16384])
def test_large_fabrics_are_drawn_collapsed(gpus: int) -> None:
    p = plan(scenario=Scenario(gpus=gpus, design_id="ib-ndr"), catalog=load_catalog())
    fig = charts.topology(p, "en")
    boxes = [
        s
        for s in fig.layout.shapes
        if s.type == "rect" and s.fillcolor != "#FFFFFF" and s.fillcolor != "#F4F7FB"
    ]
    assert len(boxes) <= 9 * (p.topology.tiers + 1)
    assert any("⋯" in a.text for a in fig.layout.annotations) == (p.nodes > 9)


def test_chart_builders_do_not_need_streamlit() -> None:
    """Chart, table and text modules are pure: the PDF export can import them without Streamlit."""
    code = (
        "import sys; import planner.report.charts, planner.report.tables, planner.i18n, planner.report.fmt, ui.inputs, ui.upload, ui.presets; "
        "sys.exit('streamlit' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0


@pytest.mark.parametrize("page", PAGES)
def test_pages_are_thin(page: str) -> None:
    """Pages compose ui/ blocks: under ~80 lines, no arithmetic, no loops (docs/architecture.md)."""
    source = (ROOT / "pages" / f"{page}.py").read_text(encoding="utf-8")
    assert len(source.splitlines()) < 80
    tree = ast.parse(source)
    banned = (ast.BinOp, ast.AugAssign, ast.For, ast.While, ast.comprehension)
    found = [type(node).__name__ for node in ast.walk(tree) if isinstance(node, banned)]
    assert not found, f"pages/{page}.py has {found}: move it to ui/"
