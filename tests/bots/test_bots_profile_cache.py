"""The strength bots' profile caches are keyed by the game's key and bounded: a long
option sweep keeps at most the limit, the least recently used goes first, and a
forgotten game's profile is compiled again when it comes back."""

from __future__ import annotations

from pokerarena.bots.strength import estimate
from pokerarena.engine.game import Game
from pokerarena.engine.keys import game_digest


def test_bounded_cache_forgets_the_least_recently_used():
    cache = estimate._Bounded(2)
    cache["a"] = 1
    cache["b"] = 2
    assert cache.get("a") == 1  # now "b" is the oldest
    cache["c"] = 3
    assert list(cache) == ["a", "c"]
    assert cache.get("b") is None


def test_profiles_are_bounded_and_recompiled_when_forgotten(monkeypatch):
    monkeypatch.setattr(estimate, "_PROFILES", estimate._Bounded(2))
    monkeypatch.setattr(estimate, "_BY_DIGEST", estimate._Bounded(2))
    games = [Game("holdem"), Game("holdem", {"joker": True}), Game("razz")]
    first = estimate.register_game(games[0])
    assert estimate.register_game(games[0]) is first
    for g in games[1:]:
        estimate.register_game(g)
    assert len(estimate._PROFILES) == 2 and len(estimate._BY_DIGEST) == 2
    assert games[0].key not in estimate._PROFILES
    assert set(estimate._PROFILES) == {games[1].key, games[2].key}
    assert set(estimate._BY_DIGEST) == {game_digest(games[1]), game_digest(games[2])}
    again = estimate.register_game(games[0])  # forgotten: compiled again, same game
    assert again is not first and again.hole_final == first.hole_final
    assert estimate._PROFILES.get(games[0].key) is again
    assert estimate._BY_DIGEST.get(game_digest(games[0])) is again
    # a profile known by key but forgotten by digest is remembered by digest again
    estimate._BY_DIGEST.pop(game_digest(games[2]))
    assert estimate.register_game(games[2]) is estimate._PROFILES.get(games[2].key)
    assert estimate._BY_DIGEST.get(game_digest(games[2])) is not None
