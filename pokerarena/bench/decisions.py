"""How fast the built-in bots decide, and what share of a tournament's time their
thinking takes.

:func:`bench_bots`: each bot plays a heads-up match against one opponent (``call`` by
default) and its thinking time is set against the match's wall time. Per bot it reports
``decisions``, ``decisions_per_sec``, ``think_seconds`` (time inside the bot's ``act``
and hooks, as the table measures it), ``match_seconds`` (the whole match) and
``think_share`` (think time over match time).

:func:`bench_round_robin`: every pair of the bots plays a heads-up match (a round-robin
tournament); ``think_share`` is every bot's thinking over the tournament's match time,
the rest being the engine's (dealing, rules, views, time guards, results), and each bot
gets its decisions per second over all its matches.

Every match is preceded by a short warm-up match (tables, numba code and per-game
caches are built outside the timed matches).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pokerarena.arena.match import play_match
from pokerarena.engine.game import Game

DEFAULT_BOTS = ("tag", "lag", "rock", "equity")
TOURNAMENT_BOTS = ("random", "call", "rock", "tag", "lag", "equity", "maniac")


def bench_bot(game: Game, bot: str, hands: int, seed: int = 1,
              opponent: str = "call", warmup: int = 20) -> dict[str, Any]:
    """One bot against ``opponent`` (as many of them as the game's fewest seats need):
    its decision rate and share of the match's time."""
    seats = [bot] + [opponent] * (max(2, game.variant.players[0]) - 1)
    if warmup:
        play_match(game, seats, warmup, seed + 1)
    res = play_match(game, seats, hands, seed)
    e = res.entrants[0]
    think = e.think_time
    return {"bot": bot, "opponent": opponent, "hands": res.hands, "decisions": e.decisions,
            "decisions_per_sec": round(e.decisions / think, 1) if think > 0 else None,
            "us_per_decision": round(1e6 * think / e.decisions, 2) if e.decisions else None,
            "think_seconds": round(think, 4), "match_seconds": round(res.seconds, 4),
            "think_share": round(think / res.seconds, 4) if res.seconds > 0 else None}


def bench_bots(variant: str = "holdem", betting: str | None = None,
               bots: Sequence[str] = DEFAULT_BOTS, hands: int = 1000,
               seed: int = 1, opponent: str = "call") -> dict[str, Any]:
    """:func:`bench_bot` for each of ``bots`` in one game."""
    game = Game(variant, {"betting": betting} if betting else {})
    rows = [bench_bot(game, b, hands, seed, opponent) for b in bots]
    return {"variant": game.variant.id, "betting": game.system_name, "hands": hands,
            "seed": seed, "opponent": opponent, "bots": rows}


def bench_round_robin(variant: str = "holdem", betting: str | None = None,
                      bots: Sequence[str] = TOURNAMENT_BOTS, hands: int = 500,
                      seed: int = 1, warmup: int = 10) -> dict[str, Any]:
    """A heads-up round robin of ``bots`` (``hands`` per match; ``call`` bots fill the
    seats of games that need more than two): the bots' share of the tournament's time
    and each bot's decision rate."""
    if len(bots) < 2:
        raise ValueError("a round robin needs at least two bots")
    game = Game(variant, {"betting": betting} if betting else {})
    think: dict[str, float] = dict.fromkeys(bots, 0.0)
    decisions: dict[str, int] = dict.fromkeys(bots, 0)
    match_seconds = 0.0
    matches = 0
    fill = ["call"] * (max(2, game.variant.players[0]) - 2)  # games of three or more
    for i, a in enumerate(bots):
        for b in bots[i + 1:]:
            if warmup:
                play_match(game, [a, b, *fill], warmup, seed + 1)
            res = play_match(game, [a, b, *fill], hands, seed + matches)
            matches += 1
            match_seconds += res.seconds
            for name, e in zip((a, b, *fill), res.entrants, strict=True):
                think[name] = think.get(name, 0.0) + e.think_time
                decisions[name] = decisions.get(name, 0) + e.decisions
    total = sum(think.values())
    rows = [{"bot": b, "decisions": decisions[b],
             "decisions_per_sec": round(decisions[b] / think[b], 1) if think[b] > 0 else None,
             "think_seconds": round(think[b], 4),
             "tournament_share": round(think[b] / match_seconds, 4) if match_seconds else None}
            for b in think]
    return {"variant": game.variant.id, "betting": game.system_name, "hands": hands,
            "seed": seed, "matches": matches, "match_seconds": round(match_seconds, 4),
            "think_seconds": round(total, 4),
            "think_share": round(total / match_seconds, 4) if match_seconds else None,
            "bots": rows}
