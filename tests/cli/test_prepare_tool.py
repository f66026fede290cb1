"""``tools/prepare.py`` (run once by ``make demo``'s bootstrap): the shared kernels and
tables alone, beside the native build, then the demo's warm-up; a failure never stops
the demo."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from pokerarena import demo

TOOL = Path(__file__).resolve().parents[2] / "tools" / "prepare.py"


class _FakeBuild:
    def __init__(self, calls: list[str], rc: int) -> None:
        self.calls, self.returncode = calls, rc

    def communicate(self) -> tuple[str, None]:
        self.calls.append("native done")
        return "compiling\nnative build: 9 modules compiled with mypyc\n", None


@pytest.fixture
def tool(monkeypatch):
    calls: list[str] = []
    module = runpy.run_path(str(TOOL))  # its functions, without running main
    main = module["main"]
    glb = main.__globals__
    monkeypatch.setitem(glb, "_start_native", lambda: calls.append("native start")
                        or _FakeBuild(calls, 0))
    monkeypatch.setitem(glb, "_shared", lambda spec, console: calls.append("shared")
                        or 1.0)
    monkeypatch.setattr(demo, "_warm_up", lambda spec: calls.append("demo") or 1.0)
    return main, glb, calls


def test_the_shared_part_runs_beside_the_native_build_then_the_rest(tool, capsys):
    main, _, calls = tool
    assert main(["--native"]) == 0
    assert calls == ["native start", "shared", "native done", "demo"]
    assert "native build: 9 modules compiled" in capsys.readouterr().out


def test_without_native_only_the_warm_up(tool):
    main, _, calls = tool
    assert main([]) == 0
    assert calls == ["shared", "demo"]


def test_a_failure_is_reported_and_the_rest_still_prepared(tool, monkeypatch, capsys):
    main, glb, calls = tool

    def broken(spec, console):
        raise RuntimeError("no tables")

    monkeypatch.setitem(glb, "_shared", broken)
    monkeypatch.setitem(glb, "_start_native", lambda: _FakeBuild(calls, 1))
    assert main(["--native"]) == 0
    out = capsys.readouterr().out
    assert "no tables" in out and "native build failed" in out
    assert calls == ["native done", "demo"]
