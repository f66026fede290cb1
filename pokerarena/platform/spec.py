"""Run specs: TOML or JSON files validated with pydantic.

A spec says what to play (``kind``: ``match``, ``tournament`` or ``simulation``), with
which bots, in which games (variants x betting systems x option sweeps), how many
hands, from which seed, and how to cut the work into units. See ``examples/*.toml``.

Every problem becomes a :class:`SpecError` whose one-line message names the field
(``games[1].betting: 'no_limit' is not offered by razz ...``).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

KINDS = ("match", "tournament", "simulation")


class SpecError(ValueError):
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

    decision_seconds: float | None = Field(5.0, gt=0, description="per bot decision "
                                           "(None: no limit)")
    hand_seconds: float | None = Field(60.0, gt=0, description="per bot and hand")
    on_fault: Literal["check_fold", "call", "protect"] = Field("check_fold", description="action "
                                                     "given to a faulting bot")
    max_faults: int | None = Field(None, ge=1, description="faults in a unit after which "
                                   "a bot is removed (None: never)")
    unit_seconds: float = Field(600.0, gt=0, description="a unit running longer is "
                                "abandoned and retried")
    max_attempts: int = Field(3, ge=1, le=100, description="attempts per unit before the "
                              "run fails")


class RunSpec(_Strict):
    """A run: what to play, by whom, how much, from which seed."""

    kind: Literal["match", "tournament", "simulation"]
    name: str = Field("", max_length=64, pattern=r"^[A-Za-z0-9_.-]*$")
    seed: int = Field(0, ge=0, lt=2**63)
    bots: list[str] = Field(min_length=1)
    seats: int | None = Field(None, ge=2, le=10)
    hands: int = Field(ge=1, le=10**9, description="hands per match (per game and lineup)")
    unit_hands: int = Field(1000, ge=1, le=10**7, description="hands per work unit")
    stack: int | None = Field(None, ge=1, description="chips per seat at every hand's start")
    duplicate: bool = Field(False, description="play every deal once per rotation of the "
                            "lineup (heads-up: twice, cards swapped)")
    games: list[GameSpec] = Field(min_length=1)
    limits: Limits = Field(default_factory=Limits)

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
                variant = load_variant(variant_id)
                for betting in g.betting or [variant.betting[0]]:
                    for point in points:
                        options = dict(g.options)
                        options.update(zip(keys, point, strict=True))
                        options["betting"] = betting
                        out.append({"variant": variant_id, "betting": betting,
                                    "options": options})
        return out

    def lineups(self) -> list[tuple[str, ...]]:
        """The bot lineups (one bot per seat) that play every game."""
        if self.kind == "tournament":
            return list(itertools.combinations(self.bots, self.table_size))
        return [tuple(self.bots)]

    def canonical(self) -> str:
        """Canonical JSON of the spec (sorted keys, defaults filled in)."""
        return json.dumps(self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))

    def digest(self) -> str:
        """Short hash of :meth:`canonical`, to check a resume uses the same spec."""
        return hashlib.sha256(self.canonical().encode()).hexdigest()[:16]


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


def _check_semantics(spec: RunSpec) -> None:
    """Checks pydantic cannot do alone: bots, variants, options, table sizes."""
    from pokerarena.engine import Game
    from pokerarena.rules import VariantError, load_variant, variant_ids

    for i, name in enumerate(spec.bots):
        problem = bot_problem(name)
        if problem:
            raise SpecError(f"bots[{i}]: {problem}")
    n = spec.table_size
    if spec.kind == "tournament":
        if spec.seats is None:
            raise SpecError("seats: a tournament needs the table size")
        if n > len(spec.bots):
            raise SpecError(f"seats: {n} seats but only {len(spec.bots)} bots")
        if len(set(spec.bots)) != len(spec.bots):
            raise SpecError("bots: a tournament lists each bot once")
    elif spec.seats is not None and spec.seats != len(spec.bots):
        raise SpecError(f"seats: a {spec.kind} seats every bot listed ({len(spec.bots)}), "
                        f"not {spec.seats}")
    if n < 2:
        raise SpecError("bots: a table needs at least two seats")
    if spec.duplicate:
        if spec.unit_hands % n:
            raise SpecError(f"unit_hands: with duplicate deals, a multiple of the {n} seats")
        if spec.hands % n:
            raise SpecError(f"hands: with duplicate deals, a multiple of the {n} seats")
    for gi, g in enumerate(spec.games):
        for vi, variant_id in enumerate(g.variant):
            if variant_id not in variant_ids():
                raise SpecError(f"games[{gi}].variant[{vi}]: unknown variant {variant_id!r}; "
                                f"known: {', '.join(variant_ids())}")
            variant = load_variant(variant_id)
            lo, hi = variant.players
            if not lo <= n <= hi:
                raise SpecError(f"games[{gi}].variant[{vi}]: {variant_id} is for {lo} to {hi} "
                                f"players, not {n}")
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
    for ci, cfg in enumerate(spec.game_configs()):
        try:
            Game(cfg["variant"], cfg["options"])
        except (VariantError, ValueError) as exc:
            gi = _game_index(spec, ci)
            raise SpecError(f"games[{gi}].options: {exc}") from None
    if spec.kind == "match" and len(spec.game_configs()) != 1:
        raise SpecError("games: a match plays one game; use kind = \"simulation\" for several")


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
    try:
        spec = RunSpec.model_validate(data)
    except ValidationError as exc:
        raise SpecError(_format(exc)) from None
    _check_semantics(spec)
    return spec


def load_spec(path: str | Path) -> RunSpec:
    """Read and validate a spec file: ``.json`` as JSON, anything else as TOML."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecError(f"{p}: cannot read: {exc.strerror}") from None
    try:
        data = json.loads(text) if p.suffix == ".json" else tomllib.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise SpecError(f"{p}: not valid {'JSON' if p.suffix == '.json' else 'TOML'}: "
                        f"{exc}") from None
    try:
        return parse_spec(data)
    except SpecError as exc:
        raise SpecError(f"{p}: {exc}") from None
