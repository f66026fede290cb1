"""Variety («варьете», ../shared/seeds/001_…) against the document, hand by hand: the
bidding and its worked example, the partnerships, who leads, following suit, who takes
a trick (the lowest-card contract included), each contract's scoring, the defenders'
bonus, the tour, the options, and the family's JSON forms and score record (issue 18)."""

from __future__ import annotations

import pickle

import pytest

from pokerarena.cards import parse_cards
from pokerarena.engine.actions import IllegalAction
from pokerarena.errors import UserError
from pokerarena.games import family, family_ids
from pokerarena.games.variety import (
    VarietyError,
    VarietyGame,
    action_from_json,
    bid,
    parse_action,
    play,
)
from pokerarena.games.variety.deal import Deal, legal_cards, trick_taker
from pokerarena.games.variety.rules import CONTRACT_RULES, VarietyOptions

C, D, H, S = range(4)


def rigged(hands: list[str], bids: list[int], dealer: int = 3, **options):
    """A one-deal tour whose deal has the given hands (seat 0 first), after ``bids``
    (from the dealer's left), scored by the real path."""
    game = VarietyGame({"deals": 1, **options})
    hand = game.new_hand(0, 4, dealer=dealer)
    hand.deal = Deal(0, game.options, dealer, [parse_cards(h) for h in hands])
    for b in bids:
        hand.apply(bid(b))
    return hand


def play_cards(hand, cards: str) -> None:
    """Play ``cards`` in turn, each by the seat to act."""
    for c in parse_cards(cards):
        hand.apply(play(c))


def others(contract: int) -> list[int]:
    """Two more contracts, different from ``contract`` and from each other."""
    return [contract % 8 + 1, (contract + 1) % 8 + 1]


# -- the bidding --------------------------------------------------------------------------
def test_the_documents_bidding_example():
    """«Например, от игроков поступают такие заявки на розыгрыш: в первом туре - 1, 2, 3,
    4; во втором туре - 5, 6, 7, 8; в третьем туре - 7, 5, 4, 2. В третьем туре
    совпадение по порядку поступления заявок имеется у первого и третьего игроков.
    Значит, они будут разыгрывать седьмой вариант розыгрыша против второго и четвертого
    игроков. Начинает игрок, сидящий слева от участника торговли, который первым сделал
    заявку на данный розыгрыш. В разбираемом случае - слева от третьего игрока.»

    The first player is the dealer's left («Сидящий слева от сдатчика начинает
    торговлю»): with seat 3 dealing, players one to four are seats 0 to 3."""
    hand = VarietyGame().new_hand(1, 4, dealer=3)
    example = [1, 2, 3, 4, 5, 6, 7, 8, 7, 5, 4, 2]
    for i, c in enumerate(example):
        assert hand.to_act == i % 4 and hand.deal.phase == "bid"
        hand.apply(bid(c), i % 4)
    d = hand.deal
    assert d.bids == [(i % 4, c) for i, c in enumerate(example)]
    assert d.contract == 7 and d.attackers == (0, 2)      # the first and third players
    assert d.first_bidder == 2 and d.leader == 3          # left of the third player
    assert d.phase == "play" and hand.to_act == 3
    view = hand.observation(1)
    assert view.attackers == (0, 2) and view.partner == 3 and view.contract == 7
    assert view.trump == S and not view.low_wins          # «Козыри пики»


def test_bidding_may_stop_at_the_first_match():
    """«торговаться можно несколько туров, пока две заявки не совпадут» (option
    ``finish_round=False``): the example stops at the first player's 7 in the third
    round, with the same pairs, contract and leader."""
    hand = VarietyGame({"finish_round": False}).new_hand(1, 4, dealer=3)
    for c in [1, 2, 3, 4, 5, 6, 7, 8, 7]:
        hand.apply(bid(c))
    d = hand.deal
    assert d.phase == "play" and len(d.bids) == 9
    assert (d.contract, d.attackers, d.leader) == (7, (0, 2), 3)


def test_no_player_names_the_same_contract_twice():
    """«В процессе игры один участник не может дважды делать заявку на один и тот же
    розыгрыш. Поэтому торговаться можно несколько туров». An illegal bid is refused and
    changes nothing."""
    hand = VarietyGame().new_hand(2, 4, dealer=3)
    for c in [1, 2, 3, 4]:
        hand.apply(bid(c))
    assert [a.contract for a in hand.legal_actions()] == [2, 3, 4, 5, 6, 7, 8]
    before = (list(hand.deal.bids), hand.to_act, list(hand.log))
    with pytest.raises(IllegalAction, match="cannot bid 1"):
        hand.apply(bid(1))
    with pytest.raises(IllegalAction, match="out of turn"):
        hand.apply(bid(5), 2)
    assert (hand.deal.bids, hand.to_act, hand.log) == before


