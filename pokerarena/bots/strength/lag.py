"""``lag``: loose-aggressive, driven by equity, pot odds and position."""

from __future__ import annotations

from pokerarena.bots.strength.policy import StrengthBot, Style


class LagBot(StrengthBot):
    """Loose-aggressive: plays many hands, bets often, bluffs a fair share."""

    name = "lag"
    description = "loose-aggressive: wide calls, frequent bets and bluffs"
    style = Style(call_margin=-0.02, raise_th=0.56, reraise_step=0.07, bluff=0.14,
                  bet_frac=0.8, open_th=0.0, samples=150, position_bonus=0.04)
