"""PHH writing and strict reading: export-then-replay, fractional amounts, rule errors."""

from __future__ import annotations

import numpy as np
import pytest

from pokerarena.arena.session import play_hand
from pokerarena.bots import RandomBot
from pokerarena.engine import Game
from pokerarena.engine.phh import PHHError, dumps_phh, loads_phh, replay
from pokerarena.rules import all_variants, load_variant


def _played(variant_id, betting, n, seed):
    game = Game(variant_id, {"betting": betting})
    rng = np.random.default_rng(seed)
    stacks = [int(x) for x in rng.integers(5, 120, n)]
    hand = game.new_hand(rng, n, stacks, button=seed % n)
    play_hand(hand, [RandomBot(seed * 10 + i) for i in range(n)])
    return hand


CASES = [(v.id, b) for v in all_variants() for b in v.betting]


@pytest.mark.parametrize(("variant_id", "betting"), CASES)
def test_export_then_replay_gives_same_stacks(variant_id, betting):
    lo, hi = load_variant(variant_id).players
    for seed in range(4):
        n = min(max(2 + seed % 4, lo), hi)
        hand = _played(variant_id, betting, n, seed)
        text = dumps_phh(hand, _seed=seed)
        rep = replay(loads_phh(text))
        by_pos = [hand.stacks()[hand.seat_of[p]] for p in range(n)]
        assert rep.finishing_stacks == by_pos, text
        assert loads_phh(text)["finishing_stacks"] == by_pos


def _phh(**fields):
    return "\n".join(f"{k} = {v!r}" if not isinstance(v, bool) else f"{k} = {str(v).lower()}"
                     for k, v in fields.items())


def test_illegal_action_names_the_action():
    text = _phh(variant="NT", antes=[0, 0, 0], blinds_or_straddles=[1, 2, 0], min_bet=2,
                starting_stacks=[100, 100, 100],
                actions=["d dh p1 AsKs", "d dh p2 QdQc", "d dh p3 7h2c", "p3 cbr 3"])
    with pytest.raises(PHHError, match=r"action 4 'p3 cbr 3'.*4 to 100"):
        replay(loads_phh(text))


def test_out_of_turn_is_an_error():
    text = _phh(variant="NT", antes=[0, 0, 0], blinds_or_straddles=[1, 2, 0], min_bet=2,
                starting_stacks=[100, 100, 100],
                actions=["d dh p1 AsKs", "d dh p2 QdQc", "d dh p3 7h2c", "p1 cc"])
    with pytest.raises(PHHError, match="action 4 'p1 cc'"):
        replay(loads_phh(text))


def test_duplicate_card_is_an_error():
    text = _phh(variant="NT", antes=[0, 0], blinds_or_straddles=[1, 2], min_bet=2,
                starting_stacks=[100, 100], actions=["d dh p1 AsKs", "d dh p2 AsQc"])
    with pytest.raises(PHHError, match="already dealt"):
        replay(loads_phh(text))


def test_incomplete_hand_is_an_error():
    text = _phh(variant="NT", antes=[0, 0], blinds_or_straddles=[1, 2], min_bet=2,
                starting_stacks=[100, 100], actions=["d dh p1 AsKs", "d dh p2 QsQc"])
    with pytest.raises(PHHError, match="incomplete"):
        replay(loads_phh(text))


def test_unknown_variant_code():
    with pytest.raises(PHHError, match="variant: unknown code 'XYZ'"):
        replay(loads_phh(_phh(variant="XYZ", starting_stacks=[1, 1], actions=[])))


def _split_board_hand(river):
    return dict(variant="NT", antes=[0, 0, 0], blinds_or_straddles=[0.5, 1, 0], min_bet=1,
                starting_stacks=[10, 10, 10.01],
                actions=["d dh p1 2c3d", "d dh p2 2d3c", "d dh p3 4c5d", "p3 cbr 2.01",
                         "p1 cc", "p2 cc", "d db AsKsQs", "p1 cbr 1", "p2 cc", "p3 f",
                         "d db Js", "p1 cc", "p2 cc", "d db Ts", *river,
                         "p1 sm 2c3d", "p2 sm 2d3c"])


