"""What a spec may name: the shipped variants and the registered bots."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

router = APIRouter(tags=["catalogue"])


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
