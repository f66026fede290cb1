"""ACPC 2.0.0: both sides against an independent implementation written here.

The reference below is written from the protocol description (MATCHSTATE lines, the
betting string with ``f``/``c``/``r``/``r<N>`` and ``/`` between rounds, hole cards by
position separated by ``|``, board cards of each round after a ``/``; client answers
are the state plus ``:<action>``; positions rotate with the hand number; no-limit
raises are totals over the hand; rounds nobody can bet in are still marked by ``/``).
It shares no code with :mod:`pokerarena.arena.acpc`; only the hand evaluator
scores showdowns.
"""

from __future__ import annotations

import io
import random
import socket
import threading
import time
from contextlib import redirect_stdout

import pytest
from acpc_games import LIMIT2, NOLIMIT2

from pokerarena.arena.acpc import (
    AcpcError,
    Client,
    Dealer,
    parse_gamedef,
)
from pokerarena.evaluator import evaluate

NOLIMIT3 = """GAMEDEF
nolimit
numPlayers = 3
numRounds = 4
stack = 20000 20000 20000
blind = 50 100 0
firstPlayer = 3 1 1 1
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
END GAMEDEF
"""

LIMIT3 = """GAMEDEF
limit
numPlayers = 3
numRounds = 4
blind = 5 10 0
raiseSize = 10 10 20 20
firstPlayer = 3 1 1 1
maxRaises = 3 4 4 4
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
END GAMEDEF
"""

TIMEOUT = 30.0


# =========================================================================== reference
def read_gamedef(text: str) -> dict:
    """A tiny independent reader of the game definition fields the reference needs."""
    g: dict = {"limit": True}
    for raw in text.splitlines():
        line = raw.split("#")[0].strip()
        low = line.lower()
        if low in ("limit", "nolimit"):
            g["limit"] = low == "limit"
        elif "=" in line:
            k, v = line.split("=")
            g[k.strip().lower()] = [int(x) for x in v.split()]
    return g


class RefHand:
    """Betting rules of ACPC hold'em, by position (0 = first seat after the button)."""

    def __init__(self, g: dict) -> None:
        self.g = g
        self.n = g["numplayers"][0]
        self.limit = g["limit"]
        self.stack = g.get("stack", [10**9] * self.n)
        self.bb = max(g["blind"])
        self.spent = list(g["blind"]) + [0] * (self.n - len(g["blind"]))
        self.folded = [False] * self.n
        self.rounds: list[list[str]] = [[]]
        self.round = 0
        self.over = False
        self._new_round_state()
        self.actor = self._first_from(g["firstplayer"][0] - 1)

    def _new_round_state(self) -> None:
        self.acted = [False] * self.n
        self.raises = 0
        self.min_inc = self.bb

    def can_bet(self, p: int) -> bool:
        return not self.folded[p] and self.spent[p] < self.stack[p]

    def _first_from(self, start: int) -> int:
        for k in range(self.n):
            p = (start + k) % self.n
            if self.can_bet(p):
                return p
        return -1

    def max_spent(self) -> int:
        return max(self.spent)

    def valid(self, tok: str) -> bool:
        p = self.actor
        if tok == "f":
            return self.spent[p] < self.max_spent()
        if tok == "c":
            return True
        if not tok.startswith("r"):
            return False
        if self.limit:
            cap = self.g["maxraises"][self.round] if "maxraises" in self.g else 1 << 30
            return tok == "r" and self.raises < cap
        total = int(tok[1:])
        lo = self.max_spent() + self.min_inc
        return self.max_spent() < total <= self.stack[p] and (total >= lo or
                                                               total == self.stack[p])

    def raise_range(self) -> tuple[int, int]:
        p = self.actor
        lo = min(self.max_spent() + self.min_inc, self.stack[p])
        return lo, self.stack[p]

    def apply(self, tok: str) -> None:
        assert self.valid(tok), (tok, self.betting())
        p = self.actor
        if tok == "f":
            self.folded[p] = True
        elif tok == "c":
            self.spent[p] = min(self.max_spent(), self.stack[p])
        else:
            if self.limit:
                total = self.max_spent() + self.g["raisesize"][self.round]
            else:
                total = int(tok[1:])
                self.min_inc = max(self.min_inc, total - self.max_spent())
            self.spent[p] = total
            self.raises += 1
            self.acted = [False] * self.n
        self.acted[p] = True
        self.rounds[-1].append(tok)
        if sum(not f for f in self.folded) == 1:
            self.over = True
            return
        for k in range(1, self.n + 1):
            q = (p + k) % self.n
            if self.can_bet(q) and (not self.acted[q] or self.spent[q] < self.max_spent()):
                self.actor = q
                return
        # the round is over
        while True:
            if self.round == 3:
                self.over = True
                return
            self.round += 1
            self.rounds.append([])
            self._new_round_state()
            if sum(self.can_bet(q) for q in range(self.n)) >= 2:
                self.actor = self._first_from(self.g["firstplayer"][self.round] - 1)
                return

    def betting(self) -> str:
        return "/".join("".join(r) for r in self.rounds)

    def showdown(self) -> bool:
        return self.over and sum(not f for f in self.folded) > 1


