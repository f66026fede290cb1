"""Betting systems, raise caps and forced bets, each played as the documents say them.

Every test names its document (``../shared/seeds/``), the section and a short quote.
"""

from __future__ import annotations

import pytest
from handplay import deal, manual, play_out

from pokerarena.engine import BRING_IN, CHECK_CALL, FOLD, Game, IllegalAction, bet_to


def _table_stakes_example(betting, **stakes):
    # Seats 0, 1, 2 are the document's А, Б, В (В is the button: А acts first). No ante:
    # the example's chips are all bets. В holds the best hand, Б the worst.
    hand = manual("two_card", [100, 30, 100], betting=betting, ante=0, **stakes)
    deal(hand, "QcQd", "2c7d", "AcAd")
    return hand


@pytest.mark.parametrize("betting", ["spread_limit", "last_bet_limit"])
def test_the_table_stakes_example_plays_to_the_chip(betting):
    """000_… «Примеры настольных ставок»: «а) игрок А ставит 40 фишек: 30 идут в основной
    банк; 10 открывают дополнительный банк; б) игрок Б ставит свои 30 фишек ...; в) игрок
    В ставит 50 фишек: 30 идут в основной банк, остальные — в дополнительный. ... Побочный
    банк могут взять только игроки А или В». В raises by 10, less than А's bet of 40:
    a spread limit («любая ставка или ее повышение в промежутке между минимумом и
    максимумом») and a last-bet limit (the previous bet is the maximum) both allow it."""
    hand = _table_stakes_example(betting, min_bet=5, max_bet=50)
    assert hand.to_act == 0 and hand.legal_actions().max_to == 50
    hand.apply(bet_to(40))                       # А
    assert hand.legal_actions().call == 30
    hand.apply(CHECK_CALL)                       # Б: all in for 30
    legal = hand.legal_actions()                 # В may raise by as little as 5
    assert legal.min_to == 45 and legal.max_to == (90 if betting == "spread_limit" else 80)
    hand.apply(bet_to(50))                       # В puts in 50
    assert hand.legal_actions().call == 10
    hand.apply(CHECK_CALL)                       # А and В are even in the side pot
    res = hand.result()
    assert [(p.amount, sorted(p.eligible)) for p in res.pots] == [(90, [0, 1, 2]), (40, [0, 2])]
    assert res.stacks == [50, 0, 180]


def test_spread_limit_raise_may_be_smaller_than_the_bet_before_it():
    """000_… «Установленные пределы: фиксированные»: «а) приемлема любая ставка или ее
    повышение в промежутке между минимумом и максимумом» (RULES.md: a raise may be smaller
    than the bet before it)."""
    hand = manual("holdem", [100, 100, 100], betting="spread_limit", min_bet=2, max_bet=10)
    deal(hand, "AsKs", "QdJd", "7c2h")
    hand.apply(bet_to(12))                       # the button raises the blind by 10
    legal = hand.legal_actions()
    assert (legal.min_to, legal.max_to) == (14, 22)   # then a raise of 2 is enough


def test_last_bet_limit_minimum_stays_the_agreed_minimum():
    """000_… «Предел последней ставки»: «Начальная ставка определяется согласованными
    пределами. После этого максимальной ставкой или ее поднятием является сумма,
    помещенная в банк предыдущим игроком»; the minimum stays the agreed one."""
    hand = manual("holdem", [100, 100, 100], betting="last_bet_limit")
    deal(hand, "AsKs", "QdJd", "7c2h")
    hand.apply(bet_to(4))
    legal = hand.legal_actions()
    assert (legal.min_to, legal.max_to) == (6, 8)


def test_fixed_amounts_and_min_or_max():
    """000_… «Установленные пределы: фиксированные»: «б) в качестве ставки или ее
    повышения приемлемы лишь определенные суммы в диапазоне между минимумом и
    максимумом; в) ... не приемлемы никакие промежуточные между минимумом и максимумом
    суммы»."""
    hand = manual("two_card", [100, 100, 100], betting="fixed_amounts", amounts=(2, 5),
                  min_bet=2, max_bet=5)
    deal(hand, "QcQd", "2c7d", "AcAd")
    assert hand.legal_actions().choices == (2, 5)
    with pytest.raises(IllegalAction, match="allowed 2 or 5"):
        hand.apply(bet_to(3))
    hand.apply(bet_to(5))
    assert hand.legal_actions().choices == (7, 10)
    mm = manual("two_card", [100, 100, 100], betting="min_or_max", min_bet=2, max_bet=8)
    deal(mm, "QcQd", "2c7d", "AcAd")
    assert mm.legal_actions().choices == (2, 8)
    mm.apply(bet_to(2))
    assert mm.legal_actions().choices == (4, 10)
    every = Game("two_card", {"betting": "fixed_amounts", "min_bet": 2, "max_bet": 6})
    assert every.amounts == (2, 4, 6)            # default: multiples of the minimum


