"""The lock files (deploy/lock.py): requirements.lock, the image's transitive pins, covers
pyproject's dependencies and the app's extras inside pyproject's ranges, is closed under their
requirements, and the Dockerfile installs from it after checking it; requirements-dev.lock pins
what the dev extra adds; the Makefile installs with both as constraints."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _lock_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("deploy_lock", ROOT / "deploy" / "lock.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


lock = _lock_module()


def test_the_lock_pins_every_pyproject_dependency_inside_its_range() -> None:
    assert lock.missing_pins() == []
    direct = lock.ranges(lock.project_dependencies())
    locked = lock.pins((ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines())
    # the app's extras are part of the image: the sweep's Dask and the NetBox client
    assert {"pydantic", "streamlit", "distributed", "pyarrow", "pynetbox"} <= direct.keys()
    assert all(name in locked for name in direct), sorted(direct.keys() - locked.keys())


def test_pyproject_declares_ranges_not_pins() -> None:
    """A library publishes ranges; the exact versions live in the lock files only."""
    declared = lock.ranges(lock.project_dependencies() + lock.dev_dependencies())
    pinned = {name: spec for name, spec in declared.items() if "==" in spec or ">=" not in spec}
    assert pinned == {}, "each needs a lower bound and no exact pin"


def test_the_locks_are_the_closure_of_the_tested_environment() -> None:
    """Every requirement of every locked package is locked too, at the installed version: each
    file equals what ``lock.py write`` produces now (stale after a range or version change)."""
    expected = lock.lock_text(lock.project_dependencies())
    assert (ROOT / "requirements.lock").read_text(encoding="utf-8") == expected, (
        "requirements.lock is stale: run python deploy/lock.py write"
    )
    assert (ROOT / "requirements-dev.lock").read_text(encoding="utf-8") == lock.dev_lock_text(), (
        "requirements-dev.lock is stale: run python deploy/lock.py write"
    )
    locked = lock.pins(expected.splitlines())
    # transitive packages are in it, not only the direct ones
    for name in ("tornado", "msgpack", "pydantic-core", "typing-extensions"):
        assert name in locked, name
    dev = lock.pins((ROOT / "requirements-dev.lock").read_text(encoding="utf-8").splitlines())
    assert {"pytest", "ruff", "mypy", "babel"} <= dev.keys() and not dev.keys() & locked.keys()


def test_make_installs_with_the_locks_as_constraints() -> None:
    """``make install`` (the app and its extras) and ``make install-dev`` (plus the dev tools) both
    install through the one pip command that takes the two lock files as constraints."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    command = re.search(r"^PIP_INSTALL = (.*)$", text, re.MULTILINE)
    assert command is not None
    assert "-c requirements.lock -c requirements-dev.lock" in command[1]
    installs = re.findall(r"^\t(.*pip install.*)$", text, re.MULTILINE)
    assert installs == [], f"every install goes through $(PIP_INSTALL): {installs}"
    assert re.search(r"^install:.*\n\t\$\(PIP_INSTALL\) -e '\.\[sweep,netbox\]'$", text, re.MULTILINE)
    assert re.search(r"^install-dev:.*\n\t\$\(PIP_INSTALL\) -e '\.\[dev,sweep,netbox\]'$", text, re.MULTILINE)


def test_check_names_a_missing_or_different_pin(tmp_path: Path) -> None:
    text = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    broken = tmp_path / "requirements.lock"
    broken.write_text(
        re.sub(r"^pyarrow==.*\n", "", text, flags=re.M).replace("numpy==", "numpy==0.0.1+x"),
        encoding="utf-8",
    )
    problems = lock.missing_pins(lock=broken)
    assert any(p.startswith("pyarrow>=") and "not in" in p for p in problems), problems
    assert any(p.startswith("numpy: pyproject wants >=") for p in problems), problems
    done = subprocess.run(
        [sys.executable, str(ROOT / "deploy" / "lock.py"), "check", "--lock", str(broken)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "pyarrow" in done.stderr


def test_pins_reads_extras_markers_and_names_alike() -> None:
    lines = ["psycopg[binary]==3.3.9", "PyYAML==6.0.4  # comment", "a_b.c==1 ; python_version>'3'", "# x"]
    assert lock.pins(lines) == {"psycopg": "3.3.9", "pyyaml": "6.0.4", "a-b-c": "1"}


def test_closure_refuses_a_package_that_is_not_installed() -> None:
    with pytest.raises(SystemExit, match="not-a-real-package-xyz"):
        lock.closure(["not-a-real-package-xyz==1"])


def test_the_dockerfile_installs_only_the_checked_lock() -> None:
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    runs = [line for line in text.splitlines() if line.strip().startswith("RUN") and "pip install" in line]
    install = " ".join(runs)
    assert "lock.py check" in install
    assert install.index("lock.py check") < install.index("pip install")
    assert re.search(r"pip install --no-deps -r requirements\.lock", install)
    assert "pip check" in install
    copies = [line for line in text.splitlines() if line.strip().startswith("COPY")]
    assert any("requirements.lock" in line for line in copies)
