"""``maniac``: bets and raises whenever it may, big; never folds."""

from __future__ import annotations

from pokerarena.bots.base import BaseBot, SeatView, down_cards, legalize
from pokerarena.bots.simple.discards import keep_pairs_discard
from pokerarena.engine.actions import (
    BRING_IN_KIND,
    CALL_KIND,
    DISCARD_KIND,
    RAISE_KIND,
    SHOW_KIND,
    Action,
)


class ManiacBot(BaseBot):
    """Raises whenever allowed (pot-sized, all-in one time in three), else calls."""

    name = "maniac"
    description = "raises whenever it may (pot-sized or all-in), never folds"

    def act(self, view: SeatView) -> Action:
        return legalize(self._act(view), view.legal, view.hole, down_cards(view))

    def _act(self, view: SeatView) -> Action:
        """Raise if possible, else call."""
        legal = view.legal
        if legal is None:
            return Action(CALL_KIND)
        kinds = legal.kinds
        if DISCARD_KIND in kinds:
            return keep_pairs_discard(view)
        if SHOW_KIND in kinds:
            return Action(SHOW_KIND, 0, tuple(view.hole))
        if RAISE_KIND in kinds and legal.max_to > 0:
            lo, hi = legal.min_to, legal.max_to
            if lo >= hi or self.rng.random() < 1 / 3:
                return Action(RAISE_KIND, hi)
            pot_to = view.bets[view.seat] + legal.call + view.pot + legal.call
            return Action(RAISE_KIND, int(min(hi, max(lo, pot_to))))
        if BRING_IN_KIND in kinds:
            return Action(BRING_IN_KIND)
        return Action(CALL_KIND)
