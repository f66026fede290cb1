"""Choices and defaults the command parsers show, copied from modules that import numpy,
numba or SciPy (the card and evaluator tables, the sequential test), so that parsing a
command line, ``--help`` included, imports none of them (issue 28).

:data:`SOURCES` names where each value comes from; tests/cli/test_cli_start.py checks that
each still equals its source, so a copy cannot drift unnoticed.
"""

from __future__ import annotations

DECK_NAMES = ("standard", "short", "standard+joker", "standard+2jokers",
              "strip2", "strip3", "strip4", "strip5", "kuhn", "leduc")
RANKING_NAMES = ("high", "short_deck", "three_card", "three_card_casino", "two_card",
                 "a5_low", "hilo_low", "27_low", "badugi")
WILD_NAMES = ("none", "jokers", "deuce_spades", "deuces", "deuces_treys", "red_tens")
ESTIMATORS = ("raw", "allin", "aivat")
DEFAULT_H1 = 50.0

SOURCES: dict[str, str] = {
    "DECK_NAMES": "pokerarena.cards",
    "RANKING_NAMES": "pokerarena.evaluator",
    "WILD_NAMES": "pokerarena.evaluator",
    "ESTIMATORS": "pokerarena.tournaments.sequential",
    "DEFAULT_H1": "pokerarena.tournaments.sprt",
}
