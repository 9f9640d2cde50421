# Two commands a new user needs:  make run  (install + start the app)   make test  (install + all checks)
PYTHON ?= python3.11
VENV   ?= .venv
BIN     = $(VENV)/bin

.PHONY: install run test lint bench clean system-deps i18n

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

# System parts the tests use: Debian's Chromium and a CJK font (browser tests, chart images, PDFs),
# poppler-utils (PDF checks) and a throwaway PostgreSQL 15 on 127.0.0.1 (store tests).
system-deps:
	bash .ci/setup-system.sh

test: lint system-deps
	set -e; PG_ENV="$$(bash .ci/start-postgres.sh)"; eval "$$PG_ENV"; \
	trap 'bash .ci/start-postgres.sh stop' EXIT; \
	$(BIN)/pytest -q

# Translations: collect UI keys, msg() templates and catalog prose into locales/messages.pot and
# add the new ids (untranslated) to each language's PO files.
i18n: install
	$(BIN)/python -m planner.i18n.extract

bench: install
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build *.egg-info
