"""American boston («Американский вариант бостона», ../shared/seeds/001_…) against the
document, rule by rule: the table, the deal and the turned card, the boston, the senior
and junior suits, the ladder, support, the passes and the kitty, the play of the
tricks, and every contract's payments hand by hand (issue 18). The document gives no
worked example and no table of amounts for this game: the amounts it leaves to
agreement are options, and each payment below is worked out from its sentences."""

from __future__ import annotations

import pytest

from pokerarena.cards import card_str, parse_card, parse_cards
from pokerarena.engine.actions import IllegalAction
from pokerarena.errors import UserError
from pokerarena.games import family
from pokerarena.games.boston import BostonGame, accept, bid, parse_action, pass_, play
from pokerarena.games.boston.actions import action_from_json
from pokerarena.games.boston.deal import Deal
from pokerarena.games.boston.rules import (
    INDEPENDENCE,
    JUNIOR,
    MISERE,
    NINE_JUNIOR,
    NINE_SENIOR,
    SENIOR,
    SOLO,
    BostonError,
    BostonOptions,
    Outcome,
    settle,
    trick_winner,
)

C, D, H, S = range(4)
O = BostonOptions()
ALL = set(range(52))


def deal_of(hands: list[str], turned: str, senior: int, junior: int = -1,
            dealer: int = 0, misere_trump: bool = False) -> Deal:
    """A deal with the given hands (seat 0 first; the turned card is the dealer's)."""
    hs = [sorted(parse_cards(h)) for h in hands]
    assert sum(map(len, hs)) == 52 and set().union(*map(set, hs)) == ALL
    assert parse_card(turned) in hs[dealer]
    return Deal(0, dealer, hs, parse_card(turned), senior, junior, misere_trump)


def rest(*taken: str) -> list[int]:
    used = set().union(*(set(parse_cards(t)) for t in taken))
    return sorted(ALL - used)


def txt(codes: list[int]) -> str:
    return " ".join(card_str(c) for c in codes)


# seat 1: twelve spades and the boston; spades senior (the dealer turned the 2s)
SPADES = "AsKsQsJsTs9s8s7s6s5s4s3sJd"
OTHERS = rest(SPADES, "2s")


def spade_deal() -> Deal:
    h0 = "2s " + txt(OTHERS[:12])
    return deal_of([h0, SPADES, txt(OTHERS[12:25]), txt(OTHERS[25:])], "2s", S)


# the table and the deal ---------------------------------------------------------------------
def test_four_players_fifty_two_cards_thirteen_each_last_card_turned_to_the_dealer():
    """«В игре принимают участие 4 партнера. Используется колода в 52 листа.» «Каждый
    играющий получает 13 карт, последняя карта идет сдающему, он открывает ее,
    определяя тем самым козырь.» «Раздача начинается с правого игрока.»"""
    game = BostonGame()
    for seed in range(5):
        hand = game.new_hand(seed, 4)
        d = hand.deal
        assert [len(h) for h in d.hands] == [13] * 4
        assert set().union(*map(set, d.hands)) == ALL
        assert d.turned in d.hands[d.dealer] and d.senior == d.turned & 3
        assert d.to_act == (d.dealer + 1) % 4  # «Первый сосед сдающего» speaks first
    for seats in (3, 5):
        with pytest.raises(BostonError, match="4 players"):
            game.new_hand(1, seats)


