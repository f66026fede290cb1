"""The fast table plays a unit with the reference table's very rows.

A unit of hold'em with the built-in bots goes to the fast table
(:mod:`pokerarena.workers.fasttable`: the rules kernel, the bots' compiled policies and
rows built from arrays); every table it returns must equal the reference's for the same
unit (``play_unit(..., fast=False)``: the engine, the views, the fault guard and the
Python bots), row for row, at both record levels, and so must each entrant's decisions.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pyarrow as pa
import pytest

from pokerarena.errors import UserError
from pokerarena.workers import fasttable
from pokerarena.workers.hooks import UnitObserver
from pokerarena.workers.records import GameCache, play_unit, unit_table
from pokerarena.workers.unit import Unit, UnitLimits

CACHE = GameCache()


def _unit(bots: tuple[str, ...], betting: str = "no_limit", hands: int = 150,
          stack: int | None = None, seed: int = 7, record: str = "full", match: int = 0,
          first_hand: int = 0, deal_key: tuple[int, ...] = ()) -> Unit:
    return Unit(unit_id=f"u{match}", index=match, match=match, shard=0, variant="holdem",
                betting=betting, options={"betting": betting}, bots=bots, hands=hands,
                first_hand=first_hand, seed=seed, spawn_key=(match, 0), stack=stack,
                run_id="fast-test", deal_key=deal_key, record=record)  # type: ignore[arg-type]


def _same(unit: Unit) -> None:
    """The unit's tables and decisions on both tables are equal (column by column, with
    the first differing row named)."""
    t = unit_table(unit, CACHE)
    assert fasttable.unsupported(unit, t.game, t.entrants) is None
    fast = play_unit(unit, CACHE, fast=True)
    ref = play_unit(unit, CACHE, fast=False)
    for name, want in ref.tables.items():
        got = fast.tables[name]
        assert got.schema == want.schema, name
        assert got.num_rows == want.num_rows, (name, got.num_rows, want.num_rows)
        for col in want.column_names:
            a, b = got.column(col).to_pylist(), want.column(col).to_pylist()
            if a != b:
                k = next(i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y)
                row = {c: want.column(c)[k].as_py() for c in want.column_names[:4]}
                raise AssertionError(f"{name}.{col} row {k} {row}: fast {a[k]!r}, "
                                     f"reference {b[k]!r}")
    assert fast.decisions == ref.decisions


CASES = [
    pytest.param(("tag", "lag", "rock", "equity", "tag", "lag"), "no_limit", None,
                 id="6max-nl-strength"),
    pytest.param(("tag", "equity", "lag", "call", "rock", "equity"), "no_limit", 40,
                 id="6max-nl-short-allins"),
    pytest.param(("equity", "lag"), "no_limit", 30, id="headsup-nl-short"),
    pytest.param(("rock", "tag", "equity"), "pot_limit", 60, id="3max-pl"),
    pytest.param(("lag", "tag", "call", "equity", "rock", "lag", "tag", "equity", "call"),
                 "fixed_limit", None, id="9max-fl"),
    pytest.param(("tag", "lag", "equity", "rock"), "fixed_limit", 16, id="4max-fl-short"),
]


@pytest.mark.parametrize(("bots", "betting", "stack"), CASES)
def test_the_fast_table_gives_the_reference_rows(bots: tuple[str, ...], betting: str,
                                                 stack: int | None) -> None:
    _same(_unit(bots, betting, stack=stack))


def test_hands_level_shared_deals_and_later_matches_give_the_reference_rows() -> None:
    """``record = "hands"``, a unit that is not its match's first shard, a later match
    and deals shared across lineups (a tournament's): still the reference's rows."""
    _same(_unit(("equity", "tag", "lag", "rock", "tag", "call"), hands=120,
                record="hands", match=3, first_hand=240, deal_key=(3,), seed=11))


def test_units_the_fast_table_cannot_play_go_to_the_reference_table() -> None:
    """Duplicate deals, a bot it has no policy for, another variant, time limits tight
    enough for a built-in bot to fault (the fault policy is the reference table's):
    named reasons, and
    ``play_unit`` plays them on the reference table (the same rows with fast on)."""
    base = _unit(("tag", "lag"), hands=20)
    cases = {
        "duplicate": dataclasses.replace(base, duplicate=True),
        "random": dataclasses.replace(base, bots=("tag", "random")),
        "omaha": dataclasses.replace(base, variant="omaha"),
        "decision limit": dataclasses.replace(
            base, limits=UnitLimits(decision_seconds=1e-7)),
        "hand limit": dataclasses.replace(base, limits=UnitLimits(hand_seconds=0.5)),
    }
    for word, unit in cases.items():
        t = unit_table(unit, CACHE)
        why = fasttable.unsupported(unit, t.game, t.entrants)
        assert why, word
        assert word.split()[0] in why, (word, why)
        a = play_unit(unit, CACHE, fast=True).tables["seats"]
        b = play_unit(unit, CACHE, fast=False).tables["seats"]
        assert a.equals(b), word


def test_the_environment_switch_sends_units_to_the_reference_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``POKERARENA_FAST_TABLE=0``: the default (``fast=None``) plays on the reference
    table; otherwise on the fast one (either way the same rows)."""
    monkeypatch.setenv(fasttable.ENV, "0")
    assert not fasttable.enabled()
    monkeypatch.setenv(fasttable.ENV, "1")
    assert fasttable.enabled()
    unit = _unit(("tag", "equity", "lag"), hands=40)
    got = play_unit(unit, CACHE).tables["hands"]
    assert isinstance(got, pa.Table) and got.num_rows == 40


def _random_options(rng: random.Random, betting: str) -> dict[str, Any]:
    """A draw of hold'em's table options (RULES.md §4 and the engine's ``GameOptions``):
    stakes, caps, the reopening rules, the odd chip, antes, free folds."""
    opts: dict[str, Any] = {"betting": betting}
    pick = rng.random
    if pick() < 0.4:
        sb = rng.choice((1, 2, 5))
        opts["blinds"] = [sb, sb * rng.choice((2, 3))]
    if pick() < 0.3:
        opts["ante"] = rng.choice((1, 2))
        if pick() < 0.5:
            opts["ante_by"] = rng.choice(("all", "dealer", "big_blind"))
    if betting == "fixed_limit" and pick() < 0.5:
        opts["max_raises"] = rng.choice((1, 2, 4, "none"))
        if pick() < 0.5:
            opts["heads_up_max_raises"] = rng.choice((2, "none"))
        opts["half_bet_reopens"] = pick() < 0.5
    if pick() < 0.3:
        opts["max_raises_per_player"] = rng.choice((1, 2))
    if pick() < 0.4:
        opts["all_in_reopen"] = rng.choice(("cumulative", "single"))
    if pick() < 0.3:
        opts["odd_chip"] = "position"
    if pick() < 0.3:
        opts["free_fold"] = False
    if betting != "fixed_limit" and pick() < 0.3:
        opts["min_bet_big_blind"] = False
    return opts


@pytest.mark.parametrize("draw", range(24))
def test_random_tables_give_the_reference_rows_or_a_named_reason(draw: int) -> None:
    """Random hold'em tables (betting system, 2-10 seats, stacks from a few big blinds to
    deep, option draws, lineups of the built-in bots, either record level): where the
    fast table says it plays the unit, its rows are the reference's; where not, it
    names why and ``play_unit`` still plays it (on the reference table)."""
    rng = random.Random(9000 + draw)
    betting = rng.choice(("no_limit", "pot_limit", "fixed_limit"))
    opts = _random_options(rng, betting)
    n = rng.randint(2, 10)
    bots = tuple(rng.choice(("tag", "lag", "rock", "equity", "call")) for _ in range(n))
    stack = rng.choice((None, 12, 30, 80, 400))
    unit = dataclasses.replace(
        _unit(bots, betting, hands=50, stack=stack, seed=draw,
              record=rng.choice(("full", "hands")), match=draw % 3),
        options=opts)
    try:
        t = unit_table(unit, CACHE)
    except UserError:
        return  # an option set the engine itself refuses (checked elsewhere)
    why = fasttable.unsupported(unit, t.game, t.entrants)
    if why is None:
        _same(unit)
    else:
        assert isinstance(why, str) and why
        assert play_unit(unit, CACHE, fast=True).tables["hands"].num_rows == 50


class _Heard(UnitObserver):
    """What a unit's observer hears: decisions per bot, hands and evaluations."""

    def __init__(self) -> None:
        self.decisions: dict[str, int] = {}
        self.hands: list[tuple[int, int]] = []

    def on_decision(self, bot: str, seconds: float) -> None:
        assert seconds >= 0.0
        self.decisions[bot] = self.decisions.get(bot, 0) + 1

    def on_hand(self, hand: int, evaluations: int) -> None:
        self.hands.append((hand, evaluations))


def test_the_observer_hears_the_same_decisions_hands_and_evaluations() -> None:
    """Metrics and progress come through the unit's observer: on the fast table it hears
    every decision of every bot, every hand by its match number and each hand's
    showdown evaluations, as on the reference table (only the seconds differ: the fast
    table reports each decision at the unit's mean)."""
    unit = _unit(("tag", "call", "equity", "lag"), hands=80, first_hand=160, match=2)
    heard = {}
    for fast in (True, False):
        h = heard[fast] = _Heard()
        played = play_unit(unit, CACHE, observer=h, fast=fast)
        assert sum(h.decisions.values()) == sum(played.decisions)
    assert heard[True].decisions == heard[False].decisions
    assert heard[True].hands == heard[False].hands
    assert [n for n, _ in heard[True].hands] == list(range(160, 240))
    assert sum(e for _, e in heard[True].hands) > 0


def test_a_unit_the_fast_table_has_no_room_for_plays_on_the_reference_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand beyond the fast table's fixed room (``fasttable.Overflow``) sends its unit
    to the reference table, whose rows it then has, from bots as fresh as the first
    try's (the fast table changes a bot only after a unit's last hand)."""
    unit = _unit(("tag", "equity", "lag"), hands=40)
    want = play_unit(unit, CACHE, fast=False).tables

    def no_room(*args: Any, **kwargs: Any) -> Any:
        raise fasttable.Overflow("fastpolicy: the equity memo of a hand is full")

    monkeypatch.setattr(fasttable, "_run", no_room)
    got = play_unit(unit, CACHE, fast=True).tables
    for name in ("hands", "seats", "actions"):
        assert got[name].equals(want[name]), name