def test_two_matching_bids_make_the_pairs_and_the_others_defend():
    """«Если при торговле одна из заявок будет сделана двумя участниками, они становятся
    партнерами и разыгрывают свой вариант. Двое остальных игроков автоматически
    становятся их контрпартнерами. Торговля заявок идет по часовой стрелке.» A match in
    the first round: the round is bid out, later matches count for nothing."""
    hand = VarietyGame().new_hand(3, 4, dealer=1)
    assert hand.to_act == 2                                # the dealer's left bids first
    for c in [6, 6, 6]:                                    # seats 2, 3, then 0
        hand.apply(bid(c))
    assert hand.deal.phase == "bid" and hand.to_act == 1   # the dealer ends the round
    hand.apply(bid(1))
    d = hand.deal
    assert (d.contract, d.attackers, d.first_bidder, d.leader) == (6, (2, 3), 2, 3)
    assert d.partner(0) == 1 and d.partner(2) == 3


def test_four_players_always_match_by_the_first_bid_of_the_third_round():
    """«пока две заявки не совпадут»: eight different bids name every contract, so the
    third round's first bid matches one, whatever it is."""
    for first in range(1, 9):
        hand = VarietyGame({"finish_round": False}).new_hand(0, 4, dealer=3)
        for c in [1, 2, 3, 4, 5, 6, 7, 8]:
            hand.apply(bid(c))
        if first in (1, 5):
            continue  # seat 0 named them already
        hand.apply(bid(first))
        assert hand.deal.phase == "play"
        assert hand.deal.attackers == tuple(sorted((0, (first - 1) % 4)))


# -- the play ------------------------------------------------------------------------------
def test_follow_suit_but_trumping_or_overtaking_is_not_required():
    """«Ходить обязательно в масть. Но при отсутствии масти козырем бить не обязательно,
    так же как и перебивать старшей картой.»"""
    hand = parse_cards("2h9hAc3d")
    assert legal_cards(hand, H) == parse_cards("2h9h")    # a low heart is legal too
    assert legal_cards(hand, S) == sorted(hand)           # void: any card, trump or not
    assert legal_cards(hand, -1) == sorted(hand)          # leading: any card


@pytest.mark.parametrize(("contract", "trick", "taker"), [
    (1, "2hAs3hKh", 3),   # no trumps: the highest card of the led suit
    (2, "2hAh3c4c", 3),   # clubs trump: the highest trump
    (3, "KsAs2h3d", 2),   # hearts trump: a trump on a spade lead
    (8, "5dAc4dKd", 3),   # no trumps: another suit never takes
    (6, "5h7h3hAh", 2),   # the lowest card of the led suit
    (6, "4d9cKd2d", 1),   # one trump takes the trick
    (6, "2h3c2c8s", 2),   # two trumps: the lower one
])
def test_who_takes_the_trick(contract, trick, taker):
    """«Розыгрыш шестого типа требует внимательности игроков, поскольку взятка берется
    младшей картой данной масти. Если в ней два козыря, то взятка берется младшим
    козырем из двух.» Elsewhere the highest trump, else the highest card of the led
    suit («Старшинство карт от туза до двойки»)."""
    plays = list(enumerate(parse_cards(trick)))
    assert trick_taker(plays, contract) == taker


def test_the_taker_leads_the_next_trick():
    """«Ходит игрок, которому досталась предыдущая взятка.»"""
    hand = rigged(["As2h", "Ks3h", "Qs4h", "Js5h"], [8, 8, 1, 2])
    assert hand.to_act == 1                                # left of seat 0, who bid 8 first
    play_cards(hand, "KsQsJsAs")
    assert hand.deal.tricks[0][1] == 0 and hand.to_act == 0


