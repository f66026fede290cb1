"""The strength bots' direct kernel call equals the reference :func:`fastmc.run_packed`
path (rows packed by :func:`fastmc.pack`, same seed) on dealt hands."""

from __future__ import annotations

import random

import pytest

from pokerarena.arena.match import play_match
from pokerarena.bots.strength import policy
from pokerarena.bots.strength.estimate import profile
from pokerarena.engine.actions import UNKNOWN
from pokerarena.engine.game import Game


@pytest.mark.parametrize("variant", ["holdem", "omaha", "cincinnati", "stud7"])
def test_direct_kernel_call_matches_run_packed(variant, monkeypatch):
    views = []
    act = policy.StrengthBot.act

    def recording(self, view):
        if len(views) < 40:
            views.append(view)
        return act(self, view)

    monkeypatch.setattr(policy.StrengthBot, "act", recording)
    play_match(Game(variant), ["tag", "call", "call"], 12, 5)
    monkeypatch.undo()
    prof = profile(views[0])
    checked = 0
    for i, view in enumerate(views):
        opps = [s for s in range(view.players) if s != view.seat and not view.folded[s]]
        if not opps:
            continue
        hole = tuple(c for c in view.hole if c != UNKNOWN)
        ths = (0.4, 0.6)[: 1 + i % 2]
        got = prof._fast_equity(view, hole, list(opps), 150, random.Random(i), None, ths, 32)
        dead = [] if not prof.is_stud else [
            c for s in range(view.players) if s != view.seat and s not in opps
            for c in view.up[s] if c != UNKNOWN]
        rows = [hole] + [tuple(c for c in view.up[s] if c != UNKNOWN) for s in opps]
        ref = prof._fast_loop(rows, view.board, dead, len(rows), 150,
                              random.Random(i).getrandbits(31), None, 0, ths, 32)
        assert got == ref
        checked += 1
    assert checked >= 10
