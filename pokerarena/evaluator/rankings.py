"""Rankings: which hands exist, in which order, and how wild cards behave.

A :class:`Ranking` is a frozen, hashable description; :meth:`Ranking.params` packs it
into the small ``int64`` array the numba kernels read.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from pokerarena.cards import JOKERS, CardError, lowest_rank, parse_cards

# Category ids (fixed; the order of a ranking maps them to positions).
HIGH_CARD, ONE_PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE = range(7)
FOUR_OF_A_KIND, STRAIGHT_FLUSH, FIVE_OF_A_KIND, DOUBLE_ACE_FLUSH, FOUR_FLUSH, BLAZE = range(7, 13)
CATEGORY_NAMES = (
    "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush",
    "full_house", "four_of_a_kind", "straight_flush", "five_of_a_kind",
    "double_ace_flush", "four_flush", "blaze",
)
NUM_CATEGORIES = len(CATEGORY_NAMES)

# Kinds of evaluation the kernels implement.
KIND_HIGH, KIND_A5, KIND_HILO, KIND_27, KIND_BADUGI = range(5)

# Layout of the params array.
P_KIND, P_SIZE, P_LOW_RANK, P_WILD_ANY, P_FEWER_WILDS, P_ORDER = 0, 1, 2, 3, 4, 5
PARAMS_LEN = P_ORDER + NUM_CATEGORIES

RANKING_NAMES = ("high", "short_deck", "three_card", "three_card_casino", "two_card",
                 "a5_low", "hilo_low", "27_low", "badugi")
LOW_NAMES = ("a5_low", "hilo_low", "27_low", "badugi")
WILD_NAMES = ("none", "jokers", "deuce_spades", "deuces", "deuces_treys", "red_tens")

# Bad-category lists of the low kinds, best first (index = badness).
LOW_BADNESS = {
    KIND_A5: (HIGH_CARD, ONE_PAIR, TWO_PAIR, THREE_OF_A_KIND, FULL_HOUSE, FOUR_OF_A_KIND),
    KIND_HILO: (HIGH_CARD, ONE_PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE,
                FOUR_OF_A_KIND, STRAIGHT_FLUSH),
}
LOW_BADNESS[KIND_27] = LOW_BADNESS[KIND_HILO]


def _wild_codes(wild: str) -> tuple[int, ...]:
    """Card codes of a named wild-card set or an explicit card list."""
    if wild in ("none", ""):
        return ()
    if wild == "jokers":
        return JOKERS
    if wild == "deuce_spades":
        return (0 * 4 + 3,)
    if wild == "deuces":
        return tuple(range(0, 4))
    if wild == "deuces_treys":
        return tuple(range(0, 8))
    if wild == "red_tens":
        return (8 * 4 + 1, 8 * 4 + 2)
    try:
        return tuple(sorted(parse_cards(wild)))
    except CardError as exc:
        raise CardError(
            f"unknown wild cards {wild!r}: use one of {', '.join(WILD_NAMES)} or a card list"
        ) from exc


def _high_order(name: str, four_flush: bool, blaze: bool, wild_any: bool,
                five_of_a_kind: bool, double_ace_flush: bool,
                trips_beat_straight: bool) -> list[int]:
    """Categories from worst to best for the high rankings."""
    if name == "three_card":
        return [HIGH_CARD, ONE_PAIR, STRAIGHT, FLUSH, STRAIGHT_FLUSH, THREE_OF_A_KIND]
    if name == "three_card_casino":
        return [HIGH_CARD, ONE_PAIR, FLUSH, STRAIGHT, THREE_OF_A_KIND, STRAIGHT_FLUSH]
    if name == "two_card":
        return [HIGH_CARD, ONE_PAIR]
    order = [HIGH_CARD, ONE_PAIR]
    if four_flush:
        order.append(FOUR_FLUSH)
    order.append(TWO_PAIR)
    if blaze:
        order.append(BLAZE)
    if name == "short_deck":
        order += ([STRAIGHT, THREE_OF_A_KIND] if trips_beat_straight
                  else [THREE_OF_A_KIND, STRAIGHT])
        order += [FULL_HOUSE, FLUSH]
        if wild_any and double_ace_flush:
            order.append(DOUBLE_ACE_FLUSH)
    else:
        order += ([STRAIGHT, THREE_OF_A_KIND] if trips_beat_straight
                  else [THREE_OF_A_KIND, STRAIGHT])
        order.append(FLUSH)
        if wild_any and double_ace_flush:
            order.append(DOUBLE_ACE_FLUSH)
        order.append(FULL_HOUSE)
    order += [FOUR_OF_A_KIND, STRAIGHT_FLUSH]
    if wild_any and five_of_a_kind:
        order.append(FIVE_OF_A_KIND)
    return order


@dataclass(frozen=True)
class Ranking:
    """How hands are ranked: the family, the deck, wild cards and optional hands."""

    name: str = "high"
    wild: tuple[int, ...] = ()
    wild_rule: str = "any"
    five_of_a_kind: bool = True
    double_ace_flush: bool = False
    fewer_wilds_win: bool = True
    four_flush: bool = False
    blaze: bool = False
    trips_beat_straight: bool = False
    deck: str = "standard"

    @cached_property
    def kind(self) -> int:
        """The kernel family (high, a5, hilo, 27, badugi)."""
        return {"a5_low": KIND_A5, "hilo_low": KIND_HILO, "27_low": KIND_27,
                "badugi": KIND_BADUGI}.get(self.name, KIND_HIGH)

    @cached_property
    def is_low(self) -> bool:
        """True for the low rankings, where the best hand is the lowest."""
        return self.name in LOW_NAMES

    @cached_property
    def hand_size(self) -> int:
        """How many cards make a full hand under this ranking."""
        return {"three_card": 3, "three_card_casino": 3, "two_card": 2, "badugi": 4}.get(
            self.name, 5)

    @cached_property
    def order(self) -> list[int]:
        """Category ids from worst to best (high rankings)."""
        wild_any = bool(self.wild) and self.wild_rule == "any"
        return _high_order(self.name, self.four_flush, self.blaze, wild_any,
                           self.five_of_a_kind, self.double_ace_flush,
                           self.trips_beat_straight)

    @cached_property
    def wild_mask(self) -> int:
        """Bit ``c`` set for each wild card code ``c``."""
        mask = 0
        for c in self.wild:
            mask |= 1 << c
        return mask

    @cached_property
    def params(self) -> np.ndarray:
        """The packed ``int64`` parameter array of the kernels."""
        p = np.full(PARAMS_LEN, -1, dtype=np.int64)
        p[P_KIND] = self.kind
        p[P_SIZE] = self.hand_size
        p[P_LOW_RANK] = lowest_rank(self.deck)
        p[P_WILD_ANY] = 1 if self.wild_rule == "any" else 0
        p[P_FEWER_WILDS] = 1 if self.fewer_wilds_win else 0
        if self.kind == KIND_HIGH:
            for pos, cat in enumerate(self.order):
                p[P_ORDER + cat] = pos
        return p

    @cached_property
    def ranks_only(self) -> bool:
        """True when suits never matter (ace-to-five lows without wild cards)."""
        return self.kind == KIND_A5 and not self.wild

    @cached_property
    def table_friendly(self) -> bool:
        """True when the fast table kernels apply: no wild cards, and either the
        five-card high family without optional hands, or ace-to-five lows."""
        if self.wild:
            return False
        return self.ranks_only or (self.kind == KIND_HIGH and self.hand_size == 5
                                   and not self.four_flush and not self.blaze)

    def category_of_position(self, pos: int) -> int:
        """The category id stored at order position ``pos``."""
        return self.order[pos]


def ranking(name: str = "high", *, wild: str | tuple[int, ...] = "none",
            wild_rule: str = "any", five_of_a_kind: bool = True,
            double_ace_flush: bool = False, fewer_wilds_win: bool = True,
            four_flush: bool = False, blaze: bool = False,
            trips_beat_straight: bool = False, deck: str | None = None) -> Ranking:
    """Build a validated :class:`Ranking` (see docs/evaluator.md)."""
    if name not in RANKING_NAMES:
        raise CardError(f"unknown ranking {name!r}; choose one of {', '.join(RANKING_NAMES)}")
    if wild_rule not in ("any", "lacking"):
        raise CardError(f"unknown wild rule {wild_rule!r}; choose 'any' or 'lacking'")
    if deck is None:
        deck = "short" if name == "short_deck" else "standard"
    lowest_rank(deck)  # validates the deck name
    codes = _wild_codes(wild) if isinstance(wild, str) else tuple(sorted(int(c) for c in wild))
    if name in LOW_NAMES and (four_flush or blaze):
        raise CardError("four_flush and blaze are high hands; a low ranking cannot use them")
    return Ranking(name=name, wild=codes, wild_rule=wild_rule, five_of_a_kind=five_of_a_kind,
                   double_ace_flush=double_ace_flush, fewer_wilds_win=fewer_wilds_win,
                   four_flush=four_flush, blaze=blaze, trips_beat_straight=trips_beat_straight,
                   deck=deck)


HIGH = ranking("high")
