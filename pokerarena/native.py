"""The optional native build: the hot modules of the table loop compiled with mypyc.

``tools/build_native.py`` (run by ``make demo`` / ``make test``) compiles :data:`MODULES`
in place into extension modules next to their sources and records a digest of the
sources in :data:`STAMP` (or, when the build failed, the error: :func:`build_status`).
The Python sources stay the reference and run as they are
wherever no build exists. A build whose recorded digest no longer matches the sources
(an edited engine) is ignored as a whole, and so is any build when ``POKERARENA_PURE=1``:
:func:`install` then makes these modules load from their ``.py`` files.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

MODULES = (
    "pokerarena.engine.game",
    "pokerarena.engine.hand",
    "pokerarena.engine.table",
    "pokerarena.arena.views",
    "pokerarena.arena.faults",
    "pokerarena.arena.match",
    "pokerarena.arena.session",
    "pokerarena.bots.simple.call_bot",
    "pokerarena.evaluator.lookup",
)
GROUP = "pokerarena._native"  # the shared library: pokerarena/_native__mypyc.*.so
PACKAGE_DIR = Path(__file__).resolve().parent
STAMP = PACKAGE_DIR / "_native.json"


def module_path(name: str) -> Path:
    """The source file of one of :data:`MODULES`."""
    return PACKAGE_DIR.joinpath(*name.split(".")[1:]).with_suffix(".py")


def sources_digest() -> str:
    """SHA-256 over the sources of :data:`MODULES` (what a build was made from)."""
    h = hashlib.sha256()
    for name in MODULES:
        h.update(name.encode())
        h.update(module_path(name).read_bytes())
    return h.hexdigest()


def write_stamp() -> None:
    """Record that the build in place was made from the current sources."""
    STAMP.write_text(json.dumps({"digest": sources_digest(), "modules": list(MODULES)}))


def write_failure(error: str) -> None:
    """Record that building from the current sources failed (and why): the tests report
    it instead of comparing the plain sources with themselves."""
    STAMP.write_text(json.dumps({"failed": {"digest": sources_digest(), "error": error[-4000:]},
                                 "modules": list(MODULES)}))


def build_status() -> tuple[str, str]:
    """(state, detail) of the build in place: ``current``; ``failed`` (the last build
    failed, detail: its error); ``stale`` (made from other sources, or incomplete);
    ``absent`` (never built here)."""
    try:
        stamp = json.loads(STAMP.read_text())
    except (OSError, ValueError):
        return "absent", "no native build (run tools/build_native.py or make native)"
    failed = stamp.get("failed") if isinstance(stamp, dict) else None
    if isinstance(failed, dict):
        which = ("these sources" if failed.get("digest") == sources_digest()
                 else "other sources")
        return "failed", f"the native build of {which} failed: {failed.get('error', '?')}"
    if build_is_current():
        return "current", "a complete build of the current sources"
    return "stale", "the build in place was made from other sources or is incomplete"


def _extensions_present() -> bool:
    """Every compiled module and the shared library are in place."""
    names = [(module_path(m).parent, module_path(m).stem) for m in MODULES]
    names.append((PACKAGE_DIR, GROUP.rsplit(".", 1)[1] + "__mypyc"))
    return all(any(folder.glob(f"{stem}.*.so")) for folder, stem in names)


def build_is_current() -> bool:
    """True when a complete build exists and was made from the current sources."""
    try:
        recorded = json.loads(STAMP.read_text()).get("digest")
    except (OSError, ValueError, AttributeError):
        return False
    return recorded == sources_digest() and _extensions_present()


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Loads :data:`MODULES` from their ``.py`` files, never from a build beside them."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname not in MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, module_path(fullname))


_INSTALLED: list[bool] = []


def install() -> None:
    """Called on ``import pokerarena``: use the build only when it is current and wanted."""
    if _INSTALLED:
        return
    _INSTALLED.append(True)
    if os.environ.get("POKERARENA_PURE", "") not in ("", "0") or not build_is_current():
        sys.meta_path.insert(0, _SourceFirst())


def compiled() -> bool:
    """Whether the table loop runs compiled (the engine's hand module is an extension)."""
    from pokerarena.engine import hand

    return not str(getattr(hand, "__file__", "")).endswith(".py")
