"""``random``: uniform over the legal action kinds, then over amounts and discards."""

from __future__ import annotations

from pokerarena.bots.base import DECLARE_KIND, EXPOSE_KIND, BaseBot, SeatView, down_cards
from pokerarena.engine.actions import (
    CALL_KIND,
    DISCARD_KIND,
    FOLD_KIND,
    RAISE_KIND,
    SHOW_KIND,
    Action,
)


class RandomBot(BaseBot):
    """Uniform over the legal action kinds, then uniform over amounts / discards."""

    name = "random"
    description = "uniform over the legal action kinds, then over amounts and discards"

    def act(self, view: SeatView) -> Action:
        """A random legal action."""
        legal = view.legal
        if legal is None:
            return Action(CALL_KIND)
        rng = self.rng
        kinds = legal.kinds
        if FOLD_KIND in kinds and len(kinds) > 1 and (legal.call == 0 or RAISE_KIND not in kinds
                                                       and CALL_KIND not in kinds):
            # A fold that costs something to avoid (nothing to call, or a draw or a
            # turn-up) is never a random choice: uniform over the other kinds.
            kinds = tuple(k for k in kinds if k != FOLD_KIND)
        kind = rng.choice(kinds)
        if kind == RAISE_KIND:
            choices = getattr(legal, "choices", ())
            if choices:  # e.g. stud's open pair: the small or the big bet
                return Action(RAISE_KIND, rng.choice(choices))
            return Action(RAISE_KIND, rng.randint(legal.min_to, legal.max_to))
        if kind == DISCARD_KIND:
            k = rng.randint(legal.discard_min, legal.discard_max)
            return Action(DISCARD_KIND, 0, tuple(rng.sample(list(view.hole), k)))
        if kind == SHOW_KIND:
            return Action(SHOW_KIND, 0, tuple(view.hole))
        if kind == EXPOSE_KIND:
            return Action(kind, 0, tuple(rng.sample(list(down_cards(view)), legal.discard_min)))
        if kind == DECLARE_KIND:
            return Action(kind, rng.choice(getattr(legal, "choices", ()) or (1, 2, 3)))
        return Action(kind)
