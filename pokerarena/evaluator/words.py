"""Category names and plain-words descriptions of evaluated hands."""

from __future__ import annotations

import numpy as np

from pokerarena.cards import RANK_NAMES, RANK_PLURALS, RANKS
from pokerarena.evaluator.rankings import (
    CATEGORY_NAMES,
    KIND_A5,
    KIND_BADUGI,
    KIND_HIGH,
    LOW_BADNESS,
    Ranking,
)


def _slots(value: int) -> list[int]:
    """The five rank slots of a value (rank + 1, 0 = empty)."""
    ranks = (value >> 3) & 0xFFFFF
    return [(ranks >> (4 * (4 - i))) & 15 for i in range(5)]


def _low_slots(value: int) -> list[int]:
    ranks = 0xFFFFF - ((value >> 3) & 0xFFFFF)
    return [(ranks >> (4 * (4 - i))) & 15 for i in range(5)]


def _low_badness(value: int) -> int:
    return 15 - (value >> 23)


def category_id(value: int, ranking: Ranking) -> int:
    """Category id of a value under a high or ace-to-five/high-low/deuce-to-seven ranking."""
    if ranking.kind == KIND_HIGH:
        return ranking.order[value >> 23]
    if ranking.kind == KIND_BADUGI:
        raise ValueError("badugi hands have no high category")
    return LOW_BADNESS[ranking.kind][_low_badness(value)]


def _low_rank_char(slot_value: int, ranking: Ranking) -> str:
    """Rank character of a low slot (ace low except in deuce-to-seven)."""
    if ranking.name == "27_low":
        return RANKS[slot_value - 1]
    return "A" if slot_value == 1 else RANKS[slot_value - 2]


def category(value: int, ranking: Ranking) -> str:
    """Category name: ``full_house``; unpaired lows by top card (``8-high``); badugi ``4-card``."""
    if ranking.kind == KIND_BADUGI:
        return f"{4 - _low_badness(value)}-card"
    cat = category_id(value, ranking)
    if ranking.kind != KIND_HIGH and CATEGORY_NAMES[cat] == "high_card":
        return f"{_low_rank_char(_low_slots(value)[0], ranking)}-high"
    return CATEGORY_NAMES[cat]


def category_floor(name: str, ranking: Ranking, top: int | None = None) -> int:
    """The lowest value of category ``name`` under a high ranking (with ``top``, a rank
    0..12: of its hands whose first rank slot is at least that rank, e.g. the royal
    flush is ``category_floor("straight_flush", rk, 12)``). A hand is of that category or
    of a better one exactly when its value is at least this, wild cards or not."""
    if ranking.kind != KIND_HIGH:
        raise ValueError("category_floor needs a high ranking")
    cat = CATEGORY_NAMES.index(name)
    if cat not in ranking.order:
        raise ValueError(f"{name} is not a hand of this ranking")
    value = ranking.order.index(cat) << 23
    if top is not None:
        value |= (top + 1) << 19  # the first of the five 4-bit rank slots
    return value


def qualifies_low(value: int, ranking: Ranking, limit: int = 8) -> bool:
    """True for an unpaired ace-to-five low whose top card is ``limit`` or lower."""
    if ranking.kind != KIND_A5 or _low_badness(value) != 0:
        return False
    top = _low_slots(value)[0]  # 1 = ace, 2 = deuce, ... so 8 is slot value 8
    return 0 < top <= limit


def qualifies_low_batch(values: np.ndarray, ranking: Ranking, limit: int = 8) -> np.ndarray:
    """:func:`qualifies_low` over an array of values, as a boolean array."""
    values = np.asarray(values, dtype=np.int64)
    if ranking.kind != KIND_A5:
        return np.zeros(values.shape, dtype=bool)
    unpaired = (values >> 23) == 15
    top = 15 - ((values >> 19) & 15)  # the complemented top rank slot
    return unpaired & (top > 0) & (top <= limit)


def _name(slot_value: int) -> str:
    return RANK_NAMES[slot_value - 1]


def _plural(slot_value: int) -> str:
    return RANK_PLURALS[slot_value - 1]


def _high_words(cat: str, s: list[int]) -> str:
    cards = [x for x in s if x]
    if cat == "five_of_a_kind":
        return f"five of a kind, {_plural(s[0])}"
    if cat == "straight_flush":
        return "royal flush" if s[0] == 13 else f"straight flush, {_name(s[0])} high"
    if cat == "four_of_a_kind":
        return f"four of a kind, {_plural(s[0])}"
    if cat == "full_house":
        return f"full house, {_plural(s[0])} full of {_plural(s[1])}"
    if cat == "double_ace_flush":
        return "double-ace flush"
    if cat == "flush":
        return f"flush, {_name(s[0])} high"
    if cat == "straight":
        return f"straight, {_name(s[0])} high"
    if cat == "three_of_a_kind":
        return f"three of a kind, {_plural(s[0])}"
    if cat == "two_pair":
        return f"two pair, {_plural(s[0])} and {_plural(s[1])}"
    if cat == "one_pair":
        return f"pair of {_plural(s[0])}"
    if cat == "four_flush":
        return f"four flush, {_name(s[0])} high"
    if cat == "blaze":
        return "blaze"
    return f"{_name(cards[0])} high" if cards else "no cards"


def describe(value: int, ranking: Ranking) -> str:
    """The hand in words: ``full house, kings full of threes``; ``8-6-4-2-A low``."""
    if ranking.kind == KIND_HIGH:
        return _high_words(category(value, ranking), _slots(value))
    chars = "-".join(_low_rank_char(x, ranking) for x in _low_slots(value) if x)
    if ranking.kind == KIND_BADUGI:
        return f"{category(value, ranking)} badugi, {chars}"
    cat = category(value, ranking)
    if cat.endswith("-high"):
        return f"{chars} low"
    return f"{cat.replace('_', ' ')}, {chars} low"
