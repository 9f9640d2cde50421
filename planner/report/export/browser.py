"""One long-lived headless Chromium, driven through choreographer's public API: charts and PDFs.

Starting Chromium costs about 3 s (about 5 s per image when each export starts its own), so one
:class:`Browser` is started once per process (:func:`shared_browser`) and kept: the CLI exports
several files with it, the web app serves every session with it. It runs on its own thread with
its own event loop, inside ``async with choreographer.Browser(...)`` (choreographer is the Chrome
DevTools Protocol client kaleido is built on; its documented way to hold a browser open);
callers on any thread submit work to that loop, so concurrent exports are safe. Two tabs, opened
with the public ``Browser.create_tab`` and driven with ``Tab.send_command``, serve everything:

- The chart tab stays loaded with the plotly.js bundled in the installed ``plotly`` package
  (``plotly/package_data/plotly.min.js``, the same version the app's figures are written for;
  no network, no CDN). It is evaluated once when the browser starts; each :meth:`Browser.images`
  call then sends all its figures in one ``Runtime.evaluate`` of ``Plotly.toImage`` calls, so a
  proposal's nine charts cost one round trip and no page load (about 0.05 s a chart). kaleido's
  public ``Kaleido.calc_fig`` reloads its page after every image (about 0.3 s each) and its
  faster calls are private, so kaleido is not used. Each chart has a deadline in the page and
  the whole call one in Python: a figure that fails or never finishes is a :class:`RenderError`
  naming the chart, never a hang, and a tab that stops answering is replaced.
- The print tab (the browser's start-up tab) is given the HTML document with
  ``Page.setDocumentContent`` (no navigation, so no new renderer process per print) and prints
  it with the Chrome DevTools command ``Page.printToPDF`` (kaleido has no call that prints an
  HTML page). The browser runs with :data:`LEAN_FLAGS`, one process group of bounded size.

Chart text is laid out by Chromium with the machine's fonts through fontconfig: the figures ask
for Noto Sans CJK SC first (:data:`planner.report.charts.FONT`, Debian's ``fonts-noto-cjk``), so
Chinese titles and labels are measured and drawn with it.

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
import concurrent.futures
import contextlib
import importlib.resources
import json
import os
import shutil
import threading
from collections.abc import Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from planner.errors import PlannerError

T = TypeVar("T")
ImageFormat = Literal["svg", "png"]
MM_PER_INCH = 25.4
A4_MM = (210.0, 297.0)
CHART_TIMEOUT_S = 30.0
"""Longest wait for one chart [s]; a proposal's charts take about 0.05 s each on a warm tab."""
ROUND_TRIP_S = 10.0
"""Allowance [s] for sending a call's figures to the chart tab and its images back."""


class RenderError(PlannerError):
    """The browser that draws charts and prints PDFs is missing or failed."""


@dataclass(frozen=True)
class ChartSpec:
    """One chart to draw: a Plotly figure (or its dict), its size on paper [CSS px] and its name.

    The name (e.g. ``"cost_stack"``) only labels errors; without one a chart is named by its
    position in the call.
    """

    figure: Any
    width_px: int
    height_px: int
    name: str = ""


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
    """Debian's Chromium (or ``$BROWSER_PATH``); ``None`` lets choreographer search its usual places.

    Returns
    -------
    str or None
        Path of the browser executable, or ``None``.
    """
    configured = os.environ.get("BROWSER_PATH")
    if configured:
        return configured
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


def plotly_js() -> str:
    """The plotly.js bundle shipped in the installed ``plotly`` package (the app's own version).

    Returns
    -------
    str
        The minified plotly.js source.
    """
    bundle = importlib.resources.files("plotly") / "package_data" / "plotly.min.js"
    try:
        return bundle.read_text(encoding="utf-8")
    except OSError as exc:
        raise RenderError(f"chart renderer: cannot read plotly.js from the plotly package ({exc})") from None


