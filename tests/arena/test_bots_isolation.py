"""A bot reaches nothing of the hand through what it is given: not in ``pokerarena
play``, not in a run's unit; disconnection protection; the per-decision hook."""

from __future__ import annotations

import io
import json
import time
from contextlib import redirect_stdout

import isolation_spy
import numpy as np
import pytest

from pokerarena.arena.faults import FaultPolicy
from pokerarena.arena.match import play_match, showdown_categories
from pokerarena.arena.views import build_view
from pokerarena.cli import main
from pokerarena.engine import Game
from pokerarena.engine.actions import (
    DISCARD_KIND,
    PLAYER_KINDS,
    SHOW_KIND,
    UNKNOWN,
    Action,
    IllegalAction,
)
from pokerarena.engine.hand import PROTECT_KIND

SPY = "isolation_spy:Spy"


@pytest.fixture
def hands(monkeypatch):
    """Every hand played while the test runs, in order (the test's own record, taken
    through the sessions' and matches' ``on_hand`` hooks)."""
    from pokerarena.arena import match, session

    dealt = []

    def recording(play):
        def wrapped(*args, on_hand=None, **kwargs):
            def hook(hand_no, hand, seats):
                assert hand_no == len(dealt)
                dealt.append(hand)
                if on_hand is not None:
                    on_hand(hand_no, hand, seats)
            return play(*args, on_hand=hook, **kwargs)
        return wrapped

    monkeypatch.setattr(session, "play_session", recording(session.play_session))
    monkeypatch.setattr(match, "play_match", recording(match.play_match))
    isolation_spy.reset()
    return dealt


def _view_cards(view) -> set[int]:
    cards = set(view.hole) | set(view.board)
    for u in view.up:
        cards |= set(u)
    for _, act in view.history:
        cards |= set(act.cards)
    return cards


def _check_views(dealt) -> int:
    """Each kept view shows only what its seat could see of its hand."""
    checked = 0
    for view in isolation_spy.VIEWS:
        hand = dealt[view.hand_no]
        seat = view.seat
        seen_log = hand.log[:len(view.history)]
        own = set(hand.cards_of(seat)) | {c for a, act in hand.log if a == seat
                                          and act.kind == DISCARD_KIND for c in act.cards}
        end = hand.observation(seat)
        shown = {c for a, act in seen_log if act.kind == SHOW_KIND for c in act.cards}
        visible = own | {c for u in end.up for c in u} | set(end.board) | shown | {UNKNOWN}
        leaked = _view_cards(view) - visible
        assert not leaked, (view.hand_no, seat, sorted(leaked))
        assert not _view_cards(view) & (set(hand.stock) - visible)
        checked += 1
    return checked


PATH_GAMES = [("holdem", {"betting": "no_limit"}), ("stud7", {}), ("draw5", {}),
              ("knock", {}), ("stud7", {"hilo": "declare_simultaneous"}),
              ("stud5", {"last_card_choice": True})]


def _leaks(hand, view) -> set[int]:
    """Cards in ``view`` its seat could not have seen in ``hand`` by now."""
    seat = view.seat
    log = hand.log[:len(view.history)]
    own = set(hand.cards_of(seat)) | {c for a, act in log if a == seat for c in act.cards
                                      if act.kind == DISCARD_KIND}
    public = {c for _, act in log for c in act.cards
              if act.kind in (SHOW_KIND, "db")
              or (act.kind == DISCARD_KIND and hand.prog.discards_face_up)}
    obs = hand.observation(seat)
    visible = own | public | {c for u in obs.up for c in u} | set(obs.board) | {UNKNOWN}
    return _view_cards(view) - visible


@pytest.mark.parametrize("fast", [True, False], ids=["fast-path", "observation-path"])
@pytest.mark.parametrize(("variant", "options"), PATH_GAMES,
                         ids=[f"{v}-{'-'.join(map(str, o.values())) or 'plain'}"
                              for v, o in PATH_GAMES])
def test_both_view_paths_show_a_seat_only_what_it_may_see(variant, options, fast):
    """The fast views and the observation's views follow the one visibility rule: no
    other seat's down card or face-down discard, no simultaneous choice before all have
    chosen."""
    from pokerarena.arena.views import ViewMaker
    from pokerarena.bots import RandomBot

    game = Game(variant, options)
    n = min(4, game.variant.players[1])
    rng = np.random.default_rng(21)
    checked = hidden_seen = 0
    for h in range(6):
        hand = game.new_hand(rng, n, [60] * n, h % n)
        maker = ViewMaker(hand, hand_no=h, fast=fast)
        bots = [RandomBot(31 * h + s) for s in range(n)]
        while not hand.is_over:
            for s in range(n):
                view = maker.view(s)
                assert not _leaks(hand, view), (variant, h, s, sorted(_leaks(hand, view)))
                hidden_seen += sum(UNKNOWN in act.cards for _, act in view.history)
                checked += 1
            hand.apply(bots[hand.to_act].act(maker.view(hand.to_act)))
    assert checked > 50 and hidden_seen > 0


