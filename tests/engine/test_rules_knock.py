"""Audit of knock poker (RULES.md §3 ``knock``) against ``003_…`` «Нок-покер».

Every test quotes the sentence of ``/work/shared/seeds/003_4c53aaf27c27f91b.txt`` it plays,
deals fixed cards (the stock cards too) and checks every chip of every payment.
"""

from __future__ import annotations

import pytest

from pokerarena.cards import parse_cards
from pokerarena.engine import DEALER, Action, Game, IllegalAction


def knock_hand(*holes, stacks=20, **options):
    """Knock poker dealt by hand: seat i is position i, the dealer on the last seat, so
    seat 0 (the dealer's left) plays first."""
    n = len(holes)
    game = Game("knock", {"dealing": "manual", **options})
    hand = game.new_hand(0, n, [stacks] * n, button=n - 1)
    for seat, cards in enumerate(holes):
        hand.apply(Action("dh", 0, tuple(parse_cards(cards)), seat), DEALER)
    return hand


def play(hand, *steps):
    """Steps of the player to act: ``"cc Ad"`` takes the top of the stock (the dealer
    turns it out to be Ad), ``"dt"`` the top discard, ``"kn"`` knocks, ``"on"`` goes on
    without knocking, ``"sd 2c"`` discards, ``"f"`` drops out."""
    for step in steps:
        kind, *card = step.split()
        if kind == "cc" and card:
            seat = hand.to_act
            hand.apply(Action("cc"))
            hand.apply(Action("dh", 0, tuple(parse_cards(card[0])), seat), DEALER)
        elif kind == "on":
            hand.apply(Action("cc"))
        elif kind == "sd":
            hand.apply(Action("sd", 0, tuple(parse_cards(card[0]))))
        else:
            hand.apply(Action(kind))


def paid(hand):
    return sorted(hand.payments)


def test_ante_deal_and_the_draw_from_stock_or_discard():
    """003_… «Нок-покер»: «Каждый игрок ставит одну фишку. Как и в покере с прикупом,
    сдающий раздает игрокам по пять карт. ... Игрок, сидящий слева от сдающего, берет
    верхнюю карту и взамен сбрасывает свою. В свою очередь каждый игрок может взять
    верхнюю карту колоды иди последнюю из ранее сброшенных карт.»"""
    hand = knock_hand("AsAhKdQc2c", "3s4h6d8c9c", "5s7hJdTc2d")
    assert hand.pot_total() == 3 and hand.stacks() == [19, 19, 19]
    assert hand.to_act == 0 and "dt" not in hand.legal_actions().kinds   # no discard yet
    play(hand, "cc Ad", "on", "sd 2c")
    assert len(hand.cards_of(0)) == 5 and parse_cards("Ad")[0] in hand.cards_of(0)
    assert hand.to_act == 1 and {"cc", "dt"} <= set(hand.legal_actions().kinds)
    with pytest.raises(IllegalAction):
        hand.apply(Action("f"))            # nobody drops out before a knock
    play(hand, "dt", "on", "sd 9c")        # the last discard: the 2 of clubs
    assert parse_cards("2c")[0] in hand.cards_of(1)
    play(hand, "dt", "on", "sd 2d")        # now the 9 of clubs
    assert parse_cards("9c")[0] in hand.cards_of(2)
    assert hand.to_act == 0 and not hand.is_over


def test_knock_between_draw_and_discard_then_one_last_turn_each():
    """003_… «Нок-покер»: «В промежутке между прикупом и сбросом карты любой игрок может
    постучать по столу, а затем сбросить карту. После этого у всех игроков, предшествующих
    по кругу постучавшему, остается последняя возможность сбросить и прикупить карту.»
    «После прикупа и сброса, сделанных последним перед стучавшим игроком, оставшиеся в
    игре участники раскрывают свои карты.»"""
    hand = knock_hand("2s2h5d7c9c", "AsAhKdQc2c", "3s4h6d8c9h")
    play(hand, "cc 3c", "on", "sd 3c")                # seat 0
    play(hand, "cc Ad", "kn")                         # seat 1 draws, then knocks
    assert hand.legal_actions().kinds == ("sd",)      # ... and discards
    play(hand, "sd 2c")
    assert hand.to_act == 2                           # the last turns: seat 2, seat 0
    play(hand, "cc Jd", "sd Jd")
    assert hand.to_act == 0 and "kn" not in hand.legal_actions().kinds
    play(hand, "dt", "sd Jd")
    assert hand.is_over and hand.result().went_to_showdown   # seat 1 does not play again


