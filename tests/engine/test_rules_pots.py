"""Audit of the pot rules (RULES.md §2: table stakes, side pots, odd chips, rake, kitty,
bonus) against the source documents ``000_…``, ``002_…`` and ``003_…``.

Every test quotes the sentence it plays (file and section in the docstring), plays it
with fixed cards and checks the pots and the final stacks to the chip.
"""

from __future__ import annotations

from handplay import deal, manual

from pokerarena.engine import CHECK_CALL, FOLD, Game, bet_to
from pokerarena.engine.table import Table


def check_down(hand):
    while not hand.is_over and hand.phase_name == "bet":
        hand.apply(CHECK_CALL)


def pots(res):
    return [(p.amount, sorted(p.eligible), p.winners) for p in res.pots]


# A, B and C of the document are seats 0, 1 and 2 (C has the button; A acts first).
A, B, C = 0, 1, 2


# ------------------------------------------------------ «Примеры настольных ставок»
def table_stakes_example(holes):
    """The document's example in no-limit two-card poker: after the 1-chip antes A has
    100, B only 30 and C 50 chips on the table."""
    hand = manual("two_card", [101, 31, 51], betting="no_limit")
    deal(hand, *holes)
    assert hand.stacks() == [100, 30, 50]
    hand.apply(bet_to(40))                              # а) A bets 40
    legal = hand.legal_actions()
    assert (legal.kinds, legal.call) == (("f", "cc"), 30)  # B cannot put in more than 30
    hand.apply(CHECK_CALL)                              # б) B puts in his 30
    assert hand.stacks()[B] == 0 and not hand.is_over
    hand.apply(bet_to(50))                              # в) C puts in 50
    assert hand.legal_actions().call == 10
    hand.apply(CHECK_CALL)                              # A evens up the side pot
    return hand.result()


def test_table_stakes_example_main_and_side_pot():
    """000_… «Примеры настольных ставок»: «у игрока Б осталось только 30 фишек на столе.
    а) игрок А ставит 40 фишек: 30 идут в основной банк; 10 открывают дополнительный банк;
    б) игрок Б ставит свои 30 фишек, если хочет остаться в основном банке; в) игрок В
    ставит 50 фишек: 30 идут в основной банк, остальные — в дополнительный.» «Игрок Б
    больше ставок не делает, и в основной банк больше ничего не вносится.»"""
    res = table_stakes_example(["KsKd", "AsAd", "QsQd"])
    # main: 3 antes + 30 from each; side: A's 10 + 10 and C's 20
    assert pots(res) == [(93, [A, B, C], {B: 93}), (40, [A, C], {A: 40})]
    assert res.stacks == [90, 93, 0]
    assert res.deltas == [-11, 62, -51]


def test_table_stakes_example_b_can_win_only_the_main_pot():
    """000_… «Примеры настольных ставок»: «Побочный банк могут взять только игроки А или
    В.» — B's best hand takes the main pot, the better of A and C the side pot."""
    res = table_stakes_example(["QsQd", "AsAd", "KsKd"])
    assert pots(res) == [(93, [A, B, C], {B: 93}), (40, [A, C], {C: 40})]
    assert res.stacks == [50, 93, 40]
    res = table_stakes_example(["AsAd", "KsKd", "QsQd"])   # A best: both pots
    assert pots(res) == [(93, [A, B, C], {A: 93}), (40, [A, C], {A: 40})]
    assert res.stacks == [183, 0, 0]


def test_table_stakes_example_a_and_c_bet_on_until_the_side_pot_is_even():
    """000_… «Примеры настольных ставок»: «Игроки А и Б затем продолжают делать
    ставки до тех пор, пока их ставки в дополнительном банке не уравняются. Игрок Б
    больше ставок не делает, и в основной банк больше ничего не вносится.» ("А и Б" is a
    misprint for А и В: Б has nothing left to bet) — spread limit (any raise up to 50), C
    with chips behind his 50."""
    hand = manual("two_card", [101, 31, 101], betting="spread_limit", max_bet=50)
    deal(hand, "KsKd", "AsAd", "QsQd")
    hand.apply(bet_to(40))                  # A
    hand.apply(CHECK_CALL)                  # B: all in for 30
    hand.apply(bet_to(50))                  # C: 30 to the main pot, 20 to the side pot
    hand.apply(bet_to(60))                  # A raises on, in the side pot only
    assert hand.to_act == C and hand.legal_actions().call == 10
    hand.apply(CHECK_CALL)                  # C evens up
    res = hand.result()
    assert pots(res) == [(93, [A, B, C], {B: 93}), (60, [A, C], {A: 60})]
    assert res.stacks == [100, 93, 40]


