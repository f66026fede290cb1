"""PokerStars hand-history text of a stored hand, as trackers (PokerTracker, Hold'em
Manager, GTO Wizard) and parsers (PokerKit's ``HandHistory.from_pokerstars``) read it.

The line formats follow real PokerStars histories of each game (the public parser test
suites' files: hold'em and Omaha with ``*** HOLE CARDS ***`` and the board streets; stud
and razz with ``*** 3rd STREET ***`` ... ``*** RIVER ***``, up cards dealt to everyone
and the hero's down cards to him alone; draw games with ``*** DEALING HANDS ***``,
``discards 2 cards`` and, for triple draw, ``*** FIRST DRAW ***`` ...). Amounts are the
table's chips, written as play-money tables write them (``(200 in chips)``).

A file is written from one seat's view, the *hero*: his down cards (``Dealt to``) and
his discards are shown, other seats' down cards only when they show them down. Every
seat whose hand was scored at the showdown shows it (in the engine's showdown order,
which is PokerKit's), so a reader can settle the pots from the text alone.

Only the games PokerStars dealt are written (:data:`GAMES`); any other variant or
betting system gets one :class:`~pokerarena.interop.history_export.ExportError` naming
it and the games there are.
"""

from __future__ import annotations

import hashlib
from typing import Any

from pokerarena.interop.history_export import ExportError, StoredHand
from pokerarena.interop.stored_hand import split_cards

LIMITS = {"no_limit": "No Limit", "pot_limit": "Pot Limit", "fixed_limit": "Limit"}
GAMES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    # variant id: (PokerStars game name, kind of table, betting systems it was dealt in)
    "holdem": ("Hold'em", "board", ("no_limit", "pot_limit", "fixed_limit")),
    "omaha": ("Omaha", "board", ("pot_limit", "fixed_limit", "no_limit")),
    "omaha_hilo": ("Omaha Hi/Lo", "board", ("pot_limit", "fixed_limit", "no_limit")),
    "stud7": ("7 Card Stud", "stud", ("fixed_limit",)),
    "stud7_hilo": ("7 Card Stud Hi/Lo", "stud", ("fixed_limit",)),
    "razz": ("Razz", "stud", ("fixed_limit",)),
    "draw5_blind": ("5 Card Draw", "draw", ("fixed_limit", "pot_limit", "no_limit")),
    "draw27_triple": ("Triple Draw 2-7 Lowball", "draw", ("fixed_limit",)),
    "draw27_single": ("Single Draw 2-7 Lowball", "draw", ("no_limit",)),
    "badugi": ("Badugi", "draw", ("fixed_limit",)),
}
"""The games PokerStars dealt, as this writer writes them. Five-card draw there has
blinds and any hand opens: our ``draw5_blind``; ``draw5`` (jacks to open, antes, passed
deals whose pot waits for the next) was never dealt there."""

BOARD_STREETS = {3: "FLOP", 4: "TURN", 5: "RIVER"}
STUD_STREETS = {3: "3rd STREET", 4: "4th STREET", 5: "5th STREET", 6: "6th STREET",
                7: "RIVER"}
DRAW_NAMES = ("FIRST", "SECOND", "THIRD")
ORDINALS = ("1st", "2nd", "3rd")


def supported(variant: str, betting: str) -> str | None:
    """None when PokerStars dealt this game, else the one-line reason."""
    game = GAMES.get(variant)
    if game is None:
        return (f"PokerStars never dealt {variant!r}: the PokerStars format covers "
                f"{', '.join(sorted(GAMES))} (use --format phh or ohh for the others)")
    if betting not in game[2]:
        return (f"PokerStars never dealt {variant!r} {betting}: only "
                f"{', '.join(game[2])}")
    return None


def hand_number(run_id: Any, match: int, hand: int) -> int:
    """A stable 15-digit hand number (trackers key hands by it): the same stored hand
    always gets the same number, different hands different ones."""
    digest = hashlib.sha1(f"{run_id}/{match}/{hand}".encode()).hexdigest()
    return int(digest[:12], 16) % 10**15


def names_of(stored: StoredHand) -> list[str]:
    """Each seat's player name: its bot, with ``_s<seat>`` when a bot holds two seats."""
    bots = [str(s.get("bot") or f"seat{s['seat']}").replace(":", "_") for s in stored.seats]
    return [b if bots.count(b) == 1 else f"{b}_s{k}" for k, b in enumerate(bots)]


