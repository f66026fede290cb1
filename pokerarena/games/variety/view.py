"""What one seat may see of a game of variety: a plain, self-contained copy.

A seat sees its own cards, every bid (bids are spoken aloud, and may mislead: «в
торговле допускается не только честная информация, но и дезинформация»), the
contract and the pairs once made, every card played and who took each trick, how many
cards each hand holds, and the record of the tour. Never another hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokerarena.cards import SUITS, card_str
from pokerarena.games.variety.actions import VarietyAction
from pokerarena.games.variety.rules import LOW_WINS, TRUMP, VarietyOptions
from pokerarena.games.variety.sheet import DealRecord

Plays = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class VarietyView:
    """A seat's view (see the module docstring). ``bids``: (seat, contract) in order;
    ``contract`` 0, ``attackers`` and ``partner`` -1 until two bids match;
    ``trick``: the current trick's (seat, card); ``tricks``: the finished tricks with
    their takers; ``legal``: the seat's legal actions when it is to act."""

    seat: int
    options: VarietyOptions
    deal_no: int
    deals: int
    dealer: int
    phase: str
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    bids: tuple[tuple[int, int], ...]
    contract: int
    trump: int
    low_wins: bool
    attackers: tuple[int, int]
    partner: int
    first_bidder: int
    leader: int
    trick: Plays
    tricks: tuple[tuple[Plays, int], ...]
    tricks_taken: tuple[int, ...]
    totals: tuple[int, ...]
    record: tuple[DealRecord, ...]
    to_act: int
    legal: tuple[VarietyAction, ...]

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    def as_json(self) -> dict[str, Any]:
        """The JSON form an external bot receives (cards as text, suits as letters)."""
        def plays(ps: Plays) -> list[dict[str, Any]]:
            return [{"seat": s, "card": card_str(c)} for s, c in ps]
        return {
            "family": "variety", "seat": self.seat, "players": self.players,
            "options": self.options.model_dump(mode="json"), "deal_no": self.deal_no,
            "deals": self.deals, "dealer": self.dealer, "phase": self.phase,
            "hand": [card_str(c) for c in self.hand], "hand_sizes": list(self.hand_sizes),
            "bids": [{"seat": s, "contract": c} for s, c in self.bids],
            "contract": self.contract or None,
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "low_wins": self.low_wins,
            "attackers": list(self.attackers) if self.attackers[0] >= 0 else None,
            "partner": self.partner if self.partner >= 0 else None,
            "first_bidder": self.first_bidder if self.first_bidder >= 0 else None,
            "leader": self.leader if self.leader >= 0 else None,
            "trick": plays(self.trick),
            "tricks": [{"plays": plays(p), "taker": w} for p, w in self.tricks],
            "tricks_taken": list(self.tricks_taken), "totals": list(self.totals),
            "to_act": self.to_act, "legal": [a.as_json() for a in self.legal]}


def view_of(hand: Any, seat: int) -> VarietyView:
    """``seat``'s view of ``hand`` (a :class:`~.game.VarietyHand`) now."""
    d = hand.deal
    over = hand.is_over
    made = d.attackers[0] >= 0
    return VarietyView(
        seat=seat, options=hand.game.options, deal_no=d.no, deals=hand.game.options.deals,
        dealer=d.dealer, phase="over" if over else d.phase, hand=tuple(d.hands[seat]),
        hand_sizes=tuple(len(h) for h in d.hands), bids=tuple(d.bids),
        contract=d.contract if made else 0,
        trump=int(TRUMP[d.contract]) if made else -1,
        low_wins=bool(LOW_WINS[d.contract]) if made else False,
        attackers=d.attackers if made else (-1, -1),
        partner=d.partner(seat) if made else -1,
        first_bidder=d.first_bidder if made else -1,
        leader=d.leader if made else -1,
        trick=tuple(d.trick), tricks=tuple(d.tricks),
        tricks_taken=tuple(len(t) // 4 for t in d.taken), totals=tuple(hand.totals),
        record=tuple(hand.records), to_act=-1 if over else d.to_act,
        legal=tuple(d.legal_actions()) if (not over and d.to_act == seat) else ())
