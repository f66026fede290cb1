"""Playing whole games of any family between its built-in bots, and the duplicate test.

The small loop that ``pokerarena play``, the families' tests and their comparisons use
(the platform's runs add the fault guard, timing and rows on top). A family's bot has
``start_game(view)``, ``act(view) -> action`` and ``end_game(view)``; its game has
``new_hand(seed, seats, dealer)``.

:func:`duplicate` plays every seed (the same first dealer and the same cards) once in
each of :func:`seatings`: every rotation of the two bots alternating round the table,
so each seat is played by ``a`` as often as every other seat is (at an odd table too,
where the pattern ``a b a`` has three rotations, not two). It reports the per-seed
difference of their mean points per game with a 95% interval, see :class:`Comparison`:
Student's t over the seeds, and, when every seed gave the same difference, the interval
the family's score bounds allow (never a zero width).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pokerarena.errors import UserError
from pokerarena.games import Family

# two-sided 97.5% quantiles of Student's t for small samples (df -> t), else the normal's
_T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
         9: 2.262, 10: 2.228, 15: 2.131, 20: 2.086, 30: 2.042, 60: 2.000, 120: 1.980}

ALPHA = 0.05
"""The comparison's intervals are 95%."""

_SAME = 1e-9
"""Per-seed differences closer than this (relative to their size) count as one value:
a difference of exactly 0 summed over rotations may come out as 1e-17."""


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (the tabulated one
    at or below ``df``, a little wider than exact; 1.96 from 1,000 on)."""
    if df >= 1000:
        return 1.96
    return _T975[max(k for k in _T975 if k <= max(df, 1))]


def play_game(game: Any, bots: Sequence[Any], seed: int | None,
              dealer: int | None = None, **deal: Any) -> Any:
    """One whole game, seat ``i`` played by ``bots[i]``; the finished hand. ``deal``:
    what else the family's ``new_hand`` takes (durak's ``series_game``)."""
    hand = game.new_hand(seed, len(bots), dealer, **deal)
    for s, b in enumerate(bots):
        b.start_game(hand.observation(s))
    while not hand.is_over:
        s = hand.to_act
        hand.apply(bots[s].act(hand.observation(s)), s)
    for s, b in enumerate(bots):
        b.end_game(hand.observation(s))
    return hand


def _bots(fam: Family, names: Sequence[str], seed: int) -> list[Any]:
    if fam.new_bot is None:
        raise ValueError(f"{fam.id}: the family has no built-in bots")
    return [fam.new_bot(name, seed * 31 + i) for i, name in enumerate(names)]


def play_games(fam: Family, options: dict[str, Any] | None, bots: Sequence[str],
               games: int, seed: int = 0) -> list[tuple[float, ...]]:
    """``games`` whole games of the named built-in bots (seat ``i``: ``bots[i]``), game
    ``g`` from seed ``seed + g`` with the first dealer turning round the table; each
    game's points per seat (``result().deltas``). A family with its own loop
    (``Family.play``: durak's series, painted poker's seeding) plays that instead."""
    if fam.play is not None:
        return fam.play(options, list(bots), games, seed)
    game = fam.make(options)
    return [tuple(play_game(game, _bots(fam, bots, seed + g), seed + g,
                            g % len(bots)).result().deltas) for g in range(games)]


def bounded_interval(value: float, n: int, span: tuple[float, float],
                     alpha: float = ALPHA) -> tuple[float, float]:
    """The ``1 - alpha`` interval of the mean of a variable within ``span`` when all
    ``n`` draws gave ``value``: no spread to scale by, only the bounds. A mean ``mu``
    above ``value`` leaves ``value`` at most the chance ``1 - (mu - value) / (hi -
    value)`` a draw (the rest of the mass at ``hi``), so ``n`` equal draws have chance
    ``(alpha / 2)`` or less once ``mu`` passes ``value + (hi - value) * q``, ``q = 1 -
    (alpha / 2) ** (1 / n)``; the same below. Clopper-Pearson's interval for ``n`` of
    ``n`` when ``value`` is a bound, and valid for any bounded variable."""
    lo, hi = span
    c = min(max(value, lo), hi)
    q = 1.0 - (alpha / 2) ** (1.0 / n)
    return c - (c - lo) * q, c + (hi - c) * q


@dataclass(frozen=True)
class Comparison:
    """``a`` against ``b``: per seed, the mean points per game of ``a``'s seats minus
    ``b``'s over the seatings; the mean and its 95% interval.

    ``span`` is the range one seed's difference can take (from the game's
    ``score_range``), or None where the family declares no bound. The interval is
    Student's t over the seeds (clipped to ``span``); when every seed gave the same
    difference the spread says nothing about the next seed, so it is
    :func:`bounded_interval` (unbounded where ``span`` is None) — never a zero width."""

    a: str
    b: str
    diffs: tuple[float, ...]
    span: tuple[float, float] | None = None

    @property
    def mean(self) -> float:
        return sum(self.diffs) / len(self.diffs) if self.diffs else math.nan

    @property
    def degenerate(self) -> bool:
        """Every seed gave the same difference (or there is at most one seed)."""
        if len(self.diffs) < 2:
            return True
        lo, hi = min(self.diffs), max(self.diffs)
        return hi - lo <= _SAME * max(1.0, abs(lo), abs(hi))

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of the mean difference (see the class docstring)."""
        n = len(self.diffs)
        if self.degenerate:
            if self.span is None or n == 0:
                return -math.inf, math.inf
            return bounded_interval(self.mean, n, self.span)
        m = self.mean
        sd = math.sqrt(sum((d - m) ** 2 for d in self.diffs) / (n - 1))
        half = t975(n - 1) * sd / math.sqrt(n)
        lo, hi = self.span if self.span is not None else (-math.inf, math.inf)
        return max(m - half, lo), min(m + half, hi)

    @property
    def ci95(self) -> float:
        """The interval's half-width, its farther end from the mean (the interval may be
        lopsided where it meets a bound)."""
        lo, hi = self.interval
        return max(self.mean - lo, hi - self.mean)

    @property
    def significant(self) -> bool:
        """The interval excludes 0."""
        lo, hi = self.interval
        return lo > 0 or hi < 0

    def as_text(self, unit: str = "points per game", blocks: str = "seeds") -> str:
        lo, hi = self.interval
        head = f"{self.a} - {self.b}: {self.mean:+.2f}"
        note = ""
        if self.degenerate:
            note = (", every one the same: the interval the score bounds allow" if self.span
                    else ", every one the same and no score bound: no interval")
        if math.isclose(self.mean - lo, hi - self.mean, rel_tol=1e-6, abs_tol=1e-12):
            return f"{head} ± {self.ci95:.2f} {unit} (95%, {len(self.diffs)} {blocks}{note})"
        return (f"{head} {unit} (95% interval [{lo:+.2f}, {hi:+.2f}], "
                f"{len(self.diffs)} {blocks}{note})")


