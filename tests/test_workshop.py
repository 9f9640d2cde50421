"""What a customer sees in a workshop must not be wrong or misleading.

Presets leave no link warning; the proposal proposes the scenario's design; the optimizer's
explanations count what they say; near-ties get no star; the Scenarios page never shows the
store's address.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from apptest import reset_caches, start
from streamlit.testing.v1 import AppTest

from planner import PlannerError, Scenario, i18n, load_catalog, plan
from planner.cli import run as cli_run
from planner.i18n import tr
from planner.inputs.optimize import request_from_data
from planner.optimize import optimize
from planner.optimize.pareto import bandwidth_front
from planner.report import proposal, tables
from planner.report.export import import_scenario_json, read_bom_csv, read_xlsx
from ui import keys
from ui.presets import PRESETS

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    """``st.cache_data`` outlives an AppTest: each module starts from empty caches."""
    reset_caches()  # each module from empty caches (tests/apptest.py)
    i18n.MISSING.clear()
    yield
    assert not i18n.MISSING, f"UI strings looked up without a translation: {sorted(i18n.MISSING)}"


# --- presets: no false link warning ---------------------------------------------------------------


def test_clicking_every_preset_twice_leaves_no_link_warning() -> None:
    """A preset's "design default GPU" (``None``) was flagged as ``gpu=None``, one more per click."""
    at = start()
    for preset in [*PRESETS, *PRESETS]:
        at.button(key=keys.preset_button(preset.id)).click().run()
        assert not at.exception, at.exception
        assert not at.warning, [w.value for w in at.warning]
        assert at.session_state[keys.URL_PROBLEMS] == []
        assert at.button(key=keys.preset_button(preset.id)).proto.type == "primary", "active preset marked"
    at.run()  # a rerun without a click keeps it clean and marked
    assert not at.warning
    assert at.button(key=keys.preset_button(PRESETS[-1].id)).proto.type == "primary"


def test_a_preset_clears_a_bad_links_warning() -> None:
    at = start(years="99")
    assert at.warning, "the bad link parameter is reported"
    at.button(key=keys.preset_button(PRESETS[0].id)).click().run()
    assert not at.warning, [w.value for w in at.warning]


# --- the proposal proposes the scenario's design ------------------------------------------------


def test_export_of_an_8_rail_scenario_writes_an_8_rail_proposal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """At 1,024 GPUs the rule's pick is InfiniBand NDR; the scenario says rail8-npo, so every file
    details rail8-npo and the rule's pick is only stated as a recommendation."""
    catalog = load_catalog()
    scenario = Scenario(gpus=1024, design_id="rail8-npo")
    files = {kind: tmp_path / f"out.{kind}" for kind in ("pdf", "csv", "xlsx", "json")}
    code = cli_run(
        ["export", "--gpus", "1024", "--design", "rail8-npo", "--lang", "en", "--edition", "customer",
         *[arg for kind, path in files.items() for arg in (f"--{kind}", str(path))]]
    )  # fmt: skip
    assert code == 0, capsys.readouterr().err
    assert import_scenario_json(files["json"].read_bytes()) == scenario
    # the CSV lists the 8-rail design's BOM, not InfiniBand's
    _, records = read_bom_csv(files["csv"].read_bytes())
    ib_only = {
        line.id for line in plan(scenario=scenario.with_updates(design_id="ib-ndr"), catalog=catalog).bom
    }
    rail8 = {line.id for line in plan(scenario=scenario, catalog=catalog).bom}
    assert {r["id"] for r in records} == rail8
    assert ib_only - rail8, "the two BOMs differ, so the check can fail"
    names = tables.design_names(catalog, "en")
    facts = next(iter(read_xlsx(files["xlsx"].read_bytes()).values()))
    by_item = {str(row[tr("col.item", "en")]): row[tr("col.value", "en")] for row in facts}
    assert by_item[tr("export.form.proposed", "en")] == names["rail8-npo"]
    assert by_item[tr("export.sheet.recommended", "en")] == names["ib-ndr"]
    text = subprocess.run(
        ["pdftotext", "-layout", str(files["pdf"]), "-"], check=True, capture_output=True, text=True
    ).stdout
    cover, summary = (" ".join(page.split()) for page in text.split("\f")[:2])
    assert names["rail8-npo"] in cover and names["ib-ndr"] not in cover
    assert "This proposal details 8-rail" in summary
    assert "Recommendation: by the rule" in summary and names["ib-ndr"] in summary


