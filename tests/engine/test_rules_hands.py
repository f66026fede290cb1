"""Audit of the hand rules (RULES.md §1) against the source document ``000_…``.

Every test quotes the sentence of ``/work/shared/seeds/000_053e85955f9a4108.txt`` it plays
(file and section in the docstring), then checks exact values or exact chips.
"""

from __future__ import annotations

import numpy as np
import pytest

from pokerarena.cards import parse_cards
from pokerarena.engine import CHECK_CALL, DEALER, FOLD, Action, Game, bet_to
from pokerarena.evaluator import (
    category,
    category_floor,
    describe,
    evaluate,
    evaluate_batch,
    ranking,
)


def manual(variant, stacks, **options):
    """A hand dealt by hand; seat i is position i (the button on the last seat)."""
    game = Game(variant, {"dealing": "manual", **options})
    return game.new_hand(0, len(stacks), stacks, button=len(stacks) - 1)


def deal(hand, *holes):
    for seat, cards in enumerate(holes):
        if cards:
            hand.apply(Action("dh", 0, tuple(parse_cards(cards)), seat), DEALER)


def v(cards, name="high", **kw):
    return evaluate(cards, ranking(name, **kw))


def words(cards, name="high", **kw):
    rk = ranking(name, **kw)
    return describe(evaluate(cards, rk), rk)


def strictly_descending(hands, name="high", **kw):
    rk = ranking(name, **kw)
    values = [evaluate(h, rk) for h in hands]
    batch = evaluate_batch(np.array([parse_cards(h) for h in hands], dtype=np.uint8), rk)
    assert batch.tolist() == values  # the batch kernels agree with the single-hand call
    return all(a > b for a, b in zip(values, values[1:], strict=False))


# ---------------------------------------------------------------- «Иерархия карт»
def test_ace_is_high_except_in_the_wheel():
    """000_… «Иерархия карт»: «Туз обычно старше всех за исключением последовательности
    5,4, 3, 2, туз»; «Расклады одного достоинства» 1): «в последовательности 5, 4, 3, 2, Т
    туз является младшей картой, так что ее бьет 6, 5, 4, 3, 2»."""
    assert words("AhKcQdJsTh") == "straight, ace high"
    assert words("5h4c3d2sAh") == "straight, five high"
    assert v("6h5c4d3s2h") > v("5h4c3d2sAh")
    assert v("AhKcQdJsTh") > v("KhQcJdTs9h")
    # the ace is low only in the wheel: no round-the-corner straight, ace high otherwise
    assert words("KhAc2d3s4h") == "ace high" and words("Ah2c3d4s6h") == "ace high"
    assert v("Ah7c5d3s2h") > v("KhQcJd9s8h")
    assert v("AhAc3d4s6h") > v("KhKcQdJs9h")
    assert words("5s4s3s2sAs") == "straight flush, five high"
    assert v("6s5s4s3s2s") > v("5s4s3s2sAs")


def test_no_suit_order():
    """000_… «Иерархия карт»: «Иерархия мастей отсутствует.»; «Ничья»: «разница мастей не
    имеет значения»."""
    for a, b in [("AhKcQd9s7h", "AsKdQc9h7c"), ("AhAcQd9s7h", "AsAdQc9h7c"),
                 ("AhKh9h7h2h", "AsKs9s7s2s"), ("9c8c7c6c5c", "9d8d7d6d5d"),
                 ("JhJcJd4s4h", "JsJhJc4d4c")]:
        assert v(a) == v(b)
    assert v("AsAhKdQc2c", "a5_low") == v("AcAdKsQh2d", "a5_low")


