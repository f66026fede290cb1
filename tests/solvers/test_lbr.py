"""Local Best Response (issue 27, solvers/lbr.py): a lower bound that must stay below the
truth where the truth is known.

On Leduc, small enough for the exact best response, LBR's value against a bot lies below
the exact best response's (within LBR's interval) and clearly above zero. The range is
Bayes' posterior, checked against posteriors worked out by hand at small spots (Leduc and
hold'em), and LBR's action values are the paper's formulas at a spot. In fixed-limit
hold'em LBR beats ``call`` and ``random`` with intervals clear of zero; the CLI and the
bench print the documented keys, and bad input is one line with status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from test_exploit import exploit_error

from pokerarena.arena.views import build_view
from pokerarena.bots.base import BaseBot, Policy, SeatView
from pokerarena.bots.registry import make_bot
from pokerarena.cards import card_str, parse_cards
from pokerarena.cli import main
from pokerarena.engine import Game
from pokerarena.engine.actions import CALL_KIND, FOLD_KIND, RAISE_KIND, Action
from pokerarena.solvers.exploit import exact_exploitability
from pokerarena.solvers.lbr import (
    LbrConfig,
    LbrPlayer,
    card_blind,
    holding_policies,
    lbr_value,
)


class RankBot(BaseBot):
    """Leduc: raises (the minimum) with chance J 0.1, Q 0.5, K 0.9 where it may, else
    checks or calls; never folds. Its policy reads its card, so LBR's range moves."""

    name = "rankbot"
    RAISE = {"J": 0.1, "Q": 0.5, "K": 0.9}

    def policy(self, view: SeatView) -> Policy:
        legal = view.legal
        assert legal is not None
        p = self.RAISE[card_str(view.hole[0])[0]]
        if RAISE_KIND not in legal.kinds:
            return [(Action(CALL_KIND), 1.0)]
        return [(Action(RAISE_KIND, legal.min_to), p), (Action(CALL_KIND), 1.0 - p)]

    def act(self, view: SeatView) -> Action:
        pol = self.policy(view)
        x, acc = self.rng.random(), 0.0
        for action, p in pol:
            acc += p
            if x < acc:
                return action
        return pol[-1][0]


class PairBot(BaseBot):
    """Hold'em: raises with a pocket pair; otherwise calls or folds, half and half (checks
    when free)."""

    name = "pairbot"

    def policy(self, view: SeatView) -> Policy:
        legal = view.legal
        assert legal is not None
        a, b = view.hole
        if card_str(a)[0] == card_str(b)[0] and RAISE_KIND in legal.kinds:
            return [(Action(RAISE_KIND, legal.min_to), 1.0)]
        if legal.call == 0:
            return [(Action(CALL_KIND), 1.0)]
        return [(Action(CALL_KIND), 0.5), (Action(FOLD_KIND), 0.5)]

    def act(self, view: SeatView) -> Action:  # pragma: no cover - not played here
        return self.policy(view)[0][0]


class FoldBot(BaseBot):
    """Folds to any bet, checks when free."""

    name = "fold"

    def policy(self, view: SeatView) -> Policy:
        legal = view.legal
        assert legal is not None
        return [(Action(FOLD_KIND if legal.call > 0 else CALL_KIND), 1.0)]

    def act(self, view: SeatView) -> Action:
        return self.policy(view)[0][0]


def _deal_with(game: Game, seat: int, cards: str, button: int = 1) -> Any:
    """A hand (automatic dealing) whose ``seat`` holds ``cards``: the first seed that
    deals them (a search over seeds, so the test sees a real engine deal)."""
    want = sorted(parse_cards(cards))
    stack = game.variant.stakes.stack
    for seed in range(200_000):
        hand = game.new_hand(seed, 2, [stack, stack], button)
        if sorted(int(c) for c in hand.cards_of(seat)) == want:
            return hand
    raise AssertionError(f"no seed deals {cards}")  # pragma: no cover


# Leduc: below the exact best response, above zero ------------------------------------
@pytest.mark.parametrize("spec", ["random", "call", "rankbot"])
def test_leduc_lbr_is_below_the_exact_best_response_and_above_zero(spec):
    bot = RankBot(seed=3) if spec == "rankbot" else make_bot(spec, seed=3)
    exact = exact_exploitability("leduc", bot, spec).exploitability
    r = lbr_value("leduc", {}, bot, 3000, seed=11)
    lo, hi = r["ci95_chips"]
    assert r["hands"] == 3000 and r["method"] == "lbr"
    assert lo <= exact, (r["mean"], exact)          # a lower bound, within its interval
    assert lo > 0.1, r                               # and clearly positive
    assert r["mean"] > 0.5 * exact                   # not a vacuous one either


