"""Swiss rounds: the next round's pairs (with byes for an odd field) and the table
after the rounds scored. Pure functions of the results; the run driver
(``platform/stages.py``) calls them between rounds."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from pokerarena.tournaments.pairings import swiss_round

__all__ = ["BYE", "swiss_pairs", "swiss_standings"]

BYE = "\x00bye"  # the phantom opponent of an odd field: sorts below every real bot


def swiss_pairs(scores: dict[str, float], played: set[frozenset[str]], byes: set[str]
                ) -> tuple[list[tuple[str, str]], list[str]]:
    """``(pairs, byes)`` of the next Swiss round (:func:`~pokerarena.tournaments.
    pairings.swiss_round`): an odd field gets a phantom opponent below everyone, so the
    lowest bot that can sits out, and nobody sits out twice while avoidable (a bye is a
    pairing with the phantom, and no pairing repeats while avoidable)."""
    if len(scores) % 2 == 0:
        return list(swiss_round(scores, played)), []
    field_ = dict(scores)
    field_[BYE] = min(scores.values(), default=0.0) - 1.0
    seen = played | {frozenset((b, BYE)) for b in byes}
    pairs, out = [], []
    for a, b in swiss_round(field_, seen):
        if BYE in (a, b):
            out.append(b if a == BYE else a)
        else:
            pairs.append((a, b))
    return pairs, out


def swiss_standings(bots: Iterable[str], rounds: list[dict[str, Any]]
                    ) -> list[dict[str, Any]]:
    """The Swiss table after the scored ``rounds``: points (a round's win 1, tie 0.5,
    bye 1, as in chess), then Buchholz (the points of the opponents met; a bye adds
    none), then mbb/hand over every hand played, then the name."""
    points = dict.fromkeys(bots, 0.0)
    opponents: dict[str, list[str]] = {b: [] for b in points}
    bb: dict[str, Fraction] = dict.fromkeys(points, Fraction(0))
    hands = dict.fromkeys(points, 0)
    for rnd in rounds:
        for b in rnd["byes"]:
            points[b] += 1.0
        for res in rnd["results"]:
            (a, b), (pa, pb) = res["bots"], res["points"]
            points[a] += pa
            points[b] += pb
            opponents[a].append(b)
            opponents[b].append(a)
            for bot, x, n in zip((a, b), res["exact_bb"], res["hands"], strict=True):
                bb[bot] += x
                hands[bot] += n
    rate = {b: 1000 * bb[b] / hands[b] if hands[b] else Fraction(0) for b in points}
    buchholz = {b: sum(points[o] for o in opponents[b]) for b in points}
    order = sorted(points, key=lambda b: (-points[b], -buchholz[b], -rate[b], b))
    return [{"rank": rank, "bot": b, "points": points[b], "buchholz": buchholz[b],
             "mbb_per_hand": round(float(rate[b]), 2), "hands": hands[b],
             "opponents": opponents[b]} for rank, b in enumerate(order, 1)]
