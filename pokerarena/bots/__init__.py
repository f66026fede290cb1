"""Bots: the ``Bot`` protocol and the built-in ``random`` and ``call`` bots.

A bot answers ``act(observation) -> Action``; ``start_match`` and ``end_hand`` are
optional hooks. This is the minimal module the engine's ``play`` command needs; the bot
league (external bots, adapters, stronger built-ins) extends it.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from pokerarena.engine.actions import (
    BRING_IN,
    BRING_IN_KIND,
    CALL_KIND,
    CHECK_CALL,
    DECLARE_KIND,
    DISCARD_KIND,
    EXPOSE_KIND,
    FOLD_KIND,
    RAISE_KIND,
    SHOW_KIND,
    Action,
    Legal,
)
from pokerarena.engine.hand import Observation


class Bot(Protocol):
    """What the table needs from a bot."""

    name: str

    def act(self, observation: Observation) -> Action:
        """The bot's action for the observation's legal actions."""
        ...


class CallBot:
    """Checks or calls; posts the bring-in; stands pat; shows at showdown."""

    name = "call"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: Observation) -> Action:
        """Check/call whenever possible."""
        legal = observation.legal
        if legal is None:
            return CHECK_CALL
        kinds = legal.kinds
        if CALL_KIND in kinds:
            return CHECK_CALL
        if BRING_IN_KIND in kinds:
            return BRING_IN
        return default_action(legal, observation.hole, observation.up[observation.seat])


class RandomBot:
    """Uniform over the legal action kinds, then uniform over amounts / discards."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> Action:
        """A random legal action."""
        legal = observation.legal
        if legal is None:
            return Action(CALL_KIND)
        rng = self.rng
        kind = rng.choice(legal.kinds)
        if kind == RAISE_KIND:
            if legal.choices:
                return Action(RAISE_KIND, rng.choice(legal.choices))
            return Action(RAISE_KIND, rng.randint(legal.min_to, legal.max_to))
        if kind == DISCARD_KIND:
            k = rng.randint(legal.discard_min, legal.discard_max)
            return Action(DISCARD_KIND, 0, tuple(rng.sample(observation.hole, k)))
        if kind == SHOW_KIND:
            return Action(SHOW_KIND, 0, tuple(observation.hole))
        if kind == EXPOSE_KIND:
            up = set(observation.up[observation.seat])
            down = [c for c in observation.hole if c not in up]
            return Action(EXPOSE_KIND, 0, tuple(rng.sample(down, legal.discard_min)))
        if kind == DECLARE_KIND:
            return Action(DECLARE_KIND, rng.choice((1, 2, 3)))
        return Action(kind)


def default_action(legal: Legal, hole: list[int], up_cards=()) -> Action:
    """The passive legal action: bring-in, check/call, stand pat, show, turn up the first
    down cards, declare high; else fold."""
    kinds = legal.kinds
    if BRING_IN_KIND in kinds:
        return Action(BRING_IN_KIND)
    if CALL_KIND in kinds:
        return Action(CALL_KIND)
    if DISCARD_KIND in kinds:
        return Action(DISCARD_KIND, 0, tuple(hole[:legal.discard_min]))
    if SHOW_KIND in kinds:
        return Action(SHOW_KIND, 0, tuple(hole))
    if EXPOSE_KIND in kinds:
        up = set(up_cards)
        return Action(EXPOSE_KIND, 0, tuple([c for c in hole if c not in up][:legal.discard_min]))
    if DECLARE_KIND in kinds:
        return Action(DECLARE_KIND, 1)
    if FOLD_KIND in kinds:
        return Action(FOLD_KIND)
    return Action(kinds[0]) if kinds else Action(CALL_KIND)


BUILTIN_BOTS: dict[str, Any] = {"call": CallBot, "random": RandomBot}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A built-in bot by name."""
    cls = BUILTIN_BOTS.get(name)
    if cls is None:
        raise ValueError(f"unknown bot {name!r}; built-in bots: {', '.join(BUILTIN_BOTS)}")
    return cls(seed)