@pytest.mark.parametrize("variant", ["holdem", "stud7", "draw5"])
def test_play_command_gives_a_bot_no_way_to_the_hand(hands, variant):
    out = io.StringIO()
    with redirect_stdout(out):
        rc = main(["play", "--variant", variant, "--bots", f"{SPY},random,{SPY}",
                   "--hands", "12", "--seed", "5", "--json"])
    assert rc == 0
    data = json.loads(out.getvalue())
    assert data["chips_conserved"] and data["hands"] == 12
    assert [s["bot"] for s in data["seats"]] == [SPY, "random", SPY]
    assert {"start_match", "start_hand", "act", "end_hand"} <= set(isolation_spy.CALLS)
    assert isolation_spy.FOUND == []
    assert _check_views(hands) > 12


def test_run_unit_gives_a_bot_no_way_to_the_hand(hands):
    from pokerarena.workers.records import play_unit
    from pokerarena.workers.unit import Unit

    unit = Unit.from_dict({"unit_id": "m00000s00000", "index": 0, "run_id": "r",
                           "match": 0, "shard": 0, "variant": "stud7_hilo",
                           "betting": "fixed_limit", "options": {}, "bots": [SPY, "tag", SPY],
                           "hands": 9, "first_hand": 0, "seed": 3, "spawn_key": [0, 0],
                           "stack": None, "duplicate": False, "limits": {}})
    tables = play_unit(unit).tables
    assert tables["hands"].num_rows == 9
    assert {"start_match", "act", "end_hand"} <= set(isolation_spy.CALLS)
    assert isolation_spy.FOUND == []
    assert _check_views(hands) > 9


def test_the_walker_does_find_a_hand():
    """The search is real: an engine observation, or a closure over the hand, is found."""
    game = Game("holdem")
    hand = game.new_hand(np.random.default_rng(1), 2, [100, 100], 0)
    assert isolation_spy.walk(hand.observation(0))
    peek = (lambda: hand.stock)  # noqa: E731 - a closure, as a bot could be handed
    assert isolation_spy.walk({"view": [peek]})
    assert isolation_spy.walk(Action("cc"), object.__new__(isolation_spy.Spy)) == []
    assert isolation_spy.walk(build_view(hand, 0)) == []


# --------------------------------------------------------------------------- protection
def _three_way():
    game = Game("holdem", {"betting": "no_limit"})
    hand = game.new_hand(np.random.default_rng(7), 3, [100, 100, 100], 0)
    # seat 1 small blind 1, seat 2 big blind 2, seat 0 (button) first
    assert hand.to_act == 0
    hand.apply(Action("cbr", 10))
    return game, hand


def test_protect_keeps_the_seat_in_for_what_it_put_in():
    game, hand = _three_way()
    assert hand.to_act == 1
    hand.protect(1)
    assert hand.log[-1] == (1, Action(PROTECT_KIND))
    assert hand.observation(2).stacks[1] == 0 and not hand.observation(2).folded[1]
    hand.apply(Action("cc"))          # seat 2 calls 10
    while not hand.is_over:           # seats 0 and 2 bet on: side pot
        legal = hand.legal_actions()
        hand.apply(Action("cbr", legal.min_to) if hand.to_act == 2 and "cbr" in legal.kinds
                   and hand.observation(2).street == 2 else Action("cc"))
    res = hand.result()
    assert sum(res.deltas) + res.rake == 0
    main_pot, *side = res.pots
    assert main_pot.amount == 3 and sorted(main_pot.eligible) == [0, 1, 2]
    assert side and all(1 not in p.eligible for p in side)
    assert res.stacks[1] in (99, 102) and res.deltas[1] in (-1, 2)
    # the log replays: the same deal and the logged actions give the same result
    again = game.new_hand(np.random.default_rng(7), 3, [100, 100, 100], 0)
    for actor, act in hand.log:
        if actor >= 0 and (act.kind in PLAYER_KINDS or act.kind == PROTECT_KIND):
            again.apply(act)
    assert again.result().deltas == res.deltas


def test_protect_is_only_for_the_seat_to_act_in_a_betting_round():
    _, hand = _three_way()
    with pytest.raises(IllegalAction):
        hand.protect(2)
    before = list(hand.log)
    with pytest.raises(IllegalAction):
        hand.apply(Action(PROTECT_KIND), 0)
    assert hand.log == before