DRAW_JS = """
window.plannerDraw = async function (jobs, format, scale, deadlineMs) {
  const results = [];
  for (const job of jobs) {
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no image within ${deadlineMs} ms`)), deadlineMs);
    });
    const options = {format, width: job.width, height: job.height, scale, imageDataOnly: true};
    try {
      results.push({image: await Promise.race([Plotly.toImage(job.figure, options), late])});
    } catch (error) {
      results.push({error: String((error && error.message) || error)});
    } finally {
      clearTimeout(timer);
    }
  }
  return results;
};
typeof Plotly.toImage === "function";
"""
"""Defines ``plannerDraw`` in the chart tab: the charts one after another (Plotly draws each in
a scratch element it adds to the page, so one at a time keeps them apart), each raced against
its deadline so a figure whose drawing never settles cannot hold the call."""


WARM_UP_JS = (
    "plannerDraw([{figure: {data: [{type: 'bar', x: ['GPU', '网卡'], y: [1, 2]}],"
    " layout: {title: {text: 'Warm-up 预热'}}}, width: 400, height: 300}], 'svg', 1, 30000)"
)


def _label(spec: ChartSpec, index: int) -> str:
    return repr(spec.name) if spec.name else f"#{index + 1}"


def _evaluate_error(response: Mapping[str, Any]) -> str | None:
    """The error of a ``Runtime.evaluate`` answer (protocol error or JavaScript exception)."""
    if "error" in response:
        error = response["error"]
        return str(error.get("message", error) if isinstance(error, Mapping) else error)
    details = response.get("result", {}).get("exceptionDetails")
    if details:
        exception = details.get("exception", {})
        return str(exception.get("description") or details.get("text") or details)
    return None