# ----------------------------------------------------------- «Покерные расклады»
def test_the_ten_hands_in_the_documents_order():
    """000_… «Покерные расклады»: «Каждый расклад проигрывает предыдущему и бьет
    следующий.» — 1) «покер» (флеш-ройял), 2) стрит-флеш, 3) каре, 4) фул-хаус, 5) флеш,
    6) стрит, 7) тройка, 8) две пары, 9) пара, 10) старшая карта."""
    hands = ["AsKsQsJsTs", "9h8h7h6h5h", "2c2d2h2s3c", "3c3d3h2s2c", "Ad9d7d4d2d",
             "6c5d4h3s2c", "2c2d2hAsKc", "3c3d2h2sAc", "2c2dAhKsQc", "AcKd9h7s5c"]
    assert strictly_descending(hands)
    rk = ranking()
    assert [category(evaluate(h, rk), rk) for h in hands] == [
        "straight_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
        "straight", "three_of_a_kind", "two_pair", "one_pair", "high_card"]
    assert words(hands[0]) == "royal flush"
    # Each hand loses to the previous one even when its cards are the highest possible.
    weakest_of_better = ["5h4h3h2hAh", "2c2d2h2s3c", "2c2d2h3s3c", "7d5d4d3d2d",
                         "5c4d3h2sAc", "2c2d2h4s3c", "3c3d2h2s4c", "2c2d5h4s3c"]
    best_of_worse = ["AsAcAdAhKc", "AsAcAdKhKc", "AsKsQsJs9s", "AsKcQdJhTc",
                     "AsAcAdKhQc", "AsAcKdKhQc", "AsAcKdQhJc", "AsKcQdJh9c"]
    for better, worse in zip(weakest_of_better, best_of_worse, strict=True):
        assert v(better) > v(worse), (better, worse)


def test_category_floor_is_below_every_hand_of_the_category_wild_or_not():
    """000_… «Покерные расклады»: «Каждый расклад проигрывает предыдущему и бьет
    следующий.» — ``category_floor`` (the bonus and wangdoodle thresholds) lies between the
    best hand of the category below and the worst of the category, wild cards included."""
    for wild in ("none", "deuces", "jokers"):
        rk = ranking(wild=wild)
        floor = category_floor("four_of_a_kind", rk)
        assert evaluate("AsAcAdAhQc", rk) >= floor > evaluate("AsAcAdKhKc", rk)
        flush = category_floor("flush", rk)
        assert evaluate("7d5d4d3d9c", rk) < flush
        royal = category_floor("straight_flush", rk, 12)
        assert evaluate("AsKsQsJsTs", rk) >= royal > evaluate("KsQsJsTs9s", rk)
    rk = ranking(wild="deuces")
    assert evaluate("3c3d3h2s4c", rk) >= category_floor("four_of_a_kind", rk)
    assert evaluate("Kd9d5d3d2c", rk) >= category_floor("flush", rk)     # a wild flush
    rk = ranking(wild="jokers")
    assert evaluate("Kd9d5d3dJk", rk) >= category_floor("flush", rk)
    assert evaluate("2c2d2hJk3c", rk) >= category_floor("four_of_a_kind", rk)
    short = ranking("short_deck")
    assert evaluate("AsAcAdKhKc", short) < category_floor("flush", short)  # flush > full


