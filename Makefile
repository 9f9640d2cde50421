# Two commands a new user needs:  make run  (install + start the app)   make test  (install + all checks)
PYTHON ?= python3.11
VENV   ?= .venv
BIN     = $(VENV)/bin

.PHONY: install run test lint bench clean system-deps i18n screenshots validation lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)

install: $(BIN)/python
	$(BIN)/pip install --disable-pip-version-check -q -e '.[dev]'

run: install system-deps
	$(BIN)/streamlit run app.py --server.headless true --server.address 127.0.0.1 --server.port 8501

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache --no-logo  # the layer contracts in pyproject.toml
	$(BIN)/mypy planner ui app.py pages tests bench
	$(BIN)/mypy tests/browser/conftest.py

# System parts the tests use: Debian's Chromium and a CJK font (browser tests, chart images, PDFs),
# poppler-utils (PDF checks) and a throwaway PostgreSQL 15 on 127.0.0.1 (store tests).
system-deps:
	bash .ci/setup-system.sh

# The tests must leave the checkout as they found it (screenshots go to the ignored artifacts/):
# .ci/check-clean.sh compares git's view of the tree before and after pytest.
test: lint system-deps
	set -e; PG_ENV="$$(bash .ci/start-postgres.sh)"; eval "$$PG_ENV"; \
	trap 'bash .ci/start-postgres.sh stop' EXIT; \
	TREE="$$(bash .ci/check-clean.sh snapshot)"; \
	status=0; $(BIN)/pytest -q || status=$$?; \
	bash .ci/check-clean.sh compare "$$TREE" || status=1; \
	exit $$status

# Refresh the README's images in docs/screenshots/ (the tests never write there).
screenshots: install system-deps
	$(BIN)/python tests/browser/screenshots.py

# Translations: collect UI keys, msg() templates and catalog prose into locales/messages.pot and
# add the new ids (untranslated) to each language's PO files.
i18n: install
	$(BIN)/python -m planner.extract_translations

# requirements.lock (the image's transitive pins) from the environment the tests use
lock: install
	$(BIN)/python deploy/lock.py write

validation: install
	$(BIN)/python -m planner.report.validation_docs

bench: install
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build *.egg-info
