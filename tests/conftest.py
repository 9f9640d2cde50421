"""Shared fixtures (the bundled catalog, a helper to write temporary catalog files, a private data
folder for the whole run, one Chromium for the session) and the suite's tiers.

Tiers are pytest markers given to every collected test by :func:`pytest_collection_modifyitems`,
from what the test uses, so a new test file is classified without an edit:

- ``browser``: under ``tests/browser/`` (Playwright driving a real Chromium);
- ``app``: its module imports Streamlit's AppTest (directly or through ``tests/apptest.py``);
- ``pdf``: its module prints PDFs or draws charts in the export's Chromium (``shared_browser``,
  ``render_pdf``, ``print_pdf``, ``chart_images``, ``--pdf``, ``%PDF``, poppler's tools);
- ``pg``: it runs on PostgreSQL (the ``postgresql`` case of ``db_url``, or a ``pg_*`` fixture);
- ``slow``: its module starts worker processes (a Dask cluster, whole ``planner`` processes in a
  loop) or a static-analysis tool over the tree (mypy, import-linter), or the test is marked
  ``@pytest.mark.slow`` with its cost in a comment (a long Hypothesis property, a simulation, a
  calibration fit, a whole-process round trip);
- ``unit``: none of the above (engine, CLI in-process, store on SQLite, doctests).

``make test-fast`` runs ``-m unit -n 2`` (two pytest-xdist workers); ``make test`` runs every tier
on two workers too, with ``--dist loadgroup`` (:func:`worker_group`: the browser tests stay on
one worker, every other module whole on one worker; :func:`order_for_workers`: the costliest tiers
handed out first). A
run with ``-m`` does not even import a module whose source tiers no test of it can match
(:func:`pytest_ignore_collect`): the fast tier skips importing the AppTest, PDF and browser
modules (and rewriting their asserts).
"""

from __future__ import annotations

import datetime
import functools
import itertools
import os
import platform
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import yaml
from _pytest.junitxml import xml_key
from _pytest.mark.expression import Expression

from planner import Catalog, load_catalog

if TYPE_CHECKING:
    from planner.validation.run import CaseResult

ROOT = Path(__file__).resolve().parents[1]
BROWSER_DIR = ROOT / "tests" / "browser"
TIERS = ("browser", "app", "pdf", "pg", "slow")
"""The tiers a test can be given besides ``unit`` (the markers are declared in pyproject.toml)."""
SOURCE_SIGNALS: dict[str, re.Pattern[str]] = {
    "app": re.compile(r"^\s*(from|import) (apptest|streamlit\.testing)\b", re.MULTILINE),
    "pdf": re.compile(
        r"\b(shared_browser|render_pdf|print_pdf|pdftotext|pdftoppm|pdffonts|chart_images|pdf_fixtures)\b"
        r"|\"--pdf\"|%PDF"
    ),
    "slow": re.compile(r"\b(LocalCluster|lint-imports|lint_imports|\"mypy\"|mypy\.api)\b"),
}
"""What in a test module's source puts all its tests in a tier."""
PG_FIXTURES = frozenset({"pg_url", "pg_server_url", "pg_admin_engine"})
TIER_COUNTS = pytest.StashKey[Counter[str]]()
"""Tests per tier of the run (recorded in ``make test``'s JUnit file for the README)."""

# Hypothesis keeps its example database and constants cache in ./.hypothesis by default: keep them
# out of the checkout, in one folder per machine so a failing example is still replayed next run.
# The pytest-xdist workers of `make test-fast` share it: a test runs in one worker, and Hypothesis
# writes each example and each constants-cache file through a temporary file and a rename.
os.environ.setdefault(
    "HYPOTHESIS_STORAGE_DIRECTORY", str(Path(tempfile.gettempdir()) / "gpu-cluster-planner-hypothesis")
)


