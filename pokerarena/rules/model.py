"""Typed models of a variant file and of the betting systems.

A variant file is TOML. Its streets are a list of one-key tables, ``{ deal = {...} }``,
``{ bet = {...} }``, ``{ draw = {...} }``; see ``variants/holdem.toml`` for a
commented example. :func:`load_variant_text` turns the text into a :class:`Variant`,
or raises :class:`VariantError` with one message naming the bad field.
"""

from __future__ import annotations

import tomllib
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from pokerarena.cards import DECK_NAMES, CardError, parse_cards
from pokerarena.cards import deck as deck_cards
from pokerarena.errors import UserError

RANKING_NAMES = ("high", "short_deck", "three_card", "three_card_casino", "two_card",
                 "a5_low", "hilo_low", "27_low", "badugi")
LOW_RANKINGS = ("a5_low", "hilo_low", "27_low", "badugi")
WILD_NAMES = ("none", "jokers", "deuce_spades", "deuces", "deuces_treys", "red_tens")
# Wild cards that depend on the deal: the rank of the player's lowest down card, of the
# lowest board card, of the board card(s) (with or without those cards themselves).
POSITIONAL_WILDS = ("low_hole", "low_hole_card", "hole_rank", "low_board", "board_rank",
                    "board_rank_others", "centre_rank")
BETTING_SYSTEMS = ("fixed_limit", "variable_limit", "spread_limit", "fixed_amounts",
                   "min_or_max", "last_bet_limit", "pot_limit", "no_limit")
SystemName = Literal["fixed_limit", "variable_limit", "spread_limit", "fixed_amounts",
                     "min_or_max", "last_bet_limit", "pot_limit", "no_limit"]
FIRST_TO_ACT = ("left_of_button", "left_of_blinds", "bring_in", "high_showing",
                "low_showing", "opener", "left_of_antes")
OPENERS = ("any", "jacks_or_better", "progressive", "jacks_or_bobtail")


class VariantError(ValueError, UserError):
    """A variant file (or variant data) that cannot be used; the message names the field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# Streets ---------------------------------------------------------------------------

class DealStreet(_Strict):
    """Deal cards: ``down`` and ``up`` to every player in the hand, ``board`` to the table.
    ``choose_down`` (one up card only): before the deal each player in turn says whether
    he takes the card up (``cc``) or down (``dd``), e.g. stud's optional last card down."""

    kind: Literal["deal"] = "deal"
    down: int = Field(0, ge=0, le=13)
    up: int = Field(0, ge=0, le=13)
    board: int = Field(0, ge=0, le=10)
    choose_down: bool = False

    @model_validator(mode="after")
    def _something(self) -> DealStreet:
        if self.down + self.up + self.board == 0:
            raise ValueError("a deal street deals at least one card (down, up or board)")
        if self.choose_down and (self.up != 1 or self.down or self.board):
            raise ValueError("choose_down: only for a deal of one up card")
        return self


class BetStreet(_Strict):
    """A betting round: bet ``size`` (fixed limit) and who acts ``first``.

    ``check = false`` forbids checking an unopened pot (pass-and-out: pass means fold);
    ``check_raise = false``: a player who checked may not raise later in the round.
    ``first = "opener"``: the player who opened the first round bets first (draw poker).
    ``first = "left_of_antes"``: the player left of the last ante payer, counting from
    the dealer (lowball: the dealer and the player on his left ante).
    ``open_pair_big = true`` (stud fourth street): when a player shows an open pair, every
    bet or raise may be the small or the big bet until one is big (fixed limit; option
    ``open_pair_big_bet``). ``size = "ante"``: the round's bet (fixed limit) or maximum
    (spread, fixed amounts) is the ante (lowball's first round).
    """

    kind: Literal["bet"] = "bet"
    size: Literal["small", "big", "ante"] = "small"
    first: Literal["left_of_button", "left_of_blinds", "bring_in", "high_showing",
                   "low_showing", "opener", "left_of_antes"] = "left_of_button"
    check: bool = True
    check_raise: bool = True
    open_pair_big: bool = False


