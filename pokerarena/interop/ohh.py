"""Open Hand History (OHH, hh-specs.handhistory.org) JSON of a stored hand.

The document is ``{"ohh": {...}}`` with the spec's fields: the game (``game_type``,
``bet_limit``, blinds and ante), the ``players`` with their seats and starting stacks,
the ``rounds`` (one per betting street, then ``Showdown``) of numbered ``actions``, and
the ``pots`` with what each player won. An action's ``amount`` is the chips it puts in
(a raise: the chips added, not the total); the chips nobody called, returned to their
player, are in the ``pokerarena`` extension object (``uncalled``), so that the pots add
up to the contributions less that return (tested, with the schema in
``schemas/ohh.schema.json``). Every seat's cards are written (a stored hand is the
omniscient view); ``hero_player_id`` names the seat asked for.
"""

from __future__ import annotations

from typing import Any

from pokerarena.interop.history_export import StoredHand
from pokerarena.interop.stored_hand import split_cards, street_names

SPEC_VERSION = "1.4.7"
GAME_TYPES = {"holdem": "Holdem", "omaha": "Omaha", "omaha_hilo": "OmahaHiLo",
              "stud7": "Stud", "stud7_hilo": "StudHiLo", "razz": "Razz",
              "draw5": "FiveCardDraw", "draw5_blind": "FiveCardDraw",
              "draw27_triple": "TripleDraw27", "draw27_single": "SingleDraw27",
              "badugi": "Badugi", "holdem_short": "ShortDeck"}
BET_TYPES = {"no_limit": "NL", "pot_limit": "PL", "fixed_limit": "FL"}
BOARD = {0: "Preflop", 3: "Flop", 4: "Turn", 5: "River"}


class _Rounds:
    """The rounds of numbered actions, built while the log is walked once."""

    def __init__(self, stored: StoredHand) -> None:
        self.s = stored
        g = stored.engine.game
        self.names = street_names(g.variant)
        self.has_board = any(getattr(st, "board", 0) for st in g.variant.streets)
        self.rounds: list[dict[str, Any]] = []
        self.number = 0
        self.board: list[str] = []
        self.bet = [0] * stored.n
        self.stack = [int(r["start_stack"]) for r in stored.seats]
        self.kinds = stored.blind_kinds()
        self.current = self.new_round(BOARD[0] if self.has_board else "Start")

    def new_round(self, street: str) -> dict[str, Any]:
        if not self.rounds or self.rounds[-1]["street"] != "Start":  # blinds: first bets
            self.bet = [0] * self.s.n
        r: dict[str, Any] = {"id": len(self.rounds), "street": street, "cards": [],
                             "actions": []}
        self.rounds.append(r)
        self.current = r
        return r

    def add(self, player: int, action: str, amount: int = 0,
            cards: list[str] | None = None, allin: bool = False) -> None:
        self.number += 1
        a: dict[str, Any] = {"action_number": self.number, "player_id": player,
                             "action": action}
        if amount:
            a["amount"] = amount
        if cards is not None:
            a["cards"] = cards
        if allin:
            a["is_allin"] = True
        self.current["actions"].append(a)

    def walk(self) -> None:
        street: int | None = None
        for row in self.s.actions:
            kind = row["kind"]
            if not self.has_board and kind not in ("ante", "blind") and \
                    row.get("street") is not None and int(row["street"]) != street:
                street = int(row["street"])
                # stud: a deal street and its betting round; draws: a draw and its round
                last = self.current["actions"][-1]["action"] if self.current["actions"] \
                    else None
                if kind in ("dh", "sd") or last not in (None, "Dealt Cards", "Discard",
                                                        "Stand Pat"):
                    self.new_round(self.names.get(street, f"street {street}"))
            self.row(row)

    def row(self, row: dict[str, Any]) -> None:
        kind, k = row["kind"], int(row["seat"])
        amount = int(row.get("amount") or 0)
        cards = split_cards(row.get("cards"))
        if kind == "db":
            self.board.extend(cards)
            self.new_round(BOARD.get(len(self.board), "Board"))["cards"] = cards
            return
        if kind == "dh":
            self.add(int(row["target"]), "Dealt Cards", cards=cards)
            return
        if kind == "sd":
            self.add(k, "Discard" if cards else "Stand Pat", cards=cards)
            return
        put, bet = amount, self.bet
        if kind == "ante":
            name = "Post Ante"
        elif kind == "blind":
            name = "Post SB" if self.kinds[k] == "small" else "Post BB"
            bet[k] += amount
        elif kind == "pb":
            name = "Post Bring In"
            bet[k] += amount
        elif kind == "f":
            name = "Fold"
        elif kind == "cc":
            name = "Call" if amount else "Check"
            bet[k] += amount
        elif kind == "cbr":
            put = amount - bet[k]
            name = "Raise" if max(bet) else "Bet"
            bet[k] = amount
        else:
            return  # shows come from the seats rows, in the showdown round
        self.stack[k] -= put
        self.add(k, name, put, allin=put > 0 and self.stack[k] == 0)

    def showdown(self) -> None:
        s = self.s
        if not s.hand.get("showdown"):
            return
        self.new_round("Showdown")
        for p in s.engine.showdown_order():
            k = s.engine.seat_of[p]
            if s.seats[k].get("showdown"):
                self.add(k, "Shows Cards", cards=split_cards(s.seats[k].get("cards")))


