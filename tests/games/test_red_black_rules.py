"""Red and black («Красное и черное», ``003_…``) hand by hand against the document, and
the banker's edge: exact by combinatorics, checked against a brute-force enumeration and
against the simulated edge of real games (the intervals cover it as often as 95% ones
should)."""

from __future__ import annotations

import itertools
import math

import pytest

from pokerarena.cards import parse_cards
from pokerarena.engine.actions import IllegalAction
from pokerarena.games.red_black import Bet, RedBlackError, RedBlackGame, RedBlackHand
from pokerarena.games.red_black.edge import (
    bet_ev,
    counted_ev,
    exact_edges,
    simulate_edges,
)
from pokerarena.games.red_black.rules import deck_cards, is_red, payout


def _hand(cards: str, seats: int = 3, dealer: int = 0, **options) -> RedBlackHand:
    """A game whose deck is ``cards`` first, then the rest of the deck in code order."""
    game = RedBlackGame(options)
    top = parse_cards(cards)
    return RedBlackHand(game, seats, dealer, top + [c for c in game.deck if c not in top])


def test_three_of_the_declared_colour_wins_the_stake_else_the_banker_takes_it():
    """«Если хотя бы три карты у игрока окажутся объявленного им цвета, сдающий платит
    ему ставку, в противном случае забирает себе.»"""
    h = _hand("2h3d4h5c6s" "2c3s4s5d6h", seats=3, dealer=0, order="each", max_bet=10)
    assert h.to_act == 1  # «начиная с игрока, сидящего слева от сдающего»
    h.apply(Bet("red", 4))
    assert h.settled[-1].matched == 3 and h.settled[-1].gain == 4
    h.apply(Bet("red", 2))   # two red of five: the banker takes the stake
    assert h.settled[-1].matched == 2 and h.settled[-1].gain == -2
    assert h.is_over and h.result().deltas == (-2, 4, -2)


def test_all_five_of_one_colour_pays_double_either_way():
    """«Если же у игрока случились все пять карт одного цвета, выплата или получение
    ставки производят в двойном размере.»"""
    h = _hand("2h3h4d5d6h" "2c3c4s5s6c", seats=3, dealer=2, order="each", max_bet=10)
    assert h.to_act == 0
    h.apply(Bet("red", 3))     # five red, declared red: paid double
    h.apply(Bet("red", 3))     # five black, declared red: pays double
    assert [r.gain for r in h.settled] == [6, -6]
    assert h.result().deltas == (6, -6, 0)
    assert [payout(k) for k in range(6)] == [-2, -1, -1, 1, 1, 2]


def test_the_banker_does_not_bet_and_the_players_bet_in_turn_from_his_left():
    """«Все участники, начиная с игрока, сидящего слева от сдающего, делают минимальные
    ставки»; the dealer banks («сдающий платит ему ставку»): his chips are the players'
    negated."""
    h = RedBlackGame().new_hand(5, 5, dealer=3)
    order = []
    while not h.is_over:
        order.append(h.to_act)
        with pytest.raises(IllegalAction):
            h.apply(Bet("red", 1), 3)   # the banker never acts
        h.apply(Bet("black", 1))
    assert order == [4, 0, 1, 2]
    assert sum(h.result().deltas) == 0 and h.result().deltas[3] == -sum(
        r.gain for r in h.settled)


def test_order_all_first_by_default_and_each_as_an_option():
    """«делают минимальные ставки и объявляют … Сдающий дает игроку пять карт лицевой
    стороной вверх»: the whole table declares first (``all_first``, default; the
    reading and its quote are in ``test_rule_readings_32``), or each player in turn
    (``each``, an option)."""
    h = RedBlackGame().new_hand(1, 3, dealer=0)
    h.apply(Bet("red", 1))
    v = h.observation(2)
    assert v.settled == () and v.cards_left == 52 and v.declared == {1: Bet("red", 1)}
    h.apply(Bet("black", 1))
    assert len(h.settled) == 2 and h.is_over
    h = RedBlackGame({"order": "each"}).new_hand(1, 3, dealer=0)
    h.apply(Bet("red", 1))
    v = h.observation(2)
    assert len(v.settled) == 1 and v.cards_left == 47  # seat 1's cards lie face up


