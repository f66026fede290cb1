"""Game families that are not betting poker, behind the same protocol as the engine's:
``Game(options).new_hand(seed, seats, dealer)`` → a hand with ``to_act``,
``legal_actions()``, ``apply(action, seat)``, ``observation(seat)``, ``is_over``,
``result()`` (its ``deltas``: each seat's points) and a replayable ``log``.

This is their catalogue, kept apart from the poker variants of :mod:`pokerarena.rules`
(``variant_ids()`` lists the TOML betting variants; every poker test and spec iterates
over those): :func:`family_ids` lists the families here, :func:`new_game` makes one.

A family is a subpackage of this package whose ``__init__`` gives ``family()``
returning its :class:`Family`; the catalogue finds them all (no list to edit). A built-in
family's ``__init__`` imports nothing of its game: its public names come from its
``entry`` module on first use (:func:`lazy_export`), and its record tables are declared
in its ``sheet`` module (``RECORDS``), so that the storage layer lists every family's
tables (:func:`record_tables`) without loading any game's code or kernels. What the
platform needs from a family beyond the game itself is declared on :class:`Family`:
its built-in bots (``new_bot``), the JSON forms of its observations and actions (the
HTTP protocol), and its per-game score record (``record``, a Parquet table of its own,
and ``record_rows``, that table's rows for one finished game).
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pokerarena.errors import UserError

if TYPE_CHECKING:
    from pokerarena.games.base import FamilyGame
    from pokerarena.protocols import Bot, Game


class GameFamilyError(ValueError, UserError):
    """A game family that does not exist."""


@dataclass(frozen=True)
class RecordTable:
    """A family's own Parquet table (its score sheet): ``name`` (``painted_deals``),
    what one row is, and its columns ``(name, kind, doc)`` with ``kind`` one of the
    storage types (``string``, ``bool``, ``int8`` … ``int64``, ``double``). The storage
    layer adds ``run_id``, ``unit``, ``match`` and ``game`` in front of them."""

    name: str
    doc: str
    columns: tuple[tuple[str, str, str], ...]


_TRICK_COLUMNS: dict[str, tuple[str, str]] = {
    "deal": ("int16", "the deal's number in the game, from 0"),
    "trick": ("int16", "the trick within the deal, from 0"),
    "seq": ("int16", "the card's place in the trick (0: the lead)"),
    "seat": ("int8", "the seat that played it"),
    "bot": ("string", "that seat's bot"),
    "card": ("string", "the card (`As`)"),
    "won_by": ("int8", "the seat that took the trick (the game's own ruling)"),
}


def trick_table(name: str, doc: str, **docs: str) -> RecordTable:
    """A family's record of every card played to a trick (``Family.extra["tricks"]``):
    the one layout the workers write (from ``hand.tricks()``) and the viewer reads, each
    column's doc replaceable by the family's own reading (``deal="..."``)."""
    unknown = set(docs) - set(_TRICK_COLUMNS)
    if unknown:
        raise ValueError(f"trick_table: no columns {sorted(unknown)}")
    return RecordTable(name, doc, tuple((c, kind, docs.get(c, text))
                                        for c, (kind, text) in _TRICK_COLUMNS.items()))


@dataclass(frozen=True, kw_only=True)
class Family:
    """A registered family: its id, a name, the table sizes, and its game factory.

    ``make(options)`` → the game; ``play(options, bots, games, seed)``: the family's own
    loop of games where the shared one does not fit (:func:`pokerarena.games.play.play_games`
    is what ``pokerarena play`` plays); ``bots``: the built-in bots' names, ``new_bot(name,
    seed)`` makes one (an object with ``start_game(view)``, ``act(view) -> action`` and
    ``end_game(view)``);
    ``view_json(view)`` and ``action_json(action)`` / ``parse_action(obj, view)`` are the
    JSON forms of the HTTP protocol; ``record``/``record_rows(hand)``: the score record
    of one finished game, rows in ``record.columns`` order. What a game is (its
    players, utility, bounds and parameters) is its ``info``
    (:class:`~pokerarena.protocols.GameInfo`); the least and the most points of one seat
    are its game's ``score_range(players)``. A ``Family`` is a
    :class:`~pokerarena.protocols.GameFamily`."""

    id: str
    name: str
    players: tuple[int, int]
    deck: str
    make: Callable[[dict[str, Any] | None], FamilyGame]
    play: Callable[..., list[tuple[float, ...]]] | None = None
    bots: tuple[str, ...] = ()
    new_bot: Callable[[str, int | None], Bot[Any, Any]] | None = None
    view_json: Callable[[Any], dict[str, Any]] | None = None
    action_json: Callable[[Any], dict[str, Any]] | None = None
    parse_action: Callable[[Any, Any], Any] | None = None
    record: RecordTable | None = None
    record_rows: Callable[[Any], Sequence[tuple[Any, ...]]] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    """Anything else a family wants to publish (documented where it is read)."""


_FAMILIES: dict[str, Family] = {}


def register_game_family(family: Family) -> None:
    """Add ``family`` to the catalogue."""
    _FAMILIES[family.id] = family


@functools.cache
def _builtin() -> tuple[str, ...]:
    """The built-in families: this package's subpackages, each named by its family's id
    (a test holds every one to it), listed without importing them."""
    return tuple(info.name for info in pkgutil.iter_modules(__path__) if info.ispkg)


def family_ids() -> tuple[str, ...]:
    """The registered families, sorted."""
    return tuple(sorted({*_FAMILIES, *_builtin()}))


def family(name: str) -> Family:
    """The family called ``name``, or one clear error. A built-in family is imported on
    first use: a process that plays one family (a worker) loads only that one, and none
    of the others' kernels (an import error is an error, not a skip)."""
    found = _FAMILIES.get(name)
    if found is None and name in _builtin():
        make = getattr(importlib.import_module(f"{__name__}.{name}"), "family", None)
        if callable(make):
            register_game_family(make())
        found = _FAMILIES.get(name)
    if found is None:
        raise GameFamilyError(f"unknown game family {name!r}; known: {', '.join(family_ids())}")
    return found


