"""Betting, forced bets, pots and showdown rules of the engine, hand by hand."""

from __future__ import annotations

import pytest
from handplay import deal, manual
from handplay import play_out as _play_out

from pokerarena.cards import parse_cards
from pokerarena.engine import (
    BRING_IN,
    CHECK_CALL,
    DEALER,
    FOLD,
    Action,
    Game,
    IllegalAction,
    bet_to,
    discard,
)


def test_heads_up_button_posts_small_blind_and_acts_first_preflop_only():
    hand = Game("holdem").new_hand(1, 2, [100, 100], button=1)
    assert hand.stacks() == [98, 99]  # seat 0 big blind, seat 1 (button) small blind
    assert hand.to_act == 1
    hand.apply(CHECK_CALL)
    assert hand.to_act == 0
    legal = hand.legal_actions()
    assert legal.kinds == ("f", "cc", "cbr") and legal.call == 0 and legal.min_to == 4
    hand.apply(CHECK_CALL)
    assert hand.to_act == 0 and len(hand.board) == 3  # big blind first after the flop


def test_no_limit_minimum_raise_follows_the_last_raise():
    hand = Game("holdem").new_hand(1, 3, [100, 100, 100], button=2)
    legal = hand.legal_actions()
    assert hand.to_act == 2 and (legal.min_to, legal.max_to) == (4, 100)
    hand.apply(bet_to(10))
    legal = hand.legal_actions()
    assert (legal.call, legal.min_to, legal.max_to) == (9, 18, 100)


def test_short_all_in_raise_does_not_reopen_the_betting():
    hand = Game("holdem").new_hand(1, 3, [25, 100, 100], button=2)
    hand.apply(bet_to(20))            # button
    legal = hand.legal_actions()      # small blind: only 25 chips
    assert (legal.min_to, legal.max_to) == (25, 25)
    hand.apply(bet_to(25))            # all in: a raise of 5, less than a full raise
    assert "cbr" in hand.legal_actions().kinds   # big blind has not acted yet
    hand.apply(CHECK_CALL)
    assert hand.to_act == 2
    assert hand.legal_actions().kinds == ("f", "cc")  # the button may not re-raise


def test_pot_limit_maximum():
    hand = Game("holdem", {"betting": "pot_limit"}).new_hand(1, 3, [100] * 3, button=2)
    legal = hand.legal_actions()
    assert (legal.min_to, legal.max_to) == (4, 7)   # call 2, pot 5, raise 5
    hand.apply(bet_to(7))
    legal = hand.legal_actions()                    # SB: call 6, pot 16 -> to 23
    assert (legal.min_to, legal.max_to) == (12, 23)


def test_fixed_limit_cap_and_heads_up_cap():
    hand = Game("holdem", {"betting": "fixed_limit"}).new_hand(1, 3, [100] * 3, button=2)
    for to in (4, 6, 8):
        assert hand.legal_actions().min_to == to
        hand.apply(bet_to(to))
    assert hand.legal_actions().kinds == ("f", "cc")  # one bet and three raises
    with pytest.raises(IllegalAction):
        hand.apply(bet_to(10))
    hu = Game("holdem", {"betting": "fixed_limit"}).new_hand(1, 2, [100] * 2, button=1)
    for to in (4, 6, 8, 10, 12):
        hu.apply(bet_to(to))
    assert hu.legal_actions().kinds == ("f", "cc")  # heads-up: five raises
    capped = Game("holdem", {"betting": "fixed_limit", "heads_up_max_raises": "none"})
    hu = capped.new_hand(1, 2, [100] * 2, button=1)
    for to in (4, 6, 8, 10, 12, 14, 16):
        hu.apply(bet_to(to))
    assert "cbr" in hu.legal_actions().kinds


