"""Shared fixtures of the test suite (keep small; add fixtures as needed)."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_REFERENCE = REPO_ROOT.parent / "shared" / "reference"
_SESSION_CACHE: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    """The evaluator's tables (and the bots' pre-flop tables) are built fresh, once per
    session, in the session's own cache directory: a test never reads tables that an
    older builder left in the shared cache. It reads those shipped with the package,
    which tests/evaluator/test_shipped_tables.py holds to a fresh build. Set before any
    test module is imported, so in-process code and the CLI subprocesses (which inherit
    it) use the same directory.
    numba's compiled code stays in its own shared cache (``NUMBA_CACHE_DIR`` or
    ``__pycache__``)."""
    if not _SESSION_CACHE:
        _SESSION_CACHE.append(tempfile.mkdtemp(prefix="pokerarena-test-cache-"))
        os.environ["POKERARENA_CACHE"] = _SESSION_CACHE[0]


# Markers set from what a test uses, so that none is forgotten: ``pytest -m "not slow"``
# is a developer's quick loop, ``make test`` still runs everything.
MARKER_FIXTURES = {"ray": "ray_cluster", "browser": "browser", "cli": "pokerarena_cli"}
SLOW_MARKERS = ("ray", "browser")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``ray``, ``browser`` and ``cli`` on the tests that use those fixtures (directly
    or through another fixture); ``slow`` on the ray and browser tests too, beside the
    tests marked slow by hand."""
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        for marker, fixture in MARKER_FIXTURES.items():
            if fixture in used:
                item.add_marker(marker)
        if any(item.get_closest_marker(m) for m in SLOW_MARKERS):
            item.add_marker("slow")
    # The files with the most slow tests first (a stable sort, each file's tests kept
    # together and in order): `make test` hands files to its processes in this order
    # (--no-loadscope-reorder), so the long ones start early and the many short ones
    # even out the end.
    slow: dict[str, int] = {}
    for item in items:
        path = item.nodeid.split("::")[0]
        slow[path] = slow.get(path, 0) + bool(item.get_closest_marker("slow"))
    items.sort(key=lambda item: -slow[item.nodeid.split("::")[0]])


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the session's cache directory."""
    while _SESSION_CACHE:
        shutil.rmtree(_SESSION_CACHE.pop(), ignore_errors=True)


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository root (where pyproject.toml lives)."""
    return REPO_ROOT


@pytest.fixture(scope="session")
def pokerarena_cli() -> list[str]:
    """The command that runs the ``pokerarena`` console script, as an argv prefix."""
    script = Path(sys.executable).parent / "pokerarena"
    if script.exists():
        return [str(script)]
    found = shutil.which("pokerarena")
    if found:
        return [found]
    return [sys.executable, "-m", "pokerarena.cli"]


@pytest.fixture(scope="session")
def standard_census() -> dict:
    """The exact census tables of ../shared/reference/standard_census.json."""
    path = SHARED_REFERENCE / "standard_census.json"
    if not path.is_file():
        pytest.skip(f"reference census file {path} is absent")
    return json.loads(path.read_text())


# Runs (issue 5): one local Ray cluster shared by every test of the session. ----------


@pytest.fixture(scope="session")
def ray_cluster() -> str:
    """Start (once) a local Ray cluster for the session; yields its address.

    In-process tests use it through ``RayExecutor`` (which joins the running cluster and
    leaves it up); CLI tests pass the address with ``--address`` so their subprocesses
    join it instead of starting their own (~7 s and ~700 MB each).
    """
    import ray  # a dependency of the project: missing, the session fails here
    started = False
    if not ray.is_initialized():
        ray.init(num_cpus=2, object_store_memory=128 * 1024 * 1024, include_dashboard=False,
                 log_to_driver=False, configure_logging=False)
        started = True
    yield ray.get_runtime_context().gcs_address
    if started:
        ray.shutdown()


# Pages (the dashboard, a study's report): one headless chromium for the session. -----

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium driven by playwright (no browser download); fails, never skips,
    when either is missing: ``make test`` installs both."""
    from pokerarena.platform.api.testing import require_binary

    chromium = require_binary("/usr/bin/chromium")
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    try:
        from playwright import sync_api
    except ImportError:
        pytest.fail("playwright is not installed: make test installs it into .venv (the "
                    "'test' extra: pip install -e '.[test]')")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_FLAGS)
        try:
            yield b
        finally:
            b.close()
