"""Red and black («Красное и черное», ``003_…``): a banking game. The dealer banks; each
player declares red or black with a stake and is dealt five cards face up.

See :mod:`.rules` for the options and the payout, :mod:`.game` for the protocol,
:mod:`.bots` for the built-in bots and :mod:`.edge` for the banker's edge, exact and
simulated. Readings: ``docs/games.md``.
"""

from __future__ import annotations

from typing import Any

from pokerarena.cards import card_str
from pokerarena.games import Family, RecordTable
from pokerarena.games.red_black.actions import Bet, action_from_json, parse_action
from pokerarena.games.red_black.game import RedBlackGame, RedBlackHand, RedBlackResult
from pokerarena.games.red_black.rules import RedBlackError, RedBlackOptions, rounds_for
from pokerarena.games.red_black.view import BetRecord, RedBlackView

RECORD = RecordTable("red_black_bets", "one row per settled bet (a round and a player)", (
    ("round", "int16", "the round of the game, from 0"),
    ("seat", "int8", "the player's seat"),
    ("banker", "int8", "the banker's (the dealer's) seat"),
    ("colour", "string", "the declared colour, red or black"),
    ("stake", "int32", "the stake in chips"),
    ("cards", "string", "the player's five cards, as text"),
    ("matched", "int8", "how many of them are of the declared colour"),
    ("gain", "int32", "the player's gain; the banker's is its negative"),
))


def record_rows(hand: RedBlackHand) -> list[tuple[Any, ...]]:
    """The finished game's rows, in :data:`RECORD` column order."""
    return [(r.round, r.seat, hand.dealer, r.colour, r.stake,
             "".join(card_str(c) for c in r.cards), r.matched, r.gain)
            for r in hand.settled]


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