@pytest.fixture(scope="session", autouse=True)
def private_data_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Point ``$XDG_DATA_HOME`` at a temporary folder for the run, subprocesses included, so a
    test that opens the default scenario store (``planner.store.location.default_db_path``) writes
    there, not into the developer's own store. Tests that check the default path pass their own
    environment."""
    folder = tmp_path_factory.mktemp("xdg-data")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("XDG_DATA_HOME", str(folder))
        yield folder


TEST_PROCESS_MAIN = sys.modules.get("__main__")
"""pytest's own ``__main__``, taken when this conftest is imported (before any test runs)."""


@pytest.fixture(autouse=True)
def keep_main_module() -> Iterator[None]:
    """Put the test process's ``__main__`` back after each test. Streamlit's AppTest runs app.py
    as ``__main__`` and leaves it there; a later test that starts worker processes (the Dask
    sweep, spawned) would then make every worker re-run the app script on start-up. The module
    is the one taken at start-up, not at the test's set-up: a module-scoped AppTest fixture is
    set up before this function-scoped one, and would otherwise be what is "put back"."""
    yield
    if TEST_PROCESS_MAIN is not None:
        sys.modules["__main__"] = TEST_PROCESS_MAIN


@pytest.fixture(scope="session", autouse=True)
def one_export_browser() -> Iterator[None]:
    """One export Chromium for the whole run (:func:`planner.report.export.browser.shared_browser`,
    started by the first test that draws or prints): test modules leave it open, and it is closed
    here once, at the end, instead of once per module."""
    yield
    shared = getattr(sys.modules.get("planner.report.export.browser"), "_SHARED", None)
    if shared is not None:
        shared.stop()


@pytest.fixture(scope="session", autouse=True)
def one_component_scan() -> Iterator[None]:
    """Scan the installed packages for Streamlit components once per run, not once per AppTest.

    Every new ``AppTest`` builds its own component registry and reads the metadata of every
    installed distribution to find component manifests (``streamlit.components.v2``'s
    ``scan_component_manifests``): about 0.11 s of CPU each time with the project's 111
    distributions (``time.process_time`` around one call), repeated for the suite's hundreds of
    AppTests. The packages do not change during a run, so the first scan's answer is kept (each
    caller gets its own copy of the list). A run without AppTests never imports Streamlit here."""
    if "streamlit.testing.v1" not in sys.modules:
        yield
        return
    from streamlit.components.v2 import manifest_scanner

    scan = functools.cache(manifest_scanner.scan_component_manifests)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            manifest_scanner, "scan_component_manifests", lambda *args, **kwargs: list(scan(*args, **kwargs))
        )
        yield


@pytest.fixture
def cold_caches() -> None:
    """Empty Streamlit caches for an AppTest test whose checks are about the caches themselves
    (what a first visit computes, what a second one reuses): tests/apptest.py keeps a module's
    cached results from test to test (``reset_caches``)."""
    from apptest import clear_caches

    clear_caches()


@pytest.fixture(scope="session", autouse=True)
def apptest_waits_on_the_script() -> Iterator[None]:
    """An AppTest run waits for its script thread to end instead of polling for it every 1 ms.

    ``AppTest.run`` starts the script in a thread and then, in Streamlit's
    ``require_widgets_deltas``, sleeps 1 ms and checks whether the run has ended, in a loop: the
    waiting test thread takes the interpreter's lock about a thousand times a second away from
    the script it waits for. Joining the thread (with the same timeout) waits for the same end
    (Streamlit's runner emits its shutdown event, then the thread returns; ``run`` joins it next
    anyway). A run that times out goes on to Streamlit's own function, which stops the script
    and raises its error. A run without AppTests never imports Streamlit here."""
    if "streamlit.testing.v1" not in sys.modules:
        yield
        return
    from streamlit.testing.v1 import local_script_runner

    polling = local_script_runner.require_widgets_deltas

    def join(runner: Any, timeout: float = 3) -> None:
        thread = runner._script_thread
        if thread is not None:
            thread.join(timeout)
        if runner.script_stopped():
            return
        polling(runner, 0)  # still running: stop it and raise the timeout

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(local_script_runner, "require_widgets_deltas", join)
        yield


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def validation_results() -> tuple[CaseResult, ...]:
    """Every published validation case evaluated once for the run (``run_all()``, seconds of CPU),
    shared by the modules that read the results (the suite's report, the error bands)."""
    from planner.validation.run import run_all

    return run_all()