def test_protect_when_everyone_else_folds_wins_the_pot():
    _, hand = _three_way()
    hand.protect()
    hand.apply(Action("f"))           # seat 2
    assert hand.is_over
    res = hand.result()
    # seat 0's uncalled raise comes back; seat 1 wins the blinds
    assert res.deltas[1] == 2 and res.deltas[2] == -2 and sum(res.deltas) == 0


class Stall:
    """Never answers in time."""

    name = "stall"

    def act(self, view):
        time.sleep(0.2)
        return Action("cc")


def test_protect_policy_for_a_bot_that_does_not_answer():
    game = Game("holdem", {"betting": "fixed_limit"})
    kept = []
    res = play_match(game, [Stall(), "maniac"], hands=4, seed=2,
                     policy=FaultPolicy(decision_time=0.02, hand_time=None,
                                        on_fault="protect", isolate=True),
                     on_hand=lambda i, h, s: kept.append((h, list(s))))
    assert res.chips_conserved
    assert {f.kind for f in res.faults} == {"timeout"}
    protected = [(h, s) for h, s in kept if any(a.kind == PROTECT_KIND for _, a in h.log)]
    assert protected
    for h, seat_of in protected:
        assert not any(a == seat_of[0] and act.kind == "f" for a, act in h.log)
    # check_fold (the default) folds instead
    res2 = play_match(game, [Stall(), "maniac"], hands=2, seed=2,
                      policy=FaultPolicy(decision_time=0.02, hand_time=None, isolate=True),
                      on_hand=lambda i, h, s: kept.append((h, list(s))))
    assert res2.chips_conserved
    assert not any(a.kind == PROTECT_KIND for h, _ in kept[-2:] for _, a in h.log)


# --------------------------------------------------------------------------- hooks
class Clumsy:
    """Answers a bet far too big now and then (an illegal answer)."""

    name = "clumsy"

    def __init__(self):
        self.k = 0

    def act(self, view):
        self.k += 1
        if self.k % 3 == 0:
            return Action("cbr", 10**9)
        return Action("cc") if "cc" in view.legal.kinds else Action(view.legal.kinds[0])


def test_decision_hook_and_showdown_categories():
    game = Game("holdem", {"betting": "no_limit"})
    decisions, kept = [], []
    res = play_match(game, [Clumsy(), "call"], hands=6, seed=1, on_decision=decisions.append,
                     on_hand=lambda i, h, s: kept.append(h))
    assert len(decisions) == sum(e.decisions for e in res.entrants)
    by_hand = {}
    for d in decisions:
        by_hand.setdefault(d.hand_no, []).append(d)
        hand = kept[d.hand_no]
        assert hand.log[d.index] == (d.seat, d.action)
        assert d.action.kind in PLAYER_KINDS
        if d.fault is None:
            assert d.answer.kind == d.action.kind
        else:
            assert d.fault == "illegal" and d.answer == Action("cbr", 10**9)
    assert sum(d.fault is not None for d in decisions) == len(res.faults) > 0
    for no, hand in enumerate(kept):
        logged = [k for k, (a, act) in enumerate(hand.log) if a >= 0
                  and act.kind in PLAYER_KINDS]
        assert [d.index for d in by_hand[no]] == logged
        cats = showdown_categories(hand)
        assert set(cats) == set(hand.result().showdown_raw)
        for high, low in cats.values():
            assert isinstance(high, str) and low is None
    assert any(showdown_categories(h) for h in kept)


# --------------------------------------------------------------------------- incremental views
def _all_games():
    from pokerarena.rules import variant_ids

    return [Game(v) for v in variant_ids()]


@pytest.mark.parametrize("game", _all_games(), ids=lambda g: g.variant.id)
def test_incremental_views_equal_fresh_ones(game):
    """A ViewMaker's views (history extended, up cards reused) equal views built afresh,
    for every seat at every step, whoever is asked in whatever order."""
    from pokerarena.arena.views import ViewMaker
    from pokerarena.bots.registry import make_bot

    n = min(4, game.variant.players[1])
    rng = np.random.default_rng(11)
    bots = [make_bot("random", seed=s) for s in range(n)]
    for h in range(3):
        hand = game.new_hand(rng, n, [200] * n, h % n)
        maker = ViewMaker(hand, hand_no=h)
        step = 0
        while not hand.is_over:
            seat = hand.to_act
            asked = [seat] if step % 3 else [(seat + k) % n for k in range(n)]
            for s in asked:
                assert maker.view(s) == build_view(hand, s, hand_no=h), (h, step, s)
            hand.apply(bots[seat].act(maker.view(seat)))
            step += 1
