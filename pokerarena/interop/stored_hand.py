"""A stored hand as steps a viewer replays (issue 31), read from its rows alone.

The rows of one hand (its ``hands`` row, its ``seats`` rows and its ``actions`` log, as
stored) become a list of steps: after each log entry, every seat's stack, its chips in
this betting round and in the hand, what it folded, the cards it holds as a chosen seat
saw them, the board and the pot. The last step is the showdown, with the pots (main and
side pots from what each seat put in), the hands in words and what each seat won.

Nothing is replayed through the engine: the log already says every chip that moved
(``cc`` amounts are the chips added, ``cbr`` the total a seat's round bet reaches,
antes are dead money, blinds and bring-ins count toward the round's bet), so the steps
are sums of the rows. :func:`hand_steps` checks that they add up to the stored end
stacks and says so in ``"consistent"``: a viewer never shows a hand that disagrees with
its own rows without saying it.

Visibility follows the table's rules: with ``seat`` given, that seat's down cards are
shown, everyone's up cards (``seats.up_cards``) and the board are shown, other down
cards and other seats' discards are hidden (``"??"``) until a showdown or a ``sm`` shows
them. Without ``seat`` every card is shown (the omniscient view of a stored hand).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pokerarena.engine.actions import (
    BRING_IN_KIND,
    CALL_KIND,
    DEAL_BOARD_KIND,
    DEAL_HOLE_KIND,
    DECLARE_KIND,
    DISCARD_KIND,
    EXPOSE_KIND,
    FOLD_KIND,
    RAISE_KIND,
    SHOW_KIND,
)

HIDDEN = "??"
FORCED_KINDS = ("ante", "blind")
"""The log's forced bets (antes are dead money; blinds count toward the round's bet)."""


def split_cards(text: str | None) -> list[str]:
    """``"AsKd"`` → ``["As", "Kd"]`` (the rows' card text: two characters a card)."""
    text = text or ""
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def street_names(variant: Any | None) -> dict[int, str]:
    """A name for each street index of a variant (the ``actions.street`` numbering):
    board games by the board (pre-flop, flop, turn, river), stud by the cards a player
    holds (third street ...), draws numbered. Unknown variant: no names."""
    if variant is None:
        return {}
    board = held = draws = bets = 0
    board_names = {0: "pre-flop", 3: "flop", 4: "turn", 5: "river"}
    names: dict[int, str] = {}
    for i, st in enumerate(variant.streets):
        kind = getattr(st, "kind", "")
        if kind == "deal":
            board += st.board
            held += st.down + st.up
        elif kind == "draw":
            draws += 1
            names[i] = f"draw {draws}"
        elif kind == "bet":
            bets += 1
            if any(getattr(s, "board", 0) for s in variant.streets):
                names[i] = board_names.get(board, f"{board} board cards")
            elif any(getattr(s, "up", 0) for s in variant.streets):
                names[i] = f"{_ordinal(held)} street"
            else:
                names[i] = f"betting round {bets}"
        else:
            names[i] = kind
    return names


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth",
            7: "seventh", 8: "eighth"}.get(n, f"{n}th")


def side_pots(put_in: Sequence[int], folded: Sequence[bool], dead: int = 0
              ) -> list[dict[str, Any]]:
    """The pots from what each seat put in: a pot per level at which a live seat ran out
    of chips (or the top level), each with the live seats eligible for it; folded
    seats' chips and ``dead`` money (carried in) sit in the pots they reached."""
    live = sorted({put_in[s] for s in range(len(put_in)) if not folded[s]})
    pots: list[dict[str, Any]] = []
    prev = 0
    for level in live:
        amount = sum(min(p, level) - min(p, prev) for p in put_in)
        eligible = [s for s in range(len(put_in)) if not folded[s] and put_in[s] >= level]
        if amount:
            pots.append({"amount": amount, "eligible": eligible})
        prev = level
    over = sum(max(0, p - prev) for p in put_in)  # folded chips above the top live level
    if pots:
        pots[-1]["amount"] += over
        pots[0]["amount"] += dead
    elif over or dead:
        pots.append({"amount": over + dead, "eligible": []})
    return pots


