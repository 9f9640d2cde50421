"""Every text the user reads has English and Chinese; no UI text bypasses the catalogs.

UI strings (``locales/<lang>/LC_MESSAGES/ui.po``): both languages, same placeholders; every key
the code names or builds from an engine enumeration exists; no literal text reaches a Streamlit
element or a chart title without going through ``t()``/``tr()``. (The app tests also fail when
any page looks up a missing key at run time: ``planner.i18n.MISSING``.)

Engine texts and catalog prose: every ``msg("...")`` template in the code and every prose text
of ``data/*.yaml`` has a Chinese translation with the same placeholders; two PO files never
translate one id differently; every PO file parses (Babel and our reader agree); and the
extraction command (``make i18n``) is idempotent.
"""

from __future__ import annotations

import ast
import doctest
import functools
import re
import shutil
import string
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from prose import english_runs

import planner.i18n
import planner.report.charts
import planner.report.fmt
import planner.report.tables
import ui.inputs
import ui.upload
from planner import Plan, PlannerError, Scenario, load_catalog
from planner import plan as plan_scenario
from planner.catalog import FAMILIES
from planner.cost import BOM_CATEGORIES
from planner.fabric.collectives import IN_SWITCH_REDUCTIONS, LEVEL_NETWORK, LEVEL_SCALE_UP
from planner.fabric.media import FABRIC_LINK_CLASSES
from planner.facility.power import POWER_CATEGORIES
from planner.i18n import STRINGS, catalogs, po, tr, translate, translate_text
from planner.i18n.message import Message, msg
from planner.outputs import SUMMARY_COLUMNS
from planner.report.acceptance import COLUMNS as ACCEPTANCE_COLUMNS
from planner.report.export.pricing import EDITIONS
from planner.report.tables import COMPARE_METRICS
from tools import extract_translations as extract
from ui.inputs import CURRENCIES, INPUTS
from ui.presets import PRESETS
from ui.views import optimize, reliability, serving, workload

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("en", "zh")
SOURCES = sorted(
    [
        ROOT / "app.py",
        *(ROOT / "ui").rglob("*.py"),
        *(ROOT / "pages").glob("*.py"),
        *(ROOT / "planner" / "report").rglob("*.py"),
        *(ROOT / "planner" / "handoff").rglob("*.py"),  # elevation SVG texts
    ]
)
PO_FILES = sorted(catalogs.LOCALES.glob("*/LC_MESSAGES/*.po"))


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_key_has_both_languages_with_the_same_placeholders() -> None:
    """One test over every UI key, listing every gap at once (not one test per key)."""
    gaps = []
    for key, entry in sorted(STRINGS.items()):
        if set(entry) != set(LANGS):
            gaps.append(f"{key}: languages {sorted(entry)}")
        elif not all(entry[lang].strip() for lang in LANGS):
            gaps.append(f"{key}: empty text")
        elif _placeholders(entry["en"]) != _placeholders(entry["zh"]):
            gaps.append(
                f"{key}: placeholders {sorted(_placeholders(entry['en']))} (en) != {sorted(_placeholders(entry['zh']))} (zh)"
            )
    assert not gaps, f"{len(gaps)} UI keys incomplete:\n" + "\n".join(gaps)


def test_chinese_strings_are_translated() -> None:
    """A zh text identical to the en one is allowed only for names and units (no sentence)."""
    same = [k for k, v in STRINGS.items() if v["en"] == v["zh"] and len(v["en"].split()) > 2]
    assert not same, f"untranslated: {same}"


def _calls(tree: ast.AST) -> Iterator[ast.Call]:
    yield from (node for node in ast.walk(tree) if isinstance(node, ast.Call))


def _func_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


@functools.cache
def _parsed(path: Path) -> ast.Module:
    """The syntax tree of one source file (parsed once for the module's scans)."""
    return ast.parse(path.read_text(encoding="utf-8"))


@functools.cache
def _literal_keys() -> frozenset[str]:
    keys = set()
    for path in SOURCES:
        for call in _calls(_parsed(path)):
            if _func_name(call) in ("t", "tr") and call.args and isinstance(call.args[0], ast.Constant):
                keys.add(str(call.args[0].value))
    return frozenset(keys)


