"""The batch kernels (pokerarena/evaluator/batch.py) rank every hand as the general
kernels do: millions of random hands, every 7-card hand against the census, batches
made of flushes only, odd sizes, and bad codes found by the kernel itself.

The hands the kernels' second loop finishes, in the words of seeds/000_…: «5) флеш —
пять карт одной масти;» and «2) стрит-флеш — пять предоставленных карт одной масти, но
не самых старших;». Omaha (seeds/002_…: «покер Омаха (Omaha) … игроку с сильнейшей
комбинацией на руке из 5 карт (high)»; RULES.md §3: "exactly two hole and three board
cards"): a flush needs two suited hole cards and three board cards of that suit.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from numba import njit

import pokerarena.evaluator as ev
from pokerarena.bench.evaluator import random_hands
from pokerarena.cards import CardError, deck
from pokerarena.evaluator import batch, census, fast, generic


def general(hands: np.ndarray, rk: ev.Ranking) -> np.ndarray:
    out = np.empty(hands.shape[0], np.int32)
    generic.batch_values(np.ascontiguousarray(hands), rk.params, np.uint64(0), out)
    return out


def general_omaha(hole: np.ndarray, board: np.ndarray, rk: ev.Ranking) -> np.ndarray:
    out = np.empty(hole.shape[0], np.int32)
    generic.omaha_values(hole, board, rk.params, np.uint64(0), out)
    return out


RANKINGS = {
    "high": ev.ranking("high"),
    "a5_low": ev.ranking("a5_low"),
    "short_deck": ev.ranking("short_deck", deck="short"),
}


def test_two_million_random_seven_card_hands_equal_general_kernel() -> None:
    hands = random_hands(2_000_000, 7, seed=16)
    assert np.array_equal(ev.evaluate_batch(hands, ev.HIGH), general(hands, ev.HIGH))


@pytest.mark.parametrize("name", sorted(RANKINGS))
@pytest.mark.parametrize("k", [5, 6, 7])
def test_random_hands_of_each_size_and_ranking(name: str, k: int) -> None:
    rk = RANKINGS[name]
    cards = deck("short" if name == "short_deck" else "standard")
    rng = np.random.default_rng(k)
    hands = np.array([rng.choice(cards, k, replace=False) for _ in range(30_000)],
                     dtype=np.uint8)
    assert np.array_equal(ev.evaluate_batch(hands, rk), general(hands, rk))


@pytest.mark.parametrize("h", [2, 3, 4, 5, 6])
def test_random_omaha_hands_equal_general_kernel(h: int) -> None:
    n = 200_000 if h == 4 else 20_000
    cards = random_hands(n, h + 5, seed=h)
    hole, board = np.ascontiguousarray(cards[:, :h]), np.ascontiguousarray(cards[:, h:])
    for rk in (ev.HIGH, RANKINGS["a5_low"]):
        assert np.array_equal(ev.evaluate_omaha_batch(hole, board, rk),
                              general_omaha(hole, board, rk))


def _suited_deals(n: int, k: int, seed: int) -> np.ndarray:
    """``n`` hands of ``k`` cards of which at least five share a suit (flushes only)."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(n):
        suit = rng.integers(4)
        five = rng.choice(13, 5, replace=False) * 4 + suit
        rest = rng.choice(np.setdiff1d(np.arange(52), five), k - 5, replace=False)
        rows.append(rng.permutation(np.concatenate([five, rest])))
    return np.array(rows, dtype=np.uint8)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batches_of_flushes_only(k: int) -> None:
    """Every hand goes to the second loop: a full pending list in every pass."""
    hands = _suited_deals(3 * batch.CHUNK + 7, k, seed=k)
    values = ev.evaluate_batch(hands, ev.HIGH)
    assert np.array_equal(values, general(hands, ev.HIGH))
    cats = Counter(ev.category(int(v), ev.HIGH) for v in values)
    assert set(cats) <= {"flush", "straight_flush", "four_of_a_kind", "full_house"}
    assert cats["flush"] > 0.9 * len(hands)


