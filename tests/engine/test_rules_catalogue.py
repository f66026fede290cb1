"""The rest of RULES.md §§1–4 played against the documents: stripped decks, no-limit
raises, pass and out, the dealer's ante, openers, the house remedies for bad amounts,
freeze-out, stud's shared last card and the draw's reshuffle."""

from __future__ import annotations

import pytest
from handplay import cards, deal, manual

from pokerarena.cards import deck
from pokerarena.engine import CHECK_CALL, FOLD, Game, IllegalAction, bet_to, discard
from pokerarena.engine.table import Table
from pokerarena.evaluator import evaluate, ranking


def test_stripped_decks_and_the_lowest_straight():
    """000_… «Иерархия карт»: «Иногда для ускорения игры младшие карты (2. 3 и даже 4 и 5)
    изымаются из колоды»; the ace then plays low below the lowest rank left (RULES.md §1:
    36-card short deck, A-6-7-8-9 the lowest straight)."""
    assert [len(deck(n)) for n in ("strip2", "strip3", "strip4", "strip5")] == [48, 44, 40, 36]
    strip3 = ranking("high", deck="strip3")
    wheel, pair = evaluate(cards("As4c5d6h7s"), strip3), evaluate(cards("AsAc5d6h7s"), strip3)
    assert wheel > pair                          # A-4-5-6-7 is a straight in a 4..A deck
    assert evaluate(cards("As4c5d6h7s"), ranking("high")) < pair  # not in a full deck


def test_no_limit_raise_at_least_the_previous_bet_or_raise_up_to_the_stack():
    """002_… «Без лимита»: «Повышение должно быть не меньше, чем предыдущая ставка или
    повышение, сделанные в этом раунде ... Maксимальное повышение: Все фишки, которые
    имеются у игрока на столе!»"""
    hand = manual("holdem", [200, 200, 200])
    deal(hand, "AsKs", "QdJd", "7c2h")
    hand.apply(bet_to(10))                       # a raise of 8 over the blind
    legal = hand.legal_actions()
    assert (legal.min_to, legal.max_to) == (18, 200)
    hand.apply(bet_to(30))                       # a raise of 20
    assert hand.legal_actions().min_to == 50


def test_pass_and_out_no_checking_in_the_first_round():
    """000_… «Покер с досдачей: стандартный вариант»: «2) «Пас со сбросом» (или «ставь
    либо сбрасывайся»). Игрок может делать начальную ставку при любом раскладе. Каждый
    игрок обязан сделать ставку или сбросить карты; пас с пропуском хода не разрешен»;
    «Второй круг ставок ... Все игроки могут пропустить ход, даже если в первом круге
    действовало правило «пас и аут»»."""
    hand = manual("draw5", [50, 50, 50], pass_and_out=True)
    deal(hand, "2c3d4h5s7c", "JcJd4c8s9h", "AcKdQh9s2d")
    assert hand.legal_actions().kinds == ("f", "cbr")
    with pytest.raises(IllegalAction, match="no checking"):
        hand.apply(CHECK_CALL)
    hand.apply(bet_to(2))
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    for _ in range(3):
        hand.apply(discard())
    assert "cc" in hand.legal_actions().kinds    # after the draw a check is allowed


def test_ante_by_the_dealer_only():
    """000_… «Покер с досдачей: стандартный вариант»: «Предварительная ставка. Либо: а)
    каждый игрок вносит в банк одинаковую согласованную сумму, либо б) предварительную
    ставку делает только сдающий («право сдающего»)»."""
    hand = Game("draw5", {"ante_by": "dealer", "ante": 3}).new_hand(0, 4, [50] * 4, button=1)
    assert hand.pot_total() == 3 and hand.stacks() == [50, 47, 50, 50]


def test_jacks_or_better_to_open_and_the_opener_shows_his_openers():
    """000_… «Покер с досдачей: стандартный вариант»: «1) «Валеты и выше». Игрок имеет
    право делать начальную ставку, только если у него на руках пара валетов или больший
    расклад ... Если никто не ставит, все игроки вновь вносят предварительную ставку»."""
    hand = manual("draw5", [50, 50, 50])
    deal(hand, "2c3d4h5s7c", "JcJd4c8s9h", "AcKdQh9s2d")
    assert "cbr" not in hand.legal_actions().kinds   # no openers
    hand.apply(CHECK_CALL)
    assert "cbr" in hand.legal_actions().kinds       # a pair of jacks opens
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    res = hand.result()
    assert res.passed and res.carry == 3             # the antes wait; everyone antes again


def test_progressive_openers_climb_and_come_back():
    """000_… «Покер со сменой карт: варианты»: «если никто не желает делать начальную
    ставку, для начала следующей игры требуются две дамы или выше, если опять никто не
    открывает круг ставок, в следующей игре для этого требуются два короля и выше; затем
    два туза и выше; затем вновь два короля и выше, две дамы и выше и два валета и выше»."""
    game = Game("draw5", {"openers": "progressive", "dealing": "manual"})
    needed = []
    for passes in range(7):
        for pair in "JQKA":
            hand = game.new_hand(0, 2, [20, 20], button=1, passes=passes)
            deal(hand, f"{pair}c{pair}d4c8s9h", "2c3d4h5s7c")
            if "cbr" in hand.legal_actions().kinds:
                needed.append(pair)
                break
    assert needed == ["J", "Q", "K", "A", "K", "Q", "J"]


