"""Variance reduction, always reported next to the raw figure and never instead of it.

- **All-in equity settlement** (the ACPC's since 2014): when every player still in is
  all in before the last card, the rest of the deal is luck only; each player is
  credited with its equity in each pot it can win instead of what the remaining cards
  gave it. The expectation is unchanged, the variance of the all-in runouts goes.
- **Baseline control variate**: a fixed reference bot plays the same cards in the same
  seats against itself; its result in a seat is that seat's card luck (zero on average
  by symmetry), so subtracting it keeps the mean and removes the luck that both share.

Both return per-seat deltas in chips, comparable to the hand's own deltas.

**Duplicate twins** (:func:`settle_deal`): the hands of one duplicate deal (the same
cards, one hand per seating) often go all in at different points, or one all in and
its twin not at all. Settling each hand alone at its own all-in point replaces the
board luck of one twin by its equity and leaves the other's raw: the shared board no
longer cancels between them, and duplicate gets noisier, not quieter (issue 25
measured ×1.09 tag v lag, ×5.36 maniac v call; now ×0.99 and ×1.00, ``bench calibration
--case allin``). So a deal is settled at the point all its hands
share: let a hand's *depth* (:func:`result_depth`) be the board cards its result
depends on (an all-in runout: the board at its last decision; a hand ended by folds:
the board dealt; a showdown without runout: the full board) and ``P`` the deal's
largest. Every runout hand of the deal is credited with its conditional expectation
given the actual board's first ``P`` cards; at ``P`` = the full board every hand keeps
its raw result (which is its expectation given the whole board). Why it is unbiased:
whether every hand's betting is over by board card ``k`` is known from the play up to
card ``k``, so ``P`` is a stopping time of the deal's board, and the tower property
gives ``E[E[X | F_P]] = E[X]`` for every hand (every other hand's result is already
fixed by ``F_P``: it stays as it is). That needs bots that carry nothing from one twin
to the next (duplicate itself needs it too). The remaining board given ``F_P`` is
uniform over the cards nobody holds: the conditional expectation removes every hole
card of the deal (folded players' too: their folds told something about them), and
the Monte Carlo boards are seeded by the deal, so twins settled at the same point
evaluate the very same boards and their board luck cancels to the sampling's last bit
(a seeded sample is an unbiased estimate over its draws, which do not depend on the
cards). Settling each hand at its own point, even on common boards, cannot do this: a
twin whose result depends on a later card stays raw, and its settled twin no longer
cancels it. Without duplicate every hand is settled alone (:func:`equity_deltas`), as
the fast table does too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from numba import njit

from pokerarena.cards import NUM_CODES, deck
from pokerarena.engine.actions import (
    BRING_IN_KIND,
    CALL_KIND,
    DEAL_BOARD_KIND,
    FOLD_KIND,
    RAISE_KIND,
)
from pokerarena.evaluator import evaluate_batch, ranking
from pokerarena.evaluator.equity import (
    BOARD_CARDS,
    CHUNK,
    GAMES,
    equity,
    exact_cost,
)

# Variants whose all-in runouts the equity calculator evaluates exactly as the engine
# would (community cards, high or high-low eight, no wild cards).
EQUITY_GAMES = {"holdem": "holdem", "holdem_short": "short_deck", "omaha": "omaha",
                "omaha_hilo": "omaha_hilo"}
_BETTING_KINDS = frozenset((FOLD_KIND, CALL_KIND, RAISE_KIND, BRING_IN_KIND))
EQUITY_SAMPLES = 4000
"""Monte Carlo boards per all-in runout where enumerating costs more (standard error
~0.6%): the platform's settlement, the tables' and AIVAT's comparison alike."""


def allin_board(hand: Any) -> list[int] | None:
    """The board when the last decision was taken, if more board cards were dealt
    after it to a showdown of two or more players (an all-in runout); else None."""
    board: list[int] = []
    at_last: list[int] | None = None
    for _, act in hand.log:
        if act.kind in _BETTING_KINDS:
            at_last = list(board)
        elif act.kind == DEAL_BOARD_KIND:
            board.extend(act.cards)
    res = hand.result()
    if at_last is None or len(at_last) == len(board) or not res.went_to_showdown:
        return None
    if len(res.showdown_raw) < 2:
        return None
    return at_last


