"""Play one work unit and turn every hand, seat and action into rows.

:func:`play_unit` is pure: the rows depend only on the unit (game, lineup, hands,
seed), never on the process, the worker count or the clock. The row layout is declared
once, in :mod:`pokerarena.workers.rows`; each row function here returns a tuple in its
table's column order.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerarena.cards import NUM_CODES, card_str
from pokerarena.engine import Game
from pokerarena.engine.actions import PLAYER_KINDS, UNKNOWN
from pokerarena.tournaments.variance import equity_deltas, settle_deal
from pokerarena.workers import fasttable
from pokerarena.workers.bots import new_bot
from pokerarena.workers.gamecols import EQUITY_SAMPLES, game_columns
from pokerarena.workers.hooks import UnitObserver
from pokerarena.workers.played import GameCache, PlayedUnit, units_row
from pokerarena.workers.rows import ACTIONS, DATA_TABLES, FAULTS, HANDS, SEATS
from pokerarena.workers.unit import Unit

__all__ = ["DATA_TABLES", "GameCache", "PlayedUnit", "UnitRecorder", "UnitTable",
           "cards_text", "play_unit", "unit_table", "units_row"]


def cards_text(cards: Any) -> str:
    """``AsKd7c`` (``??`` for an unknown card)."""
    try:
        return "".join([_TEXT[c] for c in cards])
    except (IndexError, TypeError):  # not a card code: card_str says why
        return "".join("??" if c == UNKNOWN else card_str(c) for c in cards)


_TEXT: list[Any] = [card_str(c) for c in range(NUM_CODES)] + [None] * (UNKNOWN - NUM_CODES)
_TEXT.append("??")  # the text of every card code by code (None: no card)


class _Recorder:
    """The rows of one unit as its hands end (``on_decision``/``on_hand`` of
    :func:`~pokerarena.arena.match.play_match`)."""

    def __init__(self, unit: Unit, game: Game, stack: int,
                 observer: UnitObserver | None) -> None:
        self.unit = unit
        self.game = game
        self.n = len(unit.bots)
        from pokerarena.arena.match import seatings

        plan = seatings(self.n) if unit.duplicate else [tuple(range(self.n))]
        self.rotations = len(plan)
        # entrant_at[r][seat]: the entrant in ``seat`` in seating ``r``
        self.entrant_at = [[p.index(seat) for seat in range(self.n)] for p in plan]
        self.carried = [0] * self.rotations  # chips a passed deal leaves (per rotation)
        self.decided: dict[int, Any] = {}  # the current hand's decisions by log index
        self.observer = observer
        self.full = unit.record != "hands"  # "hands": no action rows
        self.seat_bots: dict[tuple[int, ...], list[str]] = {}  # by seating: bot by seat
        self.positions: dict[int, list[int]] = {}  # by button: each seat's position
        self.game_columns = game_columns(unit.options, game, stack)
        self.stack = stack
        # carried stacks: each seat's chips at the end of its last hand (for ``rebuy``)
        self.kept: list[int] | None = [stack] * self.n if unit.carry_stacks else None
        self.baseline: list[list[int]] = []  # per hand: each seat's baseline net
        # duplicate: the current deal's hands and the index of each one's first seat row,
        # settled together once its last seating is played (variance.settle_deal)
        self.deal: list[tuple[Any, int]] = []
        self.aivat: Any = None  # a TableAivat when the unit asks for aivat_net
        self.hands: list[tuple] = []
        self.seats: list[tuple] = []
        self.actions: list[tuple] = []

    def on_decision(self, d: Any) -> None:
        self.decided[d.index] = d
        if self.aivat is not None:
            self.aivat.on_decision(d)
        if self.observer is not None and d.seconds is not None:
            entrant = self.entrant_at[d.hand_no % self.rotations][d.seat]
            self.observer.on_decision(self.unit.bots[entrant], d.seconds)

    def on_hand(self, local_no: int, hand: Any, seat_of: list[int]) -> None:
        key = tuple(seat_of)
        seat_bot = self.seat_bots.get(key)
        if seat_bot is None:
            seat_bot = self.seat_bots[key] = [""] * self.n
            for j, s in enumerate(seat_of):
                seat_bot[s] = self.unit.bots[j]
        hand_no = self.unit.first_hand + local_no
        if self.full:
            decisions, faults = self._action_rows(hand_no, hand.log, seat_bot)
        else:
            decisions, faults = self._decision_counts(hand.log)
        self.decided.clear()
        res = hand.result()
        won = [0] * self.n
        for p in res.pots:
            for s, v in p.winners.items():
                won[s] += int(v)
        end = hand.observation(hand.button)
        self.hands.append(self._hand_row(hand_no, local_no, hand, res, end, decisions, won))
        base = self.baseline[local_no] if self.baseline else None
        corrected = None if self.aivat is None else \
            self.aivat.nets(hand, seat_of, hand_no // self.rotations)
        first_row = len(self.seats)
        evaluations = self._seat_rows(hand_no, hand, res, end, seat_bot, won, faults, base,
                                      corrected)
        if self.unit.duplicate:
            self.deal.append((hand, first_row))
            if local_no % self.rotations == self.rotations - 1:
                self._settle_deal(hand_no // self.rotations)
        if self.observer is not None:
            self.observer.on_hand(hand_no, evaluations)

    def _decision_counts(self, log: Any) -> tuple[int, list[int]]:
        """The hand's decisions and faults per seat, as :meth:`_action_rows` counts them,
        without its rows (``record = "hands"``)."""
        decided = self.decided
        decisions = 0
        faults = [0] * self.n
        for k, (actor, act) in enumerate(log):
            d = decided.get(k)
            if d is not None:
                decisions += 1
                if d.fault is not None:
                    faults[actor] += 1
            elif actor >= 0 and act.kind in PLAYER_KINDS:
                decisions += 1
                faults[actor] += 1
        return decisions, faults

    def _action_rows(self, hand_no: int, log: Any, seat_bot: list[str]
                     ) -> tuple[int, list[int]]:
        """Append the hand's ``actions`` rows; return its decisions and faults per seat."""
        u = self.unit
        run_id, match = u.run_id, u.match
        decided = self.decided
        streets = _streets(len(log), decided)
        decisions = 0
        faults = [0] * self.n
        append = self.actions.append
        for k, (actor, act) in enumerate(log):
            d = decided.get(k)
            fault = False
            kind = act.kind
            if d is not None or (actor >= 0 and kind in PLAYER_KINDS):
                decisions += 1
                fault = d is None or d.fault is not None
                if fault:
                    faults[actor] += 1
            cards = act.cards
            append((run_id, match, hand_no, k, streets[k], actor,
                    seat_bot[actor] if actor >= 0 else None, kind,
                    int(act.amount) if kind != "dh" and kind != "db" else 0,
                    cards_text(cards) if cards else None, act.target if kind == "dh" else None,
                    fault))
        return decisions, faults

    def _hand_row(self, hand_no: int, local_no: int, hand: Any, res: Any, end: Any,
                  decisions: int, won: list[int]) -> tuple:
        """The hand's ``hands`` row (a passed deal's pot carried per rotation)."""
        u = self.unit
        board = list(end.board)
        rot = local_no % self.rotations
        carry_in = self.carried[rot]
        carry_out = int(getattr(res, "carry", 0) or 0)
        self.carried[rot] = carry_out
        return (u.run_id, u.match, hand_no, hand_no // self.rotations, u.variant, u.betting,
                self.n, hand.button, cards_text(board) if board else None,
                int(sum(p.amount for p in res.pots)), int(res.rake),
                bool(res.went_to_showdown), bool(getattr(res, "passed", False)), carry_in,
                carry_out, decisions, sum(1 for w in won if w > 0), *self.game_columns)

    def _seat_rows(self, hand_no: int, hand: Any, res: Any, end: Any, seat_bot: list[str],
                   won: list[int], faults: list[int], base: list[int] | None,
                   corrected: Any = None) -> int:
        """Append the hand's ``seats`` rows; return its evaluations (one per ranking a
        seat was scored on at the showdown). ``corrected``: each seat's ``aivat_net``."""
        from pokerarena.arena.match import showdown_categories

        u = self.unit
        sd = res.showdown
        categories = showdown_categories(hand, self.game) if sd else {}
        button = hand.button
        evaluations = 0
        # duplicate: equity_net is the raw net until the deal is settled (_settle_deal)
        eq = equity_deltas(hand, samples=EQUITY_SAMPLES, seed=hand_no) \
            if sd and not u.duplicate else None
        starts, rebuys = self._starts(res)
        positions = self.positions.get(button)
        if positions is None:
            positions = self.positions[button] = [(seat - button - 1) % self.n
                                                  for seat in range(self.n)]
        ups = end.up
        folded = end.folded
        stacks, deltas = res.stacks, res.deltas
        run_id, match, variant, betting = u.run_id, u.match, u.variant, u.betting
        append = self.seats.append
        for seat in range(self.n):
            info = sd.get(seat)
            up = ups[seat]
            high = high_cat = low = low_cat = None
            if info is not None:
                high_cat, low_cat = categories.get(seat, (None, None))
                high, low = info.get("high") or None, info.get("low") or None
                evaluations += (high_cat is not None) + (low_cat is not None)
            delta = deltas[seat]
            append((
                run_id, match, hand_no, variant, betting, seat, positions[seat],
                seat == button, seat_bot[seat], cards_text(hand.cards_of(seat)),
                cards_text(up) if up else None, starts[seat], int(stacks[seat]), int(delta),
                won[seat], bool(folded[seat]), info is not None, high, high_cat, low, low_cat,
                faults[seat], float(delta) if eq is None else round(eq[seat], 3),
                None if base is None else int(base[seat]), rebuys[seat],
                None if corrected is None else float(corrected[seat])))
        return evaluations

    def _settle_deal(self, deal: int) -> None:
        """Fill the ``equity_net`` of the deal's seat rows: its hands settled together at
        the point they share, the Monte Carlo boards seeded by the deal (the same boards
        for every seating); settling each hand alone would undo duplicate's cancelling."""
        hands = [h for h, _ in self.deal]
        settled = settle_deal(hands, samples=EQUITY_SAMPLES, seed=deal)
        for (_, first), eq in zip(self.deal, settled, strict=True):
            if eq is None:
                continue
            for seat in range(self.n):
                row = self.seats[first + seat]
                self.seats[first + seat] = (*row[:_EQUITY], round(eq[seat], 3),
                                            *row[_EQUITY + 1:])
        self.deal.clear()

    def _starts(self, res: Any) -> tuple[list[int], list[int]]:
        """Each seat's chips at the hand's start and what it bought in before it: the
        unit's stack and nothing when stacks reset; with carried stacks the start is
        the end less the net, and the buy-in what the start adds to the last end."""
        if self.kept is None:
            return [self.stack] * self.n, [0] * self.n
        ends = [int(x) for x in res.stacks]
        starts = [e - int(d) for e, d in zip(ends, res.deltas, strict=True)]
        rebuys = [s - k for s, k in zip(starts, self.kept, strict=True)]
        self.kept = ends
        return starts, rebuys


