"""Every text the user reads, in English and Chinese: UI strings, engine messages, catalog prose.

The translations are gettext PO catalogs in ``locales/<lang>/LC_MESSAGES/`` (see
:mod:`planner.i18n.catalogs`), read once per process the first time a text is needed, so a
command that shows no translated text (``planner --help``) never reads them.

* ``tr(key, lang, **params)``: a UI string by key (``ui.po``), ``{params}`` filled. A key
  missing from the language's catalog is a bug: ``tests/test_i18n.py`` fails on it, and at run
  time the key is shown in brackets and recorded in :data:`MISSING` (the app tests check it).
* ``translate(text, lang)``: an engine text (a :class:`~planner.i18n.message.Message`) filled
  again in ``lang`` from its template's translation; anything else comes back as it is.
* ``translate_text(text, lang)``: a plain catalog data text (a record's ``reason`` ...).

``tools/extract_translations.py`` (``make i18n``) collects the ids from the code and the data.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from planner.i18n import catalogs
from planner.i18n.counts import agree
from planner.i18n.message import Message, render

LANGUAGE_NAMES = {"en": "English", "zh": "中文"}
MISSING: set[str] = set()
"""Keys looked up but absent from the UI catalog of the language during this process."""


class _Strings(Mapping[str, Mapping[str, str]]):
    """Every UI string, ``key -> {lang: text}`` over :data:`LANGUAGE_NAMES` (read on first use)."""

    def _keys(self) -> dict[str, None]:
        return dict.fromkeys(k for lang in LANGUAGE_NAMES for k in catalogs.ui_strings(lang))

    def __getitem__(self, key: str) -> Mapping[str, str]:
        entry = {lang: table[key] for lang in LANGUAGE_NAMES if key in (table := catalogs.ui_strings(lang))}
        if not entry:
            raise KeyError(key)
        return entry

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())

    def __contains__(self, key: object) -> bool:
        return any(key in catalogs.ui_strings(lang) for lang in LANGUAGE_NAMES)


STRINGS: Mapping[str, Mapping[str, str]] = _Strings()
"""Every UI string: key -> {"en": ..., "zh": ...}."""


def tr(key: str, lang: str, **params: Any) -> str:
    """The string ``key`` in ``lang`` with ``{params}`` filled; ``[key]`` when it is missing.

    Parameters
    ----------
    key : str
        The UI string's key (``page.overview``).
    lang : str
        Language code, ``en`` or ``zh``.
    **params : Any
        Values of the template's fields.

    Returns
    -------
    str
        The text; ``[key]`` when the key is missing.

    Examples
    --------
    >>> tr("page.overview", "zh"), tr("kpi.tco", "en", years=5)
    ('概览', 'TCO over 5 years')
    """
    template = catalogs.ui_strings(lang).get(key)
    if template is None:
        MISSING.add(f"{key}:{lang}")
        return f"[{key}]"
    if not params:
        return template
    return (agree(template, params) if lang == "en" else template).format(**params)


def tr_enum(group: str, value: str, lang: str) -> str:
    """The label of an engine enumeration value (a category, tier, unit ...).

    Parameters
    ----------
    group : str
        The enumeration's key prefix (``category``, ``tier`` ...).
    value : str
        The engine's value.
    lang : str
        Language code, ``en`` or ``zh``.

    Returns
    -------
    str
        The label; ``[group.value]`` when it is missing.
    """
    return tr(f"{group}.{value}", lang)


def _lookup(template: str, lang: str) -> str | None:
    return catalogs.engine_strings(lang).get(template)


def _with_data_params(text: Message, lang: str) -> Message:
    """``text`` with its plain-string parameters that are catalog data texts (a record's reason
    given as ``{reason}``) replaced by their translation, when the template itself has one."""
    if _lookup(text.template, lang) is None:
        return text
    data = catalogs.data_texts(lang)
    params = {
        name: _with_data_params(value, lang)
        if isinstance(value, Message)
        else data.get(value, value)
        if type(value) is str
        else value
        for name, value in text.params.items()
    }
    return Message(text.template, params)


def translate(text: str, lang: str) -> str:
    """An engine text in ``lang``: a :class:`Message` whose template has a translation is filled
    again in ``lang`` (its message parameters, and data texts given as parameters, translated
    too); plain strings and unknown templates come back unchanged.

    Parameters
    ----------
    text : str
        An engine text: a :class:`Message` or a plain string.
    lang : str
        Language code, ``en`` or ``zh``.

    Returns
    -------
    str
        The text in ``lang``.

    Examples
    --------
    >>> from planner.i18n.message import msg
    >>> translate(msg("no such template {n}", n=1), "zh"), translate("plain", "zh")
    ('no such template 1', 'plain')
    """
    if lang == "en" or not isinstance(text, Message):
        return str(text)
    return render(_with_data_params(text, lang), lang, _lookup)


def translate_text(text: str, lang: str) -> str:
    """A plain catalog data text (a record's ``reason``, ``notes`` or ``description``) in
    ``lang``; a message is translated as :func:`translate` does; unknown text as it is.

    Parameters
    ----------
    text : str
        A catalog data text or a :class:`Message`.
    lang : str
        Language code, ``en`` or ``zh``.

    Returns
    -------
    str
        The text in ``lang``.
    """
    if isinstance(text, Message):
        return translate(text, lang)
    if lang == "en":
        return text
    return catalogs.data_texts(lang).get(text, text)


def error_text(error: BaseException) -> str:
    """The message of an engine error, as the :class:`Message` it was raised with when it was
    one (``str(error)`` would drop the template :func:`translate` needs).

    Parameters
    ----------
    error : BaseException
        An error raised by the engine.

    Returns
    -------
    str
        Its :class:`Message`, or its text.
    """
    if len(error.args) == 1 and isinstance(error.args[0], Message):
        return error.args[0]
    return str(error)
