"""American durak under random play (hypothesis invariants), its views and JSON forms,
its score record, the series loop, and the built-in bots' duplicate tournament."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerarena.cards import card_str, parse_card, parse_cards
from pokerarena.engine.actions import IllegalAction
from pokerarena.errors import UserError
from pokerarena.games import family
from pokerarena.games.durak import DurakGame, play_series
from pokerarena.games.durak.actions import DurakAction, throw
from pokerarena.games.play import duplicate, play_game

FAM: Any = family("durak")  # every optional field is filled
_SETTINGS = settings(max_examples=25, deadline=None)


def _state(h) -> tuple:
    return (tuple(map(tuple, h.hands)), tuple(h.stock), tuple(map(tuple, h.table)),
            tuple(h.discard), h.phase, h.to_act, tuple(sorted(h.passed)), len(h.log))


@_SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), deck=st.sampled_from([36, 52]))
def test_random_play_finishes_with_every_card_accounted_for(seed: int, players: int,
                                                           deck: int) -> None:
    """Every card is in a hand, the stock, on the table or in the discard at every step,
    and random legal play ends with at most one player holding cards («пока не
    останется один игрок с картами на руках»)."""
    game = DurakGame({"deck": deck})
    h = game.new_hand(seed, players)
    rng = random.Random(seed)
    full = sorted(game.deck)
    for _ in range(5000):
        if h.is_over:
            break
        h.apply(rng.choice(h.legal_actions()), h.to_act)
        assert h.cards_accounted() == full
    assert h.is_over and h.to_act == -1 and h.legal_actions() == ()
    r = h.result()
    holding = [s for s in range(players) if h.hands[s]]
    assert holding == ([] if r.durak is None else [r.durak])
    assert sorted(r.deltas) == ([-1.0] if r.durak is not None else []) + \
        [0.0] * (players - (r.durak is not None))
    assert len(set(r.out_order)) == len(r.out_order) == players - len(holding)


@_SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), steps=st.integers(0, 60))
def test_an_illegal_action_changes_nothing_and_replay_reproduces(seed: int, players: int,
                                                                  steps: int) -> None:
    """An action out of turn, of a card not held or not allowed is refused with the hand
    unchanged; the log replays into the same game."""
    game = DurakGame()
    h = game.new_hand(seed, players, dealer=seed % players)
    rng = random.Random(seed)
    for _ in range(steps):
        if h.is_over:
            break
        h.apply(rng.choice(h.legal_actions()))
    if not h.is_over:
        before = _state(h)
        legal = set(h.legal_actions())
        wrong = [DurakAction(k, c) for k in ("throw", "beat") for c in game.deck
                 if DurakAction(k, c) not in legal]
        for bad in (rng.choice(wrong), DurakAction("take") if DurakAction("take") not in
                    legal else DurakAction("fold"), ("throw",), "pass"):
            with pytest.raises(IllegalAction):
                h.apply(bad)  # type: ignore[arg-type]
            assert _state(h) == before
        with pytest.raises(IllegalAction):
            h.apply(h.legal_actions()[0], (h.to_act + 1) % players)
        assert _state(h) == before
    again = game.replay(seed, players, list(h.log), dealer=seed % players)
    assert _state(again) == _state(h)


@_SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), steps=st.integers(0, 80))
def test_a_view_shows_only_what_its_seat_may_know(seed: int, players: int, steps: int) -> None:
    """A seat's JSON view names its own cards and those seen on the table, taken or
    discarded, never an unseen card of another hand; its legal actions parse back."""
    h = DurakGame().new_hand(seed, players)
    rng = random.Random(seed)
    for _ in range(steps):
        if h.is_over:
            break
        h.apply(rng.choice(h.legal_actions()))
    for seat in range(players):
        view = h.observation(seat)
        text = json.dumps(FAM.view_json(view))
        seen = {c for _, a in h.log for c in [a.card] if c >= 0} | {h.trump_card}
        for other in range(players):
            for c in h.hands[other]:
                if other != seat and c not in seen:
                    assert f'"{card_str(c)}"' not in text
        assert view.hand == tuple(sorted(h.hands[seat]))
        for a in view.legal:
            assert FAM.parse_action(FAM.action_json(a), view) == a


def test_the_record_has_a_row_per_seat_in_column_order() -> None:
    """One row per seat, in the record's column order; the durak's is the only row with
    ``durak`` true and -1 points."""
    game = DurakGame()
    bots = [FAM.new_bot(name, i) for i, name in enumerate(("counter", "rule", "random"))]
    h = play_game(game, bots, 11)
    rows = FAM.record_rows(h)
    cols = [c[0] for c in FAM.record.columns]
    assert len(rows) == 3 and all(len(r) == len(cols) for r in rows)
    by = [dict(zip(cols, r, strict=True)) for r in rows]
    assert [r["durak"] for r in by].count(True) == (h.result().durak is not None)
    for r in by:
        assert r["points"] == (-1.0 if r["durak"] else 0.0)
        assert (r["place"] == 3) == r["durak"] and r["bouts"] == h.result().bouts


def test_a_series_is_dealt_by_each_last_durak() -> None:
    """«в следующей игре сдает карты игрок, который проиграл в предыдущей игре»: the
    family's play loop chains the games so, the first one led by the lowest trump."""
    names = ["rule", "random", "counter"]
    game = DurakGame()
    dealer = None
    expected = []
    for g in range(4):
        h = play_game(game, [FAM.new_bot(n, (3 + g) * 31 + i) for i, n in enumerate(names)],
                      3 + g, dealer)
        if dealer is not None:
            assert h.dealer == dealer and h.first_attacker == (dealer + 1) % 3
        dealer = h.result().durak if h.result().durak is not None else h.dealer
        expected.append(h.result().deltas)
    assert FAM.play is play_series and FAM.play({}, names, 4, 3) == expected


