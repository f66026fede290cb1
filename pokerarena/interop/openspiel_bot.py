"""OpenSpiel policies as bots: ``openspiel:GAME?policy=FILE`` plays a tabular policy.

``GAME`` is the OpenSpiel game the policy was made for:

- one of ours, ``pokerarena_<variant>`` (:mod:`pokerarena.interop.openspiel_game`,
  parameters in parentheses as ``pyspiel.load_game`` reads them,
  ``pokerarena_holdem(betting=no_limit)``, or as the spec's options,
  ``openspiel:pokerarena_holdem?betting=no_limit&stack=40&policy=FILE``): the bot
  computes its information state from its view with the very function the OpenSpiel
  game uses, and OpenSpiel's action ids are ours;
- OpenSpiel's own ``kuhn_poker`` or ``leduc_poker``, played as our ``kuhn`` and ``leduc``
  (the same games: :data:`MIRRORS`): the bot replays what its view shows on an OpenSpiel
  state, dealing the opponent a stand-in card (the information state of the bot's
  player does not depend on it), and reads that state's information state.

``FILE`` is JSON, never a pickle (:data:`FORMAT`)::

    {"format": "pokerarena-openspiel-policy/1", "game": "leduc_poker",
     "policy": {"<information state string>": {"<action id>": probability, ...}, ...}}

written by :func:`save_policy` from any OpenSpiel policy (a CFR average policy, a
``TabularPolicy``), read back for OpenSpiel by :func:`tabular_policy`. ``policy=uniform``
plays every legal move with equal probability. The bot declares its policy (the file's
distribution at each view: ``pokerarena exact`` evaluates it) and ``act`` draws from
it with its seeded generator. A file that is not such a document, another game than
the spec's, a table of another game, or a view whose information state the file lacks
is one :class:`~pokerarena.interop.InteropError`. Needs the ``peers`` extra.
"""

from __future__ import annotations

import importlib
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pokerarena.bots.base import BaseBot, Policy, draw_from
from pokerarena.bots.seat_view import SeatView
from pokerarena.cards import rank_of, suit_of
from pokerarena.engine import Game
from pokerarena.engine.actions import (
    CALL_KIND,
    DEAL_BOARD_KIND,
    DEAL_HOLE_KIND,
    DEALER,
    FOLD_KIND,
    RAISE_KIND,
    Action,
    Legal,
)
from pokerarena.engine.keys import game_info_of
from pokerarena.interop import InteropError
from pokerarena.interop.openspiel_game import (
    PREFIX,
    action_ids,
    info_state_string,
    player_of,
    require_pyspiel,
    to_action,
    walk_of,
)

FORMAT = "pokerarena-openspiel-policy/1"
MAX_BYTES = 256 * 1024 * 1024
TOLERANCE = 1e-9
MIRRORS = {"kuhn_poker": "kuhn", "leduc_poker": "leduc"}
"""OpenSpiel's games played as ours. Kuhn's card c is our J, Q, K of spades for c = 0,
1, 2, its action 0 a check or fold, 1 a bet or call; Leduc's card c is rank J, Q, K
for c // 2 and hearts, spades for c % 2, its actions 0 fold, 1 check or call, 2 bet or
raise. Player 0 is the seat left of the button in both."""


# The file -----------------------------------------------------------------------------
def save_policy(path: str | Path, game: Any, policy: Any) -> Path:
    """Write ``policy`` (an OpenSpiel policy of ``game``, a ``pyspiel.Game``) for every
    decision of ``game``, as :data:`FORMAT` JSON."""
    os_policy = _os_policy()
    table = (policy if isinstance(policy, os_policy.TabularPolicy)
             else os_policy.tabular_policy_from_callable(game, policy))
    out: dict[str, dict[str, float]] = {}
    for key, i in table.state_lookup.items():
        row = table.action_probability_array[i]
        mask = table.legal_actions_mask[i]
        out[key] = {str(a): float(row[a]) for a in range(len(row)) if mask[a]}
    target = Path(path)
    target.write_text(json.dumps({"format": FORMAT, "game": str(game), "policy": out}))
    return target


