"""Shared pieces of the PHH reader and writer: the error type, the replay's result,
amounts scaled to whole chips, card text."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from pokerarena.cards import CardError, card_str, parse_card
from pokerarena.engine.actions import UNKNOWN
from pokerarena.engine.hand import Hand

PLAYER_KINDS = {"f", "cc", "cbr", "pb", "sd", "sm", "ex", "dc",
                 "dt", "kn",  # knock poker (our extension): take the discard, knock
                 "dd",  # our extension: take the next up card down (last_card_choice)
                 "pr"}  # our extension: disconnection protection (all in for what is in)
DECLARE_WORDS = {"high": 1, "low": 2, "both": 3}
# Game options a pokerarena variant's PHH file carries as user fields (``_hilo = ...``).
EXTRA_OPTIONS = ("hilo", "combine", "wild", "last_card_down", "draw_more_when_few",
                  "freeze_multiple", "max_raises_per_player", "pass_and_out",
                  "knock_immediate", "joker", "last_card_choice")


class PHHError(ValueError):
    """A PHH file that cannot be read or replayed; the message names the field/action."""


@dataclass
class Replay:
    """A replayed hand: the engine hand, the finishing stacks in PHH units, the scale."""

    hand: Hand
    finishing_stacks: list[int | float]
    scale: int
    data: dict[str, Any]



def decimals(x: Any) -> int:
    if isinstance(x, bool) or not isinstance(x, int | float):
        raise PHHError(f"{x!r} is not an amount")
    d = Decimal(str(x)).normalize()
    exp = d.as_tuple().exponent
    return max(0, -exp) if isinstance(exp, int) else 0


def scaled(x: Any, scale: int, field: str) -> int:
    d = Decimal(str(x)) * scale
    if d != d.to_integral_value() or d < 0:
        raise PHHError(f"{field}: {x!r} is not a valid amount")
    return int(d)


def strip(action: str) -> str:
    return action.split("#", 1)[0].strip()


def parse_cards_text(text: str) -> tuple[int, ...]:
    """PHH card text (``AsKd``, ``????``) as codes; ``??`` is :data:`UNKNOWN`."""
    text = text.strip()
    if text in ("", "-"):
        return ()
    if len(text) % 2:
        raise CardError(f"bad cards {text!r}")
    out = []
    for i in range(0, len(text), 2):
        tok = text[i:i + 2]
        out.append(UNKNOWN if tok == "??" else parse_card(tok))
    return tuple(out)



def unscale(x: int | Fraction, scale: int) -> int | float:
    q = Fraction(x) / scale
    if q.denominator == 1:
        return int(q)
    return float(round(Decimal(q.numerator) / Decimal(q.denominator), 10))



def cards_text(cards) -> str:
    return "".join("??" if c == UNKNOWN else card_str(c) for c in cards)



def num(x: Any) -> Any:
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else float(x)
    return x

