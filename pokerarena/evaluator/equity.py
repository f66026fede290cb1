"""Exact and Monte-Carlo equity of several hands, for hold'em, short deck and Omaha.

Every player's share of each board is counted exactly: a board's pot is worth ``D``
units, where ``D`` is divisible by every possible number of winners (``lcm(1..P)``, twice
that for high-low games), so shares add up as integers and the equity of an exact run
is a ratio of integers. A player *wins* a board when it takes the whole pot alone,
*ties* when it takes part of it, and *loses* when it takes nothing; in a high-low game
a scoop is a win and any split, high or low, is a tie.

High hands go through ``evaluate_batch`` / ``evaluate_omaha_batch`` in chunks. The
eight-or-better Omaha low has its own small numba kernel (the best qualifying low is
a bit-mask minimum), which the tests check against ``evaluate_omaha`` with the
``a5_low`` ranking and ``qualifies_low``; the general low kernels are ~100x slower.

Exact runs enumerate every completion of the board from the cards nobody holds;
Monte-Carlo runs draw completions from a seeded ``numpy.random.Generator`` and report
the standard error of each equity.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

import numba
import numpy as np

from pokerarena import cards as _cards
from pokerarena.evaluator import (
    evaluate_batch,
    evaluate_omaha_batch,
    qualifies_low_batch,
    ranking,
)

__all__ = [
    "GAMES",
    "EquityError",
    "EquityResult",
    "Game",
    "PlayerEquity",
    "equity",
    "exact_equity",
    "monte_carlo_equity",
    "parse_hands",
    "sample_without_replacement",
]

BOARD_CARDS = 5
CHUNK = 1 << 16            # boards evaluated at once (memory stays a few MB per player)
EXACT_LIMIT = 40_000_000   # default: enumerate when boards * players * weight is below this
DEFAULT_SAMPLES = 200_000  # Monte-Carlo samples when enumeration is not feasible


class EquityError(ValueError):
    """Hands, board or options that no equity can be computed for."""


@dataclass(frozen=True)
class Game:
    """A community-card game: hole cards, deck, ranking, and how hands are formed."""

    name: str
    hole: int
    deck: str = "standard"
    ranking: str = "high"
    omaha: bool = False      # exactly two hole cards with exactly three board cards
    hilo: bool = False       # half the pot to the best eight-or-better low

    @property
    def weight(self) -> float:
        """Relative cost of one player's showdown on one board (hold'em = 1)."""
        w = math.comb(self.hole, 2) / 2 if self.omaha else 1.0
        return 2 * w if self.hilo else w


GAMES: dict[str, Game] = {
    g.name: g
    for g in (
        Game("holdem", 2),
        Game("short_deck", 2, deck="short", ranking="short_deck"),
        Game("omaha", 4, omaha=True),
        Game("omaha5", 5, omaha=True),
        Game("omaha6", 6, omaha=True),
        Game("omaha_hilo", 4, omaha=True, hilo=True),
        Game("omaha5_hilo", 5, omaha=True, hilo=True),
    )
}


@dataclass(frozen=True)
class PlayerEquity:
    """One player's result: boards won alone, shared, lost, and the equity."""

    hand: str
    win: int
    tie: int
    lose: int
    equity: float
    stderr: float | None = None

    def to_dict(self) -> dict:
        """JSON-ready form (``stderr`` only for Monte-Carlo runs)."""
        out: dict = {"hand": self.hand, "win": self.win, "tie": self.tie,
                     "lose": self.lose, "equity": self.equity}
        if self.stderr is not None:
            out["stderr"] = self.stderr
        return out


@dataclass(frozen=True)
class EquityResult:
    """The outcome of an equity run over ``boards`` boards (enumerated or sampled)."""

    game: str
    board: str
    boards: int
    exact: bool
    players: tuple[PlayerEquity, ...]
    samples: int | None = None
    seed: int | None = None
    shares: tuple[int, ...] = field(default=(), repr=False)  # exact numerators
    unit: int = 1                                           # pot units per board

    def to_dict(self) -> dict:
        """JSON-ready form: ``{"boards": N, "players": [...]}`` plus run details."""
        out: dict = {"game": self.game, "board": self.board, "exact": self.exact,
                     "boards": self.boards}
        if not self.exact:
            out["samples"] = self.samples
            out["seed"] = self.seed
        out["players"] = [p.to_dict() for p in self.players]
        return out


