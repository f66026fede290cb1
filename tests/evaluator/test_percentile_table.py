"""The strength bots' percentile tables (draw games the kernels do not rank, e.g. deuces
wild): the colex enumeration and rank, the table against the evaluator's own answer,
and the bots' decisions, which must not change when a table is used."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from pokerarena.bots.strength import estimate
from pokerarena.bots.strength.estimate import Profile, _colex_combos
from pokerarena.engine import Game
from pokerarena.workers.records import GameCache, play_unit
from pokerarena.workers.unit import Unit


@pytest.mark.parametrize(("n", "k"), [(7, 3), (9, 4), (6, 1), (8, 5)])
def test_colex_combos_are_every_subset_in_colex_order(n: int, k: int) -> None:
    combos = _colex_combos(n, k, math.comb(n, k))
    want = sorted(itertools.combinations(range(n), k), key=lambda c: c[::-1])
    assert [tuple(int(x) for x in row) for row in combos] == want
    for r, row in enumerate(want):  # the rank _table_lookup computes
        assert sum(math.comb(p, j + 1) for j, p in enumerate(row)) == r


def _profile() -> Profile:
    """A fresh profile of five-card draw with deuces wild (no kernel ranks it)."""
    prof = Profile(Game("draw5", {"betting": "fixed_limit", "wild": "deuces"}))
    assert prof.draw_plan_for(4) is None and prof.draw_plan_for(5) is None
    return prof


def test_table_gives_the_evaluators_percentiles() -> None:
    prof = _profile()
    assert prof._pct_table(4) is None  # not built within a decision
    table = prof._pct_table(4, build=True)
    assert table is not None and table.shape == (math.comb(52, 4),)
    rng = np.random.default_rng(3)
    hands = np.stack([rng.choice(52, 4, replace=False) for _ in range(3000)]).astype(np.uint8)
    got = prof.percentile(hands, 4)
    want = prof._percentile(hands, 4)  # the evaluator's value in the reference
    assert got.dtype == want.dtype and np.array_equal(got, want)
    # a card twice: the evaluator's path answers (the table is for distinct cards)
    twice = np.asarray([[5, 5, 9, 30]], dtype=np.uint8)
    assert prof.percentile(twice, 4)[0] == prof._percentile(twice, 4)[0]


def test_best_discard_is_the_same_with_the_table() -> None:
    prof = _profile()
    plain = _profile()
    assert prof._pct_table(4, build=True) is not None
    plain._pct_tables[4] = False  # never a table: the evaluator's path
    deal = random.Random(11)
    for t in range(40):
        hole = tuple(deal.sample(range(52), 4))
        dead = {c for c in deal.sample(range(52), 6) if c not in hole}
        left = 1 + t % 3
        a = prof.best_discard(hole, 0, 3, random.Random(t), left, dead=dead)
        b = plain.best_discard(hole, 0, 3, random.Random(t), left, dead=dead)
        assert a == b


def test_a_unit_plays_the_same_rows_with_and_without_tables(
        monkeypatch: pytest.MonkeyPatch) -> None:
    unit = Unit(unit_id="t", index=0, match=0, shard=0, variant="draw5",
                betting="fixed_limit", options={"betting": "fixed_limit", "wild": "deuces"},
                bots=("tag", "lag", "rock", "equity"), hands=25, first_hand=0, seed=7,
                spawn_key=(0, 0), run_id="t")
    with_tables = play_unit(unit, GameCache(), fast=False).tables
    prof = estimate.register_game(Game("draw5", {"betting": "fixed_limit",
                                                  "wild": "deuces"}))
    assert isinstance(prof._pct_tables.get(5), np.ndarray)  # the warm-up built it
    monkeypatch.setattr(Profile, "_pct_table", lambda self, size, build=False: None)
    without = play_unit(unit, GameCache(), fast=False).tables
    for name in ("hands", "seats", "actions", "faults"):
        assert with_tables[name].equals(without[name]), name
