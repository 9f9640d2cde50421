"""The translation catalogs in ``locales/<lang>/LC_MESSAGES/``, read once per process on first use.

Three kinds of domain (one PO file each):

* ``ui.po``: the UI strings, ``msgid`` = a key such as ``page.overview`` (English has one too);
* ``catalog.po``: prose of the catalog data (``reason``, ``notes``, ``description``,
  ``source``, ``unit``, ``region`` of the records in ``data/*.yaml``), ``msgid`` = the exact
  English text;
* every other ``*.po`` (``engine_core.po``, ``engine_data.po``, ``report.po`` ...): engine
  templates marked with :func:`planner.i18n.message.msg`, ``msgid`` = the English template.

Templates and data texts of all non-UI domains share one lookup table per language: the same
English text means the same thing wherever it is marked. :func:`conflicts` lists ids two files
translate differently (``tests/test_i18n.py`` fails on any).
"""

from __future__ import annotations

import functools
from pathlib import Path

from planner.i18n import po

LOCALES = Path(__file__).resolve().parents[2] / "locales"
"""Root of the catalogs: ``<lang>/LC_MESSAGES/<domain>.po`` (and ``messages.pot``)."""
UI_DOMAIN = "ui"
DATA_DOMAIN = "catalog"


def po_files(lang: str) -> list[Path]:
    """Every PO file of ``lang``, sorted by name (an unknown language has none).

    Parameters
    ----------
    lang : str
        Language code.

    Returns
    -------
    list of Path
        The PO files.
    """
    return sorted((LOCALES / lang / "LC_MESSAGES").glob("*.po"))


@functools.cache
def domains(lang: str) -> dict[str, dict[str, str]]:
    """``domain -> {msgid: msgstr}`` of every PO file of ``lang`` (parsed once per process)."""
    return {path.stem: po.read(path) for path in po_files(lang)}


def ui_strings(lang: str) -> dict[str, str]:
    """UI key -> text in ``lang``.

    Parameters
    ----------
    lang : str
        Language code.

    Returns
    -------
    dict of str to str
        The UI strings by key.
    """
    return domains(lang).get(UI_DOMAIN, {})


@functools.cache
def _merged(lang: str) -> tuple[dict[str, str], tuple[str, ...]]:
    table: dict[str, str] = {}
    origin: dict[str, str] = {}
    clashes: list[str] = []
    for domain, entries in domains(lang).items():
        if domain == UI_DOMAIN:
            continue
        for msgid, msgstr in entries.items():
            if msgid in table and table[msgid] != msgstr:
                clashes.append(f"{msgid!r}: {origin[msgid]}.po and {domain}.po differ")
                continue
            table[msgid] = msgstr
            origin.setdefault(msgid, domain)
    return table, tuple(clashes)


def engine_strings(lang: str) -> dict[str, str]:
    """English template or data text -> its translation in ``lang`` (all non-UI domains).

    Parameters
    ----------
    lang : str
        Language code.

    Returns
    -------
    dict of str to str
        Translations by English text.
    """
    return _merged(lang)[0]


def data_texts(lang: str) -> dict[str, str]:
    """English catalog data text -> its translation in ``lang`` (``catalog.po`` only).

    Parameters
    ----------
    lang : str
        Language code.

    Returns
    -------
    dict of str to str
        Translations by English text.
    """
    return domains(lang).get(DATA_DOMAIN, {})


def conflicts(lang: str) -> tuple[str, ...]:
    """Ids translated differently by two domains of ``lang`` (the first file by name wins).

    Parameters
    ----------
    lang : str
        Language code.

    Returns
    -------
    tuple of str
        The conflicting ids.
    """
    return _merged(lang)[1]


def reload() -> None:
    """Forget what was read (after the extraction command rewrote the files; tests)."""
    domains.cache_clear()
    _merged.cache_clear()
