"""Share links: the query parameters that open a saved scenario (and a version) in the app, and
the one that carries the scenario's workload mix.

The page puts ``share_query(...)`` after its own URL; opening that URL, it reads the parameters
back with :func:`parse_share_params` and loads the scenario from the store.

The workload mix travels in the link itself (``workload=1.<payload>``, :func:`workload_param`):
version ``1`` is the mix's canonical JSON (ASCII only: every non-ASCII character escaped,
defaults left out), zlib-compressed and base64url-encoded without padding. It is bounded
(:data:`MAX_WORKLOAD_PARAM_CHARS` in the link, :data:`MAX_WORKLOAD_JSON_BYTES` once inflated) and
read strictly (:func:`parse_workload_param`): the alphabet, the inflated size, ASCII JSON with no
``NaN``/``Infinity`` and no repeated key, then the workload file's own validation
(:func:`planner.inputs.scenario.workload_from_data`); anything else is one line naming the parameter.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from planner.errors import InputError, shorten
from planner.files import parse_json
from planner.i18n.message import msg
from planner.inputs.scenario import WorkloadEntry, workload_from_data
from planner.store.fields import MAX_ID, check_scenario_id, check_version_number

SCENARIO_PARAM = "scenario"
VERSION_PARAM = "version"
WORKLOAD_PARAM = "workload"
"""URL parameter of the workload mix (``workload=1.<base64url of zlib of JSON>``)."""

WORKLOAD_LINK_VERSION = "1"
MAX_WORKLOAD_PARAM_CHARS = 4000
"""Longest workload parameter [characters]: a whole link stays under the 8 KB that browsers,
proxies and servers commonly accept."""
MAX_WORKLOAD_JSON_BYTES = 65_536
"""Largest inflated workload [bytes]: a deflate bomb stops here."""
_WORKLOAD_LINK = re.compile(r"1\.[A-Za-z0-9_-]+")


@dataclass(frozen=True, kw_only=True)
class ShareRef:
    """What a share link points at: a scenario, and a version (``None`` = the latest)."""

    scenario_id: int
    version: int | None = None


def share_params(*, scenario_id: int, version: int | None = None) -> dict[str, str]:
    """Query parameters of a link to a saved scenario (``version=None`` follows the latest).

    Parameters
    ----------
    scenario_id : int
        The saved scenario's id.
    version : int or None
        The version; ``None`` for the latest.

    Returns
    -------
    dict of str to str
        ``scenario`` and, when a version is given, ``version``.

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

    Parameters
    ----------
    scenario_id : int
        The saved scenario's id.
    version : int or None
        The version; ``None`` for the latest.

    Returns
    -------
    str
        The URL-encoded query.

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

    Parameters
    ----------
    params : mapping of str to str or sequence of str
        The URL's query parameters.

    Returns
    -------
    ShareRef or None
        The scenario id and version (``None``: the latest).

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


def workload_param(entries: Sequence[WorkloadEntry]) -> str:
    """The ``workload`` parameter of a link that carries ``entries`` (module notes).

    Parameters
    ----------
    entries : sequence of WorkloadEntry
        The workload mix.

    Returns
    -------
    str
        ``1.`` followed by the compressed mix in base64url.

    Raises
    ------
    InputError
        The encoded mix is longer than :data:`MAX_WORKLOAD_PARAM_CHARS` (save the scenario and
        share that link instead).

    Examples
    --------
    >>> from planner.inputs.scenario import workload_from_data
    >>> mix = workload_from_data([{"kind": "serving", "params_b": 8, "required_tokens_per_s": 1e5}])
    >>> text = workload_param(mix)
    >>> text.startswith("1."), parse_workload_param(text) == mix
    (True, True)
    """
    items = [e.model_dump(mode="json", exclude_defaults=True) for e in entries]
    data = json.dumps(items, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    body = base64.urlsafe_b64encode(zlib.compress(data.encode("ascii"), 9)).decode("ascii").rstrip("=")
    text = f"{WORKLOAD_LINK_VERSION}.{body}"
    if len(text) > MAX_WORKLOAD_PARAM_CHARS:
        raise InputError(
            msg(
                "share link: {param}: the workload needs {count} characters (at most {limit}); save the "
                "scenario and share its link instead",
                param=WORKLOAD_PARAM,
                count=f"{len(text):,}",
                limit=f"{MAX_WORKLOAD_PARAM_CHARS:,}",
            )
        )
    return text


def _unreadable(text: str) -> InputError:
    return InputError(
        msg(
            "share link: {param} must be a version-1 workload (1.<base64url>, at most {limit} "
            "characters; got {value})",
            param=WORKLOAD_PARAM,
            limit=f"{MAX_WORKLOAD_PARAM_CHARS:,}",
            value=shorten(repr(text)),
        )
    )


def _inflate(text: str) -> Any:
    """The JSON a version-1 parameter holds; :class:`ValueError` (and its kin) when it holds none."""
    body = text.removeprefix(f"{WORKLOAD_LINK_VERSION}.")
    packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    inflater = zlib.decompressobj()
    raw = inflater.decompress(packed, MAX_WORKLOAD_JSON_BYTES + 1)
    if len(raw) > MAX_WORKLOAD_JSON_BYTES or inflater.unconsumed_tail or not inflater.eof:
        raise ValueError("too large or truncated")
    # The one strict JSON reader: NaN/Infinity and repeated keys refused, nesting bounded.
    return parse_json(raw.decode("ascii"), name=WORKLOAD_PARAM, error=InputError)


def parse_workload_param(raw: str | Sequence[str]) -> tuple[WorkloadEntry, ...]:
    """The workload mix a link's ``workload`` parameter carries (module notes).

    Parameters
    ----------
    raw : str or sequence of str
        The parameter's value (the last one when repeated).

    Returns
    -------
    tuple of WorkloadEntry
        The workload mix.

    Raises
    ------
    InputError
        One line naming the parameter: not version 1, too long, not the alphabet, not a readable
        payload, or an entry the workload file would refuse (naming its field and range).

    Examples
    --------
    >>> parse_workload_param("2.abc")
    Traceback (most recent call last):
    ...
    planner.errors.InputError: share link: workload must be a version-1 workload (1.<base64url>, at most 4,000 characters; got '2.abc')
    """
    text = raw if isinstance(raw, str) else (raw[-1] if raw else "")
    if len(text) > MAX_WORKLOAD_PARAM_CHARS or not _WORKLOAD_LINK.fullmatch(text):
        raise _unreadable(text)
    try:
        data = _inflate(text)
    except (InputError, ValueError, binascii.Error, zlib.error, UnicodeDecodeError) as exc:
        raise _unreadable(text) from exc
    return workload_from_data(data, source=f"share link: {WORKLOAD_PARAM}")
