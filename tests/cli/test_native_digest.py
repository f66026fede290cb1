"""The native build's digest covers everything mypyc read to build it: the compiled
modules, every ``pokerarena`` module they import (it inlines their ``Final`` constants
and reads their types) and the compiler's version; nothing else."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pokerarena import native


@pytest.fixture
def tree(tmp_path, monkeypatch) -> Path:
    """A copy of the package's sources, with stand-in extension files for every compiled
    module, that :mod:`pokerarena.native` reads instead of the real one."""
    pkg = tmp_path / "pokerarena"
    shutil.copytree(native.PACKAGE_DIR, pkg,
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "_native.json"))
    for name in native.MODULES:
        src = pkg.joinpath(*name.split(".")[1:]).with_suffix(".py")
        src.with_name(src.stem + ".cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    shared = native.GROUP.rsplit(".", 1)[1] + "__mypyc.cpython-311-x86_64-linux-gnu.so"
    (pkg / shared).write_bytes(b"")
    monkeypatch.setattr(native, "PACKAGE_DIR", pkg)
    monkeypatch.setattr(native, "STAMP", pkg / "_native.json")
    return pkg


def _edit(path: Path) -> None:
    path.write_text(path.read_text() + "\n# edited\n")


def test_the_dependencies_follow_the_imports(tree):
    files = {p.relative_to(tree).as_posix() for p in native.dependencies()}
    for name in native.MODULES:  # the compiled modules themselves
        assert native.module_path(name).relative_to(tree).as_posix() in files
    # imported by the hand (constants inlined), by the game (types), and the packages
    assert {"engine/actions.py", "rules/model.py", "cards.py", "__init__.py",
            "engine/__init__.py"} <= files
    assert "platform/api/app.py" not in files and "cli.py" not in files


def test_an_edited_dependency_makes_the_build_stale(tree):
    native.write_stamp()
    assert native.build_is_current()
    before = native.sources_digest()
    _edit(tree / "engine" / "actions.py")
    assert native.sources_digest() != before
    assert not native.build_is_current()


def test_an_unrelated_module_leaves_the_build_current(tree):
    native.write_stamp()
    before = native.sources_digest()
    _edit(tree / "platform" / "api" / "app.py")
    assert native.sources_digest() == before
    assert native.build_is_current()


def test_a_new_import_brings_its_module_in(tree):
    """A compiled module that starts importing another module depends on it from then
    on (the edit itself makes the build stale; the next stamp covers the new file)."""
    assert "platform/metrics.py" not in {p.relative_to(tree).as_posix()
                                         for p in native.dependencies()}
    table = tree / "engine" / "table.py"
    table.write_text(table.read_text() + "\ndef _f() -> None:\n"
                     "    from ..platform import metrics  # noqa: F401\n")
    assert tree / "platform" / "metrics.py" in native.dependencies()


def test_another_compiler_makes_another_build(tree, monkeypatch):
    native.write_stamp()
    before = native.sources_digest()
    monkeypatch.setattr(native, "compiler_version", lambda: "0.0-other")
    assert native.sources_digest() != before
    assert not native.build_is_current()


def test_an_old_stamp_or_a_missing_file_is_not_current(tree):
    native.STAMP.write_text('{"digest": "x", "modules": []}')  # before files were recorded
    assert not native.build_is_current()
    native.write_stamp()
    (tree / "engine" / "actions.py").unlink()
    assert not native.build_is_current()
