"""Catalog: browse every component family, its field reference, and upload an override."""

from __future__ import annotations

from ui import widgets
from ui.views import catalog

widgets.page_title("page.catalog", caption_key="catalog.caption")
family = catalog.family_picker()
catalog.records(family)
catalog.field_reference(family)
catalog.upload()
