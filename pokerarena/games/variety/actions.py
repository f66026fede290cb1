"""Variety's actions: a bid for one of the eight contracts, or a card played.

Text forms (logs, the HTTP protocol): ``bid 7`` («заявку на розыгрыш» number 7) and
``play As``; JSON forms ``{"kind": "bid", "contract": 7}`` and
``{"kind": "play", "card": "As"}``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pokerarena.cards import CardError, card_str, parse_card
from pokerarena.engine.actions import IllegalAction
from pokerarena.games.variety.rules import CONTRACTS

BID = "bid"
PLAY = "play"


class VarietyAction(NamedTuple):
    """``kind`` ``bid`` (``contract``: 1 to 8) or ``play`` (``card``: its code)."""

    kind: str
    contract: int = 0
    card: int = -1

    def text(self) -> str:
        """The text form (see the module docstring)."""
        if self.kind == BID:
            return f"bid {self.contract}"
        return f"play {card_str(self.card)}"

    def as_json(self) -> dict[str, Any]:
        """The JSON form (see the module docstring)."""
        if self.kind == BID:
            return {"kind": BID, "contract": self.contract}
        return {"kind": PLAY, "card": card_str(self.card)}


def bid(contract: int) -> VarietyAction:
    """A bid for contract ``contract`` (1 to 8)."""
    return VarietyAction(BID, int(contract))


def play(c: int | str) -> VarietyAction:
    """Play card ``c`` (a code or its text, ``As``)."""
    return VarietyAction(PLAY, 0, parse_card(c) if isinstance(c, str) else int(c))


_HOW = "write 'bid N' (N a contract, 1 to 8) or 'play As'"


def parse_action(text: str) -> VarietyAction:
    """An action from its text form; a bad text is an :class:`IllegalAction`."""
    words = text.split() if isinstance(text, str) else []
    try:
        if len(words) == 2 and words[0] == BID and int(words[1]) in CONTRACTS:
            return bid(int(words[1]))
        if len(words) == 2 and words[0] == PLAY:
            c = parse_card(words[1])
            if c < 52:
                return play(c)
    except (ValueError, CardError):
        pass
    raise IllegalAction(f"variety: {text!r} is not an action: {_HOW}")


def action_from_json(data: Any, view: Any = None) -> VarietyAction:
    """The inverse of :meth:`VarietyAction.as_json`, or the text form (``"play As"``); an
    unknown or malformed answer is an :class:`IllegalAction`. ``view`` is the view it
    answers, unused: whether the action is legal there is the game's to say."""
    if isinstance(data, str):
        return parse_action(data)
    if not isinstance(data, dict):
        raise IllegalAction(f"variety: an action is a JSON object, not {data!r}")
    kind = data.get("kind")
    if kind == BID:
        n = data.get("contract")
        if isinstance(n, int) and not isinstance(n, bool) and n in CONTRACTS:
            return bid(n)
    elif kind == PLAY and isinstance(data.get("card"), str):
        return parse_action(f"play {data['card']}")
    raise IllegalAction(f"variety: {data!r} is not an action: "
                        '{"kind": "bid", "contract": 1..8} or {"kind": "play", "card": "As"}')
