"""``pokerarena replay / variants / play`` through a subprocess, with exit codes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[3] / "shared" / "phh-examples"


def run(cli, *args):
    return subprocess.run([*cli, *args], capture_output=True, text=True, timeout=300)


GOOD_PHH = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
starting_stacks = [1000, 1000, 1000]
actions = ['d dh p1 AsKs', 'd dh p2 QdQc', 'd dh p3 7h2c', 'p3 f', 'p1 cbr 30', 'p2 f']
"""


def test_replay_prints_finishing_stacks_last(pokerarena_cli, tmp_path):
    path = tmp_path / "hand.phh"
    path.write_text(GOOD_PHH)
    out = run(pokerarena_cli, "replay", str(path))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [1010, 990, 1000]
    out = run(pokerarena_cli, "replay", str(path), "--json")
    lines = out.stdout.strip().splitlines()
    assert out.returncode == 0
    assert json.loads(lines[0])["finishing_stacks"] == [1010, 990, 1000]
    assert json.loads(lines[-1]) == [1010, 990, 1000]


def test_replay_illegal_action_exits_2_naming_it(pokerarena_cli, tmp_path):
    path = tmp_path / "bad.phh"
    path.write_text(GOOD_PHH.replace("'p1 cbr 30'", "'p1 cbr 12'"))
    out = run(pokerarena_cli, "replay", str(path))
    assert out.returncode == 2
    assert "p1 cbr 12" in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_replay_missing_file_exits_2(pokerarena_cli, tmp_path):
    out = run(pokerarena_cli, "replay", str(tmp_path / "nope.phh"))
    assert out.returncode == 2 and "cannot read" in out.stderr


@pytest.mark.skipif(not (EXAMPLES / "wsop").exists(), reason="../shared/phh-examples absent")
def test_replay_a_real_stud_hand(pokerarena_cli):
    out = run(pokerarena_cli, "replay", str(EXAMPLES / "wsop/2023/43/5/69.phh"))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [2550000, 1825000, 21650000,
                                                               3675000]


def test_variants_lists_everything(pokerarena_cli):
    out = run(pokerarena_cli, "variants", "--json")
    assert out.returncode == 0, out.stderr
    rows = {r["id"]: r for r in json.loads(out.stdout)}
    assert rows["omaha"]["phh"] == {"pot_limit": "PO"}
    assert rows["stud7"]["players"] == [2, 8] and rows["holdem_short"]["deck"] == "short"
    text = run(pokerarena_cli, "variants")
    assert text.returncode == 0 and "razz" in text.stdout


def test_play_is_deterministic_and_conserves_chips(pokerarena_cli):
    args = ["play", "--variant", "holdem", "--bots", "random,call,random,call",
            "--hands", "40", "--seed", "11", "--json"]
    a = run(pokerarena_cli, *args)
    b = run(pokerarena_cli, *args)
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    data = json.loads(a.stdout)
    assert data["hands"] == 40 and data["chips_conserved"] is True
    assert sum(s["net"] for s in data["seats"]) == 0
    assert [s["bot"] for s in data["seats"]] == ["random", "call", "random", "call"]
    other = run(pokerarena_cli, *args[:-3], "12", "--json")
    assert other.stdout != a.stdout


def test_play_with_betting_and_options(pokerarena_cli):
    out = run(pokerarena_cli, "play", "--variant", "stud7_hilo", "--betting", "fixed_limit",
              "--option", "max_raises=2", "--option", "ante=2", "--bots", "random,random,call",
              "--hands", "20", "--seed", "1")
    assert out.returncode == 0, out.stderr
    assert "chips_conserved: true" in out.stdout


def test_play_with_every_kind_of_bot_name(pokerarena_cli):
    bots = "tag,lag,rock,equity,maniac,pokerarena.bots.simple.call_bot:CallBot,random?seed=3"
    out = run(pokerarena_cli, "play", "--variant", "holdem", "--bots", bots, "--hands", "6",
              "--seed", "2", "--on-fault", "protect", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["chips_conserved"] and data["hands"] == 6
    assert [s["bot"] for s in data["seats"]] == bots.split(",")
    assert all(s["faults"] == 0 for s in data["seats"])


@pytest.mark.parametrize(("args", "message"), [
    (["--variant", "nope", "--bots", "call,call"], "unknown variant 'nope'"),
    (["--variant", "holdem", "--bots", "call,shark"], "unknown bot 'shark'"),
    (["--variant", "holdem", "--bots", "call"], "for 2 to 10 players, not 1"),
    (["--variant", "holdem", "--betting", "limp", "--bots", "call,call"], "not offered"),
    (["--variant", "holdem", "--option", "colour=red", "--bots", "call,call"], "colour"),
    (["--variant", "holdem", "--option", "oops", "--bots", "call,call"], "KEY=VALUE"),
    (["--variant", "holdem", "--bots", "call,nowhere.module:Bot"], "cannot import"),
    (["--variant", "holdem", "--bots", "call,tag?depth=3"], "depth"),
])
def test_play_user_errors_exit_2(pokerarena_cli, args, message):
    out = run(pokerarena_cli, "play", *args, "--hands", "1")
    assert out.returncode == 2
    assert message in out.stderr and "Traceback" not in out.stderr


def test_engine_bench_reports_a_rate_without_asserting_it():
    from pokerarena.bench.engine import engine_bench

    out = engine_bench("holdem", "no_limit", players=3, hands=20, peers=False)
    assert out["hands"] == 20 and out["hands_per_sec"] > 0 and out["chips_conserved"]
    assert out["peers"] == {}


def test_bench_engine_prints_json_with_peers_key(pokerarena_cli):
    out = run(pokerarena_cli, "bench", "engine", "--variant", "holdem", "--betting",
              "no_limit", "--players", "3", "--bots", "call", "--hands", "30", "--no-peers",
              "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout.strip().splitlines()[-1])
    assert data["hands_per_sec"] > 0 and data["peers"] == {} and data["players"] == 3
    assert data["showdown_hands"] == 30 and data["chips_conserved"]
    from pokerarena import native

    assert data["native"] is native.build_is_current()  # the build is used when current


def test_bench_engine_rejects_a_bad_bot_without_traceback(pokerarena_cli):
    out = run(pokerarena_cli, "bench", "engine", "--bots", "nobody", "--hands", "5")
    assert out.returncode == 2 and "--bots" in out.stderr and "Traceback" not in out.stderr
