"""American durak through the platform: an external bot over real HTTP (the family's
JSON view in, a JSON action out) plays a match against the built-in bots; the games land
as Parquet with the ``durak_games`` record, read back by DuckDB; an answer that is not
a durak action is a recorded fault and the game goes on."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from pokerarena.platform.api.testing import played
from pokerarena.platform.query import query


class _Bot(BaseHTTPRequestHandler):
    """``/low``: the lowest card it may play, else the last legal action (a take or a
    pass); ``/garbage``: not an action."""

    seen: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802 - the http.server API
        doc = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.seen.append(doc)
        answer: object = {"kind": "fold"}
        if self.path == "/low" and doc.get("legal"):
            answer = doc["legal"][0] if doc["phase"] == "lead" else doc["legal"][-1]
        body = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Bot)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _spec(bots: list[str], games: int = 4) -> dict:
    return {"kind": "match", "name": "durak-http", "seed": 9, "bots": bots, "hands": games,
            "games": [{"variant": "durak"}]}


def test_an_http_bot_plays_durak_and_the_games_land_with_their_record(
        server: str, tmp_path: Path) -> None:
    """«Этот игрок считается проигравшим и зовется "дураком"»: each stored game has at
    most one durak, whose seat row carries -1 point."""
    _Bot.seen.clear()
    run_id = played(tmp_path, _spec([f"{server}/low", "counter", "rule"])).run_id
    _, faults = query(tmp_path, "SELECT count(*) FROM faults", run_id)
    assert faults == [(0,)]
    docs = [d for d in _Bot.seen if d.get("event") == "act"]
    assert docs and {d["family"] for d in docs} == {"durak"}
    assert all(d["to_act"] == d["seat"] and d["legal"] for d in docs)
    assert all(len(d["hand"]) == d["hand_sizes"][d["seat"]] for d in docs)
    _, rows = query(tmp_path, "SELECT game, count(*), sum(durak::int), sum(points) "
                    "FROM durak_games GROUP BY game ORDER BY game", run_id)
    assert [r[0] for r in rows] == [0, 1, 2, 3]
    assert all(n == 3 and d <= 1 and p == -d for _, n, d, p in rows)
    _, nets = query(tmp_path, "SELECT s.hand, s.seat, s.net / h.bb FROM seats s JOIN hands h "
                    "USING (match, hand) ORDER BY 1, 2", run_id)
    _, points = query(tmp_path, "SELECT game, seat, points FROM durak_games ORDER BY 1, 2",
                      run_id)
    assert [tuple(r) for r in nets] == [tuple(r) for r in points]


def test_an_answer_that_is_no_durak_action_is_a_fault(server: str, tmp_path: Path) -> None:
    run_id = played(tmp_path, _spec([f"{server}/garbage", "rule"], games=1)).run_id
    _, faults = query(tmp_path, "SELECT DISTINCT seat, kind FROM faults", run_id)
    assert faults == [(0, "garbage")]
    _, games = query(tmp_path, "SELECT count(*) FROM durak_games", run_id)
    assert games == [(2,)]
