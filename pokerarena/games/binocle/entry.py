"""Binocle's catalogue entry (``family()``) and public names, which the package gives
on first use: its ``__init__`` imports none of the game (see :mod:`pokerarena.games`)."""

from __future__ import annotations

from pokerarena.games import Family
from pokerarena.games.binocle.actions import Move, action_from_json, parse_action
from pokerarena.games.binocle.game import BinocleGame, BinocleHand, BinocleResult
from pokerarena.games.binocle.rules import BinocleError, BinocleOptions
from pokerarena.games.binocle.sheet import RECORD, record_rows
from pokerarena.games.binocle.view import BinocleView


def family() -> Family:
    """Binocle's catalogue entry (see :mod:`pokerarena.games`)."""
    from pokerarena.games.binocle.bots import BOTS, make_bot

    return Family(
        id="binocle", name=BinocleGame.name, players=BinocleGame.players, deck="52",
        make=BinocleGame, bots=tuple(BOTS), new_bot=make_bot,
        view_json=BinocleView.as_json, action_json=Move.as_json,
        parse_action=action_from_json, record=RECORD, record_rows=record_rows)


__all__ = ["RECORD", "BinocleError", "BinocleGame", "BinocleHand", "BinocleOptions",
           "BinocleResult", "BinocleView", "Move", "family", "parse_action", "record_rows"]
