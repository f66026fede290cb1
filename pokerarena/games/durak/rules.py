"""American durak («Дурак американский», ``001_…``) as data: the options agreed before
the game, the deck, and which card beats which.

«Количество карт в колоде: 36 или 52», «Количество игроков: 2 - 6», «Старшинство карт:
2, 3, 4, 5, 6, 7, 8, 9, 10, В, Д, К, Т.» Readings of what the document leaves unsaid are
listed in ``docs/games.md``.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from pokerarena.cards import card, rank_of, suit_of
from pokerarena.errors import UserError
from pokerarena.rules import format_validation_error

FAMILY = "durak"
HAND_SIZE = 6  # «каждому игроку сдается по 6 карт», «добирают карты из колоды до шести»
MIN_PLAYERS, MAX_PLAYERS = 2, 6  # «Количество игроков: 2 - 6»

UNDER = "under"            # «под дурака … ходит игрок, который сидит справа от дурака»
FROM_UNDER = "from_under"  # «из-под дурака … ходит игрок, который сидит слева от дурака»
LOWEST_CARD = "lowest_card"  # «если козыря нет … определяют по младшей карте»
LOT = "lot"                  # «если козыря нет, то либо по жребию»


class DurakError(ValueError, UserError):
    """Durak options or a table that cannot be used; the message names the field."""


class DurakOptions(BaseModel):
    """The rules agreed before the game. ``deck``: 36 (default) or 52 cards;
    ``first_move``: who leads a game after the first, «под дурака» (``under``) or «из-под
    дурака» (``from_under``, the default) — «Соответствующий вариант первого хода
    выбирается игроками перед игрой»; ``no_trump_lead``: in a first game where nobody
    holds a trump, the lowest card leads (``lowest_card``, default) or a lot (``lot``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    deck: Literal[36, 52] = 36
    first_move: Literal["under", "from_under"] = "from_under"
    no_trump_lead: Literal["lowest_card", "lot"] = "lowest_card"

    def key_text(self) -> str:
        """The canonical identity of the game (family and every option) as text."""
        return json.dumps({"family": FAMILY, "options": self.model_dump(mode="json")},
                          sort_keys=True, separators=(",", ":"))


def durak_options(options: DurakOptions | dict[str, Any] | None) -> DurakOptions:
    """``options`` validated; a bad field is one :class:`DurakError` naming it."""
    if isinstance(options, DurakOptions):
        return options
    if options is not None and not isinstance(options, dict):
        raise DurakError(f"durak: options: a table of options, not {options!r}")
    try:
        return DurakOptions.model_validate(dict(options or {}))
    except ValidationError as exc:
        raise DurakError(f"durak: options: {format_validation_error(exc)}") from None


def deck_cards(deck: int) -> list[int]:
    """The deck in code order: sixes to aces (36) or twos to aces (52)."""
    low = 4 if deck == 36 else 0
    return [card(r, s) for r in range(low, 13) for s in range(4)]


def check_players(players: object) -> int:
    """2 to 6 players, or one clear error."""
    if not isinstance(players, int) or isinstance(players, bool) \
            or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise DurakError(f"durak is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         f"not {players!r}")
    return players


def beats(defence: int, attack: int, trump: int) -> bool:
    """Whether ``defence`` beats ``attack``: «положить карту старшего значения той же
    масти. Если карта, которую необходимо отбить не является козырем, то можно отбить ее
    козырем. Если эта карта козырь, то … козырной картой старшего значения»."""
    if suit_of(defence) == suit_of(attack):
        return rank_of(defence) > rank_of(attack)
    return suit_of(defence) == trump


__all__ = ["FAMILY", "FROM_UNDER", "HAND_SIZE", "LOT", "LOWEST_CARD", "MAX_PLAYERS",
           "MIN_PLAYERS", "UNDER", "DurakError", "DurakOptions", "beats", "check_players",
           "deck_cards", "durak_options"]
