"""The strength bots' compiled hold'em policy decides exactly as the Python bots do.

Reference matches (``play_match``: the engine, the views, the fault guard, the Python
bots) are played with each bot wrapped to record every view it got and the action it
returned; the compiled policy (:mod:`pokerarena.bots.strength.fastpolicy`), started from
identically seeded bots, then replays each seat's views in order (its ``end_hand`` after
each hand, with the hand's log in the layout's codes) and must return every action the
Python bot returned, and leave the very RNG states and aggression behind.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from pokerarena.arena.match import play_match
from pokerarena.bots.strength import fastpolicy, mtrandom
from pokerarena.bots.strength.estimate import profile
from pokerarena.engine import Game
from pokerarena.engine.fastholdem import layout
from pokerarena.workers.bots import new_bot

KIND = {"blind": layout.L_BLIND, "dh": layout.L_DEAL_HOLE, "db": layout.L_DEAL_BOARD,
        "f": layout.L_FOLD, "cc": layout.L_CALL, "cbr": layout.L_RAISE, "ante": layout.L_ANTE}


def _game(betting: str, variant: str = "holdem") -> Game:
    game = Game(variant, {"betting": betting})
    profile(game).prepare_preflop(9)  # as the tables' warm-up does before a match
    return game


def _reference(game: Game, names: list[str], hands: int, seed: int,
               stack: int | None) -> tuple[list[Any], list[list[Any]], list[Any]]:
    """Play the match; (the bots, each seat's (hand, view, action) in order, each hand's
    log as (actor, kind) pairs)."""
    bots = [new_bot(nm, 7919 * seed + i) for i, nm in enumerate(names)]
    rec: list[list[Any]] = [[] for _ in names]
    logs: list[Any] = []
    for s, bot in enumerate(bots):
        def act(view: Any, orig: Any = bot.act, s: int = s) -> Any:
            action = orig(view)
            v = np.zeros(layout.VLEN, dtype=np.int64)
            fastpolicy.view_array(view, v)
            rec[s].append((len(logs), v, action))
            return action
        bot.act = act
    play_match(game, bots, hands, seed, stack=stack,
               on_hand=lambda _no, hand, _seats: logs.append(
                   [(a, KIND[act.kind]) for a, act in hand.log]))
    return bots, rec, logs


def _replay(game: Game, names: list[str], seed: int, rec: list[list[Any]],
            logs: list[Any]) -> tuple[list[Any], list[str], int]:
    """The compiled policy over the recorded views; (its bots after write_back, the
    mismatches, the decisions replayed)."""
    twins = [new_bot(nm, 7919 * seed + i) for i, nm in enumerate(names)]
    BS = fastpolicy.policy_state(twins, game, len(names))
    at = [0] * len(names)
    bad: list[str] = []
    decisions = 0
    for h, log in enumerate(logs):
        for s in range(len(names)):
            while at[s] < len(rec[s]) and rec[s][at[s]][0] == h:
                _, v, action = rec[s][at[s]]
                at[s] += 1
                got = fastpolicy.decide(BS, v)
                want = (KIND[action.kind], action.amount if action.kind == "cbr" else 0)
                decisions += 1
                if tuple(int(x) for x in got) != want:
                    bad.append(f"hand {h} seat {s} ({names[s]}): {got} != {want}")
        actor = np.asarray([a for a, _ in log], dtype=np.int8)
        kind = np.asarray([k for _, k in log], dtype=np.int8)
        for s in range(len(names)):
            fastpolicy.end_hand(BS, s, actor, kind, 0, len(log))
    fastpolicy.write_back(BS, twins)
    return twins, bad, decisions


MATCHES = [
    ("no_limit", ["tag", "lag", "rock", "equity", "call", "equity"], 120, 3, None),
    ("no_limit", ["equity", "lag"], 150, 6, 30),  # short stacks: all-ins
    ("no_limit", ["equity", "tag", "lag", "equity", "rock", "lag", "call", "tag", "equity"],
     50, 7, 1000),  # nine seats, deep stacks
    ("pot_limit", ["equity", "lag", "tag"], 100, 4, None),
    ("fixed_limit", ["lag", "equity", "rock", "tag"], 100, 5, None),
    ("fixed_limit", ["equity", "call"], 80, 8, None),
    ("holdem_short:no_limit", ["equity", "tag", "lag", "rock"], 80, 9, None),  # short deck
]


@pytest.mark.parametrize(("betting", "names", "hands", "seed", "stack"), MATCHES)
def test_replayed_views_give_the_reference_actions(betting: str, names: list[str],
                                                   hands: int, seed: int,
                                                   stack: int | None) -> None:
    """(``betting``: ``variant:betting`` for another variant than hold'em.) Every
    decision of every seat equals the Python bot's (kind and raise total), and
    the bots' RNG states (bluffs, Monte-Carlo seeds) and the equity bots' aggression
    end where the Python bots' did."""
    variant, _, betting = betting.rpartition(":")
    game = _game(betting, variant or "holdem")
    bots, rec, logs = _reference(game, names, hands, seed, stack)
    twins, bad, decisions = _replay(game, names, seed, rec, logs)
    assert decisions == sum(len(r) for r in rec) > 3 * hands
    assert not bad, f"{len(bad)} of {decisions} decisions differ; first: {bad[:3]}"
    for ref, fast in zip(bots, twins, strict=True):
        assert fast.rng.getstate() == ref.rng.getstate()
        if hasattr(ref, "mc_rng"):
            assert fast.mc_rng.getstate() == ref.mc_rng.getstate()
        assert getattr(fast, "aggression", None) == getattr(ref, "aggression", None)
    raised = [v for r in rec for (_, v, a) in r if a.kind == "cbr"]
    assert raised, "the match never raised: a weak check"


@pytest.mark.parametrize("seed", [0, 1, 42, 2**31 - 1, 2**62 + 12345, 987654321])
def test_mt_replica_draws_as_random_random(seed: int) -> None:
    """``random()`` (53 bits of two outputs) and ``getrandbits(31)``, interleaved across
    several reloads of the 624 words, then the state written back."""
    ref = random.Random(seed)
    ref.random()  # a state part-way through its words
    row = mtrandom.state_of(ref)
    mine = random.Random()
    mtrandom.set_state(mine, row)
    for i in range(1500):
        if i % 3:
            assert mtrandom.random01(row) == ref.random()
        else:
            assert mtrandom.getrandbits31(row) == ref.getrandbits(31)
    mtrandom.set_state(mine, row)
    assert mine.getstate() == ref.getstate()
    assert mine.random() == ref.random()


def test_unsupported_bots_are_named() -> None:
    """Bots the compiled policy does not replay are named (the fast table leaves their
    units to the reference table); the built-in strength bots and ``call`` are not."""
    for name in ("tag", "lag", "rock", "equity", "call"):
        assert fastpolicy.unsupported_bot(new_bot(name, 1)) is None
    assert "random" in (fastpolicy.unsupported_bot(new_bot("random", 1)) or "")
    tag = new_bot("tag", 1)
    tag.bet = lambda *a, **k: None
    assert "methods of its own" in (fastpolicy.unsupported_bot(tag) or "")
    with pytest.raises(ValueError, match="no compiled policy"):
        fastpolicy.policy_state([new_bot("random", 1), new_bot("tag", 2)], _game("no_limit"), 2)
    assert fastpolicy.unsupported_game(Game("omaha", {"betting": "pot_limit"})) is not None
