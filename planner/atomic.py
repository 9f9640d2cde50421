"""Writing output files all-or-nothing.

A file the CLI writes is first written to a temporary file in the same folder and then renamed
over the target with :func:`os.replace`, which is atomic on one file system: a reader (or a
later ``ls``) sees the old file or the complete new one, never a truncated XLSX or a 0-byte
PDF. :func:`write_all` does the same for the several files of one export: every file is
written first, and only when all are complete are they renamed, so a failure leaves none of
the new files behind (a failed rename, such as a full disk between two renames, is not
undone: the files renamed before it stay). A target that is a device or a FIFO
(``/dev/stdout``) cannot be replaced and is written through, before any rename.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

TEMP_PREFIX = ".planner-"
"""Start of the temporary files' names (hidden, recognisable if a crash leaves one)."""


def _mode_for(path: Path) -> int:
    """The permissions the new file gets: those of the file it replaces, else the usual
    ``0666`` less the umask (mkstemp's ``0600`` would hide an export from the group)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _temporary_copy(path: Path, content: bytes) -> Path:
    """``content`` in a new temporary file next to ``path``, flushed to disk; removed on failure."""
    folder = path.parent if str(path.parent) else Path(".")
    handle, name = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=".tmp", dir=folder)
    temporary = Path(name)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(content)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, _mode_for(path))
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return temporary


class WriteError(OSError):
    """A file of :func:`write_all` could not be written; ``path`` is the target (not the
    temporary file the system error names)."""

    def __init__(self, path: Path, cause: OSError) -> None:
        super().__init__(cause.errno, cause.strerror or type(cause).__name__, str(path))
        self.path = path


def write_all(contents: Mapping[Path, bytes]) -> None:
    """Write every file of ``contents`` or none: temporary files first, then the renames.

    Parameters
    ----------
    contents : mapping of Path to bytes
        Each target file and its content.

    Raises
    ------
    WriteError
        For the first file that failed; no temporary file and no new target is left.
    """
    targets = {Path(os.path.realpath(path)): path for path in contents}  # through symbolic links
    special = {real for real in targets if _is_special(real)}
    written: dict[Path, Path] = {}
    try:
        for real, path in targets.items():
            if real not in special:
                written[real] = _step(path, _temporary_copy, real, contents[path])
        for real in special:  # /dev/stdout, a FIFO: nothing to rename over, so write through
            _step(targets[real], real.write_bytes, contents[targets[real]])
        for real, temporary in written.items():
            _step(targets[real], os.replace, temporary, real)
    finally:
        for temporary in written.values():
            temporary.unlink(missing_ok=True)  # only those not renamed are still there


def _is_special(path: Path) -> bool:
    """Whether ``path`` exists and is not a regular file (a device, a FIFO, a directory)."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return False


def _step(path: Path, action: Callable[..., T], *args: Any) -> T:
    """``action(*args)``, with an :class:`OSError` turned into a :class:`WriteError` for ``path``."""
    try:
        return action(*args)
    except OSError as exc:
        raise WriteError(path, exc) from exc


def write_bytes(path: str | Path, content: bytes) -> None:
    """Write one file atomically (see :func:`write_all`).

    Parameters
    ----------
    path : str or Path
        The target file.
    content : bytes
        Its content.
    """
    write_all({Path(path): content})


def write_text(path: str | Path, text: str, *, encoding: str = "utf-8") -> None:
    """Write one text file atomically (see :func:`write_all`).

    Parameters
    ----------
    path : str or Path
        The target file.
    text : str
        Its content.
    encoding : str
        The text encoding.
    """
    write_bytes(path, text.encode(encoding))


__all__ = ["TEMP_PREFIX", "WriteError", "write_all", "write_bytes", "write_text"]
