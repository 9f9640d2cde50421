"""The app in a workshop: grouped navigation, presentation mode and print layout, the page
language, onboarding, undo/redo and Back, ranges on inputs, display units, offline-safe and
emoji-free, and a save form that follows the scenario.

What a browser alone can show (the navigation at 1280 px, a printed page, Back in a real
history) is checked by eye with the screenshot harness; here AppTest checks what it can see:
the widgets, the session state, the URL the app writes and the style and script it sends.
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from apptest import comparison_table, fresh_session, start
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Table

from planner import Scenario
from planner.i18n import STRINGS, tr
from planner.report import display, tables
from ui import history, inputs, keys, workshop
from ui.presets import PRESETS
from ui.upload import read_override

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _fresh_caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with fresh_session(tmp_path, monkeypatch):
        yield


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def styles(at: AppTest) -> str:
    return "\n".join(h.proto.body for h in at.get("html"))


# --- navigation -------------------------------------------------------------------------------------


def _sections() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The navigation sections of app.py: (label key, page names)."""
    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "SECTIONS":
            found = ast.literal_eval(node.value)
            return tuple((label, tuple(entry[0] for entry in entries)) for label, entries in found)
    raise AssertionError("app.py defines no SECTIONS")


def test_the_frame_draws_no_stray_text() -> None:
    """A bare string in app.py is drawn by Streamlit's magic above every page."""
    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    strays = [
        n.lineno for n in tree.body[1:] if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
    ]
    assert not strays


def test_navigation_groups_every_page_once_in_few_short_sections() -> None:
    """Four sections of at most five pages fit the top bar of a 1280-px screen without "more"."""
    sections = _sections()
    pages = [name for _, names in sections for name in names]
    files = {p.stem for p in (ROOT / "pages").glob("*.py")} - {"present"}
    assert sorted(pages) == sorted(files), "every page in exactly one section"
    assert len(sections) <= 4 and all(len(names) <= 5 for _, names in sections)
    assert [label for label, _ in sections[:3]] == ["nav.design", "nav.analyse", "nav.deliver"]
    for label, _ in sections:
        assert tr(label, "zh") != tr(label, "en") and re.search(r"[\u4e00-\u9fff]", tr(label, "zh"))


def test_every_page_is_one_click_away() -> None:
    """No drop-down and no "N more": the app's own bar links every listed page, in its section's
    order, under the section name (Streamlit's top bar is hidden); none in presentation mode."""
    app = (ROOT / "app.py").read_text(encoding="utf-8")
    assert 'st.navigation(pages, position="hidden")' in app and 'position="top"' not in app
    for lang in ("en", "zh"):
        at = start(lang=lang)
        links = [(link.proto.label, link.proto.page) for link in at.get("page_link")]
        expected = [
            (tr(f"page.{name}", lang), "" if name == "overview" else name)
            for _, names in _sections()
            for name in names
        ]
        assert links == expected, links
        labels = [m.value for m in at.markdown]
        assert all(tr(label, lang) in labels for label, _ in _sections()), "section names shown"
    at = start(present="1")
    assert not at.get("page_link"), "the customer sees no navigation"
    assert ".st-key-nav_bar { display: none !important; }" in workshop.NAV_CSS, "never printed"


# --- presentation mode and print ---------------------------------------------------------------------


def test_presentation_mode_shows_the_kpis_and_the_comparison_in_large_type() -> None:
    at = start()
    assert "@media print" in styles(at) and "break-inside: avoid" in styles(at)
    assert workshop.PRESENT_CSS not in styles(at)
    at.button(key=keys.PRESENT_TOGGLE).click().run()
    assert not at.exception, at.exception
    assert at.query_params.get("present") in ("1", ["1"])
    assert workshop.PRESENT_CSS in styles(at), "large type, sidebar hidden"
    assert at.title[0].value == tr("page.present", "en")
    assert tr("kpi.capex", "en") in metrics(at)
    assert at.table, "the comparison table"
    assert not at.expander or all(e.label != tr("scenario.details", "en") for e in at.expander)
    at.button(key="present_exit").click().run()
    assert "present" not in at.query_params
    assert at.title[0].value == tr("page.overview", "en")


