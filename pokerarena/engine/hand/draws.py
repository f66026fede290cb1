"""Draws and turns: discards and replacements, and the turns of choosing, exposing
and declaring."""

from __future__ import annotations

from pokerarena.engine.actions import (
    CALL_KIND,
    DEAL_HOLE_KIND,
    DEALER,
    DECLARE_KIND,
    DISCARD_KIND,
    EXPOSE_KIND,
    UNKNOWN,
    Action,
    IllegalAction,
)
from pokerarena.engine.hand.common import (
    DOWN_KIND,
    PH_CHOOSE,
    PH_DECLARE,
    PH_DRAW,
    PH_EXPOSE,
    PH_NONE,
    _card_text,
    mypyc_attr,
)
from pokerarena.engine.hand.dealing import DealingHand
from pokerarena.engine.hand.rules import (
    _has_bobtail,
    _has_openers,
)
from pokerarena.engine.steps import (
    ChooseStep,
    DeclareStep,
    DrawStep,
    ExposeStep,
)


@mypyc_attr(allow_interpreted_subclasses=True)
class DrawingHand(DealingHand):
    """Draw streets and the expose, declare and choose turns."""

    def _start_turns(self, step: ChooseStep | ExposeStep | DeclareStep) -> bool:
        """Turns of choosing, exposing or declaring; False when nobody has one."""
        n = self.n
        if isinstance(step, ChooseStep):
            self.phase = PH_CHOOSE
            self.simultaneous = False
            self.choose_down = [False] * n
        elif isinstance(step, ExposeStep):
            self.expose_count, self.expose_keep = step.count, step.keep_down
            self.phase = PH_EXPOSE
            self.simultaneous = step.simultaneous
        else:
            self.phase = PH_DECLARE
            self.simultaneous = step.simultaneous
        self.turn_start = len(self.log)
        self.turn_done = [False] * n
        p = self._next_turn()
        if p >= 0:
            self.actor = p
            return True
        self.phase = PH_NONE
        return False

    def _start_draw(self, step: DrawStep) -> bool:
        """A draw; False when nobody draws."""
        self.draw_min, self.draw_max = step.min, step.max
        self.draw_replace = step.replace
        if step.burn and not self.manual:  # burn: face up to the discards
            for _ in range(min(step.burn, len(self.stock) - 1)):
                self.muck_pile.append(self.stock.pop())
        for limit, most in step.max_by_players:
            if self.live <= limit:
                self.draw_max = most
                break
        self.drawn = [False] * self.n
        self.owed = [0] * self.n
        self.thrown = [()] * self.n
        self.phase = PH_DRAW
        p = self._next_drawer(-1)
        if p >= 0:
            self.actor = p
            return True
        self.phase = PH_NONE
        return False

    def _next_turn(self) -> int:
        for q in range(self.n):
            if not self.folded[q] and not self.turn_done[q]:
                return q
        return -1

    def _declare_choices(self, p: int) -> tuple[int, ...]:
        """High (1), low (2), and both (3) only for a player who makes his hand from more
        than five cards (000_… «Заявить оба расклада можно в игре, где на руках у игрока
        больше пяти карт, из которых он составляет свой окончательный расклад»)."""
        return (1, 2, 3) if len(self.hole[p]) + len(self.board) > 5 else (1, 2)

    def _expose_needed(self, p: int) -> int:
        down = sum(1 for u in self.isup[p] if not u)
        return max(0, min(self.expose_count, down - self.expose_keep))

    def _apply_turn(self, p: int, action: Action) -> None:
        seat = self.seat_of[p]
        kind = action.kind
        if self.phase == PH_CHOOSE:
            if kind not in (CALL_KIND, DOWN_KIND):
                raise IllegalAction(f"seat {seat} takes the next card up (cc) or down (dd), "
                                    f"not {kind!r}")
            choose = self.choose_down
            if choose is not None:
                choose[p] = kind == DOWN_KIND
            if kind == DOWN_KIND:
                # He turns his hole card up first, so he still has one hidden card (000_…
                # «игрок может вскрыть свою «забивную» карту ... и получить пятую карту
                # втемную»).
                flags = self.isup[p]
                for i in range(len(flags)):
                    flags[i] = True
            self.log.append((seat, Action(kind)))
        elif self.phase == PH_EXPOSE:
            if kind != EXPOSE_KIND:
                raise IllegalAction(f"seat {seat} must turn cards up (ex), not {kind!r}")
            need = self._expose_needed(p)
            cards = tuple(action.cards)
            if len(cards) != need or len(set(cards)) != need:
                raise IllegalAction(f"seat {seat} turns up {need} card(s), not {len(cards)}")
            hole, flags = self.hole[p], self.isup[p]
            for c in cards:
                if c not in hole or flags[hole.index(c)] or c == UNKNOWN:
                    raise IllegalAction(f"seat {seat} has no down card {_card_text(c)}")
            for c in cards:
                flags[hole.index(c)] = True
            self.log.append((seat, Action(EXPOSE_KIND, 0, cards)))
        else:
            if kind != DECLARE_KIND:
                raise IllegalAction(f"seat {seat} must declare (dc), not {kind!r}")
            choices = self._declare_choices(p)
            if action.amount not in choices:
                both = " or 3 (both)" if 3 in choices else (
                    "; both only with more than five cards to make a hand from")
                raise IllegalAction(f"seat {seat}: declare 1 (high), 2 (low){both}, "
                                    f"not {action.amount!r}")
            self.declared[p] = int(action.amount)
            self.log.append((seat, Action(DECLARE_KIND, int(action.amount))))
        self.turn_done[p] = True
        self._turn_over()

    def _turn_over(self) -> None:
        """The next player's turn (expose, declare, choose), or the next street."""
        q = self._next_turn()
        if q >= 0:
            self.actor = q
            return
        self.phase = PH_NONE
        self.turn_start = -1
        self._advance()

    def _next_drawer(self, p: int) -> int:
        for q in range(p + 1, self.n):
            if not self.folded[q] and not self.drawn[q]:
                return q
        return -1

    def _apply_discard(self, p: int, action: Action) -> None:
        seat = self.seat_of[p]
        cards = tuple(action.cards)
        hole = self.hole[p]
        k = len(cards)
        if not min(self.draw_min, len(hole)) <= k <= min(self.draw_max, len(hole)):
            raise IllegalAction(f"seat {seat} may discard {self.draw_min} to "
                                f"{min(self.draw_max, len(hole))} cards, not {k}")
        # ``??`` entries are distinct unknown cards (as in dealing): only known cards can
        # repeat.
        known = [c for c in cards if c != UNKNOWN]
        if len(set(known)) != len(known):
            raise IllegalAction(f"seat {seat} discards the same card twice")
        idx: list[int] = []
        unknown = [i for i, c in enumerate(hole) if c == UNKNOWN]
        # Known cards first: one held leaves its place; one not held was one of the
        # unknown cards. Then each ``??`` is a different one of the unknown cards left.
        for c in known:
            if c in hole:
                idx.append(hole.index(c))
            elif unknown:
                idx.append(unknown.pop())
            else:
                raise IllegalAction(f"seat {seat} does not hold {_card_text(c)}")
        n_unknown = k - len(known)
        if n_unknown > len(unknown):
            raise IllegalAction(f"seat {seat} discards {n_unknown} unknown card(s) but holds "
                                f"{''.join(map(_card_text, hole))}")
        idx.extend(unknown.pop() for _ in range(n_unknown))
        if self.manual:
            # A known card from an unknown place must not be live elsewhere; in draw games a
            # mucked card may have come back with the reshuffled discards (as in dealing).
            self._check_seen_discards(tuple(c for c in known if not self._reusable(c)), hole)
        # Splitting openers (RULES.md §3 draw): an opener whose discard breaks up his
        # openers declares it; the log marks the discard (amount 1) for everyone to see.
        split = (p == self.opener and k > 0 and self.openers_rank >= 0
                 and UNKNOWN not in hole and self._opens(hole))
        for i in sorted(idx, reverse=True):
            del hole[i]
            del self.isup[p][i]
        split = split and not self._opens(hole)
        thrown = tuple(c for c in cards if c != UNKNOWN)
        self.drawn[p] = True
        self.log.append((seat, Action(DISCARD_KIND, 1 if split else 0, cards)))
        if split:
            self.split_openers[seat] = thrown
        if self.manual:
            self.seen.update(thrown)
        self.muck_pile.extend(thrown)
        self.owed[p] = k if self.draw_replace else 0
        self.thrown[p] = thrown
        self._continue_draw()

    def _opens(self, cards: list[int]) -> bool:
        """True when ``cards`` hold the openers this deal needed."""
        return _has_openers(cards, self.openers_rank) or (
            self.prog.openers == "jacks_or_bobtail" and _has_bobtail(cards))

    def _check_seen_discards(self, cards: tuple[int, ...], hole: list[int]) -> None:
        for c in cards:
            if c != UNKNOWN and c not in hole and c in self.seen:
                raise IllegalAction(f"card {_card_text(c)} was already dealt elsewhere")

    def _continue_draw(self) -> None:
        p = self._next_drawer(-1)
        if p >= 0:
            self.actor = p
            return
        if any(self.owed):
            if self.manual:
                self.actor = -1
                return
            # Everyone has discarded: the replacements are dealt in turn (as PHH records
            # them); a player never gets his own discards back from a reshuffle.
            for q in range(self.n):
                k = self.owed[q]
                if k:
                    new = self._take(k, exclude=self.thrown[q])
                    self.hole[q].extend(new)
                    self.isup[q].extend([False] * k)
                    self.owed[q] = 0
                    self.log.append((DEALER, Action(DEAL_HOLE_KIND, 0, tuple(new),
                                                    self.seat_of[q])))
        self.phase = PH_NONE
        self._advance()