def test_the_card_blind_shortcut_plays_as_reading_every_holding():
    assert card_blind(make_bot("random")) and card_blind(make_bot("call"))
    assert not card_blind(make_bot("tag")) and not card_blind(RankBot())
    fast = lbr_value("holdem", {"betting": "fixed_limit"}, "call", 6, seed=5)
    slow = lbr_value("holdem", {"betting": "fixed_limit"}, "call", 6, seed=5,
                     config=LbrConfig(enumerate_all=True))
    assert fast["card_blind"] and not slow["card_blind"]
    assert slow["policy_reads"] > 100 * fast["policy_reads"]
    assert fast["mean"] == slow["mean"] and fast["ci95"] == slow["ci95"]
    a = lbr_value("leduc", {}, "random", 200, seed=2)
    b = lbr_value("leduc", {}, "random", 200, seed=2, config=LbrConfig(enumerate_all=True))
    assert a["mean"] == b["mean"]


# The range is Bayes' posterior --------------------------------------------------------
def test_leduc_range_after_a_raise_and_a_check_is_the_posterior_by_hand():
    game = Game("leduc")
    hand = _deal_with(game, 1, "Js")          # LBR in seat 1 holds Js; seat 0 acts first
    player = LbrPlayer(game, RankBot(seed=0), seed=0)
    player.start(hand, 1)
    names = [card_str(int(c[0])) for c in player.range.cards]
    assert sorted(names) == ["Jh", "Kh", "Ks", "Qh", "Qs"]
    view = build_view(hand, 0, game_info=player.info)
    assert view.legal is not None and RAISE_KIND in view.legal.kinds
    raise_ = Action(RAISE_KIND, view.legal.min_to)
    player.observe(view, raise_)
    # P(raise | J, Q, K) = 0.1, 0.5, 0.9 on a uniform prior: weights 1, 5, 5, 9, 9 over 29
    by_hand = {"Jh": 1 / 29, "Qh": 5 / 29, "Qs": 5 / 29, "Kh": 9 / 29, "Ks": 9 / 29}
    post = dict(zip(names, player.range.probabilities().tolist(), strict=True))
    assert post == pytest.approx(by_hand, abs=1e-12)
    # LBR calls; the board comes; the bot checks: P(check) = 0.9, 0.5, 0.1; the board
    # card leaves the range
    hand.apply(raise_)
    hand.apply(Action(CALL_KIND))
    assert not hand.is_over and hand.to_act == 0
    board = card_str(int(hand.board[0]))
    view = build_view(hand, 0, game_info=player.info)
    player.observe(view, Action(CALL_KIND))
    raw = {"Jh": 0.1 * 0.9, "Qh": 0.5 * 0.5, "Qs": 0.5 * 0.5, "Kh": 0.9 * 0.1,
           "Ks": 0.9 * 0.1}
    raw[board] = 0.0
    total = sum(raw.values())
    post = dict(zip(names, player.range.probabilities().tolist(), strict=True))
    assert post == pytest.approx({k: v / total for k, v in raw.items()}, abs=1e-12)


def test_holdem_range_after_a_raise_is_the_pocket_pairs_lbr_does_not_block():
    game = Game("holdem", {"betting": "fixed_limit"})
    hand = _deal_with(game, 0, "AsKd")        # LBR in seat 0, big blind; seat 1 opens
    player = LbrPlayer(game, PairBot(), seed=0)
    player.start(hand, 0)
    assert len(player.range.cards) == 1225    # C(50, 2): every holding without As, Kd
    assert hand.to_act == 1
    view = build_view(hand, 1, game_info=player.info)
    assert view.legal is not None
    player.observe(view, Action(RAISE_KIND, view.legal.min_to))
    post = player.range.probabilities()
    live = [tuple(card_str(int(c)) for c in player.range.cards[i])
            for i in np.flatnonzero(post > 0)]
    # by hand: 6 pairs of each of 11 ranks, 3 of aces and 3 of kings = 72, each 1/72
    assert len(live) == 72 and all(a[0] == b[0] for a, b in live)
    assert post[post > 0] == pytest.approx(np.full(72, 1 / 72), abs=1e-12)


