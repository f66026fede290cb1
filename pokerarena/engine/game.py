"""``Game``: a variant plus options (betting system, stakes, policies); deals hands.

>>> game = Game("holdem", {"betting": "no_limit"})
>>> hand = game.new_hand(seed=7, seats=6, stacks=[200] * 6, button=0)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

import numpy as np
from pydantic import ValidationError

from pokerarena.cards import deck as named_deck
from pokerarena.engine.actions import EngineError
from pokerarena.engine.options import GameOptions
from pokerarena.engine.scoring import Scorer
from pokerarena.rules import (
    BetStreet,
    DealStreet,
    DeclareStreet,
    DrawStreet,
    ExposeStreet,
    KnockStreet,
    Showdown,
    Variant,
    VariantError,
    betting_system,
    format_validation_error,
    load_variant,
)

# Compiled street codes.
ST_DEAL: Final = 0
ST_BET: Final = 1
ST_DRAW: Final = 2
ST_EXPOSE: Final = 3
ST_DECLARE: Final = 4
ST_KNOCK: Final = 5
ST_CHOOSE: Final = 6
FIRST_CODES = {"left_of_button": 0, "left_of_blinds": 1, "bring_in": 2,
               "high_showing": 3, "low_showing": 4, "opener": 5, "left_of_antes": 6}
SIZE_CODES = {"small": 0, "big": 1, "ante": 2}
SYS_FIXED: Final = 0
SYS_SPREAD: Final = 1
SYS_POT: Final = 2
SYS_NO: Final = 3
SYS_LASTBET: Final = 4
SYS_AMOUNTS: Final = 5
# Variable limit plays as fixed limit with per-round bet sizes; min-or-max is fixed
# amounts with two amounts.
_SYS_CODES = {"fixed_limit": SYS_FIXED, "variable_limit": SYS_FIXED, "spread_limit": SYS_SPREAD,
              "pot_limit": SYS_POT, "no_limit": SYS_NO, "last_bet_limit": SYS_LASTBET,
              "fixed_amounts": SYS_AMOUNTS, "min_or_max": SYS_AMOUNTS}


def _scaled(amount: int, small_bet: int, base_small: int) -> int:
    """``amount`` of the variant's stakes scaled to a small bet of ``small_bet`` (halves
    round up: 002_… «Малый блайнд равен половине нижнего лимита, с округлением»)."""
    return (2 * amount * small_bet + base_small) // (2 * base_small)


_SHOWDOWN_OPTIONS = ("combine", "wild", "wild_rule", "five_of_a_kind", "double_ace_flush",
                     "fewer_wilds_win", "four_flush", "blaze", "trips_beat_straight")


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
    try:
        return Variant.model_validate(data)
    except ValidationError as exc:
        raise VariantError(f"{variant.id}: options: hilo: "
                           f"{format_validation_error(exc)}") from None


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
    try:
        return Variant.model_validate(data)
    except ValidationError as exc:
        raise VariantError(f"{variant.id}: options: joker: "
                           f"{format_validation_error(exc)}") from None


def _last_card_choice(variant: Variant) -> Variant:
    """Stud option: each player chooses whether his last card comes up or down."""
    data = variant.model_dump()
    deals = [i for i, s in enumerate(data["streets"]) if s["kind"] == "deal"]
    last = data["streets"][deals[-1]] if deals else None
    if last is None or last["up"] != 1 or last["down"] or last["board"]:
        raise VariantError(f"{variant.id}: options: last_card_choice: the last deal is not "
                           "one up card")
    last["choose_down"] = True
    return Variant.model_validate(data)


def _last_card_down(variant: Variant) -> Variant:
    """Stud option: the last card is dealt down instead of up."""
    data = variant.model_dump()
    deals = [i for i, s in enumerate(data["streets"]) if s["kind"] == "deal"]
    last = data["streets"][deals[-1]] if deals else None
    if last is None or not last["up"] or last["down"] or last["board"]:
        raise VariantError(f"{variant.id}: options: last_card_down: the last deal is not "
                           "one up card")
    last["down"], last["up"] = last["up"], 0
    return Variant.model_validate(data)


def parse_option_value(text: str) -> Any:
    """Turn ``--option k=v`` text into a value: int, bool, list of ints, or string."""
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if "," in text or text.startswith("["):
        items = [t for t in text.strip("[]").split(",") if t.strip()]
        return [parse_option_value(t) for t in items]
    try:
        return int(text)
    except ValueError:
        return text


def game_key(variant: Variant, system: str, options: GameOptions) -> str:
    """The canonical identity of a game: the whole (option-transformed) variant, the
    betting system and every option, as one JSON text. Two games with the same key play
    identically; every cache that depends on the game is keyed by it (DESIGN.md), so an
    option sweep that keeps the variant id never reuses another game's state."""
    body = {"variant": variant.model_dump(mode="json"), "betting": system,
            "options": options.model_dump(mode="json")}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)


