"""Painted poker's actions: a bid, or a card played (a joker with how it is played).

Text forms (logs, the HTTP protocol): ``bid 2``; ``play As``; a joker following a lead,
``play Jk high`` or ``play Jk low``; a joker leading a trick may name a call
(«Выкладывающий джокера может заявить специальные правила»): ``play Jk high h``
(«По старшим конкретной масти»), ``play Jk trumps`` («По старшим козырям»),
``play Jk low d`` («Самая младшая конкретной масти»), or lead without one, ``play Jk
high`` / ``play Jk low`` (unless the option ``joker_call`` is ``required``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pokerarena.cards import JOKERS, SUITS, card_str, parse_card
from pokerarena.engine.actions import IllegalAction

BID = "bid"
PLAY = "play"
HIGH = "high"
LOW = "low"
TRUMPS = "trumps"
JOKER_MODES = ("", HIGH, LOW, TRUMPS)


class PaintedAction(NamedTuple):
    """``kind`` ``bid`` (``bid``: tricks, 0 is a pass) or ``play`` (``card``; a joker
    adds ``joker``: high/low, and when it leads, high or low with ``suit``, or trumps)."""

    kind: str
    bid: int = 0
    card: int = -1
    joker: str = ""
    suit: int = -1

    def text(self) -> str:
        """The text form (see the module docstring)."""
        if self.kind == BID:
            return f"bid {self.bid}"
        out = f"play {card_str(self.card)}"
        if self.joker:
            out += f" {self.joker}"
        if self.suit >= 0:
            out += f" {SUITS[self.suit]}"
        return out

    def as_json(self) -> dict[str, Any]:
        """JSON form: ``{"bid": 2}`` or ``{"card": "As"}`` (+ ``joker``, ``suit``)."""
        if self.kind == BID:
            return {"kind": BID, "bid": self.bid}
        out: dict[str, Any] = {"kind": PLAY, "card": card_str(self.card)}
        if self.joker:
            out["joker"] = self.joker
        if self.suit >= 0:
            out["suit"] = SUITS[self.suit]
        return out


def bid(n: int) -> PaintedAction:
    """Bid ``n`` tricks (0: a pass, «спасовать»)."""
    return PaintedAction(BID, int(n))


def play(c: int | str, joker: str = "", suit: int | str = -1) -> PaintedAction:
    """Play card ``c`` (code or text); a joker says ``joker`` and, leading, ``suit``."""
    code = parse_card(c) if isinstance(c, str) else int(c)
    s = SUITS.index(suit) if isinstance(suit, str) else int(suit)
    return PaintedAction(PLAY, 0, code, joker, s)


def parse_action(text: str) -> PaintedAction:
    """An action from its text form; a bad text is an :class:`IllegalAction`."""
    words = text.split()
    try:
        if words and words[0] == BID and len(words) == 2:
            return bid(int(words[1]))
        if words and words[0] == PLAY and 2 <= len(words) <= 4:
            c = parse_card(words[1])
            mode = words[2] if len(words) > 2 else ""
            suit = SUITS.index(words[3]) if len(words) > 3 else -1
            if mode not in JOKER_MODES or (mode and c not in JOKERS) or suit < -1:
                raise ValueError(mode)
            return PaintedAction(PLAY, 0, c, mode, suit)
    except ValueError:
        pass
    raise IllegalAction(f"painted: {text!r} is not an action: write 'bid N', 'play As', "
                        "'play Jk high|low', or 'play Jk high|low SUIT' / 'play Jk trumps' "
                        "when the joker leads")


def action_from_json(data: dict[str, Any]) -> PaintedAction:
    """The inverse of :meth:`PaintedAction.as_json` (bad data: :class:`IllegalAction`)."""
    if not isinstance(data, dict):
        raise IllegalAction("painted: an action is a JSON object")
    if data.get("kind") == BID and isinstance(data.get("bid"), int):
        return bid(data["bid"])
    words = [PLAY, str(data.get("card", "")), str(data.get("joker", "")),
             str(data.get("suit", ""))]
    return parse_action(" ".join(w for w in words if w))
