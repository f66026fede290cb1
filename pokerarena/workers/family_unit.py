"""Play a work unit of a game family (painted poker, ...) and turn its games into rows.

Any family works unchanged through its :class:`~pokerarena.games.Family` fields: the
game from ``make(options)``, its bots from ``new_bot`` (or an ``http://`` endpoint,
:class:`~pokerarena.bots.adapters.family_http.FamilyHttpBot`), its record table from
``record``/``record_rows``. A unit's ``hands`` are whole games («партии»): one ``hands``
row per game and one ``seats`` row per seat, so counts, progress, metrics, the
leaderboard and the dashboards read a family run as they read poker. Scores are stored
as integers of the family's smallest step: ``hands.bb`` is the steps per point
(``Family.extra["score_scale"]``, 1 by default; painted poker's half-points: 2) and
``seats.net`` the points times ``bb``, so ``net / bb`` is exactly the points and
mbb/hand reads as milli-points per game. The ``actions`` part is empty (the record
table holds what a family's game log means); ``faults`` holds the guard's faults. A
trick-taking family (``Family.extra["tricks"]``: its tricks table, painted poker's
``painted_tricks``, ...) also gets a row per card played to a trick, from the finished
game's ``hand.tricks()`` (per deal: leader, (seat, card) in play order, winner, as the
game ruled) and the seat's bot, so the viewer shows the tricks without replaying a game.

Seeds, as for poker: the unit's ``SeedSequence(seed, spawn_key)`` seeds the table and
each bot; game ``k`` (match numbering) is dealt from ``SeedSequence(base, spawn_key=
(deal,))`` with ``base`` the unit's shared deal seed when the run has common deals.
With ``duplicate`` each deal is played once in every cyclic rotation of the lineup
(``deal = k // players``; entrant ``j`` sits in seat ``(j + r) % players``).

Series: a family whose games chain (``Family.extra["next_dealer"]``: durak, where «в
следующей игре сдает карты игрок, который проиграл в предыдущей игре») plays each unit
as one series per seating: the unit's first game of a seating is a first game, and each
later one is dealt by the seat ``next_dealer`` names after the last game of the same
seating, numbered by its position (``series_game``, which the family records). A
duplicate unit's seatings each play their own series over the same deals.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from pokerarena.arena.family_match import FamilyGuard, play_family_game, warm_up
from pokerarena.games import Family, entrant_bot, family
from pokerarena.workers.hooks import UnitObserver
from pokerarena.workers.played import PlayedUnit
from pokerarena.workers.rows import (
    ACTIONS,
    FAMILY_TABLES,
    FAULTS,
    HANDS,
    PLACES,
    SEATS,
    TABLES,
)
from pokerarena.workers.unit import Unit

__all__ = ["WARM_UP_STEPS", "family_bot", "play_family_unit", "score_scale"]

WARM_UP_STEPS = 12
"""Decisions per seat of the throwaway warm-up game before a unit's first game."""


def score_scale(fam: Family) -> int:
    """Steps per point of the family's scores (``hands.bb`` of its rows)."""
    return int(fam.extra.get("score_scale", 1))


def family_bot(fam: Family, name: str, seed: int, timeout: float | None = None) -> Any:
    """A bot of ``fam``: a built-in one by name, or an HTTP endpoint."""
    if name.startswith(("http://", "https://")):
        from pokerarena.bots.adapters.family_http import FamilyHttpBot

        return FamilyHttpBot(fam, name, timeout=timeout or 10.0)
    if fam.new_bot is None:
        raise ValueError(f"{fam.id}: the family has no built-in bots")
    return fam.new_bot(entrant_bot(name), seed)


def _seed_of(ss: np.random.SeedSequence) -> int:
    """The first 64-bit word of ``ss``'s state, halved: the seed of a table, a bot or a
    game. ``generate_state`` makes its words in order, so asking for one word gives
    the first of two (what rows were first made with) at a quarter of the cost, which
    a unit pays once a game."""
    return int(ss.generate_state(1, np.uint64)[0]) >> 1


