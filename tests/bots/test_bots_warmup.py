"""Strength bots are warmed up (kernels compiled, pre-flop tables built) before a match's
first timed decision, once per process, game and number of seats."""

from __future__ import annotations

from pokerarena.arena import match, session
from pokerarena.arena.warmup import warm_up
from pokerarena.bots.registry import make_bot
from pokerarena.engine import Game


def test_warm_up_plays_once_and_only_for_strength_bots():
    game = Game("holdem", {"betting": "fixed_limit"})
    assert warm_up(game, [make_bot("call", 1), make_bot("random", 2)], 7) is False
    assert warm_up(game, [make_bot("call", 1), make_bot("tag", 2)], 7) is True
    assert warm_up(game, [make_bot("lag", 3)], 7) is False  # done for 7 seats already
    assert warm_up(game, [make_bot("rock", 3)], 99) is False  # no such table


def test_tables_warm_up_before_the_first_decision(monkeypatch):
    seen = []

    def record(game, bots, players):
        seen.append((game.variant.id, sorted(type(b).__name__ for b in bots), players))
        return False

    monkeypatch.setattr(match, "warm_up", record)
    monkeypatch.setattr(session, "warm_up", record)
    game = Game("stud7")
    res = match.play_match(game, ["tag", "call", "random"], 3, seed=1)
    assert res.hands == 3
    summary = session.play_session(game, ["equity", "call"], 2, seed=1)
    assert summary.hands == 2
    assert seen == [("stud7", ["CallBot", "RandomBot", "TagBot"], 3),
                    ("stud7", ["CallBot", "EquityBot"], 2)]


def test_the_shared_warm_up_keeps_none_of_its_throwaway_tables(monkeypatch, tmp_path):
    """warm_shared compiles the Monte Carlo kernels with a pre-flop table of a few deals:
    that table is neither written to the cache nor kept for the decisions."""
    from pokerarena.arena.warmup import SHARED_STEPS, warm_shared
    from pokerarena.bots.strength import estimate, preflop
    from pokerarena.bots.strength.estimate import register_game

    monkeypatch.setattr(preflop, "cache_dir", lambda: tmp_path)
    # a profile of its own: another test of the session may have filled the shared one's
    monkeypatch.setattr(estimate, "_PROFILES", estimate._Bounded(estimate.PROFILE_LIMIT))
    monkeypatch.setattr(estimate, "_BY_DIGEST", estimate._Bounded(estimate.PROFILE_LIMIT))
    game = Game("holdem", {"betting": "no_limit"})
    steps = []
    warm_shared(game, report=lambda i, step: steps.append((i, step)))
    assert steps == list(enumerate(SHARED_STEPS))
    plan = register_game(game).plan
    assert plan is not None and register_game(game).preflop_table
    assert not [k for k in plan.memo if str(k[0]).startswith("preflop")]
    assert list(tmp_path.iterdir()) == []
    assert preflop.narrowed_equity(plan, (48, 49), 0.5) is None  # no table to read
