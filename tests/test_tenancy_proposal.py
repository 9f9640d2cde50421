"""The proposal's tenancy section: only with tenants, figures equal to the placement's, both
languages, the workbook's tenant sheets, and the printed PDF read back with poppler's pdftotext
(tests/pdf_fixtures.py; needs Debian's Chromium and poppler-utils, like tests/test_export_pdf.py)."""

from __future__ import annotations

import io
import re

import pytest
from openpyxl import load_workbook
from pdf_fixtures import Printer

from planner import Scenario, load_catalog
from planner.i18n import tr
from planner.report import proposal, tenancy_section
from planner.tenancy.run import place_on_plan
from planner.tenancy.tenants import TenantSet

# The README's worked example: 1024 cards shared by four tenants with different isolation.
TENANTS = [
    {"name": "foundation", "gpus": 512, "isolation": "plane", "bandwidth_gbit_per_s_per_gpu": 400.0},
    {"name": "finetune", "gpus": 256, "isolation": "leaf", "bandwidth_gbit_per_s_per_gpu": 400.0},
    {"name": "inference", "gpus": 128, "isolation": "domain", "storage_gbyte_per_s": 20.0},
    {"name": "research", "gpus": 128, "isolation": "shared"},
]
CATALOG = load_catalog()
SHARED = Scenario(gpus=1024, design_id="rail8-npo", tenants=TENANTS)
"""The README's worked example on a 1024-GPU rail8-npo cluster: the proposal of most tests here."""

pytest_plugins = ["pdf_fixtures"]


def _options(scenario: Scenario, lang: str, edition: str = "internal") -> dict[str, object]:
    return {"lang": lang, "edition": edition, "design_ids": [scenario.design_id]}


def _proposal(scenario: Scenario, lang: str, edition: str = "internal") -> proposal.Proposal:
    options = proposal.options_from_data(_options(scenario, lang, edition))
    return proposal.build_proposal(scenario=scenario, catalog=CATALOG, options=options)


def _html(p: proposal.Proposal) -> str:
    return proposal.proposal_html(p, {key: "data:," for key, _ in proposal.chart_figures(p)})


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


@pytest.fixture(scope="module")
def shared() -> dict[str, proposal.Proposal]:
    return {lang: _proposal(SHARED, lang) for lang in ("en", "zh")}


def test_no_tenants_no_section_and_no_sheets() -> None:
    p = _proposal(Scenario(gpus=64, design_id="rail8-npo"), "en")
    assert p.tenancy is None
    assert tenancy_section.ANCHOR not in [anchor for _, anchor in proposal.sections(p)]
    assert 'id="tenancy"' not in _html(p)
    assert [s.title for s in proposal.workbook_sheets(p)] == [
        "Proposal",
        "BOM",
        "Design comparison",
        "Cabling",
        "Assumptions",
    ]


def test_the_section_shows_the_placement_of_the_proposed_design(shared: dict[str, proposal.Proposal]) -> None:
    p = shared["en"]
    expected = place_on_plan(plan=p.plan, catalog=CATALOG, tenants=TenantSet(tenants=p.scenario.tenants))
    assert p.tenancy is not None and p.tenancy.placement == expected
    # after the cost, before the rack elevations and the assumptions
    assert proposal.sections(p)[-3] == (tenancy_section.SECTION_KEY, tenancy_section.ANCHOR)
    html = _html(p)
    section = _text(html[html.index('id="tenancy"') : html.index('id="assumptions"')])
    for t in expected.tenants:
        row = tenancy_section.tenant_rows(expected, p.plan, "en")[expected.tenants.index(t)]
        assert " ".join(row) in section, row
    # foundation holds planes 1-2 of the eight (512 of 1024 GPUs, 400 Gb/s of the 8 x 400 Gb/s)
    assert "foundation 512 / 512 dedicated plane 64 16 p1–p2 400 / 400" in section
    assert f"Stranded links {expected.stranded_ports:,}" in section
    assert tr("tn.all_met", "en") in section


def test_chinese_section_headers_are_chinese(shared: dict[str, proposal.Proposal]) -> None:
    html = _html(shared["zh"])
    section = _text(html[html.index('id="tenancy"') : html.index('id="assumptions"')])
    for needle in (
        "多租户划分",
        "租户",
        "隔离方式",
        "故障影响范围",
        "分摊成本 [美元/GPU·小时]",
        "独占平面",
        "所有租户",
    ):
        assert needle in section
    assert "Blast radius" not in section and "Chargeback" not in section


