"""``Table``: a table across hands, carrying the state of session-level rules.

A hand is a pure function of its inputs; what lives *between* hands is here: the seats'
chips, the button, a pot left by a deal nobody opened (openers) and how many deals in a
row were passed (progressive openers, optionally with doubled limits until someone
opens), the kitty (RULES.md §2), wangdoodle (after a flush or better is shown the limits
double for the next deal, or for the next round of deals), jackpot (when everyone folds
to the opener, the next deal is a jackpot: the *other* players ante one unit bet of the
previous deal each, and for that deal the maximum bet or raise is the pot as it stands
before the deal, the minimum the usual limit) and the two session modes:
``cash`` (every hand starts from the buy-in; nets accumulate) and ``freeze_out`` (equal
chips, no rebuys: stacks carry over and a seat without chips is out until one seat holds
everything).

Chips are conserved: stacks (cash: buy-ins + nets) + carried pot + kitty + rake equal the
buy-ins at every moment between hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from pokerarena.engine.actions import EngineError
from pokerarena.engine.game import Game
from pokerarena.engine.hand import Hand


class Table:
    """Seats, stacks and session rules around a :class:`Game`.

    ``table.new_hand()`` deals the next hand to the seats still playing;
    ``table.finish(hand)`` books its result; ``table.close()`` shares out the kitty.
    """

    def __init__(self, game: Game, stacks: Sequence[int], *,
                 seed: int | np.random.Generator | None = None, button: int = 0,
                 mode: Literal["cash", "freeze_out"] = "cash", wangdoodle: bool = False,
                 jackpot: bool = False, wangdoodle_round: bool = False,
                 progressive_double: bool = False):
        if mode not in ("cash", "freeze_out"):
            raise EngineError(f"mode: 'cash' or 'freeze_out', not {mode!r}")
        n = len(stacks)
        if n < 2:
            raise EngineError("a table needs at least two seats")
        if not 0 <= button < n:
            raise EngineError(f"button: seat {button} is not one of the {n} seats")
        self.game = game
        self.mode = mode
        self.wangdoodle = wangdoodle
        self.jackpot = jackpot
        self.jackpot_next = False
        self.jackpot_winner = -1
        self.wangdoodle_round = wangdoodle_round
        self.progressive_double = progressive_double
        self.doubled_left = 0  # deals still to play with doubled limits (wangdoodle)
        self.rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        self.buy_in = [int(s) for s in stacks]
        # (chips may turn fractional under the odd_chip="fractional" option)
        self.stacks: list[Any] = list(self.buy_in)
        self.net: list[Any] = [0] * n
        self.button = button
        self.carry = 0
        self.passes = 0
        self.kitty = 0
        self.rake = 0
        self.hands = 0
        self.doubled_next = False
        self._doubled: Game | None = None
        self._jackpot_games: dict[tuple[str, int, int], Game] = {}
        self._seats: list[int] = []

    @property
    def n(self) -> int:
        """Number of seats."""
        return len(self.buy_in)

    def playing(self) -> list[int]:
        """Seats dealt into the next hand (freeze-out: those with chips)."""
        if self.mode == "cash":
            return list(range(self.n))
        return [s for s in range(self.n) if self.stacks[s] > 0]

    @property
    def is_over(self) -> bool:
        """Freeze-out: one seat holds every chip."""
        return self.mode == "freeze_out" and len(self.playing()) < 2

    def _doubled_game(self) -> Game:
        if self._doubled is None:
            g = self.game
            # The limits double, not the ante (000_… «обычные или начальные пределы
            # удваиваются»); blinds and bring-in follow the limits.
            update: dict[str, Any] = {
                "small_bet": 2 * g.small_bet, "big_bet": 2 * g.big_bet,
                "min_bet": 2 * g.min_bet, "max_bet": 2 * g.max_bet, "ante": g.ante}
            self._doubled = Game(g.variant, g.options.model_copy(update=update))
        return self._doubled

    def _jackpot_game(self, base: Game, n: int, winner_pos: int) -> Game:
        """The jackpot deal after everyone folded to the opener (000_… «Джекпот»): «другие
        игроки должны каждый внести «предварительную ставку» в банк в размере единичной
        ставки предыдущей игры» (the unit bet: the small bet, or the minimum bet), and
        «Новым максимумом (только для этой игры) является общая сумма, находящаяся теперь
        в банке перед началом игры ... Минимальным является обычный предел»."""
        key = (base.key, n, winner_pos)
        game = self._jackpot_games.get(key)
        if game is None:
            unit = base.small_bet if base.system_name in ("fixed_limit", "variable_limit") \
                else base.min_bet
            antes = [0 if p == winner_pos else unit for p in range(n)]
            if n == 2 and any(base.blinds):
                antes = [antes[1], antes[0]]  # back to PHH role order
            update: dict[str, Any] = {"antes": tuple(antes), "jackpot": True}
            game = Game(base.variant, base.options.model_copy(update=update))
            self._jackpot_games[key] = game
        return game

    def new_hand(self) -> Hand:
        """Deal the next hand; its seat ``i`` is table seat ``self.hand_seats[i]``."""
        seats = self.playing()
        if len(seats) < 2:
            raise EngineError("the table has fewer than two seats with chips")
        while self.button not in seats:
            self.button = (self.button + 1) % self.n
        doubled = self.doubled_next or self.doubled_left > 0 or (
            self.progressive_double and self.passes > 0)
        game = self._doubled_game() if doubled else self.game
        if self.jackpot_next:
            n, b = len(seats), seats.index(self.button)
            w = seats.index(self.jackpot_winner) if self.jackpot_winner in seats else -1
            game = self._jackpot_game(game, n, (w - b - 1) % n if w >= 0 else -1)
        stacks = [self.buy_in[s] if self.mode == "cash" else self.stacks[s] for s in seats]
        self._seats = seats
        return game.new_hand(self.rng, len(seats), stacks, seats.index(self.button),
                             carry=self.carry, passes=self.passes)

    @property
    def hand_seats(self) -> list[int]:
        """Table seats of the seats of the last hand dealt."""
        return list(self._seats)

    def finish(self, hand: Hand) -> None:
        """Book a finished hand: nets, stacks, carried pot, kitty, rake, wangdoodle."""
        res = hand.result()
        for i, s in enumerate(self._seats):
            self.net[s] += res.deltas[i]
            if self.mode == "freeze_out":
                self.stacks[s] = res.stacks[i]
        self.carry = res.carry
        self.passes = self.passes + 1 if res.passed else 0
        self.kitty += res.kitty
        self.rake += res.rake
        self.hands += 1
        if self.doubled_left > 0:
            self.doubled_left -= 1
        self.doubled_next = self.wangdoodle and self._flush_or_better(hand)
        if self.doubled_next and self.wangdoodle_round:
            # «специальные пределы действуют в течение следующего раунда игры, например,
            # на одну сдачу каждым игроком»
            self.doubled_left = len(self.playing())
            self.doubled_next = False
        self.jackpot_next = (self.jackpot and not res.went_to_showdown and not res.passed
                             and hand.opener >= 0 and hand.live == 1
                             and not hand.folded[hand.opener])
        if self.jackpot_next:
            self.jackpot_winner = self._seats[hand.seat_of[hand.opener]]
        seats = self.playing()
        nxt = (self.button + 1) % self.n
        while seats and nxt not in seats:
            nxt = (nxt + 1) % self.n
        self.button = nxt

    def _flush_or_better(self, hand: Hand) -> bool:
        """A flush or better was shown down (000_… «После появления любого очень хорошего
        расклада (например, флеша и выше)»: any hand shown, not only the winner's)."""
        res = hand.result()
        if not res.went_to_showdown:
            return False
        threshold = hand.game.scorer.bonus_threshold("flush")
        if threshold is None:
            return False
        return any(raw[1] is not None and raw[1] >= threshold
                   for raw in res.showdown_raw.values())

    def close(self) -> list[int]:
        """Share the kitty among the seats still playing (odd chips from the button's
        left); returns each seat's share."""
        seats = self.playing()
        shares = [0] * self.n
        if self.kitty and seats:
            each, rem = divmod(self.kitty, len(seats))
            order = sorted(seats, key=lambda s: (s - self.button - 1) % self.n)
            for i, s in enumerate(order):
                shares[s] = each + (1 if i < rem else 0)
                self.net[s] += shares[s]
                if self.mode == "freeze_out":
                    self.stacks[s] += shares[s]
            self.kitty = 0
        return shares

    def chips_conserved(self) -> bool:
        """Stacks (cash: buy-ins + nets) + carried pot + kitty + rake = the buy-ins."""
        held = (sum(self.stacks) if self.mode == "freeze_out"
                else sum(self.buy_in) + sum(self.net))
        return held + self.carry + self.kitty + self.rake == sum(self.buy_in)