def ref_parse(line: str) -> dict:
    """Split a MATCHSTATE line into its fields (independent parser)."""
    head, pos, hand, betting, cards = line.split(":")[:5]
    assert head == "MATCHSTATE"
    parts = cards.split("/")
    return {"position": int(pos), "hand": int(hand), "betting": betting,
            "holes": parts[0].split("|"), "boards": parts[1:]}


def ref_tokens(betting: str) -> list[list[str]]:
    rounds = []
    for part in betting.split("/"):
        toks, i = [], 0
        while i < len(part):
            if part[i] == "r":
                j = i + 1
                while j < len(part) and part[j].isdigit():
                    j += 1
                toks.append(part[i:j])
                i = j
            else:
                toks.append(part[i])
                i += 1
        rounds.append(toks)
    return rounds


def ref_cards(text: str) -> list[str]:
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def ref_values(g: dict, h: RefHand, holes: list[list[str]], board: list[str]) -> list[int]:
    """Chips won by each position (side pots built from what each put in)."""
    n = h.n
    won = [-s for s in h.spent]
    alive = [p for p in range(n) if not h.folded[p]]
    strength = {p: evaluate(" ".join(holes[p] + board)) for p in alive} if len(alive) > 1 \
        else {alive[0]: 0}
    levels = sorted({h.spent[p] for p in alive})
    prev = 0
    for level in levels:
        pot = sum(max(0, min(s, level) - prev) for s in h.spent)
        elig = [p for p in alive if h.spent[p] >= level]
        best = max(strength[p] for p in elig)
        winners = [p for p in elig if strength[p] == best]
        for w in winners:
            won[w] += pot // len(winners)
        won[winners[0]] += pot % len(winners)
        prev = level
    return won


class LineIO:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.f = sock.makefile("rb")

    def send(self, text: str) -> None:
        self.sock.sendall(text.encode() + b"\r\n")

    def recv(self) -> str | None:
        line = self.f.readline()
        if not line:
            return None
        assert line.endswith(b"\r\n"), line
        return line[:-2].decode()


