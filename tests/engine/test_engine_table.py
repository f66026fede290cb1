"""Session-level rules at a Table: freeze-out, kitty, wangdoodle, bonus, passed deals."""

from __future__ import annotations

from pokerarena.arena.session import play_hand, play_session
from pokerarena.bots import CallBot, RandomBot
from pokerarena.cards import parse_cards
from pokerarena.engine import CHECK_CALL, DEALER, Action, Game, bet_to
from pokerarena.engine.table import Table


def test_freeze_out_plays_until_one_seat_holds_everything():
    table = Table(Game("holdem"), [30, 30, 30], seed=4, mode="freeze_out")
    bots = [RandomBot(i) for i in range(3)]
    hands = 0
    while not table.is_over and hands < 2000:
        hand = table.new_hand()
        play_hand(hand, [bots[s] for s in table.hand_seats])
        table.finish(hand)
        assert table.chips_conserved()
        hands += 1
    assert table.is_over and sorted(table.stacks) == [0, 0, 90]
    assert sum(table.net) == 0


def test_kitty_takes_a_unit_from_pots_with_two_raises_and_is_shared_at_the_end():
    game = Game("holdem", {"kitty_unit": 1})
    table = Table(game, [100, 100, 100], seed=1)
    hand = table.new_hand()
    hand.apply(bet_to(4))
    hand.apply(bet_to(8))     # two raises over the big blind
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    while not hand.is_over:
        hand.apply(CHECK_CALL)
    assert hand.result().kitty == 1
    table.finish(hand)
    assert table.kitty == 1 and table.chips_conserved()
    shares = table.close()
    assert sum(shares) == 1 and table.kitty == 0 and sum(table.net) == 0


def test_wangdoodle_doubles_the_limits_after_a_flush_or_better():
    game = Game("holdem", {"betting": "fixed_limit", "dealing": "manual"})
    table = Table(game, [100, 100], seed=2, wangdoodle=True, button=1)
    hand = table.new_hand()
    for seat, cards in ((0, "AsKs"), (1, "2c7d")):
        hand.apply(Action("dh", 0, tuple(parse_cards(cards)), seat), DEALER)
    for board in ("QsJs3s", "4h", "9c"):
        while hand.to_act != DEALER:
            hand.apply(CHECK_CALL)
        hand.apply(Action("db", 0, tuple(parse_cards(board))), DEALER)
    while not hand.is_over:
        hand.apply(CHECK_CALL)
    table.finish(hand)
    assert table.doubled_next
    nxt = table.new_hand()
    assert nxt.game.small_bet == 4 and nxt.game.big_bet == 8


def test_bonus_hand_is_paid_by_every_other_player():
    game = Game("holdem", {"bonus": "four_of_a_kind", "bonus_multiplier": 3,
                           "betting": "fixed_limit", "dealing": "manual"})
    hand = game.new_hand(0, 3, [100, 100, 100], button=2)
    for seat, cards in ((0, "AsAh"), (1, "2c7d"), (2, "KcKd")):
        hand.apply(Action("dh", 0, tuple(parse_cards(cards)), seat), DEALER)
    for board in ("AdAc3s", "4h", "9c"):
        while hand.to_act != DEALER:
            hand.apply(CHECK_CALL)
        hand.apply(Action("db", 0, tuple(parse_cards(board))), DEALER)
    while not hand.is_over:
        hand.apply(CHECK_CALL)
    res = hand.result()
    # Pot 6 to the four aces, plus a bonus of 3 x 4 = 12 from each other player.
    assert res.bonuses == {0: 24}
    assert res.stacks == [100 + 4 + 24, 98 - 12, 98 - 12]


def test_sessions_conserve_chips_with_every_table_rule():
    game = Game("draw5", {"kitty_unit": 1, "bonus": "four_of_a_kind", "rake_percent": 5})
    out = play_session(game, ["random", "call", "random"], 300, 9, wangdoodle=True)
    assert out.chips_conserved and out.hands == 300
    frozen = play_session(Game("razz"), ["random"] * 3, 5000, 2, stack=40, mode="freeze_out")
    assert frozen.chips_conserved and sorted(frozen.net)[-1] == 80


def test_call_bot_with_table_mapping():
    table = Table(Game("stud7"), [50] * 4, seed=3, mode="freeze_out")
    hand = table.new_hand()
    play_hand(hand, [CallBot() for _ in table.hand_seats])
    table.finish(hand)
    assert table.chips_conserved() and table.button == 1


def test_jackpot_after_everyone_folds_to_the_opener():
    game = Game("draw5", {"openers": "any"})
    table = Table(game, [50, 50, 50], seed=5, jackpot=True)
    hand = table.new_hand()
    assert hand.pot_total() == 3
    hand.apply(bet_to(2))     # the opener
    hand.apply(Action("f"))
    hand.apply(Action("f"))
    table.finish(hand)
    assert table.jackpot_next
    jackpot = table.new_hand()
    # The two other players ante one unit bet (the small bet, 2) each; the opener none.
    assert jackpot.pot_total() == 4 and sorted(jackpot.committed) == [0, 2, 2]
    legal = jackpot.legal_actions()    # from the usual bet up to the pot before the deal
    assert (legal.min_to, legal.max_to, legal.choices) == (2, 4, ())
    play_hand(jackpot, [CallBot() for _ in range(3)])
    table.finish(jackpot)
    assert not table.jackpot_next and table.chips_conserved()
