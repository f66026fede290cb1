"""HTTP bots that declare their policy (issue 26, part 2), against a real local server
(127.0.0.1, a free port).

The server's ``/random`` endpoint is the ``random`` bot written from the JSON alone: it
answers ``policy`` events with the random bot's distribution and ``act`` events with a
draw from it, seeded by the observation (so a match replays exactly). ``/script``
answers ``policy`` events with whatever the test put in ``SCRIPT``: the hostile answers.
"""

from __future__ import annotations

import json
import random
import time
import zlib
from pathlib import Path

import jsonschema
import numpy as np
import pytest
import referencing
from local_http import JsonHandler, free_port, serving
from test_bots_policy import spots

from pokerarena.bots.adapters.http import HttpBot, HttpPolicyBot, HttpPolicyError, http_bot
from pokerarena.bots.base import (
    DeclaresPolicy,
    SeatView,
    action_to_json,
    canonical_action,
    declared_policy,
    view_to_json,
)
from pokerarena.bots.registry import BotSpecError, make_bot
from pokerarena.bots.simple.random_bot import RandomBot
from pokerarena.engine.actions import DISCARD_KIND, Action

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
SEEN: list[tuple[str, dict]] = []  # (path, document) of every POST
SCRIPT: dict = {"answer": None}  # /script's policy answer: bytes, or a function of the doc


def random_policy(obs: dict) -> list[tuple[dict, float]]:
    """The ``random`` bot's distribution from the observation JSON (betting and
    showdown decisions: the ones Leduc and hold'em have)."""
    legal = obs["legal"]
    kinds = legal["kinds"]
    if "f" in kinds and len(kinds) > 1 and (legal["call"] == 0 or
                                            ("cbr" not in kinds and "cc" not in kinds)):
        kinds = [k for k in kinds if k != "f"]
    out: list[tuple[dict, float]] = []
    for kind in kinds:
        if kind == "cbr":
            amounts = legal["choices"] or range(legal["min_to"], legal["max_to"] + 1)
            out += [({"kind": "cbr", "amount": a}, 1 / len(kinds) / len(amounts))
                    for a in amounts]
        elif kind == "sm":
            out.append(({"kind": "sm", "cards": obs["hole"]}, 1 / len(kinds)))
        elif kind in ("f", "cc"):
            out.append(({"kind": kind}, 1 / len(kinds)))
        else:
            raise AssertionError(f"the test server plays no {kind!r}")
    return out


def random_draw(obs: dict) -> dict:
    """``act``: a draw from :func:`random_policy`, seeded by the observation alone."""
    rng = random.Random(zlib.crc32(json.dumps(obs, sort_keys=True).encode()))
    actions, weights = zip(*random_policy(obs), strict=True)
    return rng.choices(actions, weights)[0]


class Handler(JsonHandler):
    def do_POST(self):
        doc = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        SEEN.append((self.path, doc))
        doc = dict(doc)
        event = doc.pop("event", None)
        path = self.path.partition("?")[0]
        if path == "/error":
            return self._reply(500, b"{}")
        if path == "/slow":
            time.sleep(1.0)
        if event == "act":
            return self._reply(200, json.dumps(random_draw(doc)).encode())
        if event != "policy":
            return self._reply(200, b"{}")
        if path == "/script":
            answer = SCRIPT["answer"]
            body = answer(doc) if callable(answer) else answer
            return self._reply(200, body if isinstance(body, bytes) else json.dumps(body).encode())
        policy = [{"action": a, "probability": p} for a, p in random_policy(doc)]
        return self._reply(200, json.dumps({"policy": policy}).encode())


@pytest.fixture(scope="module")
def server():
    with serving(Handler) as url:
        yield url


GAMES = [("leduc", {}), ("holdem", {"betting": "no_limit"}), ("holdem", {"betting": "fixed_limit"})]


def _views(variant: str, options: dict) -> list[SeatView]:
    return [v for v in spots(variant, options, 4, seed=3) if v.legal is not None]


# (1) the random bot's policy over HTTP ------------------------------------------------
@pytest.mark.parametrize(("variant", "options"), GAMES, ids=["leduc", "nl", "fl"])
def test_the_http_policy_is_the_random_bots(server, variant, options):
    bot = make_bot(f"{server}/random?policy=true")
    assert isinstance(bot, HttpPolicyBot) and isinstance(bot, DeclaresPolicy)
    local = RandomBot(seed=0)
    views = _views(variant, options)
    assert len(views) >= 4
    for view in views:
        SEEN.clear()
        got = declared_policy(bot)(view)
        want = dict(local.policy(view))
        assert [a for a, _ in got] == list(want)  # the order declared, nothing merged away
        for action, p in got:
            assert p == pytest.approx(want[action], rel=1e-12)
        assert sum(p for _, p in got) == pytest.approx(1.0, abs=1e-12)
        # the request: the observation with event "policy", URL options not passed on
        [(path, doc)] = SEEN
        assert path == "/random" and doc == {"event": "policy", **view_to_json(view)}


