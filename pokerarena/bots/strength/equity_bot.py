"""``equity``: Monte-Carlo equity against the observed ranges; value bets, pot-odds calls."""

from __future__ import annotations

from typing import Any

from pokerarena.bots.base import HandSummary
from pokerarena.bots.strength.estimate import Profile
from pokerarena.bots.strength.policy import StrengthBot, Style
from pokerarena.engine.actions import CALL_KIND, FOLD_KIND, RAISE_KIND


class EquityBot(StrengthBot):
    """Equity against ranges narrowed by each opponent's bets and raises; bets for value
    sized by equity, calls exactly by pot odds, never bluffs.

    How much a bet or raise narrows a range depends on how often the opponents have been
    seen to bet and raise in this match: a raise from a maniac says little, one from a
    rock a lot (a moving average over the last few hundred actions)."""

    name = "equity"
    description = "Monte-Carlo equity vs. observed ranges: value bets, pot-odds calls"
    style = Style(call_margin=0.0, raise_th=0.60, reraise_step=0.07, bluff=0.0,
                  bet_frac=0.6, open_th=0.0, samples=300, narrow=True,
                  position_bonus=0.02, draw_samples=30, size_by_equity=True)

    def __init__(self, seed: int | None = None, samples: int | None = None,
                 **options: Any) -> None:
        super().__init__(seed, samples, **options)
        self.aggression = 0.2  # share of the opponents' voluntary actions that raise

    def keep_per_raise(self) -> float:
        """The share of its range an opponent keeps per bet or raise."""
        return min(1.0, 0.55 + 0.9 * self.aggression)

    def equity_stats(self, view: Any, prof: Profile,
                     thresholds: tuple[float, ...] = ()) -> tuple[float, int]:
        """Pot share with the opponents' ranges narrowed by their observed aggression."""
        if prof.is_draw:
            return super().equity_stats(view, prof, thresholds)
        return prof.equity_stats(view, self.samples, self.mc_rng, narrow=True,
                                 keep_per_raise=self.keep_per_raise(),
                                 thresholds=thresholds, min_samples=self.min_samples)

    def end_hand(self, summary: HandSummary) -> None:
        """Update the opponents' observed aggression."""
        for actor, act in summary.history:
            if actor >= 0 and actor != summary.seat and act.kind in (
                    FOLD_KIND, CALL_KIND, RAISE_KIND):
                hit = 1.0 if act.kind == RAISE_KIND else 0.0
                self.aggression += 0.01 * (hit - self.aggression)
