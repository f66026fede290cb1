"""Short, stable identities of games for the caches that bots and views keep per game.

The key itself is the program's :class:`~pokerarena.engine.program.GameKey` (variant,
betting system and every option); ``game_digest`` is its ``digest``, so two games that
differ in any option never share a cache entry. This module only remembers which game of
this process had which digest (:func:`game_of`).
"""

from __future__ import annotations

import hashlib
from typing import Any

from pokerarena.engine.program import GameKey

# digest -> the first game seen with it (see game_of)
_GAMES: dict[str, Any] = {}
# Game.key text -> its digest, for game-like objects without a program
_DIGESTS: dict[str, str] = {}


def game_digest(game: Any) -> str:
    """The digest of ``game``'s key (``game.program.key.digest``; a game-like object with
    only a ``key`` text: the first 16 hex digits of its SHA-256, as GameKey computes)."""
    program = getattr(game, "program", None)
    key = getattr(program, "key", None)
    if isinstance(key, GameKey):
        digest = key.digest
    else:
        text: str = game.key
        found = _DIGESTS.get(text)
        if found is None:
            found = _DIGESTS[text] = hashlib.sha256(text.encode()).hexdigest()[:16]
        digest = found
    if digest not in _GAMES:
        _GAMES[digest] = game
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
