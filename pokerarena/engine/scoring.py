"""Showdown scoring: the bridge from a variant's showdown spec to the evaluator.

Uses :mod:`pokerarena.evaluator` (``ranking``, ``evaluate``, ``evaluate_omaha``,
``qualifies_low``, ``describe``); falls back to the small pure-Python evaluator of
:mod:`pokerarena.engine._pyeval` (no wild cards) when that package is not importable.

``combine``: ``any`` (best hand from hole + board cards), ``omaha`` (exactly two hole and
three board cards), ``crisscross`` (hole cards with one line of the cross: board cards
0-4-1 or 2-4-3, card 4 being the centre), ``one_board`` (hole cards and any one board
card: stormy weather).
"""

from __future__ import annotations

from typing import Any

from pokerarena.cards import JOKERS
from pokerarena.engine import _pyeval
from pokerarena.engine.actions import EngineError
from pokerarena.rules import Showdown
from pokerarena.rules.model import POSITIONAL_WILDS

_ev: Any
try:  # pragma: no cover - depends on the evaluator being present
    from pokerarena import evaluator as _ev

    _HAVE_EVALUATOR = all(hasattr(_ev, n) for n in
                          ("ranking", "evaluate", "evaluate_omaha", "qualifies_low"))
except Exception:  # noqa: BLE001 - any import problem means: use the fallback
    _ev = None
    _HAVE_EVALUATOR = False

CROSS_LINES = ((0, 4, 1), (2, 4, 3))


def evaluator_available() -> bool:
    """True when the numba evaluator is used (not the fallback)."""
    return _HAVE_EVALUATOR


class Scorer:
    """Scores hands for one showdown spec: ``high(hole, board, wild)`` and ``low(...)``.

    ``low`` returns ``None`` for a hand that does not qualify. ``wild`` is the tuple of
    wild card codes for positional wild cards (``positional`` tells whether the spec has
    them); otherwise the spec's fixed wild cards apply.
    """

    def __init__(self, showdown: Showdown, deck: str = "standard",
                 use_evaluator: bool | None = None) -> None:
        self.spec = showdown
        self.deck = deck
        self.combine = showdown.combine
        self.omaha = showdown.combine == "omaha"
        self.qualifier = showdown.low_qualifier
        self.positional = showdown.wild in POSITIONAL_WILDS
        self.use_ev = _HAVE_EVALUATOR if use_evaluator is None else use_evaluator
        self._high_name = showdown.high
        self._low_name = showdown.low
        needs_ev = showdown.wild != "none" or showdown.combine == "crisscross" or any(
            (showdown.four_flush, showdown.blaze, showdown.trips_beat_straight))
        if needs_ev and not self.use_ev:
            raise EngineError("this showdown needs pokerarena.evaluator (wild cards or "
                              "local hands)")
        self._rankings: dict[tuple[str, tuple[int, ...] | str | None], Any] = {}
        # The evaluator's plain-Python tables of the high ranking when its single-hand
        # call would use them (table-friendly, no wild cards); found on first use.
        self._fast: Any = False

    def _ranking(self, name: str, wild: tuple[int, ...] | None) -> Any:
        key = (name, wild)
        rk = self._rankings.get(key)
        if rk is None:
            sd = self.spec
            kwargs: dict[str, Any] = {
                "wild_rule": sd.wild_rule, "five_of_a_kind": sd.five_of_a_kind,
                "double_ace_flush": sd.double_ace_flush, "fewer_wilds_win": sd.fewer_wilds_win,
                "trips_beat_straight": sd.trips_beat_straight}
            if name not in ("a5_low", "hilo_low", "27_low", "badugi"):
                kwargs.update(four_flush=sd.four_flush, blaze=sd.blaze)
            if wild is not None:
                kwargs["wild"] = wild
            elif sd.wild != "none":
                kwargs["wild"] = sd.wild
            rk = self._rankings[key] = _ev.ranking(name, deck=self.deck, **kwargs)
        return rk

    def _value(self, hole: list[int], board: list[int], name: str,
               wild: tuple[int, ...] | None) -> Any:
        if not self.use_ev:
            if self.omaha:
                return _pyeval.evaluate_omaha(hole, board, name)
            if self.combine == "one_board" and board:
                return max(_pyeval.evaluate(hole + [b], name) for b in board)
            return _pyeval.evaluate(hole + board, name)
        rk = self._ranking(name, wild)
        if self.omaha:
            return int(_ev.evaluate_omaha(hole, board, rk))
        if self.combine == "crisscross":
            return max(int(_ev.evaluate(hole + [board[i] for i in line], rk))
                       for line in CROSS_LINES)
        if self.combine == "one_board" and board:
            return max(int(_ev.evaluate(hole + [b], rk)) for b in board)
        return int(_ev.evaluate(hole + board, rk))

    def _fast_tables(self) -> Any:
        """PyTables of the high ranking when ``evaluate`` would take its plain-Python
        path for these hands (table-friendly ranking, cards combined freely or Omaha);
        None otherwise."""
        tables = None
        if (self.use_ev and self._high_name is not None and not self.positional
                and self.combine in ("any", "omaha") and hasattr(_ev, "fast")):
            rk = self._ranking(self._high_name, None)
            if rk.table_friendly:
                tables = _ev.fast.py_tables_for(rk)
        self._fast = tables
        return tables

    def high(self, hole: list[int], board: list[int], wild: tuple[int, ...] | None = None) -> Any:
        """Value of the best high hand (None when the variant has no high half)."""
        if self._high_name is None:
            return None
        fast = self._fast
        if fast is False:
            fast = self._fast_tables()
        if fast is not None and wild is None:
            # The same values as evaluate()/evaluate_omaha() for valid, distinct cards
            # (which the engine guarantees), without their argument checks.
            if self.omaha:
                if len(board) == 5 and len(hole) >= 2 and max(hole) < 52 and max(board) < 52:
                    return _ev.fast.omaha_one(hole, board, fast)
            else:
                cards = hole + board
                if 5 <= len(cards) <= 7 and max(cards) < 52:
                    return _ev.fast.high_one(cards, fast)
        return self._value(hole, board, self._high_name, wild)

    def low(self, hole: list[int], board: list[int], wild: tuple[int, ...] | None = None) -> Any:
        """Value of the best low hand, or None when it does not qualify / no low half."""
        name = self._low_name
        if name is None:
            return None
        value = self._value(hole, board, name, wild)
        if self.qualifier:
            ok = (_ev.qualifies_low(value, self._ranking(name, wild), self.qualifier)
                  if self.use_ev else _pyeval.qualifies_low(value, name, self.qualifier))
            if not ok:
                return None
        return value

    def bonus_threshold(self, kind: str) -> Any:
        """The weakest high value of ``kind`` (flush, four_of_a_kind, straight_flush,
        royal) under this showdown's high ranking; None without a standard high ranking."""
        key = ("bonus", kind)
        if key in self._rankings:
            return self._rankings[key]
        name = self._high_name
        value = None
        if name in ("high", "short_deck") and self.use_ev and hasattr(_ev, "category_floor"):
            # The lowest value of the category under the ranking the hands are scored
            # with: a hand made with wild cards counts (evaluating the lowest natural hand
            # instead would let the wild cards turn it into a better one, e.g. 2-2-2-2-3
            # into five threes with deuces wild). Positional wild cards: any wild set gives
            # the players' order of categories.
            rk = self._ranking(name, (JOKERS[1],) if self.positional else None)
            cat = "straight_flush" if kind == "royal" else kind
            value = int(_ev.category_floor(cat, rk, 12 if kind == "royal" else None))
        elif name in ("high", "short_deck"):
            low = 4 if name == "short_deck" or self.deck in ("short", "strip5") else (
                int(self.deck[-1]) - 1 if self.deck.startswith("strip") else 0)
            if kind == "flush":  # the lowest flush: 7-5-4-3-2 of one suit (deck-aware)
                cards = [(low + i) * 4 for i in (0, 1, 2, 3, 5)]
            elif kind == "four_of_a_kind":
                cards = [low * 4 + s for s in range(4)] + [(low + 1) * 4]
            elif kind == "straight_flush":
                cards = [12 * 4] + [(low + i) * 4 for i in range(4)]  # the lowest: ace low
            else:
                cards = [r * 4 for r in range(8, 13)]  # royal: T-J-Q-K-A of clubs
            value = self._value_plain(cards, name)
        self._rankings[key] = value
        return value

    def _value_plain(self, cards: list[int], name: str) -> Any:
        """Value of exactly these cards (no board combination) under the ranking."""
        if not self.use_ev:
            return _pyeval.evaluate(cards, name)
        return int(_ev.evaluate(cards, self._ranking(name, () if self.positional else None)))

    def describe(self, value: Any, low: bool = False,
                 wild: tuple[int, ...] | None = None) -> str:
        """Human text of a value (evaluator's ``describe``; the raw value otherwise)."""
        if value is None:
            return ""
        name = self._low_name if low else self._high_name
        if self.use_ev and hasattr(_ev, "describe") and name is not None:
            try:
                return str(_ev.describe(value, self._ranking(name, wild)))
            except Exception:  # noqa: BLE001 - description is cosmetic
                return str(value)
        return str(value)


