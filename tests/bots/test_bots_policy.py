"""Declared policies: a bot's ``policy(view)`` is exactly the distribution its ``act``
draws from. ``act`` is sampled many times at fixed views of several games (bets of
every amount, discards, turn-ups, declarations, Kuhn and Leduc) and the counts are
compared with the declaration by a chi-square test."""

from __future__ import annotations

import numpy as np
import pytest
from policy_stats import chi_square_p

from pokerarena.arena.views import build_view
from pokerarena.bots.base import DeclaresPolicy, canonical_action, declared_policy
from pokerarena.bots.registry import make_bot
from pokerarena.bots.simple.declared import DeclaredBot
from pokerarena.engine import CHECK_CALL, FOLD, Game, bet_to

GAMES = [("kuhn", {}), ("leduc", {}), ("holdem", {"betting": "fixed_limit"}),
         ("holdem", {"betting": "no_limit"}), ("draw5", {}), ("stud_mexican", {}),
         ("stud7_hilo", {"hilo": "declare_in_turn"}), ("stud5", {"last_card_choice": True})]
SAMPLES = 3000
EXTRA_SPOTS = 2


def spots(variant: str, options: dict, extra: int, seed: int):
    """Views of decisions met while random bots play 60 hands: the first of each set of
    legal kinds (bets, discards, turn-ups, declarations, ...) and ``extra`` more."""
    game = Game(variant, options)
    n = 2 if variant in ("kuhn", "leduc") else 3
    rng = np.random.default_rng(seed)
    players = [make_bot("random", seed=seed + s) for s in range(n)]
    firsts: dict = {}
    others: list = []
    for h in range(60):
        hand = game.new_hand(rng, n, [200] * n, h % n)
        while not hand.is_over:
            seat = hand.to_act
            view = build_view(hand, seat)
            if view.legal.kinds not in firsts:
                firsts[view.legal.kinds] = view
            elif len(others) < extra and rng.random() < 0.05:
                others.append(view)
            hand.apply(players[seat].act(view))
    return list(firsts.values()) + others


def _check(bot, view, samples: int = SAMPLES) -> float:
    dist = declared_policy(bot)(view)
    probs: dict = {}
    for action, p in dist:
        assert p > 0 and canonical_action(action) == action
        assert action not in probs, "a declared action is listed twice"
        probs[action] = p
    assert sum(probs.values()) == pytest.approx(1.0, abs=1e-9)
    counts: dict = {}
    for _ in range(samples):
        a = canonical_action(bot.act(view))
        assert a in probs, f"act drew {a}, which the policy gives no probability"
        counts[a] = counts.get(a, 0) + 1
    return chi_square_p(counts, probs, samples)


@pytest.mark.parametrize(("variant", "options"), GAMES, ids=lambda x: x if isinstance(x, str)
                         else ",".join(f"{k}={v}" for k, v in x.items()))
@pytest.mark.parametrize("name", ["random", "call", "maniac"])
def test_act_draws_from_the_declared_policy(variant, options, name):
    views = spots(variant, options, EXTRA_SPOTS, seed=11)
    assert views
    for i, view in enumerate(views):
        bot = make_bot(name, seed=100 + i)
        assert isinstance(bot, DeclaresPolicy)
        p = _check(bot, view, 50 if name == "call" else SAMPLES)  # call has no coin
        assert p > 1e-4, (variant, view.legal, p)


def test_random_policy_spreads_over_kinds_then_amounts():
    """No limit: each kind 1/k, then each bet amount equally (what act's randint does)."""
    game = Game("holdem", {"betting": "no_limit"})
    hand = game.new_hand(3, 2, [50, 50], 1)
    view = build_view(hand, hand.to_act)
    dist = dict(make_bot("random").policy(view))
    legal = view.legal
    amounts = legal.max_to - legal.min_to + 1
    share = 1 / len(legal.kinds)
    assert dist[FOLD] == pytest.approx(share) and dist[CHECK_CALL] == pytest.approx(share)
    assert dist[bet_to(legal.min_to)] == pytest.approx(share / amounts)
    assert len(dist) == 2 + amounts


def test_a_declared_bot_draws_from_its_function():
    def mixed(view):
        legal = view.legal
        out = [(CHECK_CALL, 0.6)]
        out.append((bet_to(legal.min_to), 0.4) if "cbr" in legal.kinds else (FOLD, 0.4))
        return out

    for view in spots("leduc", {}, 3, seed=4):
        if view.legal.call == 0 and "cbr" not in view.legal.kinds:
            continue
        bot = DeclaredBot(mixed, seed=9)
        assert _check(bot, view) > 1e-4


def test_a_bot_without_the_method_declares_nothing():
    class Mute:
        name = "mute"

        def act(self, view):
            return CHECK_CALL

    assert declared_policy(Mute()) is None
    assert not isinstance(Mute(), DeclaresPolicy)
    for name in ("random", "call", "maniac", "rock", "tag", "lag", "equity"):
        assert isinstance(make_bot(name), DeclaresPolicy), name  # every built-in declares
