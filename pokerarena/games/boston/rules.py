"""American boston («Американский вариант бостона», ``001_…``) as data: the options and
their defaults, the bidding ladder, the cards' order with the boston, and the payments.

Every amount the document leaves to agreement («заранее оговоренное количество фишек»)
or states as usual («Обычно ставка составляет 10 фишек») is a field of
:class:`BostonOptions`; the readings of what it leaves unclear are in
``docs/games.md``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from pokerarena.cards import card, rank_of, suit_of
from pokerarena.errors import UserError
from pokerarena.rules import format_validation_error

FAMILY = "boston"
PLAYERS = 4          # «В игре принимают участие 4 партнера»
TRICKS = 13          # «Каждый играющий получает 13 карт»
DIAMONDS, HEARTS = 1, 2
BOSTON = card(9, DIAMONDS)          # «самой высшей картой является Валет бубен»
BOSTON_IN_DIAMONDS = card(9, HEARTS)  # «место бостона занимает Валет червей»

# The ladder («Все прикупы располагаются в следующем порядке»), lowest first: contract ->
# (rung, tricks to take alone). Solo and independence share a rung: neither overcalls
# the other. The two proposals are played with a supporter when one accepts.
JUNIOR, SENIOR = "junior", "senior"
SOLO, INDEPENDENCE = "solo", "independence"
NINE_JUNIOR, NINE_SENIOR = "nine_junior", "nine_senior"
MISERE = "misere"
LADDER: dict[str, tuple[int, int]] = {
    JUNIOR: (1, 5), SENIOR: (2, 5), SOLO: (3, 8), INDEPENDENCE: (3, 8),
    NINE_JUNIOR: (4, 9), NINE_SENIOR: (5, 9), MISERE: (6, 0)}
CONTRACTS = tuple(LADDER)
PROPOSALS = (JUNIOR, SENIOR)
TEAM_TARGET = 8                      # «вдвоем … нужно взять не менее 8 взяток»
PROPOSER_QUOTA, SUPPORTER_QUOTA = 5, 3  # «Покупающий обязан взять 5 …, поддерживающий — 3»

DEFAULT_TARIFF = {JUNIOR: 1, SENIOR: 2, SOLO: 3, INDEPENDENCE: 3, NINE_JUNIOR: 4,
                  NINE_SENIOR: 5, MISERE: 30}


class BostonError(ValueError, UserError):
    """Boston options or a table that cannot be used; the message names the field."""


class BostonOptions(BaseModel):
    """The rules agreed before the game, with the document's defaults.

    ``chips``: the chips shared out («берется 480 фишек, которые поровну
    распределяются»); ``stake``: each player's stake into the kitty at every deal
    («Обычно ставка составляет 10 фишек»); ``simple_tours``/``double_tours``: the game
    («8 простых и 2 двойных тура»; a tour is a deal by each player, a double tour doubles
    every payment fixed in chips); ``tariff``: chips per trick a won contract is paid by
    each opponent (misère: a flat sum), «заранее оговоренное»; ``boston_bonus``: «получает
    с каждого игрока по 2 фишки»; ``consolation``: «каждому по две фишки»;
    ``pass_doubles``: «содержимое кассы должно быть удвоено» when all four pass;
    ``lone_loss``: a contract played alone and lost gives the kitty to the three others
    (``kitty``, default: «касса переходит в собственность трех других игроков»), or
    the loser lays the labet (``labet``: the kitty doubles and stays);
    ``labet``: a lost partnership's short member doubles the kitty («сделать лабет»,
    named for partners only) — off, the kitty goes to the two opponents («касса
    переходит в распоряжение их противников»);
    ``misere``: «без козырей или без бостона»; ``final``: the kitty at the end, shared
    («раздел кассы») or played on until someone wins it (a refusal to share)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    chips: int = Field(480, ge=0)
    stake: int = Field(10, ge=0)
    simple_tours: int = Field(8, ge=0, le=100)
    double_tours: int = Field(2, ge=0, le=100)
    tariff: dict[str, int] = Field(default_factory=lambda: dict(DEFAULT_TARIFF))
    boston_bonus: int = Field(2, ge=0)
    consolation: int = Field(2, ge=0)
    pass_doubles: bool = True
    lone_loss: Literal["kitty", "labet"] = "kitty"
    labet: bool = True
    misere: Literal["no_trumps", "no_boston"] = "no_trumps"
    final: Literal["split", "play_out"] = "split"

    @field_validator("tariff")
    @classmethod
    def _known_contracts(cls, v: dict[str, int]) -> dict[str, int]:
        bad = [k for k in v if k not in LADDER]
        if bad:
            raise ValueError(f"unknown contract {bad[0]!r}; known: {', '.join(CONTRACTS)}")
        if any(x < 0 for x in v.values()):
            raise ValueError("a tariff is 0 or more chips")
        return {**DEFAULT_TARIFF, **v}

    def key_text(self) -> str:
        """The canonical identity of the game (family and every option) as text."""
        return json.dumps({"family": FAMILY, "options": self.model_dump(mode="json")},
                          sort_keys=True, separators=(",", ":"))