# Input -----------------------------------------------------------------------


def _game(name: str | Game) -> Game:
    if isinstance(name, Game):
        return name
    try:
        return GAMES[name]
    except KeyError:
        raise EquityError(
            f"unknown game {name!r}; choose one of {', '.join(GAMES)}") from None


def _codes(item: str | Sequence[int], what: str) -> list[int]:
    try:
        if isinstance(item, str):
            return _cards.parse_cards(item, allow_duplicates=True)
        return [int(c) for c in item]
    except _cards.CardError as exc:
        raise EquityError(f"{what}: {exc}") from None


def parse_hands(
    hands: Sequence[str | Sequence[int]],
    board: str | Sequence[int] = (),
    game: str | Game = "holdem",
) -> tuple[np.ndarray, np.ndarray]:
    """Check hands and board for ``game``; return ``uint8[P, hole]`` and ``uint8[b]``.

    Raises ``EquityError`` with one clear message for fewer than two hands, a hand of
    the wrong size, a board of more than five cards, an unknown card, a card outside
    the game's deck, a card held twice, or more players than the deck can deal.
    """
    g = _game(game)
    if len(hands) < 2:
        raise EquityError(f"equity needs at least 2 hands, got {len(hands)}")
    holes = []
    for i, h in enumerate(hands, 1):
        codes = _codes(h, f"hand {i}")
        if len(codes) != g.hole:
            shown = h if isinstance(h, str) else _cards.cards_str(codes)
            raise EquityError(
                f"hand {i} ({shown}) has {len(codes)} cards; {g.name} needs {g.hole} hole cards")
        holes.append(codes)
    b = _codes(board, "board") if board else []
    if len(b) > BOARD_CARDS:
        raise EquityError(f"the board has {len(b)} cards; at most {BOARD_CARDS}")
    legal = set(int(c) for c in _cards.deck(g.deck))
    seen: set[int] = set()
    for c in [c for h in holes for c in h] + b:
        if c not in legal:
            raise EquityError(f"card {_cards.card_str(c)} is not in the {g.deck} deck of {g.name}")
        if c in seen:
            raise EquityError(f"card {_cards.card_str(c)} is dealt twice")
        seen.add(c)
    if len(legal) - len(seen) < BOARD_CARDS - len(b):
        raise EquityError(f"{len(hands)} hands leave too few cards to complete the board")
    return np.array(holes, dtype=np.uint8), np.array(b, dtype=np.uint8)


# Board generation ------------------------------------------------------------


@numba.njit(cache=True)
def _fill_combinations(n: int, k: int, out: np.ndarray) -> None:  # pragma: no cover - jit
    """Write every k-subset of range(n), in lexicographic order, as rows of ``out``."""
    idx = np.arange(k)
    row = 0
    while True:
        for j in range(k):
            out[row, j] = idx[j]
        row += 1
        i = k - 1
        while i >= 0 and idx[i] == n - k + i:
            i -= 1
        if i < 0:
            return
        idx[i] += 1
        for j in range(i + 1, k):
            idx[j] = idx[j - 1] + 1


@lru_cache(maxsize=8)
def _combinations(n: int, k: int) -> np.ndarray:
    out = np.empty((math.comb(n, k), k), dtype=np.uint8)
    if k > 0:
        _fill_combinations(n, k, out)
    out.setflags(write=False)
    return out


def sample_without_replacement(
    rng: np.random.Generator, n: int, k: int, size: int
) -> np.ndarray:
    """``size`` rows of ``k`` distinct indices below ``n`` (partial Fisher-Yates)."""
    perm = np.tile(np.arange(n, dtype=np.uint8 if n <= 256 else np.int64), (size, 1))
    rows = np.arange(size)
    for j in range(k):
        r = j + rng.integers(0, n - j, size=size)
        a = perm[:, j].copy()
        perm[:, j] = perm[rows, r]
        perm[rows, r] = a
    return perm[:, :k]


# Showdowns -------------------------------------------------------------------


@cache
def _ranking(g: Game):
    return ranking(g.ranking, deck=g.deck)


_LOW8 = ranking("a5_low")


