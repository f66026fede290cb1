"""American boston («Американский вариант бостона», ``001_…``): four players, a bidding
ladder from the junior-suit proposal to misère, a supporter or none, solo and
independence, the kitty («касса») with its stakes, labets and share-out.

``BostonGame(options).new_hand(seed, 4)`` is one whole game; see :mod:`.game` for the
protocol, :mod:`.rules` for the options and the payments, :mod:`.bots` for the built-in
bots. Rules readings: ``docs/games.md``.
"""

from __future__ import annotations

from pokerarena.games import Family
from pokerarena.games.boston.actions import BostonAction, accept, bid, parse_action, pass_, play
from pokerarena.games.boston.game import BostonGame, BostonHand
from pokerarena.games.boston.rules import BostonError, BostonOptions
from pokerarena.games.boston.sheet import BostonResult, DealRecord
from pokerarena.games.boston.view import BostonView


def family() -> Family:
    """American boston's catalogue entry (see :mod:`pokerarena.games`)."""
    from pokerarena.games.boston.family import boston_family

    return boston_family()


__all__ = ["family", "BostonAction", "BostonError", "BostonGame", "BostonHand",
           "BostonOptions", "BostonResult", "BostonView", "DealRecord", "accept", "bid",
           "parse_action", "pass_", "play"]
