# Two entry points for a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PREPARED := $(VENV)/.prepared

# Debian packages the real-browser and real-Prometheus tests drive. `make test` installs
# them when it can (root and apt-get); otherwise it stops and names the command that does.
SYSTEM_BINS := /usr/bin/chromium /usr/bin/prometheus
SYSTEM_PKGS := chromium prometheus
APT_GET ?= apt-get
INSTALL_CMD := sudo apt-get update && sudo apt-get install -y $(SYSTEM_PKGS)

.PHONY: demo test native native-or-pure prepare system-deps lint typecheck bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,peers,native]'
	touch $(STAMP)

# The table loop compiled with mypyc (pokerarena/native.py). A failed build fails
# `make native` and `make test` (which test the build); `make demo` goes on with the
# plain Python sources and says so.
native: $(STAMP)
	$(PY) tools/build_native.py --if-stale

native-or-pure: $(STAMP)
	@$(PY) tools/build_native.py --if-stale || { \
	  echo ""; \
	  echo "*** native build FAILED: the demo runs on the plain Python sources (about half"; \
	  echo "*** the speed of the table loop). 'make native' shows the error."; \
	  echo ""; }

# Once per .venv (a fresh clone's first `make demo`): the native build beside the numba
# kernels and tables the demo's games need, cached on disk, so that the demo starts warm
# (tools/prepare.py; never fails: what is missing is prepared again by the demo).
$(PREPARED): $(STAMP)
	@$(PY) tools/prepare.py --native || echo "(preparation failed: make demo prepares itself)"
	@touch $(PREPARED)

prepare: $(STAMP)
	$(PY) tools/prepare.py --native

system-deps:
	@missing=""; for b in $(SYSTEM_BINS); do [ -x $$b ] || missing="$$missing $$b"; done; \
	[ -z "$$missing" ] && exit 0; \
	if [ "$$(id -u)" = 0 ] && command -v $(APT_GET) >/dev/null 2>&1; then \
	  echo "make test: installing Debian's $(SYSTEM_PKGS) (missing:$$missing)"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  $(APT_GET) update -qq && $(APT_GET) install -y -qq $(SYSTEM_PKGS) || { \
	    echo "make test: apt-get could not install $(SYSTEM_PKGS)"; exit 1; }; \
	else \
	  echo "make test: the browser and Prometheus tests need$$missing, which is not"; \
	  echo "installed. Install it with:"; \
	  echo ""; \
	  echo "    $(INSTALL_CMD)"; \
	  echo ""; \
	  echo "(as root, make test runs this itself), then run make test again."; \
	  exit 1; \
	fi

demo: $(STAMP) $(PREPARED) native-or-pure
	$(PY) -m pokerarena.demo

test: $(STAMP) system-deps native typecheck
	$(VENV)/bin/ruff check pokerarena tests benchmarks tools
	@$(PY) tools/prepare.py --fast-table || echo "(fast table not prepared: the first test compiles it)"
	$(PY) -m pytest

lint: $(STAMP)
	$(VENV)/bin/ruff check pokerarena tests benchmarks tools

# mypy over the package, tools/ and benchmarks/ with pyproject.toml's [tool.mypy].
typecheck: $(STAMP)
	$(VENV)/bin/mypy

bench: $(STAMP)
	$(VENV)/bin/pokerarena bench evaluator --cards 7 --json

clean:
	rm -rf $(VENV) build *.egg-info pokerarena/_native.json
	find pokerarena -name '*.so' -delete