# --------------------------------------------------------------------------- ref client
def ref_client(port: int, gtext: str, seed: int, out: dict, check_values: bool) -> None:
    """An ACPC client: checks every state it receives, answers when it is its turn."""
    g = read_gamedef(gtext)
    n = g["numplayers"][0]
    rng = random.Random(seed)
    sock = None
    for _ in range(200):
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
            break
        except OSError:
            time.sleep(0.05)
    assert sock is not None
    io_ = LineIO(sock)
    io_.send("VERSION:2.0.0")
    total = 0
    hands = set()
    answered = 0
    while True:
        line = io_.recv()
        if line is None:
            break
        if line.startswith(("#", ";")):
            continue
        st = ref_parse(line)
        hands.add(st["hand"])
        assert len(st["holes"]) == n
        assert st["position"] == (out["player"] + st["hand"]) % n
        mine = st["holes"][st["position"]]
        assert len(ref_cards(mine)) == 2, line
        h = RefHand(g)
        rounds = ref_tokens(st["betting"])
        for r, toks in enumerate(rounds):
            for t in toks:
                assert not h.over, line
                h.apply(t)
            if r < len(rounds) - 1:
                assert h.round > r or h.over, line
        assert len(st["boards"]) == len(rounds) - 1, line
        assert [len(ref_cards(b)) for b in st["boards"]] == [3, 1, 1][:len(st["boards"])]
        assert h.betting() == st["betting"] or (h.over and st["betting"].startswith(
            h.betting())), line
        for p, hole in enumerate(st["holes"]):
            if p != st["position"]:
                assert hole == "" or h.showdown(), line  # others' cards only at showdown
        if h.over:
            if check_values:
                holes = [ref_cards(x) for x in st["holes"]]
                board = [c for b in st["boards"] for c in ref_cards(b)]
                total += ref_values(g, h, holes, board)[st["position"]]
            continue
        if h.actor != st["position"]:
            continue
        # answer with a random valid action
        opts = ["c", "c", "f", "r"]
        tok = rng.choice(opts)
        if tok == "f" and not h.valid("f"):
            tok = "c"
        if tok == "r":
            if h.limit:
                tok = "r" if h.valid("r") else "c"
            else:
                lo, hi = h.raise_range()
                tok = f"r{rng.choice([lo, hi, (lo + hi) // 2])}" if lo > h.max_spent() \
                    else "c"
                if not h.valid(tok):
                    tok = "c"
        io_.send(f"{line}:{tok}")
        answered += 1
    out.update(total=total, hands=len(hands), answered=answered)


# --------------------------------------------------------------------------- ref dealer
SUITS, RANKS = "cdhs", "23456789TJQKA"


def _ref_state(h: RefHand, holes: list[list[str]], board: list[str], me: int,
               hand_no: int) -> str:
    shown = h.showdown()
    hs = "|".join("".join(holes[p]) if p == me or (shown and not h.folded[p]) else ""
                  for p in range(h.n))
    cuts = [0, 3, 4, 5][:h.round + 1]
    bs = "".join("/" + "".join(board[cuts[i - 1]:cuts[i]]) for i in range(1, len(cuts)))
    return f"MATCHSTATE:{me}:{hand_no}:{h.betting()}:{hs}{bs}"


def ref_dealer(server: socket.socket, gtext: str, hands: int, seed: int, out: dict,
               our_player: int = 0) -> None:
    """A dealer for one external client (our Client); the other seats play randomly here."""
    g = read_gamedef(gtext)
    n = g["numplayers"][0]
    rng = random.Random(seed)
    server.settimeout(TIMEOUT)
    conn, _ = server.accept()
    io_ = LineIO(conn)
    assert io_.recv() == "VERSION:2.0.0"
    total = 0
    for hand_no in range(hands):
        deck = [r + s for r in RANKS for s in SUITS]
        rng.shuffle(deck)
        holes = [deck[2 * p:2 * p + 2] for p in range(n)]
        board = deck[2 * n:2 * n + 5]
        h = RefHand(g)
        me = (our_player + hand_no) % n

        while True:
            s = _ref_state(h, holes, board, me, hand_no)
            io_.send(s)
            if h.over:
                break
            if h.actor == me:
                line = io_.recv()
                assert line is not None and line.startswith(s + ":"), (s, line)
                tok = line[len(s) + 1:]
                assert h.valid(tok), (s, tok)  # our client never sends an invalid action
                h.apply(tok)
            else:
                tok = rng.choice(["c", "c", "r", "f"])
                if tok == "f" and not h.valid("f"):
                    tok = "c"
                if tok == "r":
                    if h.limit:
                        tok = "r" if h.valid("r") else "c"
                    else:
                        lo, hi = h.raise_range()
                        tok = f"r{rng.choice([lo, hi])}"
                        if not h.valid(tok):
                            tok = "c"
                h.apply(tok)
        total += ref_values(g, h, holes, board)[me]
    conn.close()
    out.update(total=total)


