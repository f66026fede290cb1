"""Solving Kuhn and Leduc (docs/exact.md): CFR+ over the engine's own tree reaches the
known equilibrium figures, checked by our exact evaluator and by OpenSpiel (a test-only
peer) on the exported policy; strategy files round-trip, and broken or hostile ones are
one clear error; the strategy bot draws from what it declares; the command end to end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from policy_stats import chi_square_p

from pokerarena.bots.base import DeclaresPolicy, canonical_action
from pokerarena.bots.registry import make_bot
from pokerarena.bots.simple.strategy_bot import StrategyBot
from pokerarena.bots.simple.strategy_table import StrategyFileError, read_strategy, state_key
from pokerarena.cli import main
from pokerarena.solvers.cfr import (
    SolveError,
    checkpoints,
    exploitability,
    flatten,
    profile_value,
    solve,
)
from pokerarena.solvers.exact import DECISION, build_tree, evaluate
from pokerarena.solvers.strategy_file import load_strategy, write_strategy

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def flats():
    return {v: flatten(build_tree(v)) for v in ("kuhn", "leduc")}


@pytest.fixture(scope="module")
def kuhn(flats):
    return solve("kuhn", iterations=300, flat=flats["kuhn"])


@pytest.fixture(scope="module")
def leduc(flats):
    return solve("leduc", iterations=1000, flat=flats["leduc"])


@pytest.fixture(scope="module")
def files(tmp_path_factory, kuhn, leduc):
    d = tmp_path_factory.mktemp("strategies")
    out = {"kuhn": d / "kuhn.json", "leduc": d / "leduc.json"}
    write_strategy(out["kuhn"], kuhn)
    write_strategy(out["leduc"], leduc)
    return out


# The solver ----------------------------------------------------------------------------
def test_the_flat_tree_has_the_games_information_sets(flats):
    """OpenSpiel counts 12 information states in Kuhn and 936 in Leduc; ours are keyed
    by what the seat sees, each one set of the walk with one list of moves."""
    assert len(flats["kuhn"].keys) == 12 and len(flats["leduc"].keys) == 936
    assert flats["kuhn"].keys[0] == "0:Js::" and flats["kuhn"].moves[0] == ["c", "r1"]
    f = flats["leduc"]
    assert f.kind.size == build_tree("leduc").nodes == 9457
    assert set(f.iseat.tolist()) == {0, 1}


def test_kuhn_cfr_plus_reaches_the_game_value_and_agrees_with_the_exact_evaluator(
        kuhn, files, flats):
    assert kuhn.exploitability < 1e-3
    assert kuhn.value == pytest.approx(-1 / 18, abs=1e-3)     # seat 0's equilibrium value
    xs = [x for _, x in kuhn.curve]
    assert xs[-1] < xs[0] / 10                                 # it does converge
    # the strategy as a bot, through the exact evaluator: the same figures to the bit
    bot = StrategyBot(path=str(files["kuhn"]), seed=1)
    exact = evaluate("kuhn", [bot, make_bot("call")], tree=flats["kuhn"].tree)
    assert exact.exploitability[0] == pytest.approx(kuhn.exploitability, abs=1e-12)
    selfplay = evaluate("kuhn", [bot, StrategyBot(path=str(files["kuhn"]))],
                        tree=flats["kuhn"].tree)
    assert selfplay.seated[0][0] == pytest.approx(kuhn.value, abs=1e-12)
    # Kuhn's equilibrium: the second player's strategy is unique (bluff the jack a
    # third of the time after a check, call a bet with the queen a third of the time)
    s = kuhn.strategy
    assert s["1:Js::c"]["r1"] == pytest.approx(1 / 3, abs=0.03)
    assert s["1:Qs::r1"]["c"] == pytest.approx(1 / 3, abs=0.03)
    assert s["1:Ks::r1"]["c"] == pytest.approx(1.0, abs=0.01)


def test_leduc_cfr_plus_below_1e3_by_openspiels_exploitability(leduc, files):
    from open_spiel.python.algorithms import exploitability as os_exploitability
    from openspiel_peer import Mirror

    assert leduc.exploitability < 1e-3
    assert leduc.value == pytest.approx(-0.0856, abs=2e-3)    # seat 0's value of Leduc
    bot = StrategyBot(path=str(files["leduc"]), seed=3)
    mirror = Mirror("leduc")
    theirs = os_exploitability.exploitability(mirror.game, mirror.tabular([bot, bot]))
    assert theirs < 1e-3
    assert theirs == pytest.approx(leduc.exploitability, abs=1e-9)


def test_exploitability_of_a_known_strategy_matches_the_exact_evaluator(flats):
    """The uniform strategy of Kuhn is exploitable by 11/24 (docs/exact.md's table)."""
    f = flats["kuhn"]
    uniform = np.concatenate([np.full(k, 1.0 / k) for k in f.nact])
    assert exploitability(f, uniform) == pytest.approx(11 / 24, abs=1e-12)
    walked = evaluate("kuhn", [make_bot("random"), make_bot("random")], tree=f.tree)
    assert profile_value(f, uniform) == pytest.approx(walked.seated[0][0], abs=1e-12)


def test_mccfr_converges_and_is_reproducible_from_its_seed(flats):
    a = solve("kuhn", algorithm="mccfr", iterations=20_000, seed=5, flat=flats["kuhn"])
    b = solve("kuhn", algorithm="mccfr", iterations=20_000, seed=5, flat=flats["kuhn"])
    c = solve("kuhn", algorithm="mccfr", iterations=20_000, seed=6, flat=flats["kuhn"])
    assert a.exploitability < 0.02 and a.curve[-1][1] < a.curve[0][1]
    assert a.strategy == b.strategy and a.strategy != c.strategy


def test_quadratic_averaging_also_converges(flats):
    r = solve("kuhn", iterations=300, averaging="quadratic", flat=flats["kuhn"])
    assert r.exploitability < 1e-3


def test_bad_solves_are_one_clear_error():
    with pytest.raises(SolveError, match="unknown algorithm 'dcfr'"):
        solve("kuhn", algorithm="dcfr", iterations=10)
    with pytest.raises(SolveError, match="at least 1"):
        solve("kuhn", iterations=0)
    assert checkpoints(1000) == [31, 62, 125, 250, 500, 1000]


# Strategy files ------------------------------------------------------------------------
def test_a_strategy_file_round_trips(kuhn, files, flats):
    table = load_strategy(files["kuhn"], variant="kuhn", flat=flats["kuhn"])
    assert table.strategy == kuhn.strategy
    h = table.header
    assert (h["format"], h["version"], h["variant"], h["betting"], h["algorithm"]) == (
        "pokerarena-strategy", 1, "kuhn", "fixed_limit", "cfr+")
    assert (h["iterations"], h["seed"], h["infosets"]) == (300, 0, 12)
    assert h["exploitability"] == kuhn.exploitability and h["game_key"] == kuhn.game_key
    assert load_strategy(files["leduc"]).strategy == read_strategy(files["leduc"]).strategy


def _edit(doc: dict, what: str) -> dict:
    s = doc["strategy"]
    first = next(iter(s))
    if what == "version":
        doc["version"] = 2
    elif what == "format":
        doc["format"] = "something-else"
    elif what == "game_key":
        doc["game_key"] = "0123456789abcdef"
    elif what == "options":
        doc["options"] = {"max_raises": 3}
    elif what == "sum":
        s[first] = {"c": 0.45, "r1": 0.45}
    elif what == "negative":
        s[first] = {"c": 1.5, "r1": -0.5}
    elif what == "unknown_state":
        s["0:Ks::r1r1"] = s.pop(first)          # a well-formed key no game reaches
    elif what == "illegal_move":
        s[first] = {"c": 0.5, "f": 0.5}          # no fold when a check is free
    elif what == "bad_move":
        s[first] = {"c": 0.5, "x": 0.5}
    elif what == "missing":
        del s[first]
        doc["infosets"] -= 1
    elif what == "count":
        doc["infosets"] += 1
    elif what == "header":
        del doc["seed"]
    elif what == "extra":
        doc["pickle"] = "cos\nsystem\n"
    return doc


HOSTILE = [
    ("version", "version 2; this pokerarena reads version 1"),
    ("format", "not a strategy file"),
    ("game_key", "game key 0123456789abcdef is not that of kuhn"),
    ("options", "game key .* is not that of kuhn"),
    ("sum", "probabilities sum to 0.9"),
    ("negative", "has probability -0.5"),
    ("unknown_state", "'0:Ks::r1r1' is not an information state of kuhn"),
    ("illegal_move", r"\['f'\] are not legal there"),
    ("bad_move", "'x' is not a move"),
    ("missing", "1 information states of kuhn are missing"),
    ("count", "the header says 13 information states, the table has 12"),
    ("header", "header field 'seed' is missing"),
    ("extra", r"unknown header fields \['pickle'\]"),
]


@pytest.mark.parametrize(("what", "message"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_strategy_file_is_one_clear_error(files, flats, tmp_path, what, message):
    doc = json.loads(files["kuhn"].read_text())
    bad = tmp_path / f"{what}.json"
    bad.write_text(json.dumps(_edit(doc, what)))
    with pytest.raises(StrategyFileError, match=message):
        load_strategy(bad, flat=flats["kuhn"])


@pytest.mark.parametrize(("text", "message"), [
    (None, "truncated or not JSON"),                        # the file cut in half
    ("", "truncated or not JSON"),
    ("\x00\xff garbage", "truncated or not JSON"),
    ("[" * 100_000, "truncated or not JSON"),               # nesting deep enough to recurse
    ('{"format": "pokerarena-strategy", "version": 1, "version": 1}', "appears twice"),
    ("[1, 2]", "not a strategy file"),
])
def test_a_broken_file_is_one_clear_error_before_any_hand(files, tmp_path, text, message):
    whole = files["kuhn"].read_text()
    bad = tmp_path / "bad.json"
    bad.write_text(whole[: len(whole) // 2] if text is None else text)
    with pytest.raises(StrategyFileError, match=message):
        read_strategy(bad)
    with pytest.raises(StrategyFileError, match=message):   # the bot refuses it when made
        make_bot(f"cfr:{bad}")


def test_nan_and_missing_files_are_clear_errors(files, tmp_path):
    text = files["kuhn"].read_text().replace('"exploitability":', '"exploitability":NaN,"x":', 1)
    bad = tmp_path / "nan.json"
    bad.write_text(text)
    with pytest.raises(StrategyFileError, match="NaN is not a number"):
        read_strategy(bad)
    with pytest.raises(StrategyFileError, match="cannot read the strategy file"):
        read_strategy(tmp_path / "nope.json")


def test_a_strategy_for_another_game_is_refused(files, flats):
    with pytest.raises(StrategyFileError, match="a strategy for kuhn, not leduc"):
        load_strategy(files["kuhn"], variant="leduc")
    with pytest.raises(StrategyFileError, match=r"a strategy for kuhn \(game \w+\), not "
                                                r"for leduc"):
        load_strategy(files["kuhn"], flat=flats["leduc"])
    with pytest.raises(StrategyFileError, match="is a strategy for kuhn, not leduc"):
        make_bot(f"cfr:{files['kuhn']}?variant=leduc")       # before any hand
    bot = StrategyBot(path=str(files["kuhn"]))
    leduc_view = next(n.view for n in _decisions(flats["leduc"]))
    with pytest.raises(StrategyFileError, match="a strategy for kuhn .* not for this game"):
        bot.policy(leduc_view)


def test_the_cli_turns_a_bad_file_into_one_line_and_status_2(files, tmp_path, capsys):
    bad = tmp_path / "cut.json"
    bad.write_text(files["kuhn"].read_text()[:100])
    assert main(["exact", "--variant", "kuhn", "--bots", f"cfr:{bad},call"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "truncated or not JSON" in err[0]


# The strategy bot -----------------------------------------------------------------------
def _decisions(flat):
    return [n for n in _walk(flat.tree.root) if n.kind == DECISION]


def _walk(node):
    yield node
    for _, _, child in node.children:
        yield from _walk(child)


def test_the_strategy_bot_draws_from_what_it_declares(leduc, files, flats):
    """At Leduc views where the solved strategy mixes, 3,000 draws of ``act`` against
    the declared distribution (chi-square, as tests/bots/test_bots_policy.py)."""
    mixed = [n.view for n in _decisions(flats["leduc"])
             if sum(p > 0.05 for p in leduc.strategy[state_key(n.view)].values()) >= 2]
    assert len(mixed) > 20
    for i, view in enumerate(mixed[:: len(mixed) // 6][:6]):
        bot = make_bot(f"cfr:{files['leduc']}", seed=40 + i)
        assert isinstance(bot, DeclaresPolicy)
        probs = dict(bot.policy(view))
        row = leduc.strategy[state_key(view)]
        assert sum(probs.values()) == pytest.approx(1.0, abs=1e-9)
        assert {k: v for k, v in row.items() if v > 0} == {
            ("f" if a.kind == "f" else "c" if a.kind == "cc" else f"r{a.amount}"): p
            for a, p in probs.items()}
        counts: dict = {}
        for _ in range(3000):
            a = canonical_action(bot.act(view))
            counts[a] = counts.get(a, 0) + 1
        assert chi_square_p(counts, probs, 3000) > 1e-4, (state_key(view), probs, counts)


def test_the_bot_needs_a_file():
    with pytest.raises(StrategyFileError, match="give a strategy file, cfr:FILE"):
        StrategyBot()


# The command ---------------------------------------------------------------------------
def _cli(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pokerarena.cli", *argv],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_the_command_end_to_end(tmp_path):
    out = tmp_path / "kuhn.json"
    done = _cli("solve", "kuhn", "--algorithm", "cfr+", "--iterations", "400", "--out",
                str(out), "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert set(doc) == {"variant", "algorithm", "iterations", "exploitability", "curve",
                        "seconds", "out"}
    assert (doc["variant"], doc["algorithm"], doc["iterations"], doc["out"]) == (
        "kuhn", "cfr+", 400, str(out))
    assert doc["exploitability"] < 1e-3 and doc["curve"][-1] == [400, doc["exploitability"]]
    assert [it for it, _ in doc["curve"]] == checkpoints(400)
    table = load_strategy(out, variant="kuhn")
    assert table.header["exploitability"] == doc["exploitability"]
    text = _cli("solve", "kuhn", "--algorithm", "mccfr", "--iterations", "2000", "--seed",
                "3", "--out", str(tmp_path / "m.json"))
    assert text.returncode == 0 and "exploitability" in text.stdout
    for argv, message in [(["--iterations", "0"], "--iterations must be at least 1"),
                          (["--iterations", "5", "--seed", "-1"], "--seed must be"),
                          (["--iterations", "5", "--variant-typo"], "unrecognized")]:
        bad = _cli("solve", "kuhn", "--out", str(tmp_path / "x.json"), *argv)
        assert bad.returncode == 2 and message in bad.stderr
    holdem = _cli("solve", "holdem", "--iterations", "5", "--out", str(tmp_path / "h.json"))
    assert holdem.returncode == 2 and len(holdem.stderr.strip().splitlines()) == 1
    assert "too large to walk exactly" in holdem.stderr


def test_the_benchmark_runs_both_solvers_to_the_target(capsys):
    """A run on Kuhn through ``pokerarena bench solve`` (timings are not asserted: they
    are the benchmark's output)."""
    assert main(["bench", "solve", "--variant", "kuhn", "--repeats", "1", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert (r["benchmark"], r["variant"], r["target"]) == ("solve", "kuhn", 1e-3)
    for side in ("ours", "openspiel_cpp"):
        assert r[side]["reached"] and r[side]["exploitability"] < 1e-3
        assert r[side]["iterations"] % 10 == 0 and r[side]["seconds"] > 0
    # the same algorithm: the iteration counts to the target are close
    assert abs(r["ours"]["iterations"] - r["openspiel_cpp"]["iterations"]) <= 100
    assert r["ratio"] == r["ours"]["seconds"] / r["openspiel_cpp"]["seconds"]
    assert main(["bench", "solve", "--variant", "kuhn", "--target", "0"]) == 2
    assert "--target must be positive" in capsys.readouterr().err


def test_exact_and_match_play_a_cfr_file(files, capsys):
    """``cfr:FILE`` through the commands: exact (the solved Leduc strategy is nearly
    unexploitable, ``call`` is not) and a played match."""
    assert main(["exact", "--variant", "leduc", "--bots", f"cfr:{files['leduc']},call",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["exploitability"][0] < 1e-3
    assert doc["exploitability"][1] == pytest.approx(1.4666666666666668, abs=1e-12)
    assert doc["values"][0] > 0.1          # the strategy beats the calling station
    assert main(["play", "--variant", "leduc", "--bots", f"cfr:{files['leduc']},random",
                 "--hands", "30", "--seed", "1"]) == 0
    assert "faults 0" in capsys.readouterr().out.split("random")[0]