class DrawStreet(_Strict):
    """Each player in the hand discards ``min``..``max`` cards and gets replacements;
    ``max_if_players_at_most = { 4 = 5 }``: with 4 or fewer players in the hand, up to 5
    (the option of five-card draw). ``replace = false``: the discards are not replaced
    (pineapple's discard of one hole card after the flop: ``min = max = 1``)."""

    kind: Literal["draw"] = "draw"
    max: int = Field(5, ge=0, le=13)
    min: int = Field(0, ge=0, le=13)
    replace: bool = True
    max_if_players_at_most: dict[int, int] = Field(default_factory=dict)
    burn: int = Field(0, ge=0, le=3, description="cards burned from the stock before the "
                      "draw (lowball: «сдающий «сжигает» верхнюю карту колоды»)")

    @model_validator(mode="after")
    def _range(self) -> DrawStreet:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) is above max ({self.max})")
        for players, most in self.max_if_players_at_most.items():
            if players < 2 or not self.min <= most <= 13:
                raise ValueError(f"max_if_players_at_most: {players} = {most} is not a "
                                 "player count of 2+ with a draw size of min..13")
        return self

    def max_for(self, players: int) -> int:
        """The most cards a player may draw with ``players`` players in the hand."""
        best = self.max
        for limit, most in sorted(self.max_if_players_at_most.items()):
            if players <= limit:
                return most
        return best


class ExposeStreet(_Strict):
    """Each player in the hand turns ``count`` of his down cards face up, keeping at least
    ``keep_down`` down (Mexican stud); ``in_turn`` (the default): one after the other from
    the dealer's left, each seeing the earlier choices; ``simultaneous``: nobody sees the
    others' choices until everyone has chosen."""

    kind: Literal["expose"] = "expose"
    count: int = Field(1, ge=1, le=13)
    keep_down: int = Field(0, ge=0, le=13)
    mode: Literal["in_turn", "simultaneous"] = "in_turn"


class DeclareStreet(_Strict):
    """High-low declaration before the showdown: each player declares high, low or both,
    in turn from the dealer's left or simultaneously. The high half goes to the best high
    hand among those who declared high, the low half likewise; a player who declares both
    must win or tie both halves or gets nothing."""

    kind: Literal["declare"] = "declare"
    mode: Literal["in_turn", "simultaneous"] = "in_turn"


class KnockStreet(_Strict):
    """Knock poker (003_… «Нок-покер»): no betting; from the dealer's left each player in
    turn takes the top card of the stock (``cc``) or the top discard (``dt``) and
    discards one card face up (``sd``). A player may knock (``kn``) between drawing and
    discarding, or instead of his first draw; every other player then has one last turn
    (draw and discard, or drop out (``f``) paying the knocker ``drop_fee``) and the hands
    are shown. The best hand takes the pot (the antes). Knocker best alone: each player
    still in pays him ``knocker_wins``; knocker beaten: he pays each player still in
    ``knocker_loses``; a tie splits the pot and nobody pays. Every other player, dropped
    out or not, pays a winner the bonuses: ``bonus_no_draw`` (a knocker who never drew
    and wins alone),
    ``bonus_ace_flush`` (a flush headed by an ace), else ``bonus_flush`` (any other
    flush), else ``bonus_four_of_a_kind``. ``immediate`` (the option "knock on any
    turn"): a knock at the start of any turn ends the drawing at once; the pot goes to
    the best hand with no knock payments. When the stock runs out the hands are shown at
    once (no knocker)."""

    kind: Literal["knock"] = "knock"
    immediate: bool = False
    drop_fee: int = Field(1, ge=0)
    knocker_wins: int = Field(2, ge=0)
    knocker_loses: int = Field(2, ge=0)
    bonus_no_draw: int = Field(2, ge=0)
    bonus_ace_flush: int = Field(4, ge=0)
    bonus_flush: int = Field(2, ge=0)
    bonus_four_of_a_kind: int = Field(1, ge=0)