def test_side_pots_and_uncalled_bet():
    hand = manual("holdem", [10, 30, 100])
    deal(hand, "AsAh", "KsKh", "QsQh")
    hand.apply(bet_to(100))   # p3, the button
    hand.apply(CHECK_CALL)    # p1 all in for 10
    hand.apply(CHECK_CALL)    # p2 all in for 30
    for board in ("2c7d9h", "3s", "4c"):
        hand.apply(Action("db", 0, tuple(parse_cards(board))), DEALER)
    res = hand.result()
    assert res.stacks == [30, 40, 70]
    assert [(p.amount, p.eligible) for p in res.pots] == [(30, [0, 1, 2]), (40, [1, 2])]
    assert res.deltas == [20, 10, -30] and sum(res.deltas) == 0


def test_high_low_split_odd_chip_goes_high():
    hand = manual("omaha_hilo", [50, 50, 50], antes=(1, 1, 1))
    deal(hand, "Ac2cJdJh", "KhKc9s9c", "3h3s7d7c")
    hand.apply(FOLD)          # the button
    hand.apply(CHECK_CALL)    # small blind completes
    hand.apply(CHECK_CALL)    # big blind checks
    for board in ("4h5c8s", "Kd", "Qc"):
        hand.apply(Action("db", 0, tuple(parse_cards(board))), DEALER)
        if not hand.is_over:
            hand.apply(CHECK_CALL)
            hand.apply(CHECK_CALL)
    res = hand.result()
    # Pot 7: high (kings) gets 4, low (A-2-4-5-8) gets 3.
    assert res.stacks == [50, 51, 49]


def test_high_low_without_qualifying_low_scoops():
    hand = manual("omaha_hilo", [50, 50, 50])
    deal(hand, "AcKcJdJh", "KhKs9s9c", "3h3s7d7c")
    hand.apply(FOLD)
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    for board in ("4h5cKd", "Qs", "Qc"):
        hand.apply(Action("db", 0, tuple(parse_cards(board))), DEALER)
        if not hand.is_over:
            hand.apply(CHECK_CALL)
            hand.apply(CHECK_CALL)
    assert hand.result().stacks == [48, 52, 50]


def test_stud_bring_in_lowest_door_ties_by_suit():
    hand = manual("stud7", [100, 100, 100])
    deal(hand, "AsKs2h", "AdKd2c", "QcQd9s")
    assert hand.to_act == 1   # 2c: lowest door card, clubs lowest
    assert hand.legal_actions().kinds == ("pb", "cbr")
    assert hand.legal_actions().min_to == 4          # complete to the small bet
    with pytest.raises(IllegalAction):
        hand.apply(CHECK_CALL)
    hand.apply(BRING_IN)
    assert hand.to_act == 2 and hand.legal_actions().call == 2
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)    # seat 0 calls the bring-in; round over (no option)
    deal(hand, "3d", "Ac", "9d")
    assert hand.to_act == 2   # the open pair of nines beats ace-high: it opens
    assert hand.legal_actions().kinds == ("f", "cc", "cbr")


def test_razz_bring_in_highest_door_and_lowest_showing_opens():
    hand = manual("razz", [100, 100, 100])
    deal(hand, "2s3sKc", "2d3dKs", "4s5sAs")
    assert hand.to_act == 1   # K of spades: the highest door (ace low, spades highest)
    hand.apply(BRING_IN)
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    deal(hand, "2c", "3c", "4d")
    assert hand.to_act == 2   # A-4 is the lowest showing hand


def test_stud_with_eight_players_deals_a_shared_last_card():
    game = Game("stud7")
    hand = game.new_hand(5, 8, [1000] * 8, button=0)
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.apply(BRING_IN if "pb" in legal.kinds else CHECK_CALL)
    assert len(hand.board) == 1
    assert all(len(hand.cards_of(s)) == 6 for s in range(8))
    assert sum(hand.result().deltas) == 0


