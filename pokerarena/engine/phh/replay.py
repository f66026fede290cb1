"""Replaying a parsed PHH hand strictly on the engine, and the readings public hand
histories need (see :mod:`pokerarena.engine.phh`)."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

from pokerarena.cards import CardError
from pokerarena.engine.actions import (
    DEAL_BOARD_KIND,
    DEAL_HOLE_KIND,
    DEALER,
    SHOW_KIND,
    UNKNOWN,
    Action,
    EngineError,
    IllegalAction,
)
from pokerarena.engine.game import Game
from pokerarena.engine.hand import Hand
from pokerarena.engine.phh.common import (
    DECLARE_WORDS,
    EXTRA_OPTIONS,
    PLAYER_KINDS,
    PHHError,
    Replay,
    decimals,
    parse_cards_text,
    scaled,
    strip,
    unscale,
)
from pokerarena.rules import VariantError, load_variant, phh_codes, variant_ids


def _game_for(data: dict[str, Any], odd_chip: str, scale: int, n: int) -> Game:
    code = data.get("variant")
    if not isinstance(code, str):
        raise PHHError("variant: missing or not a string")
    codes = phh_codes()
    if code in codes:
        variant_id, system = codes[code]
    elif code in variant_ids():
        variant_id = code
        system = data.get("_betting") or load_variant(code).betting[0]
    else:
        raise PHHError(f"variant: unknown code {code!r}; known: {', '.join(sorted(codes))}")

    def amounts(key: str) -> tuple[int, ...] | None:
        if key not in data:
            return None
        values = data[key]
        if not isinstance(values, list) or len(values) != n:
            raise PHHError(f"{key}: expected a list of {n} amounts")
        return tuple(scaled(v, scale, key) for v in values)

    opts: dict[str, Any] = {"betting": system, "dealing": "manual", "showdown": "manual",
                            "odd_chip": odd_chip, "phh_compat": True}
    antes = amounts("antes")
    opts["antes"] = antes if antes is not None else (0,) * n
    # A negative blind is a post (PokerKit's reading, in online hands): a player who
    # has just sat down pays that much to play at once; it is his bet in the first
    # round but does not move the first to act. The engine plays it as a live ante.
    raw_blinds = data.get("blinds_or_straddles")
    posts: tuple[int, ...] = ()
    if isinstance(raw_blinds, list) and any(_negative(b) for b in raw_blinds):
        posts = tuple(scaled(-b, scale, "blinds_or_straddles") if _negative(b) else 0
                      for b in raw_blinds)
        data = {**data, "blinds_or_straddles": [0 if _negative(b) else b
                                                for b in raw_blinds]}
        if any(opts["antes"]):
            raise PHHError("blinds_or_straddles: a post (a negative blind) in a hand with "
                           "antes is not supported")
        opts["antes"] = posts
    blinds = amounts("blinds_or_straddles")
    opts["blinds"] = blinds if blinds is not None else ()
    for key in ("small_bet", "big_bet", "min_bet", "bring_in", "_max_bet"):
        if key in data:
            value = scaled(data[key], scale, key)
            name = key.lstrip("_")
            if value or name == "bring_in":
                opts[name] = value
    if "_openers" in data:
        opts["openers"] = data["_openers"]
    for key in EXTRA_OPTIONS:
        if "_" + key in data:
            opts[key] = data["_" + key]
    if code in codes and system == "fixed_limit" and "_max_raises" not in data:
        # Real hands follow the casinos' cap of a bet and four raises (WSOP; PokerKit
        # counts four completions, bets or raises per street), with no cap heads-up.
        opts["max_raises"] = 4
        opts["heads_up_max_raises"] = "none"
    for key in ("_max_raises", "_heads_up_max_raises"):
        if key in data:
            opts[key.lstrip("_")] = data[key]
    opts["ante_trimming"] = bool(data.get("ante_trimming_status", False))
    if any(posts):
        opts["live_ante"] = True  # PokerKit's posts: live bets that do not move who acts
    try:
        game = Game(variant_id, opts)
    except VariantError as exc:
        raise PHHError(str(exc)) from None
    return game


def _negative(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and x < 0


def _amounts(data: dict[str, Any], stacks_raw: list[Any], actions: list[str]) -> list[Any]:
    """Every amount the hand names (stacks, forced bets, bet sizes, bets), as written."""
    numbers: list[Any] = list(stacks_raw)
    for key in ("antes", "blinds_or_straddles"):
        if isinstance(data.get(key), list):
            numbers.extend(data[key])
    for key in ("small_bet", "big_bet", "min_bet", "bring_in", "_carry"):
        if key in data:
            numbers.append(data[key])
    for a in actions:
        parts = strip(a).split()
        if len(parts) == 3 and parts[1] == "cbr":
            try:
                numbers.append(float(parts[2]) if "." in parts[2] else int(parts[2]))
            except ValueError:
                raise PHHError(f"action {a!r}: bad amount") from None
    return numbers


def _starting_stacks(stacks_raw: list[Any], numbers: list[Any], scale: int
                     ) -> tuple[list[int], list[bool]]:
    """(stacks in chips, which were unknown). ``inf``: a stack the history does not
    know. It plays as a stack deeper than every chip the hand can move, and ends as
    ``inf``."""
    unknown = [isinstance(s, float) and math.isinf(s) and s > 0 for s in stacks_raw]
    stacks = [0 if u else scaled(s, scale, "starting_stacks")
              for s, u in zip(stacks_raw, unknown, strict=True)]
    if any(unknown):
        deep = sum(stacks) + sum(scaled(abs(x), scale, "amounts") for x in numbers
                                 if not (isinstance(x, float) and math.isinf(x))) * len(
                                     stacks_raw) + 1
        stacks = [deep if u else s for s, u in zip(stacks, unknown, strict=True)]
    return stacks, unknown


def _play_actions(hand: Hand, actions: list[str], n: int, scale: int) -> None:
    """Apply the recorded actions in order; a refused one names itself."""
    unseen: set[int] = set()  # players whose unknown cards at the showdown were a muck
    for i, text in enumerate(actions, 1):
        body = strip(text)
        if not body:
            continue
        try:
            seat, action = _parse_action(body, n, scale)
            if hand.is_over:
                if action.kind == SHOW_KIND:
                    continue  # a voluntary show after the hand: no effect on chips
                raise IllegalAction("the hand is already over")
            if action.kind == "cbr":
                action = _read_capped_raise(hand, seat, action)
            elif action.kind == SHOW_KIND and action.cards and UNKNOWN in action.cards:
                shown = _read_unknown_show(hand, seat, action, unseen)
                if shown is None:
                    continue
                action = shown
            hand.apply(action, seat)
        except (IllegalAction, EngineError, CardError, PHHError) as exc:
            unit = f" (amounts in units of 1/{scale})" if scale > 1 else ""
            raise PHHError(f"action {i} {text!r}: {exc}{unit}") from None


def replay(data: dict[str, Any], *, odd_chip: str = "called", complete: bool = True) -> Replay:
    """Replay a parsed PHH hand strictly; raises :class:`PHHError` naming the action.

    With ``complete=False`` the hand is left where the actions stop (the finishing
    stacks are then the chips behind at that point)."""
    for key in ("variant", "starting_stacks", "actions"):
        if key not in data:
            raise PHHError(f"{key}: required field missing")
    stacks_raw = data["starting_stacks"]
    if not isinstance(stacks_raw, list) or not stacks_raw:
        raise PHHError("starting_stacks: expected a list of amounts")
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PHHError("actions: expected a list of strings")
    n = len(stacks_raw)
    numbers = _amounts(data, stacks_raw, actions)
    try:  # the smallest power of ten that makes every amount whole
        scale = 10 ** max(decimals(x) for x in numbers)
    except PHHError as exc:
        raise PHHError(f"amounts: {exc}") from None
    game = _game_for(data, odd_chip, scale, n)
    stacks, unknown = _starting_stacks(stacks_raw, numbers, scale)
    carry = scaled(data.get("_carry", 0), scale, "_carry")
    passes = data.get("_passes", 0)
    if not isinstance(passes, int) or passes < 0:
        raise PHHError("_passes: expected a count")
    try:
        hand = game.new_hand(0, n, stacks, button=n - 1, carry=carry, passes=passes)
    except EngineError as exc:
        raise PHHError(str(exc)) from None
    _play_actions(hand, actions, n, scale)

    def finish(values: list[Any]) -> list[int | float]:
        return [math.inf if u else unscale(x, scale)
                for x, u in zip(values, unknown, strict=True)]

    if not complete and not hand.is_over:
        return Replay(hand, finish(hand.stacks()), scale, data)
    if not hand.is_over:
        if hand.phase_name == "showdown":
            try:
                hand.finish_showdown()
            except EngineError as exc:
                raise PHHError(str(exc)) from None
        else:
            who = hand.to_act
            whom = "the dealer" if who is None or who == DEALER else f"p{who + 1}"
            raise PHHError(f"actions: the hand is incomplete: {whom} is still to act")
    return Replay(hand, finish(hand.result().stacks), scale, data)


def _read_capped_raise(hand: Hand, seat: int, action: Action) -> Action:
    """A bet or raise recorded short of the least legal amount but to at least what
    every other player still in can put in (their bet plus stack) is read as the least
    legal raise. PokerKit once capped the least raise at that, and hands it recorded
    keep such amounts (2023 WSOP #43 day 5 hand 85, razz: ``p2 cbr 750000`` against a
    player who can reach 750000 where a full raise is to 1200000). The chips above what
    anyone can call come back uncalled, so the hand ends the same."""
    if hand.is_over or hand.phase_name != "bet" or hand.to_act != seat:
        return action
    legal = hand.legal_actions()
    amount = action.amount
    if not legal.allows("cbr") or not legal.max_to or amount >= legal.min_to:
        return action
    p = hand.pos_of[seat]
    bets, stack, folded = hand.bets, hand.stack, hand.folded
    reach = [bets[q] + stack[q] for q in range(hand.n) if q != p and not folded[q]]
    if reach and max(bets) < amount <= bets[p] + stack[p] and amount >= max(reach):
        return Action("cbr", legal.min_to)
    return action


def _read_unknown_show(hand: Hand, seat: int, action: Action, unseen: set[int]
                       ) -> Action | None:
    """``pN sm ????``: the player showed cards the history does not name (online hands:
    shown face down before an all-in runout, shown at the showdown after the deal
    already named them, or mucked). Before the showdown it reveals nothing and is
    skipped (None). At the showdown, a player whose cards the deal named shows them;
    one whose cards are unknown mucks: cards nobody knows cannot take a pot. When
    everyone left has shown only unknown cards, the history does not say who won, and
    the hand is refused."""
    cards = action.cards
    if any(c != UNKNOWN for c in cards):
        return action  # partly known: the engine matches it against the hand
    p = hand.pos_of[seat]
    hole = hand.hole[p]
    if hand.folded[p] or len(cards) > len(hole):
        return action  # the engine says what is wrong with it
    if hand.phase_name != "showdown":
        return None
    known = tuple(c for c in hole if c != UNKNOWN)
    if known:
        return Action(SHOW_KIND, 0, known)
    others = [q for q in range(hand.n)
              if q != p and not hand.folded[q] and not hand.mucked[q]]
    if others:
        unseen.add(p)
        return Action(SHOW_KIND, 0, ())
    if unseen:
        raise PHHError("no hand at the showdown is known (every player left showed "
                       "unknown cards): the history does not say who won")
    return None  # everyone else mucked: he takes the pot unseen



def _parse_action(body: str, n: int, scale: int) -> tuple[int, Action]:
    parts = body.split()
    if parts[0] == "d":
        if len(parts) >= 3 and parts[1] == "dh":
            seat = _player(parts[2], n)
            cards = parse_cards_text(parts[3] if len(parts) > 3 else "")
            return DEALER, Action(DEAL_HOLE_KIND, 0, cards, seat)
        if len(parts) >= 2 and parts[1] == "db":
            cards = parse_cards_text(parts[2] if len(parts) > 2 else "")
            return DEALER, Action(DEAL_BOARD_KIND, 0, cards)
        raise PHHError("unknown dealer action")
    seat = _player(parts[0], n)
    if len(parts) < 2 or parts[1] not in PLAYER_KINDS:
        raise PHHError("unknown player action")
    kind = parts[1]
    if kind == "cbr":
        if len(parts) != 3:
            raise PHHError("cbr needs an amount")
        return seat, Action(kind, scaled(Decimal(parts[2]), scale, "amount"))
    if kind in ("sd", "sm", "ex"):
        return seat, Action(kind, 0, parse_cards_text(parts[2] if len(parts) > 2 else ""))
    if kind == "dc":
        if len(parts) != 3 or parts[2] not in DECLARE_WORDS:
            raise PHHError("dc needs high, low or both")
        return seat, Action(kind, DECLARE_WORDS[parts[2]])
    if len(parts) != 2:
        raise PHHError(f"{kind} takes no argument")
    return seat, Action(kind)


def _player(token: str, n: int) -> int:
    if not token.startswith("p") or not token[1:].isdigit():
        raise PHHError(f"unknown player {token!r}")
    k = int(token[1:])
    if not 1 <= k <= n:
        raise PHHError(f"no player {token} among {n}")
    return k - 1


