"""The hand viewer (issue 31): stored hands as steps over the API and in a real browser.

A served API plays one small run on the session's Ray cluster: hold'em no limit, seven-
card stud and five-card draw at a four-seat table with carried stacks (so all-ins for
less make side pots and uncalled bets). Every hand is checked against its rows read
straight from the Parquet files with DuckDB, not through the API.
"""

from __future__ import annotations

import duckdb
import pytest

from pokerarena.interop.stored_hand import HIDDEN, side_pots, split_cards
from pokerarena.platform.api.testing import served_runs

SPEC = {"kind": "tournament", "name": "viewer", "seed": 5, "seats": 4,
        "bots": ["maniac", "call", "tag", "random"], "hands": 24, "unit_hands": 12,
        "table_stakes": "carry",
        "games": [{"variant": ["holdem", "stud7", "draw5"], "betting": "no_limit"}]}


@pytest.fixture(scope="module")
def viewer_run(ray_cluster, tmp_path_factory):
    data = tmp_path_factory.mktemp("viewer")
    with served_runs(data, [SPEC]) as (url, client, (run_id,)):
        yield url, client, run_id, data / "runs" / run_id


def stored(run_dir, table: str) -> list[dict]:
    """A table's rows read from the run's Parquet parts by DuckDB (not by the API)."""
    con = duckdb.connect()
    r = con.execute(f"SELECT * FROM read_parquet('{run_dir}/{table}/*/*.parquet', "
                    "hive_partitioning = true)")
    cols = [d[0] for d in r.description]
    return [dict(zip(cols, row, strict=True)) for row in r.fetchall()]


def test_side_pots_follow_the_rules_example():
    """The source's three-player example (seeds/000_…, «Примеры настольных ставок»):
    «у игрока Б осталось только 30 фишек … игрок А ставит 40 фишек: 30 идут в основной
    банк; 10 открывают дополнительный банк … Побочный банк могут взять только игроки А
    или В.» A and V end with 50 each in, B all in for 30: a main pot of 90 for all
    three, a side pot of 40 for A and V; a folded seat's chips stay in the pots they
    reached, and money carried in sits in the main pot."""
    assert side_pots([50, 30, 50], [False, False, False]) == [
        {"amount": 90, "eligible": [0, 1, 2]}, {"amount": 40, "eligible": [0, 2]}]
    assert side_pots([50, 30, 50, 45], [False, False, False, True], dead=6) == [
        {"amount": 126, "eligible": [0, 1, 2]}, {"amount": 55, "eligible": [0, 2]}]


def test_every_hand_replays_to_its_stored_rows(viewer_run):
    """Each hand's steps end at the stacks, pot and cards stored for it, whatever the
    game (board, stud, draw with a pass and carried pot); the run has side pots and an
    uncalled bet returned (the source, seeds/003_…: «Если остальные игроки не могут
    ответить на его ставку, излишек остается у игрока»)."""
    _url, client, run_id, run_dir = viewer_run
    hands = stored(run_dir, "hands")
    seats = stored(run_dir, "seats")
    assert {h["variant"] for h in hands} == {"holdem", "stud7", "draw5"}
    kinds, side = set(), 0
    for h in hands:
        got = client.get(f"/api/runs/{run_id}/hands/{h['unit']}/{h['hand']}")
        assert got.status_code == 200, got.text
        d = got.json()
        assert d["consistent"] is True, (h["unit"], h["hand"])
        mine = sorted((s for s in seats if (s["match"], s["hand"]) == (h["match"], h["hand"])),
                      key=lambda s: s["seat"])
        last = d["steps"][-1]
        assert last["stacks"] == [s["end_stack"] for s in mine]
        assert d["steps"][0]["stacks"] == [s["start_stack"] for s in mine]
        assert last["board"] == split_cards(h["board"])
        assert last["cards"] == [split_cards(s["cards"]) for s in mine]
        assert sum(p["amount"] for p in d["pots"]) == h["pot"] + h["carry_out"]
        side += len(d["pots"]) > 1
        kinds.update(s["kind"] for s in d["steps"])
        # chips only move by the log: each step's stacks and pot add up to the start
        total = sum(s["start_stack"] for s in mine) + (h["carry_in"] or 0)
        for step in d["steps"][:-1]:
            assert sum(step["stacks"]) + step["pot"] == total
    assert side > 0 and "uncalled" in kinds


