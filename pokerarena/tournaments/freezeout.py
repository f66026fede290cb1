"""Freeze-outs: sit-and-go and multi-table tournaments played to the last chip.

000_… «Замороженный вклад»: «Перед игрой каждый игрок кладет на стол перед собой
одинаковое количество фишек. Выигрыши добавляются к этой сумме, но ни один игрок не
может добавлять новые фишки. Как только игрок израсходовал все свои фишки, он выбывает
из игры. Игроки играют до тех пор, пока один игрок не выиграет все фишки.» It is played
«с любой системой пределов ставок, кроме настольной»: read as excluding the table-stakes
*session* rule (a player «может увеличить настольную сумму из своего кармана» between
deals), which a freeze-out forbids; its all-in rule (a player out of chips «вправе
оставаться в игре до вскрытия карт по основному банку», side pots for the rest) is how
the engine plays every betting system, and stays.

On top of the document's rule, what tournaments add: blind/ante levels that rise with
the hands played (a *round* is one hand at every table), several tables kept within one
player of each other, a table broken as soon as the others can seat its players, the
final table, finishing places (players out in the same round: the one who started the
round with more chips places higher; equal chips share the places' prizes), payouts
from a payout table and, for a tournament stopped early, each stack's chip equity by
ICM. Chips are checked to be conserved across tables and levels after every round.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokerarena.arena.faults import Fault, FaultPolicy, GuardedBot
from pokerarena.arena.match import Decision, play_hand
from pokerarena.arena.warmup import warm_up
from pokerarena.bots.base import MatchInfo
from pokerarena.bots.registry import make_bot
from pokerarena.bots.strength.estimate import register_game
from pokerarena.engine.game import Game
from pokerarena.engine.hand import Hand
from pokerarena.engine.keys import game_info_of
from pokerarena.engine.table import Table
from pokerarena.tournaments.icm import MAX_PLAYERS, icm_equity, payout_table

MAX_ROUNDS = 100_000
ICM_SAMPLES = 20_000  # finishing orders drawn when more stacks are left than exact ICM takes


@dataclass(frozen=True)
class Level:
    """One blind level: from round ``start`` on, the game's options ``options``
    (e.g. ``{"blinds": [50, 100], "ante": 10}``)."""

    start: int
    options: dict[str, Any]


@dataclass
class Standing:
    """One player's finish: its place (1 = winner), prize, chips at the end, and the
    round it went out in (None: still in when the tournament stopped)."""

    player: int
    bot: str
    place: int
    prize: float = 0.0
    chips: int = 0
    out_round: int | None = None
    icm: float | None = None


@dataclass
class FreezeOutResult:
    """The outcome: standings best first, rounds and hands played, whether it finished
    (one player holds everything) and whether chips were conserved throughout."""

    standings: list[Standing]
    rounds: int
    hands: int
    finished: bool
    chips_conserved: bool
    prize_pool: float
    tables_history: list[list[int]] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)  # per entry
    think_seconds: list[float] = field(default_factory=list)  # per entry

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"rounds": self.rounds, "hands": self.hands, "finished": self.finished,
                "chips_conserved": self.chips_conserved, "prize_pool": self.prize_pool,
                "standings": [vars(s) for s in self.standings]}


@dataclass(frozen=True)
class HandPlayed:
    """What ``on_hand`` hears after each hand (so a caller can record it): its number in
    the tournament's hand order, the round and the table (its index in that round), the
    finished hand, the entry in each of the hand's seats, each seat's chips and the
    table's carried pot at the hand's start, and the blind level's index and game."""

    hand_no: int
    round: int
    table: int
    hand: Hand
    players: tuple[int, ...]
    stacks: tuple[int, ...]
    carry_in: int
    level: int
    game: Game


@dataclass
class _Seat:
    player: int
    stack: int


