"""The state of one hand: every attribute, the public read-only accessors, and the
hooks the phases call across files (overridden further down the chain: see
:mod:`pokerarena.engine.hand`)."""

from __future__ import annotations

from typing import Any

from pokerarena.engine.actions import (
    DEALER,
    Action,
    EngineError,
    Legal,
)
from pokerarena.engine.hand.common import (
    PH_BET,
    PH_NONE,
    PHASE_NAMES,
    _new_tuple,
    mypyc_attr,
)
from pokerarena.engine.hand.results import HandResult
from pokerarena.engine.program import Program


@mypyc_attr(allow_interpreted_subclasses=True)
class HandState:
    """The attributes of a hand (by position: 0 is left of the button) and its accessors."""

    def __init__(self, game: Any, rng: Any, n: int, stacks: Any, button: int, *,
                 carry: int = 0, passes: int = 0) -> None:
        g = game.program
        self.game = game  # the Game (its program: ``prog``)
        self.prog: Program = g
        self.rng = rng
        self.n = n
        self.button = button
        self.seat_of = [(button + 1 + p) % n for p in range(n)]
        self.pos_of = [0] * n
        for p, s in enumerate(self.seat_of):
            self.pos_of[s] = p
        start = _start_stacks(stacks, self.seat_of)
        self.start = start
        self.stack: list[Any] = list(start)  # chips may turn fractional (odd_chip option)
        self.bets = [0] * n
        self.committed = [0] * n
        self.antes = [0] * n
        self.folded = [False] * n
        self.mucked = [False] * n
        self.shown = [False] * n
        self.hole: list[list[int]] = [[] for _ in range(n)]
        self.isup: list[list[bool]] = [[] for _ in range(n)]
        self.board: list[int] = []
        self.muck_pile: list[int] = []
        self.seen: set[int] = set()
        self.log: list[tuple[int, Action]] = []
        self.manual = g.manual_deal
        if self.manual:
            self.stock: list[int] = []
        else:
            self.stock = rng.permutation(g.deck_cards).tolist()
        self.live = n
        self.si = -1
        self.phase = PH_NONE
        self.actor = -1  # position to act; -1: the dealer (manual dealing) or nobody
        self._init_round_state(n)
        self.over = False
        self.rake = 0
        self.kitty = 0
        self.hand_raises = 0
        self.dead = carry      # chips in the pot that are nobody's bet (carried pot, remedies)
        self.carry_in = carry
        self.passes = passes
        self.opener = -1       # who opened the first betting round
        self.bet_rounds = 0    # betting rounds played so far
        self.need_openers = False
        self.openers_rank = -1       # the openers this deal needed (-1: none)
        self.choose_down: list[bool] | None = None  # up card asked for down, by position
        self.split_openers: dict[int, tuple[int, ...]] = {}  # seat -> declared split cards
        self.passed = False
        self.raises_by = [0] * n
        self.short_open = False
        self.frozen = False
        self.checked = [False] * n
        self.check_raise_ok = True
        self.declared = [0] * n      # high-low declarations: 1 high, 2 low, 3 both
        self.turn_done = [False] * n
        self.turn_start = -1         # log index where a simultaneous expose/declare began
        self.simultaneous = False
        self.expose_count = self.expose_keep = 0
        self.lb_open = game.max_bet  # last-bet limit: the most a round's first bet may be
        self.irregularities: list[tuple[int, str, str]] = []
        self.protected: dict[int, Any] = {}  # position -> chips set aside (protection)
        self._result: HandResult | None = None
        self.went_to_showdown = False
        self.acted_at = [0] * n      # the bet each player last acted at (reopening)
        self.pending: dict[int, int] = {}  # house: chips bet out of turn, by position
        self._post_forced_bets(game)
        self._legal: Legal | None = None
        self._advance()

    def _init_round_state(self, n: int) -> None:
        """The state of betting rounds, draws and manual deals before the first one."""
        self.cur = 0
        self.min_raise = 0
        self.nraises = 0
        self.bet_sz = 0
        self.bet_sz_ante = False  # this round's bet size is the ante (lowball)
        self.need = [False] * n
        self.can_raise = [True] * n
        self.top = -1          # position that made the current highest bet
        self.called = -1       # position that was called in the last round with a bet
        self.bring_in_pos = -1
        self.bring_in_pending = False
        self.aggressor = -1    # last full bet/raise of the round
        self.check_ok = True
        self.open_pair = False
        self.show_first = 0    # who shows first at the showdown
        # draw state
        self.drawn = [False] * n
        self.owed = [0] * n
        self.thrown: list[tuple[int, ...]] = [()] * n
        self.draw_min = 0
        self.draw_max = 0
        self.draw_replace = True
        # manual dealing state
        self.owe_down = [0] * n
        self.owe_up = [0] * n
        self.owe_board = 0

    def _post_forced_bets(self, game: Any) -> None:
        """Antes (live or dead) and blinds go in, each what the player has at most."""
        n, g = self.n, self.prog
        antes, blinds = game.forced_by_position(n)
        stack, committed = self.stack, self.committed
        live_ante = g.live_ante
        for p in range(n):
            a = antes[p]
            if a:
                a = min(a, stack[p])
                stack[p] -= a
                committed[p] += a
                if live_ante:  # a live ante is the player's bet in the first round
                    self.bets[p] += a
                else:
                    self.antes[p] = a
                self.log.append((self.seat_of[p], _new_tuple(Action, ("ante", a, (), -1, 0))))
        self._antes = antes
        for p in range(n):
            b = blinds[p]
            if b:
                b = min(b, stack[p])
                stack[p] -= b
                committed[p] += b
                self.bets[p] = b
                self.log.append((self.seat_of[p], _new_tuple(Action, ("blind", b, (), -1, 0))))
        self._blinds = blinds
        # Jackpot (RULES.md §2): the maximum bet or raise is the pot before the deal.
        self.jackpot_max = sum(committed) + self.dead if g.jackpot else 0

    # ------------------------------------------------------------------ public API
    @property
    def is_over(self) -> bool:
        """True once the pots have been awarded."""
        return self.over

    @property
    def to_act(self) -> int | None:
        """Seat to act, ``DEALER`` (-1) when a manual deal is owed, None when over."""
        if self.over:
            return None
        if self.actor < 0:
            return DEALER
        return self.seat_of[self.actor]

    @property
    def phase_name(self) -> str:
        """``bet``, ``draw``, ``deal`` (manual), ``showdown`` (manual) or ``over``."""
        return PHASE_NAMES[self.phase]

    def to_call(self, seat: int) -> int:
        """Chips ``seat`` must add to call (0 outside a betting round)."""
        if self.phase != PH_BET:
            return 0
        to_call = self.cur - self.bets[self.pos_of[seat]]
        return to_call if to_call > 0 else 0

    def showdown_order(self) -> list[int]:
        """Positions (0: left of the button) of the players still in, in the order they
        show down."""
        n = self.n
        start = self.show_first
        return [(start + i) % n for i in range(n) if not self.folded[(start + i) % n]]

    def stacks(self) -> list[int]:
        """Chips behind, by seat."""
        out = [0] * self.n
        for p in range(self.n):
            out[self.seat_of[p]] = self.stack[p]
        return out

    def pot_total(self) -> int:
        """All chips committed so far (this round's bets included)."""
        return sum(self.committed) + self.dead

    def cards_of(self, seat: int) -> list[int]:
        """The seat's cards (down and up), in the order dealt."""
        return list(self.hole[self.pos_of[seat]])


    def _unprotect(self) -> None:
        """Give protected seats back the chips set aside (at settlement)."""
        if self.protected:
            for p, chips in self.protected.items():
                self.stack[p] += chips
            self.protected = {}

    def result(self) -> HandResult:
        """The outcome; only once the hand is over."""
        if self._result is None:
            raise EngineError("the hand is not over yet")
        return self._result

    # Hooks: defined by the later classes of the chain (Hand's phases) -----------------
    def legal_actions(self) -> Legal:
        """What the seat (or dealer) to act may do, with amount ranges."""
        raise NotImplementedError

    def _advance(self) -> None:
        raise NotImplementedError

    def _settle(self) -> None:
        raise NotImplementedError

    def _continue_draw(self) -> None:
        raise NotImplementedError

    def _apply_pending(self, p: int, action: Action) -> None:
        raise NotImplementedError

    def _legal_pending(self, p: int, chips: int) -> Legal:
        raise NotImplementedError

    def _house_fix(self, p: int, action: Action, legal: Legal) -> Action:
        raise NotImplementedError


def _start_stacks(stacks: Any, seat_of: list[int]) -> list[int]:
    """The players' chips by position, checked: whole chips, none negative."""
    start = []
    for p in range(len(seat_of)):
        s = stacks[seat_of[p]]
        if type(s) is not int or s < 0:
            if s != int(s) or s < 0:
                raise EngineError(f"stacks: seat {seat_of[p]} has {s!r} chips")
            s = int(s)
        start.append(s)
    return start
