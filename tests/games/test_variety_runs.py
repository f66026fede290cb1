"""Variety run by the platform (issue 18): a ``variant = "variety"`` spec on Ray writes
the ordinary ``hands``/``seats`` rows and the ``variety_deals`` score record in Parquet,
read by DuckDB; an external bot over real HTTP plays from the documented JSON, and an
answer the family cannot read is a recorded fault while the tour goes on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pokerarena.platform.api.testing import json_bot_server, played
from pokerarena.platform.executors import RayExecutor
from pokerarena.platform.query import query

MATCH = {"kind": "match", "name": "variety", "seed": 12, "bots": ["sim", "rule", "sim", "rule"],
         "hands": 8, "unit_hands": 4, "duplicate": True,
         "games": [{"variant": "variety", "options": {"deals": 2}}]}


def test_a_variety_match_on_ray_writes_tours_seats_and_the_deal_record(
        ray_cluster: str, tmp_path: Path) -> None:
    """«Фактически выигранные очки записываются каждому игроку на отдельный счет»: one
    ``hands`` row per tour, one ``seats`` row per seat whose ``net`` is the tour's
    points, and the record's rows per deal and seat that add up to them; every deal has
    two attackers («Пара, выигравшая торговлю, выступает как атакующая сторона»)."""
    run_id = played(tmp_path, MATCH, executor=RayExecutor(2)).run_id
    _, ((tours, bb),) = query(tmp_path, "SELECT count(*), min(bb) FROM hands", run_id)
    assert tours == 8 and bb == 1
    _, bad = query(tmp_path, """
        SELECT s.match, s.hand, s.seat FROM seats s
        JOIN (SELECT match, game, seat, sum(points) AS pts, count(*) AS deals,
                     arg_max(total, deal) AS last FROM variety_deals GROUP BY ALL) d
          ON d.match = s.match AND d.game = s.hand AND d.seat = s.seat
        WHERE s.net <> d.pts OR d.last <> d.pts OR d.deals <> 2""", run_id)
    assert bad == []
    _, deals = query(tmp_path, """
        SELECT match, game, deal, count(*), sum(attacker::int), min(contract), max(contract),
               count(DISTINCT contract) FROM variety_deals GROUP BY ALL""", run_id)
    assert len(deals) == 16
    assert all(n == 4 and att == 2 and 1 <= lo == hi <= 8 and one == 1
               for *_, n, att, lo, hi, one in deals)
    # duplicate: each tour's deals are played in the four seatings (the bots move, the
    # cards and the dealer's seat, drawn from the deal's seed, stay)
    _, firsts = query(tmp_path, """
        SELECT game // 4, deal, count(DISTINCT dealer) FROM variety_deals GROUP BY ALL""",
                      run_id)
    assert {n for *_, n in firsts} == {1}


SEEN: list[dict] = []


def _answer(path: str, doc: dict) -> object:
    """``/good``: the view's first legal action as JSON; ``/text``: its last in the text
    form; ``/garbage``: not an action."""
    if path == "/good":
        return doc["legal"][0]
    if path == "/text":
        a = doc["legal"][-1]
        return f"bid {a['contract']}" if a["kind"] == "bid" else f"play {a['card']}"
    return {"kind": "pass"}


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with json_bot_server(_answer, SEEN) as url:
        yield url


def _spec(bots: list[str]) -> dict:
    return {"kind": "match", "name": "http", "seed": 4, "bots": bots, "hands": 1,
            "games": [{"variant": "variety", "options": {"deals": 1}}]}


def test_http_bots_play_variety_from_the_documented_json(server: str, tmp_path: Path) -> None:
    SEEN.clear()
    run_id = played(tmp_path, _spec([f"{server}/good", "rule", f"{server}/text",
                                     "random"])).run_id
    _, faults = query(tmp_path, "SELECT count(*) FROM faults", run_id)
    assert faults == [(0,)]
    docs = [d for d in SEEN if d["event"] == "act"]
    assert {d["family"] for d in docs} == {"variety"} and {d["seat"] for d in docs} == {0, 2}
    assert {d["phase"] for d in docs} == {"bid", "play"}
    assert all(d["to_act"] == d["seat"] and d["legal"] and len(d["hand"]) == d["hand_sizes"]
               [d["seat"]] for d in docs)
    plays = [d for d in docs if d["phase"] == "play"]
    assert all(d["contract"] in range(1, 9) and d["partner"] is not None for d in plays)
    _, rows = query(tmp_path, "SELECT count(*), sum(tricks) FROM variety_deals", run_id)
    assert rows == [(4, 13)]


def test_an_unreadable_answer_is_a_fault_and_the_first_legal_action_plays(
        server: str, tmp_path: Path) -> None:
    run_id = played(tmp_path, _spec([f"{server}/garbage", "rule", "rule", "rule"])).run_id
    _, faults = query(tmp_path, "SELECT kind, count(*) FROM faults GROUP BY 1", run_id)
    assert [k for k, _ in faults] == ["garbage"] and faults[0][1] >= 14
    _, rows = query(tmp_path, "SELECT sum(tricks) FROM variety_deals", run_id)
    assert rows == [(13,)]