def test_presentation_mode_is_entered_and_left_from_any_page() -> None:
    """Every page stays registered (the presentation page hidden), so no "page not found"."""
    at = start("compare")
    at.button(key=keys.PRESENT_TOGGLE).click().run()
    assert not at.exception, at.exception
    assert at.title[0].value == tr("page.present", "en")
    at.button(key="present_exit").click().run()
    assert not at.exception, at.exception
    assert at.title[0].value != tr("page.present", "en")
    assert at.button(key=keys.PRESENT_TOGGLE), "the sidebar's controls are back"


def test_present_right_after_an_edit_shows_the_edited_scenario() -> None:
    """The click's run may carry the address from before the edit (the edit's new address still
    on its way to a loaded browser): presentation mode shows the edit, not that address."""
    at = start(gpus="512")
    at.number_input(key=keys.widget("gpus")).set_value(256).run()
    assert at.query_params["gpus"] in ("256", ["256"])
    at.query_params["gpus"] = "512"  # the browser has not applied the edit's address yet
    at.button(key=keys.PRESENT_TOGGLE).click().run()
    assert not at.exception, at.exception
    assert at.title[0].value == tr("page.present", "en")
    assert metrics(at)[tr("kpi.gpus", "en")] == "256"
    assert at.query_params["gpus"] in ("256", ["256"]), "the address follows the session"
    at.query_params["gpus"] = "64"
    at.run()  # an address edited after that is followed again
    assert at.session_state[keys.INPUTS]["gpus"] == 64


def test_a_present_link_opens_in_presentation_mode() -> None:
    at = start(present="1", gpus="256")
    assert at.title[0].value == tr("page.present", "en")
    assert metrics(at)[tr("kpi.gpus", "en")] == "256"


def test_print_stylesheet_hides_the_sidebar_and_keeps_charts_whole() -> None:
    css = workshop.PRINT_CSS
    assert css.strip().startswith("@media print") and '[data-testid="stSidebar"]' in css
    assert "display: none !important" in css and ".stPlotlyChart" in css
    assert "page-break-before: always" in css


# --- page language, offline, emoji-free ---------------------------------------------------------------


@pytest.mark.parametrize(("lang", "code"), [("en", "en"), ("zh", "zh-CN")])
def test_html_lang_follows_the_language(lang: str, code: str) -> None:
    at = start(lang=lang)
    scripts = [h.proto for h in at.get("html") if "<script>" in h.proto.body]
    assert len(scripts) == 1 and scripts[0].unsafe_allow_javascript
    assert f'document.documentElement.lang = "{code}"' in scripts[0].body
    assert at.session_state[keys.HTML_LANG] == code


EMOJI = re.compile(
    "[\U0001f000-\U0001ffff\ufe0f\u231a\u231b\u23e9-\u23f3\u2614\u2615\u26a1\u26d4\u26ea"
    "\u26f5\u26fa\u26fd\u2705\u274c\u274e\u2753-\u2755\u2757\u2795-\u2797\u27b0\u27bf\u2b50\u2b55]"
)
"""Characters drawn as colour emoji by default (Unicode Emoji_Presentation) and the emoji selector;
text symbols such as ★ and ✎ are in the ordinary fonts and stay."""


def _ui_sources() -> list[Path]:
    return [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "ui").rglob("*.py"))]


def test_no_emoji_in_the_ui() -> None:
    """A customer's locked-down laptop may lack an emoji font: icons are Material symbols, which
    Streamlit ships with its own static files."""
    found = [f"{p.name}: {m.group()}" for p in _ui_sources() for m in EMOJI.finditer(p.read_text("utf-8"))]
    found += [f"ui.po {k}" for k, v in STRINGS.items() for text in v.values() if EMOJI.search(text)]
    assert not found
    material = ROOT / ".venv/lib/python3.11/site-packages/streamlit/static/static/media"
    if material.exists():
        assert list(material.glob("MaterialSymbols-*.woff2")), "Material symbols bundled"


