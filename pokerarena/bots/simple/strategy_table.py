"""Strategy files (docs/exact.md, "Solving Kuhn and Leduc"): the information-state key of
a view, the names of moves, and the versioned file a solver writes and a bot plays.

It lives in the bots layer because the bot that plays a file must read it, and bots may
not import solvers; the solvers write through :func:`dump_strategy` and add the checks
that need the game tree (``pokerarena.solvers.strategy_file``).

Format version 1 is one UTF-8 JSON object::

    {"format": "pokerarena-strategy", "version": 1,
     "variant": "leduc", "betting": "fixed_limit", "options": {},
     "game_key": "b6233aec4bd67059", "algorithm": "cfr+", "iterations": 1000,
     "seed": 0, "exploitability": 0.0009, "units": "chips per hand", "infosets": 288,
     "strategy": {"0:Ks::": {"c": 0.25, "r2": 0.75}, ...}}

An information-state key is ``POSITION:HOLE:BOARD:LINE``: the position (0 acts first,
left of the button), the seat's own cards and the board as card text, and the public
moves of the hand (``f`` fold, ``c`` check or call, ``rN`` bet or raise to N chips;
``/`` where a board card is dealt). A move is named the same way (``f``, ``c``, ``rN``).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pokerarena.bots.seat_view import SeatView
from pokerarena.cards import cards_str
from pokerarena.engine.actions import (
    CALL_KIND,
    DEAL_BOARD_KIND,
    FOLD_KIND,
    RAISE_KIND,
    Action,
    bet_to,
)
from pokerarena.errors import UserError

FORMAT = "pokerarena-strategy"
VERSION = 1
TOLERANCE = 1e-9             # the probabilities of a state sum to 1 within this
MAX_BYTES = 64 * 2**20       # a larger file is refused before it is parsed
HEADER = {"format": str, "version": int, "variant": str, "betting": str, "options": dict,
          "game_key": str, "algorithm": str, "iterations": int, "seed": int,
          "exploitability": float, "units": str, "infosets": int, "strategy": dict}
_KEY = re.compile(r"^[0-9]:([2-9TJQKA][cdhs])*:([2-9TJQKA][cdhs])*:(f|c|r[0-9]{1,9}|/)*$")
_MOVE = re.compile(r"^(f|c|r[0-9]{1,9})$")


class StrategyFileError(ValueError, UserError):
    """A strategy file that cannot be played: unreadable, truncated, another format or
    version, another game, or a table that is not a strategy."""


def move_name(action: Action) -> str:
    """The name of a move in keys and files: ``f``, ``c`` or ``r<to>``."""
    if action.kind == FOLD_KIND:
        return "f"
    if action.kind == CALL_KIND:
        return "c"
    if action.kind == RAISE_KIND:
        return f"r{action.amount}"
    raise StrategyFileError(f"strategy files name folds, checks, calls, bets and raises; "
                            f"not {action.kind!r}")


def move_of(name: str) -> Action:
    """The action a move name stands for (inverse of :func:`move_name`)."""
    if name == "f":
        return Action(FOLD_KIND)
    if name == "c":
        return Action(CALL_KIND)
    return bet_to(int(name[1:]))


def state_key(view: SeatView) -> str:
    """The information-state key of a view: what the seat knows that matters to a
    strategy (its position, its cards, the board and the public moves), and nothing
    that changes from hand to hand at one table (hand number, match number, seat)."""
    line = []
    for actor, action in view.history:
        if action.kind == DEAL_BOARD_KIND:
            line.append("/")
        elif actor >= 0 and action.kind in (FOLD_KIND, CALL_KIND, RAISE_KIND):
            line.append(move_name(action))
    position = (view.seat - view.button - 1) % view.players
    return f"{position}:{cards_str(view.hole)}:{cards_str(view.board)}:{''.join(line)}"


@dataclass(frozen=True)
class StrategyTable:
    """A read strategy: the header's fields and, per key, ``{move name: probability}``."""

    header: dict[str, Any]
    strategy: dict[str, dict[str, float]]

    @property
    def variant(self) -> str:
        return str(self.header["variant"])

    @property
    def game_key(self) -> str:
        return str(self.header["game_key"])


def dump_strategy(path: str | Path, header: Mapping[str, Any],
                  strategy: Mapping[str, Mapping[str, float]]) -> None:
    """Write a version-1 file; the header's fields are checked as a reader checks them,
    so nothing is written that would not load."""
    doc = {"format": FORMAT, "version": VERSION, **header, "infosets": len(strategy),
           "strategy": {k: {m: float(p) for m, p in v.items()} for k, v in strategy.items()}}
    check_document(doc, str(path))
    text = json.dumps(doc, indent=None, separators=(",", ":"), allow_nan=False)
    Path(path).write_text(text + "\n", encoding="utf-8")


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"the key {k!r} appears twice")
        out[k] = v
    return out