def test_the_documents_follow_the_schemas(server):
    docs = {p.name: json.loads(p.read_text()) for p in SCHEMAS.glob("*.schema.json")}
    registry = referencing.Registry().with_resources(
        (d["$id"], referencing.Resource.from_contents(d)) for d in docs.values())

    def validator(name):
        jsonschema.Draft202012Validator.check_schema(docs[name])
        return jsonschema.Draft202012Validator(docs[name], registry=registry)

    request, answer = validator("policy_request.schema.json"), validator(
        "policy_answer.schema.json")
    bot = make_bot(f"{server}/random?policy=true")
    for view in _views("holdem", {"betting": "no_limit"})[:3]:
        SEEN.clear()
        bot.policy(view)
        assert not list(request.iter_errors(SEEN[0][1]))
        doc = {"policy": [{"action": action_to_json(a), "probability": p}
                          for a, p in RandomBot().policy(view)]}
        assert not list(answer.iter_errors(doc))
    assert list(answer.iter_errors({"policy": [{"action": {"kind": "cc"},
                                                "probability": -0.5}]}))


def test_duplicates_merge_zeros_drop_and_the_sum_is_renormalized(server):
    """A draw: the same discard in two card orders and two names of the check are one
    move each; a probability 0 is dropped; a sum 1 - 5e-7 is made exactly 1."""
    view = next(v for v in spots("draw5", {}, 0, seed=3)
                if v.legal is not None and DISCARD_KIND in v.legal.kinds
                and v.legal.discard_max >= 2)
    a, b = view.hole[0], view.hole[1]
    ca, cb = (json.loads(json.dumps(action_to_json(Action(DISCARD_KIND, 0, c))))["cards"]
              for c in ((a, b), (b, a)))
    SCRIPT["answer"] = {"policy": [
        {"action": {"kind": "sd", "cards": ca}, "probability": 0.25},
        {"action": {"kind": "discard", "cards": cb}, "probability": 0.25},
        {"action": {"kind": "sd", "cards": []}, "probability": 0.5 - 5e-7},
        {"action": {"kind": "sd", "cards": ca[:1]}, "probability": 0},
    ]}
    got = http_bot(f"{server}/script", policy=True).policy(view)
    pair = canonical_action(Action(DISCARD_KIND, 0, (b, a)))
    assert [x for x, _ in got] == [pair, Action(DISCARD_KIND)]
    assert got[0][1] == pytest.approx(0.5 / (1 - 5e-7), rel=1e-12)
    assert sum(p for _, p in got) == pytest.approx(1.0, abs=1e-15)


# (2) declaring is opt-in ---------------------------------------------------------------
def test_without_the_option_nothing_is_declared(server):
    for bot in (make_bot(f"{server}/random"), make_bot(f"{server}/random?policy=false"),
                HttpBot(f"{server}/random")):
        assert type(bot) is HttpBot
        assert declared_policy(bot) is None and not isinstance(bot, DeclaresPolicy)
    assert declared_policy(make_bot(f"{server}/random", policy=True)) is not None


def test_url_options_are_the_adapters_and_the_rest_the_endpoints(server):
    bot = make_bot(f"{server}/random?token=a%20b&policy=true&hooks=1")
    assert isinstance(bot, HttpPolicyBot) and bot.hooks
    assert bot.name == f"{server}/random?token=a%20b&policy=true&hooks=1"  # as written
    SEEN.clear()
    bot.policy(_views("leduc", {})[0])
    assert SEEN[0][0] == "/random?token=a%20b"
    with pytest.raises(BotSpecError, match="policy"):
        make_bot(f"{server}/random?policy=maybe")


# (3) hostile answers: one error ------------------------------------------------------
def _leduc_view() -> SeatView:
    return next(v for v in _views("leduc", {}) if "cbr" in v.legal.kinds)