def equity_deltas(hand: Any, samples: int | None = None, seed: int = 0
                  ) -> list[float] | None:
    """Each seat's chip delta with all-in runouts settled by equity, or None when the
    hand had no all-in runout or its game is not one :data:`EQUITY_GAMES` evaluates
    (the raw deltas then stand). Exact enumeration by default; ``samples``: a seeded
    Monte Carlo estimate of the equity instead (still unbiased, much cheaper before
    the flop) where enumerating would take more boards than that."""
    game = EQUITY_GAMES.get(hand.game.variant_id)
    if game is None or getattr(hand.game.options, "wild", None):
        return None
    board = allin_board(hand)
    if board is None:
        return None
    res = hand.result()
    seen: dict[tuple[int, ...], list[float]] = {}  # a pot's live seats -> their equities

    def shares(live: list[int]) -> list[float]:
        key = tuple(live)
        found = seen.get(key)
        if found is None:
            exact = _enumerate(len(live), len(board), game, samples)
            found = seen[key] = _equities([hand.cards_of(s) for s in live], board, game,
                                          exact, samples, seed)
        return found

    return settle_by_equity([float(d) for d in res.deltas], _pots(res), shares)


def _pots(res: Any) -> list[tuple[dict[int, float], list[int]]]:
    """Each pot of a hand's result as :func:`settle_by_equity` takes it: what it paid
    each winner, and its live seats (eligible and at the showdown)."""
    return [({int(s): float(v) for s, v in pot.winners.items()},
             [s for s in pot.eligible if s in res.showdown_raw]) for pot in res.pots]


def result_depth(hand: Any) -> int:
    """The number of board cards the hand's result depends on: for an all-in runout the
    board when the last decision was taken (the rest is luck only), else the board dealt
    (a hand ended by folds never saw the later cards; a showdown saw the full board).
    Whether it is at most ``k`` is known once the play up to board card ``k`` is: the
    stopping time of :func:`settle_deal`."""
    board = allin_board(hand)
    return len(board) if board is not None else len(hand.board)


def settle_deal(hands: Sequence[Any], samples: int | None = None, seed: int = 0
                ) -> list[list[float] | None]:
    """Each hand of one duplicate deal (``hands``: one per seating, the same cards) with
    its all-in runout settled at the point every hand of the deal shares (see the
    module's docstring): its equity given the first ``P`` cards of the actual board,
    ``P`` the deepest :func:`result_depth` of the deal, every hole card of the deal dead.
    None where a hand keeps its raw deltas: no runout, ``P`` the full board, or a game
    :data:`EQUITY_GAMES` does not evaluate. ``samples``: Monte Carlo boards where
    enumerating would take more (seeded by ``seed``, the deal's: every hand of the deal
    evaluates the same boards); exact by default."""
    out: list[list[float] | None] = [None] * len(hands)
    if not hands:
        return out
    first = hands[0]
    game = EQUITY_GAMES.get(first.game.variant_id)
    if game is None or getattr(first.game.options, "wild", None):
        return out
    runouts = [i for i, h in enumerate(hands) if allin_board(h) is not None]
    depth = max(result_depth(h) for h in hands)
    if not runouts or depth >= BOARD_CARDS:
        return out
    board = [int(c) for c in hands[runouts[0]].board[:depth]]
    dead: list[int] = []
    for h in hands:
        if [int(c) for c in h.board[:depth]] != board[:len(h.board)]:
            raise ValueError("settle_deal: the hands were not dealt the same board")
        cards = sorted(int(c) for s in range(len(h.result().deltas)) for c in h.cards_of(s))
        if dead and cards != dead:
            raise ValueError("settle_deal: the hands were not dealt the same hole cards")
        dead = cards
    g = GAMES[game]
    left = deck(g.deck).size - len(dead) - depth
    exact = samples is None or math.comb(left, BOARD_CARDS - depth) <= samples
    seen: dict[tuple[tuple[int, ...], ...], list[float]] = {}  # live holes -> equities

    for i in runouts:
        h = hands[i]

        def shares(live: list[int], h: Any = h) -> list[float]:
            holes = tuple(tuple(int(c) for c in h.cards_of(s)) for s in live)
            found = seen.get(holes)
            if found is None:
                found = seen[holes] = _equities([list(x) for x in holes], board, game,
                                                exact, samples, seed, dead)
            return found

        res = h.result()
        out[i] = settle_by_equity([float(d) for d in res.deltas], _pots(res), shares)
    return out


