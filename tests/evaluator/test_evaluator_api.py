"""The evaluator's public API: options, paths that must agree, words, errors."""

import numpy as np
import pytest

from pokerarena.cards import CardError, parse_cards
from pokerarena.evaluator import (
    HIGH,
    category,
    describe,
    evaluate,
    evaluate_batch,
    evaluate_omaha,
    evaluate_omaha_batch,
    generic,
    qualifies_low,
    qualifies_low_batch,
    ranking,
    tables,
)


def _random_hands(n, k, deck_size=52, seed=0):
    rng = np.random.default_rng(seed)
    return np.array([rng.choice(deck_size, k, replace=False) for _ in range(n)], dtype=np.uint8)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_table_kernels_equal_general_kernels(k):
    hands = _random_hands(20000, k, seed=k)
    fast = evaluate_batch(hands)
    slow = np.empty(hands.shape[0], np.int32)
    generic.batch_values(hands, HIGH.params, np.uint64(0), slow)
    assert np.array_equal(fast, slow)
    singles = [evaluate(h.tolist()) for h in hands[:500]]
    assert singles == fast[:500].tolist()


def test_omaha_table_kernel_equals_general_kernel():
    cards = _random_hands(5000, 9, seed=3)
    hole, board = np.ascontiguousarray(cards[:, :4]), np.ascontiguousarray(cards[:, 4:])
    fast = evaluate_omaha_batch(hole, board)
    slow = np.empty(cards.shape[0], np.int32)
    generic.omaha_values(hole, board, HIGH.params, np.uint64(0), slow)
    assert np.array_equal(fast, slow)


def test_omaha_uses_exactly_two_hole_cards():
    # Four spades in hand and one on board: no flush in Omaha, a flush in hold'em terms.
    hole, board = "AsKsQsJs", "2s7d8c9hTd"
    assert category(evaluate_omaha(hole, board), HIGH) == "straight"  # Q-J + 8-9-T
    assert category(evaluate(parse_cards(hole) + parse_cards(board)), HIGH) == "flush"
    assert category(evaluate_omaha("AhAd2c3c", "AcAs5h6h9d"), HIGH) == "four_of_a_kind"


def test_partial_hands_for_stud_showing_cards():
    pair = evaluate("KsKd")
    trips = evaluate("2s2d2h")
    ace = evaluate("As")
    assert category(pair, HIGH) == "one_pair" and category(trips, HIGH) == "three_of_a_kind"
    assert trips > pair > evaluate("AsKd") > ace > evaluate("Ks")


def test_descriptions():
    assert describe(evaluate("KhKdKc3s3c"), HIGH) == "full house, kings full of threes"
    assert describe(evaluate("AsKsQsJsTs"), HIGH) == "royal flush"
    assert describe(evaluate("5d4c3h2sAs"), HIGH) == "straight, five high"
    low = ranking("a5_low")
    assert describe(evaluate("8s6d4c2hAs", low), low) == "8-6-4-2-A low"
    assert category(evaluate("8s6d4c2hAs", low), low) == "8-high"


def test_eight_or_better_batch_equals_single():
    low = ranking("a5_low")
    values = evaluate_batch(_random_hands(20000, 7, seed=42), low)
    batch = qualifies_low_batch(values, low, 8)
    assert batch.tolist() == [qualifies_low(int(v), low, 8) for v in values]
    assert 0.15 < batch.mean() < 0.22  # 18.3% of seven-card hands hold an 8-or-better low
    assert not qualifies_low_batch(evaluate_batch(_random_hands(50, 7), HIGH), HIGH).any()


def test_eight_or_better():
    low = ranking("a5_low")
    assert qualifies_low(evaluate("8s7d4c2hAs", low), low)
    assert not qualifies_low(evaluate("9s7d4c2hAs", low), low)
    assert not qualifies_low(evaluate("8s8d4c2hAs", low), low)
    # Seven cards: the best five unpaired low cards.
    assert qualifies_low(evaluate("KsKd8s7d4c2hAs", low), low)