def boston_options(options: BostonOptions | dict[str, Any] | None) -> BostonOptions:
    """``options`` validated; a bad field is one :class:`BostonError` naming it."""
    if isinstance(options, BostonOptions):
        return options
    try:
        o = BostonOptions.model_validate(dict(options or {}))
    except ValidationError as exc:
        raise BostonError(f"boston: options: {format_validation_error(exc)}") from None
    if o.simple_tours + o.double_tours < 1:
        raise BostonError("boston: options: simple_tours + double_tours: at least one tour")
    return o


# Cards ------------------------------------------------------------------------------------
def boston_card(trump: int) -> int:
    """The boston under trump ``trump`` (-1: none, so no boston)."""
    if trump < 0:
        return -1
    return BOSTON_IN_DIAMONDS if trump == DIAMONDS else BOSTON


def suit_in_play(c: int, trump: int, boston: int) -> int:
    """The suit card ``c`` follows: the boston is a trump («четырнадцатым козырем»)."""
    return trump if c == boston else suit_of(c)


@cache
def suits_in_play(trump: int, boston: int) -> tuple[int, ...]:
    """:func:`suit_in_play` of every card code, for one trump and boston."""
    return tuple(suit_in_play(c, trump, boston) for c in range(52))


def power(c: int, led: int, trump: int, boston: int) -> int:
    """How strongly ``c`` bids for a trick led in suit ``led``: the boston above every
    trump, trumps above the led suit, any other card nothing (-1)."""
    if c == boston:
        return 200
    s = suit_of(c)
    if s == trump:
        return 100 + rank_of(c)
    return rank_of(c) if s == led else -1


def trick_winner(plays: list[tuple[int, int]], trump: int, boston: int) -> int:
    """The seat that takes a trick of (seat, card) pairs, the first one led."""
    led = suit_in_play(plays[0][1], trump, boston)
    return max(plays, key=lambda p: power(p[1], led, trump, boston))[0]


# Payments ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    """A played deal: the contract, who declared and who supported it (-1: alone), each
    seat's tricks, the boston's holder (-1: none in play)."""

    contract: str
    declarer: int
    supporter: int
    taken: tuple[int, ...]
    boston_holder: int


def target(contract: str, supporter: int) -> int:
    """Tricks the declaring side must take: 8 together, else the ladder's figure alone."""
    return TEAM_TARGET if supporter >= 0 else LADDER[contract][1]


def made(o: Outcome) -> bool:
    """Whether the declaring side kept its contract (misère: no trick at all)."""
    if o.contract == MISERE:
        return o.taken[o.declarer] == 0
    side = o.taken[o.declarer] + (o.taken[o.supporter] if o.supporter >= 0 else 0)
    return side >= target(o.contract, o.supporter)


def losers(o: Outcome) -> tuple[int, ...]:
    """Who pays for a lost contract: alone, the declarer; together, whichever partner fell
    short of his quota («Другой партнер, который все объявленные взятки взял, не
    проигрывает и не выигрывает»)."""
    if made(o):
        return ()
    if o.supporter < 0:
        return (o.declarer,)
    out = []
    if o.taken[o.declarer] < PROPOSER_QUOTA:
        out.append(o.declarer)
    if o.taken[o.supporter] < SUPPORTER_QUOTA:
        out.append(o.supporter)
    return tuple(out)


def settle(opts: BostonOptions, o: Outcome, kitty: float,
           mult: int) -> tuple[tuple[float, ...], float]:
    """Each seat's chips for the deal and the kitty after it (``mult``: 2 in a double
    tour). Won: the side shares the kitty and each opponent pays each of them the tariff,
    overtricks double («уплачиваются в два раза больше»). Lost: each loser pays each
    opponent what he would have been paid and the consolation; alone, the three others
    share the kitty (``lone_loss``; or he lays the labet), in a partnership the short
    member lays the labet (``labet``; or the two opponents share the kitty). The
    boston's holder is paid by every other seat."""
    delta = [0.0] * PLAYERS
    side = (o.declarer,) if o.supporter < 0 else (o.declarer, o.supporter)
    others = [s for s in range(PLAYERS) if s not in side]
    rate = opts.tariff[o.contract] * mult
    need = target(o.contract, o.supporter)
    if made(o):
        got = sum(o.taken[s] for s in side)
        pay = float(rate) if o.contract == MISERE else float(rate * (need + 2 * (got - need)))
        for s in side:
            delta[s] += kitty / len(side)
            for x in others:
                delta[s] += pay
                delta[x] -= pay
        kitty = 0.0
    else:
        owe = float(rate if o.contract == MISERE else rate * need) + opts.consolation * mult
        lay = kitty
        give = opts.lone_loss == "kitty" if o.supporter < 0 else not opts.labet
        for s in losers(o):
            for x in others:
                delta[s] -= owe
                delta[x] += owe
            if not give:
                delta[s] -= lay
                kitty += lay
        if give:
            for x in others:
                delta[x] += kitty / len(others)
            kitty = 0.0
    if o.boston_holder >= 0 and o.contract != MISERE:
        bonus = opts.boston_bonus * mult
        for x in range(PLAYERS):
            if x != o.boston_holder:
                delta[x] -= bonus
                delta[o.boston_holder] += bonus
    return tuple(delta), kitty
