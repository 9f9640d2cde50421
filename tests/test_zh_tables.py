"""Tables the app shows in 中文 hold no English prose (found by the browser walk,
``tests/browser/test_zh_walk.py``; checked here without a browser)."""

from __future__ import annotations

import pytest
from prose import english_runs

from planner import Catalog, Scenario
from planner.engine import plan
from planner.report.performance_tables import choices_table


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_optimizer_choices_name_switches_and_optics_in_the_language(catalog: Catalog, lang: str) -> None:
    """Switch and optic records with descriptive names ("… class 51.2T Ethernet switch
    (generic, …)", "Near-package optics, per 200G port") are shown in Chinese; product names
    (NVIDIA Quantum-2 QM9700) stay as they are."""
    plans = [
        plan(scenario=Scenario(gpus=1024, design_id=d), catalog=catalog) for d in ("rail8-npo", "ib-ndr")
    ]
    text = choices_table(plans, ["a", "b"], catalog, lang).to_string()
    assert "QM9700" in text
    if lang == "zh":
        assert english_runs(text) == []
        assert "以太网交换机" in text
    else:
        assert "Ethernet switch" in text