class _FamilyRows:
    """The rows of one family unit as its games end."""

    def __init__(self, unit: Unit, fam: Family) -> None:
        self.unit = unit
        self.fam = fam
        self.n = len(unit.bots)
        self.scale = score_scale(fam)
        self.options = json.dumps(unit.options, sort_keys=True)
        self.hands: list[tuple] = []
        self.seats: list[tuple] = []
        self.records: list[tuple] = []
        self.tricks: list[tuple] = []
        self.trick_table = fam.extra.get("tricks")

    def points(self, deltas: Any) -> list[int]:
        """Each seat's points in steps of the family's scale (exact, or a bug)."""
        out = []
        for d in deltas:
            steps = round(float(d) * self.scale)
            if abs(steps - float(d) * self.scale) > 1e-6:
                raise RuntimeError(f"{self.fam.id}: a score of {d} is not a multiple of "
                                   f"1/{self.scale} (Family.extra['score_scale'])")
            out.append(steps)
        return out

    def add(self, hand_no: int, deal: int, hand: Any, names: list[str],
            faults: list[int], decisions: int) -> None:
        u = self.unit
        nets = self.points(hand.result().deltas)
        dealer = int(getattr(hand, "first_dealer", 0))
        top = max(nets)
        self.hands.append((
            u.run_id, u.match, hand_no, deal, u.variant, u.betting, self.n, dealer, None,
            0, 0, False, False, 0, 0, min(decisions, 32767), sum(1 for x in nets if x == top),
            self.scale, 0, 0, 0, 0, 0, 0, 0, 0, 0, None, self.options))
        for seat in range(self.n):
            net = nets[seat]
            self.seats.append((
                u.run_id, u.match, hand_no, u.variant, u.betting, seat,
                (seat - dealer - 1) % self.n, seat == dealer, names[seat], None, None, 0,
                net, net, max(net, 0), False, False, None, None, None, None, faults[seat],
                float(net), None, 0, None))
        if self.fam.record_rows is not None:
            self.records.extend((u.run_id, u.match, hand_no, *row)
                                for row in self.fam.record_rows(hand))
        if self.trick_table is not None:
            self.tricks.extend(
                (u.run_id, u.match, hand_no, deal_no, k, i, seat, names[seat], card, winner)
                for deal_no, tricks in hand.tricks()
                for k, (_leader, plays, winner) in enumerate(tricks)
                for i, (seat, card) in enumerate(plays))


def play_family_unit(unit: Unit, observer: UnitObserver | None = None) -> PlayedUnit:
    """Play the unit's games (see the module docstring); its data tables (the poker
    set, ``places`` empty, and the family's record table) and each entrant's decisions
    and thinking time."""
    fam = family(unit.variant)
    game = fam.make(unit.options)
    n = len(unit.bots)
    ss = np.random.SeedSequence(unit.seed, spawn_key=unit.spawn_key)
    table_seq, *bot_seqs = ss.spawn(n + 1)
    shared = unit.deal_seed()
    base = shared if shared is not None else _seed_of(table_seq)
    lim = unit.limits
    faults_seen: list[Any] = []
    guards = [FamilyGuard(family_bot(fam, name, _seed_of(s), lim.decision_seconds), name,
                          lim.decision_seconds, lim.max_faults, faults_seen)
              for name, s in zip(unit.bots, bot_seqs, strict=True)]
    builtin = [name for name in unit.bots if not name.startswith(("http://", "https://"))]
    if builtin:  # compile the bots' kernels outside the time limits (a fresh process)
        warm_up(game, json.dumps([fam.id, unit.options], sort_keys=True),
                [family_bot(fam, builtin[i % len(builtin)], 0) for i in range(n)],
                WARM_UP_STEPS * n)
    rows = _FamilyRows(unit, fam)
    rotations = n if unit.duplicate else 1
    chain = fam.extra.get("next_dealer")
    series: dict[int, tuple[int | None, int]] = {}  # seating -> (next dealer, position)
    try:
        for local in range(unit.hands):
            hand_no = unit.first_hand + local
            deal, r = divmod(hand_no, rotations)
            seated = [guards[(s - r) % n] for s in range(n)]  # entrant j in seat j + r
            before = len(faults_seen)

            def heard(seat: int, seconds: float, seated: list[FamilyGuard] = seated) -> None:
                if observer is not None:
                    observer.on_decision(seated[seat].label, seconds)

            dealer, position = series.get(r, (None, 0)) if chain else (None, None)
            hand, by_fault = play_family_game(
                game, seated, _seed_of(np.random.SeedSequence(base, spawn_key=(deal,))),
                hand_no, dealer, heard, position)
            if chain:
                series[r] = (chain(hand), (position or 0) + 1)
            per_seat = [0] * n
            for f in faults_seen[before:]:
                per_seat[f.seat] += f.kind != "removed"
            rows.add(hand_no, deal, hand, [g.label for g in seated], per_seat, len(by_fault))
            if observer is not None:
                observer.on_hand(hand_no, 0)
    finally:
        for g in guards:
            g.close()
    faults = [(unit.run_id, unit.match, f.game_no, f.seat, f.bot, f.kind, f.detail)
              for f in faults_seen]
    if observer is not None:
        for f in faults_seen:
            observer.on_fault(f.bot, f.kind)
    tables = {"hands": HANDS.table(rows.hands), "seats": SEATS.table(rows.seats),
              "actions": ACTIONS.table([]), "faults": FAULTS.table(faults),
              "places": PLACES.table([])}
    if fam.record is not None:
        assert fam.record.name in FAMILY_TABLES
        tables[fam.record.name] = TABLES[fam.record.name].table(rows.records)
    if rows.trick_table is not None:
        assert rows.trick_table.name in FAMILY_TABLES
        tables[rows.trick_table.name] = TABLES[rows.trick_table.name].table(rows.tricks)
    return PlayedUnit(tables, [g.decisions for g in guards], [g.think_time for g in guards])
