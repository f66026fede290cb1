"""``tag``: tight-aggressive, driven by equity, pot odds and position."""

from __future__ import annotations

from pokerarena.bots.strength.policy import StrengthBot, Style


class TagBot(StrengthBot):
    """Tight-aggressive: bets and raises good hands, calls by pot odds, few bluffs."""

    name = "tag"
    description = "tight-aggressive: equity vs. pot odds, value bets, few bluffs"
    style = Style(call_margin=0.03, raise_th=0.62, reraise_step=0.08, bluff=0.03,
                  bet_frac=0.65, open_th=0.0, samples=150, position_bonus=0.03)
