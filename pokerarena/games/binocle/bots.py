"""The built-in binocle bots: ``random`` (any legal move), ``rule`` (stakes unless one
of its cards can no longer be covered or it lags three cards behind the leader) and
``count`` (the exact expectation of staking and of dropping out, from the cards left in
the stock: :func:`.exact.move_values`).

Without the ``drop`` option every stake is compulsory («он должен поставить») and the
three play alike; the decision they differ on is dropping out.
"""

from __future__ import annotations

import random
from typing import Any

from pokerarena.games.binocle.actions import DROP, STAKE, Move
from pokerarena.games.binocle.exact import move_values, stock_counts
from pokerarena.games.binocle.rules import BinocleError, rank_index
from pokerarena.games.binocle.view import BinocleView


class BinocleBot:
    """Base class: a name, a seeded ``random.Random``, no-op hooks."""

    name = "binocle-bot"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def start_game(self, view: BinocleView) -> None:
        """Called when a game starts."""

    def end_game(self, view: BinocleView) -> None:
        """Called when a game is over."""

    def act(self, view: BinocleView) -> Move:  # pragma: no cover - abstract
        raise NotImplementedError


class RandomBot(BinocleBot):
    """Uniform over the legal moves."""

    name = "random"

    def act(self, view: BinocleView) -> Move:
        return self.rng.choice(view.legal)


def _stake(view: BinocleView) -> Move:
    return next(m for m in view.legal if m.kind == STAKE)


def uncovered(view: BinocleView, seat: int) -> list[int]:
    """The ranks of ``seat``'s cards without chips, the turned card's counted as covered
    when ``seat`` is the one staking on it."""
    turned = rank_index(view.turned[-1]) if view.turned and seat == view.to_act else -1
    return [rank_index(c) for c, cov in zip(view.hands[seat], view.covered[seat], strict=True)
            if not cov and rank_index(c) != turned]


class RuleBot(BinocleBot):
    """Stakes, but drops out (where allowed) once a card of its own can never be covered
    (every card of that rank is in the hands or turned) or when it has three more cards
    to cover than the best other player still in."""

    name = "rule"

    def act(self, view: BinocleView) -> Move:
        if Move(DROP) not in view.legal:
            return _stake(view)
        left = stock_counts(view.hands, view.turned)
        mine = uncovered(view, view.seat)
        if any(left[r] == 0 for r in mine):
            return Move(DROP)
        others = [len(uncovered(view, s)) for s in view.order if s != view.seat
                  and view.active[s]]
        if others and len(mine) >= min(others) + 3:
            return Move(DROP)
        return _stake(view)


class CountBot(BinocleBot):
    """Stakes when staking's exact expectation is at least dropping out's."""

    name = "count"

    def act(self, view: BinocleView) -> Move:
        if Move(DROP) not in view.legal:
            return _stake(view)
        stake, drop = move_values(view)
        return _stake(view) if stake >= drop else Move(DROP)


BOTS: dict[str, type[BinocleBot]] = {c.name: c for c in (RandomBot, RuleBot, CountBot)}


def new_bot(name: str, seed: int | None = None) -> Any:
    """The built-in bot ``name``, or one clear error."""
    cls = BOTS.get(name)
    if cls is None:
        raise BinocleError(f"binocle: unknown bot {name!r}; built-in: {', '.join(BOTS)}")
    return cls(seed)