def test_omaha_boards_of_one_suit() -> None:
    """Three to five board cards of a suit and hole cards of it: the flush table."""
    rng = np.random.default_rng(7)
    rows = []
    for _ in range(20_000):
        on_board = int(rng.integers(3, 6))
        suited = rng.choice(13, on_board + 2, replace=False) * 4
        rest = rng.choice(np.setdiff1d(np.arange(52), suited), 9 - on_board - 2,
                          replace=False)
        board = np.concatenate([suited[:on_board], rest[:5 - on_board]])
        hole = np.concatenate([suited[on_board:], rest[5 - on_board:]])
        rows.append(np.concatenate([rng.permutation(hole), rng.permutation(board)]))
    cards = np.array(rows, dtype=np.uint8)
    hole, board = np.ascontiguousarray(cards[:, :4]), np.ascontiguousarray(cards[:, 4:])
    values = ev.evaluate_omaha_batch(hole, board, ev.HIGH)
    assert np.array_equal(values, general_omaha(hole, board, ev.HIGH))
    assert sum(ev.category(int(v), ev.HIGH) in ("flush", "straight_flush")
               for v in values) > 0.5 * len(values)


@pytest.mark.parametrize("n", [0, 1, batch.CHUNK - 1, batch.CHUNK, batch.CHUNK + 1])
def test_batch_sizes_around_a_pass(n: int) -> None:
    hands = random_hands(n, 7, seed=n) if n else np.zeros((0, 7), np.uint8)
    assert np.array_equal(ev.evaluate_batch(hands, ev.HIGH), general(hands, ev.HIGH))


@pytest.mark.parametrize("row", [0, 500, 2047])
@pytest.mark.parametrize(("code", "message"), [
    (60, "hands hold a card code above 53"),
    (255, "hands hold a card code above 53"),
    (52, "jokers are not wild"),
])
def test_bad_codes_found_by_the_kernel(row: int, code: int, message: str) -> None:
    hands = random_hands(2048, 7, seed=1)
    hands[row, 3] = code
    with pytest.raises(CardError, match=message):
        ev.evaluate_batch(hands, ev.HIGH)
    hands[row] = code  # seven bad codes in one hand: the flag bits must not carry out
    with pytest.raises(CardError, match=message):
        ev.evaluate_batch(hands, ev.HIGH)
    hole, board = np.ascontiguousarray(hands[:, :4]), np.ascontiguousarray(hands[:, 4:])
    with pytest.raises(CardError, match=message.replace("hands", "hole cards")):
        ev.evaluate_omaha_batch(hole, board, ev.HIGH)


def test_bad_board_code_in_omaha() -> None:
    cards = random_hands(100, 9, seed=2)
    hole, board = np.ascontiguousarray(cards[:, :4]), np.ascontiguousarray(cards[:, 4:])
    board[99, 4] = 77
    with pytest.raises(CardError, match="board cards hold a card code above 53"):
        ev.evaluate_omaha_batch(hole, board, ev.HIGH)
    with pytest.raises(CardError, match="above 53"):
        ev.evaluate_batch(np.full((3, 5), 54, np.uint8), RANKINGS["a5_low"])


@njit(cache=True)
def _fill(idx: np.ndarray, out: np.ndarray) -> int:  # pragma: no cover - jit
    """The next hands of ``idx``'s lexicographic walk over 7 of 52 cards into ``out``."""
    done = 0
    while done < out.shape[0] and idx[0] >= 0:
        for j in range(7):
            out[done, j] = idx[j]
        done += 1
        if census.next_combination(idx, 52, 7) < 0:
            idx[0] = -1
    return done


def test_every_seven_card_hand_through_the_batch_equals_the_census(
        standard_census: dict) -> None:
    """All 133,784,560 hands through evaluate_batch: the count of every value equals the
    census's (which walks the hands with its own loop and flush code), and the
    categories equal the published table."""
    classes = np.unique(np.concatenate([fast.tables_for(ev.HIGH).values7,
                                        fast.tables_for(ev.HIGH).flush]))
    counts = np.zeros(classes.size, np.int64)
    idx = np.arange(7, dtype=np.int64)
    buf = np.empty((1 << 21, 7), np.uint8)
    total = 0
    while idx[0] >= 0:
        done = _fill(idx, buf)
        values = ev.evaluate_batch(buf[:done], ev.HIGH)
        slots = np.searchsorted(classes, values)
        assert np.array_equal(classes[slots], values)
        counts += np.bincount(slots, minlength=classes.size)
        total += done
    assert total == 133_784_560
    mine = {int(v): int(c) for v, c in zip(classes, counts, strict=True) if c}
    theirs = census._table_counts(ev.HIGH, deck("standard"), 7)
    assert mine == dict(theirs)
    by_cat: Counter = Counter()
    for v, c in mine.items():
        by_cat[ev.category(v, ev.HIGH)] += c
    assert dict(by_cat) == standard_census["high7"]["counts"]
    assert len(mine) == standard_census["high7"]["distinct_total"]


