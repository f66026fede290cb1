"""An in-process session: bots play hand after hand at one table (no Ray).

Every hand starts from the same stacks (cash game with automatic top-up), the button
moves one seat each hand, a deal nobody opens (openers) leaves its pot for the next one,
and everything random comes from the session seed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokerarena.arena.faults import FaultPolicy, GuardedBot
from pokerarena.arena.match import play_hand as _play
from pokerarena.arena.warmup import warm_up
from pokerarena.bots.base import MatchInfo
from pokerarena.bots.registry import make_bot
from pokerarena.bots.strength.estimate import register_game
from pokerarena.engine.game import Game
from pokerarena.engine.keys import game_info_of
from pokerarena.engine.table import Table


@dataclass
class SessionSummary:
    """Per-seat results of a session."""

    variant: str
    betting: str
    seed: int
    hands: int
    bots: list[str]
    net: list[Any]  # fractional chips under odd_chip="fractional"
    showdowns: list[int]
    won: list[int]
    showdown_hands: int = 0
    faults: list[int] = field(default_factory=list)
    rake: int = 0
    passed: int = 0
    carry: int = 0
    chips_conserved: bool = True

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        seats = [{"seat": i, "bot": b, "net": self.net[i], "showdowns": self.showdowns[i],
                  "hands_won": self.won[i], "faults": self.faults[i]}
                 for i, b in enumerate(self.bots)]
        return {"variant": self.variant, "betting": self.betting, "seed": self.seed,
                "hands": self.hands, "showdown_hands": self.showdown_hands, "seats": seats,
                "rake": self.rake, "passed_deals": self.passed, "carry": self.carry,
                "chips_conserved": self.chips_conserved}


def play_hand(hand, bots: list[Any], faults: list[int] | None = None, *,
              policy: FaultPolicy | None = None, hand_no: int = 0) -> None:
    """Play one hand to the end (``bots[i]`` plays the hand's seat ``i``) under the
    fault guard: each bot gets :class:`~pokerarena.bots.base.SeatView` copies only; a
    fault (illegal answer, exception, timeout) gets the irregularity policy and counts in
    ``faults``. ``bots`` may be bot objects or :class:`GuardedBot` wrappers."""
    guards = [b if isinstance(b, GuardedBot) else GuardedBot(b, policy) for b in bots]
    before = [g.count for g in guards]
    try:
        _play(hand, guards, list(range(len(guards))), hand_no=hand_no)
    finally:
        if faults is not None:
            for i, g in enumerate(guards):
                faults[i] += g.count - before[i]
        for b, g in zip(bots, guards, strict=True):
            if g is not b:
                g.close()


def play_session(game: Game, bot_names: list[str], hands: int, seed: int,
                 stack: int | None = None, *, mode: str = "cash",
                 wangdoodle: bool = False, jackpot: bool = False,
                 policy: FaultPolicy | None = None,
                 on_hand: Callable[[int, Any, list[int]], None] | None = None
                 ) -> SessionSummary:
    """Play ``hands`` hands (freeze-out: or until one seat holds every chip) with the
    named bots (any spec :func:`~pokerarena.bots.registry.make_bot` knows), one per seat,
    at a :class:`~pokerarena.engine.table.Table`, under the fault guard.
    ``on_hand(hand_no, hand, seats)`` is called after each hand (``seats``: the table
    seat of each of the hand's seats)."""
    n = len(bot_names)
    ss = np.random.SeedSequence(seed)
    deck_seq, *bot_seqs = ss.spawn(n + 1)
    register_game(game)
    guards: list[GuardedBot] = []
    try:
        for j, (name, s) in enumerate(zip(bot_names, bot_seqs, strict=True)):
            bot = make_bot(name, int(s.generate_state(1)[0]))
            label = f"{name}#{j}" if bot_names.count(name) > 1 else name
            guards.append(GuardedBot(bot, policy, label=label))
        chips = stack if stack is not None else game.variant.stakes.stack
        info = game_info_of(game)
        warm_up(game, [g.bot for g in guards], n)  # kernels and tables, before any clock
        for j, g in enumerate(guards):
            g.start_match(MatchInfo(0, game.variant.id, game.system_name, info, n, hands,
                                    tuple(bot_names), j), j)
        return _session(game, bot_names, guards, hands, seed, chips, mode, wangdoodle,
                        jackpot, deck_seq, on_hand)
    finally:
        for g in guards:
            g.close()


def _session(game: Game, bot_names: list[str], guards: list[GuardedBot], hands: int,
             seed: int, chips: int, mode: Any, wangdoodle: bool, jackpot: bool,
             deck_seq: np.random.SeedSequence,
             on_hand: Callable[[int, Any, list[int]], None] | None) -> SessionSummary:
    n = len(bot_names)
    table = Table(game, [chips] * n, seed=np.random.default_rng(deck_seq), mode=mode,
                  wangdoodle=wangdoodle, jackpot=jackpot)
    summary = SessionSummary(game.variant.id, game.system_name, seed, 0, list(bot_names),
                             [0] * n, [0] * n, [0] * n, faults=[0] * n)
    infos: dict[str, dict[str, Any]] = {}  # by Game.key: doubled or jackpot deals differ
    for hand_no in range(hands):
        if table.is_over:
            break
        hand = table.new_hand()
        seats = table.hand_seats
        info = infos.get(hand.game.key)
        if info is None:
            info = infos[hand.game.key] = game_info_of(hand.game)
        _play(hand, [guards[s] for s in seats], list(range(len(seats))), hand_no=hand_no,
              game_info=info)
        res = hand.result()
        if any(x < 0 for x in res.stacks) or (
                sum(res.deltas) + res.rake + res.kitty + res.carry != hand.carry_in):
            summary.chips_conserved = False
        table.finish(hand)
        if on_hand is not None:
            on_hand(hand_no, hand, seats)
        summary.passed += res.passed
        for i, s in enumerate(seats):
            if res.deltas[i] > 0:
                summary.won[s] += 1
        if res.went_to_showdown:
            summary.showdown_hands += 1
            for i in res.showdown_raw:
                summary.showdowns[seats[i]] += 1
        summary.hands += 1
    table.close()
    summary.faults = [g.count for g in guards]
    summary.net = list(table.net)
    summary.rake = table.rake
    summary.carry = table.carry
    if not table.chips_conserved():
        summary.chips_conserved = False
    return summary
