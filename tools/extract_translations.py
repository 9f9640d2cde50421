"""Collect every translatable id and merge the new ones into the catalogs (``make i18n``).

``python tools/extract_translations.py`` (``make i18n``) writes ``locales/messages.pot`` (every id with where it comes
from) and adds each id a language lacks to its PO file with an empty translation, keeping every
existing translation:

* UI keys: the literal first argument of ``tr(...)``/``t(...)`` calls -> ``<lang>/ui.po``. Keys
  built at run time from enumerations cannot be found in the code; they are kept as they are.
* Engine templates: the literal first argument of ``msg(...)`` and ``kept_msg(...)`` calls in ``planner/`` and ``ui/``
  -> ``zh/<domain>.po`` of the file's owner (:data:`TEMPLATE_DOMAINS`), appended at the end so
  the rest of that file stays byte for byte as its translator wrote it.
* Catalog prose: the ``reason``, ``notes``, ``description``, ``source``, ``unit`` and
  ``region`` texts of the records in ``data/*.yaml``, and the descriptions of the catalog
  schema's fields, nested ones too (the Catalog page's field reference) -> ``zh/catalog.po``. A text no longer in the data is kept as an obsolete
  (``#~``) entry; a new text close to an obsolete one gets that translation marked fuzzy, which
  counts as untranslated until a translator checks it.
* Record names, by one rule: **a name is translated iff catalog.po has it.** Every record name
  is proposed for ``zh/catalog.po`` except the product names listed in
  :data:`PRODUCT_NAMES_FILE` (``locales/product_names.txt``, reviewed by hand): a name made only
  of vendor, product line, model and specifications (``NVIDIA Quantum-2 QM9700 (64 x 400G NDR)``,
  ``NVIDIA H100 SXM5 80 GB``) stays as it is in every language; a name that describes a part in
  words (``Multimode fiber MPO trunk (OM4)``, ``Broadcom Tomahawk 5 class 51.2T Ethernet switch
  (generic, 64 x 800G)``) is translated. A new record's name therefore shows up untranslated in
  ``catalog.po`` (and ``tests/test_i18n.py`` fails) until it is translated or listed as a
  product name. A record with its own ``name_zh`` (a design) is translated by exactly that
  text (``tests/test_i18n.py`` checks).

Running it twice changes nothing the second time (``tests/test_i18n.py`` checks).
"""

from __future__ import annotations

import argparse
import ast
import difflib
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

from pydantic import BaseModel

from planner.i18n import catalogs, po
from planner.report.catalog_table import NESTED_PROSE_SUFFIXES

ROOT = catalogs.LOCALES.parent
TARGET_LANGS = ("zh",)
"""Languages that translate engine templates and catalog prose (English is the source)."""
UI_LANGS = ("en", "zh")
CODE_DIRS = ("app.py", "pages", "ui", "planner")
DATA_FIELDS = ("name", "description", "reason", "notes", "source", "unit", "region")
"""Record fields of ``data/*.yaml`` that the app and the PDF show as prose (names: see
:func:`product_names`). A ``source`` is translated whole: its prose in the reader's language,
its citations (titles in 《》, authors, addresses, product names) as published."""
PRODUCT_NAMES_FILE = catalogs.LOCALES / "product_names.txt"
"""Record names kept as they are in every language, one per line (``#`` starts a comment)."""
TEMPLATE_DOMAINS: tuple[tuple[str, str], ...] = (
    ("planner/report/", "report"),
    ("ui/upload.py", "engine_data"),
    ("ui/", "report"),
    ("planner/engine.py", "engine_core"),
    ("planner/bom.py", "engine_core"),
    ("planner/resolve.py", "engine_core"),
    ("planner/fabric/topology.py", "engine_core"),
    ("planner/outputs.py", "engine_core"),
    ("planner/optimize/", "engine_core"),
    ("planner/performance/serving/", "engine_serving"),
    ("planner/performance/training/", "engine_training"),
    ("planner/performance/", "engine_core"),
    ("planner/fabric/scale_up.py", "engine_scale_up"),
    ("planner/handoff/", "engine_handoff"),
    ("planner/tenancy/", "engine_tenancy"),
    ("planner/jobmix/", "engine_tenancy"),
    ("planner/sweep/", "engine_sweep"),
    ("planner/access.py", "engine_access"),
    ("planner/measure/", "engine_measure"),
    ("planner/", "engine_data"),
)
"""Which PO file a new template is added to: the first path prefix its source file matches."""


@dataclass(frozen=True)
class Found:
    """One id and where it was found (``path:line`` or ``family.record field``)."""

    msgid: str
    where: str


def _python_files() -> Iterator[Path]:
    for name in CODE_DIRS:
        path = ROOT / name
        if path.is_file():
            yield path
        else:
            yield from sorted(p for p in path.rglob("*.py") if "migrations" not in p.parts)


