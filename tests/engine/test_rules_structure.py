"""The street structure of every variant of RULES.md §3, as its document describes it:
cards per street, face up or down, the betting rounds, and when the showdown comes.

Each test plays a hand (the players check and call, stand pat, turn up their first down
card) and records, at every betting round, turn-up and draw, how many cards seat 0 holds
(and how many face up) and how many are on the board.
"""

from __future__ import annotations

from pokerarena.cards import parse_cards
from pokerarena.engine import BRING_IN, CHECK_CALL, Action, Game, bet_to, discard


def structure(variant, players=3, **options):
    """[(step, hole, up, board), ...] of seat 0 through a hand, ending with
    ("showdown", ...)."""
    game = Game(variant, {"void_if_all_check": False, **options})
    hand = game.new_hand(7, players, [1000] * players, button=players - 1)
    steps = []
    seen = None

    def note(step):
        pos = hand.pos_of[0]
        steps.append((step, len(hand.hole[pos]), sum(hand.isup[pos]), len(hand.board)))

    while not hand.is_over:
        phase = hand.phase_name
        if (hand.si, phase) != seen:
            seen = (hand.si, phase)
            note(phase)
        legal = hand.legal_actions()
        if "pb" in legal.kinds:
            hand.apply(BRING_IN)
        elif "sd" in legal.kinds:
            hand.apply(discard())
        elif "ex" in legal.kinds:
            seat = hand.to_act
            p = hand.pos_of[seat]
            down = [c for c, u in zip(hand.hole[p], hand.isup[p], strict=True) if not u]
            hand.apply(Action("ex", 0, tuple(down[:legal.discard_min])))
        elif "cc" not in legal.kinds:
            hand.apply(bet_to(legal.min_to))
        else:
            hand.apply(CHECK_CALL)
    pos = hand.pos_of[0]
    steps.append(("showdown", len(hand.hole[pos]), sum(hand.isup[pos]), len(hand.board)))
    assert hand.result().went_to_showdown
    return steps


def bets(steps):
    return [s[1:] for s in steps if s[0] == "bet"]


def test_cold_hands_bets_before_the_deal_and_deals_face_up():
    """000_… «Закрытый покер»: «Покер с прямым вскрытием (или «хладнокровный покер»).
    Перед сдачей проводится один круг ставок. Сдача осуществляется обычным порядком, но
    карты сдаются в открытую, и выигрывает лучший сданный расклад»."""
    assert structure("cold_hands") == [("bet", 0, 0, 0), ("showdown", 5, 5, 0)]


def test_double_barreled_shotgun_turns_up_in_turn_four_betting_rounds():
    """000_… «Дробовик с двойным барабаном»: «Каждый игрок получает по пять карт втемную.
    Начиная с игрока слева от сдающего, все игроки затем вскрывают любую одну свою карту.
    После этого круги ставок чередуются со вскрытием одной карты за раунд. В пятом и
    последнем раунде вскрытия лучший расклад побеждает»."""
    steps = structure("shotgun_double")
    assert [s[0] for s in steps] == ["expose", "bet"] * 4 + ["expose", "showdown"]
    assert bets(steps) == [(5, 1, 0), (5, 2, 0), (5, 3, 0), (5, 4, 0)]
    assert steps[-1] == ("showdown", 5, 5, 0)


def test_double_barreled_shotgun_turn_ups_are_seen_in_turn():
    """000_… «Дробовик с двойным барабаном»: «Начиная с игрока слева от сдающего, все
    игроки затем вскрывают любую одну свою карту» (in turn: each sees those before)."""
    game = Game("shotgun_double", {"dealing": "manual"})
    hand = game.new_hand(0, 3, [50] * 3, button=2)
    for seat, text in enumerate(("AsKsQsJs9h", "2c3c4c5c7d", "8h8d8c2d3d")):
        hand.apply(Action("dh", 0, tuple(parse_cards(text)), seat), -1)
    assert hand.to_act == 0 and hand.phase_name == "expose"
    hand.apply(Action("ex", 0, tuple(parse_cards("As"))))
    assert hand.observation(1).up[0] == parse_cards("As")   # seat 1 sees it at once


