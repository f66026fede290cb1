"""AIVAT's last street played ahead by the bots (``tournaments/aivat_lookahead.py``):
shown faithful, then unbiased against an exact value, then smaller.

Faithful: from the states copied before a decision, the bots' own code gives, move by
move, exactly the distribution the bot declared there (the played-ahead value is then
the expectation the declaration implies). Unbiased: in Leduc hold'em, whose exact value
the exact evaluator gives, the corrected mean over many deals covers it; in hold'em the
corrected chips minus the raw ones cover zero. Smaller: on the same hands, than the
value alone."""

from __future__ import annotations

import numpy as np
import pytest

from pokerarena.arena.faults import FaultPolicy
from pokerarena.arena.views import build_view
from pokerarena.bench.calib_aivat import make, truth
from pokerarena.bots.base import branches_of
from pokerarena.solvers.exact import move_key
from pokerarena.tournaments import aivat_lookahead
from pokerarena.tournaments.aivat_engine import estimates, play_engine_aivat

UNTIMED = FaultPolicy(decision_time=None, hand_time=None)


def _distribution(pairs):
    out: dict = {}
    for a, p, *_ in pairs:
        out[move_key(a)] = out.get(move_key(a), 0.0) + p
    return out


@pytest.mark.parametrize("betting", ["fixed_limit", "no_limit"])
def test_the_bots_played_ahead_declare_what_they_played(betting, monkeypatch):
    """At every last-street decision of tag against lag, the branches of the acting bot's
    copied state give the declared distribution exactly, and every such step is
    corrected by playing ahead (none falls back to the value alone)."""
    seen = []
    real = aivat_lookahead.LookaheadAivat.action_term

    def checked(self, t, played):
        snap, pol = t.before.snapshot, t.before.declared
        if snap is not None and pol is not None and self._last_street(t.before):
            h = t.before.hand
            view = build_view(h, h.to_act, hand_no=snap.hand_no, match_no=snap.match_no,
                              game_info=self.walk.info)
            got = _distribution(branches_of(self._states(snap)[h.to_act], view))
            want = _distribution(pol)
            assert got.keys() == want.keys()
            assert all(abs(got[k] - want[k]) < 1e-12 for k in want)
            seen.append(len(want))
        return real(self, t, played)

    monkeypatch.setattr(aivat_lookahead.LookaheadAivat, "action_term", checked)
    m = play_engine_aivat("holdem", ["tag", "lag"], 30, 17, options={"betting": betting},
                          policy=UNTIMED)
    assert m.lookahead and len(seen) > 10
    assert m.lookahead_steps["ahead"] > len(seen) // 2  # decisions, and the river deals
    assert m.lookahead_steps["value_alone"] == 0


@pytest.mark.slow  # a statistical test of many hands (tens of seconds)
def test_the_corrected_mean_is_leducs_exact_value():
    """Leduc hold'em (one board card: the last street follows it), random against a
    fixed strategy, whose exact value is not zero: over 1,200 hands in duplicate pairs
    the corrected mean covers the exact value within its 99.9% interval, and played
    ahead the sd of the pairs is below the value alone's on the same hands."""
    exact = truth("leduc", "random", "fixed")
    assert abs(exact) > 0.5
    blocks = []
    for seed in range(6):
        m = play_engine_aivat("leduc", [make("random", "leduc", seed),
                                        make("fixed", "leduc", seed + 1)], 200, 100 + seed)
        assert m.lookahead and m.lookahead_steps["value_alone"] == 0
        blocks.append(m.blocks("aivat")[:, 0] / 2)
    x = np.concatenate(blocks)
    se = x.std(ddof=1) / np.sqrt(x.size)
    assert abs(x.mean() - exact) < 3.3 * se
    alone = play_engine_aivat("leduc", [make("random", "leduc", 0),
                                        make("fixed", "leduc", 1)], 200, 100, lookahead=False)
    assert estimates(alone)["reduction"].sd_ratio > 1.3 * estimates(
        play_engine_aivat("leduc", [make("random", "leduc", 0), make("fixed", "leduc", 1)],
                          200, 100))["reduction"].sd_ratio


@pytest.mark.parametrize("betting, hands", [("fixed_limit", 160), ("no_limit", 100)])
def test_played_ahead_hold_em_minus_raw_covers_zero(betting, hands):
    """A strength bot against call: AIVAT minus raw has mean zero (its 95% interval
    covers 0) with the last street played ahead."""
    m = play_engine_aivat("holdem", ["tag", "call"], hands, 23, options={"betting": betting},
                          policy=UNTIMED)
    assert m.lookahead and m.lookahead_steps["ahead"] > 0
    diff = estimates(m)["diff"]
    assert diff.lo <= 0.0 <= diff.hi


def test_what_cannot_be_played_ahead_is_corrected_by_the_value_alone():
    """A black-box seat turns the lookahead off (nothing to play it by); a bot that bets
    every no-limit amount (the random bot) is past the walk's limits, so its steps get the
    value alone; both still unbiased."""
    m = play_engine_aivat("holdem", ["tag", "call"], 40, 5,
                          options={"betting": "fixed_limit"}, declared=[True, False],
                          policy=UNTIMED)
    assert not m.lookahead and m.lookahead_steps is None
    m = play_engine_aivat("holdem", ["random", "call"], 60, 5, options={"betting": "no_limit"})
    assert m.lookahead and m.lookahead_steps["value_alone"] > 0
    diff = estimates(m)["diff"]
    assert diff.lo <= 0.0 <= diff.hi


def test_the_engine_calibration_case_reports_coverage_and_the_steps_played_ahead():
    """``bench calibration --case aivat.engine_leduc_ahead``: the engine's estimator in its
    default configuration, at Leduc's exact value; its three rates (AIVAT and raw cover
    the truth, AIVAT − raw covers 0) with the steps that were played ahead, and an sd
    below raw's."""
    from pokerarena.bench.calibration import run_cases

    got = {c.case: c for c in run_cases(["aivat.engine_leduc_ahead"], reps=2)}
    assert set(got) == {f"aivat.engine_leduc_ahead.{k}" for k in ("aivat", "raw", "diff")}
    c = got["aivat.engine_leduc_ahead.aivat"]
    assert c.reps == 2 and c.extra is not None and c.extra["lookahead"] is True
    assert c.extra["truth"] == pytest.approx(truth("leduc", "random", "fixed"))
    assert c.extra["lookahead_steps"]["ahead"] > 100
    assert c.extra["lookahead_steps"]["value_alone"] == 0
    assert 0 < c.extra["sd_ratio"] < 0.8
    assert c.extra["se_of_mean"] > 0 and abs(c.extra["mean"] - c.extra["truth"]) == \
        pytest.approx(abs(c.extra["z"]) * c.extra["se_of_mean"], rel=1e-2, abs=1e-5)
