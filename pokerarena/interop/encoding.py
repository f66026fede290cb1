"""What a seat sees as a fixed-length vector, its legal moves as a mask, and a mask slot
back into a move: the encodings of the PettingZoo environment (docs/interop.md).

The poker codec reads only a :class:`~pokerarena.bots.SeatView` (built by the arena's
one visibility rule), never the hand: a seat's vector cannot hold another seat's hidden
cards, and a bot on the platform computes the very vector the environment gave its
trainer (:mod:`pokerarena.interop.policy_bot`). The family codec reads only the
family's own observation of the seat, through its JSON form. Only numpy is needed here.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from pokerarena.bots.base import down_cards
from pokerarena.bots.seat_view import SeatView
from pokerarena.cards import CardError, parse_card
from pokerarena.engine.actions import (
    BRING_IN_KIND,
    CALL_KIND,
    DEALER,
    DECLARE_KIND,
    DISCARD_KIND,
    EXPOSE_KIND,
    FOLD_KIND,
    RAISE_KIND,
    SHOW_KIND,
    UNKNOWN,
    Action,
)
from pokerarena.engine.hand import DOWN_KIND, PHASE_NAMES
from pokerarena.engine.knock import KNOCK_KIND, TAKE_DISCARD_KIND
from pokerarena.interop import InteropError
from pokerarena.rules.model import DealStreet, DrawStreet, ExposeStreet, KnockStreet

CARDS = 54  # card codes 0..51 and the two jokers (pokerarena.cards)
SEAT_FEATURES = ("stack", "bet", "committed", "folded", "button", "all_in")
HISTORY_KINDS = ("ante", "blind", BRING_IN_KIND, FOLD_KIND, CALL_KIND, RAISE_KIND,
                 DISCARD_KIND, EXPOSE_KIND, DECLARE_KIND, TAKE_DISCARD_KIND, KNOCK_KIND,
                 DOWN_KIND, SHOW_KIND, "deal", "other")
"""Kinds of a history entry; ``deal`` is a run of the dealer's entries (a new street),
``other`` anything else the log may hold (disconnection protection)."""
FIXED_SLOTS = ("fold", "check_call", "bring_in", "take_discard", "knock", "choose_down",
               "show", "muck", "declare_high", "declare_low", "declare_both")
"""The first action slots, the same in both action modes."""
DEFAULT_FRACTIONS = (0.5, 1.0, 2.0)
MAX_SUBSET_CARDS = 10  # 2**10 discard masks: every shipped variant holds 8 cards at most
_KIND_AT = {k: i for i, k in enumerate(HISTORY_KINDS)}
_FIXED_KIND = {0: FOLD_KIND, 1: CALL_KIND, 2: BRING_IN_KIND, 3: TAKE_DISCARD_KIND,
               4: KNOCK_KIND, 5: DOWN_KIND}


def most_cards(variant: Any) -> int:
    """The most cards one seat holds in ``variant`` (its deals; a knock turn holds one
    more before its discard): the width of the discard masks."""
    held = sum(s.down + s.up for s in variant.streets if isinstance(s, DealStreet))
    return held + (1 if any(isinstance(s, KnockStreet) for s in variant.streets) else 0)


def picks_cards(variant: Any) -> bool:
    """Whether a seat ever chooses cards (a draw, turning cards up, a knock's discard)."""
    return any(isinstance(s, DrawStreet | ExposeStreet | KnockStreet) for s in variant.streets)


def _nearest(choices: Sequence[int], amount: int) -> int:
    """The allowed amount nearest ``amount`` (the smaller of two as near)."""
    return min(choices, key=lambda c: (abs(c - amount), c))


class PokerCodec:
    """The vector, mask and slots of a betting game for ``players`` seats.

    ``mode``: ``discrete`` (raises are the minimum, ``fractions`` of the pot and all-in)
    or ``amount`` (raise-to ``k`` chips is slot ``raise_at + k``, ``k`` up to
    ``max_chips``). ``history``: how many public history entries the vector keeps (the
    latest; a flag says when older ones were dropped).
    """

    def __init__(self, variant: Any, players: int, *, mode: str = "discrete",
                 fractions: Sequence[float] = DEFAULT_FRACTIONS, history: int = 64,
                 max_chips: int = 0) -> None:
        if mode not in ("discrete", "amount"):
            raise InteropError(f"action_mode is 'discrete' or 'amount', not {mode!r}")
        if any(not f > 0 for f in fractions):
            raise InteropError(f"fractions of the pot are positive, not {list(fractions)}")
        if history < 1:
            raise InteropError(f"history keeps at least one entry, not {history}")
        self.n = players
        self.mode = mode
        self.fractions = tuple(float(f) for f in fractions)
        self.history = history
        self.streets = len(variant.streets)
        self.max_chips = max_chips
        self.raise_at = len(FIXED_SLOTS)
        raises = len(self.fractions) + 2 if mode == "discrete" else max_chips + 1
        self.subset_at = self.raise_at + raises
        self.held = most_cards(variant) if picks_cards(variant) else 0
        if self.held > MAX_SUBSET_CARDS:
            raise InteropError(f"{variant.id}: a seat holds {self.held} cards; discard masks "
                               f"cover {MAX_SUBSET_CARDS} at most")
        self.n_actions = self.subset_at + (1 << self.held if self.held else 0)
        bits = np.arange(1 << self.held, dtype=np.int64)
        self._popcount = np.array([bin(int(b)).count("1") for b in bits], dtype=np.int64)
        self._bits = bits
        # the vector's parts, in order (docs/interop.md, "The observation vector")
        self.entry = players + len(HISTORY_KINDS) + 2
        self.parts: list[tuple[str, int]] = [
            ("hole", CARDS), ("board", CARDS), ("up", players * CARDS), ("seen", CARDS),
            ("seats", players * len(SEAT_FEATURES)), ("pot", 1), ("to_call", 1),
            ("street", self.streets), ("phase", len(PHASE_NAMES)), ("progress", 1),
            ("truncated", 1), ("history", history * self.entry)]
        self.offset: dict[str, int] = {}
        at = 0
        for name, width in self.parts:
            self.offset[name] = at
            at += width
        self.size = at

    # ---------------------------------------------------------------- the vector
    def encode(self, view: SeatView, progress: float = 0.0) -> np.ndarray:
        """The seat's information state as ``float32`` values in [0, 1]. Seats are
        counted from the viewer (0 is the viewer, 1 the next seat to its left); chips
        are shares of every chip at the table."""
        out = np.zeros(self.size, dtype=np.float32)
        n, me, off = self.n, view.seat, self.offset
        scale = float(sum(view.stacks) + view.pot) or 1.0
        known: set[int] = set()
        for c in view.hole:
            if c != UNKNOWN:
                out[off["hole"] + c] = 1.0
                known.add(c)
        for c in view.board:
            out[off["board"] + c] = 1.0
            known.add(c)
        for s, cards in enumerate(view.up):
            base = off["up"] + ((s - me) % n) * CARDS
            for c in cards:
                out[base + c] = 1.0
                known.add(c)
        width = len(SEAT_FEATURES)
        for s in range(n):
            base = off["seats"] + ((s - me) % n) * width
            folded = bool(view.folded[s])
            out[base:base + width] = (view.stacks[s] / scale, view.bets[s] / scale,
                                      view.committed[s] / scale, folded, s == view.button,
                                      view.stacks[s] == 0 and not folded)
        out[off["pot"]] = view.pot / scale
        out[off["to_call"]] = min(view.to_call / scale, 1.0)
        if 0 <= view.street < self.streets:
            out[off["street"] + view.street] = 1.0
        if view.phase in PHASE_NAMES:
            out[off["phase"] + PHASE_NAMES.index(view.phase)] = 1.0
        out[off["progress"]] = min(max(progress, 0.0), 1.0)
        entries = self._entries(view, known, out)
        if len(entries) > self.history:
            out[off["truncated"]] = 1.0
            entries = entries[-self.history:]
        base = off["history"]
        for actor, kind, amount, moved in entries:
            if actor >= 0:
                out[base + (actor - me) % n] = 1.0
            out[base + n + kind] = 1.0
            out[base + n + len(HISTORY_KINDS)] = min(amount / scale, 1.0)
            out[base + n + len(HISTORY_KINDS) + 1] = min(moved / 13.0, 1.0)
            base += self.entry
        return out

    def _entries(self, view: SeatView, known: set[int],
                 out: np.ndarray) -> list[tuple[int, int, int, int]]:
        """The history as (actor or -1, kind index, amount, cards) with each run of
        dealer entries as one ``deal``; marks the ``seen`` cards on the way."""
        entries: list[tuple[int, int, int, int]] = []
        seen = self.offset["seen"]
        other = _KIND_AT["other"]
        for actor, act in view.history:
            for c in act.cards:
                if c != UNKNOWN and c not in known and 0 <= c < CARDS:
                    out[seen + c] = 1.0
            if actor == DEALER:
                if not entries or entries[-1][1] != _KIND_AT["deal"]:
                    entries.append((-1, _KIND_AT["deal"], 0, 0))
                continue
            entries.append((actor, _KIND_AT.get(act.kind, other), act.amount, len(act.cards)))
        return entries

    # ---------------------------------------------------------------- the actions
    def raise_amounts(self, view: SeatView) -> list[int]:
        """The discrete mode's raise-to amounts: the minimum, each fraction of the pot
        after a call (``to = highest bet + f * (pot + to_call)``), all-in; within the
        legal range and on its allowed amounts."""
        legal = view.legal
        assert legal is not None
        cur = max(view.bets) if view.bets else 0
        wanted = [legal.min_to, *(cur + f * (view.pot + view.to_call) for f in self.fractions),
                  legal.max_to]
        out = []
        for w in wanted:
            amount = int(min(legal.max_to, max(legal.min_to, round(w))))
            out.append(_nearest(legal.choices, amount) if legal.choices else amount)
        return out

    def mask(self, view: SeatView) -> np.ndarray:
        """1 for each slot that is a legal move of the seat now (all 0 when the seat is
        not to act)."""
        out = np.zeros(self.n_actions, dtype=np.int8)
        legal = view.legal
        if legal is None:
            return out
        kinds = legal.kinds
        for slot, kind in _FIXED_KIND.items():
            if kind in kinds:
                out[slot] = 1
        if SHOW_KIND in kinds:
            out[6] = out[7] = 1
        if DECLARE_KIND in kinds:
            for which in (legal.choices or (1, 2, 3)):
                if 1 <= which <= 3:
                    out[7 + which] = 1
        if RAISE_KIND in kinds:
            if self.mode == "discrete":
                seen: set[int] = set()
                for i, amount in enumerate(self.raise_amounts(view)):
                    if amount not in seen:
                        out[self.raise_at + i] = 1
                        seen.add(amount)
            else:
                allowed = legal.choices or range(legal.min_to, legal.max_to + 1)
                for amount in allowed:
                    if 0 <= amount <= self.max_chips:
                        out[self.raise_at + amount] = 1
        if self.held and (DISCARD_KIND in kinds or EXPOSE_KIND in kinds):
            out[self.subset_at:] = self._subset_mask(view)
        return out

    def _subset_mask(self, view: SeatView) -> np.ndarray:
        """The card sets the seat may discard (or turn up): positions in its hole."""
        legal = view.legal
        assert legal is not None
        hole = view.hole[:self.held]
        if DISCARD_KIND in legal.kinds:
            allowed = list(range(len(hole)))
        else:  # turning up: down cards only
            down = set(down_cards(view))
            allowed = [i for i, c in enumerate(hole) if c in down]
        within = 0
        for i in allowed:
            within |= 1 << i
        ok = ((self._bits & ~within) == 0) & (self._popcount >= legal.discard_min) \
            & (self._popcount <= legal.discard_max)
        return ok.astype(np.int8)

    def decode(self, slot: int, view: SeatView) -> Action:
        """The move of ``slot`` for the seat to act (:class:`InteropError` when it is not
        legal now, naming the legal slots)."""
        mask = self.mask(view)
        if not 0 <= slot < self.n_actions or not mask[slot]:
            slots = [int(i) for i in np.flatnonzero(mask)]
            raise InteropError(f"action {slot} is not legal for seat {view.seat} now; the "
                               f"legal slots are {slots} (see infos[agent]['legal'])")
        legal = view.legal
        assert legal is not None
        if slot in _FIXED_KIND:
            return Action(_FIXED_KIND[slot])
        if slot in (6, 7):
            return Action(SHOW_KIND, 0, tuple(view.hole) if slot == 6 else ())
        if slot < self.raise_at:
            return Action(DECLARE_KIND, slot - 7)
        if slot < self.subset_at:
            k = slot - self.raise_at
            amount = self.raise_amounts(view)[k] if self.mode == "discrete" else k
            return Action(RAISE_KIND, amount)
        bits = slot - self.subset_at
        cards = tuple(c for i, c in enumerate(view.hole) if bits >> i & 1)
        kind = DISCARD_KIND if DISCARD_KIND in legal.kinds else EXPOSE_KIND
        return Action(kind, 0, cards)

    def slot_names(self) -> list[str]:
        """A name for every slot (the docs' table; ``render``)."""
        raises = (["raise_min", *(f"raise_{f:g}_pot" for f in self.fractions), "all_in"]
                  if self.mode == "discrete" else
                  [f"raise_to_{k}" for k in range(self.max_chips + 1)])
        subsets = [f"cards_{b:0{self.held}b}"[::-1] for b in range(1 << self.held)] \
            if self.held else []
        return [*FIXED_SLOTS, *raises, *subsets]


# -------------------------------------------------------------------- families
FAMILY_SKIP = frozenset(("legal", "options", "family", "seat", "players"))
BUCKETS = 8  # a text field (a phase, a suit) as one of 8 buckets of its CRC-32


def _card(value: Any) -> int | None:
    if isinstance(value, str) and 2 <= len(value) <= 2:
        try:
            code = parse_card(value)
        except CardError:
            return None
        return code if 0 <= code < CARDS else None
    return None


def _cards_in(value: Any, out: set[int]) -> None:
    """Every card named anywhere inside a JSON value."""
    code = _card(value)
    if code is not None:
        out.add(code)
    elif isinstance(value, dict):
        for v in value.values():
            _cards_in(v, out)
    elif isinstance(value, list | tuple):
        for v in value:
            _cards_in(v, out)


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float):
        return float(value)
    return None