def _first_literal(call: ast.Call) -> str | None:
    if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
        return call.args[0].value
    return None


def _call_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def code_ids() -> tuple[list[Found], list[Found]]:
    """UI keys (``tr``/``t`` calls) and engine templates (``msg`` calls), in file order."""
    keys: list[Found] = []
    templates: list[Found] = []
    for path in _python_files():
        relative = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=relative)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name, text = _call_name(node), _first_literal(node)
            if text is None:
                continue
            if name in ("tr", "t"):
                keys.append(Found(text, f"{relative}:{node.lineno}"))
            elif name in ("msg", "kept_msg"):
                templates.append(Found(text, f"{relative}:{node.lineno}"))
    return keys, templates


def product_names() -> frozenset[str]:
    """The reviewed product names of :data:`PRODUCT_NAMES_FILE` (never translated)."""
    lines = PRODUCT_NAMES_FILE.read_text(encoding="utf-8").splitlines()
    return frozenset(s for line in lines if (s := line.strip()) and not s.startswith("#"))


def _proposed(record: object, field: str, kept: frozenset[str]) -> str | None:
    """The text of ``field`` when it is prose to translate (names: not a product name)."""
    text = getattr(record, field, None)
    if not isinstance(text, str) or not text.strip():
        return None
    if field == "name" and text in kept:
        return None
    if field == "unit" and " " not in text.strip():
        # a one-word unit (count, ratio, min) is a symbol, not prose; in the shared lookup it
        # would also translate an engine message's parameter that happens to be that word
        return None
    return text


def data_ids() -> list[Found]:
    """The prose texts of the default catalog, one per distinct text, in family order."""
    from planner.catalog import FAMILIES, load_catalog

    catalog = load_catalog()
    kept = product_names()
    found: list[Found] = []
    for family in FAMILIES:
        for record in catalog.family(family).values():
            for field in DATA_FIELDS:
                text = _proposed(record, field, kept)
                if text is not None:
                    found.append(Found(text, f"{family}.{record.id} {field}"))
            found += _nested_prose(record, f"{family}.{record.id}")
    # the meaning of each field, as the Catalog page's field reference shows it
    for family, model in FAMILIES.items():
        found += _field_descriptions(model, f"schema {family}.")
    return found


def _nested_prose(record: BaseModel, where: str) -> list[Found]:
    """The provenance prose of a record's nested models (``visible_memory.memory_source``,
    ``host_link.link_reason``: fields ending in ``NESTED_PROSE_SUFFIXES``), which the Catalog
    page shows in the reader's language."""
    found: list[Found] = []
    for name in type(record).model_fields:
        inner = getattr(record, name)
        if not isinstance(inner, BaseModel):
            continue
        for field in type(inner).model_fields:
            text = getattr(inner, field)
            if field.endswith(NESTED_PROSE_SUFFIXES) and isinstance(text, str) and text.strip():
                found.append(Found(text, f"{where} {name}.{field}"))
    return found


def _field_descriptions(model: type[BaseModel], prefix: str) -> list[Found]:
    """Descriptions of ``model``'s fields and of the models it nests (a design's ``fabric``,
    its tuple of ``claims``): the field reference lists those fields too."""
    found: list[Found] = []
    for name, info in model.model_fields.items():
        if info.description:
            found.append(Found(info.description, f"{prefix}{name}"))
        for inner in (info.annotation, *get_args(info.annotation)):
            if isinstance(inner, type) and issubclass(inner, BaseModel):
                found += _field_descriptions(inner, f"{prefix}{name}.")
    return found


def _unique(found: list[Found]) -> dict[str, list[str]]:
    """``msgid -> [where, ...]`` in first-seen order."""
    merged: dict[str, list[str]] = {}
    for item in found:
        merged.setdefault(item.msgid, []).append(item.where)
    return merged


def domain_of(path: str) -> str:
    """The PO file (domain) a template found in ``path`` is added to."""
    return next(domain for prefix, domain in TEMPLATE_DOMAINS if path.startswith(prefix))


def _po_path(lang: str, domain: str) -> Path:
    return catalogs.LOCALES / lang / "LC_MESSAGES" / f"{domain}.po"


def _read_entries(path: Path) -> list[po.Entry]:
    if not path.exists():
        return []
    return [e for e in po.parse(path.read_text(encoding="utf-8"), name=str(path)) if e.msgid]


def _write(path: Path, text: str) -> bool:
    """Write ``text`` if it differs; check Babel reads it; True when the file changed."""
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    _check_with_babel(path)
    return True


def _check_with_babel(path: Path) -> None:
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        read_po(handle, abort_invalid=True)


