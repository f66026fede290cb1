"""PokerStars hand-history text read into PHH hands that ``pokerarena replay`` plays
strictly: users bring real hands as test cases for their bots.

The games read are those :data:`~pokerarena.interop.pokerstars.GAMES` writes (hold'em,
Omaha, Omaha hi/lo, seven-card stud, stud hi/lo, razz, five-card draw, 2-7 single and
triple draw, badugi), cash or tournament headers, chips or currency amounts. What the
text does not say is written as unknown cards (``??``): other players' down cards until
they show them, their discards. The chips the text says each player collected (and the
uncalled bets returned) become ``finishing_stacks``, so the replay checks the pots too
(left out when the house took a rake, which PHH does not model).

A line that cannot be read is one :class:`PokerStarsError` naming its line number and
text; lines about the table rather than the hand (chat, players joining or leaving,
connections) are skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from pokerarena.interop import InteropError
from pokerarena.interop.pokerstars import GAMES, LIMITS
from pokerarena.rules import VariantError, load_variant
from pokerarena.rules.model import DealStreet

HEADER = re.compile(r"^PokerStars (?:Hand|Game|Zoom Hand) #(?P<id>\d+):")
TABLE = re.compile(r"^Table '(?P<table>.*)' (?P<max>\d+)-max(?: \(Play Money\))?"
                   r"(?: Seat #(?P<button>\d+) is the button)?")
SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>[^()]*?) in chips"
                  r"(?:, [^()]*)?\)(?P<rest>.*)$")
STREET = re.compile(r"^\*\*\* (?P<name>[^*]+?) \*\*\*(?P<cards>.*)$")
DEALT = re.compile(r"^Dealt to (?P<name>.+?) (?P<cards>(?:\[[^\]]*\] ?)+)$")
UNCALLED = re.compile(r"^Uncalled bet \((?P<amount>[^)]+)\) returned to (?P<name>.+)$")
COLLECTED = re.compile(r"^(?P<name>.+?) collected (?P<amount>\S+) from "
                       r"(?:pot|main pot|side pot(?:-\d+)?)$")
BRACKETS = re.compile(r"\[([^\]]*)\]")
# what follows "name: " in a line about the hand
MOVES = [
    ("ante", re.compile(r"^posts (?:the )?ante (?P<a>\S+)$")),
    ("sb", re.compile(r"^posts small blind (?P<a>\S+)$")),
    ("bb", re.compile(r"^posts big blind (?P<a>\S+)$")),
    ("pb", re.compile(r"^brings in for (?P<a>\S+)$")),
    ("f", re.compile(r"^folds(?: \[[^\]]*\])?$")),
    ("check", re.compile(r"^checks$")),
    ("call", re.compile(r"^calls (?P<a>\S+)$")),
    ("bet", re.compile(r"^bets (?P<a>\S+)$")),
    ("raise", re.compile(r"^raises (?P<a>\S+) to (?P<to>\S+)$")),
    ("discard", re.compile(r"^discards (?P<k>\d+) cards?(?: \[(?P<cards>[^\]]*)\])?$")),
    ("pat", re.compile(r"^stands pat(?: on \[[^\]]*\])?$")),
    ("show", re.compile(r"^shows \[(?P<cards>[^\]]*)\](?: \(.*\))?$")),
    ("muck", re.compile(r"^(?:mucks hand|doesn't show hand)$")),
]
TABLE_EVENTS = re.compile(r"(?: joins the table| leaves the table| is connected| is "
                          r"disconnected| has timed out| has returned| was removed| will "
                          r"be allowed| said, \"|: sits out|: is sitting out|Betting is "
                          r"capped| is sitting out|: sitting out|: finished the tournament"
                          r"| wins the tournament| re-buys| takes the rebuy)")
NAMES = {(name, LIMITS[b]): (variant, b) for variant, (name, _k, bets) in GAMES.items()
         for b in bets}
STUD_NAMES = {"3rd STREET": 0, "4th STREET": 1, "5th STREET": 2, "6th STREET": 3,
              "RIVER": 4}


class PokerStarsError(InteropError):
    """Text that is not a PokerStars hand history this reader knows: names the line."""


def _amount(text: str, where: str) -> Decimal:
    raw = text.strip().lstrip("$€£").replace(",", "")
    try:
        value = Decimal(raw)
    except InvalidOperation:
        raise PokerStarsError(f"{where}: {text!r} is not an amount") from None
    if value < 0 or not value.is_finite():
        raise PokerStarsError(f"{where}: {text!r} is not an amount")
    return value


def _num(x: Decimal) -> int | float:
    return int(x) if x == x.to_integral_value() else float(x)


def _cards(text: str, where: str) -> list[str]:
    out = text.split()
    for c in out:
        if len(c) != 2 or c[0] not in "23456789TJQKA" or c[1] not in "cdhs":
            raise PokerStarsError(f"{where}: {c!r} is not a card")
    return out


@dataclass
class _Hand:
    """What one hand's text says, as it is read."""

    start: int
    number: str
    variant: str = ""
    betting: str = ""
    stakes: tuple[Decimal, Decimal] = (Decimal(0), Decimal(0))
    table: str = ""
    button: int | None = None
    seats: dict[str, int] = field(default_factory=dict)
    stacks: dict[str, Decimal] = field(default_factory=dict)
    antes: dict[str, Decimal] = field(default_factory=dict)
    blinds: dict[str, Decimal] = field(default_factory=dict)
    bring_in: Decimal | None = None
    hero: str | None = None
    order: list[str] = field(default_factory=list)
    moves: list[tuple[int, str, str, dict[str, Any]]] = field(default_factory=list)
    returned: dict[str, Decimal] = field(default_factory=dict)
    collected: dict[str, Decimal] = field(default_factory=dict)
    rake: Decimal = Decimal(0)