def _describe(kind: str, amount: int, cards: list[str], bot: str | None, seat: int,
              target: int | None, *, to_call: int) -> str:
    who = f"seat {seat} ({bot})" if bot else f"seat {seat}"
    if kind == DEAL_HOLE_KIND:
        return f"deal to seat {target}: {' '.join(cards)}"
    if kind == DEAL_BOARD_KIND:
        return f"board: {' '.join(cards)}"
    if kind == "ante":
        return f"{who} antes {amount}"
    if kind == "blind":
        return f"{who} posts a blind of {amount}"
    if kind == BRING_IN_KIND:
        return f"{who} brings in for {amount}"
    if kind == FOLD_KIND:
        return f"{who} folds"
    if kind == CALL_KIND:
        return f"{who} calls {amount}" if amount else f"{who} checks"
    if kind == RAISE_KIND:
        return f"{who} {'raises' if to_call else 'bets'} to {amount}"
    if kind == DISCARD_KIND:
        return f"{who} draws {len(cards)}" if cards else f"{who} stands pat"
    if kind == SHOW_KIND:
        return f"{who} shows {' '.join(cards)}" if cards else f"{who} mucks"
    if kind == EXPOSE_KIND:
        return f"{who} exposes {' '.join(cards)}"
    if kind == DECLARE_KIND:
        return f"{who} declares {amount}"
    return f"{who}: {kind} {amount}".rstrip()


class _Table:
    """The running state the steps snapshot."""

    def __init__(self, hand: Mapping[str, Any], seats: Sequence[Mapping[str, Any]],
                 viewer: int | None) -> None:
        n = int(hand["players"])
        self.n = n
        self.viewer = viewer
        self.stack = [0] * n
        self.up: list[set[str]] = [set() for _ in range(n)]
        for s in seats:
            k = int(s["seat"])
            self.stack[k] = int(s["start_stack"])
            self.up[k] = set(split_cards(s.get("up_cards")))
        self.bet = [0] * n          # this betting round
        self.put_in = [0] * n       # this hand
        self.folded = [False] * n
        self.held: list[list[str]] = [[] for _ in range(n)]
        self.shown = [viewer is None or k == viewer for k in range(n)]
        self.board: list[str] = []
        self.dead = int(hand.get("carry_in") or 0)
        self.street: int | None = None

    def visible(self, k: int, card: str) -> str:
        return card if self.shown[k] or card in self.up[k] else HIDDEN

    def snapshot(self) -> dict[str, Any]:
        return {"stacks": self.stack[:], "bets": self.bet[:], "put_in": self.put_in[:],
                "folded": self.folded[:], "board": self.board[:],
                "pot": sum(self.put_in) + self.dead,
                "cards": [[self.visible(k, c) for c in self.held[k]] for k in range(self.n)]}

    def pay(self, k: int, chips: int, *, to_round: bool) -> None:
        self.stack[k] -= chips
        self.put_in[k] += chips
        if to_round:
            self.bet[k] += chips


def hand_steps(hand: Mapping[str, Any], seats: Sequence[Mapping[str, Any]],
               actions: Sequence[Mapping[str, Any]], *, seat: int | None = None,
               variant: Any | None = None) -> dict[str, Any]:
    """The viewer's JSON for one hand (module docstring): ``hand``, ``seats`` and
    ``actions`` are the stored rows as dicts; ``seat`` the seat whose view is shown
    (None: every card); ``variant`` names the streets when known."""
    seats = sorted(seats, key=lambda r: int(r["seat"]))
    t = _Table(hand, seats, seat)
    names = street_names(variant)
    steps: list[dict[str, Any]] = [{"seq": None, "street": None, "street_name": "start",
                                    "seat": None, "kind": "start", "amount": 0,
                                    "cards": [], "text": "the hand starts", "fault": False,
                                    **t.snapshot()}]
    for a in sorted(actions, key=lambda r: int(r["seq"])):
        kind = str(a["kind"])
        k = int(a["seat"])
        amount = int(a.get("amount") or 0)
        cards = split_cards(a.get("cards"))
        target = a.get("target")
        street = a.get("street")
        if street is not None and street != t.street:
            t.street = int(street)
            t.bet = [0] * t.n
        to_call = max(t.bet) - t.bet[k] if k >= 0 else 0
        shown = cards
        if kind == DEAL_HOLE_KIND and target is not None:
            tk = int(target)
            t.held[tk].extend(cards)
            shown = [t.visible(tk, c) for c in cards]
        elif kind == DEAL_BOARD_KIND:
            t.board.extend(cards)
        elif kind == "ante":
            t.pay(k, amount, to_round=False)
        elif kind in ("blind", BRING_IN_KIND, CALL_KIND):
            t.pay(k, amount, to_round=True)
        elif kind == RAISE_KIND:
            t.pay(k, amount - t.bet[k], to_round=True)
        elif kind == FOLD_KIND:
            t.folded[k] = True
        elif kind == DISCARD_KIND:
            t.held[k] = [c for c in t.held[k] if c not in set(cards)]
            shown = cards if t.shown[k] else [HIDDEN] * len(cards)
        elif kind in (SHOW_KIND, EXPOSE_KIND):
            if kind == SHOW_KIND and cards:
                t.shown[k] = True
            else:
                t.up[k].update(cards)
        steps.append({"seq": int(a["seq"]), "street": t.street,
                      "street_name": names.get(t.street, f"street {t.street}")
                      if t.street is not None else "",
                      "seat": k if k >= 0 else None, "bot": a.get("bot"), "kind": kind,
                      "amount": amount, "cards": shown, "fault": bool(a.get("fault")),
                      "text": _describe(kind, amount, shown, a.get("bot"), k,
                                        None if target is None else int(target),
                                        to_call=to_call),
                      **t.snapshot()})
    return _finish(hand, seats, t, steps)


