"""Matches between bots at one table, under the fault rules, with optional duplicate deals.

``play_match(game, ["tag", "random"], hands=1000, seed=1)`` plays hand after hand from
the same stacks (the button moves one seat each hand). With ``duplicate=True`` every
deal is played once in each seating of the entrants (:func:`seatings`: heads-up twice,
the cards swapped; three players all six permutations, four all 24; cyclic rotations
beyond), which removes most of the luck of the cards from the comparison. With
``carry_stacks=True`` the stacks go on from hand to hand (table stakes carried, as in a
cash game) instead of starting every hand from ``stack`` (the ACPC's "Doyle's game"):
see :class:`TableStakes`. Results
are per entrant (not per seat): chips won, mbb per hand with a 95% confidence interval
(``mbb``: thousandths of the big blind, or of the small bet in games without blinds),
faults, decisions and thinking time.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokerarena.arena.faults import Fault, FaultPolicy, GuardedBot, policy_action
from pokerarena.arena.views import ViewMaker
from pokerarena.arena.warmup import warm_up
from pokerarena.bots.base import MatchInfo, build_summary, down_cards
from pokerarena.bots.registry import make_bot
from pokerarena.bots.strength.estimate import register_game
from pokerarena.engine.actions import DEALER, IllegalAction
from pokerarena.engine.game import Game
from pokerarena.engine.hand import Hand
from pokerarena.engine.keys import game_info_of


def big_blind(game: Game) -> int:
    """The unit of mbb: the big blind, or the small bet in games without blinds."""
    return max(game.blinds) if game.blinds and max(game.blinds) > 0 else game.small_bet


@dataclass
class EntrantResult:
    """One entrant's results."""

    name: str
    net: float = 0.0
    samples: list[float] = field(default_factory=list)
    faults: int = 0
    decisions: int = 0
    think_time: float = 0.0
    removed_at: int | None = None
    rebuys: int = 0
    bought_in: int = 0

    def stats(self, hands: int, bb: int) -> dict[str, Any]:
        """mbb/hand and its 95% half-width (normal approximation over the samples)."""
        s = np.asarray(self.samples, dtype=np.float64)
        per = hands / max(1, s.size)  # hands per sample (duplicate: rotations per deal)
        mean = 1000.0 * self.net / bb / max(1, hands)
        half = 0.0
        if s.size > 1:
            half = 1.96 * 1000.0 * float(s.std(ddof=1)) / bb / per / math.sqrt(s.size)
        return {"mbb_per_hand": round(mean, 1), "ci95": round(half, 1)}