def test_the_app_fetches_nothing_from_the_internet() -> None:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["browser"]["gatherUsageStats"] is False
    assert config["client"]["toolbarMode"] == "minimal"
    assert not str(config.get("theme", {}).get("font", "")).startswith("http")
    remote = re.compile(r"https?://|@import|url\(")
    css = workshop.KPI_CSS + workshop.PRINT_CSS + workshop.PRESENT_CSS
    assert not remote.search(css)
    for path in _ui_sources():
        assert not re.search(r"fonts\.googleapis|cdn\.|unpkg|jsdelivr", path.read_text("utf-8")), path


# --- onboarding ---------------------------------------------------------------------------------------


def test_start_here_shows_once_and_closes_with_one_click() -> None:
    at = start()
    assert any(tr("welcome.title", "en") in m.value for m in at.markdown)
    at.button(key=keys.WELCOME_CLOSE).click().run()
    assert not any(tr("welcome.title", "en") in m.value for m in at.markdown)
    at.switch_page("pages/compare.py").run()
    assert not any(tr("welcome.title", "en") in m.value for m in at.markdown), "closed for the session"


def test_the_active_preset_is_marked() -> None:
    at = start()
    at.button(key=keys.preset_button(PRESETS[1].id)).click().run()
    types = {p.id: at.button(key=keys.preset_button(p.id)).proto.type for p in PRESETS}
    assert types[PRESETS[1].id] == "primary" and list(types.values()).count("primary") == 1


def test_edited_prices_and_a_loaded_design_are_named_and_reset_with_one_click() -> None:
    at = start(prices="br100:9000")
    banner = [m.value for m in at.markdown if tr("active.prices", "en", count=1) in m.value]
    assert banner, [m.value for m in at.markdown]
    at.button(key=keys.RESET_SCENARIO_STATE).click().run()
    assert at.session_state[keys.PRICES] == {}
    assert not [m for m in at.markdown if tr("active.prices", "en", count=1) in m.value]
    # an optimizer's design: named, and one click returns to the sidebar inputs
    scenario = Scenario(gpus=1024, design_id="rail8-npo")
    at.session_state[keys.BASE_SCENARIO] = scenario.model_dump_json()
    at.session_state[keys.BASE_ORIGIN] = {"kind": "optimizer", "label": "Lowest CAPEX"}
    at.run()
    assert any("Lowest CAPEX" in m.value for m in at.markdown)
    at.button(key=keys.RESET_SCENARIO_STATE).click().run()
    assert at.session_state[keys.BASE_SCENARIO] == ""
    assert not any("Lowest CAPEX" in m.value for m in at.markdown)


def test_an_uploaded_catalog_is_named_and_dropped_with_one_click() -> None:
    at = start()
    override = read_override("cheap.json", b'{"gpus": [{"id": "br100", "unit_cost_usd": 9000}]}')
    at.session_state[keys.CATALOG_OVERRIDE] = override.override_json
    at.session_state[keys.CATALOG_OVERRIDE_NAME] = "cheap.json"
    at.run()
    assert any("cheap\\.json" in m.value for m in at.markdown), "named (escaped for Markdown)"
    at.button(key=keys.RESET_SCENARIO_STATE).click().run()
    assert at.session_state[keys.CATALOG_OVERRIDE] == ""
    assert not any("cheap\\.json" in m.value for m in at.markdown)


# --- undo, redo, Back ----------------------------------------------------------------------------------