def _cards(cards: list[str]) -> str:
    return "[" + " ".join(cards) + "]"


def _stakes(stored: StoredHand) -> str:
    h = stored.hand
    g = stored.engine.game
    if h["betting"] == "fixed_limit" or not any(g.blinds):
        lo, hi = g.small_bet, g.big_bet
    else:
        blinds = sorted(b for b in g.blinds if b)
        lo, hi = blinds[0], blinds[-1]
    return f"({lo}/{hi})"


class _Writer:
    """Walks the log once, writing the lines and keeping the bets of the round."""

    def __init__(self, stored: StoredHand, hero: int, stamp: str) -> None:
        self.s = stored
        self.hero = hero
        self.stamp = stamp
        self.kind = GAMES[str(stored.hand["variant"])][1]
        self.names = names_of(stored)
        n = stored.n
        self.pos = {int(r["seat"]): int(r["position"]) for r in stored.seats}
        # stud tables have no button: seats are numbered in dealing order
        self.number = ([self.pos[k] + 1 for k in range(n)] if self.kind == "stud"
                       else [k + 1 for k in range(n)])
        self.stack = [int(r["start_stack"]) for r in stored.seats]
        self.up = [set(split_cards(r.get("up_cards"))) for r in stored.seats]
        self.held: list[list[str]] = [[] for _ in range(n)]
        self.board: list[str] = []
        self.bet = [0] * n
        self.voluntary = [0] * n
        self.folded_at: dict[int, str] = {}
        self.draws = 0
        self.dealt: set[int] = set()  # seats dealt on this stud street
        self.lines: list[str] = []
        self.street: int | None = None

    # -- helpers ---------------------------------------------------------------------
    def name(self, seat: int) -> str:
        return self.names[seat]

    def pay(self, seat: int, chips: int) -> str:
        self.stack[seat] -= chips
        return " and is all-in" if self.stack[seat] == 0 and chips > 0 else ""

    def where(self, seat: int) -> str:
        """The street a seat folded on, as the summary says it."""
        if self.kind == "board":
            return {0: "before Flop"}.get(len(self.board), "on the " + BOARD_STREETS.get(
                len(self.board), "River").capitalize())
        if self.kind == "stud":
            held = len(self.held[seat])
            return "on the " + ("River" if held >= 7 else f"{held}th Street".replace(
                "3th", "3rd"))
        return "before the Draw" if not self.draws else \
            f"after the {ORDINALS[min(self.draws, 3) - 1]} Draw"

    # -- the parts -------------------------------------------------------------------
    def header(self) -> None:
        h = self.s.hand
        game, _kind, _ = GAMES[str(h["variant"])]
        number = hand_number(h.get("run_id"), int(h["match"]), int(h["hand"]))
        self.lines.append(f"PokerStars Hand #{number}:  {game} {LIMITS[h['betting']]} "
                          f"{_stakes(self.s)} - {self.stamp}")
        table = f"Table '{h.get('run_id')} {h.get('unit')}' {self.s.n}-max"
        if self.kind != "stud":
            table += f" Seat #{int(h['button']) + 1} is the button"
        self.lines.append(table)
        order = sorted(range(self.s.n), key=lambda k: self.number[k])
        for k in order:
            self.lines.append(f"Seat {self.number[k]}: {self.name(k)} "
                              f"({self.stack[k]} in chips)")

    def forced(self) -> None:
        """Antes, then the blinds, small first (as PokerStars lists them)."""
        kinds = self.s.blind_kinds()
        rows = [r for r in self.s.actions if r["kind"] == "ante"] + sorted(
            (r for r in self.s.actions if r["kind"] == "blind"),
            key=lambda r: kinds[int(r["seat"])] != "small")
        for r in rows:
            k, amount = int(r["seat"]), int(r.get("amount") or 0)
            if r["kind"] == "ante":
                self.lines.append(f"{self.name(k)}: posts the ante {amount}"
                                  f"{self.pay(k, amount)}")
            else:
                self.bet[k] += amount
                self.voluntary[k] += amount
                self.lines.append(f"{self.name(k)}: posts {kinds[k]} blind {amount}"
                                  f"{self.pay(k, amount)}")

    def deal(self, r: dict[str, Any], first: bool) -> None:
        cards = split_cards(r.get("cards"))
        if r["kind"] == "db":
            before = self.board[:]
            self.board.extend(cards)
            self.new_round()
            label = BOARD_STREETS.get(len(self.board), "BOARD")
            old = f" {_cards(before)}" if len(before) >= 3 else ""
            self.lines.append(f"*** {label} ***{old} {_cards(cards)}")
            return
        k = int(r["target"])
        before = self.held[k][:]
        self.held[k].extend(cards)
        if self.kind == "stud":
            if first or k in self.dealt:  # all in: the streets are dealt back to back
                self.dealt = set()
                self.new_round()
                self.lines.append(f"*** {STUD_STREETS.get(len(self.held[k]), 'RIVER')} ***")
            self.dealt.add(k)
            if k == self.hero:
                shown = self.held[k]
            else:
                shown = [c for c in self.held[k] if c in self.up[k]]
                if not [c for c in cards if c in self.up[k]]:
                    return  # a down card to someone else: nothing to write
            had = [c for c in shown if c in before]
            got = [c for c in shown if c not in before]
            self.lines.append(f"Dealt to {self.name(k)} "
                              + (f"{_cards(had)} " if had else "") + _cards(got))
            return
        if k != self.hero:
            return
        if before:  # a draw's replacement cards
            kept = [c for c in self.held[k] if c in before]
            self.lines.append(f"Dealt to {self.name(k)} {_cards(kept)} {_cards(cards)}")
        else:
            self.lines.append(f"Dealt to {self.name(k)} {_cards(cards)}")

    def new_round(self) -> None:
        self.bet = [0] * self.s.n

    def decide(self, r: dict[str, Any]) -> None:
        kind = r["kind"]
        k = int(r["seat"])
        who = self.name(k)
        amount = int(r.get("amount") or 0)
        if kind == "f":
            self.folded_at[k] = self.where(k)
            self.lines.append(f"{who}: folds")
        elif kind == "cc":
            self.bet[k] += amount
            self.voluntary[k] += amount
            self.lines.append(f"{who}: checks" if amount == 0 else
                              f"{who}: calls {amount}{self.pay(k, amount)}")
        elif kind == "pb":
            self.bet[k] += amount
            self.voluntary[k] += amount
            self.lines.append(f"{who}: brings in for {amount}{self.pay(k, amount)}")
        elif kind == "cbr":
            top = max(self.bet)
            added = amount - self.bet[k]
            self.bet[k] = amount
            self.voluntary[k] += added
            tail = self.pay(k, added)
            self.lines.append(f"{who}: bets {amount}{tail}" if top == 0 else
                              f"{who}: raises {amount - top} to {amount}{tail}")
        elif kind == "sd":
            cards = split_cards(r.get("cards"))
            self.held[k] = [c for c in self.held[k] if c not in set(cards)]
            if not cards:
                self.lines.append(f"{who}: stands pat")
            else:
                many = "card" if len(cards) == 1 else "cards"
                seen = f" {_cards(cards)}" if k == self.hero else ""
                self.lines.append(f"{who}: discards {len(cards)} {many}{seen}")
        else:
            raise ExportError(f"{self.s.label}: PokerStars text has no line for a "
                              f"{kind!r} action")

    def draw_header(self) -> None:
        self.draws += 1
        self.new_round()
        variant = str(self.s.hand["variant"])
        many = sum(1 for st in self.s.engine.game.variant.streets
                   if getattr(st, "kind", "") == "draw")
        if many > 1 or variant == "draw27_single":
            self.lines.append(f"*** {DRAW_NAMES[min(self.draws, 3) - 1]} DRAW ***")

    def body(self) -> None:
        rows = [r for r in self.s.actions if r["kind"] not in ("ante", "blind")]
        last_player = max((i for i, r in enumerate(rows) if int(r["seat"]) >= 0
                           and r["kind"] in ("f", "cc", "cbr", "pb")), default=-1)
        if self.kind == "board":
            self.lines.append("*** HOLE CARDS ***")
        elif self.kind == "draw":
            self.lines.append("*** DEALING HANDS ***")
        prev = None
        for i, r in enumerate(rows):
            kind = r["kind"]
            if kind in ("dh", "db"):
                self.deal(r, first=prev not in ("dh",))
            elif kind == "sd" and prev not in ("sd", "dh"):
                self.draw_header()
                self.decide(r)
            elif kind in ("sm", "ex", "dc"):
                pass  # shown at the showdown from the seats rows
            else:
                self.decide(r)
            prev = kind
            if i == last_player and self.s.uncalled is not None:
                seat, chips = self.s.uncalled
                self.stack[seat] += chips
                self.lines.append(f"Uncalled bet ({chips}) returned to {self.name(seat)}")

    def showdown(self) -> None:
        s = self.s
        result = s.engine.result()
        if s.hand.get("showdown"):
            self.lines.append("*** SHOW DOWN ***")
            seat_of = s.engine.seat_of
            for p in s.engine.showdown_order():
                k = seat_of[p]
                row = s.seat_row(k)
                if not row.get("showdown"):
                    continue
                self.lines.append(f"{self.name(k)}: shows "
                                  f"{_cards(split_cards(row.get('cards')))} ({_words(row)})")
        pots = [p for p in result.pots if p.winners]
        many = len(pots) > 1
        for i in reversed(range(len(pots))):
            where = "pot" if not many else ("main pot" if i == 0 else
                                            "side pot" if len(pots) == 2 else
                                            f"side pot-{i}")
            for k, won in sorted(pots[i].winners.items()):
                self.lines.append(f"{self.name(int(k))} collected {int(won)} from {where}")

    def summary(self) -> None:
        s = self.s
        h = s.hand
        pots = [p for p in s.engine.result().pots if p.winners]
        total = sum(int(p.amount) for p in pots) + int(h.get("rake") or 0)
        parts = ""
        if len(pots) > 1:
            parts = f" Main pot {int(pots[0].amount)}." + "".join(
                f" Side pot{'' if len(pots) == 2 else f'-{i}'} {int(p.amount)}."
                for i, p in enumerate(pots[1:], 1))
        self.lines.append("*** SUMMARY ***")
        self.lines.append(f"Total pot {total}{parts} | Rake {int(h.get('rake') or 0)}")
        if self.board:
            self.lines.append(f"Board {_cards(self.board)}")
        button = int(h["button"])
        kinds = s.blind_kinds()
        for k in sorted(range(s.n), key=lambda x: self.number[x]):
            row = s.seat_row(k)
            role = ""
            if self.kind != "stud" and k == button:
                role = " (button)"
            elif k in kinds:
                role = f" ({kinds[k]} blind)"
            won = int(row.get("pot_won") or 0)
            cards = _cards(split_cards(row.get("cards")))
            if k in self.folded_at:
                quiet = " (didn't bet)" if self.voluntary[k] == 0 else ""
                what = f"folded {self.folded_at[k]}{quiet}"
            elif row.get("showdown"):
                what = (f"showed {cards} and won ({won}) with {_words(row)}" if won else
                        f"showed {cards} and lost with {_words(row)}")
            elif won:
                what = f"collected ({won})"
            else:
                what = "lost"
            self.lines.append(f"Seat {self.number[k]}: {self.name(k)}{role} {what}")


def _words(row: dict[str, Any]) -> str:
    """The hand in words as stored (high, and the low in high-low games)."""
    high, low = row.get("high"), row.get("low")
    if high and low:
        return f"HI: {high}; LO: {low}"
    return str(high or (f"Lo: {low}" if low else "a hand"))


def to_pokerstars(stored: StoredHand, hero: int, *,
                  stamp: str = "2000/01/01 00:00:00 ET") -> str:
    """The PokerStars text of one stored hand from seat ``hero``'s view."""
    h = stored.hand
    reason = supported(str(h["variant"]), str(h["betting"]))
    if reason is not None:
        raise ExportError(reason)
    if int(h.get("carry_in") or 0) or h.get("passed"):
        raise ExportError(f"{stored.label}: a pot carried from a passed deal has no "
                          "PokerStars line")
    if not 0 <= hero < stored.n:
        raise ExportError(f"{stored.label}: no seat {hero} at this table of {stored.n}")
    w = _Writer(stored, hero, stamp)
    w.header()
    w.forced()
    w.body()
    w.showdown()
    w.summary()
    return "\n".join(w.lines) + "\n"