def _omaha_low8(hole: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """``int32[M]`` eight-or-better low values (higher wins, -1 = no qualifying low)."""
    holes = np.ascontiguousarray(np.broadcast_to(hole, (boards.shape[0], hole.shape[0])))
    values = np.asarray(evaluate_omaha_batch(holes, np.ascontiguousarray(boards), _LOW8))
    return np.where(qualifies_low_batch(values, _LOW8, 8), values, -1).astype(np.int32)


def _values(g: Game, hole: np.ndarray, boards: np.ndarray, rk) -> np.ndarray:
    """Strengths (``int32[M]``) of one player's hole cards on each board row."""
    m = boards.shape[0]
    if g.omaha:
        holes = np.broadcast_to(hole, (m, hole.shape[0]))
        return np.asarray(evaluate_omaha_batch(np.ascontiguousarray(holes), boards, rk))
    hands = np.empty((m, hole.shape[0] + boards.shape[1]), dtype=np.uint8)
    hands[:, :hole.shape[0]] = hole
    hands[:, hole.shape[0]:] = boards
    return np.asarray(evaluate_batch(hands, rk))


def _split(values: np.ndarray, unit: int, eligible: np.ndarray | None = None) -> np.ndarray:
    """Shares (``int64[P, M]``, in pot units) of a pot of ``unit`` split among the best."""
    if eligible is not None:
        values = np.where(eligible, values, np.iinfo(np.int32).min)
    best = values.max(axis=0)
    winners = values == best
    if eligible is not None:
        winners &= eligible
    n = winners.sum(axis=0)
    per = np.where(n > 0, unit // np.maximum(n, 1), 0)
    return np.where(winners, per, 0).astype(np.int64)


def _shares(g: Game, holes: np.ndarray, boards: np.ndarray, unit: int) -> np.ndarray:
    """Each player's share (``int64[P, M]``, pot = ``unit``) of each board."""
    high = np.stack([_values(g, h, boards, _ranking(g)) for h in holes])
    if not g.hilo:
        return _split(high, unit)
    low = np.stack([_omaha_low8(h, boards) for h in holes])
    qualified = low >= 0
    any_low = qualified.any(axis=0)
    half = _split(high, unit // 2) + _split(low, unit // 2, qualified)
    return np.where(any_low, half, _split(high, unit))


@dataclass
class _Tally:
    players: int
    unit: int
    boards: int = 0
    win: np.ndarray = field(init=False)
    tie: np.ndarray = field(init=False)
    s1: np.ndarray = field(init=False)
    s2: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        z = np.zeros(self.players, dtype=np.int64)
        self.win, self.tie, self.s1, self.s2 = z.copy(), z.copy(), z.copy(), z.copy()

    def add(self, shares: np.ndarray) -> None:
        self.boards += shares.shape[1]
        self.win += (shares == self.unit).sum(axis=1)
        self.tie += ((shares > 0) & (shares < self.unit)).sum(axis=1)
        self.s1 += shares.sum(axis=1)
        self.s2 += (shares * shares).sum(axis=1)


def _unit(g: Game, players: int) -> int:
    unit = math.lcm(*range(1, players + 1))
    return 2 * unit if g.hilo else unit


def _result(g: Game, holes: np.ndarray, board: np.ndarray, t: _Tally, *, exact: bool,
            seed: int | None = None) -> EquityResult:
    players = []
    for p in range(t.players):
        mean = t.s1[p] / (t.unit * t.boards)
        stderr = None
        if not exact:
            ex2 = t.s2[p] / (t.unit * t.unit * t.boards)
            var = max(ex2 - mean * mean, 0.0) * t.boards / (t.boards - 1)
            stderr = math.sqrt(var / t.boards)
        win, tie = int(t.win[p]), int(t.tie[p])
        players.append(PlayerEquity(_cards.cards_str(holes[p]), win, tie,
                                    t.boards - win - tie, float(mean), stderr))
    return EquityResult(
        game=g.name, board=_cards.cards_str(board), boards=t.boards, exact=exact,
        players=tuple(players), samples=None if exact else t.boards,
        seed=None if exact else seed, shares=tuple(int(s) for s in t.s1), unit=t.unit)


def _remaining(g: Game, holes: np.ndarray, board: np.ndarray) -> np.ndarray:
    used = np.zeros(_cards.NUM_CODES, dtype=bool)
    used[holes.ravel()] = True
    used[board] = True
    d = _cards.deck(g.deck)
    return d[~used[d]]


def exact_equity(
    hands: Sequence[str | Sequence[int]],
    board: str | Sequence[int] = (),
    game: str | Game = "holdem",
) -> EquityResult:
    """Equity over every completion of the board from the cards nobody holds."""
    g = _game(game)
    holes, b = parse_hands(hands, board, g)
    rest = _remaining(g, holes, b)
    k = BOARD_CARDS - b.size
    combos = _combinations(rest.size, k)
    tally = _Tally(holes.shape[0], _unit(g, holes.shape[0]))
    for start in range(0, combos.shape[0], CHUNK):
        part = combos[start:start + CHUNK]
        boards = np.empty((part.shape[0], BOARD_CARDS), dtype=np.uint8)
        boards[:, :b.size] = b
        boards[:, b.size:] = rest[part]
        tally.add(_shares(g, holes, boards, tally.unit))
    return _result(g, holes, b, tally, exact=True)


def monte_carlo_equity(
    hands: Sequence[str | Sequence[int]],
    board: str | Sequence[int] = (),
    game: str | Game = "holdem",
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int | np.random.Generator | None = None,
) -> EquityResult:
    """Equity over ``samples`` random completions of the board, with standard errors.

    ``seed`` is an int (reported back), a ``Generator``, or ``None`` for fresh entropy
    (the entropy drawn is reported as the seed, so the run can be repeated).
    """
    g = _game(game)
    holes, b = parse_hands(hands, board, g)
    if samples < 2:
        raise EquityError(f"the number of samples must be at least 2, got {samples}")
    if isinstance(seed, np.random.Generator):
        rng, used_seed = seed, None
    else:
        if seed is None:
            entropy: Any = np.random.SeedSequence().entropy  # an int when drawn afresh
            seed = int(entropy) % (1 << 63)
        elif seed < 0:
            raise EquityError(f"the seed must be a non-negative integer, got {seed}")
        rng, used_seed = np.random.default_rng(seed), int(seed)
    rest = _remaining(g, holes, b)
    k = BOARD_CARDS - b.size
    tally = _Tally(holes.shape[0], _unit(g, holes.shape[0]))
    done = 0
    while done < samples:
        m = min(CHUNK, samples - done)
        boards = np.empty((m, BOARD_CARDS), dtype=np.uint8)
        boards[:, :b.size] = b
        boards[:, b.size:] = rest[sample_without_replacement(rng, rest.size, k, m)]
        tally.add(_shares(g, holes, boards, tally.unit))
        done += m
    return _result(g, holes, b, tally, exact=False, seed=used_seed)


def exact_cost(players: int, board_cards: int, game: str | Game = "holdem") -> float:
    """Work of an exact run in hold'em-showdown units (boards x players x weight)."""
    g = _game(game)
    left = _cards.deck(g.deck).size - players * g.hole - board_cards
    return math.comb(left, BOARD_CARDS - board_cards) * players * g.weight


def equity(
    hands: Sequence[str | Sequence[int]],
    board: str | Sequence[int] = (),
    game: str | Game = "holdem",
    *,
    exact: bool | None = None,
    samples: int | None = None,
    seed: int | np.random.Generator | None = None,
) -> EquityResult:
    """Equity of ``hands`` on ``board`` in ``game``.

    ``exact=True`` enumerates, ``samples=N`` samples; by default the run is exact when
    its cost is at most ``EXACT_LIMIT`` and Monte Carlo with ``DEFAULT_SAMPLES`` otherwise.
    """
    if exact and samples is not None:
        raise EquityError("choose either exact enumeration or a number of samples, not both")
    if samples is not None:
        return monte_carlo_equity(hands, board, game, samples=samples, seed=seed)
    if exact is None:
        g = _game(game)
        holes, b = parse_hands(hands, board, g)
        exact = exact_cost(holes.shape[0], b.size, g) <= EXACT_LIMIT
    if exact:
        return exact_equity(hands, board, game)
    return monte_carlo_equity(hands, board, game, samples=DEFAULT_SAMPLES, seed=seed)