@pytest.mark.parametrize(
    ("lang", "needles"), [("en", ("Helios", "Venus", "SC '21")), ("zh", ("Helios", "Venus", "作业轨迹"))]
)
def test_the_section_names_the_trace_the_job_mix_is_fitted_to(
    shared: dict[str, proposal.Proposal], lang: str, needles: tuple[str, ...]
) -> None:
    html = _html(shared[lang])
    section = _text(html[html.index('id="tenancy"') : html.index('id="assumptions"')])
    for needle in needles:
        assert needle in section, needle


def test_unmet_guarantees_are_listed_with_the_shortfall() -> None:
    # ib-ndr has one plane: a dedicated-plane tenant cannot keep the others off its switches
    p = _proposal(Scenario(gpus=1024, design_id="ib-ndr", tenants=TENANTS), "en")
    assert p.tenancy is not None and p.tenancy.placement is not None and p.tenancy.placement.unmet
    section = _text(_html(p).split('id="tenancy"')[1])
    assert "foundation: dedicated planes short by 1.0" in section
    assert "Not every tenant's guarantee can be met on this design." in section


def test_tenants_larger_than_the_plan_are_stated_not_raised() -> None:
    scenario = Scenario(gpus=64, design_id="rail8-npo", tenants=[{"name": "big", "gpus": 4096}])
    p = _proposal(scenario, "en")
    assert p.tenancy is not None and p.tenancy.placement is None
    assert "The tenants cannot be placed:" in _text(_html(p)) and "4096" in p.tenancy.problem
    assert "Tenants" not in [s.title for s in proposal.workbook_sheets(p)]
    zh = _text(_html(_proposal(scenario, "zh")))
    assert "无法部署这些租户：tenants：gpus：租户共申请 4096 块 GPU" in zh


def test_workbook_has_the_tenant_sheets_with_numbers(shared: dict[str, proposal.Proposal]) -> None:
    p = shared["zh"]
    book = load_workbook(io.BytesIO(proposal.workbook(p)))
    assert "租户" in book.sheetnames and "多租户（集群）" in book.sheetnames
    rows = list(book["租户"].iter_rows(values_only=True))
    assert rows[0][0] == "租户" and [r[0] for r in rows[1:]] == [t["name"] for t in TENANTS]
    placement = p.tenancy.placement  # type: ignore[union-attr]
    assert placement is not None
    by_name = {r[0]: r for r in rows[1:]}
    for t in placement.tenants:
        assert by_name[t.name][1:3] == (t.allocated_gpus, t.gpus)
        assert by_name[t.name][-1] == pytest.approx(p.plan.cost.in_currency(t.usd_per_gpu_hour))


def test_customer_edition_charges_the_offered_price() -> None:
    scenario = Scenario(gpus=512, design_id="rail8-npo", tenants=TENANTS[1:3])
    cost = _proposal(scenario, "en", "internal").tenancy
    options = proposal.options_from_data(
        {"lang": "en", "edition": "customer", "design_ids": ["rail8-npo"], "pricing": {"margin": 0.25}}
    )
    offered = proposal.build_proposal(scenario=scenario, catalog=CATALOG, options=options).tenancy
    assert cost is not None and offered is not None and cost.placement and offered.placement
    for c, o in zip(cost.placement.tenants, offered.placement.tenants, strict=True):
        assert o.usd_per_gpu_hour > c.usd_per_gpu_hour


def test_pdf_lists_the_section_in_the_contents_and_prints_it(printer: Printer) -> None:
    for lang in ("en", "zh"):
        pages = printer.document(scenario=SHARED, options=_options(SHARED, lang)).text.split("\f")
        title = tr(tenancy_section.SECTION_KEY, lang)
        starts = [
            i
            for i, page in enumerate(pages)
            if page.replace(tr("export.confidential", lang), "", 1).lstrip().startswith(title)
        ]
        assert starts, f"no page starts with {title!r}"
        contents = re.search(rf"{re.escape(title)}\s*\.*\s*(\d+)", pages[0])
        assert contents is not None and int(contents.group(1)) == starts[0] + 1
        assert all(name in pages[starts[0]] for name in ("foundation", "finetune", "inference", "research"))