def pot_text(keys: dict[str, list[str]], templates: dict[str, list[str]], data: dict[str, list[str]]) -> str:
    """The template catalog: every id once, with where it comes from."""
    entries = [po.Entry(k, notes=[f"ui: {', '.join(w)}"]) for k, w in keys.items()]
    entries += [po.Entry(t, notes=[f"msg: {', '.join(w)}"]) for t, w in templates.items() if t not in keys]
    entries += [
        po.Entry(d, notes=[f"data: {', '.join(w)}"])
        for d, w in data.items()
        if d not in keys and d not in templates
    ]
    return po.dumps(entries, lang="", title="Every translatable text of GPU Cluster Planner (make i18n).")


def merge_ui(lang: str, keys: dict[str, list[str]]) -> bool:
    """Add the keys ``ui.po`` of ``lang`` lacks (empty translation); keep everything else."""
    path = _po_path(lang, catalogs.UI_DOMAIN)
    entries = _read_entries(path)
    known = {e.msgid for e in entries}
    entries += [po.Entry(k) for k in sorted(keys) if k not in known]
    return _write(path, po.dumps(entries, lang=lang, title=f"UI strings ({lang}), msgid = key."))


def merge_data(lang: str, data: dict[str, list[str]], templates: dict[str, list[str]]) -> bool:
    """``catalog.po`` of ``lang``: one entry per data text in data order, translations kept, then
    the templates that compose catalog texts (``"{name}: {reason}"``) it also holds."""
    path = _po_path(lang, catalogs.DATA_DOMAIN)
    old = {e.msgid: e for e in _read_entries(path)}
    composing = [po.Entry(k, e.msgstr, notes=templates[k]) for k, e in old.items() if k in templates]
    gone = {k: e for k, e in old.items() if k not in data and k not in templates and e.msgstr}
    entries = []
    for text, where in data.items():
        entry = old.get(text)
        if entry is None or entry.obsolete:
            entry = po.Entry(text, msgstr=entry.msgstr if entry else "")
        if not entry.msgstr and gone:
            close = difflib.get_close_matches(text, list(gone), n=1, cutoff=0.8)
            if close:
                entry = po.Entry(text, msgstr=gone.pop(close[0]).msgstr, fuzzy=True)
        entry.notes = list(where)
        entries.append(entry)
    entries += [e for e in composing if e.msgid not in data]
    entries += [po.Entry(k, msgstr=e.msgstr, obsolete=True) for k, e in gone.items()]
    title = (
        f"Catalog data prose ({lang}): names, reason, notes and description of data/*.yaml; "
        "msgid = the English text."
    )
    return _write(path, po.dumps(entries, lang=lang, title=title))


def merge_templates(lang: str, templates: dict[str, list[str]]) -> tuple[list[Path], list[str]]:
    """Append each template no domain of ``lang`` has to its owner's PO file, when that file
    exists (a domain is created by the engineer who owns it); return the files changed and the
    templates left out because their file does not exist."""
    catalogs.reload()
    known = {e.msgid for path in catalogs.po_files(lang) for e in _read_entries(path)}
    missing: dict[str, list[str]] = {}
    for template, where in templates.items():
        if template not in known:
            missing.setdefault(domain_of(where[0]), []).append(template)
    changed, left_out = [], []
    for domain, new in sorted(missing.items()):
        path = _po_path(lang, domain)
        if not path.exists():
            left_out += [f"{lang}/{domain}.po (no such file): {t!r}" for t in new]
            continue
        body = po.dumps_entries([po.Entry(t, notes=templates[t]) for t in new])
        _write(path, path.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + body)
        changed.append(path)
    return changed, left_out


def main(argv: list[str] | None = None) -> int:
    """Regenerate ``locales/messages.pot`` and merge new ids; print what changed."""
    parser = argparse.ArgumentParser(
        prog="python tools/extract_translations.py",
        description="Collect UI keys, msg() templates and catalog prose into locales/messages.pot "
        "and add the ids each language lacks to its PO files (untranslated).",
    )
    parser.parse_args(argv)
    keys_found, templates_found = code_ids()
    keys, templates, data = _unique(keys_found), _unique(templates_found), _unique(data_ids())
    changed: list[Path] = []
    pot = catalogs.LOCALES / "messages.pot"
    if _write(pot, pot_text(keys, templates, data)):
        changed.append(pot)
    changed += [_po_path(lang, "ui") for lang in UI_LANGS if merge_ui(lang, keys)]
    changed += [_po_path(lang, "catalog") for lang in TARGET_LANGS if merge_data(lang, data, templates)]
    left_out: list[str] = []
    for lang in TARGET_LANGS:
        written, skipped = merge_templates(lang, templates)
        changed += written
        left_out += skipped
    catalogs.reload()
    for path in changed:
        print(f"updated {path}")
    for line in left_out:
        print(f"not added, {line}")
    print(f"{len(keys)} UI keys in code, {len(templates)} templates, {len(data)} catalog texts")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