@dataclass
class MatchResult:
    """Everything a match produced."""

    variant: str
    betting: str
    seed: int
    hands: int
    duplicate: bool
    big_blind: int
    entrants: list[EntrantResult]
    faults: list[Fault]
    chips_conserved: bool = True
    seconds: float = 0.0
    carry_stacks: bool = False

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        out = []
        for e in self.entrants:
            d = {"bot": e.name, "net": e.net, **e.stats(self.hands, self.big_blind),
                 "faults": e.faults, "decisions": e.decisions,
                 "decisions_per_s": round(e.decisions / e.think_time, 1) if e.think_time
                 else None}
            if e.removed_at is not None:
                d["removed_at_hand"] = e.removed_at
            if self.carry_stacks:
                d["rebuys"], d["bought_in"] = e.rebuys, e.bought_in
            out.append(d)
        extra = {"carry_stacks": True} if self.carry_stacks else {}
        return {"variant": self.variant, "betting": self.betting, "seed": self.seed,
                "hands": self.hands, "duplicate": self.duplicate,
                "big_blind": self.big_blind, "entrants": out,
                "faults": [f.as_dict() for f in self.faults],
                "chips_conserved": self.chips_conserved, "seconds": round(self.seconds, 2),
                **extra}


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a hand, as the table saw it (given to ``on_decision``).

    ``index``: the entry's position in the hand's action log; ``street``: index of the
    variant's street; ``answer``: what the bot answered (None when it gave nothing:
    timeout, exception, removed); ``action``: the action applied (the log's entry);
    ``fault``: the fault's kind (None: the bot's own answer was applied); ``seconds``:
    the time the bot spent on it, as the fault guard measured it (None: the policy
    decided without asking the bot).
    """

    hand_no: int
    seat: int
    index: int
    street: int
    answer: Any
    action: Any
    fault: str | None
    seconds: float | None = None


_RANKINGS: dict[str, tuple[Any, Any]] = {}  # by Game.key: (high, low)
RANKINGS_KEPT = 64  # games whose rankings stay cached (an option sweep has many)


def _rankings(game: Game) -> tuple[Any, Any]:
    """(high, low) evaluator rankings of a game's showdown, with the game's options
    (None when unavailable)."""
    key = game.key
    hit = _RANKINGS.get(key)
    if hit is not None:
        return hit
    high = low = None
    try:
        from pokerarena.evaluator import ranking

        sd = getattr(game, "showdown", None) or game.variant.showdown
        kwargs: dict[str, Any] = {"deck": game.variant.deck}
        if sd.wild != "none":
            kwargs["wild"] = sd.wild
        high = ranking(sd.high, **kwargs) if sd.high is not None else None
        low = ranking(sd.low, **kwargs) if sd.low is not None else None
    except Exception:  # noqa: BLE001 - categories are descriptive only
        high = low = None
    if len(_RANKINGS) >= RANKINGS_KEPT:
        del _RANKINGS[next(iter(_RANKINGS))]  # the oldest first
    _RANKINGS[key] = (high, low)
    return high, low


def _category(value: Any, rk: Any) -> str | None:
    if value is None or rk is None:
        return None
    try:
        from pokerarena.evaluator import category

        return category(int(value), rk)
    except Exception:  # noqa: BLE001 - e.g. a ranking without categories
        return None


def showdown_categories(hand: Any, game: Game | None = None) -> dict[int, tuple[Any, Any]]:
    """Seat -> (high category, low category) of every hand compared at the showdown
    (``"Flush"``, ...; None where the game has no such ranking); ``game``: the game the
    categories are named in (default: the hand's)."""
    res = hand.result()
    sd = res.showdown_raw
    if not sd:
        return {}
    game = game or hand.game
    high_rk, low_rk = _rankings(game)
    board = list(hand.board)
    out = {}
    for seat in sorted(sd):
        cards = hand.cards_of(seat)
        hv = game.scorer.high(cards, board) if high_rk is not None else None
        lv = game.scorer.low(cards, board) if low_rk is not None else None
        out[seat] = (_category(hv, high_rk), _category(lv, low_rk))
    return out


def play_hand(hand: Hand, guards: Sequence[GuardedBot], seat_of: Sequence[int], *,
              hand_no: int, match_no: int = 0, game_info: dict[str, Any] | None = None,
              faults: list[Fault] | None = None,
              on_decision: Callable[[Decision], None] | None = None) -> None:
    """Play one hand to its end; ``guards[j]`` sits at seat ``seat_of[j]``. Bots get
    :class:`~pokerarena.bots.base.SeatView` copies only, never the hand or an engine
    observation. ``on_decision(Decision)`` is called after each decision."""
    at_seat: dict[int, GuardedBot] = {s: guards[j] for j, s in enumerate(seat_of)}
    views = ViewMaker(hand, hand_no=hand_no, match_no=match_no, game_info=game_info)
    for s, g in at_seat.items():
        if g.wants("start_hand"):
            g.start_hand(views.view(s))
    steps = 0
    log = hand.log
    while not hand.is_over:
        seat = hand.to_act
        if seat is None or seat == DEALER:
            raise RuntimeError("the hand waits for the dealer: use automatic dealing")
        view = views.view(seat)
        guard = at_seat[seat]
        action = guard.act(view)
        index = len(log)
        fault = guard.last_fault
        try:
            hand.apply(action)
        except IllegalAction as exc:
            guard._record(hand_no, seat, "illegal", str(exc))
            fault = "illegal"
            fallback = policy_action(view.legal, view.hole, guard.policy.on_fault,
                                     down_cards(view), fault)
            try:
                hand.apply(fallback)
            except IllegalAction as exc2:  # pragma: no cover - a policy/engine mismatch
                raise RuntimeError(f"hand {hand_no}, seat {seat}: the irregularity policy's "
                                   f"{fallback} is not legal either: {exc2}") from None
        if on_decision is not None:
            on_decision(Decision(hand_no, seat, index, view.street, guard.last_answer,
                                 log[index][1] if index < len(log) else action, fault,
                                 guard.last_seconds))
        steps += 1
        if steps > 10_000:  # pragma: no cover - an engine bug, not a bot's
            raise RuntimeError("a hand took more than 10000 actions")
    for s, g in at_seat.items():
        if g.wants("end_hand"):
            g.end_hand(build_summary(hand, s, hand_no=hand_no, match_no=match_no))


def _guards(entrants: Sequence[Any], bot_seqs: Sequence[Any], policy: FaultPolicy,
            faults: list[Fault]) -> tuple[list[GuardedBot], list[str]]:
    """Each entrant as a bot (a spec is made, seeded from its SeedSequence) under the
    fault guard, and its name; a name seen before is labelled ``name#j``."""
    guards: list[GuardedBot] = []
    names: list[str] = []
    for j, (e, bs) in enumerate(zip(entrants, bot_seqs, strict=True)):
        bot = make_bot(e, int(bs.generate_state(1)[0])) if isinstance(e, str) else e
        label = e if isinstance(e, str) else str(getattr(e, "name", f"bot{j}"))
        names.append(label)
        guards.append(GuardedBot(bot, policy, label=f"{label}#{j}" if names.count(label) > 1
                                 else label, faults=faults))
    return guards, names


ALL_PERMUTATIONS_UP_TO = 4


def seatings(n: int) -> list[tuple[int, ...]]:
    """The seatings of one duplicate deal: ``seating[j]`` is the seat of entrant ``j``;
    every permutation up to :data:`ALL_PERMUTATIONS_UP_TO` players (each entrant holds
    each seat's cards against every arrangement of the others), the ``n`` cyclic
    rotations beyond (each entrant in each seat once)."""
    if n < 2:
        raise ValueError("a table needs at least two seats")
    if n <= ALL_PERMUTATIONS_UP_TO:
        return list(itertools.permutations(range(n)))
    return [tuple((j + r) % n for j in range(n)) for r in range(n)]


def _tally(results: list[EntrantResult], guards: list[GuardedBot], table: TableStakes
           ) -> None:
    """Copy each guard's fault count, decisions and thinking time to its result, and
    each seat's buy-ins (entrant ``j`` sits in seat ``j`` when stacks are carried)."""
    for j, (r, g) in enumerate(zip(results, guards, strict=True)):
        r.faults = g.count
        r.decisions = g.decisions
        r.think_time = g.think_time
        r.removed_at = g.removed_at
        r.rebuys = table.rebuys[j]
        r.bought_in = table.bought[j]


def forced_most(game: Game, n: int) -> int:
    """The most chips a hand of ``n`` players can make one seat post before it decides
    anything: the largest ante plus blind of any position, plus the bring-in."""
    antes, blinds = game.forced_by_position(n)
    return max(a + b for a, b in zip(antes, blinds, strict=True)) + game.bring_in


class TableStakes:
    """The seats' chips from hand to hand (by seat).

    Reset (``carry=False``, the ACPC's "Doyle's game"): every hand starts from ``start``.
    Carried: a seat keeps what it had at the end of its last hand (000_… «Настольные
    ставки»: «Любая выигранная игроком сумма добавляется к настольной»); a seat left with
    less than it may be made to post (``need``: its forced bets, at least one chip, at
    most ``start``) buys in again between hands, topped up to ``start`` («он может
    увеличить настольную сумму из своего кармана — но не во время игры»), each buy-in
    counted in ``rebuys`` and its chips in ``bought``. :meth:`settle` checks that the
    chips on the table, the pot a passed deal leaves and what the house took (rake,
    kitty) are every chip the seats brought."""

    def __init__(self, start: int, n: int, need: int, carry: bool) -> None:
        self.start = start
        self.carry = carry
        self.need = max(1, min(need, start))
        self.stacks = [start] * n
        self.rebuys = [0] * n
        self.bought = [0] * n
        self.raked = 0

    def deal(self) -> list[int]:
        """The stacks the next hand starts from (short seats topped up first)."""
        if self.carry:
            for s, chips in enumerate(self.stacks):
                if chips < self.need:
                    self.rebuys[s] += 1
                    self.bought[s] += self.start - chips
                    self.stacks[s] = self.start
        return list(self.stacks)

    def settle(self, stacks: Sequence[Any], taken: int, pot_out: int) -> bool:
        """Take a hand's end ``stacks`` (carried stacks; ``taken``: the rake and the
        kitty's unit, off the table); False if chips went missing."""
        if not self.carry:
            return True
        self.stacks = [int(x) for x in stacks]
        self.raked += taken
        return sum(self.stacks) + pot_out + self.raked == \
            self.start * len(self.stacks) + sum(self.bought)


def _check_carry(game: Game, duplicate: bool) -> None:
    if duplicate:
        raise ValueError("carried stacks cannot be dealt in duplicate (each seating would "
                         "need its own chain of stacks)")
    if game.program.odd_chip == "fractional":
        raise ValueError("carried stacks need whole chips: odd_chip = 'fractional' leaves "
                         "fractions on the table")


def _seat_bots(game: Game, entrants: Sequence[Any], hands: int, seed: int, match_no: int,
               policy: FaultPolicy, faults: list[Fault]
               ) -> tuple[Any, list[GuardedBot], list[str], dict[str, Any]]:
    """The match's deal SeedSequence, its guarded bots (warmed up, told the match has
    started) and their names, and the game's description the bots get."""
    n = len(entrants)
    register_game(game)
    deal_seq, *bot_seqs = np.random.SeedSequence(seed).spawn(n + 1)
    guards, names = _guards(entrants, bot_seqs, policy, faults)
    info_game = game_info_of(game)  # with the game key, by which bots find their caches
    warm_up(game, [g.bot for g in guards], n)  # kernels and tables, before any clock runs
    for j, g in enumerate(guards):
        g.start_match(MatchInfo(match_no, game.variant.id, game.system_name, info_game, n,
                                hands, tuple(names), j), j)
    return deal_seq, guards, names, info_game


def play_match(game: Game, entrants: Sequence[Any], hands: int, seed: int, *,
               policy: FaultPolicy | None = None, duplicate: bool = False,
               stack: int | None = None, match_no: int = 0,
               on_hand: Callable[[int, Any, list[int]], None] | None = None,
               on_decision: Callable[[Decision], None] | None = None,
               deal_seed: int | None = None, carry_stacks: bool = False) -> MatchResult:
    """Play a match; ``entrants`` are bot specs or bot objects, one per seat.

    With ``duplicate``, ``hands`` is rounded up to a multiple of the number of seatings.
    ``on_hand(hand_no, hand, seat_of)`` is called after each hand (e.g. to log it; the
    showdown categories: :func:`showdown_categories`), ``on_decision(Decision)`` after
    each decision. ``deal_seed``: deal the cards from this seed instead of the match's
    (the bots keep theirs), so that other lineups can play the very same deals.
    ``carry_stacks``: the stacks go on from hand to hand, a short seat buying in again
    (:class:`TableStakes`; not with ``duplicate``); nets stay per hand.
    """
    t0 = time.perf_counter()
    n = len(entrants)
    if n < 2:
        raise ValueError("a match needs at least two bots")
    if carry_stacks:
        _check_carry(game, duplicate)
    faults: list[Fault] = []
    deal_seq, guards, names, info_game = _seat_bots(game, entrants, hands, seed, match_no,
                                                    policy or FaultPolicy(), faults)
    results = [EntrantResult(nm) for nm in names]
    chips = stack if stack is not None else game.variant.stakes.stack
    table = TableStakes(chips, n, forced_most(game, n), carry_stacks)
    plan = seatings(n) if duplicate else [tuple(range(n))]
    rotations = len(plan)
    deals = -(-hands // rotations)
    conserved = True
    # the deals: from the match's seed, or from ``deal_seed`` (shared by other lineups)
    deal_rng = np.random.default_rng(deal_seq if deal_seed is None else deal_seed)
    hand_no = 0
    # a deal nobody opened carries its pot to the next deal (one chain per rotation)
    carry = [0] * rotations
    passes = [0] * rotations
    try:
        for d in range(deals):
            button = d % n
            this_deal = int(deal_rng.integers(0, 2**63 - 1)) if duplicate else None
            per_deal = [0.0] * n
            for r in range(rotations):
                seat_of = list(plan[r])
                rng = np.random.default_rng(this_deal) if duplicate else deal_rng
                stacks = table.deal()
                if carry[r] or passes[r]:
                    hand = game.new_hand(rng, n, stacks, button, carry=carry[r],
                                         passes=passes[r])
                else:
                    hand = game.new_hand(rng, n, stacks, button)
                play_hand(hand, guards, seat_of, hand_no=hand_no, match_no=match_no,
                          game_info=info_game, faults=faults, on_decision=on_decision)
                res = hand.result()
                out = getattr(res, "carry", 0)
                taken = getattr(res, "rake", 0) + getattr(res, "kitty", 0)  # the house's
                kept = table.settle(res.stacks, int(taken), int(out))
                if sum(res.deltas) + taken + out != carry[r] or not kept:
                    conserved = False
                carry[r] = out
                passes[r] = passes[r] + 1 if getattr(res, "passed", False) else 0
                for j in range(n):
                    delta = float(res.deltas[seat_of[j]])
                    results[j].net += delta
                    per_deal[j] += delta
                if on_hand is not None:
                    on_hand(hand_no, hand, seat_of)
                hand_no += 1
            for j in range(n):
                results[j].samples.append(per_deal[j])
    finally:
        for g in guards:
            g.close()
    _tally(results, guards, table)
    return MatchResult(game.variant.id, game.system_name, seed, deals * rotations, duplicate,
                       big_blind(game), results, faults, conserved,
                       time.perf_counter() - t0, carry_stacks)