def settle_by_equity(deltas: list[float], pots: list[tuple[dict[int, float], list[int]]],
                     shares: Any) -> list[float]:
    """``deltas`` with each pot's payments replaced by its value times each live seat's
    equity (``shares(live)``, in ``live``'s order); a pot with fewer than two live seats
    (``pots``: what it paid each winner, its live seats) keeps its payments. The one
    settlement of both recorders (:func:`equity_deltas`, ``workers.fastrecord``): the
    same operations in the same order, so the same floats."""
    out = list(deltas)
    for paid, live in pots:
        value = sum(paid.values())
        for s, v in paid.items():
            out[s] -= v
        if len(live) < 2:
            for s, v in paid.items():
                out[s] += v
            continue
        for s, p in zip(live, shares(live), strict=True):
            out[s] += value * p
    return out


@lru_cache(maxsize=256)
def _enumerate(players: int, board_cards: int, game: str, samples: int | None) -> bool:
    """Whether an all-in runout is enumerated: whenever that takes no more boards than
    the samples would (on the flop or the turn), exact and cheaper."""
    return samples is None or exact_cost(players, board_cards, game) <= \
        samples * exact_cost(players, BOARD_CARDS, game)


def _equities(holes: list[Any], board: list[int], game: str, exact: bool,
              samples: int | None, seed: int, dead: Sequence[int] = ()) -> list[float]:
    """Each hole's equity in a pot: the evaluator's equity, or for the high games
    without Omaha's rule (hold'em, short deck) the same figures computed without its
    per-call checks and report: the same boards (every completion, or the same seeded
    samples) and the same integer shares, so the same floats. ``dead``: cards off the
    deck besides ``holes`` and ``board`` (:func:`settle_deal`: every hole card of the
    deal, so the remaining boards, and the seeded samples, do not depend on who is live)."""
    if game not in _DIRECT:
        if dead:
            return _dead_equities(holes, board, game, exact, samples, seed, dead)
        eq = (equity(holes, board, game, exact=True) if exact
              else equity(holes, board, game, samples=samples, seed=seed))
        return [p.equity for p in eq.players]
    g = GAMES[game]
    h, b, rest = _known_and_rest(holes, board, dead, g.deck)
    k = BOARD_CARDS - b.size
    unit = math.lcm(*range(1, h.shape[0] + 1))
    rk = _high_ranking(g.ranking, g.deck)
    total = np.zeros(h.shape[0], dtype=np.int64)
    boards = 0
    if exact:
        tails = _completions(rest.size, k)
        hands = np.empty((h.shape[0] * tails.shape[0], h.shape[1] + BOARD_CARDS),
                         dtype=np.uint8)
        _enumerated_hands(h, b, rest, tails, hands)
        total += _shares(hands, h.shape[0], rk, unit)
        boards = tails.shape[0]
    else:
        assert samples is not None
        rng = np.random.default_rng(seed)
        while boards < samples:
            m = min(CHUNK, samples - boards)
            # the draws of evaluator.equity.sample_without_replacement, in its order
            draws = np.stack([rng.integers(0, rest.size - j, size=m) for j in range(k)])
            hands = np.empty((h.shape[0] * m, h.shape[1] + BOARD_CARDS), dtype=np.uint8)
            _sampled_hands(h, b, rest, draws, hands)
            total += _shares(hands, h.shape[0], rk, unit)
            boards += m
    return [float(x / (unit * boards)) for x in total.tolist()]


_DIRECT = frozenset(("holdem", "short_deck"))  # _equities' own path (high, two hole cards)