def test_odd_chip_goes_first_left_of_button_when_nobody_was_called():
    # Both play the board (royal flush); pot 8.03 in cents: 803 = 402 + 401.
    fields = _split_board_hand(["p1 cc", "p2 cc"])
    rules = replay(loads_phh(_phh(**fields)))
    assert rules.finishing_stacks == [11.01, 11.0, 8.0]
    frac = replay(loads_phh(_phh(**fields)), odd_chip="fractional")
    assert frac.finishing_stacks == [11.005, 11.005, 8.0]


def test_odd_chip_goes_to_the_player_who_was_called():
    fields = _split_board_hand(["p1 cc", "p2 cbr 1", "p1 cc"])
    rules = replay(loads_phh(_phh(**fields)))
    assert rules.finishing_stacks == [11.0, 11.01, 8.0]
    pos = replay(loads_phh(_phh(**fields)), odd_chip="position")
    assert pos.finishing_stacks == [11.01, 11.0, 8.0]


def test_showdown_order_starts_with_the_last_rounds_opener_or_aggressor():
    # Triple draw: the last betting round is skipped (p2 all in), so p1 (its opener)
    # shows first although p2 raised in the round before.
    base = dict(variant="F2L3D", antes=[0, 0], blinds_or_straddles=[1, 2], small_bet=2,
                big_bet=4, starting_stacks=[100, 10],
                actions=["d dh p1 QdJc8s7d5h", "d dh p2 KsKd4s4c2s", "p2 cbr 4", "p1 cc",
                         "p1 sd QdJc", "p2 sd KsKd4s", "d dh p1 As6s", "d dh p2 7s7c5c",
                         "p1 cc", "p2 cbr 2", "p1 cc", "p1 sd As", "p2 sd 7s",
                         "d dh p1 9d", "d dh p2 6h", "p1 cc", "p2 cbr 4", "p1 cc",
                         "p1 sd 8s", "p2 sd", "d dh p1 7h"])
    rep = replay(loads_phh(_phh(**base)), complete=False)
    assert rep.hand.phase_name == "showdown" and rep.hand.to_act == 0
    done = replay(loads_phh(_phh(**base)))
    assert done.finishing_stacks == [90, 20]   # 7-6-5-4-2 beats 9-7-7-6-5


def test_all_in_hands_may_be_shown_before_the_runout():
    text = _phh(variant="NT", antes=[0, 0, 0], blinds_or_straddles=[50, 100, 0],
                min_bet=100, starting_stacks=[10000, 10000, 10000],
                actions=["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 f",
                         "p1 cbr 10000", "p2 cc", "p1 sm AsAd", "p2 sm KsKd",
                         "d db 2c7h9d", "d db Th", "d db 3c"])
    assert replay(loads_phh(text)).finishing_stacks == [20000, 0, 10000]


def test_winner_need_not_show_when_the_others_muck():
    text = _phh(variant="NT", antes=[0, 0], blinds_or_straddles=[50, 100], min_bet=100,
                starting_stacks=[1000, 1000],
                actions=["d dh p1 ????", "d dh p2 ????", "p2 cc", "p1 cc", "d db 2c7h9d",
                         "p1 cc", "p2 cc", "d db Th", "p1 cc", "p2 cc", "d db 3c", "p1 cc",
                         "p2 cbr 100", "p1 cc", "p2 sm", "# p1 wins unseen"])
    assert replay(loads_phh(text)).finishing_stacks == [1200, 800]


def test_unknown_cards_at_a_contested_showdown_are_an_error():
    text = _phh(variant="NT", antes=[0, 0], blinds_or_straddles=[50, 100], min_bet=100,
                starting_stacks=[1000, 1000],
                actions=["d dh p1 ????", "d dh p2 ????", "p2 cc", "p1 cc", "d db 2c7h9d",
                         "p1 cc", "p2 cc", "d db Th", "p1 cc", "p2 cc", "d db 3c", "p1 cc",
                         "p2 cc"])
    with pytest.raises(PHHError, match="not known"):
        replay(loads_phh(text))


