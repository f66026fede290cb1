"""What every game, hand, bot and family of games is, stated once (issue 28).

The poker engine (``pokerarena.engine.Game``) and the six game families (``games/``)
grew apart: the engine's ``new_hand(seed, seats, stacks, button)`` against a family's
``new_hand(seed, seats, dealer)``, a poker ``Bot`` against a family's ``FamilyBot``.
Their common shape was written nowhere but in the loops that relied on it. Here it is a
set of :class:`typing.Protocol` classes, which mypy holds every game and family to at
the places that make them (the families' registration, :func:`pokerarena.games.any_game`).
Every game also declares a :class:`GameInfo`. That is what tools that walk, bound or
adapt a game read, instead of each computing its own: the OpenSpiel adapter, the exact
evaluator, the conformance test, ``pokerarena info``.

This module sits at the bottom of the layers (beside ``errors``): it imports nothing of
the package, and the layers above import it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from numpy.random import Generator

Seed: TypeAlias = "int | Generator | None"
"""What deals a hand: an int seed, a numpy Generator used as it is, or None (fresh)."""

Utility = Literal["zero_sum", "constant_sum", "general_sum"]
Information = Literal["imperfect", "perfect"]

ViewT_contra = TypeVar("ViewT_contra", contravariant=True)
ActionT_co = TypeVar("ActionT_co", covariant=True)


@dataclass(frozen=True)
class Param:
    """One parameter of a game: its ``name`` as the options spell it, its ``type`` as
    text (``int``, ``bool``, ``str | None``, a choice ``'strict' | 'house'``), its
    ``default`` (None: the variant's or the rules' own choice) and a ``doc`` line."""

    name: str
    type: str
    default: Any
    doc: str = ""


@dataclass(frozen=True)
class GameInfo:
    """What a game is, as a tool needs it before playing it.

    ``name``: the variant or family id; ``family``: ``poker`` for the engine's variants,
    else the family's id; ``betting``: the engine's betting system ("" for a family);
    ``players``: the least and the most seats; ``information``: imperfect for every game
    here (cards are hidden); ``utility``: ``zero_sum`` where one hand's results always sum
    to 0, ``constant_sum`` where to ``utility_sum``, else ``general_sum`` (a rake, a
    kitty, a pot carried to the next deal); ``utility_range``: the least and the most one
    seat can end one hand (or game) with at the fullest table, default stacks and
    options (None: the rules bound none); ``max_length``: the most player decisions one
    hand can take (chance not counted; None: the rules bound none, as knock poker's
    turns or durak's attacks); ``explicit_chance``: the game can take its chance
    outcomes as moves (the engine's ``dealing = "manual"``), which exact tools walk;
    ``parameters``: what the options accept."""

    name: str
    family: str
    betting: str
    players: tuple[int, int]
    information: Information
    utility: Utility
    utility_sum: float | None
    utility_range: tuple[float, float] | None
    max_length: int | None
    explicit_chance: bool
    parameters: tuple[Param, ...]

    def as_dict(self) -> dict[str, Any]:
        """The JSON form (``pokerarena info --json``)."""
        out = asdict(self)
        out["players"] = list(self.players)
        out["utility_range"] = None if self.utility_range is None else list(self.utility_range)
        out["parameters"] = [{**asdict(p), "default": _json_value(p.default)}
                             for p in self.parameters]
        return out


class Outcome(Protocol):
    """A finished hand's result: each seat's gain (chips or points), seat order."""

    @property
    def deltas(self) -> Sequence[float]: ...


class Hand(Protocol):
    """One hand or game under way: whose turn, what is legal, a move applied, what a
    seat sees, and the result once it is over."""

    @property
    def is_over(self) -> bool: ...

    @property
    def to_act(self) -> int | None: ...

    def legal_actions(self) -> Any: ...

    def apply(self, action: Any, seat: int | None = None) -> None: ...

    def observation(self, seat: int) -> Any: ...

    def result(self) -> Outcome: ...


class Game(Protocol):
    """A game with its options: what it is (:class:`GameInfo`) and a new hand from a
    seed at a table of ``seats`` (every other argument has its default: the engine's
    variant stacks and button at seat 0, a family's dealer by lot)."""

    @property
    def info(self) -> GameInfo: ...

    def new_hand(self, seed: Seed, seats: int, /) -> Hand: ...


@runtime_checkable
class Bot(Protocol[ViewT_contra, ActionT_co]):
    """A player: its ``name`` and its move at a view. Poker bots read a ``SeatView`` and
    answer an ``Action`` (``pokerarena.bots.base.Bot``); a family's bots read its view
    and answer its moves (``pokerarena.games.family_bot.FamilyBot``). Optional hooks
    (``policy``, ``start_game``, ``end_game``, ``snapshot``) are declared where used."""

    name: str

    def act(self, view: ViewT_contra) -> ActionT_co: ...


class GameFamily(Protocol):
    """A registered family of games (``pokerarena.games.Family``): its id and name, its
    table sizes, its game factory and its built-in bots."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def players(self) -> tuple[int, int]: ...

    @property
    def make(self) -> Callable[[dict[str, Any] | None], Game]: ...

    @property
    def bots(self) -> tuple[str, ...]: ...




def _json_value(value: Any) -> Any:
    """A parameter's default as JSON: itself where JSON has it, else its text (a
    ``Fraction``)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_json_value(v) for v in value]
    return str(value)


def longest(bounds: Sequence[int | None]) -> int | None:
    """The largest of the bounds on a game's length at each table size; None when one of
    them is unbounded."""
    return None if None in bounds else max(b for b in bounds if b is not None)


def _type_text(annotation: Any) -> str:
    if isinstance(annotation, type):
        return annotation.__name__
    return str(annotation).replace("typing.", "").replace("NoneType", "None")


def params_of(model: Any) -> tuple[Param, ...]:
    """The parameters of a pydantic options model (its fields, in order): the one way a
    game's :class:`GameInfo` lists what its options accept."""
    return tuple(Param(name, _type_text(f.annotation),
                       f.get_default(call_default_factory=True), f.description or "")
                 for name, f in model.model_fields.items())


__all__ = ["Bot", "Game", "GameFamily", "GameInfo", "Hand", "Information", "Outcome", "Param",
           "Seed", "Utility", "longest", "params_of"]
