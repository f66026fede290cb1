"""A game compiled: the variant, its betting system and every option as one typed, frozen
:class:`Program` of steps, identified by its :class:`GameKey`.

``compile_program(variant, options)`` applies the options to the variant (high-low,
joker, last card down ...), resolves the betting system and the stakes, and turns each
street of the variant into a :data:`Step` with named fields. A hand reads nothing else:
the rules the documents leave to the house are settled here once, not per hand.

Families of games (betting poker, knock poker, ...) register here: a family names the
street kinds it compiles (:func:`register_street`) and the hand class that plays them
(:func:`register_family`); this module and the base hand know no family by name.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from pydantic import ValidationError

from pokerarena.cards import deck as named_deck
from pokerarena.engine.actions import EngineError
from pokerarena.engine.options import GameOptions
from pokerarena.engine.scoring import Scorer
from pokerarena.engine.steps import (
    OPENER_CODES,
    SIZE_ANTE,
    SIZE_BIG,
    SIZE_CODES,
    SYS_AMOUNTS,
    SYS_NO,
    SYS_POT,
    SYSTEM_CODES,
    BetStep,
    ChooseStep,
    DealStep,
    DeclareStep,
    DrawStep,
    ExposeStep,
    FamilyStep,
    Step,
)
from pokerarena.rules import (
    BetStreet,
    DealStreet,
    DeclareStreet,
    DrawStreet,
    ExposeStreet,
    Showdown,
    Variant,
    VariantError,
    betting_system,
    format_validation_error,
    load_variant,
)


@dataclass(frozen=True)
class GameKey:
    """The canonical identity of a game: the whole (option-transformed) variant, the
    betting system and every option. Two games with the same key play identically;
    every cache that depends on the game is keyed by it (``text``, or its short
    ``digest``), so an option sweep that keeps the variant id never reuses another
    game's state."""

    text: str
    digest: str

    @staticmethod
    def of(variant: Variant, system: str, options: GameOptions) -> GameKey:
        """The key of ``variant`` played with betting ``system`` and ``options``."""
        body = {"variant": variant.model_dump(mode="json"), "betting": system,
                "options": options.model_dump(mode="json")}
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
        return GameKey(text, hashlib.sha256(text.encode()).hexdigest()[:16])


@dataclass(frozen=True)
class Program:
    """A game compiled for the hand: identity, steps, stakes, betting and table rules.

    Forced bets and stakes follow the variant unless an option sets them. ``sys`` is the
    betting system as played (SYS_*); ``plain_raises``: no freeze and no raise caps (the
    raise range skips those rules); ``fast_raises``: plain raises in no limit or pot
    limit (the hot path). ``reshuffles_discards``: discards may come back into play (a
    draw game); ``dead_bottom_card``: the bottom card of the stock is never dealt.
    ``discards_face_up``: every seat sees the cards discarded (knock poker's discard
    pile). ``hides_choices``: some step's choices stay hidden from the others for a while.
    """

    # identity
    variant: Variant
    options: GameOptions
    system_name: str
    system: Any
    key: GameKey
    family: str
    steps: tuple[Step, ...]
    # stakes and forced bets
    small_bet: int
    big_bet: int
    min_bet: int
    max_bet: int
    ante: int
    bring_in: int
    blinds: tuple[int, ...]
    ante_by: str
    live_ante: bool
    amounts: tuple[int, ...]
    open_min: int
    bring_in_rule: str
    # betting rules
    sys: int
    max_raises: int | None
    heads_up_max_raises: int | None
    max_raises_per_player: int | None
    plain_raises: bool
    fast_raises: bool
    reset_each_round: bool
    variable: bool
    round_multipliers: tuple[int, ...]
    cumulative_reopen: bool
    half_bet_reopens: bool
    freeze_multiple: int
    jackpot: bool
    free_fold: bool
    void_if_all_check: bool
    openers: str
    # table policies
    house: bool
    manual_deal: bool
    manual_show: bool
    odd_chip: str
    ante_trimming: bool
    phh_compat: bool
    rake_percent: Any
    rake_cap: int | None
    rake_showdown_only: bool
    kitty_unit: int
    bonus: str
    bonus_multiplier: int
    # cards and showdown
    deck_cards: Any
    deck_list: list[int]
    showdown: Showdown
    scorer: Scorer
    reshuffles_discards: bool
    dead_bottom_card: bool
    discards_face_up: bool
    hides_choices: bool


