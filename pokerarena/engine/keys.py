"""Short, stable identities of games for the caches that bots and views keep per game.

``game_digest`` hashes ``Game.key`` (the canonical identity of variant, betting system
and every option), so two games that differ in any option never share a cache entry.
"""

from __future__ import annotations

import hashlib
from typing import Any

# Game.key -> its digest; digest -> the first game seen with it (see game_of)
_DIGESTS: dict[str, str] = {}
_GAMES: dict[str, Any] = {}


def game_digest(game: Any) -> str:
    """The ``game_key`` of a view of ``game``: the first 16 hex digits of the SHA-256 of
    ``game.key`` (the canonical identity of the whole game), computed once per key."""
    key: str = game.key
    digest = _DIGESTS.get(key)
    if digest is None:
        digest = _DIGESTS[key] = hashlib.sha256(key.encode()).hexdigest()[:16]
        _GAMES.setdefault(digest, game)
    return digest


def game_of(digest: str) -> Any:
    """A game (of this process) whose :func:`game_digest` is ``digest``; None if none."""
    return _GAMES.get(digest)


def game_info_of(game: Any) -> dict[str, Any]:
    """The ``game`` of the views of ``game``: its summary and its ``game_key``."""
    info = game.describe()
    if getattr(game, "key", None) is None:
        return info
    return {**info, "game_key": game_digest(game)}
