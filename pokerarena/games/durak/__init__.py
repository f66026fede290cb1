"""American durak («Дурак американский», ``001_…``): attack and defence, throwing in,
the defender's throw-in to himself, drawing up to six, and the loser.

``DurakGame(options).new_hand(seed, seats, dealer)`` is one whole game; see :mod:`.game`
for the protocol, :mod:`.rules` for the options, :mod:`.bots` for the built-in bots and
``docs/games.md`` for the readings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pokerarena.games import Family
from pokerarena.games.durak.actions import DurakAction, action_from_json, beat, parse_action, throw
from pokerarena.games.durak.bots import BOTS, make_bot
from pokerarena.games.durak.game import DurakGame, DurakHand, DurakResult
from pokerarena.games.durak.rules import DurakError, DurakOptions
from pokerarena.games.durak.sheet import RECORD, record_rows
from pokerarena.games.durak.view import DurakView


def play_series(options: dict[str, Any] | None, bots: Sequence[str], games: int,
                seed: int = 0) -> list[tuple[float, ...]]:
    """``games`` games of the named built-in bots (seat ``i``: ``bots[i]``) as the document
    chains them: the first dealer by lot and the lowest trump leads, then each game is
    dealt by the last durak («в следующей игре сдает карты игрок, который проиграл») and
    led under or from under him; after a game with no durak the same dealer deals again.
    Game ``g`` is dealt from seed ``seed + g``; each game's points per seat."""
    from pokerarena.games.play import play_game

    game = DurakGame(options)
    out: list[tuple[float, ...]] = []
    dealer: int | None = None
    for g in range(games):
        players = [make_bot(name, (seed + g) * 31 + i) for i, name in enumerate(bots)]
        hand = play_game(game, players, seed + g, dealer)
        r = hand.result()
        dealer = r.durak if r.durak is not None else hand.dealer
        out.append(r.deltas)
    return out


def score_range(game: DurakGame, players: int) -> tuple[float, float]:
    """A game costs its durak one point and nobody else anything."""
    return -1.0, 0.0


def family() -> Family:
    """American durak's catalogue entry (see :mod:`pokerarena.games`)."""
    return Family(
        "durak", DurakGame.name, DurakGame.players, "36|52", DurakGame, play_series,
        tuple(BOTS), make_bot, lambda view: view.as_json(), lambda a: a.as_json(),
        action_from_json, RECORD, record_rows, score_range)


__all__ = ["BOTS", "DurakAction", "DurakError", "DurakGame", "DurakHand", "DurakOptions",
           "DurakResult", "DurakView", "beat", "family", "make_bot", "parse_action",
           "play_series", "score_range", "throw"]
