"""Value functions for AIVAT on engine hands (issue 26, part 3), fixed in code.

AIVAT stays unbiased whatever the value function is (``aivat.py``); a good one only
narrows it. The one here, :class:`EquityValue`, is written from the rules alone, before
any hand is judged, and never fitted to the hands it judges:

``v_i(h) = eq_i(h) · (pot + L·F) − committed_i − F`` for a live seat, ``−committed_i`` for
a folded one, the hand's own result once it is over.

- ``eq_i``: seat ``i``'s share of the pot if every live seat checked the hand down from
  ``h``, from every live seat's actual cards (the estimator sees every card, as in
  ``aivat.py``): the missing cards (board, stud's later streets, a hand short of cards
  after a discard) come from the cards nobody has seen; a draw hand stands pat.
  Exact enumeration when at most :data:`EQUITY_EXACT` completions remain (hold'em's flop
  and turn), otherwise :data:`EQUITY_SAMPLES` seeded Monte Carlo completions whose seed
  is a function of the cards of the state (never of a result). Hold'em and Omaha use the
  all-in settlement's equities (``variance._equities``); other games score each completion
  with the evaluator. Games with wild cards or a high-low split get equal shares (no card
  term, still unbiased).
- ``F``: a fixed estimate of what each live seat will still put in: ``future`` × the pot
  per betting round still to come (the current one included while it runs), at most the
  smallest live stack. Pot × equity prices the chips already in; the chips still to come
  go mostly to the stronger hand, and ``F`` lets a card that changes the equity move the
  value by the bets it will draw too. With ``L`` live seats, ``Σ_i v_i = 0`` (no rake):
  every AIVAT term is zero-sum, and so is the corrected result.
- The value at a finished hand is its result, so the last term settles the hand exactly.
"""

from __future__ import annotations

import itertools
import math
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from pokerarena.cards import deck
from pokerarena.engine.steps import BetStep, DealStep
from pokerarena.evaluator import evaluate_batch, evaluate_omaha_batch, ranking
from pokerarena.evaluator.equity import BOARD_CARDS
from pokerarena.tournaments.variance import EQUITY_GAMES, _equities

EQUITY_EXACT = 1000
"""Completions up to which a state's equity is enumerated (hold'em flop: 990)."""
EQUITY_SAMPLES = 400
"""Seeded Monte Carlo completions beyond (pre-flop hold'em, stud's early streets)."""
FUTURE = {"no_limit": 0.5, "pot_limit": 0.5}
"""The default ``future`` per betting system (fraction of the pot per round still to
come); 0.25 for the limit systems. A prior, fixed here before any data: a bet of about
half the pot a round in big-bet games, less where the bets are capped."""
CACHE = 20_000  # equities kept (keyed by cards): duplicate twins reuse their twin's


def default_future(system: str) -> float:
    """:data:`FUTURE` for a betting system."""
    return FUTURE.get(system, 0.25)


class Shape:
    """What a game deals, for completing a state's cards: down and up cards per seat and
    board cards over the whole hand, its deck, its showdown and its betting rounds."""

    def __init__(self, game: Any) -> None:
        steps = game.program.steps
        self.hole = sum(s.down + s.up for s in steps if isinstance(s, DealStep))
        self.board = sum(s.board for s in steps if isinstance(s, DealStep))
        self.rounds = sum(1 for s in steps if isinstance(s, BetStep))
        self.deck = np.asarray(deck(game.variant.deck), dtype=np.uint8)
        sd = game.showdown
        self.omaha = sd.combine == "omaha"
        self.board_game = EQUITY_GAMES.get(game.variant_id)
        split = sd.high is not None and sd.low is not None
        odd = sd.combine not in ("any", "omaha") or sd.wild != "none"
        self.rank: Any = None
        if not split and not odd and not getattr(game.options, "wild", None):
            self.rank = ranking(sd.high or sd.low, deck=game.variant.deck)


def card_seed(*groups: Sequence[int]) -> int:
    """A seed that is a fixed function of the cards (not of Python's hash)."""
    x = 1469598103934665603
    for g in groups:
        for c in sorted(int(c) for c in g):
            x = ((x ^ (c + 1)) * 1099511628211) % (1 << 61)
        x = ((x ^ 0xFF) * 1099511628211) % (1 << 61)
    return x


@lru_cache(maxsize=64)
def _perms(n: int, k: int) -> np.ndarray:
    return np.array(list(itertools.permutations(range(n), k)), dtype=np.intp).reshape(-1, k)


