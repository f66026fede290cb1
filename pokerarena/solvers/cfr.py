"""Counterfactual regret minimization over the exact tree (docs/exact.md, "Solving Kuhn
and Leduc"): the game solved is the game played, since the tree is the engine's own
(:func:`pokerarena.solvers.exact.build_tree`) and its information sets are the keys a
:class:`~pokerarena.bots.simple.strategy_bot.StrategyBot` reads from the views it is shown.

The tree is flattened once (:class:`FlatTree`: nodes in breadth-first order, so parents
come before children and depths never decrease; children contiguous; information sets
numbered, their moves contiguous in one action array), and the iterations run in numba
kernels over those arrays:

- ``cfr+``: CFR+ (Tammelin 2014; Tammelin, Burch, Johanson, Bowling 2015; Bowling et
  al., Science 2015): regret-matching+ (cumulative regrets floored at 0), alternating
  updates (player 0's pass, then player 1's against player 0's new strategy), and a
  weighted average strategy, weight t (linear, the default) or t^2 (quadratic);
- ``mccfr``: external-sampling Monte Carlo CFR (Lanctot, Waugh, Zinkevich, Bowling 2009)
  with plain regret matching: each iteration samples chance and the opponent's moves and
  walks every move of the traverser, for each player in turn; the opponent's average is
  accumulated where it is sampled. Reproducible from the seed.

Exploitability is exact: a best response per seat over the whole tree
(:func:`exploitability`), the same figure as ``pokerarena exact``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit

from pokerarena.bots.simple.strategy_table import move_name, state_key
from pokerarena.solvers.exact import (
    CHANCE,
    DECISION,
    TERMINAL,
    ExactError,
    GameTree,
    Node,
    build_tree,
    info_key,
)

ALGORITHMS = ("cfr+", "mccfr")
AVERAGING = {"linear": 1, "quadratic": 2}


class SolveError(ExactError):
    """A solve that cannot run: an unknown algorithm, a bad count or seed."""


@dataclass(frozen=True)
class FlatTree:
    """The exact tree as arrays (module docstring). ``prob``: a chance child's
    probability (0 elsewhere); ``payoff``: seat 0's chips at a terminal (seat 1 wins
    the negative); ``levels``: where each depth starts in the node order."""

    tree: GameTree
    kind: np.ndarray
    seat: np.ndarray
    infoset: np.ndarray
    first: np.ndarray
    count: np.ndarray
    prob: np.ndarray
    payoff: np.ndarray
    levels: np.ndarray
    keys: list[str]
    iseat: np.ndarray
    aoff: np.ndarray
    nact: np.ndarray
    moves: list[list[str]]

    @property
    def actions(self) -> int:
        return int(self.nact.sum())


def flatten(tree: GameTree) -> FlatTree:
    """Number the nodes breadth first and the information sets by their keys; checks
    that a key is exactly one information set of the walk (same view, same moves)."""
    order: list[Node] = [tree.root]
    firsts: list[int] = []
    for node in order:       # grows as it goes: breadth first
        firsts.append(len(order))
        order.extend(child for _, _, child in node.children)
    n = len(order)
    kind = np.array([x.kind for x in order], dtype=np.int8)
    seat = np.array([x.seat for x in order], dtype=np.int8)
    count = np.array([len(x.children) for x in order], dtype=np.int32)
    depth = np.array([x.depth for x in order], dtype=np.int32)
    prob = np.zeros(n)
    payoff = np.zeros(n)
    infoset = np.full(n, -1, dtype=np.int32)
    index: dict[str, int] = {}
    seen: dict[str, tuple[Any, ...]] = {}
    moves: list[list[str]] = []
    for i, x in enumerate(order):
        if x.kind == TERMINAL:
            payoff[i] = x.payoff[0]
        elif x.kind == CHANCE:
            prob[firsts[i]:firsts[i] + len(x.children)] = [p for _, p, _ in x.children]
        else:
            assert x.view is not None
            key = state_key(x.view)
            names = [move_name(a) for a, _, _ in x.children]
            if key not in index:
                index[key] = len(moves)
                moves.append(names)
                seen[key] = info_key(x.view)
            elif seen[key] != info_key(x.view) or moves[index[key]] != names:
                raise ExactError(f"solve: the key {key!r} stands for two information sets")
            infoset[i] = index[key]
    keys = list(index)
    nact = np.array([len(m) for m in moves], dtype=np.int32)
    aoff = np.concatenate([[0], np.cumsum(nact)[:-1]]).astype(np.int32)
    iseat = np.zeros(len(keys), dtype=np.int8)
    iseat[infoset[kind == DECISION]] = seat[kind == DECISION]
    levels = np.searchsorted(depth, np.arange(depth.max() + 2)).astype(np.int32)
    if np.any(np.diff(depth) < 0):
        raise RuntimeError("breadth-first order broke the depths")
    return FlatTree(tree, kind, seat, infoset, np.array(firsts, dtype=np.int32), count,
                    prob, payoff, levels, keys, iseat, aoff, nact, moves)


# Kernels ------------------------------------------------------------------------------
@njit(cache=True)
def _match(r: np.ndarray, aoff: np.ndarray, nact: np.ndarray, out: np.ndarray) -> None:
    """Regret matching: each set's positive regrets normalized, uniform when none."""
    for s in range(aoff.size):
        o, k = aoff[s], nact[s]
        tot = 0.0
        for j in range(k):
            if r[o + j] > 0.0:
                tot += r[o + j]
        for j in range(k):
            out[o + j] = (max(r[o + j], 0.0) / tot) if tot > 0.0 else 1.0 / k