def test_unknown_bots_are_one_clear_error() -> None:
    with pytest.raises(UserError, match="unknown bot 'bogus'"):
        FAM.new_bot("bogus", 1)
    assert set(FAM.bots) == {"random", "rule", "counter"}


def test_the_bots_play_every_table_size() -> None:
    """Each bot finishes games of 2 to 6 players with legal actions only."""
    for n in range(2, 7):
        names = [FAM.bots[i % 3] for i in range(n)]
        for r in FAM.play({"deck": 52 if n > 4 else 36}, names, 1, n):
            assert len(r) == n and sum(r) in (-1.0, 0.0)


def test_throwing_in_to_oneself_is_played_by_the_rule_bot() -> None:
    """«он имеет право подкинуть самому себе, а потом отбить»: the rule bot, defending,
    throws itself a plain card it can beat with a plain card at once."""
    game = DurakGame()
    h = game.arranged([parse_cards("6d 8d Ts Qd 9h Qh"), parse_cards("6s 7d Ad As 8h Th")],
                      [], 0, parse_card("9h"))
    h.apply(throw("6d"))
    rule = FAM.new_bot("rule", 0)
    h.apply(rule.act(h.observation(1)))            # beats with 7d
    h.apply(FAM.new_bot("rule", 0).act(h.observation(0)))  # nothing to throw: passes
    assert rule.act(h.observation(1)) == throw("6s")


@pytest.mark.parametrize(("a", "b"), [("counter", "rule"), ("rule", "random")])
def test_the_stronger_bot_wins_the_duplicate_tournament(a: str, b: str) -> None:
    """Duplicate games (the same cards, each seating played both ways), two players:
    the card counter beats the rule bot and the rule bot beats random, the 95% interval
    of the difference excluding 0."""
    c = duplicate(FAM, a, b, players=2, games=40, seed=1)
    assert c.mean > 0 and c.significant, c.as_text()
