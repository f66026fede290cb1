"""``GET /api/games/{id}``: what a game is, over real HTTP (uvicorn on loopback) — the
same :class:`~pokerarena.protocols.GameInfo` that ``pokerarena variants --info`` prints,
for any variant or game family; bad ids and betting systems get one-line 4xx answers.
And the OpenAPI document states ``POST /api/runs``'s body as a run spec per kind."""

from __future__ import annotations

import json

import httpx
import pytest

from pokerarena.engine import Game
from pokerarena.games import family
from pokerarena.platform.api import create_app
from pokerarena.platform.api.server import ServedApp


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = create_app(tmp_path_factory.mktemp("api-games"), token="test-token-games",
                     web_dir=None)
    with ServedApp(app) as served, httpx.Client(base_url=served.url, timeout=30) as c:
        yield c


def _as_json(info) -> dict:
    return json.loads(json.dumps(info.as_dict(), default=str))


def test_a_variants_and_a_familys_info(client):
    got = client.get("/api/games/leduc")
    assert got.status_code == 200 and got.json() == _as_json(Game("leduc").info)
    assert got.json()["max_length"] == 8 and got.json()["utility"] == "zero_sum"
    got = client.get("/api/games/holdem", params={"betting": "fixed_limit"}).json()
    assert got == _as_json(Game("holdem", {"betting": "fixed_limit"}).info)
    durak = client.get("/api/games/durak").json()
    assert durak == _as_json(family("durak").make(None).info)
    assert (durak["utility"], durak["utility_sum"], durak["max_length"]) == (
        "constant_sum", -1.0, None)
    assert "/api/games/{game_id}" in client.get("/openapi.json").json()["paths"]


@pytest.mark.parametrize(("path", "params", "status", "words"), [
    ("/api/games/nosuch", {}, 404, "no game 'nosuch'"),
    ("/api/games/durak", {"betting": "no_limit"}, 422, "game family"),
    ("/api/games/holdem", {"betting": "pot_limitx"}, 422, "not offered"),
    ("/api/games/holdem", {"betting": "x" * 500}, 422, "betting"),
    ("/api/games/" + "h" * 200, {}, 422, "game_id"),
    ("/api/games/Holdem;drop", {}, 422, "game_id"),
])
def test_bad_ids_get_one_clear_answer(client, path, params, status, words):
    r = client.get(path, params=params)
    assert r.status_code == status, r.text
    body = r.json()
    assert body["status"] == status and words in body["error"] and "\n" not in body["error"]


def _refs(node):
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for v in node.values():
            yield from _refs(v)
    elif isinstance(node, list):
        for v in node:
            yield from _refs(v)


def test_the_openapi_document_states_a_run_spec_per_kind(client):
    from pokerarena.platform.run_kinds import RunKind

    doc = client.get("/openapi.json").json()
    body = doc["paths"]["/api/runs"]["post"]["requestBody"]["content"]["application/json"]
    schema = body["schema"]
    assert schema["discriminator"]["propertyName"] == "kind"
    assert set(schema["discriminator"]["mapping"]) == {k.value for k in RunKind}
    assert schema.get("examples"), "the route's example spec is kept"
    models = doc["components"]["schemas"]
    assert "format" in models["TournamentSpec"]["properties"]
    assert "format" not in models["MatchSpec"]["properties"]
    for ref in set(_refs(doc)):   # every reference resolves inside the document
        node = doc
        for part in ref.removeprefix("#/").split("/"):
            node = node[part]
