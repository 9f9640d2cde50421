"""Web-app layer: everything the Streamlit pages share (the engine stays in ``planner``).

Pure modules (no Streamlit import, reusable by exports and tests): ``i18n``, ``fmt``, ``inputs``,
``presets``, ``tables``, ``charts``, ``upload``. Streamlit modules: ``keys``, ``state``,
``engine`` (cached calls), ``sidebar``, ``views``, ``bom``, ``catalog_view``.
"""
