"""The optional mypyc build of the table loop: same results as the plain Python sources,
and a build that no longer matches its sources is never used."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from pokerarena import native

PLAY = ["play", "--variant", "{v}", "--bots", "{b}", "--hands", "40", "--seed", "5", "--json"]
GAMES = [("holdem", "tag,call,random,maniac,lag,rock"), ("stud7", "random,call,tag"),
         ("draw5", "random,lag,call"), ("knock", "random,call,random"),
         ("omaha_hilo", "random,equity,call")]


def _run(argv: list[str], pure: bool) -> subprocess.CompletedProcess:
    env = dict(os.environ, POKERARENA_PURE="1" if pure else "0")
    return subprocess.run(argv, capture_output=True, text=True, timeout=300, env=env)


def _probe(pure: bool) -> bool:
    code = "from pokerarena import native; print(native.compiled())"
    out = _run([sys.executable, "-c", code], pure)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip() == "True"


def test_pure_mode_loads_the_sources():
    assert _probe(pure=True) is False


@pytest.mark.skipif(not native.build_is_current(), reason="no current native build here")
def test_a_current_build_is_used():
    assert _probe(pure=False) is True


@pytest.mark.parametrize(("variant", "bots"), GAMES, ids=[g[0] for g in GAMES])
def test_compiled_and_pure_sessions_agree(pokerarena_cli, variant, bots):
    argv = [*pokerarena_cli, *(a.format(v=variant, b=bots) for a in PLAY)]
    pure, built = _run(argv, pure=True), _run(argv, pure=False)
    assert pure.returncode == 0 and built.returncode == 0, pure.stderr + built.stderr
    a, b = json.loads(pure.stdout), json.loads(built.stdout)
    assert a == b
    assert a["chips_conserved"] and a["hands"] == 40


def _fake_tree(tmp_path, monkeypatch):
    """A package tree with the modules' sources and stand-in extension files."""
    pkg = tmp_path / "pokerarena"
    for name in native.MODULES:
        src = pkg.joinpath(*name.split(".")[1:]).with_suffix(".py")
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text(f"NAME = {name!r}\n")
        src.with_name(src.stem + ".cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    shared = native.GROUP.rsplit(".", 1)[1] + "__mypyc.cpython-311-x86_64-linux-gnu.so"
    (pkg / shared).write_bytes(b"")
    monkeypatch.setattr(native, "PACKAGE_DIR", pkg)
    monkeypatch.setattr(native, "STAMP", pkg / "_native.json")
    return pkg


def test_a_build_is_current_only_for_the_sources_it_was_made_from(tmp_path, monkeypatch):
    pkg = _fake_tree(tmp_path, monkeypatch)
    assert not native.build_is_current()  # no stamp yet
    native.write_stamp()
    assert native.build_is_current()
    hand = native.module_path("pokerarena.engine.hand")
    assert hand == pkg / "engine" / "hand.py"
    hand.write_text(hand.read_text() + "# edited\n")
    assert not native.build_is_current()  # an edited source: the build is stale
    native.write_stamp()
    next(pkg.glob("bots/views.*.so")).unlink()
    assert not native.build_is_current()  # an incomplete build is not used either


def test_the_source_finder_serves_only_the_compiled_modules(tmp_path, monkeypatch):
    _fake_tree(tmp_path, monkeypatch)
    finder = native._SourceFirst()
    spec = finder.find_spec("pokerarena.engine.hand")
    assert spec is not None and spec.origin.endswith(os.path.join("engine", "hand.py"))
    assert finder.find_spec("pokerarena.engine.phh") is None
