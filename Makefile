# Two entry points for a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
CORE_STAMP := $(VENV)/.installed-core

# Debian packages the real-browser and real-Prometheus tests drive. `make test` installs
# them when it can (root and apt-get); otherwise it stops and names the command that does.
SYSTEM_BINS := /usr/bin/chromium /usr/bin/prometheus
SYSTEM_PKGS := chromium prometheus
APT_GET ?= apt-get
INSTALL_CMD := sudo apt-get update && sudo apt-get install -y $(SYSTEM_PKGS)

.PHONY: demo test native prepare system-deps lint typecheck bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	tools/venv_install.sh $(VENV) -e '.[test,peers,native]'
	touch $(STAMP)

# `make demo` needs only the core dependencies (not the test, peers and native extras),
# installed with uv where it can be fetched (tools/venv_install.sh). A .venv that `make
# test` already filled has them: nothing to install then. numba, pydantic and rich come
# first: with them the kernels every game shares start compiling (tools/prepare.py
# --shared, its pid in .venv/.shared.pid, its output in .venv/shared.log; the demo waits
# for it) while the rest installs.
$(CORE_STAMP): pyproject.toml
	@if [ -f $(STAMP) ] && [ $(STAMP) -nt pyproject.toml ]; then :; else \
	  t0=$$(date +%s); \
	  echo "make demo: installing the core dependencies into $(VENV) (make test adds the rest)"; \
	  { test -x $(PY) || $(PYTHON) -m venv $(VENV); } && \
	  tools/venv_install.sh $(VENV) numba pydantic rich && \
	  { $(PY) tools/prepare.py --shared > $(VENV)/shared.log 2>&1 & \
	    echo $$! > $(VENV)/.shared.pid; } && \
	  echo "make demo: compiling the shared kernels meanwhile (pid $$(cat $(VENV)/.shared.pid))" && \
	  tools/venv_install.sh $(VENV) -e . && \
	  echo "make demo: installed in $$(( $$(date +%s) - t0 )) s"; \
	fi
	@touch $(CORE_STAMP)

# The table loop compiled with mypyc (pokerarena/native.py). A failed build fails
# `make native` and `make test` (which test the build); `make demo` uses a current build
# and otherwise runs the plain Python sources, saying so in one line.
native: $(STAMP)
	$(PY) tools/build_native.py --if-stale

# Everything a later `make demo` could use, prepared ahead (tools/prepare.py): the
# native build, the shared kernels, the fast hold'em table, the demo's games. The demo
# itself needs none of it: it compiles only what it plays, and says what it skipped.
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

# A fresh clone's first command: the core install, then the demo, which compiles only
# what it plays (pokerarena/demo.py); a native build in place is used, none is made.
demo: $(CORE_STAMP)
	$(PY) -m pokerarena.demo

# The tests run on every core (pytest-xdist; at most TEST_WORKERS processes), a test
# file at a time per process, so that a file's module fixtures are built once, the files
# with the most slow tests first (tests/conftest.py orders them); each process that
# meets a Ray test starts its own local cluster. The 25 slowest are listed.
TEST_WORKERS ?= 4
# The fast table's kernels compile (minutes on a cold cache, one core) while the native
# build, then mypy and ruff use the other. The compile reads the plain sources
# (POKERARENA_PURE=1: no half-written extension), and numba's cache it fills is the same
# for the native build, whose modules hold no kernel.
test: $(STAMP) system-deps
	@POKERARENA_PURE=1 $(PY) tools/prepare.py --fast-table > $(VENV)/fast-table.log 2>&1 & \
	  prep=$$!; \
	  $(PY) tools/build_native.py --if-stale && $(VENV)/bin/mypy && \
	  $(VENV)/bin/ruff check pokerarena tests benchmarks tools; rc=$$?; \
	  wait $$prep || echo "(fast table not prepared: the first test compiles it)"; \
	  cat $(VENV)/fast-table.log; exit $$rc
	$(PY) -m pytest -n auto --maxprocesses $(TEST_WORKERS) --dist loadfile \
	  --no-loadscope-reorder --durations=25

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
