"""The planner: a spec becomes matches, and matches become work units (shards of hands).

Match ``m`` is one game (variant, betting system, options) with one lineup of bots.
Its hands are cut into shards of at most ``unit_hands``; shard ``s`` is unit
``m{m:05d}s{s:05d}``, played with the seed ``SeedSequence(run_seed, spawn_key=(m, s))``
and with the lineup rotated ``s`` seats (so over a match every bot sits everywhere).
In a tournament with ``common_deals`` (the default), shard ``s`` of game ``g`` deals the
cards from a key of ``(g, s)`` alone: every lineup plays the same deals, so deal *k* of
A-B is deal *k* of A-C and of B-C (the bots keep seeds of their own).
A unit's rows are a pure function of the unit, so results never depend on how many
workers play them or in which order they finish.

A spec's plan is bounded (``spec.MAX_UNITS`` units, checked when the spec is validated,
from counts alone); the units of one match share their options and limits dicts (they
are read, never changed; ``to_dict`` copies them), so a unit costs about 0.3 KB. The
:class:`~pokerarena.workers.unit.Unit` type itself lives with the workers, which play it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from pokerarena.platform.spec import RunSpec
from pokerarena.workers.unit import Unit, UnitLimits

__all__ = ["Plan", "Unit", "UnitLimits", "plan", "unit_id"]


@dataclass(frozen=True)
class Plan:
    """Every unit of a run, in plan order."""

    units: list[Unit]

    @cached_property
    def hands(self) -> int:
        """Hands in the whole run."""
        return sum(u.hands for u in self.units)

    def by_id(self) -> dict[str, Unit]:
        """Units by id."""
        return {u.unit_id: u for u in self.units}


def unit_id(match: int, shard: int) -> str:
    """The id of shard ``shard`` of match ``match`` (also its Parquet partition)."""
    return f"m{match:05d}s{shard:05d}"


def plan(spec: RunSpec, run_id: str = "") -> Plan:
    """Expand a spec into its units (deterministic: same spec, same plan)."""
    units: list[Unit] = []
    match = 0
    limits = UnitLimits.of(spec.limits.model_dump())
    shards = -(-spec.hands // spec.unit_hands)
    shared = spec.kind == "tournament" and spec.common_deals
    for game_index, game in enumerate(spec.game_configs()):
        variant, betting = game["variant"], game["betting"]
        for lineup in spec.lineups():
            n = len(lineup)
            options = dict(game["options"])
            rotations = [tuple(lineup[r:] + lineup[:r]) for r in range(n)]
            for s in range(shards):
                first = s * spec.unit_hands
                units.append(Unit(
                    unit_id=unit_id(match, s), index=len(units), match=match, shard=s,
                    variant=variant, betting=betting, options=options,
                    bots=rotations[s % n], hands=min(spec.unit_hands, spec.hands - first),
                    first_hand=first, seed=spec.seed, spawn_key=(match, s),
                    stack=spec.stack, duplicate=spec.duplicate, run_id=run_id,
                    limits=limits, deal_key=(game_index, s) if shared else (),
                    baseline=spec.baseline))
            match += 1
    return Plan(units)
