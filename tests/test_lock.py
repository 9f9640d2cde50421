"""requirements.lock, the image's transitive pins (deploy/lock.py): it covers pyproject's
dependencies at pyproject's versions, is closed under their requirements, and the Dockerfile
installs from it after checking it."""

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


def test_the_lock_pins_every_pyproject_dependency_at_its_version() -> None:
    assert lock.missing_pins() == []
    direct = lock.pins(lock.project_dependencies())
    locked = lock.pins((ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines())
    assert direct, "pyproject has dependencies"
    for name, version in direct.items():
        assert locked[name] == version, name


def test_the_lock_is_the_closure_of_the_tested_environment() -> None:
    """Every requirement of every locked package is locked too, at the installed version: the
    file equals what ``lock.py write`` produces now (stale after a pin change otherwise)."""
    expected = lock.lock_text(lock.project_dependencies())
    assert (ROOT / "requirements.lock").read_text(encoding="utf-8") == expected, (
        "requirements.lock is stale: run python deploy/lock.py write"
    )
    locked = lock.pins(expected.splitlines())
    # transitive packages are in it, not only the direct ones
    for name in ("tornado", "msgpack", "pydantic-core", "typing-extensions"):
        assert name in locked, name


def test_check_names_a_missing_or_different_pin(tmp_path: Path) -> None:
    text = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    broken = tmp_path / "requirements.lock"
    broken.write_text(
        re.sub(r"^pyarrow==.*\n", "", text, flags=re.M).replace("numpy==", "numpy==0.0.1+x"),
        encoding="utf-8",
    )
    problems = lock.missing_pins(lock=broken)
    assert any(p.startswith("pyarrow==") and "not in" in p for p in problems), problems
    assert any(p.startswith("numpy: pyproject pins") for p in problems), problems
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
