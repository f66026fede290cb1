"""Red and black's catalogue entry (``family()``) and public names, which the package gives
on first use: its ``__init__`` imports none of the game (see :mod:`pokerarena.games`)."""

from __future__ import annotations

from typing import Any

from pokerarena.games import Family
from pokerarena.games.red_black.actions import Bet, action_from_json, parse_action
from pokerarena.games.red_black.game import RedBlackGame, RedBlackHand, RedBlackResult
from pokerarena.games.red_black.rules import RedBlackError, RedBlackOptions, rounds_for
from pokerarena.games.red_black.sheet import RECORD, record_rows
from pokerarena.games.red_black.view import BetRecord, RedBlackView


def play(options: dict[str, Any] | None, bots: list[str], games: int,
         seed: int = 0) -> list[tuple[float, ...]]:
    """``games`` games of the named built-in bots (:func:`pokerarena.games.play.play_games`);
    a module function, so the family pickles for remote workers."""
    from pokerarena.games.play import play_games

    return play_games(family(), options, bots, games, seed)


def score_range(game: RedBlackGame, players: int) -> tuple[float, float]:
    """A bet pays at most twice its stake either way, and the banker answers every
    player's bet of every round."""
    o = game.options
    most = 2 * o.top_bet * rounds_for(o, players - 1) * (players - 1)
    return float(-most), float(most)


def family() -> Family:
    """Red and black's catalogue entry (see :mod:`pokerarena.games`)."""
    from pokerarena.games.red_black.bots import BOTS, make_bot

    return Family(
        id="red_black", name=RedBlackGame.name, players=RedBlackGame.players, deck="52|36",
        make=RedBlackGame, play=play, bots=tuple(BOTS), new_bot=make_bot,
        view_json=RedBlackView.as_json, action_json=Bet.as_json,
        parse_action=action_from_json, record=RECORD, record_rows=record_rows,
        score_range=score_range)


__all__ = ["RECORD", "Bet", "BetRecord", "RedBlackError", "RedBlackGame", "RedBlackHand",
           "RedBlackOptions", "RedBlackResult", "RedBlackView", "family", "parse_action", "play",
           "record_rows", "score_range"]
