"""Shared fixtures: the bundled catalog, a helper to write temporary catalog files, and a private
data folder for the whole run."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from planner import Catalog, load_catalog

ROOT = Path(__file__).resolve().parents[1]

# Hypothesis keeps its example database and constants cache in ./.hypothesis by default: keep them
# out of the checkout, in one folder per machine so a failing example is still replayed next run.
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


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture
def write_yaml(tmp_path: Path) -> Callable[[str, Any], Path]:
    def write(name: str, data: Any) -> Path:
        path = tmp_path / name
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        return path

    return write
