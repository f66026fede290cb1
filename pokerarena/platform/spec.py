"""Run specs: TOML or JSON files validated with pydantic.

A spec says what to play (``kind``: ``match``, ``tournament``, ``simulation`` or
``study``), with which bots, in which games (variants x betting systems x option
sweeps), how many hands, from which seed, and how to cut the work into units. A
tournament's ``format`` says who meets whom: a round robin, a gauntlet, Swiss rounds,
ring games (n-max tables drawn round after round) or freeze-outs (``[freezeout]``);
``rotation_hands`` makes the games one mixed game in rotation, ``stop`` ends a
heads-up match early by a sequential test. See ``examples/*.toml``.

Every problem becomes a :class:`SpecError` whose one-line message names the field
(``games[1].betting: 'no_limit' is not offered by razz ...``).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    create_model,
    field_validator,
)

from pokerarena.errors import UserError
from pokerarena.platform.run_kinds import KindTraits, RunKind, traits
from pokerarena.workers.unit import NO_BETTING

KINDS = ("match", "tournament", "simulation", "study")
FORMATS = ("round_robin", "gauntlet", "swiss", "ring", "freezeout")

# What a run may hold. Unit ids are ``m<5 digits>s<5 digits>``: with at most 10^5 units a
# run's match and shard numbers keep that width, and its plan stays small (about 0.3 KB
# a unit) and quick to make. Every expanded game is compiled once to validate it.
MAX_UNITS = 100_000
MAX_GAMES = 1_000
# How deep lists and tables may nest in a spec (a real one needs four levels).
MAX_DEPTH = 32
# Game options are amounts and counts; the results store them in int32 columns
# (``hands.ante``, ``hands.big_blind``, ``hands.max_raises``, ...).
OPTION_MAX = 2**31 - 1
# Stacks, pots and nets are int64 columns; the chips of a full table (10 seats) must fit.
STACK_MAX = (2**63 - 1) // 10
# Time limits (seconds); a thread's wait refuses much larger timeouts.
SECONDS_MAX = 10**7
# A run's name starts its id (``<name>-<date>-<time>-<random>``); an id is a path segment
# of ``/api/runs/{run_id}`` and a folder under ``<data>/runs``, so it neither starts with
# ``.`` (hidden, ``..``) nor ``-`` (an option to a command line).
NAME_PATTERN = r"^(?:[A-Za-z0-9_][A-Za-z0-9_.-]*)?$"
RUN_ID_PATTERN = r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$"


def run_id_problem(run_id: str) -> str | None:
    """Why ``run_id`` cannot be a run id (None when it can): the one rule every run id
    follows, those made from names and those given with ``--run-id``."""
    if not isinstance(run_id, str) or not re.fullmatch(RUN_ID_PATTERN, run_id):
        return (f"{run_id!r} is not a run id: 1 to 128 letters, digits, '_', '.' or '-', "
                "starting with a letter, a digit or '_'")
    return None


class SpecError(ValueError, UserError):
    """A run spec that cannot be used; the message names the field and the problem."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _as_list(value: Any) -> Any:
    return [value] if isinstance(value, str) else value


class GameSpec(_Strict):
    """One or more games: every variant x every betting system x every sweep point.

    ``options`` are the engine's game options (``GameOptions``: blinds, ante,
    max_raises, ...); ``sweep`` maps an option name to the list of values to try.
    """

    variant: list[str] = Field(min_length=1)
    betting: list[str] | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    sweep: dict[str, list[Any]] = Field(default_factory=dict)

    _lists = field_validator("variant", "betting", mode="before")(_as_list)

    @field_validator("sweep")
    @classmethod
    def _sweep_values(cls, value: dict[str, list[Any]]) -> dict[str, list[Any]]:
        for key, values in value.items():
            if not values:
                raise ValueError(f"{key}: a sweep needs at least one value")
        return value


class Limits(_Strict):
    """Time limits of bots and units, the irregularity policy, and unit retries."""

    decision_seconds: float | None = Field(5.0, gt=0, le=SECONDS_MAX, description="per bot "
                                           "decision (None: no limit)")
    hand_seconds: float | None = Field(60.0, gt=0, le=SECONDS_MAX,
                                       description="per bot and hand")
    on_fault: Literal["check_fold", "call", "protect"] = Field("check_fold", description="action "
                                                     "given to a faulting bot")
    max_faults: int | None = Field(None, ge=1, le=OPTION_MAX, description="faults in a unit "
                                   "after which a bot is removed (None: never)")
    unit_seconds: float = Field(600.0, gt=0, le=SECONDS_MAX, description="a unit running "
                                "longer is abandoned and retried")
    max_attempts: int = Field(3, ge=1, le=100, description="attempts per unit before the "
                              "run fails")