def bet_size(program: Program, size: int, round_no: int = 0) -> int:
    """Fixed-limit bet size of betting round ``round_no`` (``size``: SIZE_*). Variable
    limit: the *initial* limit times the round's multiplier (000_… «пределы для
    последнего круга ставок всегда вдвое превышают первоначальные пределы»)."""
    if size == SIZE_ANTE:
        return max(program.ante, 1)
    if program.variable:
        return program.small_bet * program.round_multipliers[round_no]
    return program.big_bet if size == SIZE_BIG else program.small_bet


# Families -------------------------------------------------------------------------------
StreetCompiler = Callable[[Any, GameOptions], FamilyStep]
_STREETS: dict[type, StreetCompiler] = {}
_HANDS: dict[str, Any] = {}
_FAMILY_DISCARDS: dict[str, tuple[bool, bool]] = {}


def register_street(street_type: type, family: str, compiler: StreetCompiler, *,
                    reshuffles_discards: bool = False, discards_face_up: bool = False) -> None:
    """Family ``family`` compiles the variant's streets of ``street_type`` with
    ``compiler`` (into a :class:`FamilyStep`). ``reshuffles_discards``: its discards may
    come back into play, the bottom card of the stock included; ``discards_face_up``:
    every seat sees the cards its players discard."""
    _STREETS[street_type] = compiler
    _FAMILY_DISCARDS[family] = (reshuffles_discards, discards_face_up)


def register_family(name: str, hand_class: Any) -> None:
    """``hand_class`` plays the games of family ``name`` (``betting``: the base hand)."""
    _HANDS[name] = hand_class


def hand_class(name: str) -> Any:
    """The hand class registered for family ``name``."""
    cls = _HANDS.get(name)
    if cls is None:
        raise EngineError(f"no hand is registered for the {name!r} family of games")
    return cls


# Compiling ------------------------------------------------------------------------------
def _scaled(amount: int, small_bet: int, base_small: int) -> int:
    """``amount`` of the variant's stakes scaled to a small bet of ``small_bet`` (halves
    round up: 002_… «Малый блайнд равен половине нижнего лимита, с округлением»)."""
    return (2 * amount * small_bet + base_small) // (2 * base_small)


_SHOWDOWN_OPTIONS: Final = ("combine", "wild", "wild_rule", "five_of_a_kind",
                            "double_ace_flush", "fewer_wilds_win", "four_flush", "blaze",
                            "trips_beat_straight")


def _revalidated(variant: Variant, data: dict[str, Any], option: str) -> Variant:
    try:
        return Variant.model_validate(data)
    except ValidationError as exc:
        raise VariantError(f"{variant.id}: options: {option}: "
                           f"{format_validation_error(exc)}") from None


def _as_high_low(variant: Variant, mode: str) -> Variant:
    """The variant played high-low (cards speak, or with a declaration)."""
    data = variant.model_dump()
    sd = data["showdown"]
    if sd["high"] is None:
        sd["high"] = "high"
    sd["low"] = "a5_low" if mode == "cards_speak_8" else "hilo_low"
    sd["low_qualifier"] = 8 if mode == "cards_speak_8" else 0
    streets = [s for s in data["streets"] if s["kind"] != "declare"]
    if mode.startswith("declare"):
        streets.append({"kind": "declare",
                        "mode": "simultaneous" if mode.endswith("simultaneous") else "in_turn"})
    data["streets"] = streets
    return _revalidated(variant, data, "hilo")