def test_export_then_replay_with_a_carried_pot_and_progressive_openers():
    game = Game("draw5", {"openers": "progressive"})
    rng = np.random.default_rng(5)
    hand = game.new_hand(rng, 3, [40, 40, 40], button=0, carry=9, passes=2)
    play_hand(hand, [RandomBot(i) for i in range(3)])
    text = dumps_phh(hand)
    data = loads_phh(text)
    assert data["_carry"] == 9 and data["_passes"] == 2 and data["_openers"] == "progressive"
    rep = replay(data)
    assert rep.finishing_stacks == [hand.stacks()[hand.seat_of[p]] for p in range(3)]
    assert rep.hand.result().carry == hand.result().carry


def test_short_all_in_bet_in_fixed_limit_complete_or_pokerkit_raise():
    base = dict(variant="FT", antes=[0, 0, 0], blinds_or_straddles=[1, 2, 0], small_bet=2,
                big_bet=4, starting_stacks=[100, 100, 3])
    flop = ["d dh p1 AsKs", "d dh p2 QdQc", "d dh p3 7h2c", "p3 cc", "p1 cc", "p2 cc",
            "d db 2d7c9s", "p1 cc", "p2 cc", "p3 cbr 1"]       # p3: all in for 1
    # The casino rule completes the bet (to 2); PokerKit-recorded hands raise a full
    # bet over it (to 3). Both replay; the uncalled part goes back.
    for amount in ("2", "3"):
        text = _phh(**base, actions=[*flop, f"p1 cbr {amount}", "p2 f", "d db 3h",
                                     "d db 4h", "p1 sm AsKs", "p3 sm 7h2c"])
        assert replay(loads_phh(text)).finishing_stacks == [97, 98, 8]
    text = _phh(**base, actions=[*flop, "p1 cbr 4"])
    with pytest.raises(PHHError, match="allowed 2 or 3"):
        replay(loads_phh(text))


@pytest.mark.parametrize(("variant_id", "options"), [
    ("stud5", {"hilo": "declare_simultaneous", "last_card_down": True}),
    ("holdem", {"betting": "fixed_limit", "freeze_multiple": 3, "hilo": "cards_speak_8"}),
    ("draw5", {"pass_and_out": True, "draw_more_when_few": True}),
    ("stud_mexican", {"wild": "hole_rank", "max_raises_per_player": 1}),
])
def test_export_then_replay_carries_game_options(variant_id, options):
    game = Game(variant_id, options)
    for seed in range(3):
        rng = np.random.default_rng(seed)
        hand = game.new_hand(rng, 3, [60, 60, 60], button=seed % 3)
        play_hand(hand, [RandomBot(seed * 5 + i) for i in range(3)])
        text = dumps_phh(hand)
        rep = replay(loads_phh(text))
        assert rep.finishing_stacks == [hand.stacks()[hand.seat_of[p]] for p in range(3)], text


def test_a_hand_with_a_protected_seat_exports_and_replays_exactly():
    import numpy as np

    from pokerarena.engine import Game
    from pokerarena.engine.actions import CHECK_CALL, Action
    from pokerarena.engine.phh import dumps_phh, loads_phh, replay

    game = Game("holdem", {"betting": "no_limit"})
    hand = game.new_hand(np.random.default_rng(1), 3, [100] * 3, 0)
    hand.apply(Action("cbr", 10))
    hand.protect()  # the next seat keeps its claim on the pot so far, all in
    while not hand.is_over:
        hand.apply(CHECK_CALL)
    text = dumps_phh(hand)
    assert " pr\"" in text
    assert replay(loads_phh(text)).finishing_stacks == [
        hand.stacks()[hand.seat_of[p]] for p in range(3)]
