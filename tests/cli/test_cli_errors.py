"""Errors a user can cause at the command line, run as a user would (the ``pokerarena``
console script in a subprocess): one line on stderr, exit status 2, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pokerarena.platform.api.testing import small_spec


def _fails_in_one_line(argv: list[str], cwd: Path, *words: str) -> str:
    r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout, r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr[:2000]
    assert lines[0].startswith("pokerarena: error: "), lines[0]
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cli-errors-data")


@pytest.mark.parametrize("sql", ["", "   ", "\n\t", "-- only a comment", "/* a comment */",
                                 ";"])
def test_query_without_a_statement(pokerarena_cli, data_dir, tmp_path, sql):
    _fails_in_one_line([*pokerarena_cli, "query", sql, "--data", str(data_dir)], tmp_path,
                       "no SQL statement")


@pytest.mark.parametrize("sql", ["selec 1", "SELECT * FROM no_such_table",
                                 "SELECT\n  nonsense(\n FROM hands"])
def test_query_errors_are_one_line(pokerarena_cli, data_dir, tmp_path, sql):
    line = _fails_in_one_line([*pokerarena_cli, "query", sql, "--data", str(data_dir)],
                              tmp_path)
    assert "LINE 1" not in line and "Error" in line


def _deep_files(tmp_path: Path) -> dict[str, Path]:
    files = {"deep.json": "[" * 5000 + "]" * 5000,
             "deep.toml": "a = " + "[" * 5000 + "]" * 5000,
             "deep_table.toml": "a = " + "{b = " * 5000 + "1" + "}" * 5000}
    out = {}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
        out[name] = tmp_path / name
    return out


def test_run_spec_nested_too_deep(pokerarena_cli, tmp_path):
    for name, path in _deep_files(tmp_path).items():
        _fails_in_one_line([*pokerarena_cli, "run", str(path), "--local", "--data",
                            str(tmp_path / "data")], tmp_path, name, "nested too deeply")


def test_run_spec_binary_file(pokerarena_cli, tmp_path):
    for name in ("spec.toml", "spec.json"):
        path = tmp_path / name
        path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
        _fails_in_one_line([*pokerarena_cli, "run", str(path), "--local", "--data",
                            str(tmp_path / "data")], tmp_path, name, "not UTF-8")


def test_run_spec_with_hostile_numbers_and_names(pokerarena_cli, tmp_path):
    cases = [
        ({"unit_hands": 1, "hands": 10**6}, "unit_hands:"),
        ({"name": "-x"}, "name:"),
        ({"name": ".."}, "name:"),
        ({"stack": 2**70}, "stack:"),
        ({"limits": {"unit_seconds": float("inf")}}, "limits.unit_seconds: Infinity"),
    ]
    for i, (changes, words) in enumerate(cases):
        spec = {**small_spec(), **changes}
        path = tmp_path / f"spec{i}.json"
        path.write_text(json.dumps(spec))
        _fails_in_one_line([*pokerarena_cli, "run", str(path), "--local", "--data",
                            str(tmp_path / "data")], tmp_path, words)
    (tmp_path / "big.toml").write_text(
        'kind = "match"\nbots = ["random", "call"]\nhands = 10\n'
        '[[games]]\nvariant = "holdem"\nbetting = "no_limit"\n'
        f'options = {{ blinds = [1, {2**40}] }}\n')
    _fails_in_one_line([*pokerarena_cli, "run", str(tmp_path / "big.toml"), "--local",
                        "--data", str(tmp_path / "data")], tmp_path,
                       "games[0].options.blinds[1]")


def test_run_id_follows_the_one_rule(pokerarena_cli, tmp_path):
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(small_spec()))
    for bad in ("-x", ".hidden", "..", "a/b"):
        _fails_in_one_line([*pokerarena_cli, "run", str(path), "--local", f"--run-id={bad}",
                            "--data", str(tmp_path / "data")], tmp_path, "--run-id")
    assert not (tmp_path / "data" / "runs").exists() or not any(
        (tmp_path / "data" / "runs").iterdir())


def test_replay_nested_too_deep_or_binary(pokerarena_cli, tmp_path):
    for suffix in (".phh", ".phhs"):
        path = tmp_path / f"deep{suffix}"
        path.write_text("variant = " + "[" * 5000 + "]" * 5000)
        _fails_in_one_line([*pokerarena_cli, "replay", str(path)], tmp_path, path.name,
                           "nested too deeply")
        binary = tmp_path / f"binary{suffix}"
        binary.write_bytes(b"\x00\xff\xfe\x89binary")
        _fails_in_one_line([*pokerarena_cli, "replay", str(binary)], tmp_path, binary.name,
                           "not UTF-8")


def test_a_user_error_is_one_line_and_exit_2(pokerarena_cli, tmp_path):
    # A CardError is a UserError: the evaluator command reports it in one line.
    _fails_in_one_line([*pokerarena_cli, "eval", "hand", "AsKx"], tmp_path, "unknown card")


def test_the_user_errors_share_one_type():
    from pokerarena.arena.acpc import AcpcError
    from pokerarena.bots.registry import BotSpecError
    from pokerarena.cards import CardError
    from pokerarena.engine.actions import EngineError
    from pokerarena.errors import UserError
    from pokerarena.platform.query import QueryError
    from pokerarena.platform.spec import SpecError
    from pokerarena.rules.model import VariantError

    for cls in (AcpcError, BotSpecError, CardError, EngineError, QueryError, SpecError,
                VariantError):
        assert issubclass(cls, UserError), cls


_BUG = """
import sys
import pokerarena.cards as cards
def boom(*a, **k):
    raise KeyError("a library bug")
