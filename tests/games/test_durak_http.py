"""American durak through the platform: an external bot over real HTTP (the family's
JSON view in, a JSON action out) plays a match against the built-in bots; the games land
as Parquet with the ``durak_games`` record, read back by DuckDB; an answer that is not
a durak action is a recorded fault and the game goes on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pokerarena.platform.api.testing import json_bot_server, played
from pokerarena.platform.query import query

SEEN: list[dict] = []


def _answer(path: str, doc: dict) -> object:
    """``/low``: the lowest card it may play, else the last legal action (a take or a
    pass); ``/garbage``: not an action."""
    if path == "/low" and doc.get("legal"):
        return doc["legal"][0] if doc["phase"] == "lead" else doc["legal"][-1]
    return {"kind": "fold"}


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with json_bot_server(_answer, SEEN) as url:
        yield url


def _spec(bots: list[str], games: int = 4) -> dict:
    return {"kind": "match", "name": "durak-http", "seed": 9, "bots": bots, "hands": games,
            "games": [{"variant": "durak"}]}


def test_an_http_bot_plays_durak_and_the_games_land_with_their_record(
        server: str, tmp_path: Path) -> None:
    """«Этот игрок считается проигравшим и зовется "дураком"»: each stored game has at
    most one durak, whose seat row carries -1 point."""
    SEEN.clear()
    run_id = played(tmp_path, _spec([f"{server}/low", "counter", "rule"])).run_id
    _, faults = query(tmp_path, "SELECT count(*) FROM faults", run_id)
    assert faults == [(0,)]
    docs = [d for d in SEEN if d.get("event") == "act"]
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
    # «в следующей игре сдает карты игрок, который проиграл в предыдущей игре»: the
    # run's games are a series (one unit), each dealt by the last durak
    _, series = query(tmp_path, "SELECT game, any_value(series_game), any_value(dealer), "
                      "max(CASE WHEN durak THEN seat END) FROM durak_games "
                      "GROUP BY game ORDER BY game", run_id)
    assert [r[1] for r in series] == [0, 1, 2, 3]
    for (_, _, dealer, durak), (_, _, next_dealer, _) in zip(series, series[1:], strict=False):
        assert next_dealer == (durak if durak is not None else dealer)


def test_an_answer_that_is_no_durak_action_is_a_fault(server: str, tmp_path: Path) -> None:
    run_id = played(tmp_path, _spec([f"{server}/garbage", "rule"], games=1)).run_id
    _, faults = query(tmp_path, "SELECT DISTINCT seat, kind FROM faults", run_id)
    assert faults == [(0, "garbage")]
    _, games = query(tmp_path, "SELECT count(*) FROM durak_games", run_id)
    assert games == [(2,)]
