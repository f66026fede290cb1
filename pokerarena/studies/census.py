"""Exact hand-category tables of a rule set, and where its ranking disagrees with them.

``rule_census("stud7", {"wild": "deuces"})`` counts the hands a player of that variant
ends up with (the cards dealt to him and the board, combined by the variant's rule),
under its deck, wild cards and ranking: exactly, by the evaluator's census, wherever
every hand can be enumerated (``combine = "any"``, up to :data:`EXACT_LIMIT` hands);
otherwise by a seeded sample, labelled ``sampled``, with a 95% Wilson interval per
category. Then the *paradox flags*: the source says the order of hands "is based on the
corresponding mathematical probabilities" (000_… «Данный порядок основан на
соответствующих математических вероятностях»), so every pair of categories where the
higher one is the more common is listed, with the order probability would give.

Draws are not played: a draw game's table is of the hands dealt. Everything returned is
a plain dataclass with ``to_dict()``, for reports and JSON.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from math import comb
from typing import Any

import numpy as np

from pokerarena.cards import DECK_NAMES, JOKER_2, RANKS, CardError, deck
from pokerarena.engine import Game
from pokerarena.engine.program import Program, compile_program
from pokerarena.engine.scoring import Scorer, positional_wilds
from pokerarena.errors import UserError
from pokerarena.evaluator import category, evaluate_batch, evaluate_omaha_batch
from pokerarena.evaluator import ranking as make_ranking
from pokerarena.evaluator.census import census
from pokerarena.evaluator.rankings import (
    CATEGORY_NAMES,
    KIND_A5,
    KIND_HIGH,
    LOW_BADNESS,
    LOW_NAMES,
    Ranking,
)
from pokerarena.rules import DealStreet, DrawStreet, ExposeStreet, KnockStreet, Showdown, Variant
from pokerarena.rules.model import POSITIONAL_WILDS
from pokerarena.studies.metrics import wilson as share_interval

__all__ = ["EXACT_LIMIT", "CategoryRow", "CensusError", "CensusTable", "Inversion",
           "RuleCensus", "rule_census"]

EXACT_LIMIT = 200_000_000
"""Most hands an exact census enumerates (the 7-card census of 52 + 2 jokers is 177M)."""
BATCH_SAMPLES = 1_000_000
"""Default sample for the batch kernels (Omaha, more than 9 cards, too many hands)."""
HAND_SAMPLES = 200_000
"""Default sample for the hand-by-hand path (positional wilds, crisscross, one board)."""
CHUNK = 100_000


class CensusError(UserError):
    """A census that cannot be made as asked (bad deck, method or sample size)."""


@dataclass(frozen=True)
class CategoryRow:
    """One hand category: its place in the ranking (1 = best), hands and frequency.
    ``count`` is exact for an exact table; sampled tables give the hands seen."""

    name: str
    rank: int
    count: int
    frequency: float
    low: float
    high: float


@dataclass(frozen=True)
class Inversion:
    """``higher`` ranks above ``lower`` yet is more common. ``certain``: exact, or the
    two sampled intervals do not overlap."""

    higher: str
    lower: str
    higher_frequency: float
    lower_frequency: float
    certain: bool


@dataclass(frozen=True)
class CensusTable:
    """The category table of one half (high or low) of a rule set's showdown."""

    half: str
    ranking: str
    deck: str
    deck_size: int
    wild: str
    wild_rule: str
    hand: str
    method: str
    hands: int
    seconds: float
    rows: tuple[CategoryRow, ...]
    inversions: tuple[Inversion, ...]
    probability_order: tuple[str, ...]
    notes: tuple[str, ...] = ()
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class RuleCensus:
    """Every half's table for one variant played with some options."""

    variant: str
    options: dict[str, Any]
    tables: tuple[CensusTable, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        return {"variant": self.variant, "options": dict(self.options),
                "tables": [t.to_dict() for t in self.tables]}

    def records(self) -> list[dict[str, Any]]:
        """One flat row per half and category (a report's table or Parquet file);
        ``flagged``: the category is in an inversion with a worse-ranked, rarer one."""
        out = []
        for t in self.tables:
            above = {i.higher for i in t.inversions}
            for r in t.rows:
                out.append({"variant": self.variant, "half": t.half, "method": t.method,
                            "hands": t.hands, "category": r.name, "rank": r.rank,
                            "count": r.count, "frequency": r.frequency, "low": r.low,
                            "high": r.high, "flagged": r.name in above})
        return out


# What a player holds at the showdown -------------------------------------------------
@dataclass(frozen=True)
class _Shape:
    """The cards of one player's final hand: his cards (``up`` flag each) and the
    board's, how they combine, and whether draws or choices change them later."""

    up: tuple[bool, ...]
    board: int
    combine: str
    draws: bool
    exposes: bool

    @property
    def hole(self) -> int:
        return len(self.up)

    def text(self) -> str:
        h, b = self.hole, self.board
        if self.combine == "omaha":
            return f"exactly 2 of {h} hole cards + 3 of {b} board cards"
        if self.combine == "crisscross":
            return f"{h} hole cards + one line of 3 of the {b}-card cross"
        if self.combine == "one_board":
            return f"{h} hole cards + one of {b} board cards"
        dealt = f"{h} dealt" + (f" + {b} board" if b else "")
        text = f"best 5 of {h + b} ({dealt})" if h + b > 5 else f"{h + b} cards ({dealt})"
        return text + (", before any draw" if self.draws else "")


def _shape(variant: Variant, showdown: Showdown) -> _Shape:
    up: list[bool] = []
    board = 0
    for s in variant.streets:
        if isinstance(s, DealStreet):
            up += [False] * s.down + [True] * s.up
            board += s.board
    draws = any(isinstance(s, (DrawStreet, KnockStreet)) for s in variant.streets)
    # Cards a player turns up (Mexican stud): his choice; taken here as the first dealt.
    shown = sum(s.count for s in variant.streets if isinstance(s, ExposeStreet))
    up = [u or i < shown for i, u in enumerate(up)]
    return _Shape(tuple(up), board, showdown.combine, draws, shown > 0)


def _program(variant: str | Variant | Game | Program,
             options: dict[str, Any] | None) -> tuple[Program, str | None]:
    """The compiled program and the census-only ``deck`` option (not an engine option)."""
    opts = dict(options or {})
    deck_name = opts.pop("deck", None)
    if deck_name is not None and deck_name not in DECK_NAMES:
        raise CensusError(f"unknown deck {deck_name!r}; choose one of {', '.join(DECK_NAMES)}")
    if isinstance(variant, Game):
        variant = variant.program
    if isinstance(variant, Program):
        if opts:
            raise CensusError("options go with a variant id, not with a compiled game")
        return variant, deck_name
    return compile_program(variant, opts), deck_name


def _ranking(showdown: Showdown, half: str, deck_name: str,
             wild: tuple[int, ...] | None = None) -> Ranking:
    """The evaluator ranking of one half (``wild``: explicit codes, for positional wilds)."""
    name = showdown.high if half == "high" else showdown.low
    assert name is not None
    kwargs: dict[str, Any] = {
        "wild_rule": showdown.wild_rule, "five_of_a_kind": showdown.five_of_a_kind,
        "double_ace_flush": showdown.double_ace_flush,
        "fewer_wilds_win": showdown.fewer_wilds_win,
        "trips_beat_straight": showdown.trips_beat_straight}
    if name not in LOW_NAMES:
        kwargs.update(four_flush=showdown.four_flush, blaze=showdown.blaze)
    if wild is not None:
        kwargs["wild"] = wild
    elif showdown.wild not in POSITIONAL_WILDS:
        kwargs["wild"] = showdown.wild
    try:
        return make_ranking(name, deck=deck_name, **kwargs)
    except CardError as exc:
        raise CensusError(str(exc)) from None


def _low_key(rk: Ranking, name: str) -> tuple[int, int]:
    """Sort key of a low category, best first: unpaired lows by top card (``7-high``),
    badugi by card count (``4-card``), then the bad categories, worst last."""
    if name.endswith("-high"):
        return 0, RANKS.index(name[0])
    if name.endswith("-card"):
        return 0, -int(name[0])
    if name in CATEGORY_NAMES and rk.kind in LOW_BADNESS:
        return 1, LOW_BADNESS[rk.kind].index(CATEGORY_NAMES.index(name))
    return 2, 0


def _names(rk: Ranking, counts: dict[str, int]) -> list[str]:
    """Category names best first: the ranking's order (high) or the low order."""
    if rk.kind == KIND_HIGH:
        return [CATEGORY_NAMES[c] for c in reversed(rk.order)]
    return sorted(counts, key=lambda name: _low_key(rk, name))


# Counting ------------------------------------------------------------------------------
def _exact(rk: Ranking, deck_name: str, n: int) -> dict[str, int]:
    try:
        return dict(census(n, deck_name, rk)["counts"])
    except CardError as exc:
        raise CensusError(str(exc)) from None


def _deals(cards: np.ndarray, m: int, need: int, rng: np.random.Generator) -> np.ndarray:
    """``m`` random deals of ``need`` distinct cards each (``uint8[m, need]``)."""
    return rng.permuted(np.tile(cards, (m, 1)), axis=1)[:, :need]


def _tally(values: np.ndarray, rk: Ranking, into: dict[str, int]) -> None:
    vals, counts = np.unique(values, return_counts=True)
    for v, c in zip(vals.tolist(), counts.tolist(), strict=True):
        name = category(v, rk)
        into[name] = into.get(name, 0) + c


def _sample_batch(rk: Ranking, cards: np.ndarray, shape: _Shape, samples: int,
                  rng: np.random.Generator) -> dict[str, int]:
    """Sampled counts through the batch kernels (fixed wild cards, any or Omaha)."""
    counts: dict[str, int] = {}
    h, n = shape.hole, shape.hole + shape.board
    left = samples
    while left > 0:
        m = min(CHUNK, left)
        dealt = _deals(cards, m, n, rng)
        if shape.combine == "omaha":
            values = evaluate_omaha_batch(dealt[:, :h], dealt[:, h:], rk)
        else:
            values = evaluate_batch(dealt, rk)
        _tally(values, rk, counts)
        left -= m
    return counts


def _sample_hands(showdown: Showdown, half: str, deck_name: str,
                  cards: np.ndarray, shape: _Shape, samples: int,
                  rng: np.random.Generator) -> dict[str, int]:
    """Sampled counts hand by hand through the engine's scorer: positional wild cards
    (each hand's own), crisscross lines, one board card."""
    scorer = Scorer(showdown, deck_name)
    positional = showdown.wild in POSITIONAL_WILDS
    plain = _ranking(showdown, half, deck_name, () if positional else None)
    wild_rk = _ranking(showdown, half, deck_name, (JOKER_2,)) if positional else plain
    counts: dict[str, int] = {}
    h, n = shape.hole, shape.hole + shape.board
    up = list(shape.up)
    left = samples
    while left > 0:
        m = min(CHUNK, left)
        for row in _deals(cards, m, n, rng).tolist():
            hole, board = row[:h], row[h:]
            wild = positional_wilds(showdown.wild, hole, up, board) if positional else None
            value = (scorer.high if half == "high" else scorer.low)(hole, board, wild)
            if value is None:
                name = "no_qualifying_low"
            else:
                name = category(value, wild_rk if wild else plain)
            counts[name] = counts.get(name, 0) + 1
        left -= m
    return counts


# The table and its flags -------------------------------------------------------------
def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``k / n`` (exactly 0 or 1 at the
    ends: no sample shows a category rarer than never)."""
    if n <= 0:
        return 0.0, 1.0
    share = share_interval(k, n)
    return (0.0 if k == 0 else share.lo), (1.0 if k == n else share.hi)


def _rows(names: list[str], counts: dict[str, int], exact: bool) -> tuple[CategoryRow, ...]:
    total = sum(counts.values())
    extra = [nm for nm in counts if nm not in names]  # e.g. no_qualifying_low
    rows = []
    for i, name in enumerate(names + extra):
        c = int(counts.get(name, 0))
        p = c / total if total else 0.0
        low, high = (p, p) if exact else wilson(c, total)
        rows.append(CategoryRow(name, i + 1, c, p, low, high))
    return tuple(rows)


def inversions(rows: tuple[CategoryRow, ...]) -> tuple[Inversion, ...]:
    """Every pair where the better-ranked category is the more common one (categories
    that never occur are left out: no hand of them exists to be misranked)."""
    seen = [r for r in rows if r.count > 0]
    out = []
    for i, better in enumerate(seen):
        for worse in seen[i + 1:]:
            if better.frequency > worse.frequency:
                out.append(Inversion(better.name, worse.name, better.frequency,
                                     worse.frequency, better.low > worse.high))
    return tuple(out)


def probability_order(rows: tuple[CategoryRow, ...]) -> tuple[str, ...]:
    """The categories that occur, rarest (best) first; equal frequencies keep the
    ranking's order."""
    seen = [r for r in rows if r.count > 0]
    return tuple(r.name for r in sorted(seen, key=lambda r: (r.frequency, r.rank)))


def _method(shape: _Shape, positional: bool, deck_size: int, asked: str) -> str:
    n = shape.hole + shape.board
    exact_ok = (not positional and shape.combine == "any" and n <= 9
                and comb(deck_size, n) <= EXACT_LIMIT)
    if asked == "exact" and not exact_ok:
        raise CensusError(f"an exact census of {shape.text()} from {deck_size} cards is not "
                          "feasible here; use the sampled method")
    if asked not in ("auto", "exact", "sampled"):
        raise CensusError(f"unknown method {asked!r}; choose auto, exact or sampled")
    return "exact" if asked == "exact" or (asked == "auto" and exact_ok) else "sampled"


def _qualifying(rows: tuple[CategoryRow, ...], limit: int, exact: bool) -> str:
    """The share of ace-to-five lows that qualify (``N-high`` rows with N <= limit)."""
    hands = sum(r.count for r in rows)
    good = sum(r.count for r in rows
               if r.name.endswith("-high") and r.name[0].isdigit() and int(r.name[0]) <= limit)
    share = f"{100 * good / hands:.4f}%" if hands else "none"
    if not exact:
        low, high = wilson(good, hands)
        share += f" (95% interval {100 * low:.4f}% - {100 * high:.4f}%)"
    return f"{limit} or better: {good:,} hands, {share}, qualify for the low"


def _notes(shape: _Shape, rk: Ranking, half: str, cards: np.ndarray,
           positional: bool) -> list[str]:
    notes = []
    if positional:
        notes.append("positional wild cards: each hand's own, found by the engine's rule")
    if shape.draws:
        notes.append("the hands as dealt: draws are players' choices and are not played")
    if shape.exposes and positional:
        notes.append("the cards a player turns up are taken as his first ones dealt")
    elif rk.wild and not set(rk.wild) & set(cards.tolist()):
        notes.append("none of the wild cards is in this deck")
    if rk.kind != KIND_HIGH:
        notes.append(f"{half} ranking {rk.name}: the best hand is the lowest, so the "
                     "categories are not compared with their frequencies")
    return notes


def _table(program: Program, half: str, deck_name: str, method: str, samples: int | None,
           seed: int) -> CensusTable:
    showdown = program.showdown
    shape = _shape(program.variant, showdown)
    positional = showdown.wild in POSITIONAL_WILDS
    rk = _ranking(showdown, half, deck_name, (JOKER_2,) if positional else None)
    cards = deck(deck_name)
    if shape.hole + shape.board > cards.size:
        raise CensusError(f"{shape.hole + shape.board} cards a player cannot come from a "
                          f"{cards.size}-card deck")
    if any(c >= 52 and not (rk.wild_mask >> int(c)) & 1 for c in cards.tolist()):
        raise CensusError(f"the {deck_name} deck has jokers, but they are not wild here "
                          "(option wild=jokers)")
    method = _method(shape, positional, int(cards.size), method)
    if samples is not None and samples < 1:
        raise CensusError(f"--samples must be at least 1, got {samples}")
    start = time.perf_counter()
    rng = np.random.default_rng(seed)
    by_hand = positional or shape.combine in ("crisscross", "one_board")
    if method == "exact":
        counts = _exact(rk, deck_name, shape.hole + shape.board)
    elif by_hand:
        counts = _sample_hands(showdown, half, deck_name, cards, shape,
                               samples or HAND_SAMPLES, rng)
    else:
        plain = _ranking(showdown, half, deck_name)
        counts = _sample_batch(plain, cards, shape, samples or BATCH_SAMPLES, rng)
    seconds = time.perf_counter() - start
    rows = _rows(_names(rk, counts), counts, method == "exact")
    high = rk.kind == KIND_HIGH
    notes = _notes(shape, rk, half, cards, positional)
    if half == "low" and showdown.low_qualifier and rk.kind == KIND_A5:
        notes.append(_qualifying(rows, showdown.low_qualifier, method == "exact"))
    return CensusTable(
        half=half, ranking=rk.name, deck=deck_name, deck_size=int(cards.size),
        wild=showdown.wild, wild_rule=showdown.wild_rule if showdown.wild != "none" else "",
        hand=shape.text(), method=method, hands=sum(counts.values()), seconds=seconds,
        rows=rows, inversions=inversions(rows) if high else (),
        probability_order=probability_order(rows) if high else (),
        notes=tuple(notes),
        seed=None if method == "exact" else seed)


def rule_census(variant: str | Variant | Game | Program, options: dict[str, Any] | None = None,
                *, method: str = "auto", samples: int | None = None,
                seed: int = 0) -> RuleCensus:
    """The category tables of a variant (an id, a Variant, a Game or a Program) played
    with ``options`` (engine options, plus ``deck``: any deck of ``cards.DECK_NAMES``).

    ``method``: ``auto`` (exact where feasible), ``exact`` or ``sampled``; ``samples``
    and ``seed`` set the sample. One table per half of the showdown (high, low)."""
    program, deck_name = _program(variant, options)
    deck_name = deck_name or program.variant.deck
    halves = [h for h, name in (("high", program.showdown.high), ("low", program.showdown.low))
              if name is not None]
    tables = tuple(_table(program, h, deck_name, method, samples, seed) for h in halves)
    shown = dict(options or {}) if not isinstance(variant, (Game, Program)) else {}
    return RuleCensus(program.variant.id, shown, tables)
