"""``Game``: a variant plus options (betting system, stakes, policies); deals hands.

>>> game = Game("holdem", {"betting": "no_limit"})
>>> hand = game.new_hand(seed=7, seats=6, stacks=[200] * 6, button=0)

The rules are compiled once into :attr:`Game.program` (:mod:`pokerarena.engine.program`);
the game's attributes read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import pokerarena.engine.knock  # noqa: F401  registers the knock family: a Game compiles it
from pokerarena.engine.actions import EngineError
from pokerarena.engine.hand import Hand
from pokerarena.engine.info import game_info
from pokerarena.engine.options import GameOptions
from pokerarena.engine.program import GameKey, Program, bet_size, compile_program, hand_class
from pokerarena.engine.steps import (
    SYS_AMOUNTS,
    SYS_FIXED,
    SYS_LASTBET,
    SYS_NO,
    SYS_POT,
    SYS_SPREAD,
)
from pokerarena.protocols import GameInfo
from pokerarena.rules import Showdown, Variant

__all__ = ["SYS_AMOUNTS", "SYS_FIXED", "SYS_LASTBET", "SYS_NO", "SYS_POT", "SYS_SPREAD",
           "Game", "GameOptions", "game_key", "parse_option_value"]


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
    """The canonical identity of a game as text (:class:`GameKey`)."""
    return GameKey.of(variant, system, options).text


class Game:
    """A variant with its options, compiled (:attr:`program`); :meth:`new_hand` starts a
    hand. ``key`` is the canonical key's text (``program.key``)."""

    def __init__(self, variant: Variant | str, options: GameOptions | dict | None = None):
        program = compile_program(variant, options)
        self.program: Program = program
        self.variant: Variant = program.variant
        self.options: GameOptions = program.options
        self.variant_id: str = program.variant.id
        self.system_name: str = program.system_name
        self.key: str = program.key.text
        self._hand_class: Any = hand_class(program.family)
        self._forced_cache: dict[int, tuple[list[int], list[int]]] = {}
        self._info: GameInfo | None = None

    # The program's rules, read through the game -------------------------------------
    @property
    def system(self) -> Any:
        return self.program.system

    @property
    def sys(self) -> int:
        return self.program.sys

    @property
    def small_bet(self) -> int:
        return self.program.small_bet

    @property
    def big_bet(self) -> int:
        return self.program.big_bet

    @property
    def min_bet(self) -> int:
        return self.program.min_bet

    @property
    def max_bet(self) -> int:
        return self.program.max_bet

    @property
    def ante(self) -> int:
        return self.program.ante

    @property
    def bring_in(self) -> int:
        return self.program.bring_in

    @property
    def blinds(self) -> tuple[int, ...]:
        return self.program.blinds

    @property
    def ante_by(self) -> str:
        return self.program.ante_by

    @property
    def live_ante(self) -> bool:
        return self.program.live_ante

    @property
    def amounts(self) -> tuple[int, ...]:
        return self.program.amounts

    @property
    def open_min(self) -> int:
        return self.program.open_min

    @property
    def bring_in_rule(self) -> str:
        return self.program.bring_in_rule

    @property
    def max_raises(self) -> int | None:
        return self.program.max_raises

    @property
    def heads_up_max_raises(self) -> int | None:
        return self.program.heads_up_max_raises

    @property
    def max_raises_per_player(self) -> int | None:
        return self.program.max_raises_per_player

    @property
    def plain_raises(self) -> bool:
        return self.program.plain_raises

    @property
    def fast_raises(self) -> bool:
        return self.program.fast_raises

    @property
    def reset_each_round(self) -> bool:
        return self.program.reset_each_round

    @property
    def variable(self) -> bool:
        return self.program.variable

    @property
    def round_multipliers(self) -> tuple[int, ...]:
        return self.program.round_multipliers

    @property
    def cumulative_reopen(self) -> bool:
        return self.program.cumulative_reopen

    @property
    def half_bet_reopens(self) -> bool:
        return self.program.half_bet_reopens

    @property
    def freeze_multiple(self) -> int:
        return self.program.freeze_multiple

    @property
    def jackpot(self) -> bool:
        return self.program.jackpot

    @property
    def free_fold(self) -> bool:
        return self.program.free_fold

    @property
    def void_if_all_check(self) -> bool:
        return self.program.void_if_all_check

    @property
    def openers(self) -> str:
        return self.program.openers

    @property
    def house(self) -> bool:
        return self.program.house

    @property
    def manual_deal(self) -> bool:
        return self.program.manual_deal

    @property
    def manual_show(self) -> bool:
        return self.program.manual_show

    @property
    def odd_chip(self) -> str:
        return self.program.odd_chip

    @property
    def ante_trimming(self) -> bool:
        return self.program.ante_trimming

    @property
    def phh_compat(self) -> bool:
        return self.program.phh_compat

    @property
    def rake_percent(self) -> Any:
        return self.program.rake_percent

    @property
    def rake_cap(self) -> int | None:
        return self.program.rake_cap

    @property
    def rake_showdown_only(self) -> bool:
        return self.program.rake_showdown_only

    @property
    def kitty_unit(self) -> int:
        return self.program.kitty_unit

    @property
    def bonus(self) -> str:
        return self.program.bonus

    @property
    def bonus_multiplier(self) -> int:
        return self.program.bonus_multiplier

    @property
    def deck_cards(self) -> Any:
        return self.program.deck_cards

    @property
    def deck_list(self) -> list[int]:
        return self.program.deck_list

    @property
    def showdown(self) -> Showdown:
        return self.program.showdown

    @property
    def scorer(self) -> Any:
        return self.program.scorer

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
        """Fixed-limit bet size of betting round ``round_no`` (``size_code``: SIZE_*)."""
        return bet_size(self.program, size_code, round_no)

    # Hands ----------------------------------------------------------------------------
    @property
    def info(self) -> GameInfo:
        """What the game is (:class:`~pokerarena.protocols.GameInfo`), for the tools that
        walk, bound or adapt it."""
        if self._info is None:
            self._info = game_info(self.program)
        return self._info

    def new_hand(self, seed: int | np.random.Generator | None, seats: int | Sequence,
                 stacks: Sequence[int] | None = None, button: int = 0, *, carry: int = 0,
                 passes: int = 0) -> Hand:
        """Start a hand: forced bets are posted and cards dealt up to the first decision.

        ``seed`` is an int or a ``numpy.random.Generator`` (used as is); ``seats`` is the
        number of players (or a sequence of them); ``stacks[i]`` is seat ``i``'s chips
        (none given: the variant's stack each, the protocol's default); ``button`` is the
        seat of the button (the dealer). ``carry``: chips already in the pot from a deal
        nobody opened; ``passes``: how many deals in a row were not opened (progressive
        openers).
        """
        n = seats if isinstance(seats, int) else len(seats)
        lo, hi = self.variant.players
        if not lo <= n <= hi:
            raise EngineError(f"{self.variant.id} is for {lo} to {hi} players, not {n}")
        if stacks is None:
            stacks = [self.variant.stakes.stack] * n
        if len(stacks) != n:
            raise EngineError(f"stacks: {len(stacks)} stacks for {n} seats")
        if not 0 <= button < n:
            raise EngineError(f"button: seat {button} is not one of the {n} seats")
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        if carry < 0 or passes < 0:
            raise EngineError("carry and passes are 0 or more")
        return self._hand_class(self, rng, n, stacks, button, carry=carry, passes=passes)

    def describe(self) -> dict[str, Any]:
        """A JSON-friendly summary of the game (variant, betting, stakes)."""
        return {"variant": self.variant.id, "betting": self.system_name,
                "ante": self.ante, "blinds": list(self.blinds), "bring_in": self.bring_in,
                "small_bet": self.small_bet, "big_bet": self.big_bet,
                "min_bet": self.min_bet, "max_bet": self.max_bet}