def test_undo_and_redo_walk_the_scenario_history() -> None:
    at = start()
    assert at.button(key=keys.UNDO).disabled and at.button(key=keys.REDO).disabled
    at.number_input(key=keys.widget("gpus")).set_value(512).run()
    at.button(key=keys.preset_button(PRESETS[2].id)).click().run()
    assert at.session_state[keys.INPUTS]["design"] == "ib-ndr"
    at.button(key=keys.UNDO).click().run()
    assert (at.session_state[keys.INPUTS]["gpus"], at.session_state[keys.INPUTS]["design"]) == (
        512,
        "rail8-npo",
    )
    at.button(key=keys.UNDO).click().run()
    assert at.session_state[keys.INPUTS]["gpus"] == 1024
    assert at.button(key=keys.UNDO).disabled and not at.button(key=keys.REDO).disabled
    at.button(key=keys.REDO).click().run()
    assert at.session_state[keys.INPUTS]["gpus"] == 512
    assert at.query_params["gpus"] in ("512", ["512"]), "the address follows"
    # a new change drops what redo could have restored
    at.number_input(key=keys.widget("gpus")).set_value(256).run()
    assert at.button(key=keys.REDO).disabled


def test_the_language_is_not_part_of_the_history() -> None:
    at = start()
    at.segmented_control(key=keys.widget("lang")).set_value("zh").run()
    assert at.button(key=keys.UNDO).disabled


def test_history_is_bounded() -> None:
    at = start()
    # the frame records the history on every run, whatever the page: the 54 runs go to the
    # Catalog page, which draws no chart (0.06 s of CPU a run against the Overview's 0.17 s)
    at.switch_page("pages/catalog.py").run()
    for gpus in range(8, 8 * (history.MAX_ENTRIES + 5), 8):
        at.session_state[keys.INPUTS]["gpus"] = gpus
        at.run()
    assert len(at.session_state[keys.HISTORY]) == history.MAX_ENTRIES


def test_browser_back_returns_to_the_previous_scenario() -> None:
    """Back reruns the app with the previous address (Streamlit pushed one per change); the app
    restores the scenario that wrote it, with what the address cannot carry."""
    at = start()
    at.session_state[keys.BASE_SCENARIO] = Scenario(gpus=1024, design_id="rail8-npo").model_dump_json()
    at.session_state[keys.BASE_ORIGIN] = {"kind": "optimizer", "label": "Lowest CAPEX"}
    at.run()
    loaded = dict(at.query_params)
    at.button(key=keys.preset_button(PRESETS[2].id)).click().run()
    assert at.session_state[keys.BASE_SCENARIO] == "" and at.query_params["design"] in ("ib-ndr", ["ib-ndr"])
    at.query_params.clear()
    at.query_params.update(loaded)  # the browser's Back
    at.run()
    assert at.session_state[keys.INPUTS]["design"] == "rail8-npo"
    assert at.session_state[keys.BASE_ORIGIN].get("label") == "Lowest CAPEX", "the loaded design is back"


def test_an_edited_address_is_followed_and_an_empty_one_is_not_a_reset() -> None:
    at = start(gpus="512")
    at.query_params.clear()
    at.run()  # a page switch may clear the query: the scenario stays
    assert at.session_state[keys.INPUTS]["gpus"] == 512
    assert at.query_params["gpus"] in ("512", ["512"])
    at.query_params["gpus"] = "64"
    at.run()
    assert at.session_state[keys.INPUTS]["gpus"] == 64


# --- ranges ---------------------------------------------------------------------------------------------


def test_every_sidebar_number_shows_its_range() -> None:
    at = start()
    for spec in inputs.INPUTS:
        if spec.kind in ("int", "float") and spec.page is None:
            widget = at.number_input(key=keys.widget(spec.name)) if spec.name != "years" else None
            label = widget.label if widget is not None else at.slider(key=keys.widget("years")).label
            assert inputs.range_text(spec.lo, spec.hi) in label, label
    assert "(1–65,536)" in at.number_input(key=keys.widget("gpus")).label
    at.switch_page("pages/layout.py").run()
    for spec in inputs.INPUTS:
        if spec.page == "layout":
            label = at.number_input(key=keys.widget(spec.name)).label
            assert inputs.range_text(spec.lo, spec.hi) in label, label


