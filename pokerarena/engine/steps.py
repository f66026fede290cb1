"""The steps of a compiled game (:mod:`pokerarena.engine.program`), with named fields,
and the named codes their fields take (who opens a round, its bet size, the betting
system as the hand plays it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

# Betting systems as the hand plays them. Variable limit plays as fixed limit with
# per-round bet sizes; min-or-max is fixed amounts with two amounts.
SYS_FIXED: Final = 0
SYS_SPREAD: Final = 1
SYS_POT: Final = 2
SYS_NO: Final = 3
SYS_LASTBET: Final = 4
SYS_AMOUNTS: Final = 5
SYSTEM_CODES: Final = {"fixed_limit": SYS_FIXED, "variable_limit": SYS_FIXED,
                       "spread_limit": SYS_SPREAD, "pot_limit": SYS_POT, "no_limit": SYS_NO,
                       "last_bet_limit": SYS_LASTBET, "fixed_amounts": SYS_AMOUNTS,
                       "min_or_max": SYS_AMOUNTS}

# Who opens a betting round (BetStep.opener).
OPEN_LEFT_OF_BUTTON: Final = 0
OPEN_LEFT_OF_BLINDS: Final = 1
OPEN_BRING_IN: Final = 2
OPEN_HIGH_SHOWING: Final = 3
OPEN_LOW_SHOWING: Final = 4
OPEN_OPENER: Final = 5       # the opener of the first round
OPEN_LEFT_OF_ANTES: Final = 6
OPENER_CODES: Final = {"left_of_button": OPEN_LEFT_OF_BUTTON,
                       "left_of_blinds": OPEN_LEFT_OF_BLINDS, "bring_in": OPEN_BRING_IN,
                       "high_showing": OPEN_HIGH_SHOWING, "low_showing": OPEN_LOW_SHOWING,
                       "opener": OPEN_OPENER, "left_of_antes": OPEN_LEFT_OF_ANTES}

# The bet size of a betting round (BetStep.size).
SIZE_SMALL: Final = 0
SIZE_BIG: Final = 1
SIZE_ANTE: Final = 2
SIZE_CODES: Final = {"small": SIZE_SMALL, "big": SIZE_BIG, "ante": SIZE_ANTE}

@dataclass(frozen=True)
class DealStep:
    """Cards dealt: ``down`` and ``up`` to each player still in, ``board`` to the board."""

    down: int
    up: int
    board: int


@dataclass(frozen=True)
class ChooseStep:
    """Each player in turn chooses whether the next up card comes up or down."""


@dataclass(frozen=True)
class BetStep:
    """A betting round: its bet ``size`` (SIZE_*), who opens it (``opener``: OPEN_*),
    whether checking (``check``) and check-raising are allowed, whether an open pair
    allows the big bet (``open_pair``), and ``round_no`` (0 for the first round)."""

    size: int
    opener: int
    check: bool
    open_pair: bool
    round_no: int
    check_raise: bool


@dataclass(frozen=True)
class DrawStep:
    """A draw: each player discards ``min`` to ``max`` cards (``max_by_players``: (at most
    so many players, that maximum) pairs), replaced unless ``replace`` is off; ``burn``
    cards go from the stock to the discards first."""

    min: int
    max: int
    max_by_players: tuple[tuple[int, int], ...]
    replace: bool
    burn: int


@dataclass(frozen=True)
class ExposeStep:
    """Each player turns ``count`` down cards up (keeping ``keep_down`` down), in turn or
    all at once (``simultaneous``: the choices stay hidden until all have chosen)."""

    count: int
    keep_down: int
    simultaneous: bool


@dataclass(frozen=True)
class DeclareStep:
    """Each player declares high, low or both, in turn or all at once."""

    simultaneous: bool


@dataclass(frozen=True)
class FamilyStep:
    """A step a registered family plays (knock poker's turns ...): ``family`` names it,
    ``spec`` is its street as the variant gives it."""

    family: str
    spec: Any


Step = DealStep | ChooseStep | BetStep | DrawStep | ExposeStep | DeclareStep | FamilyStep
