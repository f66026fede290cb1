"""Binocle («Биного», ``003_…``) hand by hand against the document, and the exact
expectation: against every order of a small stock played through the game, and against
simulated stocks (the intervals cover it as often as 95% ones should)."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from pokerarena.cards import parse_cards
from pokerarena.engine.actions import IllegalAction
from pokerarena.games.binocle import BinocleError, BinocleGame, BinocleHand, Move
from pokerarena.games.binocle.edge import deal_check
from pokerarena.games.binocle.exact import value_now
from pokerarena.games.binocle.rules import value_of

# seats 1, 2, 0 in staking order (dealer 0 last); then the stock
HANDS = "KcKd2c3c4c" "Ac5c6c7c8c" "9cTcJcQc2d"


def _hand(stock: str, hands: str = HANDS, seats: int = 3, **options) -> BinocleHand:
    """A game with these hands (dealt in staking order) and this stock on top; the rest
    of the deck follows in code order."""
    game = BinocleGame(options)
    top = parse_cards(hands + stock)
    return BinocleHand(game, seats, 0, top + [c for c in game.deck if c not in top])


def test_a_card_asks_its_value_on_each_matching_card():
    """«ставит на нее количество фишек, соответствующее номиналу этой карты, а именно
    тринадцать фишек за короля, двенадцать — за даму … за туза надо ставить одну фишку.
    Если у игрока окажется несколько карт указанного номинала, он должен поставить
    соответствующее число фишек на каждую из них.»"""
    assert [value_of(c) for c in parse_cards("KsQsJsTs2sAs")] == [13, 12, 11, 10, 2, 1]
    h = _hand("KhAh")
    assert h.to_act == 1 and h.legal_actions() == (Move("stake", 26),)  # two kings
    h.apply(Move("stake", 26))
    assert h.to_act == 2 and h.legal_actions() == (Move("stake", 1),)   # the ace
    with pytest.raises(IllegalAction):
        h.apply(Move("stake", 2))
    with pytest.raises(IllegalAction):
        h.apply(Move("drop"))   # every stake is compulsory («должен поставить»)
    h.apply(Move("stake", 1))
    assert h.staked == [0, 26, 1] and h.covered[1] == [True, True, False, False, False]


def test_the_dealer_turns_on_past_cards_nobody_holds():
    """«Сдающий открывает верхние карты колоды, по одной за раз»: a card nobody matches
    asks nothing; the next stake is asked of whoever matches the next card."""
    h = _hand("5h9d")   # the five is seat 2's; then the nine is the dealer's
    assert h.to_act == 2 and len(h.turned) == 1
    h.apply(Move("stake", 5))
    assert h.to_act == 0 and h.legal_actions() == (Move("stake", 9),)


def test_the_first_covered_takes_every_stake():
    """«Игрок, который первым расставит фишки на всех своих пяти картах, забирает все
    фишки на картах всех игроков.»"""
    h = _hand("KhAh2h3h9h4h")
    while not h.is_over:
        h.apply(h.legal_actions()[0])
    # seat 1: 26 + 2 + 3 + 4 = 35 and covered; seat 2: 1; seat 0: 2 (the deuce) + 9
    assert h.staked == [11, 35, 1] and h.result().winners == (1,)
    assert h.result().deltas == (-11.0, 12.0, -1.0)


def test_a_tie_goes_to_the_first_to_stake_or_is_split():
    """«первым расставит фишки»: on the card that covers two players at once, the first
    to stake from the dealer's left wins (``tie = order``); ``split`` shares the pot."""
    hands = "2c3c4c5c6c" "2d3d4d5d6d" "9cTcJcQcKc"
    stock = "2h3h4h5h6h"
    h = _hand(stock, hands)
    while not h.is_over:
        h.apply(h.legal_actions()[0])
    assert h.result().winners == (1,) and h.staked == [0, 20, 14]  # seat 2 never staked 6
    h = _hand(stock, hands, tie="split")
    while not h.is_over:
        h.apply(h.legal_actions()[0])
    assert h.result().winners == (1, 2) and h.result().deltas == (0.0, 0.0, 0.0)
    # an odd pot: the dealer's ace makes it 41; seat 1, first in order, has the odd chip
    h = _hand("Ad2h3h4h5h6h", hands.replace("Kc", "Ac"), tie="split")
    while not h.is_over:
        h.apply(h.legal_actions()[0])
    assert sum(h.staked) == 41 and h.result().deltas == (-1, 1, 0)


def test_a_covered_card_is_not_staked_again_unless_restake():
    """«ставит на нее»: a card once covered asks nothing more (``restake`` asks again)."""
    h = _hand("KhKs")
    h.apply(Move("stake", 26))
    assert h.turned[-1] != parse_cards("Ks")[0]   # the second king asked nothing
    h = _hand("KhKs", restake=True)
    h.apply(Move("stake", 26))
    assert h.to_act == 1 and h.legal_actions() == (Move("stake", 26),)


