"""Red and black («Красное и черное», ``003_…``) as data: the options, the deck and the
payout of one bet.

«Все участники, начиная с игрока, сидящего слева от сдающего, делают минимальные ставки
и объявляют «красное» или «черное». Сдающий дает игроку пять карт лицевой стороной вверх.
Если хотя бы три карты у игрока окажутся объявленного им цвета, сдающий платит ему
ставку, в противном случае забирает себе. Если же у игрока случились все пять карт
одного цвета, выплата или получение ставки производят в двойном размере.»

What the document leaves open is a field of :class:`RedBlackOptions` (readings in
``docs/games.md``).
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from pokerarena.cards import card, suit_of
from pokerarena.errors import UserError
from pokerarena.rules import format_validation_error

FAMILY = "red_black"
RED, BLACK = "red", "black"
COLOURS = (RED, BLACK)
CARDS_EACH = 5   # «пять карт»
EACH, ALL_FIRST = "each", "all_first"


class RedBlackError(ValueError, UserError):
    """Red-and-black options or a table that cannot be used; the message names the field."""


class RedBlackOptions(BaseModel):
    """The agreed rules. ``min_bet``: the minimum stake («делают минимальные ставки»);
    ``max_bet``: None (default) is the document's «минимальные ставки», every bet the
    minimum; a number allows free stakes from ``min_bet`` up to it (other printed
    sources of the game let players choose); ``deck``: 52 or 36 cards; ``order``:
    ``all_first`` (default: «Все участники … делают … ставки и объявляют» before the
    dealer deals) or ``each`` (a player declares, then is dealt, then the next);
    ``rounds``: rounds dealt from one shuffled deck in a game (0: as many as the deck
    holds for the table)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    min_bet: int = Field(1, ge=1)
    max_bet: int | None = Field(None, ge=1)
    deck: Literal[36, 52] = 52
    order: Literal["each", "all_first"] = "all_first"
    rounds: int = Field(1, ge=0)

    @model_validator(mode="after")
    def _range(self) -> RedBlackOptions:
        if self.max_bet is not None and self.max_bet < self.min_bet:
            raise ValueError(f"max_bet {self.max_bet} is below min_bet {self.min_bet}")
        return self

    @property
    def top_bet(self) -> int:
        """The largest stake allowed: ``max_bet`` with free stakes, else the minimum."""
        return self.min_bet if self.max_bet is None else self.max_bet

    def key_text(self) -> str:
        """The canonical identity of the game (family and every option) as text."""
        return json.dumps({"family": FAMILY, "options": self.model_dump(mode="json")},
                          sort_keys=True, separators=(",", ":"))


def red_black_options(options: RedBlackOptions | dict[str, Any] | None) -> RedBlackOptions:
    """``options`` validated; a bad field is one :class:`RedBlackError` naming it."""
    if isinstance(options, RedBlackOptions):
        return options
    try:
        return RedBlackOptions.model_validate(dict(options or {}))
    except ValidationError as exc:
        raise RedBlackError(f"red_black: options: {format_validation_error(exc)}") from None


def deck_cards(o: RedBlackOptions) -> list[int]:
    """The deck in code order: 52 cards, or 36 (sixes to aces); half red, half black."""
    low = 4 if o.deck == 36 else 0
    return [card(r, s) for r in range(low, 13) for s in range(4)]


def is_red(c: int) -> bool:
    """Diamonds and hearts are red, clubs and spades black."""
    return suit_of(c) in (1, 2)


def colour_of(c: int) -> str:
    """``red`` or ``black``."""
    return RED if is_red(c) else BLACK


def payout(matched: int) -> int:
    """The player's gain per unit staked when ``matched`` of his five cards are of the
    colour he declared: +1 for three or four, −1 for one or two, ±2 for all five of one
    colour («все пять карт одного цвета … в двойном размере»)."""
    if not 0 <= matched <= CARDS_EACH:
        raise ValueError(matched)
    if matched == CARDS_EACH:
        return 2
    if matched == 0:
        return -2
    return 1 if matched >= 3 else -1


def rounds_for(o: RedBlackOptions, players: int) -> int:
    """The rounds of a game for ``players`` bettors (the banker not counted), or one
    clear error when the deck cannot serve them."""
    most = o.deck // (CARDS_EACH * players)
    if most < 1:
        raise RedBlackError(f"red_black: {players} players need {CARDS_EACH * players} cards; "
                            f"the deck has {o.deck}")
    if o.rounds > most:
        raise RedBlackError(f"red_black: options: rounds: {o.rounds} rounds for {players} "
                            f"players need {o.rounds * CARDS_EACH * players} cards; the deck "
                            f"has {o.deck} (at most {most} rounds)")
    return o.rounds or most
