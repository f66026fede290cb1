"""American durak («Дурак американский», ``001_…``), bout by bout against the document,
its worked example deal move by move."""

from __future__ import annotations

from typing import Any

import pytest

from pokerarena.cards import parse_card, parse_cards, suit_of
from pokerarena.engine.actions import IllegalAction
from pokerarena.games import family
from pokerarena.games.durak.actions import (
    PASS_ACTION,
    TAKE_ACTION,
    action_from_json,
    beat,
    parse_action,
    throw,
)
from pokerarena.games.durak.game import DEFEND, LEAD, THROWING, DurakGame
from pokerarena.games.durak.rules import DurakError, beats

C = parse_cards


def _example(stock: str = ""):
    """«играют двое, козырь черва, у 1-го игрока 6 бубны, 8 бубны, 10 пик, дама бубны,
    9 червы и дама червы, у 2-го игрока 6 пик, 7 бубны, туз бубны, туз пик, 8 червы и
    10 червы»; seat 0 is the 1st player, seat 1 the 2nd."""
    one, two = C("6d 8d Ts Qd 9h Qh"), C("6s 7d Ad As 8h Th")
    game = DurakGame()
    cards = C(stock)
    trump = cards[-1] if cards else C("9h")[0]
    return game.arranged([one, two], cards, attacker=0, trump_card=trump)


def test_the_documents_example_deal_move_by_move() -> None:
    """«1-й игрок ходит ко 2-му игроку 6 бубны, 2-й игрок бьёт 7 бубны. Затем 1-й игрок
    говорит, что у него нечего подкидывать, а 2-й выкладывает из своих карт 6 пик и бьёт
    тузом пик. Далее, он выкладывает туза бубны (то есть, можно подкидывать и те карты,
    которыми бился сам 2-й игрок) и перебивает его 8 червы. 2-й игрок заявляет, что у
    него самого карт для подкидывания самому себе нет, и тогда 1-й игрок подкидывает 8
    бубны, а 2-ой уже отбивается своей последней картой – 10 черва.»"""
    h = _example()
    assert h.trump == suit_of(C("2h")[0])
    steps = [(0, throw("6d")), (1, beat("7d")), (0, PASS_ACTION), (1, throw("6s")),
             (1, beat("As")), (1, throw("Ad")), (1, beat("8h")), (1, PASS_ACTION),
             (0, throw("8d")), (1, beat("Th"))]
    for seat, action in steps:
        assert h.to_act == seat, (seat, action)
        assert action in h.legal_actions(), (seat, action)
        h.apply(action, seat)
    # the 1st player had nothing to throw after 6d/7d: only the pass was his
    assert h.table == [] and sorted(h.discard) == sorted(C("6d 7d 6s As Ad 8h 8d Th"))
    # «пока не останется один игрок с картами на руках. Этот игрок … зовется "дураком"»
    assert h.is_over and h.result().durak == 0 and h.result().deltas == (-1.0, 0.0)
    assert h.hands[0] == C("Ts Qd 9h Qh")


def test_the_example_offers_exactly_the_documents_choices() -> None:
    """«1-й игрок говорит, что у него нечего подкидывать»: after 6d/7d the 1st player may
    only pass; «2-й игрок заявляет, что у него самого карт для подкидывания самому себе
    нет»: after Ad/8h the 2nd holds only 10h, no rank on the table."""
    h = _example()
    h.apply(throw("6d"))
    assert set(h.legal_actions()) == {beat("7d"), beat("Ad"), beat("8h"), beat("Th"),
                                      TAKE_ACTION}
    h.apply(beat("7d"))
    assert h.phase == THROWING and h.legal_actions() == (PASS_ACTION,)
    h.apply(PASS_ACTION)
    assert h.to_act == 1 and set(h.legal_actions()) == {throw("6s"), PASS_ACTION}
    for a in (throw("6s"), beat("As"), throw("Ad"), beat("8h")):
        h.apply(a)
    assert h.to_act == 1 and h.legal_actions() == (PASS_ACTION,)  # 10h left, one card
    h.apply(PASS_ACTION)
    assert h.to_act == 0 and set(h.legal_actions()) == {throw("8d"), PASS_ACTION}


