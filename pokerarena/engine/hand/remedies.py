"""House remedies (003_… «Нарушение правил»): actions out of turn, chips bet out of
turn, bad bet amounts."""

from __future__ import annotations

from pokerarena.engine.actions import (
    CALL_KIND,
    FOLD_KIND,
    RAISE_KIND,
    Action,
    IllegalAction,
    Legal,
)
from pokerarena.engine.hand.betting import BettingHand
from pokerarena.engine.hand.common import (
    _C,
    _FC,
    PH_BET,
    mypyc_attr,
)


@mypyc_attr(allow_interpreted_subclasses=True)
class RemediesHand(BettingHand):
    """Irregularities under the house rules (option ``irregularities = "house"``)."""

    def _out_of_turn(self, p: int, action: Action) -> None:
        """House remedies for an action out of turn (003_… «Нарушение правил»): a fold
        kills the hand («карты нарушителя выходят из игры»); chips bet stay in the pot
        and bind the player when his turn comes («поставленные им фишки остаются в
        банке»); anything else is ignored."""
        seat = self.seat_of[p]
        kind = action.kind
        if self.phase == PH_BET and not self.folded[p] and kind == FOLD_KIND:
            self.irregularities.append((seat, "f out of turn", "hand killed"))
            self._fold(p)
            return
        if (self.phase == PH_BET and not self.folded[p] and kind == RAISE_KIND
                and self.need[p] and self.stack[p] > 0):
            try:
                to = int(action.amount)
            except (TypeError, ValueError):
                raise IllegalAction(f"seat {seat}: bet amount {action.amount!r} is not a "
                                    "number") from None
            chips = min(max(0, to - self.bets[p] - self.pending.get(p, 0)), self.stack[p])
            if chips <= 0:
                raise IllegalAction(f"seat {seat}: a bet out of turn to {to} puts in no chips")
            self.stack[p] -= chips
            self.dead += chips
            self.pending[p] = self.pending.get(p, 0) + chips
            self.log.append((seat, Action("oot", chips)))
            self.irregularities.append((seat, f"cbr {to} out of turn",
                                        f"{chips} in the pot, binding at his turn"))
            return
        self.irregularities.append((seat, f"{kind} out of turn", "ignored"))

    def _pending_action(self, p: int, chips: int) -> tuple[Action, int] | None:
        """What chips bet out of turn count as at the player's turn: (action, chips of
        them that go to the pot); None when they do not reach a call (he completes the
        call or folds, forfeiting them). 003_…: «В случае перебора фишек, требуемых для
        повторения, считают, что нарушитель повысил ставку на излишек»; with no bet
        before him «поставленные им фишки расценивают в качестве ставки и любое
        количество фишек сверх установленного предела конфискуют в банк»."""
        cur = self.cur
        total = self.bets[p] + chips
        if total < cur:
            return None
        if total == cur:
            return Action(CALL_KIND), 0
        lo, hi, choices = self._raise_range(p)
        if not hi or total < lo:
            return Action(CALL_KIND), total - cur  # not a raise: a call, the rest to the pot
        top = max([c for c in choices if c <= total] or [lo]) if choices else min(total, hi)
        return Action(RAISE_KIND, top), total - top

    def _legal_pending(self, p: int, chips: int) -> Legal:
        fixed = self._pending_action(p, chips)
        if fixed is None:
            call = min(self.cur - self.bets[p] - chips, self.stack[p])
            return Legal(_FC, call=call)
        act, _extra = fixed
        if act.kind == RAISE_KIND:
            return Legal((RAISE_KIND,), min_to=act.amount, max_to=act.amount)
        return Legal(_C)

    def _apply_pending(self, p: int, action: Action) -> None:
        """The player's turn after chips he bet out of turn: they bind him."""
        chips = self.pending[p]
        fixed = self._pending_action(p, chips)
        seat = self.seat_of[p]
        if fixed is None:
            if action.kind not in _FC:
                raise IllegalAction(f"seat {seat} bet {chips} out of turn, short of a call: "
                                    "complete the call (cc) or fold (f)")
            del self.pending[p]
            if action.kind == CALL_KIND:
                self.dead -= chips
                self.stack[p] += chips
            self._legal = None
            self._apply_bet(p, action)  # a fold forfeits the chips (they stay in the pot)
            return
        act, extra = fixed
        del self.pending[p]
        self.dead -= chips - extra
        self.stack[p] += chips - extra
        if extra:
            self.log.append((seat, Action("dead", extra)))
        self._legal = None
        self._apply_bet(p, act)

    def _house_fix(self, p: int, action: Action, legal: Legal) -> Action:
        """RULES.md §4 ``house`` remedies for a bad bet; returns the action that counts.

        A raise below the minimum counts as a call and the extra chips go to the pot; a
        bet above the limit counts as the limit and the excess goes to the pot; a short
        opening bet (or completion) is completed to the minimum. A fold with nothing to
        call is accepted as a fold. Dead chips go to the pot as nobody's bet.
        """
        seat = self.seat_of[p]
        if action.kind == FOLD_KIND:
            self.irregularities.append((seat, "fold with nothing to call", "folded"))
            return action
        try:
            to = int(action.amount)
        except (TypeError, ValueError):
            raise IllegalAction(f"seat {seat}: bet amount {action.amount!r} is not a number") \
                from None
        if to != action.amount:
            raise IllegalAction(f"seat {seat}: bet amount {action.amount!r} is not whole chips")
        lo, hi, choices = legal.min_to, legal.max_to, legal.choices
        cur, bets, stack = self.cur, self.bets, self.stack
        to_call = min(cur - bets[p], stack[p])
        if RAISE_KIND in legal.kinds and lo <= to <= hi and (not choices or to in choices):
            return action  # nothing wrong
        opening = cur == 0 or self.nraises == 0  # an opening bet or a completion
        if RAISE_KIND not in legal.kinds:
            if CALL_KIND not in legal.kinds:
                raise IllegalAction(f"seat {seat} cannot bet or raise now")
            fixed, cost, what = Action(CALL_KIND), to_call, "bet above the limit"
        elif to < lo and opening:
            fixed, cost, what = Action(RAISE_KIND, lo), lo - bets[p], "short bet completed"
        elif to < lo:
            fixed, cost, what = Action(CALL_KIND), to_call, "raise below the minimum"
        else:
            top = max([c for c in choices if c <= to] or [lo]) if choices else hi
            fixed, cost, what = Action(RAISE_KIND, top), top - bets[p], "bet above the limit"
        extra = max(0, to - bets[p] - cost) if what != "short bet completed" else 0
        extra = min(extra, stack[p] - cost)
        if extra > 0:
            stack[p] -= extra
            self.dead += extra
            self.log.append((seat, Action("dead", extra)))
        counts = "a call" if fixed.kind == CALL_KIND else f"cbr {fixed.amount}"
        to_pot = f", {extra} to the pot" if extra > 0 else ""
        self.irregularities.append((seat, f"cbr {to}", f"{what}: counts as {counts}{to_pot}"))
        return fixed
