"""What every row of a unit's ``hands`` table shares, and the all-in settlement's sample
size: one definition for both recorders (the reference table's ``records._Recorder``
and the fast table's ``fastrecord``), which must write the same rows."""

from __future__ import annotations

import json
from typing import Any

from pokerarena.engine import Game
from pokerarena.tournaments.variance import EQUITY_SAMPLES

__all__ = ["EQUITY_SAMPLES", "big_blind_unit", "game_columns"]


def big_blind_unit(game: Game) -> int:
    """The normalising unit of a game: its big blind, else its small bet."""
    return max(game.blinds) if game.blinds and max(game.blinds) > 0 else game.small_bet


def game_columns(options: dict[str, Any], game: Game, stack: int) -> tuple:
    """The ``hands`` columns from ``bb`` to ``options``, the same for every hand of a
    unit."""
    desc = game.describe()
    blinds = list(game.blinds)
    return (big_blind_unit(game), stack, desc["ante"],
            min(b for b in blinds if b) if any(blinds) else 0, max(blinds) if blinds else 0,
            desc["bring_in"], desc["small_bet"], desc["big_bet"], desc["min_bet"],
            desc["max_bet"], game.max_raises, json.dumps(options, sort_keys=True))
