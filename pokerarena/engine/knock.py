"""Knock poker (003_… «Нок-покер»): the knock street's turns and its settlement.

A :class:`KnockHand` is a :class:`~pokerarena.engine.hand.Hand` whose last street is a
``knock`` street (see :class:`pokerarena.rules.model.KnockStreet`). After the antes and
the deal, each player in turn (from the dealer's left) makes up to three decisions:

1. draw: ``cc`` takes the top card of the stock, ``dt`` the top discard (once there is
   one); ``kn`` knocks instead (only before a player's first draw, or on any turn with
   the ``immediate`` option); ``f`` drops out (only on the last turn after a knock,
   paying the knocker the drop fee);
2. knock or not (no knock yet, ``immediate`` off): ``kn``, or ``cc`` to go on;
3. discard: ``sd`` with exactly one card, face up on the discard pile: every seat's
   observation shows the card (unlike draw poker's face-down discards), so everyone
   knows which card ``dt`` takes.

After a knock every other player still in has one last turn, then the hands are shown
(immediately with ``immediate``). When the stock runs out the hands are shown at once.
Played high-low (option ``hilo``) the pots split as usual; the knock payments and the
bonuses follow the high hands.
The PHH form uses the same codes (``p2 cc`` then ``d dh p2 7c``: a stock card;
``p3 dt``; ``p3 kn`` or ``p3 cc`` after the draw; ``p3 sd 7c``; ``p1 f``), our extension of
the standard; the knock payments and
bonuses follow from the actions and cards, so a replay recomputes them.
"""

from __future__ import annotations

from typing import Any

from pokerarena.engine.actions import (
    CALL_KIND,
    DEAL_HOLE_KIND,
    DEALER,
    DISCARD_KIND,
    FOLD_KIND,
    UNKNOWN,
    Action,
    IllegalAction,
    Legal,
)
from pokerarena.engine.hand import PH_NONE, Hand, _card_text, new_phase
from pokerarena.engine.options import GameOptions
from pokerarena.engine.program import register_family, register_street
from pokerarena.engine.steps import FamilyStep
from pokerarena.rules import KnockStreet

TAKE_DISCARD_KIND = "dt"   # take the top card of the discard pile
KNOCK_KIND = "kn"          # knock
PAY_KIND = "pay"           # a payment between players (logged, not a decision)

_DRAW, _KNOCK, _DISCARD, _WAIT = range(4)
PH_KNOCK = new_phase("knock")  # knock poker's turns
FAMILY = "knock"


def compile_knock(street: KnockStreet, options: GameOptions) -> FamilyStep:
    """The knock street as a step (option ``knock_immediate`` applied)."""
    if options.knock_immediate is not None:
        street = street.model_copy(update={"immediate": options.knock_immediate})
    return FamilyStep(FAMILY, street)