# ----------------------------------------------------- «Расклады одного достоинства»
@pytest.mark.parametrize(("better", "worse"), [
    ("KhQhJhTh9h", "QsJsTs9s8s"),   # 1) straight flush: by the top card
    ("AsKsQsJsTs", "KhQhJhTh9h"),   # 1) the royal flush is the highest
    ("4c4d4h4s2c", "3c3d3h3sAc"),   # 2) four of a kind: the four cards decide
    ("4c4d4h2s2c", "3c3d3hAsAc"),   # 3) full house: the three cards decide
    ("AdKd9d7d3d", "AhKh9h7h2h"),   # 4) flush: card by card down to the lowest
    ("AdQd9d7d3d", "AhJhTh9h8h"),
    ("Th9c8d7s6h", "9h8c7d6s5h"),   # 5) straight: as straight flush
    ("4c4d4hAsKc", "3c3d3hAsKc"),   # 6) three of a kind: as four of a kind
    ("AcAd2h2s3c", "KcKdQhQsAc"),   # 7) two pair: the higher pair
    ("AcAd4h4s2c", "AhAs3c3dKc"),   #    then the lower pair
    ("AcAd4h4s3c", "AhAs4c4d2c"),   #    then the fifth card
    ("AcAd4h3s2c", "KcKdQhJsTc"),   # 8) pair: the higher pair
    ("AcAdKh3s2c", "AhAsQcJdTc"),   #    then the highest odd cards, in turn
    ("AcAdKhQs3c", "AhAsKcQd2c"),   #    down to the lowest
    ("AcKd9h7s3c", "AhKs9d7c2h"),   # 9) high card: as flush
])
def test_same_category_decided_by_the_cards(better, worse):
    """000_… «Расклады одного достоинства»: «Когда покерные расклады относятся к одному
    типу, выигрышный расклад определяется по составляющим его картам.» 1) стрит-флеш
    «определяется старшей картой»; 2) каре «с самой крупной картой, составляющей
    комбинацию»; 3) фул-хаус «с самой крупной картой, составляющей тройку»; 4) флеш
    «Сравниваются следующие по старшинству карты и т. д. до самой младшей»; 5) стрит
    «аналогично стрит-флешу»; 6) тройка «аналогично каре»; 7) две пары «с более крупной
    парой ... сравниваются младшие пары ... с более крупной пятой картой»; 8) пара «с
    более крупной парой ... сравниваются самые крупные несочетающиеся карты ... до самой
    младшей карты»; 9) старшая карта «аналогично флешу»."""
    assert v(better) > v(worse)
    assert category(v(better), ranking()) == category(v(worse), ranking())


def test_more_cards_than_five_play_the_best_five():
    """000_… «Покерные расклады»: «все расклады должны (при вскрытии карт) содержать пять
    карт» — a sixth or seventh card never counts as a sixth kicker."""
    assert v("AcAdKhQs9c3d2h") == v("AhAsKcQd9h8d7c")
    assert v("AcAdKhQs9c") == v("AcAdKhQs9c3d2h")


# ---------------------------------------------------------------------- «Ничья»
def test_equal_hands_split_the_pot():
    """000_… «Ничья»: «Имеет место, когда расклады содержат карты одного достоинства;
    разница мастей не имеет значения. При равенстве раскладов у двух игроков банк делится
    пополам между ними.»"""
    hand = manual("two_card", [21, 21, 21, 21])
    deal(hand, "AsKs", "AdKc", "QhJh", "9c8d")
    hand.apply(bet_to(2))     # seat 0
    hand.apply(CHECK_CALL)    # seat 1
    hand.apply(FOLD)          # seat 2
    hand.apply(FOLD)          # seat 3
    res = hand.result()       # pot: 4 antes + 2 x 2 = 8, ace-king against ace-king
    assert [(p.amount, p.winners) for p in res.pots] == [(8, {0: 4, 1: 4})]
    assert res.stacks == [22, 22, 20, 20]


def test_odd_chip_goes_to_the_player_who_was_called():
    """000_… «Ничья»: «Если банк не делится точно пополам, остаток достается игроку,
    которого «поддержали» (то есть игроку, который первым сделал наивысшую ставку).»"""
    def play(**options):
        hand = manual("two_card", [21, 21, 21], **options)
        deal(hand, "AsKs", "AdKc", "QhJh")
        hand.apply(bet_to(2))     # seat 0 bets
        hand.apply(bet_to(4))     # seat 1 raises: the highest bet, made first by seat 1
        hand.apply(CHECK_CALL)    # seat 2 calls
        hand.apply(CHECK_CALL)    # seat 0 calls: seat 1 is the player who was called
        return hand.result()

    res = play()                  # pot 3 + 12 = 15: seats 0 and 1 tie with ace-king
    assert res.pots[0].winners == {1: 8, 0: 7}
    assert res.stacks == [23, 24, 16]
    # the option "by seat position": the odd chip to the first seat left of the button
    assert play(odd_chip="position").stacks == [24, 23, 16]