def read_policy(path: str | Path) -> tuple[str, dict[str, dict[int, float]]]:
    """(game, {information state: {action id: probability}}) of a policy file; one
    error for anything else."""
    where = str(path)
    try:
        if Path(path).stat().st_size > MAX_BYTES:
            raise InteropError(f"policy file {where!r} is larger than {MAX_BYTES:,} bytes")
        data = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InteropError(f"policy file {where!r}: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InteropError(f"policy file {where!r} is not a {FORMAT} document")
    game, table = data.get("game"), data.get("policy")
    if not isinstance(game, str) or not isinstance(table, dict):
        raise InteropError(f"policy file {where!r}: 'game' is a game name and 'policy' "
                           "an object of information states")
    out: dict[str, dict[int, float]] = {}
    for key, row in table.items():
        try:
            probs = {int(a): float(p) for a, p in row.items()}
        except (AttributeError, TypeError, ValueError):
            raise InteropError(f"policy file {where!r}: state {key!r}: not an object of "
                               "action id: probability") from None
        if any(not (math.isfinite(p) and p >= 0.0) for p in probs.values()) or abs(
                sum(probs.values()) - 1.0) > TOLERANCE:
            raise InteropError(f"policy file {where!r}: state {key!r}: probabilities "
                               f"{list(probs.values())} are not a distribution")
        out[key] = probs
    return game, out


def tabular_policy(path: str | Path) -> Any:
    """The file as OpenSpiel's ``TabularPolicy`` of its game (uniform where the file has
    no entry), for OpenSpiel's own tools."""
    pyspiel = require_pyspiel()
    os_policy = _os_policy()
    name, table = read_policy(path)
    _import_ours(name)
    pol = os_policy.TabularPolicy(pyspiel.load_game(name))
    for key, probs in table.items():
        i = pol.state_lookup.get(key)
        if i is None:
            raise InteropError(f"policy file {str(path)!r}: {key!r} is not an information "
                               f"state of {name}")
        row = pol.action_probability_array[i]
        row[:] = 0.0
        for a, p in probs.items():
            row[a] = p
    return pol


def _os_policy() -> Any:
    """``open_spiel.python.policy`` (after :func:`require_pyspiel`'s check)."""
    require_pyspiel()
    return importlib.import_module("open_spiel.python.policy")


def _import_ours(name: str) -> None:
    """Register our games when ``name`` is one (OpenSpiel knows them only then)."""
    if name.startswith(PREFIX):
        import pokerarena.interop.openspiel_game  # noqa: F401  (registers them)


# Mirrors of OpenSpiel's own games ------------------------------------------------------
def _their_card(variant: str, code: int) -> int:
    if variant == "kuhn":
        return rank_of(code) - 9
    return (rank_of(code) - 9) * 2 + suit_of(code) - 2


def _their_action(variant: str, action: Action, legal_before: bool) -> int:
    """OpenSpiel's id of our move; ``legal_before``: a bet was there to call."""
    if variant == "kuhn":
        if action.kind == FOLD_KIND:
            return 0
        return int(action.kind == RAISE_KIND or legal_before)
    return {FOLD_KIND: 0, CALL_KIND: 1, RAISE_KIND: 2}[action.kind]


def _our_action(variant: str, a: int, legal: Legal) -> Action:
    if variant == "kuhn":
        if a == 0:
            return Action(FOLD_KIND) if legal.call else Action(CALL_KIND)
        return Action(CALL_KIND) if legal.call else Action(RAISE_KIND, legal.min_to)
    return (Action(FOLD_KIND), Action(CALL_KIND), Action(RAISE_KIND, legal.min_to))[a]


class Mirror:
    """``view`` replayed on OpenSpiel's own game: the state whose information state for
    the view's player is the one the seat is in."""

    def __init__(self, name: str) -> None:
        self.variant = MIRRORS[name]
        self.game = require_pyspiel().load_game(name)

    def state(self, view: SeatView) -> Any:
        """An OpenSpiel state where ``view``'s player has seen exactly what it saw."""
        known = {_their_card(self.variant, c) for c in (*view.hole, *view.board)}
        state = self.game.new_initial_state()
        facing = False  # a bet to call in this round
        for actor, act in view.history:
            if act.kind in (DEAL_HOLE_KIND, DEAL_BOARD_KIND):
                for c in act.cards:
                    if c in view.hole or c in view.board:
                        state.apply_action(_their_card(self.variant, c))
                    else:  # the opponent's hidden card: any card nobody else holds
                        free = [o for o, _ in state.chance_outcomes() if o not in known]
                        state.apply_action(free[0])
                        known.add(free[0])
                facing = False
            elif actor != DEALER and act.kind in (FOLD_KIND, CALL_KIND, RAISE_KIND):
                a = _their_action(self.variant, act, facing)
                if a not in state.legal_actions():
                    raise InteropError(f"{view.variant}: move {act} has no counterpart in "
                                       f"OpenSpiel's {self.game}")
                state.apply_action(a)
                facing = act.kind == RAISE_KIND
        return state


# The bot ------------------------------------------------------------------------------
class OpenSpielBot(BaseBot):
    """Plays an OpenSpiel tabular policy (the module docstring)."""

    name = "openspiel"
    description = "an OpenSpiel tabular policy (openspiel:GAME?policy=FILE)"

    def __init__(self, seed: int | None = None, *, game: str = "", policy: str = "",
                 betting: str | None = None, stack: int | None = None,
                 **options: Any) -> None:
        super().__init__(seed, **options)
        pyspiel = require_pyspiel()
        name = str(game).strip()
        if not name:
            raise InteropError("openspiel bot: name the game, openspiel:GAME?policy=FILE")
        _import_ours(name)
        # our games' parameters may come as spec options too: a comma in a --bots list
        # separates bots, so pokerarena_holdem(betting=no_limit,stack=40) cannot be there
        params = {k: v for k, v in (("betting", betting), ("stack", stack)) if v is not None}
        if params and not name.startswith(PREFIX):
            raise InteropError(f"openspiel bot: betting and stack are options of our games "
                               f"({PREFIX}<variant>), not of {name}")
        try:
            self.game = pyspiel.load_game(name, params) if params else pyspiel.load_game(name)
        except pyspiel.SpielError as exc:
            raise InteropError(f"openspiel bot: {name!r} is not an OpenSpiel game: "
                               f"{str(exc).splitlines()[0]}") from None
        short = self.game.get_type().short_name
        self._mirror: Mirror | None = None
        if short in MIRRORS:
            self._mirror = Mirror(short)
            self.variant, betting = MIRRORS[short], "fixed_limit"
        elif short.startswith(PREFIX):
            params = self.game.get_parameters()
            walk = walk_of(short[len(PREFIX):], str(params["betting"]), int(params["stack"]))
            self.variant, betting = walk.played.variant_id, str(params["betting"])
        else:
            raise InteropError(f"openspiel bot: {short} is not one of our games "
                               f"({PREFIX}<variant>) or {', '.join(MIRRORS)}")
        # the table's game, its betting system named or (the variant's first) not: the
        # views' game key counts a betting option given
        games = [Game(self.variant, {"betting": betting})]
        if Game(self.variant).system_name == betting:
            games.append(Game(self.variant))
        self.game_keys = {game_info_of(g)["game_key"] for g in games}
        policy = str(policy)
        if not policy:
            raise InteropError("openspiel bot: give a policy, ?policy=FILE or "
                               "?policy=uniform")
        self._where = policy
        self.table: dict[str, dict[int, float]] | None = None
        if policy != "uniform":
            file_game, self.table = read_policy(policy)
            _import_ours(file_game)
            try:
                same = str(pyspiel.load_game(file_game)) == str(self.game)
            except pyspiel.SpielError:
                same = False
            if not same:
                raise InteropError(f"policy file {policy!r} is a policy for {file_game}, "
                                   f"not {self.game}")
        self._policies: dict[str, Policy] = {}

    def check_game(self, game: dict[str, Any], players: int) -> None:
        """Refuse a table of another game (the commands call it before any hand)."""
        key = game.get("game_key") if isinstance(game, dict) else None
        if key not in self.game_keys or players != 2:
            raise InteropError(f"openspiel bot: {self._where} plays {self.variant} heads-up "
                               f"({self.game}), not {game.get('variant')} with {players} "
                               "players with these options")

    def _state_of(self, view: SeatView) -> tuple[str, list[int], Callable[[int], Action]]:
        """The information state, the legal OpenSpiel ids and the id → move map."""
        legal = view.legal
        assert legal is not None
        if self._mirror is None:
            return info_state_string(view), action_ids(legal), lambda a: to_action(a, legal)
        mirror = self._mirror
        state = mirror.state(view)
        player = player_of(view, view.seat)
        if state.current_player() != player:
            raise InteropError(f"openspiel bot: the view of seat {view.seat} is not "
                               f"{mirror.game}'s player {player} to act")
        return (state.information_state_string(player), list(state.legal_actions()),
                lambda a: _our_action(mirror.variant, a, legal))

    def policy(self, view: SeatView) -> Policy:
        """The policy's distribution at ``view`` (moves of probability 0 left out)."""
        game = view.game if isinstance(view.game, dict) else {}
        if game.get("game_key") not in self.game_keys:
            self.check_game({**game, "variant": view.variant}, view.players)
        key, ids, move = self._state_of(view)
        got = self._policies.get(key)
        if got is not None:
            return got
        if self.table is None:
            probs = {a: 1.0 / len(ids) for a in ids}
        else:
            found = self.table.get(key)
            if found is None:
                raise InteropError(f"policy file {self._where!r} has no information state "
                                   f"{key!r}")
            probs = found
        bad = [a for a, p in probs.items() if p > 0.0 and a not in ids]
        if bad:
            raise InteropError(f"policy file {self._where!r}: state {key!r}: actions {bad} "
                               f"are not legal (legal: {ids})")
        got = self._policies[key] = [(move(a), p) for a, p in sorted(probs.items())
                                     if p > 0.0]
        return got

    def act(self, view: SeatView) -> Action:
        """One draw from :meth:`policy` with the bot's generator."""
        return draw_from(self.policy(view), self.rng.random())


__all__ = ["FORMAT", "MIRRORS", "Mirror", "OpenSpielBot", "read_policy", "save_policy",
           "tabular_policy"]