@njit(cache=True)
def _reach(i: int, sigma: np.ndarray, kind: np.ndarray, seat: np.ndarray,
           infoset: np.ndarray, first: np.ndarray, count: np.ndarray, prob: np.ndarray,
           aoff: np.ndarray, opp: np.ndarray, own: np.ndarray) -> None:
    """Reach probabilities top-down: ``opp`` (chance and the other seat), ``own`` (seat
    ``i``'s own moves)."""
    opp[0] = 1.0
    own[0] = 1.0
    for n in range(kind.size):
        if kind[n] == 2:
            continue
        f = first[n]
        for j in range(count[n]):
            c = f + j
            if kind[n] == 0:
                opp[c] = opp[n] * prob[c]
                own[c] = own[n]
            elif seat[n] == i:
                opp[c] = opp[n]
                own[c] = own[n] * sigma[aoff[infoset[n]] + j]
            else:
                opp[c] = opp[n] * sigma[aoff[infoset[n]] + j]
                own[c] = own[n]


@njit(cache=True)
def _values(i: int, sigma: np.ndarray, kind: np.ndarray, infoset: np.ndarray,
            first: np.ndarray, count: np.ndarray, prob: np.ndarray, payoff: np.ndarray,
            aoff: np.ndarray, v: np.ndarray) -> None:
    """Seat ``i``'s expected chips at every node under ``sigma``, bottom-up."""
    for n in range(kind.size - 1, -1, -1):
        if kind[n] == 2:
            v[n] = payoff[n] if i == 0 else -payoff[n]
            continue
        f = first[n]
        acc = 0.0
        for j in range(count[n]):
            w = prob[f + j] if kind[n] == 0 else sigma[aoff[infoset[n]] + j]
            acc += w * v[f + j]
        v[n] = acc


@njit(cache=True)
def _cfr_plus_pass(i: int, weight: float, sigma: np.ndarray, regret: np.ndarray,
                   total: np.ndarray, kind: np.ndarray, seat: np.ndarray,
                   infoset: np.ndarray, first: np.ndarray, count: np.ndarray,
                   prob: np.ndarray, payoff: np.ndarray, iseat: np.ndarray,
                   aoff: np.ndarray, nact: np.ndarray, opp: np.ndarray, own: np.ndarray,
                   v: np.ndarray, ownset: np.ndarray) -> None:
    """One CFR+ update of seat ``i``: counterfactual regrets of the current ``sigma``
    added and floored at 0 (regret-matching+), and ``weight`` x own reach x ``sigma``
    added to the average's numerator."""
    _reach(i, sigma, kind, seat, infoset, first, count, prob, aoff, opp, own)
    _values(i, sigma, kind, infoset, first, count, prob, payoff, aoff, v)
    for n in range(kind.size):
        if kind[n] != 1 or seat[n] != i:
            continue
        s = infoset[n]
        ownset[s] = own[n]               # the same at every node of the set
        if opp[n] == 0.0:
            continue
        o, f = aoff[s], first[n]
        for j in range(count[n]):
            regret[o + j] += opp[n] * (v[f + j] - v[n])
    for s in range(aoff.size):
        if iseat[s] != i:
            continue
        o = aoff[s]
        for j in range(nact[s]):
            total[o + j] += weight * ownset[s] * sigma[o + j]
            if regret[o + j] < 0.0:
                regret[o + j] = 0.0


