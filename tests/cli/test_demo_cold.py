"""``make demo`` on a fresh clone (issue 28): the core install only, no native build and
no fast-table compile on the demo's path, the study on the reference table until the
fast table's kernels are cached, and one line saying which table loop runs."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from pokerarena import demo, native
from pokerarena.workers import fasttable

ROOT = Path(__file__).resolve().parents[2]


def _dry_run(target: str, tmp_path: Path) -> str:
    """``make -n TARGET`` in a copy of the Makefile beside pyproject.toml, no .venv."""
    if shutil.which("make") is None:
        pytest.fail("make is not installed")
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    return subprocess.run(["make", "-n", target], cwd=tmp_path, capture_output=True,
                          text=True, check=True).stdout


def test_make_demo_installs_only_the_core_and_builds_nothing(tmp_path):
    out = _dry_run("demo", tmp_path)
    assert "venv_install.sh .venv -e ." in out and "pokerarena.demo" in out
    for heavy in ("[test", "peers", "build_native", "--native", "--fast-table",
                  "--upgrade pip"):
        assert heavy not in out, heavy


def test_the_shared_kernels_compile_once_numba_is_in_beside_the_rest_of_the_install(
        tmp_path):
    out = _dry_run("demo", tmp_path)
    first = out.index("venv_install.sh .venv numba pydantic rich")
    early = out.index("tools/prepare.py --shared")
    rest = out.index("venv_install.sh .venv -e .")
    assert first < early < rest < out.index("pokerarena.demo")
    assert "&" in out[early:rest] and ".shared.pid" in out[early:rest]


def test_make_test_still_installs_every_extra_and_builds_native(tmp_path):
    out = _dry_run("test", tmp_path)
    assert "venv_install.sh .venv -e '.[test,peers,native]'" in out
    assert "tools/build_native.py --if-stale" in out
    assert "tools/prepare.py --fast-table" in out and "-m pytest" in out
    # the fast table compiles beside mypy, and before the tests, spread over the cores
    prep, native, mypy, tests = (out.index(s) for s in (
        "--fast-table", "build_native.py", "bin/mypy", "-m pytest"))
    assert prep < native < mypy < tests and "wait" in out[mypy:tests]
    # beside the native build, the compile reads the sources, never a half-built module
    assert "POKERARENA_PURE=1" in out[:prep]
    assert "-n auto" in out[tests:] and "--dist loadfile" in out[tests:]


@pytest.fixture
def study_env(monkeypatch):
    """demo_study.run replaced by a recorder of the fast table's switch at that moment."""
    seen: list[str | None] = []
    monkeypatch.delenv(fasttable.ENV, raising=False)
    monkeypatch.setattr(demo.demo_study, "run", lambda console, data, bots, lines:
                        seen.append(os.environ.get(fasttable.ENV)) or Path("report.html"))
    return seen


def test_the_study_plays_on_the_reference_table_until_the_fast_one_is_compiled(
        study_env, monkeypatch):
    monkeypatch.setattr(demo, "_fast_table_cached", lambda: False)
    assert demo._study(["tag", "lag", "rock"]) == Path("report.html")
    assert study_env == ["0"]
    assert fasttable.ENV not in os.environ and fasttable.enabled()  # back after it


def test_the_study_uses_the_fast_table_once_compiled(study_env, monkeypatch):
    monkeypatch.setattr(demo, "_fast_table_cached", lambda: True)
    demo._study(["tag", "lag", "rock"])
    assert study_env == [None]


def test_a_choice_made_with_the_environment_is_kept(study_env, monkeypatch):
    monkeypatch.setattr(demo, "_fast_table_cached", lambda: False)
    monkeypatch.setenv(fasttable.ENV, "1")
    demo._study(["tag", "lag", "rock"])
    assert study_env == ["1"] and os.environ[fasttable.ENV] == "1"


def test_the_fast_table_counts_as_compiled_once_its_rules_kernel_is_cached(tmp_path):
    """In a process whose numba cache is empty, then with the rules kernel's index file
    in place (where numba would load it from; the policy compiles at import, eagerly)."""
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from pokerarena import demo\n"
        "from pokerarena.bots.strength import fastpolicy\n"
        "from pokerarena.engine.fastholdem import rules\n"
        "print(demo._fast_table_cached())\n"
        "for f in (fastpolicy.decide, rules.play_hands):\n"
        "    p = Path(f._cache._cache_file._index_path)\n"
        "    assert str(p).startswith(sys.argv[1]), p\n"
        "    print(p.is_file())\n"
        "p.touch()\n"
        "print(demo._fast_table_cached())\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    # not cached; the policy's index there, the rules kernel's not; then cached
    assert out == ["False", "True", "False", "True"]