def test_leduc_action_values_are_the_papers_formulas():
    game = Game("leduc")
    hand = _deal_with(game, 1, "Js")
    player = LbrPlayer(game, RankBot(seed=0), seed=0)
    player.start(hand, 1)
    view = build_view(hand, 0, game_info=player.info)
    assert view.legal is not None
    raise_ = Action(RAISE_KIND, view.legal.min_to)
    player.observe(view, raise_)
    hand.apply(raise_)
    action = player.decide(hand)              # LBR faces a bet before the board
    v = player.last_values
    post = dict(zip([card_str(int(c[0])) for c in player.range.cards],
                    player.range.probabilities().tolist(), strict=True))
    # wp by hand: Js against Jh ties (1/2 the pot) unless the board pairs one of the two
    # kings or queens... enumerate the 4 board cards left for each holding
    deck = ["Jh", "Qh", "Qs", "Kh", "Ks"]
    order = {"J": 0, "Q": 1, "K": 2}

    def share(opp: str, board: str) -> float:
        mine = 10 + order["J"] if board[0] == "J" else order["J"]
        theirs = 10 + order[opp[0]] if board[0] == opp[0] else order[opp[0]]
        return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0

    wp = sum(p * np.mean([share(h, b) for b in deck if b != h])
             for h, p in post.items())
    mine = build_view(hand, 1, game_info=player.info)
    pot, asked = float(mine.pot), float(mine.to_call)
    assert asked > 0
    assert v["wp"] == pytest.approx(wp, abs=1e-12)
    assert v["call"] == pytest.approx(wp * pot - (1 - wp) * asked, abs=1e-12)
    raises = [k for k in v if k.startswith("raise")]
    assert len(raises) == 1
    a = float(int(raises[0].split()[1]) - mine.bets[0])  # over the call; it never folds
    assert v[raises[0]] == pytest.approx(wp * (pot + a) - (1 - wp) * (asked + a), abs=1e-12)
    assert v["fold"] == 0.0
    best = max(("call", *raises, "fold"), key=lambda k: v[k])
    assert action.kind == {"call": CALL_KIND, "fold": FOLD_KIND}.get(best, RAISE_KIND)


# Hold'em ---------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["call", "random"])
def test_fixed_limit_holdem_lbr_beats_call_and_random(spec):
    r = lbr_value("holdem", {"betting": "fixed_limit"}, spec, 200, seed=7)
    lo, hi = r["ci95"]
    assert r["betting"] == "fixed_limit" and r["hands"] == 200
    assert 0 < lo < r["lbr_mbb_per_hand"] < hi, r


def test_always_fold_loses_exactly_750_mbb_per_hand_at_no_limit():
    # the anchor: LBR raises its small blind (the bot folds the big blind) and
    # takes the small blind when the bot folds it; (1000 + 500) / 2 mbb, no variance
    r = lbr_value("holdem", {"betting": "no_limit"}, FoldBot(), 20, seed=1)
    assert r["lbr_mbb_per_hand"] == pytest.approx(750.0, abs=1e-9)
    assert r["ci95"] == pytest.approx([750.0, 750.0], abs=1e-9)


