"""What a spec may name: the shipped variants, the game families and the registered bots;
and what each game is (its ``GameInfo``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi import Path as PathParam

from pokerarena.platform.api.context import ApiError

router = APIRouter(tags=["catalogue"])
GAME_ID = r"^[a-z0-9_]{1,64}$"
BETTING = r"^[a-z0-9_]{1,64}$"


@router.get("/api/games/{game_id}")
def game_info(game_id: Annotated[str, PathParam(pattern=GAME_ID,
                                                description="a variant or family id")],
              betting: Annotated[str | None, Query(pattern=BETTING,
                                                   description="a variant's betting "
                                                   "system (default: its first)")] = None
              ) -> dict[str, Any]:
    """What one game is (``pokerarena variants --info``): players, information, utility
    and one seat's result range, the most decisions of a hand, whether chance can be
    played as moves, and its parameters with types and defaults. 404 for an unknown
    game, 422 for a betting system it does not offer."""
    from pokerarena.errors import UserError
    from pokerarena.games import any_game, family_ids
    from pokerarena.rules import variant_ids

    if game_id not in variant_ids() and game_id not in family_ids():
        raise ApiError(404, f"no game {game_id!r}: a shipped variant (GET /api/variants) or "
                       f"a game family ({', '.join(family_ids())})")
    if betting is not None and game_id in family_ids():
        raise ApiError(422, f"betting: {game_id} is a game family, played without betting")
    try:
        info = any_game(game_id, {"betting": betting} if betting else None).info
    except UserError as exc:
        raise ApiError(422, str(exc).splitlines()[0]) from None
    out: dict[str, Any] = info.as_dict()
    return out


@router.get("/api/variants")
def variants() -> list[dict[str, Any]]:
    """Every shipped variant: id, name, player range, betting systems."""
    from pokerarena.rules import all_variants

    return [{"id": v.id, "name": v.name, "players": list(v.players),
             "betting": list(v.betting), "source": v.source} for v in all_variants()]


@router.get("/api/bots")
def bots() -> list[dict[str, Any]]:
    """Registered bots (the names a spec submitted here may use)."""
    from pokerarena.bots.registry import REGISTRY
    from pokerarena.platform.spec import registered_bots

    out = []
    for name in registered_bots():
        entry = REGISTRY.get(name)
        desc = entry[1] if isinstance(entry, tuple) and len(entry) > 1 else ""
        out.append({"name": name, "description": desc})
    return out
