"""The table engine: ``Game(variant, options).new_hand(seed, seats, stacks, button)``.

A :class:`Hand` exposes ``to_act``, ``legal_actions()``, ``apply(action)``,
``observation(seat)``, ``is_over``, ``result()`` and its action ``log``; dealing and
forced bets are automatic and every random choice comes from the caller's seeded
``numpy.random.Generator``. PHH hand histories: :mod:`pokerarena.engine.phh`.

The action vocabulary is imported with the package; the game and the hand (with the
evaluator and its compiled kernels behind them) on first use (PEP 562), so a process
that only names actions (a game family's worker, the CLI) never loads them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from pokerarena.engine.game import Game, GameOptions, parse_option_value
    from pokerarena.engine.hand import Hand, HandResult, Observation, Pot
    from pokerarena.engine.knock import KnockHand

_LAZY = {"Game": "game", "GameOptions": "game", "parse_option_value": "game",
         "Hand": "hand", "HandResult": "hand", "Observation": "hand", "Pot": "hand",
         "KnockHand": "knock"}


def __getattr__(name: str) -> Any:
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{where}"), name)


__all__ = [
    "BRING_IN", "CHECK_CALL", "DEALER", "FOLD", "MUCK", "UNKNOWN", "Action", "EngineError",
    "IllegalAction", "Legal", "bet_to", "discard", "show", "Game", "GameOptions",
    "parse_option_value", "Hand", "HandResult", "KnockHand", "Observation", "Pot",
]
