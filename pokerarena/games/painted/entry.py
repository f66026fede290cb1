"""Painted poker's catalogue entry (``family()``) and public names, which the package gives
on first use: its ``__init__`` imports none of the game (see :mod:`pokerarena.games`)."""

from typing import Any

from pokerarena.games import Family
from pokerarena.games.painted.actions import (
    PaintedAction,
    action_from_json,
    bid,
    parse_action,
    play,
)
from pokerarena.games.painted.game import DealRecord, PaintedGame, PaintedHand, PaintedResult
from pokerarena.games.painted.rules import PaintedError, PaintedOptions, deal_plan
from pokerarena.games.painted.sheet import (
    PAINTED_DEALS,
    PAINTED_TRICKS,
    SHEET_COLUMNS,
    sheet_rows,
)
from pokerarena.games.painted.view import PaintedView


def record_rows(hand: PaintedHand) -> list[tuple[Any, ...]]:
    """The ``painted_deals`` rows of a finished game, in the table's column order."""
    return [tuple(r[c] for c in SHEET_COLUMNS) for r in sheet_rows(hand.records)]


def _new_bot(name: str, seed: int | None) -> Any:
    from pokerarena.games.painted.bots import make_bot

    return make_bot(name, seed)


def _parse_answer(obj: Any, view: PaintedView) -> PaintedAction:
    """An HTTP bot's answer: the action's JSON object, or its text form."""
    return parse_action(obj) if isinstance(obj, str) else action_from_json(obj)


def family() -> Family:
    """Painted poker's catalogue entry (see :mod:`pokerarena.games`). ``extra``:
    ``score_scale`` 2, the steps per point of its scores (special deals pay ×1.5, so
    points come in halves): the platform stores points × 2 as integers; ``tricks``:
    :data:`PAINTED_TRICKS`, the record of every trick played."""
    from pokerarena.games.painted.bots import BOTS
    from pokerarena.games.painted.matches import play_games

    return Family(id="painted", name=PaintedGame.name, players=PaintedGame.players,
                  deck="36|52", make=PaintedGame, play=play_games, bots=tuple(BOTS),
                  new_bot=_new_bot,
                  view_json=PaintedView.as_json, action_json=PaintedAction.as_json,
                  parse_action=_parse_answer, record=PAINTED_DEALS, record_rows=record_rows,
                  extra={"score_scale": 2, "tricks": PAINTED_TRICKS})


__all__ = ["family", "DealRecord", "PAINTED_DEALS", "PAINTED_TRICKS", "PaintedAction",
           "PaintedError", "PaintedGame", "PaintedHand", "PaintedOptions", "PaintedResult",
           "PaintedView", "bid", "deal_plan", "parse_action", "play", "record_rows"]
