"""A long computation in the app can be cancelled (``ui/progress.py``): the Scaling page's sweep
and the Compare page's Monte Carlo.

A click on Cancel during a run makes Streamlit rerun the script; the button's callback sets the
computation's stop flag first thing in that rerun, so the computation starting again stops at its
first report. An AppTest cannot click while the script runs, so it sets that flag as the callback
does and runs the page: the computation must end with one translated line and a "Run again"
button, the session's scenario unchanged; "Run again" then draws the page in full.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from apptest import APP, fresh_session, start
from streamlit.testing.v1 import AppTest

from planner.i18n import tr


@pytest.fixture(autouse=True)
def _fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cold_caches: None) -> Iterator[None]:
    """Empty caches for every test (``cold_caches``): a cancel acts on a computation that runs,
    not on a result an earlier test left in the progress memo."""
    with fresh_session(tmp_path, monkeypatch):
        yield


def cancel(at: AppTest, page: str, name: str, label: str, lang: str) -> None:
    """Open ``page`` with the stop flag of computation ``name`` set; check the one line."""
    at.session_state[f"progress_stop_{name}"] = True  # what the Cancel button's callback sets
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, at.exception
    lines = [str(e.value) for e in at.info if str(e.value).startswith(label)]
    head, tail = tr("progress.cancelled", lang, what=label, detail="\x00").split("\x00")
    assert len(lines) == 1 and lines[0].startswith(head) and lines[0].endswith(tail), lines
    assert ("stopped after 0 of" if lang == "en" else "已在第 0 步") in lines[
        0
    ]  # the engine's line, translated
    assert f"progress_stop_{name}" not in at.session_state  # the flag is used once
    at.run()  # any other rerun: still stopped, not started over
    assert [str(e.value) for e in at.info if str(e.value).startswith(label)] == [
        tr("progress.stopped", lang, what=label)
    ]


def run_again(at: AppTest, label: str, lang: str) -> None:
    (button,) = [b for b in at.button if b.label == tr("progress.run_again", lang)]
    button.click().run()
    assert not at.exception, at.exception
    assert not any(str(e.value).startswith(label) for e in at.info)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_scaling_sweep_can_be_cancelled(lang: str) -> None:
    at = start(None, lang=lang, gpus="512")
    label = tr("progress.sweep", lang)
    cancel(at, "scaling", "sweep", label, lang)
    assert not at.get("plotly_chart"), "no chart from a cancelled sweep"
    assert at.query_params.get("gpus") in ("512", ["512"])  # the session's scenario is unchanged
    run_again(at, label, lang)
    assert len(at.get("plotly_chart")) >= 4  # the scaling charts


def test_the_designs_monte_carlo_can_be_cancelled() -> None:
    # The Overview's recommendation starts the Monte Carlo the Compare page draws.
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.query_params.update({"gpus": "256"})
    at.session_state["progress_stop_decision"] = True  # what the Cancel button's callback sets
    at.run()
    assert not at.exception, at.exception
    label = tr("progress.monte_carlo", "en")
    head = tr("progress.cancelled", "en", what=label, detail="\x00").split("\x00")[0]
    assert [str(e.value) for e in at.info if str(e.value).startswith(head)]
    at.switch_page("pages/compare.py").run()  # still stopped there, not started over
    assert not at.exception, at.exception
    assert [str(e.value) for e in at.info if str(e.value).startswith(label)] == [
        tr("progress.stopped", "en", what=label)
    ]
    assert not at.success, "no recommendation from a cancelled Monte Carlo"
    run_again(at, label, "en")
    assert at.success, "the recommendation sentence, after Run again"


def test_a_proposal_build_can_be_cancelled() -> None:
    from ui.views import proposal

    at = start(None, gpus="256")
    at.switch_page("pages/proposal.py").run()
    at.session_state["progress_stop_proposal"] = True  # what the Cancel button's callback sets
    next(b for b in at.button if b.label == tr("export.form.build", "en")).click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    label = tr("export.building", "en")
    assert [str(e.value) for e in at.info if str(e.value).startswith(label)], "the one line"
    assert proposal.BUILT not in at.session_state  # nothing half-built is kept
    assert proposal.PENDING not in at.session_state  # the request is over: no build starts again


def test_the_tenants_simulation_can_be_cancelled() -> None:
    from ui.views import tenants

    at = start(None, gpus="256")
    at.switch_page("pages/tenants.py").run()
    assert not at.exception, at.exception
    at.session_state["progress_stop_tenants_sim"] = True  # what the Cancel button's callback sets
    next(b for b in at.button if b.label == tr("tn.sim.run", "en")).click().run()
    assert not at.exception, at.exception
    label = tr("tn.sim.running", "en")
    assert [str(e.value) for e in at.info if str(e.value).startswith(label)], "the one line"
    assert tenants.SIM_KEY not in at.session_state, "no results from a cancelled run"
    assert tenants.SIM_ASKED not in at.session_state  # the request is over: it does not start again
