"""External painted-poker bots over HTTP: the family's view as JSON in, an action out
(``pokerarena.bots.adapters.family_http``), against a real HTTP server on 127.0.0.1. A
bot that answers what the family cannot read, or an illegal card, gets a recorded fault
and the guard's fallback (the first legal action); the game goes on."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pokerarena.games.painted import PaintedOptions, deal_plan
from pokerarena.platform.api.testing import json_bot_server, played
from pokerarena.platform.query import query

SEEN: list[dict] = []


def _answer(path: str, doc: dict) -> object:
    """``/good``: the last legal action of the view; ``/garbage``: not an action;
    ``/illegal``: a card the seat does not hold, once the cards are played; ``/slow``:
    the first legal action, a second late."""
    if path == "/good":
        return doc["legal"][-1]
    if path == "/illegal" and doc["phase"] == "play":
        return {"kind": "play", "card": "2c"}  # no deuces in the 36-card deck
    if path == "/illegal":
        return doc["legal"][0]
    if path == "/slow":
        time.sleep(1.0)
        return doc["legal"][0]
    return {"kind": "dance"}


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with json_bot_server(_answer, SEEN) as url:
        yield url


def _spec(bots: list[str]) -> dict:
    return {"kind": "match", "name": "http", "seed": 4, "bots": bots, "hands": 2,
            "games": [{"variant": "painted", "options": {"max_cards": 2}}]}


def test_an_http_bot_plays_painted_poker_from_the_documented_json(server: str,
                                                                  tmp_path: Path) -> None:
    SEEN.clear()
    run_id = played(tmp_path, _spec([f"{server}/good", "rule", "random"])).run_id
    _, faults = query(tmp_path, "SELECT count(*) FROM faults", run_id)
    assert faults == [(0,)]
    docs = [d for d in SEEN if d["event"] == "act"]
    assert docs and {d["family"] for d in docs} == {"painted"}
    assert {d["phase"] for d in docs} >= {"bid", "play"}
    assert all(d["to_act"] == d["seat"] and d["legal"] for d in docs)
    _, games = query(tmp_path, "SELECT count(*) FROM hands", run_id)
    assert games == [(2,)]


@pytest.mark.parametrize(("path", "kind"), [("garbage", "garbage"), ("illegal", "illegal")])
def test_a_bad_answer_is_a_fault_and_the_first_legal_action_plays(
        server: str, tmp_path: Path, path: str, kind: str) -> None:
    run_id = played(tmp_path, _spec([f"{server}/{path}", "rule"])).run_id
    _, faults = query(tmp_path, "SELECT DISTINCT seat, bot, kind FROM faults", run_id)
    assert faults == [(0, f"{server}/{path}", kind)]
    _, per_game = query(tmp_path, "SELECT s.hand, sum(s.faults) FROM seats s "
                        "WHERE s.bot LIKE 'http%' GROUP BY 1 ORDER BY 1", run_id)
    _, counted = query(tmp_path, "SELECT hand, count(*) FROM faults GROUP BY 1 ORDER BY 1",
                       run_id)
    assert per_game == counted and all(n > 0 for _, n in counted)
    _, sheet = query(tmp_path, "SELECT count(DISTINCT deal) FROM painted_deals "
                     "GROUP BY game", run_id)
    assert sheet == [(len(deal_plan(PaintedOptions(max_cards=2), 2)),)] * 2  # whole games


def test_a_stalled_bot_times_out_and_is_removed_after_max_faults(server: str,
                                                                  tmp_path: Path) -> None:
    """A bot past its decision time is abandoned (a ``timeout`` fault); with
    ``max_faults = 1`` it is then removed and the guard's fallback plays for it to the
    end of the unit."""
    spec = {**_spec([f"{server}/slow", "rule"]),
            "limits": {"decision_seconds": 0.2, "max_faults": 1}}
    run_id = played(tmp_path, spec).run_id
    _, faults = query(tmp_path, "SELECT hand, kind FROM faults ORDER BY hand, kind", run_id)
    assert faults == [(0, "removed"), (0, "timeout")]
    _, games = query(tmp_path, "SELECT count(*) FROM hands", run_id)
    assert games == [(2,)]
