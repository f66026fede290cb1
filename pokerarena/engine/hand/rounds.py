"""Starting a betting round: its bet size, caps, and who opens it."""

from __future__ import annotations

from pokerarena.engine.actions import (
    UNKNOWN,
)
from pokerarena.engine.hand.common import (
    PH_BET,
    mypyc_attr,
)
from pokerarena.engine.hand.remedies import RemediesHand
from pokerarena.engine.hand.rules import (
    _PROGRESSIVE,
    _forced_raises,
    _showing_key_high,
    _showing_key_low,
)
from pokerarena.engine.program import bet_size
from pokerarena.engine.steps import (
    OPEN_BRING_IN,
    OPEN_HIGH_SHOWING,
    OPEN_LEFT_OF_ANTES,
    OPEN_LEFT_OF_BLINDS,
    OPEN_LOW_SHOWING,
    OPEN_OPENER,
    SIZE_ANTE,
    SYS_FIXED,
    BetStep,
)


@mypyc_attr(allow_interpreted_subclasses=True)
class RoundsHand(RemediesHand):
    """Sets up each betting round."""

    def _start_bet(self, step: BetStep) -> bool:
        """Set up a betting round; False when nobody can bet (round skipped)."""
        g, n = self.prog, self.n
        folded, stack, bets = self.folded, self.stack, self.bets
        first = step.opener
        self.bet_sz = bet_size(g, step.size, step.round_no)
        self.bet_sz_ante = step.size == SIZE_ANTE
        self.raises_by = [0] * n
        self.acted_at = [0] * n
        self.short_open = False
        self.frozen = False
        self.check_raise_ok = step.check_raise
        self.checked = [False] * n
        self.check_ok = step.check
        self.open_pair = step.open_pair and self._open_pair_showing()
        cur = max(bets)
        self.cur = cur
        self.top = bets.index(cur) if cur else -1
        self.aggressor = -1
        if g.sys == SYS_FIXED:
            self.min_raise = self.bet_sz
            self.nraises = _forced_raises(bets, self.bet_sz) if cur else 0
        else:
            self.min_raise = max(g.open_min, cur)
            self.nraises = max(1, _forced_raises(bets, g.open_min)) if cur > 0 else 0
        need = [not folded[p] and stack[p] > 0 for p in range(n)]
        self.can_raise = [True] * n
        self.bring_in_pending = False
        start = 0
        if first == OPEN_LEFT_OF_BLINDS:
            blinds = self._blinds
            mx = max(blinds) if blinds else 0
            if mx:
                last = max(i for i in range(n) if blinds[i] == mx)
                start = (last + 1) % n
        elif first == OPEN_BRING_IN:
            start = self.bring_in_pos = self._bring_in_position()
        elif first in (OPEN_HIGH_SHOWING, OPEN_LOW_SHOWING):
            start = self._showing_first(first == OPEN_LOW_SHOWING)
        elif first == OPEN_OPENER:
            start = self.opener if self.opener >= 0 else 0
        elif first == OPEN_LEFT_OF_ANTES:  # left of the last ante payer, from the dealer
            antes = self._antes
            order = [n - 1, *range(n - 1)]
            payers = [q for q in order if antes[q]]
            start = (payers[-1] + 1) % n if payers else 0
        # The showdown starts with the opener of the last betting round (or its last
        # bettor/raiser), even when nobody could bet in it.
        self.show_first = start
        active = sum(need)
        if active == 0:
            self.need = need
            return False
        if active == 1:
            p = need.index(True)
            if bets[p] >= cur:
                self.need = [False] * n
                return False
        self.need = need
        if first == OPEN_BRING_IN and g.bring_in > 0 and need[start]:
            self.bring_in_pending = True
        self.bet_rounds += 1
        if self.bet_rounds == 1 and g.openers != "any" and cur == 0:
            self.need_openers = True
            self.openers_rank = (9 if g.openers in ("jacks_or_better", "jacks_or_bobtail")
                                 else _PROGRESSIVE[self.passes % len(_PROGRESSIVE)])
        q = start
        for _ in range(n):
            if need[q]:
                self.actor = q
                self.phase = PH_BET
                return True
            q = (q + 1) % n
        return False

    def _open_pair_showing(self) -> bool:
        for p in range(self.n):
            if not self.folded[p]:
                ranks = [c >> 2 for c, u in zip(self.hole[p], self.isup[p], strict=True)
                         if u and c != UNKNOWN]
                if len(set(ranks)) < len(ranks):
                    return True
        return False

    def _bring_in_position(self) -> int:
        rule = self.prog.bring_in_rule
        best_p, best_key = 0, None
        for p in range(self.n):
            if self.folded[p]:
                continue
            ups = [c for c, u in zip(self.hole[p], self.isup[p], strict=True) if u]
            if not ups:
                continue
            c = ups[0]
            if c == UNKNOWN:
                continue
            # razz: the highest door brings in (ace low, spades highest); else the
            # lowest door brings in (clubs lowest).
            key = ((-(((c >> 2) + 1) % 13), -(c & 3)) if rule == "highest_door"
                   else (c >> 2, c & 3))
            if best_key is None or key < best_key:
                best_p, best_key = p, key
        return best_p

    def _showing_first(self, low: bool) -> int:
        best_p, best_key = 0, None
        for p in range(self.n):
            if self.folded[p]:
                continue
            ups = [c for c, u in zip(self.hole[p], self.isup[p], strict=True) if u]
            if low:
                key = _showing_key_low(ups)
                better = best_key is None or key < best_key
            else:
                key = _showing_key_high(ups, self.prog.showdown.four_flush)
                better = best_key is None or key > best_key
            if better:
                best_p, best_key = p, key
        return best_p