# -- each contract's scoring ---------------------------------------------------------------
# (contract, hands of seats 0-3, the cards in play order, tricks per seat, points per
# seat). Seats 0 and 1 attack (seat 0 names the contract first, seat 1 matches it), so
# seat 1 leads; seats 2 and 3 defend.
SCORING = [
    # «Без козырей. За взятие наибольшего количества взяток - 12 плюсовых очков.»
    (1, ["AsKsQs", "AhKhQh", "2s3s4s", "2h3h4h"], "Ah2s2hAs Kh3s3hKs Qh4s4hQs",
     (0, 3, 0, 0), (12, 12, 0, 0)),
    # «Козырная масть трефы. За каждую взятку - 2 плюсовых очка.» The defence takes all
    # three: the attack has fewer plus points, each defender gets his 6 and 10 more.
    (2, ["2d3d4d", "2h3h4h", "AcKcQc", "5h6h7h"], "2hAc5h2d Kc6h3d3h Qc7h4d4h",
     (0, 0, 3, 0), (0, 0, 16, 16)),
    # «Козыри червы. За каждую пиковую карту - 2 плюсовых очка.» Four spades in seat 0's
    # trick, none in seat 3's two: the cards pay, not the tricks.
    (3, ["As2d3d", "Ks4d5d", "2s6d7d", "3s8d9d"], "Ks2s3sAs 2d4d6d8d 9d3d5d7d",
     (1, 0, 0, 2), (8, 8, 0, 0)),
    # «Козыри бубны. За каждую карту красной масти - 1 плюсовое очко, черной масти -
    # одно минусовое очко.» Attack: 5 red, 3 black; defence nothing: more minus points.
    (4, ["Ad2c", "3h5d", "5h3c", "6h4c"], "3h5h6hAd 2c5d3c4c",
     (1, 1, 0, 0), (2, 2, 10, 10)),
    # «Козыри пики. За каждую взятую черную десятку и валета - 5 плюсовых очков; за
    # красную десятку и валета - 5 минусовых очков.» Tc Jc Ts +15, Th Jh -10.
    (5, ["TsJh", "Tc2d", "Jc3d", "Th4d"], "TcJcThTs Jh2d3d4d",
     (2, 0, 0, 0), (5, 5, 10, 10)),
    # «Козыри трефы. За каждую красную карту - одно плюсовое очко, взятку берет самая
    # низкая карта по взятке.» 3h takes the hearts, 9c the diamonds, 2c under 3c the
    # last: attack 3 red cards, defence 5.
    (6, ["2hAh9c", "5hKd3c", "7h2d2c", "3h4d8s"], "5h7h3hAh 4d9cKd2d 2h3c2c8s",
     (1, 0, 1, 1), (3, 3, 15, 15)),
    # «Козыри пики. За каждую трефовую карту - 2 минусовых очка.» The defence takes the
    # four clubs: more minus points, no bonus, the attack's 0 stands.
    (7, ["2c3c", "Ac4d", "Kc5d", "2s6d"], "AcKc2s2c 6d3c4d5d",
     (0, 0, 0, 2), (0, 0, -8, -8)),
    # «Без козырей. За каждую взятку - 2 минусовых очка.»
    (8, ["As5h", "Ks3h", "Qs4h", "Js2h"], "KsQsJsAs 5h3h4h2h",
     (2, 0, 0, 0), (-4, -4, 10, 10)),
]


@pytest.mark.parametrize(("contract", "hands", "cards", "tricks", "points"), SCORING,
                         ids=[f"contract{s[0]}" for s in SCORING])
def test_each_contracts_scoring_hand_by_hand(contract, hands, cards, tricks, points):
    """«Если в данном розыгрыше атакующая пара получила меньше плюсовых или больше
    минусовых очков, чем контрпартнеры, ей засчитывается проигрыш. Фактически
    выигранные очки записываются каждому игроку на отдельный счет, а обороняющейся паре
    за выигрыш - каждому добавляется по 10 плюсовых очков.» Each contract's own words
    are in :data:`SCORING`."""
    hand = rigged(hands, [contract, contract, *others(contract)])
    assert hand.deal.attackers == (0, 1) and hand.to_act == 1
    play_cards(hand, cards.replace(" ", ""))
    assert hand.is_over
    r = hand.result().deals[0]
    assert r.contract == contract and r.tricks == tricks and r.points == points
    assert hand.result().totals == points
    assert r.attack_lost == (contract in (2, 4, 5, 6, 8))


def test_a_tie_is_not_a_loss():
    """«получила меньше плюсовых или больше минусовых очков» — equal points are neither:
    no bonus (the lowest-card contract, 4 red cards to each pair)."""
    hand = rigged(["2hAh9c", "5hKd3c", "7h2dQs", "3h4d8s"], [6, 6, 1, 2])
    play_cards(hand, "5h7h3hAh4d9cKd2d2h3cQs8s")
    r = hand.result().deals[0]
    assert not r.attack_lost and r.points == (4, 4, 4, 4)


