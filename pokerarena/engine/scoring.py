"""Showdown scoring: the bridge from a variant's showdown spec to the evaluator.

Uses :mod:`pokerarena.evaluator` (``ranking``, ``evaluate``, ``evaluate_omaha``,
``qualifies_low``, ``describe``); falls back to the small pure-Python evaluator of
:mod:`pokerarena.engine._pyeval` when that package is not importable.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from pokerarena.engine import _pyeval
from pokerarena.rules import Showdown

try:  # pragma: no cover - depends on the evaluator being present
    from pokerarena import evaluator as _ev

    _HAVE_EVALUATOR = all(hasattr(_ev, n) for n in
                          ("ranking", "evaluate", "evaluate_omaha", "qualifies_low"))
except Exception:  # noqa: BLE001 - any import problem means: use the fallback
    _ev = None
    _HAVE_EVALUATOR = False


def evaluator_available() -> bool:
    """True when the numba evaluator is used (not the fallback)."""
    return _HAVE_EVALUATOR


class Scorer:
    """Scores hands for one showdown spec: ``high(hole, board)`` and ``low(...)``.

    ``low`` returns ``None`` for a hand that does not qualify.
    """

    def __init__(self, showdown: Showdown, deck: str = "standard",
                 use_evaluator: bool | None = None) -> None:
        self.spec = showdown
        self.omaha = showdown.combine == "omaha"
        self.qualifier = showdown.low_qualifier
        self.use_ev = _HAVE_EVALUATOR if use_evaluator is None else use_evaluator
        self._high_name = showdown.high
        self._low_name = showdown.low
        self._high: Any = None
        self._low: Any = None
        if self.use_ev:
            kwargs: dict[str, Any] = {}
            if showdown.wild != "none":
                kwargs["wild"] = showdown.wild
            if showdown.high is not None:
                self._high = _ev.ranking(showdown.high, deck=deck, **kwargs)
            if showdown.low is not None:
                self._low = _ev.ranking(showdown.low, deck=deck, **kwargs)

    def _value(self, hole: list[int], board: list[int], name: str, rk: Any) -> Any:
        if self.use_ev:
            if self.omaha:
                return int(_ev.evaluate_omaha(hole, board, rk))
            cards = hole + board
            if len(cards) > 9:  # the evaluator takes up to nine cards: best of 9-subsets
                return max(int(_ev.evaluate(list(sub), rk))
                           for sub in combinations(cards, 9))
            return int(_ev.evaluate(cards, rk))
        if self.omaha:
            return _pyeval.evaluate_omaha(hole, board, name)
        return _pyeval.evaluate(hole + board, name)

    def high(self, hole: list[int], board: list[int]) -> Any:
        """Value of the best high hand (None when the variant has no high half)."""
        if self._high_name is None:
            return None
        return self._value(hole, board, self._high_name, self._high)

    def low(self, hole: list[int], board: list[int]) -> Any:
        """Value of the best low hand, or None when it does not qualify / no low half."""
        name = self._low_name
        if name is None:
            return None
        value = self._value(hole, board, name, self._low)
        if self.qualifier:
            ok = (_ev.qualifies_low(value, self._low, self.qualifier) if self.use_ev
                  else _pyeval.qualifies_low(value, name, self.qualifier))
            if not ok:
                return None
        return value

    def describe(self, value: Any, low: bool = False) -> str:
        """Human text of a value (evaluator's ``describe``; the raw value otherwise)."""
        if value is None:
            return ""
        if self.use_ev and hasattr(_ev, "describe"):
            try:
                return str(_ev.describe(value, self._low if low else self._high))
            except Exception:  # noqa: BLE001 - description is cosmetic
                return str(value)
        return str(value)
