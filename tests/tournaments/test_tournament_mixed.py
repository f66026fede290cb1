"""Mixed games: every lineup plays one match through the spec's games in turn,
``rotation_hands`` hands each (H.O.R.S.E.: hold'em, Omaha high-low, razz, seven-card
stud, stud high-low eight-or-better, all fixed limit), on Ray, on deals shared by every
lineup, ranked across the games in big blinds (small bets in the stud games) per hand.

The betting system of the rotation is RULES.md §2's `fixed_limit`: "small bet in early
rounds, big bet in later ones (hold'em: rounds 1–2 small, 3–4 big; seven-card stud: 1–2
small, 3–5 big ...)" (000_… «Пределы ставок»), so each game's unit is its own small
bet: the big blind where there are blinds (= the small bet, `002_…`), the small bet in
the stud games.
"""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from pokerarena.platform.planner import plan
from pokerarena.platform.query import query
from pokerarena.platform.spec import load_spec, parse_spec
from pokerarena.workers.records import play_unit

ROOT = Path(__file__).resolve().parents[2]
HORSE = ["holdem", "omaha_hilo", "razz", "stud7", "stud7_hilo"]
MIXED = {"kind": "tournament", "name": "horse", "seed": 21, "bots": ["maniac", "call", "random"],
         "seats": 2, "hands": 24, "unit_hands": 4, "rotation_hands": 4, "duplicate": True,
         "games": [{"variant": HORSE, "betting": "fixed_limit"}]}