class KnockHand(Hand):
    """A hand of knock poker; see the module docstring."""

    def _start_family_step(self, step: FamilyStep) -> None:
        self.kspec = step.spec
        self.pile: list[int] = []  # discards, face up, the last on top (also in muck_pile)
        self.knocker = -1                          # position of the knocker
        self.took = [False] * self.n               # has drawn (stock or discard) at least once
        self.last_turns: list[int] = []            # positions still owed a last turn
        self.kstep = _DRAW
        deck = len(self.game.deck_list)
        dealt = sum(len(h) for h in self.hole)
        self.stock_left = deck - dealt
        self.payments: list[tuple[int, int, int, str]] = []  # (from seat, to seat, chips, why)
        self.phase = PH_KNOCK
        self._begin_turn(0)

    # -- turns ---------------------------------------------------------------------------
    def _begin_turn(self, p: int) -> None:
        """Start the turn of position ``p`` (the next live one from ``p`` on)."""
        n = self.n
        for i in range(n):
            q = (p + i) % n
            if not self.folded[q]:
                break
        else:  # pragma: no cover - a hand always has a live player
            self._finish()
            return
        if self.stock_left <= 0 and self.knocker < 0:
            self._finish()  # the stock ran out: show the hands at once
            return
        self.actor = q
        self.kstep = _DRAW
        self.phase = PH_KNOCK

    def _end_turn(self, p: int) -> None:
        if self.live == 1:
            self._finish()
            return
        if self.knocker >= 0:
            while self.last_turns:
                q = self.last_turns.pop(0)
                if not self.folded[q]:
                    self.actor = q
                    self.kstep = _DRAW
                    return
            self._finish()
            return
        self._begin_turn((p + 1) % self.n)

    def _finish(self) -> None:
        """The drawing is over: on to the next street (a declaration when the game is
        played high-low) and the showdown, the knocker showing first."""
        self.phase = PH_NONE
        self.actor = -1
        self.show_first = self.knocker if self.knocker >= 0 else 0
        self._advance()

    def _knock(self, p: int) -> None:
        self.knocker = p
        n = self.n
        self.last_turns = [(p + i) % n for i in range(1, n) if not self.folded[(p + i) % n]]
        self.log.append((self.seat_of[p], Action(KNOCK_KIND)))

    # -- legal actions -------------------------------------------------------------------
    def _compute_legal(self) -> Legal:
        if self.phase != PH_KNOCK or self.over:
            return super()._compute_legal()
        p = self.actor
        if p < 0:
            return self._legal_deal()
        step = self.kstep
        if step == _DISCARD:
            return Legal((DISCARD_KIND,), discard_min=1, discard_max=1)
        if step == _KNOCK:
            return Legal((CALL_KIND, KNOCK_KIND))
        kinds: list[str] = []
        if self.stock_left > 0:
            kinds.append(CALL_KIND)
        if self.pile:
            kinds.append(TAKE_DISCARD_KIND)
        if self.knocker < 0 and (self.kspec.immediate or not self.took[p]):
            kinds.append(KNOCK_KIND)
        if self.knocker >= 0:
            kinds.append(FOLD_KIND)
        return Legal(tuple(kinds))

    # -- applying ------------------------------------------------------------------------
    def _dispatch(self, action: Action, seat: int | None) -> None:
        if (self.phase != PH_KNOCK or self.over or self.actor < 0
                or (seat is not None and seat != self.seat_of[self.actor])):
            return super()._dispatch(action, seat)
        p = self.actor
        who = self.seat_of[p]
        kind = action.kind
        legal = self.legal_actions()
        if kind not in legal.kinds:
            raise IllegalAction(f"seat {who} cannot {kind!r} now: "
                                f"{', '.join(legal.kinds) or 'nothing'} allowed")
        step = self.kstep
        if kind == DISCARD_KIND:
            cards = tuple(action.cards)
            hole = self.hole[p]
            if len(cards) != 1:
                raise IllegalAction(f"seat {who} discards exactly one card, not {len(cards)}")
            c = cards[0]
            if c not in hole or c == UNKNOWN:
                if UNKNOWN in hole and c != UNKNOWN and c not in self.seen:
                    hole[hole.index(UNKNOWN)] = c  # a replay naming a card it never saw
                else:
                    raise IllegalAction(f"seat {who} does not hold {_card_text(c)}")
            i = hole.index(c)
            del hole[i]
            del self.isup[p][i]
            self.pile.append(c)
            self.muck_pile.append(c)  # discards are out of play until taken back
            self.seen.add(c)
            self.log.append((who, Action(DISCARD_KIND, 0, (c,))))
            self._end_turn(p)
            return
        if kind == KNOCK_KIND:
            self._knock(p)
            if step == _DRAW:  # before drawing: the knocker's turn ends here
                if self.kspec.immediate:
                    self.last_turns = []
                    self._finish()
                else:
                    self._end_turn(p)
            else:
                self.kstep = _DISCARD
            return
        if step == _KNOCK:  # cc: no knock
            self.log.append((who, Action(CALL_KIND)))
            self.kstep = _DISCARD
            return
        if kind == FOLD_KIND:
            self.folded[p] = True
            self.live -= 1
            self.muck_pile.extend(c for c in self.hole[p] if c != UNKNOWN)
            self.log.append((who, Action(FOLD_KIND)))
            self._pay(p, self.knocker, self.kspec.drop_fee, "drop")
            self._end_turn(p)
            return
        self.took[p] = True
        if kind == TAKE_DISCARD_KIND:
            c = self.pile.pop()
            self.muck_pile.remove(c)
            self.hole[p].append(c)
            self.isup[p].append(False)
            self.log.append((who, Action(TAKE_DISCARD_KIND)))
            self._after_draw(p)
            return
        # cc: the top card of the stock
        self.stock_left -= 1
        self.log.append((who, Action(CALL_KIND)))
        if self.manual:
            self.owed[p] = 1
            self.kstep = _WAIT
            self._wait_actor = p
            self.actor = -1  # the dealer deals the card (``d dh``)
            return
        card = self._take(1)
        self.hole[p].extend(card)
        self.isup[p].append(False)
        self.log.append((DEALER, Action(DEAL_HOLE_KIND, 0, tuple(card), who)))
        self._after_draw(p)

    def _after_draw(self, p: int) -> None:
        self.actor = p
        self.kstep = _KNOCK if (self.knocker < 0 and not self.kspec.immediate) else _DISCARD

    def _after_manual_deal(self) -> None:
        if self.phase == PH_KNOCK and self.kstep == _WAIT:
            if not any(self.owed):
                self._after_draw(self._wait_actor)
            return
        super()._after_manual_deal()

    # -- payments ------------------------------------------------------------------------
    def _pay(self, src: int, dst: int, chips: int, why: str) -> int:
        """Move up to ``chips`` (what ``src`` has) from position ``src`` to ``dst``."""
        amt = min(chips, self.stack[src])
        if amt > 0:
            self.stack[src] -= amt
            self.stack[dst] += amt
            self.payments.append((self.seat_of[src], self.seat_of[dst], amt, why))
            self.log.append((self.seat_of[src], Action(PAY_KIND, amt, (), self.seat_of[dst])))
        return amt

    def _settle(self) -> None:
        super()._settle()
        res = self._result
        if res is None or not res.went_to_showdown:
            return
        spec = self.kspec
        n = self.n
        pos_of = self.pos_of
        values = {pos_of[s]: raw[1] for s, raw in res.showdown_raw.items()}
        if not values:
            return
        best = max(values.values())
        winners = [p for p, v in values.items() if v == best]
        alive = [p for p in range(n) if not self.folded[p]]
        k = self.knocker
        if k >= 0 and not spec.immediate:
            if winners == [k]:
                for p in alive:
                    if p != k:
                        self._pay(p, k, spec.knocker_wins, "knocker wins")
            elif k not in winners:
                for p in alive:
                    if p != k:
                        self._pay(k, p, spec.knocker_loses, "knocker loses")
        bonuses: dict[int, int] = {}
        for w in winners:
            each = 0
            if w == k and not self.took[k] and winners == [k]:
                each += spec.bonus_no_draw
            each += _hand_bonus(self.hole[w], spec)
            if each:
                for p in range(n):
                    if p not in winners:
                        got = self._pay(p, w, each, "bonus")
                        bonuses[self.seat_of[w]] = bonuses.get(self.seat_of[w], 0) + got
        for p in range(n):
            s = self.seat_of[p]
            res.stacks[s] = self.stack[p]
            res.deltas[s] = self.stack[p] - self.start[p]
        res.bonuses = bonuses


def _hand_bonus(cards: list[int], spec: Any) -> int:
    """The hand bonus: a flush headed by an ace, any other flush, four of a kind."""
    known = [c for c in cards if c < 52]
    if len(known) == 5 and len({c & 3 for c in known}) == 1:
        return spec.bonus_ace_flush if max(c >> 2 for c in known) == 12 else spec.bonus_flush
    counts: dict[int, int] = {}
    for c in known:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
    if any(v == 4 for v in counts.values()):
        return spec.bonus_four_of_a_kind
    return 0


# Knock poker's discards go face up to the pile and come back into play (``dt``).
register_street(KnockStreet, FAMILY, compile_knock, reshuffles_discards=True,
                discards_face_up=True)
register_family(FAMILY, KnockHand)
