"""The work unit: what the planner makes and a worker plays.

It lives with the workers (below the platform) because both sides read it: the
planner (``platform.planner``) makes units from a spec, and
:func:`~pokerarena.workers.records.play_unit` plays one. A unit is plain, frozen data
(it is pickled to Ray workers as it is); ``to_dict``/``from_dict`` give its JSON form.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal

DEALS = 0xDEA1  # the first spawn-key word of shared deals (no lineup's key starts so)


@dataclass(frozen=True, slots=True)
class UnitLimits:
    """A unit's time limits and irregularity policy (``None``: no limit)."""

    decision_seconds: float | None = 5.0
    hand_seconds: float | None = 60.0
    on_fault: Literal["check_fold", "call", "protect"] = "check_fold"
    max_faults: int | None = None

    @classmethod
    def of(cls, d: Mapping[str, Any] | None) -> UnitLimits:
        """From the spec's limits (keys this class does not know are left out)."""
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in (d or {}).items() if k in names})


NO_BETTING = "none"
"""The ``betting`` of a game family's game (``hands.betting``, a unit's ``betting``):
families do not bet. The one place this value is written."""


@dataclass(frozen=True, slots=True)
class Unit:
    """One work unit: ``hands`` hands of one game by one lineup, from its own seed
    (``SeedSequence(seed, spawn_key=spawn_key)``). ``deal_key``: when set, the deals come
    from ``SeedSequence(seed, spawn_key=(DEALS, *deal_key))`` instead, a key that does not
    name the lineup, so every lineup of a tournament plays the same deals (the bots keep
    seeds of their own). ``session`` is the driver's landing token (set when the unit is
    sent; see :mod:`pokerarena.workers.landing`). ``carry_stacks``: the stacks go on
    from hand to hand (a busted seat buys in again) instead of starting every hand
    from ``stack``. ``freezeout``: set for a freeze-out unit, which plays one whole
    freeze-out of ``bots`` (its entrants) instead of ``hands`` hands: ``levels``
    (``[[start round, options], ...]``), ``payouts``, ``buy_in``, ``table_size``;
    ``hands`` is then its limit of rounds. ``record``: ``"hands"`` leaves the action
    log out (its ``actions`` part is empty), ``"full"`` keeps every row. ``aivat``: each
    seat row also gets its AIVAT-corrected net (``seats.aivat_net``), on the reference
    table."""

    unit_id: str
    index: int
    match: int
    shard: int
    variant: str
    betting: str
    options: dict[str, Any]
    bots: tuple[str, ...]
    hands: int
    first_hand: int
    seed: int
    spawn_key: tuple[int, ...]
    stack: int | None = None
    duplicate: bool = False
    run_id: str = ""
    limits: UnitLimits = field(default_factory=UnitLimits)
    session: str | None = None
    deal_key: tuple[int, ...] = ()
    baseline: str | None = None
    carry_stacks: bool = False
    freezeout: dict[str, Any] | None = None
    record: Literal["full", "hands"] = "full"
    aivat: bool = False

    @property
    def family(self) -> bool:
        """Whether this is a game family's unit (painted poker, durak, ...), not poker."""
        return self.betting == NO_BETTING

    def deal_seed(self) -> int | None:
        """The seed of the unit's deals when they are shared across lineups, else None."""
        if not self.deal_key:
            return None
        import numpy as np

        ss = np.random.SeedSequence(self.seed, spawn_key=(DEALS, *self.deal_key))
        return int(ss.generate_state(2, np.uint64)[0] >> np.uint64(1))

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready; the options dict is a copy)."""
        d = asdict(self)
        d["bots"] = list(self.bots)
        d["spawn_key"] = list(self.spawn_key)
        d["deal_key"] = list(self.deal_key)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Unit:
        """Inverse of :meth:`to_dict`."""
        d = dict(d)
        d["bots"] = tuple(d["bots"])
        d["spawn_key"] = tuple(d["spawn_key"])
        d["deal_key"] = tuple(d.get("deal_key", ()))
        d["limits"] = UnitLimits.of(d.get("limits"))
        return cls(**d)