@njit(cache=True)
def _best_response(i: int, sigma: np.ndarray, kind: np.ndarray, seat: np.ndarray,
                   infoset: np.ndarray, first: np.ndarray, count: np.ndarray,
                   prob: np.ndarray, payoff: np.ndarray, aoff: np.ndarray,
                   nact: np.ndarray, levels: np.ndarray) -> float:
    """Seat ``i``'s value of a best response to the other seat's ``sigma``: one move
    per information set, chosen deepest level first (a set lies on one level) to
    maximize the sum over its nodes of (chance x other's reach) x value."""
    n_nodes = kind.size
    opp = np.empty(n_nodes)
    own = np.empty(n_nodes)
    v = np.zeros(n_nodes)
    _reach(i, sigma, kind, seat, infoset, first, count, prob, aoff, opp, own)
    tot = np.zeros(sigma.size)
    for lv in range(levels.size - 2, -1, -1):
        lo, hi = levels[lv], levels[lv + 1]
        for n in range(lo, hi):
            if kind[n] == 2:
                v[n] = payoff[n] if i == 0 else -payoff[n]
            elif kind[n] == 1 and seat[n] == i:
                for j in range(count[n]):
                    tot[aoff[infoset[n]] + j] += opp[n] * v[first[n] + j]
            else:
                acc = 0.0
                for j in range(count[n]):
                    w = prob[first[n] + j] if kind[n] == 0 else \
                        sigma[aoff[infoset[n]] + j]
                    acc += w * v[first[n] + j]
                v[n] = acc
        for n in range(lo, hi):
            if kind[n] == 1 and seat[n] == i:
                o = aoff[infoset[n]]
                best = 0
                for j in range(1, nact[infoset[n]]):
                    if tot[o + j] > tot[o + best]:
                        best = j
                v[n] = v[first[n] + best]
    return v[0]


@njit(cache=True)
def _seed(seed: int) -> None:
    np.random.seed(seed)


@njit(cache=True)
def _es_traverse(i: int, kind: np.ndarray, seat: np.ndarray, infoset: np.ndarray,
                 first: np.ndarray, count: np.ndarray, prob: np.ndarray,
                 payoff: np.ndarray, aoff: np.ndarray, nact: np.ndarray,
                 regret: np.ndarray, total: np.ndarray, sig: np.ndarray, vals: np.ndarray,
                 fnode: np.ndarray, fj: np.ndarray) -> float:
    """One external-sampling traversal for seat ``i``: chance and the other seat
    sampled (the other seat's current strategy added to its average where it is
    sampled), every move of seat ``i`` walked and its regrets updated. Iterative, with
    a frame per decision of seat ``i`` on the path (chance and the other seat are tail
    steps), because numba's cache cannot hold a recursive kernel. Long for that reason:
    the descent and the return are one loop."""
    sp = 0
    n = 0
    while True:
        while kind[n] != 2 and not (kind[n] == 1 and seat[n] == i):
            f = first[n]
            u = np.random.random()
            acc = 0.0
            pick = count[n] - 1
            if kind[n] == 0:
                for j in range(count[n]):
                    acc += prob[f + j]
                    if u < acc:
                        pick = j
                        break
            else:
                s = infoset[n]
                o, k = aoff[s], nact[s]
                pos = 0.0
                for j in range(k):
                    pos += max(regret[o + j], 0.0)
                chosen = False
                for j in range(k):
                    p = max(regret[o + j], 0.0) / pos if pos > 0.0 else 1.0 / k
                    total[o + j] += p
                    acc += p
                    if not chosen and u < acc:
                        pick = j
                        chosen = True
            n = f + pick
        if kind[n] == 1:                      # seat i decides: a frame, the first move
            s = infoset[n]
            o, k = aoff[s], nact[s]
            pos = 0.0
            for j in range(k):
                pos += max(regret[o + j], 0.0)
            for j in range(k):
                sig[o + j] = max(regret[o + j], 0.0) / pos if pos > 0.0 else 1.0 / k
            fnode[sp] = n
            fj[sp] = 0
            sp += 1
            n = first[n]
            continue
        r = payoff[n] if i == 0 else -payoff[n]
        descend = False
        while sp > 0:                         # hand the value up to the open frames
            top = fnode[sp - 1]
            s = infoset[top]
            o, k = aoff[s], nact[s]
            j = fj[sp - 1]
            vals[o + j] = r
            if j + 1 < k:
                fj[sp - 1] = j + 1
                n = first[top] + j + 1
                descend = True
                break
            v = 0.0
            for jj in range(k):
                v += sig[o + jj] * vals[o + jj]
            for jj in range(k):
                regret[o + jj] += vals[o + jj] - v
            r = v
            sp -= 1
        if not descend:
            return r


