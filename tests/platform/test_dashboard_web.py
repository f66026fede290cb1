"""The web dashboard in a real browser (Debian's chromium, headless, driven by
Playwright): it picks up a run submitted after the page loaded, follows it to the end,
and shows its progress, leaderboard, cross table and charts as the API reports them."""

from __future__ import annotations

import httpx
import pytest

from pokerarena.platform.api import create_app
from pokerarena.platform.api.executors import MeteredRayExecutor
from pokerarena.platform.api.server import ServedApp
from pokerarena.platform.api.testing import small_spec

TOKEN = "test-token-web"
AUTH = {"Authorization": f"Bearer {TOKEN}"}






@pytest.fixture(scope="module")
def service(ray_cluster, tmp_path_factory):
    data = tmp_path_factory.mktemp("web")
    app = create_app(data, token=TOKEN, executor_factory=lambda: MeteredRayExecutor(1))
    with ServedApp(app) as served, httpx.Client(base_url=served.url, timeout=30) as client:
        yield served.url, client


def test_dashboard_follows_a_run_to_completion(browser, service):
    url, client = service
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url + "/")
    assert page.title() == "pokerarena"
    page.wait_for_selector("#service-status:text('connected')")
    assert page.is_visible("#no-runs")

    r = client.post("/api/runs", json=small_spec(hands=600, unit_hands=100, name="web",
                                                 bots=("tag", "call")), headers=AUTH)
    assert r.status_code == 201, r.text
    run_id = r.json()["run_id"]
    row = f"tr.run[data-run-id='{run_id}']"
    page.wait_for_selector(row, timeout=30_000)  # the page found the new run by itself
    page.wait_for_selector(f"{row}[data-status='finished']", timeout=300_000)
    page.wait_for_selector(f"#run-detail[data-results-for='{run_id}:finished']",
                           timeout=30_000)

    assert page.inner_text("#run-id") == run_id
    assert page.inner_text("#run-status") == "finished"
    assert page.inner_text("#run-hands") == "600 / 600"
    assert page.inner_text("#run-units") == "6 / 6"
    assert page.inner_text(f"{row} td:nth-child(5)") == "600 / 600"
    assert page.eval_on_selector("#run-bar", "e => e.style.width") == "100%"
    rate = float(page.inner_text("#run-rate").replace(",", ""))
    assert rate > 0

    board = client.get(f"/api/runs/{run_id}/leaderboard").json()
    shown = {tr.get_attribute("data-bot"): tr.query_selector("td.mbb").inner_text()
             for tr in page.query_selector_all("#leaderboard tbody tr")}
    expected = {b["bot"]: f"{b['mbb_per_hand']:,.1f}" for b in board["leaderboard"]}
    assert shown == expected and set(shown) == {"tag", "call"}
    cross_rows = page.query_selector_all("#crosstable tbody tr")
    assert [tr.get_attribute("data-bot") for tr in cross_rows] == ["call", "tag"]
    tag_vs_call = next(c for c in board["cross_table"] if c["bot"] == "tag")
    cell = cross_rows[1].query_selector("td:nth-of-type(1)").inner_text()
    assert cell == f"{tag_vs_call['mbb_per_hand']:,.1f}"

    charts = client.get(f"/api/runs/{run_id}/charts").json()
    assert page.evaluate("typeof Plotly.react") == "function"
    # the charts are Plotly's (served by the service itself): read back what it drew
    positions = page.evaluate("document.getElementById('chart-positions').data[0].y")
    assert positions == ["pos 0", "pos 1"]
    drawn = page.evaluate("(() => { const d = document.getElementById('chart-categories').data[0];"
                          " return {y: d.y, x: d.x}; })()")
    assert drawn["y"] == [c["category"] for c in charts["categories"]] and drawn["y"]
    assert drawn["x"] == [c["hands"] for c in charts["categories"]]
    bars = page.eval_on_selector_all("#chart-categories g.point path", "ps => ps.length")
    assert bars == len(drawn["y"])  # rendered as SVG bars by Plotly, one per category
    assert errors == []
    page.close()


