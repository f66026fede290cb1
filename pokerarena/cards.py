"""Card codes, parsing and printing, and the decks of the rules catalogue.

A card is a ``uint8`` code: ``rank * 4 + suit`` for the 52 ordinary cards, with
ranks ``0..12`` for 2..A and suits ``0..3`` for clubs, diamonds, hearts, spades.
Jokers are codes 52 and 53 and print as ``Jk``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from pokerarena.errors import UserError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
JOKER_1 = 52
JOKER_2 = 53
JOKERS = (JOKER_1, JOKER_2)
NUM_CODES = 54
JOKER_TEXT = "Jk"
_JOKER_ALIASES = {"jk", "xx", "jo", "*"}

RANK_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king", "ace")
RANK_PLURALS = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
                "tens", "jacks", "queens", "kings", "aces")


class CardError(ValueError, UserError):
    """A card string, card list or deck that cannot be used."""


def card(rank: int, suit: int) -> int:
    """The code of the ordinary card of ``rank`` (0 = deuce) and ``suit`` (0 = clubs)."""
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise CardError(f"no card with rank {rank} and suit {suit}")
    return rank * 4 + suit


def rank_of(code: int) -> int:
    """Rank 0..12 of an ordinary card; -1 for a joker."""
    return -1 if code >= 52 else code >> 2


def suit_of(code: int) -> int:
    """Suit 0..3 of an ordinary card; -1 for a joker."""
    return -1 if code >= 52 else code & 3


def card_str(code: int) -> str:
    """Two-character text of a card code (``As``, ``Td``, ``Jk``)."""
    code = int(code)
    if code in JOKERS:
        return JOKER_TEXT
    if not 0 <= code < 52:
        raise CardError(f"no card has code {code}")
    return RANKS[code >> 2] + SUITS[code & 3]


def cards_str(codes: Iterable[int], sep: str = "") -> str:
    """Text of several cards, concatenated (``AsKd``) or joined by ``sep``."""
    return sep.join(card_str(c) for c in codes)


def _parse_one(text: str) -> int:
    low = text.lower()
    if low in _JOKER_ALIASES:
        return JOKER_1
    if len(text) == 3 and text[:2] == "10":
        text = "T" + text[2]
    if len(text) != 2:
        raise CardError(f"unknown card {text!r}")
    r = RANKS.find(text[0].upper())
    s = SUITS.find(text[1].lower())
    if r < 0 or s < 0:
        raise CardError(f"unknown card {text!r}: expected a rank of {RANKS} and a suit of {SUITS}")
    return r * 4 + s


def _tokens(text: str) -> list[str]:
    text = text.strip()
    if any(ch in text for ch in " ,;"):
        return [t for t in text.replace(",", " ").replace(";", " ").split() if t]
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "*":
            out.append("*")
            i += 1
        elif text.startswith("10", i):
            out.append(text[i:i + 3])
            i += 3
        else:
            out.append(text[i:i + 2])
            i += 2
    return out


def parse_cards(text: str | Sequence[str], *, allow_duplicates: bool = False) -> list[int]:
    """Parse ``"AsKd"``, ``"As Kd"``, ``"As,Kd"`` or a list of card strings.

    A second joker in the same text becomes joker 2. Duplicates raise ``CardError``
    unless ``allow_duplicates``.
    """
    tokens = _tokens(text) if isinstance(text, str) else [str(t).strip() for t in text]
    codes: list[int] = []
    for tok in tokens:
        code = _parse_one(tok)
        if code == JOKER_1 and JOKER_1 in codes:
            code = JOKER_2
            if JOKER_2 in codes:
                raise CardError("a deck has at most two jokers")
        if code in codes and not allow_duplicates:
            raise CardError(f"duplicate card {card_str(code)}")
        codes.append(code)
    return codes


def parse_card(text: str) -> int:
    """Parse exactly one card."""
    codes = parse_cards(text)
    if len(codes) != 1:
        raise CardError(f"expected one card, got {text!r}")
    return codes[0]


# Decks -----------------------------------------------------------------------

DECK_NAMES = ("standard", "short", "standard+joker", "standard+2jokers",
              "strip2", "strip3", "strip4", "strip5", "kuhn", "leduc")
# The tiny decks of the games with exact answers (docs/exact.md): Kuhn poker's three
# cards (J, Q, K of spades) and Leduc hold'em's six (J, Q, K of hearts and spades).
_TINY_DECKS = {"kuhn": ((9, 10, 11), (3,)), "leduc": ((9, 10, 11), (2, 3))}


def deck(name: str = "standard") -> np.ndarray:
    """The cards of a named deck as a sorted ``uint8`` array.

    ``standard`` (52), ``standard+joker`` (53), ``standard+2jokers`` (54), ``stripN``
    (2s up to rank N removed: 48, 44, 40, 36 cards), ``short`` (the 36-card 6..A
    deck, the same cards as ``strip5``), ``kuhn`` (Js Qs Ks) and ``leduc`` (J, Q, K of
    hearts and spades).
    """
    if name == "standard":
        codes = list(range(52))
    elif name == "standard+joker":
        codes = list(range(52)) + [JOKER_1]
    elif name == "standard+2jokers":
        codes = list(range(52)) + [JOKER_1, JOKER_2]
    elif name in ("short", "strip5", "strip2", "strip3", "strip4"):
        lowest_kept = 4 if name == "short" else int(name[-1]) - 1
        codes = [c for c in range(52) if c >> 2 >= lowest_kept]
    elif name in _TINY_DECKS:
        ranks, suits = _TINY_DECKS[name]
        codes = [r * 4 + s for r in ranks for s in suits]
    else:
        raise CardError(f"unknown deck {name!r}; choose one of {', '.join(DECK_NAMES)}")
    return np.array(codes, dtype=np.uint8)


def lowest_rank(deck_name: str) -> int:
    """The lowest rank present in a named deck (0 for decks with deuces)."""
    return int(deck(deck_name).min()) >> 2


def shuffled(cards: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A shuffled copy of ``cards`` drawn from the caller's generator."""
    out = cards.copy()
    rng.shuffle(out)
    return out


def cards_array(hands: Sequence[Sequence[int]]) -> np.ndarray:
    """Stack equal-length card lists into a ``uint8[N, k]`` array."""
    arr = np.asarray(hands, dtype=np.uint8)
    if arr.ndim != 2:
        raise CardError("hands must all have the same number of cards")
    return arr
