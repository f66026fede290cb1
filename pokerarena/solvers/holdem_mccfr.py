"""External-sampling MCCFR for heads-up fixed-limit hold'em over the card abstraction
of :mod:`pokerarena.solvers.holdem_abstraction` (Lanctot et al., "Monte Carlo Sampling
for Regret Minimization in Extensive Games", 2009), written as a version-2 strategy
file that the built-in ``cfr`` bot plays (docs/exact.md).

The betting is the engine's own (:func:`~pokerarena.bots.simple.cfr_tree.tree_params`
reads the blinds, bets and heads-up cap from the game's program; a test walks the
engine and the tree side by side). Regrets and the average strategy are numpy arrays of
rows x 3 moves, a row per (decision node, bucket of its round): the node is the whole
betting history, so ``(round, bucket, history)`` is one row.

One iteration deals a hand (two hole pairs, five board cards) from a xorshift generator
seeded by ``seed``, buckets both seats on every street, and traverses the tree once for
each seat: every move of the traverser, one sampled move of the opponent. A traversal
is two passes in numba (no recursion): top-down, the reached nodes in pre-order with the
opponent's moves drawn from regret matching (its average strategy gets that
distribution, weighted linearly by the iteration); bottom-up, the values, and the
traverser's regrets. Single-threaded, so a run is a pure function of its arguments.

**Rounds** (:func:`train_rounds`, what ``--workers`` runs on Ray actors): the
iterations go in rounds of ``slices`` slices of ``slice_iterations`` each. Every slice
of a round starts from the same snapshot of the regrets, runs the very kernel above on
a copy of it with a generator seeded by ``(seed, round, slice)``, and hands back its
changes (:class:`SliceDelta`, the touched rows only); the driver then adds the slices'
changes to the snapshot in slice order. A slice is a pure function of the snapshot and
its numbers, and float64 additions in a fixed order are bit-exact, so the result (and
the file) depends on the seed and the schedule only - not on how many workers ran the
slices, on which nodes, or in which order they finished. The price: a slice does not
see the other slices' regrets of its round (they arrive one round late), so a round
run differs from the sequential one; each slice does see its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from pokerarena.bots.simple.cfr_bot import (
    ENCODING,
    KIND,
    VERSION,
    bucket_of,
    encode_rows,
    rank7,
    read_abstract,
)
from pokerarena.bots.simple.cfr_tree import (
    DECISION,
    FOLDED,
    BettingTree,
    build_tree,
    legal_mask,
    tree_params,
)
from pokerarena.bots.simple.strategy_table import FORMAT
from pokerarena.solvers.holdem_abstraction import DEFAULT_BUCKETS, Abstraction, calibrate

_U64 = np.uint64


@njit(cache=True, inline="always")
def _below(state, n):  # pragma: no cover - jit
    state ^= state >> _U64(12)
    state ^= state << _U64(25)
    state ^= state >> _U64(27)
    x = state * _U64(0x2545F4914F6CDD1D)
    return state, np.int64((x >> _U64(33)) % _U64(n))


@njit(cache=True, inline="always")
def _matching(regret, r, legal, out):  # pragma: no cover - jit
    """Regret matching at row ``r`` over the legal moves, into ``out``."""
    total = 0.0
    count = 0
    for a in range(3):
        out[a] = 0.0
        if legal[a] >= 0:
            count += 1
            if regret[r, a] > 0.0:
                out[a] = regret[r, a]
                total += regret[r, a]
    for a in range(3):
        if legal[a] >= 0:
            out[a] = out[a] / total if total > 0.0 else 1.0 / count


@njit(cache=True)
def _traverse(trav, b, res, kind, player, rnd, child, commit, loser, row, regret, avg,
              weight, state, value, sampled, order, stack):  # pragma: no cover - jit
    """One external-sampling traversal for seat ``trav`` (buckets ``b``, showdown
    ``res`` for seat 0); returns the generator's state."""
    sigma = np.empty(3)
    top = 1
    stack[0] = 0
    m = 0
    while top > 0:
        top -= 1
        n = stack[top]
        order[m] = n
        m += 1
        if kind[n] != DECISION:
            continue
        p = player[n]
        r = row[n] + b[p, rnd[n]]
        if p == trav:
            for a in range(3):
                if child[n, a] >= 0:
                    stack[top] = child[n, a]
                    top += 1
        else:
            _matching(regret, r, child[n], sigma)
            state, k = _below(state, 1 << 30)
            u = k / float(1 << 30)
            pick = -1
            acc = 0.0
            for a in range(3):
                if child[n, a] >= 0:
                    avg[r, a] += weight * sigma[a]
                    acc += sigma[a]
                    if pick < 0 and u < acc:
                        pick = a
            if pick < 0:
                pick = 2 if child[n, 2] >= 0 else 1
            sampled[n] = child[n, pick]
            stack[top] = child[n, pick]
            top += 1
    for i in range(m - 1, -1, -1):
        n = order[i]
        if kind[n] == FOLDED:
            value[n] = -commit[n, trav] if loser[n] == trav else commit[n, 1 - trav]
        elif kind[n] != DECISION:
            value[n] = (res if trav == 0 else -res) * commit[n, 0]
        elif player[n] != trav:
            value[n] = value[sampled[n]]
        else:
            r = row[n] + b[trav, rnd[n]]
            _matching(regret, r, child[n], sigma)
            v = 0.0
            for a in range(3):
                if child[n, a] >= 0:
                    v += sigma[a] * value[child[n, a]]
            for a in range(3):
                if child[n, a] >= 0:
                    regret[r, a] += value[child[n, a]] - v
            value[n] = v
    return state


