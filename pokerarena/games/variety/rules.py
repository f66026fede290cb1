"""Variety («варьете», ``001_…``) as data: the options, the eight contracts and their
scoring.

The eight contracts («восемь разновидностей, отличающихся козырной мастью и разными
наборами плюсовых и минусовых премиальных карт») are numbered 1 to 8 in the document's
order, the numbers its bidding example uses. What a side earns is counted per card
(:data:`CARD_PLUS`, :data:`CARD_MINUS`) and per trick (:data:`TRICK_PLUS`,
:data:`TRICK_MINUS`); contract 1's «12 плюсовых очков» for the most tricks is the one
award that is not a sum. The scoring functions are plain arithmetic on integer arrays,
so the bots' numba kernels compile the very same functions.
"""

from __future__ import annotations

import json
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pokerarena.cards import card
from pokerarena.errors import UserError
from pokerarena.rules import format_validation_error

FAMILY = "variety"
PLAYERS = 4  # «Игра парная»: two pairs
CARDS_EACH = 13  # the 52-card deck («Старшинство карт от туза до двойки») dealt out
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
CONTRACTS = tuple(range(1, 9))

# contract -> (trump suit or -1, lowest card takes the trick, its words in the document)
CONTRACT_RULES: dict[int, tuple[int, bool, str]] = {
    1: (-1, False, "Без козырей. За взятие наибольшего количества взяток - 12 плюсовых очков."),
    2: (CLUBS, False, "Козырная масть трефы. За каждую взятку - 2 плюсовых очка."),
    3: (HEARTS, False, "Козыри червы. За каждую пиковую карту - 2 плюсовых очка."),
    4: (DIAMONDS, False, "Козыри бубны. За каждую карту красной масти - 1 плюсовое очко, "
                         "черной масти - одно минусовое очко."),
    5: (SPADES, False, "Козыри пики. За каждую взятую черную десятку и валета - 5 плюсовых "
                       "очков; за красную десятку и валета - 5 минусовых очков."),
    6: (CLUBS, True, "Козыри трефы. За каждую красную карту - одно плюсовое очко, взятку "
                     "берет самая низкая карта по взятке."),
    7: (SPADES, False, "Козыри пики. За каждую трефовую карту - 2 минусовых очка."),
    8: (-1, False, "Без козырей. За каждую взятку - 2 минусовых очка."),
}
TRUMP = np.array([-1] + [CONTRACT_RULES[c][0] for c in CONTRACTS], np.int64)
LOW_WINS = np.array([0] + [int(CONTRACT_RULES[c][1]) for c in CONTRACTS], np.int64)
MOST_TRICKS_POINTS = 12  # contract 1
TRICK_PLUS = np.array([0, 0, 2, 0, 0, 0, 0, 0, 0], np.int64)
TRICK_MINUS = np.array([0, 0, 0, 0, 0, 0, 0, 0, 2], np.int64)


def _card_tables() -> tuple[np.ndarray, np.ndarray]:
    plus = np.zeros((9, 52), np.int64)
    minus = np.zeros((9, 52), np.int64)
    red, black = (DIAMONDS, HEARTS), (CLUBS, SPADES)
    for r in range(13):
        plus[3, card(r, SPADES)] = 2
        for s in red:
            plus[4, card(r, s)] = 1
            plus[6, card(r, s)] = 1
        for s in black:
            minus[4, card(r, s)] = 1
        minus[7, card(r, CLUBS)] = 2
    for r in (8, 9):  # tens and jacks
        for s in black:
            plus[5, card(r, s)] = 5
        for s in red:
            minus[5, card(r, s)] = 5
    return plus, minus


CARD_PLUS, CARD_MINUS = _card_tables()

CREDITS = ("pair", "own")
COMPARES = ("separate", "net")


class VarietyError(ValueError, UserError):
    """Variety options or a table that cannot be used; the message names the field."""


