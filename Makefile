# Two entry points for a fresh machine: `make run` (the main job on its built-in default) and
# `make test` (the whole suite). Both create .venv/ first; everything else uses .venv/bin/itbench.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: setup system-deps run test lint typecheck clean

$(STAMP): pyproject.toml constraints.txt scripts/setup-venv.sh
	bash scripts/setup-venv.sh $(PYTHON)
	touch $(STAMP)

setup: $(STAMP)

# System packages the tests use (bubblewrap, chromium); installs with apt-get where it can.
system-deps:
	bash scripts/system-deps.sh

run: setup
	bash scripts/system-deps.sh bubblewrap
	$(VENV)/bin/itbench ciso run -j 2

test: setup system-deps
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/python -m pytest -q --durations=30

lint: setup
	$(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check .

# mypy as configured in pyproject.toml; `make test` runs it too (tests/core/test_core_types_checked.py)
typecheck: setup
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) outputs build *.egg-info .mypy_cache
