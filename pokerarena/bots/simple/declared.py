"""Bots made from a declared policy: ``act`` draws from ``policy``, so the two agree by
construction. For fixed strategies in tests and in exact evaluations (docs/exact.md):

>>> def k_bets(view):   # Kuhn: bet or call with the king, check or fold otherwise
...     ...
>>> bot = DeclaredBot(k_bets, seed=1, name="k_bets")
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pokerarena.bots.base import BaseBot, Policy, SeatView, draw_from
from pokerarena.engine.actions import CHECK_CALL, FOLD, RAISE_KIND, Action, bet_to

PolicyFn = Callable[[SeatView], Policy]


class DeclaredBot(BaseBot):
    """A bot whose strategy is the function ``policy_fn(view) -> [(action, p), ...]``;
    ``act`` draws one action from it with the bot's seeded generator."""

    name = "declared"
    pure_policy = True  # policy() reads the view alone (bots.base.branches_of)
    description = "plays a declared policy function (fixed strategies)"

    def __init__(self, policy_fn: PolicyFn, seed: int | None = None, *,
                 name: str | None = None, **options: Any) -> None:
        super().__init__(seed, **options)
        self._policy = policy_fn
        if name is not None:
            self.name = name

    def policy(self, view: SeatView) -> Policy:
        """The declared distribution at ``view``."""
        return self._policy(view)

    def act(self, view: SeatView) -> Action:
        """One draw from :meth:`policy` (cumulative probabilities against one uniform)."""
        return draw_from(self._policy(view), self.rng.random())


def aggression(view: SeatView, aggressive: float, call: float) -> Policy:
    """A fixed-limit policy in two numbers, the building block of fixed strategies: bet
    or raise with probability ``aggressive`` where allowed; facing a bet, call with
    ``call`` of what is left, else fold; with nothing to call, check."""
    legal = view.legal
    assert legal is not None
    raise_p = aggressive if RAISE_KIND in legal.kinds else 0.0
    out = [(bet_to(legal.min_to), raise_p)] if raise_p else []
    rest = 1.0 - raise_p
    if legal.call == 0:
        out.append((CHECK_CALL, rest))
    else:
        out += [(CHECK_CALL, rest * call), (FOLD, rest * (1.0 - call))]
    return [(a, p) for a, p in out if p > 0]