def _with_joker(variant: Variant) -> Variant:
    """The variant played with one joker, wild (option ``joker``)."""
    data = variant.model_dump()
    if data["deck"] == "standard":
        data["deck"] = "standard+joker"
    elif "joker" not in data["deck"]:
        raise VariantError(f"{variant.id}: options: joker: only with the standard deck, "
                           f"not {data['deck']!r}")
    sd = data["showdown"]
    if sd["wild"] == "none":
        sd["wild"] = "jokers"
    elif sd["wild"] != "jokers":
        raise VariantError(f"{variant.id}: options: joker: the variant already has "
                           f"{sd['wild']!r} wild")
    return _revalidated(variant, data, "joker")


def _last_deal(variant: Variant, option: str, ok: Callable[[dict[str, Any]], bool],
               what: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the variant's data, its last deal street's data), checked by ``ok``."""
    data = variant.model_dump()
    deals = [s for s in data["streets"] if s["kind"] == "deal"]
    last = deals[-1] if deals else None
    if last is None or not ok(last):
        raise VariantError(f"{variant.id}: options: {option}: the last deal is not {what}")
    return data, last


def _last_card_choice(variant: Variant) -> Variant:
    """Stud option: each player chooses whether his last card comes up or down."""
    data, last = _last_deal(variant, "last_card_choice",
                            lambda s: s["up"] == 1 and not s["down"] and not s["board"],
                            "one up card")
    last["choose_down"] = True
    return Variant.model_validate(data)


def _last_card_down(variant: Variant) -> Variant:
    """Stud option: the last card is dealt down instead of up."""
    data, last = _last_deal(variant, "last_card_down",
                            lambda s: bool(s["up"]) and not s["down"] and not s["board"],
                            "one up card")
    last["down"], last["up"] = last["up"], 0
    return Variant.model_validate(data)


def _transformed(variant: Variant, o: GameOptions) -> Variant:
    """The variant as the options change it."""
    if o.hilo is not None:
        variant = _as_high_low(variant, o.hilo)
    if o.last_card_down:
        variant = _last_card_down(variant)
    if o.joker:
        variant = _with_joker(variant)
    if o.last_card_choice:
        variant = _last_card_choice(variant)
    return variant


def _system(v: Variant, o: GameOptions) -> tuple[str, Any]:
    """(the betting system's name, the system with the options' caps and amounts)."""
    name = o.betting or v.betting[0]
    if name not in v.betting:
        raise VariantError(f"{v.id}: betting: {name!r} is not offered; choose one of "
                           f"{', '.join(v.betting)}")
    sys_opts: dict[str, Any] = {}
    for key in ("max_raises", "heads_up_max_raises", "max_raises_per_player"):
        value = getattr(o, key)
        if value is not None:
            sys_opts[key] = None if value == "none" else value
    for key, only in (("round_multipliers", "variable_limit"),
                      ("reset_each_round", "last_bet_limit"), ("amounts", "fixed_amounts")):
        value = getattr(o, key)
        if value is not None:
            if name != only:
                raise VariantError(f"options: {key}: only for {only}")
            sys_opts[key] = value
    return name, betting_system(name, **sys_opts)


def _stakes(v: Variant, o: GameOptions, name: str, system: Any) -> dict[str, Any]:
    """Bet sizes and forced bets. These follow the stakes unless set explicitly (RULES.md
    §2): the ante, the blinds and the bring-in scale with the small bet (000_… «Размер
    предварительной ставки обычно равен минимальной ставке»)."""
    st = v.stakes
    small = st.small_bet if o.small_bet is None else o.small_bet
    min_bet = st.min_bet if o.min_bet is None else o.min_bet
    max_bet = st.max_bet if o.max_bet is None else o.max_bet
    base = st.small_bet
    blinds: tuple[int, ...]
    if o.blinds is not None:
        blinds = tuple(o.blinds)
    elif not v.forced.blinds:
        blinds = ()
    elif st.blinds:
        blinds = tuple(_scaled(b, small, base) for b in st.blinds)
    else:  # 002_…: small blind half the small bet (rounded), big blind the small bet
        blinds = ((small + 1) // 2, small)
    amounts: tuple[int, ...] = ()
    if SYSTEM_CODES[name] == SYS_AMOUNTS:
        chosen = (getattr(system, "amounts", ()) if name == "fixed_amounts"
                  else (min_bet, max_bet))
        if not chosen:
            chosen = tuple(range(min_bet, max_bet + 1, min_bet))
        amounts = tuple(sorted(set(chosen)))
    # Casino practice where the documents are silent (RULES.md §4): an option.
    open_min = min_bet
    if o.min_bet_big_blind and SYSTEM_CODES[name] in (SYS_NO, SYS_POT) and blinds:
        open_min = max(min_bet, max(blinds))
    return {"small_bet": small, "big_bet": st.big_bet if o.big_bet is None else o.big_bet,
            "min_bet": min_bet, "max_bet": max_bet, "blinds": blinds, "amounts": amounts,
            "ante": o.ante if o.ante is not None else _scaled(st.ante, small, base),
            "bring_in": (o.bring_in if o.bring_in is not None
                         else _scaled(st.bring_in, small, base)),
            "ante_by": o.ante_by or v.forced.ante, "open_min": open_min,
            "live_ante": v.forced.live_ante if o.live_ante is None else o.live_ante,
            "bring_in_rule": v.forced.bring_in}


def _betting_rules(v: Variant, o: GameOptions, name: str, system: Any,
                   n_bets: int) -> dict[str, Any]:
    """The betting rules as the hand plays them (caps, reopening, multipliers)."""
    sysc = SYSTEM_CODES[name]
    plain = (not o.freeze_multiple and system.max_raises is None
             and system.heads_up_max_raises is None and system.max_raises_per_player is None)
    mult = list(getattr(system, "round_multipliers", ()) or ())
    if name == "variable_limit" and not mult:
        mult = [1] * (n_bets - 1) + [2]  # default: the last round doubled
    return {"sys": sysc, "max_raises": system.max_raises,
            "heads_up_max_raises": system.heads_up_max_raises,
            "max_raises_per_player": system.max_raises_per_player,
            "plain_raises": plain, "fast_raises": plain and sysc in (SYS_NO, SYS_POT),
            "reset_each_round": getattr(system, "reset_each_round", True),
            "variable": name == "variable_limit",
            "round_multipliers": tuple(mult + [mult[-1] if mult else 1]
                                       * (n_bets - len(mult))),
            "cumulative_reopen": o.all_in_reopen == "cumulative",
            "half_bet_reopens": o.half_bet_reopens, "freeze_multiple": o.freeze_multiple,
            "jackpot": o.jackpot, "free_fold": o.free_fold,
            "void_if_all_check": (v.void_if_all_check if o.void_if_all_check is None
                                  else o.void_if_all_check),
            "openers": o.openers or ("any" if o.pass_and_out else v.openers)}


def _table_rules(o: GameOptions) -> dict[str, Any]:
    """How the table deals, shows, rakes and breaks odd chips."""
    return {"house": o.irregularities == "house", "manual_deal": o.dealing == "manual",
            "manual_show": o.showdown == "manual", "odd_chip": o.odd_chip,
            "ante_trimming": o.ante_trimming, "phh_compat": o.phh_compat,
            "rake_percent": o.rake_percent, "rake_cap": o.rake_cap,
            "rake_showdown_only": o.rake_showdown_only, "kitty_unit": o.kitty_unit,
            "bonus": o.bonus, "bonus_multiplier": o.bonus_multiplier}


def _steps(v: Variant, o: GameOptions, name: str) -> tuple[Step, ...]:
    """The variant's streets as steps, the options applied."""
    steps: list[Step] = []
    n_bets = 0
    for s in v.streets:
        if isinstance(s, DealStreet):
            if s.choose_down:  # each player chooses up or down before the deal
                steps.append(ChooseStep())
            steps.append(DealStep(s.down, s.up, s.board))
        elif isinstance(s, BetStreet):
            check = s.check and not (o.pass_and_out and n_bets == 0)
            open_pair = s.open_pair_big and o.open_pair_big_bet and name == "fixed_limit"
            steps.append(BetStep(SIZE_CODES[s.size], OPENER_CODES[s.first], check, open_pair,
                                 n_bets, s.check_raise))
            n_bets += 1
        elif isinstance(s, DrawStreet):
            by_players = (tuple(sorted(s.max_if_players_at_most.items()))
                          if o.draw_more_when_few else ())
            most = s.max if o.draw_max is None else max(s.min, o.draw_max)
            steps.append(DrawStep(s.min, most, by_players, s.replace, s.burn))
        elif isinstance(s, ExposeStreet):
            steps.append(ExposeStep(s.count, s.keep_down, s.mode == "simultaneous"))
        elif isinstance(s, DeclareStreet):
            steps.append(DeclareStep(s.mode == "simultaneous"))
        else:
            compiler = _STREETS.get(type(s))
            if compiler is None:
                raise VariantError(f"{v.id}: no family of games plays {s.kind!r} streets")
            steps.append(compiler(s, o))
    return tuple(steps)


