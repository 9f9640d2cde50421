"""The suite's tiers (tests/conftest.py): which modules a ``-m`` run leaves out without importing them."""

from __future__ import annotations

import doctest
import sys
from types import ModuleType

import pytest


def _conftest() -> ModuleType:
    """tests/conftest.py as pytest loaded it (the module that gives the tiers)."""
    return sys.modules["conftest"]


def test_the_tier_doctests_pass() -> None:
    module = _conftest()
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried >= 2 and failures == 0  # the two examples of never_selected


@pytest.mark.parametrize(
    ("module_tiers", "markexpr", "left_out"),
    [
        ({"app"}, "unit", True),  # test-fast: an AppTest module is not even imported
        ({"pdf"}, "unit", True),
        ({"slow"}, "not slow", True),
        ({"app"}, "not browser and not pdf", False),  # its tests run in that tier
        ({"pdf"}, "not browser and not pdf", True),
        ({"app"}, "pg", False),  # a test of it may run on PostgreSQL
        (set(), "unit", False),  # a unit module: some test may be unit
        ({"app"}, "unit or mytag", False),  # a marker besides the tiers: never guessed
        ({"browser"}, "browser or slow", False),
    ],
)
def test_a_module_is_left_out_only_when_no_test_of_it_can_match(
    module_tiers: set[str], markexpr: str, left_out: bool
) -> None:
    never_selected = _conftest().never_selected
    assert never_selected(frozenset(module_tiers), markexpr) is left_out