Street = Annotated[DealStreet | BetStreet | DrawStreet | ExposeStreet | DeclareStreet
                   | KnockStreet, Field(discriminator="kind")]


# Forced bets, showdown, stakes ------------------------------------------------------

class Forced(_Strict):
    """Forced bets of a variant: who antes, whether blinds are posted, bring-in rule.

    ``live_ante``: the antes count as bets in the first betting round, like blinds
    (lowball: «Предварительные ставки засчитываются как ставки «остаюсь в игре»»)."""

    ante: Literal["none", "all", "dealer", "dealer_and_left", "dealer_and_two_left",
                  "big_blind"] = "none"
    blinds: bool = False
    bring_in: Literal["none", "lowest_door", "highest_door"] = "none"
    live_ante: bool = False


class Showdown(_Strict):
    """How hands are compared: ranking of the high half and/or the low half."""

    high: str | None = "high"
    low: str | None = None
    low_qualifier: int = Field(0, ge=0, le=13, description="0: no qualifier; 8: eight or better")
    combine: Literal["any", "omaha", "crisscross", "one_board"] = "any"
    wild: str = "none"
    wild_rule: Literal["any", "lacking"] = "any"
    five_of_a_kind: bool = True
    double_ace_flush: bool = False
    fewer_wilds_win: bool = True
    four_flush: bool = False
    blaze: bool = False
    trips_beat_straight: bool = False

    @field_validator("wild")
    @classmethod
    def _wild_ok(cls, v: str) -> str:
        if v in WILD_NAMES or v in POSITIONAL_WILDS:
            return v
        try:
            parse_cards(v)
        except CardError:
            raise ValueError(f"unknown wild cards {v!r}; choose one of "
                             f"{', '.join(WILD_NAMES + POSITIONAL_WILDS)} or list cards "
                             "(\"Ks,Kd\")") from None
        return v

    @field_validator("high", "low", mode="before")
    @classmethod
    def _none_word(cls, v: Any) -> Any:
        return None if v in ("none", "") else v

    @field_validator("high")
    @classmethod
    def _high_ok(cls, v: str | None) -> str | None:
        if v is not None and (v not in RANKING_NAMES or v in LOW_RANKINGS):
            highs = [r for r in RANKING_NAMES if r not in LOW_RANKINGS]
            raise ValueError(f"unknown high ranking {v!r}; choose one of {', '.join(highs)}")
        return v

    @field_validator("low")
    @classmethod
    def _low_ok(cls, v: str | None) -> str | None:
        if v is not None and v not in LOW_RANKINGS:
            raise ValueError(f"unknown low ranking {v!r}; choose one of {', '.join(LOW_RANKINGS)}")
        return v

    @model_validator(mode="after")
    def _one(self) -> Showdown:
        if self.high is None and self.low is None:
            raise ValueError("a showdown needs a high ranking, a low ranking or both")
        if self.low_qualifier and self.low is None:
            raise ValueError("low_qualifier needs a low ranking")
        return self

    @property
    def split(self) -> bool:
        """True for high-low split pots."""
        return self.high is not None and self.low is not None


class Stakes(_Strict):
    """Default amounts in chips; every field can be overridden by game options."""

    ante: int = Field(0, ge=0)
    blinds: tuple[int, ...] = ()
    bring_in: int = Field(0, ge=0)
    small_bet: int = Field(2, ge=1)
    big_bet: int = Field(4, ge=1)
    min_bet: int = Field(2, ge=1)
    max_bet: int = Field(4, ge=1)
    stack: int = Field(200, ge=1)

    @field_validator("blinds")
    @classmethod
    def _blinds_ok(cls, v: tuple[int, ...]) -> tuple[int, ...]:
        if any(b < 0 for b in v):
            raise ValueError("blinds are amounts of 0 or more")
        return v


# Betting systems --------------------------------------------------------------------

class _System(_Strict):
    """Options every betting system has: raise caps per round and per player."""

    max_raises: int | None = Field(None, ge=0, description="raises after the bet, per round")
    heads_up_max_raises: int | None = Field(None, ge=0)
    max_raises_per_player: int | None = Field(None, ge=0, description="per player per round")


