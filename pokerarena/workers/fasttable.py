"""Units of hold'em with the built-in bots played by the fast table, with the reference
path's very rows.

:func:`~pokerarena.workers.records.play_unit` hands a unit here when :func:`unsupported`
finds nothing against it: the rules kernel (:mod:`pokerarena.engine.fastholdem.kernel`)
deals the cards the reference table would deal from the unit's Generator and asks the
bots' compiled policies (:mod:`pokerarena.bots.strength.fastpolicy`, seeded from the
very bot objects the reference would play) for every decision; the rows are built from
its arrays (:mod:`pokerarena.workers.fastrecord`). The same unit gives the same rows
either way (``tests/workers/test_fasttable.py`` compares them); ``POKERARENA_FAST_TABLE=0``
plays every unit on the reference table.

What the fast table does not measure: each decision's own time. A unit's decisions are
timed together and each is reported at their mean (the units row's thinking time per
entrant, the decision-latency metric).
"""

from __future__ import annotations

import os
import time
from dataclasses import fields
from functools import cache
from typing import Any

import numpy as np

from pokerarena.arena.warmup import warm_up
from pokerarena.bots.strength import fastpolicy
from pokerarena.bots.strength.estimate import register_game
from pokerarena.engine import Game
from pokerarena.engine.fastholdem import kernel
from pokerarena.engine.fastholdem.arrays import HandArrays
from pokerarena.workers import fastrecord
from pokerarena.workers.hooks import UnitObserver
from pokerarena.workers.unit import Unit

ENV = "POKERARENA_FAST_TABLE"
# Time limits a built-in bot can meet (its decisions take microseconds to a millisecond
# or two, a hand well under a second): tighter ones test the fault policy, which only
# the reference table applies.
DECISION_FLOOR = 1.0
HAND_FLOOR = 10.0
LOG_PER_HAND = 48  # log entries reserved per hand at first (doubled when a unit needs more)


class Overflow(RuntimeError):
    """A hand needed more room than the fast table keeps (an equity memo of more than
    :data:`~pokerarena.bots.strength.fastpolicy.MEMO` entries for one seat): the unit is
    played on the reference table instead."""


def enabled() -> bool:
    """False when ``POKERARENA_FAST_TABLE=0`` sends every unit to the reference table."""
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "no", "off")


# Every field of Unit, classified as the engine's Program is in
# engine/fastholdem/params.py: read by the fast table, bookkeeping that does not change
# play, or a feature it plays only switched off (the reference table plays the rest).
UNIT_READ = frozenset({"variant", "betting", "options", "bots", "hands", "first_hand",
                       "seed", "spawn_key", "deal_key", "stack", "record", "limits"})
UNIT_BOOKKEEPING = frozenset({"unit_id", "index", "match", "shard", "run_id", "session"})
UNIT_OFF_ONLY = {"duplicate": "duplicate deals", "carry_stacks": "carried stacks",
                 "baseline": "a baseline bot", "freezeout": "a freeze-out",
                 "aivat": "AIVAT (its policies are read on the reference table)"}


@cache
def unit_unclassified() -> tuple[str, ...]:
    """The fields of Unit in none of the sets above (none, while the scope is kept)."""
    known = UNIT_READ | UNIT_BOOKKEEPING | set(UNIT_OFF_ONLY)
    return tuple(f.name for f in fields(Unit) if f.name not in known)


def unsupported(unit: Unit, game: Game, entrants: list[Any]) -> str | None:
    """Why the fast table cannot play ``unit`` exactly as the reference does (None: it
    can). A unit field nobody classified sends every unit to the reference table."""
    if unit_unclassified():
        return f"unit fields the fast table does not know: {', '.join(unit_unclassified())}"
    for name, what in UNIT_OFF_ONLY.items():
        if getattr(unit, name):
            return what
    if unit.record not in ("full", "hands"):
        return f"record level {unit.record!r}"
    lim = unit.limits
    if lim.decision_seconds is not None and lim.decision_seconds < DECISION_FLOOR:
        return f"a decision limit of {lim.decision_seconds} s (a bot may fault)"
    if lim.hand_seconds is not None and lim.hand_seconds < HAND_FLOOR:
        return f"a hand limit of {lim.hand_seconds} s (a bot may fault)"
    why = kernel.unsupported(game, len(entrants)) or fastpolicy.unsupported_game(game)
    if why is not None:
        return why
    for bot in entrants:
        why = fastpolicy.unsupported_bot(bot)
        if why is not None:
            return why
    return None


def play(unit: Unit, game: Game, table_seed: int, entrants: list[Any], stack: int,
         observer: UnitObserver | None = None
         ) -> tuple[dict[str, Any], list[int], list[float]]:
    """Play the unit on the fast table: its ``hands``/``seats``/``actions`` tables, and
    each entrant's decisions and thinking time (entrant ``j`` sits in seat ``j``)."""
    n = len(entrants)
    register_game(game)
    warm_up(game, entrants, n)  # as play_match: the tables a decision reads are built
    deal_seq = np.random.SeedSequence(table_seed).spawn(n + 1)[0]
    deal_seed = unit.deal_seed()
    deal_rng = np.random.default_rng(deal_seq if deal_seed is None else deal_seed)
    decks = kernel.decks(game, deal_rng, unit.hands, n)
    params = kernel.params(game, n, stack)
    c0 = time.perf_counter()
    arrays, state = _run(params, decks, unit, game, entrants)
    seconds = time.perf_counter() - c0
    fastpolicy.write_back(state, entrants)
    seat_bot = list(unit.bots)
    tables, evaluations = fastrecord.unit_tables(unit, game, stack, arrays, seat_bot)
    decided = arrays.street >= 0
    decisions = np.bincount(arrays.actor[decided].astype(np.int64), minlength=n)
    total = int(decisions.sum())
    each = seconds / total if total else 0.0
    if observer is not None:
        _tell(observer, unit, decisions, evaluations, each)
    return tables, [int(d) for d in decisions], [float(d) * each for d in decisions]


def _run(params: np.ndarray, decks: np.ndarray, unit: Unit, game: Game,
         entrants: list[Any]) -> tuple[HandArrays, Any]:
    """The kernel's arrays for the unit's hands and the policies' state after them. The
    log's room grows until it fits; each try starts the policies afresh from the bot
    objects (untouched until :func:`~pokerarena.bots.strength.fastpolicy.write_back`)."""
    n = len(entrants)
    room = LOG_PER_HAND * unit.hands
    while True:
        state = fastpolicy.policy_state(entrants, game, n)
        out = HandArrays.empty(unit.hands, n, room)
        try:
            used = kernel.play(params, decks, unit.match, state, fastpolicy.decide,
                               fastpolicy.end_hand, out)
        except ValueError as exc:
            if "memo" in str(exc):
                raise Overflow(str(exc)) from exc
            raise
        if used >= 0:
            return out.cut(used), state
        room *= 2


def _tell(observer: UnitObserver, unit: Unit, decisions: np.ndarray, evaluations: Any,
          each: float) -> None:
    """The observer hears of every decision (at the unit's mean time, a bot's at once)
    and every hand."""
    for bot, count in zip(unit.bots, decisions.tolist(), strict=True):
        if count:
            observer.on_decisions(bot, count, each)
    first = unit.first_hand
    for h, ev in enumerate(evaluations):
        observer.on_hand(first + h, int(ev))
