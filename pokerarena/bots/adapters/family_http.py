"""HTTP bots for the game families (painted poker, ...): the family's view as JSON in,
an action out.

``FamilyHttpBot(family, "http://127.0.0.1:9000/act")`` POSTs ``{"event": "act",
**family.view_json(view)}`` and reads the answer with ``family.parse_action(answer,
view)`` (painted poker: ``{"kind": "bid", "bid": 2}``, ``{"kind": "play", "card":
"As"}``, or the text ``"play As"``; docs/games.md). The connection, its retry and its
errors are the poker adapter's (:class:`~pokerarena.bots.adapters.http.HttpBot`). An
answer the family cannot read raises :class:`FamilyAnswerError`, which the table's
family guard (:mod:`pokerarena.arena.family_match`) records as garbage; an unreachable
endpoint is an exception; both get the guard's fallback, the first legal action.
"""

from __future__ import annotations

from typing import Any

from pokerarena.bots.adapters.http import HttpBot
from pokerarena.games import Family


class FamilyAnswerError(ValueError):
    """An answer that is not an action of the family (the guard's ``garbage``)."""


class FamilyHttpBot:
    """A family's bot behind an HTTP endpoint (``start_game``/``end_game`` are POSTed
    too when ``hooks``; their answers are ignored)."""

    def __init__(self, family: Family, url: str, timeout: float = 10.0,
                 hooks: bool = False) -> None:
        if family.view_json is None or family.parse_action is None:
            raise ValueError(f"{family.id}: the family has no JSON forms for HTTP bots")
        self.family = family
        self.name = url
        self.hooks = hooks
        self._http = HttpBot(url, timeout=timeout)

    def _doc(self, event: str, view: Any) -> dict[str, Any]:
        assert self.family.view_json is not None
        return {"event": event, **self.family.view_json(view)}

    def act(self, view: Any) -> Any:
        """POST the view; the family's action read from the answer."""
        answer = self._http.post(self._doc("act", view))
        assert self.family.parse_action is not None
        try:
            return self.family.parse_action(answer, view)
        except Exception as exc:  # noqa: BLE001 - whatever the parser refuses is garbage
            raise FamilyAnswerError(f"{self.family.id}: answer {str(answer)[:80]!r}: "
                                    f"{exc}") from None

    def start_game(self, view: Any) -> None:
        """POST ``start_game`` when hooks are on."""
        if self.hooks:
            self._http.post(self._doc("start_game", view))

    def end_game(self, view: Any) -> None:
        """POST ``end_game`` when hooks are on."""
        if self.hooks:
            self._http.post(self._doc("end_game", view))

    def close(self) -> None:
        """Close the connection."""
        self._http.close()


__all__ = ["FamilyAnswerError", "FamilyHttpBot"]