def test_stakes_are_the_minimum_by_default_and_free_up_to_max_bet_as_an_option():
    """«делают минимальные ставки»: by default every bet is ``min_bet``; with ``max_bet``
    set, nothing below ``min_bet``, nothing above ``max_bet``; an illegal bet changes
    nothing."""
    h = RedBlackGame({"min_bet": 2}).new_hand(0, 2, dealer=0)
    assert {b.stake for b in h.legal_actions()} == {2}
    h = RedBlackGame({"min_bet": 2, "max_bet": 5}).new_hand(0, 2, dealer=0)
    assert {b.stake for b in h.legal_actions()} == {2, 3, 4, 5}
    for bad in (Bet("red", 1), Bet("black", 6), ("green", 2), "red 2", Bet("red", True)):
        with pytest.raises(IllegalAction):
            h.apply(bad)  # type: ignore[arg-type]
    assert h.log == [] and h.totals == [0, 0]


def test_rounds_deal_one_deck_down_and_too_many_is_one_error():
    """A game of several rounds from one deck (``rounds``; 0: as many as it holds)."""
    h = RedBlackGame({"rounds": 0}).new_hand(2, 4, dealer=1)
    n = 0
    while not h.is_over:
        h.apply(h.legal_actions()[0])
        n += 1
    assert n == 9 and len(h.undealt()) == 52 - 45 and h.rounds == 3
    with pytest.raises(RedBlackError, match="rounds"):
        RedBlackGame({"rounds": 4}).new_hand(2, 4, dealer=1)
    with pytest.raises(RedBlackError, match="36"):
        RedBlackGame({"deck": 36}).new_hand(2, 9)   # 8 players need 40 cards


@pytest.mark.parametrize("options, field", [({"max_bet": 0}, "max_bet"),
                                            ({"min_bet": 3, "max_bet": 2}, "min_bet"),
                                            ({"deck": 40}, "deck"), ({"order": "x"}, "order"),
                                            ({"bogus": 1}, "bogus"), ({"rounds": -1}, "rounds")])
def test_a_bad_option_is_one_error_naming_it(options, field):
    with pytest.raises(RedBlackError, match=field):
        RedBlackGame(options)


def _brute_ev(own: int, other: int) -> float:
    cards = [True] * own + [False] * other
    combos = list(itertools.combinations(range(len(cards)), 5))
    return sum(payout(sum(cards[i] for i in c)) for c in combos) / len(combos)


def test_the_exact_expectation_agrees_with_brute_force_enumeration():
    """The combinatorics of :func:`bet_ev` against every five-card subset of small
    decks; a fresh deck (26 red, 26 black, or 18/18) gives a fair blind bet."""
    for own, other in ((6, 5), (3, 8), (7, 7), (10, 2)):
        assert bet_ev(own, other) == pytest.approx(_brute_ev(own, other), abs=1e-12)
    assert bet_ev(26, 26) == pytest.approx(0, abs=1e-12)
    assert bet_ev(18, 18) == pytest.approx(0, abs=1e-12)
    # the second player has seen five cards: never an even split, so an edge
    deck = [is_red(c) for c in deck_cards(RedBlackGame().options)]
    ev = 0.0
    for red_seen in range(6):
        p = math.comb(26, red_seen) * math.comb(26, 5 - red_seen) / math.comb(52, 5)
        r, b = 26 - red_seen, 26 - (5 - red_seen)
        ev += p * bet_ev(max(r, b), min(r, b))
    assert sum(deck) == 26 and counted_ev(52, 5) == pytest.approx(ev) and ev > 0.08


def test_simulated_edges_cover_the_exact_ones_as_often_as_95_percent_intervals_should():
    """The banker's edge against the counted colour at each of a table's positions,
    exact and simulated (200 games a seed, 12 seeds, 3 positions of a game dealt
    down): 36 intervals; P(at most 30 of 36 cover | 95% each) < 0.01."""
    options = {"rounds": 0, "deck": 36, "order": "each"}
    exact = exact_edges(options, 2)["counted"]
    covered = total = 0
    for seed in range(12):
        sims = simulate_edges(options, 2, "counted", 200, seed)
        assert len(sims) == len(exact) == 6
        for e, s in zip(exact[1:4], sims[1:4], strict=True):
            covered += s.covers(e)
            total += 1
    assert total == 36 and covered >= 31, covered
    # and the edge is real: far from 0 at the deepest position
    assert exact[5] < -0.2 and simulate_edges(options, 2, "counted", 400, 99)[5].mean < -0.1
