"""Knock poker (003_… «Нок-покер»): turns, the knock, payments, bonuses, PHH."""

from __future__ import annotations

import numpy as np
import pytest

from pokerarena.arena.session import play_session
from pokerarena.engine import Game
from pokerarena.engine.actions import Action, IllegalAction
from pokerarena.engine.phh import dumps_phh, loads_phh, replay
from pokerarena.rules import VariantError, load_variant_text


def _replay(actions, stacks=(20, 20, 20), **extra):
    fields = {"variant": "knock", "antes": [1] * len(stacks),
              "starting_stacks": list(stacks), "actions": list(actions), **extra}
    text = "\n".join(f"{k} = {str(v).lower() if isinstance(v, bool) else repr(v)}"
                     for k, v in fields.items())
    return replay(loads_phh(text))


DEAL = ["d dh p1 AsAhKdQc2c", "d dh p2 3s4h6d8c9c", "d dh p3 5s7hJdTc2d"]


def test_knocker_best_collects_from_those_still_in_and_the_drop_fee():
    rep = _replay(DEAL + ["p1 cc", "d dh p1 Ad", "p1 kn", "p1 sd 2c",
                          "p2 dt", "p2 sd 9c", "p3 f"])
    # p1: pot of 3 antes, 1 from p3 dropping out, 2 from p2 (knocker best)
    assert rep.finishing_stacks == [25, 17, 18]
    assert sorted(rep.hand.payments) == [(1, 0, 2, "knocker wins"), (2, 0, 1, "drop")]


def test_knocker_beaten_pays_each_player_still_in():
    rep = _replay(["d dh p1 2s2h5d7c9c", "d dh p2 KsKhKd3c4c", "d dh p3 3s6h8dTcJd",
                   "p1 kn", "p2 cc", "d dh p2 Qs", "p2 sd Qs", "p3 cc", "d dh p3 Qh",
                   "p3 sd Qh"])
    assert rep.finishing_stacks == [15, 24, 21]


def test_knock_before_drawing_with_an_ace_flush_earns_both_bonuses():
    rep = _replay(["d dh p1 AsKsQs9s2s", "d dh p2 3h4h6d8c9c", "d dh p3 5h7hJdTc2d",
                   "p1 kn", "p2 cc", "d dh p2 Qh", "p2 sd Qh", "p3 dt", "p3 sd Qh"])
    # pot 3, knocker wins 2 + 2, bonuses (no draw 2 + ace flush 4) from each of two
    assert rep.finishing_stacks == [38, 11, 11]
    res = rep.hand.result()
    assert res.bonuses == {0: 12}


def test_a_tie_with_the_knocker_splits_the_pot_and_nobody_pays():
    rep = _replay(["d dh p1 AsKd9c7h4s", "d dh p2 AhKs9d7c4h", "d dh p3 2c3d5h8s6s",
                   "p1 kn", "p2 cc", "d dh p2 Jc", "p2 sd Jc", "p3 f"],
                  stacks=(20, 20, 20))
    # p3 pays the drop fee to the knocker; p1 and p2 split the 3-chip pot; no knock
    # payment and no no-draw bonus (the knocker did not win alone)
    stacks = rep.finishing_stacks
    assert stacks[2] == 18 and stacks[0] + stacks[1] == 42 and abs(stacks[0] - stacks[1]) <= 2


def test_immediate_knock_shows_at_once_without_knock_payments():
    rep = _replay(DEAL + ["p1 cc", "d dh p1 Ad", "p1 sd 2c", "p2 kn"],
                  _knock_immediate=True)
    # p1's trips win the 3 antes; no payments to or from the knocker p2
    assert rep.finishing_stacks == [22, 19, 19]


def test_stock_running_out_shows_the_hands():
    game = Game("knock")
    hand = game.new_hand(np.random.default_rng(5), 5, [50] * 5, 0)
    while not hand.is_over:
        legal = hand.legal_actions()
        if "sd" in legal.kinds:
            hand.apply(Action("sd", 0, (hand.cards_of(hand.to_act)[0],)))
        else:
            hand.apply(Action("cc"))  # draw from the stock, then do not knock
    draws = sum(1 for _, act in hand.log if act.kind == "dh") - 5
    assert draws == 52 - 25 and hand.result().went_to_showdown


def test_illegal_actions_change_nothing():
    game = Game("knock")
    hand = game.new_hand(np.random.default_rng(1), 3, [20] * 3, 0)
    with pytest.raises(IllegalAction):
        hand.apply(Action("f"))  # no dropping out before a knock
    with pytest.raises(IllegalAction):
        hand.apply(Action("dt"))  # no discard to take yet
    hand.apply(Action("cc"))
    hand.apply(Action("cc"))  # no knock
    seat = hand.to_act
    before = (list(hand.log), hand.cards_of(seat), hand.legal_actions())
    with pytest.raises(IllegalAction):
        hand.apply(Action("sd", 0, tuple(hand.cards_of(seat)[:2])))
    assert (list(hand.log), hand.cards_of(seat), hand.legal_actions()) == before


@pytest.mark.parametrize("immediate", [False, True])
@pytest.mark.parametrize("bots", [["random"] * 4, ["call"] * 3, ["random", "call", "random",
                                                                 "call", "random"]])
def test_bots_play_knock_and_chips_are_conserved(bots, immediate):
    game = Game("knock", {"knock_immediate": immediate})
    summary = play_session(game, bots, 60, seed=7)
    assert summary.hands == 60 and summary.chips_conserved
    assert sum(summary.net) == 0 and not any(summary.faults)


def test_played_knock_hands_export_and_replay_exactly():
    from pokerarena.arena.session import play_hand
    from pokerarena.bots import RandomBot

    for seed in range(12):
        game = Game("knock", {"knock_immediate": seed % 3 == 0})
        n = 3 + seed % 3
        hand = game.new_hand(np.random.default_rng(seed), n, [30] * n, seed % n)
        play_hand(hand, [RandomBot(seed * 10 + i) for i in range(n)])
        rep = replay(loads_phh(dumps_phh(hand)))
        assert rep.finishing_stacks == [hand.stacks()[hand.seat_of[p]] for p in range(n)]


def test_a_knock_street_must_come_last():
    text = """
id = "bad_knock"
name = "Bad"
streets = [{ knock = {} }, { deal = { down = 5 } }]
"""
    with pytest.raises(VariantError, match=r"streets\[0\]\.knock"):
        load_variant_text(text)


def test_discards_are_face_up_for_every_seat_but_stock_cards_stay_hidden():
    from pokerarena.arena.views import build_view
    from pokerarena.bots import RandomBot
    from pokerarena.engine.actions import DEAL_HOLE_KIND, DISCARD_KIND, UNKNOWN

    game = Game("knock")
    hand = game.new_hand(np.random.default_rng(3), 3, [30] * 3, 0)
    bots = [RandomBot(i) for i in range(3)]
    discards = 0
    while not hand.is_over and discards < 4:
        seat = hand.to_act
        view = build_view(hand, seat)
        hand.apply(bots[seat].act(view))
        last_actor, last = hand.log[-1]
        if last.kind == DISCARD_KIND:
            discards += 1
            for other in range(3):
                seen = build_view(hand, other).history[-1][1]
                assert seen.cards == last.cards and UNKNOWN not in seen.cards
    assert discards >= 2
    for other in range(3):  # cards from the stock: only their receiver sees them
        for (_, real), (_, seen) in zip(hand.log, build_view(hand, other).history,
                                        strict=True):
            if real.kind == DEAL_HOLE_KIND and real.target != other:
                assert set(seen.cards) == {UNKNOWN}
