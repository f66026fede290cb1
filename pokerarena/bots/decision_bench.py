"""How fast the built-in bots decide: each bot plays a heads-up match against ``call``
and its thinking time is set against the match's wall time.

:func:`bench_bots` first plays a short warm-up match per bot (tables, numba code and
per-game caches are built outside the timed match), then the timed match. Per bot it
reports ``decisions``, ``decisions_per_sec``, ``think_seconds`` (time inside the bot's
``act`` and hooks, as the table measures it), ``match_seconds`` (the whole match) and
``think_share`` (think time over match time).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pokerarena.bots.match import play_match
from pokerarena.engine.game import Game

DEFAULT_BOTS = ("tag", "lag", "rock", "equity")


def bench_bot(game: Game, bot: str, hands: int, seed: int = 1,
              opponent: str = "call", warmup: int = 20) -> dict[str, Any]:
    """One bot against ``opponent``: its decision rate and share of the match's time."""
    if warmup:
        play_match(game, [bot, opponent], warmup, seed + 1)
    res = play_match(game, [bot, opponent], hands, seed)
    e = res.entrants[0]
    think = e.think_time
    return {"bot": bot, "opponent": opponent, "hands": res.hands, "decisions": e.decisions,
            "decisions_per_sec": round(e.decisions / think, 1) if think > 0 else None,
            "us_per_decision": round(1e6 * think / e.decisions, 2) if e.decisions else None,
            "think_seconds": round(think, 4), "match_seconds": round(res.seconds, 4),
            "think_share": round(think / res.seconds, 4) if res.seconds > 0 else None}


def bench_bots(variant: str = "holdem", betting: str | None = None,
               bots: Sequence[str] = DEFAULT_BOTS, hands: int = 1000,
               seed: int = 1) -> dict[str, Any]:
    """:func:`bench_bot` for each of ``bots`` in one game."""
    game = Game(variant, {"betting": betting} if betting else {})
    rows = [bench_bot(game, b, hands, seed) for b in bots]
    return {"variant": game.variant.id, "betting": game.system_name, "hands": hands,
            "seed": seed, "bots": rows}
