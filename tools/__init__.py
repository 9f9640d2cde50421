"""Maintainer tools, outside the ``planner`` package (not installed with it): the translation
extractor (``make i18n``), the API reference (``make docs``) and the README's generated blocks
(``make bench``, ``make readme-tests``)."""