@njit(cache=False)   # numba's disk cache would not see an edit of cfr_bot's kernels
def _run(kind, player, rnd, child, commit, loser, row, preflop, thresholds, samples,
         regret, avg, state, start, iters):  # pragma: no cover - jit
    """``iters`` iterations from iteration ``start``; returns the generator's state."""
    nodes = kind.shape[0]
    value = np.zeros(nodes)
    sampled = np.zeros(nodes, np.int64)
    order = np.empty(nodes, np.int64)
    stack = np.empty(nodes, np.int64)
    deck = np.arange(52, dtype=np.int64)
    b = np.zeros((2, 4), np.int64)
    seven = np.empty(7, np.int64)
    board = np.empty(5, np.int64)
    for it in range(iters):
        for j in range(9):
            state, k = _below(state, 52 - j)
            t = deck[j]
            deck[j] = deck[j + k]
            deck[j + k] = t
        board[:] = deck[4:9]
        strength = np.zeros(2, np.int64)
        for p in range(2):
            hole = deck[2 * p:2 * p + 2]
            for s in range(4):
                b[p, s] = bucket_of(hole, board, 0 if s == 0 else s + 2, preflop,
                                    thresholds, samples)
            seven[0] = hole[0]
            seven[1] = hole[1]
            seven[2:] = board
            strength[p] = rank7(seven, 7)
        res = 1.0 if strength[0] > strength[1] else (-1.0 if strength[0] < strength[1]
                                                     else 0.0)
        weight = float(start + it + 1)
        for trav in range(2):
            state = _traverse(trav, b, res, kind, player, rnd, child, commit, loser, row,
                              regret, avg, weight, state, value, sampled, order, stack)
    return state


@dataclass
class HoldemSolve:
    """A training run's result: the abstraction, the tree, the arrays and the timing
    (``seconds``: the iterations only, not the calibration nor the kernel's compilation;
    ``schedule``: how the iterations were run, which the result depends on)."""

    abstraction: Abstraction
    tree: BettingTree
    regret: np.ndarray
    avg: np.ndarray
    iterations: int
    seed: int
    seconds: float
    options: dict[str, Any]
    schedule: dict[str, Any] = field(default_factory=lambda: {"kind": "sequential"})

    def average_strategy(self) -> np.ndarray:
        """rows x 3 probabilities: the normalized average; a row never reached checks or
        calls (the passive move, rather than a uniform fold)."""
        legal = legal_mask(self.tree, self.abstraction.buckets)
        total = self.avg.sum(axis=1, keepdims=True)
        out = np.where(total > 0, self.avg / np.where(total > 0, total, 1.0), 0.0)
        out[total[:, 0] <= 0, 1] = 1.0
        return np.where(legal, out, 0.0)

    def mean_regret(self) -> float:
        """The mean over reached rows of the largest positive cumulative regret per
        iteration (a sampled measure of how far from equilibrium the run is)."""
        reached = np.abs(self.regret).sum(axis=1) > 0
        if not reached.any():
            return 0.0
        pos = np.maximum(self.regret[reached], 0.0).max(axis=1)
        return float(pos.mean() / max(1, self.iterations))


def quantize(probs: np.ndarray) -> np.ndarray:
    """Rows of probabilities as bytes summing to 255 (largest remainders round up)."""
    scaled = probs * 255.0
    q = np.floor(scaled).astype(np.int64)
    short = 255 - q.sum(axis=1)
    order = np.argsort(-(scaled - q), axis=1, kind="stable")
    for k in range(3):
        idx = np.flatnonzero(short > k)
        q[idx, order[idx, k]] += 1
    return q.astype(np.uint8)


