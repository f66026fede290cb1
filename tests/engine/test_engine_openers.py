"""Jacks-or-bobtail openers (RULES.md §3 draw)."""

from __future__ import annotations

import pytest

from pokerarena.engine.hand import _has_bobtail
from pokerarena.engine.phh import PHHError, loads_phh, replay

DEAL = ["d dh p1 2s7s9sKs4d", "d dh p2 3c4h5d6c9h", "d dh p3 2h7d9cQcKd"]


def _draw5(openers, actions):
    text = "\n".join([
        'variant = "draw5"', '_betting = "fixed_limit"', f'_openers = "{openers}"',
        "antes = [1, 1, 1]", "small_bet = 2", "big_bet = 4",
        "starting_stacks = [50, 50, 50]", f"actions = {actions!r}"])
    return replay(loads_phh(text), complete=False)


@pytest.mark.parametrize(("cards", "expected"), [
    ("2s7s9sKs", True),          # four of one suit
    ("3c4h5d6c9h", True),        # 3-4-5-6: open at both ends
    ("Th9dJcQs2c", True),        # 9-T-J-Q
    ("Ah2d3c4s9h", False),       # A-2-3-4: one end only
    ("JhQdKcAs3c", False),       # J-Q-K-A: one end only
    ("2h7d9cQcKd", False),
])
def test_bobtail_shapes(cards, expected):
    from pokerarena.engine.phh import parse_cards_text

    assert _has_bobtail(list(parse_cards_text(cards))) is expected


def test_a_four_flush_opens_under_jacks_or_bobtail_only():
    rep = _draw5("jacks_or_bobtail", DEAL + ["p1 cbr 2"])
    assert rep.hand.opener == 0
    with pytest.raises(PHHError, match="cannot bet or raise"):
        _draw5("jacks_or_better", DEAL + ["p1 cbr 2"])


def test_an_open_ended_straight_opens_and_garbage_does_not():
    rep = _draw5("jacks_or_bobtail", DEAL + ["p1 cc", "p2 cbr 2"])
    assert rep.hand.opener == 1
    with pytest.raises(PHHError, match="cannot bet or raise"):
        _draw5("jacks_or_bobtail", DEAL + ["p1 cc", "p2 cc", "p3 cbr 2"])


SPLIT_DEAL = ["d dh p1 JsJh2h5h9h", "d dh p2 3c4d7s8cKd", "d dh p3 2c6d9cQcAd"]


def test_splitting_openers_is_declared_in_the_log_and_the_phh():
    from pokerarena.engine.phh import dumps_phh

    rep = _draw5("jacks_or_better", SPLIT_DEAL + [
        "p1 cbr 2", "p2 cc", "p3 f", "p1 sd Js", "d dh p1 Kh", "p2 sd 3c4d7s",
        "d dh p2 TsTdTh"])
    hand = rep.hand
    assert hand.split_openers == {0: (parse("Js"),)}
    discards = [(seat, act.amount) for seat, act in hand.log if act.kind == "sd"]
    assert discards == [(0, 1), (1, 0)]  # only the opener's split is marked
    text = dumps_phh(hand)
    assert "p1 sd Js split" in text and "p2 sd 3c4d7s\"" in text
    again = _draw5("jacks_or_better", SPLIT_DEAL + [
        "p1 cbr 2", "p2 cc", "p3 f", "p1 sd Js split", "d dh p1 Kh"])
    assert again.hand.split_openers == {0: (parse("Js"),)}


def test_keeping_the_openers_is_no_split():
    rep = _draw5("jacks_or_better", SPLIT_DEAL + [
        "p1 cbr 2", "p2 cc", "p3 f", "p1 sd 2h5h9h", "d dh p1 KhKcKs"])
    assert rep.hand.split_openers == {}


def parse(text):
    from pokerarena.engine.phh import parse_cards_text

    return parse_cards_text(text)[0]


def test_stud5_joker_shows_above_the_ace_and_plays_wild():
    text = "\n".join([
        'variant = "stud5"', '_betting = "fixed_limit"', "_joker = true",
        "antes = [1, 1, 1]", "small_bet = 2", "big_bet = 4",
        "starting_stacks = [50, 50, 50]",
        "actions = ['d dh p1 2cAs', 'd dh p2 3dJk', 'd dh p3 4hKs']"])
    rep = replay(loads_phh(text), complete=False)
    assert rep.hand.to_act == 1  # p2's joker up beats p1's ace up
    assert rep.hand.game.showdown.wild == "jokers"