_EQUITY = SEATS.names.index("equity_net")  # its place in a seats row

UnitRecorder = _Recorder
"""The recorder :func:`play_unit` gives ``play_match`` (its ``on_decision`` and
``on_hand``; rows in ``hands``, ``seats``, ``actions``): the simulation benchmark times
it on the very hands of a match."""


def _streets(length: int, decided: dict[int, Any]) -> list[int]:
    """Each log entry's street: a decision's own; dealer entries and forced bets carry
    the street of the decision that follows them (after the last decision: its)."""
    streets: list[Any] = [None] * length
    nxt = None
    for k in range(length - 1, -1, -1):
        d = decided.get(k)
        if d is not None:
            nxt = d.street
        streets[k] = nxt
    last = 0
    for k in range(length):
        if streets[k] is None:
            streets[k] = last
        last = streets[k]
    return streets


def _entrants(unit: Unit) -> tuple[int, list[Any]]:
    """The table's seed and the unit's bots, each seeded from the unit's SeedSequence."""
    ss = np.random.SeedSequence(unit.seed, spawn_key=unit.spawn_key)
    table_seq, *bot_seqs = ss.spawn(len(unit.bots) + 1)
    table_seed = int(table_seq.generate_state(2, np.uint64)[0] >> np.uint64(1))
    entrants = [new_bot(name, int(s.generate_state(1)[0]))
                for name, s in zip(unit.bots, bot_seqs, strict=True)]
    for e, name in zip(entrants, unit.bots, strict=True):
        with contextlib.suppress(AttributeError, TypeError):  # __slots__, read-only
            e.name = name
    return table_seed, entrants


