"""Variety («варьете», ``001_…``): four players, eight contracts, pairs made by matching
bids.

``VarietyGame(options).new_hand(seed, 4)`` is one whole tour («Полный тур состоит из
восьми раздач»); see :mod:`.deal` for the bidding and the tricks, :mod:`.rules` for the
contracts, their scoring and the options, and :mod:`.bots` for the built-in bots.
Rules readings: ``docs/games.md``.
"""

from __future__ import annotations

from typing import Any

from pokerarena.games import lazy_export


def __getattr__(name: str) -> Any:
    """The family's public names (its ``family()``, game, actions, bots, ...), from
    :mod:`.entry` on first use: this package imports nothing of the game (see
    :mod:`pokerarena.games`)."""
    return lazy_export(__name__, name)


__all__ = ["family", "CONTRACT_RULES", "DealRecord", "VarietyAction", "VarietyError",
           "VarietyGame", "VarietyHand", "VarietyOptions", "VarietyResult", "VarietyView",
           "action_from_json", "bid", "parse_action", "play"]