def test_knocker_best_each_player_still_in_pays_him_two_and_a_drop_out_one():
    """003_… «Нок-покер»: «Если после этого игрок решит выйти из игры, он должен заплатить
    стучавшему одну фишку.» «Если самой старшей рукой обладает стучавший, каждый
    оставшийся в игре участник выплачивает ему две фишки.»"""
    hand = knock_hand("AsAhKdQc2c", "3s4h6d8c9c", "5s7hJdTc2d", "KcKh9s8s3c")
    play(hand, "cc Ad", "kn", "sd 2c")     # seat 0: three aces
    play(hand, "dt", "sd 9c")              # seat 1 stays
    play(hand, "f")                        # seat 2 drops out
    play(hand, "cc 7c", "sd 7c")           # seat 3 stays: kings
    res = hand.result()
    assert res.pots[0].amount == 4 and res.pots[0].winners == {0: 4}
    assert paid(hand) == [(1, 0, 2, "knocker wins"), (2, 0, 1, "drop"),
                          (3, 0, 2, "knocker wins")]
    assert res.stacks == [28, 17, 18, 17] and res.bonuses == {}


def test_tie_knocker_and_other_winner_split_the_pot_drop_chips_stay_with_the_knocker():
    """003_… «Нок-покер»: «При равных картах стучавший и другой выигравший делят весь банк
    за исключением фишек, которые были выплачены стучавшему игроками, вышедшими из
    игры.» — the 4 antes are split 2 and 2; the drop-out's chip stays with the knocker;
    nobody pays 2 (the knocker is not alone best, nor beaten)."""
    hand = knock_hand("AsKd9c7h2s", "AhKs9d7c4h", "QsJhTd5c3c", "2c3d5h8s6s")
    play(hand, "cc 4s", "kn", "sd 2s")     # seat 0: A-K-9-7-4
    play(hand, "cc Jc", "sd Jc")           # seat 1: A-K-9-7-4 as well
    play(hand, "f")                        # seat 2 drops: 1 to the knocker
    play(hand, "cc Qd", "sd Qd")           # seat 3 stays and loses
    res = hand.result()
    assert res.pots[0].amount == 4 and res.pots[0].winners == {0: 2, 1: 2}
    assert paid(hand) == [(2, 0, 1, "drop")]
    assert res.stacks == [22, 21, 18, 19]


def test_knocker_beaten_pays_each_player_still_in_two():
    """003_… «Нок-покер»: «Если же у стучавшего нет старшей руки, он выплачивает всем
    игрокам по две фишки. Банк в этом случае, естественно, получает игрок с самой старшей
    рукой.» (read: every player still in; the drop-out has left the hand and paid 1)"""
    hand = knock_hand("2s2h5d7c9c", "KsKhKd3c4c", "QsJhTd5c3d", "3s6h8dTcJd")
    play(hand, "kn")                       # seat 0 knocks without drawing: a pair of twos
    play(hand, "cc Qh", "sd Qh")           # seat 1: three kings
    play(hand, "f")                        # seat 2 drops out
    play(hand, "cc Qc", "sd Qc")           # seat 3 stays
    res = hand.result()
    assert res.pots[0].winners == {1: 4}
    assert paid(hand) == [(0, 1, 2, "knocker loses"), (0, 3, 2, "knocker loses"),
                          (2, 0, 1, "drop")]
    assert res.stacks == [16, 25, 18, 21] and res.bonuses == {}


def test_bonus_for_knocking_and_winning_without_drawing_paid_by_everyone():
    """003_… «Нок-покер»: «Также все игроки, в том числе и вышедшие из игры, выплачивают
    следующие премии: две фишки за стук по столу и выигрыш без прикупа»."""
    hand = knock_hand("AsAhAdKc2c", "3s4h6d8c9c", "5s7hJdTc2d", "KhQh9s8s3c")
    play(hand, "kn")                       # seat 0 knocks at once: no card drawn
    play(hand, "cc 9h", "sd 9h")
    play(hand, "f")
    play(hand, "cc 7c", "sd 7c")
    res = hand.result()
    assert res.pots[0].winners == {0: 4}
    assert paid(hand) == [(1, 0, 2, "bonus"), (1, 0, 2, "knocker wins"), (2, 0, 1, "drop"),
                          (2, 0, 2, "bonus"), (3, 0, 2, "bonus"), (3, 0, 2, "knocker wins")]
    assert res.bonuses == {0: 6}
    assert res.stacks == [34, 15, 16, 15]