def test_a_floor_number_out_of_range_is_explained_on_its_page() -> None:
    """The Layout page's rows (1 to 500): 900 is refused under the field, the rows in use stay
    "any", and the sidebar says nothing of it."""
    at = start()
    at.switch_page("pages/layout.py").run()
    at.number_input(key=keys.widget("max_rows")).set_value(900).run()
    assert not at.exception
    [message] = [e.value for e in at.error]
    assert tr("input.max_rows", "en") in message and "1–500" in message and "900" in message
    assert at.session_state[keys.INPUTS]["max_rows"] is None
    assert not list(at.sidebar.error)


def test_a_number_out_of_range_is_explained_and_not_applied() -> None:
    at = start()
    at.number_input(key=keys.widget("rack_kw")).set_value(500.0).run()
    assert not at.exception
    [message] = [e.value for e in at.error]
    assert tr("input.rack_kw", "en") in message and "5–300" in message and "500" in message
    assert at.session_state[keys.INPUTS]["rack_kw"] == 40.0, "the last good value stays"
    at.number_input(key=keys.widget("rack_kw")).set_value(60.0).run()
    assert not at.error and at.session_state[keys.INPUTS]["rack_kw"] == 60.0


def test_page_forms_show_their_ranges() -> None:
    at = start("optimize")
    ranged = [w.label for w in at.number_input if re.search(r"\(\S*\d–\d\S*\)|（\S*\d–\d\S*）", w.label)]
    assert ranged, [w.label for w in at.number_input]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_page_form_number_out_of_range_is_explained_and_not_applied(lang: str) -> None:
    """Not only a red border: the field, its range, the typed value and the value still used."""
    at = start("workload", lang=lang)
    key = keys.field(keys.WORKLOAD_FORM, "seq_len")
    at.number_input(key=key).set_value(64).run()
    assert not at.exception, at.exception
    label = tr("wl.field.seq_len", lang)
    found = [e.value for e in at.error if label in e.value]
    assert found, [e.value for e in at.error]
    # TrainingJob.seq_len accepts 128 to 2**20 = 1,048,576 tokens; the default 4,096 stays
    assert "128–1,048,576" in found[0] and "64" in found[0] and "4,096" in found[0]
    assert at.session_state[keys.WORKLOAD_FORM]["seq_len"] == 4096
    assert at.number_input(key=key).value == 4096, "the widget shows the value in use"
    at.number_input(key=key).set_value(8192).run()
    assert not [e for e in at.error if label in e.value]
    assert at.session_state[keys.WORKLOAD_FORM]["seq_len"] == 8192


def test_a_submitted_form_explains_an_out_of_range_number() -> None:
    """The optimizer's limits are an ``st.form``: checked when submitted."""
    at = start("optimize")
    at.number_input(key=keys.field(keys.OPT_FORM, "max_gpus")).set_value(0)
    at.button(key=keys.OPT_SUBMIT).click().run()
    assert not at.exception, at.exception
    label = tr("opt.field.max_gpus", "en")
    [message] = [e.value for e in at.error if label in e.value]
    assert "1–1,048,576" in message and ": 0 " in message
    assert at.session_state[keys.OPT_FORM]["max_gpus"] == 16384


# --- display units ----------------------------------------------------------------------------------------


def test_unit_toggles_change_the_kpis_not_the_plan() -> None:
    at = start()
    before = metrics(at)
    at.segmented_control(key=f"{keys.UNITS}_bandwidth").set_value("Gb/s").run()
    at.segmented_control(key=f"{keys.UNITS}_power").set_value("BTU/h").run()
    after = metrics(at)
    busbw = tr("kpi.allreduce", "en")
    assert before[busbw].endswith("GB/s") and after[busbw].endswith("Gb/s")
    gbyte = float(before[busbw].split()[0].replace(",", ""))
    gbit = float(after[busbw].split()[0].replace(",", ""))
    assert gbit == pytest.approx(8 * gbyte, abs=1)  # 8 bits per byte
    assert after[tr("kpi.it_power", "en")].endswith("BTU/h")
    assert before[tr("kpi.capex", "en")] == after[tr("kpi.capex", "en")]