@njit(cache=True)
def _es_run(iterations: int, kind: np.ndarray, seat: np.ndarray, infoset: np.ndarray,
            first: np.ndarray, count: np.ndarray, prob: np.ndarray, payoff: np.ndarray,
            aoff: np.ndarray, nact: np.ndarray, regret: np.ndarray,
            total: np.ndarray, depth: int) -> None:
    """``iterations`` external-sampling iterations, each a traversal for seat 0 then 1."""
    sig = np.zeros(regret.size)
    vals = np.zeros(regret.size)
    fnode = np.zeros(depth + 1, dtype=np.int64)
    fj = np.zeros(depth + 1, dtype=np.int64)
    for _ in range(iterations):
        for i in range(2):
            _es_traverse(i, kind, seat, infoset, first, count, prob, payoff, aoff, nact,
                         regret, total, sig, vals, fnode, fj)


# The solver ----------------------------------------------------------------------------
def average(flat: FlatTree, total: np.ndarray) -> np.ndarray:
    """The average strategy: each set's weighted sums normalized (uniform where its
    numerator is all zero: a set the average never reaches)."""
    out = np.empty_like(total)
    for s in range(len(flat.keys)):
        o, k = flat.aoff[s], flat.nact[s]
        row = total[o:o + k]
        t = row.sum()
        out[o:o + k] = row / t if t > 0 else 1.0 / k
    return out


def exploitability(flat: FlatTree, sigma: np.ndarray) -> float:
    """Chips per hand a best response wins against ``sigma`` played in both seats,
    averaged over the seats (the game's value with seats alternated is 0): NashConv / 2,
    ``pokerarena exact``'s and OpenSpiel's figure."""
    a = (flat.kind, flat.seat, flat.infoset, flat.first, flat.count, flat.prob,
         flat.payoff, flat.aoff, flat.nact, flat.levels)
    return (_best_response(0, sigma, *a) + _best_response(1, sigma, *a)) / 2.0


def profile_value(flat: FlatTree, sigma: np.ndarray) -> float:
    """Seat 0's expected chips per hand when both seats play ``sigma``."""
    v = np.empty(flat.kind.size)
    _values(0, sigma, flat.kind, flat.infoset, flat.first, flat.count, flat.prob,
            flat.payoff, flat.aoff, v)
    return float(v[0])