class FixedLimit(_System):
    """Small bet in early rounds, big bet in later ones; one bet and ``max_raises`` raises
    (heads-up: ``heads_up_max_raises``; None: no cap)."""

    system: Literal["fixed_limit"] = "fixed_limit"
    max_raises: int | None = Field(3, ge=0)
    heads_up_max_raises: int | None = Field(5, ge=0, description="None: no cap heads-up")


class VariableLimit(_System):
    """Fixed limit whose bet size changes during the game: the street's size times
    ``round_multipliers[i]`` for betting round ``i`` (default: the last round doubled)."""

    system: Literal["variable_limit"] = "variable_limit"
    max_raises: int | None = Field(3, ge=0)
    heads_up_max_raises: int | None = Field(5, ge=0)
    round_multipliers: tuple[int, ...] = ()

    @field_validator("round_multipliers")
    @classmethod
    def _positive(cls, v: tuple[int, ...]) -> tuple[int, ...]:
        if any(m < 1 for m in v):
            raise ValueError("multipliers are 1 or more")
        return v


class SpreadLimit(_System):
    """Any bet or raise between ``min_bet`` and ``max_bet`` of the stakes."""

    system: Literal["spread_limit"] = "spread_limit"
    max_raises: int | None = Field(3, ge=0)


class FixedAmounts(_System):
    """Only certain amounts between the minimum and the maximum (000_… «лишь определенные
    суммы»): a bet or raise adds one of ``amounts`` (empty: every multiple of the
    stakes' ``min_bet`` up to ``max_bet``)."""

    system: Literal["fixed_amounts"] = "fixed_amounts"
    max_raises: int | None = Field(3, ge=0)
    amounts: tuple[int, ...] = ()

    @field_validator("amounts")
    @classmethod
    def _positive(cls, v: tuple[int, ...]) -> tuple[int, ...]:
        if any(a < 1 for a in v):
            raise ValueError("amounts are 1 or more chips")
        return tuple(sorted(set(v)))


class MinOrMax(_System):
    """Only the minimum or the maximum (000_… «не приемлемы никакие промежуточные между
    минимумом и максимумом суммы»): a bet or raise adds ``min_bet`` or ``max_bet``."""

    system: Literal["min_or_max"] = "min_or_max"
    max_raises: int | None = Field(3, ge=0)


class LastBetLimit(_System):
    """A bet or raise may not exceed the previous bet: raise by at most the current bet
    (the first bet of a round: up to ``max_bet``, or with ``reset_each_round = false``
    up to the last bet of the previous round, so the limit keeps growing)."""

    system: Literal["last_bet_limit"] = "last_bet_limit"
    reset_each_round: bool = True


class PotLimit(_System):
    """Maximum raise = pot + all bets on the table + the amount to call."""

    system: Literal["pot_limit"] = "pot_limit"


class NoLimit(_System):
    """Minimum raise = previous bet or raise; maximum = the player's whole stack."""

    system: Literal["no_limit"] = "no_limit"


SystemModel = (FixedLimit | VariableLimit | SpreadLimit | FixedAmounts | MinOrMax
               | LastBetLimit | PotLimit | NoLimit)
BettingSystem = Annotated[SystemModel, Field(discriminator="system")]
_SYSTEM_MODELS = {"fixed_limit": FixedLimit, "variable_limit": VariableLimit,
                  "spread_limit": SpreadLimit, "fixed_amounts": FixedAmounts,
                  "min_or_max": MinOrMax, "last_bet_limit": LastBetLimit,
                  "pot_limit": PotLimit, "no_limit": NoLimit}


def betting_system(name: str, **options: Any) -> SystemModel:
    """The betting-system model called ``name`` with ``options`` (validated)."""
    model = _SYSTEM_MODELS.get(name)
    if model is None:
        raise VariantError(f"betting: unknown system {name!r}; choose one of "
                           f"{', '.join(BETTING_SYSTEMS)}")
    try:
        return model(**options)
    except ValidationError as exc:
        raise VariantError(format_validation_error(exc, prefix=f"betting.{name}")) from None