@pytest.mark.parametrize(("contract", "points", "net_points"), [
    (1, (12, 12, 0, 0), (12, 12, 0, 0)),
    (2, (26, 26, 0, 0), (26, 26, 0, 0)),
    (3, (0, 0, 36, 36), (0, 0, 36, 36)),
    (4, (0, 0, 10, 10), (0, 0, 0, 0)),
    (5, (0, 0, 10, 10), (0, 0, 0, 0)),
    (6, (26, 26, 0, 0), (26, 26, 0, 0)),
    (7, (0, 0, -26, -26), (0, 0, -26, -26)),
    (8, (-26, -26, 10, 10), (-26, -26, 10, 10)),
])
def test_a_whole_deal_of_one_suit_each(contract, points, net_points):
    """Thirteen tricks, each seat holding one suit: the trump's holder takes every trick
    (the leader, seat 1, in the no-trump contracts), so one seat takes the whole deck.
    «Козыри бубны»: 26 plus and 26 minus points are more minus points than the
    defence's none (``compare="separate"``), and no loss by net points (``"net"``)."""
    hands = ["".join(f"{r}{s}" for r in "23456789TJQKA") for s in "cdhs"]
    for compare, expected in (("separate", points), ("net", net_points)):
        hand = rigged(hands, [contract, contract, *others(contract)], compare=compare)
        while not hand.is_over:
            hand.apply(hand.legal_actions()[-1])
        r = hand.result().deals[0]
        assert r.points == expected, compare
        trump = CONTRACT_RULES[contract][0]
        assert r.tricks[1 if trump < 0 else trump] == 13


def test_own_credit_scores_each_players_own_tricks():
    """«Фактически выигранные очки записываются каждому игроку на отдельный счет» read
    as each player's own tricks (``credit="own"``): seat 0 took both tricks of contract
    5; contract 1's 12 go to the player with the most tricks, shared on a tie."""
    hand = rigged(["TsJh", "Tc2d", "Jc3d", "Th4d"], [5, 5, 6, 7], credit="own")
    play_cards(hand, "TcJcThTsJh2d3d4d")
    assert hand.result().totals == (5, 0, 10, 10)
    hand = rigged(["As2h", "Ks3h", "Qs4h", "Js5h"], [1, 1, 2, 3], credit="own")
    play_cards(hand, "KsQsJsAs2h3h4h5h")                   # seats 0 and 3 take one each
    assert hand.result().totals == (6, 0, 0, 6)


# -- the tour and the options --------------------------------------------------------------
def test_a_tour_is_eight_deals_dealt_in_turn():
    """«Первого сдатчика определяет жребий, затем сдают по очереди.» «Полный тур состоит
    из восьми раздач, то есть каждый игрок участвует в торговле дважды. По желанию тур
    можно расширить или сократить.» Every deal gives 13 cards to each player."""
    hand = VarietyGame().new_hand(11, 4, dealer=2)
    dealers = []
    while not hand.is_over:
        d = hand.deal
        if not d.bids:
            dealers.append(d.dealer)
            assert sorted(c for h in d.hands for c in h) == list(range(52))
            assert [len(h) for h in d.hands] == [13] * 4 and hand.to_act == (d.dealer + 1) % 4
        hand.apply(hand.legal_actions()[0])
    assert dealers == [2, 3, 0, 1, 2, 3, 0, 1]
    assert len(hand.result().deals) == 8
    assert hand.result().totals == tuple(sum(r.points[s] for r in hand.result().deals)
                                         for s in range(4))
    short = VarietyGame({"deals": 3}).new_hand(11, 4)
    while not short.is_over:
        short.apply(short.legal_actions()[0])
    assert len(short.result().deals) == 3
    lots = {VarietyGame().new_hand(s, 4).first_dealer for s in range(30)}
    assert lots == {0, 1, 2, 3}                            # drawn by lot from the seed


