"""The score sheet of a game of painted poker: one record per deal, and the result.

«В таблице в общем столбце нумеруются раунды. У каждого игрока есть два столбца: в один
записывается количество взяток (заказов), во второй — набранные очки.»
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pokerarena.cards import SUITS, card_str


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