@dataclass(frozen=True)
class Kernel:
    """What the iterations read besides the regrets: the tree's and the abstraction's
    arrays (a worker gets them once and keeps them)."""

    arrays: tuple[np.ndarray, ...]   # kind, player, rnd, child, commit, loser, row,
    samples: int                     # preflop, padded thresholds
    rows: int

    @classmethod
    def of(cls, tree: BettingTree, ab: Abstraction) -> Kernel:
        return cls((tree.kind, tree.player, tree.rnd, tree.child, tree.commit, tree.loser,
                    tree.row, ab.preflop, ab.padded), ab.samples, tree.rows)

    def run(self, regret: np.ndarray, avg: np.ndarray, state: Any, start: int,
            iterations: int) -> Any:
        """``iterations`` iterations from iteration ``start`` into ``regret`` and
        ``avg``; returns the generator's state (0 iterations: compiles the kernel)."""
        a = self.arrays
        return _run(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], self.samples,
                    regret, avg, state, start, iterations)


def _setup(options: dict[str, Any] | None, buckets: tuple[int, int, int, int],
           samples: int, abstraction: Abstraction | None
           ) -> tuple[dict[str, Any], Abstraction, BettingTree]:
    """The game's options, the abstraction (calibrated unless given) and the tree."""
    from pokerarena.engine import Game

    opts = {"betting": "fixed_limit", **(options or {})}
    blinds, bets, max_bets = tree_params(Game("holdem", opts))
    ab = abstraction or calibrate(buckets, samples=samples)
    return opts, ab, build_tree(blinds, bets, max_bets, ab.buckets)


def train(options: dict[str, Any] | None = None, *, iterations: int, seed: int = 0,
          buckets: tuple[int, int, int, int] = DEFAULT_BUCKETS, samples: int = 200,
          abstraction: Abstraction | None = None,
          progress: Callable[[int, int], None] | None = None,
          chunk: int = 2_000) -> HoldemSolve:
    """Train ``iterations`` MCCFR iterations on heads-up limit hold'em with
    ``options`` (default: fixed limit) from ``seed``, sequentially in this process."""
    opts, ab, tree = _setup(options, buckets, samples, abstraction)
    kernel = Kernel.of(tree, ab)
    regret = np.zeros((tree.rows, 3))
    avg = np.zeros((tree.rows, 3))
    state = _U64(0x9E3779B97F4A7C15) ^ _U64(seed * 2 + 1)
    kernel.run(regret, avg, state, 0, 0)          # compile outside the timing
    t0 = time.perf_counter()
    done = 0
    while done < iterations:
        k = min(chunk, iterations - done)
        state = kernel.run(regret, avg, state, done, k)
        done += k
        if progress is not None:
            progress(done, iterations)
    return HoldemSolve(ab, tree, regret, avg, iterations, seed,
                       time.perf_counter() - t0, opts)


# --------------------------------------------------------------------------- rounds
@dataclass(frozen=True)
class SliceTask:
    """Slice ``slice`` of round ``round``: ``iterations`` iterations from the global
    iteration ``start`` (their linear averaging weights)."""

    round: int
    slice: int
    start: int
    iterations: int


@dataclass(frozen=True)
class SliceDelta:
    """What a slice changed: ``rows`` (sorted) and their regret and average-strategy
    increments (rows x 3 each)."""

    slice: int
    rows: np.ndarray
    regret: np.ndarray
    avg: np.ndarray


def slice_state(seed: int, round_no: int, slice_no: int) -> Any:
    """The generator's start for a slice: splitmix64 of (seed, round, slice), never 0."""
    mask = (1 << 64) - 1
    h = 0x243F6A8885A308D3
    for v in (seed, round_no, slice_no):
        z = (h ^ ((v + 0x9E3779B97F4A7C15) & mask)) & mask
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        h = z ^ (z >> 31)
    return _U64(h or 1)