def test_dashboard_shows_live_progress_then_the_cancel(browser, service):
    url, client = service
    r = client.post("/api/runs", json=small_spec(hands=200_000, unit_hands=200, name="live"),
                    headers=AUTH)
    assert r.status_code == 201, r.text
    run_id = r.json()["run_id"]
    page = browser.new_page()
    try:
        page.goto(f"{url}/#{run_id}")
        row = f"tr.run[data-run-id='{run_id}']"
        page.wait_for_selector(f"{row}[data-status='running']", timeout=60_000)
        # partial progress, shown while the run plays (far too long to end by itself here)
        page.wait_for_function(
            """() => { const w = parseInt(document.getElementById('run-bar').style.width);
                       const s = document.getElementById('run-status').textContent;
                       return s === 'running' && w >= 0
                              && document.getElementById('run-units').textContent
                                 .match(/^[1-9][0-9]* \\/ 1,000$/); }""", timeout=300_000)
        shown_units = int(page.inner_text("#run-units").split(" / ")[0])
        assert 1 <= shown_units < 1000
        assert page.inner_text("#run-id") == run_id
        assert client.post(f"/api/runs/{run_id}/cancel", headers=AUTH).status_code == 202
        page.wait_for_selector(f"{row}[data-status='cancelled']", timeout=300_000)
        page.wait_for_selector("#run-status:text('cancelled')", timeout=30_000)
        final = client.get(f"/api/runs/{run_id}").json()
        page.wait_for_function(
            f"() => document.getElementById('run-units').textContent === "
            f"'{final['units_done']:,} / 1,000'", timeout=30_000)
    finally:
        page.close()


def test_dashboard_shows_a_tournaments_standings(browser, service, tmp_path):
    """A three-bot duplicate round robin: the page draws the ranking with each bot's
    interval in the API's order, the ratings table, one cumulative-winnings line (with
    its band) and one rating-history line per bot, and the two rankings in words."""
    url, client = service
    spec = {"kind": "tournament", "name": "web-standings", "seed": 9, "seats": 2,
            "bots": ["random", "call", "maniac"], "hands": 80, "unit_hands": 80,
            "duplicate": True, "games": [{"variant": "holdem", "betting": "fixed_limit"}]}
    r = client.post("/api/runs", json=spec, headers=AUTH)
    assert r.status_code == 201, r.text
    run_id = r.json()["run_id"]
    page = browser.new_page(viewport={"width": 1280, "height": 1600})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{url}/#{run_id}")
    page.wait_for_selector(f"tr.run[data-run-id='{run_id}'][data-status='finished']",
                           timeout=300_000)
    # the standings drawn from the finished run (a render while it ran shows fewer bots)
    page.wait_for_selector(f"#run-detail[data-results-for='{run_id}:finished']",
                           timeout=60_000)
    page.wait_for_selector(f"#standings[data-standings-for='{run_id}']", timeout=60_000)
    st = client.get(f"/api/runs/{run_id}/standings").json()
    ranking = page.evaluate("""(() => { const d = document.getElementById('chart-ranking').data[0];
        return {bots: d.y, x: d.x, plus: d.error_x.array, minus: d.error_x.arrayminus}; })()""")
    ranked = ranking["bots"]
    assert ranked == [b["bot"] for b in st["bots"]]
    assert ranking["x"] == [b["value"] for b in st["bots"]]
    for b, plus, minus in zip(st["bots"], ranking["plus"], ranking["minus"], strict=True):
        assert plus == pytest.approx(b["hi"] - b["value"]) and plus > 0
        assert minus == pytest.approx(b["value"] - b["lo"]) and minus > 0
    assert page.eval_on_selector_all("#chart-ranking path.point", "ps => ps.length") == 3
    assert page.eval_on_selector_all("#ratings tbody tr", "rs => rs.length") == 3
    series = page.evaluate("""document.getElementById('chart-cumulative').data.map(
        t => ({bot: t.meta.bot, band: t.meta.band, n: t.x.length}))""")
    lines = [t["bot"] for t in series if not t["band"]]
    assert sorted(lines) == sorted(ranked)
    assert sum(t["band"] for t in series) == 3
    cum = st["cumulative"][ranked[0]]
    last = page.evaluate(f"""document.getElementById('chart-cumulative').data.find(
        t => t.meta.bot === '{ranked[0]}' && !t.meta.band).y.slice(-1)[0]""")
    assert last == pytest.approx(cum["bb"][-1])
    assert len(page.evaluate("document.getElementById('chart-history').data")) == 3
    assert "Instant run-off" in page.inner_text("#rankings")
    # the cross table with intervals, rows and columns in ranking order
    assert page.eval_on_selector_all("#standings-cross tbody tr",
                                     "rs => rs.map(r => r.dataset.bot)") == ranked
    i, j = st["cross"]["bots"].index(ranked[0]), st["cross"]["bots"].index(ranked[1])
    cell = page.inner_text(f"#standings-cross td[data-bot='{ranked[0]}']"
                           f"[data-opponent='{ranked[1]}']")
    assert "±" in cell and float(cell.split("±")[0].replace(",", "")) == \
        st["cross"]["mbb_per_hand"][i][j]
    page.screenshot(path=str(tmp_path / "standings.png"), full_page=True)
    assert errors == []
    page.close()
