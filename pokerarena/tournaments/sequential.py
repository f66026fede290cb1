"""Play duplicate pairs of one bot against another until the SPRT decides.

Pairs are played in batches (each batch one duplicate match with its own seed, so a
batch is a pure function of the test's seed and its index) and fed to the
:class:`~pokerarena.tournaments.sprt.Sprt` in batch order, whatever order the batches
finish in: the decision and the number of pairs it took are the same on one worker or
on many. The pair result is the first bot's winnings over the pair's two hands, in mbb
per hand (thousandths of the big blind, or of the small bet in games without blinds).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerarena.errors import UserError
from pokerarena.tournaments.sprt import Sprt


class SequentialTestError(UserError):
    """A sequential test that cannot be run as asked."""


@dataclass(frozen=True)
class PairBatch:
    """Batch ``index`` of a test: ``pairs`` duplicate pairs of ``bots[0]`` against
    ``bots[1]`` in one game, from the test's seed."""

    variant: str
    betting: str | None
    options: dict[str, Any]
    bots: tuple[str, str]
    index: int
    pairs: int
    seed: int
    estimator: str = "raw"
    """What a pair scores: ``raw`` chips, ``allin`` (runouts settled at equity, both
    hands of a deal at their shared point) or ``aivat`` (docs/tournaments.md, "AIVAT
    on hold'em"). All three are unbiased for the same mean."""

    def match_seed(self) -> int:
        """The batch's seed: from the test's seed and the batch index only."""
        ss = np.random.SeedSequence(self.seed, spawn_key=(0x5EC, self.index))
        return int(ss.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def play_batch(batch: PairBatch) -> list[float]:
    """The batch's pair results (mbb/hand for ``bots[0]``), one per pair, in order."""
    from pokerarena.arena.match import play_match
    from pokerarena.engine.game import Game

    opts = dict(batch.options)
    if batch.betting:
        opts["betting"] = batch.betting
    if batch.estimator != "raw":
        return _corrected_pairs(batch, opts)
    game = Game(batch.variant, opts)
    res = play_match(game, list(batch.bots), 2 * batch.pairs, batch.match_seed(),
                     duplicate=True)
    return [1000.0 * x / res.big_blind / 2 for x in res.entrants[0].samples]


def _corrected_pairs(batch: PairBatch, options: dict[str, Any]) -> list[float]:
    """The batch's pairs scored by all-in settlement or AIVAT, played and corrected in
    one pass (:func:`~pokerarena.tournaments.aivat_engine.play_engine_aivat`)."""
    from pokerarena.tournaments.aivat_engine import play_engine_aivat

    m = play_engine_aivat(batch.variant, list(batch.bots), 2 * batch.pairs,
                          batch.match_seed(), options=options)
    totals = m.blocks(batch.estimator)[:, 0]
    return [1000.0 * float(x) / m.big_blind / 2 for x in totals]


ESTIMATORS = ("raw", "allin", "aivat")


def batches(variant: str, betting: str | None, options: dict[str, Any],
            bots: tuple[str, str], seed: int, batch_pairs: int, max_pairs: int,
            estimator: str = "raw") -> Iterator[PairBatch]:
    """The test's batches in order, up to ``max_pairs`` pairs in all."""
    index = done = 0
    while done < max_pairs:
        k = min(batch_pairs, max_pairs - done)
        yield PairBatch(variant, betting, options, bots, index, k, seed, estimator)
        index += 1
        done += k


def run_test(test: Sprt, results: Iterable[list[float]],
             progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Feed batches of pair results (in batch order) to ``test`` until it decides or the
    results run out; ``progress(state)`` after each batch (its ``ci95`` the fixed-sample
    interval, as the test is still running). Returns the final state, whose ``ci95`` is
    the interval valid after the stop."""
    for batch in results:
        for x in batch:
            if test.add(x):
                break
        if progress is not None:
            progress(test.state(final=False))
        if test.decision:
            break
    return test.state()


def check_request(bots: list[str], h0: float, h1: float, max_hands: int) -> None:
    """Refuse what cannot be tested, with one message naming the problem."""
    if len(bots) != 2:
        raise SequentialTestError("--bots takes exactly two bots: NEW,OLD")
    if h0 == h1:
        raise SequentialTestError("--h0 and --h1 must differ")
    if max_hands < 2:
        raise SequentialTestError("--max-hands must be at least 2 (one duplicate pair)")