def squash(x: float) -> float:
    """``x / (1 + |x|)``: any count or score into (-1, 1), order kept."""
    return x / (1.0 + abs(x))


class FamilyCodec:
    """The vector, mask and slots of a game family's seat, from its view's JSON form.

    Slots: slot ``i`` is the ``i``-th legal action in the order of their JSON text, up
    to ``slots``. The vector: the seat's own cards (key ``hand``), every other card its
    view names, then each field of the view that is a number (one value), a per-seat
    list of numbers (one value per seat, counted from the viewer) or a text (a bucket),
    as found in ``probe`` (views of one game played at random, which fix the layout).
    """

    def __init__(self, players: int, probe: Sequence[dict[str, Any]], slots: int = 128) -> None:
        if slots < 1:
            raise InteropError(f"slots is at least 1, not {slots}")
        self.n = players
        self.n_actions = slots
        scalars: set[str] = set()
        per_seat: set[str] = set()
        texts: set[str] = set()
        for doc in probe:
            for key, value in doc.items():
                if key in FAMILY_SKIP:
                    continue
                if _number(value) is not None:
                    scalars.add(key)
                elif isinstance(value, list) and len(value) == players and value \
                        and all(_number(v) is not None for v in value):
                    per_seat.add(key)
                elif isinstance(value, str) and _card(value) is None:
                    texts.add(key)
        self.per_seat = sorted(per_seat)
        self.scalars = sorted(scalars - per_seat)
        self.texts = sorted(texts - per_seat - scalars)
        self.size = 2 * CARDS + len(self.scalars) + players * len(self.per_seat) \
            + BUCKETS * len(self.texts)

    def encode(self, doc: dict[str, Any], seat: int) -> np.ndarray:
        """The seat's view (its JSON form) as ``float32`` values in [-1, 1]."""
        out = np.zeros(self.size, dtype=np.float32)
        own: set[int] = set()
        _cards_in(doc.get("hand"), own)
        for c in own:
            out[c] = 1.0
        others: set[int] = set()
        for key, value in doc.items():
            if key not in FAMILY_SKIP and key != "hand":
                _cards_in(value, others)
        for c in others - own:
            out[CARDS + c] = 1.0
        at = 2 * CARDS
        for key in self.scalars:
            x = _number(doc.get(key))
            out[at] = squash(x) if x is not None else 0.0
            at += 1
        n = self.n
        for key in self.per_seat:
            values = doc.get(key)
            if isinstance(values, list) and len(values) == n:
                for s, v in enumerate(values):
                    x = _number(v)
                    out[at + (s - seat) % n] = squash(x) if x is not None else 0.0
            at += n
        for key in self.texts:
            value = doc.get(key)
            if isinstance(value, str):
                out[at + zlib.crc32(value.encode()) % BUCKETS] = 1.0
            at += BUCKETS
        return out

    @staticmethod
    def ordered(legal: Sequence[Any], to_json: Any) -> list[Any]:
        """The legal actions in slot order (by their JSON text)."""
        return sorted(legal, key=lambda a: json.dumps(to_json(a), sort_keys=True))

    def mask(self, count: int) -> np.ndarray:
        """Slots ``0 .. count - 1`` legal (:class:`InteropError` past ``slots``)."""
        if count > self.n_actions:
            raise InteropError(f"{count} legal actions here, more than the {self.n_actions} "
                               f"action slots: make the environment with a larger slots=")
        out = np.zeros(self.n_actions, dtype=np.int8)
        out[:count] = 1
        return out


__all__ = ["CARDS", "DEFAULT_FRACTIONS", "FIXED_SLOTS", "HISTORY_KINDS", "SEAT_FEATURES",
           "FamilyCodec", "PokerCodec", "most_cards", "picks_cards", "squash"]