@pytest.mark.parametrize(("compiled", "state", "expect"), [
    (True, "current", "the native build (mypyc)"),
    (False, "absent", "plain Python sources (no native build yet"),
    (False, "failed", "plain Python sources (the native build failed"),
    (False, "stale", "plain Python sources (the native build is stale"),
])
def test_one_line_says_which_table_loop_runs(monkeypatch, compiled, state, expect):
    monkeypatch.setattr(native, "compiled", lambda: compiled)
    monkeypatch.setattr(native, "build_status", lambda: (state, "detail"))
    line = demo._native_line()
    assert expect in line and "\n" not in line
    assert ("make native" in line) is not compiled


def test_the_early_compile_is_of_the_specs_first_game():
    assert demo.first_game() == demo._spec(demo._bots()).game_configs()[0]


def _quiet() -> Console:
    return Console(file=io.StringIO(), highlight=False)


def test_the_demo_waits_for_the_compile_the_install_started(tmp_path, monkeypatch):
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3)",
                             "tools/prepare.py", "--shared"])
    try:
        (tmp_path / ".shared.pid").write_text(f"{proc.pid}\n")
        monkeypatch.setattr(demo, "EARLY_PID", tmp_path / ".shared.pid")
        deadline = time.monotonic() + 2.5  # until the child has exec'd (a loaded machine)
        while demo._early_shared_pid() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert demo._early_shared_pid() == proc.pid
        out = _quiet()
        waited = demo._wait_for_early_shared(out, poll=0.05)
        assert proc.poll() is not None or demo._early_shared_pid() is None
        assert waited > 0.5 and "waited" in out.file.getvalue()  # type: ignore[attr-defined]
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("content", [None, "not a pid", "{own}", "999999999"])
def test_no_wait_without_that_compile_running(tmp_path, monkeypatch, content):
    """No pid file, a broken one, the pid of another program (this test's own), a pid
    that is gone."""
    pid_file = tmp_path / ".shared.pid"
    if content is not None:
        pid_file.write_text(content.format(own=os.getpid()))
    monkeypatch.setattr(demo, "EARLY_PID", pid_file)
    assert demo._early_shared_pid() is None
    assert demo._wait_for_early_shared(_quiet()) == 0.0


def _fake_venv(tmp_path: Path, uv_exit: int | None) -> tuple[Path, Path]:
    """A virtualenv whose ``python`` and ``uv`` only log their arguments (no download
    in a test): ``python -m pip install uv`` puts a ``uv`` that exits ``uv_exit`` in
    place, or fails (``uv_exit`` None: uv cannot be fetched)."""
    venv, log = tmp_path / "venv", tmp_path / "calls.log"
    (venv / "bin").mkdir(parents=True)
    uv = venv / "bin" / "uv"
    make_uv = ("" if uv_exit is None else
               f'printf \'#!/bin/sh\\necho "uv $*" >> {log}\\nexit {uv_exit}\\n\' > {uv}; '
               f"chmod +x {uv}; exit 0")
    python = venv / "bin" / "python"
    python.write_text("#!/bin/sh\n"
                      f'echo "python $*" >> {log}\n'
                      f'case "$*" in *"install"*" uv") {make_uv or "exit 1"};; esac\n'
                      "exit 0\n")
    python.chmod(0o755)
    return venv, log


@pytest.mark.parametrize(("uv_exit", "no_uv", "want"), [
    (0, False, ["python -m pip install", "uv pip install -q --python"]),
    (1, False, ["python -m pip install", "uv pip install", "python -m pip install -q"]),
    (None, False, ["python -m pip install", "python -m pip install -q"]),
    (0, True, ["python -m pip install -q"]),
])
def test_the_install_uses_uv_where_it_can_and_pip_otherwise(tmp_path, uv_exit, no_uv,
                                                            want):
    """tools/venv_install.sh: uv fetched into the venv and used (it installed the core
    in 4.4 s where pip took 68 s); pip when uv cannot be fetched, when it fails, or when
    POKERARENA_NO_UV is set. The packages asked for reach whichever installs them."""
    venv, log = _fake_venv(tmp_path, uv_exit)
    env = {**os.environ, "POKERARENA_NO_UV": "1"} if no_uv else {
        k: v for k, v in os.environ.items() if k != "POKERARENA_NO_UV"}
    done = subprocess.run([str(ROOT / "tools" / "venv_install.sh"), str(venv), "-e", "."],
                          env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    calls = log.read_text().splitlines()
    assert len(calls) == len(want), calls
    for call, start in zip(calls, want, strict=True):
        assert call.startswith(start), (call, start)
    assert calls[-1].endswith("-e ."), calls
    assert ("trying pip" in done.stderr) == (uv_exit == 1)
