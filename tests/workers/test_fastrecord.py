"""The fast table's rows (pokerarena.workers.fastrecord) against the reference recorder.

Reference units are played by the arena's ``play_match`` with the unit's own pieces
(``unit_table``), their finished hands turned into HandArrays by ``arrays_of``, and the
tables ``unit_tables`` builds from them must equal ``play_unit``'s for the same unit,
column by column, at both record levels.

The rows carry the rules of the seeds' hold'em documents, which the short-stack units
reach: all-ins and side pots (002_3fe54c759dc0410c.txt: «если у игрока нет достаточного
количества фишек, чтобы ответить на ставку, он может пойти ва-банк (All-In). В этом
случае игрок при разделе банка будет иметь право только на долю банка, бывшего на столе
к моменту его последней ставки») and the split pots (000_053e85955f9a4108.txt: «При
равенстве раскладов у двух игроков банк делится пополам между ними»).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

from pokerarena.arena.match import play_match
from pokerarena.engine.fastholdem.arrays import HandArrays
from pokerarena.tournaments.variance import _enumerate, _equities, equity_deltas
from pokerarena.workers.fastrecord import (
    _all_shares,
    _equity_nets,
    _pot_plan,
    _runouts,
    arrays_of,
    unit_tables,
)
from pokerarena.workers.gamecols import EQUITY_SAMPLES
from pokerarena.workers.hooks import UnitObserver
from pokerarena.workers.records import GameCache, play_unit, unit_table
from pokerarena.workers.unit import Unit

CACHE = GameCache()


def _unit(betting: str, bots: tuple[str, ...], hands: int, stack: int | None,
          seed: int, first_hand: int = 0) -> Unit:
    return Unit(unit_id="u-fast", index=0, match=3, shard=1, variant="holdem",
                betting=betting, options={"betting": betting}, bots=bots, hands=hands,
                first_hand=first_hand, seed=seed, spawn_key=(3, 1), stack=stack,
                run_id="run-fast")


class _Evaluations(UnitObserver):
    def __init__(self) -> None:
        self.by_hand: list[int] = []

    def on_hand(self, hand: int, evaluations: int) -> None:
        self.by_hand.append(evaluations)


def _reference_hands(unit: Unit) -> tuple[list[Any], list[dict[int, int]]]:
    """The unit's finished hands as play_unit plays them, and each hand's decision
    streets by log index."""
    t = unit_table(unit, CACHE)
    hands: list[Any] = []
    streets: list[dict[int, int]] = [{}]

    def on_hand(_no: int, hand: Any, _seats: list[int]) -> None:
        hands.append(hand)
        streets.append({})

    play_match(t.game, t.entrants, unit.hands, t.table_seed, policy=t.policy,
               stack=t.stack, match_no=unit.match, deal_seed=unit.deal_seed(),
               on_hand=on_hand,
               on_decision=lambda d: streets[-1].__setitem__(d.index, d.street))
    return hands, streets[:-1]


def _assert_tables_equal(got: dict[str, pa.Table], want: dict[str, pa.Table]) -> None:
    for name in ("hands", "seats", "actions"):
        g, w = got[name], want[name]
        assert g.schema.equals(w.schema), f"{name}: schema {g.schema} != {w.schema}"
        assert g.num_rows == w.num_rows, f"{name}: {g.num_rows} rows, want {w.num_rows}"
        for col in w.column_names:
            a, b = g.column(col), w.column(col)
            if not a.equals(b):
                diff = next(i for i, (x, y) in enumerate(zip(a.to_pylist(), b.to_pylist(),
                                                              strict=True)) if x != y)
                pytest.fail(f"{name}.{col} differs first at row {diff}: "
                            f"{a[diff]} != {b[diff]}")
        assert g.equals(w)


CASES = {
    # 6-max no-limit, 40 big blinds: all-ins, side pots and runouts settled by equity
    "nl-short": ("no_limit", ("tag", "lag", "rock", "equity", "tag", "lag"), 120, 80, 7),
    # 3 seats, 6 big blinds: many all-ins before the flop, blinds all in
    "nl-3-tiny": ("no_limit", ("lag", "call", "equity"), 80, 12, 11),
    "pl-short": ("pot_limit", ("tag", "lag", "call", "equity"), 60, 60, 5),
    "fl": ("fixed_limit", ("tag", "lag", "rock", "call", "equity", "call"), 60, None, 3),
}


@pytest.fixture(scope="module", params=sorted(CASES))
def played(request: pytest.FixtureRequest) -> tuple[Unit, list[Any], list[dict[int, int]]]:
    betting, bots, hands, stack, seed = CASES[request.param]
    unit = _unit(betting, bots, hands, stack, seed, first_hand=hands)
    ref, streets = _reference_hands(unit)
    return unit, ref, streets


@pytest.mark.parametrize("record", ["full", "hands"])
def test_tables_equal_play_units(played: Any, record: str) -> None:
    """Every column of hands, seats and actions is the reference recorder's, and so is
    every hand's count of evaluations."""
    unit, ref, streets = played
    unit = replace(unit, record=record)
    arrays = arrays_of(ref, len(unit.bots), streets)
    t = unit_table(unit, CACHE)
    got, evaluations = unit_tables(unit, t.game, t.stack, arrays, list(unit.bots))
    observer = _Evaluations()
    want = play_unit(unit, CACHE, observer).tables
    _assert_tables_equal(got, want)
    assert evaluations == observer.by_hand
    if record == "hands":
        assert got["actions"].num_rows == 0
    else:
        assert got["actions"].num_rows > 10 * unit.hands


