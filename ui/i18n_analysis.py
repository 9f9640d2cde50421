"""UI strings of the Optimize, Workload, Reliability and Scenarios pages, English and Chinese (pure: no Streamlit).

Merged into :data:`ui.i18n.STRINGS`; the same rules and tests apply (tests/test_i18n.py).
"""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {}
