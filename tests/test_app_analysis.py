"""Headless tests of the Optimize, Workload, Reliability and Scenarios pages (``AppTest``).

Every page renders for every preset in both languages; the optimizer's form gives a result
beside the preset, an infeasible limit is explained next to its input, and a Pareto point loads
its design into the app; the workload and reliability forms name a rejected field; saved
scenarios go through save, list, open, new version, conflict, save-as-new, trash and restore,
import and share links. The store is a temporary SQLite file (``PLANNER_DB_PATH``).
"""

from __future__ import annotations

import ast
import doctest
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from apptest import PresetWalks, comparison_table, rendered, reset_caches, start
from streamlit.testing.v1 import AppTest

import planner.report.performance_tables
import ui.forms
import ui.views.optimize
import ui.views.scenarios
from planner import Scenario, i18n, load_catalog, plan
from planner.i18n import tr
from planner.inputs.optimize import request_from_data
from planner.optimize import optimize
from planner.optimize.pareto import bandwidth_front
from planner.report import fmt
from planner.report.performance_tables import escape_markdown, pareto_choice
from planner.store import ScenarioStore, open_store
from ui import inputs, keys, widgets
from ui.presets import PRESETS

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"
PAGES = ("optimize", "workload", "reliability", "scenarios")
PURE_MODULES = (
    "planner.report.performance_tables",
    "planner.report.performance_charts",
    "planner.i18n",
)


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    """``st.cache_data`` and ``st.cache_resource`` (the store handle) outlive an AppTest: each
    module starts from empty caches, each test with its own store (:func:`apptest.reset_caches`)."""
    reset_caches()
    i18n.MISSING.clear()
    yield
    assert not i18n.MISSING, f"UI strings looked up without a translation: {sorted(i18n.MISSING)}"


@pytest.fixture(autouse=True)
def db_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own scenario store: a SQLite file in its temporary folder."""
    path = tmp_path / "scenarios.db"
    monkeypatch.delenv("PLANNER_DATABASE_URL", raising=False)
    monkeypatch.setenv("PLANNER_DB_PATH", str(path))
    return path


@pytest.fixture
def store(db_path: Path) -> Iterator[ScenarioStore]:
    """A second handle on the app's database: another user, or the CLI, working at the same time."""
    with open_store(path=db_path) as handle:
        yield handle


def texts(elements: object) -> list[str]:
    return [str(e.value) for e in elements]  # type: ignore[attr-defined]


def rendered_texts(elements: object) -> list[str]:
    """Error and warning lines as rendered: user values in them are escaped Markdown."""
    return [rendered(text) for text in texts(elements)]


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click().run()
    assert not at.exception, at.exception
    return at


def row(frame: pd.DataFrame, label: str) -> list[str]:
    """The cells of one row of a side-by-side table."""
    return [str(v) for v in frame.loc[label]]


def field(form: str, name: str) -> str:
    return keys.field(form, name)


# --- every page ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def preset_pages() -> PresetWalks:
    """Every page after each preset click in each language (the language from the URL), one
    session per preset and language."""
    return PresetWalks(lambda lang: start(lang=lang), PAGES)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("preset", [p.id for p in PRESETS])
@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_for_every_preset_and_language(
    preset_pages: PresetWalks, page: str, preset: str, lang: str
) -> None:
    visit = preset_pages(preset, lang)[page]
    assert not visit.exceptions, "\n".join(visit.exceptions)
    assert not visit.errors, [rendered(text) for text in visit.errors]
    assert visit.title == tr(f"page.{page}", lang)
    expected = dict(next(p for p in PRESETS if p.id == preset).values)
    assert visit.inputs["gpus"] == expected["gpus"]
    assert not visit.missing, f"UI strings looked up without a translation: {sorted(visit.missing)}"


@pytest.mark.parametrize("page", PAGES)
def test_pages_are_thin(page: str) -> None:
    """Pages compose ui/ blocks: under ~80 lines, no arithmetic, no loops (docs/architecture.md)."""
    source = (ROOT / "pages" / f"{page}.py").read_text(encoding="utf-8")
    assert len(source.splitlines()) < 80
    banned = (ast.BinOp, ast.AugAssign, ast.For, ast.While, ast.comprehension)
    found = [type(node).__name__ for node in ast.walk(ast.parse(source)) if isinstance(node, banned)]
    assert not found, f"pages/{page}.py has {found}: move it to ui/"


def test_new_pages_are_in_the_navigation() -> None:
    source = APP.read_text(encoding="utf-8")
    for page in PAGES:
        assert f'("{page}", "page.{page}"' in source


