"""Hand strength for the built-in bots, for every variant the engine ships.

:class:`Profile` compiles what a bot needs to know about a game (how many cards a hand
ends with, board cards, draws, the high and low rankings with the low qualifier) and
offers three estimates, all seeded and vectorised over the batch evaluator:

- :meth:`Profile.equity`: Monte-Carlo share of the pot against the live opponents,
  dealing the cards still to come (board, stud streets) from the cards the seat cannot
  see; stud opponents keep their visible cards; high-low pots are split by halves with
  the low qualifier; optionally the opponents' ranges are narrowed by their aggression.
- :meth:`Profile.best_discard`: for draw games, the discard that maximises the expected
  strength after the draw (every keep-set tried with a few sampled replacements).
- :meth:`Profile.draw_equity`: for draw games, an estimate of the chance to win at the
  showdown, from the percentile of the hand among random hands of the ranking.
"""

from __future__ import annotations

import itertools
import math
import operator
import random
from collections import OrderedDict
from typing import Any

import numba
import numpy as np

from pokerarena.bots.strength import drawmc, fastmc, preflop_omaha
from pokerarena.bots.strength.drawlog import discard_log
from pokerarena.bots.strength.preflop import narrowed_equity, preflop_equity, prepare_narrowed
from pokerarena.engine.actions import DISCARD_KIND, RAISE_KIND, UNKNOWN
from pokerarena.engine.game import Game
from pokerarena.engine.keys import game_digest, game_of
from pokerarena.engine.steps import BetStep, DealStep, DrawStep
from pokerarena.evaluator import (
    evaluate,
    evaluate_batch,
    evaluate_omaha_batch,
    qualifies_low,
    ranking,
)
from pokerarena.evaluator.kernels import (
    low8_of_mask,
    low_rank_bit,
    lowest_bits,
    omaha_low8,
)
from pokerarena.evaluator.rankings import Ranking
from pokerarena.rules.model import POSITIONAL_WILDS

_REF_HANDS = 6000
CLEAR_Z = 2.0  # standard errors that make an estimate clear of a decision threshold
CHECK_EVERY = 8  # deals between two checks of whether the estimate is clear


_LAST_RAISES: list[Any] = [None, ()]  # (a history, its raise counts): one decision's


def raise_counts(view: Any) -> tuple[int, ...]:
    """Bets and raises of each seat in the view's hand so far (counted once per
    history: a decision asks for them more than once)."""
    history = view.history
    if _LAST_RAISES[0] is history:
        return _LAST_RAISES[1]
    counts = [0] * view.players
    for a, act in history:
        if a >= 0 and act.kind == RAISE_KIND:
            counts[a] += 1
    found = tuple(counts)
    _LAST_RAISES[0] = history
    _LAST_RAISES[1] = found
    return found


def _seed(rng: Any) -> int:
    """A kernel seed from a ``random.Random`` (cheap) or a numpy ``Generator``."""
    bits = getattr(rng, "getrandbits", None)
    if bits is not None:
        return bits(31)
    return int(rng.integers(0, 2**31 - 1))


