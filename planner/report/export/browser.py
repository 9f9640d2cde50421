"""One long-lived headless Chromium, through kaleido: chart images and HTML printed to PDF.

Starting Chromium costs about 3 s, so one :class:`Browser` is started once per process
(:func:`shared_browser`) and kept: the CLI exports several files with it, the web app serves
every session with it. It runs on its own thread with its own event loop; callers on any
thread submit work to that loop, so concurrent exports are safe.

Charts are drawn by kaleido's own page and renderer (``kaleido.PageGenerator`` and its
``kaleido_scopes.plotly``, the code behind ``kaleido.calc_fig``) in one tab that stays loaded:
``calc_fig`` reloads plotly.js after every image (about 0.2 s each), while one batch of the
nine charts of a proposal takes about 0.3 s. Documents are printed in a second tab
(Chrome DevTools ``Page.printToPDF``). ``kaleido.start_sync_server`` could do neither: its
server only calls ``Kaleido``'s own methods.

Why Chromium prints the PDF (not reportlab): Debian's CJK fonts (``fonts-noto-cjk``) have
PostScript (CFF) outlines, which reportlab cannot embed ("postscript outlines are not
supported"); Chromium embeds every font it uses (CFF ones as Type 3), shapes every script
(Arabic joins and runs right to left) and falls back per character through fontconfig, so
user text in any script renders with the fonts the machine has.
"""

from __future__ import annotations

import asyncio
import atexit
import base64
import json
import os
import shutil
import tempfile
import threading
from collections.abc import Coroutine, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

from planner.errors import PlannerError

T = TypeVar("T")
ImageFormat = Literal["svg", "png"]
MM_PER_INCH = 25.4
A4_MM = (210.0, 297.0)


class RenderError(PlannerError):
    """The browser that draws charts and prints PDFs is missing or failed."""


@dataclass(frozen=True)
class ChartSpec:
    """One chart to draw: a Plotly figure (or its dict) and its size on paper [CSS px]."""

    figure: Any
    width_px: int
    height_px: int


@dataclass(frozen=True)
class PageSetup:
    """Paper and margins [mm]; header and footer are HTML drawn in the top and bottom margins.

    Chromium fills elements of class ``pageNumber``, ``totalPages``, ``title`` and ``date`` in
    the header and footer templates.
    """

    footer_html: str = ""
    header_html: str = ""
    paper_mm: tuple[float, float] = A4_MM
    margins_mm: tuple[float, float, float, float] = (16.0, 15.0, 18.0, 15.0)
    """Top, right, bottom, left."""

    def cdp_params(self) -> dict[str, Any]:
        """Parameters of Chrome DevTools ``Page.printToPDF``."""
        top, right, bottom, left = (m / MM_PER_INCH for m in self.margins_mm)
        width, height = (p / MM_PER_INCH for p in self.paper_mm)
        return {
            "paperWidth": width,
            "paperHeight": height,
            "marginTop": top,
            "marginRight": right,
            "marginBottom": bottom,
            "marginLeft": left,
            "printBackground": True,
            "displayHeaderFooter": bool(self.footer_html or self.header_html),
            "headerTemplate": self.header_html or "<span></span>",
            "footerTemplate": self.footer_html or "<span></span>",
            "generateTaggedPDF": True,
            "generateDocumentOutline": True,
        }


def chromium_path() -> str | None:
    """Debian's Chromium (or ``$BROWSER_PATH``); ``None`` lets kaleido search its usual places."""
    configured = os.environ.get("BROWSER_PATH")
    if configured:
        return configured
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


_RENDER_BATCH_JS = """
(async (specsJson) => {
  const out = [];
  for (const spec of JSON.parse(specsJson)) {
    out.push(await kaleido_scopes.plotly(spec));
  }
  return JSON.stringify(out);
})(%s)
"""
"""Draw every spec in turn with kaleido's renderer; each result is ``{code, message, result}``."""
RELOAD_EVERY = 50
"""Batches drawn before the chart tab is reloaded (kaleido reloads after every image)."""


