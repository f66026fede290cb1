"""Issue 32: the rule points of American boston (``001_…``), red and black (``003_…``),
American durak (``001_…``) and painted poker (``004_…``) read again against the
documents. Each test quotes the sentence it rests on; the readings, and where the text
contradicts itself, are in ``docs/games.md``."""

from __future__ import annotations

import pytest

from pokerarena.cards import JOKER_1, parse_card
from pokerarena.engine.actions import IllegalAction
from pokerarena.games import family
from pokerarena.games.boston import BostonGame
from pokerarena.games.boston.rules import (
    INDEPENDENCE,
    JUNIOR,
    MISERE,
    SENIOR,
    SOLO,
    BostonError,
    BostonOptions,
    Outcome,
    settle,
)
from pokerarena.games.durak import DurakError, DurakGame, make_bot, next_dealer, play_series
from pokerarena.games.painted import PaintedGame, bid, play
from pokerarena.games.painted.deal import Deal, Played, legal_plays, trick_winner
from pokerarena.games.painted.rules import ORDINARY, DealSpec, PaintedError, PaintedOptions
from pokerarena.games.play import play_game
from pokerarena.games.red_black import Bet, RedBlackError, RedBlackGame
from pokerarena.games.red_black.bots import CountBot
from pokerarena.games.red_black.edge import exact_edges

O = BostonOptions()
HEARTS = parse_card("2h") & 3


# American boston: a contract played alone and lost -------------------------------------
def test_boston_a_lone_proposal_lost_gives_the_kitty_to_the_three_others():
    """«Когда кроме объявившего игру все пасуют, игрок обязан играть самостоятельно и
    взять не менее пяти взяток, в этом случае он получает всю кассу и сверх того,
    заранее оговоренное количество фишек с каждого игрока. Если же он берет меньше пяти
    взяток, то касса переходит в собственность трех других игроков, кроме того,
    проигравший платит каждому играющему еще и определенную мзду.» Senior alone (2 a
    trick), 4 tricks: each of the three gets a third of the kitty of 60 and 2·5 + 2
    (the tariff and the consolation); no labet, the kitty is empty after."""
    delta, kitty = settle(O, Outcome(SENIOR, 1, -1, (3, 4, 3, 3), -1), 60.0, 1)
    assert delta == (32.0, -36.0, 32.0, 32.0) and kitty == 0
    # the old reading, kept as an option: the loser lays the labet, the three get no kitty
    delta, kitty = settle(BostonOptions(lone_loss="labet"),
                          Outcome(SENIOR, 1, -1, (3, 4, 3, 3), -1), 60.0, 1)
    assert delta == (12.0, -96.0, 12.0, 12.0) and kitty == 120


def test_boston_every_contract_played_alone_and_lost_loses_the_kitty_alike():
    """«Если же он берет меньше пяти взяток, то касса переходит в собственность трех
    других игроков» is the only sentence on the kitty of a player alone; «Тот игрок,
    который покупает соло, должен взять 8 взяток, если он берет меньшее количество
    взяток, то обязан заплатить по тарифу игры.» and the misère's «он также обязан
    заплатить определенную сумму игрокам» name only the payment: one against three, the
    kitty goes the same way."""
    for contract, taken in ((SOLO, (2, 2, 2, 7)), (INDEPENDENCE, (2, 2, 2, 7)),
                            (MISERE, (1, 4, 4, 4))):
        seat = 3 if contract != MISERE else 0
        delta, kitty = settle(O, Outcome(contract, seat, -1, taken, -1), 30.0, 1)
        assert kitty == 0 and sum(delta) == 30.0
        assert all(delta[x] == delta[(seat + 1) % 4] > 10 for x in range(4) if x != seat)


