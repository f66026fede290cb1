"""``equity``: Monte-Carlo equity against the observed ranges; value bets, pot-odds calls."""

from __future__ import annotations

from pokerarena.bots.policy import StrengthBot, Style


class EquityBot(StrengthBot):
    """Equity against ranges narrowed by each opponent's bets and raises; bets for value
    sized by equity, calls exactly by pot odds, never bluffs."""

    name = "equity"
    description = "Monte-Carlo equity vs. observed ranges: value bets, pot-odds calls"
    style = Style(call_margin=0.0, raise_th=0.60, reraise_step=0.07, bluff=0.0,
                  bet_frac=0.6, open_th=0.0, samples=300, narrow=True,
                  position_bonus=0.02, draw_samples=30, size_by_equity=True)
