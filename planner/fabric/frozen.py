"""Frozen dataclasses built at the cost of a plain object: for results a plan makes by the dozen.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__`` (its
own ``__setattr__`` refuses), a wrapped call per field; a plan in a sweep builds about 90 such
objects (25 BOM lines, a link-end pair and a medium per link class, ...), and those calls were
about a third of its time. :func:`maker` gives a constructor that fills the new object's
``__dict__`` in one update: the same object (equal, hashed and shown alike, still frozen), for
classes whose ``__init__`` does nothing else (no ``__post_init__``, no slots, no init-only or
factory fields; checked when the maker is made).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar, cast

P = ParamSpec("P")
T = TypeVar("T")


def maker(cls: Callable[P, T]) -> Callable[P, T]:
    """A constructor of the frozen dataclass ``cls`` that takes its fields by keyword.

    Parameters
    ----------
    cls : type
        A frozen dataclass whose generated ``__init__`` only sets its fields: no
        ``__post_init__``, no ``__slots__``, every field in ``__init__`` and no
        ``default_factory``.

    Returns
    -------
    Callable
        ``make(**fields)`` with the signature of ``cls`` (type-checked like a call of ``cls``):
        the object ``cls(**fields)`` would build. A call it does not take as it is (a positional
        argument, a missing or unknown field) goes to ``cls`` itself, which builds it or raises
        its own ``TypeError``.

    Raises
    ------
    TypeError
        ``cls`` is not such a dataclass.

    Examples
    --------
    >>> @dataclasses.dataclass(frozen=True)
    ... class Link:
    ...     links: int
    ...     length_m: float = 3.0
    >>> make = maker(Link)
    >>> make(links=4), make(links=4) == Link(4), make(links=4, length_m=5.0)
    (Link(links=4, length_m=3.0), True, Link(links=4, length_m=5.0))
    """
    klass: Any = cls  # the class itself (``cls`` is typed as its constructor)
    params = getattr(klass, "__dataclass_params__", None)
    if not isinstance(klass, type) or params is None or not params.frozen:
        raise TypeError(f"maker: {cls!r} is not a frozen dataclass")
    fields = dataclasses.fields(klass)
    if (
        hasattr(klass, "__post_init__")
        or hasattr(klass, "__slots__")
        or any(not f.init or f.default_factory is not dataclasses.MISSING for f in fields)
    ):
        raise TypeError(f"maker: {klass.__name__}.__init__ does more than set its fields")
    defaults = {f.name: f.default for f in fields if f.default is not dataclasses.MISSING}
    names = frozenset(f.name for f in fields)
    required = names - defaults.keys()
    new = object.__new__

    def make(*args: P.args, **kwargs: P.kwargs) -> T:
        if args or not required <= kwargs.keys() <= names:
            return cls(*args, **kwargs)
        made = cast(T, new(klass))
        made.__dict__.update(defaults, **kwargs)
        return made

    make.__doc__ = f"``{klass.__name__}(**fields)``, built in one dict update (:func:`maker`)."
    return make