def _split(text: str) -> list[list[tuple[int, str]]]:
    """The hands of a file, each as its numbered non-blank lines."""
    hands: list[list[tuple[int, str]]] = []
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.strip().lstrip("\ufeff")
        if not line:
            continue
        if HEADER.match(line):
            hands.append([])
        elif not hands:
            raise PokerStarsError(f"line {i}: {line[:80]!r}: not a PokerStars hand "
                                  "history (a hand starts 'PokerStars Hand #...:')")
        hands[-1].append((i, line))
    if not hands:
        raise PokerStarsError("no PokerStars hand in the text (a hand starts "
                              "'PokerStars Hand #...:')")
    return hands


def _header(h: _Hand, i: int, line: str) -> None:
    where = f"line {i}"
    for (game, limit), (variant, betting) in sorted(NAMES.items(), key=lambda x: -len(x[0][0])):
        m = re.search(rf"(?:^|[\s,:]){re.escape(game)} {limit} ", line)
        if m is not None:
            h.variant, h.betting = variant, betting
            rest = line[m.end():]
            stakes = re.search(r"\((?P<lo>[^/()]+)/(?P<hi>[^/()\s]+)(?: [A-Z]{3})?\)", rest)
            if stakes is None:
                raise PokerStarsError(f"{where}: no stakes such as (1/2) in the header")
            h.stakes = (_amount(stakes["lo"], where), _amount(stakes["hi"], where))
            return
    known = ", ".join(sorted({f"{g} {lim}" for g, lim in NAMES}))
    raise PokerStarsError(f"{where}: {line[:100]!r}: not a game this reader knows "
                          f"({known})")


def _player_line(h: _Hand, line: str) -> tuple[str, str] | None:
    """``(name, rest)`` of a ``name: rest`` line of a seated player (the longest
    name that fits, since names may hold ': ')."""
    best = None
    for name in h.seats:
        if line.startswith(name + ": ") and (best is None or len(name) > len(best)):
            best = name
    return None if best is None else (best, line[len(best) + 2:])


