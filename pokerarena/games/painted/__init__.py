"""Painted poker («расписной покер», ``004_…``): a trick-taking game with bids.

``PaintedGame(options).new_hand(seed, seats)`` is one whole game («партия»); see
:mod:`.game` for the protocol, :mod:`.rules` for the options and the scoring, and
:mod:`.bots` for the built-in bots. Rules readings: ``docs/games.md``.
"""

from typing import Any

from pokerarena.games import Family, RecordTable, trick_table
from pokerarena.games.painted.actions import (
    PaintedAction,
    action_from_json,
    bid,
    parse_action,
    play,
)
from pokerarena.games.painted.game import DealRecord, PaintedGame, PaintedHand, PaintedResult
from pokerarena.games.painted.rules import PaintedError, PaintedOptions, deal_plan
from pokerarena.games.painted.sheet import SHEET_COLUMNS, sheet_rows
from pokerarena.games.painted.view import PaintedView

PAINTED_DEALS = RecordTable(
    "painted_deals", "Painted poker: one row per deal and seat of a game, the document's "
    "score sheet («В таблице … количество взяток (заказов) … набранные очки»).", (
        ("deal", "int16", "deal number within the game (0-based)"),
        ("kind", "string", "`ordinary`, `no_trump`, `blind`, `golden`, `misere`, `lobovaya`"),
        ("cards", "int8", "cards dealt to each player"),
        ("dealer", "int8", "the dealer's seat"),
        ("trump", "string", "the trump suit (`s`, `h`, `d`, `c`), `-` without a trump"),
        ("trump_card", "string", "the card that showed the trump, empty when none did"),
        ("seat", "int8", "the seat"),
        ("bid", "int8", "its bid (0: a pass), -1 in deals without bidding"),
        ("tricks", "int8", "tricks it took"),
        ("points", "double", "its points for the deal"),
        ("total", "double", "its running total after the deal"),
    ))
assert tuple(c[0] for c in PAINTED_DEALS.columns) == SHEET_COLUMNS

PAINTED_TRICKS = trick_table(
    "painted_tricks", "Painted poker: one row per card played to a trick, every trick of "
    "every deal of a game in play order («взятка»: who led, the cards, who took it).",
    deal="deal number within the game (0-based), as in `painted_deals`",
    trick="the trick within the deal (0-based)",
    card="the card (`As`); a joker with how it was played: `Jk high`, `Jk low`, leading "
    "with a call `Jk high h`, `Jk low d`, `Jk trumps`")
"""The tricks of a game (``Family.extra["tricks"]``, rows from :meth:`PaintedHand.tricks`)."""


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