# The command and the bench ----------------------------------------------------------
def test_the_command_prints_the_lbr_document_over_a_subprocess():
    out = subprocess.run(
        [sys.executable, "-m", "pokerarena.cli", "exploit", "--variant", "holdem",
         "--betting", "fixed_limit", "--bot", "call", "--hands", "20", "--seed", "3",
         "--json"], capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    for key in ("method", "lbr_mbb_per_hand", "ci95", "hands", "units",
                "hands_per_second"):
        assert key in doc
    assert doc["method"] == "lbr" and doc["hands"] == 20 and len(doc["ci95"]) == 2
    bad = subprocess.run(
        [sys.executable, "-m", "pokerarena.cli", "exploit", "--variant", "holdem",
         "--bot", "pokerarena.bots.base:BaseBot", "--hands", "4"], capture_output=True,
        text=True, timeout=300, check=False)
    assert bad.returncode == 2 and bad.stdout == ""
    lines = bad.stderr.strip().splitlines()
    assert len(lines) == 1 and "declares no policy" in lines[0], bad.stderr


def test_bad_input_is_one_line_and_status_2(capsys):
    assert "at least 1" in exploit_error(capsys, "--variant", "holdem", "--bot", "call",
                                      "--hands", "0")
    assert "non-negative" in exploit_error(capsys, "--variant", "holdem", "--bot", "call",
                                        "--hands", "2", "--seed", "-1")
    assert "nosuchbot" in exploit_error(capsys, "--variant", "holdem", "--bot", "nosuchbot",
                                     "--hands", "2")
    assert "face down" in exploit_error(capsys, "--variant", "stud7", "--bot", "call",
                                     "--hands", "2")
    assert "--method lbr" in exploit_error(capsys, "--variant", "leduc", "--bot", "call",
                                        "--hands", "2")
    # Leduc by LBR on request, the exact path unchanged without it
    assert main(["exploit", "--variant", "leduc", "--method", "lbr", "--bot", "call",
                 "--hands", "40", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["method"] == "lbr"
    assert main(["exploit", "--variant", "leduc", "--bot", "call", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "exploitability": pytest.approx(1.4666666666666668, abs=1e-12),
        "units": "chips per hand", "method": "exact"}


def test_bench_lbr_prints_its_cases(capsys):
    assert main(["bench", "lbr", "--case", "fixed_limit:call", "--case", "no_limit:random",
                 "--hands", "4", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["benchmark"] == "lbr" and len(doc["cases"]) == 2
    for row in doc["cases"]:
        assert row["hands"] == 4 and row["hands_per_second"] > 0 and len(row["ci95"]) == 2


@pytest.mark.parametrize(("betting", "spec"), [("fixed_limit", "tag"), ("no_limit", "lag")])
def test_the_batched_policy_gives_lbr_the_figures_of_one_read_per_holding(betting, spec):
    """A strength bot's compiled batch (every holding at once) and one ``policy`` call
    per holding are the same reads: the same range, the same actions, the same value."""
    fast = lbr_value("holdem", {"betting": betting}, spec, 4, seed=4)
    slow = lbr_value("holdem", {"betting": betting}, spec, 4, seed=4,
                     config=LbrConfig(batch=False))
    assert fast["policy_reads"] == slow["policy_reads"] > 1000
    assert fast["mean"] == slow["mean"] and fast["ci95"] == slow["ci95"]
    bot = make_bot(spec, seed=1)
    game = Game("holdem", {"betting": betting})
    hand = game.new_hand(np.random.default_rng(2), 2, [200, 200], 0)
    view = build_view(hand, hand.to_act)
    holdings = np.array([[0, 5], [12, 51], [8, 9], [50, 51]])
    got = holding_policies(bot, view, holdings)
    want = holding_policies(bot, view, holdings, batch=False)
    assert got.keys() == want.keys() and len(want) > 1
    for key, p in want.items():
        assert np.array_equal(got[key], p), key


def test_the_rollout_rows_complete_the_board_as_argpartition_draws():
    """The compiled rollouts pick, per row, the completion a sort of the row's keys picks
    (the holding's own cards never drawn): the very hands of numpy's argpartition."""
    from pokerarena.solvers.lbr import _rollout_rows

    rng = np.random.default_rng(5)
    deck = rng.permutation(52).astype(np.uint8)
    mine, board, rest = deck[:2], deck[2:5], deck[5:]
    holes = np.array([rng.choice(rest, 2, replace=False) for _ in range(300)], np.uint8)
    for nb in (0, 1, 2):
        keys = rng.random((300, rest.size))
        me, opp = _rollout_rows(keys, rest, nb, mine, board, holes)
        blocked = (rest[None, :, None] == holes[:, None, :]).any(axis=2)  # row's own
        picks = np.argsort(np.where(blocked, 2.0, keys), axis=1)[:, :nb]
        tails = rest[picks]
        assert np.array_equal(np.sort(me, axis=1), np.sort(np.hstack(
            [np.broadcast_to(mine, (300, 2)), np.broadcast_to(board, (300, 3)), tails]),
            axis=1))
        assert np.array_equal(np.sort(opp, axis=1), np.sort(np.hstack(
            [holes, np.broadcast_to(board, (300, 3)), tails]), axis=1))
        assert not (tails[:, :, None] == holes[:, None, :]).any()