def test_odd_chip_goes_to_the_bettor_who_was_called_not_by_position():
    """000_… «Ничья»: «остаток достается игроку, которого «поддержали»» — the button bets
    and is called: he gets the odd chip although seat 1 sits before him."""
    hand = manual("two_card", [21, 21, 21])
    deal(hand, "QhJh", "AsKs", "AdKc")
    hand.apply(CHECK_CALL)        # seat 0 checks
    hand.apply(CHECK_CALL)        # seat 1 checks
    hand.apply(bet_to(2))         # seat 2 (the button) bets
    hand.apply(CHECK_CALL)        # seat 0 calls
    hand.apply(CHECK_CALL)        # seat 1 calls
    res = hand.result()           # pot 9: seats 1 and 2 tie; seat 2 was called
    assert res.pots[0].winners == {2: 5, 1: 4}
    assert res.stacks == [18, 22, 23]


# ------------------------------------------------------------- «Козырные карты»
@pytest.mark.parametrize(("wild", "hand", "made"), [
    ("jokers", "JkAsAhKdQc", "three of a kind, aces"),
    ("deuce_spades", "2sAsAhKdQc", "three of a kind, aces"),
    ("deuce_spades", "2cAsAhKdQc", "pair of aces"),   # only the spade deuce
    ("deuces", "2c2dAsAhKd", "four of a kind, aces"),
    ("deuces_treys", "2c3dAsAhKd", "four of a kind, aces"),
    ("red_tens", "ThTdAsAhKd", "four of a kind, aces"),
    ("red_tens", "TcTsAsAhKd", "two pair, aces and tens"),       # black tens are not wild
])
def test_the_common_wild_cards(wild, hand, made):
    """000_… «Козырные карты»: «самыми распространенными являются: — джокер (или два
    джокера); — двойка пик, если нет джокеров; — все двойки; — все двойки и тройки; —
    красные десятки.» «Козырь — это карта, которая может представлять собой любую
    карту.»"""
    assert words(hand, wild=wild) == made


def test_two_jokers_in_the_deck():
    """000_… «Козырные карты»: «— джокер (или два джокера)»."""
    assert words("JkJkAsAhKd", wild="jokers") == "four of a kind, aces"
    assert words("JkJkAsAhAd", wild="jokers") == "five of a kind, aces"


def test_wild_rule_a_only_a_card_the_player_lacks():
    """000_… «Козырные карты»: «а) использовать ее в качестве любой карты (любого
    достоинства и любой масти), которой у него нет»."""
    rk = ranking(wild="jokers", wild_rule="lacking", double_ace_flush=True)
    # four aces held: the joker cannot be a fifth ace; it is the best card left, a king
    assert describe(evaluate("AsAhAdAcJk", rk), rk) == "four of a kind, aces"
    assert evaluate("AsAhAdAcJk", rk) == evaluate("AsAhAdAcKs", rk) - 1  # one wild used
    # the ace of spades held: the joker is not a second one (no double-ace flush)
    assert describe(evaluate("AsKs9s5sJk", rk), rk) == "flush, ace high"
    assert evaluate("AsKs9s5sJk", rk) == evaluate("AsKsQs9s5s", rk) - 1
    # a card of a held rank in another suit is a card he lacks
    assert describe(evaluate("AsAhAdKcJk", rk), rk) == "four of a kind, aces"
    assert describe(evaluate("AsKsQsJsJk", rk), rk) == "royal flush"


