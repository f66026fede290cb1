"""Red and black («Красное и черное», ``003_…``): a banking game. The dealer banks; each
player declares red or black with a stake and is dealt five cards face up.

See :mod:`.rules` for the options and the payout, :mod:`.game` for the protocol,
:mod:`.bots` for the built-in bots and :mod:`.edge` for the banker's edge, exact and
simulated. Readings: ``docs/games.md``.
"""

from __future__ import annotations

from typing import Any

from pokerarena.games import lazy_export


def __getattr__(name: str) -> Any:
    """The family's public names (its ``family()``, game, actions, bots, ...), from
    :mod:`.entry` on first use: this package imports nothing of the game (see
    :mod:`pokerarena.games`)."""
    return lazy_export(__name__, name)


__all__ = ["RECORD", "Bet", "BetRecord", "RedBlackError", "RedBlackGame", "RedBlackHand",
           "RedBlackOptions", "RedBlackResult", "RedBlackView", "family", "parse_action",
           "record_rows"]
