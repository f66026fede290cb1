"""The showdown: who shows in which order, shows and mucks (manual showdowns)."""

from __future__ import annotations

from pokerarena.engine.actions import (
    SHOW_KIND,
    UNKNOWN,
    Action,
    IllegalAction,
)
from pokerarena.engine.hand.common import (
    PH_SHOW,
    _card_text,
    mypyc_attr,
)
from pokerarena.engine.hand.pots import SettlingHand


@mypyc_attr(allow_interpreted_subclasses=True)
class ShowdownHand(SettlingHand):
    """Shows and mucks at the showdown."""

    def _showdown(self) -> None:
        self.went_to_showdown = True
        if not self.prog.manual_show:
            self._settle()
            return
        self.phase = PH_SHOW
        self._show_order = self.showdown_order()
        self._next_shower()

    def _next_shower(self) -> None:
        for p in self._show_order:
            if not self.shown[p] and not self.mucked[p]:
                self.actor = p
                return
        self._settle()

    def _apply_show(self, p: int, action: Action) -> None:
        seat = self.seat_of[p]
        cards = tuple(action.cards)
        hole = self.hole[p]
        if cards:
            # Unknown cards (PHH "??") in a show are distinct cards nobody names.
            known = [c for c in hole if c != UNKNOWN]
            named = [c for c in cards if c != UNKNOWN]
            missing = [c for c in known if c not in named]
            if len(missing) > len(cards) - len(named) or len(cards) > len(hole):
                raise IllegalAction(f"seat {seat} shows {''.join(map(_card_text, cards))} but "
                                    f"holds {''.join(map(_card_text, hole))}")
            extra = [c for c in named if c not in known]
            n_unknown = len(hole) - len(known)
            if len(extra) > n_unknown or len(named) != len(set(named)):
                raise IllegalAction(f"seat {seat} shows {''.join(map(_card_text, cards))} but "
                                    f"holds {''.join(map(_card_text, hole))}")
            self._check_new_cards(tuple(extra))
            it = iter(extra)
            for i, c in enumerate(hole):
                if c == UNKNOWN:
                    nxt = next(it, None)
                    if nxt is not None:
                        hole[i] = nxt
            self.seen.update(extra)
            self.shown[p] = True
        else:
            if self.phase != PH_SHOW:
                raise IllegalAction(f"seat {seat} can only muck at the showdown")
            self.mucked[p] = True
        self.log.append((seat, Action(SHOW_KIND, 0, cards)))
        if self.phase == PH_SHOW:
            self._next_shower()

    def finish_showdown(self) -> None:
        """Show every hand still owed at a manual showdown (PHH files may omit them)."""
        if self.phase == PH_SHOW and not self.over:
            for p in list(self._show_order):
                if not self.shown[p] and not self.mucked[p]:
                    self.shown[p] = True
            self._settle()