def test_a_seats_view_hides_what_it_could_not_see(viewer_run):
    """As seat k saw it: its own down cards, everyone's up cards (stud) and the board
    are shown; other seats' down cards are hidden until the showdown, where the seats
    whose hands were scored are shown."""
    _url, client, run_id, run_dir = viewer_run
    seats = stored(run_dir, "seats")
    hands = {(h["match"], h["hand"]): h for h in stored(run_dir, "hands")}
    checked = 0
    for (m, n), h in sorted(hands.items()):
        if h["variant"] != "stud7" or not h["showdown"]:
            continue
        mine = {s["seat"]: s for s in seats if (s["match"], s["hand"]) == (m, n)}
        d = client.get(f"/api/runs/{run_id}/hands/{h['unit']}/{n}", params={"seat": 0}).json()
        before = d["steps"][-2]
        for k, s in mine.items():
            up = set(split_cards(s["up_cards"]))
            seen = [c for c in before["cards"][k] if c != HIDDEN]
            want = split_cards(s["cards"])
            assert seen == (want if k == 0 else [c for c in want if c in up]), (m, n, k)
            final = d["steps"][-1]["cards"][k]
            assert (HIDDEN not in final) == (k == 0 or bool(s["showdown"])), (m, n, k)
        checked += 1
    assert checked > 0


def test_finding_hands(viewer_run):
    """The biggest pots in order, a bot's biggest losses, and the filters, each against
    the stored rows."""
    _url, client, run_id, run_dir = viewer_run
    hands = stored(run_dir, "hands")
    seats = stored(run_dir, "seats")
    got = client.get(f"/api/runs/{run_id}/hands", params={"order": "pot", "limit": 5}).json()
    assert [r["pot"] for r in got["hands"]] == sorted((h["pot"] for h in hands),
                                                      reverse=True)[:5]
    assert len({(r["match"], r["hand"]) for r in got["hands"]}) == 5
    for r in got["hands"]:
        assert client.get(r["api"]).status_code == 200
    losses = client.get(f"/api/runs/{run_id}/hands",
                        params={"order": "loss", "bot": "call", "limit": 3}).json()["hands"]
    bb = {(h["match"], h["hand"]): h["bb"] for h in hands}
    want = sorted(s["net"] / bb[(s["match"], s["hand"])] for s in seats if s["bot"] == "call")
    assert [r["net"] / r["bb"] for r in losses] == want[:3]
    assert all(r["bot"] == "call" for r in losses)
    stud = client.get(f"/api/runs/{run_id}/hands", params={
        "variant": "stud7", "showdown": "true", "limit": 200}).json()["hands"]
    assert stud and all(r["variant"] == "stud7" and r["showdown"] for r in stud)
    assert len(stud) == sum(1 for h in hands if h["variant"] == "stud7" and h["showdown"])
    late = client.get(f"/api/runs/{run_id}/hands", params={
        "variant": "holdem", "street": 7, "limit": 200}).json()["hands"]  # the river's round
    acts = stored(run_dir, "actions")
    river = {(a["match"], a["hand"]) for a in acts if a["seat"] >= 0 and a["street"] >= 7}
    assert {(r["match"], r["hand"]) for r in late} == {
        (h["match"], h["hand"]) for h in hands if h["variant"] == "holdem"} & river


@pytest.mark.parametrize("path, status", [
    ("/hands/m00000s00000/999999", 404),       # no such hand
    ("/hands/m00000s00000/-1", 422),           # not a hand number
    ("/hands/m0';DROP TABLE x;--/0", 422),     # not a unit id
    ("/hands/m00000s00000/0?seat=9", 400),     # no such seat at a table of 4
    ("/hands?limit=100000", 422),              # a huge page
    ("/hands?order=everything", 422),          # a bad filter
    ("/hands?street=-3", 422),
    ("/hands?bot=o'brien", 200),               # quoted safely, finds nothing
])
def test_hostile_hand_requests(viewer_run, path, status):
    _url, client, run_id, _ = viewer_run
    r = client.get(f"/api/runs/{run_id}{path}")
    assert r.status_code == status, r.text
    if status != 200:
        assert set(r.json()) == {"error", "status"}
    else:
        assert r.json()["hands"] == []
    assert client.get("/api/runs/no-such-run/hands/m00000s00000/0").status_code == 404


