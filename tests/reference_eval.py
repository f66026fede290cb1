"""A slow, obviously correct reference hand evaluator, written from docs/evaluator.md.

Nothing here is clever: every ranking is brute force.

* every ``H``-card subset of the hand is tried (``H`` = 5, 3 for three-card poker, 2 for
  two-card poker; all cards when the hand holds fewer than ``H``);
* every wild card in the subset is replaced by every card it may stand for (rule
  ``"any"``: any of the 52 cards, duplicates allowed; rule ``"lacking"``: a card the
  player does not hold naturally and that no other wild card already stands for);
* the resulting hand is classified by the definitions of the document, giving a key
  tuple ``(category order, rank tuple[, -wilds used])`` where a larger tuple is a
  better hand, in every ranking, low rankings included;
* the hand's key is the largest key found.

Ranks are ``0..12`` for ``2..A`` (as in ``pokerarena.cards``); low rankings that play
the ace low use their own rank values, described where they are used.

Where docs/evaluator.md leaves a choice open the choice made here is written down next
to the code (search for ``CHOICE``); the tests avoid most of these corners or report them.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

RANKS = "23456789TJQKA"
SUITS = "cdhs"
JOKERS = (52, 53)
ACE = 12
JACK, QUEEN, KING = 9, 10, 11

# ----------------------------------------------------------------------------- cards


def parse(text: str) -> list[int]:
    """``"AsKd Jk"`` -> codes; jokers are ``Jk`` (first 52, second 53)."""
    text = text.replace(",", " ").replace(" ", "")
    out: list[int] = []
    for i in range(0, len(text), 2):
        tok = text[i:i + 2]
        if tok.lower() == "jk":
            out.append(53 if 52 in out else 52)
        else:
            out.append(RANKS.index(tok[0].upper()) * 4 + SUITS.index(tok[1].lower()))
    if len(set(out)) != len(out):
        raise ValueError(f"duplicate card in {text!r}")
    return out


def show(codes) -> str:
    """Codes -> ``"As Kd Jk"``."""
    return " ".join("Jk" if c >= 52 else RANKS[c >> 2] + SUITS[c & 3] for c in codes)


WILD_SETS = {
    "none": (),
    "jokers": JOKERS,
    "deuce_spades": (0 * 4 + 3,),
    "deuces": (0, 1, 2, 3),
    "deuces_treys": tuple(range(8)),
    "red_tens": (8 * 4 + 1, 8 * 4 + 2),
}


def wild_cards(wild) -> frozenset[int]:
    """The wild cards named by ``wild``: a name of ``WILD_SETS`` or a card list."""
    if isinstance(wild, str):
        if wild in WILD_SETS:
            return frozenset(WILD_SETS[wild])
        return frozenset(parse(wild))
    return frozenset(int(c) for c in wild)


# ----------------------------------------------------------------------------- spec


@dataclass(frozen=True)
class Spec:
    """The options of ``pokerarena.evaluator.ranking`` that the reference knows."""

    name: str = "high"
    wild: str | tuple[int, ...] = "none"
    wild_rule: str = "any"
    five_of_a_kind: bool = True
    double_ace_flush: bool = False
    fewer_wilds_win: bool = True
    four_flush: bool = False
    blaze: bool = False
    trips_beat_straight: bool = False
    deck: str | None = None  # None: the ranking's own deck (short for short_deck)

    def lowest(self) -> int:
        """The lowest rank of the deck: 0 (deuce) for standard, 4 (six) for short."""
        deck = self.deck or ("short" if self.name == "short_deck" else "standard")
        if deck in ("standard", "standard+joker", "standard+2jokers"):
            return 0
        if deck == "short":
            return 4
        if deck.startswith("strip"):
            return int(deck[5:]) - 1  # strip3: 2s and 3s removed, fours are lowest
        raise ValueError(f"unknown deck {deck!r}")

    def kwargs(self) -> dict:
        """Keyword arguments for ``ranking(name, **kwargs)``."""
        wild = self.wild if isinstance(self.wild, str) else ",".join(
            show([c]) for c in self.wild)
        out = dict(wild=wild, wild_rule=self.wild_rule, five_of_a_kind=self.five_of_a_kind,
                   double_ace_flush=self.double_ace_flush,
                   fewer_wilds_win=self.fewer_wilds_win, four_flush=self.four_flush,
                   blaze=self.blaze, trips_beat_straight=self.trips_beat_straight)
        if self.deck is not None:
            out["deck"] = self.deck
        return out


# Category orders, worst first. Names are those of the document.
HIGH_ORDER = ("high_card", "one_pair", "four_flush", "two_pair", "blaze", "three_of_a_kind",
              "straight", "flush", "double_ace_flush", "full_house", "four_of_a_kind",
              "straight_flush", "five_of_a_kind")
SHORT_ORDER = ("high_card", "one_pair", "two_pair", "three_of_a_kind", "straight",
               "full_house", "flush", "four_of_a_kind", "straight_flush")
SHORT_ORDER_TRIPS = ("high_card", "one_pair", "two_pair", "straight", "three_of_a_kind",
                     "full_house", "flush", "four_of_a_kind", "straight_flush")
THREE_ORDER = ("high_card", "one_pair", "straight", "flush", "straight_flush",
               "three_of_a_kind")
THREE_CASINO_ORDER = ("high_card", "one_pair", "flush", "straight", "three_of_a_kind",
                      "straight_flush")
# Low rankings: the order of badness (best first) of the high categories they use.
LOW_A5_ORDER = ("high_card", "one_pair", "two_pair", "three_of_a_kind", "full_house",
                "four_of_a_kind", "five_of_a_kind")
LOW_STRAIGHT_ORDER = ("high_card", "one_pair", "two_pair", "three_of_a_kind", "straight",
                      "flush", "full_house", "four_of_a_kind", "straight_flush",
                      "five_of_a_kind")

PLAY_SIZE = {"high": 5, "short_deck": 5, "three_card": 3, "three_card_casino": 3,
             "two_card": 2, "a5_low": 5, "hilo_low": 5, "27_low": 5, "badugi": 4}


def by_count(ranks) -> tuple[int, ...]:
    """Distinct ranks, most frequent first, then highest first (how ties compare)."""
    counts = Counter(ranks)
    return tuple(sorted(counts, key=lambda r: (counts[r], r), reverse=True))


def pattern(ranks) -> tuple[int, ...]:
    """Group sizes, largest first: (3, 2) is a full house."""
    return tuple(sorted(Counter(ranks).values(), reverse=True))


PATTERN_NAME = {
    (5,): "five_of_a_kind", (4,): "four_of_a_kind", (4, 1): "four_of_a_kind",
    (3, 2): "full_house", (3,): "three_of_a_kind", (3, 1): "three_of_a_kind",
    (3, 1, 1): "three_of_a_kind", (2, 2): "two_pair", (2, 2, 1): "two_pair",
    (2,): "one_pair", (2, 1): "one_pair", (2, 1, 1): "one_pair", (2, 1, 1, 1): "one_pair",
    (1,): "high_card", (1, 1): "high_card", (1, 1, 1): "high_card",
    (1, 1, 1, 1): "high_card", (1, 1, 1, 1, 1): "high_card",
}


def straight_top(ranks, size: int, lowest: int) -> int | None:
    """Top rank of a straight of ``size`` distinct consecutive ranks, else None.

    The ace also plays below ``lowest`` (the lowest rank of the deck): A-2-3-4-5 tops at
    5, short deck A-6-7-8-9 tops at 9, three-card A-2-3 tops at 3.
    """
    rs = set(ranks)
    if len(rs) != size or len(ranks) != size:
        return None
    top = max(rs)
    if rs == set(range(top - size + 1, top + 1)):
        return top
    low_run = {ACE} | set(range(lowest, lowest + size - 1))
    if rs == low_run:
        return lowest + size - 2
    return None


# ----------------------------------------------------------------------------- high


def _high_candidates(cards: tuple[int, ...], spec: Spec, lowest: int):
    """(category, rank tuple) pairs that the multiset ``cards`` of ordinary cards makes.

    ``cards`` may repeat a card (wild rule "any"). CHOICE: a hand repeating a card is a
    flush only as a ``double_ace_flush`` (option on, exactly two aces of the suit and
    three other distinct ranks); five of a kind exists only with the option on (with it
    off, five cards of one rank are no hand at all and the wild takes another card).
    """
    n = len(cards)
    ranks = [c >> 2 for c in cards]
    suits = [c & 3 for c in cards]
    repeated = len(set(cards)) != n
    pat = pattern(ranks)
    out = []
    if pat == (5,):
        if spec.five_of_a_kind:
            out.append(("five_of_a_kind", (ranks[0],)))
        return out
    out.append((PATTERN_NAME[pat], by_count(ranks)))
    h = 3 if spec.name.startswith("three_card") else 5
    if n == h and h >= 3:
        flush = len(set(suits)) == 1
        top = straight_top(ranks, h, lowest)
        if flush and not repeated:
            if top is not None:
                out.append(("straight_flush", (top,)))
            out.append(("flush", tuple(sorted(ranks, reverse=True))))
        if (flush and repeated and h == 5 and spec.double_ace_flush
                and ranks.count(ACE) == 2 and len(set(ranks)) == 4):
            out.append(("double_ace_flush",
                        tuple(sorted((r for r in ranks if r != ACE), reverse=True))))
        if top is not None:
            out.append(("straight", (top,)))
    if n == 5 and h == 5 and spec.four_flush:
        for s in range(4):
            suited = {c for c in cards if c & 3 == s}
            if len(suited) < 4:
                continue
            for four in itertools.combinations(sorted(suited), 4):
                rest = list(cards)
                for c in four:
                    rest.remove(c)
                out.append(("four_flush",
                            tuple(sorted((c >> 2 for c in four), reverse=True))
                            + (rest[0] >> 2,)))
    if n == 5 and h == 5 and spec.blaze and all(r in (JACK, QUEEN, KING) for r in ranks):
        out.append(("blaze", by_count(ranks)))
    return out


def _high_order(spec: Spec) -> tuple[str, ...]:
    if spec.name == "short_deck":
        return SHORT_ORDER_TRIPS if spec.trips_beat_straight else SHORT_ORDER
    if spec.name == "three_card":
        return THREE_ORDER
    if spec.name == "three_card_casino":
        return THREE_CASINO_ORDER
    if spec.name == "two_card":
        return ("high_card", "one_pair")
    return HIGH_ORDER


@lru_cache(maxsize=1 << 18)
def _high_key(cards: tuple[int, ...], spec: Spec, lowest: int):
    order = _high_order(spec)
    best = None
    for cat, ranks in _high_candidates(cards, spec, lowest):
        if cat not in order:
            continue
        key = (order.index(cat), ranks)
        if best is None or key > best:
            best = key
    return best


# ----------------------------------------------------------------------------- lows
# a5_low and hilo_low play the ace low: values A=0, 2=1, ..., K=12.


def _low_rank(code: int) -> int:
    return ((code >> 2) + 1) % 13


@lru_cache(maxsize=1 << 16)
def _a5_key(low_ranks: tuple[int, ...]):
    """Ace-to-five: straights and flushes ignored; rank values ace-low."""
    cat = LOW_A5_ORDER.index(PATTERN_NAME[pattern(low_ranks)])
    badness = (cat, by_count(low_ranks))
    return _negate(badness)


def _hilo_key(naturals: tuple[int, ...], n_wild: int):
    """High-low declare low: the worst high hand with the ace as 1; a wild card is a low
    ace that pairs with nothing and is in no straight or flush."""
    ranks = [_low_rank(c) for c in naturals]
    groups = Counter(ranks)
    # each wild card is a group of its own, of count 1 and value 0 (a low ace)
    group_list = [(cnt, r) for r, cnt in groups.items()] + [(1, 0)] * n_wild
    group_list.sort(reverse=True)
    pat = tuple(cnt for cnt, _ in group_list)
    tiebreak = tuple(r for _, r in group_list)
    cat_name = PATTERN_NAME[pat]
    if n_wild == 0 and len(naturals) == 5:
        flush = len({c & 3 for c in naturals}) == 1
        rs = set(ranks)
        top = max(rs)
        straight = len(rs) == 5 and rs == set(range(top - 4, top + 1))  # ace is 1 only
        if straight and flush:
            cat_name, tiebreak = "straight_flush", (top,)
        elif flush:
            cat_name = "flush"
        elif straight:
            cat_name, tiebreak = "straight", (top,)
    badness = (LOW_STRAIGHT_ORDER.index(cat_name), tiebreak)
    return _negate(badness), cat_name


@lru_cache(maxsize=1 << 16)
def _27_key(ranks: tuple[int, ...], suited_flush: bool):
    """Deuce-to-seven: ace high only (no wheel), straights and flushes count."""
    pat = pattern(ranks)
    cat_name = PATTERN_NAME[pat]
    tiebreak = by_count(ranks)
    if len(ranks) == 5 and pat == (1, 1, 1, 1, 1):
        top = max(ranks)
        straight = set(ranks) == set(range(top - 4, top + 1))
        if straight and suited_flush:
            cat_name, tiebreak = "straight_flush", (top,)
        elif suited_flush:
            cat_name = "flush"
        elif straight:
            cat_name, tiebreak = "straight", (top,)
    badness = (LOW_STRAIGHT_ORDER.index(cat_name), tiebreak)
    return _negate(badness), cat_name


def _negate(badness):
    cat, ranks = badness
    return (-cat, tuple(-r for r in ranks))


def _badugi_key(cards: tuple[int, ...]):
    """Largest subset with all ranks and all suits different; then lowest, ace low."""
    best = None
    for size in range(len(cards), 0, -1):
        for sub in itertools.combinations(cards, size):
            if len({c >> 2 for c in sub}) != size or len({c & 3 for c in sub}) != size:
                continue
            ranks = sorted((_low_rank(c) for c in sub), reverse=True)
            key = (size, tuple(-r for r in ranks))
            if best is None or key > best:
                best = key
        if best is not None:
            return best
    raise AssertionError("a non-empty hand always has a one-card badugi")


# ----------------------------------------------------------------------------- driver


@dataclass(frozen=True)
class Ref:
    """The reference result for one hand: ``key`` compares, ``category`` names it."""

    key: tuple
    category: str
    best: tuple[int, ...]  # the played cards after substitution (for messages)

    def __lt__(self, other: Ref) -> bool:
        return self.key < other.key


def _substitutions(subset: tuple[int, ...], hand: tuple[int, ...], wilds: frozenset[int],
                   spec: Spec, universe: tuple[int, ...]):
    """Every way to replace the wild cards of ``subset``: yields (cards, n_wild)."""
    nat = tuple(c for c in subset if c not in wilds)
    w = len(subset) - len(nat)
    if w == 0:
        yield nat, 0
        return
    if spec.wild_rule == "any":
        choices = itertools.combinations_with_replacement(universe, w)
    elif spec.wild_rule == "lacking":
        held = {c for c in hand if c not in wilds}
        allowed = [c for c in universe if c not in held]
        choices = itertools.combinations(allowed, w)
    else:
        raise ValueError(f"unknown wild rule {spec.wild_rule!r}")
    for extra in choices:
        yield tuple(sorted(nat + extra)), w


def _subsets(hand: tuple[int, ...], size: int):
    if len(hand) <= size:
        yield hand
    else:
        yield from itertools.combinations(hand, size)


def _with_wilds(key, w: int, spec: Spec):
    return key + (-w,) if spec.fewer_wilds_win else key


def reference(hand, spec: Spec = Spec(), *, lowest: int | None = None) -> Ref:
    """The reference strength of ``hand`` (card codes) under ``spec``."""
    hand = tuple(int(c) for c in hand)
    wilds = wild_cards(spec.wild)
    name = spec.name
    if lowest is None:
        lowest = spec.lowest()
    universe = tuple(range(lowest * 4, 52))
    size = PLAY_SIZE[name]
    best: Ref | None = None

    def consider(key, category, cards):
        nonlocal best
        if best is None or key > best.key:
            best = Ref(key, category, tuple(cards))

    if name in ("high", "short_deck", "three_card", "three_card_casino", "two_card"):
        order = _high_order(spec)
        for sub in _subsets(hand, size):
            for cards, w in _substitutions(sub, hand, wilds, spec, universe):
                k = _high_key(cards, spec, lowest)
                if k is None:
                    continue
                consider(_with_wilds(k, w, spec), order[k[0]], cards)
    elif name in ("a5_low", "27_low"):
        # Suits never matter to a wild card here (a5 ignores flushes; in 27 a wild card
        # never makes a flush), so each wild card takes every rank, repeats allowed.
        for sub in _subsets(hand, size):
            nat = tuple(c for c in sub if c not in wilds)
            w = len(sub) - len(nat)
            for extra in itertools.combinations_with_replacement(range(13), w):
                if name == "a5_low":
                    low = tuple(_low_rank(c) for c in nat) + tuple((r + 1) % 13 for r in extra)
                    k = _a5_key(low)
                    cat = LOW_A5_ORDER[-k[0]]
                    if cat == "high_card":
                        cat = f"{RANKS[(max(low) - 1) % 13]}-high"
                else:
                    ranks = tuple(c >> 2 for c in nat) + extra
                    flush = w == 0 and len(nat) == 5 and len({c & 3 for c in nat}) == 1
                    k, cat = _27_key(ranks, flush)
                    if cat == "high_card":
                        cat = f"{RANKS[max(ranks)]}-high"
                consider(_with_wilds(k, w, spec), cat, nat + tuple(r * 4 for r in extra))
    elif name == "hilo_low":
        for sub in _subsets(hand, size):
            nat = tuple(c for c in sub if c not in wilds)
            w = len(sub) - len(nat)
            k, cat = _hilo_key(nat, w)
            if cat == "high_card":
                top = max(_low_rank(c) for c in nat) if nat else 0
                cat = f"{RANKS[(top - 1) % 13]}-high"
            consider(_with_wilds(k, w, spec), cat, sub)
    elif name == "badugi":
        for sub in _subsets(hand, size):
            for cards, w in _substitutions(sub, hand, wilds, spec, universe):
                k = _badugi_key(cards)
                consider(_with_wilds(k, w, spec), f"{k[0]}-card", cards)
    else:
        raise ValueError(f"unknown ranking {name!r}")
    assert best is not None, f"no hand for {show(hand)} under {spec}"
    return best


def reference_omaha(hole, board, spec: Spec = Spec()) -> Ref:
    """Exactly two hole cards and three board cards."""
    best: Ref | None = None
    for h in itertools.combinations(tuple(hole), 2):
        for b in itertools.combinations(tuple(board), 3):
            r = reference(h + b, spec)
            if best is None or r.key > best.key:
                best = r
    assert best is not None
    return best


def cmp(a: Ref, b: Ref) -> int:
    """-1, 0 or 1 as ``a`` is worse than, equal to or better than ``b``."""
    return (a.key > b.key) - (a.key < b.key)


def qualifies_8(hand, spec: Spec) -> bool:
    """Eight-or-better: five unpaired cards, all 8 or lower (ace low)."""
    r = reference(hand, spec)
    return r.category in {f"{c}-high" for c in "5678"}
