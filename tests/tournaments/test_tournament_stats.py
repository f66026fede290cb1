"""The tournament statistics measured against what they claim: interval coverage, SPRT
error rates, rating recovery, the ACPC rankings and ICM, on synthetic data whose truth
is known (the bot-level checks play real matches elsewhere)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pokerarena.tournaments.estimates import block_rate, reduction, t95
from pokerarena.tournaments.icm import icm_equity, payout_table
from pokerarena.tournaments.rankings import instant_runoff, total_bankroll
from pokerarena.tournaments.ratings import bradley_terry, openskill_ratings, order_stability
from pokerarena.tournaments.sprt import Sprt, wald_bounds


def _binomial_band(p: float, n: int, z: float = 3.5) -> tuple[float, float]:
    half = z * math.sqrt(p * (1 - p) / n)
    return p - half, p + half


def test_t_quantiles_match_tables():
    for df, exact in [(3, 3.182), (5, 2.571), (10, 2.228), (30, 2.042), (1000, 1.962)]:
        assert t95(df) == pytest.approx(exact, rel=0.01)


@pytest.mark.parametrize("equal", [True, False])
def test_block_intervals_cover_the_true_rate_95_percent_of_the_time(equal):
    """Heavy-tailed block results around a known rate: the 95% interval covers it in
    93-97% of 600 repetitions (unequal block sizes: the linearized ratio's interval)."""
    rng = np.random.default_rng(7)
    true, trials, hits = 0.05, 600, 0
    for _ in range(trials):
        sizes = np.full(120, 2) if equal else rng.integers(1, 9, 120)
        totals = true * sizes + rng.standard_t(4, 120) * np.sqrt(sizes)
        est = block_rate(totals, sizes)
        assert est.method == ("normal" if equal else "ratio")
        hits += est.covers(true)
    assert 0.93 <= hits / trials <= 0.97, hits / trials


def test_many_unequal_blocks_use_the_ratio_interval_and_agree_with_a_bootstrap():
    """At thousands of blocks the linearized interval and a percentile bootstrap over
    blocks (which is right at such sizes) agree."""
    rng = np.random.default_rng(3)
    sizes = rng.integers(1, 9, 5000)
    totals = 0.1 * sizes + rng.standard_t(4, 5000) * np.sqrt(sizes)
    est = block_rate(totals, sizes)
    assert est.method == "ratio"
    idx = rng.integers(0, 5000, size=(400, 5000))
    rates = totals[idx].sum(axis=1) / sizes[idx].sum(axis=1)
    lo, hi = np.quantile(rates, [0.025, 0.975])
    assert est.half_width == pytest.approx((hi - lo) / 2, rel=0.1)


def test_block_rate_is_the_ratio_of_sums_and_refuses_bad_input():
    est = block_rate([3, -1, 4], [2, 2, 4])
    assert est.value == pytest.approx(6 / 8)
    assert est.hands == 8 and est.blocks == 3
    with pytest.raises(ValueError):
        block_rate([1, 2], [1])
    assert block_rate([], []).method == "none"


def test_reduction_reports_sd_and_hands_ratio():
    rng = np.random.default_rng(1)
    noise = rng.standard_normal(500)
    raw = noise + rng.standard_normal(500)
    red = reduction(raw, noise * 0.5, np.ones(500))
    assert red.sd_ratio < 0.5
    assert red.hands_ratio == pytest.approx(red.sd_ratio ** 2)


def test_wald_bounds_for_five_percent():
    lo, hi = wald_bounds(0.05, 0.05)
    assert lo == pytest.approx(-2.944, abs=1e-3) and hi == pytest.approx(2.944, abs=1e-3)
    with pytest.raises(ValueError):
        wald_bounds(0.0, 0.05)
    with pytest.raises(ValueError):
        Sprt(10, 10)


def _run_sprt(true: float, rng: np.random.Generator, limit: int = 20_000) -> Sprt:
    s = Sprt(0.0, 50.0)
    for x in true + 300 * rng.standard_t(5, limit):
        if s.add(float(x)):
            break
    return s


def test_sprt_error_rates_at_h0_and_h1():
    """400 tests at a true difference of 0 accept H1 at most α = 5% of the time (within
    binomial noise), and 400 at the H1 value accept H0 at most β of the time."""
    rng = np.random.default_rng(11)
    trials = 400
    false_h1 = sum(_run_sprt(0.0, rng).decision == "H1" for _ in range(trials))
    false_h0 = sum(_run_sprt(50.0, rng).decision == "H0" for _ in range(trials))
    assert false_h1 / trials <= _binomial_band(0.05, trials)[1]
    assert false_h0 / trials <= _binomial_band(0.05, trials)[1]


def test_sprt_decides_later_when_the_difference_is_smaller():
    rng = np.random.default_rng(3)
    far = [_run_sprt(150.0, rng).n for _ in range(40)]
    near = [_run_sprt(60.0, rng).n for _ in range(40)]
    assert np.median(far) < np.median(near)


def test_sprt_state_reports_everything_the_command_prints():
    s = Sprt(0.0, 5.0, min_pairs=3)
    for x in (1.0, 2.0, 3.0, 4.0):
        s.add(x)
    st = s.state()
    assert set(st) == {"decision", "pairs", "hands", "llr", "bounds", "mbb_per_hand", "ci95",
                       "ci95_method", "ci95_fixed"}
    assert st["pairs"] == 4 and st["hands"] == 8 and st["mbb_per_hand"] == 2.5
    assert st["ci95"][0] < 2.5 < st["ci95"][1]


def test_bradley_terry_recovers_the_order_and_its_intervals_cover():
    """Three bots of known Elo gaps (+200, 0, -200): the fit orders them, and each
    interval covers the true rating."""
    rng = np.random.default_rng(5)
    truth = np.array([200.0, 0.0, -200.0])
    pairs = []
    for i in range(3):
        for j in range(i + 1, 3):
            p = 1 / (1 + 10 ** ((truth[j] - truth[i]) / 400))
            for _ in range(300):
                pairs.append((i, j, 1.0 if rng.random() < p else -1.0))
    ratings = bradley_terry(["a", "b", "c"], pairs, resamples=100)
    assert [r.bot for r in sorted(ratings, key=lambda r: -r.value)] == ["a", "b", "c"]
    for r, t in zip(ratings, truth, strict=True):
        assert r.lo <= t <= r.hi, (r, t)


def test_order_stability_flags_a_fragile_top():
    rng = np.random.default_rng(2)
    clear = [(0, 1, 1.0)] * 40 + [(0, 1, -1.0)] * 10
    close = [(0, 1, float(rng.choice([1, -1]))) for _ in range(50)]
    close += [(0, 1, 1.0), (0, 1, 1.0)]
    assert order_stability(["a", "b"], clear, drop=5)["top_kept"] == 1.0
    assert order_stability(["a", "b"], close, drop=5)["top_kept"] < 1.0


def test_openskill_ranks_the_consistent_winner_first():
    blocks = [[(0, 10.0), (1, -3.0), (2, -7.0)] for _ in range(30)]
    ratings, history = openskill_ratings(["a", "b", "c"], blocks)
    assert ratings[0].value > ratings[1].value > ratings[2].value
    assert len(history) == 30 and history[-1][0] == ratings[0].value
    assert ratings[0].lo < ratings[0].value < ratings[0].hi


def test_total_bankroll_and_instant_runoff_can_disagree():
    """The ACPC's two rankings: ``x`` exploits the weak ``w`` hugely but loses a little
    to ``y``; total bankroll puts ``x`` first, instant run-off (``w`` out first, then
    ``x`` loses to ``y`` head to head) puts ``y`` first."""
    bots = ["x", "y", "w"]
    cross = [[0, -10, 500], [10, 0, 20], [-500, -20, 0]]
    assert [b for b, _ in total_bankroll(bots, cross)] == ["x", "y", "w"]
    assert instant_runoff(bots, cross) == ["y", "x", "w"]


def test_icm_two_players_is_linear_and_sums_to_the_prizes():
    eq = icm_equity([3000, 1000], [70, 30])
    assert eq == pytest.approx([30 + 40 * 0.75, 30 + 40 * 0.25])
    eq3 = icm_equity([5000, 3000, 2000], [50, 30, 20])
    assert sum(eq3) == pytest.approx(100)
    # first player: 0.5*50 + P(second) * 30 + P(third) * 20, by hand
    p2 = 0.3 * 5 / 7 + 0.2 * 5 / 8
    p3 = 1 - 0.5 - p2
    assert eq3[0] == pytest.approx(0.5 * 50 + p2 * 30 + p3 * 20)
    assert icm_equity([0, 10, 10], [60, 40]) == pytest.approx([0, 50, 50])


def test_payouts_sum_to_the_pool_and_refuse_bad_tables():
    prizes = payout_table(1000, [0.5, 0.3, 0.2])
    assert sum(prizes) == pytest.approx(1000)
    with pytest.raises(ValueError):
        payout_table(1000, [0.5, 0.3])
    with pytest.raises(ValueError):
        icm_equity([1] * 13, [1.0])


# pairings -------------------------------------------------------------------------

def test_round_robin_gauntlet_and_seatings():
    from pokerarena.tournaments.pairings import gauntlet, round_robin, seatings

    assert round_robin(["a", "b", "c"]) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert len(round_robin(list("abcdefg"), 3)) == 35
    assert gauntlet("x", ["a", "b", "x"]) == [("x", "a"), ("x", "b")]
    assert len(seatings(2)) == 2 and len(seatings(3)) == 6 and len(seatings(4)) == 24
    six = seatings(6)
    assert len(six) == 6
    for j in range(6):  # every lineup member sits in every seat once
        assert sorted(s[j] for s in six) == list(range(6))
    with pytest.raises(ValueError):
        round_robin(["a"], 2)


def test_deal_seeds_are_shared_across_pairings_and_differ_across_deals():
    from pokerarena.tournaments.pairings import deal_seed

    seeds = [deal_seed(7, 0, k) for k in range(200)]
    assert len(set(seeds)) == 200
    assert deal_seed(7, 0, 5) == seeds[5]  # the same for any pairing: no pairing argument
    assert deal_seed(7, 1, 5) != seeds[5] and deal_seed(8, 0, 5) != seeds[5]


def test_swiss_pairs_by_score_without_rematches():
    from pokerarena.tournaments.pairings import swiss_round

    scores = {"a": 3, "b": 3, "c": 1, "d": 1, "e": 0}
    first = swiss_round(scores, set())
    assert first[0] == ("a", "b") and len(first) == 2  # the odd one out sits out
    played = {frozenset(p) for p in first}
    second = swiss_round(scores, played)
    assert not any(frozenset(p) in played for p in second)
    assert all(len(set(p)) == 2 for p in second)


def test_ring_tables_spread_the_meetings():
    """Nine bots at 3-max tables for 12 rounds: every pair meets, and the most-met pair
    meets at most twice as often as the least-met (a random draw does far worse)."""
    from pokerarena.tournaments.pairings import ring_tables

    bots = [f"b{i}" for i in range(9)]
    rounds = ring_tables(bots, 3, 12, seed=1)
    met: dict[frozenset[str], int] = {}
    for tables in rounds:
        assert sorted(b for t in tables for b in t) == sorted(bots)
        for t in tables:
            for i, a in enumerate(t):
                for b in t[i + 1:]:
                    met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
    assert len(met) == 36
    assert max(met.values()) <= 2 * min(met.values())


# freeze-outs (real bots, real engine) ---------------------------------------------

def _assert_competition_places(standings):
    """Each place is one more than the players ranked strictly above it (players out in
    the same hand with the same chips tie), and tied players share their prizes."""
    places = [s.place for s in standings]
    assert places == sorted(places) and places[0] == 1
    for s in standings:
        assert s.place == 1 + sum(1 for o in standings if o.place < s.place), places
        assert all(o.prize == s.prize for o in standings if o.place == s.place)


def _levels():
    from pokerarena.tournaments.freezeout import Level

    return [Level(0, {"blinds": [10, 20]}), Level(10, {"blinds": [25, 50]}),
            Level(20, {"blinds": [50, 100], "ante": 10}), Level(30, {"blinds": [200, 400]})]


def test_sit_and_go_plays_to_one_winner_with_chips_and_prizes_conserved():
    """000_… «Игроки играют до тех пор, пока один игрок не выиграет все фишки»: six
    bots, one table, rising blinds: one player ends with every chip, places 1-6 are
    each given once, the prizes sum to the pool."""
    from pokerarena.tournaments.freezeout import play_freeze_out

    res = play_freeze_out("holdem", ["call", "maniac", "random", "call", "maniac", "random"],
                          betting="no_limit", stack=1000, levels=_levels(), table_size=6,
                          payouts=[0.65, 0.35], buy_in=10, seed=3)
    assert res.finished and res.chips_conserved
    _assert_competition_places(res.standings)
    winner = res.standings[0]
    assert winner.place == 1 and winner.chips == 6000 and winner.out_round is None
    assert sum(s.prize for s in res.standings) == pytest.approx(60)
    outs = [s.out_round for s in res.standings[1:]]
    assert outs == sorted(outs, reverse=True)  # later out, better place


def test_multi_table_tournament_balances_and_breaks_tables():
    """Twenty players at 6-max: four tables, then fewer as players bust, always within
    one player of each other, a final table, and chips conserved across tables and
    levels."""
    from pokerarena.tournaments.freezeout import play_freeze_out

    res = play_freeze_out("holdem", ["call", "random"] * 10, betting="no_limit", stack=500,
                          levels=_levels(), table_size=6, seed=5)
    assert res.finished and res.chips_conserved
    history = res.tables_history
    assert len(history) == res.rounds > 5
    for sizes in history:  # within one player of each other, no table over six
        assert max(sizes) - min(sizes) <= 1 and max(sizes) <= 6
        # a table is broken as soon as the others can seat its players
        assert sum(sizes) > 6 * (len(sizes) - 1)
    counts = [len(sizes) for sizes in history]
    assert counts == sorted(counts, reverse=True) and counts[0] >= 3 and counts[-1] == 1
    _assert_competition_places(res.standings)
    assert sum(s.prize for s in res.standings) == pytest.approx(20)


def test_a_stopped_tournament_gets_icm_equity_and_bad_levels_are_refused():
    from pokerarena.tournaments.freezeout import Level, play_freeze_out

    res = play_freeze_out("holdem", ["call"] * 4, betting="no_limit", stack=1000,
                          levels=[Level(0, {"blinds": [5, 10]})], table_size=4,
                          max_rounds=3, seed=1)
    alive = [s for s in res.standings if s.out_round is None]
    assert not res.finished and len(alive) >= 2
    assert sum(s.icm for s in alive) == pytest.approx(sum(s.prize for s in alive))
    with pytest.raises(ValueError, match="round 0"):
        play_freeze_out("holdem", ["call"] * 2, stack=100, levels=[Level(5, {})])


def test_standings_from_blocks_rank_rate_and_rate_by_segments():
    """Synthetic heads-up blocks: ``a`` beats ``b`` by 1 bb a deal, ``b`` beats ``c``;
    the standings order them, the cross table is antisymmetric, and the ratings (by
    segments of deals) put ``a`` first."""
    from pokerarena.tournaments.standings import Block, standings

    rng = np.random.default_rng(4)
    blocks = []
    for m, (x, y, edge) in enumerate([("a", "b", 1.0), ("b", "c", 1.0), ("a", "c", 2.0)]):
        for d in range(200):
            v = edge + rng.normal(0, 3)
            blocks += [Block(m, d, x, v, 2, (x, y)), Block(m, d, y, -v, 2, (x, y))]
    out = standings(blocks, resamples=50)
    assert [r["bot"] for r in out["bots"]] == ["a", "b", "c"]
    cross = out["cross"]["mbb_per_hand"]
    assert cross[0][1] == pytest.approx(-cross[1][0])
    assert out["instant_runoff"] == ["a", "b", "c"]
    assert max(out["bradley_terry"], key=lambda r: r["rating"])["bot"] == "a"
    assert max(out["openskill"], key=lambda r: r["rating"])["bot"] == "a"


# tournament runs: formats and common deals --------------------------------------

def _spec(**kw):
    from pokerarena.platform.spec import parse_spec

    base = {"kind": "tournament", "bots": ["call", "random", "maniac", "rock"], "seats": 2,
            "hands": 40, "unit_hands": 20, "duplicate": True,
            "games": [{"variant": "holdem", "betting": "fixed_limit"}]}
    base.update(kw)
    return parse_spec(base)


def test_gauntlet_and_round_robin_lineups_and_bad_settings():
    from pokerarena.platform.spec import SpecError

    rr = _spec()
    assert len(rr.lineups()) == rr.lineup_count() == 6
    g = _spec(format="gauntlet", challenger="rock")
    assert g.lineups() == [("rock", "call"), ("rock", "random"), ("rock", "maniac")]
    assert g.lineup_count() == 3
    with pytest.raises(SpecError, match="challenger"):
        _spec(format="gauntlet")
    with pytest.raises(SpecError, match="a tournament setting"):
        _spec(kind="match", bots=["call", "random"], seats=None, format="gauntlet",
              challenger="call")


def test_common_deals_give_every_lineup_the_same_cards():
    """Deal k of call-random is deal k of call-maniac and of random-maniac: the hole
    cards dealt in each shard are the same across lineups (seats rotated alike), and
    differ between shards; without common deals they differ across lineups."""
    from pokerarena.platform.planner import plan
    from pokerarena.workers.records import play_unit

    def cards_by_lineup(spec):
        out = {}
        for u in plan(spec).units:
            seats = play_unit(u).tables["seats"].to_pydict()
            out[(u.bots, u.shard)] = list(zip(seats["hand"], seats["seat"], seats["cards"],
                                              strict=True))
        return out

    shared = cards_by_lineup(_spec(bots=["call", "random", "maniac"]))
    by_shard: dict[int, list] = {}
    for (_bots, shard), cards in shared.items():
        by_shard.setdefault(shard, []).append(cards)
    for shard, lists in by_shard.items():
        assert all(c == lists[0] for c in lists), shard
    assert by_shard[0][0] != by_shard[1][0]
    own = cards_by_lineup(_spec(bots=["call", "random", "maniac"], common_deals=False))
    assert len({str(v) for (b, s), v in own.items() if s == 0}) == 3


def test_ratings_follow_the_chips_when_shards_seat_the_lineup_rotated():
    """A match's shards seat its lineup rotated (the first bot of one shard is the
    second of the next): ``a`` beats ``b`` in every segment of both shards, so
    Bradley-Terry must rate ``a`` far above ``b`` (a rating that took one shard's
    orientation for the other's would cancel to about zero)."""
    from pokerarena.tournaments.standings import Block, standings

    rng = np.random.default_rng(8)
    blocks = []
    for d in range(400):
        lineup = ("a", "b") if d < 200 else ("b", "a")  # shard 1: the lineup rotated
        v = 3.0 + rng.normal(0, 1)
        blocks += [Block(0, d, "a", v, 2, lineup), Block(0, d, "b", -v, 2, lineup)]
    out = standings(blocks, resamples=30)
    bt = {r["bot"]: r["rating"] for r in out["bradley_terry"]}
    assert bt["a"] - bt["b"] > 400
