"""PHH (poker hand history) files: read, replay strictly, write (``.phh``: one hand;
``.phhs``: several, each a TOML table ``[1]``, ``[2]``, ...).

A ``.phh`` file is TOML: ``variant`` (FT, NT, NS, PO, FO/8, F7S, F7S/8, FR, N2L1D, F2L3D,
FB, or a pokerarena variant id with ``_betting`` and other ``_`` options), ``antes``,
``blinds_or_straddles``,
``min_bet`` / ``small_bet`` + ``big_bet`` / ``bring_in``, ``starting_stacks`` and
``actions`` (``d dh p1 AsKd``, ``d db 7c8cTs``, ``p2 cbr 350``, ``p1 cc``, ``p3 f``,
``p1 sd 2c``, ``p2 sm KcTd``, ``p1 pb``; ``??`` is an unknown card; ``#`` starts a
comment). Player p1 is the first seat left of the button; the replay seats the button
at seat ``n - 1`` so that seat ``i`` is player ``p{i+1}``.

Amounts may be fractional (online cash games): the replay scales them to integer chips
by the smallest power of ten that makes every amount whole, and scales back at the end.

Readings the public hand histories need (the PHH dataset's televised and online hands):
``??`` cards in a discard are distinct unknown cards, as in dealing; a starting stack of
``inf`` (unknown) plays deeper than any chip the hand moves and finishes as ``inf``; a
negative blind is a post (a live bet that does not move the first to act); a bet or
raise short of the least raise but covering every other player is the least raise;
``pN sm ????`` reveals nothing before the showdown, and at it shows the cards the deal
named or, when none were named, is a muck.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from pokerarena.cards import CardError, card_str, parse_card
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
from pokerarena.rules import VariantError, load_variant, phh_codes, variant_ids

_PLAYER_KINDS = {"f", "cc", "cbr", "pb", "sd", "sm", "ex", "dc",
                 "dt", "kn",  # knock poker (our extension): take the discard, knock
                 "dd",  # our extension: take the next up card down (last_card_choice)
                 "pr"}  # our extension: disconnection protection (all in for what is in)
_DECLARE_WORDS = {"high": 1, "low": 2, "both": 3}
# Game options a pokerarena variant's PHH file carries as user fields (``_hilo = ...``).
_EXTRA_OPTIONS = ("hilo", "combine", "wild", "last_card_down", "draw_more_when_few",
                  "freeze_multiple", "max_raises_per_player", "pass_and_out",
                  "knock_immediate", "joker", "last_card_choice")


class PHHError(ValueError):
    """A PHH file that cannot be read or replayed; the message names the field/action."""


@dataclass
class Replay:
    """A replayed hand: the engine hand, the finishing stacks in PHH units, the scale."""

    hand: Hand
    finishing_stacks: list[int | float]
    scale: int
    data: dict[str, Any]


def load_phh(path: str | Path) -> dict[str, Any]:
    """Read a ``.phh`` file as a dict."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise PHHError(f"{p}: cannot read: {exc.strerror}") from None
    return loads_phh(text, origin=str(p))


def load_phhs(path: str | Path) -> list[tuple[str, dict[str, Any]]]:
    """Read a ``.phhs`` file (several hands, each a TOML table such as ``[1]``) as
    ``(key, hand)`` pairs in file order."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise PHHError(f"{p}: cannot read: {exc.strerror}") from None
    return loads_phhs(text, origin=str(p))


def loads_phhs(text: str, origin: str = "PHHS") -> list[tuple[str, dict[str, Any]]]:
    """Parse ``.phhs`` text: every top-level table is one hand."""
    return _tables(loads_phh(text, origin), origin)


def _tables(data: dict[str, Any], origin: str) -> list[tuple[str, dict[str, Any]]]:
    loose = [k for k, v in data.items() if not isinstance(v, dict)]
    if loose:
        raise PHHError(f"{origin}: field {loose[0]!r} is outside a hand's table "
                       "(a .phhs file holds tables such as [1], [2], ...)")
    if not data:
        raise PHHError(f"{origin}: no hands (tables such as [1], [2], ...)")
    return list(data.items())


def load_hands(path: str | Path) -> list[tuple[str | None, dict[str, Any]]]:
    """Every hand of a PHH file as ``(key, hand)`` pairs: one ``(None, hand)`` for a
    single hand, the tables ``[1]``, ``[2]``... in order for several. Files are told
    apart by content, not by name: some published ``.phh`` files hold several hands."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise PHHError(f"{p}: cannot read: {exc.strerror}") from None
    data = loads_phh(text, origin=str(p))
    single = p.suffix != ".phhs" and (not data or not all(isinstance(v, dict)
                                                          for v in data.values()))
    if single:
        return [(None, data)]
    return [(k, v) for k, v in _tables(data, str(p))]