@pytest.fixture
def write_yaml(tmp_path: Path) -> Callable[[str, Any], Path]:
    def write(name: str, data: Any) -> Path:
        path = tmp_path / name
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        return path

    return write


_MODULE_TIERS: dict[Path, frozenset[str]] = {}


def _module_tiers(path: Path) -> frozenset[str]:
    """The tiers a test module's source puts its tests in (read once per module)."""
    if path not in _MODULE_TIERS:
        tiers = set()
        if BROWSER_DIR in path.parents:
            tiers.add("browser")
        if path.suffix == ".py" and path.name.startswith("test_"):
            source = path.read_text(encoding="utf-8")
            tiers |= {tier for tier, pattern in SOURCE_SIGNALS.items() if pattern.search(source)}
        _MODULE_TIERS[path] = frozenset(tiers)
    return _MODULE_TIERS[path]


MARK_WORD = re.compile(r"[A-Za-z_][\w.]*")
"""A word of a ``-m`` expression (a marker name or one of ``and``, ``or``, ``not``)."""


class _Carries:
    """A ``-m`` expression's matcher: whether a test carries the marker ``name``."""

    def __init__(self, marks: frozenset[str]) -> None:
        self.marks = marks

    def __call__(self, name: str, /, **kwargs: str | int | bool | None) -> bool:
        return name in self.marks


