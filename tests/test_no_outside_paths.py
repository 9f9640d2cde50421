"""No tracked file cites a path outside the repository (the team's private notes).

Users of the repository, and customers reading its exports, cannot open such paths: code, data and
docs cite ``docs/architecture.md``, ``docs/model.md``, ``docs/source-document.md`` or a public
source instead.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
THIS_FILE = Path(__file__).resolve().relative_to(ROOT).as_posix()
# Spelled in pieces so that this file does not match itself when searched by other tools.
FORBIDDEN = ("../" + "shared", "/work/" + "shared", "DESIGN" + ".md", "STYLE" + ".md", "components" + ".md")
README = "README.md"


def _git_grep(*pathspecs: str) -> list[str]:
    """Lines of tracked files (working tree) that contain any forbidden string."""
    args = ["git", "grep", "-n", "-I", "-F"]
    for pattern in FORBIDDEN:
        args += ["-e", pattern]
    result = subprocess.run([*args, "--", *pathspecs], cwd=ROOT, capture_output=True, text=True, check=False)
    if result.returncode not in (0, 1):  # 1 = no match
        raise RuntimeError(result.stderr)
    return result.stdout.splitlines()


pytestmark = pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout"
)


def test_no_tracked_file_cites_a_path_outside_the_repository() -> None:
    hits = _git_grep(".", f":(exclude){THIS_FILE}", f":(exclude){README}")
    assert not hits, "cite docs/ or a public source instead:\n" + "\n".join(hits)


def test_readme_cites_no_path_outside_the_repository() -> None:
    assert not _git_grep(README)


def test_the_check_finds_a_planted_citation(tmp_path: Path) -> None:
    # must be able to fail: the same search over a throwaway repository with one bad line
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "note.py").write_text(f'"""See {FORBIDDEN[2]} section 5."""\n', encoding="utf-8")
    subprocess.run(["git", "-C", str(tmp_path), "add", "note.py"], check=True)
    args = ["git", "grep", "-n", "-F"] + [x for p in FORBIDDEN for x in ("-e", p)]
    found = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert found.returncode == 0 and "note.py:1:" in found.stdout