def test_bonus_for_winning_with_an_ace_high_flush_paid_by_the_knocker_and_drop_outs_too():
    """003_… «Нок-покер»: «все игроки, в том числе и вышедшие из игры, выплачивают
    следующие премии: ... четыре фишки за выигрыш на флеше, возглавляемом тузом»."""
    hand = knock_hand("KsKdKc4d2c", "AhJh8h5h3s", "5s7dJdTc2d", "6c6d9s8s3c")
    play(hand, "cc Qc", "kn", "sd Qc")     # seat 0 knocks with three kings
    play(hand, "cc 3h", "sd 3s")           # seat 1 fills an ace-high heart flush
    play(hand, "f")                        # seat 2 drops out: 1 to the knocker
    play(hand, "cc 7c", "sd 7c")           # seat 3 stays
    res = hand.result()
    assert res.pots[0].winners == {1: 4}
    assert paid(hand) == [(0, 1, 2, "knocker loses"), (0, 1, 4, "bonus"),
                          (0, 3, 2, "knocker loses"), (2, 0, 1, "drop"),
                          (2, 1, 4, "bonus"), (3, 1, 4, "bonus")]
    assert res.bonuses == {1: 12}
    assert res.stacks == [12, 37, 14, 17]


def test_bonus_for_winning_with_any_other_flush():
    """003_… «Нок-покер»: «две фишки за выигрыш на любом флеше» (a flush not headed by an
    ace: 2, not 4 + 2)."""
    hand = knock_hand("KhJh8h5h3c", "3s4h6d8c9c", "5s7dJdTc2d")
    play(hand, "cc 3h", "kn", "sd 3c")     # seat 0 draws to a king-high flush, knocks
    play(hand, "cc 9h", "sd 9h")
    play(hand, "dt", "sd 9h")
    res = hand.result()
    assert paid(hand) == [(1, 0, 2, "bonus"), (1, 0, 2, "knocker wins"),
                          (2, 0, 2, "bonus"), (2, 0, 2, "knocker wins")]
    assert res.bonuses == {0: 4} and res.stacks == [30, 15, 15]


def test_bonus_for_winning_with_four_of_a_kind():
    """003_… «Нок-покер»: «одна фишка за выигрыш на каре» (paid by the drop-out too)."""
    hand = knock_hand("9s9h9dKc2c", "3s4h6d8cTh", "5s7dJdTc2d")
    play(hand, "cc 9c", "kn", "sd 2c")     # seat 0: four nines
    play(hand, "f")                        # seat 1 drops out
    play(hand, "cc Qd", "sd Qd")           # seat 2 stays
    res = hand.result()
    assert paid(hand) == [(1, 0, 1, "bonus"), (1, 0, 1, "drop"), (2, 0, 1, "bonus"),
                          (2, 0, 2, "knocker wins")]
    assert res.bonuses == {0: 2} and res.stacks == [27, 17, 16]


def test_immediate_knock_on_any_turn_shows_down_a_pot_of_antes_only():
    """003_… «Нок-покер»: «Зачастую договариваются о том, что игрок может постучать по
    столу в любую свою очередь. В этом случае раскрытие делают без последующего прикупа и
    банк, состоящий из одних взносов, выигрывает самая старшая рука.»"""
    holes = ("2s2h5d7c9c", "KsKhKd3c4c", "3s6h8dTcJd")
    hand = knock_hand(*holes, knock_immediate=True)
    play(hand, "cc Qh", "sd Qh")
    play(hand, "cc Qs", "sd Qs")
    play(hand, "cc Qc", "sd Qc")
    assert "kn" in hand.legal_actions().kinds   # seat 0, on a later turn
    play(hand, "kn")                            # at once: no last draws
    res = hand.result()
    assert hand.is_over and res.went_to_showdown
    assert res.pots[0].amount == 3 and res.pots[0].winners == {1: 3}
    assert paid(hand) == [] and res.stacks == [19, 22, 19]
    # without the option, a player who has drawn knocks only between draw and discard
    hand = knock_hand(*holes)
    play(hand, "cc Qh", "on", "sd Qh")
    play(hand, "cc Qs", "on", "sd Qs")
    play(hand, "cc Qc", "on", "sd Qc")
    assert "kn" not in hand.legal_actions().kinds
    play(hand, "cc Jh")
    assert "kn" in hand.legal_actions().kinds
