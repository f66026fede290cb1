"""Painted poker («расписной покер», ``004_…``) as data: the options and their defaults,
the deal plan of a game, the deck and the scoring table.

Every choice the document leaves to agreement («договариваются», «по договоренности»)
is a field of :class:`PaintedOptions` whose default is the document's usual choice;
readings of what the document leaves unsaid are listed in ``docs/games.md``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from pokerarena.cards import JOKERS, card, parse_card, suit_of
from pokerarena.errors import UserError
from pokerarena.rules import format_validation_error

FAMILY = "painted"

# The kinds of deal: the ordinary ones, then the special deals («специальные игры»).
ORDINARY = "ordinary"
NO_TRUMP = "no_trump"   # «Бескозырка»
BLIND = "blind"         # «Слепая» («Темная»): bids before looking at the hand
GOLDEN = "golden"       # «Золотая» («Хапки»): every trick pays
MISERE = "misere"       # «Мизер»: every trick is penalised
LOBOVAYA = "lobovaya"   # «Лобовая»: each player shows one random card before bidding
SPECIAL_KINDS = (NO_TRUMP, BLIND, GOLDEN, MISERE, LOBOVAYA)
DEAL_KINDS = (ORDINARY, *SPECIAL_KINDS)
BIDDING_KINDS = frozenset({ORDINARY, NO_TRUMP, BLIND, LOBOVAYA})  # golden, misère: no bids
KIND_CODES = {k: i for i, k in enumerate(DEAL_KINDS)}  # for the kernels

# The scoring table («Начисление и подсчет очков»).
MADE_PER_TRICK = 10      # «Взял свои … 10 очков за каждую»
PASS_MADE = 5            # «Пас — не заказал и не взял ни одной. 5 очков»
OVER_PER_TRICK = 1       # «Перебор … По 1 очку за каждую перебранную»
SHORT_PER_TRICK = -10    # «Недобор … -10 за каждую недобранную»
WHOLE_HAND_FACTOR = 2    # «заявил столько взяток, сколько получил карт … удваиваются»


# «Стандартные тарифы в них можно увеличить в 2 или 3 раза. Традиционный вариант —
# полуторные награды и штрафы.» (1: the standard tariff unchanged)
TARIFFS = (1.0, 1.5, 2.0, 3.0)


class PaintedError(ValueError, UserError):
    """Painted-poker options or a table that cannot be used; the message names the field."""


class PaintedOptions(BaseModel):
    """The rules agreed before the game («Оговаривают условия»), with the document's
    defaults. ``jokers``: 0 unless agreed («Если участники договорились о наличии
    джокера»); ``joker_cards``: the designated cards (default the seven of spades, then
    of clubs); ``specials``: the special deals in order, each ``special_count`` times
    (default: as many as players, «столько сдач, сколько играет участников»);
    ``tariff``: the special deals' multiplier («Традиционный вариант — полуторные»);
    ``joker_call``: a joker leading may name a call or none (``optional``, default:
    «Выкладывающий джокера может заявить специальные правила»), or must name one
    (``required``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    deck: Literal[36, 52] = 36
    jokers: int = Field(0, ge=0, le=2)
    joker_cards: tuple[str, ...] | None = None
    max_cards: int | None = Field(None, ge=1)
    deals_at_max: int | None = Field(None, ge=0)
    specials: tuple[str, ...] = (NO_TRUMP, BLIND, GOLDEN, MISERE)
    special_count: int | None = Field(None, ge=0)
    tariff: float = 1.5
    dealer_restriction: bool = True
    must_trump: bool = True
    whole_hand_double: bool = True
    misere_bonus: int = 50
    joker_call: Literal["optional", "required"] = "optional"

    @field_validator("specials")
    @classmethod
    def _known_specials(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        bad = [k for k in v if k not in SPECIAL_KINDS]
        if bad:
            raise ValueError(f"unknown special deal {bad[0]!r}; known: {', '.join(SPECIAL_KINDS)}")
        return v

    @field_validator("tariff")
    @classmethod
    def _known_tariff(cls, v: float) -> float:
        if v not in TARIFFS:
            raise ValueError(f"the special deals' tariff is one of {', '.join(map(str, TARIFFS))}")
        return v

    def key_text(self) -> str:
        """The canonical identity of the game (family and every option) as text."""
        return json.dumps({"family": FAMILY, "options": self.model_dump(mode="json")},
                          sort_keys=True, separators=(",", ":"))


def painted_options(options: PaintedOptions | dict[str, Any] | None) -> PaintedOptions:
    """``options`` validated; a bad field is one :class:`PaintedError` naming it."""
    if isinstance(options, PaintedOptions):
        return options
    try:
        o = PaintedOptions.model_validate(dict(options or {}))
    except ValidationError as exc:
        raise PaintedError(f"painted: options: {format_validation_error(exc)}") from None
    joker_codes(o)
    return o


# The deck ---------------------------------------------------------------------------------
_DEFAULT_JOKER_CARDS = ("7s", "7c")


def joker_codes(o: PaintedOptions) -> tuple[int, ...]:
    """The designated cards the jokers replace («им назначают семерку или шестерку»)."""
    names = o.joker_cards if o.joker_cards is not None else _DEFAULT_JOKER_CARDS[:o.jokers]
    if len(names) != o.jokers:
        raise PaintedError(f"painted: options: joker_cards: {len(names)} cards for "
                           f"{o.jokers} jokers")
    codes = tuple(parse_card(t) for t in names)
    low = 4 if o.deck == 36 else 0
    if any(c in JOKERS or (c >> 2) < low for c in codes) or len(set(codes)) != len(codes):
        raise PaintedError(f"painted: options: joker_cards: {list(names)} are not "
                           f"{len(names)} different cards of the {o.deck}-card deck")
    return codes


def deck_cards(o: PaintedOptions) -> list[int]:
    """The deck in code order: 36 cards (sixes to aces) or 52, the designated cards
    replaced by the jokers (codes 52, 53), so the deck keeps its size."""
    low = 4 if o.deck == 36 else 0
    designated = set(joker_codes(o))
    cards = [card(r, s) for r in range(low, 13) for s in range(4)
             if card(r, s) not in designated]
    return cards + list(JOKERS[:o.jokers])


# The deal plan ----------------------------------------------------------------------------
@dataclass(frozen=True)
class DealSpec:
    """One deal of the plan: its number (0-based), kind and cards per player."""

    no: int
    kind: str
    cards: int
    first_or_last: bool  # the first or the last ordinary deal (no whole-hand double)


def max_hand(o: PaintedOptions, players: int) -> int:
    """The largest hand: the deck shared out («На двоих — 18 … На пятерых — 7»)."""
    full = o.deck // players
    if o.max_cards is not None:
        if o.max_cards > full:
            raise PaintedError(f"painted: options: max_cards: {o.max_cards} cards each "
                               f"for {players} players is more than the deck holds ({full})")
        return o.max_cards
    return full


def deal_plan(o: PaintedOptions, players: int) -> tuple[DealSpec, ...]:
    """Every deal of a game: 1, 2, … up to the maximum, the maximum as many times as
    there are players, down to 1 («В последней сдаче, как и в первой, все получают 1
    карту»), then the special deals in order, each played with the largest hand."""
    check_players(players)
    top = max_hand(o, players)
    at_max = players if o.deals_at_max is None else o.deals_at_max
    sizes = [*range(1, top), *([top] * at_max), *range(top - 1, 0, -1)]
    each = players if o.special_count is None else o.special_count
    plan = [DealSpec(i, ORDINARY, c, i in (0, len(sizes) - 1)) for i, c in enumerate(sizes)]
    for kind in o.specials:
        for _ in range(each):
            plan.append(DealSpec(len(plan), kind, top, False))
    return tuple(plan)


MIN_PLAYERS, MAX_PLAYERS = 2, 10  # «технически возможное — 2-10»


def check_players(players: int) -> None:
    """2 to 10 players, or one clear error."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise PaintedError(f"painted poker is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                           f"not {players}")


# Scoring ----------------------------------------------------------------------------------
def deal_points(kind: int, bid: int, took: int, cards: int, first_or_last: bool,
                tariff: float, whole_double: bool, misere_bonus: int) -> float:
    """A player's points for one deal (``kind``: :data:`KIND_CODES`). Plain arithmetic on
    numbers only, so the simulation kernels compile the very same function."""
    if kind == 3:  # golden: «все взятки выигрышные»
        return MADE_PER_TRICK * took * tariff
    if kind == 4:  # misère: «за любую взятку участник получает штраф»
        if took == 0:
            return float(misere_bonus)  # «особая награда — 50 очков», flat
        return SHORT_PER_TRICK * took * tariff
    if took == bid:
        pts = float(PASS_MADE if bid == 0 else MADE_PER_TRICK * bid)
        if whole_double and bid == cards and not first_or_last:
            pts *= WHOLE_HAND_FACTOR
    elif took > bid:
        pts = float(OVER_PER_TRICK * (took - bid))
    else:
        pts = float(SHORT_PER_TRICK * (bid - took))
    return pts if kind == 0 else pts * tariff


def points_of(o: PaintedOptions, spec: DealSpec, bid: int, took: int) -> float:
    """:func:`deal_points` for deal ``spec`` under options ``o``."""
    return deal_points(KIND_CODES[spec.kind], bid, took, spec.cards, spec.first_or_last,
                       float(o.tariff), o.whole_hand_double, o.misere_bonus)


def is_trump(c: int, trump: int) -> bool:
    """True for an ordinary card of the trump suit (a joker has no suit)."""
    return trump >= 0 and c not in JOKERS and suit_of(c) == trump
