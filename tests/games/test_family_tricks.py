"""The tricks of the trick-taking families (issue 31): every card played to a trick lands
in the family's tricks table (``painted_tricks``, ``boston_tricks``, ``variety_tricks``),
the hand viewer's API returns a game's tricks per deal, and the viewer page shows each
deal's tricks at its step of the score sheet.

Small runs are played in this process; the tables are read straight from their Parquet
parts with DuckDB (not through the platform's views), and checked against the rules'
invariants and the score sheet each family keeps, which the game wrote independently.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pytest

from pokerarena.games import family
from pokerarena.platform.api.testing import played

SPECS: dict[str, dict[str, Any]] = {
    "painted": {"kind": "match", "name": "tricks-painted", "seed": 7,
                "bots": ["random", "rule", "sim"], "hands": 2, "unit_hands": 1,
                "games": [{"variant": "painted", "options": {"jokers": 2, "max_cards": 3}}]},
    "boston": {"kind": "match", "name": "tricks-boston", "seed": 3,
               "bots": ["random", "rule", "count", "sim"], "hands": 2, "unit_hands": 2,
               "games": [{"variant": "boston",
                          "options": {"simple_tours": 1, "double_tours": 0}}]},
    "variety": {"kind": "match", "name": "tricks-variety", "seed": 5,
                "bots": ["random", "rule", "sim", "rule#2"], "hands": 2, "unit_hands": 2,
                "games": [{"variant": "variety", "options": {"deals": 2}}]},
    "durak": {"kind": "match", "name": "tricks-durak", "seed": 4,
              "bots": ["random", "rule", "counter"], "hands": 2, "unit_hands": 2,
              "games": [{"variant": "durak"}]},
    "binocle": {"kind": "match", "name": "tricks-binocle", "seed": 2,
                "bots": ["random", "rule"], "hands": 1, "unit_hands": 1,
                "games": [{"variant": "binocle"}]},
}
TRICK_FAMILIES = ("painted", "boston", "variety")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """Each family's small run, played to its end in this process."""
    data = tmp_path_factory.mktemp("tricks")
    return data, {fam: played(data, spec).run_id for fam, spec in SPECS.items()}


def stored(data: Path, run_id: str, table: str) -> list[dict[str, Any]]:
    """A table's rows read from the run's Parquet parts by DuckDB (not by the API)."""
    con = duckdb.connect()
    try:
        r = con.execute(f"SELECT * FROM read_parquet('{data}/runs/{run_id}/{table}/*/*.parquet',"
                        " hive_partitioning = true)")
        cols = [d[0] for d in r.description]
        return [dict(zip(cols, row, strict=True)) for row in r.fetchall()]
    finally:
        con.close()