HOSTILE = {
    "not json": b"this is not json",
    "a list": b"[]",
    "no policy key": {"act": "call"},
    "policy not a list": {"policy": {"cc": 1}},
    "entry not an object": {"policy": ["cc"]},
    "no probability": {"policy": [{"action": {"kind": "cc"}}]},
    "unknown kind": {"policy": [{"action": {"kind": "allin"}, "probability": 1}]},
    "bad amount": {"policy": [{"action": {"kind": "cbr", "amount": "lots"}, "probability": 1}]},
    "illegal amount": lambda d: {"policy": [
        {"action": {"kind": "cbr", "amount": d["legal"]["max_to"] + 1}, "probability": 1}]},
    "illegal kind": {"policy": [{"action": {"kind": "sd", "cards": []}, "probability": 1}]},
    "sums to 0.7": {"policy": [{"action": {"kind": "cc"}, "probability": 0.4},
                               {"action": {"kind": "f"}, "probability": 0.3}]},
    "sums to 1.01": {"policy": [{"action": {"kind": "cc"}, "probability": 1.01}]},
    "negative": {"policy": [{"action": {"kind": "cc"}, "probability": 1.5},
                            {"action": {"kind": "f"}, "probability": -0.5}]},
    "NaN": b'{"policy": [{"action": {"kind": "cc"}, "probability": NaN}]}',
    "Infinity": b'{"policy": [{"action": {"kind": "cc"}, "probability": Infinity}]}',
    "huge integer": b'{"policy": [{"action": {"kind": "cc"}, "probability": 1' + b"0" * 400
                    + b"}]}",
    "probability text": {"policy": [{"action": {"kind": "cc"}, "probability": "1"}]},
    "probability true": {"policy": [{"action": {"kind": "cc"}, "probability": True}]},
    "empty": {"policy": []},
    "all zero": {"policy": [{"action": {"kind": "cc"}, "probability": 0}]},
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_answer_is_one_clear_error(server, case):
    SCRIPT["answer"] = HOSTILE[case]
    bot = make_bot(f"{server}/script?policy=true")
    with pytest.raises(HttpPolicyError) as info:
        bot.policy(_leduc_view())
    assert isinstance(info.value, ValueError)  # a bad declaration, to exact tools and AIVAT
    assert str(info.value).startswith(bot.name)


def test_a_server_that_fails_is_the_same_error(server):
    view = _leduc_view()
    with pytest.raises(HttpPolicyError, match="HTTP 500"):
        make_bot(f"{server}/error?policy=true").policy(view)
    with pytest.raises(HttpPolicyError, match="policy request failed"):
        make_bot(f"{server}/slow?policy=true", timeout=0.2).policy(view)
    port = free_port()
    with pytest.raises(HttpPolicyError, match="policy request failed"):
        make_bot(f"http://127.0.0.1:{port}/?policy=true").policy(view)


# (4) end to end: AIVAT's decision terms ------------------------------------------------
class ViewSeeded:
    """The server's bot in process: the random bot's declared policy, and ``act`` the
    server's draw (seeded by the observation), so a match replays the HTTP one."""

    name = "local"

    def act(self, view: SeatView) -> dict:
        return random_draw(view_to_json(view))

    def policy(self, view: SeatView):
        return RandomBot().policy(view)


def test_aivat_reads_the_http_policy_at_every_decision(server):
    """Fixed-limit hold'em, the HTTP random bot against ``call``: declaring gives the
    same raw results and AIVAT exactly what the same bot in process gives; undeclared,
    the same hands correct differently (its decision terms are gone)."""
    from pokerarena.tournaments.aivat_engine import play_engine_aivat

    def run(bot):
        return play_engine_aivat("holdem", [bot, "call"], 6, 11,
                                 options={"betting": "fixed_limit"}, samples=4)

    SEEN.clear()
    declared = run(make_bot(f"{server}/random?policy=true"))
    events = [d["event"] for _, d in SEEN]
    assert events.count("policy") == events.count("act") > 0
    local = run(ViewSeeded())
    plain = run(make_bot(f"{server}/random"))
    assert np.array_equal(declared.raw, local.raw) and np.array_equal(declared.raw, plain.raw)
    assert np.allclose(declared.aivat, local.aivat, rtol=0, atol=1e-9)
    assert not np.allclose(declared.aivat, plain.aivat, rtol=0, atol=1e-6)
    assert np.allclose(declared.aivat.sum(axis=1), 0.0, atol=1e-6)


def test_leduc_aivat_with_the_http_policy(server):
    """Leduc's exact-tree AIVAT reads the policy after each hand, at the views of the
    tree: the HTTP bot there corrects exactly as the in-process one."""
    from pokerarena.tournaments.aivat import play_aivat

    got = play_aivat("leduc", [make_bot(f"{server}/random?policy=true"), "call"], 10, 5)
    local = play_aivat("leduc", [ViewSeeded(), "call"], 10, 5)
    plain = play_aivat("leduc", [make_bot(f"{server}/random"), "call"], 10, 5,
                       declared=(False, True))
    assert np.array_equal(got.raw, local.raw) and np.array_equal(got.raw, plain.raw)
    assert np.allclose(got.aivat, local.aivat, rtol=0, atol=1e-9)
    assert not np.allclose(got.aivat, plain.aivat, rtol=0, atol=1e-6)



def test_a_faulty_policy_answer_costs_only_that_decisions_term(server):
    """The HTTP bot's policy answer is garbage in every other hand: those hands correct
    as an undeclared bot's do, the others as a declared one's, and the bot's own act
    answers are played throughout (the raw results do not change)."""
    from pokerarena.tournaments.aivat_engine import play_engine_aivat

    def run(bot):
        return play_engine_aivat("holdem", [bot, "call"], 6, 11,
                                 options={"betting": "fixed_limit"}, samples=4)

    SCRIPT["answer"] = lambda d: b"garbage" if d["hand_no"] % 2 else {
        "policy": [{"action": a, "probability": p} for a, p in random_policy(d)]}
    got = run(make_bot(f"{server}/script?policy=true"))
    declared = run(make_bot(f"{server}/random?policy=true"))
    plain = run(make_bot(f"{server}/random"))
    assert np.array_equal(got.raw, declared.raw)
    for h in range(len(got.raw)):
        want = plain if h % 2 else declared
        assert np.allclose(got.aivat[h], want.aivat[h], rtol=0, atol=1e-9), h
