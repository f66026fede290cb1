"""Omaha's pre-flop tables: the hand classes, the shares against an independent Monte
Carlo, the disk cache, and that decisions read a table but never build one."""

from __future__ import annotations

import numpy as np
import pytest

from pokerarena.bots.strength import preflop_omaha
from pokerarena.bots.strength.estimate import Profile
from pokerarena.cards import parse_cards
from pokerarena.engine import Game
from pokerarena.evaluator import evaluate_omaha_batch, ranking


@pytest.fixture(scope="module")
def omaha_profile():
    """An Omaha profile with its tables for one and two opponents (built into the
    machine's cache the first time)."""
    prof = Profile(Game("omaha"))
    prof.prepare_preflop(3)
    return prof


def test_hand_index_is_a_bijection_onto_all_four_card_hands():
    rng = np.random.default_rng(3)
    seen = set()
    for _ in range(3000):
        hand = rng.choice(52, 4, replace=False).tolist()
        i = preflop_omaha.hand_index(hand)
        assert i == preflop_omaha.hand_index(hand[::-1])
        seen.add((i, tuple(sorted(hand))))
    assert all(0 <= i < preflop_omaha.HANDS for i, _ in seen)
    assert len({i for i, _ in seen}) == len({h for _, h in seen})
    assert preflop_omaha.hand_index([48, 49, 50, 51]) == preflop_omaha.HANDS - 1


def test_classes_are_the_suit_relabellings():
    of_hand, reps = preflop_omaha.classes()
    assert len(reps) == 16432 and of_hand.shape == (preflop_omaha.HANDS,)
    rng = np.random.default_rng(4)
    for _ in range(200):
        hand = rng.choice(52, 4, replace=False).tolist()
        perm = rng.permutation(4)
        moved = [(c >> 2) * 4 + int(perm[c & 3]) for c in hand]
        assert of_hand[preflop_omaha.hand_index(hand)] == of_hand[preflop_omaha.hand_index(moved)]
    # hands that differ in more than their suits' names are different classes
    assert (of_hand[preflop_omaha.hand_index(parse_cards("AsAhKsKh"))]
            != of_hand[preflop_omaha.hand_index(parse_cards("AsAhKdKc"))])


@pytest.mark.parametrize("hole", ["AsAhKsKh", "7c6d3h2s", "JsTsJhTh", "AcKd8h3s"])
def test_heads_up_shares_agree_with_an_independent_monte_carlo(omaha_profile, hole):
    """Against a random hand: 20,000 deals through the batch Omaha evaluator."""
    tab = preflop_omaha.lookup(omaha_profile.plan, 1)
    assert tab is not None
    cards = parse_cards(hole)
    got = float(tab[preflop_omaha.hand_index(cards)])
    rng = np.random.default_rng(12)
    rest = np.array([c for c in range(52) if c not in cards], dtype=np.uint8)
    n = 20000
    deals = rest[np.argsort(rng.random((n, rest.size)), axis=1)[:, :9]]
    hi = ranking("high")
    boards = np.ascontiguousarray(deals[:, :5])
    me = evaluate_omaha_batch(np.tile(np.uint8(cards), (n, 1)), boards, hi)
    opp = evaluate_omaha_batch(np.ascontiguousarray(deals[:, 5:]), boards, hi)
    ref = float(((me > opp) + 0.5 * (me == opp)).mean())
    assert abs(got - ref) < 0.04, (hole, got, ref)


def test_tables_per_opponent_count_and_disk_cache(omaha_profile):
    plan = omaha_profile.plan
    one, two = preflop_omaha.lookup(plan, 1), preflop_omaha.lookup(plan, 2)
    assert one is not None and two is not None
    aces = preflop_omaha.hand_index(parse_cards("AsAhKsKh"))
    assert two[aces] < one[aces] - 0.05
    # a fresh process's view: forget the memory, the disk still has both
    for k in [k for k in plan.memo if k[0] == "preflop-omaha"]:
        del plan.memo[k]
    again = preflop_omaha.lookup(plan, 1)
    assert again is not None and np.array_equal(again, one)


def test_a_decision_reads_but_never_builds_a_table(tmp_path, monkeypatch, omaha_profile):
    """Without a table (nothing on disk) pre-flop equity comes from the kernel."""
    monkeypatch.setattr(preflop_omaha, "cache_dir", lambda: tmp_path)
    prof = Profile(Game("omaha"))
    assert prof.preflop_omaha
    hand = Game("omaha").new_hand(np.random.default_rng(1), 2, [200, 200], 0)
    from pokerarena.arena.views import build_view

    view = build_view(hand, hand.to_act)
    import random

    e, n = prof.equity_stats(view, 150, random.Random(1))
    assert n <= 150 and 0.0 < e < 1.0
    assert not list(tmp_path.glob("preflop-omaha-*"))
    prof.prepare_preflop(2)
    e2, n2 = prof.equity_stats(view, 150, random.Random(1))
    assert n2 == 1 << 31 and abs(e2 - e) < 0.2
    assert len(list(tmp_path.glob("preflop-omaha-*"))) == 1


def test_omaha_hilo_tables_split_the_pot():
    prof = Profile(Game("omaha_hilo"))
    assert prof.preflop_omaha
    # A-2 with two low cards is a better hi-lo hand than a high-only one of similar rank
    tab = preflop_omaha.build(prof.plan, 1, 200)
    low = tab[preflop_omaha.hand_index(parse_cards("As2s3dKd"))]
    high = tab[preflop_omaha.hand_index(parse_cards("KsQsJdTd"))]
    assert low > high