# =========================================================================== tests
def test_gamedef_maps_onto_holdem():
    gd = parse_gamedef(LIMIT2)
    game = gd.game()
    assert game.system_name == "fixed_limit"
    assert (game.small_bet, game.big_bet, game.max_raises) == (10, 20, 3)
    assert game.forced_by_position(2)[1] == [10, 5]
    gd = parse_gamedef(NOLIMIT3)
    game = gd.game()
    assert game.system_name == "no_limit" and game.min_bet == 100
    assert game.forced_by_position(3)[1] == [50, 100, 0]
    assert gd.stacks() == [20000] * 3


@pytest.mark.parametrize("text, words", [
    (NOLIMIT2.replace("numHoleCards = 2", "numHoleCards = 3"), "hold'em"),
    (NOLIMIT2.replace("firstPlayer = 2 1 1 1", "firstPlayer = 1 1 1 1"), "firstPlayer"),
    (LIMIT2.replace("maxRaises = 3 4 4 4", "maxRaises = 4 4 4 4"), "maxRaises"),
    (LIMIT2.replace("raiseSize = 10 10 20 20", "raiseSize = 10 20 20 20"), "raiseSize"),
    (NOLIMIT2.replace("nolimit\n", ""), "nolimit"),
    (NOLIMIT2.replace("numPlayers = 2", "numPlayers = 11"), "2 to 10"),
    (NOLIMIT2.replace("blind = 100 50", "blind = x"), "integers"),
])
def test_gamedef_errors_name_the_field(text, words):
    with pytest.raises(AcpcError, match=words):
        parse_gamedef(text).game()


def _run_dealer_with_ref_clients(gtext: str, hands: int, n_ext: int, bots: list[str],
                                 check_values: bool, tmp_path):
    gd = parse_gamedef(gtext)
    dealer = Dealer(gd, hands=hands, seed=5, ports=[0] * n_ext, bots=bots,
                    connect_timeout=TIMEOUT, log_path=tmp_path / "match.log")
    ports = dealer.listen()
    outs = [{"player": i} for i in range(n_ext)]
    threads = [threading.Thread(target=ref_client, args=(p, gtext, 10 + i, outs[i],
                                                         check_values), daemon=True)
               for i, p in enumerate(ports)]
    for t in threads:
        t.start()
    res = dealer.run()
    for t in threads:
        t.join(TIMEOUT)
        assert not t.is_alive()
    return res, outs


@pytest.mark.parametrize("gtext", [LIMIT2, NOLIMIT2])
def test_dealer_against_reference_clients_heads_up(gtext, tmp_path):
    res, outs = _run_dealer_with_ref_clients(gtext, 40, 2, [], True, tmp_path)
    d = res.as_dict()
    assert d["faults"] == [] and d["chips_conserved"]
    for i, o in enumerate(outs):
        assert o["hands"] == 40 and o["answered"] > 0
        assert o["total"] == d["entrants"][i]["net"]
    log = (tmp_path / "match.log").read_text().splitlines()
    assert len(log) == 41 and log[0].startswith("STATE:0:") and log[-1].startswith("SCORE:")


@pytest.mark.parametrize("gtext", [LIMIT3, NOLIMIT3])
def test_dealer_three_players_with_one_of_our_bots(gtext, tmp_path):
    res, outs = _run_dealer_with_ref_clients(gtext, 24, 2, ["tag"], True, tmp_path)
    d = res.as_dict()
    assert d["faults"] == [] and d["chips_conserved"]
    for i, o in enumerate(outs):
        assert o["hands"] == 24
        assert o["total"] == d["entrants"][i]["net"]


