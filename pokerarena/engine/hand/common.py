"""What every part of the hand shares: phase numbers and names, the action kinds
the betting rounds offer, and the mypyc class decorator."""

from __future__ import annotations

from typing import Any, Final

from pokerarena.cards import card_str
from pokerarena.engine.actions import CALL_KIND, FOLD_KIND, RAISE_KIND, UNKNOWN, Action

try:  # compiled with mypyc when installed so; a no-op decorator otherwise
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - plain Python
    def _no_attr(*_args: Any, **_kwargs: Any) -> Any:
        """No-op stand-in for mypy_extensions.mypyc_attr."""
        return lambda cls: cls

    mypyc_attr = _no_attr  # type: ignore[assignment]


PH_NONE: Final = 0
PH_BET: Final = 1
PH_DRAW: Final = 2
PH_DEAL: Final = 3
PH_SHOW: Final = 4
PH_OVER: Final = 5
PH_EXPOSE: Final = 6
PH_DECLARE: Final = 7
_FCR: Final[tuple[str, ...]] = (FOLD_KIND, CALL_KIND, RAISE_KIND)
_FC: Final[tuple[str, ...]] = (FOLD_KIND, CALL_KIND)
_FR: Final[tuple[str, ...]] = (FOLD_KIND, RAISE_KIND)
_CR: Final[tuple[str, ...]] = (CALL_KIND, RAISE_KIND)
_C: Final[tuple[str, ...]] = (CALL_KIND,)
_CHECK: Final = Action(CALL_KIND)  # logged for every check (shared: actions are immutable)
_NO_RAISE: tuple[int, int, tuple[int, ...]] = (0, 0, ())
_new_tuple: Final = tuple.__new__  # Legal(...) without NamedTuple.__new__'s keyword handling
PH_CHOOSE: Final = 8  # each player chooses his next up card up (cc) or down (dd)
DOWN_KIND: Final = "dd"
# Phase names by phase number; families add theirs (new_phase).
PHASE_NAMES: list[str] = ["none", "bet", "draw", "deal", "showdown", "over", "expose",
                          "declare", "choose"]


def new_phase(name: str) -> int:
    """A new phase for a family of games (its hand sets ``phase`` to it): its number."""
    if name in PHASE_NAMES:
        return PHASE_NAMES.index(name)
    PHASE_NAMES.append(name)
    return len(PHASE_NAMES) - 1


def _card_text(c: int) -> str:
    return "??" if c == UNKNOWN else card_str(c)


PROTECT_KIND: Final = "pr"  # disconnection protection: all in for what the seat has put in
