"""The public card abstraction of heads-up limit hold'em (``ehs-quantile``, version 1):
buckets by expected hand strength, as the ``cfr`` bot and the MCCFR trainer use it.

A seat's bucket on a street depends on its two hole cards and the board only:

- **pre-flop**: each of the 169 starting-hand classes gets its equity against one
  uniformly random hand over a random five-card board (a win 1, a tie 1/2), estimated
  from ``preflop_samples`` deals of a fixed-seed generator for one representative of
  the class; the classes, ranked by that equity, are cut into ``buckets[0]`` groups of
  equal numbers of combinations (6 per pair, 4 suited, 12 offsuit) - so AA is in the
  top bucket and 72o in the bottom one;
- **flop, turn**: E[HS], the expected hand strength after the rest of the board against
  a uniformly random opponent hand, estimated from ``samples`` deals seeded by the sorted
  hole cards and the sorted board (:func:`~pokerarena.bots.simple.cfr_bot.ehs`: a
  deterministic function of the cards, computed in numba, about 40 µs at 200 samples);
- **river**: HS exactly, against all 990 opponent hands (about 90 µs);
- a post-flop bucket is ``#(thresholds of the street <= E[HS])``; the ``buckets[s] - 1``
  thresholds are the E[HS] quantiles ``k / buckets[s]`` of ``calibration`` random deals
  of that street (fixed seed), so each bucket holds about as many deals.

The thresholds and the pre-flop table are written into the strategy file (its
``abstraction`` section), so the bot buckets exactly as the trainer did and a file of
another abstraction is refused by name and version. Why E[HS] and imperfect recall
(the bucket of the current street only): it is the simplest public scheme that is
monotone in hand strength, and it keeps the table small enough to ship.

The kernels live in :mod:`pokerarena.bots.simple.cfr_bot` (the bot must apply them, and
bots may not import solvers); this module calibrates them. What LBR reads is every
holding's bucket on a board at once (:func:`board_buckets`: the same numbers as
:func:`bucket_of` holding by holding, hands ranked from suit masks by
:func:`rank_masks`, which equals :func:`rank7` on every 5-, 6- and 7-card hand; the
river's 990 opponent hands ranked once for all holdings): about 20 ms a board on the
flop or turn, 2 on the river, where a holding at a time took 50 µs and 90 µs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokerarena.bots.simple.cfr_bot import (
    ABSTRACTION,
    ABSTRACTION_VERSION,
    board_buckets,
    bucket_of,
    ehs,
    padded_thresholds,
    preflop_class,
    rank7,
    rank_masks,
)

__all__ = ["Abstraction", "board_buckets", "bucket_of", "calibrate", "ehs", "preflop_class",
           "preflop_equities", "rank7", "rank_masks"]

DEFAULT_BUCKETS = (12, 8, 8, 8)


@dataclass(frozen=True)
class Abstraction:
    """A calibrated abstraction: buckets per street, the pre-flop class table, the
    post-flop thresholds and the Monte-Carlo samples of E[HS]."""

    buckets: tuple[int, int, int, int]
    preflop: np.ndarray
    thresholds: list[list[float]]
    samples: int
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def padded(self) -> np.ndarray:
        """The thresholds as the kernel takes them (3 rows padded with +inf)."""
        return padded_thresholds(self.thresholds)

    def section(self) -> dict[str, Any]:
        """The strategy file's ``abstraction`` section."""
        return {"name": ABSTRACTION, "version": ABSTRACTION_VERSION,
                "buckets": list(self.buckets), "samples": self.samples,
                "preflop": [int(x) for x in self.preflop],
                "thresholds": [[round(float(x), 6) for x in t] for t in self.thresholds],
                **self.params}

    def bucket(self, hole: list[int], board: list[int]) -> int:
        """The bucket of ``hole`` with ``board`` (0, 3, 4 or 5 cards)."""
        b = np.zeros(5, np.int64)
        b[:len(board)] = board
        return int(bucket_of(np.asarray(hole, np.int64), b, len(board), self.preflop,
                             self.padded, self.samples))


def class_representative(k: int) -> tuple[int, int]:
    """Two card codes of class ``k`` (:func:`preflop_class`'s layout)."""
    row, col = divmod(k, 13)
    if row == col:
        return row * 4, row * 4 + 1
    if row > col:                       # suited: (high, low)
        return row * 4, col * 4
    return col * 4, row * 4 + 1         # offsuit: (low, high) -> high card first


def preflop_equities(samples: int) -> np.ndarray:
    """Each class's equity against one random hand (deterministic)."""
    empty = np.zeros(5, np.int64)
    return np.array([ehs(np.asarray(class_representative(k), np.int64), empty, 0, samples)
                     for k in range(169)])


def _combos(k: int) -> int:
    row, col = divmod(k, 13)
    return 6 if row == col else (4 if row > col else 12)


def calibrate(buckets: tuple[int, int, int, int] = DEFAULT_BUCKETS, *, samples: int = 200,
              preflop_samples: int = 20_000, calibration: int = 4_000,
              seed: int = 0) -> Abstraction:
    """The abstraction with these buckets: the pre-flop table and the thresholds (the
    module's docstring says how; a few seconds)."""
    eq = preflop_equities(preflop_samples)
    order = np.argsort(eq, kind="stable")
    weights = np.array([_combos(int(k)) for k in order], float)
    mid = np.cumsum(weights) - weights / 2
    preflop = np.zeros(169, np.int64)
    preflop[order] = np.minimum(buckets[0] - 1, (buckets[0] * mid / weights.sum()).astype(int))
    rng = np.random.default_rng(seed)
    thresholds: list[list[float]] = [[]]
    for street, nboard in ((1, 3), (2, 4), (3, 5)):
        xs = np.empty(calibration)
        for i in range(calibration):
            cards = rng.choice(52, 2 + nboard, replace=False).astype(np.int64)
            board = np.zeros(5, np.int64)
            board[:nboard] = cards[2:]
            xs[i] = ehs(cards[:2], board, nboard, samples)
        qs = np.quantile(xs, [k / buckets[street] for k in range(1, buckets[street])])
        thresholds.append([float(x) for x in qs])
    return Abstraction(tuple(buckets), preflop, thresholds, samples,  # type: ignore[arg-type]
                       {"preflop_samples": preflop_samples, "calibration": calibration,
                        "calibration_seed": seed})
