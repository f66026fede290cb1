"""Painted poker («расписной покер», ``004_…``): a trick-taking game with bids.

``PaintedGame(options).new_hand(seed, seats)`` is one whole game («партия»); see
:mod:`.game` for the protocol, :mod:`.rules` for the options and the scoring, and
:mod:`.bots` for the built-in bots. Rules readings: ``docs/games.md``.
"""

from __future__ import annotations

from typing import Any

from pokerarena.games import lazy_export


def __getattr__(name: str) -> Any:
    """The family's public names (its ``family()``, game, actions, bots, ...), from
    :mod:`.entry` on first use: this package imports nothing of the game (see
    :mod:`pokerarena.games`)."""
    return lazy_export(__name__, name)


__all__ = ["family", "DealRecord", "PAINTED_DEALS", "PAINTED_TRICKS", "PaintedAction",
           "PaintedError", "PaintedGame", "PaintedHand", "PaintedOptions", "PaintedResult",
           "PaintedView", "bid", "deal_plan", "parse_action", "play", "record_rows"]
