"""``call``: the calling station."""

from __future__ import annotations

from pokerarena.bots.base import (
    BaseBot,
    Policy,
    SeatView,
    canonical_action,
    down_cards,
    legalize,
)
from pokerarena.bots.simple.discards import keep_pairs_discard
from pokerarena.engine.actions import (
    BRING_IN_KIND,
    CALL_KIND,
    CHECK_CALL,
    DISCARD_KIND,
    SHOW_KIND,
    Action,
)


class CallBot(BaseBot):
    """Checks or calls every bet, posts the bring-in, keeps pairs at the draw."""

    name = "call"
    pure_policy = True  # policy() reads the view alone (bots.base.branches_of)
    description = "calling station: checks or calls every bet, never raises"

    def act(self, view: SeatView) -> Action:
        legal = view.legal
        if legal is not None and CALL_KIND in legal.kinds:
            return CHECK_CALL  # checking or calling is allowed: the whole decision
        return legalize(self._act(view), legal, view.hole, down_cards(view))

    def policy(self, view: SeatView) -> Policy:
        """Declared: ``act`` draws nothing, so its one action has probability 1."""
        return [(canonical_action(self.act(view)), 1.0)]

    def _act(self, view: SeatView) -> Action:
        """Check or call."""
        legal = view.legal
        if legal is None:
            return Action(CALL_KIND)
        kinds = legal.kinds
        if BRING_IN_KIND in kinds:
            return Action(BRING_IN_KIND)
        if DISCARD_KIND in kinds:
            return keep_pairs_discard(view)
        if SHOW_KIND in kinds:
            return Action(SHOW_KIND, 0, tuple(view.hole))
        return Action(CALL_KIND)