def file_version(path: str | Path) -> Any:
    """The ``version`` a strategy file declares (1: an exact table; 2: an abstract
    strategy, ``cfr_bot``), or None when the file cannot be read as JSON: the reader
    chosen then names the problem."""
    try:
        with open(path, "rb") as fh:
            doc = json.loads(fh.read(MAX_BYTES + 1).decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    return doc.get("version") if isinstance(doc, dict) else None


def read_strategy(path: str | Path) -> StrategyTable:
    """Read and check a strategy file: one :class:`StrategyFileError` naming the file
    and the first problem, whatever is wrong with it (never a traceback)."""
    where = str(path)
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise StrategyFileError(f"{where}: cannot read the strategy file "
                                f"({exc.strerror or exc})") from None
    if len(raw) > MAX_BYTES:
        raise StrategyFileError(f"{where}: larger than {MAX_BYTES:,} bytes: not a strategy "
                                "file of this version")
    try:
        doc = json.loads(raw.decode("utf-8"), object_pairs_hook=_unique,
                         parse_constant=_no_constants)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise StrategyFileError(f"{where}: not a strategy file (truncated or not JSON: "
                                f"{exc})") from None
    return check_document(doc, where)


def check_document(doc: Any, where: str) -> StrategyTable:
    """Check a parsed document field by field (the version first, so a file of another
    version is named as such rather than as broken)."""
    def bad(msg: str) -> StrategyFileError:
        return StrategyFileError(f"{where}: {msg}")

    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise bad(f"not a strategy file (no \"format\": \"{FORMAT}\")")
    if doc.get("version") != VERSION or isinstance(doc.get("version"), bool):
        raise bad(f"strategy file version {doc.get('version')!r}; this pokerarena reads "
                  f"version {VERSION}")
    for name, typ in HEADER.items():
        value = doc.get(name)
        if typ is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, typ) or isinstance(value, bool):
            raise bad(f"header field {name!r} is missing or not of type {typ.__name__}")
        if isinstance(value, float) and not math.isfinite(value):
            raise bad(f"header field {name!r} is not a finite number")
    extra = set(doc) - set(HEADER)
    if extra:
        raise bad(f"unknown header fields {sorted(extra)}")
    if doc["iterations"] < 0 or doc["infosets"] < 0:
        raise bad("iterations and infosets cannot be negative")
    table = doc["strategy"]
    if len(table) != doc["infosets"]:
        raise bad(f"the header says {doc['infosets']} information states, the table "
                  f"has {len(table)}")
    strategy = {key: _check_state(key, probs, bad) for key, probs in table.items()}
    header = {k: v for k, v in doc.items() if k != "strategy"}
    _check_game(header, bad)
    return StrategyTable(header, strategy)


def _check_game(header: dict[str, Any], bad: Any) -> None:
    """The header's variant and options make a game whose key is the header's (an
    edited option or another game is caught here, before any hand)."""
    from pokerarena.engine import Game
    from pokerarena.engine.keys import game_info_of

    try:
        game = Game(header["variant"], header["options"])
    except (UserError, ValueError, TypeError) as exc:   # the header's game is the file's fault
        first = str(exc).strip().splitlines()
        raise bad(f"the header's game cannot be made: {first[0] if first else exc!r}") \
            from None
    key = game_info_of(game)["game_key"]
    if key != header["game_key"]:
        raise bad(f"the header's game key {header['game_key']} is not that of "
                  f"{header['variant']} with its options ({key})")


def _check_state(key: str, probs: Any, bad: Any) -> dict[str, float]:
    """One information state's row: a known key shape, named moves, probabilities that
    are finite, not negative, and sum to 1."""
    if not _KEY.match(key):
        raise bad(f"{key!r} is not an information-state key")
    if not isinstance(probs, dict) or not probs:
        raise bad(f"state {key!r}: not a table of moves and probabilities")
    out: dict[str, float] = {}
    for move, p in probs.items():
        if not _MOVE.match(move):
            raise bad(f"state {key!r}: {move!r} is not a move (f, c, rN)")
        if isinstance(p, bool) or not isinstance(p, int | float) or not math.isfinite(p) \
                or p < 0:
            raise bad(f"state {key!r}: move {move!r} has probability {p!r}")
        out[move] = float(p)
    total = sum(out.values())
    if abs(total - 1.0) > TOLERANCE:
        raise bad(f"state {key!r}: probabilities sum to {total!r}, not 1")
    return out
