"""Results that depend only on the catalog and a few plain values, computed once per catalog.

A plan looks up the same things in the catalog at every size of a sweep (the cheapest copper
cable that reaches a length, the optic a design uses at a speed); :func:`per_catalog` keeps each
answer per catalog object, so a sweep of 384 plans searches the catalog once per question.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

if TYPE_CHECKING:
    from planner.catalog.load import Catalog

P = ParamSpec("P")
R = TypeVar("R")

MAX_ENTRIES = 4096
"""Answers kept per function before its cache starts over [count]."""


def per_catalog(fn: Callable[Concatenate[Catalog, P], R]) -> Callable[Concatenate[Catalog, P], R]:
    """``fn(catalog, *args)`` remembered per catalog object and positional arguments.

    The catalog is immutable, so an answer stays true for as long as the catalog object lives;
    the cache keeps the object with its answers, and a hit must be that very object, so a new
    catalog (an upload, a priced view) never sees another's answers. Arguments must be hashable
    and positional; an exception is not remembered.

    Parameters
    ----------
    fn : Callable[Concatenate[Catalog, P], R]
        A pure function of the catalog and hashable positional arguments.

    Returns
    -------
    Callable[Concatenate[Catalog, P], R]
        ``fn`` with its answers kept (at most :data:`MAX_ENTRIES` [count], then started over).

    >>> calls = []
    >>> @per_catalog
    ... def double(catalog: object, x: int) -> int:
    ...     calls.append(x)
    ...     return 2 * x
    >>> catalog = object()
    >>> double(catalog, 3), double(catalog, 3), double(object(), 3), calls
    (6, 6, 6, [3, 3])
    """
    cache: dict[tuple[int, tuple[Hashable, ...]], tuple[object, R]] = {}

    @functools.wraps(fn)
    def remembered(catalog: Catalog, /, *args: P.args, **kwargs: P.kwargs) -> R:
        if kwargs:
            raise TypeError(f"{fn.__name__}: per_catalog takes positional arguments only")
        key = (id(catalog), args)
        hit = cache.get(key)
        if hit is not None and hit[0] is catalog:
            return hit[1]
        value = fn(catalog, *args, **kwargs)  # kwargs is empty here
        if len(cache) >= MAX_ENTRIES:
            cache.clear()
        cache[key] = (catalog, value)
        return value

    return remembered
