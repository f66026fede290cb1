"""The strength bots' batched policy (issue 26 part 2, for LBR in issue 27): the action
probabilities of every holding at one public state, in compiled code, equal to what the
Python ``StrengthBot.policy`` declares for the view with that holding in place of the
bot's hole cards, conditioned on the bot's private state as it stands (its Monte-Carlo
generator and its per-hand equity memo).

The bots play real hands (``act``: their state moves as in a match); at decisions on
every street the batch over a few hundred holdings - random ones, and the bot's own
cards in both orders, where its memo answers - is compared with ``policy`` holding by
holding: the same actions, the same raise totals, probabilities equal to 1e-12. Asking
leaves the bot's state as it was."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from pokerarena.arena.views import build_view
from pokerarena.bots.registry import make_bot
from pokerarena.bots.strength import fastpolicy
from pokerarena.bots.strength.estimate import profile
from pokerarena.engine import Game
from pokerarena.engine.actions import RAISE_KIND
from pokerarena.solvers.exact import move_key

HOLDINGS = 240  # random holdings per spot, besides the bot's own cards in both orders
PER_STREET = 2  # spots per bot and street


def _as_dict(policy: Any) -> dict[tuple[Any, ...], float]:
    out: dict[tuple[Any, ...], float] = {}
    for action, p in policy:
        out[move_key(action)] = out.get(move_key(action), 0.0) + p
    return out


def _holdings(rng: np.random.Generator, view: Any, deck: list[int]) -> list[tuple[int, int]]:
    """The bot's own cards (dealt order, then reversed) and random others off the board."""
    board = set(view.board)
    left = [c for c in deck if c not in board]
    out = [tuple(view.hole), tuple(reversed(view.hole))]
    for _ in range(HOLDINGS):
        a, b = rng.choice(left, size=2, replace=False)
        out.append((int(a), int(b)))
    return out


def _state(bot: Any) -> tuple[Any, ...]:
    return (bot.rng.getstate(), bot.mc_rng.getstate(), copy.deepcopy(bot._memo),
            bot._memo_hand, getattr(bot, "aggression", None))


def _compare(bot: Any, view: Any, holdings: list[tuple[int, int]]) -> dict[str, int]:
    """Batch against ``policy`` holding by holding; what the spot covered."""
    before = _state(bot)
    got = fastpolicy.batch(bot, view, np.array(holdings))
    assert got is not None and len(got) == len(holdings)
    assert _state(bot) == before, "the batch moved the bot's state"
    seen = {"two": 0, "memo": 0, "raise": 0}
    key = (view.hole, view.board, view.up, view.folded)
    if getattr(bot.style, "narrow", False):
        from pokerarena.bots.strength.estimate import raise_counts
        key = (key, raise_counts(view))
    if (view.match_no, view.hand_no) == bot._memo_hand and key in bot._memo:
        seen["memo"] = 1
    table = got.probs()  # fold, check/call, bet/raise
    for h, cards in enumerate(holdings):
        want = _as_dict(bot.policy(view._replace(hole=cards)))
        by_kind = [sum(p for k, p in want.items() if k[0] == kind)
                   for kind in ("f", "cc", "cbr")]
        assert table[h] == pytest.approx(by_kind, abs=1e-12)
        mine = _as_dict(got.policy(h))
        assert mine.keys() == want.keys(), (bot.name, view.board, cards, mine, want)
        for k, p in want.items():
            assert mine[k] == pytest.approx(p, abs=1e-12), (bot.name, cards, mine, want)
            assert got.prob(k[0], k[1])[h] == pytest.approx(p, abs=1e-12)
        seen["two"] += len(want) > 1
        seen["raise"] += any(k[0] == RAISE_KIND for k in want)
    assert _state(bot) == before
    return seen


GAMES = [
    ("fixed_limit", ("tag", "lag"), 11),
    ("fixed_limit", ("equity", "rock"), 12),
    ("no_limit", ("lag", "equity"), 13),
    ("no_limit", ("rock", "tag"), 14),
    ("no_limit", ("tag", "lag", "equity"), 15),  # three seats: two opponents
]


