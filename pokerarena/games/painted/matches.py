"""Playing whole games between painted-poker bots, and the duplicate comparison.

The game loop is the families' own (:mod:`pokerarena.games.play`, re-exported here), and
so are the duplicate comparison's seatings, per-seed differences and interval
(:func:`pokerarena.games.play.seed_diffs`, :class:`~pokerarena.games.play.Comparison`:
Student's t over the deal sequences). What stays painted poker's own: ``duplicate``
takes a :class:`PaintedGame` and keyword options per bot, scores the game's
``totals``, and draws the first dealer by lot from the seed (as the figures in
docs/games.md were made). It plays every deal sequence (one seed: the same first dealer
and the same cards in every deal) once in each seating of two bots (every rotation of
the two alternating round the table), so each seat's cards are played by both, and
reports the per-game difference with a 95% interval.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pokerarena.games.painted.bots import make_bot
from pokerarena.games.painted.game import PaintedGame
from pokerarena.games.play import Comparison, play_game, seatings, seed_diffs


def duplicate(game: PaintedGame, a: str, b: str, *, players: int = 4, games: int = 10,
              seed: int = 0, options: dict[str, dict[str, Any]] | None = None) -> Comparison:
    """Bot ``a`` against bot ``b`` on ``games`` deal sequences (see the module docstring);
    ``options``: keyword options per bot name. No score bound is declared, so a
    comparison whose every deal sequence gave the same difference has no interval."""
    opts = options or {}

    def play(names: list[str], s: int) -> Sequence[float]:
        bots = [make_bot(nm, seed=s * 31 + i, **opts.get(nm, {}))
                for i, nm in enumerate(names)]
        return play_game(game, bots, s).result().totals

    return Comparison(a, b, seed_diffs(play, a, b, players=players, games=games, seed=seed))


def play_games(options: dict[str, Any] | None, bots: Sequence[str], games: int,
               seed: int = 0) -> list[tuple[float, ...]]:
    """``games`` whole games of the named built-in bots (seat ``i``: ``bots[i]``), game
    ``g`` from seed ``seed + g``, the first dealer turning round the table; each game's
    points per seat. What ``pokerarena play --variant painted`` plays."""
    game = PaintedGame(options)
    out = []
    for g in range(games):
        players = [make_bot(name, seed=(seed + g) * 31 + i) for i, name in enumerate(bots)]
        out.append(tuple(play_game(game, players, seed + g, g % len(bots)).result().totals))
    return out


__all__ = ["Comparison", "duplicate", "play_game", "play_games", "seatings"]