class StopRule(_Strict):
    """Early stopping of every heads-up match of a tournament: a generalized SPRT on the
    match's duplicate blocks (H0: the lineup's first bot wins ``h0`` mbb/hand against
    the second, H1: ``h1``), checked after each shard in shard order. The interval
    recorded with the decision (``ci95``) is the one valid after the stop; the
    fixed-sample one of the same deals, which undercovers after a stop, is
    ``ci95_fixed``."""

    h0: float = Field(0.0, ge=-1e6, le=1e6)
    h1: float = Field(ge=-1e6, le=1e6)
    alpha: float = Field(0.05, gt=0, lt=0.5, description="the chance that a match "
                         "between equal bots finds one ahead, for the whole match "
                         "(two-sided: alpha/2 per side)")
    beta: float = Field(0.05, gt=0, lt=0.5, description="the chance of missing a "
                        "difference of h1 (per side)")
    two_sided: bool = Field(True, description="also test the mirror (H1: -h1), so a "
                            "match stops once it is known which bot is ahead, if either")
    estimator: Literal["raw", "allin", "aivat"] = Field(
        "raw", description="what a deal scores: its chips (raw), its chips with all-in "
        "runouts settled at equity (allin), or its AIVAT-corrected chips (aivat: needs "
        "aivat = true); the three have the same mean, so h0 and h1 mean the same")


class LevelSpec(_Strict):
    """A blind level of a freeze-out: from round ``start`` on (a round is one hand at
    every table), the game options ``options`` (``blinds``, ``ante``, ...)."""

    start: int = Field(ge=0, le=10**9)
    options: dict[str, Any] = Field(default_factory=dict)


class FreezeOutSpec(_Strict):
    """Freeze-outs: ``tournaments`` of them, each of ``entrants`` players (the bots in
    turn, each bot as many entries) at tables of ``seats``, played to the last chip
    (at most ``hands`` rounds; then ICM), prizes from ``payouts``."""

    tournaments: int = Field(ge=1, le=MAX_UNITS)
    entrants: int | None = Field(None, ge=2, le=10_000, description="players per "
                                 "tournament (default: one entry per bot); a multiple "
                                 "of the number of bots")
    levels: list[LevelSpec] = Field(min_length=1, max_length=1000)
    payouts: list[float] = Field(default_factory=lambda: [0.5, 0.3, 0.2], min_length=1,
                                 max_length=10_000, description="fractions of the prize "
                                 "pool, first place first; they sum to 1")
    buy_in: float = Field(1.0, gt=0, le=1e12)


