"""``Hand``: the table state machine of one deal, one file per phase.

Internally everything is indexed by *position*: 0 is the first seat left of the button,
``n - 1`` the button (this is also PHH's player order p1..pn). The public interface
speaks *seats* (``to_act``, ``observation(seat)``, ``result().deltas``).

The hand is one chain of classes, each in its file and each adding one phase to the one
before: :mod:`~.state` (the attributes, the accessors, the hooks later files define),
:mod:`~.dealing`, :mod:`~.draws` (draws and the expose/declare/choose turns),
:mod:`~.betting` (the hot path), :mod:`~.remedies` (house rules for irregularities),
:mod:`~.rounds` (who opens a round), :mod:`~.pots` (settlement), :mod:`~.showdown`, and
:mod:`~.driver` (:class:`Hand`: dispatch and the walk over the program's steps). A chain
of native classes keeps every attribute read and method call native under mypyc, which
free functions over a shared state would also do but with each call site rewritten;
families of games subclass :class:`Hand` (knock poker: :mod:`pokerarena.engine.knock`).
:class:`Observation` and :class:`HandResult` are what the outside reads.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from pokerarena.engine.actions import EngineError
from pokerarena.engine.hand.common import (
    DOWN_KIND,
    PH_BET,
    PH_CHOOSE,
    PH_DEAL,
    PH_DECLARE,
    PH_DRAW,
    PH_EXPOSE,
    PH_NONE,
    PH_OVER,
    PH_SHOW,
    PHASE_NAMES,
    PROTECT_KIND,
    _card_text,
    new_phase,
)
from pokerarena.engine.hand.results import HandResult, Pot

if TYPE_CHECKING:
    from pokerarena.engine.hand.driver import Hand
    from pokerarena.engine.hand.observation import Observation
    from pokerarena.engine.hand.rules import _has_bobtail, _has_openers
    from pokerarena.engine.hand.state import HandState

_LAZY = {"Hand": "driver", "Observation": "observation", "_has_bobtail": "rules",
         "_has_openers": "rules", "HandState": "state"}


def __getattr__(name: str) -> Any:
    """The hand's classes on first use (they load the game program and the evaluator):
    the constants above come without them."""
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{where}"), name)


__all__ = ["DOWN_KIND", "PH_BET", "PH_CHOOSE", "PH_DEAL", "PH_DECLARE", "PH_DRAW",
           "PH_EXPOSE", "PH_NONE", "PH_OVER", "PH_SHOW", "PHASE_NAMES", "PROTECT_KIND",
           "EngineError", "Hand", "HandResult", "HandState", "Observation", "Pot",
           "_card_text", "_has_bobtail", "_has_openers", "new_phase"]
