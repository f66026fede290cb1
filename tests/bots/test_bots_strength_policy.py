"""The strength bots (``rock``, ``tag``, ``lag``, ``equity``) declare their policy:
``policy(view)`` is the distribution ``act(view)`` draws from, conditioned on the bot's
private state (its Monte-Carlo generator and per-hand memo), over its one coin, the
bluff. The tests bring each bot to real decisions of several games by playing, then
sample ``act`` many times from the very same private state (put back before each
draw, while the bluff coin's generator runs on) and compare the counts with the
declaration by a chi-square test; they check that asking for the policy changes
nothing of the bot's play, and that the probabilities are exactly the style's."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import numpy as np
import pytest
from policy_stats import pearson
from scipy.stats import chi2

from pokerarena.arena.faults import FaultPolicy
from pokerarena.arena.match import play_match
from pokerarena.arena.views import build_view
from pokerarena.bots.base import DeclaresPolicy, canonical_action, declared_policy
from pokerarena.bots.registry import make_bot
from pokerarena.engine import Game
from pokerarena.engine.actions import CALL_KIND, RAISE_KIND, Action

# (variant, options, the bots seated - every seat's decisions are tested -, and the
# kinds of decision the game must have met besides fold, check/call and bet/raise)
GAMES = {
    "nl_holdem": ("holdem", {"betting": "no_limit"}, ("lag", "tag"), ()),
    "fl_holdem": ("holdem", {"betting": "fixed_limit"}, ("tag", "lag", "equity"), ()),
    "plo": ("omaha", {"betting": "pot_limit"}, ("lag", "rock"), ()),
    "stud7": ("stud7", {}, ("lag", "tag", "rock"), ("pb",)),  # bring-in
    "stud5_choice": ("stud5", {"last_card_choice": True}, ("lag", "tag"), ("dd",)),
    "stud_mexican": ("stud_mexican", {}, ("tag", "lag"), ("ex",)),  # turn-ups
    "draw5": ("draw5", {}, ("lag", "equity"), ("sd",)),  # discards
    "omaha_hilo": ("omaha_hilo", {}, ("lag", "tag"), ()),
    "stud7_hilo_declare": ("stud7_hilo", {"hilo": "declare_in_turn"}, ("lag", "equity"),
                           ("dc",)),  # declarations
}
MIXED_SPOTS = 10   # decisions per game where the coin matters (two actions declared)
MIXED_SAMPLES = 300
SURE_SAMPLES = 8   # draws at a decision declared certain (each must be that action)
ALPHA = 1e-4


def _draw_act(bot: Any, view: Any, n: int) -> Counter:
    """``n`` draws of ``act(view)``, each from the bot's present private state: its
    Monte-Carlo generator and its memo are put back before every draw (and at the end),
    while the bluff coin's generator runs on, as it does from decision to decision."""
    mc, memo, hand = bot.mc_rng.getstate(), copy.deepcopy(bot._memo), bot._memo_hand
    counts: Counter = Counter()
    for _ in range(n):
        bot.mc_rng.setstate(mc)
        bot._memo, bot._memo_hand = copy.deepcopy(memo), hand
        counts[canonical_action(bot.act(view))] += 1
    bot.mc_rng.setstate(mc)
    bot._memo, bot._memo_hand = memo, hand
    return counts


def _declared(bot: Any, view: Any) -> dict:
    """The declaration as a dict, checked for form: distinct canonical actions with
    probabilities > 0 summing to 1."""
    dist = declared_policy(bot)(view)
    probs: dict = {}
    for action, p in dist:
        assert p > 0 and canonical_action(action) == action, (action, p)
        assert action not in probs, "an action declared twice"
        probs[action] = p
    assert sum(probs.values()) == pytest.approx(1.0, abs=1e-12)
    return probs


def _halved(probs: dict, bluff: float) -> dict:
    """A wrong declaration for the power check: the bluff's share halved."""
    return {a: (p / 2 if p == bluff else p + bluff / 2) for a, p in probs.items()}


def _play_and_test(game_id: str, seed: int) -> dict[str, Any]:
    """Play hands of ``game_id`` with its bots, testing decisions on the way: the first
    of each set of legal kinds, and up to :data:`MIXED_SPOTS` where two actions are
    declared. Returns the pooled statistics (also against the halved bluff share)."""
    variant, options, names, _ = GAMES[game_id]
    game = Game(variant, options)
    n = len(names)
    bots = [make_bot(name, seed=seed + s) for s, name in enumerate(names)]
    rng = np.random.default_rng(seed)
    seen: set = set()
    stat = wrong = 0.0
    dof = mixed = 0
    worst = 1.0
    for h in range(400):
        if mixed >= MIXED_SPOTS and h >= 20:
            break
        hand = game.new_hand(rng, n, [200] * n, h % n)
        while not hand.is_over:
            seat = hand.to_act
            view = build_view(hand, seat)
            bot = bots[seat]
            first = (bot.name, view.legal.kinds) not in seen
            probs = _declared(bot, view) if first or mixed < MIXED_SPOTS else None
            if probs is not None and (first or len(probs) > 1):
                seen.add((bot.name, view.legal.kinds))
                two = len(probs) > 1
                samples = MIXED_SAMPLES if two else SURE_SAMPLES
                counts = _draw_act(bot, view, samples)
                assert set(counts) <= set(probs), (game_id, view.legal, counts, probs)
                if two:
                    mixed += 1
                    s, k = pearson(counts, probs, samples)
                    stat += s
                    dof += k
                    worst = min(worst, float(chi2.sf(s, k)))
                    wrong += pearson(counts, _halved(probs, bot.style.bluff), samples)[0]
            hand.apply(bot.act(view))
    return {"mixed": mixed, "stat": stat, "dof": dof, "worst": worst, "wrong": wrong,
            "kinds": {kind for _, kinds in seen for kind in kinds}}


