"""Assumptions in plain words, for the customer: what a figure is and its value with its unit.

The catalog explains an assumed figure for the model's maintainers: its field name
(``base_power_w``), how it was chosen and what it is *not* ("the vendor's claim is NOT used").
A customer reads what was assumed: "Server power without GPUs 3,000 W". This module writes that
from the catalog record itself (each field's label and unit from the catalog's schema,
:mod:`planner.report.catalog_table`), so the words and the figures the model used cannot
disagree. The internal edition keeps the maintainers' text in an appendix.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from planner import Catalog
from planner.catalog import FAMILIES
from planner.catalog.schema import Record
from planner.i18n import translate_text
from planner.report import catalog_table, fmt

SKIPPED_FIELDS = frozenset({"id", "name", "name_zh", "description", *catalog_table.PROVENANCE})
"""Fields that are no figure (names and provenance)."""

PRICE_MARKERS = ("usd", "cost", "price")
"""A field whose name holds one of these is a price: prices are the offer's business, not an
assumption about the hardware (and the customer edition shows no cost)."""


def _figure(value: float) -> str:
    """``3000 -> "3,000"``, ``0.92 -> "0.92"``, ``12.5 -> "12.5"``."""
    if float(value).is_integer():
        return fmt.number(value)
    return fmt.number(value, 2).rstrip("0").rstrip(".") if abs(value) < 100 else fmt.number(value)


def _separators(lang: str) -> tuple[str, str]:
    """(between name and figures, between two figures) in ``lang``."""
    return ("：", "；") if lang == "zh" else (": ", "; ")


def _fields(model: BaseModel, prefix: str = "") -> list[tuple[str, float]]:
    """Every numeric field of a record, nested models flattened (``fabric.ports_per_gpu``)."""
    found: list[tuple[str, float]] = []
    for name in type(model).model_fields:
        value = getattr(model, name)
        if name in SKIPPED_FIELDS or any(m in name for m in PRICE_MARKERS):
            continue
        if isinstance(value, BaseModel):
            found += _fields(value, f"{prefix}{name}.")
        elif isinstance(value, int | float) and not isinstance(value, bool):
            found.append((f"{prefix}{name}", float(value)))
    return found


def record_figures(family: str, record: Record, lang: str) -> str:
    """A record's figures in plain words: ``"Typical power 900 W; Latency 300 ns"``.

    Parameters
    ----------
    family : str
        Catalog family.
    record : Record
        The catalog record.
    lang : str
        Language (``en`` or ``zh``).

    Returns
    -------
    str
        Labelled figures with units, joined.

    >>> from planner import load_catalog
    >>> record_figures("racks", load_catalog().racks["rack_42u_std"], "en")
    'Height 42 U; Usable height 38 U'
    """
    if family in ("sizing_rules", "cost_factors"):
        return _rule_figure(record, lang)
    parts = []
    for path, value in _fields(record):
        label, unit = catalog_table.label_and_unit(family, path, lang)
        if unit == "—" or path.endswith("_fraction"):
            parts.append(f"{label} {fmt.percent(value)}")
        else:
            parts.append(f"{label} {_figure(value)}" + ("" if unit in catalog_table.NO_UNIT else f" {unit}"))
    return _separators(lang)[1].join(parts)


def _rule_figure(record: Record, lang: str) -> str:
    """A sizing rule's or cost factor's value with its unit (a fraction as a percentage)."""
    value, unit = float(getattr(record, "value", 0.0)), str(getattr(record, "unit", ""))
    if any(currency in unit for currency in ("USD", "CNY")):
        return ""  # a price: the offer's business (see PRICE_MARKERS)
    if unit.startswith("fraction"):  # the rule's name says of what ("fraction of hardware CAPEX")
        return fmt.percent(value, 1 if value < 0.1 else 0)
    if unit in (*catalog_table.NO_UNIT, "ratio"):
        return _figure(value)
    return f"{_figure(value)} {translate_text(unit, lang)}"


def assumption_text(topic: str, catalog: Catalog, lang: str) -> str | None:
    """The plain words of an assumption on ``topic`` (``servers.biren_hearten_8oam``): the record's
    name and its figures; ``None`` for a topic that is no catalog record (a model choice, whose
    engine text is already plain).

    Parameters
    ----------
    topic : str
        Assumption topic, ``family.record_id``.
    catalog : Catalog
        The catalog.
    lang : str
        Language (``en`` or ``zh``).

    Returns
    -------
    str or None
        Name and figures, or ``None``.
    """
    family, _, record_id = topic.partition(".")
    if family not in FAMILIES:
        return None
    record = catalog.family(family).get(record_id)
    if record is None:
        return None
    name = translate_text(record.name, lang)
    figures = record_figures(family, record, lang)
    return f"{name}{_separators(lang)[0]}{figures}" if figures else name


_BRACKETED = re.compile(r"\s*[（(][^（）()]*[）)]")
REMARK_MARKERS = (
    "undated",
    "no named author",
    "vendor claim",
    "not used",
    "quality",
    "无日期",
    "未署名",
    "厂商宣称",
)
"""Words that make a bracketed part of a source a remark for the model's keepers (how the
document was judged: "Chinese, undated, no named author", "a vendor claim", "quality B") rather
than part of the citation (a title, a section, an address, a date)."""


def plain_source(text: str) -> str:
    """A citation without its bracketed remarks; titles, sections, addresses and dates stay.

    Parameters
    ----------
    text : str
        A citation.

    Returns
    -------
    str
        The citation without remarks.

    >>> plain_source("Vendor document (Chinese, undated, no named author), section 2.1 (a vendor claim) (2026-11)")
    'Vendor document, section 2.1 (2026-11)'
    >>> plain_source("federalreserve.gov (Foreign Exchange Rates G.5) (2024-07-01)")
    'federalreserve.gov (Foreign Exchange Rates G.5) (2024-07-01)'
    >>> plain_source("壁仞科技文档（中文，无日期，未署名作者），2.1 节（厂商宣称）")
    '壁仞科技文档，2.1 节'
    """

    def drop(match: re.Match[str]) -> str:
        remark = match.group(0).lower()
        return "" if any(marker in remark for marker in REMARK_MARKERS) else match.group(0)

    return _BRACKETED.sub(drop, text).strip()
