"""Variety's catalogue entry (``family()``) and public names, which the package gives
on first use: its ``__init__`` imports none of the game (see :mod:`pokerarena.games`)."""

from __future__ import annotations

from functools import cache
from typing import Any

from pokerarena.games import Family
from pokerarena.games.variety.actions import (
    VarietyAction,
    action_from_json,
    bid,
    parse_action,
    play,
)
from pokerarena.games.variety.game import VarietyGame, VarietyHand
from pokerarena.games.variety.rules import CONTRACT_RULES, VarietyError, VarietyOptions
from pokerarena.games.variety.sheet import (
    RECORD,
    TRICKS,
    DealRecord,
    VarietyResult,
    record_rows,
)
from pokerarena.games.variety.view import VarietyView


def _new_bot(name: str, seed: int | None = None) -> Any:
    from pokerarena.games.variety.bots import make_bot

    return make_bot(name, seed)


def _rows(hand: VarietyHand) -> list[tuple[Any, ...]]:
    return record_rows(hand.records)


@cache
def family() -> Family:
    """Variety's catalogue entry (see :mod:`pokerarena.games`); ``extra["tricks"]``:
    the record of every trick played (:data:`.sheet.TRICKS`)."""
    return Family(
        id="variety", name=VarietyGame.name, players=VarietyGame.players, deck="52",
        make=VarietyGame, bots=("random", "rule", "sim"), new_bot=_new_bot,
        view_json=VarietyView.as_json, action_json=VarietyAction.as_json,
        parse_action=action_from_json, record=RECORD, record_rows=_rows,
        extra={"tricks": TRICKS})


__all__ = ["family", "CONTRACT_RULES", "DealRecord", "VarietyAction", "VarietyError",
           "VarietyGame", "VarietyHand", "VarietyOptions", "VarietyResult", "VarietyView",
           "action_from_json", "bid", "parse_action", "play"]