def test_heads_up_cap_is_for_a_table_of_two_and_a_capped_round_stays_capped():
    """002_… «Торговля в Техасском Холдеме с фиксированным лимитом»: «максимально
    допустимое число ставок в любом раунде торговли - 4 ... В играх «один на один» кэп
    объявляется после 5 подъемов». A pot that gets down to two players at a bigger table
    keeps the table's cap (RULES.md §2)."""
    hand = manual("holdem", [100, 100, 100], betting="fixed_limit")
    deal(hand, "AsKs", "QdJd", "7c2h")
    hand.apply(FOLD)                             # the button: two players left
    for to in (4, 6, 8):                         # blind (the bet) and three raises
        hand.apply(bet_to(to))
    assert hand.legal_actions().kinds == ("f", "cc")
    hu = manual("holdem", [100, 100], betting="fixed_limit")
    deal(hu, "AsKs", "QdJd")
    for to in (4, 6, 8, 10, 12):
        hu.apply(bet_to(to))
    assert hu.legal_actions().kinds == ("f", "cc")


def test_per_player_cap_does_not_count_the_opening_bet():
    """000_… «Ограничение на повышение ставок»: «а) три (или иногда два) повышения одним
    игроком в одном круге ставок»; the opening bet of a round is not a raise."""
    hand = manual("draw5", [100, 100, 100], openers="any", max_raises_per_player=1,
                  max_raises="none")
    deal(hand, "2c3d4h5s7c", "JcJd4c8s9h", "AcKdQh9s2d")
    hand.apply(bet_to(2))                        # seat 0 opens
    hand.apply(bet_to(4))                        # seat 1 raises
    hand.apply(CHECK_CALL)
    assert "cbr" in hand.legal_actions().kinds   # seat 0 has bet but not raised
    hand.apply(bet_to(6))
    assert hand.legal_actions().kinds == ("f", "cc")   # seat 1: its one raise is used


def test_freeze_is_open_to_the_player_who_opened_with_a_bet():
    """000_… «Замораживание повышения ставок»: «Если в течение одного круга ставки
    поднимались дважды и более, любой игрок, который в этом круге не поднимал ставку,
    может «заморозить» повышение ... ставит заранее установленную сумму, обычно в два —
    пять раз превышающую нормальную максимальную ставку. После этого другие игроки должны
    либо пасовать, либо оставаться»."""
    hand = manual("draw5", [100, 100, 100], openers="any", freeze_multiple=3,
                  max_raises=5)
    deal(hand, "2c3d4h5s7c", "JcJd4c8s9h", "AcKdQh9s2d")
    hand.apply(bet_to(2))                        # seat 0 opens: a bet, not a raise
    hand.apply(bet_to(4))
    hand.apply(bet_to(6))                        # two raises
    assert hand.legal_actions().choices == (8, 12)   # raise, or freeze: 6 + 3 x 2
    hand.apply(bet_to(12))
    assert hand.legal_actions().kinds == ("f", "cc")


def test_open_pair_lets_every_raise_be_small_or_big_until_one_is_big():
    """002_… «Семикарточный покер»: «Если он ставит $2, все остальные игроки, повышая,
    должны ставить $2 или $4. Если же он ставит $4, или если кто-нибудь повышает $4, все
    последующие повышения должны быть $4»."""
    hand = manual("stud7", [200, 200, 200])
    deal(hand, "AsKs2h", "AdKd3c", "QcQd9s")
    hand.apply(BRING_IN)
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    deal(hand, "5d", "6c", "9d")                 # seat 2 shows a pair of nines
    assert hand.legal_actions().choices == (4, 8)
    hand.apply(bet_to(4))                        # a small bet
    assert hand.legal_actions().choices == (8, 12)   # a raise may be small or big
    hand.apply(bet_to(8))                        # small raise
    assert hand.legal_actions().choices == (12, 16)
    hand.apply(bet_to(16))                       # a big raise: from now on only big
    legal = hand.legal_actions()
    assert legal.choices == () and (legal.min_to, legal.max_to) == (24, 24)


def test_stud7_hilo_keeps_the_open_pair_rule():
    """002_… «Семикарточный покер – вариант с Hi-Lo»: «представляет собой ту же самую
    игру, что и обычный семикарточный покер, но с одним исключением: банк делится»."""
    hand = manual("stud7_hilo", [200, 200, 200])
    deal(hand, "AsKs2h", "AdKd3c", "QcQd9s")
    hand.apply(BRING_IN)
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    deal(hand, "5d", "6c", "9d")
    assert hand.legal_actions().choices == (4, 8)