def test_draw_reshuffles_the_discards_when_the_stock_runs_out():
    hand = Game("draw27_triple").new_hand(3, 6, [500] * 6, button=0)
    draws = 0
    while not hand.is_over:
        legal = hand.legal_actions()
        if "sd" in legal.kinds:
            seat = hand.to_act
            hand.apply(discard(hand.cards_of(seat)))  # throw all five every time
            draws += 1
            live = [c for s in range(6) if not hand.folded[hand.pos_of[s]]
                    for c in hand.cards_of(s)]
            everything = live + hand.stock + hand.muck_pile
            assert sorted(everything) == list(range(52))
        else:
            hand.apply(CHECK_CALL)
    assert draws == 18  # 3 draws x 6 players: 90 replacement cards from 52
    assert sum(hand.result().deltas) == 0


def test_fold_with_nothing_to_call_is_illegal_without_free_fold_and_changes_nothing():
    hand = Game("holdem", {"free_fold": False}).new_hand(1, 3, [100] * 3, button=2)
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    before = (hand.to_act, hand.stacks(), list(hand.log), hand.legal_actions())
    with pytest.raises(IllegalAction, match="cannot fold"):
        hand.apply(FOLD)
    assert (hand.to_act, hand.stacks(), list(hand.log), hand.legal_actions()) == before


def test_observation_hides_other_down_cards():
    hand = Game("stud7").new_hand(2, 3, [100] * 3, button=0)
    obs = hand.observation(0)
    assert obs.hole == hand.cards_of(0) and len(obs.hole) == 3
    for seat in (1, 2):
        assert obs.up[seat] == hand.cards_of(seat)[2:]
    for _actor, act in obs.history:
        if act.kind == "dh" and act.target != 0:
            assert act.cards[:2] == (255, 255) and act.cards[2] != 255
    assert (obs.legal is not None) == (hand.to_act == 0)


def test_stud_open_pair_allows_the_big_bet_on_fourth_street():
    hand = manual("stud7", [100, 100, 100])
    deal(hand, "AsKs2h", "AdKd3c", "QcQd9s")
    hand.apply(BRING_IN)      # seat 0: 2h
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    deal(hand, "5d", "6c", "9d")            # seat 2 shows a pair of nines
    legal = hand.legal_actions()
    assert hand.to_act == 2 and legal.choices == (4, 8)
    with pytest.raises(IllegalAction, match="allowed 4 or 8"):
        hand.apply(bet_to(6))
    hand.apply(bet_to(8))
    assert hand.legal_actions().min_to == 16   # raises are big bets now
    off = manual("stud7", [100, 100, 100], open_pair_big_bet=False)
    deal(off, "AsKs2h", "AdKd3c", "QcQd9s")
    for _ in range(3):
        off.apply(BRING_IN if "pb" in off.legal_actions().kinds else CHECK_CALL)
    deal(off, "5d", "6c", "9d")
    assert off.legal_actions().choices == () and off.legal_actions().max_to == 4


def test_pass_and_out_forbids_checking_an_unopened_pot():
    game = Game("draw5", {"pass_and_out": True})
    hand = game.new_hand(4, 3, [50, 50, 50], button=2)
    assert hand.legal_actions().kinds == ("f", "cbr")
    with pytest.raises(IllegalAction, match="no checking"):
        hand.apply(CHECK_CALL)
    hand.apply(FOLD)          # pass = fold
    hand.apply(FOLD)
    assert hand.is_over and hand.result().stacks == [49, 49, 52]
    # After the draw, checking is allowed again.
    hand = game.new_hand(4, 2, [50, 50], button=1)
    hand.apply(bet_to(2))
    hand.apply(CHECK_CALL)
    while hand.phase_name == "draw":
        hand.apply(discard())
    assert hand.legal_actions().kinds == ("f", "cc", "cbr")


def test_ten_card_hands_score_the_best_five():
    from pokerarena.engine import _pyeval
    from pokerarena.engine.scoring import Scorer
    from pokerarena.rules import load_variant

    scorer = Scorer(load_variant("cincinnati").showdown)
    hole = parse_cards("2c7d9hJsKd")
    board = parse_cards("3c4c5c6cQh")
    assert scorer.high(hole, board) is not None
    other = parse_cards("AhAdAsKsKc")
    a = scorer.high(hole, board)        # straight flush 2-6 of clubs
    b = scorer.high(other, board)       # aces full
    assert a > b
    assert _pyeval.evaluate(hole + board, "high") > _pyeval.evaluate(other + board, "high")