def dumps_phhs(hands: list[Hand], **extra: Any) -> str:
    """``.phhs`` text of several hands the engine played, as tables ``[1]``, ``[2]``..."""
    return "\n".join(f"[{i}]\n" + dumps_phh(h, **extra) for i, h in enumerate(hands, 1))


def loads_phh(text: str, origin: str = "PHH") -> dict[str, Any]:
    """Parse PHH text as a dict."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"{origin}: not valid TOML: {exc}") from None


def _decimals(x: Any) -> int:
    if isinstance(x, bool) or not isinstance(x, int | float):
        raise PHHError(f"{x!r} is not an amount")
    d = Decimal(str(x)).normalize()
    exp = d.as_tuple().exponent
    return max(0, -exp) if isinstance(exp, int) else 0


def _scaled(x: Any, scale: int, field: str) -> int:
    d = Decimal(str(x)) * scale
    if d != d.to_integral_value() or d < 0:
        raise PHHError(f"{field}: {x!r} is not a valid amount")
    return int(d)


def _strip(action: str) -> str:
    return action.split("#", 1)[0].strip()


def parse_cards_text(text: str) -> tuple[int, ...]:
    """PHH card text (``AsKd``, ``????``) as codes; ``??`` is :data:`UNKNOWN`."""
    text = text.strip()
    if text in ("", "-"):
        return ()
    if len(text) % 2:
        raise CardError(f"bad cards {text!r}")
    out = []
    for i in range(0, len(text), 2):
        tok = text[i:i + 2]
        out.append(UNKNOWN if tok == "??" else parse_card(tok))
    return tuple(out)


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
        return tuple(_scaled(v, scale, key) for v in values)

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
        posts = tuple(_scaled(-b, scale, "blinds_or_straddles") if _negative(b) else 0
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
            value = _scaled(data[key], scale, key)
            name = key.lstrip("_")
            if value or name == "bring_in":
                opts[name] = value
    if "_openers" in data:
        opts["openers"] = data["_openers"]
    for key in _EXTRA_OPTIONS:
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
    # Scale: the smallest power of ten making every amount whole.
    numbers: list[Any] = list(stacks_raw)
    for key in ("antes", "blinds_or_straddles"):
        if isinstance(data.get(key), list):
            numbers.extend(data[key])
    for key in ("small_bet", "big_bet", "min_bet", "bring_in", "_carry"):
        if key in data:
            numbers.append(data[key])
    for a in actions:
        parts = _strip(a).split()
        if len(parts) == 3 and parts[1] == "cbr":
            try:
                numbers.append(float(parts[2]) if "." in parts[2] else int(parts[2]))
            except ValueError:
                raise PHHError(f"action {a!r}: bad amount") from None
    try:
        scale = 10 ** max(_decimals(x) for x in numbers)
    except PHHError as exc:
        raise PHHError(f"amounts: {exc}") from None
    game = _game_for(data, odd_chip, scale, n)
    # ``inf``: a stack the history does not know. It plays as a stack deeper than every
    # chip the hand can move, and ends as ``inf``.
    unknown = [isinstance(s, float) and math.isinf(s) and s > 0 for s in stacks_raw]
    stacks = [0 if u else _scaled(s, scale, "starting_stacks")
              for s, u in zip(stacks_raw, unknown, strict=True)]
    if any(unknown):
        deep = sum(stacks) + sum(_scaled(abs(x), scale, "amounts") for x in numbers
                                 if not (isinstance(x, float) and math.isinf(x))) * n + 1
        stacks = [deep if u else s for s, u in zip(stacks, unknown, strict=True)]
    carry = _scaled(data.get("_carry", 0), scale, "_carry")
    passes = data.get("_passes", 0)
    if not isinstance(passes, int) or passes < 0:
        raise PHHError("_passes: expected a count")
    try:
        hand = game.new_hand(0, n, stacks, button=n - 1, carry=carry, passes=passes)
    except EngineError as exc:
        raise PHHError(str(exc)) from None
    unseen: set[int] = set()  # players whose unknown cards at the showdown were a muck
    for i, text in enumerate(actions, 1):
        body = _strip(text)
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

    def finish(values: list[Any]) -> list[int | float]:
        return [math.inf if u else _unscale(x, scale)
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


def _unscale(x: int | Fraction, scale: int) -> int | float:
    q = Fraction(x) / scale
    if q.denominator == 1:
        return int(q)
    return float(round(Decimal(q.numerator) / Decimal(q.denominator), 10))


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
    if len(parts) < 2 or parts[1] not in _PLAYER_KINDS:
        raise PHHError("unknown player action")
    kind = parts[1]
    if kind == "cbr":
        if len(parts) != 3:
            raise PHHError("cbr needs an amount")
        return seat, Action(kind, _scaled(Decimal(parts[2]), scale, "amount"))
    if kind in ("sd", "sm", "ex"):
        return seat, Action(kind, 0, parse_cards_text(parts[2] if len(parts) > 2 else ""))
    if kind == "dc":
        if len(parts) != 3 or parts[2] not in _DECLARE_WORDS:
            raise PHHError("dc needs high, low or both")
        return seat, Action(kind, _DECLARE_WORDS[parts[2]])
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


# Writing --------------------------------------------------------------------------------

def _cards_text(cards) -> str:
    return "".join("??" if c == UNKNOWN else card_str(c) for c in cards)


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


def hand_to_phh(hand: Hand, **extra: Any) -> dict[str, Any]:
    """The PHH fields of a hand the engine played (players in PHH order p1..pn)."""
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
    if g.sys == 0:
        data["small_bet"] = g.small_bet
        data["big_bet"] = g.big_bet
    else:
        data["min_bet"] = g.min_bet
    if g.sys == 1:
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
    for key in _EXTRA_OPTIONS:
        value = getattr(g.options, key)
        if value is not None and value != getattr(defaults, key):
            data["_" + key] = value
    data["starting_stacks"] = list(hand.start)
    pos_of = hand.pos_of
    acts: list[str] = []
    shown: set[int] = set()
    for actor, act in hand.log:
        k = act.kind
        if k == DEAL_HOLE_KIND:
            acts.append(f"d dh p{pos_of[act.target] + 1} {_cards_text(act.cards)}")
        elif k == DEAL_BOARD_KIND:
            acts.append(f"d db {_cards_text(act.cards)}")
        elif k in ("ante", "blind", "dead", "oot", "bonus", "pay"):
            continue  # forced bets and payments follow from the other actions
        else:
            who = f"p{pos_of[actor] + 1}"
            if k == "cbr":
                acts.append(f"{who} cbr {act.amount}")
            elif k == "dc":
                word = {v: w for w, v in _DECLARE_WORDS.items()}[act.amount]
                acts.append(f"{who} dc {word}")
            elif k in ("sd", "sm", "ex"):
                if k == "sm":
                    shown.add(pos_of[actor])
                cards = _cards_text(act.cards)
                split = " split" if k == "sd" and act.amount == 1 else ""  # split openers
                acts.append(f"{who} {k} {cards}{split}".rstrip())
            else:
                acts.append(f"{who} {k}")
    if hand.is_over and hand.result().went_to_showdown and hand.phase_name == "over":
        for p in hand.showdown_order():
            if p not in shown and not hand.folded[p]:
                acts.append(f"p{p + 1} sm {_cards_text(hand.hole[p])}")
    data["actions"] = acts
    if hand.irregularities:  # house remedies (dead chips) have no PHH action
        data["_irregularities"] = [f"p{pos_of[seat] + 1} {what}: {remedy}"
                                   for seat, what, remedy in hand.irregularities]
    if hand.is_over:
        data["finishing_stacks"] = [_num(hand.stack[p]) for p in range(n)]
    data.update(extra)
    return data


def _num(x: Any) -> Any:
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else float(x)
    return x


def dumps_phh(hand: Hand, **extra: Any) -> str:
    """PHH text of a hand the engine played; ``extra`` adds fields (``_seed = 7``)."""
    data = hand_to_phh(hand, **extra)
    return "".join(f"{k} = {_toml_value(v)}\n" for k, v in data.items())