class RunSpec(_Strict):
    """A run: what to play, by whom, how much, from which seed."""

    kind: RunKind
    name: str = Field("", max_length=64, description="starts the run's id: letters, digits, "
                      "'_', '.', '-', not starting with '.' or '-'")
    seed: int = Field(0, ge=0, lt=2**63)
    bots: list[str] = Field(min_length=1)
    seats: int | None = Field(None, ge=2, le=10)
    hands: int = Field(ge=1, le=10**9, description="hands per match (per game and lineup)")
    unit_hands: int = Field(1000, ge=1, le=10**7, description="hands per work unit")
    stack: int | None = Field(None, ge=1, le=STACK_MAX,
                              description="chips per seat at every hand's start")
    duplicate: bool = Field(False, description="play every deal once in each seating of the "
                            "lineup (heads-up: twice, cards swapped; 3 players: 6, 4: 24, "
                            "more: the cyclic rotations)")
    aivat: bool = Field(False, description="store each seat's AIVAT-corrected net "
                        "(seats.aivat_net) and report it beside raw and all-in: heads-up "
                        "betting poker only, played on the reference table (slower)")
    games: list[GameSpec] = Field(min_length=1)
    limits: Limits = Field(default_factory=lambda: Limits())
    format: Literal["round_robin", "gauntlet", "swiss", "ring", "freezeout"] = Field(
        "round_robin", description="tournament: every table of `seats` bots (round robin), "
        "the `challenger` at every table with the others (gauntlet), heads-up rounds of "
        "bots with similar scores (swiss), n-max tables drawn each round so every pair "
        "meets about as often (ring), or freeze-outs (see `freezeout`)")
    rounds: int | None = Field(None, ge=1, le=10_000, description="swiss: rounds; "
                               "ring: table draws")
    table_stakes: Literal["reset", "carry"] = Field(
        "reset", description="every hand from `stack` (reset, the ACPC's Doyle's game), "
        "or stacks carried from hand to hand within a unit, a busted seat buying in again")
    rotation_hands: int | None = Field(None, ge=1, le=10**7, description="a mixed game: "
                                       "every lineup plays the games in turn, this many "
                                       "hands each (H.O.R.S.E.: five games)")
    stop: StopRule | None = Field(None, description="tournament: stop each heads-up match "
                                  "once a sequential test decides")
    freezeout: FreezeOutSpec | None = None
    mixes: list[list[str]] | None = Field(None, min_length=1, max_length=1000,
                                          description="study: the bot lineups of its cells "
                                          "(default: `bots`)")
    study: dict[str, Any] | None = Field(None, description="study: its settings (baseline "
                                         "cell, correction, questions)")
    challenger: str | None = Field(None, description="gauntlet: the bot that meets the field")
    baseline: str | None = Field(None, description="a registered bot that plays every deal "
                                 "again in every seat: its result is each seat's card luck, "
                                 "subtracted as a control variate (stored as baseline_net)")
    record: Literal["full", "hands"] = Field(
        "full", description="what a unit stores: every hand, seat and action (full), or "
        "the hands and seats without the action log (hands: the rows a study or a "
        "tournament's standings read, at a fraction of the cost)")
    common_deals: bool = Field(True, description="tournament: every lineup plays the same "
                               "deals of a game (deal k of A-B is deal k of A-C), so the "
                               "cross table shares its card luck")

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not re.fullmatch(NAME_PATTERN, value):
            raise ValueError(f"{value!r}: a name holds letters, digits, '_', '.' and '-', "
                             "and starts with a letter, a digit or '_'")
        return value

    @property
    def traits(self) -> KindTraits:
        """What the run's kind does (:mod:`~pokerarena.platform.run_kinds`)."""
        return traits(self.kind)

    @property
    def table_size(self) -> int:
        """Seats per table."""
        return self.seats if self.seats is not None else len(self.bots)

    def game_configs(self) -> list[dict[str, Any]]:
        """Every game of the spec, expanded, in a stable order.

        Each is ``{"variant": id, "betting": system, "options": {...}}`` where options
        holds the engine options (``betting`` included) exactly as given to ``Game``.
        """
        from pokerarena.rules import load_variant

        out: list[dict[str, Any]] = []
        for g in self.games:
            keys = sorted(g.sweep)
            points = list(itertools.product(*(g.sweep[k] for k in keys))) or [()]
            for variant_id in g.variant:
                if variant_id in _family_ids():  # a game family: its options, no betting
                    out.extend({"variant": variant_id, "betting": NO_BETTING,
                                "options": {**g.options, **dict(zip(keys, p, strict=True))}}
                               for p in points)
                    continue
                variant = load_variant(variant_id)
                for betting in g.betting or [variant.betting[0]]:
                    for point in points:
                        options = dict(g.options)
                        options.update(zip(keys, point, strict=True))
                        options["betting"] = betting
                        out.append({"variant": variant_id, "betting": betting,
                                    "options": options})
        return out

    def game_count(self) -> int:
        """How many games :meth:`game_configs` expands to (without expanding them)."""
        total = 0
        for g in self.games:
            k = len(g.variant) * max(1, len(g.betting or ()))
            for values in g.sweep.values():
                k *= len(values)
            total += k
        return total

    def lineup_count(self) -> int:
        """How many lineups the run seats in each game (without listing them; Swiss
        rounds after the first are paired from results, but their count is known)."""
        k, n = len(self.bots), self.table_size
        if self.traits.compares_games:
            return len(self.mixes or [self.bots])
        if not self.traits.ranked or self.format == "freezeout":
            return 1
        if self.format == "gauntlet":
            return math.comb(k - 1, n - 1)
        if self.format == "swiss":
            return (self.rounds or 1) * (k // 2)
        if self.format == "ring":
            return (self.rounds or 1) * -(-k // n)
        return math.comb(k, n)

    def segments(self) -> list[tuple[int, int]]:
        """``(first hand, hands)`` of each unit of a match: shards of ``unit_hands``, or
        with ``rotation_hands`` the rotation's segments cut into shards."""
        step = self.rotation_hands or self.hands
        out: list[tuple[int, int]] = []
        for seg0 in range(0, self.hands, step):
            seg_end = min(seg0 + step, self.hands)
            out.extend((first, min(self.unit_hands, seg_end - first))
                       for first in range(seg0, seg_end, self.unit_hands))
        return out

    def plan_size(self) -> tuple[int, int, int]:
        """``(matches, units, hands)`` of the run's plan, counted, not planned (a
        freeze-out's hands: its round limit, the most it can play)."""
        if self.freezeout is not None:
            t = self.freezeout.tournaments
            return t, t, t * self.hands
        games = 1 if self.rotation_hands else self.game_count()
        matches = games * self.lineup_count()
        step = self.rotation_hands or self.hands
        full, rest = divmod(self.hands, step)
        shards = full * -(-step // self.unit_hands) + -(-rest // self.unit_hands)
        return matches, matches * shards, matches * self.hands

    def entrants(self) -> tuple[str, ...]:
        """A freeze-out's players: the bots in turn, each bot as many entries."""
        count = (self.freezeout.entrants if self.freezeout else None) or len(self.bots)
        return tuple(self.bots[i % len(self.bots)] for i in range(count))

    def lineups(self) -> list[tuple[str, ...]]:
        """The bot lineups (one bot per seat) that play every game; Swiss: the first
        round's (the driver pairs the later rounds from the results)."""
        from pokerarena.tournaments.pairings import gauntlet, ring_tables, round_robin, swiss_round

        if self.traits.compares_games:
            return [tuple(m) for m in self.mixes or [self.bots]]
        if not self.traits.ranked:
            return [tuple(self.bots)]
        if self.format == "freezeout":
            return [self.entrants()]
        if self.format == "gauntlet":
            assert self.challenger is not None
            return gauntlet(self.challenger, self.bots, self.table_size)
        if self.format == "swiss":
            return [tuple(p) for p in swiss_round(dict.fromkeys(self.bots, 0.0), set())]
        if self.format == "ring":
            draws = ring_tables(self.bots, self.table_size, self.rounds or 1, self.seed)
            return [tuple(t) for draw in draws for t in draw]
        return round_robin(self.bots, self.table_size)

    def canonical(self) -> str:
        """Canonical JSON of the spec (sorted keys, defaults filled in)."""
        return json.dumps(self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))

    def digest(self) -> str:
        """Short hash of :meth:`canonical`, to check a resume uses the same spec."""
        return hashlib.sha256(self.canonical().encode()).hexdigest()[:16]


# The fields only some kinds have, each owned by the trait of the kinds that use it
# (platform/run_kinds.py): pydantic states which fields a kind accepts (KIND_SPECS), and a
# kind that gains the trait gains its fields.
KIND_FIELDS: dict[str, str] = {
    "format": "ranked", "rounds": "ranked", "challenger": "ranked", "stop": "ranked",
    "freezeout": "ranked", "mixes": "compares_games", "study": "compares_games",
    "common_deals": "common_deals"}


def _kind_spec(kind: RunKind) -> type[BaseModel]:
    """The spec of one kind: ``kind`` fixed to it, and the fields of :class:`RunSpec` it
    accepts (every field but those whose trait it lacks), as RunSpec declares them."""
    owned = traits(kind)
    fields: dict[str, Any] = {
        name: (f.annotation, f) for name, f in RunSpec.model_fields.items()
        if name != "kind" and getattr(owned, KIND_FIELDS.get(name, "common"), True)}
    fields["kind"] = (Literal[kind.value], ...)
    model: type[BaseModel] = create_model(f"{kind.value.title()}Spec", __base__=_Strict,
                                          __doc__=f"A run spec of kind {kind.value!r}.",
                                          **fields)
    return model


KIND_SPECS: dict[RunKind, type[BaseModel]] = {k: _kind_spec(k) for k in RunKind}
SpecOfKind: Any = Annotated[Union[tuple(KIND_SPECS.values())],  # noqa: UP007
                            Field(discriminator="kind")]
"""A run spec as the discriminated union of its kinds (the JSON Schema users write to)."""
_KIND_ADAPTER: TypeAdapter[Any] = TypeAdapter(SpecOfKind)


def spec_json_schema(ref_template: str = "#/$defs/{model}") -> dict[str, Any]:
    """The JSON Schema of a run spec: one branch per kind, chosen by ``kind``
    (``ref_template``: where its models are referred to, ``#/components/schemas/{model}``
    in an OpenAPI document)."""
    return _KIND_ADAPTER.json_schema(ref_template=ref_template)


def _owners(field: str) -> str:
    names = [k.value for k in RunKind if getattr(traits(k), KIND_FIELDS[field])]
    return " and ".join(names)


def _check_kind_fields(spec: RunSpec) -> None:
    """Each field set (other than its default) must be one of the kind's: the kind's
    model refuses the others, named in one line as the kinds they belong to."""
    given = spec.model_dump(exclude_defaults=True)
    try:
        _KIND_ADAPTER.validate_python({**given, "kind": spec.kind.value})
    except ValidationError as exc:
        for err in exc.errors():
            name = str(err["loc"][-1]) if err["loc"] else ""
            if err["type"] == "extra_forbidden" and name in KIND_FIELDS:
                raise SpecError(f"{name}: a {_owners(name)} setting, not for a "
                                f"{spec.kind.value}") from None
        raise SpecError(_format(exc)) from None


def _family_ids() -> tuple[str, ...]:
    from pokerarena.games import family_ids

    return family_ids()


def run_family(spec: RunSpec) -> str | None:
    """The game family a spec plays (``variant = "painted"``), None for betting poker."""
    found = {v for g in spec.games for v in g.variant if v in _family_ids()}
    return next(iter(found)) if found else None


def seatings_per_deal(spec: RunSpec) -> int:
    """How many seatings a duplicate deal is played in: the arena's for betting poker,
    the cyclic rotations of the table for a game family (each seat plays every cards)."""
    if run_family(spec) is not None:
        return spec.table_size
    from pokerarena.arena.match import seatings

    return len(seatings(spec.table_size))


def registered_bots() -> tuple[str, ...]:
    """Bot names a spec may use (the bots package's registry)."""
    from pokerarena.workers.bots import bot_names

    return bot_names()


def bot_problem(name: str) -> str | None:
    """Why ``name`` names no bot (None when it does), without constructing the bot.

    A spec may name a registered bot (with ``?key=value`` options), an ``http://``
    adapter URL or a Python path ``package.module:Class``; the HTTP service allows
    only the first two (see ``platform.api.security``).
    """
    from pokerarena.bots.registry import BotSpecError, load_class, parse_spec

    known = registered_bots()
    try:
        target, _ = parse_spec(name)
        if target in known or target.startswith(("http://", "https://")):
            return None
        if ":" not in target:
            return f"unknown bot {name!r}; registered: {', '.join(known)}"
        load_class(target)
    except BotSpecError as exc:
        return str(exc)
    return None


def _format(exc: ValidationError) -> str:
    from pokerarena.rules import format_validation_error

    return format_validation_error(exc)


def _path(parent: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    return f"{parent}.{key}" if parent else str(key)


def _check_shape(data: Any) -> None:
    """Every value of raw spec data: nested at most :data:`MAX_DEPTH` deep, every float
    finite (``Infinity`` and ``NaN`` from JSON cannot be played nor stored)."""
    stack: list[tuple[str, Any, int]] = [("", data, 0)]
    while stack:
        where, value, depth = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            text = "NaN" if math.isnan(value) else ("-" if value < 0 else "") + "Infinity"
            raise SpecError(f"{where or 'spec'}: {text} is not a finite number")
        if isinstance(value, dict | list | tuple):
            if depth >= MAX_DEPTH:
                raise SpecError(f"{where or 'spec'}: nested more than {MAX_DEPTH} levels deep")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in reversed(list(items)):
                stack.append((_path(where, key), item, depth + 1))


def _check_option_numbers(where: str, value: Any) -> None:
    """Game options hold amounts and counts: every number, however nested, from 0 to
    :data:`OPTION_MAX` (what the results' int32 columns hold)."""
    stack: list[tuple[str, Any]] = [(where, value)]
    while stack:
        at, v = stack.pop()
        if isinstance(v, bool):
            continue
        if isinstance(v, int | float):
            if v < 0:
                raise SpecError(f"{at}: {v} is negative; game options are amounts and "
                                "counts of 0 or more")
            if v > OPTION_MAX:
                raise SpecError(f"{at}: {v} is more than {OPTION_MAX}, the most a game "
                                "option may be (the results store it as a 32-bit integer)")
        elif isinstance(v, dict | list | tuple):
            items = v.items() if isinstance(v, dict) else enumerate(v)
            for key, item in reversed(list(items)):
                stack.append((_path(at, key), item))


def _check_size(spec: RunSpec) -> None:
    """A run's plan must be small enough to make: at most :data:`MAX_GAMES` games and
    :data:`MAX_UNITS` units, counted before anything is expanded."""
    games = spec.game_count()
    if games > MAX_GAMES:
        raise SpecError(f"games: the variants x betting systems x sweep points make {games:,} "
                        f"games; a run plays at most {MAX_GAMES:,}")
    matches, units, _ = spec.plan_size()
    if units <= MAX_UNITS:
        return
    if matches > MAX_UNITS:
        raise SpecError(f"bots: {games:,} games x {spec.lineup_count():,} lineups make "
                        f"{matches:,} matches; a run has at most {MAX_UNITS:,} units")
    shards = MAX_UNITS // matches
    need = -(-spec.hands // shards)
    if spec.duplicate:
        k = seatings_per_deal(spec)
        need = -(-need // k) * k
    where = f"{matches:,} matches x " if matches > 1 else ""
    hint = (f"raise unit_hands to at least {need:,}" if need <= 10**7
            else "play fewer hands, games or lineups")
    raise SpecError(f"unit_hands: {where}{spec.hands:,} hands in units of "
                    f"{spec.unit_hands:,} make {units:,} units; a run has at most "
                    f"{MAX_UNITS:,}: {hint}")


def _check_semantics(spec: RunSpec) -> None:
    """Checks pydantic cannot do alone: bots, variants, options, table sizes."""
    from pokerarena.engine import Game
    from pokerarena.rules import VariantError, load_variant, variant_ids

    if run_family(spec) is not None:
        _check_family(spec)
        return
    for i, name in enumerate(spec.bots):
        problem = bot_problem(name)
        if problem:
            raise SpecError(f"bots[{i}]: {problem}")
    if spec.baseline is not None:
        problem = bot_problem(spec.baseline)
        if problem or "://" in spec.baseline or ":" in spec.baseline:
            raise SpecError(f"baseline: {problem or 'a registered bot name'}")
    _check_format(spec)
    n = spec.table_size
    if n < 2:
        raise SpecError("bots: a table needs at least two seats")
    if spec.duplicate:
        k = seatings_per_deal(spec)
        if spec.unit_hands % k:
            raise SpecError(f"unit_hands: with duplicate deals, a multiple of the {k} "
                            f"seatings of {n} seats")
        if spec.hands % k:
            raise SpecError(f"hands: with duplicate deals, a multiple of the {k} seatings of "
                            f"{n} seats")
    _check_rotation(spec)
    _check_aivat(spec)
    sizes = sorted({len(lineup) for lineup in spec.lineups()} | {n}) \
        if spec.freezeout is None else [2, n]
    for gi, g in enumerate(spec.games):
        _check_option_numbers(f"games[{gi}].options", g.options)
        _check_option_numbers(f"games[{gi}].sweep", g.sweep)
        for vi, variant_id in enumerate(g.variant):
            if variant_id not in variant_ids():
                raise SpecError(f"games[{gi}].variant[{vi}]: unknown variant {variant_id!r}; "
                                f"known: {', '.join(variant_ids())}")
            variant = load_variant(variant_id)
            lo, hi = variant.players
            for size in sizes:
                if not lo <= size <= hi:
                    raise SpecError(f"games[{gi}].variant[{vi}]: {variant_id} is for {lo} to "
                                    f"{hi} players, not {size}")
            for bi, betting in enumerate(g.betting or []):
                if betting not in variant.betting:
                    raise SpecError(f"games[{gi}].betting[{bi}]: {betting!r} is not offered "
                                    f"by {variant_id}; choose one of "
                                    f"{', '.join(variant.betting)}")
        if "betting" in g.options or "betting" in g.sweep:
            raise SpecError(f"games[{gi}].options: give the betting system in "
                            f"games[{gi}].betting")
        for key in ("dealing", "showdown"):
            if g.options.get(key, "auto") != "auto" or key in g.sweep:
                raise SpecError(f"games[{gi}].options.{key}: runs deal and show down "
                                "automatically")
        if g.options.get("odd_chip") == "fractional" or "fractional" in g.sweep.get(
                "odd_chip", []):
            raise SpecError(f"games[{gi}].options.odd_chip: fractional chips cannot be stored; "
                            "use 'called' or 'position'")
    _check_size(spec)
    configs = spec.game_configs()
    for ci, cfg in enumerate(configs):
        try:
            Game(cfg["variant"], cfg["options"])
        except (VariantError, ValueError, ArithmeticError) as exc:
            gi = _game_index(spec, ci)
            raise SpecError(f"games[{gi}].options: {exc}") from None
    _check_one_game(spec, configs)
    if spec.freezeout is not None:
        _check_levels(spec, configs[0])


_FAMILY_FORMATS = ("round_robin", "gauntlet")


def family_bot_problem(family: str, name: str) -> str | None:
    """Why ``name`` is not a bot of game family ``family`` (None when it is): one of its
    built-in bots, or an ``http://`` endpoint speaking its JSON
    (:mod:`pokerarena.bots.adapters.family_http`)."""
    from pokerarena.games import entrant_bot
    from pokerarena.games import family as family_of

    known = family_of(family).bots
    if entrant_bot(name) in known or name.startswith(("http://", "https://")):
        return None
    return (f"{name!r} is not a {family} bot; its bots: {', '.join(known)} (a second "
            "entrant playing one: rule#2), or an http:// URL")


def _check_family(spec: RunSpec) -> None:
    """A run of a game family (``variant = "painted"``): one family, no betting, its own
    bots, its table sizes and options; what only betting poker has is refused."""
    from pokerarena.games import family as family_of
    from pokerarena.rules import variant_ids

    fam = family_of(run_family(spec) or "")
    for gi, g in enumerate(spec.games):
        for vi, v in enumerate(g.variant):
            if v != fam.id:
                what = "another family" if v not in variant_ids() else "betting poker"
                raise SpecError(f"games[{gi}].variant[{vi}]: a run plays one game family; "
                                f"{v!r} is {what}, not {fam.id}")
        if g.betting:
            raise SpecError(f"games[{gi}].betting: {fam.id} has no betting")
    if spec.aivat:
        raise SpecError(f"aivat: AIVAT corrects heads-up betting poker; {fam.id} is a game "
                        "family")
    for field in ("stack", "baseline", "rotation_hands", "stop", "freezeout"):
        if getattr(spec, field) is not None:
            raise SpecError(f"{field}: a betting-poker setting; {fam.id} does not use it")
    if spec.table_stakes != "reset":
        raise SpecError(f"table_stakes: a betting-poker setting; {fam.id} does not use it")
    if spec.traits.ranked and spec.format not in _FAMILY_FORMATS:
        raise SpecError(f"format: {fam.id} tournaments are played as "
                        f"{' or '.join(_FAMILY_FORMATS)}, not {spec.format}")
    _check_format(spec)
    mixes = [("bots", spec.bots)] + [(f"mixes[{i}]", m) for i, m in enumerate(spec.mixes or [])]
    for where, names in mixes:
        for j, name in enumerate(names):
            problem = family_bot_problem(fam.id, name)
            if problem:
                raise SpecError(f"{where}[{j}]: {problem}")
    lo, hi = fam.players
    for size in sorted({len(lineup) for lineup in spec.lineups()} | {spec.table_size}):
        if not lo <= size <= hi:
            raise SpecError(f"bots: {fam.id} is for {lo} to {hi} players, not {size}")
    k = seatings_per_deal(spec)
    if spec.duplicate and (spec.unit_hands % k or spec.hands % k):
        raise SpecError(f"unit_hands, hands: with duplicate deals, multiples of the {k} "
                        f"seatings of {spec.table_size} seats")
    _check_size(spec)
    for ci, cfg in enumerate(spec.game_configs()):
        try:
            fam.make(cfg["options"])
        except (UserError, ValueError) as exc:
            raise SpecError(f"games[{_game_index(spec, ci)}].options: {exc}") from None
    _check_one_game(spec, spec.game_configs())


def _check_one_game(spec: RunSpec, configs: list[dict[str, Any]]) -> None:
    if spec.traits.one_game and len(configs) != 1:
        raise SpecError(f"games: a {spec.kind} plays one game; use kind = \"simulation\" "
                        "for several")


def _check_format(spec: RunSpec) -> None:
    """The kind's and the format's own fields: each where it belongs, and consistent."""
    n, k = spec.table_size, len(spec.bots)
    if not spec.traits.ranked:   # which fields a kind has: its model (_check_kind_fields)
        if spec.traits.compares_games:
            _check_study(spec)
        elif spec.seats is not None and spec.seats != k:
            raise SpecError(f"seats: a {spec.kind} seats every bot listed ({k}), "
                            f"not {spec.seats}")
        return
    if spec.seats is None:
        raise SpecError("seats: a tournament needs the table size")
    if len(set(spec.bots)) != k:
        raise SpecError("bots: a tournament lists each bot once")
    fmt = spec.format
    if (fmt == "gauntlet") != (spec.challenger is not None) or (
            fmt == "gauntlet" and spec.challenger not in spec.bots):
        raise SpecError("challenger: a gauntlet names its challenger, one of the bots; "
                        "other formats have none")
    if (fmt in ("swiss", "ring")) != (spec.rounds is not None):
        raise SpecError("rounds: Swiss and ring formats say how many rounds; other formats "
                        "have none")
    if (fmt == "freezeout") != (spec.freezeout is not None):
        raise SpecError("freezeout: the freeze-out settings go with format = \"freezeout\" "
                        "and only with it")
    if fmt == "swiss" and (n != 2 or k < 3):
        raise SpecError("seats: Swiss rounds pair bots heads-up (seats = 2) from 3 bots on")
    if fmt == "freezeout":
        _check_freezeout(spec)
    elif n > k:
        raise SpecError(f"seats: {n} seats but only {k} bots")
    if spec.stop is not None:
        if n != 2:
            raise SpecError("stop: early stopping tests heads-up matches (seats = 2)")
        if fmt == "freezeout":
            raise SpecError("stop: a freeze-out ends by itself; early stopping is for matches")
        if spec.stop.h0 == spec.stop.h1:
            raise SpecError("stop: h0 and h1 must differ")


def _check_freezeout(spec: RunSpec) -> None:
    fo = spec.freezeout
    assert fo is not None
    k = len(spec.bots)
    entrants = fo.entrants or k
    if entrants % k:
        raise SpecError(f"freezeout.entrants: a multiple of the {k} bots, so each bot has "
                        "as many entries")
    if spec.duplicate or spec.baseline or spec.rotation_hands or spec.table_stakes != "reset":
        raise SpecError("freezeout: a freeze-out carries its stacks to the last chip; "
                        "duplicate, baseline, rotation_hands and table_stakes do not apply")
    if any(f < 0 for f in fo.payouts) or abs(sum(fo.payouts) - 1) > 1e-9:
        raise SpecError("freezeout.payouts: fractions of the prize pool, each 0 or more, "
                        "summing to 1")
    if len(fo.payouts) > entrants:
        raise SpecError(f"freezeout.payouts: {len(fo.payouts)} places paid but only "
                        f"{entrants} entrants")
    starts = [lv.start for lv in fo.levels]
    if starts[0] != 0 or starts != sorted(set(starts)):
        raise SpecError("freezeout.levels: the first level starts at round 0, the others "
                        "later, each at its own round")
    if spec.game_count() != 1:
        raise SpecError("games: a freeze-out plays one game (one variant, one betting system)")


def _check_levels(spec: RunSpec, config: dict[str, Any]) -> None:
    """Every blind level compiles with the game's options."""
    from pokerarena.engine import Game
    from pokerarena.rules import VariantError

    assert spec.freezeout is not None
    for i, lv in enumerate(spec.freezeout.levels):
        _check_option_numbers(f"freezeout.levels[{i}].options", lv.options)
        if "betting" in lv.options:
            raise SpecError(f"freezeout.levels[{i}].options: the betting system is the "
                            "game's, in games[0].betting")
        try:
            Game(config["variant"], {**config["options"], **lv.options})
        except (VariantError, ValueError, ArithmeticError) as exc:
            raise SpecError(f"freezeout.levels[{i}].options: {exc}") from None


def _check_study(spec: RunSpec) -> None:
    """A study's lineups: registered bots, every mix a table of 2 to 10."""
    fam = run_family(spec)
    for i, mix in enumerate(spec.mixes or []):
        if not 2 <= len(mix) <= 10:
            raise SpecError(f"mixes[{i}]: a table of 2 to 10 bots, not {len(mix)}")
        for j, name in enumerate(mix):
            problem = bot_problem(name) if fam is None else family_bot_problem(fam, name)
            if problem:
                raise SpecError(f"mixes[{i}][{j}]: {problem}")
    if spec.seats is not None and spec.seats != len(spec.bots):
        raise SpecError(f"seats: a study seats `bots` ({len(spec.bots)}) or its `mixes`")
    if spec.study is not None:
        from pokerarena.studies.settings import StudySettingsError, parse_settings

        cells = len(spec.game_configs()) * spec.lineup_count()
        try:
            settings = parse_settings(spec.study, cells)
        except StudySettingsError as exc:
            raise SpecError(f"study: {exc}") from None
        if settings.freezeouts and fam is not None:
            raise SpecError(f"study.freezeouts: freeze-outs are betting poker's; {fam} "
                            "has no chips to bust")
        if settings.freezeouts * cells > MAX_UNITS:
            raise SpecError(f"study.freezeouts: {settings.freezeouts:,} per cell of {cells:,} "
                            f"cells is more than {MAX_UNITS:,} units")


def _check_rotation(spec: RunSpec) -> None:
    """Carried stacks and mixed-game rotations: what they may be combined with."""
    if spec.table_stakes == "carry" and spec.duplicate:
        raise SpecError("table_stakes: carried stacks cannot be dealt in duplicate (each "
                        "seating would need its own chain of stacks)")
    r = spec.rotation_hands
    if r is None:
        return
    if spec.traits.one_game:
        raise SpecError(f"rotation_hands: a mixed game rotates several games; a {spec.kind} "
                        "plays one (use a simulation or a tournament)")
    if spec.duplicate:
        from pokerarena.arena.match import seatings

        k = len(seatings(spec.table_size))
        if r % k:
            raise SpecError(f"rotation_hands: with duplicate deals, a multiple of the {k} "
                            f"seatings of {spec.table_size} seats")


def _check_aivat(spec: RunSpec) -> None:
    """``aivat = true``: the estimator walks heads-up engine hands (its value function
    and chance terms are written for two seats), one unit's hands at a time."""
    if spec.stop is not None and spec.stop.estimator == "aivat" and not spec.aivat:
        raise SpecError("stop.estimator: \"aivat\" tests the seats' aivat_net; add "
                        "aivat = true")
    if not spec.aivat:
        return
    if spec.freezeout is not None or (spec.study or {}).get("freezeouts"):
        raise SpecError("aivat: a freeze-out's stacks run to the last chip; AIVAT corrects "
                        "the hands of heads-up matches")
    sizes = {len(lineup) for lineup in spec.lineups()} | {spec.table_size}
    if sizes != {2}:
        raise SpecError(f"aivat: AIVAT corrects heads-up tables (2 seats), not tables of "
                        f"{', '.join(str(n) for n in sorted(sizes - {2}))}")


def _game_index(spec: RunSpec, config_index: int) -> int:
    """Which ``games`` entry produced expanded config number ``config_index``."""
    count = 0
    for gi, g in enumerate(spec.games):
        k = 1
        for values in g.sweep.values():
            k *= len(values)
        k *= len(g.variant) * max(1, len(g.betting or [None]))
        count += k
        if config_index < count:
            return gi
    return len(spec.games) - 1


def parse_spec(data: dict[str, Any]) -> RunSpec:
    """Validate spec data (a dict from TOML or JSON) into a :class:`RunSpec`."""
    if not isinstance(data, dict):
        raise SpecError("a run spec is a table (TOML) or an object (JSON)")
    _check_shape(data)
    try:
        spec = RunSpec.model_validate(data)
    except ValidationError as exc:
        raise SpecError(_format(exc)) from None
    _check_kind_fields(spec)
    _check_semantics(spec)
    return spec


def load_spec(path: str | Path) -> RunSpec:
    """Read and validate a spec file: ``.json`` as JSON, anything else as TOML."""
    p = Path(path)
    fmt = "JSON" if p.suffix == ".json" else "TOML"
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise SpecError(f"{p}: cannot read: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError(f"{p}: not UTF-8 text (byte {exc.start}); a spec is a {fmt} "
                        "file") from None
    try:
        data = json.loads(text) if p.suffix == ".json" else tomllib.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise SpecError(f"{p}: not valid {fmt}: {exc}") from None
    except RecursionError:
        raise SpecError(f"{p}: not a run spec: nested too deeply (at most {MAX_DEPTH} "
                        "levels)") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise SpecError(f"{p}: not valid {fmt}: {exc}") from None
    try:
        return parse_spec(data)
    except SpecError as exc:
        raise SpecError(f"{p}: {exc}") from None
