"""Golden playthroughs: one seeded text record of play for every registered game.

A habit taken from OpenSpiel (issue 28): every game the platform offers, each shipped
poker variant under each of its betting systems and each game family, is played from
fixed seeds by its ``random`` bots, and the play is written out as text: a poker hand as
its PHH record, a family's game as its action log in the HTTP protocol's JSON and its
points. The texts live in ``tests/data/playthroughs/`` and ``tools/playthroughs.py
--write`` regenerates them; ``tests/engine/test_conformance.py`` plays them again and compares,
so that any change to what a seed plays, whichever game it touches, shows as a diff to be
explained in its commit (the "rows identical" promise of a refactor), not only where a
test happens to look.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SEEDS = (0, 1)
"""The seeds of each game's playthrough (one hand or game per seed)."""
MAX_STEPS = 5000
"""More decisions than any hand or game of the catalogue takes (a loop guard)."""


def engine_games() -> Iterator[tuple[str, str]]:
    """``(variant, betting)`` of every shipped variant under each system it offers."""
    from pokerarena.rules import all_variants

    for v in all_variants():
        for betting in v.betting:
            yield v.id, betting


def play_engine_hand(variant: str, betting: str, seed: int, seats: int | None = None
                     ) -> Any:
    """One hand of ``random`` bots (seed ``seed``), the button at seat 0, the variant's
    least table (or ``seats``) and stacks; the finished engine hand."""
    from pokerarena.arena.views import build_view
    from pokerarena.bots.registry import make_bot
    from pokerarena.engine import Game

    game = Game(variant, {"betting": betting})
    n = seats or max(2, game.variant.players[0])
    bots = [make_bot("random", seed=seed * 97 + s) for s in range(n)]
    hand = game.new_hand(seed, n, [game.variant.stakes.stack] * n, 0)
    for _ in range(MAX_STEPS):
        if hand.is_over:
            return hand
        seat = hand.to_act
        assert seat is not None, "the dealer deals by itself"
        hand.apply(bots[seat].act(build_view(hand, seat)))
    raise AssertionError(f"{variant} {betting}: a hand of over {MAX_STEPS} steps")


def play_family_game(family: str, seed: int, seats: int | None = None) -> Any:
    """One game of the family's ``random`` bots (seed ``seed``), the first dealer at seat
    0, the family's least table (or ``seats``) with its default options."""
    from pokerarena.games import family as get_family
    from pokerarena.games.play import play_game

    fam = get_family(family)
    assert fam.new_bot is not None
    n = seats or fam.players[0]
    return play_game(fam.make(None), [fam.new_bot("random", seed * 97 + s) for s in range(n)],
                     seed, 0)


def engine_text(variant: str) -> str:
    """The playthrough of a poker variant: a PHH record per betting system and seed."""
    from pokerarena.engine.phh.export import dumps_phh

    out = [f"# {variant}: random bots, button at seat 0; tools/playthroughs.py --write\n"]
    for v, betting in engine_games():
        if v != variant:
            continue
        for seed in SEEDS:
            out.append(f"\n[{betting}.seed{seed}]\n")
            body = dumps_phh(play_engine_hand(variant, betting, seed))
            out.append("".join(f"{line}\n" for line in body.strip().splitlines()))
    return "".join(out)


def family_text(family: str) -> str:
    """The playthrough of a game family: per seed, the log (seat and action as the
    protocol's JSON) and each seat's points."""
    from pokerarena.games import family as get_family

    fam = get_family(family)
    assert fam.action_json is not None
    out = [f"# {family}: random bots, first dealer at seat 0; tools/playthroughs.py --write\n"]
    for seed in SEEDS:
        hand = play_family_game(family, seed)
        out.append(f"\n[seed{seed}]\n")
        out.extend(f"{seat} {json.dumps(fam.action_json(a), sort_keys=True)}\n"
                   for seat, a in hand.log)
        out.append(f"points {json.dumps([float(x) for x in hand.result().deltas])}\n")
    return "".join(out)


def files() -> dict[str, str]:
    """Every playthrough file, by its path under the playthroughs folder."""
    from pokerarena.games import family_ids

    out = {f"engine/{v}.txt": engine_text(v)
           for v in dict.fromkeys(v for v, _ in engine_games())}
    out.update({f"families/{f}.txt": family_text(f) for f in family_ids()})
    return out


def write(folder: Path) -> list[str]:
    """Write every playthrough under ``folder``; the paths whose text changed."""
    changed = []
    for rel, text in files().items():
        path = folder / rel
        if not path.exists() or path.read_text() != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            changed.append(rel)
    return changed
