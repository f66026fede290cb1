"""Painted poker («расписной покер», ../shared/seeds/004_…) against the document: the deal
plan, the trump, the bidding, the tricks, the joker, the special deals, the scoring, and
invariants over random legal play (issue 17)."""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerarena.cards import JOKER_1, JOKER_2, card_str, parse_card, parse_cards
from pokerarena.engine.actions import IllegalAction
from pokerarena.errors import UserError
from pokerarena.games import family_ids, new_game
from pokerarena.games.painted import PaintedGame, bid, parse_action, play
from pokerarena.games.painted.actions import action_from_json
from pokerarena.games.painted.deal import Deal, Played, legal_plays, trick_winner
from pokerarena.games.painted.rules import (
    BLIND,
    GOLDEN,
    LOBOVAYA,
    MISERE,
    NO_TRUMP,
    ORDINARY,
    DealSpec,
    PaintedError,
    PaintedOptions,
    deal_plan,
    deck_cards,
    points_of,
)
from pokerarena.games.painted.sheet import SHEET_COLUMNS
from pokerarena.rules import variant_ids

C, D, H, S = range(4)  # suits: clubs, diamonds, hearts, spades
O = PaintedOptions()


def cards(text: str) -> list[int]:
    return parse_cards(text)


def deal_of(hands: list[str], trump: int = H, kind: str = ORDINARY, dealer: int = 3,
            options: PaintedOptions = O, no: int = 5) -> Deal:
    """A deal with the given hands (seat 0 first), as the game would make it."""
    h = len(cards(hands[0]))
    spec = DealSpec(no, kind, h, False)
    return Deal(spec, options, dealer, len(hands), [cards(x) for x in hands],
                trump, -1, [])


def rigged(game: PaintedGame, hands: list[str], trump_card: str, seed: int = 0):
    """A game whose current deal gets the given hands (the real scoring path)."""
    hand = game.new_hand(seed, len(hands), dealer=len(hands) - 1)
    d = hand.deal
    tc = parse_card(trump_card)
    hand.deal = Deal(d.spec, d.options, d.dealer, d.players, [cards(x) for x in hands],
                     tc & 3, tc, [tc])
    return hand


