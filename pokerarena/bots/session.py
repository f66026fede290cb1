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
    """Play one hand to the end; an illegal or failing bot gets the passive action."""
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
                 stack: int | None = None) -> SessionSummary:
    """Play ``hands`` hands with the named built-in bots, one per seat."""
    n = len(bot_names)
    ss = np.random.SeedSequence(seed)
    deck_seq, *bot_seqs = ss.spawn(n + 1)
    rng = np.random.default_rng(deck_seq)
    bots = [make_bot(name, int(s.generate_state(1)[0])) for name, s in
            zip(bot_names, bot_seqs, strict=True)]
    chips = stack if stack is not None else game.variant.stakes.stack
    stacks = [chips] * n
    summary = SessionSummary(game.variant.id, game.system_name, seed, 0, list(bot_names),
                             [0] * n, [0] * n, [0] * n, faults=[0] * n)
    carry = passes = 0
    button = 0
    for _ in range(hands):
        hand = game.new_hand(rng, n, stacks, button=button, carry=carry, passes=passes)
        play_hand(hand, bots, summary.faults)
        res = hand.result()
        summary.rake += res.rake
        if (sum(res.deltas) + res.rake + res.carry != carry
                or any(s < 0 for s in res.stacks)):
            summary.chips_conserved = False
        carry = res.carry
        passes = passes + 1 if res.passed else 0
        summary.passed += res.passed
        button = (button + 1) % n  # a passed deal moves the deal on too
        for s in range(n):
            summary.net[s] += res.deltas[s]
            if res.deltas[s] > 0:
                summary.won[s] += 1
        if res.went_to_showdown:
            summary.showdown_hands += 1
            for s in res.showdown_raw:
                summary.showdowns[s] += 1
        summary.hands += 1
    summary.carry = carry
    if sum(summary.net) + summary.rake + carry != 0:
        summary.chips_conserved = False
    return summary
