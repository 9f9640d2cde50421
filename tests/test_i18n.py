"""Every UI string has English and Chinese; no UI text bypasses the table.

Three checks: the table itself (both languages, same placeholders); every key the code names
or builds from an engine enumeration exists; no literal text reaches a Streamlit element or a
chart title without going through ``t()``/``tr()``. (The app tests also fail when any page looks
up a missing key at run time: ``planner.i18n.MISSING``.)
"""

from __future__ import annotations

import ast
import doctest
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

import planner.i18n
import planner.report.charts
import planner.report.fmt
import planner.report.tables
import ui.inputs
import ui.upload
from planner import load_catalog
from planner.catalog import FAMILIES
from planner.cost import BOM_CATEGORIES
from planner.fabric.media import LINK_CLASSES
from planner.fabric.network import LEVEL_NETWORK, LEVEL_SCALE_UP
from planner.facility.power import POWER_CATEGORIES
from planner.i18n import STRINGS, tr
from planner.outputs import SUMMARY_COLUMNS
from planner.report.tables import COMPARE_METRICS
from ui.inputs import CURRENCIES, INPUTS
from ui.presets import PRESETS

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("en", "zh")
SOURCES = sorted(
    [
        ROOT / "app.py",
        *(ROOT / "ui").rglob("*.py"),
        *(ROOT / "pages").glob("*.py"),
        *(ROOT / "planner" / "report").rglob("*.py"),
        *(ROOT / "planner" / "i18n").glob("*_strings.py"),
    ]
)


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("key", sorted(STRINGS))
def test_every_key_has_both_languages_with_the_same_placeholders(key: str) -> None:
    entry = STRINGS[key]
    assert set(entry) == set(LANGS), f"{key}: languages {sorted(entry)}"
    assert all(entry[lang].strip() for lang in LANGS), f"{key}: empty text"
    assert _placeholders(entry["en"]) == _placeholders(entry["zh"]), key


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


def _literal_keys() -> set[str]:
    keys = set()
    for path in SOURCES:
        for call in _calls(ast.parse(path.read_text(encoding="utf-8"))):
            if _func_name(call) in ("t", "tr") and call.args and isinstance(call.args[0], ast.Constant):
                keys.add(str(call.args[0].value))
    return keys


def test_every_literal_key_exists() -> None:
    missing = sorted(_literal_keys() - set(STRINGS))
    assert not missing, f"keys used in code but absent from ui/i18n.py: {missing}"


def _key_like_constants() -> set[str]:
    """String constants shaped like a key of a group the table knows (catches typos in data)."""
    groups = {k.split(".", 1)[0] for k in STRINGS}
    found = set()
    for path in SOURCES:
        if path.name == "i18n.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                if (
                    re.fullmatch(r"[a-z_]+(\.[a-z_]+)+", text)
                    and text.split(".", 1)[0] in groups
                    and not re.search(r"\.(json|csv|yaml|yml|py)$", text)
                ):
                    found.add(text)
    return found


def test_every_key_named_in_data_exists() -> None:
    missing = sorted(_key_like_constants() - set(STRINGS))
    assert not missing, f"key-like strings absent from ui/i18n.py: {missing}"


def _dynamic_keys() -> set[str]:
    """Keys built from engine enumerations, inputs, presets and the catalog."""
    catalog = load_catalog()
    media = {"npo", "cpo", "mmf", "smf", "lpo", "pluggable", "dac", "acc", "aec", "fiber_mmf", "fiber_smf"}
    keys = {p.label_key for p in PRESETS}
    keys |= {f"bom_category.{c}" for c in BOM_CATEGORIES}
    keys |= {f"power_category.{c}" for c in POWER_CATEGORIES}
    keys |= {f"tier.{t}" for t in ("leaf", "spine", "core")}
    keys |= {f"link_class.{c}" for c in LINK_CLASSES}
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
    shown = [i.name for i in INPUTS if i.name != "lang"]
    keys |= {f"input.{n}" for n in shown} | {f"help.input.{n}" for n in shown}
    return keys


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


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_no_ui_text_without_a_key(path: Path) -> None:
    assert not _literal_ui_text(path), "wrap these in t()/tr() with a key in ui/i18n.py"


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