def test_jacks_or_bobtail_opens_but_the_bobtail_is_worth_nothing():
    """000_… «Покер со сменой карт: варианты»: «2) Начинают «Валет или бобтейл» ... игрок
    может открыть круг ставок также и с «бобтейлом» (четырьмя картами одной масти плюс
    любая другая карта) или с «бобтейл-стритом» (четыре последовательные карты плюс любая
    другая карта — однако не может быть такой: Т, К, Д, В или 4, 3, 2, Т). Эти расклады
    при вскрытии не имеют ценности»."""
    opens = {}
    for text in ("2c5c8c9cKd", "5c6d7h8sKd", "AcKdQhJs3c", "As2d3h4sKd"):
        hand = manual("draw5", [50, 50], openers="jacks_or_bobtail")
        deal(hand, text, "7c7d9d9hTh")
        opens[text] = "cbr" in hand.legal_actions().kinds
    assert opens == {"2c5c8c9cKd": True, "5c6d7h8sKd": True, "AcKdQhJs3c": False,
                     "As2d3h4sKd": False}


def test_splitting_openers_is_declared():
    """000_… «Покер с досдачей: стандартный вариант»: «Иногда в «валетах и выше» делающий
    начальную ставку сбрасывает одну из своих «начальных» карт ... При этом он должен
    заявить о таком сбросе, и сброшенная начальная карта откладывается в сторону»."""
    hand = manual("draw5", [50, 50])
    deal(hand, "JcJdTcQcKc", "2c3d4h5s7d")
    hand.apply(bet_to(2))
    hand.apply(CHECK_CALL)
    hand.apply(discard(cards("Jd")))             # breaks the jacks for a flush draw
    assert hand.split_openers == {0: cards("Jd")}
    assert [a.amount for s, a in hand.log if a.kind == "sd"] == [1]   # marked: declared


def test_house_raise_below_the_minimum_is_a_call_and_the_extra_is_confiscated():
    """003_… «Нарушение правил»: «Если игрок повышает ставку на величину ниже допустимого
    минимума, то считают, что он повторил предыдущую ставку, а поставленные им
    дополнительные фишки конфискуют в банк»."""
    hand = manual("holdem", [100, 100, 100], irregularities="house")
    deal(hand, "AsKs", "QdJd", "7c2h")
    hand.apply(bet_to(10))
    hand.apply(bet_to(12))                       # the small blind: 12 is below 18
    assert hand.bets[0] == 10 and hand.dead == 2 and hand.stacks()[0] == 88


def test_house_bet_above_the_limit_is_the_limit_and_the_excess_is_confiscated():
    """003_… «Нарушение правил»: «Если игрок вносит в банк лишнее количество фишек,
    превышающее предел, то такую ставку считают предельной, и превышающие ее ставки
    конфискуют в банк»."""
    hand = manual("holdem", [100, 100, 100], betting="fixed_limit", irregularities="house")
    deal(hand, "AsKs", "QdJd", "7c2h")
    hand.apply(bet_to(9))                        # the limit is a raise to 4
    assert hand.bets[2] == 4 and hand.dead == 5 and hand.stacks()[2] == 91


def test_strict_policy_refuses_a_bad_amount_and_changes_nothing():
    """RULES.md §4: «strict (reject with a clear error, nothing changes; the API
    default)»; 000_… «Запреты по ставкам»: «Ошибочную ставку следует исправить»."""
    hand = manual("holdem", [100, 100, 100])
    deal(hand, "AsKs", "QdJd", "7c2h")
    before = (hand.stacks(), list(hand.log), hand.to_act)
    with pytest.raises(IllegalAction, match="allowed 4 to 100"):
        hand.apply(bet_to(3))
    assert (hand.stacks(), list(hand.log), hand.to_act) == before


def test_freeze_out_plays_until_one_player_holds_every_chip():
    """000_… «Замороженный вклад»: «Перед игрой каждый игрок кладет на стол перед собой
    одинаковое количество фишек. Выигрыши добавляются к этой сумме, но ни один игрок не
    может добавлять новые фишки. Как только игрок израсходовал все свои фишки, он выбывает
    из игры. Игроки играют до тех пор, пока один игрок не выиграет все фишки»."""
    table = Table(Game("holdem"), [20, 20, 20], seed=4, mode="freeze_out")
    hands = 0
    while not table.is_over and hands < 500:
        hand = table.new_hand()
        while not hand.is_over:
            legal = hand.legal_actions()
            hand.apply(bet_to(legal.max_to) if "cbr" in legal.kinds else CHECK_CALL)
        table.finish(hand)
        hands += 1
    assert table.is_over and sorted(table.stacks) == [0, 0, 60]


def test_stud_deals_one_shared_last_card_when_the_deck_runs_short():
    """002_… «Семикарточный покер»: «В редких случаях в колоде может не хватить карт для
    сдачи каждому игроку ривера. В этом случае дилер открывает одну из карт прикупа, и она
    используется как общая карта»."""
    hand = Game("stud7").new_hand(1, 8, [100] * 8, button=7)
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.apply(bet_to(legal.min_to) if "pb" in legal.kinds else CHECK_CALL)
    assert len(hand.board) == 1 and all(len(hand.cards_of(s)) == 6 for s in range(8))


def test_draw_reshuffles_the_discards_when_the_stock_runs_out():
    """000_… «Покер с досдачей: стандартный вариант»: «Если требуются дополнительные
    карты, нижняя карта и карты сноса тасуются вместе и снимаются с тем, чтобы можно было
    продолжать досдачу»."""
    hand = Game("draw5", {"openers": "any", "draw_max": 5}).new_hand(2, 6, [50] * 6, button=5)
    hand.apply(bet_to(2))
    for _ in range(5):
        hand.apply(CHECK_CALL)
    for _ in range(6):
        hand.apply(discard(hand.cards_of(hand.to_act)))   # 30 cards wanted, 22 in the stock
    held = [c for s in range(6) for c in hand.cards_of(s)]
    assert len(held) == 30 and len(set(held)) == 30
    assert hand.phase_name == "bet"
    hand.apply(FOLD)