def test_cases_reach_the_rare_rows(played: Any) -> None:
    """The units do reach what the rows compute rarely: showdowns, split pots, and with
    short stacks all-in runouts settled by equity (stacks reset every hand are equal, so
    side pots need the carried stacks of the next test)."""
    unit, ref, streets = played
    arrays = arrays_of(ref, len(unit.bots), streets)
    assert arrays.showdown.any()
    assert ((arrays.pot_won > 0).sum(axis=2) >= 2).any(), "no split pot"
    if unit.stack is not None and unit.stack <= 80:
        t = unit_table(unit, CACHE)
        seats = unit_tables(unit, t.game, t.stack, arrays, list(unit.bots))[0]["seats"]
        net = np.asarray(seats.column("net"))
        eq = np.asarray(seats.column("equity_net"))
        assert (net != eq).any(), "no all-in runout settled by equity"


@pytest.fixture(scope="module")
def carried() -> tuple[Any, list[Any]]:
    """A unit with carried stacks (unequal stacks: side pots) and many all-ins: its game
    and finished hands."""
    unit = replace(_unit("no_limit", ("lag", "call", "equity", "call"), 150, 40, 19),
                   carry_stacks=True)
    t = unit_table(unit, CACHE)
    hands: list[Any] = []
    play_match(t.game, t.entrants, unit.hands, t.table_seed, policy=t.policy,
               stack=t.stack, match_no=unit.match, carry_stacks=True,
               on_hand=lambda _no, hand, _seats: hands.append(hand))
    return t.game, hands


def test_equity_with_side_pots_is_equity_deltas(carried: Any) -> None:
    """Every seat's equity-settled net is ``equity_deltas``'s, rounded as the recorder
    rounds it, side pots included: each pot settled among its own live seats."""
    game, hands = carried
    arrays = arrays_of(hands, 4)
    assert (arrays.npots > 1).sum() >= 3, "no side pots"
    want = []
    for no, hand in enumerate(hands):
        eq = equity_deltas(hand, samples=EQUITY_SAMPLES, seed=no)
        want += ([float(d) for d in hand.result().deltas] if eq is None
                 else [round(x, 3) for x in eq])
    got = _equity_nets(game, arrays, 0).tolist()
    assert got == want
    settled = [h for h in range(len(hands)) if got[4 * h:4 * h + 4] !=
               arrays.deltas[h].astype(float).tolist()]
    assert any(arrays.npots[h] > 1 for h in settled), "no runout with a side pot"


def test_compiled_shares_are_the_equities(carried: Any) -> None:
    """The one compiled pass over every runout gives ``variance._equities``' very floats:
    boards enumerated on the flop and the turn, sampled before the flop, two to four
    players (split pots of 6 and 12 units a board)."""
    _, hands = carried
    arrays = arrays_of(hands, 4)
    jobs = {(h, tuple(live)): board for h, board in _runouts(arrays)
            for _, live in _pot_plan(arrays, h) if len(live) >= 2}
    kinds = {(len(board), len(live)) for (_, live), board in jobs.items()}
    assert {0, 3, 4} <= {b for b, _ in kinds} and {2, 3} <= {p for _, p in kinds}, kinds
    got = _all_shares(arrays, jobs, "holdem", 0)
    for (h, live), board in jobs.items():
        holes = [hands[h].cards_of(s) for s in live]
        exact = _enumerate(len(live), len(board), "holdem", EQUITY_SAMPLES)
        assert got[h, live] == _equities(holes, board, "holdem", exact, EQUITY_SAMPLES, h)


def test_streets_recomputed_as_the_views_give_them(played: Any) -> None:
    """Without the decisions' streets arrays_of counts the board deals before each
    decision: the same streets the views gave."""
    unit, ref, streets = played
    given = arrays_of(ref, len(unit.bots), streets)
    assert np.array_equal(arrays_of(ref, len(unit.bots)).street, given.street)
    assert (given.street >= 3).any()


@pytest.mark.parametrize(("change", "why"), [
    ({"carry_stacks": True}, "carried stacks"), ({"duplicate": True}, "duplicate"),
    ({"baseline": "call"}, "baseline"), ({"variant": "omaha_hilo"}, "low ranking")])
def test_units_outside_the_scope_are_refused(change: dict[str, Any], why: str) -> None:
    """Rows the recorder would build differently (carried stacks' starts and rebuys,
    rotations, baseline nets, low hands) are refused, not built wrong."""
    unit = replace(_unit("no_limit", ("tag", "lag"), 10, None, 1), **change)
    game = CACHE.get(unit.variant, unit.options)
    with pytest.raises(ValueError, match=why):
        unit_tables(unit, game, 200, HandArrays.empty(0, 2, 0), ["tag", "lag"])
    if change == {"baseline": "call"}:  # the same unit without it is in scope
        tables, _ = unit_tables(replace(unit, baseline=None), game, 200,
                                HandArrays.empty(0, 2, 0), ["tag", "lag"])
        assert all(t.num_rows == 0 for t in tables.values())
