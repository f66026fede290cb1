"""OpenSpiel as a test-only peer of the exact evaluator (docs/exact.md): our bots'
declared policies as OpenSpiel tabular policies on ``kuhn_poker`` and ``leduc_poker``,
and OpenSpiel's own values, best responses and exploitability of them.

How the two games correspond: OpenSpiel's player 0 is our seat 0 (left of the button,
first to act in every round). Kuhn's cards 0, 1, 2 are our Js, Qs, Ks; Leduc's card c is
rank J, Q, K for c // 2 and suit hearts, spades for c % 2 (equal ranks tie: the suit
plays no part). Kuhn's actions: 0 "pass" is our check (nothing to call) or fold, 1 "bet"
our bet of 1 or call. Leduc's: 0 fold, 1 check or call, 2 bet or raise (by 2 in the
first round, by 4 in the second: the fixed-limit bets of our file). Both games ante 1
per player, as ours; OpenSpiel's Leduc stacks of 100 never bind (a hand costs at most 13).
"""

from __future__ import annotations

from typing import Any

import pyspiel
from open_spiel.python import policy as os_policy

from pokerarena.arena.views import build_view
from pokerarena.bots.base import declared_policy
from pokerarena.engine import DEALER, Action, Game
from pokerarena.engine.actions import CALL_KIND, DEAL_BOARD_KIND, DEAL_HOLE_KIND, FOLD_KIND
from pokerarena.engine.keys import game_info_of

GAMES = {"kuhn": "kuhn_poker", "leduc": "leduc_poker"}


def card_code(variant: str, c: int) -> int:
    """Our card code of OpenSpiel's card ``c``."""
    if variant == "kuhn":
        return (9 + c) * 4 + 3
    return (9 + c // 2) * 4 + 2 + c % 2


def our_action(variant: str, a: int, legal: Any) -> Action:
    """Our action for OpenSpiel's action ``a`` at a decision with ``legal``."""
    if variant == "kuhn":
        if a == 0:
            return Action(FOLD_KIND) if legal.call else Action(CALL_KIND)
        return Action(CALL_KIND) if legal.call else Action("cbr", legal.min_to)
    return (Action(FOLD_KIND), Action(CALL_KIND), Action("cbr", legal.min_to))[a]


def their_action(variant: str, action: Action, legal: Any) -> int:
    """OpenSpiel's action for our ``action``."""
    if variant == "kuhn":
        if action.kind == FOLD_KIND:
            return 0
        if action.kind == CALL_KIND:
            return 1 if legal.call else 0
        return 1
    return {FOLD_KIND: 0, CALL_KIND: 1, "cbr": 2}[action.kind]


class Mirror:
    """Replays OpenSpiel histories on our engine (dealt by hand) to show our bots the
    view their seat would see."""

    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.game = pyspiel.load_game(GAMES[variant])
        self.ours = Game(variant, {"dealing": "manual"})
        self.info = game_info_of(Game(variant))

    def hand_of(self, history: list[int]) -> Any:
        """Our hand after OpenSpiel's ``history`` (chance outcomes included)."""
        state = self.game.new_initial_state()
        stack = self.ours.variant.stakes.stack
        hand = self.ours.new_hand(0, 2, [stack, stack], button=1)
        for a in history:
            if state.is_chance_node():
                legal = hand.legal_actions()
                cards = (card_code(self.variant, a),)
                if legal.deal_to:
                    hand.apply(Action(DEAL_HOLE_KIND, 0, cards, legal.deal_to[0]), DEALER)
                else:
                    hand.apply(Action(DEAL_BOARD_KIND, 0, cards), DEALER)
            else:
                assert hand.to_act == state.current_player()
                hand.apply(our_action(self.variant, a, hand.legal_actions()))
            state.apply_action(a)
        return hand

    def tabular(self, bots_by_player: list[Any]) -> os_policy.TabularPolicy:
        """An OpenSpiel tabular policy: player p's information states play
        ``bots_by_player[p]``'s declared policy."""
        pol = os_policy.TabularPolicy(self.game)
        for i, state in enumerate(pol.states):
            p = state.current_player()
            hand = self.hand_of(state.history())
            view = build_view(hand, p, game_info=self.info)
            row = pol.action_probability_array[i]
            row[:] = 0.0
            legal_os = set(state.legal_actions())
            for action, prob in declared_policy(bots_by_player[p])(view):
                a = their_action(self.variant, action, view.legal)
                assert a in legal_os, (action, state)
                row[a] += prob
        return pol
