"""Results that depend only on the catalog and a few plain values, computed once per catalog.

A plan looks up the same things in the catalog at every size of a sweep (the cheapest copper
cable that reaches a length, the optic a design uses at a speed); :func:`per_catalog` keeps each
answer per catalog object, so a sweep of 384 plans searches the catalog once per question.
:class:`IdentityCache` keeps an answer by the identity of the (immutable) objects it was made from,
for what a sweep's sizes and designs share beyond the catalog (records, media, fabrics).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Concatenate, Generic, ParamSpec, TypeVar

C = TypeVar("C")
"""The catalog (any object: the cache needs its identity only, so this module imports no catalog)."""
P = ParamSpec("P")
R = TypeVar("R")
V = TypeVar("V")

MAX_ENTRIES = 4096
"""Answers kept per function before its cache starts over [count]."""


def per_catalog(fn: Callable[Concatenate[C, P], R]) -> Callable[Concatenate[C, P], R]:
    """``fn(catalog, *args)`` remembered per catalog object and positional arguments.

    The catalog is immutable, so an answer stays true for as long as the catalog object lives;
    the cache keeps the object with its answers, and a hit must be that very object, so a new
    catalog (an upload, a priced view) never sees another's answers. Arguments must be hashable
    and positional; an exception is not remembered.

    Parameters
    ----------
    fn : Callable[Concatenate[C, P], R]
        A pure function of the catalog and hashable positional arguments.

    Returns
    -------
    Callable[Concatenate[C, P], R]
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
    def remembered(catalog: C, /, *args: P.args, **kwargs: P.kwargs) -> R:
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


class IdentityCache(Generic[V]):
    """Answers kept by the identity of the objects they were made from, and by plain values.

    The objects are kept with the answer, so no other object can take their ids while it is kept:
    a hit is made from those very objects; the objects must not change (frozen models, catalog
    records). At ``max_entries`` answers the cache starts over, so memory stays
    bounded. An answer is never ``None`` (``get``'s miss).

    Parameters
    ----------
    max_entries : int
        Answers kept before the cache starts over [count].

    >>> cache: IdentityCache[str] = IdentityCache(max_entries=2)
    >>> a, b = [1], [1]
    >>> cache.put((a,), ("x",), "made from a")
    'made from a'
    >>> cache.get((a,), ("x",)), cache.get((b,), ("x",)), cache.get((a,), ("y",))
    ('made from a', None, None)
    """

    def __init__(self, *, max_entries: int) -> None:
        self.max_entries = max_entries
        self._entries: dict[tuple[tuple[int, ...], tuple[object, ...]], tuple[tuple[object, ...], V]] = {}

    def get(self, objects: tuple[object, ...], values: tuple[object, ...] = ()) -> V | None:
        """The answer made from ``objects`` and ``values``, or ``None``.

        Parameters
        ----------
        objects : tuple of object
            What the answer was made from, matched by identity.
        values : tuple of hashable objects
            Plain values it was made from, matched by equality.

        Returns
        -------
        V or None
            The kept answer; ``None`` when there is none for these very objects.
        """
        # the entry keeps its objects alive, so no other live object has their ids: a key that
        # matches is made from those very objects (no identity check needed)
        hit = self._entries.get((tuple(map(id, objects)), values))
        return None if hit is None else hit[1]

    def put(self, objects: tuple[object, ...], values: tuple[object, ...], answer: V) -> V:
        """Keep ``answer`` for ``objects`` and ``values`` and return it.

        Parameters
        ----------
        objects : tuple of object
            What the answer was made from (kept with it).
        values : tuple of hashable objects
            Plain values it was made from.
        answer : V
            The answer (not ``None``).

        Returns
        -------
        V
            ``answer``.
        """
        if len(self._entries) >= self.max_entries:
            self._entries.clear()
        self._entries[(tuple(map(id, objects)), values)] = (objects, answer)
        return answer