def test_dropping_out_leaves_the_chips_and_the_game():
    """``drop`` (not in the document): the chips stay on the cards for the winner."""
    h = _hand("KhAh2h", drop=True)
    assert Move("drop") in h.legal_actions()
    h.apply(Move("stake", 26))
    h.apply(Move("drop"))          # seat 2 will not stake on its ace
    assert h.active == [True, True, False] and h.to_act == 1   # the deuce: seat 1 ...
    h.apply(Move("stake", 2))
    assert h.to_act == 0           # ... and the dealer, 2d


def test_a_stock_that_runs_out_returns_the_stakes_or_gives_them_to_the_dealer():
    """The document names no end without a winner: the stakes ``return`` (default) or
    go to the ``dealer``. Every seat here holds a rank the others hold all of."""
    hands = "2c2d2h3c3d" "3h3s4c4d4h" "4s2sAcAdAh"
    for unclaimed, dealer_gets in (("return", 0.0), ("dealer", None)):
        h = _hand("", hands, unclaimed=unclaimed)
        while not h.is_over:
            h.apply(h.legal_actions()[0])
        assert not h.stock and h.result().winners == ()
        d = h.result().deltas
        assert sum(d) == 0
        if dealer_gets is None:
            assert d[0] == sum(h.staked) - h.staked[0] and d[1] == -h.staked[1]
        else:
            assert d == (0.0, 0.0, 0.0)


def test_a_dealer_who_does_not_play_holds_no_cards():
    h = BinocleGame({"dealer_plays": False}).new_hand(1, 3, dealer=2)
    assert h.hands[2] == () and h.seats == (0, 1) and len(h.stock) + len(h.turned) == 42
    with pytest.raises(BinocleError, match="dealer_plays"):
        BinocleGame({"dealer_plays": False}).new_hand(1, 2)


@pytest.mark.parametrize("options, field", [({"tie": "first"}, "tie"), ({"x": 1}, "x"),
                                            ({"unclaimed": "pot"}, "unclaimed")])
def test_a_bad_option_is_one_error_naming_it(options, field):
    with pytest.raises(BinocleError, match=field):
        BinocleGame(options)


def _late_position(options: dict, seats: int = 8):
    """A game of ``seats`` stopped with at most 7 cards to turn, just as the first
    player a turned card matches is asked (no stake made on that card yet): the position
    before that card, the log, the deck up to there and the cards still to turn."""
    game = BinocleGame(options)
    for seed in range(400):
        h = game.new_hand(seed, seats, 0)
        while not h.is_over and len(h.stock) >= 7:
            h.apply(h.legal_actions()[0])
        first = next((s for s in h.seats if h.active[s] and h.asked(s) > 0), -1)
        if not h.is_over and h.to_act == first:
            dealt = [c for s in h.seats for c in h.hands[s]]
            view = h.observation(0)
            pos = replace(view, turned=view.turned[:-1])
            if all(value_now(pos, s) == 0 for s in h.seats):
                continue   # nobody can be covered any more: nothing to check
            return game, pos, list(h.log), dealt + h.turned[:-1], [h.turned[-1], *h.stock]
    raise AssertionError("no late position found")


@pytest.mark.parametrize("options", [{}, {"tie": "split"}, {"unclaimed": "dealer"}])
def test_the_exact_expectation_equals_every_order_of_the_stock_played_out(options):
    """The kernel's walk over first appearances against the game itself: every order
    of a small stock played through :class:`BinocleHand`, averaged."""
    game, pos, log, prefix, stock = _late_position(options)
    assert 2 <= len(stock) <= 7
    totals = [0.0] * 8
    orders = list(itertools.permutations(stock))
    for perm in orders:
        h = BinocleHand(game, 8, 0, prefix + list(perm))
        for seat, move in log:
            h.apply(move, seat)
        while not h.is_over:
            h.apply(h.legal_actions()[0])
        totals = [t + d for t, d in zip(totals, h.result().deltas, strict=True)]
    values = [value_now(pos, s) for s in range(8)]
    assert values == pytest.approx([t / len(orders) for t in totals], abs=1e-9)
    assert max(values) > 1 and sum(values) == pytest.approx(0, abs=1e-9)


def test_simulated_stocks_cover_each_deals_exact_expectation_as_95_percent_should():
    """Eight deals of four seats, 300 stocks each: 32 intervals; P(at most 27 cover |
    95% each) < 0.02."""
    covered = 0
    for deal in range(8):
        exact, sims = deal_check({}, 4, deal, 300, seed=deal + 100)
        assert sum(exact) == pytest.approx(0, abs=1e-9)
        covered += sum(s.covers(e) for e, s in zip(exact, sims, strict=True))
    assert covered >= 28, covered