# The variant --------------------------------------------------------------------------

class Variant(_Strict):
    """A poker variant as data: deck, forced bets, streets, showdown, betting systems."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    source: str = ""
    notes: str = ""
    players: tuple[int, int] = (2, 10)
    deck: str = "standard"
    forced: Forced = Forced()
    streets: tuple[Street, ...]
    showdown: Showdown = Showdown()
    betting: tuple[SystemName, ...] = ("fixed_limit",)
    stakes: Stakes = Stakes()
    openers: Literal["any", "jacks_or_better", "progressive", "jacks_or_bobtail"] = Field(
        "any", description="what a player needs to open the first betting round")
    void_if_all_check: bool = Field(
        True, description="every player checks in the first betting round: the deal is "
        "void and its pot waits for the next deal (000_… «Если все игроки пропустили ход "
        "в первом круге ставок, игра аннулируется»); false for stud, which goes on")
    phh: dict[str, str] = Field(default_factory=dict,
                                description="PHH variant code for each betting system")
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="game options this variant is played with unless the game sets them "
        "(any game option: Kuhn poker's raise cap of 0, no fold when a check is free); "
        "checked when a game is made, as the game's own options are")

    @model_validator(mode="before")
    @classmethod
    def _street_tables(cls, data: Any) -> Any:
        """Accept streets written as one-key tables: ``{ deal = { down = 2 } }``."""
        if isinstance(data, dict) and isinstance(data.get("streets"), list):
            streets = []
            for item in data["streets"]:
                if isinstance(item, dict) and len(item) == 1 and "kind" not in item:
                    (kind, body), = item.items()
                    if isinstance(body, dict):
                        item = {"kind": kind, **body}
                    elif kind == "bet" and body is True:
                        item = {"kind": "bet"}
                    else:
                        item = {"kind": kind, "_value": body}
                streets.append(item)
            data = {**data, "streets": streets}
        return data

    @field_validator("deck")
    @classmethod
    def _deck_ok(cls, v: str) -> str:
        if v not in DECK_NAMES:
            raise ValueError(f"unknown deck {v!r}; choose one of {', '.join(DECK_NAMES)}")
        return v

    @field_validator("players")
    @classmethod
    def _players_ok(cls, v: tuple[int, int]) -> tuple[int, int]:
        if not 2 <= v[0] <= v[1] <= 23:
            raise ValueError("players is [min, max] with 2 <= min <= max <= 23")
        return v

    @field_validator("betting")
    @classmethod
    def _betting_ok(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        if not v:
            raise ValueError("list at least one betting system")
        if len(set(v)) != len(v):
            raise ValueError("a betting system is listed twice")
        return v

    @model_validator(mode="after")
    def _coherent(self) -> Variant:
        streets = self.streets
        knocks = [i for i, s in enumerate(streets) if isinstance(s, KnockStreet)]
        if not knocks and not any(isinstance(s, BetStreet) for s in streets):
            raise ValueError("streets: a variant needs at least one bet street")
        if knocks and (len(knocks) > 1 or any(isinstance(s, BetStreet | DrawStreet)
                                              for s in streets)
                       or not all(isinstance(s, DeclareStreet)
                                  for s in streets[knocks[0] + 1:])):
            raise ValueError(f"streets[{knocks[0]}].knock: a knock street is the last "
                             "street (a declaration may follow) and the only drawing one "
                             "(knock poker has no betting rounds)")
        for i, s in enumerate(streets):
            no_bring_in = self.forced.bring_in == "none"
            if isinstance(s, BetStreet) and s.first == "bring_in" and no_bring_in:
                raise ValueError(f"streets[{i}].bet.first: 'bring_in' needs forced.bring_in")
            if isinstance(s, BetStreet) and s.first == "left_of_blinds" and not self.forced.blinds:
                raise ValueError(f"streets[{i}].bet.first: 'left_of_blinds' needs forced.blinds")
            if (isinstance(s, BetStreet) and s.first == "left_of_antes"
                    and self.forced.ante == "none"):
                raise ValueError(f"streets[{i}].bet.first: 'left_of_antes' needs forced.ante")
            if isinstance(s, DrawStreet) and max([s.max, *s.max_if_players_at_most.values()]
                                                 ) > self.hole_cards:
                raise ValueError(f"streets[{i}].draw.max: {s.max} is more than the "
                                 f"{self.hole_cards} cards a player holds")
        if self.showdown.combine == "omaha" and (self.hole_cards < 2 or self.board_cards < 3):
            raise ValueError("showdown.combine: 'omaha' needs 2+ hole cards and 3+ board cards")
        declares = [i for i, s in enumerate(streets) if isinstance(s, DeclareStreet)]
        if declares and not self.showdown.split:
            raise ValueError(f"streets[{declares[0]}].declare: a declaration needs a high and "
                             "a low ranking in showdown")
        if self.showdown.combine == "crisscross" and self.board_cards != 5:
            raise ValueError("showdown.combine: 'crisscross' needs 5 board cards (a cross)")
        if self.forced.bring_in != "none" and not any(
                isinstance(s, DealStreet) and s.up for s in streets):
            raise ValueError("forced.bring_in: a bring-in needs a street dealing up cards")
        deck_size = len(deck_cards(self.deck))
        has_draw = any(isinstance(s, DrawStreet) for s in streets)
        need = self.hole_cards * self.players[1] + self.board_cards
        deals = [s for s in streets if isinstance(s, DealStreet)]
        last = deals[-1] if deals else None
        if last is not None and last.down and not last.up and not last.board:
            # Stud: the last down card may be one shared card when the stock runs short.
            need -= last.down * self.players[1] - 1
        if need > deck_size and not has_draw:
            raise ValueError(f"players: {self.players[1]} players need {need} cards; the "
                             f"{self.deck} deck has {deck_size}")
        for system in self.phh:
            if system not in self.betting:
                raise ValueError(f"phh.{system}: not one of this variant's betting systems")
        return self

    @property
    def hole_cards(self) -> int:
        """Cards each player holds at the end (down + up)."""
        return sum(s.down + s.up for s in self.streets if isinstance(s, DealStreet))

    @property
    def board_cards(self) -> int:
        """Community cards dealt in a full hand."""
        return sum(s.board for s in self.streets if isinstance(s, DealStreet))

    def max_cards_used(self, players: int) -> int:
        """Cards dealt to ``players`` players without draws."""
        return self.hole_cards * players + self.board_cards


def format_validation_error(exc: ValidationError, prefix: str = "") -> str:
    """One line naming the first bad field of a pydantic error (and how many others)."""
    errors = exc.errors()
    first = errors[0]
    parts: list[str] = [prefix] if prefix else []
    loc = list(first.get("loc", ()))
    # Drop discriminator tags pydantic inserts ("deal", "bet", ...) after an index.
    path = ""
    for item in loc:
        if isinstance(item, int):
            path += f"[{item}]"
        else:
            path += ("." if path else "") + str(item)
    if path:
        parts.append(path)
    where = ".".join(p for p in parts if p)
    msg = first.get("msg", "invalid")
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    if first.get("type") == "extra_forbidden":
        msg = "unknown field"
    text = f"{where}: {msg}" if where else msg
    if len(errors) > 1:
        text += f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})"
    return text


def load_variant_data(data: dict[str, Any], origin: str = "variant") -> Variant:
    """Validate parsed TOML data as a :class:`Variant`."""
    try:
        return Variant.model_validate(data)
    except ValidationError as exc:
        raise VariantError(f"{origin}: {format_validation_error(exc)}") from None


def load_variant_text(text: str, origin: str = "variant") -> Variant:
    """Parse and validate the TOML text of a variant file."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"{origin}: not valid TOML: {exc}") from None
    return load_variant_data(data, origin)