class _Tables:
    """The tournament's tables: who sits where, with how many chips."""

    def __init__(self, players: int, size: int, stack: int, rng: np.random.Generator):
        count = -(-players // size)
        order = rng.permutation(players)
        self.size = size
        self.seats: list[list[_Seat]] = [[_Seat(int(p), stack) for p in part]
                                         for part in np.array_split(order, count)]
        self.buttons = [0] * count
        self.carry = [0] * count  # a pot left by a deal nobody opened, per table

    def alive(self) -> int:
        return sum(1 for t in self.seats for s in t if s.stack > 0)

    def drop_busted(self) -> None:
        for t, table in enumerate(self.seats):
            keep = [s for s in table if s.stack > 0]
            if len(keep) != len(table):
                self.buttons[t] = self.buttons[t] % max(1, len(keep))
                table[:] = keep
        for t in reversed([t for t, table in enumerate(self.seats) if not table]):
            self._remove(t)

    def _remove(self, t: int) -> list[_Seat]:
        """Take table ``t`` away; a pot it carried goes to the table of fewest players."""
        seats = self.seats.pop(t)
        del self.buttons[t]
        carry = self.carry.pop(t)
        if self.seats:
            self.carry[self.seats.index(self._emptiest())] += carry
        return seats

    def chips(self) -> int:
        """Every chip on the tables: stacks and carried pots."""
        return sum(s.stack for t in self.seats for s in t) + sum(self.carry)

    def balance(self) -> None:
        """Break a table when the others can seat its players; then move players from
        the fullest to the emptiest table until they differ by at most one. The player
        moved is the one two seats left of the button (the next big blind), so nobody
        escapes the blinds by moving."""
        while len(self.seats) > 1 and self.alive() <= self.size * (len(self.seats) - 1):
            t = min(range(len(self.seats)), key=lambda k: (len(self.seats[k]), -k))
            for s in self._remove(t):
                self._emptiest().append(s)
        while True:
            sizes = [len(t) for t in self.seats]
            if max(sizes) - min(sizes) <= 1:
                return
            src = sizes.index(max(sizes))
            table = self.seats[src]
            k = (self.buttons[src] + 2) % len(table)
            mover = table.pop(k)
            if k < self.buttons[src]:
                self.buttons[src] -= 1
            self.buttons[src] %= len(table)
            self._emptiest().append(mover)

    def _emptiest(self) -> list[_Seat]:
        return min(self.seats, key=len)


def _level_games(variant: str, betting: str | None, levels: Sequence[Level]
                 ) -> list[tuple[int, Game]]:
    games = []
    for lv in sorted(levels, key=lambda x: x.start):
        opts = dict(lv.options)
        if betting:
            opts["betting"] = betting
        games.append((lv.start, Game(variant, opts)))
    if not games or games[0][0] != 0:
        raise ValueError("the first level must start at round 0")
    return games


def play_freeze_out(variant: str, bots: Sequence[str], *, stack: int,
                    levels: Sequence[Level], betting: str | None = None,
                    table_size: int = 9, payouts: Sequence[float] = (0.5, 0.3, 0.2),
                    buy_in: float = 1.0, seed: int | np.random.SeedSequence = 0,
                    max_rounds: int = MAX_ROUNDS, policy: FaultPolicy | None = None,
                    on_hand: Callable[[HandPlayed], None] | None = None,
                    on_decision: Callable[[Decision], None] | None = None,
                    faults: list[Fault] | None = None, match_no: int = 0
                    ) -> FreezeOutResult:
    """Play a freeze-out of ``bots`` (one entry per player; names may repeat) with
    ``stack`` chips each: a sit-and-go when they fit one table of ``table_size``, a
    multi-table tournament otherwise. Prizes: ``payouts`` (fractions of the pool of
    ``buy_in`` per player, best place first). Stops after ``max_rounds`` rounds at the
    latest; the players still in then get ICM chip equity and places by chips.

    Everything random comes from ``seed`` (an int, or a SeedSequence such as a work
    unit's). ``on_hand(HandPlayed)`` hears every hand as it ends, ``on_decision`` every
    decision (:class:`~pokerarena.arena.match.Decision`, ``hand_no`` in the tournament's
    hand order); the bots' faults are appended to ``faults`` when given."""
    if len(bots) < 2:
        raise ValueError("a freeze-out needs at least two players")
    if not 2 <= table_size <= 10:
        raise ValueError("table_size must be 2 to 10")
    games = _level_games(variant, betting, levels)
    pool = buy_in * len(bots)
    prizes = payout_table(pool, payouts)
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    seat_seq, deck_seq, *bot_seqs = ss.spawn(len(bots) + 2)
    rng = np.random.default_rng(deck_seq)
    guards = [GuardedBot(make_bot(b, int(s.generate_state(1)[0])), policy, label=b,
                         faults=faults) for b, s in zip(bots, bot_seqs, strict=True)]
    tables = _Tables(len(bots), table_size, stack, np.random.default_rng(seat_seq))
    out_order: list[tuple[int, int, int]] = []  # (round, chips at round start, player)
    state = _Run(games, guards, rng)
    state.on_hand, state.on_decision, state.match_no = on_hand, on_decision, match_no
    try:
        state.start(bots, min(len(bots), table_size), max_rounds)
        while tables.alive() > 1 and state.rounds < max_rounds:
            start = {s.player: s.stack for t in tables.seats for s in t}
            state.play_round(tables)
            if tables.chips() != stack * len(bots):
                state.conserved = False
            after = {s.player: s.stack for t in tables.seats for s in t}
            for p, chips in start.items():
                if chips > 0 and after[p] == 0:
                    out_order.append((state.rounds, chips, p))
            tables.drop_busted()
            tables.balance()
            state.history.append([len(t) for t in tables.seats])
    finally:
        for g in guards:
            g.close()
    icm_rng = np.random.default_rng(ss.spawn(1)[0])  # a child after the others: they
    result = _result(bots, tables, out_order, prizes, pool, state, icm_rng)  # stay as were
    result.decisions = [g.decisions for g in guards]
    result.think_seconds = [g.think_time for g in guards]
    return result


class _Run:
    """The rounds played so far, with the level schedule and the deck's generator."""

    def __init__(self, games: list[tuple[int, Game]], guards: list[GuardedBot],
                 rng: np.random.Generator) -> None:
        self.games = games
        self.guards = guards
        self.rng = rng
        self.rounds = 0
        self.hands = 0
        self.conserved = True
        self.history: list[list[int]] = []
        self.on_hand: Callable[[HandPlayed], None] | None = None
        self.on_decision: Callable[[Decision], None] | None = None
        self.match_no = 0
        self.infos: list[dict[str, Any]] = []  # each level's game as the bots' views give it

    def start(self, bots: Sequence[str], seats: int, rounds: int) -> None:
        """What a match does before its first hand (arena.match.play_match): the levels'
        games registered, the strength bots warmed up, each bot told of the tournament
        (the first level's game, its seats per table, the round limit), before any
        clock runs."""
        for _start, game in self.games:
            register_game(game)
            self.infos.append(game_info_of(game))
        game = self.games[0][1]
        warm_up(game, [g.bot for g in self.guards], seats)
        for j, g in enumerate(self.guards):
            g.start_match(MatchInfo(self.match_no, game.variant.id, game.system_name,
                                    self.infos[0], seats, rounds, tuple(bots), j), j)

    def level(self) -> int:
        """The index of the level of the current round."""
        current = 0
        for k, (start, _g) in enumerate(self.games):
            if start <= self.rounds:
                current = k
        return current

    def play_round(self, tables: _Tables) -> None:
        """One hand at every table that has two players or more."""
        level = self.level()
        game = self.games[level][1]
        for t, seats in enumerate(tables.seats):
            if len(seats) < 2:
                continue
            stacks = tuple(s.stack for s in seats)
            table = Table(game, list(stacks), seed=self.rng,
                          button=tables.buttons[t] % len(seats), mode="freeze_out")
            table.carry = carry_in = tables.carry[t]
            hand = table.new_hand()
            players = tuple(seats[i].player for i in table.hand_seats)
            play_hand(hand, [self.guards[p] for p in players], list(range(len(players))),
                      hand_no=self.hands, match_no=self.match_no,
                      game_info=self.infos[level], on_decision=self.on_decision)
            table.finish(hand)
            if self.on_hand is not None:
                self.on_hand(HandPlayed(self.hands, self.rounds, t, hand, players,
                                        tuple(stacks[i] for i in table.hand_seats),
                                        carry_in, level, game))
            tables.carry[t] = table.carry
            for i, s in enumerate(seats):
                s.stack = int(table.stacks[i])
            tables.buttons[t] = (tables.buttons[t] + 1) % len(seats)
            self.hands += 1
        self.rounds += 1


def _result(bots: Sequence[str], tables: _Tables, out_order: list[tuple[int, int, int]],
            prizes: list[float], pool: float, state: _Run,
            rng: np.random.Generator) -> FreezeOutResult:
    """Places: the players still in by chips (ICM equity when more than one), then the
    players out, last out first, ties (same round, same starting chips) sharing the
    prizes of the places they span."""
    alive = sorted(((s.stack, s.player) for t in tables.seats for s in t if s.stack > 0),
                   reverse=True)
    groups: list[list[tuple[int, int | None, int]]] = [[(p, None, c)] for c, p in alive]
    by_key: dict[tuple[int, int], list[tuple[int, int | None, int]]] = {}
    for rnd, chips, p in sorted(out_order, key=lambda x: (-x[0], -x[1])):
        by_key.setdefault((rnd, chips), []).append((p, rnd, 0))
    groups.extend(by_key[k] for k in sorted(by_key, key=lambda k: (-k[0], -k[1])))
    pay = list(prizes) + [0.0] * len(bots)
    standings: list[Standing] = []
    place = 1
    equity = chip_equity([c for c, _ in alive], prizes, rng) if len(alive) > 1 else None
    for group in groups:
        share: float = sum(pay[place - 1:place - 1 + len(group)]) / len(group)
        for p, out_round, chips in group:
            st = Standing(p, bots[p], place, share, chips, out_round)
            if equity is not None and out_round is None:
                st.icm = equity[[q for _, q in alive].index(p)]
            standings.append(st)
        place += len(group)
    return FreezeOutResult(standings, state.rounds, state.hands, len(alive) == 1,
                           state.conserved, pool, state.history)


def chip_equity(stacks: Sequence[int], prizes: Sequence[float], rng: np.random.Generator,
                exact_up_to: int = MAX_PLAYERS, samples: int = ICM_SAMPLES) -> list[float]:
    """Each stack's ICM equity: exact (:func:`~pokerarena.tournaments.icm.icm_equity`) up
    to ``exact_up_to`` stacks; beyond (a multi-table tournament stopped early), the mean
    prize over ``samples`` finishing orders drawn as the model has them: each stack's
    finishing time exponential with its chips as the rate, first to finish places
    first (the chance to place next is the share of the chips left, Malmuth-Harville).
    Every order pays every paid place, so the equities sum to the prizes exactly."""
    n = len(stacks)
    if n <= exact_up_to:
        return icm_equity(stacks, prizes)
    rates = np.asarray(stacks, dtype=np.float64)
    paid = min(len(prizes), n)
    equity = np.zeros(n)
    chunk = max(1, min(samples, 2_000_000 // n))
    for start in range(0, samples, chunk):
        k = min(chunk, samples - start)
        times = rng.exponential(size=(k, n)) / rates
        order = np.argsort(times, axis=1)[:, :paid]
        for place in range(paid):
            equity += np.bincount(order[:, place], minlength=n) * prizes[place]
    return [float(x) / samples for x in equity]
