"""Progress and cancelling of a long computation: the one callback protocol the engine reports to.

A long computation (the Scaling page's sweep, a Monte Carlo, the tenancy simulation, a trace
import, a Pareto front, a proposal) works in chunks and, between chunks, calls
:func:`checkpoint` with how far it got. The caller's :class:`Steps` shows it (a progress bar, a
line on stderr) and says whether to stop; when it says so, :func:`checkpoint` raises
:class:`CancelledError` and the computation ends without a result (nothing half-done is returned or
kept). The web app passes a Steps whose ``should_stop`` is its Cancel button; the command line
passes none (Ctrl-C stops it).

>>> class Stop:
...     def progress(self, *, done: int, total: int) -> None:
...         print(f"{done}/{total}")
...     def should_stop(self) -> bool:
...         return True
>>> checkpoint(Stop(), done=1, total=4)
Traceback (most recent call last):
...
planner.progress.CancelledError: stopped after 1 of 4 steps; nothing of this run was kept
"""

from __future__ import annotations

from typing import Protocol

from planner.errors import PlannerError
from planner.i18n.message import msg


class CancelledError(PlannerError):
    """The user stopped a long computation; it returned nothing and changed nothing."""


class Steps(Protocol):
    """What a long computation reports to between chunks (keyword-only, no return value)."""

    def progress(self, *, done: int, total: int) -> None:
        """``done`` of ``total`` steps are finished [count]."""

    def should_stop(self) -> bool:
        """Whether the user asked to stop (checked after each :meth:`progress`)."""


def checkpoint(steps: Steps | None, *, done: int, total: int) -> None:
    """Report ``done`` of ``total`` steps to ``steps`` (nothing when ``None``) and raise
    :class:`CancelledError` when it asks to stop.

    Parameters
    ----------
    steps : Steps or None
        The listener; ``None`` for none.
    done : int
        Steps done [count].
    total : int
        Steps in all [count].

    Raises
    ------
    CancelledError
        ``steps.should_stop()`` is true.
    """
    if steps is None:
        return
    steps.progress(done=done, total=total)
    if steps.should_stop():
        raise CancelledError(
            msg("stopped after {done} of {total} steps; nothing of this run was kept", done=done, total=total)
        )


class _Part:
    """Part ``index`` of ``count`` equal parts of one computation, reported as a share of it."""

    def __init__(self, steps: Steps, index: int, count: int) -> None:
        self._steps, self._index, self._count = steps, index, count

    def progress(self, *, done: int, total: int) -> None:
        self._steps.progress(done=self._index * total + done, total=self._count * total)

    def should_stop(self) -> bool:
        return self._steps.should_stop()


def part_of(steps: Steps | None, *, index: int, count: int) -> Steps | None:
    """``steps`` for part ``index`` (from 0) of ``count`` equal parts run one after the other (one
    simulation per policy, one Monte Carlo per design): each part's ``done`` of ``total`` is
    reported as ``index * total + done`` of ``count * total``.

    Parameters
    ----------
    steps : Steps or None
        The listener of the whole run; ``None`` for none.
    index : int
        The part, from 0 [count].
    count : int
        Parts in all [count].

    Returns
    -------
    Steps or None
        The listener of the part; ``None`` when ``steps`` is.

    Examples
    --------
    >>> class Show:
    ...     def progress(self, *, done: int, total: int) -> None:
    ...         print(f"{done}/{total}")
    ...     def should_stop(self) -> bool:
    ...         return False
    >>> checkpoint(part_of(Show(), index=1, count=2), done=5, total=10)
    15/20
    """
    return None if steps is None else _Part(steps, index, count)