def _read(lines: list[tuple[int, str]]) -> _Hand:
    first_i, first = lines[0]
    h = _Hand(first_i, HEADER.match(first)["id"])  # type: ignore[index]
    _header(h, first_i, first)
    if len(lines) < 2 or not (m := TABLE.match(lines[1][1])):
        at = lines[1][0] if len(lines) > 1 else first_i
        raise PokerStarsError(f"line {at}: expected the table line "
                              "(Table 'name' 6-max Seat #1 is the button)")
    h.table = m["table"]
    h.button = int(m["button"]) if m["button"] else None
    summary = False
    for i, line in lines[2:]:
        where = f"line {i}"
        if summary:
            if line.startswith("Total pot") and (r := re.search(r"Rake (\S+)", line)):
                h.rake = _amount(r[1], where)
            continue
        if not h.moves and (m := SEAT.match(line)):
            if "is sitting out" in m["rest"] or "out of hand" in m["rest"]:
                continue
            h.seats[m["name"]] = int(m["seat"])
            h.stacks[m["name"]] = _amount(m["stack"], where)
            continue
        if (m := STREET.match(line)):
            if m["name"] == "SUMMARY":
                summary = True
            h.moves.append((i, "street", m["name"], {"cards": m["cards"]}))
            continue
        if (m := DEALT.match(line)):
            if m["name"] not in h.seats:
                raise PokerStarsError(f"{where}: cards dealt to {m['name']!r}, who has no seat")
            groups = [_cards(g, where) for g in BRACKETS.findall(m["cards"])]
            h.moves.append((i, "dealt", m["name"], {"groups": groups}))
            continue
        if (m := UNCALLED.match(line)):
            name = m["name"].strip()
            h.returned[name] = h.returned.get(name, Decimal(0)) + _amount(m["amount"], where)
            continue
        if (m := COLLECTED.match(line)) and m["name"] in h.seats:
            h.collected[m["name"]] = h.collected.get(m["name"], Decimal(0)) + _amount(
                m["amount"], where)
            continue
        said = _player_line(h, line)
        if said is not None:
            name, rest = said
            rest = rest.strip()
            for suffix in (" and is all-in", " and has reached the [\\S]+ cap"):
                rest = re.sub(suffix + "$", "", rest)
            for kind, pattern in MOVES:
                if (mv := pattern.match(rest)):
                    h.moves.append((i, kind, name, mv.groupdict()))
                    break
            else:
                if not TABLE_EVENTS.search(line):
                    raise PokerStarsError(f"{where}: {line[:100]!r}: not a move this "
                                          "reader knows")
            continue
        if TABLE_EVENTS.search(line):
            continue
        raise PokerStarsError(f"{where}: {line[:100]!r}: cannot read this line")
    if len(h.seats) < 2:
        raise PokerStarsError(f"line {first_i}: hand #{h.number} has fewer than two "
                              "seated players")
    return h


