"""Binocle's score sheet: its record table (what the storage layer lists without
importing the game) and a finished game's rows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pokerarena.cards import card_str
from pokerarena.games import RecordTable

if TYPE_CHECKING:
    from pokerarena.games.binocle.game import BinocleHand

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


RECORDS = (RECORD,)
"""The family's record tables, score record first (:func:`pokerarena.games.record_tables`)."""

__all__ = ["RECORD", "RECORDS", "record_rows"]