def test_boston_in_whole_games_a_lone_loss_empties_the_kitty():
    """«касса переходит в собственность трех других игроков»: in played games every
    deal where a contract played alone was lost leaves the kitty empty (it went to the
    three); with ``lone_loss = "labet"`` it leaves the kitty doubled instead."""
    short = {"simple_tours": 2, "double_tours": 0}
    seen = 0
    for options, empty in (({}, True), ({"lone_loss": "labet"}, False)):
        game = BostonGame({**short, **options})
        for seed in range(4):
            hand = play_game(game, [family("boston").new_bot("random", seed * 4 + i)
                                    for i in range(4)], seed)
            for r in hand.records[:-1]:  # the last deal also shares the kitty out
                if r.contract and r.supporter < 0 and not r.made:
                    assert (r.kitty == 0) == empty, (options, r)
                    seen += 1
    assert seen >= 4


def test_boston_a_partnership_that_falls_short_still_lays_the_labet():
    """«Если играют вдвоем, то для того, чтобы забрать кассу, нужно взять не менее 8
    взяток. В случае выигрыша партнеры получают плату по тарифу, а в случае проигрыша их
    контрпартнеры получают с них столько, сколько должны были бы отдать. Кроме того, они
    обязаны положить в коробку столько жетонов, сколько в ней было, т. е., следуя
    карточной терминологии, сделать лабет.» The labet is named for partners (and again
    for the partner short of his quota); the contrary «Если игрок и его партнер берут
    меньше 8 взяток, то касса переходит в распоряжение их противников» is option
    ``labet = false``. Senior, proposer 4 and supporter 3: the proposer alone pays."""
    delta, kitty = settle(O, Outcome(SENIOR, 0, 2, (4, 3, 3, 3), -1), 40.0, 1)
    assert delta == (-76.0, 18.0, 0.0, 18.0) and kitty == 80
    delta, kitty = settle(BostonOptions(labet=False),
                          Outcome(SENIOR, 0, 2, (4, 3, 3, 3), -1), 40.0, 1)
    assert delta == (-36.0, 38.0, 0.0, 38.0) and kitty == 0


def test_boston_a_team_of_eight_has_made_it_even_when_one_partner_fell_short():
    """«Иногда случается, что хотя покупающий и поддерживающий его играют вместе, один
    проигрывает, в то время как другой и не проигрывает, и не выигрывает, все зависит от
    того, сколько каждый из них взял взяток.» against «для того, чтобы забрать кассу,
    нужно взять не менее 8 взяток»: the text contradicts itself when the team takes 8
    but one partner is short (4 + 4). Kept as before: the eight together decide, and the
    quotas only say who pays for a lost contract."""
    delta, kitty = settle(O, Outcome(JUNIOR, 0, 2, (4, 3, 4, 2), -1), 40.0, 1)
    assert delta == (36.0, -16.0, 36.0, -16.0) and kitty == 0


def test_boston_a_bad_lone_loss_is_one_error_naming_it():
    """The new option is checked like the others: one line naming the field."""
    with pytest.raises(BostonError, match="lone_loss") as err:
        BostonGame({"lone_loss": "nobody"})
    assert "\n" not in str(err.value)


# Red and black: the stakes and the order of declaring --------------------------------------
def test_red_black_everyone_stakes_the_minimum_by_default():
    """«Все участники, начиная с игрока, сидящего слева от сдающего, делают минимальные
    ставки и объявляют «красное» или «черное».» By default the only stake is
    ``min_bet``; free stakes up to ``max_bet`` are an option (other printed sources)."""
    h = RedBlackGame().new_hand(0, 3, dealer=0)
    assert h.legal_actions() == (Bet("red", 1), Bet("black", 1))
    with pytest.raises(IllegalAction):
        h.apply(Bet("red", 2))
    h = RedBlackGame({"min_bet": 5}).new_hand(0, 3, dealer=0)
    assert {b.stake for b in h.legal_actions()} == {5}
    h = RedBlackGame({"max_bet": 10}).new_hand(0, 3, dealer=0)
    assert {b.stake for b in h.legal_actions()} == set(range(1, 11))
    # the counting bot cannot raise its stake under the minimum-stake rule
    game = RedBlackGame({"order": "each", "rounds": 0})
    hand = game.new_hand(4, 2, dealer=0)
    bot = CountBot(1)
    while not hand.is_over:
        hand.apply(bot.act(hand.observation(hand.to_act)))
    assert {r.stake for r in hand.settled} == {1}
    with pytest.raises(RedBlackError, match="max_bet"):
        RedBlackGame({"min_bet": 3, "max_bet": 2})