# -- the deal plan -------------------------------------------------------------------------
def test_four_players_play_twenty_ordinary_deals_then_sixteen_special():
    """«Например, играют 4 участника. Их партия состоит из 20 обычных сдач. Количество
    карт в конах: 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 8, 7, 6, 5, 4, 3, 2, 1. После
    обычных конов проходят специальные.» «Обычно по каждой специгре проводится столько
    сдач, сколько играет участников. В игре на четверых их 16.»"""
    plan = deal_plan(O, 4)
    ordinary = [d.cards for d in plan if d.kind == ORDINARY]
    assert ordinary == [1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    special = [d.kind for d in plan[20:]]
    assert special == [NO_TRUMP] * 4 + [BLIND] * 4 + [GOLDEN] * 4 + [MISERE] * 4
    assert len(plan) == 36 and all(d.cards == 9 for d in plan[20:])
    assert [d.no for d in plan] == list(range(36))
    assert [d.first_or_last for d in plan].count(True) == 2
    assert plan[0].first_or_last and plan[19].first_or_last


@pytest.mark.parametrize(("players", "top"), [(2, 18), (3, 12), (4, 9), (5, 7)])
def test_the_largest_hand_for_each_table_size_the_document_gives(players, top):
    """«Самое большое допустимое количество: На двоих — 18 карт. На троих — 12 карт. На
    четверых — 9 карт. На пятерых — 7 карт. Игроки должны провести столько конов с
    максимальным размером руки, сколько участников за столом. Затем количество
    сдаваемых за каждый кон карт уменьшается на одну. В последней сдаче, как и в первой,
    все получают 1 карту.»"""
    sizes = [d.cards for d in deal_plan(O, players) if d.kind == ORDINARY]
    assert sizes == [*range(1, top), *[top] * players, *range(top - 1, 0, -1)]
    assert len(deal_plan(O, players)) == len(sizes) + 4 * players


@pytest.mark.parametrize(("players", "top"), [(6, 6), (7, 5), (8, 4), (9, 4), (10, 3)])
def test_larger_tables_share_the_deck_out(players, top):
    """«технически возможное — 2-10» (and so on for more players: the deck shared out)."""
    assert max(d.cards for d in deal_plan(O, players)) == top


def test_two_to_ten_players_only():
    """«технически возможное — 2-10»."""
    for n in (1, 11):
        with pytest.raises(PaintedError, match="2 to 10 players"):
            PaintedGame().new_hand(0, n)


def test_the_options_change_the_plan_and_bad_ones_are_one_clear_error():
    """«Договариваются о порядке прохождения раздач, числе конов» — the deck of 52, the
    number of special deals, and «Лобовая» as a special deal."""
    plan = deal_plan(PaintedOptions(deck=52, specials=(LOBOVAYA,), special_count=2), 4)
    assert max(d.cards for d in plan) == 13 and [d.kind for d in plan[-2:]] == [LOBOVAYA] * 2
    with pytest.raises(PaintedError, match="tariff"):
        PaintedGame({"tariff": 4})
    with pytest.raises(PaintedError, match="specials"):
        PaintedGame({"specials": ["nonsense"]})
    with pytest.raises(UserError, match="max_cards"):
        deal_plan(PaintedOptions(max_cards=10), 4)


# -- the deck and the jokers ---------------------------------------------------------------
def test_the_deck_is_36_cards_and_a_joker_replaces_the_seven_of_spades():
    """«В русский расписной покер играют 36-карточной колодой с 4 мастями. Если участники
    договорились о наличии джокера, им назначают семерку или шестерку. Масть может быть
    любой, но обычно это пики. По договоренности можно играть и с 2 джокерами.»"""
    assert len(deck_cards(O)) == 36 and min(c >> 2 for c in deck_cards(O)) == 4
    one = deck_cards(PaintedOptions(jokers=1))
    assert len(one) == 36 and JOKER_1 in one and parse_card("7s") not in one
    two = deck_cards(PaintedOptions(jokers=2))
    assert JOKER_2 in two and parse_card("7c") not in two and len(two) == 36
    six = deck_cards(PaintedOptions(jokers=1, joker_cards=("6s",)))
    assert parse_card("6s") not in six and parse_card("7s") in six
    assert len(deck_cards(PaintedOptions(deck=52))) == 52
    with pytest.raises(PaintedError, match="joker_cards"):
        PaintedGame({"jokers": 1, "joker_cards": ["2s"]})


# -- the trump -----------------------------------------------------------------------------
def test_the_trump_is_turned_from_the_stock_when_the_deck_is_not_dealt_out():
    """«Если колода сдается не полностью, козырем будет масть, выпавшая из колоды после
    раздачи рук участникам.»"""
    hand = PaintedGame().new_hand(3, 4)
    d = hand.deal
    assert d.stock and d.trump_card == d.stock[0] and d.trump == d.trump_card & 3
    assert all(d.trump_card not in h for h in d.hands)
    assert hand.observation(0).trump_card == d.trump_card


def test_when_the_deck_is_dealt_out_the_trump_is_a_card_drawn_before_the_deal():
    """«Если же полностью, то козырь определяют до раздачи, случайно вытягивая из колоды
    любую карту.» — 4 players, 9 cards each: the drawn card is put back and dealt."""
    hand = PaintedGame().new_hand(3, 4)
    while hand.deal.spec.cards < 9:
        hand.apply(hand.legal_actions()[0])
    d = hand.deal
    assert not d.stock and any(d.trump_card in h for h in d.hands)
    assert d.trump == d.trump_card & 3


def test_no_trump_in_the_no_trump_deals_and_none_when_a_joker_is_turned():
    """«„Бескозырка“ — раунд разыгрывается без козырей.» (A joker turned as the trump
    card: no trump either, our reading.)"""
    hand = PaintedGame({"specials": [NO_TRUMP], "max_cards": 2, "deals_at_max": 0,
                        "special_count": 1}).new_hand(1, 4)
    while hand.deal.spec.kind != NO_TRUMP:
        hand.apply(hand.legal_actions()[0])
    assert hand.deal.trump == -1 and hand.observation(0).trump == -1
    game = PaintedGame({"jokers": 2})
    seen = 0
    for seed in range(400):
        d = game.new_hand(seed, 5).deal
        if d.trump_card in (JOKER_1, JOKER_2):
            assert d.trump == -1
            seen += 1
    assert seen > 0


# -- bidding -------------------------------------------------------------------------------
def test_bidding_goes_from_the_dealers_left_and_the_dealer_bids_last():
    """«Первый от сдающего делает заказ. Далее право действовать переходит по часовой
    стрелке.» «В начале партии сдающего игрока (дилера) выбирают жеребьевкой. Затем
    дилерские обязанности переходят по часовой стрелке.»"""
    hand = PaintedGame().new_hand(5, 4, dealer=2)
    order = []
    for _ in range(4):
        order.append(hand.to_act)
        hand.apply(hand.legal_actions()[0])
    assert order == [3, 0, 1, 2]
    while hand.deal.spec.no == 0:
        hand.apply(hand.legal_actions()[0])
    assert hand.deal.dealer == 3 and hand.to_act == 0


def test_bids_go_from_pass_to_the_hand_size():
    """«Все, кроме сдающего, могут сделать заказ от 1 до количества карт в руке. Можно
    спасовать».»"""
    d = deal_of(["AhKh", "QhJh", "AsKs", "QsJs"])
    assert d.legal_bids() == [0, 1, 2]
    with pytest.raises(IllegalAction):
        d.apply(0, bid(3))


def test_the_dealer_may_not_make_the_bids_add_up_to_the_cards_dealt():
    """«Сдающий обязан заказать так, чтобы общее количество взяток в коне не равнялось
    числу карт, полученных им на руки. В этом коне — 2. Если до сдающего в сумме
    объявили 2 взятки, он не может пасовать — надо заказать как минимум 1.»"""
    d = deal_of(["AhKh", "QhJh", "AsKs", "QsJs"])  # the dealer is seat 3
    for s, b in ((0, 1), (1, 1), (2, 0)):
        d.apply(s, bid(b))
    assert d.to_act == 3 and d.legal_bids() == [1, 2]
    before = list(d.bids)
    with pytest.raises(IllegalAction, match="bid 0"):
        d.apply(3, bid(0))
    assert d.bids == before and d.to_act == 3
    d2 = deal_of(["AhKh", "QhJh", "AsKs", "QsJs"])
    for s, b in ((0, 1), (1, 0), (2, 0)):
        d2.apply(s, bid(b))
    assert d2.legal_bids() == [0, 2]
    d3 = deal_of(["AhKh", "QhJh", "AsKs", "QsJs"], options=PaintedOptions(
        dealer_restriction=False))
    for s, b in ((0, 1), (1, 1), (2, 0)):
        d3.apply(s, bid(b))
    assert d3.legal_bids() == [0, 1, 2]


# -- the tricks ----------------------------------------------------------------------------
def test_the_player_left_of_the_dealer_leads_and_the_winner_leads_next():
    """«Игрок слева от дилера кладет на стол любую карту.» «Проходит второй розыгрыш. Его
    открывает участник, получивший взятку в предыдущем.»"""
    d = deal_of(["6c7d", "AcKd", "8c9d", "TcJd"])
    for s in range(4):
        d.apply(s, bid(0 if s != 3 else 1))
    assert d.phase == "play" and d.to_act == 0
    for s, c in ((0, "6c"), (1, "Ac"), (2, "8c"), (3, "Tc")):
        d.apply(s, play(c))
    assert d.taken == [0, 1, 0, 0] and d.to_act == 1


def test_follow_suit_else_trump_else_any_card():
    """«Следующий по часовой стрелке участник должен побить ее той же мастью или козырем,
    либо сбросить ненужную карту.» Read as: follow the led suit; without it, a trump
    (option ``must_trump``); without either, any card; beating is not required."""
    lead = play("Ts")
    assert {a.card for a in legal_plays(cards("6s9dAh"), lead, H)} == {parse_card("6s")}
    assert {a.card for a in legal_plays(cards("6c9dAh7h"), lead, H)} == set(cards("Ah7h"))
    assert {a.card for a in legal_plays(cards("6c9d"), lead, H)} == set(cards("6c9d"))
    loose = {a.card for a in legal_plays(cards("6c9dAh"), lead, H, must_trump=False)}
    assert loose == set(cards("6c9dAh"))
    assert {a.card for a in legal_plays(cards("6c9dAh"), None, H)} == set(cards("6c9dAh"))


def test_the_highest_card_of_the_led_suit_or_the_highest_trump_takes_the_trick():
    """«Выложивший сильнейшую карту, получает взятку.»"""
    plays = [Played(0, play("Ts")), Played(1, play("As")), Played(2, play("Ad")),
             Played(3, play("6s"))]
    assert trick_winner(plays, H) == 1
    plays[3] = Played(3, play("6h"))
    assert trick_winner(plays, H) == 3
    plays[2] = Played(2, play("7h"))
    assert trick_winner(plays, H) == 2
    assert trick_winner(plays, -1) == 1


def test_an_illegal_card_raises_and_changes_nothing():
    """«сколько карт получают на руки участники, столько ходов могут сделать» — a card
    the rules forbid is refused whole."""
    d = deal_of(["6s9d", "AsKd", "8c9c", "TcJd"])
    for s in range(4):
        d.apply(s, bid(0 if s != 3 else 1))
    d.apply(0, play("6s"))
    before = ([list(h) for h in d.hands], list(d.trick), d.to_act)
    for bad, who in ((play("Kd"), 1), (play("8c"), 1), (play("As"), 2)):
        with pytest.raises(IllegalAction):
            d.apply(who, bad)
    assert ([list(h) for h in d.hands], list(d.trick), d.to_act) == before


# -- the joker -----------------------------------------------------------------------------
JK = JOKER_1


def test_the_joker_played_high_beats_even_the_trump_ace_and_low_loses():
    """«Джокер используют, чтобы получать взятки, объявляя его самой высокой картой,
    бьющей даже козырного туза, или наоборот — самой низкой (чтобы гарантированно
    защититься от взятки).»"""
    plays = [Played(0, play("Ts")), Played(1, play(JK, "high")), Played(2, play("Ah"))]
    assert trick_winner(plays, H) == 1
    plays[1] = Played(1, play(JK, "low"))
    assert trick_winner(plays, H) == 2
    plays = [Played(0, play("Ts")), Played(1, play(JK, "low")), Played(2, play("6s"))]
    assert trick_winner(plays, H) == 0
    # the joker may be played though the player holds the led suit (our reading)
    follow = legal_plays([*cards("6s9d"), JK], play("Ts"), H)
    assert {(a.card, a.joker) for a in follow} == {(parse_card("6s"), ""), (JK, "high"),
                                                   (JK, "low")}
    two = [Played(0, play(JK, "high", S)), Played(1, play(JOKER_2, "high"))]
    assert trick_winner(two, H) == 1  # the later high joker (our reading)


def test_joker_call_highest_of_a_named_suit():
    """«По старшим конкретной масти. Оппоненты должны выложить самые большие карты
    заявленной масти. Если масти в руке нет — стоит использовать козырь.» «если у
    оппонента нет подходящей масти или козыря, он может сбрасывать из руки любую карту»."""
    lead = play(JK, "high", S)
    assert [a.card for a in legal_plays(cards("6sQs9d"), lead, H)] == [parse_card("Qs")]
    assert {a.card for a in legal_plays(cards("9d7hKh"), lead, H)} == set(cards("7hKh"))
    assert {a.card for a in legal_plays(cards("9d6c"), lead, H)} == set(cards("9d6c"))
    plays = [Played(0, lead), Played(1, play("As")), Played(2, play("Ah"))]
    assert trick_winner(plays, H) == 0


def test_joker_call_highest_trumps():
    """«По старшим козырям. Оппоненты должны выложить из рук самую старшую карту. Она
    обязательно должна быть козырем.»"""
    lead = play(JK, "trumps")
    assert [a.card for a in legal_plays(cards("6h9hAs"), lead, H)] == [parse_card("9h")]
    assert {a.card for a in legal_plays(cards("9dAs"), lead, H)} == set(cards("9dAs"))
    assert trick_winner([Played(0, lead), Played(1, play("Ah"))], H) == 0


def test_joker_call_lowest_of_a_named_suit():
    """«Самая младшая конкретной масти. Оппоненты должны выложить самые низкие карты
    заявленной масти. Взятка уйдет выложившему самую старшую.»"""
    lead = play(JK, "low", D)
    assert [a.card for a in legal_plays(cards("6d9dAs"), lead, H)] == [parse_card("6d")]
    assert {a.card for a in legal_plays(cards("As8h"), lead, H)} == {parse_card("8h")}
    assert {a.card for a in legal_plays(cards("As8c"), lead, H)} == set(cards("As8c"))
    plays = [Played(0, lead), Played(1, play("6d")), Played(2, play("8d")),
             Played(3, play("As"))]
    assert trick_winner(plays, H) == 2
    plays[3] = Played(3, play("6h"))
    assert trick_winner(plays, H) == 3
    # nobody follows and nobody trumps: the joker, alone in its suit, takes it
    alone = [Played(0, lead), Played(1, play("As")), Played(2, play("Ac"))]
    assert trick_winner(alone, H) == 0


def test_the_joker_leads_with_a_call_and_the_calls_offered():
    """«Выкладывающий джокера может заявить специальные правила на текущий ход» — leading,
    the joker may name one of the three calls (or none: ``test_rule_readings_32``); no
    trump call without trumps. Option ``joker_call = required``: a call is a must."""
    plain = {("high", -1), ("low", -1)}
    leads = [a for a in legal_plays([JK, *cards("6c")], None, H) if a.card == JK]
    assert {(a.joker, a.suit) for a in leads} == (
        {("high", s) for s in (C, D, S)} | {("trumps", -1)} | {("low", s) for s in range(4)}
        | plain)
    no_trump = [a for a in legal_plays([JK], None, -1)]
    assert {(a.joker, a.suit) for a in no_trump} == (
        {("high", s) for s in range(4)} | {("low", s) for s in range(4)} | plain)
    called = [a for a in legal_plays([JK], None, -1, call_required=True)]
    assert {(a.joker, a.suit) for a in called} == (
        {("high", s) for s in range(4)} | {("low", s) for s in range(4)})
    d = deal_of(["6c", "6d", "6h", "6s"], options=PaintedOptions(joker_call="required"))
    d.hands[0] = [JK]
    for s in range(4):
        d.apply(s, bid(0))
    with pytest.raises(IllegalAction):
        d.apply(0, play(JK))  # leading, the joker must make a call
    with pytest.raises(IllegalAction):
        d.apply(0, play(JK, "high"))
    d.apply(0, play(JK, "high", "c"))


def test_the_second_joker_code_is_the_same_joker():
    """Two jokers are alike («можно играть и с 2 джокерами»): ``Jk`` names either."""
    d = deal_of(["6c", "6d", "6h", "6s"])
    d.hands[0] = [JOKER_2]
    for s in range(4):
        d.apply(s, bid(0))
    d.apply(0, d.canonical(play(JOKER_1, "high", S)))
    assert d.trick[0].action.card == JOKER_2


# -- the special deals ---------------------------------------------------------------------
def _to_kind(hand, kind):
    while hand.deal.spec.kind != kind:
        hand.apply(hand.legal_actions()[0])


SHORT = {"max_cards": 3, "deals_at_max": 1, "special_count": 1,
         "specials": [NO_TRUMP, BLIND, GOLDEN, MISERE, LOBOVAYA]}


def test_blind_deal_bids_before_looking_at_the_hand():
    """«„Слепая“ („Темная“) — от обычной сдачи отличается тем, что заказ надо объявить,
    не глядя в руку.» (The trump is known: «В каждой сдаче перед сбором заявок
    определяется козырь».)"""
    hand = PaintedGame(SHORT).new_hand(2, 3)
    _to_kind(hand, BLIND)
    v = hand.observation(hand.to_act)
    assert v.hand == () and v.hand_hidden and v.phase == "bid" and v.trump >= 0
    for _ in range(3):
        hand.apply(hand.legal_actions()[0])
    v = hand.observation(0)
    assert not v.hand_hidden and len(v.hand) == 3 and v.phase == "play"


def test_golden_deal_pays_every_trick_and_misere_penalises_every_trick():
    """«„Золотая“, или „Хапки“ — все взятки выигрышные, за них начисляются очки.»
    «„Мизер“ — за любую взятку участник получает штраф.» «В мизере есть особая награда
    — 50 очков. Ее записывают участнику, прошедшему весь кон без взяток.» No bids in
    them (our reading: a bid would mean nothing); tariff ×1.5 «Традиционный вариант —
    полуторные награды и штрафы.»"""
    game = PaintedGame(SHORT)
    hand = game.new_hand(4, 3)
    for kind in (GOLDEN, MISERE):
        _to_kind(hand, kind)
        assert hand.deal.phase == "play" and hand.legal_actions()[0].kind == "play"
        no = hand.deal.spec.no
        while len(hand.records) <= no:
            hand.apply(hand.legal_actions()[0])
        r = hand.records[no]
        assert sum(r.tricks) == 3 and r.bids == (-1, -1, -1)
        for t, p in zip(r.tricks, r.points, strict=True):
            assert p == (15 * t if kind == GOLDEN else (50 if t == 0 else -15 * t))


def test_lobovaya_each_player_shows_one_random_card_before_bidding():
    """«Известный, но редко используемый вариант — „Лобовая“. Каждый участник показывает
    соперникам случайную карту из своей руки, после этого объявляются заказы.»"""
    hand = PaintedGame(SHORT).new_hand(6, 3)
    _to_kind(hand, LOBOVAYA)
    d = hand.deal
    assert d.phase == "bid" and sorted(d.shown) == [0, 1, 2]
    for s, c in d.shown.items():
        assert c in d.hands[s]
    v = hand.observation(1)
    assert v.shown == d.shown and set(v.hand) == set(d.hands[1])


def test_the_special_tariffs():
    """«Стандартные тарифы в них можно увеличить в 2 или 3 раза. Традиционный вариант —
    полуторные награды и штрафы.»"""
    nt = DealSpec(20, NO_TRUMP, 9, False)
    assert points_of(O, nt, 2, 2) == 30 and points_of(O, nt, 0, 0) == 7.5
    assert points_of(O, nt, 3, 1) == -30 and points_of(O, nt, 1, 3) == 3
    for t in (2, 3):
        o = PaintedOptions(tariff=t)
        assert points_of(o, nt, 2, 2) == 20 * t
        assert points_of(o, DealSpec(30, GOLDEN, 9, False), -1, 4) == 40 * t
        assert points_of(o, DealSpec(33, MISERE, 9, False), -1, 2) == -20 * t
        assert points_of(o, DealSpec(33, MISERE, 9, False), -1, 0) == 50
    assert points_of(O, DealSpec(24, BLIND, 9, False), 9, 9) == 10 * 9 * 2 * 1.5


# -- scoring -------------------------------------------------------------------------------
def test_the_scoring_table_of_an_ordinary_deal():
    """«Взял свои — игрок получил столько взяток, сколько заказал. 10 очков за каждую.
    Пас — не заказал и не взял ни одной. 5 очков. Перебор — взял больше заказа. По 1
    очку за каждую перебранную. Недобор — взял меньше заказа. -10 за каждую
    недобранную.»"""
    spec = DealSpec(6, ORDINARY, 7, False)
    assert points_of(O, spec, 3, 3) == 30
    assert points_of(O, spec, 0, 0) == 5
    assert points_of(O, spec, 2, 5) == 3
    assert points_of(O, spec, 0, 2) == 2
    assert points_of(O, spec, 4, 1) == -30
    assert points_of(O, spec, 1, 0) == -10


def test_a_whole_hand_bid_made_is_doubled_but_not_in_the_first_and_last_deal():
    """«Если игрок заявил столько взяток, сколько получил карт, и выполнил заказ, его
    очки удваиваются. Например, покерист выполнил в 4-й сдаче заказ на 4 взятки.
    Награда: 10 * 4 * 2 = 80. Это правило не действует в первой и последней обычной
    сдачах.»"""
    plan = deal_plan(O, 4)
    assert plan[3].cards == 4 and points_of(O, plan[3], 4, 4) == 80
    assert points_of(O, plan[0], 1, 1) == 10 and points_of(O, plan[19], 1, 1) == 10
    assert points_of(PaintedOptions(whole_hand_double=False), plan[3], 4, 4) == 40


def test_the_documents_first_deal_minus_ten_and_plus_ten():
    """«В первой сдаче Ангелина заявила 1, но не смогла ни разу взять и проштрафилась на
    -10 очков. Дима заявил 1 и взял 1. Ему начислилось 10 очков.» Played through a
    game: one card each, the trump hearts."""
    hand = rigged(PaintedGame(), ["Ks", "As", "7s", "8s"], "6h")
    for s, b in ((0, 1), (1, 1), (2, 0), (3, 0)):  # Angelina at seat 0, Dima at seat 1
        hand.apply(bid(b), s)
    for s, c in ((0, "Ks"), (1, "As"), (2, "7s"), (3, "8s")):
        hand.apply(play(c), s)
    r = hand.records[0]
    assert r.tricks == (0, 1, 0, 0) and r.points == (-10, 10, 5, 5)
    assert hand.result().totals == (-10, 10, 5, 5)
    rows = hand.sheet()
    assert rows[0] == {"deal": 0, "kind": ORDINARY, "cards": 1, "dealer": 3, "trump": "h",
                       "trump_card": "6h", "seat": 0, "bid": 1, "tricks": 0,
                       "points": -10.0, "total": -10.0}
    assert tuple(rows[0]) == SHEET_COLUMNS and len(rows) == 4


def test_the_documents_fourth_deal_four_tricks_bid_and_made_is_80():
    """«покерист выполнил в 4-й сдаче заказ на 4 взятки. Награда: 10 * 4 * 2 = 80.»
    Played through a game: seat 0 holds the four top trumps of the fourth deal."""
    game = PaintedGame()
    hand = game.new_hand(0, 4, dealer=0)
    while hand.deal.spec.no < 3:
        hand.apply(hand.legal_actions()[0])
    d = hand.deal
    before = list(hand.totals)
    hand.deal = Deal(d.spec, d.options, d.dealer, 4,
                     [cards(x) for x in ("AhKhQhJh", "6s7s8s9s", "6c7c8c9c", "6d7d8d9d")],
                     H, parse_card("6h"), [parse_card("6h")])
    for s, b in ((0, 4), (1, 0), (2, 0), (3, 1)):
        hand.apply(bid(b), s)
    for k in range(4):
        for s, h in enumerate(("AhKhQhJh", "6s7s8s9s", "6c7c8c9c", "6d7d8d9d")):
            hand.apply(play(cards(h)[k]), s)
    r = hand.records[3]
    assert r.tricks == (4, 0, 0, 0)
    assert r.points == (80, 5, 5, -10)
    assert [t - b for t, b in zip(hand.totals, before, strict=True)] == [80, 5, 5, -10]


# -- actions as text and JSON --------------------------------------------------------------
def test_actions_as_text_and_json_round_trip():
    """«В конце кона в таблицу записываются результат заказа» — the replayable log's
    forms: ``bid 2``, ``play As``, the joker's calls («Выкладывающий джокера может заявить
    специальные правила на текущий ход»)."""
    for a in (bid(0), bid(3), play("As"), play(JK, "high"), play(JK, "low"),
              play(JK, "high", "h"), play(JK, "trumps"), play(JK, "low", "d")):
        assert parse_action(a.text()) == a
        assert action_from_json(a.as_json()) == a
    for bad in ("bid", "play Zz", "play As high", "fold"):
        with pytest.raises(IllegalAction):
            parse_action(bad)


def test_the_catalogue_lists_painted_apart_from_the_poker_variants():
    """«Расписной покер — карточная игра … сочетающая элементы классического покера и
    других дисциплин» — a family of its own, not a betting variant."""
    assert "painted" in family_ids() and "painted" not in variant_ids()
    assert isinstance(new_game("painted", {"jokers": 1}), PaintedGame)
    with pytest.raises(UserError, match="unknown game family"):
        new_game("no_such_family")


def test_pokerarena_variants_lists_painted(pokerarena_cli):
    """«Расписной покер — карточная игра»: ``pokerarena variants`` lists the family
    beside the poker variants (issue 17)."""
    out = subprocess.run([*pokerarena_cli, "variants", "--json"], capture_output=True,
                         text=True, env={**os.environ, "POKERARENA_PURE": "1"}, check=False)
    assert out.returncode == 0, out.stderr
    rows = {r["id"]: r for r in json.loads(out.stdout)}
    assert rows["painted"]["family"] == "painted" and rows["painted"]["players"] == [2, 10]
    assert rows["painted"]["betting"] == [] and "holdem" in rows


# -- invariants ----------------------------------------------------------------------------
OPTION_SETS = [{}, {"jokers": 1}, {"jokers": 2, "specials": [LOBOVAYA, GOLDEN]},
               {"deck": 52, "max_cards": 4}, {"must_trump": False, "jokers": 1},
               {"dealer_restriction": False, "tariff": 3}]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 10),
       which=st.integers(0, len(OPTION_SETS) - 1), picks=st.randoms(use_true_random=False))
