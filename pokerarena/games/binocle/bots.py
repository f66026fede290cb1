"""The built-in binocle bots: ``random`` (any legal move), ``rule`` (stakes unless one
of its cards can no longer be covered or it lags three cards behind the leader) and
``count`` (the exact expectation of staking and of dropping out, from the cards left in
the stock: :func:`.exact.move_values`).

Without the ``drop`` option every stake is compulsory («он должен поставить») and the
three play alike; the decision they differ on is dropping out.
"""

from __future__ import annotations

from typing import Any

from pokerarena.games.binocle.actions import DROP, STAKE, Move
from pokerarena.games.binocle.exact import move_values, stock_counts
from pokerarena.games.binocle.rules import BinocleError, rank_index
from pokerarena.games.binocle.view import BinocleView
from pokerarena.games.family_bot import FamilyBot, UniformBot, bot_table, make_family_bot


class BinocleBot(FamilyBot[BinocleView, Move]):
    """A binocle bot: the shared base (:class:`~pokerarena.games.family_bot.FamilyBot`)
    typed for this family, its messages and its error class."""

    family, error = "binocle", BinocleError


class RandomBot(UniformBot[BinocleView, Move], BinocleBot):
    """Uniform over the legal moves."""


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


BOTS: dict[str, type[BinocleBot]] = bot_table(RandomBot, RuleBot, CountBot)


def make_bot(name: str, seed: int | None = None, **options: Any) -> BinocleBot:
    """The built-in bot ``name`` (one of :data:`BOTS`); an unknown one is a
    :class:`BinocleError`."""
    return make_family_bot("binocle", BOTS, BinocleError, name, seed, **options)

