"""The score record of a game of durak: one row per seat.

The document keeps no points, only the loser («Этот игрок считается проигравшим и
зовется "дураком"»), who deals the next game; a row says who dealt and led, the trump,
when each seat went out, whether it was left the durak, and what it cost on the way.
"""

from __future__ import annotations

from typing import Any

from pokerarena.cards import SUITS, card_str
from pokerarena.games import RecordTable, trick_table

RECORD = RecordTable(
    "durak_games", "one row per seat of each finished game of American durak",
    (("deal", "int8", "the deal of the game: always 0 (a game is one deal)"),
     ("seat", "int8", "the seat"),
     ("players", "int8", "players at the table"),
     ("dealer", "int8", "the seat that dealt (in a later game: the last durak)"),
     ("first_attacker", "int8", "the seat that made the first move"),
     ("trump", "string", "the trump suit (c, d, h, s)"),
     ("trump_card", "string", "the card turned for trump"),
     ("place", "int8", "1 for the first out, ...; the durak's place is the table size; "
      "0 when the game ended with nobody left holding cards"),
     ("durak", "bool", "left the last one holding cards: the loser"),
     ("cards_left", "int8", "cards in hand at the end (the durak's)"),
     ("takes", "int16", "how often the seat took the table"),
     ("bouts", "int16", "bouts played in the game"),
     ("points", "double", "the seat's points for the game: -1 for the durak, else 0"),
     ("series_game", "int16", "the game's position in its series: 0 for a first game "
      "(dealer by lot), k for the k-th game after it (dealt by the last durak); -1 when "
      "not given")))


BOUTS = trick_table(
    "durak_bouts", "American durak: one row per move of every bout of a game, in play "
    "order («отбой» or taken: who attacked, the cards thrown and beaten, who took the "
    "table), in the trick-taking families' columns read for bouts.",
    deal="always 0 (a game is one deal), as in `durak_games`",
    trick="the bout within the game (0-based)",
    seq="the move's place in the bout (0: the first attack)",
    seat="the seat that moved",
    card="the move: `throw 7s` (an attack or a throw-in, the defender's to himself "
    "included), `beat 9s`, `take` (the defender takes the table) or `pass` (a thrower "
    "passes)",
    won_by="the defender when he took the table; -1 when the bout was beaten off (the "
    "cards went to the discard)")
"""The bouts of a game (``Family.extra["tricks"]``, rows from ``DurakHand.tricks``)."""


def record_rows(hand: Any) -> list[tuple[Any, ...]]:
    """The finished game's rows, in :data:`RECORD`'s column order."""
    r = hand.result()
    n = hand.players
    rows = []
    for s in range(n):
        place = r.out_order.index(s) + 1 if s in r.out_order else (n if r.durak == s else 0)
        rows.append((0, s, n, hand.dealer, hand.first_attacker, SUITS[hand.trump],
                     card_str(hand.trump_card), place, r.durak == s, len(hand.hands[s]),
                     r.takes[s], r.bouts, r.deltas[s], hand.series_game))
    return rows


RECORDS = (RECORD, BOUTS)
"""The family's record tables, score record first (:func:`pokerarena.games.record_tables`)."""
