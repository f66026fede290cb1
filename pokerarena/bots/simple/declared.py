"""Bots made from a declared policy: ``act`` draws from ``policy``, so the two agree by
construction. For fixed strategies in tests and in exact evaluations (docs/exact.md):

>>> def k_bets(view):   # Kuhn: bet or call with the king, check or fold otherwise
...     ...
>>> bot = DeclaredBot(k_bets, seed=1, name="k_bets")
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pokerarena.bots.base import BaseBot, Policy, SeatView
from pokerarena.engine.actions import Action

PolicyFn = Callable[[SeatView], Policy]


class DeclaredBot(BaseBot):
    """A bot whose strategy is the function ``policy_fn(view) -> [(action, p), ...]``;
    ``act`` draws one action from it with the bot's seeded generator."""

    name = "declared"
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
        dist = self._policy(view)
        u = self.rng.random()
        acc = 0.0
        for action, p in dist:
            acc += p
            if u < acc:
                return action
        return dist[-1][0]
