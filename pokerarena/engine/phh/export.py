"""Writing a hand the engine played as PHH (fields, ``.phh`` and ``.phhs`` text)."""

from __future__ import annotations

from typing import Any

from pokerarena.engine.actions import DEAL_BOARD_KIND, DEAL_HOLE_KIND
from pokerarena.engine.hand import Hand
from pokerarena.engine.phh.common import DECLARE_WORDS, EXTRA_OPTIONS, cards_text, num
from pokerarena.engine.steps import SYS_FIXED, SYS_SPREAD


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {v!r} as TOML")


def _game_fields(hand: Hand) -> dict[str, Any]:
    """The fields that say which game the hand is (variant, forced bets, stakes, the
    options PHH has no field for)."""
    g = hand.game
    n = hand.n
    v = g.variant
    code = v.phh.get(g.system_name)
    data: dict[str, Any] = {"variant": code or v.id}
    if code is None:
        data["_betting"] = g.system_name
    antes_pos, blinds_pos = g.forced_by_position(n)
    if n == 2 and any(blinds_pos):  # heads-up blind games list forced bets in reverse
        antes_role = [antes_pos[1], antes_pos[0]]
        blinds_role = [blinds_pos[1], blinds_pos[0]]
    else:
        antes_role, blinds_role = list(antes_pos), list(blinds_pos)
    data["antes"] = antes_role
    data["blinds_or_straddles"] = blinds_role
    data["ante_trimming_status"] = g.ante_trimming
    if g.sys == SYS_FIXED:
        data["small_bet"] = g.small_bet
        data["big_bet"] = g.big_bet
    else:
        data["min_bet"] = g.min_bet
    if g.sys == SYS_SPREAD:
        data["_max_bet"] = g.max_bet
    if v.forced.bring_in != "none":
        data["bring_in"] = g.bring_in
    if g.max_raises != type(g.system)().max_raises:
        data["_max_raises"] = g.max_raises if g.max_raises is not None else "none"
    if g.heads_up_max_raises != type(g.system)().heads_up_max_raises:
        hu = g.heads_up_max_raises
        data["_heads_up_max_raises"] = hu if hu is not None else "none"
    if hand.carry_in:
        data["_carry"] = hand.carry_in
    if hand.passes and g.openers == "progressive":
        data["_passes"] = hand.passes
    if g.options.openers is not None or g.options.pass_and_out:
        data["_openers"] = g.openers
    defaults = type(g.options)()
    for key in EXTRA_OPTIONS:
        value = getattr(g.options, key)
        if value is not None and value != getattr(defaults, key):
            data["_" + key] = value
    return data


_WORD_OF = {v: w for w, v in DECLARE_WORDS.items()}


def _action_texts(hand: Hand) -> list[str]:
    """The log as PHH actions (forced bets and payments follow from the others), and
    the hands a showdown showed that the log does not."""
    pos_of = hand.pos_of
    acts: list[str] = []
    shown: set[int] = set()
    for actor, act in hand.log:
        k = act.kind
        if k == DEAL_HOLE_KIND:
            acts.append(f"d dh p{pos_of[act.target] + 1} {cards_text(act.cards)}")
        elif k == DEAL_BOARD_KIND:
            acts.append(f"d db {cards_text(act.cards)}")
        elif k in ("ante", "blind", "dead", "oot", "bonus", "pay"):
            continue
        else:
            who = f"p{pos_of[actor] + 1}"
            if k == "cbr":
                acts.append(f"{who} cbr {act.amount}")
            elif k == "dc":
                acts.append(f"{who} dc {_WORD_OF[act.amount]}")
            elif k in ("sd", "sm", "ex"):
                if k == "sm":
                    shown.add(pos_of[actor])
                cards = cards_text(act.cards)
                split = " split" if k == "sd" and act.amount == 1 else ""  # split openers
                acts.append(f"{who} {k} {cards}{split}".rstrip())
            else:
                acts.append(f"{who} {k}")
    if hand.is_over and hand.result().went_to_showdown and hand.phase_name == "over":
        for p in hand.showdown_order():
            if p not in shown and not hand.folded[p]:
                acts.append(f"p{p + 1} sm {cards_text(hand.hole[p])}")
    return acts


def hand_to_phh(hand: Hand, **extra: Any) -> dict[str, Any]:
    """The PHH fields of a hand the engine played (players in PHH order p1..pn)."""
    data = _game_fields(hand)
    data["starting_stacks"] = list(hand.start)
    data["actions"] = _action_texts(hand)
    if hand.irregularities:  # house remedies (dead chips) have no PHH action
        data["_irregularities"] = [f"p{hand.pos_of[seat] + 1} {what}: {remedy}"
                                   for seat, what, remedy in hand.irregularities]
    if hand.is_over:
        data["finishing_stacks"] = [num(hand.stack[p]) for p in range(hand.n)]
    data.update(extra)
    return data


def dumps_phh(hand: Hand, **extra: Any) -> str:
    """PHH text of a hand the engine played; ``extra`` adds fields (``_seed = 7``)."""
    data = hand_to_phh(hand, **extra)
    return "".join(f"{k} = {_toml_value(v)}\n" for k, v in data.items())


def dumps_phhs(hands: list[Hand], **extra: Any) -> str:
    """``.phhs`` text of several hands the engine played, as tables ``[1]``, ``[2]``..."""
    return "\n".join(f"[{i}]\n" + dumps_phh(h, **extra) for i, h in enumerate(hands, 1))