def test_random_legal_play_always_finishes_and_keeps_the_invariants(seed, players, which,
                                                                    picks):
    """«сколько карт получают на руки участники, столько ходов могут сделать»: every card
    is played once per deal, each deal has as many tricks as cards in a hand, and a log
    replays to the same game."""
    opts = OPTION_SETS[which]
    top = min(opts.get("max_cards", 5), opts.get("deck", 36) // players)
    game = PaintedGame({**opts, "max_cards": top, "deals_at_max": 1, "special_count": 1})
    hand = game.new_hand(seed, players)
    deck = set(game.deck)
    for spec in hand.plan:
        d = hand.deal
        assert d.spec == spec
        dealt = [c for h in d.hands for c in h]
        assert len(dealt) == len(set(dealt)) == spec.cards * players and set(dealt) <= deck
        while not d.is_over:
            hand.apply(picks.choice(hand.legal_actions()))
        assert sorted(d.played_cards()) == sorted(dealt)
        assert len(d.tricks) == spec.cards == sum(d.taken)
    assert hand.is_over and len(hand.records) == len(hand.plan) and hand.to_act == -1
    again = game.replay(seed, players, hand.log)
    assert again.result() == hand.result()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 60),
       card=st.sampled_from(list(range(52)) + [JOKER_1]), joker=st.sampled_from(
           ["", "high", "low", "trumps"]), amount=st.integers(-2, 20))
