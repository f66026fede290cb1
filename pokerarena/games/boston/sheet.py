"""The record of a game of American boston: one record per deal, the result, and the
``boston_deals`` table (one row per deal and seat) the platform stores."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pokerarena.cards import SUITS, card_str
from pokerarena.games import RecordTable, trick_table


@dataclass(frozen=True)
class DealRecord:
    """One deal: its tour and multiplier, the dealer and the turned card, the suits, the
    contract (``""``: all passed), its side, each seat's tricks, chips won or lost in the
    deal (stake, payments, boston, and at the last deal the kitty's share-out), chips
    after it and the kitty after it."""

    no: int
    tour: int
    mult: int
    dealer: int
    turned: int
    senior: int
    junior: int
    contract: str
    declarer: int
    supporter: int
    trump: int
    boston_holder: int
    made: bool
    tricks: tuple[int, ...]
    delta: tuple[float, ...]
    chips: tuple[float, ...]
    kitty: float


@dataclass(frozen=True)
class BostonResult:
    """A game: each seat's chips won or lost (``deltas``), its chips, and every deal."""

    deltas: tuple[float, ...]
    chips: tuple[float, ...]
    deals: tuple[DealRecord, ...]


def _suit(s: int) -> str:
    return SUITS[s] if s >= 0 else "-"


RECORD = RecordTable(
    "boston_deals", "one row per deal of a game of American boston and seat",
    (("deal", "int16", "the deal's number in the game, from 0"),
     ("tour", "int16", "its tour, from 0 (a tour: a deal by each player)"),
     ("double", "bool", "a double tour (every payment fixed in chips doubled)"),
     ("dealer", "int8", "the dealer's seat"),
     ("turned", "string", "the dealer's last card, turned up"),
     ("senior", "string", "the game's senior suit"),
     ("junior", "string", "this deal's junior suit, '-' when the senior was turned"),
     ("contract", "string", "the contract played, '' when all four passed"),
     ("declarer", "int8", "the declarer's seat, -1 when passed"),
     ("supporter", "int8", "the supporter's seat, -1 when alone or passed"),
     ("trump", "string", "the trump suit, '-' for none"),
     ("seat", "int8", "the seat of this row"),
     ("role", "string", "declarer, supporter, defender, or passed"),
     ("tricks", "int8", "tricks this seat took"),
     ("made", "bool", "the declaring side kept its contract"),
     ("boston", "bool", "this seat held the boston"),
     ("delta", "double", "chips this seat won (lost: negative) in the deal"),
     ("chips", "double", "this seat's chips after the deal"),
     ("kitty", "double", "chips in the kitty after the deal")))


TRICKS = trick_table(
    "boston_tricks", "one row per card played to a trick in a game of American boston, "
    "every trick of every played deal in play order (a deal all four passed has none).",
    deal="the deal's number in the game, from 0, as in `boston_deals`",
    trick="the trick within the deal, from 0 (13 a deal)")
"""The tricks of a game (``Family.extra["tricks"]``, rows from ``BostonHand.tricks``)."""


def _role(r: DealRecord, seat: int) -> str:
    if not r.contract:
        return "passed"
    if seat == r.declarer:
        return "declarer"
    return "supporter" if seat == r.supporter else "defender"


def record_rows(records: Sequence[DealRecord]) -> list[tuple[Any, ...]]:
    """Rows of :data:`RECORD` for ``records``, in its columns' order."""
    rows = []
    for r in records:
        for s in range(len(r.tricks)):
            rows.append((r.no, r.tour, r.mult == 2, r.dealer, card_str(r.turned),
                         _suit(r.senior), _suit(r.junior), r.contract, r.declarer,
                         r.supporter, _suit(r.trump), s, _role(r, s), r.tricks[s], r.made,
                         r.boston_holder == s, r.delta[s], r.chips[s], r.kitty))
    return rows


RECORDS = (RECORD, TRICKS)
"""The family's record tables, score record first (:func:`pokerarena.games.record_tables`)."""
