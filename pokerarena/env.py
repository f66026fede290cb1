"""The public entry of the PettingZoo environment: ``from pokerarena.env import env``.

``env(variant=..., betting=..., players=..., options={...}, action_mode=...)`` returns the
wrapped AEC environment, ``raw_env`` is its class and ``SeatEnv`` the Gymnasium
single-seat wrapper (docs/interop.md). They live in :mod:`pokerarena.interop`; this
module imports them only when asked, so the platform runs without PettingZoo, and a
missing library is one clear error naming the extra.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pokerarena.interop import require

if TYPE_CHECKING:  # for readers and type checkers; at run time: __getattr__ below
    from pokerarena.interop.gym_env import SeatEnv
    from pokerarena.interop.pettingzoo_env import env, raw_env

_WHERE = {"env": "pokerarena.interop.pettingzoo_env",
          "raw_env": "pokerarena.interop.pettingzoo_env",
          "SeatEnv": "pokerarena.interop.gym_env"}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'pokerarena.env' has no attribute {name!r}")
    require("pettingzoo")
    require("gymnasium")
    return getattr(require(where), name)


__all__ = ["SeatEnv", "env", "raw_env"]
