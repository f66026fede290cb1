"""Balance studies: how rule sets change what players hold and how games play.

:mod:`.census` gives the exact (or sampled, with intervals) hand-category tables of a
rule set and flags where its ranking disagrees with the frequencies.
"""

from pokerarena.studies.census import CensusTable, RuleCensus, rule_census

__all__ = ["CensusTable", "RuleCensus", "rule_census"]