def completion_equity(shape: Shape, holes: list[list[int]], board: list[int],
                      dead: Sequence[int], seed: int) -> list[float]:
    """Each hand's share of a pot checked down, every missing card drawn from the cards
    not in ``holes``, ``board`` or ``dead`` (every completion when few, else seeded
    samples)."""
    used = set(board).union(dead, *holes)
    rest = np.array([c for c in shape.deck.tolist() if c not in used], dtype=np.uint8)
    need = [max(0, shape.hole - len(h)) for h in holes]
    nb = max(0, shape.board - len(board))
    k = sum(need) + nb
    if k > rest.size:
        return [1.0 / len(holes)] * len(holes)
    if k == 0:
        tails = np.zeros((1, 0), dtype=np.uint8)
    elif math.perm(rest.size, k) <= EQUITY_EXACT:
        tails = rest[_perms(rest.size, k)]
    else:
        rng = np.random.default_rng(seed)
        tails = rest[np.argsort(rng.random((EQUITY_SAMPLES, rest.size)), axis=1)[:, :k]]
    m = tails.shape[0]
    full_board = np.hstack([np.broadcast_to(np.asarray(board, dtype=np.uint8),
                                            (m, len(board))), tails[:, k - nb:]])
    values = np.empty((len(holes), m), dtype=np.int64)
    at = 0
    for p, h in enumerate(holes):
        mine = np.hstack([np.broadcast_to(np.asarray(h, dtype=np.uint8), (m, len(h))),
                          tails[:, at:at + need[p]]])
        at += need[p]
        if shape.omaha:
            values[p] = evaluate_omaha_batch(mine, full_board, shape.rank)
        else:
            values[p] = evaluate_batch(np.hstack([mine, full_board]), shape.rank)
    best = values == values.max(axis=0)
    shares = best / best.sum(axis=0)
    return [float(x) for x in shares.mean(axis=1)]


class EquityValue:
    """The value function of the module's docstring for one game (``game``: the played
    :class:`~pokerarena.engine.game.Game`). ``future``: ``F``'s fraction of the pot per
    round to come (None: :func:`default_future` of the game's betting system; 0: pot ×
    equity alone). States are engine hands (:class:`~.aivat_engine.EngineState`)."""

    def __init__(self, game: Any, future: float | None = None) -> None:
        self.shape = Shape(game)
        self.future = default_future(game.system_name) if future is None else future
        self.name = f"equity(future={self.future:g})"
        self._cache: OrderedDict[tuple[Any, ...], list[float]] = OrderedDict()

    def __call__(self, state: Any, /) -> tuple[float, ...]:
        h = state.hand
        if h.is_over:
            return tuple(float(d) for d in h.result().deltas)
        n = h.n
        committed = [float(h.committed[h.pos_of[s]]) for s in range(n)]
        live = [s for s in range(n) if not h.folded[h.pos_of[s]]]
        pot = sum(committed) + float(h.dead)
        out = [-c for c in committed]
        eq = [1.0] if len(live) == 1 else self.equity(h, live)
        f = self._future(h, live, pot)
        for s, e in zip(live, eq, strict=True):
            out[s] += e * (pot + len(live) * f) - f
        return tuple(out)

    def _future(self, h: Any, live: list[int], pot: float) -> float:
        if not self.future or len(live) < 2:
            return 0.0
        rounds = self.shape.rounds - h.bet_rounds + (1 if h.phase_name == "bet" else 0)
        most = min(float(h.stack[h.pos_of[s]]) for s in live)
        return max(0.0, min(self.future * pot * rounds, most))

    def equity(self, h: Any, live: list[int]) -> list[float]:
        """The live seats' shares checked down (cached by the cards)."""
        holes = [[int(c) for c in h.cards_of(s)] for s in live]
        board = [int(c) for c in h.board]
        held = set(board).union(*holes)
        dead = sorted(int(c) for c in h.seen if int(c) not in held)
        key = (tuple(tuple(sorted(x)) for x in holes), tuple(sorted(board)), tuple(dead))
        got = self._cache.get(key)
        if got is None:
            got = self._compute(holes, board, dead)
            self._cache[key] = got
            if len(self._cache) > CACHE:
                self._cache.popitem(last=False)
        return got

    def _compute(self, holes: list[list[int]], board: list[int], dead: list[int]
                 ) -> list[float]:
        sh = self.shape
        if sh.rank is None:
            return [1.0 / len(holes)] * len(holes)
        if sh.board_game is not None and not sh.omaha and len(board) == BOARD_CARDS and \
                all(len(x) == sh.hole for x in holes):
            # a complete board: one showdown, no completion to enumerate
            vals = evaluate_batch(np.asarray([list(x) + board for x in holes],
                                             dtype=np.uint8), sh.rank)
            best = vals == vals.max()
            return [float(b) / float(best.sum()) for b in best]
        seed = card_seed(board, dead, *holes)
        if sh.board_game is not None and len(board) < BOARD_CARDS and \
                all(len(x) == sh.hole for x in holes):
            left = sh.deck.size - len(dead) - len(board) - sum(len(x) for x in holes)
            exact = math.comb(left, BOARD_CARDS - len(board)) <= EQUITY_EXACT
            return _equities(holes, board, sh.board_game, exact, EQUITY_SAMPLES, seed, dead)
        return completion_equity(sh, holes, board, dead, seed)


class NoiseValue:
    """A deliberately bad value function: seat 0 gets uniform noise on ±``scale`` (a fixed
    function of the state's cards, chips and board), the others share its negative. It
    knows nothing of the game: AIVAT must stay unbiased with it, only wider."""

    name = "noise"

    def __init__(self, scale: float = 50.0) -> None:
        self.scale = scale

    def __call__(self, state: Any, /) -> tuple[float, ...]:
        h = state.hand
        seed = card_seed(h.board, [int(c) for c in h.committed], [int(f) for f in h.folded],
                         *[h.cards_of(s) for s in range(h.n)])
        x = float(np.random.default_rng(seed).uniform(-self.scale, self.scale))
        rest = -x / (h.n - 1)
        return (x,) + (rest,) * (h.n - 1)
