"""Void deals, table and session rules, declarations and stud details, as the documents
say them."""

from __future__ import annotations

import pytest
from handplay import cards, deal, manual, play_out

from pokerarena.engine import CHECK_CALL, FOLD, Action, Game, IllegalAction, bet_to
from pokerarena.engine.hand import Hand
from pokerarena.engine.table import Table


def test_all_check_in_the_first_round_voids_the_deal():
    """000_… «Принципы, по которым делаются ставки»: «Если все игроки пропустили ход в
    первом круге ставок, игра аннулируется и завершается. В следующем раунде карты сдает
    следующий по очереди игрок»; the antes wait in the pot for the next deal («Если никто
    не ставит, все игроки вновь вносят предварительную ставку»)."""
    hand = manual("draw5", [50, 50, 50], openers="any")
    deal(hand, "2c3d4h5s7c", "JcJd4c8s9h", "AcKdQh9s2d")
    for _ in range(3):
        hand.apply(CHECK_CALL)
    res = hand.result()
    assert res.passed and res.carry == 3 and res.stacks == [49, 49, 49]
    table = Table(Game("cincinnati"), [50, 50], seed=3)
    first = table.new_hand()
    while not first.is_over:
        first.apply(CHECK_CALL)
    table.finish(first)
    assert first.result().passed and table.carry == 2 and table.button == 1
    assert table.new_hand().pot_total() == 4


def test_stud_goes_on_when_everyone_checks():
    """000_… «Покер-гвоздь»: «Дополнительные правила: 1) если все игроки пропустили ход,
    круг ставок завершен, и игра продолжается далее»."""
    hand = Game("stud5").new_hand(2, 3, [50] * 3, button=2)
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    assert not hand.is_over and hand.phase_name == "bet" and len(hand.cards_of(0)) == 3


def test_jackpot_others_ante_and_the_pot_before_the_deal_is_the_maximum():
    """000_… «Джекпот»: «Он действует, если все другие игроки выбыли из игры, после того,
    как один игрок сделал начальную ставку. В следующей игре перед сдачей другие игроки
    должны каждый внести «предварительную ставку» в банк в размере единичной ставки
    предыдущей игры. Новым максимумом (только для этой игры) является общая сумма,
    находящаяся теперь в банке перед началом игры ... Минимальным является обычный
    предел»."""
    table = Table(Game("draw5", {"openers": "any"}), [60, 60, 60, 60], seed=5, jackpot=True)
    hand = table.new_hand()
    opener = hand.to_act
    hand.apply(bet_to(2))
    for _ in range(3):
        hand.apply(FOLD)
    table.finish(hand)
    assert table.jackpot_next and table.jackpot_winner == opener
    jackpot = table.new_hand()
    seats = table.hand_seats
    paid = {seats[s]: jackpot.committed[jackpot.pos_of[s]] for s in range(4)}
    assert paid[opener] == 0 and sorted(paid.values()) == [0, 2, 2, 2]
    legal = jackpot.legal_actions()
    assert (legal.min_to, legal.max_to, legal.choices) == (2, 6, ())


def test_wangdoodle_doubles_after_any_flush_shown_and_for_a_round_as_an_option():
    """000_… «Вангдудл»: «После появления любого очень хорошего расклада (например, флеша и
    выше) обычные или начальные пределы удваиваются на следующую игру. Иногда специальные
    пределы действуют в течение следующего раунда игры, например, на одну сдачу каждым
    игроком»."""
    game = Game("draw5", {"openers": "any", "dealing": "manual", "void_if_all_check": False})
    for round_rule, doubled in ((False, [True, False]), (True, [True, True, True, False])):
        table = Table(game, [100, 100, 100], seed=1, wangdoodle=True,
                      wangdoodle_round=round_rule)
        hand = table.new_hand()
        # Seat 0's flush loses to seat 1's full house: a flush was shown all the same.
        deal(hand, "2c5c7c9cJc", "KdKhKs3d3h", "4s6h8dTsQh")
        play_out(hand)
        table.finish(hand)
        seen = []
        for _ in doubled:
            nxt = table.new_hand()
            seen.append(nxt.game.small_bet == 2 * game.small_bet)
            deal(nxt, "2c3d4h5s7d", "8c9dTh2s3c", "4c5d6h7s9s")
            play_out(nxt)
            table.finish(nxt)
        assert seen == doubled, round_rule


def test_progressive_openers_may_double_the_limits_until_someone_opens():
    """000_… «Покер со сменой карт: варианты»: «Прогрессивная система приема начальной
    ставки ... Каждый раз игроки обязаны вновь вносить предварительную ставку; и иногда
    пределы ставок удваиваются. Как только кто-то из игроков открыл круг ставок, следующая
    игра возвращается к «Валеты и выше» (а пределы ставок — к обычным)»."""
    game = Game("draw5", {"openers": "progressive"})
    table = Table(game, [100, 100], seed=2, progressive_double=True)
    table.passes = 1
    assert table.new_hand().game.small_bet == 4
    table.passes = 0
    assert table.new_hand().game.small_bet == 2


def _hilo_stud(variant):
    game = Game(variant, {"hilo": "declare_in_turn", "dealing": "manual"})
    return game.new_hand(0, 2, [50, 50], button=1)