@dataclass
class Solver:
    """Iterates one algorithm on a flat tree; ``run`` may be called again to go on."""

    flat: FlatTree
    algorithm: str = "cfr+"
    seed: int = 0
    averaging: str = "linear"
    iterations: int = 0
    regret: np.ndarray = field(init=False)
    total: np.ndarray = field(init=False)
    sigma: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        if self.algorithm not in ALGORITHMS:
            raise SolveError(f"solve: unknown algorithm {self.algorithm!r} "
                             f"({', '.join(ALGORITHMS)})")
        if self.averaging not in AVERAGING:
            raise SolveError(f"solve: unknown averaging {self.averaging!r} "
                             f"({', '.join(AVERAGING)})")
        m = self.flat.actions
        self.regret, self.total, self.sigma = np.zeros(m), np.zeros(m), np.zeros(m)
        self._scratch = [np.zeros(self.flat.kind.size) for _ in range(3)]
        self._ownset = np.zeros(len(self.flat.keys))
        if self.algorithm == "mccfr":
            _seed(self.seed)

    def run(self, iterations: int) -> None:
        """``iterations`` more iterations."""
        f = self.flat
        if self.algorithm == "mccfr":
            _es_run(iterations, f.kind, f.seat, f.infoset, f.first, f.count, f.prob,
                    f.payoff, f.aoff, f.nact, self.regret, self.total, f.levels.size)
            self.iterations += iterations
            return
        power = AVERAGING[self.averaging]
        opp, own, v = self._scratch
        for _ in range(iterations):
            self.iterations += 1
            weight = float(self.iterations) ** power
            for i in (0, 1):
                _match(self.regret, f.aoff, f.nact, self.sigma)
                _cfr_plus_pass(i, weight, self.sigma, self.regret, self.total, f.kind,
                               f.seat, f.infoset, f.first, f.count, f.prob, f.payoff,
                               f.iseat, f.aoff, f.nact, opp, own, v, self._ownset)

    def average(self) -> np.ndarray:
        """The average strategy so far (the one that converges)."""
        return average(self.flat, self.total)

    def exploitability(self) -> float:
        """The average strategy's exploitability, chips per hand."""
        return exploitability(self.flat, self.average())

    def strategy(self) -> dict[str, dict[str, float]]:
        """The average strategy by information-state key and move name."""
        avg = self.average()
        f = self.flat
        return {key: {m: float(avg[f.aoff[s] + j]) for j, m in enumerate(f.moves[s])}
                for s, key in enumerate(f.keys)}


@dataclass(frozen=True)
class SolveResult:
    """What a solve produced: the figures of ``pokerarena solve --json`` and the
    strategy by key."""

    variant: str
    betting: str
    options: dict[str, Any]
    game_key: str
    algorithm: str
    iterations: int
    seed: int
    exploitability: float
    curve: list[tuple[int, float]]
    seconds: float
    value: float
    strategy: dict[str, dict[str, float]]

    def header(self) -> dict[str, Any]:
        """The strategy file's header fields (``strategy_file.write_strategy``)."""
        return {"variant": self.variant, "betting": self.betting, "options": self.options,
                "game_key": self.game_key, "algorithm": self.algorithm,
                "iterations": self.iterations, "seed": self.seed,
                "exploitability": self.exploitability, "units": "chips per hand"}


def checkpoints(iterations: int, points: int = 6) -> list[int]:
    """Where the curve is measured: about ``points`` iteration counts, doubling up to
    the last (always measured)."""
    marks = {max(1, iterations >> k) for k in range(points)}
    return sorted(m for m in marks if m <= iterations) if iterations > 0 else [0]


def solve(variant: Any, options: dict[str, Any] | None = None, *, algorithm: str = "cfr+",
          iterations: int = 1000, seed: int = 0, averaging: str = "linear",
          marks: list[int] | None = None,
          progress: Callable[[int, int], None] | None = None,
          flat: FlatTree | None = None) -> SolveResult:
    """Solve a walkable two-player game: ``iterations`` of ``algorithm``, the exact
    exploitability of the average at each of ``marks`` (default :func:`checkpoints`),
    ``progress(done, total)`` after each step. Seconds exclude the walk of the tree."""
    if iterations < 1:
        raise SolveError(f"solve: --iterations must be at least 1, got {iterations}")
    if seed < 0:
        raise SolveError(f"solve: --seed must be a non-negative integer, got {seed}")
    opts = dict(options or {})
    flat = flat if flat is not None else flatten(build_tree(variant, opts))
    solver = Solver(flat, algorithm, seed, averaging)
    marks = sorted({m for m in (marks or checkpoints(iterations)) if 0 < m <= iterations}
                   | {iterations})
    step = max(1, iterations // 200)
    curve: list[tuple[int, float]] = []
    start = time.perf_counter()
    for mark in marks:
        while solver.iterations < mark:
            solver.run(min(step, mark - solver.iterations))
            if progress is not None:
                progress(solver.iterations, iterations)
        curve.append((mark, solver.exploitability()))
    seconds = time.perf_counter() - start
    game = flat.tree.game
    from pokerarena.engine.keys import game_info_of

    return SolveResult(
        variant=game.variant_id, betting=str(game_info_of(game)["betting"]), options=opts,
        game_key=str(game_info_of(game)["game_key"]), algorithm=algorithm,
        iterations=iterations, seed=seed, exploitability=curve[-1][1], curve=curve,
        seconds=seconds, value=profile_value(flat, solver.average()),
        strategy=solver.strategy())