def test_an_illegal_action_raises_and_changes_nothing(seed, steps, card, joker, amount):
    """An action the rules forbid («Сдающий обязан заказать так …», a card not held or
    not following) is refused and the game is as before."""
    hand = PaintedGame({"jokers": 1}).new_hand(seed, 4)
    for _ in range(steps):
        hand.apply(hand.legal_actions()[0])
    legal = hand.legal_actions()
    for action in (bid(amount), play(card, joker)):
        if action in legal:
            continue
        seat = hand.to_act
        before = (hand.observation(seat), list(hand.log), hand.deal.to_act)
        with pytest.raises(IllegalAction):
            hand.apply(action)
        assert (hand.observation(seat), list(hand.log), hand.deal.to_act) == before
    with pytest.raises(IllegalAction, match="out of turn"):
        hand.apply(legal[0], (hand.to_act + 1) % 4)


def test_observation_shows_only_what_the_seat_may_see():
    """A seat sees its own cards, never another hand or the stock («оценивает потенциал
    руки»)."""
    hand = PaintedGame().new_hand(9, 4)
    while hand.deal.spec.cards < 3:
        hand.apply(hand.legal_actions()[0])
    for s in range(4):
        v = hand.observation(s)
        assert set(v.hand) == set(hand.deal.hands[s])
        text = str(v.as_json())
        others = [card_str(c) for q in range(4) if q != s for c in hand.deal.hands[q]]
        assert all(f"'{c}'" not in text for c in others) and v.hand_sizes == (3, 3, 3, 3)
    with pytest.raises(PaintedError):
        hand.observation(4)
    assert hand.observation(hand.to_act).legal and not hand.observation(
        (hand.to_act + 1) % 4).legal


def test_a_game_is_a_pure_function_of_its_seed():
    """«По ходу раздачи участники получают набор карт»: the same seed deals the same
    cards in every deal, whatever was played before (duplicate deals)."""
    a = PaintedGame().new_hand(11, 4)
    b = PaintedGame().new_hand(11, 4)
    assert a.deal.hands == b.deal.hands and a.first_dealer == b.deal.dealer
    a.apply(a.legal_actions()[0])
    b.apply(b.legal_actions()[-1])
    while a.deal.spec.no == 0:
        a.apply(a.legal_actions()[0])
    while b.deal.spec.no == 0:
        b.apply(b.legal_actions()[-1])
    assert a.deal.hands == b.deal.hands and a.deal.trump_card == b.deal.trump_card
