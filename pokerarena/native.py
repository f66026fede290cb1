"""The optional native build: the hot modules of the table loop compiled with mypyc.

``tools/build_native.py`` (run by ``make demo`` / ``make test``) compiles :data:`MODULES`
in place into extension modules next to their sources and records in :data:`STAMP` a
digest of everything they were built from (:func:`dependencies`: the modules and every
``pokerarena`` module they import; the compiler's version), or, when the build failed,
the error (:func:`build_status`). The Python sources stay the reference and run as they
are wherever no build exists. A build whose recorded digest no longer matches the sources
(an edited engine, or an edited module it imports) is ignored as a whole, and so is any
build when ``POKERARENA_PURE=1``: :func:`install` then makes these modules load from
their ``.py`` files.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.abc
import importlib.util
import json
import os
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

MODULES = (
    "pokerarena.engine.steps",
    "pokerarena.engine.program",
    "pokerarena.engine.game",
    "pokerarena.engine.hand.common",
    "pokerarena.engine.hand.rules",
    "pokerarena.engine.hand.results",
    "pokerarena.engine.hand.state",
    "pokerarena.engine.hand.observation",
    "pokerarena.engine.hand.dealing",
    "pokerarena.engine.hand.draws",
    "pokerarena.engine.hand.betting",
    "pokerarena.engine.hand.remedies",
    "pokerarena.engine.hand.rounds",
    "pokerarena.engine.hand.pots",
    "pokerarena.engine.hand.showdown",
    "pokerarena.engine.hand.driver",
    "pokerarena.engine.visibility",
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


def _source_of(name: str) -> Path | None:
    """The file of the ``pokerarena`` module or package ``name``, None when it has none."""
    base = PACKAGE_DIR.joinpath(*name.split(".")[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _imported(name: str, path: Path, tree: ast.Module) -> Iterator[str]:
    """Every ``pokerarena`` name imported anywhere in a module (in functions too: mypy
    reads their types as well), each ``from m import x`` both as ``m`` and ``m.x``."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            parts = package[:len(package) - node.level + 1] if node.level else []
            base = ".".join([*parts, *([node.module] if node.module else [])])
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def dependencies() -> list[Path]:
    """The sources a build of :data:`MODULES` is made from: the modules, every
    ``pokerarena`` module they import (transitively) and the packages above them. mypyc
    inlines the ``Final`` constants and reads the types of all of them, so an edit to
    any one makes another build. Found by parsing the imports (:mod:`ast`), so the list
    follows :data:`MODULES` and the imports as they change."""
    found: dict[str, Path] = {}
    todo = list(MODULES)
    while todo:
        name = todo.pop()
        path = None if name in found else _source_of(name)
        if path is None:
            continue  # a name imported from a module, not a module itself
        found[name] = path
        parts = name.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))
        tree = ast.parse(path.read_bytes(), str(path))
        todo.extend(m for m in _imported(name, path, tree) if m.split(".")[0] == "pokerarena")
    return sorted(found.values())


def compiler_version() -> str:
    """The installed mypy's (and so mypyc's) version, read from its ``version.py``
    without importing mypy (a build by another compiler is another build); ``none``
    when mypy is not installed."""
    spec = importlib.util.find_spec("mypy")
    if spec is None or spec.origin is None:
        return "none"
    try:
        text = (Path(spec.origin).parent / "version.py").read_text()
    except OSError:
        return "unknown"
    match = re.search(r"""__version__\s*=\s*["']([^"']+)["']""", text)
    return match.group(1) if match else hashlib.sha256(text.encode()).hexdigest()[:16]


def sources_digest(files: Iterable[Path] | None = None) -> str:
    """SHA-256 over the compiler's version and ``files`` (by default
    :func:`dependencies`, what a build is made from), each with its path."""
    h = hashlib.sha256(compiler_version().encode())
    for path in dependencies() if files is None else files:
        h.update(b"\0" + path.relative_to(PACKAGE_DIR).as_posix().encode() + b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()


def _stamp_body() -> dict[str, Any]:
    files = dependencies()
    return {"digest": sources_digest(files), "modules": list(MODULES),
            "compiler": compiler_version(),
            "files": [f.relative_to(PACKAGE_DIR).as_posix() for f in files]}


def write_stamp() -> None:
    """Record that the build in place was made from the current sources, with the list
    of files it depends on (checked at each start without parsing anything again)."""
    STAMP.write_text(json.dumps(_stamp_body()))


def write_failure(error: str) -> None:
    """Record that building from the current sources failed (and why): the tests report
    it instead of comparing the plain sources with themselves."""
    body = _stamp_body()
    STAMP.write_text(json.dumps({"failed": {"digest": body["digest"], "error": error[-4000:]},
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
    """True when a complete build exists and was made from the current sources. The
    files recorded at the build are hashed again, not found again: the set of files a
    build depends on changes only by an edit to one of them (an import added), and that
    edit already changes the digest."""
    try:
        stamp = json.loads(STAMP.read_text())
        files = [PACKAGE_DIR / f for f in stamp["files"]]
        current = (stamp["modules"] == list(MODULES)
                   and stamp["digest"] == sources_digest(files))
    except (OSError, ValueError, KeyError, TypeError):  # no stamp, an old one, a file gone
        return False
    return current and _extensions_present()


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
    """Whether the table loop runs compiled: the engine's hand module, once imported, is
    an extension; before that, whether :func:`install` chose the build (this module sits
    below the engine and imports nothing of it)."""
    hand = sys.modules.get("pokerarena.engine.hand.driver")
    if hand is not None:
        return not str(getattr(hand, "__file__", "")).endswith(".py")
    return bool(_INSTALLED) and not any(isinstance(f, _SourceFirst) for f in sys.meta_path)
