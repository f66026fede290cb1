"""Binocle («Биного», ``003_…``): five cards face up to each player, the dealer turns the
stock card by card, a player stakes a card's value on each of his cards of its rank, and
the first with chips on all five takes every stake.

See :mod:`.rules` for the options, :mod:`.game` for the protocol, :mod:`.bots` for the
built-in bots and :mod:`.exact` for exact expectations. Readings: ``docs/games.md``.
"""

from __future__ import annotations

from typing import Any

from pokerarena.cards import card_str
from pokerarena.games import Family, RecordTable
from pokerarena.games.binocle.actions import Move, action_from_json, parse_action
from pokerarena.games.binocle.game import BinocleGame, BinocleHand, BinocleResult
from pokerarena.games.binocle.rules import BinocleError, BinocleOptions
from pokerarena.games.binocle.view import BinocleView

RECORD = RecordTable("binocle_seats", "one row per seat of a finished game", (
    ("seat", "int8", "the seat"),
    ("dealer", "int8", "the dealer's seat"),
    ("cards", "string", "the seat's five cards as text (empty: a dealer who does not play)"),
    ("covered", "int8", "how many of them carry chips at the end"),
    ("staked", "int32", "the seat's chips on the table"),
    ("dropped", "bool", "the seat dropped out"),
    ("won", "bool", "the seat took the stakes (or a share of them)"),
    ("turned", "int16", "cards the dealer turned in the game"),
    ("delta", "double", "the seat's chips won"),
))


def record_rows(hand: BinocleHand) -> list[tuple[Any, ...]]:
    """The finished game's rows, in :data:`RECORD` column order."""
    res = hand.result()
    return [(s, hand.dealer, "".join(card_str(c) for c in hand.hands[s]),
             sum(hand.covered[s]), hand.staked[s], bool(hand.hands[s]) and not hand.active[s],
             s in res.winners, len(hand.turned), res.deltas[s]) for s in range(hand.players)]


def play(options: dict[str, Any] | None, bots: list[str], games: int,
         seed: int = 0) -> list[tuple[float, ...]]:
    """``games`` games of the named built-in bots (:func:`pokerarena.games.play.play_games`);
    a module function, so the family pickles for remote workers."""
    from pokerarena.games.play import play_games

    return play_games(family(), options, bots, games, seed)


def family() -> Family:
    """Binocle's catalogue entry (see :mod:`pokerarena.games`)."""
    from pokerarena.games.binocle.bots import BOTS, make_bot

    return Family(
        id="binocle", name=BinocleGame.name, players=BinocleGame.players, deck="52",
        make=BinocleGame, play=play, bots=tuple(BOTS), new_bot=make_bot,
        view_json=BinocleView.as_json, action_json=Move.as_json,
        parse_action=action_from_json, record=RECORD, record_rows=record_rows)


__all__ = ["RECORD", "BinocleError", "BinocleGame", "BinocleHand", "BinocleOptions",
           "BinocleResult", "BinocleView", "Move", "family", "parse_action", "play", "record_rows"]