class _Builder:
    """Turns a read hand into PHH fields: players in PHH order, deals, moves, chips."""

    def __init__(self, h: _Hand) -> None:
        self.h = h
        self.variant = load_variant(h.variant)
        self.kind = GAMES[h.variant][1]
        seats = sorted(h.seats, key=h.seats.__getitem__)
        if self.kind != "stud":
            if h.button is None:
                raise PokerStarsError(f"line {h.start}: hand #{h.number}: no button seat "
                                      "in the table line")
            # the button acts last: the seats after it come first (p1 left of it)
            after = [s for s in seats if h.seats[s] > h.button]
            seats = after + [s for s in seats if h.seats[s] <= h.button]
        self.players = seats
        self.p = {name: k + 1 for k, name in enumerate(seats)}
        self.deals = [st for st in self.variant.streets if isinstance(st, DealStreet)]
        self.deal_no = 0
        self.due = False  # a deal street's header was read; its cards are not written
        self.actions: list[str] = []
        self.folded: set[str] = set()
        self.round: dict[str, Decimal] = {}
        self.put: dict[str, Decimal] = {n: Decimal(0) for n in seats}
        self.pending: dict[str, list[str]] = {}
        self.discards: list[tuple[str, int, list[str]]] = []
        self.hero_new: list[str] = []

    def who(self, name: str, where: str) -> str:
        if name not in self.p:
            raise PokerStarsError(f"{where}: {name!r} has no seat in this hand")
        return f"p{self.p[name]}"

    def pay(self, name: str, chips: Decimal, *, to_round: bool = True) -> None:
        self.put[name] += chips
        if to_round:
            self.round[name] = self.round.get(name, Decimal(0)) + chips

    def deal_street(self) -> None:
        """Write the pending deal of the current deal street (known cards or ??)."""
        if self.deal_no >= len(self.deals):
            return
        st = self.deals[self.deal_no]
        self.deal_no += 1
        self.due = False
        if st.board and not (st.down or st.up):
            return  # board cards come with their street line
        count = st.down + st.up
        for name in self.players:
            if name in self.folded:
                continue
            known = self.pending.get(name, [])
            if self.kind == "stud":  # others' down cards first, then their up cards
                cards = known if len(known) == count else ["??"] * (count - len(known)) + known
            else:
                cards = known if len(known) == count else ["??"] * count
            self.actions.append(f"d dh p{self.p[name]} {''.join(cards)}")
        self.pending = {}

    def flush_draw(self) -> None:
        """The replacement cards of a finished draw, in seat order after every discard."""
        if not self.discards:
            return
        order = sorted(self.discards, key=lambda d: self.p[d[0]])
        for name, k, _shown in order:
            if k == 0:
                continue
            new = self.hero_new if name == self.h.hero and len(self.hero_new) == k \
                else ["??"] * k
            self.actions.append(f"d dh p{self.p[name]} {''.join(new)}")
        self.discards = []
        self.hero_new = []

    def build(self) -> dict[str, Any]:
        h = self.h
        for i, kind, name, data in h.moves:
            where = f"line {i}"
            if kind in ("ante", "sb", "bb"):
                amount = _amount(data["a"], where)
                if kind == "ante":
                    h.antes[name] = amount
                    self.pay(name, amount, to_round=False)
                else:
                    h.blinds[name] = amount
                    self.pay(name, amount)
                continue
            if kind == "street":
                self.street(name, data, where)
                continue
            if kind == "dealt":
                self.dealt(name, data["groups"])
                continue
            if self.due or self.deal_no == 0:
                self.deal_street()
            if kind not in ("discard", "pat"):
                self.flush_draw()
            self.move(kind, name, data, where)
        self.flush_draw()
        if self.due:
            self.deal_street()
        return self.fields()

    def street(self, name: str, data: dict[str, Any], where: str) -> None:
        self.flush_draw()
        if self.due:
            self.deal_street()
        if name not in ("HOLE CARDS", "DEALING HANDS", "3rd STREET"):
            self.round = {}  # the blinds are the first round's bets
        if name in STUD_NAMES and self.kind == "stud" or name in ("HOLE CARDS",
                                                                   "DEALING HANDS"):
            self.due = True
        if name in ("FLOP", "TURN", "RIVER") and self.kind == "board":
            groups = BRACKETS.findall(data["cards"])
            if not groups:
                raise PokerStarsError(f"{where}: the {name.lower()} has no cards")
            if self.deal_no == 0:
                self.deal_street()
            self.actions.append(f"d db {''.join(_cards(groups[-1], where))}")

    def dealt(self, name: str, groups: list[list[str]]) -> None:
        new = groups[-1] if groups else []
        if self.kind == "stud":
            if len(groups) == 1 and len(new) > 1 or name == self.h.hero:
                self.h.hero = name
            self.pending[name] = new
            return
        if self.h.hero is None or self.h.hero == name:
            self.h.hero = name
            if self.discards or len(groups) > 1:
                self.hero_new = new
            else:
                self.pending[name] = new

    def move(self, kind: str, name: str, data: dict[str, Any], where: str) -> None:
        p = self.who(name, where)
        top = max(self.round.values(), default=Decimal(0))
        mine = self.round.get(name, Decimal(0))
        if kind == "f":
            self.folded.add(name)
            self.actions.append(f"{p} f")
        elif kind == "check":
            self.actions.append(f"{p} cc")
        elif kind == "call":
            self.pay(name, _amount(data["a"], where))
            self.actions.append(f"{p} cc")
        elif kind == "pb":
            amount = _amount(data["a"], where)
            self.h.bring_in = amount
            self.pay(name, amount)
            self.actions.append(f"{p} pb")
        elif kind in ("bet", "raise"):
            to = top + _amount(data["a"], where)
            if kind == "raise" and _amount(data["to"], where) != to:
                raise PokerStarsError(f"{where}: raises {data['a']} to {data['to']} does "
                                      f"not add up (the bet to call is {_num(top)})")
            self.pay(name, to - mine)
            self.actions.append(f"{p} cbr {_num(to)}")
        elif kind in ("discard", "pat"):
            k = int(data["k"]) if kind == "discard" else 0
            cards = _cards(data.get("cards") or "", where) if kind == "discard" else []
            if cards and len(cards) != k:
                raise PokerStarsError(f"{where}: discards {k} cards but names {len(cards)}")
            if cards:
                self.h.hero = name
            if not self.discards:
                self.round = {}  # a draw ends the betting round (with or without a header)
            shown = cards or ["??"] * k
            self.discards.append((name, k, shown))
            self.actions.append(f"{p} sd {''.join(shown)}".rstrip())
        elif kind == "show":
            self.actions.append(f"{p} sm {''.join(_cards(data['cards'], where))}")
        elif kind == "muck":
            self.actions.append(f"{p} sm")  # no cards: a muck

    def fields(self) -> dict[str, Any]:
        h = self.h
        n = len(self.players)
        code = self.variant.phh.get(h.betting)
        data: dict[str, Any] = {"variant": code or h.variant}
        if code is None:
            data["_betting"] = h.betting
        antes = [_num(h.antes.get(name, Decimal(0))) for name in self.players]
        blinds = [_num(h.blinds.get(name, Decimal(0))) for name in self.players]
        if n == 2 and any(blinds):  # heads-up blind games list forced bets in reverse
            antes.reverse()
            blinds.reverse()
        data["antes"] = antes
        data["blinds_or_straddles"] = blinds
        lo, hi = h.stakes
        if h.betting == "fixed_limit":
            data["small_bet"] = _num(lo)
            data["big_bet"] = _num(hi)
            data["_max_raises"] = "none"  # the text says what was raised: no cap to check
        else:
            data["min_bet"] = _num(hi)
        if self.kind == "stud":
            bring = h.bring_in if h.bring_in is not None else max(Decimal(1), lo / 2)
            data["bring_in"] = _num(bring)
        data["starting_stacks"] = [_num(h.stacks[name]) for name in self.players]
        data["actions"] = self.actions
        data["players"] = self.players
        data["seats"] = [h.seats[name] for name in self.players]
        data["venue"] = "PokerStars"
        data["hand"] = int(h.number)
        data["table"] = h.table
        if h.rake == 0 and h.collected:
            data["finishing_stacks"] = [
                _num(h.stacks[name] - self.put[name] + h.returned.get(name, Decimal(0))
                     + h.collected.get(name, Decimal(0))) for name in self.players]
        return data


def loads_pokerstars(text: str) -> list[dict[str, Any]]:
    """Every hand of a PokerStars text as PHH fields, in file order."""
    out = []
    for lines in _split(text):
        h = _read(lines)
        try:
            out.append(_Builder(h).build())
        except VariantError as exc:  # a variant file that does not load: not the user's
            raise PokerStarsError(f"line {h.start}: {exc}") from None
    return out