def test_the_viewer_steps_through_a_hand_in_a_browser(browser, viewer_run, tmp_path):
    """From the dashboard's biggest pots to the viewer; the keyboard and the buttons step
    through the hand, and each step shows the stored stacks, bets, pot and board; the
    last shows the stored end stacks and the showdown."""
    url, client, run_id, run_dir = viewer_run
    page = browser.new_page(viewport={"width": 1100, "height": 1200})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{url}/#{run_id}")
    page.wait_for_selector("#hands tbody tr a", timeout=60_000)
    # the finder's filters: a bot's biggest losses, as the API lists them
    page.select_option("#hands-order", "loss")
    page.select_option("#hands-bot", "call")
    page.wait_for_selector("#hands-section[data-hands-for*='bot=call']", timeout=30_000)
    page.wait_for_selector("#hands-section[data-hands-for*='order=loss']", timeout=30_000)
    want = client.get(f"/api/runs/{run_id}/hands",
                      params={"order": "loss", "bot": "call", "limit": 10}).json()["hands"]
    rows = page.eval_on_selector_all("#hands tbody tr",
                                     "rs => rs.map(r => [r.dataset.unit, Number(r.dataset.hand)])")
    assert rows == [[h["unit"], h["hand"]] for h in want] and rows
    page.select_option("#hands-order", "pot")
    page.select_option("#hands-bot", "")
    page.wait_for_function("""() => { const f = document.getElementById('hands-section')
        .dataset.handsFor || ''; return f.includes('order=pot') && !f.includes('bot='); }""")
    top = client.get(f"/api/runs/{run_id}/hands", params={"limit": 1}).json()["hands"][0]
    page.click("#hands tbody tr:first-child a")
    page.wait_for_selector("#viewer:not([hidden])")
    assert page.url.endswith(top["link"])
    d = client.get(top["api"]).json()

    def shown() -> dict:
        rows = page.eval_on_selector_all("#seats-table tbody tr", """rs => rs.map(r => ({
            stack: r.querySelector('.stack').textContent, bet: r.querySelector('.bet').textContent,
            cards: [...r.querySelectorAll('.card')].map(c => c.dataset.card)}))""")
        return {"pot": page.inner_text("#pot"), "rows": rows,
                "board": page.eval_on_selector_all("#board .card",
                                                   "cs => cs.map(c => c.dataset.card)")}

    def number(text: str) -> int:
        return int(text.replace(",", ""))

    for i, step in enumerate(d["steps"]):
        if i:
            (page.keyboard.press("ArrowRight") if i % 2 else page.click("#next"))
        assert page.inner_text("#step-no") == f"step {i + 1} / {len(d['steps'])}"
        now = shown()
        assert number(now["pot"]) == step["pot"]
        assert [number(r["stack"]) for r in now["rows"]] == step["stacks"]
        assert [number(r["bet"]) for r in now["rows"]] == step["bets"]
        assert [r["cards"] for r in now["rows"]] == step["cards"]
        assert now["board"] == step["board"]
    ends = {s["seat"]: s["end_stack"] for s in stored(run_dir, "seats")
            if (s["match"], s["hand"]) == (top["match"], top["hand"])}
    assert [number(r["stack"]) for r in shown()["rows"]] == [ends[k] for k in sorted(ends)]
    assert page.is_visible("#showdown")
    page.keyboard.press("Home")
    assert page.inner_text("#step-no").startswith("step 1 /")
    # the page's export links give the hand as others read it
    link = page.get_attribute("#exports a[data-format='phh']", "href")
    got = client.get(link)
    assert got.status_code == 200 and "actions = [" in got.text, got.text[:200]
    page.screenshot(path=str(tmp_path / "viewer.png"), full_page=True)
    assert errors == []
    page.close()


def test_the_cross_table_of_a_four_seat_run_is_pairwise(viewer_run):
    """At a four-seat table a bot's own result is the same against every opponent, so
    the cross table shows the pairwise part instead: half the difference of the two
    bots' results on the same hands (heads-up that is simply what the row bot won).
    Both the leaderboard's and the standings' cross tables, against the stored rows."""
    _url, client, run_id, run_dir = viewer_run
    bb = {(h["match"], h["hand"]): h["bb"] for h in stored(run_dir, "hands")}
    by_hand: dict = {}
    for s in stored(run_dir, "seats"):
        by_hand.setdefault((s["match"], s["hand"]), {})[s["bot"]] = s["net"] / bb[
            (s["match"], s["hand"])]
    bots = sorted({b for at in by_hand.values() for b in at})

    def pairwise(a: str, c: str) -> float:
        xs = [(at[a] - at[c]) / 2 for at in by_hand.values()]
        return 1000 * sum(xs) / len(xs)

    board = client.get(f"/api/runs/{run_id}/leaderboard").json()["cross_table"]
    assert len(board) == len(bots) * (len(bots) - 1)
    for cell in board:
        assert cell["mbb_per_hand"] == pytest.approx(pairwise(cell["bot"], cell["opponent"]),
                                                     abs=0.051)
    cross = client.get(f"/api/runs/{run_id}/standings").json()["cross"]
    for i, a in enumerate(cross["bots"]):
        row = [x for x in cross["mbb_per_hand"][i] if x is not None]
        assert len(set(row)) == len(row)  # never one figure repeated along a row
        for j, c in enumerate(cross["bots"]):
            if i != j:
                assert cross["mbb_per_hand"][i][j] == pytest.approx(pairwise(a, c), abs=0.051)
                assert cross["ci95"][i][j] > 0
