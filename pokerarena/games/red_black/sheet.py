"""Red and black's score sheet: its record table (what the storage layer lists without
importing the game) and a finished game's rows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pokerarena.cards import card_str
from pokerarena.games import RecordTable

if TYPE_CHECKING:
    from pokerarena.games.red_black.game import RedBlackHand

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


RECORDS = (RECORD,)
"""The family's record tables, score record first (:func:`pokerarena.games.record_tables`)."""

__all__ = ["RECORD", "RECORDS", "record_rows"]
