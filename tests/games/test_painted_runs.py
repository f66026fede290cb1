"""Painted poker run by the platform: specs with ``variant = "painted"``, units on Ray,
the ordinary ``hands``/``seats`` rows and the ``painted_deals`` score sheet in Parquet
read by DuckDB, standings in points per game."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerarena.platform.api.testing import played
from pokerarena.platform.executors import RayExecutor
from pokerarena.platform.planner import plan
from pokerarena.platform.query import query
from pokerarena.platform.spec import SpecError, parse_spec

SMALL = {"jokers": 1, "max_cards": 3}  # 2 players: 1,2,3,3,2,1 + 8 special deals

TOURNAMENT = {"kind": "tournament", "name": "painted", "seed": 11,
              "bots": ["random", "rule", "sim"], "seats": 2, "hands": 8, "unit_hands": 4,
              "duplicate": True, "games": [{"variant": "painted", "options": SMALL}]}


@pytest.mark.parametrize(("change", "message"), [
    ({"games": [{"variant": "painted", "options": {"jokers": 3}}]},
     "games[0].options: painted: options: jokers"),
    ({"games": [{"variant": "painted", "options": {"colour": 1}}]},
     "games[0].options: painted: options: colour"),
    ({"bots": ["random", "rule", "tag"]}, "bots[2]: 'tag' is not a painted bot"),
    ({"games": [{"variant": "painted", "betting": "no_limit"}]},
     "games[0].betting: painted has no betting"),
    ({"games": [{"variant": ["painted", "holdem"]}]}, "a run plays one game family"),
    ({"format": "swiss", "rounds": 2}, "format: painted tournaments are played as"),
    ({"hands": 9}, "multiples of the 2 seatings"),
    ({"stack": 100}, "stack: a betting-poker setting"),
])
def test_a_bad_painted_spec_is_one_clear_error(change: dict, message: str) -> None:
    with pytest.raises(SpecError) as err:
        parse_spec({**TOURNAMENT, **change})
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_wrong_player_count_is_refused() -> None:
    spec = {"kind": "match", "bots": ["rule"] * 11, "hands": 1,
            "games": [{"variant": "painted"}]}
    with pytest.raises(SpecError, match="bots|seats"):
        parse_spec(spec)


def test_the_plan_rotates_seats_and_shares_the_deals_across_lineups() -> None:
    units = plan(parse_spec(TOURNAMENT)).units
    assert {u.variant for u in units} == {"painted"} and {u.betting for u in units} == {"none"}
    assert len(units) == 3 * 2  # three heads-up lineups, two shards each
    first = [u for u in units if u.match == 0]
    assert first[1].bots == first[0].bots[::-1]
    assert {u.deal_key for u in units if u.shard == 1} == {(0, 1)}


@pytest.fixture(scope="module")
def ray_run(ray_cluster: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """TOURNAMENT played on the session's Ray cluster by two workers."""
    data = tmp_path_factory.mktemp("painted-ray")
    return data, played(data, TOURNAMENT, executor=RayExecutor(2)).run_id


