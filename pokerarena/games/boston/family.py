"""American boston's :class:`~pokerarena.games.Family`: every field the platform reads."""

from __future__ import annotations

from typing import Any

from pokerarena.games import Family
from pokerarena.games.boston.actions import BostonAction, action_from_json, parse_action
from pokerarena.games.boston.game import BostonGame, BostonHand
from pokerarena.games.boston.league import BOTS, make_bot
from pokerarena.games.boston.sheet import RECORD, TRICKS, record_rows
from pokerarena.games.boston.view import BostonView


def _view_json(view: BostonView) -> dict[str, Any]:
    return view.as_json()


def _action_json(action: BostonAction) -> dict[str, Any]:
    return action.as_json()


def _parse(obj: Any, view: BostonView | None = None) -> BostonAction:
    """The JSON form, or its text form (``"bid solo h"``) as a plain string."""
    return parse_action(obj) if isinstance(obj, str) else action_from_json(obj)


def _rows(hand: BostonHand) -> list[tuple[Any, ...]]:
    return record_rows(hand.records)


def _new_bot(name: str, seed: int | None) -> Any:
    return make_bot(name, seed)


def boston_family() -> Family:
    """The catalogue entry. A kitty lost alone is shared by the three others (the
    default ``lone_loss``), which gives thirds of a chip, hence the score scale of 3
    steps a chip (``Family.extra["score_scale"]``; halves never arise: a kitty is a
    multiple of four stakes); ``extra["tricks"]``: the record of every trick played
    (:data:`.sheet.TRICKS`). Every field is a module
    function, so the family pickles for remote workers."""
    return Family(id="boston", name=BostonGame.name, players=BostonGame.players, deck="52",
                  make=BostonGame, bots=tuple(BOTS), new_bot=_new_bot,
                  view_json=_view_json, action_json=_action_json, parse_action=_parse,
                  record=RECORD, record_rows=_rows, extra={"score_scale": 3, "tricks": TRICKS})