def never_selected(module_tiers: frozenset[str], markexpr: str) -> bool:
    """Whether no test of a module whose source puts it in ``module_tiers`` can match ``markexpr``.

    Every test of such a module carries those tiers and never ``unit``, and may carry any of the
    other tiers (``pg`` from a fixture, a marker written on the test): the answer is ``True``
    only when the expression is false for every one of those combinations. An expression naming
    any marker besides the tiers is never answered (``False``: the module is collected).

    >>> never_selected(frozenset({"app"}), "unit"), never_selected(frozenset({"app"}), "not pdf")
    (True, False)
    >>> never_selected(frozenset({"pdf"}), "not browser and not pdf"), never_selected(frozenset(), "unit")
    (True, False)
    """
    words = set(MARK_WORD.findall(markexpr)) - {"and", "or", "not"}
    if not module_tiers or not words <= {*TIERS, "unit"}:
        return False
    expression = Expression.compile(markexpr)
    others = [tier for tier in TIERS if tier not in module_tiers]
    for count in range(len(others) + 1):
        for extra in itertools.combinations(others, count):
            if expression.evaluate(_Carries(module_tiers | set(extra))):
                return False
    return True


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave out (without importing it) a test module none of whose tests the ``-m`` expression
    selects (:func:`never_selected`); ``None`` lets pytest decide as usual."""
    markexpr = str(config.getoption("markexpr", "") or "")
    is_test_module = collection_path.suffix == ".py" and collection_path.name.startswith("test_")
    if markexpr and is_test_module and never_selected(_module_tiers(collection_path), markexpr):
        return True
    return None


def tiers_of(item: pytest.Item) -> frozenset[str]:
    """The tiers of one collected test: its module's, plus ``pg`` when it runs on PostgreSQL, plus
    any tier marker written on the test itself; ``{"unit"}`` when there is none."""
    tiers = set(_module_tiers(Path(str(item.path))))
    fixtures = set(getattr(item, "fixturenames", ()))
    callspec = getattr(item, "callspec", None)
    backend = callspec.params.get("db_url") if callspec is not None else None
    if fixtures & PG_FIXTURES or backend == "postgresql":
        tiers.add("pg")
    tiers |= {mark.name for mark in item.iter_markers() if mark.name in TIERS}
    return frozenset(tiers) or frozenset({"unit"})


WORKER_ORDER = ("browser", "pdf", "app", "slow", "pg", "unit")
"""The order in which ``make test``'s two workers are handed the tiers' groups: the longest first
(the browser group alone takes about half the suite's time), so the many small unit modules come
last and fill in whatever time one worker has left when the other finishes."""
BROWSER_GROUP = "browser"
PRINTED_GROUP = "printed-editions"
"""The group of the modules that read the printed proposals more than one module reads
(tests/pdf_fixtures.py: ``EDITIONS``, asked for with ``printer.edition(...)``)."""
READS_EDITIONS = re.compile(r"\bprinter\.edition\(")
VALIDATION_GROUP = "validation-results"
"""The group of the modules that read :func:`validation_results` (every published case evaluated,
seconds of CPU: 7.0 s for the 319 cases of 2026-12-02), so the run evaluates them once, not once
per worker."""
SHARED_GROUPS = ((PRINTED_GROUP, READS_EDITIONS), (VALIDATION_GROUP, re.compile(r"\bvalidation_results\b")))
"""Each group of modules that share a costly session fixture, and what in a module's source says
it reads that fixture (the first group that matches)."""


@functools.cache
def _shared_group(path: Path) -> str | None:
    """The :data:`SHARED_GROUPS` group of the test module at ``path``, if it reads one of their
    session fixtures."""
    if path.suffix != ".py" or not path.is_file():
        return None
    source = path.read_text("utf-8")
    return next((group for group, reads in SHARED_GROUPS if reads.search(source)), None)


def worker_group(nodeid: str) -> str:
    """The group a test runs in under ``make test`` (``--dist loadgroup``), whole on one worker.

    Every browser test is in one group: one Streamlit server and one Chromium at a time, as in a
    one-process run, so two browser modules never compete for the two cores and their waits keep
    the margins they were written with (their session fixtures, one Chromium, are built once).
    The modules that read the printed editions of tests/pdf_fixtures.py are one group, so a
    proposal they share is printed once per run, not once per worker; the modules that read the
    evaluated validation cases are another (:data:`SHARED_GROUPS`). Every other module is a
    group of its own, so a module-scoped fixture (an AppTest, a set of printed PDFs, a Dask
    cluster) is built once, not once per worker.

    >>> worker_group("tests/browser/test_zh_walk.py::test_page[bom]"), worker_group("tests/test_app.py::test_a")
    ('browser', 'tests/test_app.py')
    >>> worker_group("tests/test_pdf_layout.py::test_a"), worker_group("tests/test_proposal_elevations.py::test_b")
    ('printed-editions', 'printed-editions')
    >>> worker_group("tests/test_validation_run.py::test_a"), worker_group("tests/test_decision_bands.py::test_b")
    ('validation-results', 'validation-results')
    """
    path = nodeid.split("::", 1)[0]
    if BROWSER_DIR in (ROOT / path).parents:
        return BROWSER_GROUP
    return _shared_group(ROOT / path) or path


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadgroup`` schedules :func:`worker_group`'s groups: pytest-xdist's scheduler by
    scope, each group one scope. (pytest-xdist 3.8 would read ``xdist_group`` marks into the test
    ids, which pytest 9.2's ids no longer take; the groups here come from the path, and the ids and
    the JUnit names stay as they are.) Other ``--dist`` modes are pytest-xdist's own."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class SuiteGroups(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return worker_group(nodeid)

    return SuiteGroups(config, log)


def order_for_workers(items: list[pytest.Item]) -> None:
    """Sort the tests, stably, by :data:`WORKER_ORDER` of their group's costliest tier (a group's
    tests keep their order): with ``--no-loadscope-reorder`` the workers take the groups in the
    order of their first test. Every worker sorts the same collection the same way."""
    rank = {tier: place for place, tier in enumerate(WORKER_ORDER)}
    costs: dict[str, int] = {}
    for item in items:
        cost = min(rank[mark.name] for mark in item.iter_markers() if mark.name in rank)
        group = worker_group(item.nodeid)
        costs[group] = min(cost, costs.get(group, cost))
    items.sort(key=lambda item: costs[worker_group(item.nodeid)])


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Give every test its tier markers (see the module docstring); on a pytest-xdist worker,
    order them for the workers (:func:`order_for_workers`)."""
    counts: Counter[str] = Counter()
    for item in items:
        tiers = sorted(tiers_of(item))
        counts.update(tiers)
        for tier in tiers:
            item.add_marker(getattr(pytest.mark, tier))
    config.stash[TIER_COUNTS] = counts
    if hasattr(config, "workerinput"):
        order_for_workers(items)