def schedule(iterations: int, slices: int, slice_iterations: int) -> list[list[SliceTask]]:
    """The rounds: ``slices`` slices of ``slice_iterations`` each (the last round's
    remainder split as evenly, slices of no iteration left out)."""
    per_round = slices * slice_iterations
    out = []
    for r, start in enumerate(range(0, iterations, per_round)):
        n = min(per_round, iterations - start)
        cut = [start + n * k // slices for k in range(slices + 1)]
        out.append([SliceTask(r, k, cut[k], cut[k + 1] - cut[k]) for k in range(slices)
                    if cut[k + 1] > cut[k]])
    return out


def run_slice(kernel: Kernel, regret: np.ndarray, seed: int, task: SliceTask) -> SliceDelta:
    """One slice against the snapshot ``regret`` (not modified; it may be read-only):
    the kernel on a copy, and what it changed."""
    local = np.array(regret, dtype=np.float64, copy=True)
    avg = np.zeros_like(local)
    kernel.run(local, avg, slice_state(seed, task.round, task.slice), task.start,
               task.iterations)
    local -= regret
    rows = np.flatnonzero((local != 0.0).any(axis=1) | (avg != 0.0).any(axis=1))
    return SliceDelta(task.slice, rows, local[rows], avg[rows])


def merge(regret: np.ndarray, avg: np.ndarray, tasks: Sequence[SliceTask],
          deltas: Sequence[SliceDelta]) -> None:
    """Add a round's deltas in slice order (whatever order they came in: the sums, and
    so the run, do not depend on it); every task must have answered exactly once."""
    by_slice = {d.slice: d for d in deltas}
    if sorted(by_slice) != sorted(t.slice for t in tasks) or len(deltas) != len(tasks):
        raise RuntimeError("a round's slices did not all answer exactly once")
    for t in sorted(tasks, key=lambda t: t.slice):
        d = by_slice[t.slice]
        regret[d.rows] += d.regret
        avg[d.rows] += d.avg


class SliceRunner:
    """Runs a round's slices: here, one after the other (the Ray actors of
    :mod:`pokerarena.workers.solve_unit` run them in parallel, with the same result)."""

    def start(self, kernel: Kernel, seed: int) -> None:
        """Take the kernel and the seed of the run (and compile)."""
        self.kernel, self.seed = kernel, seed
        kernel.run(np.zeros((kernel.rows, 3)), np.zeros((kernel.rows, 3)), _U64(1), 0, 0)

    def run(self, regret: np.ndarray, tasks: Sequence[SliceTask],
            done: Callable[[int], None]) -> list[SliceDelta]:
        """The round's deltas (any order); ``done(iterations)`` after each slice."""
        out = []
        for t in tasks:
            out.append(run_slice(self.kernel, regret, self.seed, t))
            done(t.iterations)
        return out

    def close(self) -> None:
        """Nothing to stop."""


def train_rounds(options: dict[str, Any] | None = None, *, iterations: int, seed: int = 0,
                 buckets: tuple[int, int, int, int] = DEFAULT_BUCKETS, samples: int = 200,
                 abstraction: Abstraction | None = None, slices: int = 8,
                 slice_iterations: int = 500, runner: SliceRunner | None = None,
                 progress: Callable[[int, int], None] | None = None) -> HoldemSolve:
    """MCCFR in rounds (the module's docstring): the result is a function of
    ``seed``, ``slices`` and ``slice_iterations``, whoever runs the slices (``runner``:
    this process by default)."""
    if slices < 1 or slice_iterations < 1:
        raise ValueError("slices and slice_iterations must be at least 1")
    opts, ab, tree = _setup(options, buckets, samples, abstraction)
    kernel = Kernel.of(tree, ab)
    regret = np.zeros((tree.rows, 3))
    avg = np.zeros((tree.rows, 3))
    runner = runner if runner is not None else SliceRunner()
    runner.start(kernel, seed)
    done = [0]

    def step(n: int) -> None:
        done[0] += n
        if progress is not None:
            progress(done[0], iterations)

    t0 = time.perf_counter()
    try:
        for tasks in schedule(iterations, slices, slice_iterations):
            merge(regret, avg, tasks, runner.run(regret, tasks, step))
    finally:
        runner.close()
    return HoldemSolve(ab, tree, regret, avg, iterations, seed, time.perf_counter() - t0,
                       opts, {"kind": "rounds", "slices": slices,
                              "slice_iterations": slice_iterations})


def write_holdem(path: str | Path, solve: HoldemSolve) -> int:
    """Write ``solve`` as a version-2 strategy file, read it back with every check (so
    nothing is shipped that would not load) and return its size in bytes. The file holds
    no wall-clock time: two runs of the same seed and schedule write the same bytes."""
    import json

    from pokerarena.engine import Game
    from pokerarena.engine.keys import game_info_of

    q = quantize(solve.average_strategy())
    tree = solve.tree
    doc = {"format": FORMAT, "version": VERSION, "kind": KIND, "variant": "holdem",
           "betting": solve.options["betting"], "options": solve.options,
           "game_key": game_info_of(Game("holdem", solve.options))["game_key"],
           "algorithm": "mccfr", "iterations": solve.iterations, "seed": solve.seed,
           "schedule": solve.schedule, "abstraction": solve.abstraction.section(),
           "tree": {"blinds": list(tree.blinds), "bets": list(tree.bets),
                    "max_bets": tree.max_bets, "rows": tree.rows},
           "encoding": ENCODING, "strategy": encode_rows(q)}
    text = json.dumps(doc, separators=(",", ":")) + "\n"
    Path(path).write_text(text, encoding="utf-8")
    read_abstract(path)
    return len(text.encode())
