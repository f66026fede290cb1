"""American boston's catalogue entry (``family()``) and public names, which the package gives
on first use: its ``__init__`` imports none of the game (see :mod:`pokerarena.games`)."""

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
