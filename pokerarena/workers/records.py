"""Play one work unit and turn every hand, seat and action into columns.

:func:`play_unit` is pure: the rows depend only on the unit (game, lineup, hands,
seed), never on the process, the worker count or the clock. The Arrow schemas of the
tables live here (documented column by column in ``docs/schema.md``).
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

import numpy as np
import pyarrow as pa

from pokerarena.cards import card_str
from pokerarena.engine import Game
from pokerarena.engine.actions import PLAYER_KINDS, UNKNOWN
from pokerarena.workers.bots import new_bot

S, I8, I16, I32, I64, B, F64 = (pa.string(), pa.int8(), pa.int16(), pa.int32(), pa.int64(),
                                pa.bool_(), pa.float64())

HANDS_SCHEMA = pa.schema([
    ("run_id", S), ("match", I32), ("hand", I32), ("deal", I32), ("variant", S),
    ("betting", S), ("players", I8), ("button", I8), ("board", S), ("pot", I64), ("rake", I64),
    ("showdown", B), ("passed", B), ("carry_in", I64), ("carry_out", I64),
    ("decisions", I16), ("winners", I8), ("bb", I32), ("stack", I64),
    ("ante", I32), ("small_blind", I32), ("big_blind", I32), ("bring_in", I32),
    ("small_bet", I32), ("big_bet", I32), ("min_bet", I32), ("max_bet", I32),
    ("max_raises", I32), ("options", S),
])

SEATS_SCHEMA = pa.schema([
    ("run_id", S), ("match", I32), ("hand", I32), ("variant", S), ("betting", S),
    ("seat", I8), ("position", I8), ("is_button", B), ("bot", S), ("cards", S),
    ("up_cards", S), ("start_stack", I64), ("end_stack", I64), ("net", I64),
    ("pot_won", I64), ("folded", B), ("showdown", B), ("high", S), ("high_category", S),
    ("low", S), ("low_category", S), ("faults", I16),
])

ACTIONS_SCHEMA = pa.schema([
    ("run_id", S), ("match", I32), ("hand", I32), ("seq", I16), ("street", I8),
    ("seat", I8), ("bot", S), ("kind", S), ("amount", I64), ("cards", S), ("target", I8),
    ("fault", B),
])

FAULTS_SCHEMA = pa.schema([
    ("run_id", S), ("match", I32), ("hand", I32), ("seat", I8), ("bot", S), ("kind", S),
    ("detail", S),
])

UNITS_SCHEMA = pa.schema([
    ("run_id", S), ("match", I32), ("shard", I32), ("variant", S), ("betting", S),
    ("options", S), ("bots", S), ("hands", I32), ("first_hand", I32), ("seed", I64),
    ("spawn_key", S), ("worker", S), ("attempt", I32), ("started_at", pa.timestamp("ms",
                                                                                   tz="UTC")),
    ("play_seconds", F64), ("write_seconds", F64), ("rows_hands", I64), ("rows_seats", I64),
    ("rows_actions", I64), ("rows_faults", I64), ("bytes", I64),
    ("bot_decisions", pa.list_(I64)), ("bot_think_seconds", pa.list_(F64)),
])

SCHEMAS: dict[str, pa.Schema] = {"hands": HANDS_SCHEMA, "seats": SEATS_SCHEMA,
                                 "actions": ACTIONS_SCHEMA, "faults": FAULTS_SCHEMA,
                                 "units": UNITS_SCHEMA}
# Tables a unit writes, in order; ``units`` is written last and marks a complete unit.
DATA_TABLES = ("hands", "seats", "actions", "faults")


def cards_text(cards) -> str:
    """``AsKd7c`` (``??`` for an unknown card)."""
    return "".join("??" if c == UNKNOWN else card_str(c) for c in cards)


class GameCache:
    """Games by (variant, options), kept warm across units."""

    def __init__(self) -> None:
        self._games: dict[str, Game] = {}

    def get(self, variant: str, options: dict[str, Any]) -> Game:
        """The game of ``variant`` with ``options``."""
        key = json.dumps([variant, options], sort_keys=True)
        game = self._games.get(key)
        if game is None:
            game = self._games[key] = Game(variant, options)
        return game


def _bb(game: Game) -> int:
    """The normalising unit of a game: its big blind, else its small bet."""
    return max(game.blinds) if game.blinds and max(game.blinds) > 0 else game.small_bet


def play_unit(unit: dict[str, Any], cache: GameCache | None = None,
              bot_time: dict[str, list] | None = None) -> dict[str, pa.Table]:
    """Play the unit's hands; return its ``hands``, ``seats``, ``actions`` and ``faults``
    tables (``bot_time``, when given, receives each entrant's ``decisions`` and
    ``think_seconds`` in lineup order). The hands are played by the bots package's
    ``play_match`` (bots' hooks, time limits and the irregularity policy), seeded from
    the unit's SeedSequence; its per-decision hook gives each decision's street and
    fault, and :func:`~pokerarena.arena.match.showdown_categories` the categories at the
    showdown."""
    from pokerarena.arena.faults import FaultPolicy
    from pokerarena.arena.match import Decision, play_match, showdown_categories

    cache = cache or GameCache()
    game = cache.get(unit["variant"], unit["options"])
    names: list[str] = list(unit["bots"])
    n = len(names)
    run_id = unit.get("run_id", "")
    match = int(unit["match"])
    first = int(unit["first_hand"])
    ss = np.random.SeedSequence(int(unit["seed"]), spawn_key=tuple(unit["spawn_key"]))
    table_seq, *bot_seqs = ss.spawn(n + 1)
    table_seed = int(table_seq.generate_state(2, np.uint64)[0] >> np.uint64(1))
    entrants = [new_bot(name, int(s.generate_state(1)[0]))
                for name, s in zip(names, bot_seqs, strict=True)]
    for e, name in zip(entrants, names, strict=True):
        with contextlib.suppress(AttributeError, TypeError):  # __slots__, read-only
            e.name = name
    lim = unit.get("limits") or {}
    policy = FaultPolicy(decision_time=lim.get("decision_seconds", 5.0),
                         hand_time=lim.get("hand_seconds", 60.0),
                         on_fault=lim.get("on_fault", "check_fold"),
                         max_faults=lim.get("max_faults"))
    stack = int(unit["stack"] or game.variant.stakes.stack)
    options_json = json.dumps(unit["options"], sort_keys=True)
    desc = game.describe()
    blinds = list(game.blinds)
    max_raises = game.max_raises
    variant, betting = unit["variant"], unit["betting"]
    bb = _bb(game)

    h: dict[str, list] = {f: [] for f in HANDS_SCHEMA.names}
    st: dict[str, list] = {f: [] for f in SEATS_SCHEMA.names}
    ac: dict[str, list] = {f: [] for f in ACTIONS_SCHEMA.names}

    duplicate = bool(unit.get("duplicate", False))
    rotations = n if duplicate else 1
    carried = [0] * rotations  # chips a passed deal leaves for the next (per rotation)
    decided: dict[int, Decision] = {}  # the current hand's decisions by log index

    def on_decision(d: Decision) -> None:
        decided[d.index] = d

    def on_hand(local_no: int, hand: Any, seat_of: list[int]) -> None:
        hand_no = first + local_no
        seat_bot = [""] * n
        for j, s in enumerate(seat_of):
            seat_bot[s] = names[j]
        button = hand.button
        res = hand.result()
        log = hand.log
        # Streets: a decision's own; dealer entries and forced bets carry the street of
        # the decision that follows them (after the last: its).
        streets: list[Any] = [None] * len(log)
        nxt = None
        for k in range(len(log) - 1, -1, -1):
            d = decided.get(k)
            if d is not None:
                nxt = d.street
            streets[k] = nxt
        last = 0
        for k in range(len(log)):
            if streets[k] is None:
                streets[k] = last
            last = streets[k]
        decisions = 0
        faults = [0] * n
        for k, (actor, act) in enumerate(log):
            d = decided.get(k)
            fault = False
            if d is not None or (actor >= 0 and act.kind in PLAYER_KINDS):
                decisions += 1
                fault = d is None or d.fault is not None
                if fault:
                    faults[actor] += 1
            ac["run_id"].append(run_id)
            ac["match"].append(match)
            ac["hand"].append(hand_no)
            ac["seq"].append(k)
            ac["street"].append(streets[k])
            ac["seat"].append(actor)
            ac["bot"].append(seat_bot[actor] if actor >= 0 else None)
            ac["kind"].append(act.kind)
            ac["amount"].append(int(act.amount) if act.kind not in ("dh", "db") else 0)
            ac["cards"].append(cards_text(act.cards) if act.cards else None)
            ac["target"].append(act.target if act.kind == "dh" else None)
            ac["fault"].append(fault)
        decided.clear()

        end = hand.observation(button)
        board = list(end.board)
        up_by_seat = end.up
        folded = end.folded
        pot = sum(p.amount for p in res.pots)
        won = [0] * n
        for p in res.pots:
            for s, v in p.winners.items():
                won[s] += int(v)
        h["run_id"].append(run_id)
        h["match"].append(match)
        h["hand"].append(hand_no)
        h["deal"].append(hand_no // rotations)
        h["variant"].append(variant)
        h["betting"].append(betting)
        h["players"].append(n)
        h["button"].append(button)
        h["board"].append(cards_text(board) if board else None)
        h["pot"].append(int(pot))
        h["rake"].append(int(res.rake))
        h["showdown"].append(bool(res.went_to_showdown))
        carry_out = int(getattr(res, "carry", 0) or 0)
        h["passed"].append(bool(getattr(res, "passed", False)))
        rot = local_no % rotations
        h["carry_in"].append(carried[rot])
        h["carry_out"].append(carry_out)
        carried[rot] = carry_out
        h["decisions"].append(decisions)
        h["winners"].append(sum(1 for w in won if w > 0))
        h["bb"].append(bb)
        h["stack"].append(stack)
        h["ante"].append(desc["ante"])
        h["small_blind"].append(min(b for b in blinds if b) if any(blinds) else 0)
        h["big_blind"].append(max(blinds) if blinds else 0)
        h["bring_in"].append(desc["bring_in"])
        h["small_bet"].append(desc["small_bet"])
        h["big_bet"].append(desc["big_bet"])
        h["max_bet"].append(desc["max_bet"])
        h["min_bet"].append(desc["min_bet"])
        h["max_raises"].append(max_raises)
        h["options"].append(options_json)

        sd = res.showdown
        categories = showdown_categories(hand, game) if sd else {}
        for seat in range(n):
            cards = hand.cards_of(seat)
            info = sd.get(seat)
            up = up_by_seat[seat]
            st["run_id"].append(run_id)
            st["match"].append(match)
            st["hand"].append(hand_no)
            st["variant"].append(variant)
            st["betting"].append(betting)
            st["seat"].append(seat)
            st["position"].append((seat - button - 1) % n)
            st["is_button"].append(seat == button)
            st["bot"].append(seat_bot[seat])
            st["cards"].append(cards_text(cards))
            st["up_cards"].append(cards_text(up) if up else None)
            st["start_stack"].append(stack)
            st["end_stack"].append(int(res.stacks[seat]))
            st["net"].append(int(res.deltas[seat]))
            st["pot_won"].append(won[seat])
            st["folded"].append(bool(folded[seat]))
            st["showdown"].append(info is not None)
            if info is not None:
                high_cat, low_cat = categories.get(seat, (None, None))
                st["high"].append(info.get("high") or None)
                st["high_category"].append(high_cat)
                st["low"].append(info.get("low") or None)
                st["low_category"].append(low_cat)
            else:
                st["high"].append(None)
                st["high_category"].append(None)
                st["low"].append(None)
                st["low_category"].append(None)
            st["faults"].append(faults[seat])

    result = play_match(game, entrants, int(unit["hands"]), table_seed, policy=policy,
                        duplicate=duplicate, stack=stack, match_no=match, on_hand=on_hand,
                        on_decision=on_decision)
    if bot_time is not None:
        bot_time["decisions"] = [e.decisions for e in result.entrants]
        bot_time["think_seconds"] = [e.think_time for e in result.entrants]
    fl: dict[str, list] = {f: [] for f in FAULTS_SCHEMA.names}
    for f in result.faults:
        fl["run_id"].append(run_id)
        fl["match"].append(match)
        fl["hand"].append(first + f.hand_no if f.hand_no >= 0 else None)
        fl["seat"].append(f.seat)
        fl["bot"].append(f.bot)
        fl["kind"].append(f.kind)
        fl["detail"].append(f.detail)
    return {"hands": pa.table(h, schema=HANDS_SCHEMA),
            "seats": pa.table(st, schema=SEATS_SCHEMA),
            "actions": pa.table(ac, schema=ACTIONS_SCHEMA),
            "faults": pa.table(fl, schema=FAULTS_SCHEMA)}


def units_row(unit: dict[str, Any], *, worker: str, attempt: int, started_at: float,
              play_seconds: float, write_seconds: float, rows: dict[str, int],
              nbytes: int, bot_time: dict[str, list] | None = None) -> pa.Table:
    """The one-row ``units`` table of a finished unit (``bot_time``: as
    :func:`play_unit` filled it)."""
    bot_time = bot_time or {}
    row = {
        "run_id": [unit.get("run_id", "")], "match": [unit["match"]],
        "shard": [unit["shard"]], "variant": [unit["variant"]], "betting": [unit["betting"]],
        "options": [json.dumps(unit["options"], sort_keys=True)],
        "bots": [",".join(unit["bots"])], "hands": [unit["hands"]],
        "first_hand": [unit["first_hand"]], "seed": [int(unit["seed"])],
        "spawn_key": [",".join(str(k) for k in unit["spawn_key"])], "worker": [worker],
        "attempt": [attempt], "started_at": [int(started_at * 1000)],
        "play_seconds": [play_seconds], "write_seconds": [write_seconds],
        "rows_hands": [rows.get("hands", 0)], "rows_seats": [rows.get("seats", 0)],
        "rows_actions": [rows.get("actions", 0)],
        "rows_faults": [rows.get("faults", 0)], "bytes": [nbytes],
        "bot_decisions": [bot_time.get("decisions")],
        "bot_think_seconds": [bot_time.get("think_seconds")],
    }
    return pa.table(row, schema=UNITS_SCHEMA)
