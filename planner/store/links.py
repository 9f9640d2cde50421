"""Share links: the query parameters that open a saved scenario (and a version) in the app.

The page puts ``share_query(...)`` after its own URL; opening that URL, it reads the parameters
back with :func:`parse_share_params` and loads the scenario from the store.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from planner.errors import InputError, shorten
from planner.i18n.message import msg
from planner.store.fields import MAX_ID, check_scenario_id, check_version_number

SCENARIO_PARAM = "scenario"
VERSION_PARAM = "version"


@dataclass(frozen=True, kw_only=True)
class ShareRef:
    """What a share link points at: a scenario, and a version (``None`` = the latest)."""

    scenario_id: int
    version: int | None = None


def share_params(*, scenario_id: int, version: int | None = None) -> dict[str, str]:
    """Query parameters of a link to a saved scenario (``version=None`` follows the latest).

    Examples
    --------
    >>> share_params(scenario_id=3, version=2)
    {'scenario': '3', 'version': '2'}
    """
    params = {SCENARIO_PARAM: str(check_scenario_id(scenario_id))}
    if version is not None:
        params[VERSION_PARAM] = str(check_version_number(version))
    return params


def share_query(*, scenario_id: int, version: int | None = None) -> str:
    """The query string of a share link, without the leading ``?``.

    Examples
    --------
    >>> share_query(scenario_id=3)
    'scenario=3'
    """
    return urlencode(share_params(scenario_id=scenario_id, version=version))


def _whole_number(raw: str | Sequence[str], *, field: str) -> int:
    text = raw if isinstance(raw, str) else (raw[-1] if raw else "")
    # ASCII digits only (str.isdigit takes "²", which int() refuses), at most as many as MAX_ID has
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit() and len(digits) <= len(str(MAX_ID))):
        digits = ""
    if not digits or not 1 <= int(digits) <= MAX_ID:
        raise InputError(
            msg(
                "share link: {field} must be a whole number from 1 to {limit} (got {value})",
                field=field,
                limit=MAX_ID,
                value=shorten(repr(text)),
            )
        )
    return int(digits)


def parse_share_params(params: Mapping[str, str | Sequence[str]]) -> ShareRef | None:
    """Read a share link's parameters; ``None`` when the URL has none.

    Raises
    ------
    InputError
        A parameter is present but not a whole number from 1 to :data:`MAX_ID` (2**31 - 1).

    Examples
    --------
    >>> parse_share_params({"scenario": "3", "version": "2"})
    ShareRef(scenario_id=3, version=2)
    >>> parse_share_params({}) is None
    True
    """
    if SCENARIO_PARAM not in params:
        return None
    scenario_id = _whole_number(params[SCENARIO_PARAM], field=SCENARIO_PARAM)
    version = _whole_number(params[VERSION_PARAM], field=VERSION_PARAM) if VERSION_PARAM in params else None
    return ShareRef(scenario_id=scenario_id, version=version)
