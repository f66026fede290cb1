"""Duplicate twins' all-ins settled together (issue 25, finding 2).

The hands of one duplicate deal hold the same cards in every seating; the recorder
settles their all-in runouts at the deepest board any of them depends on, every hole
card of the deal dead, the Monte Carlo boards seeded by the deal
(``variance.settle_deal``), so the board luck the twins share cancels as duplicate
intends. Settled hand by hand (each at its own all-in point, boards seeded by the
hand), one twin's luck was replaced and its twin's was not.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pytest

from pokerarena.arena.match import play_match
from pokerarena.evaluator.equity import equity
from pokerarena.tournaments.variance import allin_board, equity_deltas
from pokerarena.workers.gamecols import EQUITY_SAMPLES
from pokerarena.workers.records import GameCache, UnitRecorder, play_unit, unit_table
from pokerarena.workers.rows import SEATS
from pokerarena.workers.unit import Unit

CACHE = GameCache()


def _unit(bots: tuple[str, ...], hands: int, seed: int, duplicate: bool = True,
          variant: str = "holdem", betting: str = "no_limit") -> Unit:
    return Unit(unit_id="u", index=0, match=2, shard=0, variant=variant, betting=betting,
                options={"betting": betting}, bots=bots, hands=hands, first_hand=0,
                seed=seed, spawn_key=(2, 0), duplicate=duplicate, run_id="r")


def _played(unit: Unit) -> tuple[list[Any], pa.Table]:
    """The unit's hands and its seats rows, by the recorder ``play_unit`` uses."""
    t = unit_table(unit, CACHE)
    rec = UnitRecorder(unit, t.game, t.stack, None)
    hands: list[Any] = []

    def on_hand(no: int, hand: Any, seat_of: list[int]) -> None:
        hands.append(hand)
        rec.on_hand(no, hand, seat_of)

    play_match(t.game, t.entrants, unit.hands, t.table_seed, policy=t.policy,
               duplicate=unit.duplicate, stack=t.stack, match_no=unit.match,
               on_hand=on_hand, on_decision=rec.on_decision, deal_seed=unit.deal_seed())
    return hands, SEATS.table(rec.seats)


def _entrant_rows(d: int) -> list[list[int]]:
    """Each entrant's two seat rows of the heads-up deal starting at hand ``d``: seat
    ``j`` in the first seating, the other seat in the second."""
    return [[2 * d + j, 2 * (d + 1) + 1 - j] for j in range(2)]


def _depth(hand: Any) -> int:
    board = allin_board(hand)
    return len(board) if board is not None else len(hand.board)


def _flop_settled(hand: Any) -> list[float]:
    """The hand's deltas with each pot paid by the exact equity given the flop (heads-up:
    the two live hands are every hole card of the deal)."""
    res = hand.result()
    holes = [hand.cards_of(s) for s in range(2)]
    eq = [p.equity for p in equity(holes, list(hand.board[:3]), "holdem", exact=True).players]
    out = [float(d) for d in res.deltas]
    for pot in res.pots:
        for s, v in pot.winners.items():
            out[s] -= float(v)
        out[0] += float(pot.amount) * eq[0]
        out[1] += float(pot.amount) * eq[1]
    return out


def test_twins_all_in_at_different_streets_are_settled_at_the_flop_they_share() -> None:
    unit = _unit(("maniac", "tag"), 60, 1)
    hands, seats = _played(unit)
    eq = seats.column("equity_net").to_pylist()
    net = seats.column("net").to_pylist()
    checked = 0
    for d in range(0, len(hands), 2):
        twins = hands[d:d + 2]
        depths = sorted(_depth(h) for h in twins)
        runouts = [h for h in twins if allin_board(h) is not None]
        if depths != [0, 3] or not runouts:
            continue
        seen = min(len(h.board) for h in twins)
        assert twins[0].board[:seen] == twins[1].board[:seen]  # one deck for both
        for k, h in enumerate(twins):
            rows = slice(2 * (d + k), 2 * (d + k) + 2)
            if allin_board(h) is None:  # folded on the flop: its result stands
                assert eq[rows] == [float(x) for x in net[rows]]
                continue
            # settled at the flop, however early this twin went all in
            assert eq[rows] == pytest.approx(_flop_settled(h), abs=1e-3)
            checked += 1
    assert checked >= 2


def test_twins_all_in_before_the_flop_evaluate_the_same_boards() -> None:
    unit = _unit(("maniac", "maniac"), 20, 5)
    hands, seats = _played(unit)
    assert all(allin_board(h) == [] for h in hands)  # all in before the flop, every hand
    eq = seats.column("equity_net").to_pylist()
    net = seats.column("net").to_pylist()
    assert eq != [float(x) for x in net]  # settled, not raw
    for d in range(0, len(hands), 2):
        # each entrant held each seat's cards once, on the same boards: the equities of
        # the two seats add up to one pot, and the entrant's deal to its raw result
        for rows in _entrant_rows(d):
            assert sum(eq[i] for i in rows) == pytest.approx(sum(net[i] for i in rows),
                                                             abs=2e-3)


def test_omaha_twins_evaluate_the_same_boards_with_the_deal_dead() -> None:
    unit = _unit(("maniac", "maniac"), 8, 3, variant="omaha", betting="pot_limit")
    hands, seats = _played(unit)
    eq = seats.column("equity_net").to_pylist()
    net = seats.column("net").to_pylist()
    runout_deals = 0
    for d in range(0, len(hands), 2):
        if not all(allin_board(h) is not None and _depth(h) < 5 for h in hands[d:d + 2]):
            continue
        runout_deals += 1
        assert eq[2 * d:2 * d + 4] != [float(x) for x in net[2 * d:2 * d + 4]]
        for rows in _entrant_rows(d):
            assert sum(eq[i] for i in rows) == pytest.approx(sum(net[i] for i in rows),
                                                             abs=2e-3)
    assert runout_deals >= 1


def test_duplicate_rows_are_settled_by_the_deal_and_the_rest_by_the_hand() -> None:
    from pokerarena.tournaments.variance import settle_deal

    dup = _unit(("tag", "lag"), 40, 3)
    hands, seats = _played(dup)
    assert seats.equals(play_unit(dup, CACHE, fast=False).tables["seats"])
    eq = seats.column("equity_net").to_pylist()
    for d in range(0, len(hands), 2):
        settled = settle_deal(hands[d:d + 2], samples=EQUITY_SAMPLES, seed=d // 2)
        for k, s in enumerate(settled):
            h = hands[d + k]
            want = [float(x) for x in h.result().deltas] if s is None \
                else [round(x, 3) for x in s]
            assert eq[2 * (d + k):2 * (d + k) + 2] == want
    # without duplicate each hand is settled alone, its boards seeded by the hand
    single = _unit(("tag", "lag"), 40, 3, duplicate=False)
    hands, seats = _played(single)
    eq = seats.column("equity_net").to_pylist()
    for no, h in enumerate(hands):
        s = equity_deltas(h, samples=EQUITY_SAMPLES, seed=no) if h.result().showdown \
            else None
        want = [float(x) for x in h.result().deltas] if s is None else [round(x, 3) for x in s]
        assert eq[2 * no:2 * no + 2] == want