def test_wild_rule_b_any_card_even_one_he_holds():
    """000_… «Козырные карты»: «б) использовать ее в качестве любой карты, даже если эта
    карта у него имеется.» «Расклады с козырями»: «Там, где козыри могут представлять любую
    карту (даже уже имеющуюся у игрока), возможно возникновение двух новых раскладов»."""
    rk = ranking(wild="jokers", wild_rule="any", double_ace_flush=True)
    assert describe(evaluate("AsAhAdAcJk", rk), rk) == "five of a kind, aces"
    assert describe(evaluate("AsKs9s5sJk", rk), rk) == "double-ace flush"


def test_five_of_a_kind_tops_everything():
    """000_… «Расклады с козырями»: «1) пятерка: пять карт одного достоинства. Этот расклад
    считается наивысшим, бьющим стрит-флеш»."""
    rk = ranking(wild="deuces")
    five_threes = evaluate("2c2d3h3s3c", rk)
    assert describe(five_threes, rk) == "five of a kind, threes"
    assert five_threes > evaluate("AsKsQsJsTs", rk)       # a natural royal flush
    assert evaluate("2c4d4h4s4c", rk) > five_threes         # then by rank


def test_double_ace_flush_between_flush_and_full_house():
    """000_… «Расклады с козырями»: «2) флеш с двумя тузами: флеш, включающий двух тузов.
    Он выше обычного флеша и ниже фул-хауса.»"""
    rk = ranking(wild="jokers", double_ace_flush=True)
    double = evaluate("AsKs9s5sJk", rk)
    assert category(double, rk) == "double_ace_flush"
    assert evaluate("AhKhQhJh9h", rk) < double < evaluate("2c2d2h3s3c", rk)
    # two double-ace flushes: by their other cards
    assert evaluate("AsKs9s6sJk", rk) > double > evaluate("AsQsJs9sJk", rk)
    assert category(evaluate("AsQsJs9sJk", rk), rk) == "double_ace_flush"
    assert describe(evaluate("AsQsJsTsJk", rk), rk) == "royal flush"   # not a flush


def test_each_wild_hand_is_enabled_separately():
    """000_… «Расклады с козырями»: «Иногда козырь можно использовать для составления
    пятерки, но не большого флеша с двумя тузами. Решение следует принять до начала
    игры.»"""
    default = ranking(wild="jokers")               # five of a kind on, double-ace off
    assert category(evaluate("AsAhAdAcJk", default), default) == "five_of_a_kind"
    assert describe(evaluate("AsKs9s5sJk", default), default) == "flush, ace high"
    no_five = ranking(wild="jokers", five_of_a_kind=False, double_ace_flush=True)
    assert describe(evaluate("AsAhAdAcJk", no_five), no_five) == "four of a kind, aces"
    assert category(evaluate("AsKs9s5sJk", no_five), no_five) == "double_ace_flush"
    assert "five_of_a_kind" not in [category(evaluate(h, no_five), no_five)
                                    for h in ("2c2d2h2sJk", "AsAhAdAcJk")]


def test_wild_cards_take_the_rank_and_other_cards_decide():
    """000_… «Расклады с козырями»: «Козырные карты принимают в точности тот же номинал,
    что и карты, которые они дополняют, поэтому при сравнении одинаковых раскладов
    возможно равенство между каре, фул-хаусом и тройками одинакового достоинства. С каре и
    тройками победителя по возможности определяют другие карты раскладов.»"""
    rk = ranking(wild="jokers")
    assert evaluate("AsAhJkKcQd", rk) > evaluate("AsAhAdKcJd", rk)   # the queen decides
    assert evaluate("AsAhAdJkQd", rk) > evaluate("AsAhAdAcJd", rk)   # quads: the kicker
    # full houses of the same ranks: equal but for the wild card
    assert evaluate("KsKhKdQcQd", rk) - evaluate("KsKhJkQcQd", rk) == 1