def _showdown(v: Variant, o: GameOptions) -> tuple[Showdown, Scorer]:
    """The showdown with the options' changes, and its scorer."""
    showdown = v.showdown
    changes = {k: getattr(o, k) for k in _SHOWDOWN_OPTIONS if getattr(o, k) is not None}
    if changes:
        try:
            showdown = Showdown.model_validate({**showdown.model_dump(), **changes})
        except ValidationError as exc:
            raise VariantError(f"{v.id}: options: {format_validation_error(exc)}") from None
    try:
        return showdown, Scorer(showdown, v.deck)
    except EngineError as exc:
        raise VariantError(f"{v.id}: showdown: {exc}") from None


def options_of(variant: Variant, options: GameOptions | dict[str, Any] | None) -> GameOptions:
    """``options`` validated (a user error names the variant and the field), over the
    variant file's own ``options`` (the defaults of this variant: the caller's win)."""
    if variant.options:
        try:
            GameOptions.model_validate(variant.options)
        except ValidationError as exc:
            raise VariantError(f"{variant.id}: options (of the variant file): "
                               f"{format_validation_error(exc)}") from None
        given = (options.model_dump(exclude_unset=True) if isinstance(options, GameOptions)
                 else dict(options or {}))
        options = {**variant.options, **given}
    if isinstance(options, GameOptions):
        return options
    try:
        return GameOptions.model_validate(dict(options or {}))
    except ValidationError as exc:
        raise VariantError(f"{variant.id}: options: "
                           f"{format_validation_error(exc)}") from None