def test_every_literal_key_exists() -> None:
    missing = sorted(_literal_keys() - set(STRINGS))
    assert not missing, f"keys used in code but absent from locales/*/LC_MESSAGES/ui.po: {missing}"


def test_every_key_the_extraction_finds_exists() -> None:
    """The extraction command sees the same keys (its scan also covers planner/ outside report)."""
    keys, _ = _code_ids()
    missing = sorted({k.msgid for k in keys} - set(STRINGS))
    assert not missing, f"keys used in code but absent from locales/*/LC_MESSAGES/ui.po: {missing}"


@functools.cache
def _code_ids() -> tuple[list[extract.Found], list[extract.Found]]:
    """The extraction's scan of planner/ and ui/ (UI keys, ``msg()`` templates), made once."""
    return extract.code_ids()


@functools.cache
def _key_like_constants() -> frozenset[str]:
    """String constants shaped like a key of a group the table knows (catches typos in data)."""
    groups = {k.split(".", 1)[0] for k in STRINGS}
    found = set()
    for path in SOURCES:
        for node in ast.walk(_parsed(path)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                if (
                    re.fullmatch(r"[a-z_]+(\.[a-z_]+)+", text)
                    and text.split(".", 1)[0] in groups
                    and not re.search(r"\.(json|csv|yaml|yml|py)$", text)
                ):
                    found.add(text)
    return frozenset(found)


def test_every_key_named_in_data_exists() -> None:
    missing = sorted(_key_like_constants() - set(STRINGS))
    assert not missing, f"key-like strings absent from ui.po: {missing}"


@functools.cache
def _dynamic_keys() -> frozenset[str]:
    """Keys built from engine enumerations, inputs, presets and the catalog."""
    catalog = load_catalog()
    media = {"npo", "cpo", "mmf", "smf", "lpo", "pluggable", "dac", "acc", "aec", "utp"}
    media |= {"fiber_mmf", "fiber_smf"}
    keys = {p.label_key for p in PRESETS}
    keys |= {f"bom_category.{c}" for c in BOM_CATEGORIES}
    keys |= {f"power_category.{c}" for c in POWER_CATEGORIES}
    keys |= {f"tier.{t}" for t in ("leaf", "spine", "core", "top")}
    keys |= {f"link_class.{c}" for c in FABRIC_LINK_CLASSES}
    keys |= {
        f"latency_component.{c}" for c in ("host_nic", "serdes_fec", "optics_and_propagation", "switches")
    }
    keys |= {f"level.{lvl}" for lvl in (LEVEL_SCALE_UP, LEVEL_NETWORK)}
    keys |= {f"medium.{m}" for m in media}
    keys |= {f"family.{f}" for f in FAMILIES}
    keys |= {f"metric.{c}" for c in SUMMARY_COLUMNS}
    keys |= {f"unit.{m.unit}" for m in COMPARE_METRICS if m.is_money}
    keys |= {f"currency.{c}" for c in CURRENCIES}
    keys |= {f"cooling.{c}" for c in catalog.cooling}
    keys |= {f"claim_status.{s}" for s in ("not verified", "consistent", "verified")}
    keys |= {f"assumption_kind.{k}" for k in ("assumption", "source")}
    keys |= {f"rack_kind.{k}" for k in ("compute", "network")}
    keys |= {f"word.{b}_better" for b in ("lower", "higher")}
    keys |= {f"export.edition.{e}" for e in EDITIONS} | {f"export.edition_note.{e}" for e in EDITIONS}
    keys |= {f"export.form.{n}" for n in ("customer", "project", "author")}  # ui/views/proposal.py
    keys |= {f"reduction.{m}" for m in IN_SWITCH_REDUCTIONS}  # ui/sidebar.py
    shown = [i.name for i in INPUTS if i.name != "lang"]
    keys |= {f"input.{n}" for n in shown} | {f"help.input.{n}" for n in shown}
    # forms generated from the models' declarations (planner/inputs): labels, help (by default the
    # label's key with .help.), placeholders, choices and group titles
    views = (optimize, reliability, serving, workload)
    generated = [f for view in views for f in view.FIELDS] + list(serving.SIZING_FIELDS)
    keys |= {k for f in generated for k in (f.label_key, f.help_key, f.placeholder_key) if k}
    keys |= {k for f in generated for k in f.options.values()} | {g for v in views for g, _ in v.GROUPS}
    keys |= {f"acc.col.{c}" for c in ACCEPTANCE_COLUMNS} | {
        f"acc.status.{s}" for s in ("pass", "fail", "warn")
    }
    return frozenset(keys)


def test_every_key_built_from_an_enumeration_exists() -> None:
    missing = sorted(_dynamic_keys() - set(STRINGS))
    assert not missing, f"enumeration values without a translation: {missing}"


def test_media_kinds_cover_the_catalog() -> None:
    catalog = load_catalog()
    kinds: set[str] = {c.kind for c in catalog.cables.values()} | {o.kind for o in catalog.optics.values()}
    kinds |= {o.medium for o in catalog.optics.values()}
    assert {f"medium.{k}" for k in kinds} <= set(STRINGS)


def test_no_key_is_unused() -> None:
    """Dead strings rot: every key is named in code or built from an enumeration."""
    used = _literal_keys() | _key_like_constants() | _dynamic_keys()
    unused = sorted(set(STRINGS) - used)
    assert not unused, f"unused keys: {unused}"


# --- no UI text outside the table -------------------------------------------------------------

_TEXT_ARGS = {
    "title", "header", "subheader", "markdown", "caption", "write", "text", "info", "warning", "error",
    "success", "metric", "button", "selectbox", "number_input", "slider", "segmented_control", "radio",
    "checkbox", "expander", "tabs", "download_button", "file_uploader", "toast", "TextColumn", "NumberColumn",
    "Page", "set_page_config",
}  # fmt: skip
_TEXT_KWARGS = {"label", "help", "placeholder", "page_title", "title", "annotation_text"}
_TRACES = {"Bar", "Scatter", "Pie", "Scatterpolar", "add_annotation"}
"""Chart calls whose ``name`` (legend) and ``text`` (labels) are shown to the user."""
_NOT_WORDS = re.compile(r"<[^>]*>|%\{[^}]*\}|\{[^}]*\}|:material/[a-z_]+:|\b(kW|ns|GB/s|Gb/s|USD|W|m)\b")


def _has_words(node: ast.expr) -> bool:
    """True for a literal (or the literal parts of an f-string) that contains words."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return bool(re.search(r"[^\W\d_]", _NOT_WORDS.sub("", node.value)))
    if isinstance(node, ast.JoinedStr):
        return any(_has_words(v) for v in node.values if isinstance(v, ast.Constant))
    return False


def _literal_ui_text(path: Path) -> list[str]:
    found = []
    for call in _calls(ast.parse(path.read_text(encoding="utf-8"))):
        name = _func_name(call)
        args = list(call.args[:1]) if name in _TEXT_ARGS else []
        shown = _TEXT_KWARGS | ({"name", "text"} if name in _TRACES else set())
        args += [kw.value for kw in call.keywords if kw.arg in shown]
        found += [f"{path.name}:{call.lineno} {ast.unparse(a)}" for a in args if _has_words(a)]
    return found


def test_no_ui_text_without_a_key() -> None:
    """One test over every UI source file, listing every literal text at once."""
    found = [text for path in SOURCES for text in _literal_ui_text(path)]
    assert not found, "wrap these in t()/tr() with a key in locales/*/LC_MESSAGES/ui.po:\n" + "\n".join(found)


def test_the_text_check_can_fail(tmp_path: Path) -> None:
    sample = tmp_path / "page.py"
    sample.write_text('st.title("Hello")\nst.metric(label=f"Power {x}", value=1)\nst.caption(t("ok"))\n')
    assert len(_literal_ui_text(sample)) == 2


def test_missing_keys_are_visible_and_recorded() -> None:
    planner.i18n.MISSING.clear()
    assert tr("no.such.key", "zh") == "[no.such.key]"
    assert {"no.such.key:zh"} == planner.i18n.MISSING
    planner.i18n.MISSING.clear()


@pytest.mark.parametrize(
    "module",
    [planner.report.fmt, ui.inputs, planner.report.tables, planner.report.charts, ui.upload, planner.i18n],
)
def test_ui_doctests(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0


# --- the catalogs as files -------------------------------------------------------------------


@pytest.mark.parametrize("path", PO_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_po_file_parses_and_both_readers_agree(path: Path) -> None:
    """Babel is the reference; the app reads with :mod:`planner.i18n.po` (faster, see there)."""
    with path.open("rb") as handle:
        catalog = read_po(handle, abort_invalid=True)
    by_babel = {m.id: m.string for m in catalog if m.id and m.string and not m.fuzzy}
    assert po.read(path) == by_babel


def test_po_round_trip() -> None:
    entries = [
        po.Entry("plain", "纯文本"),
        po.Entry('quote " and \\ backslash', "引号"),
        po.Entry("two\nlines\n", "两\n行\n", notes=["gpus.x reason"]),
        po.Entry("not checked yet", "未审", fuzzy=True),
        po.Entry("gone", "旧", obsolete=True),
    ]
    text = po.dumps(entries, lang="zh", title="sample")
    assert [e for e in po.parse(text) if e.msgid] == entries
    assert po.read_text(text) == {
        "plain": "纯文本",
        'quote " and \\ backslash': "引号",
        "two\nlines\n": "两\n行\n",
    }


def test_the_reader_refuses_what_it_does_not_support() -> None:
    with pytest.raises(ValueError, match="msgctxt"):
        po.parse('msgctxt "x"\nmsgid "a"\nmsgstr "b"\n')
    with pytest.raises(ValueError, match="escape"):
        po.parse('msgid "a\\q"\nmsgstr "b"\n')


@pytest.mark.parametrize("lang", LANGS)
def test_no_id_is_translated_differently_by_two_files(lang: str) -> None:
    assert not catalogs.conflicts(lang)


def test_a_conflict_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "zh" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    for name, text in (("a", "甲"), ("b", "乙")):
        (folder / f"{name}.po").write_text(po.dumps([po.Entry("same id", text)], lang="zh", title=name))
    monkeypatch.setattr(catalogs, "LOCALES", tmp_path)
    catalogs.reload()
    try:
        assert len(catalogs.conflicts("zh")) == 1
    finally:
        monkeypatch.undo()
        catalogs.reload()


# --- engine templates and catalog prose --------------------------------------------------------


@functools.cache
def _templates() -> Mapping[str, list[str]]:
    """Every literal ``msg("...")`` template in planner/ and ui/ and where it is used."""
    _, found = _code_ids()
    templates: dict[str, list[str]] = {}
    for item in found:
        templates.setdefault(item.msgid, []).append(item.where)
    return templates


def test_the_template_scan_finds_templates() -> None:
    assert len(_templates()) > 10


def test_every_engine_template_has_a_chinese_translation() -> None:
    table = catalogs.engine_strings("zh")
    missing = [f"{t!r} ({where[0]})" for t, where in sorted(_templates().items()) if t not in table]
    assert not missing, f"{len(missing)} templates without a zh translation:\n" + "\n".join(missing)


def test_engine_translations_keep_the_placeholders() -> None:
    table = catalogs.engine_strings("zh")
    differ = [t for t in _templates() if t in table and _placeholders(t) != _placeholders(table[t])]
    assert not differ, f"placeholders differ: {differ}"


def test_every_translated_template_keeps_its_placeholders_in_every_file() -> None:
    """Also the templates no longer in the code: a translation that cannot be filled is a crash."""
    bad = [
        f"{path.name}: {msgid!r}"
        for path in catalogs.po_files("zh")
        if path.stem not in (catalogs.UI_DOMAIN, catalogs.DATA_DOMAIN)
        for msgid, msgstr in po.read(path).items()
        if _placeholders(msgid) != _placeholders(msgstr)
    ]
    assert not bad, bad


def test_engine_translations_are_not_the_english() -> None:
    """As for UI strings: a zh template identical to the English is allowed only for names."""
    same = [t for t, zh in catalogs.engine_strings("zh").items() if t == zh and len(t.split()) > 2]
    assert not same, f"untranslated: {same}"


def test_every_catalog_text_has_a_chinese_translation() -> None:
    table = catalogs.data_texts("zh")
    missing = [f"{d.where}: {d.msgid[:60]!r}" for d in extract.data_ids() if d.msgid not in table]
    assert not missing, f"{len(missing)} catalog texts without a zh translation:\n" + "\n".join(missing)


def test_catalog_translations_are_chinese_and_keep_figures() -> None:
    """Prose is in Chinese, and a translation repeats every number of the English (a dropped
    figure is a wrong text)."""
    numbers = re.compile(r"\d+(?:[.,]\d+)*")
    bad = []
    for english, chinese in catalogs.data_texts("zh").items():
        # a word outside placeholders, not just identifiers and figures
        prose = re.search(r"\b[a-z]{3,}\b", re.sub(r"\{[^}]*\}", "", english))
        if prose and not re.search(r"[\u4e00-\u9fff]", chinese):
            bad.append(f"not Chinese: {english[:50]!r}")
        lost = {n.replace(",", "") for n in numbers.findall(english)} - {
            n.replace(",", "") for n in numbers.findall(chinese)
        }
        if lost:
            bad.append(f"figures {sorted(lost)} missing: {english[:50]!r}")
    assert not bad, "\n".join(bad)


def _tables(monkeypatch: pytest.MonkeyPatch, engine: dict[str, str], data: dict[str, str]) -> None:
    monkeypatch.setattr(catalogs, "engine_strings", lambda lang: {} if lang == "en" else engine)
    monkeypatch.setattr(catalogs, "data_texts", lambda lang: {} if lang == "en" else data)


def test_translate_fills_a_template_in_the_language(monkeypatch: pytest.MonkeyPatch) -> None:
    _tables(monkeypatch, {"{n} servers in {where}": "{where}内 {n} 台服务器", "rack": "机柜"}, {})
    text = msg("{n} servers in {where}", n=4, where=msg("rack"))
    assert translate(text, "zh") == "机柜内 4 台服务器"
    assert translate(text, "en") == "4 servers in rack"


def test_translate_leaves_plain_and_unknown_text() -> None:
    assert translate("plain text", "zh") == "plain text"
    unknown = msg("a template nobody translated {n}", n=3)
    assert translate(unknown, "zh") == "a template nobody translated 3"


def test_data_texts_given_as_parameters_are_translated(monkeypatch: pytest.MonkeyPatch) -> None:
    english = "Price assumed {not a field}: 100 USD."
    _tables(
        monkeypatch, {"{name}: {reason}": "{name}：{reason}"}, {english: "价格为假设值 {非字段}：100 USD。"}
    )
    text = msg("{name}: {reason}", name="H100", reason=english)
    assert translate(text, "zh") == "H100：价格为假设值 {非字段}：100 USD。"
    assert translate(msg("{reason}?", reason=english), "zh") == f"{english}?"  # template unknown
    assert translate_text(english, "zh") == "价格为假设值 {非字段}：100 USD。"
    assert translate_text(english, "en") == english
    assert translate_text("no such data text", "zh") == "no such data text"


def test_an_error_keeps_its_message() -> None:
    message = msg("{n} servers", n=2)
    assert isinstance(planner.i18n.error_text(ValueError(message)), Message)
    assert planner.i18n.error_text(ValueError("a", "b")) == str(ValueError("a", "b"))


# --- the extraction command ----------------------------------------------------------------------


@pytest.mark.slow  # the maintainer's extraction run twice over the whole tree (~7 s CPU)
def test_extraction_is_idempotent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A second run changes nothing (and the first run only adds, it never drops a translation)."""
    copy = tmp_path / "locales"
    shutil.copytree(catalogs.LOCALES, copy)
    before = {p.relative_to(copy): po.read(p) for p in copy.glob("*/LC_MESSAGES/*.po")}
    monkeypatch.setattr(catalogs, "LOCALES", copy)
    try:
        extract.main([])
        first = {p: p.read_bytes() for p in sorted(copy.rglob("*.po*"))}
        extract.main([])
        second = {p: p.read_bytes() for p in sorted(copy.rglob("*.po*"))}
        after = {p.relative_to(copy): po.read(p) for p in copy.glob("*/LC_MESSAGES/*.po")}
    finally:
        monkeypatch.undo()
        catalogs.reload()
    assert first == second
    for name, table in before.items():
        kept = after[name]
        assert {k: v for k, v in table.items() if k in kept} == {k: kept[k] for k in table if k in kept}
        if name.stem != catalogs.DATA_DOMAIN:  # catalog prose can leave the data: kept as obsolete
            assert set(table) <= set(kept), name


def test_the_cli_help_reads_no_catalog() -> None:
    code = (
        "import sys, contextlib, io\n"
        "from planner.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['--help'])\n"
        "from planner.i18n import catalogs\n"
        "sys.exit(catalogs.domains.cache_info().currsize + ('babel' in sys.modules))\n"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0


# --- no English prose in the Chinese Assumptions and BOM tables ----------------------------------


def _table_plans() -> list[Plan]:
    """Every design at 1024 GPUs and every GPU at 256 on its default design (combinations the
    engine refuses are skipped), so most catalog records and engine notes appear."""
    catalog = load_catalog()
    scenarios = [Scenario(gpus=1024, design_id=d) for d in catalog.designs]
    scenarios += [Scenario(gpus=256, gpu_id=g) for g in catalog.gpus]
    plans = []
    for scenario in scenarios:
        try:
            plans.append(plan_scenario(scenario=scenario, catalog=catalog))
        except PlannerError:
            continue
    return plans


def test_assumptions_and_bom_tables_in_chinese_hold_no_english_prose() -> None:
    """Every cell of the zh Assumptions table and BOM table that a msg() template, a catalog
    text or a UI key renders has no English phrase (the PDF's detector, tests/prose.py). Cited
    sources are bibliographic references and stay as published (as in the PDF); the engine's
    own source notes ("assumption: ...") are messages and are checked."""
    found: dict[str, str] = {}
    plans = _table_plans()
    assert len(plans) >= 5
    for plan in plans:
        assumptions = planner.report.tables.assumptions_table(plan, "zh")
        for column in (tr("col.kind", "zh"), tr("col.text", "zh")):
            for cell in assumptions[column]:
                found |= dict.fromkeys(english_runs(str(cell)), f"{plan.design_id} assumptions: {cell}")
        bom = planner.report.tables.bom_table(plan, "zh")
        cells = [*bom["category_label"], *bom["description"]]
        cells += [
            shown
            for line, shown in zip(plan.bom, bom["source"], strict=True)
            if isinstance(line.source, Message)
        ]
        for cell in cells:
            found |= dict.fromkeys(english_runs(str(cell)), f"{plan.design_id} BOM: {cell}")
    assert not found, f"{len(found)} English phrases:\n" + "\n".join(
        f"{r!r} in {w}" for r, w in found.items()
    )


def test_the_table_check_can_fail() -> None:
    """The same tables in English are full of phrases the detector finds."""
    plan = _table_plans()[0]
    text = planner.report.tables.assumptions_table(plan, "en")[tr("col.text", "en")]
    assert sum(len(english_runs(str(cell))) for cell in text) > 10


def test_product_names_are_current_and_untranslated() -> None:
    """The reviewed list of product names (kept in every language) names records that exist,
    and none of them has a translation (a name is translated iff catalog.po has it)."""
    catalog = load_catalog()
    names = {r.name for family in FAMILIES for r in catalog.family(family).values()}
    kept = extract.product_names()
    assert kept and kept <= names, sorted(kept - names)
    assert not kept & set(catalogs.data_texts("zh")), sorted(kept & set(catalogs.data_texts("zh")))


def test_descriptive_names_show_in_chinese_and_product_names_as_they_are() -> None:
    catalog = load_catalog()
    assert translate_text(catalog.cables["fiber_mmf_mpo"].name, "zh") == "多模光纤 MPO 主干（OM4）"
    assert translate_text(catalog.switches["qm9700_ndr"].name, "zh") == catalog.switches["qm9700_ndr"].name
    cabling = planner.report.tables.media_table(
        plan_scenario(scenario=Scenario(gpus=1024, design_id="rail8-npo"), catalog=catalog), catalog, "zh"
    )
    assert "多模光纤 MPO 主干（OM4）" in set(cabling[tr("col.cable", "zh")])


def test_a_record_with_its_own_chinese_name_is_translated_by_it() -> None:
    table = catalogs.data_texts("zh")
    for design in load_catalog().designs.values():
        assert table.get(design.name) == design.name_zh, design.id