def test_table_stakes_later_bets_go_only_to_the_side_pot():
    """000_… «Настольные ставки»: «Максимальным пределом ставок игрока является его
    настольная сумма на данный момент ... Если в процессе игры игрок израсходовал свою
    настольную сумму, он вправе оставаться в игре до вскрытия карт по основному банку. Все
    ставки других игроков сверх поставленной им суммы вносятся в дополнительный банк.»"""
    hand = manual("stud5", [201, 31, 201], betting="no_limit")
    deal(hand, "2cAs", "KsKd", "3cQs")          # A's ace showing opens
    assert hand.to_act == A and hand.legal_actions().max_to == 200
    hand.apply(bet_to(40))
    hand.apply(CHECK_CALL)                      # B: all in for 30
    hand.apply(CHECK_CALL)                      # C calls 40
    deal(hand, "Ah", "Kh", "4c")
    assert hand.to_act == A                     # B, all in, is never asked again
    hand.apply(bet_to(20))
    hand.apply(bet_to(60))                      # C
    hand.apply(CHECK_CALL)                      # A
    for cards in (("7h", "8d", "9c"), ("7d", "8s", "Tc")):
        deal(hand, *cards)
        check_down(hand)
    res = hand.result()                         # B: kings full; A: aces up; C: queen high
    assert pots(res) == [(93, [A, B, C], {B: 93}), (140, [A, C], {A: 140})]
    assert res.stacks == [240, 93, 100]


def test_several_all_ins_make_one_side_pot_each():
    """002_… «Ставки стола, Ва-банк»: «игрок при разделе банка будет иметь право только на
    долю банка, бывшего на столе к моменту его последней ставки. Все остальные заявления
    всех остальных игроков относятся к «дополнительному банку» (side pot), к которому
    игрок, пошедший ва- банк, не имеет отношения.»"""
    hand = manual("two_card", [11, 21, 41, 101], betting="no_limit")
    deal(hand, "AsAd", "KsKd", "QsQd", "JsJd")
    hand.apply(bet_to(10))    # all in
    hand.apply(bet_to(20))    # all in
    hand.apply(bet_to(40))    # all in
    assert hand.legal_actions().kinds == ("f", "cc")   # nobody left to raise against
    hand.apply(CHECK_CALL)    # seat 3 calls 40 and keeps 60
    res = hand.result()
    assert pots(res) == [(44, [0, 1, 2, 3], {0: 44}), (30, [1, 2, 3], {1: 30}),
                         (40, [2, 3], {2: 40})]
    assert res.stacks == [44, 30, 40, 60]
    # the worst hand is the only one that can win them all back
    hand = manual("two_card", [11, 21, 41, 101], betting="no_limit")
    deal(hand, "JsJd", "QsQd", "KsKd", "AsAd")
    for to in (10, 20, 40):
        hand.apply(bet_to(to))
    hand.apply(CHECK_CALL)
    assert hand.result().stacks == [0, 0, 0, 174]


def test_an_uncalled_excess_goes_back_to_the_bettor():
    """003_… «Нарушение правил»: «Исключение составляет случай, когда ставка игрока
    превышает количество фишек, которое имеет на руках противник. В этом случае игрок
    имеет право вернуть излишек, поставив его в дополнительный банк. Если остальные игроки
    не могут ответить на его ставку, излишек остается у игрока.»"""
    hand = manual("two_card", [101, 31], betting="no_limit")
    deal(hand, "KsKd", "AsAd")
    hand.apply(bet_to(80))    # seat 0 bets 80, seat 1 has 30
    hand.apply(CHECK_CALL)    # all in for 30: 50 cannot be called
    res = hand.result()
    assert pots(res) == [(62, [0, 1], {1: 62})]
    assert res.stacks == [70, 62]
    # with a third player who can answer, the excess is the side pot
    hand = manual("two_card", [101, 31, 101], betting="no_limit")
    deal(hand, "KsKd", "AsAd", "QsQd")
    hand.apply(bet_to(80))
    hand.apply(CHECK_CALL)    # seat 1 all in for 30
    hand.apply(CHECK_CALL)    # seat 2 calls 80
    res = hand.result()
    assert pots(res) == [(93, [0, 1, 2], {1: 93}), (100, [0, 2], {0: 100})]
    assert res.stacks == [120, 93, 20]