@numba.njit(cache=True)
def _a5_unpaired_rows(hands: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover - jit
    """Ace-to-five lows without pairs: ``8191 - mask`` of the five lowest distinct ranks
    (ace = bit 0); -1 when the hand has fewer than five distinct ranks."""
    for m in range(hands.shape[0]):
        mask = 0
        for j in range(hands.shape[1]):
            mask |= 1 << (((hands[m, j] >> 2) + 1) % 13)
        low, taken = lowest_bits(mask, 5)
        out[m] = 8191 - low if taken == 5 else -1


@numba.njit(cache=True)
def _low8_rows(hands: np.ndarray, boards: np.ndarray, omaha: bool,
               out: np.ndarray) -> None:  # pragma: no cover - jit
    """Eight-or-better lows, row by row (:func:`~pokerarena.evaluator.kernels.
    low8_of_mask`: ``255 - mask`` of the five lowest distinct ranks of eight or lower,
    -1 when there are fewer); with ``omaha`` exactly two cards of the hand and three of
    the board."""
    for m in range(hands.shape[0]):
        bm = 0
        for j in range(boards.shape[1]):
            bm |= low_rank_bit(boards[m, j])
        if omaha:
            out[m] = omaha_low8(hands[m], 0, hands.shape[1], bm)
            continue
        for j in range(hands.shape[1]):
            bm |= low_rank_bit(hands[m, j])
        out[m] = low8_of_mask(bm)


# Percentile tables: in a draw game whose hands no kernel ranks (wild cards: the batch
# evaluator's generic path, then a search of the reference), the percentile of every
# hand of ``k`` cards of the deck is read from a table of all C(deck, k) hands, indexed
# by the colex rank of the hand's deck positions. A table holds exactly what
# :meth:`Profile.percentile` computes (the evaluator's value located in the same
# reference), so the bots decide alike either way. It is built (seconds) or read from
# the disk cache when the table warms the bots up (:meth:`Profile.compile_kernels`,
# outside every time limit), never within a decision, and never for more than
# TABLE_MAX hands.
TABLE_MAX = 3_000_000
_NO_IDX = np.zeros((0, 0), dtype=np.intp)  # _table_lookup: the rows as they are
TABLE_VERSION = b"percentile-table/1"


@numba.njit(cache=True)
def _colex_combos(n: int, k: int, total: int) -> np.ndarray:  # pragma: no cover - jit
    """Every ``k``-subset of ``range(n)`` (ascending rows), in colex order: row ``r``
    has colex rank ``r``."""
    out = np.empty((total, k), dtype=np.uint8)
    c = np.arange(k)
    for r in range(total):
        for j in range(k):
            out[r, j] = c[j]
        i = 0
        while i < k - 1 and c[i] + 1 == c[i + 1]:
            i += 1
        c[i] += 1
        for j in range(i):
            c[j] = j
    return out


@numba.njit(cache=True)
def _table_lookup(hands: np.ndarray, idx: np.ndarray, pos: np.ndarray, binom: np.ndarray,
                  table: np.ndarray, out: np.ndarray) -> bool:  # pragma: no cover - jit
    """``out[m] = table[colex rank of the deck positions of hands[m, idx[m]]]`` (``idx``
    with no rows: ``hands[m]`` itself); False (out unfinished) when a row holds a card
    not in the deck or a card twice."""
    gather = idx.shape[0] > 0
    k = idx.shape[1] if gather else hands.shape[1]
    p = np.empty(k, dtype=np.int64)
    for m in range(out.shape[0]):
        for j in range(k):
            v = pos[hands[m, idx[m, j]]] if gather else pos[hands[m, j]]
            if v < 0:
                return False
            i = j
            while i > 0 and p[i - 1] > v:  # insertion sort of k <= 5 positions
                p[i] = p[i - 1]
                i -= 1
            p[i] = v
        rank = 0
        for j in range(k):
            if j and p[j] == p[j - 1]:
                return False
            rank += binom[p[j], j + 1]
        out[m] = table[rank]
    return True


def _sample(rng: Any, remaining: np.ndarray, samples: int, k: int) -> np.ndarray:
    """``samples`` rows of ``k`` distinct cards drawn uniformly from ``remaining``
    (seeded from ``rng``, so a bot's decisions are reproducible)."""
    if not k:
        return np.empty((samples, 0), dtype=np.uint8)
    return fastmc.sample_rows(remaining, samples, k, _seed(rng))


_PLANS: dict[tuple[int, int, int, int], Any] = {}


def _discard_plan(n: int, lo: int, hi: int, samples: int) -> Any:
    """How :meth:`Profile.best_discard` lays out its sampled hands, built once per shape:
    ``(candidates, column index into [hole | drawn], segment starts, rows per segment,
    keep-preference penalty, drawn cards per row)``; None without candidates."""
    key = (n, lo, hi, samples)
    if key in _PLANS:
        return _PLANS[key]
    cand: list[tuple[int, ...]] = []
    for k in range(lo, hi + 1):
        cand.extend(itertools.combinations(range(n), k))
    plan = None
    if cand:
        reps = [1 if not d else samples for d in cand]
        kmax = max(len(d) for d in cand)
        idx = np.empty((sum(reps), n), dtype=np.intp)
        starts = []
        pos = 0
        for disc, r in zip(cand, reps, strict=True):
            k = len(disc)
            keep = [i for i in range(n) if i not in disc]
            idx[pos:pos + r, :n - k] = keep
            idx[pos:pos + r, n - k:] = np.arange(n, n + k)
            starts.append(pos)
            pos += r
        plan = (cand, idx, np.asarray(starts, dtype=np.intp), np.asarray(reps, dtype=float),
                1e-4 * np.asarray([len(d) for d in cand], dtype=float), kmax)
    _PLANS[key] = plan
    return plan


_MASKS: dict[tuple[int, int, int], tuple[np.ndarray, np.ndarray]] = {}


def _discard_masks(n: int, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """(bit masks of every discard of ``lo`` to ``hi`` of ``n`` cards, the small
    keep-preference penalty of each), built once per shape."""
    key = (n, lo, hi)
    found = _MASKS.get(key)
    if found is None:
        masks = [sum(1 << j for j in d) for k in range(lo, hi + 1)
                 for d in itertools.combinations(range(n), k)]
        found = (np.asarray(masks, dtype=np.int64),
                 1e-4 * np.asarray([bin(m).count("1") for m in masks], dtype=np.float64))
        _MASKS[key] = found
    return found


_SHAPES: dict[tuple[int, int, int], tuple[np.ndarray, np.ndarray, list[Any]]] = {}


def _discard_shape(n: int, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray, list[Any]]:
    """:func:`_discard_masks` and, for each mask, a function taking the discarded cards
    out of a hole of ``n`` cards."""
    key = (n, lo, hi)
    found = _SHAPES.get(key)
    if found is None:
        masks, penalty = _discard_masks(n, lo, hi)
        picks: list[Any] = []
        for m in masks.tolist():
            pos = [j for j in range(n) if (m >> j) & 1]
            if len(pos) > 1:
                picks.append(operator.itemgetter(*pos))
            elif pos:
                picks.append(lambda h, j=pos[0]: (h[j],))
            else:
                picks.append(lambda h: ())
        found = _SHAPES[key] = (masks, penalty, picks)
    return found


def _ranking(name: str, deck: str, wild: str) -> Ranking:
    """The evaluator ranking, with the variant's fixed wild cards when it has any."""
    if wild not in ("none", "") and wild not in POSITIONAL_WILDS:
        try:
            return ranking(name, deck=deck, wild=wild)
        except ValueError:
            pass
    return ranking(name, deck=deck)


class Profile:
    """What the bots know of one game; build with :func:`profile`."""

    def __init__(self, game: Game) -> None:
        v = game.variant
        sd = getattr(game, "showdown", None) or v.showdown  # with the game's options
        # Fixed wild cards are modelled; positional ones (which depend on where cards
        # fall) and unusual combinations (crisscross) are approximated: no wild cards,
        # best hand of all the cards.
        wild = getattr(sd, "wild", "none")
        self.approximate = wild in POSITIONAL_WILDS or sd.combine not in ("any", "omaha")
        self.high = _ranking(sd.high, v.deck, wild) if sd.high else None
        self.low = _ranking(sd.low, v.deck, wild) if sd.low else None
        self.omaha = sd.combine == "omaha"
        self.qualifier = sd.low_qualifier
        self.deck = np.asarray(game.deck_list, dtype=np.uint8)
        self.deck_list: list[int] = self.deck.tolist()
        hole, board = self._read_streets(game)
        self.hole_final = hole
        self.board_final = board
        self.is_draw = bool(self.draw_streets)
        self.is_stud = self.up_cards > 0
        self.limit = game.system_name in ("fixed_limit", "spread_limit")
        self.no_limit = game.system_name == "no_limit"
        self.low_threshold: int | None = None
        if self.low is not None and self.qualifier:
            self.low_threshold = self._qualifier_threshold()
        self._ref: dict[str, np.ndarray] = {}
        self._kref: dict[int, np.ndarray] = {}  # kernel_reference by hand size
        self.fast_a5 = sd.low == "a5_low" and wild == "none" and v.deck == "standard"
        self.fast_low8 = (sd.low == "a5_low" and self.qualifier == 8 and wild == "none"
                          and v.deck == "standard")
        self.plan: fastmc.Plan | None = self._kernel_plan(hole, board)
        if self.plan is not None:
            self._kernel_consts = (self.plan.deck, *self.plan.packed, fastmc._WS)
            self._kernel_tail = (fastmc._NO_NARROW, fastmc.SCORE_NONE, 0,
                                 *self._kernel_consts)
            self._frac2 = np.ones(2, dtype=np.float64)  # heads-up narrowing fractions
        # hold'em-like games (two hole cards, a board, no low half, no wild cards):
        # pre-flop equities by hand class come from a table (pokerarena.bots.strength.preflop)
        self.preflop_table = (self.plan is not None and self.board_final == 5 and hole == 2
                              and self.low is None and not self.omaha and wild == "none"
                              and not self.approximate)
        # Omaha (high or eight-or-better): pre-flop equities of every four-card hand
        # come from a table once it is built (pokerarena.bots.strength.preflop_omaha)
        self.preflop_omaha = (self.plan is not None and self.omaha and hole == 4
                              and self.board_final == 5 and wild == "none"
                              and preflop_omaha.supported(self.plan))
        self._setup_draws(hole)

    def _read_streets(self, game: Game) -> tuple[int, int]:
        """The draw and betting step indices and the face-up cards of ``game``'s
        program; (the cards a hand ends with, the board's)."""
        hole = board = 0
        self.draw_streets: list[int] = []
        self.bet_streets: list[int] = []
        self.up_cards = 0
        for i, step in enumerate(game.program.steps):
            if isinstance(step, DealStep):
                hole += step.down + step.up
                board += step.board
                self.up_cards += step.up
            elif isinstance(step, DrawStep):
                self.draw_streets.append(i)
            elif isinstance(step, BetStep):
                self.bet_streets.append(i)
        return hole, board

    def _kernel_plan(self, hole: int, board: int) -> fastmc.Plan | None:
        """The one-call Monte-Carlo plan (:func:`fastmc.mc_equity`) of a game whose
        final highs the fast tables rank (and whose low, if any, is eight or better),
        or whose highs or lows alone the kernel's table-free rankings rank; None."""
        if self.is_draw or int(self.deck.max()) >= 52:
            return None
        if (self.high is not None and (self.low is None or self.fast_low8)
                and (board == 5 if self.omaha else True)
                and fastmc.supported(self.high, hole + board, self.omaha)):
            return fastmc.Plan(self.deck, self.high, self.low is not None, self.omaha)
        if not self.omaha and (self.high is None) != (self.low is None) and not self.qualifier:
            # high-only or low-only games the tables do not rank (more than seven
            # cards, two or three, razz lows): the kernel's table-free rankings
            rk = self.high if self.high is not None else self.low
            mode = fastmc.mode_for(rk, (hole + board,))
            if mode is not None:
                return fastmc.Plan(self.deck, self.high, False, False, rk, mode)
        return None

    def _setup_draws(self, hole: int) -> None:
        """Draw games: the ranking their discards are scored in, the plans and tables
        by hand size (built on first use), the draws left by street, the deck's mask."""
        self._draw_rk = self.high if self.high is not None else self.low
        self._draw_plans: dict[int, fastmc.Plan | None] = {}
        self._draw_tables_by_size: dict[int, drawmc.DrawTables | None] = {}
        # _best_discard's fixed kernel arguments by (size, fewest, most drawn, exponent)
        self._discard_calls: dict[tuple[int, int, int, float], tuple[Any, ...]] = {}
        # draws still to come from each street index on (see draws_left)
        last = self.draw_streets[-1] if self.draw_streets else -1
        self._draws_left = [sum(1 for s in self.draw_streets if s >= i)
                            for i in range(last + 2)]
        self.draw_plan = self.draw_plan_for(hole) if self.is_draw else None
        self._dead_idx = np.zeros(0, dtype=np.uint8)
        # percentile tables by hand size (False: none, unless a warm-up builds it)
        self._pct_tables: dict[int, Any] = {}
        self._pos = np.zeros(0, dtype=np.int64)  # deck position by card code (-1: none)
        self._binom = np.zeros((0, 0), dtype=np.int64)
        self._deck_mask = 0
        for c in self.deck_list:
            self._deck_mask |= 1 << c

    def compile_kernels(self) -> None:
        """Compile the kernels a throwaway hand may miss (a draw game's hand percentile
        after the last draw), and build the percentile table of a draw game the kernels
        do not rank."""
        if self.is_draw and self.hole_final <= len(self.deck_list):
            if self.draw_plan_for(self.hole_final) is None:  # the evaluator's path
                self._pct_table(self.hole_final, build=True)
            self.hand_percentile(self.deck_list[:self.hole_final])

    def prepare_preflop(self, players: int) -> None:
        """Build (or load) the pre-flop tables that take seconds to build, which decisions
        only read: Omaha's for 1 to ``players - 1`` opponents, hold'em's against one
        narrowed range."""
        if self.preflop_omaha:
            assert self.plan is not None
            for k in range(1, players):
                preflop_omaha.prepare(self.plan, k)
        if self.preflop_table and players >= 2:
            assert self.plan is not None
            prepare_narrowed(self.plan)

    def draw_plan_for(self, n: int) -> fastmc.Plan | None:
        """The kernel plan valuing ``n``-card hands of this draw game (None: the batch
        evaluator's path), built once per size."""
        if n in self._draw_plans:
            return self._draw_plans[n]
        plan = None
        rk = self._draw_rk
        mode = fastmc.mode_for(rk, (n,)) if n >= 1 else None
        if mode is not None and (int(self.deck.max()) < 52 or mode == fastmc.HI_A5_WILD):
            plan = fastmc.Plan(self.deck, rk, False, False, rk, mode)
        self._draw_plans[n] = plan
        return plan

    def _draw_tables(self, n: int) -> drawmc.DrawTables | None:
        """The :class:`drawmc.DrawTables` of ``n``-card hands (None where the batch
        evaluator ranks them), built once per size."""
        cache = self._draw_tables_by_size
        if n in cache:
            return cache[n]
        plan = self.draw_plan_for(n)
        tables = None if plan is None else drawmc.DrawTables(plan, n,
                                                             self.kernel_reference(n))
        cache[n] = tables
        return tables

    def kernel_reference(self, n: int) -> np.ndarray:
        """The sorted values of :meth:`_reference`'s hands in the kernel's scale."""
        ref = self._kref.get(n)
        if ref is None:
            key = f"k{n}"
            plan = self.draw_plan_for(n)
            assert plan is not None
            rng = np.random.default_rng(12345)
            ref = self._ref[key] = np.sort(drawmc.values(plan, _sample(rng, self.deck,
                                                                       _REF_HANDS, n)))
            self._kref[n] = ref
        return ref

    # ----------------------------------------------------------------- evaluation
    def _qualifier_threshold(self) -> int | None:
        q = self.qualifier
        ranks = [(r - 2) % 13 for r in range(q, q - 5, -1)]  # rank 1 = ace (code rank 12)
        cards = [ranks[i] * 4 + (i % 4) for i in range(5)]
        low = self.low
        if low is None:
            return None
        try:
            value = evaluate(cards, low)
        except ValueError:
            return None
        return value if qualifies_low(value, low, q) else None

    def _values(self, rk: Any, hands: np.ndarray, boards: np.ndarray | None) -> np.ndarray:
        if boards is not None and boards.shape[1] and self.omaha:
            return evaluate_omaha_batch(hands, boards, rk)
        full = hands if boards is None or not boards.shape[1] else np.hstack([hands, boards])
        return evaluate_batch(full, rk)

    def _low_values(self, hands: np.ndarray, boards: np.ndarray | None) -> np.ndarray:
        low = self.low
        assert low is not None
        if self.fast_a5 and not self.qualifier and not self.omaha:
            full = hands if boards is None or not boards.shape[1] else np.hstack([hands, boards])
            if full.shape[1] >= 5:
                out = np.empty(full.shape[0], dtype=np.int64)
                _a5_unpaired_rows(np.ascontiguousarray(full), out)
                paired = out < 0
                if paired.any():  # rare with seven cards: the evaluator ranks those
                    out[paired] = (evaluate_batch(full[paired], low).astype(np.int64)
                                   - (1 << 32))
                return out
        if self.fast_low8:
            b = boards if boards is not None else np.empty((hands.shape[0], 0), np.uint8)
            out = np.empty(hands.shape[0], dtype=np.int64)
            _low8_rows(np.ascontiguousarray(hands), np.ascontiguousarray(b), self.omaha, out)
            return out
        vals = self._values(low, hands, boards).astype(np.int64)
        if self.qualifier:
            if self.low_threshold is not None:
                ok = vals >= self.low_threshold
            else:
                ok = np.array([qualifies_low(int(x), low, self.qualifier) for x in vals])
            vals = np.where(ok, vals, -1)
        return vals

    def shares(self, mine: np.ndarray, opps: list[np.ndarray],
               boards: np.ndarray | None) -> np.ndarray:
        """My share of the pot in each sampled deal (1: scoop, 0: lose)."""
        n = mine.shape[0]
        share = np.zeros(n)
        hi_share: np.ndarray | None = None
        lo_share: np.ndarray | None = None
        if self.high is not None:
            me = self._values(self.high, mine, boards)
            best = me.copy()
            ties = np.ones(n)
            for o in opps:
                ov = self._values(self.high, o, boards)
                better = ov > best
                ties = np.where(better, 1, ties + (ov == best))
                best = np.maximum(best, ov)
            hi_share = np.where(me == best, 1.0 / ties, 0.0)
        if self.low is not None:
            me = self._low_values(mine, boards)
            best = me.copy()
            ties = np.ones(n)
            for o in opps:
                ov = self._low_values(o, boards)
                better = ov > best
                ties = np.where(better, 1, ties + (ov == best))
                best = np.maximum(best, ov)
            lo_share = np.where((me == best) & (me >= 0), 1.0 / ties, 0.0)
            has_low = best >= 0
        if hi_share is not None and lo_share is not None:
            share = np.where(has_low, 0.5 * hi_share + 0.5 * lo_share, hi_share)
        elif hi_share is not None:
            share = hi_share
        else:
            # low only (razz, deuce-to-seven, badugi): no qualifier games here
            share = lo_share if lo_share is not None else share
        return share

    # ----------------------------------------------------------------- equity
    def equity(self, view: Any, samples: int, rng: np.random.Generator,
               narrow: bool = False, keep_per_raise: float = 0.7) -> float:
        """Monte-Carlo pot share of ``view.seat`` against the live opponents.

        With ``narrow``, an opponent who bet or raised ``k`` times this hand holds only
        the best ``keep_per_raise ** k`` of its possible holdings (at least a quarter),
        judged by its current strength with the board (pre-flop: a rank/suit score)."""
        return self.equity_stats(view, samples, rng, narrow, keep_per_raise)[0]

    def equity_stats(self, view: Any, samples: int, rng: Any,
                     narrow: bool = False, keep_per_raise: float = 0.7,
                     thresholds: tuple[float, ...] = (), min_samples: int = 32
                     ) -> tuple[float, int]:
        """``(pot share, deals behind it)`` as :meth:`equity`; with ``thresholds``
        (pot shares the caller's decision turns on) the fast path stops sampling, after
        ``min_samples`` deals, once the estimate is clearly on one side of each. The
        pre-flop table counts as exact (``2**31`` deals). ``rng``: a numpy ``Generator``
        or a ``random.Random``."""
        seat = view.seat
        folded = view.folded
        if len(folded) == 2:  # heads-up: the other seat
            opps = [] if folded[1 - seat] else [1 - seat]
        else:
            opps = [s for s in range(len(folded)) if s != seat and not folded[s]]
        if not opps:
            return 1.0, 1 << 31
        hole = view.hole
        if UNKNOWN in hole:
            hole = tuple(c for c in hole if c != UNKNOWN)
        board = view.board
        fractions = None
        if narrow:
            fractions = [self._range_fraction(view, s, keep_per_raise) for s in opps]
            if min(fractions) >= 0.999:
                fractions = None
        plan = self.plan
        if plan is None:
            return self._numpy_equity(view, hole, opps, samples, rng, fractions), samples
        if self.preflop_table and not board and len(hole) == 2 and not any(view.up):
            if fractions is None:
                return preflop_equity(plan, hole, len(opps)), 1 << 31
            if len(opps) == 1:  # heads-up against a narrowed range: a table too
                got = narrowed_equity(plan, hole, fractions[0])
                if got is not None:
                    return got, 1 << 31
        if self.preflop_omaha and not board and len(hole) == 4:
            # (no Omaha range is narrowed before the flop: see _fast_equity's score modes)
            tab = preflop_omaha.lookup(plan, len(opps))
            if tab is not None:
                return float(tab[preflop_omaha.hand_index(hole)]), 1 << 31
        return self._fast_equity(view, hole, opps, samples, rng, fractions, thresholds,
                                 min_samples)

    def _fast_equity(self, view: Any, hole: tuple[int, ...], opps: list[int], samples: int,
                     rng: Any, fractions: list[float] | None,
                     thresholds: tuple[float, ...], min_samples: int) -> tuple[float, int]:
        """:meth:`equity_stats` through the :func:`fastmc.mc_equity` kernel."""
        up = view.up
        board = view.board
        seed = rng.getrandbits(31) if type(rng) is random.Random else _seed(rng)
        n = len(thresholds)
        score_mode = fastmc.SCORE_NONE  # how narrowed ranges are judged (if at all)
        if fractions is not None:
            if self.board_final and len(board) >= 3:
                score_mode = fastmc.SCORE_MADE
            elif self.board_final and not self.omaha and self.hole_final == 2:
                score_mode = fastmc.SCORE_PREFLOP
        lo = min_samples if min_samples < samples else samples
        if n <= 4 and len(opps) == 1 and (not self.is_stud or len(up) == 2):
            # the common case: one opponent and no dead cards, the rows as fastmc.pack
            # makes them straight into the kernel (as run_packed would)
            r = up[opps[0]]
            if r and UNKNOWN in r:
                r = tuple(c for c in r if c != UNKNOWN)
            t = (*thresholds, 0.0, 0.0, 0.0, 0.0) if n < 4 else thresholds
            flat = bytes((len(hole), *hole, len(r), *r, len(board), *board, 0))
            if score_mode != fastmc.SCORE_NONE and fractions is not None:
                frac = self._frac2
                frac[1] = fractions[0]
                got, used, dealt = fastmc.mc_kernel(
                    flat, 2, self.hole_final, self.board_final, seed, samples, lo,
                    CHECK_EVERY, CLEAR_Z, n, t[0], t[1], t[2], t[3], frac, score_mode,
                    fastmc.PILOT, *self._kernel_consts)
                if used >= 8:
                    return got / used, used
                if not dealt:  # the deck is too short to deal
                    return 1.0, 1 << 31
                # the range kept too few deals: not narrowed after all (as run_packed)
            got, used, _ = fastmc.mc_kernel(
                flat, 2, self.hole_final, self.board_final, seed, samples, lo,
                CHECK_EVERY, CLEAR_Z, n, t[0], t[1], t[2], t[3], *self._kernel_tail)
            return (got / used, used) if used else (1.0, 1 << 31)
        # one row per live player (the seat first), then the board and the dead cards
        rows: list[Any] = [hole]
        dead: list[int] = []
        if self.is_stud:
            for s in range(view.players):
                if s != view.seat and s not in opps and up[s]:
                    dead.extend(c for c in up[s] if c != UNKNOWN)
        for s in opps:
            u = up[s]
            if u and UNKNOWN in u:
                u = tuple(c for c in u if c != UNKNOWN)
            rows.append(u)
        players = len(rows)
        narrowed = None
        if score_mode != fastmc.SCORE_NONE and fractions is not None:
            narrowed = np.ones(players, dtype=np.float64)
            narrowed[1:] = fractions
        return self._fast_loop(rows, board, dead, players, samples, seed, narrowed,
                               score_mode, thresholds, min_samples)

    def _fast_loop(self, rows: list[Any], board: Any, dead: list[int], players: int,
                   samples: int, seed: int, frac: np.ndarray | None, score_mode: int,
                   thresholds: tuple[float, ...], min_samples: int) -> tuple[float, int]:
        """The kernel through :func:`fastmc.run_packed`, dropping the last opponent while
        the deck is too short for everyone."""
        plan = self.plan
        assert plan is not None
        lo = min(min_samples, samples)
        while True:
            got, used = fastmc.run_packed(plan, fastmc.pack(rows, board, dead), players,
                                          self.hole_final, self.board_final, seed, samples,
                                          lo, thresholds, frac, score_mode, CHECK_EVERY,
                                          CLEAR_Z)
            if used or players <= 2:
                break
            # not enough cards for everyone: the last opponent leaves
            players -= 1
            rows.pop()
            frac = frac[:players] if frac is not None else None
        if not used:
            return 1.0, 1 << 31
        return got / used, used

    def _numpy_equity(self, view: Any, hole: tuple[int, ...], opps: list[int], samples: int,
                      rng: np.random.Generator, fractions: list[float] | None) -> float:
        """:meth:`equity` by sampled arrays and the batch evaluator (any game)."""
        seat = view.seat
        known = set(hole) | set(view.board)
        for u in view.up:
            known.update(c for c in u if c != UNKNOWN)
        for actor, act in view.history:
            if actor == seat and act.kind == DISCARD_KIND:
                known.update(act.cards)
        remaining = np.asarray([c for c in self.deck_list if c not in known], dtype=np.uint8)
        need_me = max(0, self.hole_final - len(hole)) if not self.is_draw else 0
        need_board = max(0, self.board_final - len(view.board))
        if self.is_draw:
            # draw games: current hands against random hands of the same size
            size = len(hole)
            opp_need = [size for _ in opps]
            opp_up: list[list[int]] = [[] for _ in opps]
        else:
            opp_up = [[c for c in view.up[s] if c != UNKNOWN] for s in opps]
            opp_need = [max(0, self.hole_final - len(u)) for u in opp_up]
        if fractions is None:
            fractions = [1.0] * len(opps)
        while opps and need_me + need_board + sum(opp_need) > remaining.size:
            opps.pop()
            opp_up.pop()
            opp_need.pop()
            fractions.pop()
        if not opps:
            return 1.0
        k = need_me + need_board + sum(opp_need)
        keep = math.prod(fractions)
        total = int(min(samples / max(keep, 1e-9), 4 * samples))
        drawn = _sample(rng, remaining, total, k)
        mine = np.hstack([np.tile(np.asarray(hole, dtype=np.uint8), (total, 1)),
                          drawn[:, :need_me]])
        pos = need_me
        boards = None
        if self.board_final:
            boards = np.hstack([np.tile(np.asarray(view.board, dtype=np.uint8), (total, 1)),
                                drawn[:, pos:pos + need_board]])
            pos += need_board
        opp_hands = []
        for up, need in zip(opp_up, opp_need, strict=True):
            opp_hands.append(np.hstack([np.tile(np.asarray(up, dtype=np.uint8), (total, 1)),
                                        drawn[:, pos:pos + need]]))
            pos += need
        if keep < 0.999:
            mask = np.ones(total, dtype=bool)
            for f, o in zip(fractions, opp_hands, strict=True):
                if f < 0.999:
                    score = self._range_score(o, view)
                    if score is not None:
                        mask &= score >= np.quantile(score, 1.0 - f)
            if mask.sum() >= 8:
                mine = mine[mask]
                opp_hands = [o[mask] for o in opp_hands]
                boards = boards[mask] if boards is not None else None
        return float(self.shares(mine, opp_hands, boards).mean())

    def _range_fraction(self, view: Any, seat: int, keep: float) -> float:
        """The share of hands an opponent keeps in range after its bets and raises."""
        return max(0.25, min(1.0, keep) ** raise_counts(view)[seat])

    def _range_score(self, opp: np.ndarray, view: Any) -> np.ndarray | None:
        """Current strength of sampled opponent holdings (higher: more likely to bet)."""
        if self.high is None:
            return None
        board = np.asarray(view.board, dtype=np.uint8)
        if self.board_final and board.size >= 3:
            bt = np.tile(board, (opp.shape[0], 1))
            return self._values(self.high, opp, bt).astype(np.float64)
        if self.board_final and not self.omaha and opp.shape[1] == 1:
            return (opp[:, 0] >> 2).astype(np.float64)  # one hole card (Leduc): its rank
        if self.board_final and not self.omaha:
            r = (opp >> 2).astype(np.int64)
            hi, lo = r.max(axis=1), r.min(axis=1)
            suited = (opp[:, 0] & 3) == (opp[:, 1] & 3)
            return (hi * 2 + lo + 14 * (hi == lo) + 3 * suited - np.minimum(hi - lo, 5)
                    ).astype(np.float64)
        return None

    # ----------------------------------------------------------------- draw games
    def _reference(self, which: str, size: int) -> np.ndarray:
        key = f"{which}{size}"
        ref = self._ref.get(key)
        if ref is None:
            rng = np.random.default_rng(12345)
            hands = _sample(rng, self.deck, _REF_HANDS, size)
            rk = self.high if which == "h" else self.low
            assert rk is not None
            ref = np.sort(evaluate_batch(hands, rk))
            self._ref[key] = ref
        return ref

    def percentile(self, values: np.ndarray, size: int) -> np.ndarray:
        """Fraction of random hands of ``size`` cards that the values beat (draw games);
        read from the size's percentile table where the warm-up made one."""
        table = self._pct_table(size)
        if table is not None and values.ndim == 2 and values.shape[1] == size:
            out = np.empty(values.shape[0], dtype=table.dtype)
            if _table_lookup(values, _NO_IDX, self._pos, self._binom, table, out):
                return out / _REF_HANDS
        return self._percentile(values, size)

    def _percentile(self, values: np.ndarray, size: int) -> np.ndarray:
        """:meth:`percentile` from the evaluator."""
        return self._below(values, size) / _REF_HANDS

    def _below(self, values: np.ndarray, size: int) -> np.ndarray:
        """How many of the reference hands of ``size`` cards each hand beats."""
        if self.high is not None:
            ref = self._reference("h", size)
            return np.searchsorted(ref, self._values(self.high, values, None))
        ref = self._reference("l", size)
        return np.searchsorted(ref, self._values(self.low, values, None))

    def _pct_table(self, size: int, build: bool = False) -> np.ndarray | None:
        """The percentile table of ``size``-card hands: in memory, else from the disk
        cache (looked for once), else built when ``build``; None where there is none or
        it would be too large."""
        got = self._pct_tables.get(size)
        if got is not None and (got is not False or not build):
            return got if isinstance(got, np.ndarray) else None
        n = len(self.deck_list)
        if not 1 <= size <= 5 or math.comb(n, size) > TABLE_MAX or max(self.deck_list) > 255:
            self._pct_tables[size] = False
            return None
        from pokerarena.bots.strength.preflop import load_cached, save_cached
        from pokerarena.evaluator.tables import cache_dir

        total = math.comb(n, size)
        path = cache_dir() / f"percentile-{self._pct_key(size).hex()[:20]}.npy"
        table = load_cached(path, (total,))
        if table is None:
            if not build:
                self._pct_tables[size] = False  # until a warm-up builds it
                return None
            combos = _colex_combos(n, size, total)
            table = np.empty(total, dtype=np.uint16)
            deck = self.deck
            step = 1 << 18
            for a in range(0, total, step):
                table[a:a + step] = self._below(deck[combos[a:a + step]], size)
            save_cached(path, table)
        self._colex_setup()
        self._pct_tables[size] = table
        return table

    def _colex_setup(self) -> None:
        """The deck position of each card code and the binomial table of the colex
        ranks (once)."""
        if self._pos.size:
            return
        n = len(self.deck_list)
        pos = np.full(256, -1, dtype=np.int64)
        for i, c in enumerate(self.deck_list):
            pos[c] = i
        self._pos = pos
        binom = np.zeros((n + 1, 6), dtype=np.int64)
        for a in range(n + 1):
            for b in range(6):
                binom[a, b] = math.comb(a, b)
        self._binom = binom

    def _pct_key(self, size: int) -> bytes:
        """What a percentile table depends on: the deck, the size, the reference hands'
        values and the evaluator's values of a fixed sample of hands (a changed
        evaluator or ranking makes another key)."""
        import hashlib

        rng = np.random.default_rng(54321)
        probe = _sample(rng, self.deck, 512, size)
        h = hashlib.sha1(TABLE_VERSION)
        h.update(self.deck.tobytes())
        h.update(repr((size, self.high is not None, _REF_HANDS)).encode())
        ref = self._reference("h" if self.high is not None else "l", size)
        h.update(np.ascontiguousarray(ref).tobytes())
        rk = self.high if self.high is not None else self.low
        h.update(np.ascontiguousarray(self._values(rk, probe, None)).tobytes())
        return h.digest()

    def hand_percentile(self, hole: list[int]) -> float:
        """:meth:`percentile` of one hand (a kernel call where the fast tables rank it)."""
        plan = self.draw_plan_for(len(hole)) if self.is_draw else None
        if plan is not None:
            return drawmc.hand_percentile(plan, hole, self.kernel_reference(len(hole)))
        return float(self.percentile(np.asarray([hole], dtype=np.uint8), len(hole))[0])

    def expose_choice(self, down: tuple[int, ...] | list[int], k: int) -> tuple[int, ...]:
        """Which ``k`` down cards to turn up: unpaired ones first, the least telling
        (low cards in high games, high cards in low games)."""
        counts: dict[int, int] = {}
        for c in down:
            counts[c >> 2] = counts.get(c >> 2, 0) + 1
        low_game = self.high is None
        order = sorted(down, key=lambda c: (counts[c >> 2] > 1,
                                            -(c >> 2) if low_game else (c >> 2)))
        return tuple(order[:k])

    def declaration(self, view: Any) -> int:
        """High (1), low (2) or both (3), by the hand's percentile in each ranking."""
        if self.low is None:
            return 1
        if self.high is None:
            return 2
        cards = [c for c in view.hole if c != UNKNOWN] + list(view.board)
        arr = np.asarray([cards], dtype=np.uint8)
        size = len(cards)
        try:
            hi = float(np.searchsorted(self._reference("h", size),
                                       self._values(self.high, arr, None))[0])
            lo = float(np.searchsorted(self._reference("l", size),
                                       self._values(self.low, arr, None))[0])
        except ValueError:
            return 1
        hi /= _REF_HANDS
        lo /= _REF_HANDS
        if hi > 0.93 and lo > 0.93:
            return 3
        return 2 if lo > hi + 0.05 else 1

    def draws_left(self, street: int) -> int:
        """Draws still to come after street index ``street`` (a draw in progress counts)."""
        left = self._draws_left
        return left[street] if 0 <= street < len(left) else (
            0 if street >= 0 else len(self.draw_streets))

    def best_discard(self, hole: tuple[int, ...] | list[int], dmin: int, dmax: int,
                     rng: Any, draws_left: int = 1,
                     samples: int = 24, dead: set[int] | None = None,
                     memo: dict | None = None) -> tuple[tuple[int, ...], float]:
        """(cards to discard, expected strength) maximising the strength after the draw;
        ``memo`` (a dict the caller keeps for the hand) remembers the answers."""
        dead_mask = 0
        for c in dead or ():
            dead_mask |= 1 << c
        return self._best_discard_memo(tuple(hole), dmin, dmax, rng, draws_left, samples,
                                       dead_mask, memo)

    def _best_discard_memo(self, hole: tuple[int, ...], dmin: int, dmax: int, rng: Any,
                           draws_left: int, samples: int, dead_mask: int,
                           memo: dict | None) -> tuple[tuple[int, ...], float]:
        """:meth:`best_discard` with the dead cards as a bit mask."""
        if UNKNOWN in hole:
            hole = tuple(c for c in hole if c != UNKNOWN)
        if memo is None:
            return self._best_discard(hole, dmin, dmax, rng, draws_left, samples, dead_mask)
        key = ("discard", hole, dmin, dmax, draws_left, samples, dead_mask)
        got = memo.get(key)
        if got is None:
            got = memo[key] = self._best_discard(hole, dmin, dmax, rng, draws_left, samples,
                                                 dead_mask)
        return got

    def _discard_call(self, n: int, lo: int, hi: int, expo: float) -> tuple[Any, ...]:
        """The fixed arguments of :meth:`_best_discard`'s kernel call for a shape:
        ``(deck, masks, penalty, picks, the score table and the tables' tail)``."""
        tables = self._draw_tables(n)
        assert tables is not None
        masks, penalty, picks = _discard_shape(n, lo, hi)
        return (tables.plan.deck, masks, penalty, picks,
                (tables.scores(expo), *tables.tail))

    def _best_discard(self, hole: tuple[int, ...] | list[int], dmin: int, dmax: int,
                      rng: Any, draws_left: int, samples: int,
                      dead_mask: int) -> tuple[tuple[int, ...], float]:
        n = len(hole)
        expo = 1.0 + 0.5 * max(0, draws_left - 1)
        if self._draw_tables(n) is not None:
            gone = dead_mask
            for c in hole:
                gone |= 1 << c
            left = self.deck.size - (gone & self._deck_mask).bit_count()
            key = (n, max(0, dmin), min(dmax, n, left), expo)
            calls = self._discard_calls
            call = calls.get(key)
            if call is None:
                call = calls[key] = self._discard_call(*key)
            deck, masks, penalty, picks, tail = call
            if not picks:
                return tuple(hole[:dmin]), 0.0
            seed = rng.getrandbits(31) if type(rng) is random.Random else _seed(rng)
            i, score = drawmc.fast_discard_kernel(bytes(hole), deck, gone, masks, penalty,
                                                 samples, seed, *tail)
            return picks[i](hole), score
        hole = list(hole)
        remaining = np.asarray([c for c in self.deck_list
                                if not (dead_mask >> c) & 1 and c not in hole],
                               dtype=np.uint8)
        plan = _discard_plan(n, max(0, dmin), min(dmax, n, remaining.size), samples)
        if plan is None:
            return tuple(hole[:dmin]), 0.0
        cand, idx, starts, reps, penalty, kmax = plan
        total = idx.shape[0]
        drawn = _sample(rng, remaining, total, kmax)
        full = np.empty((total, n + kmax), dtype=np.uint8)
        full[:, :n] = hole
        full[:, n:] = drawn
        table = self._pct_table(n)
        looked = table is not None
        if looked:
            assert table is not None
            out = np.empty(total, dtype=table.dtype)
            looked = _table_lookup(full, idx, self._pos, self._binom, table, out)
        if looked:
            pct = (out / _REF_HANDS) ** expo
        else:
            pct = self.percentile(np.take_along_axis(full, idx, axis=1), n) ** expo
        # mean per keep-set, with a small preference for keeping cards when scores tie
        scores = np.add.reduceat(pct, starts) / reps - penalty
        i = int(np.argmax(scores))
        return tuple(hole[j] for j in cand[i]), float(scores[i])

    def draw_equity(self, view: Any, rng: Any, samples: int = 24,
                    memo: dict | None = None) -> float:
        """Chance to win at the showdown of a draw game (heuristic, see module doc)."""
        seat = view.seat
        folded = view.folded
        opps: tuple[int, ...]
        if len(folded) == 2:
            opps = () if folded[1 - seat] else (1 - seat,)
        else:
            opps = tuple(s for s in range(len(folded)) if s != seat and not folded[s])
        if not opps:
            return 1.0
        hole = view.hole
        if UNKNOWN in hole:
            hole = tuple(c for c in hole if c != UNKNOWN)
        left = self.draws_left(view.street + 1 if view.phase != "draw" else view.street)
        log = discard_log(view, memo)  # my discarded cards, each seat's last discard size
        if left > 0:
            _, strength = self._best_discard_memo(hole, 0, len(hole), rng, left, samples,
                                                  log.mine, memo)
            strength = max(strength, 0.0) ** (1.0 / (1.0 + 0.5 * max(0, left - 1)))
        elif memo is None:
            strength = self.hand_percentile(list(hole))
        else:
            key = ("percentile", hole)
            known = memo.get(key)
            if known is None:
                known = memo[key] = self.hand_percentile(list(hole))
            strength = known
        # Opponents who drew are better than random hands; those who stood pat more so.
        base = 1.0 + 0.6 * len(self.draw_streets)
        last = log.last
        p = 1.0
        for s in opps:
            drew = last.get(s)
            expo = base
            if drew == 0:
                expo *= 1.6
            elif drew is not None and drew >= 3:
                expo *= 0.7
            p *= strength ** expo
        return float(p)


class _Bounded(OrderedDict):
    """A dict that forgets its least recently used entries beyond ``limit`` (a long
    option sweep makes a game, and a profile, per option value)."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def get(self, key: Any, default: Any = None) -> Any:
        found = super().get(key, default)
        if found is not default:
            self.move_to_end(key)
        return found

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)


PROFILE_LIMIT = 64  # profiles kept (each holds its plans' packed tables, ~2 MB)
# Profiles by game: every cache here is keyed by the whole game (Game.key: the
# option-transformed variant, the betting system and every option), so that an option
# sweep, which keeps the variant id, never plays a game with another one's profile;
# _BY_DIGEST: the same profiles by the digest of the key a view carries (game_key).
# Both forget the least recently used beyond PROFILE_LIMIT: a forgotten game's profile
# is compiled again when it comes back (a bot keeps the one it plays with).
_PROFILES: _Bounded = _Bounded(PROFILE_LIMIT)
_BY_DIGEST: _Bounded = _Bounded(PROFILE_LIMIT)


def register_game(game: Game) -> Profile:
    """Compile (once per game key) and remember the profile of ``game``; tables call
    this."""
    key = game.key
    prof = _PROFILES.get(key)
    if prof is None:
        prof = _PROFILES[key] = Profile(game)
    digest = game_digest(game)
    if _BY_DIGEST.get(digest) is not prof:  # new, or forgotten by the digest cache
        _BY_DIGEST[digest] = prof
    return prof


def profile(game_or_view: Any) -> Profile:
    """The :class:`Profile` of a game, or of the game a :class:`SeatView` belongs to
    (by the ``game_key`` in its ``game``; a view without one is of the catalogue game
    of its variant and betting system)."""
    if isinstance(game_or_view, Game):
        return register_game(game_or_view)
    info = game_or_view.game
    digest = info.get("game_key") if info else None
    if digest is not None:
        prof = _BY_DIGEST.get(digest)
        if prof is not None:
            return prof
        game = game_of(digest)  # a game this process made views of
        if game is not None:
            return register_game(game)
    game = Game(game_or_view.variant, {"betting": game_or_view.betting})
    if digest is not None and game_digest(game) != digest:
        raise LookupError(f"profile: the game {digest} of this view ({game_or_view.variant}, "
                          "with options) is unknown to this process")
    return register_game(game)
