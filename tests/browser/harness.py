"""Start the app with ``streamlit run`` and drive it with Playwright and Debian's Chromium.

Shared by the browser tests and ``bench/browser_latency.py``. Never ``playwright install``:
the browser is the system's ``/usr/bin/chromium`` (``.ci/setup-system.sh`` installs it).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from playwright.sync_api import Browser, Page, Playwright

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app.py"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = ROOT / "artifacts" / "screenshots"


def in_ci() -> bool:
    """True when the CI variable is set to anything but an explicit no."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require_chromium() -> None:
    """Skip when Chromium is missing on a developer machine; fail when it is missing in CI."""
    import pytest

    if CHROMIUM.exists():
        return
    if in_ci():
        pytest.fail(f"CI is set but {CHROMIUM} is missing: run .ci/setup-system.sh first")
    pytest.skip(f"{CHROMIUM} is not installed (run .ci/setup-system.sh)")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


@contextmanager
def streamlit_server(log: IO[bytes] | None = None, timeout_s: float = 90.0) -> Iterator[str]:
    """Run the app on a free port of 127.0.0.1; yield its base URL; stop it afterwards."""
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(APP),
        "--server.headless",
        "true",
        "--server.address",
        "127.0.0.1",
        "--server.port",
        str(port),
        "--browser.gatherUsageStats",
        "false",
    ]
    process = subprocess.Popen(command, cwd=ROOT, stdout=log or subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout_s
        while not _healthy(url):
            if process.poll() is not None:
                raise RuntimeError(f"streamlit exited with code {process.returncode} before serving {url}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not answer on {url} within {timeout_s:g} s")
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


def launch(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


def full_page_screenshot(page: Page, path: Path, width: int = 1440) -> Path:
    """Screenshot of the whole page: Streamlit scrolls inside its main block, so grow the viewport."""
    path.parent.mkdir(parents=True, exist_ok=True)
    height = page.evaluate(
        "() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
        " return m ? m.scrollHeight : document.body.scrollHeight }"
    )
    page.set_viewport_size({"width": width, "height": min(max(900, int(height) + 40), 7000)})
    page.wait_for_timeout(800)  # let Plotly re-layout at the new size
    page.screenshot(path=str(path))
    page.set_viewport_size({"width": width, "height": 900})
    return path
