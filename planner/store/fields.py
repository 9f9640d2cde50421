"""Rules for the text a person types into the store: names, customers, tags, notes.

Each ``clean_*`` function returns the normalised value or raises :class:`InputError` naming the
field and the limit. One-line fields (name, customer, author, tag) refuse control,
bidirectional-override and zero-width characters (:func:`planner.files.check_plain_text`). Text
is stored as typed (after trimming); showing it safely (as text, never Markdown or HTML) is the
job of whoever renders it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

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


@dataclass(frozen=True)
class TextField:
    """A text field a person types into the store, and its rule: trimmed, at most ``max_chars``
    characters; a one-line field refuses control, bidirectional-override and zero-width characters.

    Examples
    --------
    >>> clean_name("  Acme 1024 GPUs ")
    'Acme 1024 GPUs'
    """

    field: str
    """The field's name, as errors name it."""
    max_chars: int
    """Longest text allowed [characters]."""
    one_line: bool
    """Plain one-line text (:func:`planner.files.check_plain_text`); else line breaks are allowed."""
    required: bool = False
    """Empty text is refused."""

    def clean(self, value: str) -> str:
        """``value`` trimmed and checked against the field's rule.

        Parameters
        ----------
        value : str
            The text as typed.

        Returns
        -------
        str
            The text, trimmed.

        Raises
        ------
        InputError
            Not text, empty (when required), too long, or (one-line fields) not plain one-line text.
        """
        text = _trimmed(value, field=self.field, max_chars=self.max_chars, required=self.required)
        return check_plain_text(text, field=self.field) if self.one_line else text


NAME = TextField("name", NAME_MAX_CHARS, one_line=True, required=True)
"""A scenario's name: one line, 1 to 200 characters."""
CUSTOMER = TextField("customer", CUSTOMER_MAX_CHARS, one_line=True)
"""The customer's name: one line, at most 200 characters, may be empty."""
AUTHOR = TextField("author", AUTHOR_MAX_CHARS, one_line=True)
"""Who saved a version: one line, at most 200 characters, may be empty."""
NOTES = TextField("notes", NOTES_MAX_CHARS, one_line=False)
"""Free notes on a scenario: at most 20 000 characters, line breaks allowed."""
COMMENT = TextField("comment", COMMENT_MAX_CHARS, one_line=False)
"""What a version changed: at most 2 000 characters, line breaks allowed."""
TAG = TextField("tag", TAG_MAX_CHARS, one_line=True, required=True)
"""One tag as typed: one line, 1 to 50 characters (:func:`clean_tag` then folds case and spaces)."""

clean_name = NAME.clean
clean_customer = CUSTOMER.clean
clean_author = AUTHOR.clean
clean_notes = NOTES.clean
clean_comment = COMMENT.clean


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
    text = TAG.clean(value)
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
