"""``Hand``: the table state machine of one deal.

Internally everything is indexed by *position*: 0 is the first seat left of the button,
``n - 1`` the button (this is also PHH's player order p1..pn). The public interface
speaks *seats* (``to_act``, ``observation(seat)``, ``result().deltas``). Hot-path state
is plain Python ints and lists.


The hand is a chain of classes, one file per phase (state, dealing, draws and turns,
betting, remedies, rounds, settlement, showdown); :class:`Hand`, the last, dispatches
actions to them and walks the program's steps."""

from __future__ import annotations

from pokerarena.engine.actions import (
    CALL_KIND,
    DEAL_BOARD_KIND,
    DEAL_HOLE_KIND,
    DEALER,
    DECLARE_KIND,
    DISCARD_KIND,
    EXPOSE_KIND,
    FOLD_KIND,
    PLAYER_KINDS,
    SHOW_KIND,
    Action,
    EngineError,
    IllegalAction,
    Legal,
)
from pokerarena.engine.hand.common import (
    DOWN_KIND,
    PH_BET,
    PH_CHOOSE,
    PH_DEAL,
    PH_DECLARE,
    PH_DRAW,
    PH_EXPOSE,
    PH_SHOW,
    PROTECT_KIND,
    mypyc_attr,
)
from pokerarena.engine.hand.observation import Observation
from pokerarena.engine.hand.showdown import ShowdownHand
from pokerarena.engine.program import register_family
from pokerarena.engine.steps import (
    BetStep,
    DealStep,
    DrawStep,
    FamilyStep,
)


@mypyc_attr(allow_interpreted_subclasses=True)
class Hand(ShowdownHand):
    """One hand of a :class:`~pokerarena.engine.game.Game`; see the module docstring."""

    def observation(self, seat: int, hand_no: int = 0, match_no: int = 0) -> Observation:
        """What ``seat`` may see now (``hand_no``/``match_no``: the caller's numbering)."""
        if not 0 <= seat < self.n:
            raise EngineError(f"no seat {seat} at this table")
        return Observation(self, seat, hand_no, match_no)

    def legal_actions(self) -> Legal:
        """What the seat (or dealer) to act may do, with amount ranges."""
        legal = self._legal
        if legal is None:
            if self.phase == PH_BET and not self.over:
                legal = self._legal = self._legal_bet(self.actor)
            else:
                legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> Legal:
        if self.over:
            return Legal(())
        ph = self.phase
        if ph == PH_BET:
            return self._legal_bet(self.actor)
        # A player may fold at any decision (000_… «в любой момент»; option free_fold).
        f = (FOLD_KIND,) if self.prog.free_fold else ()
        if ph == PH_DRAW:
            if self.actor >= 0:
                p = self.actor
                return Legal((*f, DISCARD_KIND), discard_min=min(self.draw_min, len(self.hole[p])),
                             discard_max=min(self.draw_max, len(self.hole[p])))
            return self._legal_deal()
        if ph == PH_DEAL:
            return self._legal_deal()
        if ph == PH_EXPOSE:
            k = self._expose_needed(self.actor)
            return Legal((*f, EXPOSE_KIND), discard_min=k, discard_max=k)
        if ph == PH_CHOOSE:
            return Legal((*f, CALL_KIND, DOWN_KIND))
        if ph == PH_DECLARE:
            return Legal((*f, DECLARE_KIND), choices=self._declare_choices(self.actor))
        if ph == PH_SHOW:
            return Legal((SHOW_KIND,))
        return Legal(())

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for the seat to act (or the given ``seat``: ``DEALER`` for
        manual deals, any live seat for showing cards). Illegal actions raise
        :class:`IllegalAction` and change nothing."""
        if seat is None and self.phase == PH_BET and self.actor >= 0 and not self.over:
            self._apply_bet(self.actor, action)  # the hot path of _dispatch
        else:
            self._dispatch(action, seat)
        self._legal = None

    def _dispatch(self, action: Action, seat: int | None) -> None:
        if self.over:
            raise IllegalAction("the hand is over")
        kind = action.kind
        if kind == PROTECT_KIND:
            return self.protect(seat)
        actor_pos = self.actor
        if seat is not None and (seat == DEALER or seat != self.to_act):
            if seat == DEALER:
                if not self.manual or kind not in (DEAL_HOLE_KIND, DEAL_BOARD_KIND):
                    raise IllegalAction(f"the dealer cannot {kind!r} now")
                return self._apply_deal(action)
            if not 0 <= seat < self.n:
                raise IllegalAction(f"no seat {seat}")
            p = self.pos_of[seat]
            if kind == SHOW_KIND and not self.folded[p] and self.phase != PH_BET:
                return self._apply_show(p, action)
            if self.prog.house and kind in PLAYER_KINDS:
                return self._out_of_turn(p, action)
            raise IllegalAction(f"seat {seat} cannot act now: seat {self.to_act} is to act")
        if actor_pos < 0:
            if kind in (DEAL_HOLE_KIND, DEAL_BOARD_KIND):
                return self._apply_deal(action)
            raise IllegalAction("the dealer is to act: the hand waits for cards")
        ph = self.phase
        if ph == PH_BET:
            self._apply_bet(actor_pos, action)
        elif kind == FOLD_KIND and ph in (PH_DRAW, PH_EXPOSE, PH_DECLARE, PH_CHOOSE):
            if not self.prog.free_fold:
                raise IllegalAction(f"seat {self.seat_of[actor_pos]} cannot fold now")
            self._fold(actor_pos)
        elif ph == PH_DRAW:
            if kind != DISCARD_KIND:
                raise IllegalAction(f"seat {self.seat_of[actor_pos]} must discard (sd), "
                                    f"not {kind!r}")
            self._apply_discard(actor_pos, action)
        elif ph in (PH_EXPOSE, PH_DECLARE, PH_CHOOSE):
            self._apply_turn(actor_pos, action)
        elif ph == PH_SHOW:
            if kind != SHOW_KIND:
                raise IllegalAction(f"showdown: seat {self.seat_of[actor_pos]} shows or mucks "
                                    f"(sm), not {kind!r}")
            self._apply_show(actor_pos, action)
        else:
            raise IllegalAction("nothing to do")

    def _advance(self) -> None:
        """Play the steps from the next one on until someone must act or the hand ends."""
        steps = self.prog.steps
        while True:
            if self.passed:
                self._settle_passed()
                return
            if self.live == 1:
                self._settle()
                return
            self.si += 1
            if self.si >= len(steps):
                self._showdown()
                return
            step = steps[self.si]
            if isinstance(step, DealStep):
                if self.manual:
                    self._owe_deal(step.down, step.up, step.board)
                    if self.phase == PH_DEAL:
                        return
                else:
                    self._deal_auto(step.down, step.up, step.board)
            elif isinstance(step, BetStep):
                if self._start_bet(step):
                    return
                self._end_round()
            elif isinstance(step, DrawStep):
                if self._start_draw(step):
                    return
            elif isinstance(step, FamilyStep):
                self._start_family_step(step)  # the family's hand plays it
                return
            elif self._start_turns(step):
                return

    def _start_family_step(self, step: FamilyStep) -> None:
        """A step of a family of games: the family's hand class overrides this."""
        raise EngineError(f"a {step.family!r} step needs that family's hand "
                          "(pokerarena.engine.program.register_family)")


register_family("betting", Hand)