def test_the_options_defaults_and_one_clear_error_each():
    """The defaults are the document's (eight deals, ten points a defender); each bad
    option is one :class:`VarietyError` naming it."""
    o = VarietyOptions()
    assert (o.deals, o.finish_round, o.credit, o.compare, o.defender_bonus) == \
        (8, True, "pair", "separate", 10)
    hand = rigged(["2d3d4d", "2h3h4h", "AcKcQc", "5h6h7h"], [2, 2, 3, 4], defender_bonus=0)
    play_cards(hand, "2hAc5h2dKc6h3d3hQc7h4d4h")
    assert hand.result().totals == (0, 0, 6, 6)
    for bad, field in (({"deals": 0}, "deals"), ({"credit": "team"}, "credit"),
                       ({"compare": "x"}, "compare"), ({"defender_bonus": -1}, "defender_bonus"),
                       ({"jokers": 1}, "jokers")):
        with pytest.raises(VarietyError, match=field) as err:
            VarietyGame(bad)
        assert isinstance(err.value, UserError) and "\n" not in str(err.value)
    with pytest.raises(VarietyError, match="4 players"):
        VarietyGame().new_hand(0, 3)
    with pytest.raises(VarietyError, match="dealer"):
        VarietyGame().new_hand(0, 4, dealer=4)


# -- the family: views, JSON, record -------------------------------------------------------
def test_the_family_is_registered_with_every_field():
    fam = family("variety")
    assert "variety" in family_ids() and fam.players == (4, 4) and fam.deck == "52"
    assert {"random", "rule", "sim"} <= set(fam.bots)
    for name in ("make", "new_bot", "view_json", "action_json", "parse_action",
                 "record", "record_rows"):
        assert getattr(fam, name) is not None, name
    assert fam.make({"deals": 2}).options.deals == 2
    assert pickle.loads(pickle.dumps(fam)) == fam          # remote workers receive it
    assert fam.new_bot("rule", 1).name == "rule"
    with pytest.raises(UserError, match="unknown bot"):
        fam.new_bot("nobody", 1)


def test_a_view_shows_only_the_seats_own_cards_and_the_json_forms_round_trip():
    """Each seat sees its own hand, the bids (spoken aloud), the trick; never another
    hand. The actions' JSON and text forms parse back; a bad one is an IllegalAction."""
    fam = family("variety")
    hand = VarietyGame().new_hand(4, 4, dealer=0)
    hand.apply(bid(3))
    view = hand.observation(2)
    assert set(view.hand) == set(hand.deal.hands[2]) and hand.observation(3).legal == ()
    data = fam.view_json(view)
    assert len(data["hand"]) == 13 and data["to_act"] == 2 and data["phase"] == "bid"
    assert data["bids"] == [{"seat": 1, "contract": 3}] and data["contract"] is None
    text = str(data)
    for s in (0, 1, 3):
        assert not any(card_text in text for card_text in
                       [f"'{c}'" for c in fam.view_json(hand.observation(s))["hand"]])
    mover = fam.view_json(hand.observation(2))
    assert mover["legal"] == [{"kind": "bid", "contract": c} for c in range(1, 9)]
    for a in (bid(7), play("Td")):
        assert fam.parse_action(fam.action_json(a), view) == a
        assert parse_action(a.text()) == a and fam.parse_action(a.text(), view) == a
    for bad in ({"kind": "bid", "contract": 9}, {"kind": "play", "card": "Zz"}, {"kind": "pass"},
                [1], {"kind": "bid", "contract": True}, {"kind": "play", "card": "Jk"}):
        with pytest.raises(IllegalAction):
            action_from_json(bad)
    for bad in ("bid 0", "play", "fold", "play Jk"):
        with pytest.raises(IllegalAction):
            parse_action(bad)


def test_the_score_record_has_one_row_per_deal_and_seat():
    fam = family("variety")
    hand = rigged(["2d3d4d", "2h3h4h", "AcKcQc", "5h6h7h"], [2, 2, 3, 4])
    play_cards(hand, "2hAc5h2dKc6h3d3hQc7h4d4h")
    rows = fam.record_rows(hand)
    names = [c[0] for c in fam.record.columns]
    assert len(rows) == 4 and all(len(r) == len(names) for r in rows)
    row = dict(zip(names, rows[2], strict=True))
    assert row["seat"] == 2 and row["contract"] == 2 and row["attacker"] is False
    assert row["partner"] == 3 and row["bids"] == "3" and row["tricks"] == 3
    assert row["plus"] == 6 and row["points"] == 16 and row["attack_lost"] is True
    assert dict(zip(names, rows[0], strict=True))["bids"] == "2"
    kinds = {"string", "bool", "int8", "int16", "int32", "int64", "double"}
    assert all(kind in kinds for _, kind, _ in fam.record.columns)