def test_a_bet_nobody_calls_wins_the_pot_back():
    """002_… «Общие правила»: «Если игрок ставит или повышает, и никто из действующих
    игроков не может/не хочет ответить или повысить (иначе говоря, все сбрасывают карты),
    предъявление не происходит. В этом случае поставивший или повысивший игрок выигрывает
    банк целиком.»"""
    hand = manual("two_card", [21, 21, 21], betting="no_limit")
    deal(hand, "3c2d", "AsAd", "KsKd")
    hand.apply(bet_to(20))    # all in with the worst hand
    hand.apply(FOLD)
    hand.apply(FOLD)
    res = hand.result()
    assert not res.went_to_showdown and res.stacks == [23, 20, 20]


# ------------------------------------------------------------------ «Больше-меньше»
def test_high_low_odd_chip_goes_to_the_high_hand():
    """000_… «Больше-меньше», «Заявка»: «Высший и низший расклады делят банк поровну (если
    деление точно пополам невозможно, все нечетные фишки получает высший расклад).» — even
    when the low hand is the player who was called («Ничья»)."""
    hand = manual("stud5", [21, 21, 21], hilo="cards_speak")
    deal(hand, "2cAs", "KsKd", "3cQs")
    assert hand.to_act == 0
    hand.apply(bet_to(2))     # seat 0 bets: the player who will be called
    hand.apply(CHECK_CALL)
    hand.apply(FOLD)
    for cards in (("3d", "9c"), ("4h", "8d"), ("6s", "7h")):
        deal(hand, *cards)
        check_down(hand)
    res = hand.result()       # pot 7; seat 0: 6-4-3-2-A low; seat 1: kings high
    assert pots(res) == [(7, [0, 1], {1: 4, 0: 3})]
    assert res.stacks == [21, 22, 20]


# ------------------------------------------------------------------------ fees
def test_rake_is_a_percentage_of_the_pot():
    """000_… section «Покер» в клубах и казино: «Он взимает сбор — обычно непосредственный
    процент с каждого выигранного банка, но иногда это может быть почасовой тариф за стол и
    служащих.» (rounded down, with a cap)."""
    def play(**options):
        hand = manual("two_card", [51, 51, 51], betting="no_limit", **options)
        deal(hand, "AsAd", "KsKd", "QsQd")
        hand.apply(bet_to(14))
        hand.apply(CHECK_CALL)
        hand.apply(CHECK_CALL)
        return hand.result()  # pot 3 + 42 = 45

    res = play(rake_percent=10)
    assert res.rake == 4 and pots(res) == [(41, [0, 1, 2], {0: 41})]
    assert res.stacks == [77, 36, 36] and sum(res.stacks) + res.rake == 153
    assert play(rake_percent=10, rake_cap=3).stacks == [78, 36, 36]
    assert play().rake == 0 and play().stacks == [81, 36, 36]


def test_kitty_takes_one_unit_from_pots_with_more_than_one_raise():
    """000_… «Подготовка к игре», «Банк»: «Обычно в него перечисляется одна ставочная
    единица из всех банков, в которых было более одного поднятия ставки» (the opening bet
    is not a raise)."""
    def play(raises):
        hand = manual("two_card", [21, 21, 21], kitty_unit=1)
        deal(hand, "AsAd", "KsKd", "QsQd")
        hand.apply(bet_to(2))                       # the opening bet
        hand.apply(bet_to(4))                       # raise 1
        hand.apply(bet_to(6) if raises == 2 else CHECK_CALL)
        check_down(hand)
        return hand.result()

    one = play(1)                                   # pot 3 + 12
    assert one.kitty == 0 and pots(one) == [(15, [0, 1, 2], {0: 15})]
    two = play(2)                                   # pot 3 + 18, one unit to the kitty
    assert two.kitty == 1 and pots(two) == [(20, [0, 1, 2], {0: 20})]
    assert two.stacks == [34, 14, 14] and sum(two.stacks) + two.kitty == 63


def test_kitty_is_shared_among_those_still_playing_at_the_end():
    """000_… «Банк»: «Все фишки «банка» по окончании игры поровну делятся между всеми
    оставшимися в игре (игрок, вышедший из игры до ее окончания, утрачивает право на
    какую-либо часть «банка»).»"""
    game = Game("two_card", {"dealing": "manual", "kitty_unit": 2})
    table = Table(game, [21, 21, 5], mode="freeze_out", button=2)
    hand = table.new_hand()
    deal(hand, "AsAd", "KsKd", "QsQd")
    hand.apply(bet_to(2))
    hand.apply(bet_to(4))     # raise 1
    hand.apply(CHECK_CALL)    # seat 2: all in for 4
    hand.apply(bet_to(6))     # raise 2
    hand.apply(CHECK_CALL)
    res = hand.result()       # main 3 + 12 less the kitty's 2; side 4
    assert res.kitty == 2 and pots(res) == [(13, [0, 1, 2], {0: 13}), (4, [0, 1], {0: 4})]
    table.finish(hand)
    assert table.stacks == [31, 14, 0] and table.kitty == 2 and table.chips_conserved()
    assert table.playing() == [0, 1]          # seat 2 is out of the game
    assert table.close() == [1, 1, 0]
    assert table.stacks == [32, 15, 0] and table.kitty == 0 and table.chips_conserved()


