"""Binocle («Биного», ``003_…``): five cards face up to each player, the dealer turns the
stock card by card, a player stakes a card's value on each of his cards of its rank, and
the first with chips on all five takes every stake.

See :mod:`.rules` for the options, :mod:`.game` for the protocol, :mod:`.bots` for the
built-in bots and :mod:`.exact` for exact expectations. Readings: ``docs/games.md``.
"""

from __future__ import annotations

from typing import Any

from pokerarena.games import lazy_export


def __getattr__(name: str) -> Any:
    """The family's public names (its ``family()``, game, actions, bots, ...), from
    :mod:`.entry` on first use: this package imports nothing of the game (see
    :mod:`pokerarena.games`)."""
    return lazy_export(__name__, name)


__all__ = ["RECORD", "BinocleError", "BinocleGame", "BinocleHand", "BinocleOptions",
           "BinocleResult", "BinocleView", "Move", "family", "parse_action", "record_rows"]