def test_equal_wild_hands_fewer_wild_cards_win_or_tie():
    """000_… «Расклады с козырями»: «Если расклады с козырями одинаковы, побеждает расклад
    с меньшим количеством козырей или их отсутствием. Если количество козырей одинаково,
    значит получается ничья.»"""
    rk = ranking(wild="deuces")
    natural, one, two = (evaluate(h, rk) for h in ("AsAdAh7c4d", "AsAd2h7c4d", "As2c2d7h4s"))
    assert natural > one > two
    assert {describe(x, rk) for x in (natural, one, two)} == {"three of a kind, aces"}
    assert evaluate("AcAh2s7d4c", rk) == one                     # as many wilds: a tie
    tie = ranking(wild="deuces", fewer_wilds_win=False)          # the option: always a tie
    assert len({evaluate(h, tie) for h in ("AsAdAh7c4d", "AsAd2h7c4d", "As2c2d7h4s")}) == 1


def test_fewer_wild_cards_win_the_pot_at_the_showdown():
    """000_… «Расклады с козырями»: «Если расклады с козырями одинаковы, побеждает расклад
    с меньшим количеством козырей или их отсутствием»; «Трехкарточный покер»:
    «Двухкарточный покер» (обычно играемый с козырями)."""
    hand = manual("two_card", [21, 21, 21], wild="deuces")
    deal(hand, "As2d", "AhAc", "KsKd")
    hand.apply(bet_to(2))
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    res = hand.result()           # pairs of aces: the natural pair takes the pot of 9
    assert res.pots[0].winners == {1: 9} and res.stacks == [18, 27, 18]
    tie = manual("two_card", [21, 21, 21], wild="deuces", fewer_wilds_win=False)
    deal(tie, "As2d", "AhAc", "KsKd")
    tie.apply(bet_to(2))
    tie.apply(CHECK_CALL)
    tie.apply(CHECK_CALL)
    res = tie.result()
    assert res.pots[0].winners == {0: 5, 1: 4} and res.stacks == [23, 22, 18]  # 0 called


# ------------------------------------------------------------- low hands
def test_joker_in_ace_to_five_lowball_is_the_card_he_lacks():
    """000_… «Лоуболл» 5): «Джокер может выступать в роли любой карты, отсутствующей у
    игрока.»"""
    assert words("5h4c3d2sJk", "a5_low", wild="jokers") == "5-4-3-2-A low"
    assert words("Ah4c3d2sJk", "a5_low", wild="jokers") == "5-4-3-2-A low"
    assert words("6h4c3d2sJk", "a5_low", wild="jokers") == "6-4-3-2-A low"
    assert words("KhQcJdTsJk", "a5_low", wild="jokers") == "K-Q-J-T-A low"
    assert words("AhAc3d2sJk", "a5_low", wild="jokers") == "one pair, A-A-4-3-2 low"
    # the natural wheel beats the joker's wheel (fewer wild cards)
    assert v("5h4c3d2sAh", "a5_low", wild="jokers") > v("5h4c3d2sJk", "a5_low", wild="jokers")


def test_joker_in_a_high_low_low_is_an_unpaired_low_ace():
    """000_… «Больше-меньше», «Козыри»: «При заявлении низшего расклада джокер котируется
    наравне с младшим тузом, не будучи парным к нему в раскладе. Таким образом, 4, 3,2, Т,
    козырь становится низшим возможным раскладом.»"""
    rk = ranking("hilo_low", wild="jokers")
    best = evaluate("4h3c2dAsJk", rk)
    assert describe(best, rk) == "4-3-2-A-A low"          # no pair of aces, no straight
    others = ["5h3c2dAsJk", "6h4c3d2sAh", "6h4c3d2sJk", "7h5c4d3s2h", "5h4c3d2sAh",
              "4h3c2dJkJk"]
    assert all(best > evaluate(h, rk) for h in others)
    assert describe(evaluate("6h4c3d2sJk", rk), rk) == "6-4-3-2-A low"