class Game:
    """A variant with its options; :meth:`new_hand` starts a hand."""

    def __init__(self, variant: Variant | str, options: GameOptions | dict | None = None):
        self.variant: Variant = variant if isinstance(variant, Variant) else load_variant(variant)
        if isinstance(options, GameOptions):
            self.options = options
        else:
            try:
                self.options = GameOptions.model_validate(dict(options or {}))
            except ValidationError as exc:
                raise VariantError(f"{self.variant.id}: options: "
                                   f"{format_validation_error(exc)}") from None
        if self.options.hilo is not None:
            self.variant = _as_high_low(self.variant, self.options.hilo)
        if self.options.last_card_down:
            self.variant = _last_card_down(self.variant)
        if self.options.joker:
            self.variant = _with_joker(self.variant)
        if self.options.last_card_choice:
            self.variant = _last_card_choice(self.variant)
        v, o = self.variant, self.options
        self.variant_id = v.id
        name = o.betting or v.betting[0]
        if name not in v.betting:
            raise VariantError(f"{v.id}: betting: {name!r} is not offered; choose one of "
                               f"{', '.join(v.betting)}")
        sys_opts: dict[str, Any] = {}
        for key in ("max_raises", "heads_up_max_raises", "max_raises_per_player"):
            value = getattr(o, key)
            if value is not None:
                sys_opts[key] = None if value == "none" else value
        if o.round_multipliers is not None:
            if name != "variable_limit":
                raise VariantError("options: round_multipliers: only for variable_limit")
            sys_opts["round_multipliers"] = o.round_multipliers
        if o.reset_each_round is not None:
            if name != "last_bet_limit":
                raise VariantError("options: reset_each_round: only for last_bet_limit")
            sys_opts["reset_each_round"] = o.reset_each_round
        if o.amounts is not None:
            if name != "fixed_amounts":
                raise VariantError("options: amounts: only for fixed_amounts")
            sys_opts["amounts"] = o.amounts
        self.system = betting_system(name, **sys_opts)
        self.system_name = name
        self.sys = _SYS_CODES[name]
        st = v.stakes
        self.small_bet = st.small_bet if o.small_bet is None else o.small_bet
        self.big_bet = st.big_bet if o.big_bet is None else o.big_bet
        self.min_bet = st.min_bet if o.min_bet is None else o.min_bet
        self.max_bet = st.max_bet if o.max_bet is None else o.max_bet
        # Forced bets follow the stakes unless set explicitly (RULES.md §2): the ante,
        # the blinds and the bring-in scale with the small bet (000_… «Размер
        # предварительной ставки обычно равен минимальной ставке»).
        small, base = self.small_bet, st.small_bet
        self.ante = o.ante if o.ante is not None else _scaled(st.ante, small, base)
        self.bring_in = (o.bring_in if o.bring_in is not None
                         else _scaled(st.bring_in, small, base))
        if o.blinds is not None:
            self.blinds = tuple(o.blinds)
        elif not v.forced.blinds:
            self.blinds = ()
        elif st.blinds:
            self.blinds = tuple(_scaled(b, small, base) for b in st.blinds)
        else:  # 002_…: small blind half the small bet (rounded), big blind the small bet
            self.blinds = ((small + 1) // 2, small)
        self.ante_by = o.ante_by or v.forced.ante
        self.live_ante = v.forced.live_ante if o.live_ante is None else o.live_ante
        if self.sys == SYS_AMOUNTS:
            amounts = (getattr(self.system, "amounts", ()) if name == "fixed_amounts"
                       else (self.min_bet, self.max_bet))
            if not amounts:
                amounts = tuple(range(self.min_bet, self.max_bet + 1, self.min_bet))
            self.amounts: tuple[int, ...] = tuple(sorted(set(amounts)))
        else:
            self.amounts = ()
        # Casino practice where the documents are silent (RULES.md §4), each an option.
        self.open_min = self.min_bet
        if o.min_bet_big_blind and self.sys in (SYS_NO, SYS_POT) and self.blinds:
            self.open_min = max(self.min_bet, max(self.blinds))
        self.cumulative_reopen = o.all_in_reopen == "cumulative"
        self.half_bet_reopens = o.half_bet_reopens
        self.free_fold = o.free_fold
        self.jackpot = o.jackpot
        self.void_if_all_check = (v.void_if_all_check if o.void_if_all_check is None
                                  else o.void_if_all_check)
        self.max_raises = self.system.max_raises
        self.heads_up_max_raises = self.system.heads_up_max_raises
        self.max_raises_per_player = self.system.max_raises_per_player
        # No freeze and no raise caps: the raise range skips those rules (hot path).
        self.plain_raises = (not o.freeze_multiple and self.max_raises is None
                             and self.heads_up_max_raises is None
                             and self.max_raises_per_player is None)
        self.fast_raises = self.plain_raises and self.sys in (SYS_NO, SYS_POT)
        self.reset_each_round = getattr(self.system, "reset_each_round", True)
        self.house = o.irregularities == "house"
        self.openers = o.openers or ("any" if o.pass_and_out else v.openers)
        self.manual_deal = o.dealing == "manual"
        self.manual_show = o.showdown == "manual"
        self.odd_chip = o.odd_chip
        self.ante_trimming = o.ante_trimming
        self.phh_compat = o.phh_compat
        self.freeze_multiple = o.freeze_multiple
        self.rake_percent = o.rake_percent
        self.rake_cap = o.rake_cap
        self.rake_showdown_only = o.rake_showdown_only
        self.kitty_unit = o.kitty_unit
        self.bonus = o.bonus
        self.bonus_multiplier = o.bonus_multiplier
        self.deck_cards = named_deck(v.deck)
        self.deck_list = self.deck_cards.tolist()
        showdown = v.showdown
        changes = {k: getattr(o, k) for k in _SHOWDOWN_OPTIONS if getattr(o, k) is not None}
        if changes:
            try:
                showdown = Showdown.model_validate({**showdown.model_dump(), **changes})
            except ValidationError as exc:
                raise VariantError(f"{v.id}: options: "
                                   f"{format_validation_error(exc)}") from None
        self.showdown = showdown
        try:
            self.scorer = Scorer(showdown, v.deck)
        except EngineError as exc:
            raise VariantError(f"{v.id}: showdown: {exc}") from None
        self.split = v.showdown.split
        streets: list[tuple] = []
        first_bet = True
        n_bets = 0
        for s in v.streets:
            if isinstance(s, DealStreet):
                if s.choose_down:  # each player chooses up or down before the deal
                    streets.append((ST_CHOOSE,))
                streets.append((ST_DEAL, s.down, s.up, s.board))
            elif isinstance(s, BetStreet):
                check = s.check and not (o.pass_and_out and first_bet)
                open_pair = s.open_pair_big and o.open_pair_big_bet and name == "fixed_limit"
                streets.append((ST_BET, SIZE_CODES[s.size], FIRST_CODES[s.first], check,
                                open_pair, n_bets, s.check_raise))
                first_bet = False
                n_bets += 1
            elif isinstance(s, DrawStreet):
                by_players = tuple(sorted(s.max_if_players_at_most.items())
                                   ) if o.draw_more_when_few else ()
                most = s.max if o.draw_max is None else max(s.min, o.draw_max)
                streets.append((ST_DRAW, s.min, most, by_players, s.replace, s.burn))
            elif isinstance(s, ExposeStreet):
                streets.append((ST_EXPOSE, s.count, s.keep_down, s.mode == "simultaneous"))
            elif isinstance(s, DeclareStreet):
                streets.append((ST_DECLARE, s.mode == "simultaneous"))
            elif isinstance(s, KnockStreet):
                if o.knock_immediate is not None:
                    s = s.model_copy(update={"immediate": o.knock_immediate})
                streets.append((ST_KNOCK, s))
        self.streets = tuple(streets)
        mult = list(getattr(self.system, "round_multipliers", ()) or ())
        if name == "variable_limit" and not mult:
            mult = [1] * (n_bets - 1) + [2]  # default: the last round doubled
        self.round_multipliers = tuple(mult + [mult[-1] if mult else 1] * (n_bets - len(mult)))
        self.variable = name == "variable_limit"
        self.has_draw = any(s[0] in (ST_DRAW, ST_KNOCK) for s in self.streets)
        self.has_knock = any(s[0] == ST_KNOCK for s in self.streets)
        self.bring_in_rule = v.forced.bring_in
        self._forced_cache: dict[int, tuple[list[int], list[int]]] = {}
        self.key: str = game_key(v, name, self.options)


    # Forced bets --------------------------------------------------------------------
    def forced_by_position(self, n: int) -> tuple[list[int], list[int]]:
        """(antes, blinds) by position (0 = left of the button) for ``n`` players."""
        cached = self._forced_cache.get(n)
        if cached is not None:
            return cached
        o = self.options
        if o.antes is not None:
            if len(o.antes) != n:
                raise EngineError(f"antes: {len(o.antes)} amounts for {n} players")
            antes = list(o.antes)
        else:
            antes = [0] * n
            who = self.ante_by
            if who == "all":
                antes = [self.ante] * n
            elif who == "dealer":
                antes[n - 1] = self.ante
            elif who == "dealer_and_left":
                antes[n - 1] = antes[0] = self.ante
            elif who == "dealer_and_two_left":
                antes[n - 1] = antes[0] = self.ante
                if n > 2:
                    antes[1] = self.ante
            elif who == "big_blind":
                antes[1 if n > 2 else 0] = self.ante
        blinds = list(self.blinds[:n]) + [0] * max(0, n - len(self.blinds))
        if len(self.blinds) > n and any(self.blinds[n:]):
            raise EngineError(f"blinds: {len(self.blinds)} blinds for {n} players")
        if n == 2 and any(blinds) and o.antes is not None:
            antes = [antes[1], antes[0]]
        if n == 2 and any(blinds):
            blinds = [blinds[1], blinds[0]]
        out = (antes, blinds)
        self._forced_cache[n] = out
        return out

    def bet_size(self, size_code: int, round_no: int = 0) -> int:
        """Fixed-limit bet size of betting round ``round_no`` (``size_code``: 0 a small-bet
        street, 1 a big-bet street, 2 the ante). Variable limit: the *initial* limit times
        the round's multiplier (000_… «пределы для последнего круга ставок всегда вдвое
        превышают первоначальные пределы»)."""
        if size_code == 2:
            return max(self.ante, 1)
        if self.variable:
            return self.small_bet * self.round_multipliers[round_no]
        return self.big_bet if size_code == 1 else self.small_bet

    # Hands ----------------------------------------------------------------------------
    def new_hand(self, seed: int | np.random.Generator | None, seats: int | Sequence,
                 stacks: Sequence[int], button: int = 0, *, carry: int = 0, passes: int = 0):
        """Start a hand: forced bets are posted and cards dealt up to the first decision.

        ``seed`` is an int or a ``numpy.random.Generator`` (used as is); ``seats`` is the
        number of players (or a sequence of them); ``stacks[i]`` is seat ``i``'s chips;
        ``button`` is the seat of the button (the dealer). ``carry``: chips already in
        the pot from a deal nobody opened; ``passes``: how many deals in a row were not
        opened (progressive openers).
        """
        from pokerarena.engine.hand import Hand

        cls = Hand
        if self.has_knock:
            from pokerarena.engine.knock import KnockHand

            cls = KnockHand

        n = seats if isinstance(seats, int) else len(seats)
        lo, hi = self.variant.players
        if not lo <= n <= hi:
            raise EngineError(f"{self.variant.id} is for {lo} to {hi} players, not {n}")
        if len(stacks) != n:
            raise EngineError(f"stacks: {len(stacks)} stacks for {n} seats")
        if not 0 <= button < n:
            raise EngineError(f"button: seat {button} is not one of the {n} seats")
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        if carry < 0 or passes < 0:
            raise EngineError("carry and passes are 0 or more")
        return cls(self, rng, n, stacks, button, carry=carry, passes=passes)

    def describe(self) -> dict[str, Any]:
        """A JSON-friendly summary of the game (variant, betting, stakes)."""
        return {"variant": self.variant.id, "betting": self.system_name,
                "ante": self.ante, "blinds": list(self.blinds), "bring_in": self.bring_in,
                "small_bet": self.small_bet, "big_bet": self.big_bet,
                "min_bet": self.min_bet, "max_bet": self.max_bet}