def test_rake_is_taken_from_the_main_pot_and_capped():
    hand = manual("holdem", [10, 30, 100], rake_percent=10, rake_cap=5)
    deal(hand, "AsAh", "KsKh", "QsQh")
    hand.apply(bet_to(100))
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    for board in ("2c7d9h", "3s", "4c"):
        hand.apply(Action("db", 0, tuple(parse_cards(board))), DEALER)
    res = hand.result()
    assert res.rake == 5                       # 10% of 70 is 7, capped at 5
    assert res.stacks == [25, 40, 70]          # the main pot 30 pays the rake
    assert sum(res.stacks) + res.rake == 140


def house_hand(stacks=(100, 100, 100), **options):
    return Game("holdem", {"irregularities": "house", **options}).new_hand(
        1, len(stacks), list(stacks), button=len(stacks) - 1)


def test_house_raise_below_minimum_counts_as_call_extra_to_pot():
    hand = house_hand()
    hand.apply(bet_to(3))     # min raise is to 4: a call of 2, 1 chip dead
    assert hand.stacks() == [99, 98, 97] and hand.dead == 1 and hand.pot_total() == 6
    assert hand.irregularities == [(2, "cbr 3", "raise below the minimum: counts as a call, "
                                               "1 to the pot")]
    assert hand.to_act == 0


def test_house_bet_above_the_limit_counts_as_the_limit():
    hand = house_hand(betting="pot_limit")
    hand.apply(bet_to(20))    # pot-limit maximum is 7: 13 chips dead
    assert hand.bets[2] == 7 and hand.dead == 13 and hand.stacks()[2] == 80
    hand = house_hand(betting="fixed_limit")
    hand.apply(bet_to(9))     # the fixed raise is to 4
    assert hand.bets[2] == 4 and hand.dead == 5


def test_house_short_opening_bet_is_completed():
    hand = house_hand()
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)    # flop
    hand.apply(bet_to(1))     # minimum bet is 2
    assert hand.bets[0] == 2 and hand.dead == 0
    assert "short bet completed" in hand.irregularities[-1][2]


def test_house_out_of_turn_is_ignored_and_strict_raises():
    hand = house_hand()
    before = hand.stacks()
    hand.apply(CHECK_CALL, 0)
    assert hand.stacks() == before and hand.to_act == 2
    assert hand.irregularities == [(0, "cc out of turn", "ignored")]
    strict = Game("holdem").new_hand(1, 3, [100] * 3, button=2)
    with pytest.raises(IllegalAction, match="seat 0 cannot act now"):
        strict.apply(CHECK_CALL, 0)


def test_house_hands_conserve_chips():
    hand = house_hand(stacks=(30, 60, 90))
    hand.apply(bet_to(500))   # above the stack: all in for 90 (the limit)
    hand.apply(bet_to(1))     # raise below the minimum: a call
    hand.apply(CHECK_CALL)
    while not hand.is_over:
        hand.apply(CHECK_CALL)
    res = hand.result()
    assert sum(res.stacks) == 180 and sum(res.deltas) == 0


def test_observation_hides_other_players_discards():
    hand = Game("draw5", {"openers": "any", "void_if_all_check": False}).new_hand(
        3, 3, [50] * 3, button=2)
    while hand.phase_name != "draw":
        hand.apply(CHECK_CALL)
    thrower = hand.to_act
    hand.apply(discard(hand.cards_of(thrower)[:2]))
    other = (thrower + 1) % 3
    seen = [a for actor, a in hand.observation(other).history if a.kind == "sd"]
    own = [a for actor, a in hand.observation(thrower).history if a.kind == "sd"]
    thrown = [a.cards for actor, a in hand.log if a.kind == "sd"]
    assert seen[0].cards == (255, 255) and own[0].cards == thrown[0] and len(thrown[0]) == 2