def _baseline_nets(unit: Unit, game: Game, stack: int, table_seed: int, policy: Any
                   ) -> list[list[int]]:
    """Each hand's nets by seat with the baseline bot in every seat, on the unit's very
    deals (same table seed, same deal seed, same rotations, its stacks carried when the
    unit's are)."""
    from pokerarena.arena.match import play_match

    nets: list[list[int]] = []
    assert unit.baseline is not None
    play_match(game, [unit.baseline] * len(unit.bots), unit.hands, table_seed,
               policy=policy, duplicate=unit.duplicate, stack=stack, match_no=unit.match,
               on_hand=lambda _no, hand, _seats: nets.append(
                   [int(d) for d in hand.result().deltas]),
               deal_seed=unit.deal_seed(), carry_stacks=unit.carry_stacks)
    return nets


@dataclass(frozen=True)
class UnitTable:
    """What a unit's match is played with: its game, the table's seed, the seeded
    entrants, the fault policy of its limits and the starting stack."""

    game: Game
    table_seed: int
    entrants: list[Any]
    policy: Any
    stack: int


def unit_table(unit: Unit, cache: GameCache | None = None) -> UnitTable:
    """The unit's game, seeds, bots, fault policy and stack, as :func:`play_unit` plays
    them (the simulation benchmark plays the same match without rows)."""
    from pokerarena.arena.faults import FaultPolicy

    game = (cache or GameCache()).get(unit.variant, unit.options)
    table_seed, entrants = _entrants(unit)
    lim = unit.limits
    policy = FaultPolicy(decision_time=lim.decision_seconds, hand_time=lim.hand_seconds,
                         on_fault=lim.on_fault, max_faults=lim.max_faults)
    return UnitTable(game, table_seed, entrants, policy,
                     int(unit.stack or game.variant.stakes.stack))


