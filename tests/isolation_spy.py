"""A bot that searches everything it is given for a way into the hand (test helper).

Every call (``act`` and the hooks) walks the object graph of its arguments and of the bot
itself: attributes, slots, container items, closures, defaults and bound methods' owners
(not modules and classes: code, not state). Whatever it finds of a forbidden type (the
engine's hand or observation, a table, a game, a random generator, the table's view
maker or fault guard) is noted in :data:`FOUND`; every view it gets is kept in
:data:`VIEWS` for the test to check card by card against the hands that were played.
"""

from __future__ import annotations

import gc
import types
from typing import Any

import numpy as np

from pokerarena.engine.actions import CALL_KIND, SHOW_KIND, Action

FOUND: list[str] = []
VIEWS: list[Any] = []
CALLS: list[str] = []


def _forbidden() -> tuple[type, ...]:
    from pokerarena.arena.faults import GuardedBot
    from pokerarena.arena.views import ViewMaker
    from pokerarena.engine.game import Game
    from pokerarena.engine.hand import Hand, Observation
    from pokerarena.engine.table import Table

    return (Hand, Observation, Table, Game, ViewMaker, GuardedBot, np.random.Generator,
            np.random.BitGenerator, np.random.SeedSequence)


def walk(*roots: Any) -> list[str]:
    """Forbidden objects reachable from ``roots`` (type names with the path's start)."""
    bad_types = _forbidden()
    seen: set[int] = set()
    todo = [(r, type(r).__name__) for r in roots]
    bad = []
    while todo:
        obj, where = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, bad_types):
            bad.append(f"{type(obj).__name__} via {where}")
            continue
        if obj is None or isinstance(obj, int | float | str | bytes | type | types.ModuleType):
            continue
        if isinstance(obj, types.FunctionType):
            refs = [c.cell_contents for c in obj.__closure__ or () if _filled(c)]
            refs += list(obj.__defaults__ or ()) + list((obj.__kwdefaults__ or {}).values())
        elif isinstance(obj, types.MethodType):
            refs = [obj.__self__, obj.__func__]
        elif isinstance(obj, types.BuiltinFunctionType | types.CodeType):
            refs = [getattr(obj, "__self__", None)]
        else:
            refs = gc.get_referents(obj)
        todo.extend((r, where) for r in refs)
    return bad


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018 - an empty cell raises
    except ValueError:
        return False
    return True


class Spy:
    """Checks or calls (shows at a showdown, stands pat, turns up, declares) after
    searching what it was given."""

    name = "spy"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def _look(self, what: str, *args: Any) -> None:
        CALLS.append(what)
        FOUND.extend(f"{what}: {b}" for b in walk(self, *args))

    def start_match(self, info: Any) -> None:
        self._look("start_match", info)

    def start_hand(self, view: Any) -> None:
        self._look("start_hand", view)
        VIEWS.append(view)

    def end_hand(self, summary: Any) -> None:
        self._look("end_hand", summary)

    def act(self, view: Any) -> Action:
        self._look("act", view)
        VIEWS.append(view)
        legal = view.legal
        kinds = legal.kinds
        if CALL_KIND in kinds:
            return Action(CALL_KIND)
        if SHOW_KIND in kinds:
            return Action(SHOW_KIND, 0, tuple(view.hole))
        if "pb" in kinds:
            return Action("pb")
        if "sd" in kinds:
            return Action("sd", 0, tuple(view.hole[:legal.discard_min]))
        if "ex" in kinds:
            up = set(view.up[view.seat])
            return Action("ex", 0, tuple([c for c in view.hole if c not in up]
                                         [:legal.discard_min]))
        if "dc" in kinds:
            return Action("dc", 1)
        return Action(kinds[0])


def reset() -> None:
    """Forget what earlier runs found."""
    FOUND.clear()
    VIEWS.clear()
    CALLS.clear()