cards.parse_cards = boom
import pokerarena.commands.evaluator as ev
ev.parse_cards = boom
from pokerarena.cli import main
sys.exit(main(["eval", "hand", "AsKd"]))
"""


def test_a_library_bug_keeps_its_traceback_and_exits_1(tmp_path):
    import sys

    r = subprocess.run([sys.executable, "-c", _BUG], cwd=tmp_path, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert "Traceback" in r.stderr and "KeyError: 'a library bug'" in r.stderr, r.stderr
    assert "pokerarena: error:" not in r.stderr


_PEAK = """
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=600)
sys.stdout.write(r.stdout)
sys.stderr.write(r.stderr)
print("peak_rss_kib", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
sys.exit(r.returncode)
"""


@pytest.mark.parametrize("sql", [
    "SELECT count(*) FROM (SELECT list_sort(range(100000000)) l)",
    "SELECT sum(len(l)) FROM (SELECT list_sort(range(100000000)) l)",
    "SELECT length(repeat('x', 1500000000))",
])
def test_query_memory_is_capped_like_the_service(pokerarena_cli, data_dir, tmp_path, sql):
    """``pokerarena query`` runs in a query process of the service's pool with an OS
    memory cap: a query that needs more ends in one line and exit 2, and no process of
    the command (the query process included) grows past the cap."""
    import sys

    cap_mb = 512
    r = subprocess.run([sys.executable, "-c", _PEAK, *pokerarena_cli, "query", sql,
                        "--data", str(data_dir), "--memory-mb", str(cap_mb)],
                       cwd=tmp_path, capture_output=True, text=True, timeout=600)
    *lines, peak = r.stderr.splitlines()
    peak_mib = int(peak.split()[1]) / 1024
    assert peak_mib < cap_mb + 256, peak_mib   # the cap, plus the interpreter's own size
    if r.returncode == 0:   # DuckDB may answer without building the lists at all
        assert "count(*)" in sql and "1" in r.stdout
        return
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert len(lines) == 1 and lines[0].startswith("pokerarena: error: "), lines
    assert f"more than {cap_mb} MiB" in lines[0]


def test_a_reader_that_goes_away_stops_the_command_quietly():
    """``pokerarena variants | head -1``: the pipe closes before the listing ends; the
    command stops with the shell's broken-pipe status and no traceback."""
    code = ("import os, sys\nr, w = os.pipe()\nos.close(r)\nos.dup2(w, 1)\n"
            "from pokerarena.cli import main\nsys.exit(main(['variants']))\n")
    done = subprocess.run([sys.executable, "-u", "-c", code], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 141, done.stderr
    assert "Traceback" not in done.stderr and "Error" not in done.stderr, done.stderr