def _chart_titles(at: AppTest) -> str:
    """Every chart's axis and subplot titles (the Plotly JSON the app sends)."""
    return "\n".join(c.proto.spec.replace("\\u002f", "/") for c in at.get("plotly_chart"))  # JSON escapes "/"


def _number(cell: object) -> float:
    """A table cell's number (``"1,635.2 ★"`` -> 1635.2)."""
    return float(str(cell).rstrip(" ★").replace(",", ""))


def test_unit_toggles_reach_the_comparison_table_and_charts() -> None:
    at = start("compare")
    capex_label = tables.metric_label("capex_usd", "USD", "en")
    before = comparison_table(at)
    assert "[Gb/s]" not in _chart_titles(at) and "BTU/h" not in _chart_titles(at)
    at.segmented_control(key=f"{keys.UNITS}_bandwidth").set_value("Gb/s").run()
    at.segmented_control(key=f"{keys.UNITS}_power").set_value("BTU/h").run()
    assert not at.exception, at.exception
    after = comparison_table(at)
    rows = list(after.index)
    busbw = tables.metric_label("allreduce_busbw_gbyte_per_s", "USD", "en")
    assert busbw.endswith("[GB/s]") and busbw.replace("[GB/s]", "[Gb/s]") in rows
    assert tables.metric_label("it_kw", "USD", "en").replace("[kW]", "[BTU/h]") in rows
    design = after.columns[0]
    gbyte = _number(before.loc[busbw, design])
    gbit = _number(after.loc[busbw.replace("[GB/s]", "[Gb/s]"), design])
    assert gbit == pytest.approx(8 * gbyte, abs=0.5)  # 8 bits per byte
    assert before.loc[capex_label, design] == after.loc[capex_label, design], "money unchanged"
    titles = _chart_titles(at)
    assert "busbw [Gb/s]" in titles, "the busbw curve's axis"
    assert "[BTU/h]" in titles and "[Gb/s]" in titles, "the grouped bars' panels"


def test_chinese_tables_group_money_as_chosen() -> None:
    at = start("compare", lang="zh")
    capex = tables.metric_label("capex_usd", "USD", "zh")
    cell = str(comparison_table(at).loc[capex].iloc[0])
    assert "万" in cell or "亿" in cell, cell
    at.segmented_control(key=f"{keys.UNITS}_money").set_value("million").run()
    cell = str(comparison_table(at).loc[capex].iloc[0])
    assert cell.rstrip(" ★").endswith(" M"), cell


def test_chinese_readers_choose_between_myriads_and_millions() -> None:
    at = start(lang="zh")
    assert "万" in metrics(at)[tr("kpi.capex", "zh")] or "亿" in metrics(at)[tr("kpi.capex", "zh")]
    at.segmented_control(key=f"{keys.UNITS}_money").set_value("million").run()
    # the default 1024-GPU rail8-npo plan: 47,766,920 USD (48,142,278 with every cable at the
    # scenario's one length per link class, tests/test_ports.py; the layout's lengths save
    # 375,358 USD, tests/test_cable_lengths.py)
    assert metrics(at)[tr("kpi.capex", "zh")].startswith("47.8 M")


def test_unit_choices_cover_the_display_units() -> None:
    assert set(workshop.UNIT_CHOICES["bandwidth"][1]) == set(display.BANDWIDTH_UNITS)
    assert set(workshop.UNIT_CHOICES["power"][1]) == set(display.POWER_UNITS)
    assert set(workshop.UNIT_CHOICES["money"][1]) == set(display.MONEY_GROUPINGS)
    # 1 kW = 3,412.142 BTU/h (NIST SP 811): 1,000 kW -> 3.41 M BTU/h
    assert display.power(1000, "BTU/h") == "3.41 M BTU/h"