def _bonus_hand(holes, board, **options):
    hand = manual("holdem", [100, 100, 100], betting="fixed_limit",
                  bonus="four_of_a_kind", **options)
    deal(hand, *holes)
    hand.apply(FOLD)          # the button folds: he pays the bonus all the same
    hand.apply(CHECK_CALL)    # small blind completes
    hand.apply(CHECK_CALL)    # big blind checks
    for cards in (board[:6], board[6:8], board[8:]):
        deal(hand, board=cards)
        check_down(hand)
    return hand.result()


def test_bonus_is_paid_by_every_player_active_or_not():
    """000_… «Бонусы, или премиальные»: «игрок, у которого при вскрытии карт на ру-ках
    оказался «покер», стрит-флеш или каре, получит выплаты от каждого игрока, как
    активного, так и не участвующего в игре. Обычно договариваются о сумме, в три — пять
    раз превышающей максимальную ставку.» (fixed limit: the big bet, 4; 3 x 4 = 12)"""
    res = _bonus_hand(["AsAd", "KsKd", "QsQd"], "AhAc2c7d8h")
    assert pots(res) == [(4, [0, 1], {0: 4})]
    assert res.bonuses == {0: 24}
    assert res.stacks == [126, 86, 88] and sum(res.stacks) == 300
    # a bonus hand that loses the pot is paid all the same; a straight flush over quads
    res = _bonus_hand(["AsAd", "9h8h", "QsQd"], "AhAcThJh7h")
    assert pots(res) == [(4, [0, 1], {1: 4})]
    assert res.bonuses == {0: 24, 1: 24}
    assert res.stacks == [110, 114, 76]


def test_bonus_hand_made_with_wild_cards():
    """000_… «Бонусы»: «получит выплаты ... каре» — also four of a kind made with a wild
    card («Козырные карты»: «Козырь — это карта, которая может представлять собой любую
    карту»)."""
    res = _bonus_hand(["As2d", "KsKd", "QsQd"], "AhAc7c8d9h", wild="deuces")
    assert res.bonuses == {0: 24} and res.stacks == [126, 86, 88]


def test_bonus_is_a_multiple_of_the_maximum_bet():
    """000_… «Бонусы»: «Обычно договариваются о сумме, в три — пять раз превышающей
    максимальную ставку.» — spread limit 2 to 10: the maximum bet is 10, 3 x 10 = 30."""
    hand = manual("holdem", [100, 100, 100], betting="spread_limit", max_bet=10,
                  bonus="four_of_a_kind")
    deal(hand, "AsAd", "KsKd", "QsQd")
    hand.apply(FOLD)
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    for cards in ("AhAc2c", "7d", "8h"):
        deal(hand, board=cards)
        check_down(hand)
    res = hand.result()
    assert res.bonuses == {0: 60} and res.stacks == [162, 68, 70]


def test_wangdoodle_counts_a_flush_made_with_a_wild_card():
    """000_… «Вангдудл, или «большой болван»»: «После появления любого очень хорошего
    расклада (например, флеша и выше) обычные или начальные пределы удваиваются на
    следующую игру.» — with deuces wild a flush made with a deuce is a flush (the bonus
    and wangdoodle thresholds are the lowest value of the category, wild cards or not)."""
    def doubled(holes, board):
        game = Game("holdem", {"dealing": "manual", "betting": "fixed_limit",
                               "wild": "deuces"})
        table = Table(game, [100, 100, 100], button=2, wangdoodle=True)
        hand = table.new_hand()
        deal(hand, *holes)
        hand.apply(FOLD)
        hand.apply(CHECK_CALL)
        hand.apply(CHECK_CALL)
        for cards in (board[:6], board[6:8], board[8:]):
            deal(hand, board=cards)
            check_down(hand)
        table.finish(hand)
        return table.doubled_next

    assert doubled(["Kh2c", "QsQd", "JsJd"], "Ah9h5h7c8d")       # A-K-x-9-5 hearts
    assert doubled(["KhTh", "QsQd", "JsJd"], "Ah9h5h7c8d")       # a natural flush
    assert not doubled(["Kc2c", "QsQd", "JsJd"], "Ah9h5h7c8d")   # a straight is not