def test_a_painted_tournament_on_ray_writes_games_seats_and_score_sheets(
        ray_run: tuple[Path, str]) -> None:
    """«В таблице в общем столбце нумеруются раунды. У каждого игрока есть два столбца: в
    один записывается количество взяток (заказов), во второй — набранные очки.» One
    ``hands`` row per game, one ``seats`` row per seat whose ``net / bb`` is the game's
    points, and the sheet's rows per deal and seat that add up to them."""
    tmp_path, run_id = ray_run
    _, ((games, bb, unit_count),) = query(
        tmp_path, "SELECT count(*), min(bb), count(DISTINCT unit) FROM hands", run_id)
    assert games == 3 * 8 and bb == 2 and unit_count == 6
    _, bad = query(tmp_path, """
        SELECT s.match, s.hand, s.seat FROM seats s
        JOIN (SELECT match, game, seat, sum(points) AS pts, count(*) AS deals,
                     arg_max(total, deal) AS last FROM painted_deals GROUP BY ALL) d
          ON d.match = s.match AND d.game = s.hand AND d.seat = s.seat
        JOIN hands h ON h.match = s.match AND h.hand = s.hand
        WHERE s.net / h.bb <> d.pts OR d.last <> d.pts OR d.deals <> 14""", run_id)
    assert bad == []
    _, ((seat_rows,),) = query(tmp_path, "SELECT count(*) FROM seats", run_id)
    assert seat_rows == 2 * games
    # common deals: every lineup's deal k (both seatings of it) shows the same trump cards
    _, sheets = query(tmp_path, """
        WITH d AS (SELECT match, game, deal, any_value(trump_card) AS t FROM painted_deals
                   GROUP BY ALL),
             g AS (SELECT match, game, string_agg(t, ',' ORDER BY deal) AS trumps FROM d
                   GROUP BY ALL)
        SELECT game // 2, count(*), count(DISTINCT trumps) FROM g GROUP BY 1 ORDER BY 1""",
                      run_id)
    assert [(k, n, d) for k, n, d in sheets] == [(k, 6, 1) for k in range(4)]


def test_rows_on_ray_equal_the_rows_played_in_process(ray_run: tuple[Path, str],
                                                     tmp_path: Path) -> None:
    """A unit's rows are a pure function of the unit: the same on Ray's workers as in
    this process (after a warm-up that compiled the bots' kernels, or without one)."""
    from pokerarena.platform.api.testing import table_rows

    data, run_id = ray_run
    local = played(tmp_path, TOURNAMENT).run_id
    for table in ("hands", "seats", "faults", "painted_deals"):
        assert table_rows(tmp_path, local, table) == table_rows(data, run_id, table), table