def test_red_black_everyone_declares_before_the_dealer_deals():
    """«Все участники, начиная с игрока, сидящего слева от сдающего, делают минимальные
    ставки и объявляют «красное» или «черное». Сдающий дает игроку пять карт лицевой
    стороной вверх.» All the participants declare, then the dealer deals: by default no
    card lies face up before the last player of the round has declared, so at one round
    per deck counting gains nothing (every position's counted edge is the blind bet's,
    0); ``order = each`` (dealt in turn) is an option, and there it does."""
    h = RedBlackGame().new_hand(1, 4, dealer=0)
    for seat in (1, 2):
        h.apply(Bet("red", 1), seat)
        assert h.settled == [] and h.observation(seat + 1).cards_left == 52
    h.apply(Bet("black", 1), 3)
    assert len(h.settled) == 3 and h.is_over
    assert exact_edges({}, 3)["counted"] == pytest.approx([0.0] * 3, abs=1e-12)
    assert exact_edges({"order": "each"}, 3)["counted"][2] < -0.05
    with pytest.raises(RedBlackError, match="order"):
        RedBlackGame({"order": "dealt"})


# American durak: a series ------------------------------------------------------------------
def test_durak_a_series_chains_each_game_to_the_last_durak_and_numbers_it():
    """«Первый сдатчик определяется жребием, в следующей игре сдает карты игрок, который
    проиграл в предыдущей игре.» A series: game 0 is a first game, each later one is
    dealt by :func:`next_dealer` of the one before (published on the family as
    ``extra["next_dealer"]`` for the platform) and knows its position
    (``series_game``)."""
    fam = family("durak")
    assert fam.extra["next_dealer"] is next_dealer
    game = DurakGame()
    dealer = None
    points = []
    for g in range(6):
        bots = [make_bot("rule", (7 + g) * 31 + i) for i in range(3)]
        hand = game.new_hand(7 + g, 3, dealer, series_game=g)
        assert hand.series_game == g
        if dealer is not None:
            assert hand.dealer == dealer  # the last durak deals
        while not hand.is_over:
            s = hand.to_act
            hand.apply(bots[s].act(hand.observation(s)), s)
        durak = hand.result().durak
        assert next_dealer(hand) == (durak if durak is not None else hand.dealer)
        dealer = next_dealer(hand)
        points.append(hand.result().deltas)
    assert play_series(None, ["rule"] * 3, 6, 7) == points
    assert game.new_hand(1, 3).series_game == 0 and game.new_hand(1, 3, 2).series_game == -1
    for dealer, pos in ((None, 1), (1, 0), (1, -2), (1, True)):
        with pytest.raises(DurakError, match="series_game"):
            game.new_hand(1, 3, dealer, series_game=pos)


# Painted poker: a joker lead without a call --------------------------------------------
def _deal(hands: list[list[str]], options: PaintedOptions | None = None) -> Deal:
    """A deal of these hands (seat 0 first, ``Jk`` the joker), hearts trumps, dealer 3."""
    return Deal(DealSpec(5, ORDINARY, len(hands[0]), False), options or PaintedOptions(jokers=1),
                3, len(hands), [[JOKER_1 if c == "Jk" else parse_card(c) for c in h]
                                for h in hands], HEARTS, -1, [])


HANDS = [["Jk", "6c"], ["9s", "Ah"], ["Ks", "Qd"], ["Ac", "7s"]]