class VarietyOptions(BaseModel):
    """The rules agreed before the game, with the document's defaults.

    ``deals``: the deals of a tour («Полный тур состоит из восьми раздач … По желанию
    тур можно расширить или сократить»); ``finish_round``: the round in which two bids
    first match is bid to its end, and the first match in order of arrival decides (the
    worked example's third round, «7, 5, 4, 2»), or bidding stops at that match
    («пока две заявки не совпадут»); ``credit``: each player is credited with his pair's
    points («фактически выигранные очки данной пары») or with those of his own tricks;
    ``compare``: the attack loses with fewer plus or more minus points, each counted
    apart («меньше плюсовых или больше минусовых очков»), or with fewer net points;
    ``defender_bonus``: what each defender gets when the attack loses («по 10 плюсовых
    очков»)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    deals: int = Field(8, ge=1, le=64)
    finish_round: bool = True
    credit: Literal["pair", "own"] = "pair"
    compare: Literal["separate", "net"] = "separate"
    defender_bonus: int = Field(10, ge=0, le=1000)

    def key_text(self) -> str:
        """The canonical identity of the game (family and every option) as text."""
        return json.dumps({"family": FAMILY, "options": self.model_dump(mode="json")},
                          sort_keys=True, separators=(",", ":"))


def variety_options(options: VarietyOptions | dict[str, Any] | None) -> VarietyOptions:
    """``options`` validated; a bad field is one :class:`VarietyError` naming it."""
    if isinstance(options, VarietyOptions):
        return options
    if options is not None and not isinstance(options, dict):
        raise VarietyError(f"variety: options: a mapping of option names, not {options!r}")
    try:
        return VarietyOptions.model_validate(dict(options or {}))
    except ValidationError as exc:
        raise VarietyError(f"variety: options: {format_validation_error(exc)}") from None


# The trick --------------------------------------------------------------------------------
def strength(c: int, led: int, trump: int, low: int) -> int:
    """How strongly card ``c`` holds a trick led in suit ``led``: a trump above the led
    suit, a card of another suit never; within a suit by rank, the lower the stronger in
    the lowest-card contract («взятка берется младшей картой данной масти. Если в ней
    два козыря, то взятка берется младшим козырем из двух»)."""
    s = c & 3
    r = c >> 2
    rr = 12 - r if low else r
    if s == trump:
        return 200 + rr
    if s == led:
        return 100 + rr
    return 0


# Scoring ----------------------------------------------------------------------------------
def deal_points(contract: int, plus: np.ndarray, minus: np.ndarray, tricks: np.ndarray,
                attack: np.ndarray, own: bool, net: bool, bonus: int,
                out: np.ndarray) -> int:
    """Each seat's points for a deal into ``out``; returns 1 when the attack lost.

    ``plus``/``minus``/``tricks``: per seat, the points of the cards and tricks it took
    (contract 1 excluded: its 12 go to the pair with the most tricks, or with ``own`` to
    the player with the most, shared on a tie); ``attack``: 1 for the two attackers."""
    side_plus = np.zeros(2, np.int64)
    side_minus = np.zeros(2, np.int64)
    side_tricks = np.zeros(2, np.int64)
    for s in range(4):
        a = attack[s]
        side_plus[a] += plus[s]
        side_minus[a] += minus[s]
        side_tricks[a] += tricks[s]
    best = 0
    for s in range(4):
        best = max(best, tricks[s])
    ties = 0
    for s in range(4):
        if tricks[s] == best:
            ties += 1
    if contract == 1:
        for a in range(2):
            side_plus[a] = MOST_TRICKS_POINTS if side_tricks[a] > side_tricks[1 - a] else 0
    if net:
        lost = side_plus[1] - side_minus[1] < side_plus[0] - side_minus[0]
    else:
        lost = side_plus[1] < side_plus[0] or side_minus[1] > side_minus[0]
    for s in range(4):
        a = attack[s]
        if own:
            p = plus[s] - minus[s]
            if contract == 1:
                p = MOST_TRICKS_POINTS // ties if tricks[s] == best else 0
        else:
            p = side_plus[a] - side_minus[a]
        out[s] = p + (bonus if lost and a == 0 else 0)
    return 1 if lost else 0


def taken_points(contract: int, taken: list[list[int]]) -> tuple[np.ndarray, ...]:
    """Per seat: plus points, minus points and tricks of the cards ``taken[s]`` (every
    card of every trick seat ``s`` took)."""
    plus = np.zeros(4, np.int64)
    minus = np.zeros(4, np.int64)
    tricks = np.zeros(4, np.int64)
    for s in range(4):
        n = len(taken[s]) // 4
        tricks[s] = n
        plus[s] = int(CARD_PLUS[contract, taken[s]].sum()) + TRICK_PLUS[contract] * n
        minus[s] = int(CARD_MINUS[contract, taken[s]].sum()) + TRICK_MINUS[contract] * n
    return plus, minus, tricks