def to_ohh(stored: StoredHand, hero: int | None = None, *,
           start: str = "2000-01-01T00:00:00Z") -> dict[str, Any]:
    """The OHH document of one stored hand (``hero``: the seat it is written for)."""
    from pokerarena.interop.pokerstars import hand_number, names_of

    h = stored.hand
    blinds = sorted(b for b in stored.engine.game.blinds if b)
    names = names_of(stored)
    players = [{"id": k, "seat": k + 1, "name": names[k], "display": str(r.get("bot")),
                "starting_stack": int(r["start_stack"]),
                "cards": split_cards(r.get("cards"))}
               for k, r in enumerate(stored.seats)]
    walk = _Rounds(stored)
    walk.walk()
    walk.showdown()
    rounds, board = walk.rounds, walk.board
    result = stored.engine.result()
    pots = []
    rake = int(h.get("rake") or 0)
    for i, pot in enumerate(p for p in result.pots if p.winners):
        pots.append({"number": i, "amount": int(pot.amount) + (rake if i == 0 else 0),
                     "rake": rake if i == 0 else 0, "jackpot": 0,
                     "player_wins": [{"player_id": int(k), "win_amount": int(v),
                                      "contributed_rake": 0}
                                     for k, v in sorted(pot.winners.items())]})
    uncalled = stored.uncalled
    return {"ohh": {
        "spec_version": SPEC_VERSION, "site_name": "pokerarena", "network_name": "pokerarena",
        "internal_version": "1", "tournament": False,
        "game_number": str(hand_number(h.get("run_id"), int(h["match"]), int(h["hand"]))),
        "start_date_utc": start, "table_name": f"{h.get('run_id')} {h.get('unit')}",
        "table_size": stored.n,
        "game_type": GAME_TYPES.get(str(h["variant"]), str(h["variant"])),
        "bet_limit": {"bet_type": BET_TYPES.get(str(h["betting"]), str(h["betting"])),
                      "bet_cap": 0},
        "currency": "Chips", "dealer_seat": int(h["button"]) + 1,
        "small_blind_amount": blinds[0] if blinds else 0,
        "big_blind_amount": blinds[-1] if blinds else 0,
        "ante_amount": int(h.get("ante") or 0),
        "hero_player_id": hero if hero is not None else 0,
        "flags": [], "players": players, "rounds": rounds, "pots": pots,
        "pokerarena": {"run_id": h.get("run_id"), "unit": h.get("unit"),
                       "match": int(h["match"]), "hand": int(h["hand"]),
                       "variant": h["variant"], "betting": h["betting"],
                       "board": board, "carry_in": int(h.get("carry_in") or 0),
                       "carry_out": int(h.get("carry_out") or 0),
                       "uncalled": None if uncalled is None else
                       {"player_id": uncalled[0], "amount": uncalled[1]},
                       "end_stacks": [int(r["end_stack"]) for r in stored.seats]}}}