def test_painted_a_joker_may_lead_without_a_call():
    """«Выкладывающий джокера может заявить специальные правила на текущий ход» (may, not
    must); «Джокер используют, чтобы получать взятки, объявляя его самой высокой картой,
    бьющей даже козырного туза, или наоборот — самой низкой (чтобы гарантированно
    защититься от взятки).» A joker led high or low without a call leads no suit: any
    card may follow; high, it takes the trick; low, it never does, and the first
    ordinary card sets the suit (hearts are trumps here)."""
    d = _deal(HANDS)
    for s in range(4):
        d.apply(s, bid(0))
    assert play(JOKER_1, "high") in d.legal_actions()
    d.apply(0, play(JOKER_1, "high"))
    # seat 1 holds a trump and a spade: no suit was led, so either may be played
    assert {a.card for a in d.legal_actions()} == {parse_card("9s"), parse_card("Ah")}
    d.apply(1, play("9s"))
    d.apply(2, play("Qd"))
    d.apply(3, play("Ac"))
    assert d.tricks[-1][1] == 0  # the joker, played high, takes it
    low = [Played(0, play(JOKER_1, "low")), Played(1, play("9s")), Played(2, play("Ks")),
           Played(3, play("Ac"))]
    assert trick_winner(low, HEARTS) == 2  # the highest spade, not the ace
    low[3] = Played(3, play("7h"))
    assert trick_winner(low, HEARTS) == 3  # a trump takes it


def test_painted_a_joker_call_can_be_made_a_must_by_option():
    """«Выкладывающий джокера может заявить специальные правила на текущий ход»: option
    ``joker_call = required`` keeps the stricter table rule (every joker lead names a
    call); a bad value is one error naming the field."""
    assert PaintedOptions().joker_call == "optional"
    leads = legal_plays([JOKER_1, parse_card("6c")], None, HEARTS, call_required=True)
    assert all(a.suit >= 0 or a.joker == "trumps" for a in leads if a.card == JOKER_1)
    d = _deal(HANDS, PaintedOptions(jokers=1, joker_call="required"))
    for s in range(4):
        d.apply(s, bid(0))
    with pytest.raises(IllegalAction):
        d.apply(0, play(JOKER_1, "high"))
    with pytest.raises(PaintedError, match="joker_call"):
        PaintedGame({"joker_call": "never"})


@pytest.mark.parametrize("bot", ["random", "rule", "sim"])
def test_painted_bots_play_legally_when_a_joker_may_lead_without_a_call(bot):
    """The bots under the new default: every answer is one of the legal actions (the
    game would raise otherwise) through a whole short game with two jokers."""
    options = {"jokers": 2, "max_cards": 3, "deals_at_max": 1, "special_count": 1}
    fam = family("painted")
    for seed in range(2 if bot == "sim" else 6):
        bots = [fam.new_bot(bot, seed * 4 + i) for i in range(4)]
        hand = play_game(PaintedGame(options), bots, seed)
        assert hand.is_over


def test_durak_runs_play_each_unit_as_a_series_per_seating():
    """«Первый сдатчик определяется жребием, в следующей игре сдает карты игрок, который
    проиграл в предыдущей игре.» A run's unit (here a duplicate one: each deal in both
    seatings) plays one series per seating: its first game dealt by lot, each later one
    dealt by the last durak of the same seating, and every game's position is recorded
    in ``durak_games.series_game``."""
    from pokerarena.workers.family_unit import play_family_unit
    from pokerarena.workers.unit import Unit

    unit = Unit("u", 0, 0, 0, "durak", "none", {}, ("rule", "counter"), 12, 0, 5, (0,),
                duplicate=True)
    played = play_family_unit(unit)
    rows = played.tables["durak_games"].to_pylist()
    games: dict[int, dict] = {}
    for r in rows:
        g = games.setdefault(r["game"], {"dealer": r["dealer"], "pos": r["series_game"],
                                         "durak": None})
        assert (r["dealer"], r["series_game"]) == (g["dealer"], g["pos"])
        if r["durak"]:
            g["durak"] = r["seat"]
    assert sorted(games) == list(range(12))
    for seating in (0, 1):
        chain = [games[g] for g in range(seating, 12, 2)]
        assert [g["pos"] for g in chain] == list(range(6))
        for before, after in zip(chain, chain[1:], strict=False):
            expected = before["durak"] if before["durak"] is not None else before["dealer"]
            assert after["dealer"] == expected
    assert any(g["durak"] is not None and g["durak"] != g["dealer"] for g in games.values())