@pytest.mark.parametrize("game_id", list(GAMES))
def test_act_draws_from_the_declared_policy(game_id):
    got = _play_and_test(game_id, seed=7 + 100 * list(GAMES).index(game_id))
    assert set(GAMES[game_id][3]) <= got["kinds"], got["kinds"]
    assert got["mixed"] >= MIXED_SPOTS // 2, got  # spots where the bluff changes the move
    p = float(chi2.sf(got["stat"], got["dof"]))
    assert p > ALPHA, (game_id, got)
    assert got["worst"] > ALPHA / 100, (game_id, got)
    # the same counts reject a declaration that halves the bluff's share: the test has power
    assert float(chi2.sf(got["wrong"], got["dof"])) < ALPHA, (game_id, got)


def _asking(bot: Any) -> Any:
    """``bot`` with ``policy(view)`` asked right before each ``act(view)`` (as AIVAT
    does); the asking must leave the generators and the memo as they were, and the
    action played must be one the policy declared."""
    plain = bot.act

    def act(view: Any) -> Action:
        before = (bot.rng.getstate(), bot.mc_rng.getstate(), bot._memo_hand,
                  dict(bot._memo), bot._prof)
        probs = _declared(bot, view)
        after = (bot.rng.getstate(), bot.mc_rng.getstate(), bot._memo_hand,
                 dict(bot._memo), bot._prof)
        assert before == after
        action = plain(view)
        assert canonical_action(action) in probs
        return action

    bot.act = act
    return bot


@pytest.mark.parametrize(("variant", "options", "names", "hands"), [
    ("holdem", {"betting": "no_limit"}, ("tag", "lag"), 60),
    ("holdem", {"betting": "fixed_limit"}, ("equity", "lag", "rock"), 30),
    ("draw5", {}, ("lag", "equity"), 40),
    ("stud7_hilo", {"hilo": "declare_in_turn"}, ("tag", "lag"), 20),
], ids=["nl_holdem", "fl_holdem_3", "draw5", "stud7_hilo_declare"])
def test_asking_for_the_policy_changes_no_play(variant, options, names, hands):
    """A seeded match plays the same, action for action, whether or not each bot is
    asked its policy before every decision, and leaves the bots in the same state."""
    game = Game(variant, options)
    runs = []
    for ask in (False, True):
        bots = [make_bot(name, seed=40 + j) for j, name in enumerate(names)]
        if ask:
            bots = [_asking(b) for b in bots]
        played: list = []
        res = play_match(game, bots, hands, seed=5, duplicate=True,
                         policy=FaultPolicy(decision_time=None, hand_time=None),
                         on_decision=lambda d, out=played: out.append(
                             (d.hand_no, d.seat, d.action)))
        assert res.faults == []
        runs.append((played, [(b.rng.getstate(), b.mc_rng.getstate(),
                               getattr(b, "aggression", None)) for b in bots]))
    assert len(runs[0][0]) > 3 * hands
    assert runs[0] == runs[1]


@pytest.mark.parametrize("name", ["lag", "tag", "rock", "equity"])
def test_the_probabilities_are_exactly_the_styles(name):
    """Where the coin changes the move, the bluff has exactly ``style.bluff`` (and it
    bets or raises); elsewhere the one action has exactly 1. ``rock`` and ``equity``
    never bluff: every declaration is one sure action."""
    game = Game("holdem", {"betting": "no_limit"})
    bots = [make_bot(name, seed=1), make_bot("call", seed=2)]
    bluff = bots[0].style.bluff
    rng = np.random.default_rng(2)
    mixed = 0
    for h in range(40):
        hand = game.new_hand(rng, 2, [200, 200], h % 2)
        while not hand.is_over:
            view = build_view(hand, hand.to_act)
            bot = bots[hand.to_act]
            if bot is bots[0]:
                dist = bot.policy(view)
                if len(dist) == 1:
                    assert dist[0][1] == 1.0
                else:
                    mixed += 1
                    probs = sorted(dist, key=lambda ap: ap[1])
                    assert [p for _, p in probs] == [bluff, 1.0 - bluff]
                    assert probs[0][0].kind == RAISE_KIND
            hand.apply(bot.act(view))
    assert mixed > 5 if bluff > 0 else mixed == 0


def test_a_view_with_nothing_to_decide_and_the_protocol():
    game = Game("holdem", {"betting": "no_limit"})
    hand = game.new_hand(np.random.default_rng(1), 2, [200, 200], 0)
    view = build_view(hand, hand.to_act)._replace(legal=None)
    for name in ("rock", "tag", "lag", "equity"):
        bot = make_bot(name, seed=3)
        assert isinstance(bot, DeclaresPolicy)
        assert bot.policy(view) == [(Action(CALL_KIND), 1.0)]
        assert bot.act(view) == Action(CALL_KIND)
