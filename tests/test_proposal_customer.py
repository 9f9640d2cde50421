"""The customer's proposal files read as written for the customer (issue 29).

- ``planner export --edition customer --lang zh --xlsx F --csv C`` writes BOM descriptions with no
  English word other than a product name: the words allowed are those of the product-name list
  (``locales/product_names.txt``), the vendor and product words :mod:`tests.prose` allows, and
  acronyms, part numbers and units (no lowercase run of two letters, like ``NVMe`` is not);
- a BOM line never names its kind twice ("In-band management switch In-band management switch").
"""

from __future__ import annotations

import csv
import io
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from planner import Catalog
from planner.cli import run
from planner.i18n import tr
from planner.report import tables
from planner.report.export import read_xlsx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from prose import ALLOWED_WORDS

ROOT = Path(__file__).resolve().parents[1]
PRODUCT_NAMES = ROOT / "locales" / "product_names.txt"

PRODUCT_WORDS = frozenset({"Turbo", "Lustre", "EXAScaler"})
"""Product words of descriptive catalog names (DDN's AI400X2-Turbo appliance runs EXAScaler, DDN's
Lustre): a descriptive name is translated, its product words stay (the list's rule, see the
header of ``locales/product_names.txt``)."""

ENGLISH_WORD = re.compile(r"^[A-Z]?[a-z]{2,}$")
"""A lowercase or Capitalized word of two letters or more (``switch``, ``Server``); acronyms, part
numbers and mixed-case names (``MPO``, ``OM4``, ``RoCE``, ``GbE``) are not English words."""


def product_name_words() -> frozenset[str]:
    lines = PRODUCT_NAMES.read_text("utf-8").splitlines()
    names = [line for line in lines if line.strip() and not line.startswith("#")]
    return frozenset(w for name in names for w in re.split(r"[^A-Za-z]+", name) if w)


def english_words(text: str, allowed: frozenset[str]) -> list[str]:
    """The English words of ``text`` that are not allowed names (split at anything not a letter
    or digit: ``Cat6`` is a part name, not the word "Cat").

    >>> english_words("多模光纤 MPO 主干（OM4），10 m（节点-Leaf）", frozenset({"Leaf"}))
    []
    >>> english_words("Multimode fiber MPO trunk (OM4), 10 m (node-leaf)", frozenset())
    ['Multimode', 'fiber', 'trunk', 'node', 'leaf']
    """
    return [w for w in re.split(r"[^A-Za-z0-9]+", text) if ENGLISH_WORD.match(w) and w not in allowed]


@pytest.fixture(scope="module")
def zh_customer_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], list[str]]:
    """BOM descriptions of a 1024-GPU rail8-npo customer export in Chinese: (CSV, XLSX)."""
    out = tmp_path_factory.mktemp("zh")
    scenario = out / "scenario.json"
    scenario.write_text('{"gpus": 1024, "design_id": "rail8-npo"}', encoding="utf-8")
    xlsx, bom = out / "proposal.xlsx", out / "bom.csv"
    args = ["--scenario", str(scenario), "--edition", "customer", "--lang", "zh"]
    assert run(["export", *args, "--xlsx", str(xlsx), "--csv", str(bom)]) == 0
    rows = list(csv.DictReader(io.StringIO(bom.read_bytes().decode("utf-8-sig"))))
    sheet = read_xlsx(xlsx.read_bytes())[tr("export.sheet.bom", "zh")]
    header = tr("col.description", "zh")
    return [r["description"] for r in rows], [str(r[header]) for r in sheet]


def test_zh_customer_bom_has_no_english_words_but_product_names(
    zh_customer_files: tuple[list[str], list[str]],
) -> None:
    allowed = product_name_words() | ALLOWED_WORDS | PRODUCT_WORDS
    for kind, descriptions in zip(("csv", "xlsx"), zh_customer_files, strict=True):
        assert len(descriptions) > 20, kind  # every line of a 1024-GPU plan with its auxiliary fabrics
        found = {d: english_words(d, allowed) for d in descriptions}
        assert {d: w for d, w in found.items() if w} == {}, kind
        assert all(re.search(r"[\u4e00-\u9fff]", d) for d in descriptions[1:]), kind


def test_the_check_finds_the_english_descriptions() -> None:
    """Before the fix the 中文 files carried the catalog's English: the check must catch it."""
    allowed = product_name_words() | ALLOWED_WORDS | PRODUCT_WORDS
    english = "Server Biren Hearten (海玄) 8 x OAM server (without GPUs and fabric NICs)"
    assert english_words(english, allowed) == ["Server", "server", "without", "and", "fabric"]


def test_no_bom_line_names_its_kind_twice(zh_customer_files: tuple[list[str], list[str]]) -> None:
    for description in zh_customer_files[0]:
        words = description.replace("，", " ").split()
        assert words[:1] != words[1:2], description


def test_an_optimized_design_is_named_in_the_documents_language(catalog: Catalog) -> None:
    """After Optimize the 中文 cover named the design "8-rail RoCE with NPO optics (custom)"."""
    custom = SimpleNamespace(design_id="rail8-npo-custom", design_name="8-rail RoCE with NPO optics (custom)")
    zh = tables.design_names(catalog, "zh", [custom])["rail8-npo-custom"]  # type: ignore[list-item]
    assert zh.startswith(catalog.designs["rail8-npo"].name_zh) and "custom" not in zh
    en = tables.design_names(catalog, "en", [custom])["rail8-npo-custom"]  # type: ignore[list-item]
    assert en == "8-rail RoCE with NPO optics (custom)"


def test_a_change_that_rounds_to_nothing_gets_no_badge() -> None:
    """Issue 29: KPI cards showed "−$0.00" and "+0.0 GB/s" badges after an edit."""
    gbyte = lambda v: f"{v:.1f} GB/s"  # noqa: E731 - the card's own formatter, as in tables.kpis
    assert tables._delta(205.74, 205.71, gbyte, "higher") == (None, "off")  # +0.03 shows as 0.0
    assert tables._delta(205.9, 205.7, gbyte, "higher") == ("+0.2 GB/s", "normal")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_category_has_one_name_in_cost_and_power(lang: str) -> None:
    """Issue 29: optics were "光模块 / 光引擎" in the cost charts and "光学器件" in the power charts.
    A power category may add what it counts in brackets ("Servers (CPU, memory, fans)")."""
    from planner.cost import BOM_CATEGORIES

    for category in BOM_CATEGORIES:
        cost, power = tr(f"bom_category.{category}", lang), tr(f"power_category.{category}", lang)
        if not power.startswith("["):  # a category with a power share has a power label
            assert power.startswith(cost), (category, cost, power)


def test_cooling_bought_per_kw_says_so(catalog: Catalog) -> None:
    """Issue 29: "cooling 1,226" in the BOM, 1,226 what? The line bought per kW of IT load
    carries its unit, and the PDF's BOM writes it beside the quantity."""
    from planner import Scenario, plan

    p = plan(scenario=Scenario(gpus=1024), catalog=catalog)
    per_kw = [line for line in p.bom if line.quantity_unit]
    assert [(line.category, line.quantity_unit) for line in per_kw] == [("cooling", "kW")]
    # ceil(IT kW): the quantity is the plan's IT power rounded up to whole kW
    assert per_kw[0].quantity == -(-int(p.power.it_kw * 1000) // 1000)