def test_the_first_dealer_is_drawn_by_lot_and_the_deal_passes_to_the_next_seat():
    """«Тот, в чьей кучке карт окажется Валет бубен, и становится сдающим.» «Касса
    переходит от одного сдающего к другому … касса и указывает на того, кому пришла
    очередь сдавать.»"""
    game = BostonGame({"simple_tours": 1, "double_tours": 0})
    firsts = {game.new_hand(seed, 4).deal.dealer for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    hand = game.new_hand(3, 4, dealer=2)
    dealers = []
    while not hand.is_over:
        if not dealers or dealers[-1][0] != hand.deal.no:
            dealers.append((hand.deal.no, hand.deal.dealer))
        hand.apply(pass_())
    assert [x for _, x in dealers] == [2, 3, 0, 1]


# the boston ---------------------------------------------------------------------------------
def test_the_jack_of_diamonds_is_the_fourteenth_trump_above_the_ace():
    """«самой высшей картой является Валет бубен, он, собственно, и означает «бостон»,
    эта карта считается четырнадцатым козырем.»"""
    jd, a_s, ks, ad = (parse_card(x) for x in ("Jd", "As", "Ks", "Ad"))
    boston = jd
    assert trick_winner([(0, a_s), (1, jd), (2, ks), (3, parse_card("2h"))], S, boston) == 1
    # diamonds led: the boston is no diamond, it trumps
    assert trick_winner([(0, ad), (1, jd), (2, parse_card("Kd")), (3, parse_card("2d"))],
                        S, boston) == 1
    d = spade_deal()
    d.apply(1, bid(SENIOR))
    for s in (2, 3, 0):
        d.apply(s, pass_())
    assert (d.contract, d.trump, card_str(d.boston), d.boston_holder) == (SENIOR, S, "Jd", 1)
    d.apply(1, play("Jd"))  # the boston led is a trump lead: the dealer must follow with 2s
    d.apply(2, d.legal_actions()[0])
    d.apply(3, d.legal_actions()[0])
    assert [a.card for a in d.legal_actions()] == [parse_card("2s")]
    d.apply(0, play("2s"))
    assert d.tricks[0][1] == 1


def test_with_diamonds_trump_the_jack_of_hearts_is_the_boston():
    """«Если же в игре козырной назначается бубновая масть, то старшинство карт идет
    обычным образом, т. е. Туз, Король, Дама, Валет, 10 и т. д. до 2, а место бостона
    занимает Валет червей.»"""
    jh, ad, jd = parse_card("Jh"), parse_card("Ad"), parse_card("Jd")
    assert trick_winner([(0, ad), (1, jh), (2, jd), (3, parse_card("Kd"))], D, jh) == 1
    assert trick_winner([(0, jd), (1, parse_card("Qd"))], D, jh) == 1  # Q above J
    d = deal_of(["2d " + txt(rest("2d")[:12]), *[txt(rest("2d")[12 + 13 * i:25 + 13 * i])
                                                  for i in range(3)]], "2d", D)
    d.apply(1, bid(INDEPENDENCE, D))
    for s in (2, 3, 0):
        d.apply(s, pass_())
    assert card_str(d.boston) == "Jh"


# the two suits -------------------------------------------------------------------------------
def test_senior_suit_from_the_first_deal_junior_from_each_later_one():
    """«старшая масть указывается вскрытой при первой сдаче картой, она остается
    старшей на протяжении всей партии. В следующие сдачи масть, которую вскрывают,
    называют младшей. Если же случайно в одну из следующих сдач выйдет старшая масть,
    она остается старшей, и играют в старшую.»"""
    game = BostonGame({"simple_tours": 3, "double_tours": 0})
    seen_same = seen_other = False
    for seed in range(6):
        hand = game.new_hand(seed, 4)
        senior = hand.deal.turned & 3
        assert hand.deal.junior == -1  # the first deal has only the senior suit
        while not hand.is_over:
            d = hand.deal
            assert d.senior == senior
            bids = {a.contract for a in d.legal_actions() if a.kind == "bid"}
            if d.turned & 3 == senior:
                assert d.junior == -1 and not bids & {JUNIOR, NINE_JUNIOR}
                seen_same = seen_same or d.no > 0
            else:
                assert d.junior == d.turned & 3 and {JUNIOR, NINE_JUNIOR} <= bids
                seen_other = True
            hand.apply(pass_())
    assert seen_same and seen_other


# the ladder ------------------------------------------------------------------------------
def test_the_ladder_and_overcalls_destroy_lower_bids():
    """«Прикуп одного игрока уничтожается высшим прикупом другого игрока, Например, если
    один игрок прикупил в младшую масть, а второй в старшую, то прикуп в младшую масть
    уничтожается. Все прикупы располагаются в следующем порядке: прикуп младшей масти,
    прикуп старшей масти, прикуп соло или индепанданс, прикуп на 9 взяток в младшую,
    прикуп на 9 взяток в старшую, прикуп к мизеру.»"""
    d = spade_deal()
    d.junior = H
    first = [a.text() for a in d.legal_actions()]
    assert first == ["pass", "bid junior", "bid senior", "bid solo s", "bid solo h",
                     "bid independence c", "bid independence d", "bid independence h",
                     "bid independence s", "bid nine_junior", "bid nine_senior", "bid misere"]
    d.apply(1, bid(JUNIOR))
    d.apply(2, bid(SENIOR))             # the junior bid is destroyed
    assert d.high == bid(SENIOR) and d.high_seat == 2
    # seat 3 may support the senior bid or go higher, never lower or level
    assert [a.text() for a in d.legal_actions()][:4] == ["pass", "accept", "bid solo s",
                                                          "bid solo h"]
    d.apply(3, bid(SOLO, S))
    after = {a.contract for a in d.legal_actions() if a.kind == "bid"}
    assert after == {NINE_JUNIOR, NINE_SENIOR, MISERE}  # independence does not overcall solo
    with pytest.raises(IllegalAction):
        d.apply(0, bid(INDEPENDENCE, C))
    d.apply(0, pass_())
    d.apply(1, bid(NINE_SENIOR))        # the overcalled junior bidder is still in
    d.apply(2, pass_())
    d.apply(3, pass_())
    assert (d.phase, d.contract, d.declarer, d.supporter) == ("play", NINE_SENIOR, 1, -1)


def test_a_pass_is_final_and_a_bid_cannot_be_taken_back():
    """«После паса принимать участие в покупке уже нельзя. Если же было заявление о
    покупке, также не разрешается от него отказываться.»"""
    d = spade_deal()
    d.apply(1, pass_())
    d.apply(2, bid(SENIOR))
    d.apply(3, pass_())
    d.apply(0, pass_())
    # seat 1 passed: it is not asked again, and the bidder is never asked to pass
    assert d.phase == "play" and d.declarer == 2
    assert [s for s, _ in d.auction] == [1, 2, 3, 0]


def test_a_proposal_supported_makes_a_team_else_the_proposer_plays_alone():
    """«Когда первый игрок объявляет игру, его сосед, рассмотрев свои карты, имеет право
    или пасовать или принять вызов. В этом случае эти два игрока составляют команду…
    Если второй игрок пасует, то слово переходит к третьему игроку, а после его паса —
    к четвертому. Если объявившего игру никто не поддерживает, он обязан сам играть
    один против трех, но в этом случае он должен взять всего пять взяток.»"""
    d = spade_deal()
    d.apply(1, bid(SENIOR))
    d.apply(2, pass_())
    d.apply(3, accept())
    assert d.supporter == 3
    d.apply(0, pass_())
    assert (d.phase, d.declarer, d.supporter) == ("play", 1, 3)
    d = spade_deal()
    d.apply(1, bid(SENIOR))
    d.apply(2, accept())
    d.apply(3, bid(SOLO, S))            # an overcall destroys the bid and its support
    assert d.supporter == -1 and d.high_seat == 3
    for s in (0, 1, 2):
        d.apply(s, pass_())
    assert (d.declarer, d.supporter, d.contract) == (3, -1, SOLO)
    d = spade_deal()
    d.apply(1, bid(SENIOR))
    for s in (2, 3, 0):
        assert accept() in d.legal_actions()
        d.apply(s, pass_())
    assert (d.declarer, d.supporter) == (1, -1)


# the play ------------------------------------------------------------------------------------
def test_follow_suit_else_any_card_trumping_not_forced():
    """«Имеющий требуемую масть обязан сносить именно ее. Если у игрока при розыгрыше
    нет требуемой масти, он может перебивать карту козырем. Но когда ему выгодно, он
    имеет право придержать козырь, а выложить любую ненужную ему карту.»"""
    d = spade_deal()
    d.apply(1, bid(SENIOR))
    for s in (2, 3, 0):
        d.apply(s, pass_())
    d.apply(1, play("As"))
    hand2 = d.hands[2]
    assert not any(c & 3 == S for c in hand2)  # seat 2 has no spade: any card
    assert [a.card for a in d.legal_actions()] == hand2
    # the winner of a trick leads the next
    d2 = spade_deal()
    d2.apply(1, bid(SENIOR))
    for s in (2, 3, 0):
        d2.apply(s, pass_())
    for _ in range(4):
        d2.apply(d2.to_act, d2.legal_actions()[0])
    assert d2.tricks[0][1] == 1 and d2.to_act == 1  # the winner leads the next trick


def test_all_pass_doubles_the_kitty_and_the_deal_passes():
    """«В обязанности сдающего входит получение ставки с каждого игрока. Обычно ставка
    составляет 10 фишек, все ставки игроков, к которым сдающий присоединяет и свою,
    кладутся в общую кассу.» «Если пасуют все четверо игроков, то содержимое кассы
    должно быть удвоено и право сдачи переходит к следующему игроку.»"""
    game = BostonGame()
    hand = game.new_hand(1, 4, dealer=0)
    assert hand.kitty == 40 and hand.chips == [110.0] * 4  # 480 shared out, 10 staked
    for _ in range(4):
        hand.apply(pass_())
    r = hand.records[0]
    assert r.contract == "" and r.kitty == 80 and r.delta == (-20.0,) * 4
    assert hand.deal.dealer == 1 and hand.kitty == 120 and hand.chips == [90.0] * 4
    flat = BostonGame({"pass_doubles": False}).new_hand(1, 4, dealer=0)
    for _ in range(4):
        flat.apply(pass_())
    assert flat.records[0].kitty == 40


def test_a_game_is_eight_simple_and_two_double_tours_then_the_kitty_is_shared():
    """«В американском бостоне партию составляют 8 простых и 2 двойных тура. После того
    как партия заканчивается, все игроки должны дать согласие на раздел кассы.»
    «Перед началом игры берется 480 фишек, которые поровну распределяются между всеми
    играющими.»"""
    hand = BostonGame().new_hand(2, 4)
    while not hand.is_over:
        hand.apply(pass_())
    recs = hand.records
    assert len(recs) == 40 and [r.mult for r in recs] == [1] * 32 + [2] * 8
    assert [r.tour for r in recs[::4]] == list(range(10))
    assert hand.kitty == 0 and sum(hand.chips) == pytest.approx(480)
    assert hand.result().deltas == pytest.approx((0.0,) * 4)  # all passed: all even


def test_play_out_the_kitty_when_a_player_refuses_to_share_it():
    """«когда один игрок отказывается делить содержимое кассы, игра продолжается до тех
    пор, пока в кассе не останется ни одной фишки…» (option ``final = "play_out"``: the
    game goes on until a contract wins the kitty)."""
    game = BostonGame({"simple_tours": 1, "double_tours": 0, "final": "play_out"})
    hand = game.new_hand(4, 4, dealer=0)
    for _ in range(16):
        hand.apply(pass_())
    assert not hand.is_over and hand.deal.no == 4 and hand.kitty > 0
    hand.apply(bid(SENIOR))
    while not hand.is_over and hand.deal.no == 4:
        hand.apply(hand.legal_actions()[0] if hand.deal.phase == "play" else pass_())
    last = hand.records[-1]
    assert last.no == 4 and (hand.is_over == (last.made or hand.kitty == 0))


# the payments, hand by hand ----------------------------------------------------------------
def test_a_lone_proposal_made_takes_the_kitty_and_the_tariff_overtricks_double():
    """«Когда кроме объявившего игру все пасуют, игрок обязан играть самостоятельно и
    взять не менее пяти взяток, в этом случае он получает всю кассу и сверх того,
    заранее оговоренное количество фишек с каждого игрока.» «Если же игрок взял взятки
    сверх объявленных, то все они уплачиваются в два раза больше, чем объявленные.»
    Tariff senior 2 a trick: 5 tricks pay 10 from each; 7 tricks 2·(5 + 2·2) = 18."""
    delta, kitty = settle(O, Outcome(SENIOR, 1, -1, (2, 5, 3, 3), -1), 40.0, 1)
    assert delta == (-10.0, 70.0, -10.0, -10.0) and kitty == 0
    delta, kitty = settle(O, Outcome(SENIOR, 1, -1, (2, 7, 2, 2), -1), 40.0, 1)
    assert delta == (-18.0, 94.0, -18.0, -18.0) and kitty == 0


def test_a_lost_contract_pays_the_tariff_and_the_consolation_alone_the_kitty_goes():
    """«Тот из игроков, который не добирает своих взяток, … выплачивает каждому игроку
    дополнительно столько, сколько получил бы с них в случае выигрыша. Но и это еще не
    все, проигравший обязан уплатить так называемую консоляцию, т. е. каждому по две
    фишки.» Junior alone (1 a trick), 4 tricks: 5 + 2 to each of three, and the three
    share the kitty of 42 (``test_rule_readings_32`` quotes that rule); the labet
    instead with option ``lone_loss = "labet"``."""
    delta, kitty = settle(O, Outcome(JUNIOR, 2, -1, (3, 3, 4, 3), -1), 42.0, 1)
    assert delta == (21.0, 21.0, -21.0, 21.0) and kitty == 0
    lone_labet = BostonOptions(lone_loss="labet")
    delta, kitty = settle(lone_labet, Outcome(JUNIOR, 2, -1, (3, 3, 4, 3), -1), 40.0, 1)
    assert delta == (7.0, 7.0, -61.0, 7.0) and kitty == 80
    # option labet off concerns partnerships: alone, the kitty goes to the three anyway
    no_labet = BostonOptions(labet=False)
    assert settle(no_labet, Outcome(JUNIOR, 2, -1, (3, 3, 4, 3), -1), 42.0, 1) == \
        ((21.0, 21.0, -21.0, 21.0), 0.0)


def test_a_team_takes_eight_together_and_a_partner_who_made_his_quota_is_quits():
    """«Если играют вдвоем, то для того, чтобы забрать кассу, нужно взять не менее 8
    взяток. В случае выигрыша партнеры получают плату по тарифу.» «Покупающий обязан
    взять 5 взяток, а поддерживающий — 3 взятки.» «Другой партнер, который все
    объявленные взятки взял, не проигрывает и не выигрывает.» Senior (2 a trick), the
    proposer seat 0 and the supporter seat 2."""
    # made: 9 together, each opponent pays each partner 2·(8 + 2·1) = 20; kitty halved
    delta, kitty = settle(O, Outcome(SENIOR, 0, 2, (6, 2, 3, 2), -1), 40.0, 1)
    assert delta == (60.0, -40.0, 60.0, -40.0) and kitty == 0
    # made although the supporter fell short: the side's eight is what counts
    assert settle(O, Outcome(SENIOR, 0, 2, (7, 3, 1, 2), -1), 40.0, 1)[0][0] == 52.0
    # lost, 7 together: the proposer (4 < 5) pays 16 + 2 to each opponent and the labet
    delta, kitty = settle(O, Outcome(SENIOR, 0, 2, (4, 3, 3, 3), -1), 40.0, 1)
    assert delta == (-76.0, 18.0, 0.0, 18.0) and kitty == 80
    # lost, the supporter short (5 + 2): he pays, the proposer is quits
    delta, kitty = settle(O, Outcome(SENIOR, 0, 2, (5, 3, 2, 3), -1), 40.0, 1)
    assert delta == (0.0, 18.0, -76.0, 18.0) and kitty == 80
    # both short: both pay, each laying what lay in the kitty
    delta, kitty = settle(O, Outcome(SENIOR, 0, 2, (3, 4, 2, 4), -1), 40.0, 1)
    assert delta == (-76.0, 36.0, -76.0, 36.0) and kitty == 120


def test_solo_and_independence_eight_alone_nine_nine_alone():
    """«прикуп соло (8 взяток) или индепанданс (8 взяток в указанной масти), прикуп на 9
    взяток в младшую, прикуп на 9 взяток в старшую» «Тот игрок, который покупает соло,
    должен взять 8 взяток, если он берет меньшее количество взяток, то обязан
    заплатить по тарифу игры.» Tariffs: solo, independence 3; nine junior 4, senior 5."""
    assert settle(O, Outcome(SOLO, 3, -1, (1, 2, 2, 8), -1), 40.0, 1)[0] == \
        (-24.0, -24.0, -24.0, 112.0)
    assert settle(O, Outcome(INDEPENDENCE, 3, -1, (1, 1, 1, 10), -1), 0.0, 1)[0] == \
        (-36.0, -36.0, -36.0, 108.0)
    # lost alone: the tariff and the consolation to each, and the kitty to the three
    assert settle(O, Outcome(SOLO, 3, -1, (2, 2, 2, 7), -1), 42.0, 1) == \
        ((40.0, 40.0, 40.0, -78.0), 0.0)
    assert settle(O, Outcome(NINE_JUNIOR, 1, -1, (1, 9, 2, 1), -1), 40.0, 1)[0] == \
        (-36.0, 148.0, -36.0, -36.0)
    assert settle(O, Outcome(NINE_SENIOR, 1, -1, (1, 8, 2, 2), -1), 42.0, 1) == \
        ((61.0, -141.0, 61.0, 61.0), 0.0)


def test_misere_takes_no_trick_without_trumps_and_without_the_boston():
    """«прикуп к мизеру (т. е. стараться не взять ни одной взятки).» «Допускается
    прикуп к мизеру, в случае, если мизер решен, то игра продолжается без козырей или
    без бостона. Тот игрок, который выигрывает мизер, получает кассу и сверх того, с
    каждого игрока заранее оговоренную сумму. Если он выигрывает, то ни он, ни ему
    бостона не платят. Однако в случае проигрыша … он также обязан заплатить
    определенную сумму игрокам.» Misère tariff: a flat 30."""
    assert settle(O, Outcome(MISERE, 0, -1, (0, 5, 4, 4), 2), 40.0, 1) == \
        ((130.0, -30.0, -30.0, -30.0), 0.0)
    assert settle(O, Outcome(MISERE, 0, -1, (1, 5, 4, 3), 2), 42.0, 1) == \
        ((-96.0, 46.0, 46.0, 46.0), 0.0)
    d = spade_deal()
    d.apply(1, bid(MISERE))
    for s in (2, 3, 0):
        d.apply(s, pass_())
    assert (d.trump, d.boston, d.boston_holder) == (-1, -1, -1)
    # the jack of diamonds is an ordinary diamond: the ace takes it
    assert trick_winner([(0, parse_card("Jd")), (1, parse_card("Ad"))], -1, -1) == 1
    kept = spade_deal()
    kept.misere_trump = True           # option misere = "no_boston": trumps, no boston
    kept.apply(1, bid(MISERE))
    for s in (2, 3, 0):
        kept.apply(s, pass_())
    assert (kept.trump, kept.boston) == (S, -1)


def test_the_boston_holder_is_paid_two_by_each_and_double_tours_double():
    """«Тот игрок, который имеет бостон, дополнительно получает с каждого игрока по 2
    фишки.» «8 простых и 2 двойных тура» (a double tour doubles every fixed payment)."""
    delta, _ = settle(O, Outcome(SENIOR, 1, -1, (2, 5, 3, 3), 3), 40.0, 1)
    assert delta == (-12.0, 68.0, -12.0, -4.0)
    delta, _ = settle(O, Outcome(SENIOR, 1, -1, (2, 5, 3, 3), 1), 40.0, 2)
    assert delta == (-24.0, 112.0, -24.0, -24.0)


def test_a_whole_deal_through_the_game_all_thirteen_tricks_with_the_boston():
    """The real path: stake, bidding, play, payments. Seat 1 holds twelve spades and the
    boston, bids senior (spades, the dealer turned 2s) alone and takes all 13 tricks:
    the kitty 40, from each opponent 2·(5 + 2·8) = 42, the boston 2 from each."""
    game = BostonGame()
    hand = game.new_hand(0, 4, dealer=0)
    hand.deal = spade_deal()
    hand.senior = S
    hand.apply(bid(SENIOR), 1)
    for s in (2, 3, 0):
        hand.apply(pass_(), s)
    while hand.deal.no == 0:
        hand.apply(hand.legal_actions()[0])
    r = hand.records[0]
    assert r.tricks == (0, 13, 0, 0) and r.made and r.boston_holder == 1
    assert r.delta == (-54.0, 162.0, -54.0, -54.0) and r.kitty == 0
    assert sum(hand.chips) + hand.kitty == pytest.approx(480)


# options, actions, errors ----------------------------------------------------------------
@pytest.mark.parametrize("bad, word", [({"stake": -1}, "stake"), ({"misere": "x"}, "misere"),
                                       ({"tariff": {"grand": 3}}, "grand"),
                                       ({"simple_tours": 0, "double_tours": 0}, "tour"),
                                       ({"lone_loss": "bete"}, "lone_loss"),
                                       ({"jokers": 1}, "jokers")])
def test_bad_options_are_one_clear_error(bad, word):
    """Every option is checked; the message names the field."""
    with pytest.raises(BostonError, match=word) as err:
        BostonGame(bad)
    assert isinstance(err.value, UserError) and "\n" not in str(err.value)


def test_defaults_are_the_documents():
    """«берется 480 фишек» «Обычно ставка составляет 10 фишек» «каждому по две фишки»
    «получает с каждого игрока по 2 фишки» «8 простых и 2 двойных тура»."""
    assert (O.chips, O.stake, O.consolation, O.boston_bonus, O.simple_tours,
            O.double_tours, O.misere, O.final, O.labet, O.lone_loss) == \
        (480, 10, 2, 2, 8, 2, "no_trumps", "split", True, "kitty")


def test_actions_text_and_json_round_trip_and_bad_ones_are_illegal_actions():
    """The HTTP forms: every legal action survives its JSON form; junk is refused."""
    fam = family("boston")
    d = spade_deal()
    d.junior = H
    for a in d.legal_actions() + [accept(), play("As")]:
        assert parse_action(a.text()) == a
        assert fam.parse_action(fam.action_json(a), None) == a == action_from_json(a.as_json())
    for junk in ("bid", "bid solo", "bid junior h", "bid solo x", "bid solo cd", "play Zz",
                 "fold", ""):
        with pytest.raises(IllegalAction):
            parse_action(junk)
    for junk in (None, [], {"kind": "bid", "contract": "grand"}, {"kind": "play"}):
        with pytest.raises(IllegalAction):
            fam.parse_action(junk, None)


def test_an_illegal_action_or_the_wrong_seat_changes_nothing():
    """An illegal action raises and leaves the game as it was."""
    hand = BostonGame().new_hand(5, 4)
    seat = hand.to_act
    before = (hand.observation(seat), list(hand.log), hand.kitty)
    for a, who in ((play("As"), seat), (accept(), seat), (pass_(), (seat + 1) % 4)):
        with pytest.raises(IllegalAction):
            hand.apply(a, who)
    assert (hand.observation(seat), list(hand.log), hand.kitty) == before