@pytest.mark.parametrize(("betting", "names", "seed"), GAMES)
def test_the_batch_declares_what_policy_declares_for_each_holding(betting, names, seed):
    game = Game("holdem", {"betting": betting})
    profile(game).prepare_preflop(len(names))  # the narrowed pre-flop table, as matches do
    deck = [int(c) for c in game.deck_list]
    n = len(names)
    bots = [make_bot(nm, seed=seed + s) for s, nm in enumerate(names)]
    rng = np.random.default_rng(seed)
    done: dict[tuple[str, int], int] = {}
    seen = {"two": 0, "memo": 0, "raise": 0}
    spots = 0
    for h in range(300):
        if h >= 4 and all(done.get((nm, st), 0) >= PER_STREET
                          for nm in names for st in (0, 3, 4, 5)) and seen["memo"] >= 2:
            break
        hand = game.new_hand(rng, n, [200] * n, h % n)
        while not hand.is_over:
            seat = hand.to_act
            view = build_view(hand, seat, hand_no=h)
            bot = bots[seat]
            spot = (bot.name, len(view.board))  # pre-flop, flop, turn, river
            memo_spot = (view.hole, view.board, view.up, view.folded) in bot._memo
            if done.get(spot, 0) < PER_STREET or (memo_spot and seen["memo"] < 4):
                done[spot] = done.get(spot, 0) + 1
                got = _compare(bot, view, _holdings(rng, view, deck))
                for k in seen:
                    seen[k] += got[k]
                spots += 1
                if got["memo"]:  # the same view of another hand: the memo is not read
                    _compare(bot, view._replace(hand_no=h + 1000), [tuple(view.hole)])
            hand.apply(bot.act(view))
            if hand.is_over:
                for s, b in enumerate(bots):
                    if hasattr(b, "end_hand"):
                        from pokerarena.bots.base import build_summary
                        b.end_hand(build_summary(hand, s, hand_no=h))
    assert all(done.get((nm, st), 0) >= 1 for nm in names for st in (0, 3, 4, 5)), done
    assert seen["two"] > 0 or all(nm in ("rock", "equity") for nm in names), seen
    assert seen["raise"] > 0, seen
    assert spots >= 8 * n


def test_the_memo_answers_for_the_cards_it_is_for():
    """A bot that decided on this street before has its equity remembered for its own
    cards (in the dealt order): the batch reads it for those cards alone, as ``policy``
    does; seen by a memo entry set to an equity that decides otherwise."""
    game = Game("holdem", {"betting": "no_limit"})
    bot, other = make_bot("tag", seed=3), make_bot("lag", seed=4)
    rng = np.random.default_rng(3)
    for h in range(200):
        hand = game.new_hand(rng, 2, [200, 200], h % 2)
        while not hand.is_over:
            view = build_view(hand, hand.to_act, hand_no=h)
            if hand.to_act == 0 and view.board and view.legal.call > 0:
                bot.act(view)  # fills the memo for this view's key
                key = (view.hole, view.board, view.up, view.folded)
                assert key in bot._memo
                mine = [tuple(view.hole), tuple(reversed(view.hole))]
                later = view._replace(hand_no=h + 1)  # the memo is of another hand
                answers = []
                for e in (0.0, 1.0):  # a sure loser, then a sure winner
                    bot._memo[key] = (e, bot.samples)
                    got = fastpolicy.batch(bot, view, np.array(mine))
                    want = [_as_dict(bot.policy(view._replace(hole=c))) for c in mine]
                    assert [_as_dict(got.policy(i)) for i in range(2)] == want
                    other = _as_dict(bot.policy(later))
                    assert _as_dict(fastpolicy.batch(bot, later, np.array(mine[:1])).policy(0)) \
                        == other
                    answers.append((*want, other))
                # the dealt order read the memo (its answer followed the entry); the
                # reversed order and the other hand did not (the same answer both times)
                assert answers[0][0] != answers[1][0]
                assert answers[0][1:] == answers[1][1:]
                return
            hand.apply(other.act(view) if hand.to_act else bot.act(view))
    raise AssertionError("no flop decision facing a bet")  # pragma: no cover


def test_where_the_compiled_policy_does_not_apply_it_says_none():
    omaha = Game("omaha", {"betting": "pot_limit"})
    hand = omaha.new_hand(np.random.default_rng(1), 2, [200, 200], 0)
    view = build_view(hand, hand.to_act)
    assert fastpolicy.batch(make_bot("tag", seed=1), view, np.array([[0, 1]])) is None
    holdem = Game("holdem", {"betting": "no_limit"})
    hand = holdem.new_hand(np.random.default_rng(1), 2, [200, 200], 0)
    view = build_view(hand, hand.to_act)
    tag = make_bot("tag", seed=1)
    tag.bet = lambda *a, **k: None  # a method of its own: not the compiled policy's
    assert fastpolicy.batch(tag, view, np.array([[0, 1]])) is None
    assert fastpolicy.batch(make_bot("call"), view, np.array([[0, 1]])) is None
