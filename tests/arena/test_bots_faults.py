"""Faults: exceptions, stalls, garbage, illegal answers, hand time, removal. Every kind
is recorded, the irregularity policy acts, and the match goes on. Sleeping bots wait on
an event that the test sets at the end, so no thread outlives the test for long."""

from __future__ import annotations

import threading

import pytest

from pokerarena.arena.faults import FaultPolicy, GuardedBot
from pokerarena.arena.match import play_match
from pokerarena.bots.base import BaseBot
from pokerarena.engine import Game
from pokerarena.engine.actions import CALL_KIND, FOLD_KIND, Action

RELEASE = threading.Event()


@pytest.fixture(autouse=True)
def _release_sleepers():
    RELEASE.clear()
    yield
    RELEASE.set()


class Raiser(BaseBot):
    name = "raiser"

    def act(self, view):
        raise RuntimeError("boom")


class Staller(BaseBot):
    """Blocks on every decision until the test ends (at most 30 s); counts the decisions
    it started and the ones it answered. Once it has answered one (a guard that waited
    for it), it answers at once, so a broken cut-off fails fast instead of hanging."""

    name = "staller"

    def __init__(self, seed=None):
        super().__init__(seed)
        self.started = 0
        self.answered = 0

    def act(self, view):
        self.started += 1
        if not self.answered:
            RELEASE.wait(30.0)
        self.answered += 1
        return Action(CALL_KIND)


class Garbage(BaseBot):
    name = "garbage"

    def __init__(self, seed=None):
        super().__init__(seed)
        self.answers = iter([None, 42, "nonsense", {"kind": 3}, {"kind": "cbr", "amount": "x"},
                             Action(7), {"kind": "sd", "cards": ["Zz"]}] * 1000)

    def act(self, view):
        return next(self.answers)


class Illegal(BaseBot):
    """Folds when it may check, bets far more than it has."""

    name = "illegal"

    def act(self, view):
        if view.legal.call == 0:
            return Action(FOLD_KIND)
        return Action("cbr", 10**9)


class Slowish(BaseBot):
    """Takes at least ``pause`` seconds per decision (a wait lasts at least its timeout,
    on any machine): fine per decision, too slow per hand below."""

    name = "slowish"

    def __init__(self, seed=None, pause=0.03):
        super().__init__(seed)
        self.pause = pause

    def act(self, view):
        RELEASE.wait(self.pause)
        return Action(CALL_KIND)


class BadHooks(BaseBot):
    name = "badhooks"

    def end_hand(self, summary):
        raise ValueError("hook")

    def act(self, view):
        return Action(CALL_KIND)


GAME = Game("holdem", {"betting": "fixed_limit"})


def _actions_of(seat_of_bot: int, hands: list) -> list[Action]:
    out = []
    for hand, seat_of in hands:
        seat = seat_of[seat_of_bot]
        out.extend(a for s, a in hand.log if s == seat and a.kind not in ("blind", "ante"))
    return out


def _play(bot, hands=6, **policy):
    record: list = []
    res = play_match(GAME, [bot, "call"], hands=hands, seed=1,
                     policy=FaultPolicy(**policy),
                     on_hand=lambda i, h, s: record.append((h, list(s))))
    assert res.hands == hands and res.chips_conserved  # the match went on
    return res, record


@pytest.mark.parametrize("bot, kind", [(Raiser(), "exception"), (Garbage(), "garbage"),
                                       (Illegal(), "illegal")])
def test_fault_kinds_get_check_or_fold(bot, kind):
    res, record = _play(bot)
    kinds = {f.kind for f in res.faults}
    assert kinds == {kind}
    assert all(f.bot == bot.name for f in res.faults)
    # the policy: check when free, else fold
    acts = _actions_of(0, record)
    assert acts and all((a.kind == CALL_KIND and a.amount == 0) or a.kind == FOLD_KIND
                        for a in acts)


def test_stall_is_cut_off_at_the_decision_limit():
    """The match goes on without the stalled bot's answers: it finishes while the bot is
    still blocked in every decision it was asked (no clock read: a slow machine only
    makes each cut-off later, never wrong)."""
    staller = Staller()
    res, _ = _play(staller, hands=2, decision_time=0.05)
    assert staller.started >= 2 and staller.answered == 0  # nothing waited for it
    assert [f.kind for f in res.faults] == ["timeout"] * staller.started


def test_hand_time_limit():
    """Decisions of at least 0.2 s each under a 0.3 s hand limit (and a decision limit a
    hundred times longer): the second decision of a hand always runs out of the hand's
    time, never out of its own, whatever the machine's speed."""
    slow = Slowish(pause=0.2)
    res, record = _play(slow, hands=4, decision_time=30.0, hand_time=0.3)
    kinds = [f.kind for f in res.faults]
    assert "timeout" not in kinds
    # at most one hand-time fault per hand, and one in every hand where it acted twice
    per_hand = [f.hand_no for f in res.faults if f.kind == "hand_timeout"]
    assert len(per_hand) == len(set(per_hand))
    twice = {i for i, (hand, seat_of) in enumerate(record)
             if sum(s == seat_of[0] and a.kind not in ("blind", "ante")
                    for s, a in hand.log) >= 2}
    assert twice and twice <= set(per_hand)


def test_slow_answer_without_isolation_is_replaced():
    res, _ = _play(Slowish(), hands=2, decision_time=0.01, hand_time=None, isolate=False)
    assert res.faults and {f.kind for f in res.faults} == {"timeout"}


def test_repeated_faults_remove_the_bot():
    res, _ = _play(Raiser(), hands=8, max_faults=3)
    kinds = [f.kind for f in res.faults]
    assert kinds.count("exception") == 3 and kinds[-1] == "removed"
    assert res.entrants[0].removed_at is not None
    assert "removed_at_hand" in res.as_dict()["entrants"][0]


def test_hook_exceptions_are_faults_too():
    res, _ = _play(BadHooks(), hands=3)
    assert [f.kind for f in res.faults] == ["exception"] * 3


def test_call_policy():
    res, record = _play(Raiser(), hands=4, on_fault="call")
    assert all(a.kind == CALL_KIND for a in _actions_of(0, record))


def test_guard_closes_its_worker():
    g = GuardedBot(Staller(), FaultPolicy(decision_time=0.02, isolate=True))
    from pokerarena.arena.views import build_view

    hand = GAME.new_hand(1, 2, [200, 200], 0)
    view = build_view(hand, hand.to_act)
    assert g.act(view).kind in (CALL_KIND, FOLD_KIND)
    assert g.faults[0].kind == "timeout"
    g.close()
