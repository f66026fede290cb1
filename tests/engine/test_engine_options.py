"""Stud's last card down at each player's choice (option last_card_choice)."""

from __future__ import annotations

import pytest

from pokerarena.arena.session import play_session
from pokerarena.engine import Game
from pokerarena.engine.phh import PHHError, loads_phh, replay


def _stud5(actions):
    text = "\n".join([
        'variant = "stud5"', '_betting = "fixed_limit"', "_last_card_choice = true",
        "antes = [1, 1, 1]", "small_bet = 2", "big_bet = 4",
        "starting_stacks = [50, 50, 50]", f"actions = {actions!r}"])
    return replay(loads_phh(text), complete=False)


STREETS = ["d dh p1 2cAs", "d dh p2 3dKh", "d dh p3 4hQs", "p1 cc", "p2 cc", "p3 cc",
           "d dh p1 5c", "d dh p2 6d", "d dh p3 7h", "p1 cc", "p2 cc", "p3 cc",
           "d dh p1 8c", "d dh p2 9d", "d dh p3 Th", "p1 cc", "p2 cc", "p3 cc"]


def test_each_player_takes_the_last_card_up_or_down():
    rep = _stud5(STREETS + ["p1 cc", "p2 dd", "p3 cc", "d dh p1 Jc", "d dh p2 Jd",
                            "d dh p3 Jh"])
    hand = rep.hand
    assert [hand.isup[p][-1] for p in range(3)] == [True, False, True]
    assert all(hand.isup[1][:-1])   # p2 turned his hole card up first
    assert hand.phase_name == "bet"


def test_the_choice_is_cc_or_dd_only():
    with pytest.raises(PHHError, match="up \\(cc\\) or down \\(dd\\)"):
        _stud5(STREETS + ["p1 cbr 2"])


def test_bots_play_the_choice_and_keep_the_chips():
    game = Game("stud5", {"last_card_choice": True})
    for bots in (["random"] * 4, ["call"] * 3):
        summary = play_session(game, bots, 40, seed=5)
        assert summary.chips_conserved and not any(summary.faults)
