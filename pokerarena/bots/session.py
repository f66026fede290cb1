"""An in-process session: bots play hand after hand at one table (no Ray).

Every hand starts from the same stacks (cash game with automatic top-up), the button
moves one seat each hand, a deal nobody opens (openers) leaves its pot for the next one,
and everything random comes from the session seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokerarena.bots import Bot, default_action, make_bot
from pokerarena.engine.actions import IllegalAction
from pokerarena.engine.game import Game
from pokerarena.engine.table import Table


@dataclass
class SessionSummary:
    """Per-seat results of a session."""

    variant: str
    betting: str
    seed: int
    hands: int
    bots: list[str]
    net: list[int]
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


def play_hand(hand, bots: list[Bot], faults: list[int] | None = None) -> None:
    """Play one hand to the end (``bots[i]`` plays the hand's seat ``i``); an illegal
    answer gets the passive action and counts in ``faults``."""
    while not hand.is_over:
        seat = hand.to_act
        obs = hand.observation(seat)
        try:
            action = bots[seat].act(obs)
            hand.apply(action)
        except IllegalAction:
            if faults is not None:
                faults[seat] += 1
            hand.apply(default_action(hand.legal_actions(), obs.hole, obs.up[seat]))


def play_session(game: Game, bot_names: list[str], hands: int, seed: int,
                 stack: int | None = None, *, mode: str = "cash",
                 wangdoodle: bool = False, jackpot: bool = False) -> SessionSummary:
    """Play ``hands`` hands (freeze-out: or until one seat holds every chip) with the
    named built-in bots, one per seat, at a :class:`~pokerarena.engine.table.Table`."""
    n = len(bot_names)
    ss = np.random.SeedSequence(seed)
    deck_seq, *bot_seqs = ss.spawn(n + 1)
    bots = [make_bot(name, int(s.generate_state(1)[0])) for name, s in
            zip(bot_names, bot_seqs, strict=True)]
    chips = stack if stack is not None else game.variant.stakes.stack
    table = Table(game, [chips] * n, seed=np.random.default_rng(deck_seq), mode=mode,
                  wangdoodle=wangdoodle, jackpot=jackpot)
    summary = SessionSummary(game.variant.id, game.system_name, seed, 0, list(bot_names),
                             [0] * n, [0] * n, [0] * n, faults=[0] * n)
    for _ in range(hands):
        if table.is_over:
            break
        hand = table.new_hand()
        seats = table.hand_seats
        faults = [0] * len(seats)
        play_hand(hand, [bots[s] for s in seats], faults)
        res = hand.result()
        for i, s in enumerate(seats):
            summary.faults[s] += faults[i]
        if any(x < 0 for x in res.stacks) or (
                sum(res.deltas) + res.rake + res.kitty + res.carry != hand.carry_in):
            summary.chips_conserved = False
        table.finish(hand)
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
    summary.net = list(table.net)
    summary.rake = table.rake
    summary.carry = table.carry
    if not table.chips_conserved():
        summary.chips_conserved = False
    return summary