class Browser:
    """A headless Chromium kept open: ``start()`` once, then ``images()`` and ``print_pdf()``."""

    def __init__(self, *, path: str | None = None, timeout_s: float = 60.0) -> None:
        self._path = path if path is not None else chromium_path()
        self._timeout_s = timeout_s
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._browser: Any = None
        self._chart_tab: Any = None
        self._chart_lock: asyncio.Lock | None = None
        self._print_tab: Any = None
        self._print_lock: asyncio.Lock | None = None
        self._closing: asyncio.Event | None = None
        self._served: concurrent.futures.Future[None] | None = None
        self._closing_tabs: set[asyncio.Task[None]] = set()

    @property
    def running(self) -> bool:
        return self._browser is not None

    def start(self) -> None:
        """Open the browser and its tabs (about 3 s); nothing when it is already open."""
        with self._lock:
            if self._browser is not None:
                return
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="planner-export-browser", daemon=True)
            thread.start()
            self._loop, self._thread = loop, thread
            ready: concurrent.futures.Future[Any] = concurrent.futures.Future()
            self._served = asyncio.run_coroutine_threadsafe(self._serve(ready), loop)
            try:
                self._browser = ready.result(timeout=self._timeout_s * 4)
            except BaseException:
                self._served.cancel()
                self._shutdown_loop()
                raise

    async def _serve(self, ready: concurrent.futures.Future[Any]) -> None:
        """Hold the browser open until :meth:`stop`: the body of ``async with Browser()``."""
        import choreographer

        self._closing = asyncio.Event()
        self._chart_lock, self._print_lock = asyncio.Lock(), asyncio.Lock()
        try:
            async with choreographer.Browser(
                path=self._path, browser_cls=_lean_chromium(), headless=True, enable_extensions=False
            ) as browser:
                # the start-up tab is the print tab (a new one would add a renderer process)
                self._print_tab = browser.get_tab() or await browser.create_tab("about:blank")
                await self._print_tab.send_command("Page.enable")
                self._chart_tab = await self._open_chart_tab(browser)
                ready.set_result(browser)
                await self._closing.wait()
        except Exception as exc:
            if ready.done():
                raise
            where = self._path or "the default locations"
            ready.set_exception(
                RenderError(
                    f"chart and PDF renderer: cannot start Chromium at {where} "
                    f"({type(exc).__name__}: {exc}); install Debian's chromium package or set BROWSER_PATH"
                )
            )

    async def _open_chart_tab(self, browser: Any) -> Any:
        """A blank tab with plotly.js and ``plannerDraw`` evaluated in it."""
        tab = await browser.create_tab("about:blank")
        response = await asyncio.wait_for(
            tab.send_command(
                "Runtime.evaluate",
                params={"expression": plotly_js() + "\n;" + DRAW_JS, "returnByValue": True},
            ),
            self._timeout_s,
        )
        error = _evaluate_error(response)
        if error is not None or response["result"]["result"].get("value") is not True:
            raise RenderError(f"chart renderer: plotly.js did not load ({error})")
        # one throw-away chart with Latin and CJK text: the first drawing in a tab compiles
        # plotly.js and loads the fonts (about 0.5 s), paid here once rather than by an export
        await asyncio.wait_for(
            tab.send_command("Runtime.evaluate", params={"expression": WARM_UP_JS, "awaitPromise": True}),
            self._timeout_s,
        )
        return tab

    def stop(self) -> None:
        """Close the browser and its thread (safe to call twice)."""
        with self._lock:
            if self._browser is None:
                return
            try:
                loop, closing, served = self._loop, self._closing, self._served
                if loop is not None and closing is not None and served is not None:
                    loop.call_soon_threadsafe(closing.set)
                    served.result(timeout=self._timeout_s)
            finally:
                self._browser = self._chart_tab = self._print_tab = None
                self._shutdown_loop()

    def _shutdown_loop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=self._timeout_s)
            loop.close()
        self._loop = self._thread = None
        self._served = self._closing = None

    def _submit(
        self,
        coroutine: Coroutine[Any, Any, T],
        *,
        what: str = "chart and PDF renderer",
        timeout_s: float | None = None,
    ) -> T:
        """``coroutine`` run on the browser's loop; any failure but a :class:`RenderError` becomes one
        that names ``what`` was running (``chart renderer``, ``PDF printer``) and the error."""
        if self._loop is None:
            coroutine.close()
            raise RenderError("chart and PDF renderer: the browser is not running")
        try:
            future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
            return future.result(timeout=timeout_s if timeout_s is not None else self._timeout_s * 4)
        except RenderError:
            raise
        except Exception as exc:
            raise RenderError(f"{what}: {type(exc).__name__}: {exc}") from None

    def _require(self) -> None:
        if self._browser is None:
            self.start()

    def images(
        self,
        charts: Sequence[ChartSpec],
        *,
        fmt: ImageFormat = "svg",
        scale: float = 2.0,
        timeout_s: float = CHART_TIMEOUT_S,
    ) -> list[bytes]:
        """Each chart as an SVG (vector) or PNG (``scale`` x its CSS size) image, in order.

        All charts go to the chart tab in one call; ``timeout_s`` bounds each chart [s].
        """
        if not charts:
            return []
        jobs = []
        for index, spec in enumerate(charts):
            try:
                figure = _figure_json(spec.figure)
            except Exception as exc:
                raise RenderError(
                    f"chart renderer: chart {_label(spec, index)} is not a Plotly figure "
                    f"({type(exc).__name__}: {exc})"
                ) from None
            jobs.append(f'{{"figure":{figure},"width":{int(spec.width_px)},"height":{int(spec.height_px)}}}')
        deadline_ms = max(1, round(timeout_s * 1000))
        expression = f"plannerDraw([{','.join(jobs)}], {json.dumps(fmt)}, {float(scale)!r}, {deadline_ms})"
        # the page gives up on each chart after timeout_s; the Python side waits that long for
        # every chart plus the round trip, in case the page itself stops answering
        wait_s = timeout_s * len(charts) + ROUND_TRIP_S
        self._require()
        results = self._submit(
            self._draw(expression, charts, wait_s), what="chart renderer", timeout_s=wait_s + self._timeout_s
        )
        images = []
        for index, (spec, result) in enumerate(zip(charts, results, strict=True)):
            if "error" in result:
                raise RenderError(
                    f"chart renderer: cannot draw chart {_label(spec, index)}: {result['error']}"
                )
            data = str(result["image"])
            images.append(data.encode("utf-8") if fmt == "svg" else base64.b64decode(data))
        return images

    async def _draw(
        self, expression: str, charts: Sequence[ChartSpec], wait_s: float
    ) -> list[dict[str, Any]]:
        if self._chart_lock is None or self._browser is None:
            raise RenderError("chart renderer: the browser is not running")
        async with self._chart_lock:
            if self._chart_tab is None:
                self._chart_tab = await self._open_chart_tab(self._browser)
            tab = self._chart_tab
            command = tab.send_command(
                "Runtime.evaluate",
                params={"expression": expression, "awaitPromise": True, "returnByValue": True},
            )
            try:
                response = await asyncio.wait_for(command, wait_s)
            except TimeoutError:
                # the page is stuck (a figure drawing for ever): replace the tab on the next call
                self._chart_tab = None
                self._discard(tab)
                names = ", ".join(_label(spec, i) for i, spec in enumerate(charts))
                raise RenderError(
                    f"chart renderer: no answer within {wait_s:.0f} s while drawing chart(s) {names}"
                ) from None
            error = _evaluate_error(response)
            if error is not None:
                raise RenderError(f"chart renderer: {error}")
            results: list[dict[str, Any]] = response["result"]["result"]["value"]
            return results

    def _discard(self, tab: Any) -> None:
        """Close a stuck tab in the background: Chromium answers only once the page is idle."""

        async def close() -> None:
            with contextlib.suppress(Exception):  # abandoned whether or not it closes
                await asyncio.wait_for(tab.close(), self._timeout_s)

        task = asyncio.get_running_loop().create_task(close())
        self._closing_tabs.add(task)  # a reference, so the task is not collected while it runs
        task.add_done_callback(self._closing_tabs.discard)

    def print_pdf(self, html: str, *, setup: PageSetup | None = None) -> bytes:
        """The HTML document printed to PDF by the browser.

        The document is written into the print tab's blank page (``Page.setDocumentContent``),
        never navigated to: a navigation would move the tab to another renderer process at each
        print, and those processes add up. Its images are data URIs, waited for with its fonts.
        """
        self._require()
        params = (setup or PageSetup()).cdp_params()
        response = self._submit(self._print(html, params), what="PDF printer")
        if "error" in response:
            raise RenderError(f"PDF printer: {response['error'].get('message', response['error'])}")
        return base64.b64decode(response["result"]["data"])

    async def _set_document(self, tab: Any, html: str) -> None:
        tree = await tab.send_command("Page.getFrameTree")
        frame_id = tree["result"]["frameTree"]["frame"]["id"]
        response = await tab.send_command(
            "Page.setDocumentContent", params={"frameId": frame_id, "html": html}
        )
        if "error" in response:
            raise RenderError(f"PDF printer: cannot load the document ({response['error']})")

    async def _print(self, html: str, params: Mapping[str, Any]) -> Mapping[str, Any]:
        if self._print_lock is None or self._print_tab is None:
            raise RenderError("PDF printer: the browser is not running")
        async with self._print_lock:
            tab = self._print_tab
            await self._set_document(tab, html)
            await asyncio.wait_for(
                tab.send_command(
                    "Runtime.evaluate", params={"expression": DOCUMENT_READY_JS, "awaitPromise": True}
                ),
                self._timeout_s,
            )
            response: Mapping[str, Any] = await tab.send_command("Page.printToPDF", params=dict(params))
            await self._set_document(tab, "")  # the document's memory goes with it
            for command, command_params in RELEASE_MEMORY:
                await tab.send_command(command, params=dict(command_params))
            return response