def test_standings_are_points_per_game_with_intervals_in_the_cli_and_the_api(
        ray_run: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    """The leaderboard of a family run: each bot's points per game (the mean of its
    seats' ``net / bb``) with a 95% interval, the same over real HTTP."""
    import httpx

    from pokerarena.cli import main
    from pokerarena.platform.api import create_app
    from pokerarena.platform.api.server import ServedApp
    from pokerarena.platform.standings import run_standings

    data, run_id = ray_run
    out = run_standings(data, run_id)
    assert out["unit"] == "points/game" and out["family"] == "painted"
    _, means = query(data, "SELECT bot, avg(net / 2), count(*) FROM seats GROUP BY 1", run_id)
    got = {r["bot"]: r for r in out["points_per_game"]["bots"]}
    for bot, mean, games in means:
        assert got[bot]["value"] == pytest.approx(mean, abs=1e-3) and got[bot]["games"] == games
        assert got[bot]["lo"] < got[bot]["value"] < got[bot]["hi"]
    assert main(["leaderboard", run_id, "--data", str(data)]) == 0
    text = capsys.readouterr().out
    assert "points/game" in text and "mbb" not in text
    assert f"{got['sim']['value']:.1f}" in text
    app = create_app(data, token="t", web_dir=None)
    with ServedApp(app) as served, httpx.Client(base_url=served.url, timeout=30) as client:
        body = client.get(f"/api/runs/{run_id}/standings").json()
    assert body["points_per_game"] == out["points_per_game"]


def test_the_sheet_command_prints_a_games_score_sheet(
        ray_run: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    """«В таблице в общем столбце нумеруются раунды»: a row per deal, each seat's
    bid/tricks and points, the totals last; those totals are the game's ``seats``."""
    from pokerarena.cli import main

    data, run_id = ray_run
    assert main(["sheet", run_id, "--data", str(data), "--unit", "m00001s00001",
                 "--game", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("unit m00001s00001 game 5")
    assert len(lines) == 3 + 14 + 1 and lines[3].split()[:3] == ["0", "ordinary", "1"]
    _, nets = query(data, "SELECT net / 2 FROM seats WHERE unit = 'm00001s00001' AND "
                    "hand = 5 ORDER BY seat", run_id)
    assert [float(x) for x in lines[-1].split()[1:]] == [n for (n,) in nets]
    assert main(["sheet", run_id, "--data", str(data), "--game", "99"]) == 2
    assert "no game 99" in capsys.readouterr().err


def test_the_dashboard_shows_a_painted_run_in_points_per_game(
        ray_run: tuple[Path, str], browser) -> None:
    """The web dashboard (chromium) draws a family run's ranking and cross table from
    ``points_per_game`` and labels them points/game."""
    import httpx

    from pokerarena.platform.api import create_app
    from pokerarena.platform.api.server import ServedApp

    data, run_id = ray_run
    with ServedApp(create_app(data, token="t")) as served, \
            httpx.Client(base_url=served.url, timeout=30) as client:
        pts = client.get(f"/api/runs/{run_id}/standings").json()["points_per_game"]
        page = browser.new_page(viewport={"width": 1280, "height": 1600})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{served.url}/#{run_id}")
        page.wait_for_selector(f"#standings[data-standings-for='{run_id}']", timeout=60_000)
        assert "points/game" in page.inner_text("#ranking-unit")
        assert "points/game" in page.inner_text("#cross-unit")
        drawn = page.evaluate("""(() => { const d = document.getElementById('chart-ranking')
            .data[0]; return {bots: d.y, text: d.text}; })()""")
        first = pts["bots"][0]
        assert drawn["bots"][0] == first["bot"]
        assert float(drawn["text"][0].split("±")[0].replace(",", "")) == pytest.approx(
            first["value"], abs=0.5)
        a, b = pts["cross"]["bots"][0], pts["cross"]["bots"][1]
        cell = page.inner_text(f"#standings-cross td[data-bot='{a}'][data-opponent='{b}']")
        assert float(cell.split("±")[0]) == pytest.approx(pts["cross"]["points"][0][1], abs=0.05)
        page.close()
    assert errors == []


def test_the_family_page_shows_score_sheets_not_chips(ray_run, browser) -> None:
    """A family run's page (issue 31): its standings in points per game, and the score
    sheet «в общем столбце нумеруются раунды. У каждого игрока есть два столбца: в один
    записывается количество взяток (заказов), во второй — набранные очки» — a row per
    deal, each seat's bid/took and points, the totals last — for the game chosen with the
    buttons; the poker tables (chips, hand categories, pots) are hidden."""
    import httpx

    from pokerarena.platform.api import create_app
    from pokerarena.platform.api.server import ServedApp

    data, run_id = ray_run
    with ServedApp(create_app(data, token="t")) as served, \
            httpx.Client(base_url=served.url, timeout=30) as client:
        first = client.get(f"/api/runs/{run_id}/sheet").json()
        assert first["painted"] and first["games"] == 3 * 8
        _, rows = query(data, "SELECT deal, seat, points, total FROM painted_deals WHERE "
                        f"unit = '{first['unit']}' AND game = {first['game']} ORDER BY ALL",
                        run_id)
        col = {c: i for i, c in enumerate(first["columns"])}
        assert [(r[col["deal"]], r[col["seat"]], r[col["points"]], r[col["total"]])
                for r in first["rows"]] == [tuple(r) for r in rows]
        assert client.get(f"/api/runs/{run_id}/sheet", params={"game": 10**6}).status_code \
            == 404
        page = browser.new_page(viewport={"width": 1280, "height": 1600})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{served.url}/#{run_id}")
        page.wait_for_selector(f"#sheet-section[data-sheet-for='{run_id}:{first['game']}']",
                               timeout=60_000)
        page.wait_for_selector(f"#standings[data-standings-for='{run_id}']", timeout=60_000)
        assert page.is_hidden("#leaderboard") and page.is_hidden("#hands")
        assert page.is_visible("#chart-ranking")
        deals = page.eval_on_selector_all("#sheet tbody tr[data-deal]", "rs => rs.length")
        assert deals == len({r[col["deal"]] for r in first["rows"]})
        last = {r[col["seat"]]: r[col["total"]] for r in first["rows"]}
        totals = page.eval_on_selector_all("#sheet tr.total th[data-seat]",
                                           "ts => ts.map(t => t.textContent)")
        assert [float(t.replace(",", "")) for t in totals] == [last[s] for s in sorted(last)]
        page.click("#sheet-next")
        nxt = client.get(f"/api/runs/{run_id}/sheet", params={"game": first["game"] + 1}).json()
        page.wait_for_selector(f"#sheet-section[data-sheet-for='{run_id}:{nxt['game']}']",
                               timeout=30_000)
        assert f"game {nxt['game']}" in page.inner_text("#sheet-which")
        # the viewer replays the game deal by deal, ending at each seat's points
        page.click("#sheet-link")
        page.wait_for_selector("#family-view:not([hidden])", timeout=30_000)
        game = client.get(f"/api/runs/{run_id}/hands/{nxt['unit']}/{nxt['game']}").json()
        assert game["family"] and game["sheet"]["rows"] == nxt["rows"]
        deals = len({r[col["deal"]] for r in nxt["rows"]})
        assert page.inner_text("#step-no") == f"step 1 / {deals + 1}"
        page.keyboard.press("End")
        assert page.eval_on_selector_all("#family-sheet tbody tr", "rs => rs.length") == \
            len(nxt["rows"])
        shown = page.eval_on_selector_all("#results li", "ls => ls.map(l => l.textContent)")
        assert shown == [f"seat {x['seat']} ({x['bot']}): {x['points']:.1f} points"
                         for x in game["seats"]]
        page.close()
    assert errors == []


STUDY = {"kind": "study", "name": "painted-study", "seed": 5, "bots": ["rule"] * 4,
         "hands": 8, "unit_hands": 4,
         "games": [{"variant": "painted", "options": {"max_cards": 3},
                    "sweep": {"dealer_restriction": [True, False]}}],
         "study": {"questions": [{"text": "Does the dealer's restriction cost the dealer?",
                                  "metrics": ["dealer_edge", "score_spread", "seat_net:3"]}]}}


def test_a_painted_study_on_ray_measures_the_dealer_and_the_spread(
        ray_cluster: str, tmp_path: Path) -> None:
    """«Сдающий не может заказать такое количество взяток, чтобы общая сумма заказов
    равнялась количеству карт на руках» (the dealer's restriction): a grid of the
    option, each cell's dealer edge (per deal of the sheet: the dealer's points minus the
    others' mean), spread of scores and per-seat points with intervals, and the paired
    comparison against the baseline cell, equal to the same figures computed directly."""
    from pokerarena.platform.study_report import study_results, write_report

    run_id = played(tmp_path, STUDY, executor=RayExecutor(2)).run_id
    out = study_results(tmp_path, run_id)
    assert out["family"] == "painted" and out["exact_tables"] is None
    got = {(m["cell"], m["metric"]): m for m in out["metrics"]}
    _, edges = query(tmp_path, """
        WITH d AS (SELECT match, game, deal, sum(points) FILTER (WHERE seat = dealer)
                     - avg(points) FILTER (WHERE seat <> dealer) AS edge
                   FROM painted_deals GROUP BY ALL)
        SELECT match, avg(edge) FROM d GROUP BY 1 ORDER BY 1""", run_id)
    _, spreads = query(tmp_path, """
        SELECT match, avg(sd) FROM (SELECT match, hand, stddev_pop(net / 2) AS sd FROM seats
                                    GROUP BY ALL) GROUP BY 1 ORDER BY 1""", run_id)
    for (cell, edge), (_, spread) in zip(edges, spreads, strict=True):
        assert got[(cell, "dealer_edge")]["value"] == pytest.approx(edge)
        assert got[(cell, "score_spread")]["value"] == pytest.approx(spread)
        m = got[(cell, "seat_net:3")]
        assert m["lo"] < m["value"] < m["hi"] and m["n"] == 8
    compared = {c["metric"] for c in out["comparisons"] if c["cell"] == 1}
    assert {"dealer_edge", "score_spread", "points"} <= compared
    assert write_report(tmp_path, run_id).exists()


def test_a_painted_run_submitted_over_http(ray_cluster: str, tmp_path: Path) -> None:
    """``POST /api/runs`` takes a family's spec (its variant and bots pass the service's
    policy), drives it on Ray to the end; a bad family option is a 422 naming it."""
    import httpx

    from pokerarena.platform.api import create_app
    from pokerarena.platform.api.executors import MeteredRayExecutor
    from pokerarena.platform.api.server import ServedApp
    from pokerarena.platform.api.testing import wait_for

    auth = {"Authorization": "Bearer t"}
    spec = {"kind": "match", "name": "painted-http", "seed": 2, "bots": ["rule", "random"],
            "hands": 2, "games": [{"variant": "painted", "options": {"max_cards": 2}}]}
    app = create_app(tmp_path, token="t", executor_factory=lambda: MeteredRayExecutor(1),
                     web_dir=None)
    with ServedApp(app) as served, httpx.Client(base_url=served.url, timeout=30) as client:
        bad = client.post("/api/runs", json={**spec, "games": [
            {"variant": "painted", "options": {"tariff": 7}}]}, headers=auth)
        assert bad.status_code == 422 and "games[0].options" in bad.json()["error"]
        r = client.post("/api/runs", json=spec, headers=auth)
        assert r.status_code == 201, r.text
        run_id = r.json()["run_id"]
        run = wait_for(lambda: (lambda x: x if x["status"] not in (
            "created", "running", "cancelling") else None)(
                client.get(f"/api/runs/{run_id}").json()), 300, what="painted run finished")
        assert run["status"] == "finished"
        body = client.get(f"/api/runs/{run_id}/standings").json()
    assert body["unit"] == "points/game" and len(body["points_per_game"]["bots"]) == 2


def test_the_sheets_index_is_a_page_summary_of_the_rows_it_read(
        ray_run: tuple[Path, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The two scans of the whole record a sheet needs (the run's first game and its
    count) are kept when the run ends, keyed by the rows they read, so the sheet of a
    run of millions of games reads one game (issue 31: "the pages stay fast for a run of
    10^7 hands, because they read summaries")."""
    from pokerarena.platform import page_summaries
    from pokerarena.platform.score_sheets import SHEET_INDEX, sheet_data
    from pokerarena.platform.storage import RunStore

    data, run_id = ray_run
    store = RunStore(data, run_id)
    key = page_summaries.rows_key(store)
    kept = page_summaries.read(store, SHEET_INDEX, key)
    _, ((unit, game, games),) = query(data, """
        SELECT arg_min(unit, (unit, game)), arg_min(game, (unit, game)),
               count(DISTINCT (unit, game)) FROM painted_deals""", run_id)
    assert kept == {"first": [unit, game], "games": games}   # written when the run ended
    monkeypatch.setenv(page_summaries.SWITCH, "off")
    from_rows = sheet_data(data, run_id)
    monkeypatch.delenv(page_summaries.SWITCH)
    assert sheet_data(data, run_id) == from_rows and from_rows["games"] == games
    # the sheet reads the kept index: a kept count it did not compute shows through
    page_summaries.write(store, SHEET_INDEX, key, {**kept, "games": games + 7})
    try:
        assert sheet_data(data, run_id)["games"] == games + 7
    finally:
        page_summaries.write(store, SHEET_INDEX, key, kept)
