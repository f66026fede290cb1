"""Engine throughput: complete hands through the public bot interface, and the same
workload in PokerKit (a peer, when the ``peers`` extra is installed).

``engine_bench(...)`` returns ``{"hands_per_sec": x, "peers": {"pokerkit": y}, ...}``; a
``pokerarena bench engine`` command prints it as JSON. Benchmarks only: no test asserts
these numbers.
"""

from __future__ import annotations

import time
from typing import Any

from pokerarena.bots.session import play_session
from pokerarena.engine.game import Game


def engine_bench(variant: str = "holdem", betting: str | None = "no_limit", players: int = 6,
                 bots: str = "call", hands: int = 2000, seed: int = 0,
                 peers: bool = True) -> dict[str, Any]:
    """Hands per second of ``players`` ``bots`` bots playing ``variant`` (CPU time of this
    process, after a warm-up), plus PokerKit's rate for the same hold'em workload."""
    game = Game(variant, {"betting": betting} if betting else {})
    names = [b.strip() for b in bots.split(",")] if "," in bots else [bots] * players
    play_session(game, names, min(200, hands), seed + 1)  # warm-up (tables, caches)
    t0 = time.process_time()
    summary = play_session(game, names, hands, seed)
    dt = max(time.process_time() - t0, 1e-9)
    out: dict[str, Any] = {
        "variant": game.variant.id, "betting": game.system_name, "players": len(names),
        "bots": names, "hands": hands, "hands_per_sec": hands / dt,
        "showdown_hands": summary.showdown_hands,
        "chips_conserved": summary.chips_conserved, "peers": {}}
    if (peers and variant == "holdem" and game.system_name == "no_limit"
            and set(names) == {"call"}):
        rate = pokerkit_holdem_rate(len(names), max(50, hands // 20), game)
        if rate is not None:
            out["peers"]["pokerkit"] = rate
    return out


def pokerkit_holdem_rate(players: int, hands: int, game: Game) -> float | None:
    """PokerKit hands per second for no-limit hold'em with every player checking or
    calling to the showdown; None when PokerKit is not installed."""
    try:
        import pokerkit as pk
    except ImportError:
        return None
    auto = tuple(a for a in pk.Automation if a.name != "RUNOUT_COUNT_SELECTION")
    blinds = list(game.blinds) or [1, 2]
    stack = game.variant.stakes.stack

    def one_hand() -> None:
        state = pk.NoLimitTexasHoldem.create_state(
            auto, True, 0, tuple(blinds), game.min_bet, stack, players)
        while state.status:
            state.check_or_call()

    one_hand()
    t0 = time.process_time()
    for _ in range(hands):
        one_hand()
    dt = max(time.process_time() - t0, 1e-9)
    return hands / dt
