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
from typing import Any

from pokerarena.platform.spec import RunSpec
from pokerarena.workers.unit import Unit, UnitLimits

__all__ = ["Plan", "Unit", "UnitLimits", "match_units", "plan", "unit_id"]


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
    limits = UnitLimits.of(spec.limits.model_dump())
    if spec.freezeout is not None:
        return Plan(_freezeout_units(spec, run_id, limits))
    units: list[Unit] = []
    games = spec.game_configs()
    # one match per game and lineup; a mixed game: one match per lineup, all games
    matches = [[(g, cfg)] for g, cfg in enumerate(games)] if not spec.rotation_hands \
        else [list(enumerate(games))]
    for rotation in matches:
        for lineup in spec.lineups():
            units.extend(match_units(spec, len(units), _match_no(units), rotation, lineup,
                                     run_id, limits))
    if spec.traits.compares_games and (spec.study or {}).get("freezeouts"):
        units.extend(_study_freezeouts(spec, units, run_id, limits))
    return Plan(units)


def _study_freezeouts(spec: RunSpec, units: list[Unit], run_id: str,
                      limits: UnitLimits) -> list[Unit]:
    """A study's freeze-outs (``[study] freezeouts``): per cell (game, then mix, as the
    cells are numbered), that many winner-take-all freeze-outs of the cell's mix at its
    rules, matches numbered after the cells' (cell ``c``'s freeze-out ``t`` is match
    ``cells + c * freezeouts + t``). Freeze-out ``t`` of every cell is seeded alike
    (the spawn key ``(FREEZEOUTS, t, 0)``: three words, never a cell's
    ``(match, shard)``), so the cells' tournaments share their seeds."""
    settings = spec.study or {}
    count, rounds = int(settings["freezeouts"]), int(settings.get("freezeout_rounds", 5000))
    cells = [(cfg, mix) for cfg in spec.game_configs() for mix in spec.lineups()]
    first = _match_no(units)
    out: list[Unit] = []
    for c, (cfg, mix) in enumerate(cells):
        fo = {"levels": [[0, {}]], "payouts": [1.0], "buy_in": 1.0, "table_size": len(mix)}
        for t in range(count):
            match = first + c * count + t
            out.append(Unit(unit_id=unit_id(match, 0), index=len(units) + len(out),
                            match=match, shard=0, variant=cfg["variant"],
                            betting=cfg["betting"], options=cfg["options"], bots=tuple(mix),
                            hands=rounds, first_hand=0, seed=spec.seed,
                            spawn_key=(FREEZEOUTS, t, 0), stack=spec.stack, run_id=run_id,
                            limits=limits, freezeout=fo, record=spec.record))
    return out


FREEZEOUTS = 0xF0E0
"""The first spawn-key word of a study's freeze-outs (shared deals' is ``DEALS``)."""


def _match_no(units: list[Unit]) -> int:
    return units[-1].match + 1 if units else 0


def match_units(spec: RunSpec, index: int, match: int,
                rotation: list[tuple[int, dict[str, Any]]], lineup: tuple[str, ...],
                run_id: str, limits: UnitLimits) -> list[Unit]:
    """The units of match ``match`` (``index``: the plan index of its first unit):
    ``lineup`` playing the games of ``rotation`` (``(game index, config)`` pairs; one
    game, or a mixed game's in turn, ``spec.rotation_hands`` hands each), cut into
    :meth:`~pokerarena.platform.spec.RunSpec.segments`; shard ``s`` seats the lineup
    rotated ``s`` seats. With common deals (tournaments and studies), the deals of a
    shard come from a key without the lineup: ``(game, shard)`` in a tournament, so
    every lineup of a game plays the same deals; ``(0, shard)`` in a study, so every
    cell does, whatever its rules (common random numbers)."""
    n = len(lineup)
    rotations = [tuple(lineup[r:] + lineup[:r]) for r in range(n)]
    shared = spec.traits.common_deals and spec.common_deals
    step = spec.rotation_hands or spec.hands
    options = [dict(cfg["options"]) for _, cfg in rotation]
    units = []
    for s, (first, hands) in enumerate(spec.segments()):
        turn = (first // step) % len(rotation)
        game_index, game = rotation[turn]
        deal_key = ((0 if spec.traits.compares_games else game_index, s) if shared else ())
        units.append(Unit(
            unit_id=unit_id(match, s), index=index + s, match=match, shard=s,
            variant=game["variant"], betting=game["betting"], options=options[turn],
            bots=rotations[s % n], hands=hands, first_hand=first, seed=spec.seed,
            spawn_key=(match, s), stack=spec.stack, duplicate=spec.duplicate,
            run_id=run_id, limits=limits, deal_key=deal_key, baseline=spec.baseline,
            carry_stacks=spec.table_stakes == "carry", record=spec.record,
            aivat=spec.aivat))
    return units


def _freezeout_units(spec: RunSpec, run_id: str, limits: UnitLimits) -> list[Unit]:
    """One unit per freeze-out: all its entrants, its levels and payouts; ``hands`` is
    its round limit."""
    fo = spec.freezeout
    assert fo is not None
    game = spec.game_configs()[0]
    settings = {"levels": [[lv.start, dict(lv.options)] for lv in fo.levels],
                "payouts": list(fo.payouts), "buy_in": fo.buy_in,
                "table_size": spec.table_size}
    entrants = spec.entrants()
    return [Unit(unit_id=unit_id(t, 0), index=t, match=t, shard=0, variant=game["variant"],
                 betting=game["betting"], options=game["options"], bots=entrants,
                 hands=spec.hands, first_hand=0, seed=spec.seed, spawn_key=(t, 0),
                 stack=spec.stack, run_id=run_id, limits=limits, freezeout=settings,
                 record=spec.record)
            for t in range(fo.tournaments)]