def compile_program(variant: Variant | str,
                    options: GameOptions | dict[str, Any] | None = None) -> Program:
    """Compile ``variant`` (a Variant or a catalogue id) played with ``options``."""
    base = variant if isinstance(variant, Variant) else load_variant(variant)
    o = options_of(base, options)
    v = _transformed(base, o)
    name, system = _system(v, o)
    steps = _steps(v, o, name)
    families = {s.family for s in steps if isinstance(s, FamilyStep)}
    if len(families) > 1:
        raise VariantError(f"{v.id}: streets of several families: {sorted(families)}")
    family = families.pop() if families else "betting"
    # Draw poker: the discards are reshuffled when the stock runs short, and the bottom
    # card of the stock is never dealt (000_… «Нижняя карта колоды не используется»).
    family_reuse, face_up = _FAMILY_DISCARDS.get(family, (False, False))
    draws = any(isinstance(s, DrawStep) for s in steps)
    showdown, scorer = _showdown(v, o)
    deck_cards = named_deck(v.deck)
    n_bets = sum(1 for s in steps if isinstance(s, BetStep))
    return Program(
        variant=v, options=o, system_name=name, system=system,
        key=GameKey.of(v, name, o), family=family, steps=steps,
        **_stakes(v, o, name, system), **_betting_rules(v, o, name, system, n_bets),
        **_table_rules(o), deck_cards=deck_cards, deck_list=deck_cards.tolist(),
        showdown=showdown, scorer=scorer, reshuffles_discards=draws or family_reuse,
        dead_bottom_card=draws and not family_reuse, discards_face_up=face_up,
        hides_choices=any(isinstance(s, (ExposeStep, DeclareStep)) for s in steps))
