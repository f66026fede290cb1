"""Public evaluation calls: one hand, a batch, Omaha.

Table-friendly rankings (no wild cards, five-card high family, 5..7 cards) go through
the lookup-table kernels of :mod:`pokerarena.evaluator.fast`; everything else through
the general kernels of :mod:`pokerarena.evaluator.generic`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pokerarena.cards import NUM_CODES, CardError, parse_cards
from pokerarena.evaluator import batch, fast, generic
from pokerarena.evaluator.rankings import HIGH, Ranking

CardsLike = str | Sequence[int] | np.ndarray


_VALID_CODES = frozenset(range(NUM_CODES))
MAX_HAND_CARDS = 12  # Cincinnati plays five hole cards with five board cards


def _codes(cards: CardsLike) -> list[int]:
    """Validated card codes of one hand, as a list of Python ints."""
    if isinstance(cards, str):
        codes = parse_cards(cards)
    elif isinstance(cards, np.ndarray):
        codes = cards.tolist()
    else:
        codes = list(cards)
        if codes and type(codes[0]) is not int:
            codes = [int(c) for c in codes]
    held = set(codes)
    if len(held) != len(codes):
        raise CardError("duplicate card in hand")
    if not held <= _VALID_CODES:
        raise CardError("card codes must be integers in 0..53")
    if not codes:
        raise CardError("a hand needs at least one card")
    if len(codes) > MAX_HAND_CARDS:
        raise CardError(f"a hand holds at most {MAX_HAND_CARDS} cards, not {len(codes)}")
    return codes


def _check_jokers(top: int, ranking: Ranking) -> None:
    """A joker means something only when the ranking makes jokers wild."""
    if top >= 52 and not ranking.wild_mask >> 52:
        raise CardError("a joker is in the hand but jokers are not wild in this ranking")


def _batch_shape(hands: np.ndarray, name: str = "hands") -> np.ndarray:
    """``hands`` as a C-contiguous ``uint8[N, k]`` array, its shape checked."""
    arr = np.ascontiguousarray(hands, dtype=np.uint8)
    if arr.ndim != 2 or arr.shape[1] == 0:
        raise CardError(f"{name} must be a uint8[N, k] array with k >= 1")
    if arr.shape[1] > MAX_HAND_CARDS:
        raise CardError(f"{name} hold at most {MAX_HAND_CARDS} cards each")
    return arr


def _check_codes(arr: np.ndarray, name: str = "hands") -> None:
    if arr.size and int(arr.max()) >= NUM_CODES:
        raise CardError(f"{name} hold a card code above 53")


def _bad_cards(arrays: list[tuple[np.ndarray, str]], ranking: Ranking) -> CardError:
    """The error for batches a table kernel found a code that is no card in: the same
    message as the checks before the general kernels give (they run only now, so a
    good batch is read once)."""
    for arr, name in arrays:
        _check_codes(arr, name)
    for arr, _ in arrays:
        _check_jokers(int(arr.max()), ranking)
    return CardError("a card code is no card of this ranking's deck")


def evaluate(cards: CardsLike, ranking: Ranking = HIGH) -> int:
    """Strength of one hand (higher is better) under ``ranking``."""
    codes = _codes(cards)
    n = len(codes)
    top = max(codes)
    if top >= 52:
        _check_jokers(top, ranking)
    elif ranking.table_friendly and 5 <= n <= 7:
        return fast.high_one(codes, fast.py_tables_for(ranking))
    arr = np.asarray(codes, dtype=np.uint8)
    return int(generic.any_value(arr, n, ranking.params, np.uint64(ranking.wild_mask)))


def evaluate_batch(hands: np.ndarray, ranking: Ranking = HIGH) -> np.ndarray:
    """Strengths of every row of a ``uint8[N, k]`` array, as ``int32[N]``.

    Rows are trusted to hold distinct valid cards (checking them would cost more than
    evaluating them); use :func:`evaluate` for untrusted single hands.
    """
    arr = _batch_shape(hands)
    out = np.empty(arr.shape[0], dtype=np.int32)
    k = arr.shape[1]
    if ranking.table_friendly and 5 <= k <= 7:
        # the kernel tells bad codes apart at no cost (batch.py): no max() pass first
        if batch.high_batch(arr, batch.batch_tables_for(ranking), out):
            raise _bad_cards([(arr, "hands")], ranking)
        return out
    _check_codes(arr)
    if arr.size:
        _check_jokers(int(arr.max()), ranking)
    generic.batch_values(arr, ranking.params, np.uint64(ranking.wild_mask), out)
    return out


def evaluate_omaha_batch(hole: np.ndarray, board: np.ndarray,
                         ranking: Ranking = HIGH) -> np.ndarray:
    """Omaha strengths: exactly two of each row's hole cards with three board cards."""
    hole = _batch_shape(hole, "hole cards")
    board = _batch_shape(board, "board cards")
    if hole.shape[0] != board.shape[0]:
        raise CardError("hole and board arrays need the same number of rows")
    if hole.shape[1] < 2 or board.shape[1] < 3:
        raise CardError("Omaha needs at least two hole cards and three board cards")
    out = np.empty(hole.shape[0], dtype=np.int32)
    if ranking.table_friendly and board.shape[1] == 5 and hole.shape[1] <= 6:
        if batch.omaha_batch(hole, board, batch.batch_tables_for(ranking), out):
            raise _bad_cards([(hole, "hole cards"), (board, "board cards")], ranking)
        return out
    _check_codes(hole, "hole cards")
    _check_codes(board, "board cards")
    if hole.size and board.size:
        _check_jokers(max(int(hole.max()), int(board.max())), ranking)
    generic.omaha_values(hole, board, ranking.params, np.uint64(ranking.wild_mask), out)
    return out


def evaluate_omaha(hole: CardsLike, board: CardsLike, ranking: Ranking = HIGH) -> int:
    """Omaha strength of one hand: exactly two hole cards and three board cards."""
    h = _codes(hole)
    b = _codes(board)
    if set(h) & set(b):
        raise CardError("a card is both in the hand and on the board")
    if len(h) < 2 or len(b) < 3:
        raise CardError("Omaha needs at least two hole cards and three board cards")
    if ranking.table_friendly and len(b) == 5 and max(h + b) < 52:
        return fast.omaha_one(h, b, fast.py_tables_for(ranking))
    arr_h = np.asarray([h], dtype=np.uint8)
    arr_b = np.asarray([b], dtype=np.uint8)
    return int(evaluate_omaha_batch(arr_h, arr_b, ranking)[0])