def test_crisscross_four_rounds_then_the_centre_and_the_showdown():
    """000_… «Перекрестье»: «сдающий вскрывает любую одну карту из настольных, кроме карты
    в центре креста. За этим следует круг ставок. Вскрытие карт креста чередуется с
    приемом ставок до тех пор, пока невскрытой остается лишь центральная карта. После
    четвертого круга ставок вскрывается центральная карта, за чем немедленно следует
    вскрытие раскладов»."""
    steps = structure("crisscross")
    assert bets(steps) == [(4, 0, 1), (4, 0, 2), (4, 0, 3), (4, 0, 4)]
    assert steps[-1] == ("showdown", 4, 0, 5)


def test_cincinnati_and_lame_brain_pete_like_crisscross_without_the_cross():
    """000_… «Цинциннати»: «каждому игроку сдается по пять карт, а следующие пять карт
    сдаются втемную в центр стола. Игра аналогична «Перекрестью», но без креста»;
    «Пит-простак»: «играется аналогично «Цинциннати»»."""
    for variant in ("cincinnati", "lame_brain_pete"):
        steps = structure(variant)
        assert bets(steps) == [(5, 0, 1), (5, 0, 2), (5, 0, 3), (5, 0, 4)], variant
        assert steps[-1] == ("showdown", 5, 0, 5)


def test_three_card_poker_bets_after_each_card():
    """000_… «Трехкарточный покер»: «Каждый игрок получает по три карты втемную, и после
    каждого круга сдачи проводится прием ставок. Вскрытие карт производится сразу же после
    третьего круга»."""
    steps = structure("three_card")
    assert bets(steps) == [(1, 0, 0), (2, 0, 0), (3, 0, 0)]
    assert steps[-1] == ("showdown", 3, 0, 0)


def test_two_card_poker_one_betting_round():
    """000_… «Двухкарточный покер»: «сдачи каждому игроку двух карт втемную, одного круга
    ставок и вскрытия карт»."""
    assert structure("two_card") == [("bet", 2, 0, 0), ("showdown", 2, 0, 0)]


def test_five_card_stud():
    """000_… «Покер-гвоздь»: «Каждому игроку втемную сдается по одной карте («забивной»),
    затем по одной карте в открытую ... Дальнейшая расдача каждому игроку по одной карте в
    открытую чередуется с приемом ставок до конца четвертого круга»."""
    steps = structure("stud5")
    assert bets(steps) == [(2, 1, 0), (3, 2, 0), (4, 3, 0), (5, 4, 0)]
    assert steps[-1] == ("showdown", 5, 4, 0)
    down = structure("stud5", last_card_down=True)  # «Последняя карта втемную»
    assert down[-1] == ("showdown", 5, 3, 0)


def test_six_card_stud():
    """000_… «Шестикарточный гвоздь»: «после четвертого круга ставок каждый игрок получает
    втемную шестую карту. За этим следует пятый (последний) круг ставок»."""
    steps = structure("stud6")
    assert bets(steps)[-1] == (6, 4, 0) and len(bets(steps)) == 5


def test_seven_card_stud():
    """002_… «Семикарточный покер»: «Каждому из игроков ... сдают по две карты лицевой
    стороной вниз, затем четыре карты лицевой стороной вверх и последнюю карту – ривер
    (river) – лицевой стороной вниз»; «всего в семикарточном покере пять раундов торговли
    не считая ante»."""
    for variant in ("stud7", "stud7_hilo", "stud7_low_hole_wild", "razz"):
        steps = structure(variant)
        assert bets(steps) == [(3, 1, 0), (4, 2, 0), (5, 3, 0), (6, 4, 0), (7, 4, 0)], variant


def test_mexican_stud():
    """000_… «Мексиканский гвоздь»: «Аналогичен «пятикарточному гвоздю» за исключением
    того, что все карты сдаются втемную. После второго и каждого последующего круга сдачи
    каждый игрок вскрывает любую из своих карт втемную, оставив одну карту как
    забивную»."""
    steps = structure("stud_mexican")
    assert bets(steps) == [(2, 1, 0), (3, 2, 0), (4, 3, 0), (5, 4, 0)]


