"""``maniac``: bets and raises whenever it may, big; never folds. It declares its policy
(:meth:`ManiacBot.policy`): its one coin is the all-in (one time in three)."""

from __future__ import annotations

from pokerarena.bots.base import BaseBot, Policy, SeatView, canonical_action, down_cards, legalize
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
    pure_policy = True  # policy() reads the view alone (bots.base.branches_of)
    description = "raises whenever it may (pot-sized or all-in), never folds"

    def act(self, view: SeatView) -> Action:
        return legalize(self._act(view), view.legal, view.hole, down_cards(view))

    def policy(self, view: SeatView) -> Policy:
        """What :meth:`act` draws from: all-in with chance 1/3 and the pot-sized raise
        otherwise where both are open, else its one action with probability 1."""
        out: dict[Action, float] = {}
        for all_in, weight in ((True, 1 / 3), (False, 2 / 3)):
            action = canonical_action(legalize(self._act(view, all_in), view.legal,
                                               view.hole, down_cards(view)))
            out[action] = out.get(action, 0.0) + weight
            if not self._coin_matters(view):
                return [(action, 1.0)]
        return list(out.items())

    @staticmethod
    def _coin_matters(view: SeatView) -> bool:
        legal = view.legal
        return (legal is not None and DISCARD_KIND not in legal.kinds
                and SHOW_KIND not in legal.kinds and RAISE_KIND in legal.kinds
                and legal.max_to > 0 and legal.min_to < legal.max_to)

    def _act(self, view: SeatView, all_in: bool | None = None) -> Action:
        """Raise if possible, else call. ``all_in``: the coin, drawn here unless given."""
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
            if lo >= hi:  # no coin drawn: the seeded play of before stays as it was
                return Action(RAISE_KIND, hi)
            if all_in is None:
                all_in = self.rng.random() < 1 / 3
            if all_in:
                return Action(RAISE_KIND, hi)
            pot_to = view.bets[view.seat] + legal.call + view.pot + legal.call
            return Action(RAISE_KIND, int(min(hi, max(lo, pot_to))))
        if BRING_IN_KIND in kinds:
            return Action(BRING_IN_KIND)
        return Action(CALL_KIND)