def test_both_may_be_declared_only_with_more_than_five_cards():
    """000_… «Больше-меньше»: «Заявить оба расклада можно в игре, где на руках у игрока
    больше пяти карт, из которых он составляет свой окончательный расклад, так как потом
    ему разрешается составлять два разных расклада»."""
    five = _hilo_stud("stud5")
    play_to_declare(five, [("As2c", "KsKh"), ("3d", "Kd"), ("4h", "Qc"), ("5s", "Jd")])
    assert five.legal_actions().choices == (1, 2)
    with pytest.raises(IllegalAction, match="both only with more than five cards"):
        five.apply(Action("dc", 3))
    seven = _hilo_stud("stud7")
    play_to_declare(seven, [("As2c3h", "KsKhQd"), ("3d", "Kd"), ("4h", "Qc"), ("5s", "Jd"),
                            ("9c", "2d")])
    assert seven.legal_actions().choices == (1, 2, 3)


def play_to_declare(hand, streets):
    for street in streets:
        deal(hand, *street)
        while hand.phase_name == "bet":
            legal = hand.legal_actions()
            hand.apply(Action("pb") if "pb" in legal.kinds else CHECK_CALL)
    assert hand.phase_name == "declare"


def test_a_showing_four_flush_opens_above_a_pair():
    """000_… «Покер-гвоздь»: «4) в «Покере-гвозде» полноправным раскладом иногда считается
    «четверной флеш» ... При вскрытии (а также при определении начала круга ставок) он
    старше пары, но слабее двух пар»."""
    for four_flush, opener in ((True, 1), (False, 0)):
        hand = manual("stud5", [50, 50, 50], four_flush=four_flush)
        deal(hand, "9hAh", "9c2c", "9dQd")
        for street in (("Ac", "5c", "Qs"), ("Kd", "8c", "3h"), ("7s", "Jc", "4d")):
            while hand.to_act != -1:
                hand.apply(CHECK_CALL)
            deal(hand, *street)
        # Up cards: seat 0 Ah Ac Kd 7s (a pair of aces), seat 1 2c 5c 8c Jc (a four flush),
        # seat 2 Qd Qs 3h 4d (a pair of queens).
        assert hand.phase_name == "bet" and hand.to_act == opener, four_flush


def test_last_card_down_by_choice_turns_the_hole_card_up_first():
    """000_… «Другие варианты пятикарточного гвоздя»: «2) Последняя карта втемную по
    желанию: игрок может вскрыть свою «забивную» карту до последнего круга сдачи и
    получить пятую карту втемную»."""
    hand = Game("stud5", {"last_card_choice": True, "void_if_all_check": False}).new_hand(
        4, 2, [50, 50], button=1)
    while hand.phase_name != "choose":
        hand.apply(CHECK_CALL)
    first = hand.to_act
    hand.apply(Action("dd"))
    p = hand.pos_of[first]
    assert all(hand.isup[p])                     # the hole card is face up now
    hand.apply(Action("cc"))
    assert hand.isup[p] == [True] * 4 + [False]  # one hidden card: the last one
    other = 1 - first
    assert hand.observation(other).up[first] == hand.cards_of(first)[:4]


def test_split_openers_are_set_aside_not_reshuffled():
    """000_… «Покер с досдачей»: «сброшенная начальная карта откладывается в сторону и в
    конце игры проверяется. При тасовании сброса ее в колоду не берут»."""
    game = Game("draw5")
    hand: Hand = game.new_hand(0, 2, [50, 50], button=1)
    stock = hand.stock
    aside = stock.pop()
    thrown = [stock.pop() for _ in range(5)]
    hand.split_openers = {0: (aside,)}
    hand.muck_pile = [aside, *thrown]
    del stock[3:]                                # three cards left, three needed
    taken = hand._take(3)
    # «Нижняя карта колоды не используется. Если требуются дополнительные карты, нижняя
    # карта и карты сноса тасуются вместе»: the bottom card is not dealt, so three cards
    # needed from a stock of three means a reshuffle, without the split openers.
    assert aside not in taken and hand.muck_pile == [aside]


def test_low_hole_card_wild_whole_rank_or_the_card_only():
    """000_… «Семикарточный гвоздь: козырь — младшая «забивная» карта»: «самая младшая
    забивная карта каждого игрока является козырем»: by default the card and its rank in
    the player's hand (the reading of the variant file), option ``wild =
    "low_hole_card"``: that card only."""
    from pokerarena.engine.scoring import positional_wilds
    hole = list(cards("3c9dKs4h4d8c3s"))
    up = [False, False, True, True, True, True, False]
    assert set(positional_wilds("low_hole_card", hole, up, [])) == {cards("3c")[0]}
    results = {}
    for wild in ("low_hole", "low_hole_card"):
        hand = manual("stud7_low_hole_wild", [100, 100], wild=wild)
        deal(hand, "3c9dKs", "JcJdQs")
        res = play_out(hand, [("4h", "Ah"), ("4d", "2c"), ("8c", "7d"), ("3s", "Th")])
        results[wild] = res.stacks
    # Seat 0 holds 4-4 up and the threes 3c (down) and 3s (down): both threes wild make
    # four fours; only the 3c wild makes three fours. Seat 1: J-J and a wild ten: trips.
    assert results["low_hole"] == [103, 97]
    assert results["low_hole_card"] == [97, 103]   # three fours lose to three jacks