def positional_wilds(kind: str, hole: list[int], up: list[bool], board: list[int]
                     ) -> tuple[int, ...]:
    """Wild card codes of one player for a positional wild rule (see ``POSITIONAL_WILDS``).

    ``low_hole``: every card of the rank of the player's lowest down card (ace high);
    ``low_hole_card``: that card only (the other reading of 000_… «самая младшая
    забивная карта каждого игрока является козырем»);
    ``hole_rank``: every card of the ranks of the player's down cards (Mexican stud);
    ``low_board``: every card of the lowest board card's rank; ``board_rank``: the board
    cards and every card of their ranks; ``board_rank_others``: only the other cards of
    those ranks (the board cards themselves are not wild); ``centre_rank``: the centre
    card of a crisscross board (board card 4) and every card of its rank.
    """
    if kind == "low_hole_card":
        down_cards = [c for c, u in zip(hole, up, strict=True) if not u and c < 52]
        return (min(down_cards, key=lambda c: (c >> 2, c & 3)),) if down_cards else ()
    if kind in ("low_hole", "hole_rank"):
        down = [c >> 2 for c, u in zip(hole, up, strict=True) if not u and c < 52]
        ranks = set(down) if kind == "hole_rank" else ({min(down)} if down else set())
    elif kind == "low_board":
        known = [c >> 2 for c in board if c < 52]
        ranks = {min(known)} if known else set()
    elif kind == "centre_rank":
        ranks = {board[4] >> 2} if len(board) > 4 and board[4] < 52 else set()
    else:
        ranks = {c >> 2 for c in board if c < 52}
    codes = [r * 4 + s for r in sorted(ranks) for s in range(4)]
    if kind == "board_rank_others":
        codes = [c for c in codes if c not in board]
    return tuple(codes)
