"""The draw games' fast discard path gives the reference answers: the four-card badugi
value, the count and score tables, the joker low without scratch, the fast kernel
against :func:`drawmc.best_discard_dead`, and the incremental discard log."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pokerarena.arena.match import play_match
from pokerarena.bots.registry import make_bot
from pokerarena.bots.strength import drawmc, fastmc
from pokerarena.bots.strength.drawlog import discard_log
from pokerarena.bots.strength.estimate import _discard_masks, _discard_shape, profile
from pokerarena.engine.actions import DISCARD_KIND
from pokerarena.engine.game import Game
from pokerarena.evaluator import kernels

DRAW_VARIANTS = ["badugi", "draw27_triple", "draw27_single", "lowball", "draw5",
                 "draw5_shotgun", "spit"]


def _hands(rng: np.random.Generator, count: int, k: int, cards: int) -> np.ndarray:
    """``count`` rows of ``k`` distinct cards of the first ``cards`` codes."""
    return np.asarray([rng.choice(cards, k, replace=False) for _ in range(count)],
                      dtype=np.uint8)


def test_badugi4_matches_badugi_bits():
    rng = np.random.default_rng(5)
    # the whole deck, and a few ranks only (many clashing pairs)
    hands = np.concatenate([_hands(rng, 6000, 4, 52), _hands(rng, 3000, 4, 16)])
    got = np.empty(len(hands), dtype=np.int64)
    drawmc._badugi4_values(hands, got)
    want = np.asarray([kernels.badugi_bits(h, 4) for h in hands], dtype=np.int64)
    assert np.array_equal(got, want)
    patterns = set()
    for h in hands.tolist():
        patterns.add(tuple((a >> 2 == b >> 2) or (a & 3 == b & 3)
                           for i, a in enumerate(h) for b in h[i + 1:]))
    assert len(patterns) > 30  # most clash patterns were tried


def test_count_and_score_tables_match_the_search():
    prof = profile(Game("badugi"))
    tables = prof._draw_tables(4)
    ref = tables.ref
    v = np.arange(tables.counts.size)
    assert np.array_equal(tables.counts, np.searchsorted(ref, v))
    assert [drawmc._lower_bound(ref, x) for x in v[::97]] == tables.counts[::97].tolist()
    for expo in (1.0, 1.5, 2.0):
        k = np.arange(ref.size + 1)
        assert np.allclose(tables.scores(expo), (k / ref.size) ** expo, rtol=0, atol=1e-15)


@pytest.mark.parametrize("variant", ["draw27_triple", "lowball", "draw5"])
def test_five_card_counts_match_the_search(variant):
    prof = profile(Game(variant))
    tables = prof._draw_tables(5)
    plan = tables.plan
    t = plan.tables
    ck, sh5, off5 = t.card_keys, t.shift5, t.offsets5
    rng = np.random.default_rng(7)
    hands = np.concatenate([_hands(rng, 3000, 5, 52),
                            # flushes: five cards of one suit
                            np.asarray([rng.choice(13, 5, replace=False) * 4 + s
                                        for s in range(4) for _ in range(200)],
                                       dtype=np.uint8)])
    want = np.searchsorted(tables.ref, drawmc.values(plan, hands))
    got = []
    ranks_only = t.ranks_only or plan.hi_mode == fastmc.HI_A5_WILD
    for h in hands:
        suits = np.bincount(h & 3, minlength=4)
        if suits.max() == 5 and not ranks_only:
            got.append(tables.flushes[sum(1 << (int(c) >> 2) for c in h)])
        else:
            got.append(tables.counts[drawmc._rank_index(h, ck, sh5, off5)])
    assert np.array_equal(np.asarray(got), want)


def test_a5_wild_value_matches_value():
    plan = profile(Game("lowball")).draw_plan_for(5)
    assert plan is not None and plan.hi_mode == fastmc.HI_A5_WILD
    rng = np.random.default_rng(9)
    hands = _hands(rng, 4000, 5, 53)
    hands[:300, 0] = 52  # plenty of jokers
    got = np.empty(len(hands), dtype=np.int64)
    drawmc._a5_wild_values(hands, *plan.packed, got)
    assert np.array_equal(got, drawmc.values(plan, hands))


@pytest.mark.parametrize("variant", DRAW_VARIANTS)
def test_fast_kernel_matches_best_discard_dead(variant):
    prof = profile(Game(variant))
    n = prof.hole_final
    tables = prof._draw_tables(n)
    assert tables is not None
    plan = tables.plan
    rng = random.Random(11)
    deck = prof.deck_list
    for i in range(120):
        cards = rng.sample(deck, n + 12)
        hole = cards[:n]
        dead = 0
        for c in cards[n:n + i % 13]:
            dead |= 1 << c
        if i % 17 == 0:  # a deck too short for the larger discards
            for c in cards[n + 12:] + [c for c in deck if c not in cards][:-2]:
                dead |= 1 << c
        gone = dead
        for c in hole:
            gone |= 1 << c
        lo, hi = (0, n) if i % 3 else (1, min(n, 3))
        masks, penalty = _discard_masks(n, lo, hi)
        samples = (20, 1, 7, 24)[i % 4]
        expo = (1.0, 1.5, 2.0)[i % 3]
        seed = rng.getrandbits(31)
        h = np.asarray(hole, dtype=np.uint8)
        want = drawmc.best_discard_dead(plan, h, gone, masks, penalty, samples, seed,
                                        tables.ref, expo)
        got = drawmc.best_discard_fast(tables, h, gone, masks, penalty, samples, seed, expo)
        assert got[0] == want[0]
        assert got[1] == pytest.approx(want[1], rel=0, abs=1e-12)
        small = drawmc.fast_discard_kernel(bytes(hole), plan.deck, gone, masks, penalty,
                                          samples, seed, tables.scores(expo),
                                          *tables.tail[:-1], np.zeros(1, dtype=np.uint8))
        assert small == got  # a workspace too small: the kernel allocates its own


def test_discard_shape_picks_the_masked_cards():
    hole = (7, 19, 30, 44, 51)
    masks, penalty, picks = _discard_shape(5, 0, 5)
    assert np.array_equal(masks, _discard_masks(5, 0, 5)[0])
    for m, pick in zip(masks.tolist(), picks, strict=True):
        assert pick(hole) == tuple(c for j, c in enumerate(hole) if (m >> j) & 1)
        assert pick(list(hole)) == pick(hole)


def test_draws_left_counts_the_draw_streets():
    for variant in ("badugi", "draw5", "draw5_shotgun"):
        prof = profile(Game(variant))
        for street in range(-2, 12):
            assert prof.draws_left(street) == sum(1 for s in prof.draw_streets
                                                  if s >= street)


def _scan(view):
    mine = 0
    last = {}
    sizes = []
    for a, act in view.history:
        if act.kind == DISCARD_KIND:
            if a == view.seat:
                for c in act.cards:
                    mine |= 1 << c
            last[a] = len(act.cards)
            sizes.append(len(act.cards))
    return mine, last, tuple(sizes)


def test_discard_log_matches_a_fresh_scan():
    bot = make_bot("tag", seed=3)
    views = []
    memo: dict = {}
    act = bot.act

    def recording_act(view):
        if views and (view.match_no, view.hand_no) != (views[-1].match_no,
                                                       views[-1].hand_no):
            memo.clear()
        views.append(view)
        log = discard_log(view, memo)
        assert (log.mine, log.last, log.sizes) == _scan(view)
        return act(view)

    bot.act = recording_act
    play_match(Game("badugi"), [bot, "call"], 40, 5)
    assert sum(1 for v in views if _scan(v)[2]) > 20
    # a memo holding another history (a later view, then an earlier one) is rebuilt
    memo.clear()
    for v in (views[-1], views[0], views[len(views) // 2]):
        log = discard_log(v, memo)
        assert (log.mine, log.last, log.sizes) == _scan(v)
    assert discard_log(views[-1], None).sizes == _scan(views[-1])[2]
