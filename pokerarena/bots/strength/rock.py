"""``rock``: tight-passive; calls only with a good price and a good hand, raises only
the nuts-ish."""

from __future__ import annotations

from pokerarena.bots.strength.policy import StrengthBot, Style


class RockBot(StrengthBot):
    """Tight-passive: strong hands only, rarely raises, never bluffs."""

    name = "rock"
    description = "tight-passive: plays strong hands, rarely raises, never bluffs"
    style = Style(call_margin=0.10, raise_th=0.85, reraise_step=0.05, bluff=0.0,
                  bet_frac=0.5, open_th=0.5, samples=120, position_bonus=0.0)