def _listener() -> socket.socket:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    return s


@pytest.mark.parametrize("gtext, bot", [(LIMIT2, "tag"), (NOLIMIT2, "tag"),
                                        (NOLIMIT2, "random"), (NOLIMIT3, "lag")])
def test_client_against_reference_dealer(gtext, bot):
    server = _listener()
    out: dict = {}
    t = threading.Thread(target=ref_dealer, args=(server, gtext, 30, 3, out), daemon=True)
    t.start()
    stats = Client(parse_gamedef(gtext), bot, seed=1).run("127.0.0.1",
                                                          server.getsockname()[1])
    t.join(TIMEOUT)
    server.close()
    assert not t.is_alive() and "total" in out
    assert stats["hands"] == 30 and stats["faults"] == []
    assert stats["net"] == out["total"]


def test_cli_connect_and_serve(tmp_path):
    from pokerarena.cli import main

    gfile = tmp_path / "nl.game"
    gfile.write_text(NOLIMIT2)
    # our client (CLI) against the reference dealer
    server = _listener()
    out: dict = {}
    t = threading.Thread(target=ref_dealer, args=(server, NOLIMIT2, 10, 9, out), daemon=True)
    t.start()
    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = main(["acpc", "connect", "--bot", "call", "--gamedef", str(gfile), "127.0.0.1",
                   str(server.getsockname()[1])])
    t.join(TIMEOUT)
    server.close()
    assert rc == 0 and '"hands": 10' in buf.getvalue()
    # our dealer (CLI) with one of our bots and the reference client
    probe = _listener()
    port = probe.getsockname()[1]
    probe.close()
    cl: dict = {"player": 0}
    t = threading.Thread(target=ref_client, args=(port, NOLIMIT2, 4, cl, True), daemon=True)
    t.start()
    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = main(["acpc", "serve", "--gamedef", str(gfile), "--hands", "12", "--seed", "2",
                   "--port", str(port), "--bots", "tag", "--json"])
    t.join(TIMEOUT)
    assert rc == 0 and cl["hands"] == 12
    assert f'"net": {cl["total"]}' in buf.getvalue().replace(".0,", ",")


def test_dealer_survives_bad_clients(tmp_path):
    """Garbage, invalid actions, silence and a disconnect: faults, and the match goes on."""
    gd = parse_gamedef(NOLIMIT2)
    dealer = Dealer(gd, hands=6, seed=1, ports=[0], bots=["call"], decision_time=0.3,
                    connect_timeout=TIMEOUT)
    (port,) = dealer.listen()

    def bad() -> None:
        sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        io_ = LineIO(sock)
        io_.send("VERSION:2.0.0")
        count = 0
        while True:
            line = io_.recv()
            if line is None:
                return
            st = ref_parse(line)
            h = RefHand(read_gamedef(NOLIMIT2))
            for toks in ref_tokens(st["betting"]):
                for tk in toks:
                    h.apply(tk)
            if h.over or h.actor != st["position"]:
                continue
            count += 1
            if count == 1:
                io_.send("hello")                      # garbage, then a real answer
                io_.send(f"{line}:r5")                 # a raise below the minimum
            elif count == 2:
                io_.send(f"{line}:x")                  # not an action
            elif count == 3:
                pass                                   # silence: a timeout
            elif count == 4:
                sock.close()                           # gone
                return
            else:
                io_.send(f"{line}:c")

    t = threading.Thread(target=bad, daemon=True)
    t.start()
    res = dealer.run()
    t.join(TIMEOUT)
    kinds = {f.kind for f in res.faults}
    assert {"garbage", "illegal", "timeout", "disconnected"} <= kinds
    assert res.hands == 6 and res.chips_conserved
