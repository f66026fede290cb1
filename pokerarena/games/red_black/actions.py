"""Red and black's one action: a colour declared with a stake.

Text form ``red 3`` / ``black 1``; JSON ``{"colour": "red", "stake": 3}``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pokerarena.engine.actions import IllegalAction
from pokerarena.games.red_black.rules import COLOURS


class Bet(NamedTuple):
    """A declared colour (``red``/``black``) and the stake in chips."""

    colour: str
    stake: int

    def text(self) -> str:
        """The text form, ``red 3``."""
        return f"{self.colour} {self.stake}"

    def as_json(self) -> dict[str, Any]:
        """The JSON form, ``{"colour": "red", "stake": 3}``."""
        return {"colour": self.colour, "stake": self.stake}


_HELP = "write 'red N' or 'black N' (N: the stake in chips)"


def parse_action(text: str) -> Bet:
    """A bet from its text form; a bad text is an :class:`IllegalAction`."""
    words = str(text).split()
    if len(words) == 2 and words[0].lower() in COLOURS and words[1].isdigit():
        return Bet(words[0].lower(), int(words[1]))
    raise IllegalAction(f"red_black: {text!r} is not a bet: {_HELP}")


def action_from_json(data: Any, view: Any = None) -> Bet:
    """The inverse of :meth:`Bet.as_json`; bad data is an :class:`IllegalAction`."""
    if not isinstance(data, dict) or set(data) - {"colour", "stake"}:
        raise IllegalAction(f"red_black: an action is a JSON object {{colour, stake}}: {_HELP}")
    colour, stake = data.get("colour"), data.get("stake")
    if colour not in COLOURS or not isinstance(stake, int) or isinstance(stake, bool):
        raise IllegalAction(f"red_black: {data!r} is not a bet: {_HELP}")
    return Bet(str(colour), stake)