@pytest.fixture(scope="module")
def mixed_run(ray_cluster: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """MIXED played on the session's Ray cluster (two workers)."""
    from pokerarena.platform.api.testing import played
    from pokerarena.platform.executors import RayExecutor

    data = tmp_path_factory.mktemp("mixed")
    return data, played(data, MIXED, executor=RayExecutor(2)).run_id


def test_hands_follow_the_rotation_exactly(mixed_run: tuple[Path, str]) -> None:
    """Hand h of every match is game (h // 4) mod 5 of H.O.R.S.E. (hands 20-23 start the
    rotation again with hold'em), in the hands rows and the seats rows alike, each with
    its own unit: the big blind in the flop games, the small bet in the stud games."""
    data, run_id = mixed_run
    _, rows = query(data, "SELECT match, hand, variant, betting, bb FROM hands ORDER BY ALL",
                    run_id)
    assert len(rows) == 3 * 24
    bb = {"holdem": 2, "omaha_hilo": 2, "razz": 4, "stud7": 4, "stud7_hilo": 4}
    for _match, hand, variant, betting, unit in rows:
        assert variant == HORSE[(hand // 4) % 5], (hand, variant)
        assert (betting, unit) == ("fixed_limit", bb[variant])
    _, bad = query(data, "SELECT count(*) FROM seats s JOIN hands h USING (run_id, match, hand) "
                   "WHERE s.variant <> h.variant OR s.betting <> h.betting", run_id)
    assert bad == [(0,)]
    _, per = query(data, "SELECT variant, count(*) FROM hands GROUP BY 1 ORDER BY 1", run_id)
    assert dict(per) == {"holdem": 24, "omaha_hilo": 12, "razz": 12, "stud7": 12,
                         "stud7_hilo": 12}


def test_every_lineup_plays_the_same_deals(mixed_run: tuple[Path, str]) -> None:
    """Common deals across the rotation: hand h of maniac-call holds the same first cards
    (dealt before anyone decides) in each seat as hand h of maniac-random and of
    call-random; the two seatings of a duplicate deal deal each seat the same cards
    and swap the bots; consecutive deals differ."""
    data, run_id = mixed_run
    _, rows = query(data, "SELECT match, hand, seat, bot, substr(cards, 1, 4) FROM seats "
                    "ORDER BY ALL", run_id)
    by_hand: dict[tuple[int, int], dict[int, str]] = {}
    bot_at: dict[tuple[int, int, int], str] = {}
    for match, hand, seat, bot, first in rows:
        by_hand.setdefault((hand, seat), {})[match] = first
        bot_at[(match, hand, seat)] = bot
    assert len(by_hand) == 24 * 2
    for key, cards in by_hand.items():
        assert len(cards) == 3 and len(set(cards.values())) == 1, key
    one = {k: next(iter(v.values())) for k, v in by_hand.items()}
    for deal in range(12):
        a, b = 2 * deal, 2 * deal + 1
        assert (one[(a, 0)], one[(a, 1)]) == (one[(b, 0)], one[(b, 1)]), deal
        for match in range(3):
            assert bot_at[(match, a, 0)] == bot_at[(match, b, 1)] != bot_at[(match, a, 1)]
    assert len({one[(2 * d, 0)] for d in range(12)}) > 6


def test_leaderboard_ranks_across_the_games_per_big_blind(
        mixed_run: tuple[Path, str], pokerarena_cli: list[str]) -> None:
    """``pokerarena leaderboard RUN --json`` on a mixed run: each bot's rate is its
    chips over its hands, each hand in its own game's unit (what a sum of raw chips
    over one unit would not give), with its interval; profiles per bot and game."""
    data, run_id = mixed_run
    out = subprocess.run([*pokerarena_cli, "leaderboard", run_id, "--data", str(data),
                          "--json"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    board = json.loads(out.stdout)
    _, truth = query(data, "SELECT s.bot, 1000 * sum(s.net / h.bb) / count(*), "
                     "1000 * sum(s.net) / 2 / count(*) FROM seats s "
                     "JOIN hands h USING (run_id, match, hand) GROUP BY 1", run_id)
    rates = {r["bot"]: r for r in board["bots"]}
    assert set(rates) == {"maniac", "call", "random"}
    for bot, per_game, raw in truth:
        assert rates[bot]["value"] == pytest.approx(per_game, abs=0.06)
        assert rates[bot]["lo"] <= rates[bot]["value"] <= rates[bot]["hi"]
        assert rates[bot]["hands"] == 2 * 24
        assert abs(per_game - raw) > 0.5  # the per-game units matter
    games = Counter((p["bot"], p["variant"]) for p in board["profiles"])
    assert {v for _, v in games} == set(HORSE)


def test_mixed_runs_play_as_before() -> None:
    """A mixed spec's seeded rows are those of the code before carried stacks (seats:
    cards, stacks, nets; totals), taken from it (commit fae3d67)."""
    import hashlib

    spec = parse_spec({"kind": "tournament", "seed": 7, "bots": ["random", "call", "maniac"],
                       "seats": 2, "hands": 12, "unit_hands": 3, "rotation_hands": 4,
                       "games": [{"variant": "holdem", "betting": "fixed_limit"},
                                 {"variant": "razz", "betting": "fixed_limit"},
                                 {"variant": "omaha_hilo", "betting": "fixed_limit"}]})
    totals: Counter[str] = Counter()
    digest = hashlib.sha256()
    for u in plan(spec).units:
        seats = play_unit(u).tables["seats"]
        cols = [seats.column(c).to_pylist() for c in ("match", "hand", "seat", "bot", "cards",
                                                       "start_stack", "end_stack", "net")]
        for row in zip(*cols, strict=True):
            digest.update(repr(row).encode())
            totals[row[3]] += row[7]
    assert dict(totals) == {"call": 22, "maniac": 36, "random": -58}
    assert digest.hexdigest()[:16] == "0fdc1751cd82673a"


def test_a_rotation_of_betting_systems_and_the_horse_example() -> None:
    """Any list of games rotates, betting systems too (no-limit hold'em, pot-limit
    Omaha, fixed-limit razz, 10 hands each); ``examples/horse.toml`` plays the five
    games of H.O.R.S.E. in order, fixed limit, every lineup the same games at the same
    hands."""
    spec = parse_spec({**MIXED, "duplicate": False, "hands": 60, "unit_hands": 5,
                       "rotation_hands": 10,
                       "games": [{"variant": "holdem", "betting": "no_limit"},
                                 {"variant": "omaha", "betting": "pot_limit"},
                                 {"variant": "razz", "betting": "fixed_limit"}]})
    order = [("holdem", "no_limit"), ("omaha", "pot_limit"), ("razz", "fixed_limit")]
    units = plan(spec).units
    assert len(units) == 3 * 12
    for u in units:
        assert (u.variant, u.betting) == order[(u.first_hand // 10) % 3]
        assert u.options["betting"] == u.betting and u.hands == 5
    horse = load_spec(ROOT / "examples" / "horse.toml")
    assert [(g["variant"], g["betting"]) for g in horse.game_configs()] == [
        (v, "fixed_limit") for v in HORSE]
    step = horse.rotation_hands
    assert step is not None
    by_lineup: dict[tuple[str, ...], list[tuple[int, str]]] = {}
    for u in plan(horse).units:
        assert u.variant == HORSE[(u.first_hand // step) % 5]
        by_lineup.setdefault(tuple(sorted(u.bots)), []).append((u.first_hand, u.variant))
    assert len({str(v) for v in by_lineup.values()}) == 1
    assert len(by_lineup) == horse.lineup_count()
