"""English count agreement: a reader never sees "1 GPUs".

Templates are written with the plural noun after a count (``"{nodes} nodes"``,
``"{racks} compute racks"``). When the number filled in is exactly 1, the English text takes the
singular (``1 node``, ``1 compute rack``). The rule runs where every English text is filled: engine
messages (:func:`planner.i18n.message.msg`) and UI strings (:func:`planner.i18n.tr`). Chinese has
no plural and is left as it is. Only the template's own words change, never a filled-in value (a
user's text that happens to read "1 nodes" stays as typed). A count is the integer 1 or the text
``"1"`` (callers format numbers with thousands separators before filling them in).

The nouns are a closed list (:data:`SINGULAR`): a count before a word that is not listed keeps the
word; add the noun here when a new template counts something else.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

SINGULAR: Mapping[str, str] = {
    "GPUs": "GPU",
    "nodes": "node",
    "servers": "server",
    "racks": "rack",
    "switches": "switch",
    "units": "unit",
    "replicas": "replica",
    "jobs": "job",
    "tenants": "tenant",
    "cables": "cable",
    "ports": "port",
    "links": "link",
    "domains": "domain",
    "planes": "plane",
    "rails": "rail",
    "tiers": "tier",
    "leaves": "leaf",
    "spines": "spine",
    "cores": "core",
    "trays": "tray",
    "designs": "design",
    "sizes": "size",
    "years": "year",
    "days": "day",
    "hours": "hour",
    "runs": "run",
    "modules": "module",
    "NICs": "NIC",
    "CDUs": "CDU",
    "PDUs": "PDU",
    "requests": "request",
    "experts": "expert",
    "layers": "layer",
    "stages": "stage",
    "entries": "entry",
    "points": "point",
    "cases": "case",
    "files": "file",
    "rows": "row",
    "items": "item",
    "failures": "failure",
    "interruptions": "interruption",
    "checkpoints": "checkpoint",
    "models": "model",
    "pools": "pool",
    "pairs": "pair",
    "devices": "device",
    "sessions": "session",
    "batches": "batch",
    "versions": "version",
}
"""Plural noun -> singular, for the words templates count."""

_COUNTED = re.compile(r"\{(\w+)(?:[:!][^{}]*)?\} (?:([a-z][\w-]*) )?([A-Za-z]+)\b")
"""A field, an optional lowercase word (``compute``, ``whole``, ``scale-up``) and a word."""
_NOT_A_MODIFIER = frozenset(
    {
        "has",
        "have",
        "had",
        "is",
        "are",
        "was",
        "were",
        "of",
        "to",
        "in",
        "on",
        "at",
        "per",
        "and",
        "or",
        "with",
        "for",
        "from",
        "by",
        "than",
        "as",
        "the",
        "a",
        "an",
        "no",
        "not",
    }
)
"""Words between a field and a noun that make the field something other than the noun's count
(``scenario {id} has versions``): the noun then keeps its number."""


def agree(template: str, params: Mapping[str, Any]) -> str:
    """``template`` with the plural noun after each field filled with 1 made singular.

    Parameters
    ----------
    template : str
        An English template with ``{field}`` placeholders.
    params : mapping of str to Any
        The values the template is filled with.

    Returns
    -------
    str
        The template, nouns after a field of value 1 in the singular.

    Examples
    --------
    >>> agree("{gpus} GPUs in {nodes} whole nodes, {racks:,} compute racks", {"gpus": 1, "nodes": 1, "racks": 1})
    '{gpus} GPU in {nodes} whole node, {racks:,} compute rack'
    >>> agree("{gpus} GPUs in {nodes} nodes", {"gpus": 8, "nodes": 1})
    '{gpus} GPUs in {nodes} node'
    >>> agree("{n} storage and {m} management switches", {"n": 1, "m": 2})
    '{n} storage and {m} management switches'
    >>> agree("{nodes} nodes", {"nodes": "1"}), agree("{share} GPUs", {"share": 1.0})
    ('{nodes} node', '{share} GPUs')
    >>> agree("scenario {id} has versions 1 to {latest}", {"id": 1, "latest": 1})
    'scenario {id} has versions 1 to {latest}'
    """
    if not any(_one(value) for value in params.values()):
        return template

    def singular(match: re.Match[str]) -> str:
        field, word, noun = match.group(1, 2, 3)
        if not _one(params.get(field)) or word in _NOT_A_MODIFIER:
            return match.group(0)
        if word is not None and word in SINGULAR:  # "{n} GPUs rounded": the first word is the noun
            return match.group(0).replace(f" {word} ", f" {SINGULAR[word]} ", 1)
        if noun not in SINGULAR:
            return match.group(0)
        return match.group(0)[: -len(noun)] + SINGULAR[noun]

    return _COUNTED.sub(singular, template)


def _one(value: object) -> bool:
    """Whether ``value`` is the count 1: the integer, or the text a caller formatted it to."""
    # the str test first: comparing a NumPy scalar with a str costs ~1.2 us against ~30 ns, and
    # agree() runs this for every parameter of every message an app run renders
    return (type(value) is int and value == 1) or (isinstance(value, str) and value == "1")