def play_unit(unit: Unit, cache: GameCache | None = None,
              observer: UnitObserver | None = None, fast: bool | None = None) -> PlayedUnit:
    """Play the unit's hands; return its ``hands``, ``seats``, ``actions`` and ``faults``
    tables and each entrant's decisions and thinking time. The hands are played by the
    arena's ``play_match`` (bots' hooks, time limits and the irregularity policy), seeded
    from the unit's SeedSequence; ``observer`` (optional) hears of every decision's time,
    every hand and every fault. A unit the fast table plays exactly as the reference
    does (:mod:`~pokerarena.workers.fasttable`: hold'em with the built-in bots) is played
    there, the same rows faster; ``fast``: True or False to choose (None: unless
    ``POKERARENA_FAST_TABLE=0``)."""
    from pokerarena.arena.match import play_match

    t = unit_table(unit, cache)
    game, stack = t.game, t.stack
    if (fasttable.enabled() if fast is None else fast) and \
            fasttable.unsupported(unit, game, t.entrants) is None:
        try:
            tables, decisions, think = fasttable.play(unit, game, t.table_seed, t.entrants,
                                                      stack, observer)
            return PlayedUnit({**tables, "faults": FAULTS.table([])}, decisions, think)
        except fasttable.Overflow:
            # a hand beyond the fast table's fixed room (an equity memo of more than
            # 128 entries): the reference table plays the unit, from fresh bots
            t = unit_table(unit, cache)
    rec = _Recorder(unit, game, stack, observer)
    if unit.baseline:
        rec.baseline = _baseline_nets(unit, game, stack, t.table_seed, t.policy)
    seated = t.entrants
    if unit.aivat:  # declared bots seated behind recorders of their policies
        from pokerarena.tournaments.aivat_engine import TableAivat

        deals = unit.deal_seed()
        rec.aivat = TableAivat(unit.variant, unit.options, t.entrants,
                               t.table_seed if deals is None else deals)
        seated = rec.aivat.seated
    result = play_match(game, seated, unit.hands, t.table_seed, policy=t.policy,
                        duplicate=unit.duplicate, stack=stack, match_no=unit.match,
                        on_hand=rec.on_hand, on_decision=rec.on_decision,
                        deal_seed=unit.deal_seed(), carry_stacks=unit.carry_stacks)
    if unit.carry_stacks and not result.chips_conserved:
        raise RuntimeError(f"unit {unit.unit_id}: chips were not conserved (an engine bug)")
    faults = [(unit.run_id, unit.match, unit.first_hand + f.hand_no if f.hand_no >= 0
               else None, f.seat, f.bot, f.kind, f.detail) for f in result.faults]
    if observer is not None:
        for f in result.faults:
            observer.on_fault(f.bot, f.kind)
    return PlayedUnit({"hands": HANDS.table(rec.hands), "seats": SEATS.table(rec.seats),
                       "actions": ACTIONS.table(rec.actions), "faults": FAULTS.table(faults)},
                      [e.decisions for e in result.entrants],
                      [e.think_time for e in result.entrants])
