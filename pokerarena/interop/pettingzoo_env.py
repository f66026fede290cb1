"""Every game of the catalogue as a PettingZoo AEC environment (docs/interop.md).

``env(variant="holdem", betting="no_limit", players=6)`` is the environment wrapped as
PettingZoo's own classic environments are; :class:`raw_env` is the class. A poker
variant is played through the engine's ``Game``/``Hand``; a game family
(``variant="durak"``, ...) through its own game. Seats see what
:class:`~pokerarena.arena.views.ViewMaker` (the one visibility rule) lets them see,
encoded by :mod:`pokerarena.interop.encoding`.

This module needs ``pettingzoo`` and ``gymnasium`` (the ``peers`` extra); import it
through :mod:`pokerarena.env`, which says so in one line when they are missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from pokerarena.arena.match import big_blind
from pokerarena.arena.views import ViewMaker
from pokerarena.bots.base import view_to_json
from pokerarena.bots.seat_view import SeatView
from pokerarena.engine.actions import IllegalAction
from pokerarena.engine.game import Game
from pokerarena.games import family, family_ids
from pokerarena.interop import InteropError
from pokerarena.interop.encoding import DEFAULT_FRACTIONS, FamilyCodec, PokerCodec
from pokerarena.rules import variant_ids

REWARDS = ("chips", "bb")
RENDER_MODES = ("human", "ansi")


def hand_seed(seed: int, k: int) -> int:
    """The seed of hand ``k`` of an episode reset with ``seed``: one stream per hand,
    so a session replays hand by hand."""
    return int(np.random.SeedSequence([seed, k]).generate_state(1, dtype=np.uint64)[0])


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's name for the unwrapped class
    """A table of ``players`` seats (agents ``player_0`` ...; agent ``i`` is seat ``i``).

    ``variant``: a catalogue variant (:func:`pokerarena.rules.variant_ids`) or a game
    family (:func:`pokerarena.games.family_ids`); ``betting`` and ``options``: the
    variant's betting system and rule options (a family's options). ``action_mode``:
    ``discrete`` or ``amount`` (docs/interop.md, "Actions"). ``stack``: each seat's chips
    (default: the variant's stakes); ``hands``: hands per episode, the stacks carried
    from hand to hand and the button moving (the episode also ends when a seat is
    broke); ``reward``: ``chips`` or ``bb`` (big blinds); ``fractions``: the pot
    fractions of the discrete raises; ``history``: public history entries in the vector;
    ``max_cycles``: truncate after that many moves per seat; ``info_view``: put the full
    view (its JSON form) in ``infos[agent]["view"]``; ``slots``: a family's action slots.
    """

    metadata = {"render_modes": list(RENDER_MODES), "name": "pokerarena_v0",
                "is_parallelizable": False}

    def __init__(self, variant: str = "holdem", betting: str | None = None, players: int = 2,
                 options: dict[str, Any] | None = None, action_mode: str = "discrete", *,
                 stack: int | None = None, hands: int = 1, reward: str = "chips",
                 fractions: Sequence[float] = DEFAULT_FRACTIONS, history: int | None = None,
                 max_cycles: int | None = None, info_view: bool = False, slots: int = 128,
                 button: int = 0, render_mode: str | None = None) -> None:
        super().__init__()
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 10:
            raise InteropError(f"players: 2 to 10 seats, not {players!r}")
        if reward not in REWARDS:
            raise InteropError(f"reward is 'chips' or 'bb', not {reward!r}")
        if not isinstance(hands, int) or hands < 1:
            raise InteropError(f"hands: at least 1 hand per episode, not {hands!r}")
        if max_cycles is not None and max_cycles < 1:
            raise InteropError(f"max_cycles: at least 1, not {max_cycles}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InteropError(f"render_mode is 'human' or 'ansi', not {render_mode!r}")
        self.variant = variant
        self.players = players
        self.action_mode = action_mode
        self.hands = hands
        self.reward_unit = reward
        self.max_cycles = max_cycles
        self.info_view = info_view
        self.render_mode = render_mode
        self.button = button
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.is_family = variant in family_ids()
        self.game: Any = None  # the engine's Game, or the family's game
        if self.is_family:
            self._set_up_family(options, betting, stack, hands, reward, action_mode, slots)
        elif variant in variant_ids():
            self._set_up_poker(options, betting, stack, fractions, history)
        else:
            raise InteropError(f"unknown game {variant!r}; variants: {', '.join(variant_ids())}"
                               f"; families: {', '.join(family_ids())}")
        box = spaces.Box(self._low, 1.0, shape=(self.codec_size,), dtype=np.float32)
        mask = spaces.Box(0, 1, shape=(self.n_actions,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.n_actions) for a in self.possible_agents}
        self._seed: int = 0
        self.hand: Any = None

    # ---------------------------------------------------------------- set-up
    def _set_up_poker(self, options: dict[str, Any] | None, betting: str | None,
                      stack: int | None, fractions: Sequence[float],
                      history: int | None) -> None:
        opts = dict(options or {})
        if betting is not None:
            opts["betting"] = betting
        self.game = Game(self.variant, opts)
        lo, hi = self.game.variant.players
        if not lo <= self.players <= hi:
            raise InteropError(f"{self.variant} is for {lo} to {hi} players, not {self.players}")
        chips = stack if stack is not None else self.game.variant.stakes.stack
        if not isinstance(chips, int) or chips < 1:
            raise InteropError(f"stack: a positive number of chips, not {chips!r}")
        self.stack = chips
        self.bb = big_blind(self.game) or 1
        bets = sum(1 for s in self.game.variant.streets if s.kind == "bet") or 1
        keep = history if history is not None else max(64, 6 * self.players * bets)
        self.codec = PokerCodec(self.game.variant, self.players, mode=self.action_mode,
                                fractions=fractions, history=keep,
                                max_chips=chips * self.players)
        self.codec_size = self.codec.size
        self.n_actions = self.codec.n_actions
        self._low = 0.0
        self._settings = {"variant": self.variant, "betting": self.game.system_name,
                          "options": {k: v for k, v in opts.items() if k != "betting"},
                          "players": self.players, "mode": self.action_mode,
                          "fractions": list(self.codec.fractions), "history": keep,
                          "max_chips": self.codec.max_chips}

    def codec_settings(self) -> dict[str, Any]:
        """What rebuilds this environment's encoding elsewhere (a saved policy's bot:
        :mod:`pokerarena.interop.policy_bot`)."""
        if self.is_family:
            raise InteropError(f"{self.variant} is a game family: its bots play through the "
                               f"family's own protocol")
        return dict(self._settings)

    def _set_up_family(self, options: dict[str, Any] | None, betting: str | None,
                       stack: int | None, hands: int, reward: str, action_mode: str,
                       slots: int) -> None:
        fam = family(self.variant)
        lo, hi = fam.players
        if not lo <= self.players <= hi:
            raise InteropError(f"{self.variant} is for {lo} to {hi} players, not {self.players}")
        given = {"betting": betting, "stack": stack, "hands": hands != 1,
                 "reward": reward != "chips", "action_mode": action_mode != "discrete"}
        wrong = [k for k, v in given.items() if v not in (None, False)]
        if wrong:
            raise InteropError(f"{self.variant} is a game family: {', '.join(wrong)} belong to "
                               f"the betting variants (a family's game is one episode, scored "
                               f"in its own points, with discrete actions)")
        self.fam = fam
        self.game = fam.make(options)
        self.codec_family = FamilyCodec(self.players, self._probe(), slots)
        self.codec_size = self.codec_family.size
        self.n_actions = self.codec_family.n_actions
        self._low = -1.0

    def _probe(self) -> list[dict[str, Any]]:
        """Views of one game played by the first legal move (fixed seed): the fields
        the family's vector is laid out from."""
        hand: Any = self.game.new_hand(0, self.players, None)
        docs = [self._family_json(hand, s) for s in range(self.players)]
        for _ in range(200):
            if hand.is_over:
                break
            seat = hand.to_act
            hand.apply(list(hand.legal_actions())[0], seat)
            docs.append(self._family_json(hand, seat))
        return docs

    def _family_json(self, hand: Any, seat: int) -> dict[str, Any]:
        view = hand.observation(seat)
        assert self.fam.view_json is not None
        return self.fam.view_json(view)

    # ---------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ---------------------------------------------------------------- episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode; the same ``seed`` deals the same cards to the same seats."""
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0])
        self._seed = int(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.hand_no = 0
        self.moves = 0
        self._cache: dict[int, dict[str, np.ndarray]] = {}
        if self.is_family:
            self.hand = self.game.new_hand(hand_seed(self._seed, 0), self.players, None)
        else:
            self.stacks = [self.stack] * self.players
            self._deal()
        self._after_move()

    def _deal(self) -> None:
        button = (self.button + self.hand_no) % self.players
        self.hand = self.game.new_hand(hand_seed(self._seed, self.hand_no), self.players,
                                       self.stacks, button)
        self.views = ViewMaker(self.hand, hand_no=self.hand_no)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.agent_name_mapping[agent]
        slot = int(action)
        self._cumulative_rewards[agent] = 0.0
        if self.is_family:
            legal = self.family_legal()
            if not 0 <= slot < len(legal):
                raise InteropError(f"action {slot} is not legal for {agent} now; the legal "
                                   f"slots are 0 to {len(legal) - 1}")
            self.apply_move(legal[slot])
        else:
            self.apply_move(self.codec.decode(slot, self.seat_view(seat)))

    def apply_move(self, move: Any) -> None:
        """Apply an engine action of the seat to act (the Gymnasium wrapper's bots give
        theirs this way); one clear error when it is illegal."""
        seat = self.hand.to_act
        self._clear_rewards()
        try:
            if self.is_family:
                self.hand.apply(move, seat)
            else:
                self.hand.apply(move)
        except IllegalAction as exc:
            raise InteropError(f"player_{seat}: {exc}") from None
        self.moves += 1
        self._after_move()

    def _after_move(self) -> None:
        """Settle a finished hand (next hand of a session, or the episode's end), then
        point ``agent_selection`` at the seat to act and refresh the infos."""
        self._cache.clear()
        while self.hand.is_over and not any(self.terminations.values()):
            self._settle()
        if self.max_cycles is not None and self.moves >= self.max_cycles * self.players \
                and not any(self.terminations.values()):
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        if any(self.terminations.values()) or any(self.truncations.values()):
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = f"player_{self.hand.to_act}"
        for a in self.agents:
            self.infos[a] = self._info(a)

    def _settle(self) -> None:
        """The finished hand's deltas as rewards; deal the session's next hand, or end
        the episode (the last hand, or a seat broke)."""
        result = self.hand.result()
        unit = self.bb if not self.is_family and self.reward_unit == "bb" else 1
        for a in self.agents:
            self.rewards[a] += float(result.deltas[self.agent_name_mapping[a]]) / unit
        if not self.is_family:
            self.stacks = [int(x) for x in result.stacks]
            self.hand_no += 1
            if self.hand_no < self.hands and min(self.stacks) > 0:
                self._deal()
                return
        self.terminations = dict.fromkeys(self.agents, True)

    # ---------------------------------------------------------------- what seats see
    def seat_view(self, seat: int) -> SeatView:
        """The :class:`SeatView` of ``seat`` now (a poker variant): the dict form."""
        if self.is_family:
            raise InteropError(f"{self.variant} is a game family: use family_view(seat)")
        return self.views.view(seat)

    def family_view(self, seat: int) -> Any:
        """The family's own observation of ``seat`` now: the dict form (its JSON form is
        ``fam.view_json(view)``)."""
        return self.hand.observation(seat)

    def family_legal(self) -> list[Any]:
        """The legal actions of the seat to act, in slot order."""
        assert self.fam.action_json is not None
        return FamilyCodec.ordered(list(self.hand.legal_actions()), self.fam.action_json)

    def observe(self, agent: str) -> Any:
        seat = self.agent_name_mapping[agent]
        hit = self._cache.get(seat)
        if hit is not None:
            return {k: v.copy() for k, v in hit.items()}
        live = not (self.hand.is_over or self.terminations.get(agent, False)
                    or self.truncations.get(agent, False))
        if self.is_family:
            doc = self._family_json(self.hand, seat)
            vec = self.codec_family.encode(doc, seat)
            to_act = live and self.hand.to_act == seat
            mask = self.codec_family.mask(len(self.hand.legal_actions()) if to_act else 0)
        else:
            view = self.seat_view(seat)
            progress = self.hand_no / self.hands if self.hands > 1 else 0.0
            vec = self.codec.encode(view, progress)
            mask = self.codec.mask(view) if live else np.zeros(self.n_actions, np.int8)
        obs = {"observation": vec, "action_mask": mask}
        self._cache[seat] = obs
        return {k: v.copy() for k, v in obs.items()}

    def _info(self, agent: str) -> dict[str, Any]:
        """The acting seat's legal moves (amount mode: the raise-to range), and the full
        view when ``info_view``."""
        seat = self.agent_name_mapping[agent]
        out: dict[str, Any] = {}
        over = self.hand.is_over or self.terminations[agent] or self.truncations[agent]
        if self.is_family:
            if not over and self.hand.to_act == seat:
                assert self.fam.action_json is not None
                out["legal"] = [self.fam.action_json(a) for a in self.family_legal()]
            if self.info_view:
                out["view"] = self._family_json(self.hand, seat)
            return out
        view = self.seat_view(seat)
        if not over and view.legal is not None:
            legal = view.legal
            out["legal"] = [int(i) for i in np.flatnonzero(self.codec.mask(view))]
            out["kinds"] = list(legal.kinds)
            out["call"] = int(legal.call)
            if "cbr" in legal.kinds:
                out["min_to"], out["max_to"] = int(legal.min_to), int(legal.max_to)
                if legal.choices:
                    out["choices"] = [int(c) for c in legal.choices]
        if self.info_view:
            out["view"] = view_to_json(view)
        return out

    # ---------------------------------------------------------------- the rest
    def render(self) -> str | None:
        """The public table as text (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None:
            return None
        if self.is_family:
            text = f"{self.variant}: seat {self.hand.to_act} to act"
        else:
            view = self.seat_view(self.hand.to_act if not self.hand.is_over else 0)
            text = (f"{self.variant} hand {self.hand_no}: board {list(view.board)} pot "
                    f"{view.pot} stacks {list(view.stacks)} to act {self.hand.to_act}")
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(variant: str = "holdem", betting: str | None = None, players: int = 2,
        options: dict[str, Any] | None = None, action_mode: str = "discrete",
        **kwargs: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's classic environments are: an action out
    of the space is an error, and the call order is enforced."""
    out: AECEnv = raw_env(variant, betting, players, options, action_mode, **kwargs)
    out = wrappers.AssertOutOfBoundsWrapper(out)
    return wrappers.OrderEnforcingWrapper(out)


__all__ = ["env", "hand_seed", "raw_env"]
