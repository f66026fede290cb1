"""The score sheet of a game of painted poker: one record per deal, and the result.

«В таблице в общем столбце нумеруются раунды. У каждого игрока есть два столбца: в один
записывается количество взяток (заказов), во второй — набранные очки.»
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pokerarena.cards import SUITS, card_str
from pokerarena.games import RecordTable, trick_table


@dataclass(frozen=True)
class DealRecord:
    """One deal on the score sheet: who dealt, the trump, each seat's bid (-1: no
    bidding), tricks, points and running total («В таблице … количество взяток
    (заказов) … набранные очки»)."""

    no: int
    kind: str
    cards: int
    dealer: int
    trump: int
    trump_card: int
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    points: tuple[float, ...]
    totals: tuple[float, ...]


@dataclass(frozen=True)
class PaintedResult:
    """A finished game: each seat's total points and the score sheet."""

    totals: tuple[float, ...]
    deals: tuple[DealRecord, ...]

    @property
    def deltas(self) -> tuple[float, ...]:
        """The protocol's per-seat outcome: here the game's points."""
        return self.totals


SHEET_COLUMNS = ("deal", "kind", "cards", "dealer", "trump", "trump_card", "seat", "bid",
                 "tricks", "points", "total")


def sheet_rows(records: Iterable[DealRecord]) -> list[dict[str, Any]]:
    """One row per deal and seat (:data:`SHEET_COLUMNS`): the document's table, and what
    a ``painted_deals`` storage table would hold (with the run, unit and game ids)."""
    rows = []
    for r in records:
        for s in range(len(r.bids)):
            rows.append({
                "deal": r.no, "kind": r.kind, "cards": r.cards, "dealer": r.dealer,
                "trump": "-" if r.trump < 0 else SUITS[r.trump],
                "trump_card": card_str(r.trump_card) if r.trump_card >= 0 else "",
                "seat": s, "bid": r.bids[s], "tricks": r.tricks[s],
                "points": r.points[s], "total": r.totals[s]})
    return rows


PAINTED_DEALS = RecordTable(
    "painted_deals", "Painted poker: one row per deal and seat of a game, the document's "
    "score sheet («В таблице … количество взяток (заказов) … набранные очки»).", (
        ("deal", "int16", "deal number within the game (0-based)"),
        ("kind", "string", "`ordinary`, `no_trump`, `blind`, `golden`, `misere`, `lobovaya`"),
        ("cards", "int8", "cards dealt to each player"),
        ("dealer", "int8", "the dealer's seat"),
        ("trump", "string", "the trump suit (`s`, `h`, `d`, `c`), `-` without a trump"),
        ("trump_card", "string", "the card that showed the trump, empty when none did"),
        ("seat", "int8", "the seat"),
        ("bid", "int8", "its bid (0: a pass), -1 in deals without bidding"),
        ("tricks", "int8", "tricks it took"),
        ("points", "double", "its points for the deal"),
        ("total", "double", "its running total after the deal"),
    ))
assert tuple(c[0] for c in PAINTED_DEALS.columns) == SHEET_COLUMNS

PAINTED_TRICKS = trick_table(
    "painted_tricks", "Painted poker: one row per card played to a trick, every trick of "
    "every deal of a game in play order («взятка»: who led, the cards, who took it).",
    deal="deal number within the game (0-based), as in `painted_deals`",
    trick="the trick within the deal (0-based)",
    card="the card (`As`); a joker with how it was played: `Jk high`, `Jk low`, leading "
    "with a call `Jk high h`, `Jk low d`, `Jk trumps`")
"""The tricks of a game (``Family.extra["tricks"]``, rows from :meth:`PaintedHand.tricks`)."""


RECORDS = (PAINTED_DEALS, PAINTED_TRICKS)
"""The family's record tables, score record first (:func:`pokerarena.games.record_tables`)."""
