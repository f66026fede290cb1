"""What one seat sees of a game of binocle: everything on the table.

Every hand lies face up («лицевой стороной вверх») and the dealer turns the cards for
all to see, so a seat sees every hand, which of its cards carry chips, every stake,
who dropped out and every card turned; only the order of the stock is hidden.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokerarena.cards import card_str
from pokerarena.games.binocle.actions import Move
from pokerarena.games.binocle.rules import BinocleOptions


@dataclass(frozen=True)
class BinocleView:
    """A seat's view. ``hands[s]``: seat ``s``'s five cards (none for a dealer who does
    not play); ``covered[s][i]``: chips lie on that card; ``staked[s]``: seat ``s``'s
    chips on the table; ``active[s]``: still in the game; ``turned``: the cards turned
    so far, the last one being staked on while ``to_act`` is not -1; ``stock``: how
    many cards are still to turn; ``order``: the playing seats in staking order."""

    seat: int
    players: int
    dealer: int
    options: BinocleOptions
    order: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    covered: tuple[tuple[bool, ...], ...]
    staked: tuple[int, ...]
    active: tuple[bool, ...]
    turned: tuple[int, ...]
    stock: int
    winners: tuple[int, ...]
    to_act: int
    legal: tuple[Move, ...]

    @property
    def pot(self) -> int:
        return sum(self.staked)

    def as_json(self) -> dict[str, Any]:
        """The JSON form an HTTP bot receives."""
        return {"family": "binocle", "seat": self.seat, "players": self.players,
                "dealer": self.dealer, "options": self.options.model_dump(mode="json"),
                "order": list(self.order),
                "hands": [[card_str(c) for c in h] for h in self.hands],
                "covered": [list(c) for c in self.covered], "staked": list(self.staked),
                "pot": self.pot, "active": list(self.active),
                "turned": [card_str(c) for c in self.turned], "stock": self.stock,
                "winners": list(self.winners), "to_act": self.to_act,
                "legal": [m.as_json() for m in self.legal]}
