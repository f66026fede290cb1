"""Red and black's catalogue entry (``family()``) and public names, which the package gives
on first use: its ``__init__`` imports none of the game (see :mod:`pokerarena.games`)."""

from __future__ import annotations

from pokerarena.games import Family
from pokerarena.games.red_black.actions import Bet, action_from_json, parse_action
from pokerarena.games.red_black.game import RedBlackGame, RedBlackHand, RedBlackResult
from pokerarena.games.red_black.rules import RedBlackError, RedBlackOptions
from pokerarena.games.red_black.sheet import RECORD, record_rows
from pokerarena.games.red_black.view import BetRecord, RedBlackView


def family() -> Family:
    """Red and black's catalogue entry (see :mod:`pokerarena.games`)."""
    from pokerarena.games.red_black.bots import BOTS, make_bot

    return Family(
        id="red_black", name=RedBlackGame.name, players=RedBlackGame.players, deck="52|36",
        make=RedBlackGame, bots=tuple(BOTS), new_bot=make_bot,
        view_json=RedBlackView.as_json, action_json=Bet.as_json,
        parse_action=action_from_json, record=RECORD, record_rows=record_rows)


__all__ = ["RECORD", "Bet", "BetRecord", "RedBlackError", "RedBlackGame", "RedBlackHand",
           "RedBlackOptions", "RedBlackResult", "RedBlackView", "family", "parse_action",
           "record_rows"]
