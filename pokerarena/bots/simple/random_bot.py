"""``random``: uniform over the legal action kinds, then over amounts and discards.

It declares its policy: :meth:`RandomBot.policy` is the exact distribution :meth:`act`
draws from (a test samples ``act`` and compares)."""

from __future__ import annotations

from itertools import combinations
from math import comb

from pokerarena.bots.base import (
    DECLARE_KIND,
    EXPOSE_KIND,
    BaseBot,
    Policy,
    SeatView,
    down_cards,
)
from pokerarena.engine.actions import (
    CALL_KIND,
    DISCARD_KIND,
    FOLD_KIND,
    RAISE_KIND,
    SHOW_KIND,
    Action,
    Legal,
)


def _kinds(legal: Legal) -> tuple[str, ...]:
    """The kinds the bot chooses among, uniformly."""
    kinds = legal.kinds
    if FOLD_KIND in kinds and len(kinds) > 1 and (legal.call == 0 or RAISE_KIND not in kinds
                                                   and CALL_KIND not in kinds):
        # A fold that costs something to avoid (nothing to call, or a draw or a
        # turn-up) is never a random choice: uniform over the other kinds.
        kinds = tuple(k for k in kinds if k != FOLD_KIND)
    return kinds


def _subsets(kind: str, cards: list[int], k: int) -> list[tuple[Action, float]]:
    """``rng.sample(cards, k)`` as moves: each k-subset (sorted) with 1 / C(n, k)."""
    p = 1.0 / comb(len(cards), k)
    return [(Action(kind, 0, tuple(sorted(sub))), p) for sub in combinations(cards, k)]


class RandomBot(BaseBot):
    """Uniform over the legal action kinds, then uniform over amounts / discards."""

    name = "random"
    pure_policy = True  # policy() reads the view alone (bots.base.branches_of)
    description = "uniform over the legal action kinds, then over amounts and discards"

    def act(self, view: SeatView) -> Action:
        """A random legal action."""
        legal = view.legal
        if legal is None:
            return Action(CALL_KIND)
        rng = self.rng
        kind = rng.choice(_kinds(legal))
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

    def policy(self, view: SeatView) -> Policy:
        """The distribution of :meth:`act`: each kind 1/k, then within a kind uniform
        over the bet amounts (or the allowed choices), over the discard counts and
        then the subsets of that size, over the turn-up subsets or the declarations."""
        legal = view.legal
        if legal is None:
            return [(Action(CALL_KIND), 1.0)]
        kinds = _kinds(legal)
        out: dict[Action, float] = {}
        for kind in kinds:
            for action, p in self._within(kind, legal, view):
                out[action] = out.get(action, 0.0) + p / len(kinds)
        return list(out.items())

    @staticmethod
    def _within(kind: str, legal: Legal, view: SeatView) -> list[tuple[Action, float]]:
        """The distribution of the action once ``kind`` is drawn."""
        if kind == RAISE_KIND:
            choices = tuple(getattr(legal, "choices", ()))
            if choices:
                return [(Action(RAISE_KIND, c), 1.0 / len(choices)) for c in choices]
            width = legal.max_to - legal.min_to + 1
            return [(Action(RAISE_KIND, a), 1.0 / width)
                    for a in range(legal.min_to, legal.max_to + 1)]
        if kind == DISCARD_KIND:
            counts = range(legal.discard_min, legal.discard_max + 1)
            return [(a, p / len(counts)) for k in counts
                    for a, p in _subsets(DISCARD_KIND, list(view.hole), k)]
        if kind == SHOW_KIND:
            return [(Action(SHOW_KIND, 0, tuple(view.hole)), 1.0)]
        if kind == EXPOSE_KIND:
            return _subsets(EXPOSE_KIND, list(down_cards(view)), legal.discard_min)
        if kind == DECLARE_KIND:
            choices = tuple(getattr(legal, "choices", ()) or (1, 2, 3))
            return [(Action(kind, c), 1.0 / len(choices)) for c in choices]
        return [(Action(kind), 1.0)]
