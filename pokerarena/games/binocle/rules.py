"""Binocle («Биного», ``003_…``) as data: the options, the deck and the stakes.

«Каждому игроку сдают по пять карт лицевой стороной вверх. Сдающий открывает верхние
карты колоды, по одной за раз. Каждый игрок, обладающий картой, которая совпадает по
номиналу с картой, открытой сдающим, ставит на нее количество фишек, соответствующее
номиналу этой карты, а именно тринадцать фишек за короля, двенадцать — за даму,
одиннадцать — за валета, десять — за десятку и так далее, таким образом, за туза надо
ставить одну фишку. Если у игрока окажется несколько карт указанного номинала, он должен
поставить соответствующее число фишек на каждую из них. Игрок, который первым расставит
фишки на всех своих пяти картах, забирает все фишки на картах всех игроков.»

What the document leaves open is a field of :class:`BinocleOptions` (readings in
``docs/games.md``).
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from pokerarena.cards import card, rank_of
from pokerarena.errors import UserError
from pokerarena.rules import format_validation_error

FAMILY = "binocle"
CARDS_EACH = 5  # «по пять карт»
ORDER, SPLIT = "order", "split"
RETURN, DEALER = "return", "dealer"
DECK = [card(r, s) for r in range(13) for s in range(4)]


class BinocleError(ValueError, UserError):
    """Binocle options or a table that cannot be used; the message names the field."""


class BinocleOptions(BaseModel):
    """The agreed rules, with the document's reading as the default. ``dealer_plays``:
    the dealer is dealt five cards too («Каждому игроку сдают»); ``tie``: two players
    covering their last card on the same turned card — ``order`` (the first to stake,
    from the dealer's left, «первым расставит фишки») or ``split``; ``restake``: a card
    already covered is staked again each time its rank turns up; ``drop``: a player may
    drop out instead of staking (not in the document, which makes every stake
    compulsory, «он должен поставить»), leaving his chips on his cards;
    ``unclaimed``: when the deck runs out with no one covered, the stakes ``return``
    to their owners or go to the ``dealer``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    dealer_plays: bool = True
    tie: Literal["order", "split"] = "order"
    restake: bool = False
    drop: bool = False
    unclaimed: Literal["return", "dealer"] = "return"

    def key_text(self) -> str:
        """The canonical identity of the game (family and every option) as text."""
        return json.dumps({"family": FAMILY, "options": self.model_dump(mode="json")},
                          sort_keys=True, separators=(",", ":"))


def binocle_options(options: BinocleOptions | dict[str, Any] | None) -> BinocleOptions:
    """``options`` validated; a bad field is one :class:`BinocleError` naming it."""
    if isinstance(options, BinocleOptions):
        return options
    try:
        return BinocleOptions.model_validate(dict(options or {}))
    except ValidationError as exc:
        raise BinocleError(f"binocle: options: {format_validation_error(exc)}") from None


def value_of(c: int) -> int:
    """The chips a card asks for: its pips, the ace 1, the jack 11, the queen 12, the
    king 13 («тринадцать фишек за короля … за туза надо ставить одну фишку»)."""
    r = rank_of(c)
    return 1 if r == 12 else r + 2


def rank_index(c: int) -> int:
    """The card's rank as 0 (ace) … 12 (king), the order of :func:`value_of` minus one."""
    return value_of(c) - 1


def share(pot: int, ways: int) -> list[int]:
    """``pot`` split ``ways`` ways in whole chips, the odd chips one each to the first
    takers in staking order (the usual odd-chip rule, RULES.md §2)."""
    base, odd = divmod(pot, ways)
    return [base + (i < odd) for i in range(ways)]


MIN_SEATS, MAX_SEATS = 2, 8


def playing_seats(o: BinocleOptions, seats: int, dealer: int) -> tuple[int, ...]:
    """The seats dealt a hand, in staking order: from the dealer's left round to the
    dealer (who is last, or not dealt when he does not play)."""
    order = [(dealer + 1 + i) % seats for i in range(seats)]
    if not o.dealer_plays:
        order = order[:-1]
    if len(order) < 2:
        raise BinocleError("binocle: at least two players hold cards (with dealer_plays "
                           "= false the dealer is a third seat)")
    return tuple(order)
