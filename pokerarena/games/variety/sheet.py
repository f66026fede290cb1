"""Variety's score record: one record per deal, the game's result, and its Parquet rows.

«Фактически выигранные очки записываются каждому игроку на отдельный счет … Это
делается потому, что в следующих розыгрышах составы пар могут неоднократно
измениться»: the pairs change from deal to deal, so the record is per player.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pokerarena.games import RecordTable, trick_table


@dataclass(frozen=True)
class DealRecord:
    """One deal: who dealt, every bid in order, the contract, the pairs, who led, each
    seat's tricks, plus and minus points (of its own tricks), points and running total."""

    no: int
    dealer: int
    bids: tuple[tuple[int, int], ...]
    contract: int
    attackers: tuple[int, int]
    first_bidder: int
    leader: int
    tricks: tuple[int, ...]
    plus: tuple[int, ...]
    minus: tuple[int, ...]
    attack_lost: bool
    points: tuple[int, ...]
    totals: tuple[int, ...]

    def partner(self, seat: int) -> int:
        """``seat``'s partner in this deal."""
        if seat in self.attackers:
            return self.attackers[1] if seat == self.attackers[0] else self.attackers[0]
        return next(s for s in range(len(self.points)) if s != seat and s not in self.attackers)


@dataclass(frozen=True)
class VarietyResult:
    """A finished game (a tour): each seat's total points and the record of its deals."""

    totals: tuple[int, ...]
    deals: tuple[DealRecord, ...]

    @property
    def deltas(self) -> tuple[float, ...]:
        """The protocol's per-seat outcome: the tour's points."""
        return tuple(float(t) for t in self.totals)


RECORD = RecordTable(
    name="variety_deals",
    doc="one row per deal of a variety tour and seat: the bids, the contract, the pairs, "
        "the tricks and points",
    columns=(
        ("deal", "int16", "the deal's number in the tour, from 0"),
        ("dealer", "int8", "the dealer's seat"),
        ("seat", "int8", "the seat of this row"),
        ("bids", "string", "the contracts this seat named, in order (\"1,5,7\")"),
        ("contract", "int8", "the contract played, 1 to 8 in the document's order"),
        ("attacker", "bool", "this seat is one of the pair that won the bidding"),
        ("partner", "int8", "this seat's partner in the deal"),
        ("first_bidder", "int8", "the seat that first named the contract"),
        ("leader", "int8", "the seat that led the first trick"),
        ("tricks", "int8", "tricks this seat took"),
        ("plus", "int16", "plus points of the cards and tricks this seat took"),
        ("minus", "int16", "minus points of the cards and tricks this seat took"),
        ("attack_lost", "bool", "the attacking pair lost the deal (each defender's bonus)"),
        ("points", "int32", "this seat's points for the deal"),
        ("total", "int32", "this seat's running total after the deal"),
    ))


def record_rows(records: Sequence[DealRecord]) -> list[tuple[Any, ...]]:
    """The rows of :data:`RECORD` for ``records``, in its column order."""
    rows = []
    for r in records:
        for s in range(len(r.points)):
            named = ",".join(str(c) for q, c in r.bids if q == s)
            rows.append((r.no, r.dealer, s, named, r.contract, s in r.attackers,
                         r.partner(s), r.first_bidder, r.leader, r.tricks[s], r.plus[s],
                         r.minus[s], r.attack_lost, r.points[s], r.totals[s]))
    return rows


TRICKS = trick_table(
    "variety_tricks", "one row per card played to a trick in a variety tour, every trick "
    "of every deal in play order.",
    deal="the deal's number in the tour, from 0, as in `variety_deals`",
    trick="the trick within the deal, from 0 (13 a deal)")
"""The tricks of a tour (``Family.extra["tricks"]``, rows from ``VarietyHand.tricks``)."""


RECORDS = (RECORD, TRICKS)
"""The family's record tables, score record first (:func:`pokerarena.games.record_tables`)."""
