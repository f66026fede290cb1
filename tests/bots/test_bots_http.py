"""The HTTP adapter against a real local server (127.0.0.1, a free port)."""

from __future__ import annotations

import json
import threading

import pytest
from local_http import JsonHandler, free_port, serving

from pokerarena.arena.faults import FaultPolicy
from pokerarena.arena.match import play_match
from pokerarena.engine import Game

RELEASE = threading.Event()
SEEN: list[dict] = []


class Handler(JsonHandler):
    """The example bot of docs/bots.md at /act, and misbehaving ones elsewhere."""

    def do_POST(self):
        obs = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        SEEN.append(obs)
        if self.path == "/garbage":
            return self._reply(200, b"this is not json")
        if self.path == "/error":
            return self._reply(500, b"{}")
        if self.path == "/slow":
            RELEASE.wait(2.0)
        if obs.get("event") != "act":
            return self._reply(200, b"{}")
        legal = obs["legal"]
        if "cbr" in legal["kinds"] and "A" in "".join(obs["hole"]):
            action = {"kind": "raise", "amount": legal["min_to"]}
        elif "cc" in legal["kinds"]:
            action = {"kind": "call"}
        else:
            action = {"kind": legal["kinds"][0]}
        return self._reply(200, json.dumps(action).encode())


@pytest.fixture(scope="module")
def server():
    with serving(Handler) as url:
        yield url
        RELEASE.set()  # free a handler still holding its answer before the shutdown


def _match(url: str, variant: str = "holdem", hands: int = 6, **policy):
    return play_match(Game(variant), [url, "call"], hands=hands, seed=2,
                      policy=FaultPolicy(**policy))


@pytest.mark.parametrize("variant", ["holdem", "stud7", "draw5"])
def test_http_bot_plays(server, variant):
    SEEN.clear()
    res = _match(f"{server}/act", variant)
    assert res.faults == [] and res.hands == 6 and res.chips_conserved
    assert res.entrants[0].decisions > 0
    obs = next(o for o in SEEN if o.get("event") == "act")
    for key in ("variant", "hole", "up", "board", "stacks", "bets", "pot", "to_call", "legal",
                "history", "hand_no", "match_no", "seat", "players", "phase"):
        assert key in obs
    assert obs["variant"] == variant
    # never another seat's hidden cards
    for o in SEEN:
        for entry in o["history"]:
            if entry["kind"] == "dh" and entry["target"] != o["seat"]:
                assert set(entry["cards"]) <= {"??"} | {c for u in o["up"] for c in u}


def test_http_hooks_option(server):
    from pokerarena.bots.registry import make_bot

    SEEN.clear()
    bot = make_bot(f"{server}/act", hooks=True)
    res = play_match(Game("holdem"), [bot, "call"], hands=2, seed=1)
    events = [o.get("event") for o in SEEN]
    assert res.faults == []
    assert events[0] == "start_match" and "start_hand" in events and "end_hand" in events


@pytest.mark.parametrize("path, kind", [("/garbage", "garbage"), ("/error", "exception")])
def test_http_misbehaving_servers(server, path, kind):
    res = _match(f"{server}{path}", hands=3)
    assert res.hands == 3 and res.faults
    assert {f.kind for f in res.faults} == {kind}


def test_http_slow_server_times_out(server):
    res = _match(f"{server}/slow", hands=1, decision_time=0.1)
    assert res.hands == 1 and {f.kind for f in res.faults} == {"timeout"}


def test_http_nobody_listening():
    port = free_port()
    res = _match(f"http://127.0.0.1:{port}/", hands=2)
    assert res.hands == 2 and {f.kind for f in res.faults} == {"exception"}


def test_http_bot_in_pokerarena_play(server):
    import io
    from contextlib import redirect_stdout

    from pokerarena.cli import main

    out = io.StringIO()
    with redirect_stdout(out):
        rc = main(["play", "--variant", "holdem", "--bots", f"{server}/act,tag", "--hands",
                   "4", "--seed", "1", "--json"])
    assert rc == 0
    data = json.loads(out.getvalue())
    assert data["chips_conserved"] and [s["faults"] for s in data["seats"]] == [0, 0]
    assert data["seats"][0]["bot"] == f"{server}/act"
