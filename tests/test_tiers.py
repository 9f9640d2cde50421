"""The suite's tiers (tests/conftest.py): which modules a ``-m`` run leaves out without importing them."""

from __future__ import annotations

import doctest
from pathlib import Path
from types import ModuleType

import pytest

CONFTEST = Path(__file__).with_name("conftest.py")


@pytest.fixture
def conftest(pytestconfig: pytest.Config) -> ModuleType:
    """tests/conftest.py as pytest loaded it (the module that gives the tiers; ``conftest`` in
    ``sys.modules`` may be tests/browser/conftest.py)."""
    for plugin in pytestconfig.pluginmanager.get_plugins():
        if isinstance(plugin, ModuleType) and Path(str(getattr(plugin, "__file__", ""))) == CONFTEST:
            return plugin
    raise AssertionError(f"{CONFTEST} is not loaded")


def test_the_tier_doctests_pass(conftest: ModuleType) -> None:
    # found from the function itself (module=False): ``doctest.testmod`` looks functions up in
    # sys.modules["conftest"], which may be tests/browser/conftest.py
    runner = doctest.DocTestRunner()
    for function in (conftest.never_selected, conftest.worker_group):
        for test in doctest.DocTestFinder().find(function, module=False, globs=vars(conftest)):
            runner.run(test)
    assert runner.tries >= 3 and runner.failures == 0  # never_selected's two examples, worker_group's one


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
    module_tiers: set[str], markexpr: str, left_out: bool, conftest: ModuleType
) -> None:
    never_selected = conftest.never_selected
    assert never_selected(frozenset(module_tiers), markexpr) is left_out


class FakeItem:
    """What :func:`order_for_workers` reads of a collected test: its id and its markers."""

    def __init__(self, nodeid: str, *tiers: str) -> None:
        self.nodeid = nodeid
        self.marks = [getattr(pytest.mark, tier).mark for tier in tiers]

    def iter_markers(self) -> list[pytest.Mark]:
        return list(self.marks)


def test_make_test_hands_out_the_costliest_groups_first(conftest: ModuleType) -> None:
    """``make test`` (two workers, ``--dist loadgroup``): every browser test in one group, any other
    module a group of its own, kept whole and in its order; groups sorted by their costliest tier
    (browser, pdf, app, slow, pg, unit), collection order among equals."""
    items = [
        FakeItem("tests/test_a.py::test_one", "unit"),
        FakeItem("tests/browser/test_b.py::test_walk", "browser"),
        FakeItem("tests/test_d.py::test_save[sqlite]", "unit"),
        FakeItem("tests/test_d.py::test_save[postgresql]", "pg"),
        FakeItem("tests/test_c.py::test_page", "app"),
        FakeItem("tests/browser/test_e.py::test_signin", "browser", "slow"),
        FakeItem("tests/test_c.py::test_page_on_pg", "app", "pg"),
    ]
    conftest.order_for_workers(items)
    assert [(item.nodeid.split("/")[-1], conftest.worker_group(item.nodeid)) for item in items] == [
        ("test_b.py::test_walk", "browser"),
        ("test_e.py::test_signin", "browser"),
        ("test_c.py::test_page", "tests/test_c.py"),
        ("test_c.py::test_page_on_pg", "tests/test_c.py"),
        ("test_d.py::test_save[sqlite]", "tests/test_d.py"),  # the module's own order is kept
        ("test_d.py::test_save[postgresql]", "tests/test_d.py"),
        ("test_a.py::test_one", "tests/test_a.py"),
    ]
