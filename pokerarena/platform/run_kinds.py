"""What each kind of run is (issue 28): the one place that says what a ``kind`` means.

The layers used to tell kinds apart by comparing strings (``spec.kind == "study"``) at
each site that cared, so the meaning of a kind was spread over the planner, the stages,
the checks, the standings and the pages. Each site now asks the trait it needs, and a new
kind, or a kind that gains a feature, changes this table and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class RunKind(StrEnum):
    """The ``kind`` of a run spec (a ``str``: specs and stored runs spell it as text)."""

    MATCH = "match"
    TOURNAMENT = "tournament"
    SIMULATION = "simulation"
    STUDY = "study"


@dataclass(frozen=True)
class KindTraits:
    """What a kind does.

    ``one_game``: it plays exactly one game (no list of games, no rotation).
    ``ranked``: it ranks its bots: formats and pairings, ratings, stopping rules,
    sequential tests, and standings written when it finishes.
    ``compares_games``: it compares rule variants on the same deals across games, with
    bot mixes, its own settings and a report (a study).
    ``common_deals``: its lineups may share deals (``common_deals``).
    ``keeps_standings``: its standings are kept with the run when it ends (what its pages
    and leaderboard read; a simulation or a study of millions of hands would pay the
    statistics for nothing).
    """

    one_game: bool = False
    ranked: bool = False
    compares_games: bool = False
    common_deals: bool = False
    keeps_standings: bool = False


TRAITS: dict[RunKind, KindTraits] = {
    RunKind.MATCH: KindTraits(one_game=True, keeps_standings=True),
    RunKind.TOURNAMENT: KindTraits(ranked=True, common_deals=True, keeps_standings=True),
    RunKind.SIMULATION: KindTraits(),
    RunKind.STUDY: KindTraits(compares_games=True, common_deals=True),
}

NO_TRAITS = KindTraits()
"""What a kind this version does not know has (a stored run's text, read back)."""


def traits(kind: str | None) -> KindTraits:
    """The traits of ``kind`` (a :class:`RunKind` or its text; an unknown text has none)."""
    try:
        return TRAITS[RunKind(kind or "")]
    except ValueError:
        return NO_TRAITS
