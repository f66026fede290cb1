"""Local Best Response (LBR; Lisý & Bowling, "Eqilibrium Approximation Quality of Current
No-Limit Poker Bots", 2017): a lower bound on a bot's exploitability in heads-up games too
large to walk (hold'em), for any bot that declares its policy (docs/exact.md, "Local best
response (LBR)").

LBR plays the bot heads-up. It knows the bot's declared policy, not its cards:

- **Range.** A weight for every holding the bot could have (every set of hole cards not
  among LBR's own cards or the board). At each of the bot's decisions each weight is
  multiplied by the probability the bot's ``policy(view)`` gives the action it played,
  read on the bot's real view with the holding put in place of its hole cards (the same
  public state): Bayes' rule. A bot whose policy is the same for every holding
  (:func:`card_blind`) is asked once per decision instead of once per holding; one with
  a batched form (a bot's own ``batch_policy``, as ``cfr``'s, or the strength bots'
  compiled hold'em policy) answers for every holding in one call
  (:func:`holding_policies`), the same figures.
- **Action.** At its own decision LBR values a few actions, relative to folding now, as
  if after it the hand were checked down: ``wp`` is its share of the pot against the
  range (every pair of a live holding and a board completion when few, else
  :attr:`LbrConfig.rollouts` pairs drawn from the range and the unseen cards), ``pot``
  the chips in, ``asked`` what it must call:

  - fold: 0 (only when there is something to call);
  - check/call: ``wp·pot − (1 − wp)·asked``;
  - raise by ``a`` over the call: ``fp·pot + (1 − fp)·(wp'·(pot + a) − (1 − wp')·(asked + a))``
    where ``fp`` is the range's probability of folding to it (the policy read on the view
    after the raise) and ``wp'`` the share against the holdings that do not fold (the
    paper uses ``wp``; the two agree against a bot whose folds do not depend on its
    cards, and ``wp'`` is the better guess otherwise).

  It plays the best. Raises considered: the one limit raise (fixed limit); a pot-sized
  raise (call, then raise by the pot) and all-in (no limit, pot limit), clipped to the
  legal range.
- **Value.** Seeded deals played in duplicate pairs (the same cards with LBR in each
  seat), LBR's winnings per hand with Student's 95% interval over the pairs. Each pair
  has its own seeds and a bot built afresh from its spec (:class:`PairPlayer`), so the
  pairs are independent and any range of them can be played anywhere: ``exploit
  --workers`` plays them in units on Ray actors with the same figures. LBR is one
  strategy against the bot, so a best response wins at least as much in expectation:
  ``exploitability ≥ LBR's value`` (within the interval).

The game is driven through the engine generically: any heads-up board game whose private
cards are all dealt down before the first decision and whose showdown is one ranking of
any cards (hold'em, Leduc); Leduc, small enough for the exact best response, checks it.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit

from pokerarena.arena.match import big_blind
from pokerarena.arena.views import build_view
from pokerarena.bots.base import SeatView, build_summary, declared_policy
from pokerarena.engine import Game
from pokerarena.engine.actions import (
    CALL_KIND,
    DEALER,
    FOLD_KIND,
    RAISE_KIND,
    Action,
    EngineError,
    IllegalAction,
)
from pokerarena.engine.keys import game_info_of
from pokerarena.engine.steps import BetStep, DealStep
from pokerarena.errors import UserError
from pokerarena.evaluator import evaluate_batch
from pokerarena.solvers.exact import info_key, move_key
from pokerarena.tournaments.aivat_engine import clone
from pokerarena.tournaments.aivat_value import Shape
from pokerarena.tournaments.estimates import block_rate

ROLLOUTS = 1000
"""(holding, board completion) pairs drawn for ``wp`` where there are too many to list
(hold'em before the river): its standard error is at most 0.5 / sqrt(1000) = 0.016."""
EXACT_PAIRS = 20_000
"""Pairs up to which ``wp`` is exact (every live holding with every completion)."""


class LbrError(ValueError, UserError):
    """A game LBR cannot play, or a bot it cannot read."""


@dataclass(frozen=True)
class LbrConfig:
    """LBR's knobs: ``pot_fractions`` of the no-limit raises (1.0: a pot-sized raise),
    ``all_in`` whether all-in is one, ``rollouts`` (holding, completion) pairs drawn for
    ``wp`` when there are more than ``exact_pairs``, ``condition_on_call``: ``wp'``
    after a raise against the holdings that call (True) or the paper's ``wp`` against
    the whole range (False), ``enumerate_all``: read the policy once per holding even
    for a card-blind bot, ``batch``: read every holding at once through the bot's
    ``batch_policy`` where it has one (False: one ``policy`` call per holding; the same
    figures, slower)."""

    pot_fractions: tuple[float, ...] = (1.0,)
    all_in: bool = True
    rollouts: int = ROLLOUTS
    condition_on_call: bool = True
    enumerate_all: bool = False
    exact_pairs: int = EXACT_PAIRS
    batch: bool = True

    def describe(self, system: str) -> list[str]:
        """The action set, in words, for the JSON report."""
        if system == "fixed_limit":
            return ["fold", "check/call", "bet/raise"]
        sizes = [f"raise {f:g}x pot" for f in self.pot_fractions]
        return ["fold", "check/call", *sizes, *(["all-in"] if self.all_in else [])]


def card_blind(bot: Any) -> bool:
    """Whether the bot's policy at a betting decision never reads its cards, so one read
    serves every holding: ``random``, ``call`` and ``maniac`` (their code), or a bot
    that says so with ``policy_reads_cards = False``. A test checks the shortcut against
    reading every holding."""
    from pokerarena.bots.simple.call_bot import CallBot
    from pokerarena.bots.simple.maniac import ManiacBot
    from pokerarena.bots.simple.random_bot import RandomBot

    if getattr(bot, "policy_reads_cards", True) is False:
        return True
    return type(bot) in (RandomBot, CallBot, ManiacBot)


def walkable(game: Game) -> bool:
    """Whether the exact walker takes ``game`` (kuhn, leduc), so ``exploit`` can give the
    exact best response instead of LBR's bound: the walker's own check."""
    from pokerarena.solvers.exact import ExactError, check_walkable

    try:
        check_walkable(game)
    except ExactError:
        return False
    return True


def _check_game(game: Game) -> Shape:
    """The game's :class:`Shape`; an :class:`LbrError` for a game LBR cannot play."""
    vid = game.variant_id
    lo, hi = game.variant.players
    if not lo <= 2 <= hi:
        raise LbrError(f"lbr: {vid} is not a two-player game")
    steps = game.program.steps
    if game.program.family != "betting" or not all(isinstance(s, DealStep | BetStep)
                                                   for s in steps):
        raise LbrError(f"lbr: {vid} has streets other than deals and betting rounds")
    deals = [s for s in steps if isinstance(s, DealStep)]
    first = next((i for i, s in enumerate(steps) if isinstance(s, BetStep)), len(steps))
    early = [s for s in steps[:first] if isinstance(s, DealStep)]
    if any(s.up for s in deals) or sum(s.down for s in deals) != sum(s.down for s in early) \
            or any(s.board for s in early):
        raise LbrError(f"lbr: {vid}: LBR needs every private card dealt face down before "
                       "the first bet, and a board after (hold'em, leduc)")
    shape = Shape(game)
    if shape.rank is None or shape.omaha:
        raise LbrError(f"lbr: {vid}: LBR needs one ranking of any cards at the showdown "
                       "(no split pot, wild cards or Omaha rule)")
    return shape


@njit(cache=True)
def _rollout_rows(keys, rest, nb, mine, board, holes):  # pragma: no cover - jit
    """The rollouts' hands: row ``r`` completes the board with the ``nb`` cards of
    ``rest`` whose ``keys[r]`` are smallest among those not in holding ``holes[r]`` (a
    uniform draw without replacement, the cards ``argpartition`` would pick), then LBR's
    hand (``mine``, board, completion) and the holding's (holding, board, completion)."""
    k, m = keys.shape
    nbd = board.shape[0]
    me = np.empty((k, mine.shape[0] + nbd + nb), dtype=np.uint8)
    opp = np.empty((k, holes.shape[1] + nbd + nb), dtype=np.uint8)
    taken = np.zeros(m, dtype=np.bool_)
    for r in range(k):
        for j in range(m):
            taken[j] = False
            for q in range(holes.shape[1]):
                if holes[r, q] == rest[j]:
                    taken[j] = True
        a = 0
        for c in mine:
            me[r, a] = c
            a += 1
        b = 0
        for c in holes[r]:
            opp[r, b] = c
            b += 1
        for c in board:
            me[r, a] = c
            opp[r, b] = c
            a += 1
            b += 1
        for _ in range(nb):
            best = -1
            for j in range(m):
                if not taken[j] and (best < 0 or keys[r, j] < keys[r, best]):
                    best = j
            taken[best] = True
            me[r, a] = rest[best]
            opp[r, b] = rest[best]
            a += 1
            b += 1
    return me, opp


def _mask(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


@dataclass
class Range:
    """The bot's possible holdings (``cards``, one row each, sorted) and their weights
    (not normalized); ``bits``: each holding's cards as a bit mask."""

    cards: np.ndarray
    weights: np.ndarray
    bits: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        ones = np.left_shift(np.uint64(1), self.cards.astype(np.uint64))
        self.bits = np.bitwise_or.reduce(ones, axis=1) if self.cards.shape[1] else \
            np.zeros(len(self.cards), dtype=np.uint64)

    @classmethod
    def uniform(cls, deck: Sequence[int], k: int, excluded: Sequence[int]) -> Range:
        """Every ``k`` cards of ``deck`` not in ``excluded``, weight 1 each."""
        out = set(int(c) for c in excluded)
        left = [int(c) for c in deck if int(c) not in out]
        rows = np.array(list(itertools.combinations(left, k)), dtype=np.uint8).reshape(-1, k)
        return cls(rows, np.ones(len(rows)))

    def exclude(self, cards: Sequence[int]) -> None:
        """Holdings that hold any of ``cards`` get weight 0 (a card seen elsewhere)."""
        m = np.uint64(_mask(cards))
        self.weights[(self.bits & m) != 0] = 0.0

    def live(self) -> np.ndarray:
        """Indexes of the holdings of weight > 0."""
        return np.flatnonzero(self.weights > 0.0)

    def probabilities(self) -> np.ndarray:
        """The weights normalized (the posterior over holdings)."""
        total = float(self.weights.sum())
        return self.weights / total if total > 0 else self.weights.copy()


def _prob_of(policy: Any, key: tuple[Any, ...]) -> float:
    """The probability a declared policy gives the move ``key`` (by :func:`move_key`)."""
    return float(sum(p for a, p in policy if move_key(a) == key))


def holding_policies(bot: Any, view: SeatView, holdings: np.ndarray, *,
                     batch: bool = True) -> dict[tuple[Any, ...], np.ndarray]:
    """The bot's declared policy at ``view`` with each row of ``holdings`` in place of
    its hole cards, as each move's (:func:`move_key`) probability per holding: in one
    call where the bot has a batched form (its own ``batch_policy(view, holdings)``, or the
    strength bots' compiled hold'em policy, :func:`~pokerarena.bots.strength.fastpolicy.
    batch`; each None where it does not apply), else one ``policy(view)`` call per
    holding."""
    got = None
    if batch:
        from pokerarena.bots.strength.fastpolicy import batch as compiled

        fn = getattr(bot, "batch_policy", None)
        got = fn(view, holdings) if callable(fn) else compiled(bot, view, holdings)
    if got is not None:
        return {(kind, amount, ()): got.prob(kind, amount) for kind, amount in got.moves()}
    policy = declared_policy(bot)
    out: dict[tuple[Any, ...], np.ndarray] = {}
    for i, cards in enumerate(np.asarray(holdings).tolist()):
        for action, p in policy(view._replace(hole=tuple(cards))):
            key = move_key(action)
            col = out.get(key)
            if col is None:
                col = out[key] = np.zeros(len(holdings))
            col[i] += p
    return out


class _Reads:
    """The policies read at one public state: each move's probability by holding (an
    index into the range), and which holdings were read."""

    def __init__(self, n: int) -> None:
        self.done = np.zeros(n, dtype=bool)
        self.table: dict[tuple[Any, ...], np.ndarray] = {}

    def fill(self, rows: np.ndarray, got: dict[tuple[Any, ...], np.ndarray]) -> None:
        for key, p in got.items():
            col = self.table.get(key)
            if col is None:
                col = self.table[key] = np.zeros(self.done.size)
            col[rows] = p
        self.done[rows] = True

    def prob(self, key: tuple[Any, ...], rows: np.ndarray) -> np.ndarray:
        col = self.table.get(key)
        return np.zeros(len(rows)) if col is None else col[rows]


class LbrPlayer:
    """LBR in one seat of one game against one declared bot (the module's docstring).
    :meth:`play` plays a hand; the range and the last decision's values stay readable
    (:attr:`range`, :attr:`last_values`) for tests and reports."""

    def __init__(self, game: Game, bot: Any, config: LbrConfig | None = None, *,
                 seed: int = 0, label: str | None = None) -> None:
        self.game = game
        self.shape = _check_game(game)
        self.config = config or LbrConfig()
        self.bot, self.label = bot, label or str(getattr(bot, "name", "bot"))
        fn = declared_policy(bot)
        if fn is None:
            raise LbrError(f"lbr: bot {self.label!r} declares no policy (a policy(view) "
                           "method); LBR reads the bot's range from it")
        self.policy = fn
        self.blind = card_blind(bot) and not self.config.enumerate_all
        self.info = game_info_of(game)
        self.deck = [int(c) for c in game.deck_list]
        self.rng = np.random.default_rng(seed)
        self.range: Range = Range(np.zeros((0, self.shape.hole), np.uint8), np.zeros(0))
        self.seat = 0
        self.last_values: dict[str, float] = {}
        self.policy_reads = 0
        self.hand_no = 0
        self._policies: dict[tuple[Any, ...], Any] = {}

    # The bot's decisions ---------------------------------------------------------
    def start(self, hand: Any, seat: int) -> None:
        """A new hand with LBR in ``seat``: the range is every holding LBR cannot see."""
        self.seat = seat
        mine = [int(c) for c in hand.cards_of(seat)]
        self.range = Range.uniform(self.deck, self.shape.hole, mine)
        self.range.exclude([int(c) for c in hand.board])
        self._policies = {}

    def action_probs(self, view: SeatView, key: tuple[Any, ...], rows: np.ndarray
                     ) -> np.ndarray:
        """The probability of the move ``key`` at the bot's ``view`` with each holding of
        ``rows`` (indexes into the range) in place of its hole cards. The policies read
        are kept until the bot next acts (its state, on which a declared policy may be
        conditioned, changes only then): the view LBR priced a raise at is the view the
        bot then decides at, read once."""
        at = info_key(view._replace(hole=()))
        if self.blind:
            got = self._policies.get(at)
            if got is None:
                got = self._policies[at] = self.policy(view)
                self.policy_reads += 1
            return np.full(len(rows), _prob_of(got, key))
        reads = self._policies.get(at)
        if reads is None:
            reads = self._policies[at] = _Reads(len(self.range.cards))
        need = rows[~reads.done[rows]]
        if need.size:
            reads.fill(need, holding_policies(self.bot, view, self.range.cards[need],
                                              batch=self.config.batch))
            self.policy_reads += int(need.size)
        return reads.prob(key, rows)

    def observe(self, view: SeatView, action: Action) -> None:
        """Bayes' rule at the bot's decision ``view`` where it played ``action``."""
        rg = self.range
        rg.exclude(view.board)
        rows = rg.live()
        rg.weights[rows] *= self.action_probs(view, move_key(action), rows)
        if not rg.weights.sum() > 0.0:
            raise LbrError(f"lbr: bot {self.label!r} played {action}, which its declared "
                           "policy gives probability 0 with every holding")

    # LBR's decisions -------------------------------------------------------------
    def equities(self, hand: Any, rows: np.ndarray, w: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """LBR's share of the pot checked down against the range (``rows``: the live
        holdings, ``w``: their normalized weights), as pairs (holding, board completion):
        ``(hi, share, mass)``, the holding's index into ``rows``, LBR's share, the pair's
        probability. Every pair when at most :attr:`LbrConfig.exact_pairs` (the river,
        Leduc), else :attr:`LbrConfig.rollouts` pairs drawn from the range and the unseen
        cards (mass 1 / rollouts each): so ``wp = Σ mass·share``, and a subset of the
        range is a reweighting of the same pairs."""
        sh = self.shape
        mine = [int(c) for c in hand.cards_of(self.seat)]
        board = [int(c) for c in hand.board]
        used = set(mine) | set(board)
        rest = np.array([c for c in self.deck if c not in used], dtype=np.uint8)
        nb = max(0, sh.board - len(board))
        holes = self.range.cards[rows]
        n = len(rows)
        if n * math.comb(rest.size, nb) <= self.config.exact_pairs:
            tails = np.array(list(itertools.combinations(rest.tolist(), nb)),
                             dtype=np.uint8).reshape(-1, nb) if nb else \
                np.zeros((1, 0), dtype=np.uint8)
            tail_bits = np.array([_mask(t) for t in tails.tolist()], dtype=np.uint64)
            ok = (self.range.bits[rows][:, None] & tail_bits[None, :]) == 0
            hi, ti = np.nonzero(ok)
            count = np.bincount(hi, minlength=n)
            mass = w[hi] / count[hi]
            tails = tails[ti]
        else:
            k = self.config.rollouts
            hi = self.rng.choice(n, size=k, p=w)
            keys = self.rng.random((k, rest.size))
            mass = np.full(k, 1.0 / k)
            me_rows, opp_rows = _rollout_rows(keys, rest, nb, np.array(mine, dtype=np.uint8),
                                              np.array(board, dtype=np.uint8),
                                              np.ascontiguousarray(holes[hi]))
            me = evaluate_batch(me_rows, sh.rank)
            opp = evaluate_batch(opp_rows, sh.rank)
            return hi, (me > opp) + 0.5 * (me == opp), mass
        m = len(hi)
        full = np.hstack([np.broadcast_to(np.array(board, dtype=np.uint8), (m, len(board))),
                          tails])
        me = evaluate_batch(np.ascontiguousarray(np.hstack([
            np.broadcast_to(np.array(mine, dtype=np.uint8), (m, len(mine))), full])),
            sh.rank).astype(np.int64)
        opp = evaluate_batch(np.ascontiguousarray(np.hstack([holes[hi], full])),
                             sh.rank).astype(np.int64)
        share = (me > opp) + 0.5 * (me == opp)
        return hi, share, mass

    def raises(self, view: SeatView) -> list[int]:
        """The raise-to amounts LBR considers at ``view`` (module docstring)."""
        legal = view.legal
        assert legal is not None
        if RAISE_KIND not in legal.kinds or legal.max_to <= 0:
            return []
        lo, hi = legal.min_to, legal.max_to
        if getattr(legal, "choices", ()):
            return sorted(set(legal.choices))
        if lo >= hi or self.game.system_name == "fixed_limit":
            return [lo]
        opp = 1 - view.seat
        out: list[int] = []
        for f in self.config.pot_fractions:
            to = view.bets[opp] + int(round(f * (view.pot + view.to_call)))
            out.append(min(hi, max(lo, to)))
        if self.config.all_in:
            out.append(hi)
        return sorted(set(out))

    def decide(self, hand: Any) -> Action:
        """LBR's action at ``hand`` (it is LBR's turn): the best of fold, check/call and
        the raises under the check-down assumption (module docstring)."""
        view = build_view(hand, self.seat, game_info=self.info)
        legal = view.legal
        assert legal is not None
        rg = self.range
        rg.exclude(view.board)
        rows = rg.live()
        w = rg.weights[rows]
        w = w / w.sum()
        hi, share, mass = self.equities(hand, rows, w)
        wp = float(mass @ share)
        pot, asked = float(view.pot), float(view.to_call)
        values: dict[str, float] = {"wp": wp}
        best, best_value = Action(CALL_KIND), wp * pot - (1.0 - wp) * asked
        values["call"] = best_value
        opp = 1 - self.seat
        fold_key = move_key(Action(FOLD_KIND))
        for to in self.raises(view):
            after = clone(hand)
            try:
                after.apply(Action(RAISE_KIND, to))
            except (EngineError, IllegalAction):
                continue
            a = float(to - view.bets[opp])
            if after.is_over or after.to_act != opp:
                fp, wr = 0.0, wp
            else:
                folds = self.action_probs(build_view(after, opp, hand_no=self.hand_no,
                                                     game_info=self.info), fold_key, rows)
                fp = float(w @ folds)
                stay = mass * (1.0 - folds[hi])
                wr = wp if not self.config.condition_on_call or stay.sum() <= 0 \
                    else float(stay @ share / stay.sum())
            v = fp * pot + (1.0 - fp) * (wr * (pot + a) - (1.0 - wr) * (asked + a))
            values[f"raise {to}"] = v
            if v > best_value:
                best, best_value = Action(RAISE_KIND, to), v
        if asked > 0 and FOLD_KIND in legal.kinds:
            values["fold"] = 0.0
            if best_value < 0.0:
                best = Action(FOLD_KIND)
        self.last_values = values
        return best

    # A hand ----------------------------------------------------------------------
    def play(self, hand: Any, seat: int, *, hand_no: int = 0) -> float:
        """Play ``hand`` (automatic dealing) to its end with LBR in ``seat`` and the bot
        in the other; LBR's chips won."""
        bot_seat = 1 - seat
        self.hand_no = hand_no  # the bot's views, the priced ones too, carry it
        self.start(hand, seat)
        wants = callable(getattr(self.bot, "start_hand", None))
        if wants:
            self.bot.start_hand(build_view(hand, bot_seat, hand_no=hand_no,
                                           game_info=self.info))
        steps = 0
        while not hand.is_over:
            actor = hand.to_act
            if actor is None or actor == DEALER:
                raise LbrError("lbr: the hand waits for the dealer (use automatic dealing)")
            if actor == seat:
                action = self.decide(hand)
            else:
                view = build_view(hand, bot_seat, hand_no=hand_no, game_info=self.info)
                self.range.exclude(view.board)
                # read the policies before act, which may move the state they rest on
                self.action_probs(view, (), self.range.live())
                action = self.bot.act(view)
                try:
                    probe = clone(hand)
                    probe.apply(action)
                except (EngineError, IllegalAction) as exc:
                    raise LbrError(f"lbr: bot {self.label!r} played an illegal {action}: "
                                   f"{exc}") from None
                self.observe(view, action)
                self._policies = {}
            hand.apply(action)
            steps += 1
            if steps > 10_000:  # pragma: no cover - an engine bug
                raise RuntimeError("lbr: a hand took more than 10000 actions")
        if callable(getattr(self.bot, "end_hand", None)):
            self.bot.end_hand(build_summary(hand, bot_seat, hand_no=hand_no))
        return float(hand.result().deltas[seat])


UNIT_PAIRS = 10
"""Duplicate pairs a unit plays (``exploit --workers``): about a second against a strength
bot, a tenth against ``random``; the figures do not depend on it."""


@dataclass(frozen=True)
class PairSeeds:
    """The seeds of one duplicate pair: its deal (both hands), the bot built for it, and
    LBR's rollouts in it."""

    deal: int
    bot: int
    lbr: int


def pair_seeds(seed: int, start: int, stop: int) -> list[PairSeeds]:
    """The seeds of pairs ``start`` to ``stop - 1`` of a run from ``seed``: a function of
    the seed and the pair's number only, so any range can be played anywhere. The deals
    are the ``stop`` first draws of one generator (cheap to replay); the bot's and LBR's
    seeds are the pair's own child of the seed."""
    deal_seq, bot_seq, lbr_seq = np.random.SeedSequence(seed).spawn(3)
    deals = np.random.default_rng(deal_seq).integers(0, 2**63 - 1, size=stop)[start:]

    def child(parent: np.random.SeedSequence, d: int) -> int:
        kid = np.random.SeedSequence(parent.entropy, spawn_key=(*parent.spawn_key, d))
        return int(kid.generate_state(1)[0])

    return [PairSeeds(int(deal), child(bot_seq, d), child(lbr_seq, d))
            for d, deal in zip(range(start, stop), deals.tolist(), strict=True)]


@dataclass
class PairsResult:
    """What a range of pairs gives back: LBR's chips won in each pair (both hands), the
    policy reads, whether the bot was read once per decision (card blind), and the CPU
    seconds of the process that played them (``bench lbr`` adds up the workers')."""

    start: int
    totals: np.ndarray
    policy_reads: int
    card_blind: bool
    cpu_seconds: float = 0.0


@dataclass(frozen=True)
class LbrJob:
    """One LBR run's definition, small and picklable, so a unit of its pairs can be played
    in another process (:mod:`pokerarena.workers.lbr_unit`): the game, the bot's spec,
    LBR's knobs and the seed."""

    variant: Any
    options: dict[str, Any]
    bot: str
    config: LbrConfig
    seed: int


class PairPlayer:
    """Plays any range of a run's pairs (:meth:`run`). Each pair gets a bot freshly built
    from the spec with the pair's seed and an LBR with its own generator, so a pair's
    result depends on the seed and its number only, never on the pairs played before it
    in the same process: the pairs are independent draws (what Student's interval
    assumes), and a run cut in units on Ray adds up to the run in one process. A bot
    given as an object (not a spec) cannot be rebuilt: it plays every pair, carrying its
    state from one to the next (in one process only)."""

    def __init__(self, variant: Any, options: dict[str, Any] | None, bot: Any,
                 config: LbrConfig | None = None, seed: int = 0) -> None:
        self.game = Game(variant, dict(options or {}))
        _check_game(self.game)
        self.bot, self.config, self.seed = bot, config or LbrConfig(), seed
        self.label = bot if isinstance(bot, str) else str(getattr(bot, "name", "bot"))

    @classmethod
    def of(cls, job: LbrJob) -> PairPlayer:
        """The player of ``job``'s pairs."""
        return cls(job.variant, job.options, job.bot, job.config, job.seed)

    def check(self) -> None:
        """Build pair 0's bot and LBR without playing: the errors of a bad spec or of a
        bot without a declared policy."""
        from pokerarena.bots.registry import make_bot

        bot = make_bot(self.bot, seed=0) if isinstance(self.bot, str) else self.bot
        LbrPlayer(self.game, bot, self.config, label=self.label)

    def run(self, start: int, stop: int, done: Callable[[int], None] | None = None
            ) -> PairsResult:
        """Pairs ``start`` to ``stop - 1``; ``done(1)`` after each."""
        from pokerarena.bots.registry import make_bot

        cpu = time.process_time()
        stack = self.game.variant.stakes.stack
        totals = np.zeros(stop - start)
        reads, blind = 0, False
        for i, ps in enumerate(pair_seeds(self.seed, start, stop)):
            d = start + i
            bot = make_bot(self.bot, seed=ps.bot) if isinstance(self.bot, str) else self.bot
            player = LbrPlayer(self.game, bot, self.config, seed=ps.lbr, label=self.label)
            for lbr_seat in (0, 1):
                hand = self.game.new_hand(np.random.default_rng(ps.deal), 2, [stack, stack],
                                          d % 2)
                totals[i] += player.play(hand, lbr_seat, hand_no=2 * d + lbr_seat)
            reads += player.policy_reads
            blind = player.blind
            if done is not None:
                done(1)
        return PairsResult(start, totals, reads, blind, time.process_time() - cpu)


class PairRunner:
    """Runs a run's units of pairs: here, one after the other (the Ray actors of
    :mod:`pokerarena.workers.lbr_unit` run them in parallel, with the same result)."""

    def start(self, job: LbrJob) -> None:
        """Get ready for ``job``'s units (before the clock starts): nothing here."""

    def run(self, job: LbrJob, units: Sequence[tuple[int, int]],
            done: Callable[[int], None]) -> list[PairsResult]:
        """Each unit's result (any order); ``done(pairs)`` as pairs finish."""
        player = PairPlayer.of(job)
        return [player.run(a, b, done) for a, b in units]

    def close(self) -> None:
        """Nothing to stop."""


def units_of(pairs: int, unit_pairs: int) -> list[tuple[int, int]]:
    """The units of a run of ``pairs`` pairs: ``[k·U, (k+1)·U)``, the last one short."""
    return [(a, min(a + unit_pairs, pairs)) for a in range(0, pairs, unit_pairs)]


def lbr_value(variant: Any, options: dict[str, Any] | None, bot_spec: Any, hands: int,
              seed: int = 0, *, config: LbrConfig | None = None,
              runner: PairRunner | None = None, unit_pairs: int = UNIT_PAIRS,
              progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """LBR's winnings against ``bot_spec`` (a spec, or a bot object) over ``hands`` hands
    (rounded up to duplicate pairs) dealt from ``seed``: ``mean`` and ``ci95`` in chips
    per hand, ``lbr_mbb_per_hand`` and its ``ci95`` in milli big blinds, the hands, the
    seconds and hands per second, the action set. ``runner``: who plays the units of
    ``unit_pairs`` pairs (default: this process, pair after pair); the figures are the
    same whoever does (:class:`PairPlayer`), and the seconds leave out its start.
    ``progress(pairs_done, pairs)``. ``cpu_seconds``: the CPU time of the processes
    that played the pairs, added up."""
    if hands < 1:
        raise LbrError(f"lbr: --hands must be at least 1, got {hands}")
    if unit_pairs < 1:
        raise LbrError(f"lbr: --unit-pairs must be at least 1, got {unit_pairs}")
    cfg = config or LbrConfig()
    pairs = -(-hands // 2)
    finished = 0

    def done(n: int) -> None:
        nonlocal finished
        finished += n
        if progress is not None:
            progress(finished, pairs)

    player = PairPlayer(variant, options, bot_spec, cfg, seed)
    game, label = player.game, player.label
    if runner is None:
        t0 = time.perf_counter()
        parts = [player.run(0, pairs, done)]
    else:
        if not isinstance(bot_spec, str):
            raise LbrError("lbr: units in other processes need the bot as a spec")
        player.check()      # a bad spec or a bot without a policy: here, before any unit
        job = LbrJob(variant, dict(options or {}), bot_spec, cfg, seed)
        runner.start(job)
        try:
            t0 = time.perf_counter()
            parts = runner.run(job, units_of(pairs, unit_pairs), done)
        finally:
            runner.close()
    seconds = time.perf_counter() - t0
    parts = sorted(parts, key=lambda r: r.start)
    totals = np.concatenate([r.totals for r in parts])
    ends = itertools.accumulate((len(r.totals) for r in parts), initial=0)
    if [r.start for r in parts] != list(ends)[:-1] or len(totals) != pairs:
        raise RuntimeError("lbr: the units did not cover every pair exactly once")
    est = block_rate(totals, np.full(pairs, 2.0))
    bb = big_blind(game)
    scale = 1000.0 / bb
    return {
        "method": "lbr", "variant": game.variant_id, "betting": game.system_name,
        "bot": label, "lbr_mbb_per_hand": float(est.value * scale),
        "ci95": [float(est.lo * scale), float(est.hi * scale)], "mean": float(est.value),
        "ci95_chips": [float(est.lo), float(est.hi)], "hands": 2 * pairs, "pairs": pairs,
        "units": f"mbb per hand (big blind {bb} chips); mean and ci95_chips in chips "
                 "per hand",
        "big_blind": bb, "seed": seed, "actions": cfg.describe(game.system_name),
        "rollouts": cfg.rollouts, "card_blind": parts[0].card_blind,
        "policy_reads": sum(r.policy_reads for r in parts), "seconds": seconds,
        "cpu_seconds": sum(r.cpu_seconds for r in parts),
        "hands_per_second": 2 * pairs / seconds if seconds > 0 else float("inf"),
    }


__all__ = ["EXACT_PAIRS", "LbrConfig", "LbrError", "LbrJob", "LbrPlayer", "PairPlayer",
           "PairRunner", "PairSeeds", "PairsResult", "ROLLOUTS", "Range", "UNIT_PAIRS",
           "card_blind", "holding_policies", "lbr_value", "pair_seeds", "units_of",
           "walkable"]