def seatings(a: str, b: str, players: int) -> list[list[str]]:
    """Every distinct rotation of the two bots alternating round the table: ``a b a b``
    and ``b a b a`` at an even table, all ``players`` rotations of ``a b a`` … at an odd
    one. Over them each seat is ``a``'s in the same share of the seatings, so no seat's
    advantage leans the comparison (two seatings at an odd table gave ``a`` the last
    seat in both)."""
    if players < 2:
        raise UserError(f"a duplicate comparison needs at least 2 seats, not {players}")
    first = [a if i % 2 == 0 else b for i in range(players)]
    out: list[list[str]] = []
    for k in range(players):
        turned = first[k:] + first[:k]
        if turned in out:
            break
        out.append(turned)
    return out


def seed_diffs(play: Callable[[list[str], int], Sequence[float]], a: str, b: str, *,
               players: int, games: int, seed: int = 0) -> tuple[float, ...]:
    """Per seed ``seed * 1_000_003 + g`` (``g < games``): ``play(names, s)`` (each seat's
    points, seat ``i`` played by ``names[i]``) in every one of :func:`seatings`, and the
    mean over them of ``a``'s seats' mean points minus ``b``'s. The loop every family's
    duplicate comparison shares."""
    if a == b:
        raise UserError(f"a duplicate comparison needs two bot names, not {a!r} twice "
                        f"(register the same bot under a second name to compare it "
                        f"with itself)")
    if games < 1:
        raise UserError(f"a duplicate comparison needs at least one seed, not {games}")
    layouts = seatings(a, b, players)
    diffs = []
    for g in range(games):
        s = seed * 1_000_003 + g
        d = 0.0
        for names in layouts:
            pts = play(names, s)
            mine = [x for x, nm in zip(pts, names, strict=True) if nm == a]
            theirs = [x for x, nm in zip(pts, names, strict=True) if nm == b]
            d += sum(mine) / len(mine) - sum(theirs) / len(theirs)
        diffs.append(d / len(layouts))
    return tuple(diffs)


def diff_span(score_range: tuple[float, float] | None) -> tuple[float, float] | None:
    """The range of one seed's difference when each seat's points lie in
    ``score_range``: a mean of ``a``'s seats minus a mean of ``b``'s."""
    if score_range is None:
        return None
    lo, hi = score_range
    return lo - hi, hi - lo


def duplicate(fam: Family, a: str, b: str, *, players: int, games: int, seed: int = 0,
              options: dict[str, Any] | None = None) -> Comparison:
    """Bot ``a`` against bot ``b`` on ``games`` seeds (see the module docstring), the
    first dealer seat 0."""
    low, high = fam.players
    if not low <= players <= high:
        raise UserError(f"{fam.id}: {players} players; the family seats {low} to {high}")
    game = fam.make(options)

    def play(names: list[str], s: int) -> Sequence[float]:
        return play_game(game, _bots(fam, names, s), s, 0).result().deltas

    diffs = seed_diffs(play, a, b, players=players, games=games, seed=seed)
    return Comparison(a, b, diffs, diff_span(game.score_range(players)))


__all__ = ["ALPHA", "Comparison", "bounded_interval", "diff_span", "duplicate", "play_game",
           "play_games", "seatings", "seed_diffs", "t975"]
