"""Helpers for tests that play the rules hand by hand with fixed cards."""

from __future__ import annotations

from pokerarena.cards import parse_cards
from pokerarena.engine import BRING_IN, CHECK_CALL, DEALER, Action, Game, bet_to, discard


def manual(variant, stacks, *, button=None, carry=0, **options):
    """A hand dealt by hand; seat i is PHH player p{i+1} (button on the last seat)."""
    game = Game(variant, {"dealing": "manual", **options})
    n = len(stacks)
    return game.new_hand(0, n, stacks, button=n - 1 if button is None else button,
                         carry=carry)


def deal(hand, *holes, board=None):
    """Deal ``holes[i]`` (card text) to seat i, then ``board`` to the table."""
    for seat, cards in enumerate(holes):
        if cards:
            hand.apply(Action("dh", 0, tuple(parse_cards(cards)), seat), DEALER)
    if board:
        hand.apply(Action("db", 0, tuple(parse_cards(board))), DEALER)


def cards(text):
    """Card codes of ``text`` ("AsKd")."""
    return tuple(parse_cards(text))


def play_out(hand, deals=()):
    """Check/call (post the bring-in, stand pat, bet the minimum where checking is not
    allowed) to the end; ``deals`` feed the manual dealer in order: a string deals the
    board, a tuple deals one card text per seat."""
    deals = list(deals)
    while not hand.is_over:
        if hand.to_act == DEALER:
            nxt = deals.pop(0)
            if isinstance(nxt, str):
                hand.apply(Action("db", 0, cards(nxt)), DEALER)
            else:
                deal(hand, *nxt)
            continue
        legal = hand.legal_actions()
        if "pb" in legal.kinds:
            hand.apply(BRING_IN)
        elif "sd" in legal.kinds:
            hand.apply(discard())
        elif "cc" not in legal.kinds:
            hand.apply(bet_to(legal.min_to))
        else:
            hand.apply(CHECK_CALL)
    return hand.result()