def test_builders_do_not_need_streamlit() -> None:
    code = f"import sys; import {', '.join(PURE_MODULES)}; sys.exit('streamlit' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0


def test_no_user_text_is_rendered_as_html() -> None:
    """Names and notes are escaped; nothing in the new modules turns HTML on."""
    for name in ("views/optimize", "views/workload", "views/reliability", "views/scenarios", "forms"):
        assert "unsafe_allow_html" not in (ROOT / "ui" / f"{name}.py").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "module",
    [planner.report.performance_tables, ui.forms, ui.views.optimize, ui.views.scenarios],
    ids=lambda m: m.__name__,
)
def test_doctests(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0


# --- Optimize -------------------------------------------------------------------------------------


def test_optimize_shows_the_result_beside_the_preset() -> None:
    at = start("optimize")
    assert any(tr("opt.start", "en") in i for i in texts(at.info))
    click(at, keys.OPT_SUBMIT)
    assert not at.error, rendered_texts(at.error)
    shown = metrics(at)
    assert shown[tr("opt.kpi.status", "en")] == tr("opt.status.optimal", "en")
    assert shown[tr("opt.kpi.solver", "en")] in ("HiGHS", "CBC", "engine check")
    assert shown[tr("opt.kpi.gap", "en")] in ("0 %", "—")
    assert shown[tr("opt.kpi.time", "en")].endswith(" s")
    # the engine's own answer for the same scenario and request
    expected = optimize(
        scenario=Scenario(gpus=1024, design_id="rail8-npo"),
        catalog=load_catalog(),
        request=request_from_data({}),
    )
    assert expected.saving_vs_preset_usd is not None
    assert shown[tr("opt.kpi.saving_capex", "en")] == fmt.money(expected.saving_vs_preset_usd, "USD", "en")
    side_by_side, choices = at.table[0], at.table[1]
    preset_label = tr("opt.col.preset", "en", name="8-rail RoCE with NPO optics")
    assert list(side_by_side.value.columns) == [preset_label, tr("opt.col.optimized", "en")]
    capex_row = side_by_side.value.loc[f"{tr('metric.capex_usd', 'en')} [USD]"]
    assert capex_row.iloc[1].startswith(fmt.compact(expected.plan.cost.capex_usd, "en").split(" ")[0])
    rows = list(choices.value.index)
    for wanted in ("opt.choice.tiers", "opt.choice.cooling"):
        assert tr(wanted, "en") in rows
    assert tr("opt.choice.switch", "en", tier=tr("tier.leaf", "en")) in rows
    assert tr("opt.choice.medium", "en", link=tr("link_class.node_leaf", "en")) in rows
    assert at.radio(key=keys.OPT_PARETO_KIND).value == "bandwidth"
    assert len(at.table) >= 3, "the Pareto points are listed"


def test_the_result_stays_while_the_sidebar_changes() -> None:
    at = start("optimize")
    click(at, keys.OPT_SUBMIT)
    at.number_input(key=keys.widget("gpus")).set_value(256).run()
    assert any("1,024 GPUs" in i for i in texts(at.info)), "the result names the scenario it was solved for"
    assert metrics(at)[tr("opt.kpi.status", "en")] == tr("opt.status.optimal", "en")


def test_infeasible_power_cap_names_the_binding_limit_next_to_its_input() -> None:
    at = start("optimize")
    at.number_input(key=field(keys.OPT_FORM, "power_cap_kw")).set_value(100.0)
    click(at, keys.OPT_SUBMIT)
    errors = rendered_texts(at.error)
    assert any(tr("opt.infeasible_title", "en") in e and "short by" in e for e in errors), errors
    under = [e for e in errors if e.startswith(tr("opt.field.power_cap_kw", "en"))]
    assert len(under) == 1 and "power_cap_kw: the cap of 100 kW" in under[0]
    assert not at.metric, "no result is shown"
    at.number_input(key=field(keys.OPT_FORM, "power_cap_kw")).set_value(None)
    click(at, keys.OPT_SUBMIT)
    assert not at.error and at.metric, "the page works again once the cap is lifted"


def test_most_gpus_without_a_limit_is_refused_at_the_form() -> None:
    at = start("optimize", lang="zh")
    at.radio(key=field(keys.OPT_FORM, "objective")).set_value("max-gpus")
    click(at, keys.OPT_SUBMIT)
    errors = rendered_texts(at.error)
    assert len(errors) == 1, errors
    assert tr("opt.field.objective", "zh") in errors[0] and "budget_usd or power_cap_kw" in errors[0]
    assert not at.metric, "no run starts"


def test_most_gpus_within_a_power_feed() -> None:
    at = start("optimize")
    at.radio(key=field(keys.OPT_FORM, "objective")).set_value("max-gpus")
    at.number_input(key=field(keys.OPT_FORM, "power_cap_kw")).set_value(500.0)
    click(at, keys.OPT_SUBMIT)
    gpus = int(metrics(at)[tr("opt.kpi.gpus", "en")].replace(",", ""))
    assert 0 < gpus < 1024


def test_loading_the_optimized_design_changes_every_page() -> None:
    at = start("optimize")
    click(at, keys.OPT_SUBMIT)
    for accept in [c for c in at.checkbox if c.key == keys.OPT_ACCEPT_CHANGES]:
        accept.check().run()  # a large change of cooling, power or racks is accepted first
    click(at, keys.OPT_LOAD_RESULT)
    assert any(tr("opt.legend.optimized", "en") in s for s in texts(at.success))
    assert any("browser session" in i for i in texts(at.info)), "the page says the fabric is not in the link"
    base = json.loads(at.session_state[keys.BASE_SCENARIO])
    assert base["fabric"] is not None
    at.switch_page("pages/overview.py").run()
    assert "(custom)" in at.caption[0].value, "the overview shows the custom fabric"
    expected = optimize(
        scenario=Scenario(gpus=1024, design_id="rail8-npo"),
        catalog=load_catalog(),
        request=request_from_data({}),
    )
    assert metrics(at)[tr("kpi.capex", "en")] == fmt.money(expected.plan.cost.capex_usd, "USD", "en")
    at.switch_page("pages/compare.py").run()
    columns = [str(c) for c in comparison_table(at).columns]
    assert any("(custom)" in c for c in columns), (
        f"Compare puts the custom design beside the presets: {columns}"
    )
    at.button(key=keys.preset_button("rail4_256")).click().run()
    assert at.session_state[keys.BASE_SCENARIO] == "", "a preset drops the loaded fabric"


def _click_a_pareto_point() -> None:
    """Runs as an app script: the Pareto chart's ``on_select`` handler, given a selection."""
    import streamlit as st

    from planner import Scenario
    from ui import engine, state
    from ui.views import optimize

    state.init()
    scenario = Scenario(gpus=1024, design_id="rail8-npo")
    front = engine.front("bandwidth", scenario.model_dump_json(), '{"objective": "capex"}')
    assert front is not None  # not cancelled
    st.session_state["pareto_chart"] = {
        "selection": {"points": [{"curve_number": 0, "point_index": 2, "customdata": [2]}]}
    }
    optimize.on_point_selected("pareto_chart", front.points)
    st.session_state["expected_scenario"] = front.points[2].scenario.model_dump_json()


def test_clicking_a_pareto_point_loads_that_design_into_the_app() -> None:
    clicked = AppTest.from_function(_click_a_pareto_point, default_timeout=90)
    clicked.run()
    assert not clicked.exception, clicked.exception
    expected = clicked.session_state["expected_scenario"]
    assert clicked.session_state[keys.BASE_SCENARIO] == expected
    assert clicked.session_state[keys.BASE_ORIGIN]["kind"] == "optimizer"
    point = Scenario.model_validate_json(expected)
    assert clicked.session_state[keys.INPUTS]["design"] == point.design_id
    # the other pages show the loaded design: carry the session into the full app
    at = AppTest.from_file(str(APP), default_timeout=90)
    for key in (
        keys.INPUTS,
        keys.PRICES,
        keys.BOM_EDITOR_VERSION,
        keys.BASE_SCENARIO,
        keys.BASE_ORIGIN,
    ):
        at.session_state[key] = clicked.session_state[key]
    at.run()
    assert not at.exception
    loaded = plan(scenario=point, catalog=load_catalog())
    shown = metrics(at)
    assert shown[tr("kpi.switches", "en")] == fmt.number(loaded.topology.switches_total)
    assert shown[tr("kpi.capex", "en")] == fmt.money(loaded.cost.capex_usd, "USD", "en")
    assert shown[tr("kpi.per_gpu_bw", "en")] == f"{fmt.number(loaded.bandwidth.per_gpu_gbit_per_s)} Gb/s"


def test_a_selection_names_its_point_by_index() -> None:
    front = bandwidth_front(
        scenario=Scenario(gpus=64, design_id="rail4-npo"),
        catalog=load_catalog(),
        request=request_from_data({}),
    )
    assert pareto_choice(front, [{"customdata": [1]}]) is front[1]
    assert pareto_choice(front, [{"customdata": 0}]) is front[0]
    assert pareto_choice(front, [{"point_index": 0}]) is None, "reference markers carry no index"
    assert pareto_choice(front, [{"customdata": [99]}]) is None
    assert pareto_choice(front, []) is None


# --- Workload and Reliability ----------------------------------------------------------------------


def test_workload_puts_every_design_side_by_side() -> None:
    at = start("workload", gpu="h100_sxm")
    assert not at.error, rendered_texts(at.error)
    table = at.table[0].value
    assert len(table.columns) == 3
    # training model v2 (docs/model.md, training): the search also picks v = 6 interleaving,
    # selective recomputation and ZeRO-2; compute = model + recomputed FLOPs / (peak x fitted eta),
    # plus the optimizer step (42 B per parameter of the ZeRO shard at the HBM bandwidth)
    # the memory reserve counts a pipeline communicator across the network at NCCL's shared
    # send/receive buffers (0.134 GB, training_nccl_p2p_net_gbyte_per_communicator) instead of a
    # collective communicator's 0.688 GB, which lets PP 2 with ZeRO-2 fit (85.1 GB with the
    # reserve) on the RoCE designs; on InfiniBand the search keeps PP 4 (84.96 GB) as before
    assert row(table, tr("wl.row.layout", "en")) == ["2×2×256", "2×2×256", "2×4×128"]
    step = row(table, f"{tr('wl.row.step_time', 'en')} [s]")
    # kernel efficiency 0.648 unbounded; the H100 BF16 kernel-efficiency bound (0.566,
    # data/training.yaml training_kernel_efficiency_bound_h100_sxm_bf16) scales each design's
    # compute by 0.648 / 0.566 = 1.145, and each design's exposed communication and bubble are
    # counted on top: 3.686 / 3.680 / 3.774 s (`planner workload --gpus 1024 --gpu h100_sxm
    # --params-b 70 --tokens-b 1400 --designs rail4-npo,rail8-npo,ib-ndr --format json`)
    assert [s.rstrip(" ★") for s in step] == ["3.69", "3.68", "3.77"], "the README's reference table"
    assert any(label.startswith(tr("wl.row.cost_to_train", "en")) for label in table.index)
    download = at.get("download_button")
    assert download, "the table can be downloaded as CSV"
    assert len(at.get("plotly_chart")) >= 4, "breakdown, collectives, tornado and Monte Carlo"


def test_workload_rejected_layout_is_named_under_its_input_and_results_stay() -> None:
    at = start("workload")
    at.number_input(key=field(keys.WORKLOAD_FORM, "tp")).set_value(3).run()
    assert not at.exception
    errors = rendered_texts(at.error)
    assert (
        len(errors) == 1 and errors[0].startswith(tr("wl.field.tp", "en")) and "does not divide" in errors[0]
    )
    assert any(tr("form.stale", "en") in w for w in rendered_texts(at.warning))
    assert at.table, "the last accepted job's results stay on screen"
    at.number_input(key=field(keys.WORKLOAD_FORM, "tp")).set_value(None).run()
    assert not at.error


def test_workload_cross_field_error_names_the_field() -> None:
    at = start("workload", lang="zh")
    at.number_input(key=field(keys.WORKLOAD_FORM, "top_k")).set_value(4).run()
    errors = rendered_texts(at.error)
    assert len(errors) == 1 and tr("wl.field.top_k", "zh") in errors[0] and "top_k (4)" in errors[0]


def test_moe_and_in_network_reduction_change_the_estimate() -> None:
    at = start("workload")
    before = row(at.table[0].value, f"{tr('wl.row.step_time', 'en')} [s]")
    at.number_input(key=field(keys.WORKLOAD_FORM, "experts")).set_value(8).run()
    at.number_input(key=field(keys.WORKLOAD_FORM, "top_k")).set_value(2).run()
    at.toggle(key=field(keys.WORKLOAD_FORM, "in_network_reduction")).set_value(True).run()
    assert not at.error, rendered_texts(at.error)
    after = row(at.table[0].value, f"{tr('wl.row.step_time', 'en')} [s]")
    assert after != before


def test_the_expert_dispatcher_and_overlap_are_offered_and_change_the_estimate() -> None:
    at = start("workload", lang="zh")
    at.number_input(key=field(keys.WORKLOAD_FORM, "experts")).set_value(64).run()
    at.number_input(key=field(keys.WORKLOAD_FORM, "top_k")).set_value(8).run()
    at.number_input(key=field(keys.WORKLOAD_FORM, "ep")).set_value(8).run()
    step_row = f"{tr('wl.row.step_time', 'zh')} [s]"
    plain = row(at.table[0].value, step_row)
    dispatcher = at.selectbox(key=field(keys.WORKLOAD_FORM, "moe_dispatcher"))
    assert dispatcher.label == tr("wl.field.moe_dispatcher", "zh")
    assert dispatcher.options == [
        tr(f"wl.moe_dispatcher.{v}", "zh") for v in ("alltoall", "fused", "hybridep")
    ]
    dispatcher.set_value("hybridep").run()
    assert not at.error, rendered_texts(at.error)
    # HybridEP pays its own per-copy cost (data/moe.yaml moe_graphed_copy_overhead_ns) instead of
    # Megatron-Core's permutation, and deduplicates the copies it sends: every design's step changes
    hybrid = row(at.table[0].value, step_row)
    assert all(h != p for h, p in zip(hybrid, plain, strict=True))
    at.selectbox(key=field(keys.WORKLOAD_FORM, "moe_overlap")).set_value("two_micro_batches").run()
    assert not at.error, rendered_texts(at.error)
    overlapped = row(at.table[0].value, step_row)
    assert overlapped != hybrid
    # the whole iteration in one CUDA graph: no host wait, the full graph's own per-copy cost (1.8 ns)
    whole = at.toggle(key=field(keys.WORKLOAD_FORM, "full_iteration_graph"))
    assert whole.label == tr("wl.field.full_iteration_graph", "zh")
    whole.set_value(True).run()
    assert not at.error, rendered_texts(at.error)
    graphed = row(at.table[0].value, step_row)
    seconds = [float(str(g).split()[0]) for g in graphed]  # the fastest design's cell carries a star
    before = [float(str(o).split()[0]) for o in overlapped]
    assert all(g < o for g, o in zip(seconds, before, strict=True)), (graphed, overlapped)
    # experts with biases (GPT-OSS) wait on the host in every expert layer, whole-step graph or not
    biased = at.toggle(key=field(keys.WORKLOAD_FORM, "expert_bias"))
    assert biased.label == tr("wl.field.expert_bias", "zh")
    biased.set_value(True).run()
    assert not at.error, rendered_texts(at.error)
    waits = [float(str(b).split()[0]) for b in row(at.table[0].value, step_row)]
    assert all(w > g for w, g in zip(waits, seconds, strict=True)), (waits, seconds)
    # the all-to-all dispatcher waits on the host every layer: refused under the field, one line
    at.selectbox(key=field(keys.WORKLOAD_FORM, "moe_dispatcher")).set_value("alltoall").run()
    errors = rendered_texts(at.error)
    assert len(errors) == 1 and "full_iteration_graph" in errors[0], errors


def test_reliability_evaluates_a_chosen_interval_and_names_a_missing_size() -> None:
    at = start("reliability")
    table = at.table[0].value
    interval_row = f"{tr('rel.row.interval', 'en')} [min]"
    assert row(table, interval_row) != ["30.0"] * 3
    at.number_input(key=field(keys.RELIABILITY_FORM, "checkpoint_interval_min")).set_value(30.0).run()
    assert row(at.table[0].value, interval_row) == ["30.0"] * 3
    at.number_input(key=field(keys.RELIABILITY_FORM, "params_b")).set_value(None).run()
    errors = rendered_texts(at.error)
    assert len(errors) == 1 and errors[0].startswith(tr("rel.field.params_b", "en"))
    assert "give params_b or checkpoint_gbyte" in errors[0]
    impacts = at.table[1].value
    assert tr("rel.element.plane", "en") in impacts.index


def test_reliability_starts_from_the_workload_model_size() -> None:
    at = start("workload")
    at.number_input(key=field(keys.WORKLOAD_FORM, "params_b")).set_value(405.0).run()
    at.switch_page("pages/reliability.py").run()
    size = row(at.table[0].value, f"{tr('rel.row.checkpoint_size', 'en')} [GB]")
    assert size == ["5,670"] * 3, "405 B parameters x 14 B"


# --- Scenarios --------------------------------------------------------------------------------------


def save_new(at: AppTest, name: str, **details: str) -> AppTest:
    at.text_input(key=field(keys.SAVE_FORM, "name")).input(name)
    for key, value in details.items():
        widget = at.text_area if key == "notes" else at.text_input
        widget(key=field(keys.SAVE_FORM, key)).input(value)
    return click(at, keys.SAVE_NEW)


def test_save_open_version_conflict_and_save_as_new(store: ScenarioStore) -> None:
    at = start("scenarios")
    assert any(tr("sc.none_found", "en") in i for i in texts(at.info))
    save_new(at, "Acme 1024", customer="Acme", tags="workshop, Q4", notes="first pass")
    assert not at.error, rendered_texts(at.error)
    [saved] = store.list_scenarios()
    assert (saved.name, saved.customer, saved.tags, saved.version) == (
        "Acme 1024",
        "Acme",
        ("q4", "workshop"),
        1,
    )
    assert at.session_state[keys.OPENED]["id"] == saved.id
    assert at.dataframe[0].value.iloc[0][tr("sc.col.name", "en")] == "Acme 1024"
    # edit in the sidebar, save version 2 of the open scenario
    at.number_input(key=keys.widget("gpus")).set_value(512).run()
    click(at, keys.SAVE_VERSION)
    assert store.get(scenario_id=saved.id).version == 2
    assert store.load(scenario_id=saved.id).scenario.gpus == 512
    # someone else saves version 3 meanwhile
    other = store.load(scenario_id=saved.id).scenario.with_updates(gpus=2048)
    store.save(scenario_id=saved.id, scenario=other, expected_version=2, author="colleague")
    # our next save starts from version 2: a conflict, nothing written
    at.number_input(key=keys.widget("gpus")).set_value(256).run()
    click(at, keys.SAVE_VERSION)
    conflict = [e for e in rendered_texts(at.error) if "version 3" in e]
    assert conflict and "Acme 1024" in conflict[0], rendered_texts(at.error)
    assert store.get(scenario_id=saved.id).version == 3
    assert store.load(scenario_id=saved.id).scenario.gpus == 2048, "the colleague's version stands"
    assert at.button(key=keys.CONFLICT_RELOAD)
    # save our edit as a new scenario: nothing is lost
    click(at, keys.CONFLICT_SAVE_NEW)
    assert not any("version 3" in e for e in rendered_texts(at.error))
    copies = [s for s in store.list_scenarios() if s.id != saved.id]
    assert len(copies) == 1 and copies[0].gpus == 256 and copies[0].name.startswith("Acme 1024")
    assert at.session_state[keys.OPENED]["id"] == copies[0].id


def test_conflict_reload_opens_the_latest_version(store: ScenarioStore) -> None:
    at = start("scenarios")
    save_new(at, "Beta")
    sid = at.session_state[keys.OPENED]["id"]
    store.save(scenario_id=sid, scenario=Scenario(gpus=64, design_id="ib-ndr"), expected_version=1)
    at.number_input(key=keys.widget("gpus")).set_value(512).run()
    click(at, keys.SAVE_VERSION)
    click(at, keys.CONFLICT_RELOAD)
    values = at.session_state[keys.INPUTS]
    assert (values["gpus"], values["design"]) == (64, "ib-ndr")
    assert at.session_state[keys.OPENED]["version"] == 2
    assert store.get(scenario_id=sid).version == 2


def test_open_a_version_and_diff_two(store: ScenarioStore) -> None:
    first = store.create(name="Gamma", scenario=Scenario(gpus=256, design_id="rail4-npo"))
    store.save(scenario_id=first.id, scenario=Scenario(gpus=512, design_id="rail4-npo"), expected_version=1)
    at = start("scenarios")
    diff_inputs = at.dataframe[-2].value if len(at.dataframe) >= 3 else None
    assert diff_inputs is not None and diff_inputs.iloc[0][tr("col.field", "en")] == "gpus"
    moved = at.dataframe[-1].value
    assert f"{tr('metric.capex_usd', 'en')} [USD]" in moved[tr("col.metric", "en")].tolist()
    at.selectbox(key=f"{keys.PICKED_VERSION}_{first.id}").set_value(1).run()
    click(at, keys.action("open_version", first.id))
    assert at.session_state[keys.INPUTS]["gpus"] == 256
    assert at.session_state[keys.BASE_ORIGIN] == {
        "kind": "saved",
        "id": first.id,
        "version": 1,
        "name": "Gamma",
    }
    assert at.session_state[keys.OPENED]["version"] == 2, "a new version follows the latest"
    written = {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}
    assert (written["scenario"], written["version"]) == (str(first.id), "1")


def test_rename_duplicate_delete_and_restore(store: ScenarioStore) -> None:
    saved = store.create(name="Delta", scenario=Scenario(gpus=128), customer="Acme")
    at = start("scenarios")
    form = f"{keys.DETAILS}_{saved.id}"
    at.text_input(key=field(form, "name")).input("Delta renamed")
    click(at, keys.action("save_details", saved.id))
    assert store.get(scenario_id=saved.id).name == "Delta renamed"
    assert store.get(scenario_id=saved.id).version == 1, "renaming adds no version"
    click(at, keys.action("duplicate", saved.id))
    assert len(store.list_scenarios()) == 2
    assert at.selectbox(key=keys.PICKED).value != saved.id, "the copy is picked"
    at.selectbox(key=keys.PICKED).set_value(saved.id).run()
    click(at, keys.action("delete", saved.id))
    assert store.get(scenario_id=saved.id).deleted
    assert all(s.id != saved.id for s in store.list_scenarios())
    at.toggle(key=keys.SHOW_TRASH).set_value(True).run()
    at.selectbox(key=keys.PICKED).set_value(saved.id).run()
    assert any(w.startswith(tr("sc.in_trash", "en", when="")[:10]) for w in rendered_texts(at.warning))
    click(at, keys.action("restore", saved.id))
    assert not store.get(scenario_id=saved.id).deleted
    assert store.versions(scenario_id=saved.id), "every version survives the trash"


def test_search_and_filters(store: ScenarioStore) -> None:
    store.create(name="Alpha", scenario=Scenario(gpus=64), customer="Acme", tags=["workshop"])
    store.create(name="Bravo", scenario=Scenario(gpus=128), customer="Globex", tags=["q4"])
    at = start("scenarios")
    assert len(at.dataframe[0].value) == 2
    at.text_input(key=keys.SEARCH).input("brav").run()
    assert at.dataframe[0].value[tr("sc.col.name", "en")].tolist() == ["Bravo"]
    at.text_input(key=keys.SEARCH).input("").run()
    at.selectbox(key=keys.FILTER_TAG).set_value("workshop").run()
    assert at.dataframe[0].value[tr("sc.col.name", "en")].tolist() == ["Alpha"]


def test_compare_two_saved_scenarios(store: ScenarioStore) -> None:
    store.create(name="Small", scenario=Scenario(gpus=256, design_id="rail4-npo"))
    store.create(name="Large", scenario=Scenario(gpus=1024, design_id="rail4-npo"))
    at = start("scenarios")
    tables = [t.value for t in at.table]
    side_by_side = next(t for t in tables if f"{tr('metric.capex_usd', 'en')} [USD]" in t.index)
    assert [c.split(" ", 1)[1] for c in side_by_side.columns] == ["Small", "Large"]
    assert row(side_by_side, tr("metric.gpus", "en")) == ["256", "1,024"]


def test_bad_import_is_refused_and_changes_nothing(store: ScenarioStore) -> None:
    store.create(name="Keep", scenario=Scenario(gpus=64))
    at = start("scenarios")
    for content in (
        b"{",
        b'{"format": "someone-else/thing", "schema_version": 1, "scenario": {}}',
        b'{"gpus": -4}',
    ):
        at.file_uploader(key=keys.IMPORT_FILE).set_value(("bad.json", content, "application/json"))
        at.run()
        click(at, keys.IMPORT_BUTTON)
        errors = rendered_texts(at.error)
        assert len(errors) == 1 and errors[0].startswith(tr("sc.import_rejected", "en", message="")), errors
    assert [s.name for s in store.list_scenarios(state="all")] == ["Keep"]


def test_export_then_import_round_trips(store: ScenarioStore) -> None:
    saved = store.create(name="Echo", scenario=Scenario(gpus=512, design_id="ib-ndr"), tags=["t"])
    at = start("scenarios")
    document = store.export_json(scenario_id=saved.id).encode("utf-8")
    at.file_uploader(key=keys.IMPORT_FILE).set_value(("echo.json", document, "application/json"))
    at.run()
    click(at, keys.IMPORT_BUTTON)
    assert any("Echo" in s for s in texts(at.success))
    imported = [s for s in store.list_scenarios() if s.id != saved.id]
    assert len(imported) == 1 and imported[0].gpus == 512 and imported[0].tags == ("t",)


def test_names_and_notes_are_shown_escaped(store: ScenarioStore) -> None:
    name = "**Acme** <img src=x onerror=alert(1)> [x](javascript:alert(1))"
    store.create(name=name, scenario=Scenario(gpus=64), notes="*notes* :red[loud]")
    at = start("scenarios")
    shown = texts(at.markdown)
    assert any(escape_markdown(name) in m for m in shown)
    assert not any(name in m for m in shown), "never passed to Markdown unescaped"
    assert any(escape_markdown("*notes* :red[loud]") in m for m in shown)
    assert at.dataframe[0].value.iloc[0][tr("sc.col.name", "en")] == name, "tables show it as typed"


def test_share_link_opens_the_saved_scenario(store: ScenarioStore) -> None:
    first = store.create(name="Foxtrot", scenario=Scenario(gpus=256, design_id="rail4-npo"))
    store.save(scenario_id=first.id, scenario=Scenario(gpus=512, design_id="rail4-npo"), expected_version=1)
    at = start(scenario=str(first.id), version="1", lang="zh")
    values = at.session_state[keys.INPUTS]
    assert (values["gpus"], values["design"], values["lang"]) == (256, "rail4-npo", "zh")
    assert metrics(at)[tr("kpi.gpus", "zh")] == "256"
    assert at.session_state[keys.OPENED] == {"id": first.id, "version": 2, "name": "Foxtrot"}
    written = {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}
    assert (written["scenario"], written["version"], written["gpus"]) == (str(first.id), "1", "256")
    at.switch_page("pages/scenarios.py").run()
    assert any("#" + str(first.id) in m and "Foxtrot" in m for m in texts(at.markdown))
    # closing keeps the scenario on screen but stops saving to it (and the link stops naming it)
    click(at, keys.action("close", first.id))
    assert at.session_state[keys.OPENED] is None
    assert at.session_state[keys.INPUTS]["gpus"] == 256
    assert "scenario" not in at.query_params
    # without a version the link follows the latest
    latest = start(scenario=str(first.id))
    assert latest.session_state[keys.INPUTS]["gpus"] == 512


def test_the_link_written_while_a_saved_scenario_is_open_keeps_its_fabric(store: ScenarioStore) -> None:
    scenario = optimize(
        scenario=Scenario(gpus=256, design_id="rail4-npo"),
        catalog=load_catalog(),
        request=request_from_data({}),
    ).scenario
    saved = store.create(name="Optimized", scenario=scenario)
    at = start(scenario=str(saved.id), gpus="128")
    loaded = json.loads(at.session_state[keys.BASE_SCENARIO])
    assert loaded["fabric"] == json.loads(scenario.model_dump_json())["fabric"]
    assert at.session_state[keys.INPUTS]["gpus"] == 128, "inputs in the address apply on top"
    assert "(custom)" in at.caption[0].value


@pytest.mark.parametrize(
    ("query", "reason"), [("999", "no saved scenario with id 999"), ("abc", "whole number")]
)
def test_bad_share_link_is_reported_and_the_app_works(query: str, reason: str) -> None:
    at = start(scenario=query)
    assert any(f"scenario={query}" in w for w in rendered_texts(at.warning)), (
        "listed with the ignored link parameters"
    )
    assert metrics(at)[tr("kpi.gpus", "en")] == fmt.number(inputs.BY_NAME["gpus"].default)
    at.switch_page("pages/scenarios.py").run()
    assert any(reason in e for e in rendered_texts(at.error))


def test_a_deleted_scenario_cannot_be_opened_by_link(store: ScenarioStore) -> None:
    saved = store.create(name="Gone", scenario=Scenario(gpus=64))
    store.delete(scenario_id=saved.id)
    at = start("scenarios", scenario=str(saved.id))
    assert any("in the trash" in e for e in rendered_texts(at.error))
    assert at.session_state[keys.INPUTS]["gpus"] == inputs.BY_NAME["gpus"].default


def test_bad_name_is_named_under_its_input() -> None:
    at = start("scenarios")
    click(at, keys.SAVE_NEW)
    errors = rendered_texts(at.error)
    assert (
        len(errors) == 1
        and errors[0].startswith(tr("sc.field.name", "en"))
        and "must not be empty" in errors[0]
    )


def test_unreachable_store_stops_only_this_page(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLANNER_DATABASE_URL", "mysql://nobody@nowhere/db")
    at = start("scenarios")
    assert any("unsupported database" in e for e in rendered_texts(at.error))
    at.switch_page("pages/overview.py").run()
    assert not at.exception and at.metric


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_chart_is_described_for_screen_readers(lang: str) -> None:
    """ui/widgets.chart follows each figure with its figure_alt_text, hidden from sight only."""
    at = start("scaling", lang=lang)
    notes = [m.value for m in at.html if 'role="note"' in m.value]
    assert notes and len(notes) == len(at.get("plotly_chart"))
    assert all(widgets.SCREEN_READER_ONLY in n for n in notes)
    if lang == "zh":
        assert all(any("\u4e00" <= ch <= "\u9fff" for ch in n) for n in notes)


def test_compare_shows_the_three_pools() -> None:
    at = start("compare")
    column = tr("pools.col.pool", "en")
    frames = [tb.value for tb in at.table if column in tb.value.columns]
    assert frames, "the pools table"
    pools = frames[0]
    assert list(pools[column]) == [
        tr(k, "en")
        for k in (
            "pools.row.compute",
            "pools.row.storage_units",
            "pools.row.storage_bandwidth",
            "pools.row.storage_capacity",
            "pools.row.frontend",
        )
    ]
    assert len(pools.columns) == 1 + 3  # the pool, then one column per design
