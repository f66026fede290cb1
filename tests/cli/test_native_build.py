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


def _require_current_build() -> None:
    """Fail when the last native build failed or there is no current build (a stale or
    missing build would have the sessions compare the plain sources with themselves):
    ``make test`` builds first, so a failure here is a build it did not make."""
    state, detail = native.build_status()
    if state == "failed":
        pytest.fail(f"{detail} (rerun tools/build_native.py or make native)")
    if state != "current":
        pytest.fail(f"{state}: {detail}; nothing compiled to compare (run make native)")


# Runs the CLI in-process and says on stderr which table loop ran (the play's JSON
# is unchanged): the comparison knows it compared the build with the sources.
_PLAY_REPORTING = ("import sys\nfrom pokerarena import cli, native\n"
                   "rc = cli.main(sys.argv[1:])\n"
                   "print('\\ncompiled=%s' % native.compiled(), file=sys.stderr)\n"
                   "sys.exit(rc)")


def _ran_compiled(out: subprocess.CompletedProcess) -> bool:
    lines = out.stderr.strip().splitlines()
    assert lines and lines[-1].startswith("compiled="), out.stderr
    return lines[-1] == "compiled=True"


def test_a_current_build_is_used():
    _require_current_build()
    assert _probe(pure=False) is True


@pytest.mark.parametrize(("variant", "bots"), GAMES, ids=[g[0] for g in GAMES])
def test_compiled_and_pure_sessions_agree(variant, bots):
    _require_current_build()
    argv = [sys.executable, "-c", _PLAY_REPORTING,
            *(a.format(v=variant, b=bots) for a in PLAY)]
    pure, built = _run(argv, pure=True), _run(argv, pure=False)
    assert pure.returncode == 0 and built.returncode == 0, pure.stderr + built.stderr
    assert not _ran_compiled(pure)
    assert _ran_compiled(built), "the build was current but the session ran the sources"
    a, b = json.loads(pure.stdout), json.loads(built.stdout)
    assert a == b
    assert a["chips_conserved"] and a["hands"] == 40


def test_a_failed_build_is_recorded_and_reported(tmp_path, monkeypatch):
    _fake_tree(tmp_path, monkeypatch)
    assert native.build_status()[0] == "absent"
    native.write_stamp()
    assert native.build_status()[0] == "current"
    native.write_failure("error: command 'gcc' failed")
    state, detail = native.build_status()
    assert state == "failed" and "these sources" in detail and "gcc" in detail
    assert not native.build_is_current()  # never used, whatever .so files are left
    with pytest.raises(pytest.fail.Exception, match="gcc"):
        _require_current_build()
    hand = native.module_path("pokerarena.engine.hand.driver")
    hand.write_text(hand.read_text() + "# edited\n")
    assert "other sources" in native.build_status()[1]
    native.write_stamp()
    hand.write_text(hand.read_text() + "# edited again\n")
    assert native.build_status()[0] == "stale"
    with pytest.raises(pytest.fail.Exception, match="stale"):
        _require_current_build()


def test_the_build_tool_records_a_failure(tmp_path):
    """tools/build_native.py exits 1 and records the error when the build fails (here:
    mypyc cannot be imported), and --if-stale tries again after a failure."""
    code = ("import runpy, sys, pathlib\n"
            "from pokerarena import native\n"
            "native.STAMP = pathlib.Path(sys.argv[1])\n"
            "sys.modules['mypyc'] = None  # the import fails\n"
            "sys.argv = ['build_native.py', '--if-stale']\n"
            "runpy.run_path(%r, run_name='__main__')\n")
    tool = native.PACKAGE_DIR.parent / "tools" / "build_native.py"
    stamp = tmp_path / "_native.json"
    out = subprocess.run([sys.executable, "-c", code % str(tool), str(stamp)],
                         capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, POKERARENA_PURE="1"))
    assert out.returncode == 1, out.stdout + out.stderr
    assert "native build FAILED" in out.stderr
    recorded = json.loads(stamp.read_text())
    assert "mypyc" in recorded["failed"]["error"] and "digest" not in recorded


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
    hand = native.module_path("pokerarena.engine.hand.driver")
    assert hand == pkg / "engine" / "hand" / "driver.py"
    hand.write_text(hand.read_text() + "# edited\n")
    assert not native.build_is_current()  # an edited source: the build is stale
    native.write_stamp()
    next(pkg.glob("arena/views.*.so")).unlink()
    assert not native.build_is_current()  # an incomplete build is not used either


def test_the_source_finder_serves_only_the_compiled_modules(tmp_path, monkeypatch):
    _fake_tree(tmp_path, monkeypatch)
    finder = native._SourceFirst()
    spec = finder.find_spec("pokerarena.engine.hand.driver")
    assert spec is not None and spec.origin.endswith(os.path.join("engine", "hand", "driver.py"))
    assert finder.find_spec("pokerarena.engine.phh") is None