def _machine() -> str:
    """``"2 cores, AMD EPYC ..., Python 3.11.7"``."""
    cpu = platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        names = [
            line.split(":", 1)[1].strip() for line in cpuinfo.read_text().splitlines() if "model name" in line
        ]
        cpu = names[0] if names else cpu
    return f"{os.cpu_count()} cores, {cpu}, Python {platform.python_version()}"


def run_facts(config: pytest.Config, tier_counts: Mapping[str, int]) -> dict[str, str]:
    """What ``make test`` records in its JUnit file for the README: tests per tier, the workers,
    the machine, the load average at the end of the run and the date."""
    workers = config.getoption("numprocesses", None) if config.pluginmanager.has_plugin("xdist") else None
    facts = {f"tier_{tier}": str(count) for tier, count in sorted(tier_counts.items())}
    facts["workers"] = str(workers or 1)
    facts["machine"] = _machine()
    facts["load_average"] = " ".join(f"{x:.1f}" for x in os.getloadavg())
    facts["date"] = datetime.date.today().isoformat()
    return facts


WORKER_TIERS = "tier_counts"
"""The key under which a pytest-xdist worker hands its collection's tier counts to the controller."""


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """The controller of a pytest-xdist run takes the tier counts from a finished worker (every
    worker collects the whole suite, so each holds the same counts)."""
    counts = getattr(node, "workeroutput", {}).get(WORKER_TIERS)
    if counts:
        node.config.stash[TIER_COUNTS] = Counter(counts)


_SETUP_STARTS: dict[tuple[str, str], float] = {}
"""When each test's set-up began [s since the epoch], by worker and test id (the controller's)."""


@pytest.hookimpl(tryfirst=True)  # before the JUnit writer takes the teardown's properties
def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """On the controller of a pytest-xdist run, each test's line in the JUnit file records the
    worker that ran it and when its set-up began (``worker``, ``started`` [s since the epoch]):
    with the test's time, the run's timeline per worker (which group each worker held, whether
    one sat idle at the end) is read from ``make test``'s own record."""
    worker = getattr(report, "worker_id", None)
    if worker is None:
        return
    key = (str(worker), report.nodeid)
    if report.when == "setup":
        _SETUP_STARTS[key] = report.start
    elif report.when == "teardown":
        started = _SETUP_STARTS.pop(key, report.start)
        report.user_properties += [("worker", str(worker)), ("started", f"{started:.3f}")]


@pytest.hookimpl(tryfirst=True)  # before the JUnit file is written
def pytest_sessionfinish(session: pytest.Session) -> None:
    """A pytest-xdist worker hands its tier counts to the controller; the process that writes the
    JUnit file (``make test``: the controller, or the one process) records :func:`run_facts` in it:
    ``tools/readme_blocks.py`` writes the README's test line from them. The JUnit file's own time is
    the run's wall time (from the session's start to its end), whatever the number of workers."""
    config = session.config
    counts = config.stash.get(TIER_COUNTS, Counter())
    workeroutput = getattr(config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput[WORKER_TIERS] = dict(counts)
        return
    xml = config.stash.get(xml_key, None)
    if xml is not None:
        for name, value in run_facts(config, counts).items():
            xml.add_global_property(name, value)
