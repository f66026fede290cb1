"""``bench simulation``: a worker's unit of any catalogue variant (6-max no-limit hold'em
by default), and where its CPU goes.

One unit of ``hands`` hands (the strength bots by default, cut to the seat count) is
played in this process
exactly as a worker plays it (:func:`~pokerarena.workers.records.play_unit`, at each
record level asked for) on the reference table and on the fast table
(:mod:`pokerarena.workers.fasttable`, where it plays the unit: same rows), and beside
them the same match without rows (the unit's game,
seeds, bots, fault policy and stack from :func:`~pokerarena.workers.records.unit_table`,
``play_match`` with no callbacks): the engine and the bots alone. A level's recording
cost is its CPU over that bare match's, and, steadier where neighbours load the machine,
its recorder timed hand by hand on one bare match (:func:`recording_cost`); the bare
match's CPU is split between the bots (their hooks timed one by one, :func:`bot_cost`)
and the engine (the rest: dealing, rules, views and the fault guard). The ways take
turns within each repeat (a change
of the machine's load falls on all alike) and the least CPU of the repeats is kept, in
CPU seconds of this process (``time.process_time``: on a shared machine wall time
measures the neighbours). Benchmarks only: no test asserts these numbers.
"""

from __future__ import annotations

import contextlib
import functools
import math
import time
from collections.abc import Callable, Sequence
from typing import Any, cast

from pokerarena import native
from pokerarena.errors import UserError
from pokerarena.workers import fasttable
from pokerarena.workers.records import GameCache, UnitRecorder, play_unit, unit_table
from pokerarena.workers.rows import ACTIONS, HANDS, SEATS
from pokerarena.workers.unit import Unit

BOTS = ("tag", "lag", "rock", "equity", "tag", "lag")
STRENGTH = ("tag", "lag", "rock", "equity")  # cycled to the seat count
RECORDS = ("full", "hands")
HOOKS = ("act", "start_match", "start_hand", "end_hand")  # what the guard calls on a bot


def strength_bots(seats: int) -> tuple[str, ...]:
    """The strength bots for ``seats`` seats: tag, lag, rock, equity, tag, lag, ..."""
    return tuple(STRENGTH[i % len(STRENGTH)] for i in range(seats))


def game_setup(variant: str, betting: str | None = None, seats: int | None = None,
               options: dict[str, Any] | None = None) -> tuple[str, int, dict[str, Any]]:
    """The betting system (default: the variant's first), seat count (default: 6 where the
    variant seats six, else its nearest) and unit options of a catalogue variant; one
    clear error (a :class:`~pokerarena.errors.UserError`) for a name or count it does not
    take."""
    from pokerarena.games import family_ids
    from pokerarena.rules import load_variant, variant_ids

    if variant in family_ids():
        raise UserError(f"--variant {variant}: a game family (no betting) is played by the "
                        "family unit, not play_unit; this benchmark takes the poker variants: "
                        f"{', '.join(variant_ids())}")
    if variant not in variant_ids():
        raise UserError(f"--variant {variant!r}: unknown; choose one of "
                        f"{', '.join(variant_ids())}")
    v = load_variant(variant)
    betting = betting or v.betting[0]
    if betting not in v.betting:
        raise UserError(f"--betting {betting}: {variant} is played {', '.join(v.betting)}")
    lo, hi = v.players
    seats = seats if seats is not None else min(max(6, lo), hi)
    if not lo <= seats <= hi:
        raise UserError(f"--seats {seats}: {variant} seats {lo} to {hi} players")
    opts = {**(options or {}), "betting": betting}
    try:
        GameCache().get(variant, opts)
    except (ValueError, TypeError, KeyError) as exc:
        raise UserError(f"--options: {exc}".splitlines()[0]) from None
    return betting, seats, opts


def simulation_unit(hands: int, bots: Sequence[str] = BOTS, seed: int = 2026,
                    record: str = "full", variant: str = "holdem",
                    betting: str = "no_limit", options: dict[str, Any] | None = None
                    ) -> Unit:
    """The unit a study's planner makes for one cell's first shard (no limits changed);
    ``options``: the game's options beside ``betting``."""
    return Unit(unit_id="bench-simulation", index=0, match=0, shard=0, variant=variant,
                betting=betting, options={**(options or {}), "betting": betting},
                bots=tuple(bots), hands=hands, first_hand=0, seed=seed, spawn_key=(0, 0),
                run_id="bench-simulation", record=cast(Any, record))