def _known_and_rest(holes: list[Any], board: list[int], dead: Sequence[int], deck_name: str
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The holes and board as arrays, and the deck's cards none of them (nor ``dead``)
    holds, in deck order: the cards the rest of the board is drawn from."""
    h = np.array(holes, dtype=np.uint8)
    b = np.array(board, dtype=np.uint8)
    used = np.zeros(NUM_CODES, dtype=bool)
    used[h.ravel()] = True
    used[b] = True
    used[np.asarray(dead, dtype=np.intp)] = True
    d = deck(deck_name)
    return h, b, d[~used[d]]


def _dead_equities(holes: list[Any], board: list[int], game: str, exact: bool,
                   samples: int | None, seed: int, dead: Sequence[int]) -> list[float]:
    """:func:`_equities` of the evaluator's games (Omaha high, high-low) with ``dead``
    cards off the deck: its boards (every completion, or the seeded samples drawn as
    ``evaluator.equity.monte_carlo_equity`` draws them) and its shares."""
    from pokerarena.evaluator.equity import _shares as game_shares
    from pokerarena.evaluator.equity import _unit, sample_without_replacement

    g = GAMES[game]
    h, b, rest = _known_and_rest(holes, board, dead, g.deck)
    k = BOARD_CARDS - b.size
    unit = _unit(g, h.shape[0])
    total = np.zeros(h.shape[0], dtype=np.int64)
    boards = 0
    if exact:
        tails = _completions(rest.size, k)
        parts = [tails[i:i + CHUNK] for i in range(0, tails.shape[0], CHUNK)]
    else:
        assert samples is not None
        rng = np.random.default_rng(seed)
        parts = []
        while boards < samples:
            m = min(CHUNK, samples - boards)
            parts.append(sample_without_replacement(rng, rest.size, k, m))
            boards += m
        boards = 0
    for part in parts:
        rows = np.empty((part.shape[0], BOARD_CARDS), dtype=np.uint8)
        rows[:, :b.size] = b
        rows[:, b.size:] = rest[part]
        total += game_shares(g, h, rows, unit).sum(axis=1)
        boards += part.shape[0]
    return [float(x / (unit * boards)) for x in total.tolist()]


@lru_cache(maxsize=8)
def _high_ranking(name: str, deck_name: str) -> Any:
    return ranking(name, deck=deck_name)


@lru_cache(maxsize=64)
def _completions(n: int, k: int) -> np.ndarray:
    """Every k-subset of range(n) as rows (the order does not matter: shares are summed)."""
    if k == 1:
        return np.arange(n, dtype=np.intp).reshape(n, 1)
    if k == 2:
        i, j = np.triu_indices(n, 1)
        return np.stack([i, j], axis=1)
    import itertools

    return np.array(list(itertools.combinations(range(n), k)), dtype=np.intp).reshape(-1, k)


def _shares(hands: np.ndarray, players: int, rk: Any, unit: int) -> np.ndarray:
    """Each player's summed share (``int64[P]``) of a pot of ``unit`` on each board,
    split evenly among the best hands (``hands``: player ``p``'s on board ``i`` in row
    ``p * boards + i``)."""
    values = np.asarray(evaluate_batch(hands, rk)).reshape(players, -1)
    out = np.zeros(players, dtype=np.int64)
    _split_sums(values, unit, out)
    return out


@njit(cache=True)
def _split_sums(values, unit, out):  # pragma: no cover - jit
    """``out[p]`` += player ``p``'s share of each board (column) of ``values``: ``unit``
    split evenly among the highest values."""
    for i in range(values.shape[1]):
        best = values[0, i]
        for p in range(1, values.shape[0]):
            if values[p, i] > best:
                best = values[p, i]
        n = 0
        for p in range(values.shape[0]):
            if values[p, i] == best:
                n += 1
        per = unit // n
        for p in range(values.shape[0]):
            if values[p, i] == best:
                out[p] += per


@njit(cache=True, inline="always")
def _put(holes, board, tail_row, tails, rest, i, m, hands):  # pragma: no cover - jit
    """Row ``p * m + i`` of ``hands`` for every player ``p``: its hole cards, the board,
    then the cards of ``rest`` at ``tails[tail_row]``."""
    h = holes.shape[1]
    b = board.size
    for p in range(holes.shape[0]):
        row = p * m + i
        for j in range(h):
            hands[row, j] = holes[p, j]
        for j in range(b):
            hands[row, h + j] = board[j]
        for j in range(tails.shape[1]):
            hands[row, h + b + j] = rest[tails[tail_row, j]]


@njit(cache=True)
def _enumerated_hands(holes, board, rest, tails, hands):  # pragma: no cover - jit
    """Every player's hand on every completion of the board (``tails``: rows of indices
    into ``rest``)."""
    m = tails.shape[0]
    for i in range(m):
        _put(holes, board, i, tails, rest, i, m, hands)


@njit(cache=True)
def _sampled_hands(holes, board, rest, draws, hands):  # pragma: no cover - jit
    """Every player's hand on each sampled board: ``k`` distinct cards of ``rest`` by a
    partial Fisher-Yates shuffle of its indices with the ``draws[j, row]`` offsets (the
    row swaps of ``evaluator.equity.sample_without_replacement``, one row at a time;
    each row's swaps are undone after it, so every row starts from the identity)."""
    n = rest.size
    k = draws.shape[0]
    m = draws.shape[1]
    perm = np.arange(n)
    tail = np.empty((1, k), dtype=np.int64)
    for i in range(m):
        for j in range(k):
            r = j + draws[j, i]
            x = perm[j]
            perm[j] = perm[r]
            perm[r] = x
            tail[0, j] = perm[j]
        _put(holes, board, 0, tail, rest, i, m, hands)
        for j in range(k - 1, -1, -1):
            r = j + draws[j, i]
            x = perm[j]
            perm[j] = perm[r]
            perm[r] = x
