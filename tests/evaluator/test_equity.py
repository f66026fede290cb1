"""Equity: exact enumeration, Monte Carlo, Omaha, and the ``pokerarena equity`` command."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from fractions import Fraction

import pytest

from pokerarena.cards import deck, parse_cards
from pokerarena.evaluator import evaluate, qualifies_low, ranking
from pokerarena.evaluator.equity import (
    GAMES,
    EquityError,
    exact_equity,
    monte_carlo_equity,
    parse_hands,
)
from pokerarena.evaluator.equity import equity as compute_equity

HIGH = ranking("high")
LOW = ranking("a5_low")


@pytest.fixture(scope="module")
def aces_vs_kings():
    return exact_equity(["AdAc", "KhKs"])


def _brute_force(hands, board, score_board, deck_name="standard"):
    """Per-player (win, tie, lose, equity) over every completion, in plain Python."""
    holes = [parse_cards(h) for h in hands]
    known = parse_cards(board) if board else []
    used = set(known).union(*holes)
    rest = [int(c) for c in deck(deck_name) if int(c) not in used]
    n = len(holes)
    win, tie, lose = [0] * n, [0] * n, [0] * n
    eq = [Fraction(0)] * n
    boards = 0
    for extra in itertools.combinations(rest, 5 - len(known)):
        full = known + list(extra)
        shares = score_board(holes, full)
        boards += 1
        for p, s in enumerate(shares):
            eq[p] += s
            if s == 1:
                win[p] += 1
            elif s > 0:
                tie[p] += 1
            else:
                lose[p] += 1
    return boards, win, tie, lose, [e / boards for e in eq]


def _split(values, eligible=None):
    idx = [p for p in range(len(values)) if eligible is None or eligible[p]]
    if not idx:
        return [Fraction(0)] * len(values)
    best = max(values[p] for p in idx)
    winners = [p for p in idx if values[p] == best]
    return [Fraction(1, len(winners)) if p in winners else Fraction(0)
            for p in range(len(values))]


def _holdem_board(rk):
    def score(holes, board):
        return _split([evaluate(h + board, rk) for h in holes])
    return score


def _omaha_best(hole, board, rk):
    """Best 2-from-hole + 3-from-board five-card hand, by plain enumeration."""
    return max(evaluate(list(h) + list(b), rk)
               for h in itertools.combinations(hole, 2)
               for b in itertools.combinations(board, 3))


def _omaha_board(holes, board):
    return _split([_omaha_best(h, board, HIGH) for h in holes])


def _omaha_hilo_board(holes, board):
    high = _split([_omaha_best(h, board, HIGH) for h in holes])
    lows = [_omaha_best(h, board, LOW) for h in holes]
    ok = [qualifies_low(v, LOW, 8) for v in lows]
    if not any(ok):
        return high
    low = _split(lows, ok)
    return [(a + b) / 2 for a, b in zip(high, low, strict=True)]


def _assert_matches(result, brute):
    boards, win, tie, lose, eq = brute
    assert result.exact
    assert result.boards == boards
    for p, pl in enumerate(result.players):
        assert (pl.win, pl.tie, pl.lose) == (win[p], tie[p], lose[p])
        assert Fraction(result.shares[p], result.unit * result.boards) == eq[p]
        assert pl.equity == pytest.approx(float(eq[p]), abs=1e-12)


def test_aces_vs_kings_preflop_exact(aces_vs_kings):
    r = aces_vs_kings
    assert r.boards == 1_712_304
    aa, kk = r.players
    assert (aa.hand, aa.win, aa.tie) == ("AdAc", 1_388_072, 6_538)
    assert (kk.win, kk.tie) == (1_712_304 - 1_388_072 - 6_538, 6_538)
    assert aa.lose == kk.win and kk.lose == aa.win
    assert aa.equity + kk.equity == pytest.approx(1.0, abs=1e-12)
    assert aa.equity == pytest.approx((1_388_072 + 6_538 / 2) / 1_712_304, abs=1e-12)


def test_three_way_on_flop_matches_brute_force():
    hands, board = ["AsKs", "QdQh", "7c8c"], "Qs9c2c"
    result = exact_equity(hands, board)
    assert result.boards == 903  # C(43, 2)
    _assert_matches(result, _brute_force(hands, board, _holdem_board(HIGH)))


def test_three_way_ties_on_turn_match_brute_force():
    # A board that plays often: split pots among two and three players.
    hands, board = ["Ah2c", "Ad3c", "As4d"], "KcKdQhQs"
    result = exact_equity(hands, board)
    brute = _brute_force(hands, board, _holdem_board(HIGH))
    _assert_matches(result, brute)
    assert sum(pl.tie for pl in result.players) > 0


def test_short_deck_matches_brute_force():
    hands, board = ["AsKs", "9d9h", "7c8c"], "Js6cTc"
    result = exact_equity(hands, board, "short_deck")
    assert result.boards == 351  # C(36 - 9, 2)
    _assert_matches(result, _brute_force(hands, board, _holdem_board(ranking("short_deck")),
                                         deck_name="short"))


def test_omaha_matches_brute_force():
    hands, board = ["AsKsQdJd", "Th9h8c7c", "6s6d2h3h"], "Ts9s2c5d"
    result = exact_equity(hands, board, "omaha")
    _assert_matches(result, _brute_force(hands, board, _omaha_board))


def test_omaha_uses_exactly_two_hole_cards():
    # Four spades in the hand and one on the board would be a flush in hold'em; in
    # Omaha the hand is A-K-J-T-9 high and the straight 7-J beats it.
    result = exact_equity(["AsKs6s5s", "2c2d7h8d"], "3s9hTd4cJc", "omaha")
    assert result.boards == 1
    assert (result.players[0].lose, result.players[1].win) == (1, 1)


def test_omaha_hilo_matches_brute_force():
    hands, board = ["Ac2d3hKs", "As4c5dKd", "QhQdJhJd"], "6c7d8s"
    result = exact_equity(hands, board, "omaha_hilo")
    brute = _brute_force(hands, board, _omaha_hilo_board)
    _assert_matches(result, brute)
    assert 0 < result.players[0].equity < 1


def test_omaha5_and_omaha6_hole_counts():
    r5 = exact_equity(["AsKsQdJdTc", "2c3c4c5c6h"], "2h9s5s8d", "omaha5")
    r6 = exact_equity(["AsKsQdJdTc9c", "2c3c4c5c6h7h"], "2h9s5s8d", "omaha6")
    assert r5.boards == 52 - 14 and r6.boards == 52 - 16
    assert sum(p.equity for p in r6.players) == pytest.approx(1.0)


def test_monte_carlo_within_four_standard_errors(aces_vs_kings):
    mc = monte_carlo_equity(["AdAc", "KhKs"], samples=40_000, seed=7)
    assert mc.boards == mc.samples == 40_000
    for exact_p, mc_p in zip(aces_vs_kings.players, mc.players, strict=True):
        assert mc_p.stderr > 0
        assert abs(mc_p.equity - exact_p.equity) < 4 * mc_p.stderr


def test_monte_carlo_three_way_within_four_standard_errors():
    hands, board = ["AsKs", "QdQh", "7c8c"], "Qs9c"
    exact = exact_equity(hands, board)
    mc = monte_carlo_equity(hands, board, samples=30_000, seed=3)
    for e, m in zip(exact.players, mc.players, strict=True):
        assert abs(m.equity - e.equity) < 4 * m.stderr


def test_seed_determinism():
    a = monte_carlo_equity(["AsKs", "QdQh", "7c8c"], samples=5_000, seed=11)
    b = monte_carlo_equity(["AsKs", "QdQh", "7c8c"], samples=5_000, seed=11)
    c = monte_carlo_equity(["AsKs", "QdQh", "7c8c"], samples=5_000, seed=12)
    assert a.to_dict() == b.to_dict()
    assert a.to_dict()["players"] != c.to_dict()["players"]
    assert a.seed == 11


def test_default_mode_is_exact_when_feasible():
    r = compute_equity(["AsKs", "QdQh"], "2c3d4h")
    assert r.exact and r.boards == 990


@pytest.mark.parametrize(
    ("hands", "board", "game", "message"),
    [
        (["AsKs"], "", "holdem", "at least 2 hands"),
        (["AsKs", "AsQd"], "", "holdem", "dealt twice"),
        (["AsKs", "QdQh"], "Qd2c3c", "holdem", "dealt twice"),
        (["AsKsQd", "QdQh"], "", "holdem", "needs 2 hole cards"),
        (["AsKs", "QdQh"], "", "omaha", "needs 4 hole cards"),
        (["AsKs", "QdQx"], "", "holdem", "unknown card"),
        (["AsKs", "QdQh"], "2c3c4c5c6c7c", "holdem", "at most 5"),
        (["As2s", "QdQh"], "", "short_deck", "not in the short deck"),
        (["AsKs", "QdQh"], "", "stud", "unknown game"),
    ],
)
def test_bad_input_raises(hands, board, game, message):
    with pytest.raises(EquityError, match=message):
        parse_hands(hands, board, game)


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "pokerarena.cli", "equity", *args],
                          capture_output=True, text=True, timeout=300)


def test_cli_json_exact():
    out = _cli("AsKs", "QdQh", "7c8c", "--board", "Qs9c2c", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["boards"] == 903
    assert [p["hand"] for p in data["players"]] == ["AsKs", "QdQh", "7c8c"]
    assert sum(p["equity"] for p in data["players"]) == pytest.approx(1.0)
    for p in data["players"]:
        assert p["win"] + p["tie"] + p["lose"] == 903
        assert "stderr" not in p


def test_cli_json_monte_carlo_and_table():
    out = _cli("AsKs", "QdQh", "--samples", "2000", "--seed", "5", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["samples"] == data["boards"] == 2000
    assert all(p["stderr"] > 0 for p in data["players"])
    table = _cli("AsKs", "QdQh", "--board", "2c3d4h", "--game", "holdem")
    assert table.returncode == 0, table.stderr
    assert "AsKs" in table.stdout and "990" in table.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["AsKs", "AsQd"],
        ["AsKs"],
        ["AsKsQd", "QdQh"],
        ["AsKs", "QdQh", "--game", "omaha"],
        ["AsKs", "Q?Qh"],
        ["AsKs", "QdQh", "--board", "2c3c4c5c6c7c"],
    ],
)
def test_cli_bad_input_exits_2_without_traceback(args):
    out = _cli(*args)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pokerarena: error:")


def test_command_game_names_match_library():
    from pokerarena.commands.equity import GAME_NAMES

    assert set(GAME_NAMES) == set(GAMES)
