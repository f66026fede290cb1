"""The table engine: ``Game(variant, options).new_hand(seed, seats, stacks, button)``.

A :class:`Hand` exposes ``to_act``, ``legal_actions()``, ``apply(action)``,
``observation(seat)``, ``is_over``, ``result()`` and its action ``log``; dealing and
forced bets are automatic and every random choice comes from the caller's seeded
``numpy.random.Generator``. PHH hand histories: :mod:`pokerarena.engine.phh`.
"""

from pokerarena.engine.actions import (
    BRING_IN,
    CHECK_CALL,
    DEALER,
    FOLD,
    MUCK,
    UNKNOWN,
    Action,
    EngineError,
    IllegalAction,
    Legal,
    bet_to,
    discard,
    show,
)
from pokerarena.engine.game import Game, GameOptions, parse_option_value
from pokerarena.engine.hand import Hand, HandResult, Observation, Pot
from pokerarena.engine.knock import KnockHand  # registers the knock poker family

__all__ = [
    "BRING_IN", "CHECK_CALL", "DEALER", "FOLD", "MUCK", "UNKNOWN", "Action", "EngineError",
    "IllegalAction", "Legal", "bet_to", "discard", "show", "Game", "GameOptions",
    "parse_option_value", "Hand", "HandResult", "KnockHand", "Observation", "Pot",
]
