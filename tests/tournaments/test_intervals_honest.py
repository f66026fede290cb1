"""The leaderboard's intervals at the cases where they broke (issue 25, findings 1 and 4).

Each test replays an estimator at a known truth, or checks the structure that makes it
honest, and fails on the estimators of commit 5ef7443: (match, deal) blocks taken as
independent under common deals, Bradley-Terry segments resampled within a pairing and
counted per seating order, and a percentile bootstrap switched on by one odd block.
"""

from __future__ import annotations

import duckdb
import numpy as np
import pytest

from pokerarena.tournaments.estimates import block_rate
from pokerarena.tournaments.standings import Block, standings

LINEUPS = [("A", "B"), ("A", "C"), ("A", "D"), ("B", "C"), ("B", "D"), ("C", "D")]


def _round_robin(rng: np.random.Generator, deals: int) -> list[Block]:
    """Four equal bots, a heads-up round robin on common deals: deal ``k`` gives the
    first seat the same card luck ``L_k`` in every match (heavy-tailed), the second seat
    its opposite, plus each match's own play. The truth is 0 for every bot."""
    luck = rng.standard_t(3, deals) * 3.0
    blocks = []
    for m, (a, b) in enumerate(LINEUPS):
        x = luck + rng.standard_normal(deals)
        for k in range(deals):
            blocks.append(Block(m, k, a, float(x[k]), 1, (a, b)))
            blocks.append(Block(m, k, b, float(-x[k]), 1, (a, b)))
    return blocks


@pytest.mark.slow  # a statistical test of many hands (tens of seconds)
def test_shared_deals_are_one_block_across_matches():
    """A bot that keeps its lineup position replays deal k's cards in all its matches
    (``A`` first in all three, ``D`` second in all three): its results on a deal are
    correlated, and its interval must cover 0 at 95%, like every other bot's; so must the
    Bradley-Terry intervals. Before the fix A and D covered about 75%, B and C 100%."""
    rng = np.random.default_rng(25)
    reps = 200
    hits = dict.fromkeys("ABCD", 0)
    bt_hits = bt_n = 0
    for _ in range(reps):
        out = standings(_round_robin(rng, 150), resamples=40)
        for row in out["bots"]:
            hits[row["bot"]] += row["lo"] <= 0 <= row["hi"]
        for row in out["bradley_terry"]:
            if row["lo"] is None:  # withheld (a pairing won every segment)
                continue
            bt_n += 1
            bt_hits += row["lo"] <= 0 <= row["hi"]
    for bot, h in hits.items():
        assert 0.91 <= h / reps <= 0.985, (bot, h / reps)
    assert bt_hits / bt_n >= 0.91, bt_hits / bt_n


def test_a_rotated_pairing_counts_its_segments_once():
    """A heads-up match of two shards seats its lineup both ways; its 150 deals are six
    segments of 25 for the pairing, enough for Bradley-Terry's interval (five), however
    the seats were ordered (before: three per order, and no interval)."""
    rng = np.random.default_rng(1)
    blocks = []
    for k in range(150):
        lineup = ("x", "y") if k < 75 else ("y", "x")
        v = float(rng.standard_normal() * 4 + 0.3)
        blocks += [Block(0, k, "x", v, 1, lineup), Block(0, k, "y", -v, 1, lineup)]
    out = standings(blocks, resamples=50)
    assert all(r["lo"] is not None and r["lo"] < r["rating"] < r["hi"]
               for r in out["bradley_terry"])


def test_a_pairing_won_every_segment_claims_no_certainty():
    """One bot wins all six segments: every bootstrap resample is alike, and a zero-width
    interval would claim certainty from zero spread; the interval is withheld."""
    blocks = []
    for k in range(150):
        lineup = ("x", "y") if k < 75 else ("y", "x")
        blocks += [Block(0, k, "x", 1.0, 1, lineup), Block(0, k, "y", -1.0, 1, lineup)]
    out = standings(blocks, resamples=50)
    assert all(r["lo"] is None and r["hi"] is None for r in out["bradley_terry"])


def _spiky_pairs(rng: np.random.Generator, pairs: int) -> tuple[list[float], list[int]]:
    """Duplicate pairs of a bot against itself: 60% exactly zero (the seatings cancel),
    the rest heavy-tailed around 0; and one deal cut short (one hand, not two)."""
    x = rng.standard_t(2, pairs) * 10.0 * (rng.random(pairs) > 0.6)
    return [*x.tolist(), float(rng.standard_t(2) * 5.0)], [2] * pairs + [1]


def test_one_odd_block_keeps_a_student_type_interval():
    """50 spiky pairs and one odd block: the interval stays Student-type and covers 0 at
    its nominal 95% (before: a percentile bootstrap, about 90%)."""
    rng = np.random.default_rng(4)
    reps, hits, methods = 1000, 0, set()
    for _ in range(reps):
        est = block_rate(*_spiky_pairs(rng, 50))
        methods.add(est.method)
        hits += est.covers(0.0)
    assert hits / reps >= 0.935, hits / reps
    assert methods == {"ratio"}


def test_the_odd_block_interval_agrees_with_students_on_equal_blocks():
    """Equal sizes and the ratio's linearized interval give the same half-width."""
    rng = np.random.default_rng(9)
    totals = rng.standard_t(3, 40) * 2
    equal = block_rate(totals, [2] * 40)
    assert equal.method == "normal"
    ratio = block_rate([*totals, 0.0], [2] * 40 + [2 + 1e-12])
    assert ratio.half_width == pytest.approx(equal.half_width, rel=0.03)


def test_the_leaderboard_view_clusters_deals_as_the_standings_do():
    """The SQL ``leaderboard`` view (``pokerarena query``, the API's leaderboard) and
    the standings agree on each bot's interval over real rows of a round robin on
    common deals (before, the view took each (match, deal) as a block)."""
    from pokerarena.bench.calib_blocks import round_robin_rows, standings_of
    from pokerarena.platform.query import LEADERBOARD_VIEW_SQL

    tables = round_robin_rows(7, 100)
    board = {r["bot"]: r for r in standings_of(tables)["bots"]}
    con = duckdb.connect()
    for name, table in tables.items():
        con.register(name, table)
    con.execute("CREATE VIEW bot_time AS SELECT 'calib' AS run_id, 'A' AS bot, "
                "0 AS decisions, 0.0 AS think_seconds")
    con.execute(LEADERBOARD_VIEW_SQL)
    got = dict(con.execute("SELECT bot, ci95_mbb FROM leaderboard").fetchall())
    assert set(got) == set(board)
    for bot, ci in got.items():
        assert ci == pytest.approx(board[bot]["ci95"], abs=0.11), bot


def test_bench_calibration_runs_the_blocks_cases_and_refuses_an_unknown_one(capsys):
    """``pokerarena bench calibration``: the blocks cases at a few replications give one
    coverage per bot, pairing and rating, in JSON; an unknown case is one line, exit 2."""
    import json

    from pokerarena.cli import main

    assert main(["bench", "calibration", "--case", "blocks", "--reps", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    names = [c["case"] for c in out["cases"]]
    assert {"blocks.shared_deals.A", "blocks.shared_deals.bradley_terry",
            "blocks.odd_block"} <= set(names)
    assert all(c["reps"] >= 2 and 0 <= c["rate"] <= 1 for c in out["cases"])
    assert main(["bench", "calibration", "--case", "nope"]) == 2
    assert "unknown calibration case" in capsys.readouterr().err
