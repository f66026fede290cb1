# Two entry points for a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test native lint bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,peers,native]'
	touch $(STAMP)

# The table loop compiled with mypyc (pokerarena/native.py); plain Python if it fails.
native: $(STAMP)
	$(PY) tools/build_native.py --if-stale || echo "native build failed: plain Python"

demo: $(STAMP) native
	$(PY) -m pokerarena.demo

test: $(STAMP) native
	$(VENV)/bin/ruff check pokerarena tests benchmarks tools
	$(PY) -m pytest

bench: $(STAMP)
	$(VENV)/bin/pokerarena bench evaluator --cards 7 --json

clean:
	rm -rf $(VENV) build *.egg-info pokerarena/_native.json
	find pokerarena -name '*.so' -delete
