"""What an observer of a unit hears while it plays (metrics, progress), without
monkeypatching.

:func:`~pokerarena.workers.records.play_unit` calls these methods when an observer is
given, and checks ``observer is not None`` once per decision when none is: no other
cost. The table's fault guard measures each decision (the time a bot spent in ``act``,
under its time limit); the observer gets that figure, not a clock of its own.
"""

from __future__ import annotations


class UnitObserver:
    """Base observer: every method does nothing; override what you need."""

    def on_decision(self, bot: str, seconds: float) -> None:
        """A decision the bot ``bot`` (its name in the unit's lineup) was asked for took
        ``seconds`` (not called for a decision the policy made without asking it: a
        removed bot, a spent hand budget)."""

    def on_decisions(self, bot: str, count: int, seconds: float) -> None:
        """``count`` decisions of ``bot`` took ``seconds`` each (the fast table times a
        unit's decisions together: :mod:`~pokerarena.workers.fasttable`); by default
        :meth:`on_decision` ``count`` times."""
        for _ in range(count):
            self.on_decision(bot, seconds)

    def on_hand(self, hand: int, evaluations: int) -> None:
        """Hand ``hand`` (match numbering) ended; ``evaluations``: hands scored at its
        showdown (one per seat and ranking)."""

    def on_fault(self, bot: str, kind: str) -> None:
        """The table recorded a fault of ``kind`` by ``bot`` (its label in the match)."""
