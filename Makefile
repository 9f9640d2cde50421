# Two commands a new user needs:  make run  (install + start the app)   make test  (install + all checks)
PYTHON ?= python3.11
VENV   ?= .venv
BIN     = $(VENV)/bin

.PHONY: install install-dev run test test-fast lint bench docs readme-tests clean system-deps i18n screenshots validation lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)

# pyproject.toml declares ranges; the lock files hold the exact versions the tests ran with, used
# here as constraints (deploy/lock.py writes them). `install` is the app with its optional parts
# (grid sweeps on Dask, the NetBox push); `install-dev` adds the test, lint and maintainer tools.
PIP_INSTALL = $(BIN)/pip install --disable-pip-version-check -q -c requirements.lock -c requirements-dev.lock

install: $(BIN)/python
	$(PIP_INSTALL) -e '.[sweep,netbox]'

install-dev: $(BIN)/python
	$(PIP_INSTALL) -e '.[dev,sweep,netbox]'

run: install system-deps
	$(BIN)/streamlit run app.py --server.headless true --server.address 127.0.0.1 --server.port 8501

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache --no-logo  # the layer contracts in pyproject.toml
	$(BIN)/mypy planner ui app.py pages tests bench tools deploy/lock.py
	$(BIN)/mypy tests/browser/conftest.py

# System parts the tests use: Debian's Chromium and a CJK font (browser tests, chart images, PDFs),
# poppler-utils (PDF checks) and a throwaway PostgreSQL 15 on 127.0.0.1 (store tests).
system-deps:
	bash .ci/setup-system.sh

# The tests must leave the checkout as they found it (screenshots go to the ignored artifacts/):
# .ci/check-clean.sh compares git's view of the tree before and after pytest. The tiers are
# pytest markers that tests/conftest.py gives every test (unit, app, pdf, browser, pg, slow);
# `make test` runs them all and records the run in artifacts/pytest.xml (`make readme-tests`
# writes its count and wall time into the README). It runs on two pytest-xdist workers with
# --dist loadgroup: tests/conftest.py puts the browser tests in one group (one Streamlit server and
# one Chromium at a time), the modules that read the shared printed editions (tests/pdf_fixtures.py)
# in another, and every other module in a group of its own, and orders the groups
# costliest tier first (--no-loadscope-reorder keeps that order). TEST_WORKERS=0: one process.
# Python writes its bytecode (__pycache__/, ignored by git) even where the environment says
# PYTHONDONTWRITEBYTECODE: the run starts many Python processes (workers, app servers, whole
# `planner` and tool runs), and without the files each one compiles the project's modules
# again (one worker's collection: 19.6 s of CPU with nothing cached, 10.9 s with the files).
# Two workers, not three: the run is CPU-bound. A browser module keeps a core or more busy by itself
# (test_zh_walk: 139 s of CPU in its process tree over 128 s beside other jobs, most of it Chromium: a
# page opened in a fresh browser profile costs about 3.6 s of Chromium CPU, 1.9 s when the same tab
# opens another page of the app, 0.35 s for an empty page; following the app's own link instead
# saves about 0.8 s more, tests/browser/harness.py go_to), and a whole run took 682 s of CPU
# (user+sys of the process tree, 2026-12-02), about 340 s of two cores. That count misses
# Chromium's renderers (their CPU never reaches the test process's rusage): a cpuacct cgroup
# around one run of tests/browser/test_browser.py counted 89 s of CPU where /usr/bin/time's
# user+sys said 48 s (2026-12-02), so the whole run costs more than two cores' worth of its
# wall time would suggest; measure a browser module's CPU with a cgroup.
TEST_WORKERS ?= 2
TEST_DIST = $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder)
test: lint system-deps
	set -e; unset PYTHONDONTWRITEBYTECODE; \
	PG_ENV="$$(bash .ci/start-postgres.sh)"; eval "$$PG_ENV"; \
	trap 'bash .ci/start-postgres.sh stop' EXIT; \
	TREE="$$(bash .ci/check-clean.sh snapshot)"; \
	status=0; $(BIN)/pytest -q $(TEST_DIST) --junitxml=artifacts/pytest.xml || status=$$?; \
	bash .ci/check-clean.sh compare "$$TREE" || status=1; \
	exit $$status

# The fast tier: engine, CLI (in-process and start-up), store on SQLite, doctests; no AppTest, no
# browser, no PDF, no PostgreSQL, no worker processes of its own. It runs on two pytest-xdist
# workers (each test in a temporary folder of its worker, the Hypothesis database shared: it
# writes each example atomically), distributed test by test.
FAST_WORKERS ?= 2
test-fast: install-dev
	set -e; unset PYTHONDONTWRITEBYTECODE; TREE="$$(bash .ci/check-clean.sh snapshot)"; \
	status=0; $(BIN)/pytest -q -m unit -n $(FAST_WORKERS) || status=$$?; \
	bash .ci/check-clean.sh compare "$$TREE" || status=1; \
	exit $$status

# The README's test count and pytest time, from the last `make test` (artifacts/pytest.xml).
readme-tests: install-dev
	$(BIN)/python tools/readme_blocks.py tests artifacts/pytest.xml

# Refresh the README's images in docs/screenshots/ (the tests never write there).
screenshots: install-dev system-deps
	$(BIN)/python tests/browser/screenshots.py

# Translations: collect UI keys, msg() templates and catalog prose into locales/messages.pot and
# add the new ids (untranslated) to each language's PO files.
i18n: install-dev
	$(BIN)/python tools/extract_translations.py

# requirements.lock (the image's transitive pins) and requirements-dev.lock from the environment
# the tests use. After changing a range in pyproject.toml: install without the constraints first.
lock: install-dev
	$(BIN)/python deploy/lock.py write

validation: install
	$(BIN)/python -m planner.report.validation_docs

# The benchmarks, written into the README's table (medians, with the machine and its load).
bench: install-dev
	$(BIN)/python bench/run.py --readme

# The API reference (docs/api/*.md) from the engine's docstrings; no network.
docs: install-dev
	$(BIN)/python tools/api_docs.py

clean:
	rm -rf $(VENV) build *.egg-info
