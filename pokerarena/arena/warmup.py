"""Warming the strength bots up before a match, outside every time limit.

A strength bot's first decision in a process compiles its numba kernels and builds the
pre-flop table for its number of opponents: seconds on a fresh machine, which must not
count against the bot's time per decision. Tables therefore call :func:`warm_up` before
the first hand: the pre-flop tables that take seconds (Omaha's for every number of
opponents up to the table's, hold'em's against a narrowed range) are built or loaded
(a decision never builds one), then fresh ``tag`` and ``equity`` bots decide at every
street of a throwaway hand (everyone then checks or calls, so that the hand reaches the
showdown; a hand nobody may open is dealt again), once per process and game and number
of seats (by the whole game: ``Game.key``, so an option sweep warms every game up).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from pokerarena.arena.views import ViewMaker
from pokerarena.bots.base import passive_action
from pokerarena.bots.strength.estimate import register_game
from pokerarena.bots.strength.policy import StrengthBot
from pokerarena.engine.actions import CALL_KIND, CHECK_CALL, FOLD_KIND, RAISE_KIND
from pokerarena.engine.game import Game

__all__ = ["SHARED_STEPS", "WARM_UP_STEPS", "warm_shared", "warm_up"]

_DONE: set[tuple[str, int]] = set()  # (Game.key, seats)

WARM_UP_STEPS: tuple[str, ...] = ("evaluator tables and game profile", "pre-flop tables",
                                  "bot kernels (numba)", "throwaway hand (numba)")
"""What :func:`warm_up` prepares, in order (``report`` receives each as it starts)."""


def warm_up(game: Game, bots: Iterable[Any], players: int,
            report: Callable[[int, str], None] | None = None) -> bool:
    """Play the throwaway hands when one of ``bots`` is a strength bot and ``game`` has
    not been warmed up for ``players`` seats in this process; True when it was played.
    ``report(i, step)`` is called as each step of :data:`WARM_UP_STEPS` starts (a
    progress display). Never raises: a warm-up that goes wrong only leaves the work to
    the first decision."""
    if not any(isinstance(b, StrengthBot) for b in bots):
        return False
    lo, hi = game.variant.players
    key = (game.key, players)
    if key in _DONE or not lo <= players <= hi:
        return False
    _DONE.add(key)
    from pokerarena.bots.strength.equity_bot import EquityBot
    from pokerarena.bots.strength.tag import TagBot

    def say(i: int) -> None:
        if report is not None:
            report(i, WARM_UP_STEPS[i])

    try:
        # tables that take seconds to build (Omaha's pre-flop ones), for every number
        # of opponents the table may come down to: decisions only read them
        say(0)
        prof = register_game(game)
        say(1)
        prof.prepare_preflop(players)
        say(2)
        prof.compile_kernels()
        say(3)
        # a hand nobody opens (jackpots) never reaches the draw: deal again
        for seed in range(_HANDS):
            if _throwaway_hand(game, players, seed, TagBot, EquityBot):
                break
    except Exception:  # noqa: BLE001 - the warm-up is an optimisation only
        return False
    return True


SHARED_STEPS: tuple[str, ...] = ("evaluator tables and game profile",
                                 "Monte Carlo kernels (numba)")
"""What :func:`warm_shared` prepares, in order."""


def warm_shared(game: Game, report: Callable[[int, str], None] | None = None) -> None:
    """Prepare what every game's warm-up starts with, and only that: the evaluator
    tables of ``game`` and the Monte Carlo kernels, compiled by a pre-flop table of a
    few deals that is thrown away (never cached nor kept). Run alone before warming
    several games up in parallel, it spares each process compiling the same kernels
    (numba's disk cache serves a process only once another has finished); the games'
    own tables then are the only work left to them."""
    from pokerarena.bots.strength import preflop

    if report is not None:
        report(0, SHARED_STEPS[0])
    prof = register_game(game)
    if report is not None:
        report(1, SHARED_STEPS[1])
    if prof.plan is not None and prof.preflop_table:
        preflop.build(prof.plan, 1, 8)
        preflop.build_narrowed(prof.plan, deals=8)


_HANDS = 20  # throwaway hands at most, until one reaches the showdown


def _throwaway_hand(game: Game, players: int, seed: int, *kinds: Any) -> bool:
    """Deal one hand to fresh bots of ``kinds`` (by turns) who decide at every turn,
    everyone then checking or calling; True when it reached the showdown."""
    hand = game.new_hand(np.random.default_rng(seed), players,
                         [game.variant.stakes.stack] * players, 0)
    seated = [kinds[s % len(kinds)](seed=s) for s in range(players)]
    maker = ViewMaker(hand, hand_no=-1 - seed)
    for _ in range(1000):
        if hand.is_over:
            break
        seat = hand.to_act
        if seat is None or seat < 0:
            return True  # a hand dealt by hand: nothing to warm up
        view = maker.view(seat)
        action = seated[seat].act(view)
        legal = view.legal
        if (legal is not None and action.kind in (FOLD_KIND, RAISE_KIND)
                and CALL_KIND in legal.kinds):
            action = CHECK_CALL  # on to the next street
        try:
            hand.apply(action)
        except Exception:  # noqa: BLE001 - an answer the engine refuses
            hand.apply(passive_action(legal, view.hole))
    return bool(hand.went_to_showdown)
