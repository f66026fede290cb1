"""Issue 25, finding 6: the game families' duplicate comparison is honest.

Every rotation of the seating at odd tables (one bot under two names comes out even),
no zero-width interval when every seed gives the same result, Student's t for few seeds
in painted poker's comparison too, one clear error for a bot compared with itself, and
the calibration cases of ``bench calibration --case games``.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import pytest

from pokerarena.errors import UserError
from pokerarena.games import Family, family
from pokerarena.games.painted.game import PaintedGame
from pokerarena.games.painted.matches import duplicate as painted_duplicate
from pokerarena.games.play import Comparison, duplicate, seatings, t975


def _same_bot(name: str, seed: int | None) -> Any:
    """Red and black's random bot whatever its name (its stream from the seat alone)."""
    new_bot = family("red_black").new_bot
    assert new_bot is not None
    return new_bot("random", seed)


def _one_bot_two_names() -> Family:
    return dataclasses.replace(family("red_black"), bots=("a", "b"), new_bot=_same_bot)


@pytest.mark.parametrize("players", [3, 5, 7])
def test_every_seat_is_each_bots_in_the_same_share_of_the_seatings(players: int) -> None:
    """Two seatings of ``a b a`` gave ``a`` the last seat in both; every rotation gives
    each seat to ``a`` as often as every other seat."""
    layouts = seatings("a", "b", players)
    shares = {sum(lay[s] == "a" for lay in layouts) for s in range(players)}
    assert len(shares) == 1, layouts
    assert all(sorted(lay) == sorted(layouts[0]) for lay in layouts)


@pytest.mark.parametrize("players", [3, 5])
def test_one_bot_under_two_names_comes_out_even_at_an_odd_table(players: int) -> None:
    """The same bot on the same cards in every seat: the difference is 0 on every seed,
    not the last seat's advantage, and nothing is declared."""
    c = duplicate(_one_bot_two_names(), "a", "b", players=players, games=200, seed=3)
    assert max(abs(d) for d in c.diffs) < 1e-9, c.as_text()
    assert not c.significant


def test_even_tables_keep_their_two_seatings() -> None:
    assert seatings("a", "b", 4) == [["a", "b", "a", "b"], ["b", "a", "b", "a"]]
    assert seatings("a", "b", 2) == [["a", "b"], ["b", "a"]]
    assert len(seatings("a", "b", 5)) == 5


def test_a_zero_spread_never_gives_a_zero_width_interval() -> None:
    """Durak, 2 players: the rule bot wins every one of these seeds against random, but
    the truth is about 0.97 (rule is sometimes the durak): the interval keeps width,
    reaches below the truth, and stays within the bound of +1."""
    c = duplicate(family("durak"), "rule", "random", players=2, games=40, seed=1)
    assert set(c.diffs) == {1.0}
    lo, hi = c.interval
    assert c.ci95 > 0.1 and lo < 0.96 and hi == 1.0, c.as_text()
    assert c.significant


def test_a_zero_spread_with_no_bound_claims_nothing() -> None:
    c = Comparison("a", "b", (2.0,) * 10)
    assert math.isinf(c.ci95) and not c.significant, c.as_text()


def test_painted_duplicate_uses_students_t_over_few_deal_sequences() -> None:
    """Four deal sequences: Student's 3.182, not the normal's 1.96."""
    c = painted_duplicate(PaintedGame(), "rule", "random", games=4, seed=1)
    n, m = len(c.diffs), c.mean
    sd = math.sqrt(sum((d - m) ** 2 for d in c.diffs) / (n - 1))
    assert c.ci95 == pytest.approx(t975(3) * sd / 2) and t975(3) > 3.1


def test_painted_duplicate_rotates_every_seat_at_an_odd_table() -> None:
    """Painted poker shares the seatings (three at three seats) and the interval (one
    deal sequence and no score bound: none)."""
    c = painted_duplicate(PaintedGame(), "random", "rule", players=3, games=1, seed=2)
    assert len(seatings("random", "rule", 3)) == 3 and len(c.diffs) == 1
    assert math.isinf(c.ci95)


def test_a_bot_compared_with_itself_is_one_clear_error() -> None:
    with pytest.raises(UserError, match="two bot names"):
        duplicate(family("durak"), "rule", "rule", players=2, games=2)


def test_the_calibration_cases_run_quickly_and_report_coverage() -> None:
    from pokerarena.bench.calibration import run_cases

    results = run_cases(["games"], quick=True)
    names = {r.case for r in results}
    assert {"games.odd_table_3", "games.odd_table_5", "games.odd_table_3_own_streams",
            "games.odd_table_5_own_streams", "games.degenerate_durak_10",
            "games.degenerate_durak_40"} <= names
    for r in results:
        assert r.finding == 6 and r.kind == "coverage" and r.nominal == 0.95
        assert 0 < r.reps <= 20 and 0 <= r.hits <= r.reps