def test_manual_draw_may_redeal_discards_but_never_live_cards():
    hand = manual("draw27_single", [100, 100])
    deal(hand, "2c3c4c5c7d", "AsKsQsJs9h")
    hand.apply(CHECK_CALL)    # p2 (button) completes the small blind
    hand.apply(CHECK_CALL)    # p1 checks
    hand.apply(discard(parse_cards("7d")))        # p1
    hand.apply(discard(parse_cards("AsKsQsJs")))  # p2
    with pytest.raises(IllegalAction, match="already dealt"):
        hand.apply(Action("dh", 0, tuple(parse_cards("2c")), 1), DEALER)   # live in p1's hand
    hand.apply(Action("dh", 0, tuple(parse_cards("As")), 0), DEALER)       # a discard: reshuffled
    assert parse_cards("As")[0] in hand.cards_of(0)


def test_jacks_or_better_to_open_and_passed_deals_carry_the_pot():
    hand = manual("draw5", [50, 50, 50])
    deal(hand, "2c3d4h5s7c", "JcJd4c8s9h", "AcKdQh9s2d")
    assert hand.pot_total() == 3 and hand.legal_actions().kinds == ("f", "cc")  # no openers
    hand.apply(CHECK_CALL)
    assert hand.legal_actions().kinds == ("f", "cc", "cbr")               # jacks open
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)    # ace-king high cannot open: the deal is passed
    res = hand.result()
    assert res.passed and res.carry == 3 and res.stacks == [49, 49, 49] and not res.pots
    # The next deal starts with the carried pot; the opener bets first after the draw.
    nxt = Game("draw5", {"dealing": "manual"}).new_hand(0, 3, [49, 49, 49], button=2, carry=3)
    assert nxt.pot_total() == 6
    deal(nxt, "2c3d4h5s7c", "AcKdQh9s2d", "JcJd4c8s9h")
    nxt.apply(CHECK_CALL)
    nxt.apply(CHECK_CALL)
    nxt.apply(bet_to(2))      # p3 opens with jacks
    nxt.apply(FOLD)
    nxt.apply(CHECK_CALL)
    nxt.apply(discard(parse_cards("9s2d")))       # seat 1 keeps A-K-Q
    nxt.apply(discard(parse_cards("4c8s9h")))     # seat 2 keeps the jacks
    nxt.apply(Action("dh", 0, tuple(parse_cards("AsAd")), 1), DEALER)
    nxt.apply(Action("dh", 0, tuple(parse_cards("JhTc2h")), 2), DEALER)
    assert nxt.to_act == 2    # the opener acts first after the draw
    nxt.apply(CHECK_CALL)
    nxt.apply(CHECK_CALL)
    res = nxt.result()                            # three aces beat three jacks: 10
    assert res.stacks == [48, 56, 46] and sum(res.stacks) == 147 + 3


def test_progressive_openers_climb_after_passed_deals():
    """000_053e85955f9a4108.txt, «Покер с досдачей», 1): «Прогрессивная система приема
    начальной ставки: если никто не желает делать начальную ставку, для начала следующей
    игры требуются две дамы или выше, если опять никто не открывает круг ставок, в
    следующей игре для этого требуются два короля и выше; затем два туза и выше». «Или
    выше»: any better hand opens too (two pair, a straight), a lower pair does not."""
    from pokerarena.engine.hand import _has_openers
    game = Game("draw5", {"openers": "progressive", "dealing": "manual"})
    for passes, hole, opens in [(0, "JcJd4c8s9h", True), (1, "JcJd4c8s9h", False),
                                (1, "QcQd4c8s9h", True), (3, "KcKd4c8s9h", False),
                                (3, "AcAd4c8s9h", True), (4, "KcKd4c8s9h", True)]:
        hand = game.new_hand(0, 2, [20, 20], button=1, passes=passes)
        deal(hand, hole, "2c3d4h5s7c")
        assert ("cbr" in hand.legal_actions().kinds) == opens, (passes, hole)
    assert _has_openers(parse_cards("2c3d4h5s6c"), 12)       # a straight opens
    assert _has_openers(parse_cards("2c2d4h4s9c"), 12)       # two pair opens
    assert not _has_openers(parse_cards("TcTd4h5s9c"), 9)


