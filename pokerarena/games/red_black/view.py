"""What one seat sees of a game of red and black: everything on the table.

Every hand is dealt face up («лицевой стороной вверх») and every colour is declared
aloud, so a seat sees all the cards dealt so far, every bet and every payment; only the
order of the undealt cards is hidden. ``red_left``/``black_left`` count the undealt
cards of each colour (what a counting player keeps in his head).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from pokerarena.cards import card_str
from pokerarena.games.red_black.actions import Bet
from pokerarena.games.red_black.rules import RedBlackOptions


class BetRecord(NamedTuple):
    """One settled bet: the round, the seat, its bet, its five cards, how many are of
    the declared colour, and the player's gain (the banker's is its negative)."""

    round: int
    seat: int
    colour: str
    stake: int
    cards: tuple[int, ...]
    matched: int
    gain: int

    def as_json(self) -> dict[str, Any]:
        return {"round": self.round, "seat": self.seat, "colour": self.colour,
                "stake": self.stake, "cards": [card_str(c) for c in self.cards],
                "matched": self.matched, "gain": self.gain}


@dataclass(frozen=True)
class RedBlackView:
    """A seat's view (see the module docstring). ``declared``: this round's bets not
    yet settled, by seat; ``settled``: every settled bet of the game; ``legal``: the
    seat's legal bets when it is to act."""

    seat: int
    players: int
    dealer: int
    options: RedBlackOptions
    round: int
    rounds: int
    declared: dict[int, Bet]
    settled: tuple[BetRecord, ...]
    red_left: int
    black_left: int
    totals: tuple[int, ...]
    to_act: int
    legal: tuple[Bet, ...]

    @property
    def cards_left(self) -> int:
        return self.red_left + self.black_left

    def as_json(self) -> dict[str, Any]:
        """The JSON form an HTTP bot receives."""
        return {"family": "red_black", "seat": self.seat, "players": self.players,
                "dealer": self.dealer, "options": self.options.model_dump(mode="json"),
                "round": self.round, "rounds": self.rounds,
                "declared": {str(s): b.as_json() for s, b in self.declared.items()},
                "settled": [r.as_json() for r in self.settled],
                "red_left": self.red_left, "black_left": self.black_left,
                "totals": list(self.totals), "to_act": self.to_act,
                "legal": [b.as_json() for b in self.legal]}