def test_high_low_low_counts_straights_and_flushes():
    """000_… «Больше-меньше», «Иерархия раскладов»: «Обычная. Соответственно, низшим
    возможным раскладом, без козырей, является 6, 4, 3, 2 разных мастей (5, 4,3,2 было бы
    стритом). Применяются обычные правила сравнивания раскладов — сначала самая крупная
    карта, потом следующая по старшинству и т. д. Таким образом, 9, 7, 6,5, 4 котируется
    ниже, чем 9, 8, 4,3,2.»"""
    lows = ["6h4c3d2sAh", "7h5c4d3s2h", "9h7c6d5s4h", "9h8c4d3s2h", "KhQcJdTsAh",
            "AsAh4c3d2s", "2c2d2h4s3s", "5h4c3d2sAh", "6h5c4d3s2h", "6h4h3h2hAh",
            "2c2d2h3s3c", "2c2d2h2s3c", "5h4h3h2hAh"]
    assert strictly_descending(lows, "hilo_low")      # best low first
    assert words("5h4c3d2sAh", "hilo_low") == "straight, 5 low"
    assert words("6h4h3h2hAh", "hilo_low") == "flush, 6-4-3-2-A low"


def test_high_low_ace_is_low_for_the_low_hand():
    """000_… «Больше-меньше», «Иерархия карт»: «Если игрок идет на низший расклад, туз
    считается младше всех»."""
    assert v("7h5c4d3sAh", "hilo_low") > v("7h5c4d3s2h", "hilo_low")
    assert v("AhAc7d5s4h", "hilo_low") > v("2h2c7d5s4h", "hilo_low")
    # A-K-Q-J-T is no straight for the low (the ace is the lowest card): king-high
    assert words("AhKcQdJsTh", "hilo_low") == "K-Q-J-T-A low"


def test_ace_to_five_lowball_ignores_straights_and_flushes():
    """000_… «Лоуболл» 5): «при вскрытии карт выигрывает самый младший расклад. Тузы всегда
    считаются самыми младшими картами, а стриты и флеши не учитываются. Соответственно, 1,
    2, 3, 4, 5 (известный как «вело-сипед») считается пятью самыми младшими картами и
    является наинизшим раскладом — независимо от масти.»"""
    lows = ["5h4c3d2sAh", "6h4c3d2sAh", "6h5c4d3s2h", "7h4c3d2sAh", "KhQcJdTs9h",
            "AsAh4c3d2s", "2s2h4c3d5s"]
    assert strictly_descending(lows, "a5_low")
    assert v("5h4h3h2hAh", "a5_low") == v("5h4c3d2sAh", "a5_low")   # suits do not count
    assert v("6h5h4h3h2h", "a5_low") == v("6h5c4d3s2h", "a5_low")   # nor straights
    assert words("5h4h3h2hAh", "a5_low") == "5-4-3-2-A low"


# ------------------------------------------------------------ three- and two-card
def test_three_card_poker_order():
    """000_… «Трехкарточный покер»: «Иерархия раскладов (в нисходящем порядке) такова:
    тройки, трехкарточный стрит-флеш, трехкарточный флеш, трехкарточный стрит, пара,
    старшая карта.»"""
    hands = ["2c2d2h", "AsKsQs", "3s2sAs", "AsKs9s", "AsKdQc", "3s2dAc", "AsAdKc", "AsKd9c"]
    assert strictly_descending(hands, "three_card")
    rk = ranking("three_card")
    assert [category(evaluate(h, rk), rk) for h in hands] == [
        "three_of_a_kind", "straight_flush", "straight_flush", "flush", "straight",
        "straight", "one_pair", "high_card"]
    assert v("2c2d2hAs", "three_card") == v("2c2d2h", "three_card")  # three cards play
    # the casino order is the option three_card_casino
    casino = ["AsKsQs", "2c2d2h", "AsKdQc", "AsKs9s", "AsAdKc", "AsKd9c"]
    assert strictly_descending(casino, "three_card_casino")