def _check_to_river(hand):
    while len(hand.board) < 5:
        hand.apply(CHECK_CALL)


def test_variable_limit_doubles_the_last_round_by_default():
    hand = Game("holdem", {"betting": "variable_limit"}).new_hand(1, 3, [100] * 3, button=2)
    assert hand.legal_actions().min_to == 4          # preflop: the small bet (2) raise
    _check_to_river(hand)
    assert hand.legal_actions().min_to == 4          # river: the initial limit 2 doubled
    custom = Game("holdem", {"betting": "variable_limit", "round_multipliers": (1, 2, 3, 4)})
    hand = custom.new_hand(1, 3, [100] * 3, button=2)
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    assert hand.legal_actions().min_to == 4          # flop: small bet 2 x 2
    with pytest.raises(Exception, match="round_multipliers: only for variable_limit"):
        Game("holdem", {"round_multipliers": (1, 2)})


def test_last_bet_limit_raises_at_most_the_last_bet():
    game = Game("holdem", {"betting": "last_bet_limit"})
    hand = game.new_hand(1, 3, [100] * 3, button=2)
    legal = hand.legal_actions()
    assert (legal.min_to, legal.max_to) == (4, 4)    # big blind 2: raise by at most 2
    hand.apply(bet_to(4))
    assert hand.legal_actions().max_to == 8
    hand.apply(bet_to(8))
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    assert hand.legal_actions().max_to == 4          # a new round: up to max_bet (4)
    growing = Game("holdem", {"betting": "last_bet_limit", "reset_each_round": False})
    hand = growing.new_hand(1, 3, [100] * 3, button=2)
    hand.apply(bet_to(4))
    hand.apply(bet_to(8))
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    assert hand.legal_actions().max_to == 8          # keeps growing: the last bet was 8


def test_raise_cap_per_player():
    game = Game("holdem", {"max_raises_per_player": 1})
    hand = game.new_hand(1, 3, [100] * 3, button=2)
    hand.apply(bet_to(6))     # button raises once
    hand.apply(bet_to(12))    # small blind re-raises
    hand.apply(CHECK_CALL)
    assert hand.to_act == 2 and hand.legal_actions().kinds == ("f", "cc")


def test_lowball_antes_joker_and_no_check_raise():
    hand = manual("lowball", [50, 50, 50])
    assert hand.pot_total() == 2 and hand.stacks() == [49, 50, 49]  # dealer and left ante
    deal(hand, "Jk2c3d4h9s", "Ac2d3h4sKs", "7c7d8h8sQs")
    legal = hand.legal_actions()   # left of the last ante payer: call the live ante or raise
    assert hand.to_act == 1 and legal.kinds == ("f", "cc", "cbr") and legal.call == 1
    hand.apply(CHECK_CALL)
    hand.apply(FOLD)          # the dealer
    hand.apply(CHECK_CALL)    # seat 0: its live ante is its bet
    hand.apply(discard(parse_cards("9s")))
    hand.apply(discard(parse_cards("Ks")))
    hand.apply(Action("dh", 0, tuple(parse_cards("5s")), 0), DEALER)
    hand.apply(Action("dh", 0, tuple(parse_cards("6c")), 1), DEALER)
    hand.apply(CHECK_CALL)    # seat 0 checks ...
    hand.apply(bet_to(2))     # seat 1 bets
    assert hand.legal_actions().kinds == ("f", "cc")    # ... and may not check-raise
    hand.apply(CHECK_CALL)
    res = hand.result()       # joker-5-4-3-2 is 5-4-3-2-A: beats 6-4-3-2-A
    assert res.stacks == [54, 47, 49]



