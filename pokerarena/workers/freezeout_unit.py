"""Play a freeze-out unit: one whole tournament, every hand of it recorded as rows.

000_… «Замороженный вклад»: «Перед игрой каждый игрок кладет на стол перед собой
одинаковое количество фишек. ... Как только игрок израсходовал все свои фишки, он
выбывает из игры. Игроки играют до тех пор, пока один игрок не выиграет все фишки.»

The tournament is :func:`~pokerarena.tournaments.freezeout.play_freeze_out`, seeded from
the unit's SeedSequence, so the rows depend on the unit alone (same unit, same rows).
Each hand becomes ``hands``/``seats``/``actions`` rows exactly as an ordinary unit's do
(the records' own recorder writes them), with what a freeze-out changes: the hands'
``match`` is the tournament, ``hand`` its hand order over all tables, ``deal`` the round
(one hand at every table), ``players`` the seats at that hand's table, ``stack`` the
tournament's starting stack, and each seat's ``start_stack`` its chips at the hand's
start (they carry from hand to hand). Each entry's finish is a ``places`` row.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from pokerarena.arena.faults import Fault, FaultPolicy
from pokerarena.tournaments.freezeout import FreezeOutResult, HandPlayed, Level, play_freeze_out
from pokerarena.workers.hooks import UnitObserver
from pokerarena.workers.records import GameCache, PlayedUnit, _Recorder
from pokerarena.workers.rows import ACTIONS, FAULTS, HANDS, PLACES, SEATS
from pokerarena.workers.unit import Unit

__all__ = ["play_freezeout_unit"]

_DEAL = HANDS.names.index("deal")
_START = SEATS.names.index("start_stack")


class _Rows:
    """The tournament's rows as its hands end: one recorder of
    :mod:`~pokerarena.workers.records` per (level, table size), all writing to the same
    row lists; the columns a freeze-out gives another meaning are set after each hand."""

    def __init__(self, unit: Unit, stack: int, observer: UnitObserver | None) -> None:
        self.unit = unit
        self.stack = stack
        self.observer = observer
        self.levels = unit.freezeout["levels"] if unit.freezeout else []
        self.recorders: dict[tuple[int, int], tuple[_Recorder, Unit]] = {}
        self.decided: dict[int, Any] = {}  # the current hand's decisions by log index
        self.seconds: list[tuple[int, float]] = []  # (seat, seconds) of the current hand
        self.hands: list[tuple] = []
        self.seats: list[tuple] = []
        self.actions: list[tuple] = []

    def on_decision(self, d: Any) -> None:
        self.decided[d.index] = d
        if self.observer is not None and d.seconds is not None:
            self.seconds.append((d.seat, d.seconds))

    def _recorder(self, played: HandPlayed) -> tuple[_Recorder, Unit]:
        key = (played.level, len(played.players))
        hit = self.recorders.get(key)
        if hit is None:
            options = {**self.unit.options, **self.levels[played.level][1]}
            base = replace(self.unit, options=options, first_hand=0,
                           bots=tuple(self.unit.bots[p] for p in played.players))
            rec = _Recorder(base, played.game, self.stack, self.observer)
            rec.decided, rec.hands, rec.seats, rec.actions = (
                self.decided, self.hands, self.seats, self.actions)
            hit = self.recorders[key] = (rec, base)
        return hit

    def on_hand(self, played: HandPlayed) -> None:
        rec, base = self._recorder(played)
        bots = tuple(self.unit.bots[p] for p in played.players)
        rec.unit = replace(base, bots=bots)
        rec.carried = [played.carry_in]
        n = len(bots)
        if self.observer is not None:
            for seat, seconds in self.seconds:
                self.observer.on_decision(bots[seat], seconds)
            self.seconds.clear()
        rec.on_hand(played.hand_no, played.hand, list(range(n)))
        row = self.hands[-1]
        self.hands[-1] = (*row[:_DEAL], played.round, *row[_DEAL + 1:])
        for seat in range(n):
            k = len(self.seats) - n + seat
            row = self.seats[k]
            self.seats[k] = (*row[:_START], played.stacks[seat], *row[_START + 1:])


def _places(unit: Unit, result: FreezeOutResult) -> list[tuple]:
    """One ``places`` row per entry, best place first (``out_round``: the round of its
    last hand, as the hands' ``deal`` counts rounds, from 0)."""
    assert unit.freezeout is not None
    n = len(unit.bots)
    return [(unit.run_id, unit.match, s.player, s.bot, s.place, float(s.prize), int(s.chips),
             None if s.out_round is None else s.out_round - 1, s.icm, result.rounds,
             result.hands, result.finished, result.chips_conserved, n,
             float(unit.freezeout["buy_in"]), result.prize_pool)
            for s in result.standings]


def play_freezeout_unit(unit: Unit, cache: GameCache | None = None,
                        observer: UnitObserver | None = None) -> PlayedUnit:
    """Play the freeze-out of ``unit`` (``unit.freezeout`` set; ``unit.bots``: its
    entrants; ``unit.hands``: its round limit) and return its tables: ``hands``,
    ``seats``, ``actions``, ``faults`` of every hand, and ``places``."""
    fo = unit.freezeout
    if fo is None:
        raise ValueError(f"unit {unit.unit_id} is not a freeze-out unit")
    game = (cache or GameCache()).get(unit.variant, unit.options)
    stack = int(unit.stack or game.variant.stakes.stack)
    lim = unit.limits
    policy = FaultPolicy(decision_time=lim.decision_seconds, hand_time=lim.hand_seconds,
                         on_fault=lim.on_fault, max_faults=lim.max_faults)
    levels = [Level(int(start), {**unit.options, **dict(options)})
              for start, options in fo["levels"]]
    rows = _Rows(unit, stack, observer)
    faults: list[Fault] = []
    result = play_freeze_out(
        unit.variant, unit.bots, stack=stack, levels=levels, betting=unit.betting,
        table_size=int(fo["table_size"]), payouts=fo["payouts"], buy_in=float(fo["buy_in"]),
        seed=np.random.SeedSequence(unit.seed, spawn_key=unit.spawn_key),
        max_rounds=unit.hands, policy=policy, on_hand=rows.on_hand,
        on_decision=rows.on_decision, faults=faults, match_no=unit.match)
    fault_rows = [(unit.run_id, unit.match, f.hand_no if f.hand_no >= 0 else None, f.seat,
                   f.bot, f.kind, f.detail) for f in faults]
    if observer is not None:
        for f in faults:
            observer.on_fault(f.bot, f.kind)
    return PlayedUnit({"hands": HANDS.table(rows.hands), "seats": SEATS.table(rows.seats),
                       "actions": ACTIONS.table(rows.actions),
                       "faults": FAULTS.table(fault_rows),
                       "places": PLACES.table(_places(unit, result))},
                      result.decisions, result.think_seconds)