def test_short_deck_order_and_wheel():
    sd = ranking("short_deck")
    wheel, six_high = evaluate("As6d7c8h9s", sd), evaluate("6d7c8h9sTs", sd)
    assert category(wheel, sd) == "straight" and six_high > wheel
    flush, boat = evaluate("AsJs9s8s6s", sd), evaluate("KsKdKc6h6s", sd)
    assert flush > boat
    trips, straight = evaluate("KsKdKc6h7s", sd), evaluate("6d7c8h9sTs", sd)
    assert straight > trips
    flipped = ranking("short_deck", trips_beat_straight=True)
    assert evaluate("KsKdKc6h7s", flipped) > evaluate("6d7c8h9sTs", flipped)


def test_three_card_orders():
    doc, casino = ranking("three_card"), ranking("three_card_casino")
    trips, sflush = "KsKdKc", "9h8h7h"
    assert evaluate(trips, doc) > evaluate(sflush, doc)
    assert evaluate(sflush, casino) > evaluate(trips, casino)
    assert evaluate("2s7s9s", doc) > evaluate("5d4c3h", doc)  # flush beats straight (doc)
    assert evaluate("5d4c3h", casino) > evaluate("2s7s9s", casino)  # straight beats flush
    assert evaluate("AsKsQd", doc) > evaluate("3d2cAh", doc)  # A-K-Q tops A-2-3


def test_wild_rules_and_optional_hands():
    jokers = ranking("high", wild="jokers")
    lacking = ranking("high", wild="jokers", wild_rule="lacking")
    five = "JkAsAhAdAc"
    assert category(evaluate(five, jokers), jokers) == "five_of_a_kind"
    assert category(evaluate(five, lacking), lacking) == "four_of_a_kind"
    # fewer wild cards wins between equal hands, unless switched off
    natural, wild = evaluate("KsKhKdQcQd", jokers), evaluate("JkKhKdQcQd", jokers)
    assert natural > wild
    tie = ranking("high", wild="jokers", fewer_wilds_win=False)
    assert evaluate("KsKhKdQcQd", tie) == evaluate("JkKhKdQcQd", tie)
    daf = ranking("high", wild="deuces", double_ace_flush=True)
    v = evaluate("2sAsJs8s5s", daf)
    assert category(v, daf) == "double_ace_flush"
    assert evaluate("KsKdKc3h3d", daf) > v > evaluate("AhKhQh9h7h", daf)
    ff = ranking("high", four_flush=True)
    assert category(evaluate("AsKs9s4s2d", ff), ff) == "four_flush"
    assert evaluate("3s3d4c4h2d", ff) > evaluate("AsKs9s4s2d", ff) > evaluate("AsAd9c4s2d", ff)
    blaze = ranking("high", blaze=True)
    assert category(evaluate("KsKdQcQhJd", blaze), blaze) == "blaze"
    assert evaluate("2s2d2cQhJd", blaze) > evaluate("KsKdQcQhJd", blaze) > evaluate(
        "AsAdKcKh2d", blaze)


def test_low_wild_cards():
    a5 = ranking("a5_low", wild="jokers")
    assert describe(evaluate("Jk2s3d4c5h", a5), a5) == "5-4-3-2-A low"
    hilo = ranking("hilo_low", wild="jokers")
    # The joker is a low ace that pairs with nothing: 4-3-2-A-joker is the best low.
    assert evaluate("Jk4s3d2cAh", hilo) > evaluate("6s4d3c2hAh", ranking("hilo_low"))
    low27 = ranking("27_low", wild="jokers")
    assert describe(evaluate("Jk2s3d4c5h", low27), low27) == "7-5-4-3-2 low"


