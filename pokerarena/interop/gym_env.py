"""One seat of any game against built-in bots, as a Gymnasium environment.

``SeatEnv("holdem", betting="fixed_limit", opponents=["tag"])``: the agent plays seat
``seat``; every other seat is a bot named in ``opponents`` (a poker bot of
:mod:`pokerarena.bots.registry`: a registered name or a ``package.module:Class`` path;
a family's built-in bot), each seeded from the reset's seed. Observations and actions
are the PettingZoo environment's (:mod:`pokerarena.interop.pettingzoo_env`): the dict of
``observation`` and ``action_mask``, the mask also in ``info["action_mask"]`` and
:meth:`SeatEnv.action_masks` (what maskable learners ask for). The reward is the
seat's chips (or big blinds, or a family's points) won since its last move.

An action the mask forbids is an error (``illegal="raise"``), or, with
``illegal="passive"``, the move the platform's fault guard gives a faulting bot (check
if free, else fold; stand pat; a family's first legal move): Gymnasium's own checker and
learners that ignore masks then run.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from pokerarena.bots.base import down_cards, passive_action
from pokerarena.bots.registry import make_bot
from pokerarena.interop import InteropError
from pokerarena.interop.pettingzoo_env import hand_seed, raw_env


class SeatEnv(gymnasium.Env):
    """Seat ``seat`` of :class:`~pokerarena.interop.pettingzoo_env.raw_env` (same
    arguments, passed on) against ``opponents``: one name for every other seat, or one
    name per other seat in seat order."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(self, variant: str = "holdem", betting: str | None = None, players: int = 2,
                 options: dict[str, Any] | None = None, action_mode: str = "discrete", *,
                 seat: int = 0, opponents: str | Sequence[str] = "call",
                 illegal: str = "raise", **kwargs: Any) -> None:
        if illegal not in ("raise", "passive"):
            raise InteropError(f"illegal is 'raise' or 'passive', not {illegal!r}")
        self.illegal = illegal
        self.aec = raw_env(variant, betting, players, options, action_mode, **kwargs)
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise InteropError(f"seat: one of 0 to {players - 1}, not {seat!r}")
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise InteropError(f"opponents: {players - 1} bots for the other seats, not "
                               f"{len(names)}")
        self.seat = seat
        self.agent = f"player_{seat}"
        self.names = names
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = kwargs.get("render_mode")
        self.bots: dict[int, Any] = {}
        self._make_bots(0)  # an unknown bot name fails here, not at the first reset

    def _make_bots(self, seed: int) -> None:
        others = [s for s in range(self.aec.players) if s != self.seat]
        self.bots = {}
        for k, (s, name) in enumerate(zip(others, self.names, strict=True)):
            bot_seed = hand_seed(seed, 1_000 + k) % (2**31)
            if self.aec.is_family:
                assert self.aec.fam.new_bot is not None
                self.bots[s] = self.aec.fam.new_bot(name, bot_seed)
            else:
                self.bots[s] = make_bot(name, bot_seed)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2**62))
        self._make_bots(seed)
        self.aec.reset(seed=seed)
        self._hand_no = -1
        if self.aec.is_family:
            for s, bot in self.bots.items():
                bot.start_game(self.aec.family_view(s))
        self._play_bots()
        return self._answer()[0], self._answer()[4]

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self.aec.terminations[self.agent] or self.aec.truncations[self.agent]:
            raise InteropError("the episode is over: reset() the environment")
        if self.aec.agent_selection != self.agent:  # pragma: no cover - _play_bots's job
            raise RuntimeError("not the agent's turn")
        mask = self.aec.observe(self.agent)["action_mask"]
        slot = int(action)
        if self.illegal == "passive" and not (0 <= slot < mask.size and mask[slot]):
            self.aec._cumulative_rewards[self.agent] = 0.0
            self.aec.apply_move(self._passive(self.seat))
        else:
            self.aec.step(action)
        self._play_bots()
        return self._answer()

    def _answer(self) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        aec = self.aec
        obs = aec.observe(self.agent)
        reward = float(aec._cumulative_rewards[self.agent])
        aec._cumulative_rewards[self.agent] = 0.0
        info = dict(aec.infos[self.agent])
        info["action_mask"] = obs["action_mask"]
        return obs, reward, bool(aec.terminations[self.agent]), \
            bool(aec.truncations[self.agent]), info

    def _play_bots(self) -> None:
        """Let the bots move until the agent is to act or the episode is over."""
        aec = self.aec
        while not (aec.terminations[self.agent] or aec.truncations[self.agent]):
            if not aec.is_family:
                self._hooks()
            seat = aec.hand.to_act
            if seat == self.seat:
                return
            bot = self.bots[seat]
            if aec.is_family:
                aec.apply_move(bot.act(aec.family_view(seat)))
                continue
            try:
                aec.apply_move(bot.act(aec.seat_view(seat)))
            except InteropError:  # a bot's illegal answer: the table's passive move
                aec.apply_move(self._passive(seat))
        if aec.is_family:
            for s, bot in self.bots.items():
                bot.end_game(aec.family_view(s))

    def _passive(self, seat: int) -> Any:
        """The fault guard's move for ``seat``, the seat to act."""
        if self.aec.is_family:
            return self.aec.family_legal()[0]
        view = self.aec.seat_view(seat)
        return passive_action(view.legal, view.hole, down_cards(view))

    def _hooks(self) -> None:
        """The bots' ``start_hand`` at each new hand of the episode."""
        aec = self.aec
        if aec.hand_no != self._hand_no:
            self._hand_no = aec.hand_no
            for s, bot in self.bots.items():
                hook = getattr(bot, "start_hand", None)
                if callable(hook):
                    hook(aec.seat_view(s))

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (maskable learners call this)."""
        return self.aec.observe(self.agent)["action_mask"].astype(bool)

    def render(self) -> Any:
        return self.aec.render()


__all__ = ["SeatEnv"]
