"""Binocle's actions: stake on the cards the turned card matches, or drop out (only
with the ``drop`` option).

Text form ``stake 26`` / ``drop``; JSON ``{"kind": "stake", "chips": 26}`` /
``{"kind": "drop"}``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pokerarena.engine.actions import IllegalAction

STAKE, DROP = "stake", "drop"


class Move(NamedTuple):
    """``stake`` (``chips``: the value of the matched cards) or ``drop``."""

    kind: str
    chips: int = 0

    def text(self) -> str:
        """The text form, ``stake 26`` or ``drop``."""
        return f"{STAKE} {self.chips}" if self.kind == STAKE else DROP

    def as_json(self) -> dict[str, Any]:
        """The JSON form."""
        return {"kind": STAKE, "chips": self.chips} if self.kind == STAKE else {"kind": DROP}


_HELP = "write 'stake N' (N: the chips the turned card asks of you) or 'drop'"


def parse_action(text: str) -> Move:
    """A move from its text form; a bad text is an :class:`IllegalAction`."""
    words = str(text).split()
    if words == [DROP]:
        return Move(DROP)
    if len(words) == 2 and words[0] == STAKE and words[1].isdigit():
        return Move(STAKE, int(words[1]))
    raise IllegalAction(f"binocle: {text!r} is not a move: {_HELP}")


def action_from_json(data: Any, view: Any = None) -> Move:
    """The inverse of :meth:`Move.as_json`; bad data is an :class:`IllegalAction`."""
    if isinstance(data, dict) and data.get("kind") == DROP and set(data) == {"kind"}:
        return Move(DROP)
    if isinstance(data, dict) and data.get("kind") == STAKE and set(data) == {"kind", "chips"} \
            and isinstance(data["chips"], int) and not isinstance(data["chips"], bool):
        return Move(STAKE, data["chips"])
    raise IllegalAction(f"binocle: {data!r} is not a move: {_HELP}")