def test_low_hole_card_wild_is_per_player():
    from pokerarena.engine.scoring import positional_wilds
    hole = parse_cards("3c9dKs4h4d8c3s")
    up = [False, False, True, True, True, True, False]
    wild = positional_wilds("low_hole", hole, up, [])
    assert set(wild) == set(parse_cards("3c3d3h3s"))   # the 3s are wild for this hand
    hand = manual("stud7_low_hole_wild", [100, 100])
    deal(hand, "3c9dKs", "JcJdQs")
    assert hand.to_act == 1   # the queen is the lowest door card: it brings in
    res = _play_out(hand, [("4h", "Ah"), ("4d", "2c"), ("8c", "7d"), ("3s", "Th")])
    # Seat 0: 4-4 and two wild threes (3c 3s) make four fours; seat 1's lowest down
    # card is the Th: J-J and a wild ten make three jacks only.
    assert res.stacks == [103, 97]


def test_pig_in_a_poke_and_lame_brain_wilds():
    from pokerarena.engine.scoring import positional_wilds
    board = parse_cards("Kh")
    assert set(positional_wilds("board_rank", [], [], board)) == set(parse_cards("KcKdKhKs"))
    assert set(positional_wilds("board_rank_others", [], [], board)) == set(
        parse_cards("KcKdKs"))
    assert set(positional_wilds("low_board", [], [], parse_cards("9c4dJh"))) == set(
        parse_cards("4c4d4h4s"))
    hand = manual("spit_pig", [50, 50], void_if_all_check=False)
    deal(hand, "AcAd7h2c", "QcQdJsTs", board="Kh")
    assert _play_out(hand).stacks == [51, 49]   # A-A + the wild king: three aces win


def test_crisscross_one_line_option():
    hands = ("AsKs8d9c", "7h7d8c9h")
    boards = ["Qs", "Js", "Ts", "4c", "5d"]     # row: Qs 5d Js; column: Ts 5d 4c
    any_combine = manual("crisscross", [50, 50], wild="none", void_if_all_check=False)
    deal(any_combine, *hands)
    assert _play_out(any_combine, boards).stacks == [51, 49]   # royal flush
    lines = manual("crisscross", [50, 50], wild="none", combine="crisscross",
                   void_if_all_check=False)
    deal(lines, *hands)
    assert _play_out(lines, boards).stacks == [49, 51]   # one line: sevens beat ace high


def test_mexican_stud_expose_is_simultaneous_and_keeps_a_card_down():
    hand = manual("stud_mexican", [50, 50, 50])
    deal(hand, "AsKs", "2c3d", "QhQd")
    assert hand.phase_name == "expose" and hand.legal_actions().discard_min == 1
    with pytest.raises(IllegalAction, match="turns up 1 card"):
        hand.apply(Action("ex", 0, tuple(parse_cards("AsKs"))))
    with pytest.raises(IllegalAction, match="no down card"):
        hand.apply(Action("ex", 0, tuple(parse_cards("Qh"))))
    hand.apply(Action("ex", 0, tuple(parse_cards("As"))))
    obs = hand.observation(1)           # seat 1 chooses without seeing seat 0's choice
    assert obs.up[0] == [] and [a.cards for _, a in obs.history if a.kind == "ex"] == [(255,)]
    hand.apply(Action("ex", 0, tuple(parse_cards("3d"))))
    hand.apply(Action("ex", 0, tuple(parse_cards("Qh"))))
    obs = hand.observation(1)           # everyone has chosen: all is visible
    assert obs.up[0] == parse_cards("As") and obs.up[2] == parse_cards("Qh")
    assert hand.phase_name == "bet" and hand.to_act == 0   # the ace shows highest