def test_beating_same_suit_higher_or_a_trump() -> None:
    """«положить карту старшего значения той же масти. Если карта … не является
    козырем, то можно отбить ее козырем. Если эта карта козырь, то … козырной картой
    старшего значения.»"""
    h = C("2h")[0] & 3

    def b(defence: str, attack: str) -> bool:
        return beats(parse_card(defence), parse_card(attack), h)

    assert b("7d", "6d") and not b("6d", "7d")
    assert b("2h", "Ad") and not b("As", "Ad")
    assert b("Th", "8h") and not b("8h", "Th") and not b("Ad", "2h")


def test_taking_the_table_and_drawing_attacker_first() -> None:
    """«Если игрок, который отбивается, не отобьет выложенные карты, то он забирает карты
    себе. После чего все игроки, у которых карт менее шести добирают карты из колоды до
    шести, первым берет игрок, который делал первый ход, затем берет карту игрок,
    который отбивался.»"""
    h = _example("Kc Kd Ks 9c")  # the trump card 9c under the stock: clubs are trumps
    h.apply(throw("6d"))
    h.apply(TAKE_ACTION)
    assert sorted(h.hands[1]) == sorted(C("6s 7d Ad As 8h Th 6d"))
    assert sorted(h.hands[0]) == sorted(C("8d Ts Qd 9h Qh Kc"))  # the attacker drew first
    assert h.stock == C("9c Ks Kd") and h.takes == [0, 1]
    # a reading: the one who took loses his turn; the attacker leads again (two players)
    assert h.phase == LEAD and h.attacker == 0 and h.defender == 1


def test_beaten_off_the_defender_leads_next_and_both_draw() -> None:
    """«все выложенные карты уходят в отбой»; then both draw to six, the attacker first;
    the one who beat the attack off leads next (a reading, the usual custom)."""
    h = _example("Kc Kd Ks Jc 9c")
    for a in (throw("6d"), beat("7d"), PASS_ACTION, PASS_ACTION):
        h.apply(a)
    assert h.discard == C("6d 7d") and len(h.hands[0]) == 6 and len(h.hands[1]) == 6
    assert C("Kc")[0] in h.hands[0] and C("Kd")[0] in h.hands[1]
    assert h.attacker == 1 and h.defender == 0 and h.phase == LEAD


def test_throw_ins_go_round_from_the_attacker_clockwise() -> None:
    """«Когда игрок отбил эту карту, то другие игроки могут подкидывать карты того же
    значения … Право подкидывать первым принадлежит игроку, который сделал первый ход,
    далее право подкидывать переходит к другим игрокам по часовой стрелке.» Three
    players: 0 attacks 1 (on his left); after the beat 0, then 1 (to himself), then 2."""
    game = DurakGame()
    hands = [C("6d 8d Ts Qd 9h Qh"), C("6s 7d Ad As 8h Th"), C("6c 7c Jd Kd Ac 9s")]
    h = game.arranged(hands, C("Ks 7h"), attacker=0, trump_card=C("7h")[0])
    h.apply(throw("6d"))
    assert h.to_act == 1 and h.phase == DEFEND
    h.apply(beat("7d"))
    assert h.to_act == 0 and h.legal_actions() == (PASS_ACTION,)
    h.apply(PASS_ACTION)
    assert h.to_act == 1  # the defender's own throw-in comes next round the table
    h.apply(PASS_ACTION)
    assert h.to_act == 2 and set(h.legal_actions()) == {throw("6c"), throw("7c"), PASS_ACTION}
    h.apply(throw("7c"))
    h.apply(beat("8h"))
    # the thrower keeps the right; the seats that passed get it again («продолжать»)
    assert h.to_act == 2 and h.passed == set()
    with pytest.raises(IllegalAction):
        h.apply(throw("Jd"))   # no jack on the table
    assert h.to_act == 2 and len(h.log) == 6


def test_the_first_game_is_led_by_the_lowest_trump() -> None:
    """«В первой игре ходит первым игрок, у которого имеется младший козырь»."""
    game = DurakGame()
    for seed in range(30):
        h = game.new_hand(seed, 4)
        low = min((c >> 2, s) for s in range(4) for c in h.hands[s] if c & 3 == h.trump)
        assert h.attacker == low[1] and h.defender == (low[1] + 1) % 4