def test_badugi():
    b = ranking("badugi")
    assert category(evaluate("As2d3c4h", b), b) == "4-card"
    assert category(evaluate("As2s3c4h", b), b) == "3-card"
    assert evaluate("Ks2d3c4h", b) > evaluate("As2s3c4h", b)  # any four beats three
    assert evaluate("As2d3c5h", b) > evaluate("As2d3c6h", b)


def test_bad_input():
    with pytest.raises(CardError):
        evaluate("AsAs")
    with pytest.raises(CardError):
        evaluate([1, 2, 99])
    with pytest.raises(CardError):
        evaluate_omaha("AsKsQsJs", "AsKd2c")
    with pytest.raises(CardError):
        ranking("omaha")
    with pytest.raises(CardError):
        ranking("high", wild="purple")
    with pytest.raises(CardError):
        evaluate_batch(np.zeros((3,), np.uint8))


def test_tables_load_from_disk_cache(tmp_path, monkeypatch):
    """Built once, then read from the disk cache; a damaged cache file is rebuilt (the
    tables shipped with the package left out: tests/evaluator/test_shipped_tables.py)."""
    monkeypatch.setenv("POKERARENA_CACHE", str(tmp_path))
    monkeypatch.setattr(tables, "SHIPPED", tmp_path / "nothing-shipped")
    built = tables.load(HIGH.params)
    files = list(tmp_path.glob("high-*.npz"))
    assert len(files) == 1
    loaded = tables.load(HIGH.params)
    assert set(built) == set(loaded)
    for name in built:
        assert np.array_equal(built[name], loaded[name])
    files[0].write_bytes(b"damaged")  # a broken cache file is rebuilt, not trusted
    again = tables.load(HIGH.params)
    assert np.array_equal(again["values7"], built["values7"])


def test_rank_keys_identify_multisets():
    for n in (5, 6, 7):
        ms = tables.rank_multisets(n)
        sums = ms @ tables.RANK_KEYS
        assert np.unique(sums).size == ms.shape[0]


def test_single_omaha_path_equals_batch():
    cards = _random_hands(3000, 11, seed=5)
    for h in (4, 5, 6):
        hole, board = np.ascontiguousarray(cards[:, :h]), np.ascontiguousarray(cards[:, 6:])
        batch = evaluate_omaha_batch(hole, board)
        singles = [evaluate_omaha(hole[i].tolist(), board[i].tolist()) for i in range(3000)]
        assert singles == batch.tolist()


@pytest.mark.parametrize("k", [5, 6, 7])
def test_ace_to_five_tables_equal_general_kernels(k):
    low = ranking("a5_low")
    assert low.table_friendly and low.ranks_only
    hands = _random_hands(20000, k, seed=10 + k)
    fast = evaluate_batch(hands, low)
    slow = np.empty(hands.shape[0], np.int32)
    generic.batch_values(hands, low.params, np.uint64(0), slow)
    assert np.array_equal(fast, slow)
    assert [evaluate(h.tolist(), low) for h in hands[:300]] == fast[:300].tolist()
    cards = _random_hands(3000, 9, seed=20 + k)
    hole, board = np.ascontiguousarray(cards[:, :4]), np.ascontiguousarray(cards[:, 4:])
    omaha = evaluate_omaha_batch(hole, board, low)
    generic.omaha_values(hole, board, low.params, np.uint64(0), slow[:3000])
    assert np.array_equal(omaha, slow[:3000])


def test_high_with_board_matches_high_one_for_every_hand_size():
    from pokerarena.evaluator.fast import high_one, high_with_board, py_tables_for
    from pokerarena.evaluator.rankings import ranking

    t = py_tables_for(ranking("high"))
    rng = np.random.default_rng(11)
    for _ in range(3000):
        k = int(rng.integers(5, 8))
        cards = rng.permutation(52)[:k].tolist()
        nb = int(rng.integers(0, k - 1))
        board, hole = cards[:nb], cards[nb:]
        key = sum(t.card_keys[c] for c in board)
        assert high_with_board(hole, key, board, t) == high_one(cards, t)