def test_declare_high_low_and_both():
    game = Game("stud5", {"hilo": "declare_in_turn", "dealing": "manual"})
    # Pot 4 (three antes and one carried chip). Seat 0: four kings; seat 1: 2-3-4-5-6
    # (a straight: a poor hilo_low, but the only low declared); seat 2: two pair.
    for declarations, expected in [
        ((1, 2, 1), [51, 51, 49]),   # high half to the kings, low half to the only low
        ((1, 1, 1), [53, 49, 49]),   # nobody declares low: the high hand scoops
        ((2, 1, 2), [49, 51, 51]),   # the straight is the only high; two pair the best low
    ]:
        hand = game.new_hand(0, 3, [50, 50, 50], button=2, carry=1)
        deal(hand, "KsKh", "2c3d", "9c9d")
        for street in (("Kd", "4h", "Tc"), ("Kc", "5s", "Td"), ("8s", "6c", "2h")):
            while hand.to_act != DEALER:
                hand.apply(CHECK_CALL)
            deal(hand, *street)
        while hand.phase_name == "bet":
            hand.apply(CHECK_CALL)
        assert hand.phase_name == "declare"
        for d in declarations:
            hand.apply(Action("dc", d))
        res = hand.result()
        assert sum(res.stacks) == 150 + 1
        assert res.stacks == expected, res.stacks


def test_declaring_both_must_win_both():
    def play(decl):
        game = Game("stud6", {"hilo": "declare_simultaneous", "dealing": "manual"})
        hand = game.new_hand(0, 2, [50, 50], button=1)
        deal(hand, "As2c", "7s6h")
        for street in (("3d", "4d"), ("4h", "3c"), ("5s", "2d"), ("Kc", "Ks")):
            while hand.to_act != DEALER:
                hand.apply(CHECK_CALL)
            deal(hand, *street)
        while hand.phase_name == "bet":
            hand.apply(CHECK_CALL)
        for d in decl:
            hand.apply(Action("dc", d))
        return hand.result().stacks

    # Seat 0 holds a wheel (A-2-3-4-5) and a king: the best high (a straight) and, in
    # hilo_low where straights count, a king-high low; seat 1's low is 7-6-4-3-2.
    assert play((1, 1)) == [51, 49]      # both high: the straight wins
    assert play((3, 2)) == [49, 51]      # seat 0 claims both, loses the low: nothing
    assert play((1, 2)) == [50, 50]      # one each: the pot is split


def test_stormy_weather_uses_one_table_card():
    hand = manual("stormy_weather", [50, 50])
    deal(hand, "AsAhKd2c", "7s8s9sTs")
    res = _play_out(hand, ["Js", "Qs", "Ks"])   # seat 0 bets, seat 1 calls: pot 6
    # Seat 1: 7-8-9-T of spades + one table card = a straight flush (J, Q or K no: only one
    # card, so J makes 7-J straight flush); seat 0: aces.
    assert res.stacks == [47, 53]


def test_freeze_after_two_raises_then_call_or_fold_only():
    game = Game("holdem", {"betting": "fixed_limit", "freeze_multiple": 3,
                           "max_raises": 5})
    hand = game.new_hand(1, 4, [200] * 4, button=3)
    hand.apply(bet_to(4))     # seat 2 raises (the big blind was the bet)
    hand.apply(bet_to(6))     # seat 3 raises again: two raises
    legal = hand.legal_actions()                 # seat 0 (small blind) has not raised
    assert hand.to_act == 0 and legal.choices == (8, 12)   # raise, or freeze: 6 + 3 x 2
    hand.apply(bet_to(12))
    assert hand.legal_actions().kinds == ("f", "cc")   # frozen: call or fold only


def test_draw_more_when_few_players_and_last_card_down():
    few = Game("draw5", {"openers": "any", "draw_more_when_few": True,
                         "void_if_all_check": False})
    hand = few.new_hand(2, 3, [50] * 3, button=2)
    while hand.phase_name != "draw":
        hand.apply(CHECK_CALL)
    assert hand.legal_actions().discard_max == 5
    plain = Game("draw5", {"openers": "any", "void_if_all_check": False}).new_hand(
        2, 3, [50] * 3, button=2)
    while plain.phase_name != "draw":
        plain.apply(CHECK_CALL)
    assert plain.legal_actions().discard_max == 3
    down = Game("stud5", {"last_card_down": True})
    assert down.variant.streets[-2].down == 1 and down.variant.streets[-2].up == 0
    with pytest.raises(Exception, match="last_card_down"):
        Game("holdem", {"last_card_down": True})
