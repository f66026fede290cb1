"""Dealing: the stock, automatic and manual deals, checks on dealt cards."""

from __future__ import annotations

from pokerarena.engine.actions import (
    DEAL_BOARD_KIND,
    DEAL_HOLE_KIND,
    DEALER,
    UNKNOWN,
    Action,
    EngineError,
    IllegalAction,
    Legal,
)
from pokerarena.engine.hand.common import (
    PH_DEAL,
    PH_DRAW,
    PH_NONE,
    _card_text,
    _new_tuple,
    mypyc_attr,
)
from pokerarena.engine.hand.state import HandState


@mypyc_attr(allow_interpreted_subclasses=True)
class DealingHand(HandState):
    """Deals cards from the stock, or takes the dealer's cards (manual dealing)."""

    def _take(self, k: int, exclude: tuple[int, ...] = ()) -> list[int]:
        stock = self.stock
        # Draw poker: the bottom card of the stock is not dealt; when more cards are
        # needed it is shuffled with the discards (000_… «Нижняя карта колоды не
        # используется»). Split openers are set aside, never reshuffled.
        bottom = 1 if self.prog.dead_bottom_card else 0
        if len(stock) - bottom < k:
            aside = set(exclude)
            for cards in self.split_openers.values():
                aside.update(cards)
            pile = [c for c in self.muck_pile if c not in aside]
            if bottom and stock:
                pile.append(stock.pop(0))
            if len(stock) + len(pile) < k:
                raise EngineError("the deck ran out of cards")
            self.muck_pile = [c for c in self.muck_pile if c in aside]
            fresh = self.rng.permutation(pile).tolist() if pile else []
            stock[:0] = fresh
        out = stock[-k:]
        del stock[-k:]
        return out

    def _deal_auto(self, down: int, up: int, board: int) -> None:
        n = self.n
        per = down + up
        if per:
            live = [p for p in range(n) if not self.folded[p]]
            if len(self.stock) < per * len(live) and not up and not board:
                # Stud: not enough cards for everyone: one shared card to the board.
                board = 1
                per = 0
            if per:
                mask = ((1 << up) - 1) << down
                flags = [False] * down + [True] * up
                stock, hole, isup, log, seat_of = (self.stock, self.hole, self.isup, self.log,
                                                   self.seat_of)
                enough = len(stock) >= per * len(live)
                choose, self.choose_down = self.choose_down, None
                for p in live:
                    if enough:  # _take inlined: the top ``per`` cards of the stock
                        cards = stock[-per:]
                        del stock[-per:]
                    else:
                        cards = self._take(per)
                    hole[p].extend(cards)
                    if choose is not None and choose[p]:  # the up card asked for down
                        isup[p].extend([False] * per)
                        log.append((DEALER, Action(DEAL_HOLE_KIND, 0, tuple(cards), seat_of[p])))
                        continue
                    isup[p].extend(flags)
                    log.append((DEALER, _new_tuple(Action, (DEAL_HOLE_KIND, 0, tuple(cards),
                                                            seat_of[p], mask))))
        if board:
            cards = self._take(board)
            self.board.extend(cards)
            self.log.append((DEALER, _new_tuple(Action, (DEAL_BOARD_KIND, 0, tuple(cards), -1, 0))))

    def _owe_deal(self, down: int, up: int, board: int) -> None:
        choose, self.choose_down = self.choose_down, None
        for p in range(self.n):
            if not self.folded[p]:
                self.owe_down[p] = down
                self.owe_up[p] = up
                if choose is not None and choose[p]:  # this up card asked for down
                    self.owe_down[p], self.owe_up[p] = down + up, 0
        self.owe_board = board
        if down + up or board:
            self.phase = PH_DEAL
            self.actor = -1

    def _legal_deal(self) -> Legal:
        to = tuple(self.seat_of[p] for p in range(self.n)
                   if self.owe_down[p] + self.owe_up[p] + self.owed[p] > 0)
        return Legal((DEAL_HOLE_KIND, DEAL_BOARD_KIND) if self.owe_board else (DEAL_HOLE_KIND,),
                     deal_to=to, deal_board=self.owe_board)

    def owed_to(self, seat: int) -> int:
        """Cards the manual dealer still owes ``seat`` now (down, up and draw
        replacements): what exact tools enumerate at a deal (docs/exact.md)."""
        p = self.pos_of[seat]
        return self.owe_down[p] + self.owe_up[p] + self.owed[p]

    def _check_new_cards(self, cards: tuple[int, ...]) -> None:
        seen = set()
        deck = self.prog.deck_list
        for c in cards:
            if c == UNKNOWN:
                continue
            if c in seen or (c in self.seen and not self._reusable(c)):
                raise IllegalAction(f"card {_card_text(c)} was already dealt")
            if c not in deck:
                raise IllegalAction(f"card {_card_text(c)} is not in the {self.prog.variant.deck} "
                                    "deck")
            seen.add(c)

    def _reusable(self, c: int) -> bool:
        """In draw games a discarded or folded card may come back after the discards
        are reshuffled; a card in a live hand or on the board never can."""
        if not self.prog.reshuffles_discards or c in self.board:
            return False
        return not any(c in self.hole[p] for p in range(self.n) if not self.folded[p])

    def _apply_deal(self, action: Action) -> None:
        cards = tuple(action.cards)
        if not cards:
            raise IllegalAction("a deal needs cards")
        if action.kind == DEAL_BOARD_KIND:
            owe = self.owe_board
            if owe == 0 and self.phase == PH_DEAL and not any(self.owe_up) and any(self.owe_down):
                # Stud with too few cards: the last card is one shared board card.
                if len(cards) != 1:
                    raise IllegalAction("a shared stud card is one card")
                self._check_new_cards(cards)
                self.owe_down = [0] * self.n
                owe = 1
            if len(cards) > owe:
                raise IllegalAction(f"the board is owed {owe} card(s), not {len(cards)}")
            self._check_new_cards(cards)
            self.board.extend(cards)
            self.seen.update(c for c in cards if c != UNKNOWN)
            self.owe_board -= len(cards) if self.owe_board else 0
            self.log.append((DEALER, Action(DEAL_BOARD_KIND, 0, cards)))
        else:
            seat = action.target
            if not 0 <= seat < self.n:
                raise IllegalAction(f"no seat {seat} to deal to")
            p = self.pos_of[seat]
            down, up, draw = self.owe_down[p], self.owe_up[p], self.owed[p]
            if len(cards) > down + up + draw:
                raise IllegalAction(f"seat {seat} is owed {down + up + draw} card(s), "
                                    f"not {len(cards)}")
            self._check_new_cards(cards)
            mask = 0
            for i, c in enumerate(cards):
                if draw:
                    draw -= 1
                    faceup = False
                elif down:
                    down -= 1
                    faceup = False
                else:
                    up -= 1
                    faceup = True
                if faceup:
                    mask |= 1 << i
                self.hole[p].append(c)
                self.isup[p].append(faceup)
            self.owe_down[p], self.owe_up[p], self.owed[p] = down, up, draw
            self.seen.update(c for c in cards if c != UNKNOWN)
            self.log.append((DEALER, Action(DEAL_HOLE_KIND, 0, cards, seat, mask)))
        self._after_manual_deal()

    def _after_manual_deal(self) -> None:
        if any(self.owe_down) or any(self.owe_up) or self.owe_board:
            return
        if self.phase == PH_DEAL:
            self.phase = PH_NONE
            self._advance()
        elif self.phase == PH_DRAW:
            self._continue_draw()
