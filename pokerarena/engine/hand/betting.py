"""Betting: the raise range, the legal bets, applying a bet, folds and the end of a
round (the hot path of the table loop)."""

from __future__ import annotations

from pokerarena.engine.actions import (
    BRING_IN_KIND,
    CALL_KIND,
    FOLD_KIND,
    RAISE_KIND,
    UNKNOWN,
    Action,
    IllegalAction,
    Legal,
)
from pokerarena.engine.hand.common import (
    _C,
    _CHECK,
    _CR,
    _FC,
    _FCR,
    _FR,
    _NO_RAISE,
    PH_BET,
    PH_CHOOSE,
    PH_DECLARE,
    PH_DRAW,
    PH_EXPOSE,
    PH_NONE,
    PROTECT_KIND,
    _new_tuple,
    mypyc_attr,
)
from pokerarena.engine.hand.draws import DrawingHand
from pokerarena.engine.steps import (
    SYS_AMOUNTS,
    SYS_FIXED,
    SYS_LASTBET,
    SYS_NO,
    SYS_POT,
)


@mypyc_attr(allow_interpreted_subclasses=True)
class BettingHand(DrawingHand):
    """The betting round's decisions."""

    def protect(self, seat: int | None = None) -> None:
        """Disconnection protection (RULES.md §4, ``002_…``): the seat to act in a betting
        round stays in the hand all in for what it has already put in. It keeps its claim
        on the pot so far; later bets go to side pots it cannot win. The chips it still
        has are set aside (``protected``; its stack reads 0) and given back when the hand
        is settled. Logged as ``(seat, Action("pr"))``, so ``apply`` replays it."""
        if self.over or self.phase != PH_BET or self.actor < 0:
            raise IllegalAction("protection is for the seat to act in a betting round")
        p = self.actor
        if seat is not None and seat != self.seat_of[p]:
            raise IllegalAction(f"seat {seat} cannot act now: seat {self.seat_of[p]} is to act")
        if self.bring_in_pending and p == self.bring_in_pos:
            raise IllegalAction(f"seat {self.seat_of[p]} must post the bring-in")
        protected = self.protected
        protected[p] = protected.get(p, 0) + self.stack[p]
        self.stack[p] = 0
        self.need[p] = False
        self.can_raise[p] = False
        self._legal = None
        self.log.append((self.seat_of[p], Action(PROTECT_KIND)))
        self._next_actor(p)

    def _others_can_act(self, p: int) -> bool:
        """True when another player could put in more than the current bet (else a
        raise could never be called: every other player has folded or is all in)."""
        folded, stack, bets, cur = self.folded, self.stack, self.bets, self.cur
        for q in range(self.n):  # noqa: SIM110 - a plain loop is faster here
            if q != p and stack[q] > 0 and not folded[q] and bets[q] + stack[q] > cur:
                return True
        return False

    def _raise_range(self, p: int) -> tuple[int, int, tuple[int, ...]]:
        """(min_to, max_to, choices) for a cbr by ``p``; (0, 0, ()) when not allowed."""
        cur = self.cur
        stacks, bets = self.stack, self.bets
        stack = stacks[p]
        to_call = cur - bets[p]
        if stack <= to_call or not self.can_raise[p] or self.frozen:
            return _NO_RAISE
        # Another player must be able to put in more than the current bet (else a raise
        # could never be called: every other player has folded or is all in); this is
        # _others_can_act, inlined on the hot path.
        folded = self.folded
        for q in range(self.n):
            if q != p and stacks[q] > 0 and not folded[q] and bets[q] + stacks[q] > cur:
                break
        else:
            return _NO_RAISE
        g = self.prog
        freeze_to = 0
        if not g.plain_raises:
            if (g.freeze_multiple and g.sys == SYS_FIXED and self.nraises >= 3
                    and self.raises_by[p] == 0):
                # Freeze: after two raises, a player who has not raised may bet a multiple
                # of the normal bet; then the round is frozen (call or fold only).
                freeze_to = min(cur + g.freeze_multiple * self.bet_sz, bets[p] + stack)
            cap = g.max_raises
            # One-on-one games (a table of two) have their own cap (002_… «В играх «один
            # на один» кэп объявляется после 5 подъемов»); a pot that gets down to two
            # players at a bigger table keeps the table's cap.
            if self.n == 2 and (g.sys == SYS_FIXED or g.heads_up_max_raises is not None):
                cap = g.heads_up_max_raises
            if cap is not None and self.nraises >= cap + 1:
                return (freeze_to, freeze_to, (freeze_to,)) if freeze_to > cur else _NO_RAISE
            cap_pp = g.max_raises_per_player
            if cap_pp is not None and self.raises_by[p] >= cap_pp:
                return _NO_RAISE
        if self.need_openers and not self._opens(self.hole[p]):
            return _NO_RAISE
        if not self.check_raise_ok and self.checked[p]:
            return _NO_RAISE  # no check-raise in this round
        total = bets[p] + stack
        sysc = g.sys
        lo, hi, choices = self._system_range(cur, to_call, total)
        jackpot = self.jackpot_max
        if jackpot and cur + jackpot > hi:
            # A jackpot deal: any bet or raise from the usual minimum up to the pot as it
            # stood before the deal (000_… «Джекпот»).
            hi = cur + jackpot
            choices = ()
        if hi < lo:
            hi = lo  # the minimum bet is always allowed (a tiny pot in pot limit)
        if lo > total:
            lo = total
        if hi > total:
            hi = total
        if choices and sysc == SYS_AMOUNTS:
            choices = tuple(sorted({min(c, total) for c in choices}))
        if freeze_to > hi:
            choices = (*(choices or (lo,)), freeze_to)
            hi = freeze_to
        if len(choices) == 2 and choices[0] == choices[1]:
            choices = ()
        return lo, hi, choices

    def _system_range(self, cur: int, to_call: int, total: int
                      ) -> tuple[int, int, tuple[int, ...]]:
        """(min_to, max_to, choices) as the betting system sets them, before the jackpot,
        the stack and a freeze bet limit them (``total``: what the player can reach)."""
        g = self.prog
        sysc = g.sys
        choices: tuple[int, ...] = ()
        if sysc == SYS_FIXED:
            size = self.bet_sz
            nominal = size if (self.nraises == 0 and cur < size) else cur + size
            lo = hi = nominal
            if self.short_open and g.phh_compat and self.nraises == 0:
                # After an all-in bet of less than a bet, the casino rule completes the
                # bet; PokerKit-recorded hands raise by a full bet instead: accept both.
                hi = cur + size
                choices = (min(lo, total), min(hi, total))
            if self.open_pair and g.big_bet > size:
                # An open pair on fourth street: every bet or raise may be the small or
                # the big bet until one is big (002_… «Если он ставит $2, все остальные
                # игроки, повышая, должны ставить $2 или $4»).
                hi = g.big_bet if nominal == size else cur + g.big_bet
                choices = (min(lo, total), min(hi, total))
        elif sysc == SYS_AMOUNTS:
            # Only certain amounts (or only the minimum or the maximum) are a bet or raise.
            amounts = g.amounts
            if self.bet_sz_ante:
                amounts = tuple(a for a in amounts if a <= g.ante) or amounts[:1]
            choices = tuple(cur + a for a in amounts)
            lo, hi = choices[0], choices[-1]
        else:
            base = g.open_min
            # Completing a bring-in (or a short blind) goes to the base bet.
            lo = base if self.nraises == 0 and 0 < cur < base else cur + self.min_raise
            if sysc == SYS_NO:
                hi = total
            elif sysc == SYS_LASTBET:
                # After the first bet, the previous bet is the most a bet or raise may be;
                # the minimum stays the agreed one (000_… «Предел последней ставки»).
                lo = base if self.nraises == 0 and 0 < cur < base else cur + base
                limit = cur if cur > 0 else self.lb_open
                hi = cur + limit
                lo = min(lo, hi)
            elif sysc == SYS_POT:
                hi = cur + sum(self.committed) + self.dead + to_call
            else:  # spread: any amount between the minimum and the maximum
                lo = base if self.nraises == 0 and 0 < cur < base else cur + base
                hi = cur + (min(g.max_bet, g.ante) if self.bet_sz_ante else g.max_bet)
        return lo, hi, choices

    def _legal_bet(self, p: int) -> Legal:
        if self.bring_in_pending and p == self.bring_in_pos:
            lo, hi, choices = self._raise_range(p)
            kinds: tuple[str, ...] = (BRING_IN_KIND, RAISE_KIND) if hi else (BRING_IN_KIND,)
            return Legal(kinds, bring_in=min(self.prog.bring_in, self.stack[p]),
                         min_to=lo, max_to=hi, choices=choices)
        cur, bets, stacks = self.cur, self.bets, self.stack
        bet, stack = bets[p], stacks[p]
        to_call = cur - bet
        call = to_call if to_call < stack else stack
        g = self.prog
        if g.fast_raises and not self.need_openers and self.check_raise_ok and not self.pending:
            # Hot path: _raise_range inlined for no-limit and pot-limit without caps.
            lo = hi = 0
            if stack > to_call and self.can_raise[p] and not self.frozen:
                folded = self.folded
                for q in range(self.n):
                    if q != p and stacks[q] > 0 and not folded[q] and bets[q] + stacks[q] > cur:
                        base = g.open_min
                        lo = (base if self.nraises == 0 and 0 < cur < base
                              else cur + self.min_raise)
                        total = bet + stack
                        if g.sys == SYS_NO:
                            hi = total
                        else:  # pot limit
                            hi = cur + sum(self.committed) + self.dead + to_call
                            if hi < lo:
                                hi = lo
                            if hi > total:
                                hi = total
                        if lo > total:
                            lo = total
                        break
            if to_call > 0 or (g.free_fold and (cur or self.check_ok or not hi)):
                kinds = _FCR if hi else _FC
            elif not self.check_ok and cur == 0 and hi:
                kinds = _FR  # pass and out: no checking an unopened pot
            else:
                kinds = _CR if hi else _C
            return _new_tuple(Legal, (kinds, call, lo, hi, 0, 0, 0, (), 0, ()))
        pend = self.pending.get(p) if self.pending else None
        if pend is not None:
            return self._legal_pending(p, pend)
        lo, hi, choices = self._raise_range(p)
        if to_call > 0 or (g.free_fold and (cur or self.check_ok or not hi)):
            # A player may fold at any time, also when he could check (000_… «Игрок
            # может сделать это в любой момент»; option free_fold).
            kinds = _FCR if hi else _FC
        elif not self.check_ok and cur == 0 and hi:
            kinds = _FR  # pass and out: no checking an unopened pot
        else:
            kinds = _CR if hi else _C
        return _new_tuple(Legal, (kinds, call, lo, hi, 0, 0, 0, (), 0, choices))

    def _apply_bet(self, p: int, action: Action) -> None:
        if self.pending and p in self.pending:
            return self._apply_pending(p, action)
        kind = action.kind
        if kind == CALL_KIND and not (self.bring_in_pending and p == self.bring_in_pos):
            cur, bets = self.cur, self.bets
            to_call = cur - bets[p]
            if to_call > 0 or cur or self.check_ok:
                # Hot path: a check or call is always legal here (see _legal_bet), so the
                # raise range is not needed.
                if to_call > 0:
                    stack = self.stack
                    amt = to_call if to_call < stack[p] else stack[p]
                    stack[p] -= amt
                    bets[p] += amt
                    self.committed[p] += amt
                    act = _new_tuple(Action, (CALL_KIND, amt, (), -1, 0))
                else:
                    self.checked[p] = True
                    act = _CHECK
                need = self.need
                need[p] = False
                self.can_raise[p] = False
                self.acted_at[p] = cur
                self.log.append((self.seat_of[p], act))
                n = self.n
                q = p
                for _ in range(n):  # _next_actor, inlined
                    q += 1
                    if q == n:
                        q = 0
                    if need[q]:
                        self.actor = q
                        return
                self._end_round()
                self._advance()
                return
        seat = self.seat_of[p]
        if kind == PROTECT_KIND:
            return self.protect(seat)
        if self.bring_in_pending and p == self.bring_in_pos:
            if kind == BRING_IN_KIND:
                self._post_bring_in(p, seat)
                return
            if kind != RAISE_KIND:
                raise IllegalAction(f"seat {seat} must post the bring-in (pb) or complete "
                                    f"(cbr), not {kind!r}")
        legal = self.legal_actions()
        if self.prog.house and (kind == RAISE_KIND or (kind == FOLD_KIND
                                                       and kind not in legal.kinds)):
            action = self._house_fix(p, action, legal)
            kind = action.kind
        if kind not in legal.kinds and not (kind == FOLD_KIND and self.prog.house):
            _refuse(seat, kind, legal)
        if kind == CALL_KIND:
            to_call = self.cur - self.bets[p]
            if to_call <= 0:
                self.checked[p] = True
            amt = to_call if to_call < self.stack[p] else self.stack[p]
            if amt:
                self.stack[p] -= amt
                self.bets[p] += amt
                self.committed[p] += amt
            self.need[p] = False
            self.can_raise[p] = False
            self.acted_at[p] = self.cur
            self.log.append((seat, Action(CALL_KIND, amt)))
            self._next_actor(p)
        elif kind == FOLD_KIND:
            self._fold(p)
        elif kind == RAISE_KIND:
            self._apply_raise(p, seat, action, legal)
        else:
            raise IllegalAction(f"seat {seat} is in a betting round: {kind!r} is not a "
                                f"betting action (f, cc, cbr)")

    def _apply_raise(self, p: int, seat: int, action: Action, legal: Legal) -> None:
        """``p`` completes, bets or raises to ``action.amount`` (checked against
        ``legal``); a full raise reopens the betting, a short all-in only for those who
        had not faced a bet (or, casino rule, when short all-ins add up to a full raise)."""
        n = self.n
        to = _checked_amount(seat, action, legal)
        cur = self.cur
        add = to - self.bets[p]
        self.stack[p] -= add
        self.bets[p] = to
        self.committed[p] += add
        inc = to - cur
        g = self.prog
        sysc = g.sys
        if sysc == SYS_FIXED:
            size = self.bet_sz
            nominal = size if (self.nraises == 0 and cur < size) else cur + size
            big_to = g.big_bet if nominal == size else cur + g.big_bet
            if self.open_pair and legal.choices and size < g.big_bet and to == big_to:
                # an open-pair big bet or raise: from now on every raise is big
                self.bet_sz = size = g.big_bet
                nominal = size if (self.nraises == 0 and cur < size) else cur + size
            elif legal.choices and g.freeze_multiple and to > cur + size:
                self.frozen = True  # a freeze bet: call or fold only from now on
            full_inc = size  # what a full raise adds
            full = to >= nominal
            if (not full and g.half_bet_reopens and self.nraises > 0
                    and self.stack[p] == 0 and 2 * inc >= size):
                full = True  # casino: an all-in of half a bet or more is a raise
        else:
            if sysc in (SYS_NO, SYS_POT):
                base, full_inc = g.open_min, self.min_raise
            else:  # spread, last bet, fixed amounts: any legal amount is a full raise
                base = full_inc = g.amounts[0] if sysc == SYS_AMOUNTS else g.min_bet
            full = inc >= full_inc or (self.nraises == 0 and cur < base <= to)
        self.cur = to
        self.top = p
        self.show_first = p
        if self.bet_rounds == 1 and self.opener < 0:
            self.opener = p
        self.need_openers = False
        need, can_raise, folded, stack = self.need, self.can_raise, self.folded, self.stack
        if full:
            if sysc in (SYS_NO, SYS_POT) and inc > self.min_raise:
                self.min_raise = inc
            if self.nraises > 0:
                # A raise, not the opening bet: kitty rule, per-player caps, freeze
                # (000_… «Ограничение на повышение ставок»).
                self.hand_raises += 1
                self.raises_by[p] += 1
            self.nraises += 1
            self.aggressor = p
            for q in range(n):
                if q != p and not folded[q] and stack[q] > 0:
                    need[q] = True
                    can_raise[q] = True
        else:
            if self.nraises == 0:
                self.short_open = True  # an all-in opening bet below the bet size
            # Casino: short all-ins that together make a full raise reopen the
            # betting for a player who has acted.
            reopen = full_inc if g.cumulative_reopen else 0
            acted_at = self.acted_at
            for q in range(n):
                if q != p and not folded[q] and stack[q] > 0 and self.bets[q] < to:
                    need[q] = True
                    if cur == 0 or (reopen and to - acted_at[q] >= reopen):
                        can_raise[q] = True  # nobody had faced a bet: all may raise
        need[p] = False
        can_raise[p] = False
        self.acted_at[p] = to
        self.bring_in_pending = False
        self.log.append((seat, _new_tuple(Action, (RAISE_KIND, to, (), -1, 0))))
        self._next_actor(p)

    def _post_bring_in(self, p: int, seat: int) -> None:
        """``p`` posts the bring-in (what he has, at most)."""
        amt = min(self.prog.bring_in, self.stack[p])
        self.stack[p] -= amt
        self.bets[p] += amt
        self.committed[p] += amt
        if self.bets[p] > self.cur:
            self.cur = self.bets[p]
            self.top = p
        self.bring_in_pending = False
        self.need[p] = False
        self.log.append((seat, Action(BRING_IN_KIND, amt)))
        self._next_actor(p)

    def _fold(self, p: int) -> None:
        """``p`` folds (at his turn, out of turn, or outside a betting round: 000_…
        «Игрок может сделать это в любой момент»)."""
        self.folded[p] = True
        self.live -= 1
        self.need[p] = False
        self.muck_pile.extend(c for c in self.hole[p] if c != UNKNOWN)
        self.log.append((self.seat_of[p], Action(FOLD_KIND)))
        if self.live == 1:
            if self.phase == PH_BET:
                self._end_round()
            self._settle()
            return
        ph = self.phase
        if ph == PH_BET:
            if self.actor == p:
                self._next_actor(p)
            elif not any(self.need):
                self._end_round()
                self._advance()
        elif ph == PH_DRAW and self.actor >= 0:
            self._continue_draw()
        elif ph in (PH_EXPOSE, PH_DECLARE, PH_CHOOSE) and self.actor == p:
            self._turn_over()

    def _next_actor(self, p: int) -> None:
        n, need = self.n, self.need
        q = p
        for _ in range(n):
            q += 1
            if q == n:
                q = 0
            if need[q]:
                self.actor = q
                return
        self._end_round()
        self._advance()

    def _end_round(self) -> None:
        if self.cur > 0 and not self.prog.reset_each_round:
            self.lb_open = max(self.lb_open, self.cur)  # last-bet limit keeps growing
        if self.need_openers and self.phase == PH_BET and self.live > 1:
            self.passed = True  # nobody could or would open: the deal is passed
        elif (self.phase == PH_BET and self.bet_rounds == 1 and self.cur == 0
              and self.live > 1 and self.prog.void_if_all_check):
            # 000_…: «Если все игроки пропустили ход в первом круге ставок, игра
            # аннулируется и завершается»: the pot waits for the next deal.
            self.passed = True
        self.need_openers = False
        if self.pending:  # chips bet out of turn by a player whose turn never came
            self.pending = {}
        if self.cur > 0 and self.top >= 0:
            self.called = self.top
        elif self.phase == PH_BET:
            self.called = -1
        self.bets = [0] * self.n
        self.cur = 0
        self.bring_in_pending = False
        self.phase = PH_NONE


