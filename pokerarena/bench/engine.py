"""Engine throughput: complete hands through the public bot interface, and the same
workload in PokerKit (a peer, when the ``peers`` extra is installed).

``engine_bench(...)`` returns ``{"hands_per_sec": x, "peers": {"pokerkit": y}, ...}``; a
``pokerarena bench engine`` command prints it as JSON. Benchmarks only: no test asserts
these numbers.
"""

from __future__ import annotations

import time
from typing import Any

from pokerarena import native
from pokerarena.arena.session import play_session
from pokerarena.engine.game import Game


def engine_bench(variant: str = "holdem", betting: str | None = "no_limit", players: int = 6,
                 bots: str = "call", hands: int = 2000, seed: int = 0,
                 peers: bool = True, repeats: int = 1) -> dict[str, Any]:
    """Hands per second of ``players`` ``bots`` bots playing ``variant`` (CPU time of this
    process after a warm-up; the best of ``repeats`` runs of the same session, the rates
    of all in ``runs``), plus PokerKit's rate for the same hold'em workload; ``native``:
    whether the mypyc build of the table loop ran (:mod:`pokerarena.native`)."""
    game = Game(variant, {"betting": betting} if betting else {})
    names = [b.strip() for b in bots.split(",")] if "," in bots else [bots] * players
    play_session(game, names, min(200, hands), seed + 1)  # warm-up (tables, caches)
    rates = []
    for _ in range(max(1, repeats)):
        t0 = time.process_time()
        summary = play_session(game, names, hands, seed)
        rates.append(hands / max(time.process_time() - t0, 1e-9))
    out: dict[str, Any] = {
        "variant": game.variant.id, "betting": game.system_name, "players": len(names),
        "bots": names, "hands": hands, "hands_per_sec": max(rates), "runs": rates,
        "showdown_hands": summary.showdown_hands,
        "chips_conserved": summary.chips_conserved, "native": native.compiled(),
        "peers": {}}
    if set(names) == {"call"}:  # the engine alone, and PokerKit: best of as many runs
        out["engine_hands_per_sec"] = _best_of(
            repeats, lambda: engine_call_rate(game, len(names), hands, seed))
        if peers:
            rate = _best_of(repeats,
                            lambda: pokerkit_rate(game, len(names), max(50, hands // 20)))
            if rate is not None:
                out["peers"]["pokerkit"] = rate
    return out


def _best_of(repeats: int, measure: Any) -> float | None:
    """The highest of ``repeats`` rates from ``measure()`` (None: not measurable)."""
    best = None
    for _ in range(max(1, repeats)):
        rate = measure()
        if rate is None:
            return None
        best = rate if best is None else max(best, rate)
    return best


def engine_call_rate(game: Game, players: int, hands: int, seed: int) -> float:
    """Hands per second of the engine alone on the check/call workload: a table deals,
    each decision reads the seat's engine observation and checks or calls (posts the
    bring-in, stands pat, shows down), without the bot layer's views and fault guard."""
    from pokerarena.bots import default_action
    from pokerarena.engine.actions import BRING_IN, CALL_KIND, CHECK_CALL
    from pokerarena.engine.table import Table

    def run(k: int, s: int) -> None:
        table = Table(game, [game.variant.stakes.stack] * players, seed=s)
        for _ in range(k):
            hand = table.new_hand()
            while not hand.is_over:
                seat = hand.to_act
                assert seat is not None  # a hand still being played has a seat to act
                obs = hand.observation(seat)
                legal = obs.legal
                assert legal is not None  # ... and it has legal actions
                if CALL_KIND in legal.kinds:
                    hand.apply(CHECK_CALL)
                elif "pb" in legal.kinds:
                    hand.apply(BRING_IN)
                else:
                    hand.apply(default_action(legal, obs.hole, obs.up[seat]))
            table.finish(hand)

    run(min(200, hands), seed + 1)
    t0 = time.process_time()
    run(hands, seed)
    return hands / max(time.process_time() - t0, 1e-9)


def pokerkit_rate(game: Game, players: int, hands: int) -> float | None:
    """PokerKit hands per second on the check/call workload of ``game`` (posting the
    bring-in, standing pat) for the variants PokerKit also plays: no-limit hold'em,
    fixed-limit seven-card stud, no-limit 2-7 single draw and fixed-limit 2-7 triple
    draw (with the catalogue rules: no option that changes the deck, the streets or the
    showdown); None otherwise or when PokerKit is not installed."""
    key = (game.variant.id, game.system_name)
    if not _catalogue_rules(game):
        return None
    if key == ("holdem", "no_limit"):
        return pokerkit_holdem_rate(players, hands, game)
    if key not in (("stud7", "fixed_limit"), ("draw27_single", "no_limit"),
                   ("draw27_triple", "fixed_limit")):
        return None
    try:
        import pokerkit as pk
    except ImportError:
        return None
    auto = tuple(a for a in pk.Automation if a.name != "RUNOUT_COUNT_SELECTION")
    stack = game.variant.stakes.stack
    blinds = tuple(game.blinds) or (1, 2)

    def create():
        if key[0] == "stud7":
            return pk.FixedLimitSevenCardStud.create_state(
                auto, True, game.ante, game.bring_in, game.small_bet, game.big_bet, stack,
                players)
        if key[0] == "draw27_single":
            return pk.NoLimitDeuceToSevenLowballSingleDraw.create_state(
                auto, True, 0, blinds, game.min_bet, stack, players)
        return pk.FixedLimitDeuceToSevenLowballTripleDraw.create_state(
            auto, True, 0, blinds, game.small_bet, game.big_bet, stack, players)

    def one_hand() -> None:
        state = create()
        while state.status:
            if state.can_post_bring_in():
                state.post_bring_in()
            elif state.can_stand_pat_or_discard():
                state.stand_pat_or_discard()
            else:
                state.check_or_call()

    one_hand()
    t0 = time.process_time()
    for _ in range(hands):
        one_hand()
    return hands / max(time.process_time() - t0, 1e-9)


def _catalogue_rules(game: Game) -> bool:
    """Whether ``game`` deals, bets by street and shows down as its variant's catalogue
    game does (the variant id alone does not say: options change all three)."""
    try:
        plain = Game(game.variant.id, {"betting": game.system_name})
    except Exception:  # noqa: BLE001 - a variant that is not in the catalogue
        return False
    return (game.variant == plain.variant and game.showdown == plain.showdown
            and game.program.steps == plain.program.steps)


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