def test_stud_low():
    """000_… «Гвоздь-мизер»: «Другие правила аналогичны разыгрываемой форме «гвоздя»»."""
    assert bets(structure("stud_low")) == [(2, 1, 0), (3, 2, 0), (4, 3, 0), (5, 4, 0)]


def test_community_card_games():
    """002_… «Как играть в Техасский Холдем»: «Каждому игроку сдается по две карты ...
    Дилер вскрывает три карты из флопа ... еще 1 карту прикупа (торн) ... последнюю карту
    прикупа (ривер)»; four rounds of betting. Omaha: four hole cards."""
    for variant, hole in (("holdem", 2), ("holdem_short", 2), ("omaha", 4), ("omaha_hilo", 4)):
        steps = structure(variant)
        assert bets(steps) == [(hole, 0, 0), (hole, 0, 3), (hole, 0, 4), (hole, 0, 5)]


def test_five_card_draw():
    """000_… «Покер с досдачей»: «3) первый круг ставок ... 4) досдача ... 5) второй круг
    ставок ... 6) если по окончании второго круга ставок в игре осталось двое и более
    игроков, карты вскрываются»."""
    steps = structure("draw5", openers="any")
    assert [s[0] for s in steps] == ["bet", "draw", "bet", "showdown"]


def test_shotgun_extra_first_round_after_three_cards():
    """000_… «Дробовик»: «после того, как каждый игрок получил по три карты, имеет место
    дополнительный (первый) круг ставок во время сдачи. Начинать может любой расклад.
    Пропуск хода не разрешен»."""
    steps = structure("draw5_shotgun")
    assert [s[:2] for s in steps if s[0] == "bet"] == [("bet", 3), ("bet", 5), ("bet", 5)]
    hand = Game("draw5_shotgun").new_hand(1, 3, [50] * 3, button=2)
    assert "cc" not in hand.legal_actions().kinds


def test_stormy_weather():
    """000_… «Штормовая погода»: «Каждый игрок получает по четыре карты. Три карты втемную
    сдаются на стол отдельно. После этого следует круг приема ставок. Игрок может начать
    при любом раскладе. Пропуск хода не разрешен. При обмене каждый игрок может поменять до
    четырех карт. После обмена сдающий по одной вскрывает карты на столе, чередуя вскрытие
    кругами приема ставок»."""
    steps = structure("stormy_weather")
    assert [s[0] for s in steps] == ["bet", "draw", "bet", "bet", "bet", "showdown"]
    assert [s[3] for s in steps if s[0] == "bet"] == [0, 1, 2, 3]
    hand = Game("stormy_weather").new_hand(1, 3, [50] * 3, button=2)
    assert hand.legal_actions().kinds == ("f", "cbr")
    draw = Game("stormy_weather").variant.streets[2]
    assert draw.max == 4


def test_spit_in_the_ocean_draws_as_usual():
    """000_… «Плюнь в океан»: «каждый игрок получает по четыре карты. Следующая карта
    сдается в открытую в центр стола. Игра протекает как обычно» (as usual: «игрок может
    добрать по своему усмотрению одну, две или три карты»; option ``draw_max``)."""
    for variant in ("spit", "spit_pig"):
        steps = structure(variant)
        assert steps[0] == ("bet", 4, 0, 1)
        assert [s[0] for s in steps] == ["bet", "draw", "bet", "showdown"]
        assert Game(variant).variant.streets[2].max == 3
        assert Game(variant, {"draw_max": 4}).program.steps[2].max == 4


def test_lowball_and_blind_open_structure():
    """000_… «Лоуболл»: «Правила подобны стандартной игре»; «Начало втемную»: «В этом
    варианте игроки ставят втемную, то есть до получения своих раскладов»."""
    for variant in ("lowball", "draw5_blind"):
        steps = structure(variant, players=4)
        assert [s[0] for s in steps] == ["bet", "draw", "bet", "showdown"], variant