def _refuse(seat: int, kind: str, legal: Legal) -> None:
    """Raise the IllegalAction that says why ``kind`` is not allowed in this round."""
    if kind == FOLD_KIND:
        raise IllegalAction(f"seat {seat} cannot fold: nothing to call (check instead)")
    if kind == CALL_KIND:
        raise IllegalAction(f"seat {seat} cannot check: no checking in this round "
                            "(pass and out: bet or fold)")
    if kind == RAISE_KIND:
        raise IllegalAction(f"seat {seat} cannot bet or raise now")
    raise IllegalAction(f"seat {seat} is in a betting round: {kind!r} is not a "
                        f"betting action ({', '.join(legal.kinds)})")


def _checked_amount(seat: int, action: Action, legal: Legal) -> int:
    """The whole-chip total a ``cbr`` bets to, when ``legal`` allows it."""
    lo, hi = legal.min_to, legal.max_to
    to = action.amount
    try:
        to_int = int(to)
    except (TypeError, ValueError):
        to_int = None
    if (to_int is None or to_int != to or not lo <= to_int <= hi
            or (legal.choices and to_int not in legal.choices)):
        rng = (" or ".join(map(str, legal.choices)) if legal.choices
               else f"{lo}" if lo == hi else f"{lo} to {hi}")
        raise IllegalAction(f"seat {seat} cannot bet/raise to {to}: allowed {rng}")
    return to_int
