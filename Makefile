# Two entry points for a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,peers]'
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m pokerarena.demo

test: $(STAMP)
	$(VENV)/bin/ruff check pokerarena tests benchmarks tools
	$(PY) -m pytest

bench: $(STAMP)
	$(VENV)/bin/pokerarena bench evaluator --cards 7 --json

clean:
	rm -rf $(VENV) build *.egg-info
