"""A policy trained in the environment, played on the platform as a Python-path bot.

``pokerarena.interop.policy_bot:LinearPolicyBot?path=policy.json`` plays the linear
policy a trainer saved (:func:`save_policy`): the bot encodes its
:class:`~pokerarena.bots.SeatView` exactly as the environment encoded the trainer's
observations (:class:`~pokerarena.interop.encoding.PokerCodec`, from the settings saved
with the weights), scores every action slot ``weights @ observation + bias`` and plays
the best legal one. It needs numpy only, and declares its policy (the chosen move with
probability 1).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from pokerarena.bots.base import BaseBot, Policy, canonical_action
from pokerarena.bots.seat_view import SeatView
from pokerarena.engine.actions import Action
from pokerarena.engine.game import Game
from pokerarena.interop import InteropError
from pokerarena.interop.encoding import PokerCodec

FORMAT = "pokerarena-linear-policy/1"


def codec_from(settings: dict[str, Any]) -> PokerCodec:
    """The codec of saved ``settings`` (``raw_env.codec_settings()``)."""
    opts = dict(settings.get("options") or {})
    if settings.get("betting"):
        opts["betting"] = settings["betting"]
    game = Game(settings["variant"], opts)
    return PokerCodec(game.variant, int(settings["players"]), mode=settings["mode"],
                      fractions=settings["fractions"], history=int(settings["history"]),
                      max_chips=int(settings["max_chips"]))


def save_policy(path: str | Path, settings: dict[str, Any], weights: np.ndarray,
                bias: np.ndarray) -> Path:
    """Write a linear policy (``weights``: actions x observation) with the environment's
    settings, as JSON."""
    codec = codec_from(settings)
    w = np.asarray(weights, dtype=np.float64)
    b = np.asarray(bias, dtype=np.float64)
    if w.shape != (codec.n_actions, codec.size) or b.shape != (codec.n_actions,):
        raise InteropError(f"weights {w.shape} and bias {b.shape} do not fit the "
                           f"environment's {codec.n_actions} actions x {codec.size} values")
    out = Path(path)
    out.write_text(json.dumps({"format": FORMAT, "settings": settings,
                               "weights": w.round(6).tolist(), "bias": b.round(6).tolist()}))
    return out


class LinearPolicyBot(BaseBot):
    """Plays the linear policy saved at ``path`` (see the module docstring)."""

    name = "linear-policy"
    description = "a linear policy trained in the PettingZoo environment"

    def __init__(self, seed: int | None = None, path: str = "") -> None:
        super().__init__(seed)
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, ValueError) as exc:
            raise InteropError(f"policy file {path!r}: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InteropError(f"policy file {path!r} is not a {FORMAT} file")
        self.settings = data["settings"]
        self.codec = codec_from(self.settings)
        self.weights = np.asarray(data["weights"], dtype=np.float32)
        self.bias = np.asarray(data["bias"], dtype=np.float32)

    def choose(self, view: SeatView) -> Action:
        """The best legal slot's move."""
        if view.players != self.codec.n or view.variant != self.settings["variant"]:
            raise InteropError(f"this policy plays {self.settings['variant']} with "
                               f"{self.codec.n} seats, not {view.variant} with {view.players}")
        scores = self.weights @ self.codec.encode(view) + self.bias
        mask = self.codec.mask(view).astype(bool)
        scores[~mask] = -np.inf
        return self.codec.decode(int(np.argmax(scores)), view)

    def act(self, view: SeatView) -> Action:
        return self.choose(view)

    def policy(self, view: SeatView) -> Policy:
        """Deterministic: the chosen move with probability 1."""
        return [(canonical_action(self.choose(view)), 1.0)]


__all__ = ["FORMAT", "LinearPolicyBot", "codec_from", "save_policy"]