def test_two_card_poker_pairs_and_high_cards_only():
    """000_… «Трехкарточный покер»: «Двухкарточный покер» (обычно играемый с козырями)
    ... «Единственными раскладами являются пары и старшие карты.»"""
    rk = ranking("two_card")
    assert {category(evaluate(h, rk), rk) for h in ("AsKs", "AsKd", "KsQs")} == {"high_card"}
    assert evaluate("AsKs", rk) == evaluate("AdKc", rk)       # suited counts for nothing
    assert strictly_descending(["AsAd", "2c2d", "AsKd", "AsQd", "KsQs", "3c2c"], "two_card")
    deuces = ranking("two_card", wild="deuces")
    assert describe(evaluate("2c2d", deuces), deuces) == "pair of aces"
    assert describe(evaluate("Ks2c", deuces), deuces) == "pair of kings"


# ------------------------------------------------------------- stripped decks
def test_short_deck_flush_beats_full_house_and_a6789_is_the_lowest_straight():
    """000_… «Иерархия карт»: «Иногда для ускорения игры младшие карты (2. 3 и даже 4 и 5)
    изымаются из колоды.» RULES.md §1: short deck, flush beats full house (default), trips
    vs straight order is an option; A-6-7-8-9 is the lowest straight."""
    hands = ["AsKsQsJsTs", "Ts9s8s7s6s", "9s8s7s6sAs", "KhKcKdKsQh", "AsKs9s7s6s",
             "KhKcKdQsQh", "AsKcQdJsTh", "Ts9c8d7s6h", "As6c7d8s9h", "TsTcTd9s6c"]
    assert strictly_descending(hands, "short_deck")
    assert words("As6c7d8s9h", "short_deck") == "straight, nine high"
    assert words("9s8s7s6sAs", "short_deck") == "straight flush, nine high"
    trips_first = ranking("short_deck", trips_beat_straight=True)
    assert evaluate("TsTcTd9s6c", trips_first) > evaluate("AsKcQdJsTh", trips_first)


# -------------------------------------------------------------- local hands
def test_blaze_only_when_agreed():
    """000_… «Покерные расклады»: «Иногда имеют место локальные комбинации (например, блейз
    — пять любых карт-картинок). Их включение в игру и место в„иерар-хии должны быть
    согласованы до начала игры.» (placed above two pair, below three of a kind)."""
    assert words("JsJcQdQsKh") == "two pair, queens and jacks"
    rk = ranking(blaze=True)
    blaze = evaluate("JsJcQdQsKh", rk)
    assert describe(blaze, rk) == "blaze"
    assert evaluate("AsAcKdKsQh", rk) < blaze < evaluate("2s2c2dQsKh", rk)
    assert evaluate("JsQcQdKsKh", rk) > blaze            # blazes compare by their ranks
    assert describe(evaluate("JsJcQdQsQh", rk), rk) == "full house, queens full of jacks"
    assert describe(evaluate("JsJcQdQsAh", rk), rk) == "two pair, queens and jacks"


def test_four_flush_above_a_pair_below_two_pair():
    """000_… «Покер-гвоздь», «Дополнительные правила» 4): «полноправным раскладом иногда
    считается «четверной флеш», то есть четыре карты одной масти плюс любая другая карта.
    При вскрытии (а также при определении начала круга ставок) он старше пары, но слабее
    двух пар.»"""
    assert words("AsKs9s2s3h") == "ace high"
    rk = ranking(four_flush=True)
    four = evaluate("AsKs9s2s3h", rk)
    assert describe(four, rk) == "four flush, ace high"
    assert evaluate("AsAdKcQs2h", rk) < four < evaluate("2s2d3c3s4h", rk)
    assert evaluate("7s5s4s2s3h", rk) > evaluate("AsAdKcQs2h", rk)

