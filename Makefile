# Two commands a new user needs:  make run  (install + start the app)   make test  (install + all checks)
PYTHON ?= python3.11
VENV   ?= .venv
BIN     = $(VENV)/bin

.PHONY: install run test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)

install: $(BIN)/python
	$(BIN)/pip install --disable-pip-version-check -q -e '.[dev]'

run: install
	$(BIN)/streamlit run app.py --server.headless true --server.address 127.0.0.1 --server.port 8501

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy planner ui app.py pages tests bench

test: lint
	$(BIN)/pytest -q

bench: install
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build *.egg-info
