"""``.ci/check-clean.sh``, the end of ``make test``: the tests must leave the checkout as it was.

Each case runs the script in a small git repository of its own: a snapshot, a change, a compare.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / ".ci" / "check-clean.sh"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A committed checkout with the script, an ignored artifacts/ and a developer's own edit."""
    (tmp_path / ".ci").mkdir()
    shutil.copy(SCRIPT, tmp_path / ".ci" / "check-clean.sh")
    (tmp_path / ".gitignore").write_text("artifacts/\n", encoding="utf-8")
    (tmp_path / "engine.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "notes.md").write_text("kept\n", encoding="utf-8")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "start")
    (tmp_path / "engine.py").write_text("x = 2  # work in progress\n", encoding="utf-8")
    (tmp_path / "draft.py").write_text("y = 1\n", encoding="utf-8")
    return tmp_path


def _check(repo: Path, change: Callable[[Path], object]) -> subprocess.CompletedProcess[str]:
    script = str(repo / ".ci" / "check-clean.sh")
    before = subprocess.run(["bash", script, "snapshot"], capture_output=True, text=True, check=True)
    change(repo)
    return subprocess.run(["bash", script, "compare", before.stdout], capture_output=True, text=True)


def _nothing(repo: Path) -> None:
    pass


def _artifact(repo: Path) -> None:
    (repo / "artifacts" / "screenshots").mkdir(parents=True)
    (repo / "artifacts" / "screenshots" / "en_overview.png").write_bytes(b"png")


@pytest.mark.parametrize("change", [_nothing, _artifact], ids=["nothing", "ignored-artifact"])
def test_an_untouched_checkout_passes_with_the_developers_own_edits(
    repo: Path, change: Callable[[Path], object]
) -> None:
    result = _check(repo, change)
    assert result.returncode == 0, result.stderr
    assert result.stdout == result.stderr == ""


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda r: (r / "scenarios.sqlite").write_bytes(b"db"), "scenarios.sqlite"),
        (lambda r: (r / "notes.md").write_text("overwritten\n", encoding="utf-8"), "notes.md"),
        (lambda r: (r / "notes.md").unlink(), "notes.md"),
        # already modified before the run: same status letters, new content
        (lambda r: (r / "engine.py").write_text("x = 3\n", encoding="utf-8"), "engine.py"),
        (lambda r: (r / "draft.py").write_text("y = 2\n", encoding="utf-8"), "draft.py"),
        (
            lambda r: (r / "docs dir").mkdir() or (r / "docs dir" / "a b.png").write_bytes(b"1"),
            "docs dir/a b.png",
        ),
    ],
    ids=["new-file", "tracked-file", "deleted-file", "dirty-file", "untracked-file", "spaces"],
)
def test_a_test_that_writes_into_the_checkout_fails_the_run(
    repo: Path, change: Callable[[Path], object], path: str
) -> None:
    result = _check(repo, change)
    assert result.returncode == 1
    assert "the tests changed the checkout" in result.stderr
    assert result.stderr.splitlines()[1:] == [f"  {path}"]