def test_blind_open_second_blind_is_a_raise():
    """000_… «Начало втемную»: «1) сдающий делает предварительную ставку только в одну
    фишку; 2) игрок слева от него ставит одну фишку втемную; 3) следующий игрок поднимает
    его ставку, поставив две фишки втемную ... Максимальное увеличение ставки до обмена
    составляет одну фишку»: the blinds are the bet and the first raise."""
    hand = manual("draw5_blind", [50, 50, 50, 50])
    assert hand.pot_total() == 4                 # the dealer's 1 and the blinds 1 + 2
    deal(hand, "2c3d4h5s7c", "JcJd4c8s9h", "AcKdQh9s2d", "3c3h8d9dTs")
    legal = hand.legal_actions()
    assert hand.to_act == 2 and legal.call == 2 and (legal.min_to, legal.max_to) == (3, 3)
    hand.apply(bet_to(3))
    hand.apply(bet_to(4))                        # the third raise: the round is capped
    assert hand.legal_actions().kinds == ("f", "cc")


def test_variable_limit_last_round_doubles_the_initial_limit():
    """000_… «Установленные пределы: изменяемые»: «Минимум и максимум изменяются в
    процессе игры; например, пределы для последнего круга ставок всегда вдвое превышают
    первоначальные пределы»."""
    hand = Game("holdem", {"betting": "variable_limit"}).new_hand(1, 3, [100] * 3, button=2)
    sizes = {}
    while not hand.is_over:
        legal = hand.legal_actions()
        if hand.cur == 0 and "cbr" in legal.kinds:
            sizes[len(hand.board)] = legal.min_to
        hand.apply(CHECK_CALL)
    assert sizes == {3: 2, 4: 2, 5: 4}           # flop, turn: 2; river: 2 x 2


def test_pot_limit_example():
    """002_… «Лимит до размера банка»: «В банке $10. Первый игрок, делающий заявление,
    ставит $10. Второй игрок отвечает на $10. Tретий игрок может повысить максимум на $50
    - $10 ответ и $40 повышение»; «Повышение должно быть не меньше, чем предыдущая ставка
    или повышение»."""
    hand = manual("two_card", [100, 100, 100], betting="pot_limit", ante=0, carry=10)
    deal(hand, "QcQd", "2c7d", "AcAd")
    assert hand.legal_actions().max_to == 10     # a bet of the pot
    hand.apply(bet_to(10))
    assert hand.legal_actions().min_to == 20     # raise at least the bet: to 20
    hand.apply(CHECK_CALL)
    assert hand.legal_actions().max_to == 50


def test_no_limit_minimum_bet_is_the_big_blind():
    """RULES.md §4 (casino practice where the documents are silent): «in no limit and pot
    limit the minimum bet is the big blind»; option ``min_bet_big_blind``."""
    for option, flop_min in ((True, 10), (False, 2)):
        hand = manual("holdem", [500] * 3, blinds=(5, 10), min_bet_big_blind=option)
        deal(hand, "AsKs", "QdJd", "7c2h")
        assert hand.legal_actions().min_to == 20
        for _ in range(3):
            hand.apply(CHECK_CALL)
        deal(hand, board="2c5d9h")
        assert hand.legal_actions().min_to == flop_min


def test_short_all_ins_that_together_make_a_full_raise_reopen_the_betting():
    """RULES.md §4 (casino practice): «an all-in that is less than a full raise does not
    reopen the betting for players who have acted, unless several such all-ins together
    make a full raise»; option ``all_in_reopen``."""
    for rule, reopened in (("cumulative", True), ("single", False)):
        hand = manual("holdem", [100, 17, 22, 100], all_in_reopen=rule)
        deal(hand, "AsKs", "QdJd", "7c2h", "9s9c")
        for _ in range(4):
            hand.apply(CHECK_CALL)               # everyone in for the big blind
        deal(hand, board="2c5d9h")
        hand.apply(bet_to(10))                   # seat 0
        hand.apply(bet_to(15))                   # seat 1 all in: 5 more, short
        hand.apply(bet_to(20))                   # seat 2 all in: 5 more, short
        hand.apply(CHECK_CALL)                   # seat 3 calls
        assert hand.to_act == 0
        assert ("cbr" in hand.legal_actions().kinds) == reopened


