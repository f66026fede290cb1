"""A stored hand written as a hand history others read: PHH, PokerStars text, OHH JSON.

Every writer starts from the stored rows of one hand (``hands``, ``seats`` and
``actions`` as dicts, docs/schema.md). :func:`replay_rows` plays the log once more on
the engine (manual dealing, the hand's own options, stacks, button and carried pot) so
that the PHH writer of the engine (:func:`pokerarena.engine.phh.hand_to_phh`) writes it
as it writes any hand it played, and so that the PokerStars and OHH writers get the
pots and who won each from the rules themselves instead of re-deriving them; a hand
whose replay does not end at its stored end stacks is refused, never written wrong.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pokerarena.cards import parse_card
from pokerarena.engine.actions import (
    DEAL_BOARD_KIND,
    DEAL_HOLE_KIND,
    DEALER,
    Action,
    EngineError,
)
from pokerarena.engine.game import Game
from pokerarena.engine.hand import Hand
from pokerarena.interop import InteropError
from pokerarena.interop.stored_hand import FORCED_KINDS, hand_steps, split_cards
from pokerarena.rules import VariantError, load_variant

FORMATS = ("phh", "pokerstars", "ohh")


class ExportError(InteropError):
    """A hand that cannot be written in the asked format (one line, naming it)."""


@dataclass
class StoredHand:
    """One stored hand: its rows (seats sorted by seat, actions by seq), the engine
    hand replayed from them, and the viewer's reading of the same rows (uncalled bet,
    side pots) from :mod:`~pokerarena.interop.stored_hand`."""

    hand: dict[str, Any]
    seats: list[dict[str, Any]]
    actions: list[dict[str, Any]]
    engine: Hand
    steps: dict[str, Any]

    @property
    def label(self) -> str:
        return f"hand {self.hand.get('unit')}/{self.hand['hand']}"

    @property
    def n(self) -> int:
        return int(self.hand["players"])

    def seat_row(self, seat: int) -> dict[str, Any]:
        return self.seats[seat]

    def blind_kinds(self) -> dict[int, str]:
        """``seat -> "small"|"big"`` for each seat that posted a blind, by the blind its
        position owes (not by what it posted: a short stack posts less), so heads-up
        the button is the small blind whichever seat the log names first."""
        _antes, blinds = self.engine.game.forced_by_position(self.n)
        owed = sorted(b for b in blinds if b)
        pos = {int(s["seat"]): int(s["position"]) for s in self.seats}
        out = {}
        for r in self.actions:
            if r["kind"] == "blind":
                k = int(r["seat"])
                small = len(owed) > 1 and blinds[pos[k]] == owed[0]
                out[k] = "small" if small else "big"
        return out

    @property
    def uncalled(self) -> tuple[int, int] | None:
        """``(seat, chips)`` of the bet nobody called (returned to its seat), or None."""
        for s in self.steps["steps"]:
            if s["kind"] == "uncalled":
                return int(s["seat"]), int(s["amount"])
        return None


def game_of(hand: Mapping[str, Any], *, manual: bool = True) -> Game:
    """The hand's game: its variant and the run's options (``hands.options``), dealt and
    shown by hand when ``manual`` (a replay of the stored log)."""
    try:
        options = json.loads(hand.get("options") or "{}")
    except ValueError:
        raise ExportError(f"hand {hand.get('hand')}: its options are not JSON") from None
    options.setdefault("betting", hand.get("betting"))
    if manual:
        options.update(dealing="manual", showdown="manual")
    try:
        return Game(str(hand["variant"]), options)
    except (VariantError, EngineError, ValueError) as exc:
        raise ExportError(f"hand {hand.get('hand')}: cannot rebuild its game "
                          f"{hand.get('variant')!r}: {str(exc).splitlines()[0]}") from None


def _action(row: Mapping[str, Any]) -> tuple[int, Action] | None:
    """The engine action of one log row (forced bets are the engine's own: None)."""
    kind = str(row["kind"])
    if kind in FORCED_KINDS:
        return None
    cards = tuple(parse_card(c) for c in split_cards(row.get("cards")))
    seat = int(row["seat"])
    if kind == DEAL_HOLE_KIND:
        return DEALER, Action(kind, 0, cards, int(row["target"]))
    if kind == DEAL_BOARD_KIND:
        return DEALER, Action(kind, 0, cards)
    if kind == "cbr":
        return seat, Action(kind, int(row.get("amount") or 0))
    if kind in ("sd", "sm", "ex"):
        return seat, Action(kind, int(row.get("amount") or 0) if kind == "sd" else 0, cards)
    if kind == "dc":
        return seat, Action(kind, int(row.get("amount") or 0))
    return seat, Action(kind)


def replay_rows(hand: Mapping[str, Any], seats: Sequence[Mapping[str, Any]],
                actions: Sequence[Mapping[str, Any]]) -> StoredHand:
    """Replay one stored hand on the engine; :class:`ExportError` when a row is refused
    or the replay ends elsewhere than the stored end stacks."""
    h = dict(hand)
    srows = sorted((dict(s) for s in seats), key=lambda r: int(r["seat"]))
    arows = sorted((dict(a) for a in actions), key=lambda r: int(r["seq"]))
    n = int(h["players"])
    label = f"hand {h.get('unit')}/{h['hand']}"
    if len(srows) != n or [int(s["seat"]) for s in srows] != list(range(n)):
        raise ExportError(f"{label}: its seats rows do not cover seats 0..{n - 1}")
    game = game_of(h)
    try:
        engine = game.new_hand(0, n, [int(s["start_stack"]) for s in srows],
                               int(h["button"]), carry=int(h.get("carry_in") or 0))
        for row in arows:
            step = _action(row)
            if step is not None:
                seat, act = step
                engine.apply(act, seat)
        if not engine.is_over and engine.phase_name == "showdown":
            engine.finish_showdown()
    except (EngineError, ValueError) as exc:
        raise ExportError(f"{label}: its log does not replay on the engine: "
                          f"{str(exc).splitlines()[0]}") from None
    if not engine.is_over:
        raise ExportError(f"{label}: its log stops before the hand is over")
    stacks = list(engine.result().stacks)
    if stacks != [int(s["end_stack"]) for s in srows]:
        raise ExportError(f"{label}: the replay ends at {stacks}, the rows at "
                          f"{[int(s['end_stack']) for s in srows]}")
    try:
        variant = load_variant(str(h["variant"]))
    except (VariantError, OSError, ValueError):
        variant = None
    steps = hand_steps(h, srows, arows, variant=variant)
    return StoredHand(h, srows, arows, engine, steps)


def to_phh(stored: StoredHand) -> dict[str, Any]:
    """The hand's PHH fields, written by the engine's own PHH writer (players p1..pn
    from the first seat left of the button), with where it came from as user fields."""
    from pokerarena.engine.phh import hand_to_phh

    h = stored.hand
    extra: dict[str, Any] = {"_run": str(h.get("run_id")), "_unit": str(h.get("unit")),
                             "_match": int(h["match"]), "_hand": int(h["hand"])}
    pos = {int(s["seat"]): int(s["position"]) for s in stored.seats}
    players = [""] * stored.n
    for s in stored.seats:
        players[pos[int(s["seat"])]] = str(s.get("bot") or f"seat {s['seat']}")
    extra["players"] = players
    return hand_to_phh(stored.engine, **extra)


def phh_text(data: Mapping[str, Any]) -> str:
    """PHH fields as TOML lines (strings, numbers, booleans and lists of them)."""
    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int | float):
            return repr(v)
        if isinstance(v, list | tuple):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return json.dumps(str(v), ensure_ascii=False)
    return "".join(f"{k} = {value(v)}\n" for k, v in data.items())