class Browser:
    """A headless Chromium kept open: ``start()`` once, then ``images()`` and ``print_pdf()``."""

    def __init__(self, *, path: str | None = None, timeout_s: float = 60.0) -> None:
        self._path = path if path is not None else chromium_path()
        self._timeout_s = timeout_s
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._kaleido: Any = None
        self._workdir: tempfile.TemporaryDirectory[str] | None = None
        self._chart_tab: Any = None
        self._print_tab: Any = None
        self._chart_lock: asyncio.Lock | None = None
        self._print_lock: asyncio.Lock | None = None
        self._batches = 0

    @property
    def running(self) -> bool:
        return self._kaleido is not None

    def start(self) -> None:
        """Open the browser and its two tabs (about 3 s); nothing when it is already open."""
        with self._lock:
            if self._kaleido is not None:
                return
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="planner-export-browser", daemon=True)
            thread.start()
            self._loop, self._thread = loop, thread
            self._workdir = tempfile.TemporaryDirectory(prefix="planner-browser-")
            try:
                self._kaleido = self._submit(self._open(Path(self._workdir.name)))
            except BaseException:
                self._shutdown_loop()
                raise

    async def _open(self, workdir: Path) -> Any:
        import kaleido

        try:
            browser = kaleido.Kaleido(n=1, path=self._path, mathjax=False, timeout=self._timeout_s)
            await browser.open()
        except Exception as exc:
            where = self._path or "the default locations"
            raise RenderError(
                f"chart and PDF renderer: cannot start Chromium at {where} ({type(exc).__name__}: {exc}); "
                "install Debian's chromium package or set BROWSER_PATH"
            ) from None
        index = workdir / "charts.html"
        index.write_text(kaleido.PageGenerator(mathjax=False).generate_index(), encoding="utf-8")
        self._chart_lock, self._print_lock = asyncio.Lock(), asyncio.Lock()
        self._chart_tab = await self._new_tab(browser)
        await self._navigate(self._chart_tab, index)
        self._print_tab = await self._new_tab(browser)
        return browser

    @staticmethod
    async def _new_tab(browser: Any) -> Any:
        tab = await browser.create_tab("about:blank")
        await tab.send_command("Page.enable")
        return tab

    async def _navigate(self, tab: Any, path: Path) -> None:
        loaded = tab.subscribe_once("Page.loadEventFired")
        response = await tab.send_command("Page.navigate", params={"url": path.as_uri()})
        if "error" in response:
            raise RenderError(f"renderer: cannot open {path.name} ({response['error']})")
        await asyncio.wait_for(loaded, self._timeout_s)

    def stop(self) -> None:
        """Close the browser and its thread (safe to call twice)."""
        with self._lock:
            if self._kaleido is None:
                return
            try:
                self._submit(self._kaleido.close())
            finally:
                self._kaleido = self._chart_tab = self._print_tab = None
                self._shutdown_loop()

    def _shutdown_loop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=self._timeout_s)
            loop.close()
        self._loop = self._thread = None
        if self._workdir is not None:
            self._workdir.cleanup()
            self._workdir = None

    def _submit(self, coroutine: Coroutine[Any, Any, T]) -> T:
        if self._loop is None:
            coroutine.close()
            raise RenderError("chart and PDF renderer: the browser is not running")
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        return future.result(timeout=self._timeout_s * 4)

    def _require(self) -> None:
        if self._kaleido is None:
            self.start()

    def images(
        self, charts: Sequence[ChartSpec], *, fmt: ImageFormat = "svg", scale: float = 2.0
    ) -> list[bytes]:
        """Each chart as an SVG (vector) or PNG (``scale`` x its CSS size) image, in order."""
        self._require()
        specs = [
            {
                "format": fmt,
                "width": chart.width_px,
                "height": chart.height_px,
                "scale": scale,
                "data": json.loads(
                    chart.figure.to_json() if hasattr(chart.figure, "to_json") else json.dumps(chart.figure)
                ),
            }
            for chart in charts
        ]
        expression = _RENDER_BATCH_JS % json.dumps(json.dumps(specs))
        try:
            results = self._submit(self._draw(expression))
        except RenderError:
            raise
        except Exception as exc:
            raise RenderError(f"chart renderer: {type(exc).__name__}: {exc}") from None
        images = []
        for result in results:
            if result.get("code") != 0:
                raise RenderError(f"chart renderer: {result.get('message', 'failed')}")
            text = str(result["result"])
            images.append(text.encode("utf-8") if fmt == "svg" else base64.b64decode(text))
        return images

    async def _draw(self, expression: str) -> list[Mapping[str, Any]]:
        if self._chart_lock is None:
            raise RenderError("chart renderer: the browser is not running")
        async with self._chart_lock:
            response = await self._chart_tab.send_command(
                "Runtime.evaluate",
                params={"expression": expression, "awaitPromise": True, "returnByValue": True},
            )
            self._batches += 1
            if self._batches % RELOAD_EVERY == 0:
                loaded = self._chart_tab.subscribe_once("Page.loadEventFired")
                await self._chart_tab.send_command("Page.reload")
                await asyncio.wait_for(loaded, self._timeout_s)
        result = response.get("result", {})
        if "error" in response or "exceptionDetails" in result:
            detail = response.get("error") or result["exceptionDetails"].get("exception", {}).get(
                "description"
            )
            raise RenderError(f"chart renderer: {detail}")
        parsed: list[Mapping[str, Any]] = json.loads(result["result"]["value"])
        return parsed

    def print_pdf(self, html: str, *, setup: PageSetup | None = None) -> bytes:
        """The HTML document printed to PDF by the browser."""
        self._require()
        params = (setup or PageSetup()).cdp_params()
        with tempfile.TemporaryDirectory(prefix="planner-pdf-") as tmp:
            path = Path(tmp) / "document.html"
            path.write_text(html, encoding="utf-8")
            try:
                response = self._submit(self._print(path, params))
            except RenderError:
                raise
            except Exception as exc:
                raise RenderError(f"PDF printer: {type(exc).__name__}: {exc}") from None
        if "error" in response:
            raise RenderError(f"PDF printer: {response['error'].get('message', response['error'])}")
        return base64.b64decode(response["result"]["data"])

    async def _print(self, path: Path, params: Mapping[str, Any]) -> Mapping[str, Any]:
        if self._print_lock is None:
            raise RenderError("PDF printer: the browser is not running")
        async with self._print_lock:
            tab = self._print_tab
            await self._navigate(tab, path)
            await tab.send_command(
                "Runtime.evaluate",
                params={"expression": "document.fonts.ready.then(() => true)", "awaitPromise": True},
            )
            response: Mapping[str, Any] = await tab.send_command("Page.printToPDF", params=dict(params))
            blank = tab.subscribe_once("Page.loadEventFired")
            await tab.send_command("Page.navigate", params={"url": "about:blank"})
            await asyncio.wait_for(blank, self._timeout_s)
            return response


_SHARED: Browser | None = None
_SHARED_LOCK = threading.Lock()


def shared_browser() -> Browser:
    """The process's one browser, started on first use and closed when the process exits."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = Browser()
        browser = _SHARED
    if not browser.running:
        browser.start()
        # registered after start: atexit runs last-in first-out, so the browser closes before
        # the interpreter's own clean-up of the temporary files Chromium's launcher made
        atexit.register(browser.stop)
    return browser