DOCUMENT_READY_JS = """
Promise.all([
  document.fonts.ready,
  ...Array.from(document.images).map((img) => img.complete ? null
    : new Promise((done) => { img.addEventListener("load", done); img.addEventListener("error", done); })),
]).then(() => true)
"""
"""Resolves once the document's fonts and images are loaded (what a load event would wait for)."""


START_PAGE = "about:blank"
"""The start-up tab's page (the print tab's): without it Chromium opens its new-tab page, a
``chrome://`` page that needs a renderer process of its own."""

LEAN_FLAGS = (
    "--renderer-process-limit=1",
    "--no-zygote",
    "--in-process-gpu",
    "--disable-site-isolation-trials",
    "--disable-features=site-per-process,IsolateOrigins,Translate,MediaRouter,OptimizationHints,"
    "AudioServiceOutOfProcess,BackForwardCache,PaintHolding,SpareRendererForSitePerProcess,"
    "PreloadTopChromeWebUI,WebUIOmniboxPopup",
    "--enable-features=NetworkServiceInProcess",
    "--js-flags=--max-old-space-size=256",
    START_PAGE,
)
"""Chromium flags that keep the one long-lived browser small: both tabs in one renderer process
(``--renderer-process-limit=1``, no site isolation), no zygote processes (``--no-zygote``, which
the sandbox-less launch allows), the GPU, network and audio services inside the browser process,
and a 256 MB JavaScript heap (a proposal's charts need a few MB); the start-up tab a blank page
(:data:`START_PAGE`) and the browser's own preloaded pages (the omnibox pop-up's ``chrome://``
pages, ``PreloadTopChromeWebUI``, ``WebUIOmniboxPopup``) off, each of which held a renderer
process. Chromium's own switches (``chrome://flags`` and
https://peter.sh/experiments/chromium-command-line-switches/); measured with
``bench/bench_export.py``: the process tree went from 12 processes (1.5 GB of summed resident
memory) to 7, about 0.55-0.69 GB of proportional set size (PSS: shared pages counted once) after
a full proposal, with the print tab written in place (:meth:`Browser.print_pdf`); then to 6
processes, about 0.45-0.5 GB, with the blank start-up page, no preloaded pages and the print
tab's memory released after each print (:data:`RELEASE_MEMORY`)."""