def test_bom_prices_are_edited_in_the_display_currency() -> None:
    at = start(currency="CNY")
    at.switch_page("pages/bom.py").run()
    version = at.session_state[keys.BOM_EDITOR_VERSION]
    at.session_state[keys.bom_editor(version)] = {
        "edited_rows": {0: {"unit_cost_report": 100_000.0}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception, at.exception
    [(record_id, usd)] = at.session_state[keys.PRICES].items()
    assert record_id == "br100"
    # 100,000 CNY at the catalog's CNY-per-USD rate (about 7.2) is about 13,900 USD
    assert 10_000 < usd < 20_000, usd


# --- share links ---------------------------------------------------------------------------------------


def test_a_new_session_reuses_the_overview_figures(
    monkeypatch: pytest.MonkeyPatch, cold_caches: None
) -> None:
    """A share link opens a new session: on a warm server its Overview charts come from the
    shared cache, not rebuilt (building them was most of the server's work, bench/share_link.py)."""
    from planner.report import charts

    built: list[str] = []
    real = charts.cost_by_category

    def counting(plan: object, lang: str) -> object:
        built.append(lang)
        return real(plan, lang)  # type: ignore[arg-type]

    monkeypatch.setattr(charts, "cost_by_category", counting)
    start(gpus="512")
    assert built == ["en"]
    at = start(gpus="512")  # another visitor, the same scenario
    assert built == ["en"], "not rebuilt"
    assert at.get("plotly_chart"), "still drawn"
    start(gpus="512", lang="zh")
    assert built == ["en", "zh"], "one figure per language"


def test_scenario_details_are_built_only_when_opened() -> None:
    """The Overview's closed "Scenario details" expander sends no table (a new session's browser
    then loads no Arrow table modules, bench/share_link.py); opened, the scenario's table is there."""
    at = start()
    [details] = [e for e in at.expander if e.label == tr("scenario.details", "en")]
    assert not details.get("table"), "closed: no table sent"
    at.session_state[keys.SCENARIO_DETAILS] = True  # what clicking the expander sets
    at.run()
    assert not at.exception, at.exception
    [details] = [e for e in at.expander if e.label == tr("scenario.details", "en")]
    [shown] = details.get("table")
    assert isinstance(shown, Table) and not shown.value.empty


# --- the save form follows the scenario -------------------------------------------------------------------


def test_save_form_resets_and_save_as_new_leads_after_a_design_switch() -> None:
    at = start("scenarios")
    at.text_input(key=keys.field(keys.SAVE_FORM, "name")).input("Acme rail8")
    at.text_input(key=keys.field(keys.SAVE_FORM, "customer")).input("Acme")
    at.button(key=keys.SAVE_NEW).click().run()
    assert not at.exception and at.session_state[keys.OPENED]["name"] == "Acme rail8"
    assert at.button(key=keys.SAVE_VERSION).proto.type == "primary"
    assert at.button(key=keys.SAVE_NEW).proto.type == "secondary"
    at.selectbox(key=keys.widget("design")).set_value("ib-ndr").run()
    assert at.button(key=keys.SAVE_NEW).proto.type == "primary", "a new scenario is the first choice"
    assert at.button(key=keys.SAVE_VERSION).proto.type == "secondary"
    assert at.text_input(key=keys.field(keys.SAVE_FORM, "name")).value == ""
    assert at.text_input(key=keys.field(keys.SAVE_FORM, "customer")).value == "Acme"
    assert any("Acme rail8" in i.value for i in at.info)
    # back to the opened design: its version is the primary action again
    at.selectbox(key=keys.widget("design")).set_value("rail8-npo").run()
    assert at.button(key=keys.SAVE_VERSION).proto.type == "primary"