def lazy_export(package: str, name: str) -> Any:
    """A family package's public ``name``, read from its ``entry`` module (imported on
    first use): the package's module ``__getattr__`` (PEP 562)."""
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        return getattr(importlib.import_module(f"{package}.entry"), name)
    except AttributeError:
        raise AttributeError(f"module {package!r} has no attribute {name!r}") from None


def record_tables(name: str) -> tuple[RecordTable, ...]:
    """Family ``name``'s record tables: its score record, then its tricks (``Family.
    extra["tricks"]``) where it records them. A built-in family's come from its light
    ``sheet`` module (``RECORDS``, which its ``Family`` also uses), its game not imported;
    a family registered otherwise gives those of its :class:`Family`."""
    if name in _builtin():
        return tuple(importlib.import_module(f"{__name__}.{name}.sheet").RECORDS)
    fam = family(name)
    return tuple(r for r in (fam.record, fam.extra.get("tricks")) if r is not None)


def families() -> tuple[Family, ...]:
    """Every registered family, in id order."""
    return tuple(family(k) for k in family_ids())


def entrant_bot(label: str) -> str:
    """The built-in bot an entrant plays: ``rule#2`` is a second entrant playing
    ``rule`` (a tournament lists each entrant once, and a four-seat family with three
    built-in bots still fills its tables), ``rule`` is itself."""
    name, sep, copy = label.partition("#")
    return name if sep and copy.isdigit() else label


def new_game(name: str, options: dict[str, Any] | None = None) -> FamilyGame:
    """A game of family ``name`` with ``options``."""
    return family(name).make(options)


def any_game(name: str, options: dict[str, Any] | None = None) -> Game:
    """Any game of the catalogue by its id: a game family (``durak``) or a poker variant
    (``holdem``; ``options`` as ``GameOptions`` takes them). Both are a
    :class:`~pokerarena.protocols.Game`, which mypy holds them to here."""
    if name in family_ids():
        return new_game(name, options)
    from pokerarena.engine.game import Game as PokerGame

    return PokerGame(name, options)


__all__ = ["Family", "GameFamilyError", "RecordTable", "any_game", "entrant_bot", "families",
           "family", "family_ids", "lazy_export", "new_game", "record_tables",
           "register_game_family", "trick_table"]
