"""American durak's catalogue entry (``family()``) and public names, which the package gives
on first use: its ``__init__`` imports none of the game (see :mod:`pokerarena.games`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pokerarena.games import Family
from pokerarena.games.durak.actions import DurakAction, action_from_json, beat, parse_action, throw
from pokerarena.games.durak.bots import BOTS, make_bot
from pokerarena.games.durak.game import DurakGame, DurakHand, DurakResult
from pokerarena.games.durak.rules import DurakError, DurakOptions
from pokerarena.games.durak.sheet import BOUTS, RECORD, record_rows
from pokerarena.games.durak.view import DurakView
from pokerarena.games.play import play_game


def next_dealer(hand: DurakHand) -> int:
    """Who deals the game after the finished ``hand`` in a series: its durak («в
    следующей игре сдает карты игрок, который проиграл в предыдущей игре»), or, after a
    game that left nobody holding cards (the document is silent), the same dealer again.
    Published as ``Family.extra["next_dealer"]`` for whatever chains games into a series."""
    durak = hand.result().durak
    return int(durak) if durak is not None else int(hand.dealer)


def play_series(options: dict[str, Any] | None, bots: Sequence[str], games: int,
                seed: int = 0) -> list[tuple[float, ...]]:
    """``games`` games of the named built-in bots (seat ``i``: ``bots[i]``) as the document
    chains them: the first dealer by lot and the lowest trump leads, then each game is
    dealt by the last durak (:func:`next_dealer`) and led under or from under him; game
    ``g`` is game ``g`` of the series (``series_game``), dealt from seed ``seed + g``; each
    game's points per seat."""
    game = DurakGame(options)
    out: list[tuple[float, ...]] = []
    dealer: int | None = None
    for g in range(games):
        players = [make_bot(name, (seed + g) * 31 + i) for i, name in enumerate(bots)]
        hand = play_game(game, players, seed + g, dealer, series_game=g)
        dealer = next_dealer(hand)
        out.append(hand.result().deltas)
    return out


def family() -> Family:
    """American durak's catalogue entry (see :mod:`pokerarena.games`)."""
    return Family(
        id="durak", name=DurakGame.name, players=DurakGame.players, deck="36|52",
        make=DurakGame, play=play_series, bots=tuple(BOTS), new_bot=make_bot,
        view_json=lambda view: view.as_json(), action_json=lambda a: a.as_json(),
        parse_action=action_from_json, record=RECORD, record_rows=record_rows,
        extra={"next_dealer": next_dealer, "tricks": BOUTS})


__all__ = ["BOTS", "DurakAction", "DurakError", "DurakGame", "DurakHand", "DurakOptions",
           "DurakResult", "DurakView", "beat", "family", "make_bot", "next_dealer", "parse_action",
           "play_series", "throw"]
