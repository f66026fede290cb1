"""What one seat may see of a hand (:class:`Observation`)."""

from __future__ import annotations

from typing import Any, Final

from pokerarena.engine.actions import (
    DEAL_HOLE_KIND,
    DECLARE_KIND,
    DISCARD_KIND,
    EXPOSE_KIND,
    Action,
)
from pokerarena.engine.hand.common import (
    PH_BET,
    PHASE_NAMES,
)
from pokerarena.engine.hand.state import HandState
from pokerarena.engine.visibility import seen_by

_MASKED: Final = frozenset((DEAL_HOLE_KIND, DISCARD_KIND, EXPOSE_KIND, DECLARE_KIND))


class Observation:
    """What one seat may see: a cheap view of the hand, valid until the next action.

    ``hole``: the seat's own cards; ``up``: every seat's face-up cards; ``board``;
    ``stacks``/``bets`` by seat; ``pot`` (all chips committed, this round's bets
    included); ``to_call``; ``legal`` (None unless the seat is to act); ``history``: the
    action log with other seats' down cards hidden; ``committed``/``folded`` by seat;
    ``betting`` and ``stakes``; ``hand_no``/``match_no`` (given by the caller). The list
    fields are computed on first use; :meth:`snapshot` copies everything for keeping.
    The observation refers to the hand: hand it to code you trust (a bot gets a
    ``pokerarena.bots.base.SeatView`` built from it instead).
    """

    __slots__ = ("seat", "legal", "_hand", "_loglen", "_cache", "_hidden_from", "hand_no",
                 "match_no")

    def __init__(self, hand: HandState, seat: int, hand_no: int = 0, match_no: int = 0) -> None:
        h = hand
        self._hand = h
        self._loglen = len(h.log)
        self._cache: dict[str, Any] = {}
        self.seat = seat
        self.hand_no = hand_no
        self.match_no = match_no
        self.legal = (h.legal_actions() if not h.over and h.actor >= 0
                      and h.seat_of[h.actor] == seat else None)
        # Choices made in a simultaneous expose/declare stay hidden until all have chosen.
        self._hidden_from = h.turn_start if h.simultaneous and h.turn_start >= 0 else -1

    def _get(self, name: str) -> Any:
        c = self._cache
        if name not in c:
            h = self._hand
            p = h.pos_of[self.seat]
            if name == "pot":
                c[name] = sum(h.committed) + h.dead
            elif name == "to_call":
                to_call = h.cur - h.bets[p]
                c[name] = to_call if h.phase == PH_BET and to_call > 0 else 0
            elif name == "street":
                c[name] = h.si
            elif name == "phase":
                c[name] = PHASE_NAMES[h.phase]
        return c[name]

    @property
    def variant(self) -> str:
        """The variant's identifier."""
        return self._hand.game.variant_id

    @property
    def button(self) -> int:
        """The button's seat."""
        return self._hand.button

    @property
    def players(self) -> int:
        """Number of seats in the hand."""
        return self._hand.n

    @property
    def pot(self) -> int:
        """All chips in the pot, this round's bets included."""
        return self._get("pot")

    @property
    def to_call(self) -> int:
        """Chips this seat must add to call (0 outside betting)."""
        return self._get("to_call")

    @property
    def street(self) -> int:
        """Index of the current street in the variant's street list."""
        return self._get("street")

    @property
    def phase(self) -> str:
        """``bet``, ``draw``, ``expose``, ``declare``, ``deal``, ``showdown`` or ``over``."""
        return self._get("phase")

    def _by_seat(self, values: list) -> list:
        return [values[p] for p in self._hand.pos_of]

    def _per_seat(self, name: str, field: str) -> list:
        """The hand's by-position list ``field``, reordered by seat, computed once."""
        c = self._cache
        if name not in c:
            c[name] = self._by_seat(getattr(self._hand, field))
        return c[name]

    @property
    def hole(self) -> list[int]:
        """The seat's own cards (down and up) in the order dealt."""
        c = self._cache
        if "hole" not in c:
            c["hole"] = list(self._hand.hole[self._hand.pos_of[self.seat]])
        return c["hole"]

    @property
    def up(self) -> list[list[int]]:
        """Face-up cards of every seat."""
        c = self._cache
        if "up" not in c:
            h = self._hand
            hidden: set[int] = set()
            if self._hidden_from >= 0:
                for actor, act in h.log[self._hidden_from:self._loglen]:
                    if act.kind == EXPOSE_KIND and actor != self.seat:
                        hidden.update(act.cards)
            c["up"] = self._by_seat([[x for x, u in zip(h.hole[q], h.isup[q], strict=True)
                                      if u and x not in hidden] for q in range(h.n)])
        return c["up"]

    @property
    def board(self) -> list[int]:
        """Community cards."""
        c = self._cache
        if "board" not in c:
            c["board"] = list(self._hand.board)
        return c["board"]

    @property
    def stacks(self) -> list[int]:
        """Chips behind, by seat."""
        return self._per_seat("stacks", "stack")

    @property
    def bets(self) -> list[int]:
        """This round's bets, by seat."""
        return self._per_seat("bets", "bets")

    def snapshot(self) -> Observation:
        """Compute every field now so the observation can be kept after the hand moves."""
        for name in ("hole", "up", "board", "stacks", "bets", "history", "pot", "to_call",
                     "street", "phase"):
            getattr(self, name)
        return self

    @property
    def committed(self) -> list[int]:
        """Chips each seat has put in during the hand, by seat."""
        return self._per_seat("committed", "committed")

    @property
    def folded(self) -> list[bool]:
        """Whether each seat has folded, by seat."""
        return self._per_seat("folded", "folded")

    @property
    def betting(self) -> str:
        """The betting system's name (``no_limit``, ``fixed_limit`` ...)."""
        return self._hand.game.system_name

    @property
    def stakes(self) -> dict[str, Any]:
        """The game's summary: variant, betting, ante, blinds, bring-in, bet sizes."""
        return self._hand.game.describe()

    @property
    def log_length(self) -> int:
        """Entries in the action log when the observation was taken."""
        return self._loglen

    @property
    def history_final(self) -> int:
        """History entries before this index are final: later observations of the same
        seat show them the same (a simultaneous choice is shown once all have chosen)."""
        hf = self._hidden_from
        return self._loglen if hf < 0 else min(hf, self._loglen)

    @property
    def history(self) -> list[tuple[int, Action]]:
        """(actor seat or DEALER, action) pairs; others' down cards are UNKNOWN."""
        if "history" in self._cache:
            return self._cache["history"]
        out = self.history_since(0)
        self._cache["history"] = out
        return out

    def history_since(self, start: int) -> list[tuple[int, Action]]:
        """The history's entries from index ``start`` on (a fresh list; the log's own
        immutable entries where nothing is hidden)."""
        out = self._hand.log[start:self._loglen]
        seat, hf = self.seat, self._hidden_from
        face_up = self._hand.prog.discards_face_up
        for i, entry in enumerate(out):
            if entry[1].kind in _MASKED:
                seen = seen_by(entry, seat, face_up, 0 <= hf <= start + i)
                if seen is not entry:
                    out[i] = seen
        return out
