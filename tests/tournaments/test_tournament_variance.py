"""All-in equity settlement on hands played with fixed cards."""

from __future__ import annotations

import numpy as np
import pytest
from handplay import deal, manual

from pokerarena.cards import parse_cards
from pokerarena.engine import CHECK_CALL, DEALER, Action, bet_to
from pokerarena.tournaments.variance import allin_board, equity_deltas


def _allin_preflop(h1, h2, board, stacks=(1000, 1000)):
    hand = manual("holdem", list(stacks), betting="no_limit")
    deal(hand, h1, h2)
    hand.apply(bet_to(hand.legal_actions().max_to))  # first to act shoves
    hand.apply(CHECK_CALL)
    while not hand.is_over:
        assert hand.to_act == DEALER
        k = {0: 3}.get(len(_board(hand)), 1)
        hand.apply(Action("db", 0, tuple(parse_cards(board))[len(_board(hand)):][:k]),
                   DEALER)
    return hand


def _board(hand):
    return [c for _, a in hand.log if a.kind == "db" for c in a.cards]


def test_aces_against_kings_all_in_preflop_are_credited_their_equity():
    """AA vs KK all in before the flop, the kings hit a king: dealt, the kings win the
    2,000-chip pot; settled by equity, the aces get 81.26% of it (AsAh v KdKc, no
    suit shared: the aces win 81.06% of the 1,712,304 boards and tie 0.38%, the
    published figures)."""
    hand = _allin_preflop("AsAh", "KdKc", "Kh7c2d9s3h")
    res = hand.result()
    assert allin_board(hand) == []
    eq = equity_deltas(hand)
    assert eq is not None and sum(eq) == pytest.approx(sum(res.deltas))
    aces = [s for s in range(2) if hand.cards_of(s)[0] >> 2 == 12][0]
    assert res.deltas[aces] == -1000  # the kings won the deal
    assert eq[aces] == pytest.approx(2000 * (0.8106 + 0.0038 / 2) - 1000, abs=1.0)


def test_a_hand_without_runout_keeps_its_deltas():
    hand = manual("holdem", [1000, 1000], betting="no_limit")
    deal(hand, "AsAh", "KdKc")
    hand.apply(CHECK_CALL)
    hand.apply(CHECK_CALL)
    for cards in ("7c2d9s", "3h", "4d"):
        hand.apply(Action("db", 0, tuple(parse_cards(cards))), DEALER)
        hand.apply(CHECK_CALL)
        hand.apply(CHECK_CALL)
    assert hand.is_over and allin_board(hand) is None and equity_deltas(hand) is None


def test_side_pots_are_settled_among_their_own_players():
    """Three players all in before the flop with 100, 300 and 300 chips: the main pot
    (300) is shared by equity among all three, the side pot (400) between the two big
    stacks only; chips are conserved and each pot's equity sums to the pot."""
    hand = manual("holdem", [100, 300, 300], betting="no_limit")
    deal(hand, "2c2d", "AsKs", "QhQd")
    while not hand.is_over and hand.to_act != DEALER:
        legal = hand.legal_actions()
        hand.apply(bet_to(legal.max_to) if "cbr" in legal.kinds else CHECK_CALL)
    for cards in ("7c8d9h", "Th", "3c"):
        hand.apply(Action("db", 0, tuple(parse_cards(cards))), DEALER)
    res = hand.result()
    assert [p.amount for p in res.pots] == [300, 400]
    eq = equity_deltas(hand, samples=20000, seed=1)
    assert eq is not None and sum(eq) == pytest.approx(0.0, abs=1e-6)
    assert -100 <= eq[0] <= 200  # the short stack can win the main pot only
    from pokerarena.evaluator.equity import equity
    side = equity(["AsKs", "QhQd"], [], "holdem", samples=20000, seed=1)
    main = equity(["2c2d", "AsKs", "QhQd"], [], "holdem", samples=20000, seed=1)
    expect_q = 300 * main.players[2].equity + 400 * side.players[1].equity - 300
    assert eq[2] == pytest.approx(expect_q, abs=1e-6)


def _units(**kw):
    from pokerarena.platform.planner import plan
    from pokerarena.platform.spec import parse_spec

    spec = {"kind": "tournament", "bots": ["call", "maniac"], "seats": 2, "hands": 60,
            "unit_hands": 60, "games": [{"variant": "holdem", "betting": "no_limit"}]}
    spec.update(kw)
    return plan(parse_spec(spec)).units


def test_the_baseline_plays_the_same_deals_in_the_same_seats():
    """A baseline of ``call``: every seat row carries the baseline's net on that deal,
    the baseline's nets sum to zero on every hand, they differ from what ``maniac``
    and ``call`` won, and a spec without a baseline stores none."""
    from pokerarena.workers.records import play_unit

    (unit,) = _units(baseline="call")
    rows = play_unit(unit).tables["seats"].to_pydict()
    base = rows["baseline_net"]
    assert all(b is not None for b in base)
    for k in range(0, len(base), 2):  # heads-up: two seat rows per hand
        assert base[k] + base[k + 1] == 0
    assert rows["net"] != base
    (plain,) = _units()
    assert set(play_unit(plain).tables["seats"].to_pydict()["baseline_net"]) == {None}


def test_call_against_call_is_its_own_baseline():
    """The same bots as the baseline on the same deals in the same seats win exactly
    what the baseline wins: the deals and seats are really the same."""
    from pokerarena.workers.records import play_unit

    (unit,) = _units(bots=["call", "random"], baseline="call", seed=3)
    unit = unit.__class__(**{**unit.to_dict(), "bots": ("call", "call"),
                             "spawn_key": unit.spawn_key, "limits": unit.limits,
                             "deal_key": unit.deal_key})
    seats = play_unit(unit).tables["seats"].to_pydict()
    assert seats["net"] == seats["baseline_net"]


def test_equity_net_conserves_chips_and_cuts_the_spread():
    """``maniac`` against ``call`` at no limit goes all in before the river often: the
    equity-settled nets sum to zero on every hand, equal the dealt nets where there was
    no runout, and their spread is smaller than the dealt nets'."""
    from pokerarena.workers.records import play_unit

    (unit,) = _units(hands=300, unit_hands=300, seed=5)
    seats = play_unit(unit).tables["seats"].to_pydict()
    net, eq = seats["net"], seats["equity_net"]
    for k in range(0, len(net), 2):
        assert eq[k] + eq[k + 1] == pytest.approx(0, abs=0.01)
    changed = [k for k in range(len(net)) if eq[k] != net[k]]
    assert changed and len(changed) < len(net)
    assert np.std(eq) < np.std(net)


def test_a_baseline_must_be_a_registered_bot():
    from pokerarena.platform.spec import SpecError

    with pytest.raises(SpecError, match="baseline"):
        _units(baseline="nobody")
    with pytest.raises(SpecError, match="baseline"):
        _units(baseline="pkg.mod:Bot")
