"""What a seat sees of one log entry: the one rule every view of a hand follows.

The platform's central guarantee is that a bot sees only what its seat may see. Both the
engine's :class:`~pokerarena.engine.hand.Observation` and the table loop's fast views
(:class:`pokerarena.arena.views.ViewMaker`) call :func:`seen_by` for every entry, so a fix
here reaches both; neither restates the rule.

The rule: cards dealt to a seat are seen by that seat; the others see only the face-up
ones. Cards a player discards are seen by him alone, unless the game's discards go face
up (knock poker's discard pile). A choice made during a simultaneous expose or declare
turn is hidden from the others (amount 0, cards unknown) until everyone has chosen.
Everything else (bets, board cards, shows, ...) is public.
"""

from __future__ import annotations

from typing import Final

from pokerarena.engine.actions import (
    DEAL_HOLE_KIND,
    DECLARE_KIND,
    DISCARD_KIND,
    EXPOSE_KIND,
    UNKNOWN,
    Action,
)

NO_SEAT: Final = -3  # a seat that owns no entry: what every seat but an entry's owner sees
_new: Final = tuple.__new__  # an Action without NamedTuple.__new__'s keyword handling
_HIDDEN: Final = tuple((UNKNOWN,) * k for k in range(64))  # k cards face down


def owner(entry: tuple[int, Action]) -> int:
    """The seat that may see more of ``entry`` than the others: the seat dealt to, or the
    actor."""
    act = entry[1]
    return act.target if act.kind == DEAL_HOLE_KIND else entry[0]


def seen_by(entry: tuple[int, Action], seat: int, discards_face_up: bool,
            hidden: bool) -> tuple[int, Action]:
    """``entry`` (actor, action) as ``seat`` sees it: ``entry`` itself when nothing is
    hidden from the seat, else a copy with the hidden cards :data:`UNKNOWN`.

    ``discards_face_up``: the game's discards are public; ``hidden``: the entry belongs
    to a simultaneous turn that is still going on."""
    act = entry[1]
    kind = act.kind
    if kind == DEAL_HOLE_KIND:
        if act.target == seat:
            return entry
        mask = act.face_up
        cards = act.cards
        if mask:
            shown = tuple([c if (mask >> i) & 1 else UNKNOWN for i, c in enumerate(cards)])
        else:
            shown = _HIDDEN[len(cards)]
        return (entry[0], _new(Action, (kind, act.amount, shown, act.target, mask)))
    if entry[0] == seat:
        return entry
    if kind == DISCARD_KIND:
        if discards_face_up:
            return entry
        return (entry[0], _new(Action, (kind, act.amount, _HIDDEN[len(act.cards)],
                                        act.target, act.face_up)))
    if hidden and kind in (EXPOSE_KIND, DECLARE_KIND):
        return (entry[0], _new(Action, (kind, 0, _HIDDEN[len(act.cards)], act.target,
                                        act.face_up)))
    return entry