RELEASE_MEMORY: tuple[tuple[str, Mapping[str, Any]], ...] = (
    ("HeapProfiler.collectGarbage", {}),
    ("Memory.simulatePressureNotification", {"level": "critical"}),
)
"""DevTools commands sent to the print tab after each print: a garbage collection and a critical
memory-pressure signal, on which the renderer drops its caches (decoded images, fonts, layout)
and returns freed pages to the system (https://chromedevtools.github.io/devtools-protocol/tot/Memory/).
The printed document is already gone (an empty page is written), so nothing is drawn again."""


def _lean_chromium() -> Any:
    """choreographer's Chromium launcher with :data:`LEAN_FLAGS` added to its command line."""
    from choreographer.browsers import Chromium

    class LeanChromium(Chromium):
        def get_cli(self) -> list[str]:
            return [*super().get_cli(), *LEAN_FLAGS]

    return LeanChromium


def _figure_json(figure: Any) -> str:
    """The figure as plotly.js JSON (plotly's encoder: numpy arrays, dates, NaN as null)."""
    import plotly.io

    return str(plotly.io.to_json(figure, validate=False))


_SHARED: Browser | None = None
_SHARED_LOCK = threading.Lock()


def shared_browser() -> Browser:
    """The process's one browser, started on first use and closed when the process exits.

    Returns
    -------
    Browser
        The running shared browser.
    """
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