# ----------------------------------------------- 7 cards, two hands per step
@pytest.mark.parametrize("name", sorted(RANKINGS))
@pytest.mark.parametrize("n", [1, 2, 63, 64, 65, 127, 128, 129, 1000])
def test_seven_card_sizes_around_a_group_of_64(name: str, n: int) -> None:
    """Whole groups of 64 hands, two at a time, and the last ``n % 64`` one at a time;
    half of the hands are flushes, so both loops finish some in each part."""
    rk = RANKINGS[name]
    hands = random_hands(n, 7, seed=n)
    if name != "short_deck":
        hands[::2] = _suited_deals((n + 1) // 2, 7, seed=n)
    else:
        short = np.array(deck("short"), np.uint8)
        rng = np.random.default_rng(n)
        hands = np.array([rng.choice(short, 7, replace=False) for _ in range(n)], np.uint8)
    assert np.array_equal(ev.evaluate_batch(hands, rk), general(hands, rk))


def test_seven_card_rows_at_an_odd_address() -> None:
    """A C-contiguous view that starts at an odd byte: its uint16 words would straddle
    two hands' boundaries differently, so the kernel reads a copy."""
    hands = random_hands(1001, 7, seed=3)
    buf = np.zeros(hands.size + 1, np.uint8)
    buf[1:] = hands.reshape(-1)
    view = buf[1:].reshape(-1, 7)
    assert view.flags.c_contiguous and view.ctypes.data % 2 == 1
    assert np.array_equal(ev.evaluate_batch(view, ev.HIGH), general(hands, ev.HIGH))


@pytest.mark.parametrize("name", ["high", "a5_low"])
def test_seven_card_bad_hands_counted_in_groups_and_tail(name: str) -> None:
    """high_batch counts every hand holding a code above 51, wherever it sits (a group
    of 64, two hands sharing a word, the last hands), and values the others exactly."""
    rk = RANKINGS[name]
    n = 64 * 5 + 37
    hands = random_hands(n, 7, seed=9)
    rng = np.random.default_rng(9)
    bad_rows = np.unique(np.concatenate([rng.choice(n, 40, replace=False),
                                         [0, 1, 62, 63, 64, 319, 320, n - 1]]))
    for r in bad_rows:
        cols = rng.choice(7, int(rng.integers(1, 8)), replace=False)
        hands[r, cols] = rng.integers(52, 256, cols.size)
    out = np.empty(n, np.int32)
    assert batch.high_batch(hands, batch.batch_tables_for(rk), out) == bad_rows.size
    good = np.setdiff1d(np.arange(n), bad_rows)
    assert np.array_equal(out[good], general(hands[good], rk))


def test_seven_card_hash_reads_inside_for_any_key_sum() -> None:
    """Rows up to seven aces (repeated cards are outside the contract, but must not read
    outside the arrays): every slot any key of those rows can give is a value slot."""
    bt = batch.batch_tables_for(ev.HIGH)
    sh = bt.shift7
    rows = np.arange((7 * int(fast.tbl.RANK_KEYS[-1]) >> sh) + 1, dtype=np.int64)
    n_rows = max(rows.size, fast.tables_for(ev.HIGH).offsets7.size)  # values start there
    first = (rows << sh) + bt.hash7[rows].astype(np.int64)
    assert first.min() >= n_rows and (first + (1 << sh) - 1).max() < bt.hash7.size
    repeated = np.full((130, 7), 51, np.uint8)  # seven aces of spades, 130 times
    assert ev.evaluate_batch(repeated, ev.HIGH).shape == (130,)