def test_the_rule_still_decides_when_asked_and_the_author_can_override(tmp_path: Path) -> None:
    catalog = load_catalog()
    scenario = Scenario(gpus=1024, design_id="rail8-npo")
    default = proposal.build_proposal(scenario=scenario, catalog=catalog, options=proposal.ProposalOptions())
    assert (default.proposed_id, default.recommended_id) == ("rail8-npo", "ib-ndr")
    chosen = proposal.build_proposal(
        scenario=scenario, catalog=catalog, options=proposal.ProposalOptions(proposed="ib-ndr")
    )
    assert chosen.proposed_id == chosen.recommended_id == "ib-ndr"


# --- the optimizer says what it counts --------------------------------------------------------------


def test_max_gpus_reports_gpus_and_no_missing_tier(capsys: pytest.CaptureFixture[str]) -> None:
    """The MILP's objective counts nodes (68 for 544 GPUs); the report is the engine's GPU count."""
    code = cli_run(
        ["optimize", "--design", "ib-ndr", "--objective", "max-gpus", "--budget-usd", "50000000"]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    head = out.splitlines()[0]
    gpus = int(re.search(r"objective max-gpus = ([\d,]+) GPUs", head)[1].replace(",", ""))  # type: ignore[index]
    assert gpus > 0 and gpus % 8 == 0
    assert "x NVIDIA" not in head and f"{gpus} x " in out, "the plan below has the same GPU count"
    assert "None" not in "\n".join(out.splitlines()[:3]), "a tier the design lacks is left out"


def test_capex_objective_value_is_the_engines_and_says_what_it_holds() -> None:
    catalog = load_catalog()
    result = optimize(
        scenario=Scenario(gpus=1024, design_id="rail8-npo"), catalog=catalog, request=request_from_data({})
    )
    assert result.objective_value == pytest.approx(result.plan.cost.capex_usd)
    assert result.to_dict()["optimizer"]["objective_unit"] == "USD"
    # the note explains why the bandwidth front can list a cheaper design within the same limits
    held = [n for n in result.notes if "keeps the scenario's 8 port(s) of 200G per GPU and 1:1" in n]
    assert len(held) == 1, result.notes
    front = bandwidth_front(
        scenario=Scenario(gpus=1024, design_id="rail8-npo"), catalog=catalog, request=request_from_data({})
    )
    cheapest = min(front, key=lambda p: p.capex_usd)
    assert cheapest.capex_usd < result.plan.cost.capex_usd
    assert cheapest.plan.topology.ports_per_gpu < 8, "the cheaper point has fewer ports per GPU"


# --- stars only for real differences ---------------------------------------------------------------


def _frame(**columns: tuple[float, float]) -> pd.DataFrame:
    """A two-design summary frame: every compare metric equal unless given."""
    rows = []
    for index, design in enumerate(("a", "b")):
        row: dict[str, object] = {"design": design}
        for metric in tables.COMPARE_METRICS:
            row[metric.column] = columns.get(metric.column, (1.0, 1.0))[index]
        rows.append(row)
    return pd.DataFrame(rows)


def test_a_difference_within_one_percent_is_a_tie() -> None:
    # 205.7 vs 205.4 GB/s: 0.15 % apart; a 0.2 % CAPEX gap
    tie = _frame(allreduce_busbw_gbyte_per_s=(205.7, 205.4), capex_usd=(100.0e6, 100.2e6))
    assert tables.winners(tie) == {}
    # 2 % apart is a difference; the check can fail
    apart = _frame(allreduce_busbw_gbyte_per_s=(205.7, 201.6), capex_usd=(100.0e6, 102.0e6))
    assert tables.winners(apart) == {"allreduce_busbw_gbyte_per_s": ("a",), "capex_usd": ("a",)}
    assert tables.winners(tie, tolerance=0.0) == {"allreduce_busbw_gbyte_per_s": ("a",), "capex_usd": ("a",)}


def test_three_designs_two_within_one_percent_share_the_mark() -> None:
    frame = pd.DataFrame(
        [{"design": d, **{m.column: 1.0 for m in tables.COMPARE_METRICS}} for d in ("a", "b", "c")]
    )
    frame["capex_usd"] = [100.0, 100.5, 130.0]
    assert tables.winners(frame)["capex_usd"] == ("a", "b")


def test_the_compare_caption_says_tie_within_one_percent() -> None:
    assert tables.TIE_TOLERANCE == 0.01
    for lang in ("en", "zh"):
        caption = tr("compare.table_caption", lang)
        assert "1 %" in caption
    assert "tie" in tr("compare.table_caption", "en") and "持平" in tr("compare.table_caption", "zh")
    at = start("compare")
    assert tr("compare.table_caption", "en") in [c.value for c in at.caption]


# --- the Scenarios page never shows where the store lives ---------------------------------------------


def _all_text(at: AppTest) -> str:
    parts = [
        str(e.value)
        for kind in ("markdown", "caption", "info", "error", "warning", "success")
        for e in getattr(at, kind)
    ]
    return "\n".join(parts)


def test_the_scenarios_page_names_the_store_kind_not_its_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "secret-folder" / "scenarios.db"
    db.parent.mkdir()
    monkeypatch.delenv("PLANNER_DATABASE_URL", raising=False)
    monkeypatch.setenv("PLANNER_DB_PATH", str(db))
    at = start("scenarios")
    shown = _all_text(at)
    assert tr("sc.store", "en", backend=tr("sc.backend.sqlite", "en")) in shown
    assert "SQLite (local)" in shown
    assert "secret-folder" not in shown and "sqlite" not in shown.lower().replace("sqlite (local)", "")


def test_a_store_error_hides_the_database_url() -> None:
    from ui.views import scenarios

    error = PlannerError("scenario store postgresql://planner:***@db.example.internal:5432/plans: timeout")
    text = scenarios._public(error)
    assert "db.example.internal" not in text and "planner:" not in text and "timeout" in text
    assert scenarios.store_label("postgresql") == tr("sc.backend.postgresql", "en") == "PostgreSQL (team)"


# --- loading a Pareto point: honest names and messages -----------------------------------------------


def test_loading_a_design_from_the_result_is_not_called_a_sidebar_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLANNER_DB_PATH", str(tmp_path / "s.db"))
    at = start("optimize")
    at.button(key=keys.OPT_SUBMIT).click().run()
    for accept in [c for c in at.checkbox if c.key == keys.OPT_ACCEPT_CHANGES]:
        accept.check().run()  # the result changes cooling, power or racks a lot: accepted first
    at.button(key=keys.OPT_LOAD_RESULT).click().run()
    assert not at.exception, at.exception
    infos = [str(i.value) for i in at.info]
    assert not [i for i in infos if "the sidebar has changed" in i], infos
    assert any("now shows the design you loaded" in i for i in infos), infos
    # a real sidebar change afterwards is still called one
    at.number_input(key=keys.widget("gpus")).set_value(256).run()
    assert any("the sidebar has changed" in str(i.value) for i in at.info)


def test_a_pareto_points_name_says_which_designs_parts_it_uses() -> None:
    label = tr("opt.point_label", "en", number=3, label="1 x 200G, 1:1", design="8-rail RoCE with NPO optics")
    assert "1 x 200G, 1:1" in label and "custom fabric built from the 8-rail RoCE" in label