def _finish(hand: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], t: _Table,
            steps: list[dict[str, Any]]) -> dict[str, Any]:
    """The uncalled bet's return, the showdown step and the seats' summary; checks the
    sums against the rows."""
    top = sorted(range(t.n), key=lambda k: -t.put_in[k])
    uncalled = t.put_in[top[0]] - t.put_in[top[1]] if t.n > 1 else 0
    if uncalled > 0:  # nobody matched it: it goes back and is in no pot
        k = top[0]
        t.put_in[k] -= uncalled
        t.stack[k] += uncalled
        t.bet[k] = max(0, t.bet[k] - uncalled)
        steps.append({"seq": None, "street": t.street, "street_name": steps[-1]["street_name"],
                      "seat": k, "kind": "uncalled", "amount": uncalled, "cards": [],
                      "fault": False, "text": f"uncalled bet of {uncalled} returned to "
                      f"seat {k}", **t.snapshot()})
    pots = side_pots(t.put_in, t.folded, t.dead)
    for s in seats:
        k = int(s["seat"])
        if s.get("showdown"):
            t.shown[k] = True
        # the stored final cards (after draws) are the truth for what a seat held
        t.held[k] = split_cards(s.get("cards")) or t.held[k]
    for s in seats:
        t.stack[int(s["seat"])] += int(s.get("pot_won") or 0)
    carry_out = int(hand.get("carry_out") or 0)
    showdown = [{"seat": int(s["seat"]), "bot": s.get("bot"), "high": s.get("high"),
                 "low": s.get("low"), "won": int(s.get("pot_won") or 0)}
                for s in seats if s.get("showdown") or int(s.get("pot_won") or 0)]
    final = t.snapshot()
    final["pot"] = 0
    steps.append({"seq": None, "street": t.street, "street_name": "showdown"
                  if hand.get("showdown") else "end", "seat": None, "kind": "showdown",
                  "amount": 0, "cards": [], "fault": False, "text": _summary(showdown),
                  **final})
    consistent = all(t.stack[int(s["seat"])] == int(s["end_stack"]) for s in seats) and \
        sum(t.put_in) + t.dead == int(hand["pot"]) + carry_out
    return {
        "run_id": hand.get("run_id"), "unit": hand.get("unit"), "match": int(hand["match"]),
        "hand": int(hand["hand"]), "deal": hand.get("deal"), "variant": hand.get("variant"),
        "betting": hand.get("betting"), "players": t.n, "button": int(hand["button"]),
        "bb": hand.get("bb"), "pot": int(hand["pot"]), "rake": int(hand.get("rake") or 0),
        "carry_in": t.dead, "carry_out": carry_out, "view": t.viewer,
        "seats": [{"seat": int(s["seat"]), "bot": s.get("bot"),
                   "position": s.get("position"), "start_stack": int(s["start_stack"]),
                   "end_stack": int(s["end_stack"]), "net": int(s["net"]),
                   "won": int(s.get("pot_won") or 0), "folded": bool(s.get("folded")),
                   "showdown": bool(s.get("showdown")), "high": s.get("high"),
                   "low": s.get("low"), "up_cards": split_cards(s.get("up_cards")),
                   "cards": [t.visible(int(s["seat"]), c) for c in split_cards(s.get("cards"))]}
                  for s in seats],
        "pots": pots, "showdown": showdown, "steps": steps, "consistent": consistent}


def _summary(showdown: list[dict[str, Any]]) -> str:
    parts = []
    for s in showdown:
        words = " / ".join(x for x in (s["high"], s["low"]) if x)
        won = f" wins {s['won']}" if s["won"] else " wins nothing"
        parts.append(f"seat {s['seat']} ({s['bot']})" + (f": {words}," if words else "") + won)
    return "; ".join(parts) if parts else "no pot won"