def _bare(unit: Unit, cache: GameCache) -> None:
    """The unit's match with nothing recorded: the engine and the bots."""
    from pokerarena.arena.match import play_match

    t = unit_table(unit, cache)
    play_match(t.game, t.entrants, unit.hands, t.table_seed, policy=t.policy,
               stack=t.stack, match_no=unit.match, deal_seed=unit.deal_seed())


def bot_cost(unit: Unit, cache: GameCache) -> tuple[float, float]:
    """CPU seconds of the unit's bare match, and of its bots within it: each entrant's
    hooks (:data:`HOOKS`) wrapped in a timer (the wrapper's own cost falls on the bots)."""
    from pokerarena.arena.match import play_match

    t = unit_table(unit, cache)
    spent = [0.0]
    clock = time.process_time

    def timed(fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            c0 = clock()
            try:
                return fn(*args)
            finally:
                spent[0] += clock() - c0
        return call

    for bot in t.entrants:
        for name in HOOKS:
            fn = getattr(bot, name, None)
            if callable(fn):  # with __slots__ its time stays the engine's
                with contextlib.suppress(AttributeError, TypeError):
                    setattr(bot, name, timed(fn))
    c0 = clock()
    play_match(t.game, t.entrants, unit.hands, t.table_seed, policy=t.policy,
               stack=t.stack, match_no=unit.match, deal_seed=unit.deal_seed())
    return clock() - c0, spent[0]


def _rows_of(unit: Unit, cache: GameCache, fast: bool = False) -> dict[str, int]:
    """The unit through play_unit (on the fast table or the reference one); its rows
    per table."""
    return {name: t.num_rows for name, t in play_unit(unit, cache, fast=fast).tables.items()}


def fast_reason(unit: Unit, cache: GameCache) -> str | None:
    """Why the fast table would not play the unit (None: it plays it)."""
    t = unit_table(unit, cache)
    return fasttable.unsupported(unit, t.game, t.entrants)


def recording_cost(units: dict[str, Unit], cache: GameCache, reps: int = 3
                   ) -> dict[str, float]:
    """CPU seconds per 1,000 hands of each level's recorder on the very hands of one
    bare match: each hand handed to ``reps`` recorders of each level in turn, the least
    of each hand's times summed, plus the least time of building the Arrow tables (a
    neighbour's burst falls on one of the tries, not on the figure)."""
    from pokerarena.arena.match import play_match

    first = next(iter(units.values()))
    t = unit_table(first, cache)
    recs = {r: [UnitRecorder(u, t.game, t.stack, None) for _ in range(reps)]
            for r, u in units.items()}
    spent = dict.fromkeys(units, 0.0)
    clock = time.process_time

    def on_decision(d: Any) -> None:
        for group in recs.values():
            for rec in group:
                rec.on_decision(d)

    def on_hand(no: int, hand: Any, seat_of: list[int]) -> None:
        for r, group in recs.items():
            least = math.inf
            for rec in group:
                c0 = clock()
                rec.on_hand(no, hand, seat_of)
                least = min(least, clock() - c0)
            spent[r] += least

    play_match(t.game, t.entrants, first.hands, t.table_seed, policy=t.policy,
               stack=t.stack, match_no=first.match, deal_seed=first.deal_seed(),
               on_hand=on_hand, on_decision=on_decision)
    out = {}
    for r, group in recs.items():
        least = math.inf
        for rec in group:
            c0 = clock()
            HANDS.table(rec.hands), SEATS.table(rec.seats), ACTIONS.table(rec.actions)
            least = min(least, clock() - c0)
        out[r] = _per_1000(spent[r] + least, first.hands)
    return out


def _cpu(run: Callable[[], Any]) -> tuple[float, Any]:
    c0 = time.process_time()
    out = run()
    return time.process_time() - c0, out


def _per_1000(cpu: float, hands: int) -> float:
    return round(1000.0 * cpu / hands, 4)


def _timed(ways: dict[str, Callable[[], Any]], repeats: int
           ) -> tuple[dict[str, float], dict[str, Any]]:
    """Each way's least CPU over the repeats (the ways take turns within a repeat) and
    its last output."""
    best: dict[str, float] = {}
    rows: dict[str, Any] = {}
    names = list(ways)
    for k in range(max(1, repeats)):
        for name in names[k % len(names):] + names[:k % len(names)]:
            cpu, out = _cpu(ways[name])
            best[name] = min(best.get(name, cpu), cpu)
            rows[name] = out
    return best, rows


def _faults(unit: Unit, cache: GameCache) -> dict[str, dict[str, int]]:
    """Each bot's faults by kind in one play of the unit (a bot that cannot play the game
    faults at its decisions; the fault policy plays for it)."""
    out: dict[str, dict[str, int]] = {}
    faults = play_unit(unit, cache, fast=False).tables["faults"].to_pylist()
    for f in faults:
        kinds = out.setdefault(str(f["bot"]), {})
        kinds[str(f["kind"])] = kinds.get(str(f["kind"]), 0) + 1
    return out


def bench_simulation(hands: int = 2000, bots: Sequence[str] | None = None,
                     records: Sequence[str] = RECORDS, repeats: int = 3,
                     seed: int = 2026, variant: str = "holdem", betting: str | None = None,
                     seats: int | None = None, options: dict[str, Any] | None = None
                     ) -> dict[str, Any]:
    """Play the unit bare and at each record level on both tables ``repeats`` times; the
    figures as JSON-ready data (module docstring). ``bots`` (default: the strength bots
    cut to ``seats``) sets the seat count when given."""
    if bots is not None:
        seats = len(bots)
    betting, seats, opts = game_setup(variant, betting, seats, options)
    bots = tuple(bots) if bots is not None else strength_bots(seats)
    extra = {k: v for k, v in opts.items() if k != "betting"}
    cache = GameCache()

    def unit(n: int, s: int, r: str = "full") -> Unit:
        return simulation_unit(n, bots, s, r, variant, betting, extra)

    warm = unit(min(hands, 100), seed + 1)
    _rows_of(warm, cache), _rows_of(warm, cache, fast=True)  # kernels, tables
    faults = _faults(warm, cache)
    units = {r: unit(hands, seed, r) for r in records}
    reason = fast_reason(units[records[0]], cache)
    ways: dict[str, Callable[[], Any]] = {"bare": lambda: _bare(units[records[0]], cache)}
    for r in records:
        ways[r] = functools.partial(_rows_of, units[r], cache)
        if reason is None:
            ways["fast " + r] = functools.partial(_rows_of, units[r], cache, True)
    best, rows = _timed(ways, repeats)
    bare = best["bare"]
    recording = recording_cost(units, cache)
    timed_bare, in_bots = bot_cost(units[records[0]], cache)
    bots_share = in_bots / timed_bare if timed_bare > 0 else 0.0
    levels = {}
    for r in records:
        levels[r] = {
            "hands_per_cpu_s": round(hands / best[r], 1),
            "cpu_s_per_1000_hands": _per_1000(best[r], hands),
            "split_cpu_s_per_1000_hands": {
                "engine_and_bots": _per_1000(bare, hands),
                "engine": _per_1000(bare * (1.0 - bots_share), hands),
                "bots": _per_1000(bare * bots_share, hands),
                "recording": _per_1000(best[r] - bare, hands),
                "recording_per_hand_least": recording[r]},
            "rows": rows[r]}
        if reason is None:
            fast = best["fast " + r]
            levels[r]["fast_table"] = {
                "hands_per_cpu_s": round(hands / fast, 1),
                "cpu_s_per_1000_hands": _per_1000(fast, hands),
                "speedup": round(best[r] / fast, 2), "rows": rows["fast " + r],
                "rows_equal": rows["fast " + r] == rows[r]}
    return {"benchmark": "simulation", "variant": variant, "betting": betting,
            "options": extra, "players": len(bots), "bots": list(bots), "hands": hands,
            "repeats": max(1, repeats), "seed": seed, "native": native.compiled(),
            "fast_table": reason or "plays this unit",
            "bot_faults": faults,
            "timing": "CPU seconds (time.process_time) of this process, the least of the "
            "repeats; the reference table (play_unit on the engine, views, guard and "
            "Python bots) at each level, and beside it the fast table (fast_table: the "
            "rules kernel and the bots' compiled policies, the same rows); "
            "engine_and_bots: the reference unit's match without rows, split into bots "
            "(their hooks timed in one more bare match, as a share) and engine (the rest); "
            "recording: a level's CPU over it; recording_per_hand_least: the level's "
            "recorder timed hand by hand on one match, the least of 3 tries of each hand "
            "(steadier on a loaded machine); bot_faults: each bot's faults by kind in a "
            "warm-up unit (a bot that cannot play the game faults)",
            "bare": {"hands_per_cpu_s": round(hands / bare, 1),
                     "cpu_s_per_1000_hands": _per_1000(bare, hands),
                     "bots_share": round(bots_share, 3)},
            "records": levels}
