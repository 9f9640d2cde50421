"""Validation: the model against published figures, with calibration cases shown apart."""

from __future__ import annotations

from ui import widgets
from ui.views import validation

widgets.page_title("page.validation", caption_key="val.caption")
found = validation.results()
validation.summary(found)
validation.chart(found)
validation.tables(found)
