"""Rules for the text a person types into the store: names, customers, tags, notes.

Each ``clean_*`` function returns the normalised value or raises :class:`InputError` naming the
field and the limit. One-line fields (name, customer, author, tag) refuse control,
bidirectional-override and zero-width characters (:func:`planner.files.check_plain_text`). Text
is stored as typed (after trimming); showing it safely (as text, never Markdown or HTML) is the
job of whoever renders it.
"""

from __future__ import annotations

from collections.abc import Iterable

from planner.errors import InputError, shorten
from planner.files import check_plain_text
from planner.i18n.message import msg
from planner.store.models import AUTHOR_MAX_CHARS, CUSTOMER_MAX_CHARS, NAME_MAX_CHARS, TAG_MAX_CHARS

NOTES_MAX_CHARS = 20_000
COMMENT_MAX_CHARS = 2_000
MAX_TAGS = 20


def _trimmed(value: str, *, field: str, max_chars: int, required: bool = False) -> str:
    """``value`` without surrounding white space, checked to be text of at most ``max_chars``."""
    if not isinstance(value, str):
        raise InputError(msg("{field}: must be text (got {type})", field=field, type=type(value).__name__))
    text = value.strip()
    if required and not text:
        raise InputError(msg("{field}: must not be empty", field=field))
    if len(text) > max_chars:
        raise InputError(
            msg(
                "{field}: at most {max_chars} characters (got {count})",
                field=field,
                max_chars=max_chars,
                count=len(text),
            )
        )
    return text


def _one_line(value: str, *, field: str, max_chars: int, required: bool) -> str:
    text = _trimmed(value, field=field, max_chars=max_chars, required=required)
    return check_plain_text(text, field=field)


def clean_name(value: str) -> str:
    """A scenario's name: one line, 1 to 200 characters.

    Parameters
    ----------
    value : str
        The name as typed.

    Returns
    -------
    str
        The name, trimmed.

    Raises
    ------
    InputError
        Not text, empty, longer than 200 characters, or not plain one-line text.

    Examples
    --------
    >>> clean_name("  Acme 1024 GPUs ")
    'Acme 1024 GPUs'
    """
    return _one_line(value, field="name", max_chars=NAME_MAX_CHARS, required=True)


def clean_customer(value: str) -> str:
    """The customer's name: one line, at most 200 characters, may be empty.

    Parameters
    ----------
    value : str
        The customer's name as typed.

    Returns
    -------
    str
        The name, trimmed.

    Raises
    ------
    InputError
        Not text, longer than 200 characters, or not plain one-line text.
    """
    return _one_line(value, field="customer", max_chars=CUSTOMER_MAX_CHARS, required=False)


def clean_author(value: str) -> str:
    """Who saved a version: one line, at most 200 characters, may be empty.

    Parameters
    ----------
    value : str
        The author as typed.

    Returns
    -------
    str
        The author, trimmed.

    Raises
    ------
    InputError
        Not text, longer than 200 characters, or not plain one-line text.
    """
    return _one_line(value, field="author", max_chars=AUTHOR_MAX_CHARS, required=False)


def clean_notes(value: str) -> str:
    """Free notes on a scenario: at most 20 000 characters, line breaks allowed.

    Parameters
    ----------
    value : str
        The notes as typed.

    Returns
    -------
    str
        The notes, trimmed.

    Raises
    ------
    InputError
        Not text, or longer than 20 000 characters.
    """
    return _trimmed(value, field="notes", max_chars=NOTES_MAX_CHARS)


def clean_comment(value: str) -> str:
    """What a version changed: at most 2 000 characters, line breaks allowed.

    Parameters
    ----------
    value : str
        The comment as typed.

    Returns
    -------
    str
        The comment, trimmed.

    Raises
    ------
    InputError
        Not text, or longer than 2 000 characters.
    """
    return _trimmed(value, field="comment", max_chars=COMMENT_MAX_CHARS)


def clean_tag(value: str) -> str:
    """One tag: lower case, inner spaces collapsed, 1 to 50 characters.

    Parameters
    ----------
    value : str
        The tag as typed.

    Returns
    -------
    str
        The tag, lower case.

    Raises
    ------
    InputError
        Not text, empty, longer than 50 characters, or not plain one-line text.

    Examples
    --------
    >>> clean_tag("  Workshop   Q3 ")
    'workshop q3'
    """
    text = _one_line(value, field="tag", max_chars=TAG_MAX_CHARS, required=True)
    return " ".join(text.split()).lower()


def clean_tags(values: Iterable[str]) -> tuple[str, ...]:
    """Tags of one scenario: each cleaned, duplicates dropped, sorted, at most 20.

    Parameters
    ----------
    values : iterable of str
        The tags as typed (a list, not one string).

    Returns
    -------
    tuple of str
        The cleaned tags, sorted, without duplicates.

    Raises
    ------
    InputError
        A single string was given, a tag is invalid, or there are more than 20.

    Examples
    --------
    >>> clean_tags(["NPO", "workshop", "npo"])
    ('npo', 'workshop')
    """
    if isinstance(values, str):
        raise InputError(msg("tags: must be a list of tags, not one string"))
    tags = tuple(sorted({clean_tag(v) for v in values}))
    if len(tags) > MAX_TAGS:
        raise InputError(
            msg("tags: at most {max_tags} tags (got {count})", max_tags=MAX_TAGS, count=len(tags))
        )
    return tags


MAX_ID = 2**31 - 1
"""Largest scenario id or version number: the id and version columns are SQL ``INTEGER``, a
signed 32-bit integer on PostgreSQL (64-bit on SQLite); the smaller range holds on both, and a
larger value would make PostgreSQL refuse the query ("integer out of range") or the driver raise
``OverflowError``."""


def _whole_number(value: int, *, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ID:
        raise InputError(
            msg(
                "{field}: must be a whole number from 1 to {limit} (got {value})",
                field=field,
                limit=MAX_ID,
                value=shorten(repr(value)),
            )
        )
    return value


def check_version_number(value: int, *, field: str = "version") -> int:
    """A version number: a whole number from 1 to :data:`MAX_ID`.

    Parameters
    ----------
    value : int
        The version number.
    field : str
        The field named in the error.

    Returns
    -------
    int
        ``value``.

    Raises
    ------
    InputError
        Not a whole number from 1 to :data:`MAX_ID`.

    Examples
    --------
    >>> check_version_number(2**31)
    Traceback (most recent call last):
    ...
    planner.errors.InputError: version: must be a whole number from 1 to 2147483647 (got 2147483648)
    """
    return _whole_number(value, field=field)


def check_scenario_id(value: int) -> int:
    """A scenario id: a whole number from 1 to :data:`MAX_ID`.

    Parameters
    ----------
    value : int
        The scenario id.

    Returns
    -------
    int
        ``value``.

    Raises
    ------
    InputError
        Not a whole number from 1 to :data:`MAX_ID`.
    """
    return _whole_number(value, field=msg("scenario id"))