def test_later_games_are_led_under_or_from_under_the_durak() -> None:
    """«в следующих играх существуют 2 варианта первого хода: под дурака, то есть первым
    ходит игрок, который сидит справа от дурака; из-под дурака, первым ходит игрок,
    который сидит слева от дурака»; «в следующей игре сдает карты игрок, который проиграл»
    (the dealer of a later game is the last durak)."""
    under = DurakGame({"first_move": "under"}).new_hand(1, 4, dealer=2)
    assert under.attacker == 1 and under.defender == 2  # he attacks the durak himself
    from_under = DurakGame().new_hand(1, 4, dealer=2)
    assert from_under.attacker == 3 and from_under.defender == 0
    assert from_under.dealer == 2


def test_a_deal_is_six_each_and_the_trump_card_under_the_stock() -> None:
    """«каждому игроку сдается по 6 карт … Верхняя карта с колоды снимается, открывается
    и кладется под колоду. Эта карта определяет козырную масть»; «36 или 52» cards."""
    for deck, n in ((36, 2), (36, 5), (52, 6)):
        h = DurakGame({"deck": deck}).new_hand(3, n)
        assert all(len(x) == 6 for x in h.hands)
        assert len(h.stock) == deck - 6 * n and h.stock[0] == h.trump_card
        assert h.trump == h.trump_card & 3 and h.cards_accounted() == sorted(h.game.deck)
    full = DurakGame().new_hand(3, 6, dealer=0)  # 36 cards, 6 players: no stock left
    assert full.stock == [] and full.trump_card == full.hands[0][-1]
    assert full.trump_holder == 0


def test_a_defender_who_beats_with_his_last_card_ends_the_bout() -> None:
    """Nobody may throw to a defender with no card left to beat with, and with no stock
    he is out («пока не останется один игрок с картами на руках»)."""
    h = _example()
    for a in (throw("6d"), beat("7d"), PASS_ACTION, throw("6s"), beat("As"),
              throw("Ad"), beat("8h"), PASS_ACTION, throw("8d")):
        h.apply(a)
    h.apply(beat("Th"))
    assert h.is_over and h.result().out_order == (1,)


def test_illegal_actions_change_nothing() -> None:
    """An action out of turn, with a card not held, or a beat that does not beat."""
    h = _example()
    before = (list(map(list, h.hands)), list(h.log))
    for seat, a in ((1, throw("6s")), (0, throw("As")), (0, beat("6d")), (0, TAKE_ACTION)):
        with pytest.raises(IllegalAction):
            h.apply(a, seat)
    h.apply(throw("6d"))
    with pytest.raises(IllegalAction):
        h.apply(beat("6s"))  # a lower spade does not beat a diamond
    assert h.hands[1] == before[0][1] and len(h.log) == 1


def test_actions_parse_from_text_and_json_or_fail_clearly() -> None:
    """The text and JSON forms round-trip; anything else is one :class:`IllegalAction`."""
    for a in (throw("6d"), beat("Th"), TAKE_ACTION, PASS_ACTION):
        assert parse_action(a.text()) == a and action_from_json(a.as_json()) == a
    fam: Any = family("durak")
    assert fam.parse_action({"kind": "beat", "card": "Ah"}, None) == beat("Ah")
    bad: object
    for bad in ({"kind": "beat"}, {"kind": "fold"}, {"kind": "throw", "card": "Zz"}, [],
                {"kind": "throw", "card": 5}):
        with pytest.raises(IllegalAction):
            fam.parse_action(bad, None)


def test_bad_options_and_tables_are_one_clear_error() -> None:
    """«Количество карт в колоде: 36 или 52», «Количество игроков: 2 - 6»."""
    for bad, word in (({"deck": 40}, "deck"), ({"first_move": "left"}, "first_move"),
                      ({"colour": 1}, "colour")):
        with pytest.raises(DurakError, match=word):
            DurakGame(bad)
    for n in (1, 7):
        with pytest.raises(DurakError, match="2 to 6"):
            DurakGame().new_hand(0, n)
    with pytest.raises(DurakError, match="dealer"):
        DurakGame().new_hand(0, 3, dealer=3)