def test_fixed_limit_all_in_of_half_a_bet_reopens():
    """RULES.md §4 (casino practice): «in fixed limit an all-in of at least half a bet
    reopens it»; option ``half_bet_reopens``."""
    for option, reopened in ((True, True), (False, False)):
        hand = manual("holdem", [100, 5, 100], betting="fixed_limit",
                      half_bet_reopens=option)
        deal(hand, "AsKs", "QdJd", "7c2h")
        for _ in range(3):
            hand.apply(CHECK_CALL)
        deal(hand, board="2c5d9h")
        hand.apply(bet_to(2))                    # seat 0 bets 2
        hand.apply(bet_to(3))                    # seat 1 all in: a raise of 1, half a bet
        hand.apply(CHECK_CALL)
        assert ("cbr" in hand.legal_actions().kinds) == reopened


def test_forced_bets_follow_the_stakes():
    """002_… «Блайнды»: «Малый блайнд равен половине нижнего лимита, с округлением до
    ближайшего доллара ... Большой блайнд равен нижнему лимиту стола»; «Игрок, имеющий
    самую младшую door card, должен начать торговлю, поставив как минимум половину
    нижнего лимита»; 000_… «Покер с досдачей»: «Размер предварительной ставки обычно
    равен минимальной ставке» (RULES.md §2: forced bets follow the stakes unless set)."""
    assert Game("holdem", {"betting": "fixed_limit", "small_bet": 10}).blinds == (5, 10)
    assert Game("holdem", {"betting": "fixed_limit", "small_bet": 5}).blinds == (3, 5)
    assert Game("holdem", {"small_bet": 10, "blinds": (1, 3)}).blinds == (1, 3)
    assert Game("stud7", {"small_bet": 10}).bring_in == 5
    assert Game("stud7").bring_in == 2
    assert Game("stud7", {"small_bet": 8}).ante == 2       # the ante follows too
    assert Game("draw5", {"small_bet": 10}).ante == 5
    assert Game("draw5", {"small_bet": 10, "ante": 1}).ante == 1


def test_a_player_may_fold_when_he_could_check():
    """000_… «Принципы, по которым делаются ставки»: «а) «Пасовать»: игрок сбрасывает свои
    карты ... Игрок может сделать это в любой момент»; 002_… «Варианты для большого
    блайнда»: «сбросить, воздержаться или повысить». Option ``free_fold``."""
    hand = manual("holdem", [100, 100])
    deal(hand, "AsKs", "QdJd")
    hand.apply(CHECK_CALL)                       # the button completes
    assert hand.legal_actions().kinds == ("f", "cc", "cbr")
    hand.apply(FOLD)                             # the big blind folds for free
    assert hand.result().stacks == [98, 102]


def test_lowball_antes_are_live_and_left_of_the_last_one_opens():
    """000_… «Лоуболл»: «1) предварительная ставка: ее вносят сдающий и игрок слева от
    него (иногда также второй игрок слева); 2) первый круг ставок: игрок слева от
    последнего игрока, внесшего Предварительную ставку, должен открыть круг или выйти из
    игры. Пропуск хода не разрешен. Максимальной ставкой является сумма предварительной
    ставки. Предварительные ставки засчитываются как ставки «остаюсь в игре»»."""
    hand = manual("lowball", [50, 50, 50, 50])
    deal(hand, "Jk2c3d4h9s", "Ac2d3h4sKs", "7c7d8h8sQs", "5c6c9cTcKd")
    legal = hand.legal_actions()
    assert hand.to_act == 1 and legal.call == 1 and (legal.min_to, legal.max_to) == (2, 2)
    with pytest.raises(IllegalAction):
        hand.apply(bet_to(3))                    # above the ante
    hand.apply(CHECK_CALL)                       # calls the live ante
    hand.apply(FOLD)
    hand.apply(CHECK_CALL)                       # the dealer: his ante is his bet
    legal = hand.legal_actions()                 # seat 0 too: check or raise
    assert hand.to_act == 0 and legal.call == 0 and "cbr" in legal.kinds
    two = manual("lowball", [50, 50, 50, 50], ante_by="dealer_and_two_left")
    assert two.pot_total() == 3
    deal(two, "Jk2c3d4h9s", "Ac2d3h4sKs", "7c7d8h8sQs", "5c6c9cTcKd")
    assert two.to_act == 2


def test_lowball_burns_a_card_before_the_draw():
    """000_… «Лоуболл»: «3) обмен: перед обменом сдающий «сжигает» (вскрывает и убирает в
    сброс) верхнюю карту колоды»."""
    hand = Game("lowball").new_hand(3, 3, [50] * 3, button=2)
    top = hand.stock[-1]
    while hand.phase_name != "draw":
        hand.apply(CHECK_CALL)
    assert hand.muck_pile == [top] or top in hand.muck_pile
    assert play_out(hand).stacks is not None
