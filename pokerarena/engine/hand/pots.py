"""Settlement: pots and side pots, rake and kitty, splits and odd chips, bonuses."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pokerarena.engine.actions import (
    UNKNOWN,
    Action,
    EngineError,
)
from pokerarena.engine.hand.common import (
    PH_OVER,
    mypyc_attr,
)
from pokerarena.engine.hand.results import HandResult, Pot
from pokerarena.engine.hand.rounds import RoundsHand
from pokerarena.engine.hand.rules import (
    _best,
)
from pokerarena.engine.scoring import positional_wilds
from pokerarena.engine.steps import (
    SYS_AMOUNTS,
    SYS_LASTBET,
    SYS_SPREAD,
)
from pokerarena.evaluator.lookup import high_with_board as _high_with_board


@mypyc_attr(allow_interpreted_subclasses=True)
class SettlingHand(RoundsHand):
    """Awards the pots."""

    def _settle_passed(self) -> None:
        """Nobody opened: the pot (antes and any carried pot) waits for the next deal."""
        self._unprotect()
        n = self.n
        self.phase = PH_OVER
        self.actor = -1
        carry = sum(self.committed) + self.dead
        stacks: list[Any] = [0] * n
        deltas: list[Any] = [0] * n
        for p in range(n):
            stacks[self.seat_of[p]] = self.stack[p]
            deltas[self.seat_of[p]] = self.stack[p] - self.start[p]
        self.committed = [0] * n
        self.bets = [0] * n
        self.dead = 0
        self.over = True
        self._result = HandResult(deltas, stacks, [], {}, passed=True, carry=carry)

    def _declared_winners(self, claim: list[int],
                          values: dict) -> tuple[list[int] | None, list[int] | None]:
        """High and low winners after a declaration: each half among those who declared
        it; a player who declared both and fails to win or tie either gets nothing."""
        decl = self.declared
        contenders = list(claim)
        while True:
            hi_c = [p for p in contenders if decl[p] & 1]
            lo_c = [p for p in contenders if decl[p] & 2]
            highs, _ = _best(hi_c, values, True, False)
            _, lows = _best(lo_c, values, False, True)
            losers = [p for p in contenders if decl[p] == 3
                      and (p not in (highs or ()) or p not in (lows or ()))]
            if not losers:
                break
            contenders = [p for p in contenders if p not in losers]
        if not highs and not lows:  # everyone who declared both failed: cards speak high
            highs, _ = _best(claim, values, True, False)
        return highs, lows

    def _pay_bonuses(self, values: dict) -> dict[int, int]:
        """RULES.md §2 ``bonus``: a hand shown down at or above the bonus hand is paid
        ``bonus_multiplier`` x the big bet by every other player (what they have left)."""
        g = self.prog
        threshold = g.scorer.bonus_threshold(g.bonus)
        if threshold is None:
            return {}
        # «в три — пять раз превышающей максимальную ставку»: the maximum bet is the big
        # bet in fixed limit; the agreed maximum in spread, fixed-amount and last-bet
        # limits; no limit and pot limit have none, so the big bet stands in.
        top = g.max_bet if g.sys in (SYS_SPREAD, SYS_AMOUNTS, SYS_LASTBET) else g.big_bet
        amount = g.bonus_multiplier * top
        paid: dict[int, int] = {}
        for p, (hv, _lv) in values.items():
            if hv is None or hv < threshold:
                continue
            for q in range(self.n):
                if q != p:
                    pay = min(amount, self.stack[q])
                    self.stack[q] -= pay
                    self.stack[p] += pay
                    paid[p] = paid.get(p, 0) + pay
            self.log.append((self.seat_of[p], Action("bonus", paid.get(p, 0))))
        return paid

    def _priority(self) -> list[int]:
        n = self.n
        order = list(range(n))
        if self.prog.odd_chip == "called" and self.called >= 0:
            order.remove(self.called)
            order.insert(0, self.called)
        return order

    def _split(self, amount: int, winners: list[int], prio: list[int] | None,
               got: dict[int, Any]) -> None:
        k = len(winners)
        if k == 1:
            p = winners[0]
            got[p] = got.get(p, 0) + amount
            return
        if self.prog.odd_chip == "fractional" and amount % k:
            part = Fraction(amount, k)
            for p in winners:
                got[p] = got.get(p, 0) + part
            return
        share, rem = divmod(amount, k)
        ordered = sorted(winners, key=(prio or self._priority()).index)
        for i, p in enumerate(ordered):
            got[p] = got.get(p, 0) + share + (1 if i < rem else 0)

    def _final_stacks(self) -> tuple[list[Any], list[Any]]:
        """(stacks, deltas) by seat once the pots are paid (whole fractions made ints)."""
        n, g = self.n, self.prog
        stacks: list[Any] = [0] * n
        deltas: list[Any] = [0] * n
        fractional = g.odd_chip == "fractional"
        seat_of, stack, start = self.seat_of, self.stack, self.start
        for p in range(n):
            s = seat_of[p]
            st = stack[p]
            if fractional and isinstance(st, Fraction) and st.denominator == 1:
                st = int(st)
                stack[p] = st
            stacks[s] = st
            deltas[s] = st - start[p]
        return stacks, deltas

    def _contributions(self) -> tuple[list[int], int]:
        """(what each position put in the pots, the dead chips): uncalled chips go back
        to their owner; without ante trimming the antes are dead chips."""
        n = self.n
        contrib = list(self.committed)
        dead = self.dead
        if not self.prog.ante_trimming:
            for p in range(n):
                contrib[p] -= self.antes[p]
                dead += self.antes[p]
        srt = sorted(contrib)
        top_amt, second = srt[-1], (srt[-2] if n > 1 else 0)
        if top_amt > second:
            p = contrib.index(top_amt)
            self.stack[p] += top_amt - second
            contrib[p] = second
        return contrib, dead

    def _settle(self) -> None:
        self._unprotect()
        n = self.n
        self.phase = PH_OVER
        self.actor = -1
        contrib, dead = self._contributions()
        alive = [p for p in range(n) if not self.folded[p]]
        pots = build_pots(contrib, alive, dead)
        g = self.prog
        rake = self.rake = (take_rake(pots, g.rake_percent, g.rake_cap) if g.rake_percent and (
            self.went_to_showdown or not g.rake_showdown_only) else 0)
        kitty = 0
        if g.kitty_unit and self.hand_raises > 1 and pots:  # a unit from a pot with 2+ raises
            kitty = min(g.kitty_unit, pots[0].amount)
            pots[0].amount -= kitty
        self.kitty = kitty
        values: dict[int, tuple[Any, Any]] = {}
        wilds: dict[int, tuple[int, ...] | None] = {}
        prio: list[int] | None = None  # the odd-chip order, found when a split needs it
        scorer = g.scorer
        board = self.board
        # Plain high hands of 5-7 known cards: the evaluator's table lookup directly
        # (the same value Scorer.high gives).
        fast = scorer._fast if scorer._fast is not False else scorer._fast_tables()
        plain = (fast is not None and not scorer.omaha and scorer._low_name is None
                 and (not board or max(board) < 52))  # no unknown card or joker on board
        board_key = -1
        for pot in pots:
            elig = pot.eligible
            claim = [p for p in elig if not self.mucked[p]] or elig
            got: dict[int, Any] = {}
            if len(claim) == 1:
                got[claim[0]] = pot.amount
            else:
                for p in claim:
                    if p not in values:
                        hole = self.hole[p]
                        if (plain and 5 <= len(hole) + len(board) <= 7 and hole
                                and max(hole) < 52):
                            if board_key < 0:
                                ck = fast.card_keys
                                board_key = sum([ck[c] for c in board])
                            wilds[p] = None
                            values[p] = (_high_with_board(hole, board_key, board, fast), None)
                            continue
                        if UNKNOWN in hole or UNKNOWN in board:
                            raise EngineError(f"showdown: the cards of seat {self.seat_of[p]} "
                                              "are not known")
                        wild = (positional_wilds(scorer.spec.wild, hole, self.isup[p],
                                                 board) if scorer.positional else None)
                        wilds[p] = wild
                        values[p] = (scorer.high(hole, board, wild),
                                     scorer.low(hole, board, wild))
                if any(self.declared):
                    highs, lows = self._declared_winners(claim, values)
                else:
                    highs, lows = _best(claim, values, scorer.spec.high is not None,
                                        scorer.spec.low is not None)
                if highs and lows:
                    low_amt = pot.amount // 2
                    self._split(pot.amount - low_amt, highs, prio, got)
                    self._split(low_amt, lows, prio, got)
                else:
                    self._split(pot.amount, highs or lows or claim, prio, got)
            for p, v in got.items():
                self.stack[p] += v
            pot.winners = {self.seat_of[p]: v for p, v in got.items()}
            pot.eligible = [self.seat_of[p] for p in elig]
        bonuses = self._pay_bonuses(values) if g.bonus != "none" and values else {}
        showdown_info = {self.seat_of[p]: (tuple(self.hole[p]), hv, lv, wilds.get(p))
                         for p, (hv, lv) in values.items()}  # described when read
        stacks, deltas = self._final_stacks()
        self.committed = [0] * n
        self.bets = [0] * n
        self.over = True
        self._result = HandResult(deltas, stacks, pots, showdown_info, rake=rake,
                                  went_to_showdown=self.went_to_showdown and len(alive) > 1,
                                  scorer=scorer, kitty=kitty,
                                  bonuses={self.seat_of[p]: v for p, v in bonuses.items()})


def build_pots(contrib: list[int], alive: list[int], dead: int) -> list[Pot]:
    """The main pot and the side pots from what each position put in (``contrib``,
    uncalled chips already returned), who is still in and the dead chips (nobody's bet:
    they go to the main pot)."""
    pots: list[Pot] = []
    levels = sorted({contrib[p] for p in alive})
    if len(levels) == 1:  # no side pots: everything (and the dead chips) in one pot
        amount = sum(contrib) + dead
        if amount:
            pots.append(Pot(amount, list(alive), kind="main"))
        levels = []
    prev = 0
    for i, level in enumerate(levels):
        amount = sum(min(c, level) - min(c, prev) for c in contrib)
        if i == len(levels) - 1:
            amount += sum(max(0, c - level) for c in contrib)
        if i == 0:
            amount += dead
        elig = [p for p in alive if contrib[p] >= level]
        prev = level
        if amount:
            pots.append(Pot(amount, elig, kind="main" if not pots else "side"))
    if not pots and dead:
        pots.append(Pot(dead, alive))
    return pots


def take_rake(pots: list[Pot], percent: Any, cap: int | None) -> int:
    """Take ``percent`` of the pots (rounded down, at most ``cap``) from the main pot
    first; returns the rake."""
    total = sum(pot.amount for pot in pots)
    rake = int(total * percent / 100)
    if cap is not None:
        rake = min(rake, cap)
    left = rake
    for pot in pots:
        take = min(left, pot.amount)
        pot.amount -= take
        left -= take
    return rake