def by_trick(rows: list[dict[str, Any]]) -> dict[tuple, dict[int, list[dict[str, Any]]]]:
    """Trick rows grouped per (unit, game, deal), then per trick, in play order."""
    out: dict[tuple, dict[int, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for r in sorted(rows, key=lambda r: (r["unit"], r["game"], r["deal"], r["trick"], r["seq"])):
        out[(r["unit"], r["game"], r["deal"])][r["trick"]].append(r)
    return out


@pytest.mark.parametrize("fam_id", TRICK_FAMILIES)
def test_stored_tricks_keep_the_rules_and_add_up_to_the_score_sheet(runs, fam_id: str) -> None:
    """Every trick has one card per seat, played in turn from its leader round the table;
    no card is played twice in a deal (painted poker's two jokers aside, which are alike);
    the taker of a trick leads the next («Его открывает участник, получивший взятку в
    предыдущем»); a deal has as many tricks as cards in a hand (boston: none when all
    four passed); and per deal and seat, the tricks won are the sheet's ``tricks``."""
    data, ids = runs
    run_id = ids[fam_id]
    fam = family(fam_id)
    assert fam.record is not None
    tricks = stored(data, run_id, fam.extra["tricks"].name)
    sheet = stored(data, run_id, fam.record.name)
    players = {(h["unit"], h["hand"]): h["players"] for h in stored(data, run_id, "hands")}
    bots = {(s["unit"], s["hand"], s["seat"]): s["bot"] for s in stored(data, run_id, "seats")}
    assert tricks and sheet and len(players) == SPECS[fam_id]["hands"]
    deals = by_trick(tricks)
    won: Counter[tuple] = Counter()
    for (unit, game, deal), per_trick in deals.items():
        n = players[(unit, game)]
        assert sorted(per_trick) == list(range(len(per_trick)))
        cards = []
        for k, plays in per_trick.items():
            leader, winner = plays[0]["seat"], plays[0]["won_by"]
            assert [p["seq"] for p in plays] == list(range(n))
            assert [p["seat"] for p in plays] == [(leader + i) % n for i in range(n)]
            assert {p["won_by"] for p in plays} == {winner} and 0 <= winner < n
            assert all(p["bot"] == bots[(unit, game, p["seat"])] for p in plays)
            if k + 1 in per_trick:
                assert per_trick[k + 1][0]["seat"] == winner, (unit, game, deal, k)
            won[(unit, game, deal, winner)] += 1
            cards += [p["card"] for p in plays]
        plain = [c for c in cards if not c.startswith("Jk")]
        assert len(plain) == len(set(plain)), (unit, game, deal)
        assert len(cards) - len(plain) <= (2 if fam_id == "painted" else 0)
    for row in sheet:
        key = (row["unit"], row["game"], row["deal"])
        assert won[(*key, row["seat"])] == row["tricks"], (fam_id, key, row["seat"])
        if fam_id == "painted":
            want = row["cards"]
        elif fam_id == "boston":
            want = 13 if row["contract"] else 0
        else:
            want = 13
        assert len(deals.get(key, {})) == want, key
    assert set(deals) <= {(r["unit"], r["game"], r["deal"]) for r in sheet}


@pytest.mark.parametrize("fam_id", TRICK_FAMILIES)
def test_a_games_tricks_are_its_log_of_cards_played(fam_id: str) -> None:
    """``hand.tricks()`` of a game played by random choices: each deal's cards in the
    order its log played them, the winners' counts are the score record's tricks, and a
    replay of the log gives the same tricks (the record changes nothing in the play)."""
    fam = family(fam_id)
    game = fam.make(SPECS[fam_id]["games"][0].get("options"))
    seats = len(SPECS[fam_id]["bots"])
    rng = np.random.default_rng(11)
    hand = game.new_hand(4, seats)
    while not hand.is_over:
        legal = list(hand.legal_actions())
        hand.apply(legal[int(rng.integers(len(legal)))])
    got = hand.tricks()
    assert [d for d, _ in got] == [r.no for r in hand.records]
    played_cards = [a for _, a in hand.log if getattr(a, "kind", "") == "play"]
    flat = [card for _, tricks in got for _, plays, _ in tricks for _, card in plays]
    assert flat == [a.text().removeprefix("play ") for a in played_cards]
    seats_in_order = [s for s, a in hand.log if getattr(a, "kind", "") == "play"]
    assert [s for _, tricks in got for _, plays, _ in tricks for s, _ in plays] == seats_in_order
    for (_, tricks), record in zip(got, hand.records, strict=True):
        counts = Counter(w for _, _, w in tricks)
        assert tuple(counts[s] for s in range(seats)) == tuple(record.tricks)
        assert all(leader == plays[0][0] for leader, plays, _ in tricks)
    again = game.replay(4, seats, hand.log)
    assert again.tricks() == got and again.result() == hand.result()


def _want(rows: list[dict[str, Any]], unit: str, game: int) -> list[dict[str, Any]]:
    """A game's stored trick rows as the API's per-deal shape."""
    deals: dict[int, dict[int, dict[str, Any]]] = defaultdict(dict)
    for r in sorted(rows, key=lambda r: (r["deal"], r["trick"], r["seq"])):
        if (r["unit"], r["game"]) != (unit, game):
            continue
        t = deals[r["deal"]].setdefault(r["trick"], {"trick": r["trick"], "leader": r["seat"],
                                                     "plays": [], "winner": r["won_by"]})
        t["plays"].append({"seat": r["seat"], "card": r["card"]})
    return [{"deal": d, "tricks": list(ts.values())} for d, ts in sorted(deals.items())]


def test_the_viewer_api_returns_each_deals_tricks_over_http(runs, tmp_path: Path) -> None:
    """GET /api/runs/{id}/hands/{unit}/{game} of a family game over real HTTP: ``tricks``
    per deal as stored, for every game of the trick-taking families; ``null`` for a
    family without tricks (binocle) and for a painted run stored before the tricks table
    (its folder absent), whose sheets still come as before."""
    import shutil

    import httpx

    from pokerarena.platform.api import create_app
    from pokerarena.platform.api.server import ServedApp

    data, ids = runs
    old = tmp_path / "old"
    shutil.copytree(data / "runs" / ids["painted"], old / "runs" / ids["painted"],
                    ignore=shutil.ignore_patterns("painted_tricks"))
    with ServedApp(create_app(old, token="t")) as served, \
            httpx.Client(base_url=served.url, timeout=120) as client:
        d = client.get(f"/api/runs/{ids['painted']}/hands/m00000s00000/0").json()
        assert d["family"] and d["tricks"] is None and d["sheet"]["rows"], d
    with ServedApp(create_app(data, token="t")) as served, \
            httpx.Client(base_url=served.url, timeout=120) as client:
        for fam_id in (*TRICK_FAMILIES, "durak"):
            run_id = ids[fam_id]
            rows = stored(data, run_id, family(fam_id).extra["tricks"].name)
            for h in stored(data, run_id, "hands"):
                r = client.get(f"/api/runs/{run_id}/hands/{h['unit']}/{h['hand']}")
                assert r.status_code == 200, r.text
                d = r.json()
                assert d["family"] and d["tricks_truncated"] is False
                assert d["tricks"] == _want(rows, h["unit"], h["hand"]) and d["tricks"]
                sheet_deals = {row[d["sheet"]["columns"].index("deal")]
                               for row in d["sheet"]["rows"]}
                assert {x["deal"] for x in d["tricks"]} <= sheet_deals
        run_id = ids["binocle"]
        h = stored(data, run_id, "hands")[0]
        d = client.get(f"/api/runs/{run_id}/hands/{h['unit']}/{h['hand']}").json()
        assert d["family"] and d["tricks"] is None and d["sheet"]["rows"]
        assert client.get(f"/api/runs/{ids['painted']}/hands/m00000s00000/99").status_code \
            == 404


def _shown(page: Any) -> list[dict[str, Any]]:
    """The tricks table on the page: per row, its leader, winner and each seat's card."""
    return page.eval_on_selector_all("#tricks-table tbody tr", """rs => rs.map(r => ({
        trick: Number(r.dataset.trick), leader: Number(r.dataset.leader),
        winner: Number(r.dataset.winner),
        won: [...r.querySelectorAll('td.won')].map(t => Number(t.dataset.seat)),
        led: [...r.querySelectorAll('td.led')].map(t => Number(t.dataset.seat)),
        plays: [...r.querySelectorAll('td[data-seq]')]
            .sort((a, b) => a.dataset.seq - b.dataset.seq)
            .map(t => ({seat: Number(t.dataset.seat),
                        card: t.querySelector('.card').dataset.card}))}))""")


@pytest.mark.parametrize("fam_id", ["painted", "boston"])
def test_the_viewer_shows_each_deals_tricks_as_stored(runs, browser, fam_id: str,
                                                      tmp_path: Path) -> None:
    """The viewer steps through the score sheet; at each deal's step it shows that deal's
    tricks as the table stores them (each seat's card, the leader ▸ and the taker ✓),
    none at the start; a boston deal all four passed says so. At phone width the page
    does not scroll sideways (the tricks table scrolls in its box)."""
    import httpx

    from pokerarena.platform.api import create_app
    from pokerarena.platform.api.server import ServedApp

    data, ids = runs
    run_id = ids[fam_id]
    rows = stored(data, run_id, family(fam_id).extra["tricks"].name)
    game = max(stored(data, run_id, "hands"), key=lambda h: h["hand"])
    want = {d["deal"]: d["tricks"] for d in _want(rows, game["unit"], game["hand"])}
    errors: list[str] = []
    with ServedApp(create_app(data, token="t")) as served, \
            httpx.Client(base_url=served.url, timeout=120) as client:
        link = f"/runs/{run_id}/hands/{game['unit']}/{game['hand']}"
        d = client.get(f"/api{link}").json()
        deals = sorted({r[d["sheet"]["columns"].index("deal")] for r in d["sheet"]["rows"]})
        page = browser.new_page(viewport={"width": 1100, "height": 1200})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{served.url}{link}")
        page.wait_for_selector("#family-view:not([hidden])", timeout=60_000)
        assert page.is_hidden("#family-tricks")
        for i, deal in enumerate(deals):
            page.keyboard.press("ArrowRight")
            assert page.inner_text("#step-no") == f"step {i + 2} / {len(deals) + 1}"
            assert page.get_attribute("#family-tricks", "data-deal") == str(deal)
            shown = _shown(page)
            stored_tricks = want.get(deal, [])
            assert [{k: t[k] for k in ("trick", "leader", "winner", "plays")}
                    for t in shown] == stored_tricks, deal
            assert all(t["won"] == [t["winner"]] and t["led"] == [t["leader"]]
                       for t in shown)
            assert page.is_visible("#tricks-note") == (not stored_tricks)
        page.keyboard.press("Home")
        assert page.is_hidden("#family-tricks")
        page.screenshot(path=str(tmp_path / f"{fam_id}-tricks.png"), full_page=True)
        page.close()
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        phone.on("pageerror", lambda exc: errors.append(str(exc)))
        phone.goto(f"{served.url}{link}")
        phone.wait_for_selector("#family-view:not([hidden])", timeout=60_000)
        busiest = max(deals, key=lambda k: len(want.get(k, [])))
        for _ in range(deals.index(busiest) + 1):
            phone.keyboard.press("ArrowRight")
        assert phone.is_visible("#tricks-table") and _shown(phone)
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        phone.screenshot(path=str(tmp_path / f"{fam_id}-tricks-phone.png"), full_page=True)
        phone.close()
    assert errors == []


def test_a_family_without_tricks_shows_its_sheet_as_before(runs, browser) -> None:
    """A binocle game (no tricks in that family): the viewer steps through its record
    with no tricks section at any step, and no page error."""
    from pokerarena.platform.api import create_app
    from pokerarena.platform.api.server import ServedApp

    data, ids = runs
    run_id = ids["binocle"]
    h = stored(data, run_id, "hands")[0]
    errors: list[str] = []
    with ServedApp(create_app(data, token="t")) as served:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{served.url}/runs/{run_id}/hands/{h['unit']}/{h['hand']}")
        page.wait_for_selector("#family-view:not([hidden])", timeout=60_000)
        steps = int(page.inner_text("#step-no").split("/")[1])
        for i in range(steps):
            assert page.is_hidden("#family-tricks"), i
            assert "undefined" not in page.inner_text("body"), i   # a sheet without deals
            page.keyboard.press("ArrowRight")
        assert steps == 2    # the start, then the game's result (binocle has no deals)
        assert page.eval_on_selector_all("#family-sheet tbody tr", "rs => rs.length") > 0
        page.close()
    assert errors == []


def test_stored_bouts_of_durak_keep_the_rules_and_add_up_to_the_record(runs) -> None:
    """Durak's bouts (``durak_bouts``, the tricks' columns read for bouts): a bout opens
    with the attacker's throw («Ход всегда делается … одной картой»); a bout beaten off
    has every card thrown beaten and no taker; a taken one ends with its defender's
    ``take`` and names him; per game the bouts are the record's ``bouts`` and each
    seat's taken bouts its ``takes``."""
    data, ids = runs
    run_id = ids["durak"]
    bouts = by_trick(stored(data, run_id, "durak_bouts"))
    games = stored(data, run_id, "durak_games")
    assert bouts and games
    for (unit, game, _deal), per in bouts.items():
        record = [g for g in games if g["unit"] == unit and g["game"] == game]
        assert len(per) == record[0]["bouts"]
        takes: Counter[int] = Counter()
        for moves in per.values():
            assert moves[0]["card"].startswith("throw ") and len({m["won_by"] for m in moves}) == 1
            kinds = [m["card"].split()[0] for m in moves]
            if moves[0]["won_by"] < 0:
                assert "take" not in kinds and kinds.count("throw") == kinds.count("beat")
            else:
                assert kinds[-1] == "take" and moves[-1]["seat"] == moves[0]["won_by"]
                takes[moves[0]["won_by"]] += 1
        assert {g["seat"]: g["takes"] for g in record} == {g["seat"]: takes[g["seat"]]
                                                         for g in record}


def test_the_viewer_shows_durak_bouts_as_stored(runs, browser, tmp_path: Path) -> None:
    """A durak game's second step shows its bouts: a row per bout with each seat's moves
    in play order, the attacker ▸ and the taker ✓, "beaten off" where nobody took."""
    from pokerarena.platform.api import create_app
    from pokerarena.platform.api.server import ServedApp

    data, ids = runs
    run_id = ids["durak"]
    rows = stored(data, run_id, "durak_bouts")
    game = stored(data, run_id, "hands")[0]
    want = _want(rows, game["unit"], game["hand"])[0]["tricks"]
    errors: list[str] = []
    with ServedApp(create_app(data, token="t")) as served:
        page = browser.new_page(viewport={"width": 1100, "height": 1200})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{served.url}/runs/{run_id}/hands/{game['unit']}/{game['hand']}")
        page.wait_for_selector("#family-view:not([hidden])", timeout=60_000)
        page.keyboard.press("ArrowRight")
        assert page.inner_text("#step-no") == "step 2 / 2"
        assert page.inner_text("#tricks-title").startswith("Bouts")
        shown = page.eval_on_selector_all("#tricks-table tbody tr", """rs => rs.map(r => ({
            winner: Number(r.dataset.winner), leader: Number(r.dataset.leader),
            moves: [...r.querySelectorAll('td[data-seq]')].flatMap(t =>
                t.dataset.seq.split(',').map(Number).map((q, i) => {
                    const m = t.querySelectorAll('.move')[i], c = m.querySelector('.card');
                    const text = c ? `${m.firstChild.textContent.trim()} ${c.dataset.card}`
                        : m.textContent.trim();
                    return [q, Number(t.dataset.seat), text];
                }))
                .sort((a, b) => a[0] - b[0]).map(m => [m[1], m[2]]),
            outcome: r.querySelector('td.winner').textContent}))""")
        assert len(shown) == len(want)
        for s, t in zip(shown, want, strict=True):
            assert (s["winner"], s["leader"]) == (t["winner"], t["leader"])
            assert [[m[0], " ".join(m[1].split())] for m in s["moves"]] == \
                [[p["seat"], p["card"]] for p in t["plays"]]
            assert s["outcome"] == ("beaten off" if t["winner"] < 0
                                    else f"taken by seat {t['winner']}")
        page.screenshot(path=str(tmp_path / "durak-bouts.png"), full_page=True)
        page.screenshot(path="/tmp/durak-bouts.png", full_page=True)
        page.close()
    assert errors == []
