"""Issue 26, part 4: the SPRT and the ratings calibrated at Leduc's exact truths
(:mod:`pokerarena.bench.calib_exact`). The truths must be ``pokerarena exact``'s, the
SPRT must rarely accept an H1 above the truth and nearly always one at it, and the
ratings case must report a measured rate, not a pass/fail against a level it never
claimed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pokerarena.bench import calib_exact as ce
from pokerarena.bench.calibration import Coverage

CLI = [str(Path(sys.executable).with_name("pokerarena"))]


def _cli(*args: str) -> dict:
    out = subprocess.run([*CLI, *args], capture_output=True, text=True, check=True,
                         timeout=300)
    return json.loads(out.stdout)


@pytest.mark.parametrize("pair", [("tight", "fixed"), ("maniac", "random")])
def test_truths_are_pokerarena_exacts_values(pair: tuple[str, str]) -> None:
    got = _cli("exact", "--variant", "leduc", "--bots", ",".join(map(ce.spec, pair)),
               "--json")
    assert got["units"] == "chips per hand"
    assert ce.truth(*pair) == pytest.approx(got["values"][0] * ce.mbb_per_chip(),
                                            abs=1e-9)
    assert abs(ce.truth(*pair)) > 50  # clearly not zero: the point of these cases


def test_the_exact_order_is_transitive_and_the_declared_one() -> None:
    assert ce.exact_order() == ce.BOTS
    with pytest.raises(ValueError, match="no exact order"):
        ce.exact_order(("random", "call", "maniac"))  # call ties both exactly


def test_pairs_played_average_to_the_truth() -> None:
    x = ce.pairs("tight", "fixed", 3000, (7, 7))
    se = x.std(ddof=1) / len(x) ** 0.5
    assert abs(x.mean() - ce.truth("tight", "fixed")) < 4 * se


def _run(monkeypatch: pytest.MonkeyPatch, name: str, reps: int) -> list[Coverage]:
    monkeypatch.setattr(ce, "DELTA", 300.0)  # short tests, same code
    monkeypatch.setattr(ce, "BATCH", 50)
    case = next(c for c in ce.CASES if c.name == name)
    return list(case.run(reps, 2026))


def test_sprt_with_h0_at_the_truth_rarely_accepts_h1(monkeypatch: pytest.MonkeyPatch
                                                     ) -> None:
    got = _run(monkeypatch, "exact.sprt_false_positive", 40)
    assert len(got) == len(ce.PAIRINGS)
    for r in got:
        assert r.kind == "error_rate" and r.nominal == ce.ALPHA
        assert r.extra is not None and r.extra["h0"] == pytest.approx(r.extra["truth_mbb"])
        assert r.hits <= 6, r  # nominal 2 of 40; 7 or more has chance 0.4% at α
        assert r.ok


def test_sprt_with_h1_at_the_truth_has_its_power(monkeypatch: pytest.MonkeyPatch) -> None:
    got = _run(monkeypatch, "exact.sprt_power", 40)
    for r in got:
        assert r.kind == "coverage" and r.nominal == 1 - ce.BETA
        assert r.extra is not None and r.extra["h1"] == pytest.approx(r.extra["truth_mbb"])
        assert r.hits >= 34, r
        assert r.ok


def test_h0_far_below_the_truth_is_rejected_every_time() -> None:
    v = ce.truth("fixed", "random")
    decisions = [ce.sprt_once("fixed", "random", v - 600, v - 300, (1, r))["decision"]
                 for r in range(10)]
    assert decisions == ["H1"] * 10


def test_ratings_order_is_a_measured_rate() -> None:
    case = next(c for c in ce.CASES if c.name == "exact.ratings_order")
    (r,) = case.run(5, 2026)
    assert r.kind == "measured" and r.ok
    assert r.as_dict()["nominal"] is None
    assert r.extra is not None and r.extra["order"] == list(ce.BOTS)
    assert r.hits >= 3  # the closest pair differs by ~110 mbb/hand over 500 hands


def test_a_measured_rate_never_fails_and_prints_no_nominal() -> None:
    from pokerarena.bench.calibration import table

    r = Coverage("x", 0, "x", "measured", 1.0, 0, 10)
    assert r.ok and r.as_dict()["within"] is None
    assert " - " in table([r]).splitlines()[1]


def test_bench_calibration_lists_the_cases() -> None:
    got = _cli("bench", "calibration", "--case", "exact", "--reps", "2", "--json")
    names = {c["case"] for c in got["cases"]}
    assert names == {"exact.sprt_false_positive", "exact.sprt_power",
                     "exact.ratings_order"}
    assert all(c["reps"] == 2 for c in got["cases"])
    assert all("exact truth" in c["what"] or "exact, mbb/hand" in c["what"]
               for c in got["cases"])
