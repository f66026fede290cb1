"""The betting policy shared by the strength-driven bots (``rock``, ``tag``, ``lag``,
``equity``): a :class:`Style` of thresholds applied to an equity estimate.

The equity ``e`` is the expected share of the pot (Monte Carlo, :mod:`.strength`); with
``k`` live players it is turned into a per-opponent figure ``e ** (1 / (k - 1))`` so
that the heads-up thresholds hold multi-way. Calls follow pot odds plus the style's
margin; bets and raises need the style's value threshold (raised for each raise already
made this round); bluffs come at the style's rate; no-limit and pot-limit sizes are a
fraction of the pot, all-in when the stack is mostly committed; draw games discard with
:meth:`~pokerarena.bots.strength.estimate.Profile.best_discard`.

The bots declare their policy (:meth:`StrengthBot.policy`): the distribution of ``act``
given the bot's private state - its Monte-Carlo generator and its per-hand memo - over
the one coin ``act`` draws, the bluff.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerarena.bots.base import (
    DECLARE_KIND,
    EXPOSE_KIND,
    BaseBot,
    Policy,
    SeatView,
    canonical_action,
    down_cards,
    legalize,
    passive_action,
)
from pokerarena.bots.strength.drawlog import DiscardLog, discard_log
from pokerarena.bots.strength.estimate import CLEAR_Z, Profile, profile, raise_counts
from pokerarena.engine.actions import (
    BRING_IN_KIND,
    CALL_KIND,
    DEALER,
    DISCARD_KIND,
    FOLD_KIND,
    RAISE_KIND,
    SHOW_KIND,
    Action,
)


@dataclass(frozen=True)
class Style:
    """Thresholds of a strength-driven bot."""

    call_margin: float = 0.02      # call when equity >= pot odds + margin
    raise_th: float = 0.62         # per-opponent equity to bet or raise for value
    reraise_step: float = 0.08     # extra equity needed per raise already made this round
    bluff: float = 0.03            # chance to bet/raise with a weak hand
    bet_frac: float = 0.6          # bet size as a fraction of the pot (no-limit, pot-limit)
    open_th: float = 0.0           # per-opponent equity below which it folds to any bet
    samples: int = 150             # Monte-Carlo deals per decision
    narrow: bool = False           # narrow opponents' ranges by their aggression
    position_bonus: float = 0.03   # thresholds lowered by this when acting last
    draw_samples: int = 20         # replacement draws per keep-set in draw games
    size_by_equity: bool = False   # bigger bets with more equity


_BETTING = frozenset((FOLD_KIND, CALL_KIND, RAISE_KIND, BRING_IN_KIND))
_CHOOSING = frozenset((DISCARD_KIND, SHOW_KIND, EXPOSE_KIND, DECLARE_KIND))


def _draws_coin(kinds: tuple[str, ...]) -> bool:
    """True when ``act`` reaches :meth:`StrengthBot.decide_bet` (and draws the bluff
    coin) for these legal kinds; :meth:`StrengthBot.other` decides the rest, with no
    coin."""
    return _BETTING.issuperset(kinds) or _CHOOSING.isdisjoint(kinds)


def _copy_memo(memo: dict[Any, Any]) -> dict[Any, Any]:
    """A copy of a bot's per-hand memo that later decisions can update without touching
    the original: its entries are immutable (equities, discards, percentiles) but for
    the discard logs, which :func:`discard_log` extends in place."""
    out = dict(memo)
    for key, value in memo.items():
        if isinstance(value, DiscardLog):
            log = copy.copy(value)
            log.last = dict(value.last)
            out[key] = log
    return out


def _copy_random(rng: random.Random) -> random.Random:
    """An independent generator in ``rng``'s state (made without seeding it first, which
    reads the system's entropy: the state is replaced at once)."""
    twin = random.Random.__new__(random.Random)
    twin.setstate(rng.getstate())
    return twin


def _same_state(a: StrengthBot, b: StrengthBot) -> bool:
    """Whether two copies of a bot would play on alike (their generators and memos)."""
    return (a.mc_rng.getstate() == b.mc_rng.getstate() and a._memo_hand == b._memo_hand
            and a._memo.keys() == b._memo.keys()
            and all(a._memo[k] == b._memo[k] for k in a._memo))


def raises_this_round(view: SeatView) -> int:
    """Bets and raises since the last card was dealt."""
    n = 0
    for actor, act in reversed(view.history):
        if actor == DEALER:
            break
        if act.kind == RAISE_KIND:
            n += 1
    return n


def acts_last(view: SeatView) -> bool:
    """True when every other live seat acts before this one after the deal (the button
    or the last live seat before it) - position in blind games."""
    folded = view.folded
    s = view.button
    if True in folded:
        n = len(folded)
        for _ in range(n):
            if not folded[s]:
                break
            s = (s - 1) % n
        else:
            return False
    return s == view.seat


def _clear_of(e: float, n: int, thresholds: tuple[float, ...], z: float = CLEAR_Z) -> bool:
    """True when an estimate from ``n`` deals lies ``z`` standard errors from each
    threshold (its side of every threshold is settled)."""
    var = max(e * (1.0 - e), 0.01) / max(n, 1)
    return all((e - t) * (e - t) > z * z * var for t in thresholds)


class StrengthBot(BaseBot):
    """A bot driven by equity, pot odds and position under a :class:`Style`.

    Equity estimates are remembered for the rest of the hand, keyed by what the seat
    has seen (its cards, the board, the up cards, who folded and - when it narrows
    ranges - each opponent's raises); a later decision reuses one unless it needs more
    precision than the estimate has. Monte-Carlo sampling stops early once the estimate
    is clearly on one side of every threshold the decision turns on."""

    name = "strength"
    style = Style()
    min_samples = 16  # deals before sampling may stop early

    def __init__(self, seed: int | None = None, samples: int | None = None,
                 **options: Any) -> None:
        super().__init__(seed, **options)
        self.np_rng = np.random.default_rng(seed)
        self.mc_rng = random.Random(int(self.np_rng.integers(0, 2**63 - 1)))  # kernel seeds
        self.samples = samples or self.style.samples
        self._memo: dict[Any, Any] = {}
        self._memo_hand: tuple[int, int] = (-1, -1)
        self._prof_game: Any = None  # the view's game (summary and game_key) of _prof
        self._prof: Profile | None = None

    # ------------------------------------------------------------------ decisions
    def act(self, view: SeatView) -> Action:
        """Discard, show or bet by the style."""
        legal = view.legal
        if legal is None:
            return Action(CALL_KIND)
        prof = self._prof
        if view.game is not self._prof_game or prof is None:
            prof = self._load_profile(view)
        if not _BETTING.issuperset(legal.kinds):
            return self.other(view, prof)
        return self.decide_bet(view, prof)

    def policy(self, view: SeatView) -> Policy:
        """The distribution :meth:`act` draws from at ``view``, given the bot's private
        state (its Monte-Carlo generator and per-hand memo, on which the declaration is
        conditioned): a betting decision is the action with the bluff coin up (chance
        ``style.bluff``) and the one with it down, the rest has probability 1.

        Each branch runs ``act``'s own code on a scratch copy of the state (the two may
        sample equity differently: the early stop depends on the coin), so the bot is
        left exactly as it was and a following ``act`` plays as if unasked: the actions
        of :meth:`branches`, their chances summed."""
        out: dict[Action, float] = {}
        for action, weight, _ in self.branches(view):
            out[action] = out.get(action, 0.0) + weight
        if len(out) == 1:
            return [(action, 1.0)]  # the coin does not matter here
        return list(out.items())

    def snapshot(self) -> StrengthBot:
        """A copy of the bot's state now (its generators and memo): see :meth:`branches`."""
        return self._scratch()

    def branches(self, view: SeatView) -> list[tuple[Action, float, StrengthBot]]:
        """What :meth:`act` does at ``view`` from this state, each way the bluff coin can
        fall: (action, chance, the state after it), each played by ``act``'s own code on
        a copy (this state is left as it was). Faithful to play only with views numbered
        as play numbered them (the memo is the hand's: ``match_no``, ``hand_no``)."""
        legal = view.legal
        if legal is None:
            return [(Action(CALL_KIND), 1.0, self)]
        prof = self._prof
        if view.game is not self._prof_game or prof is None:
            prof = profile(view)
        out: list[tuple[Action, float, StrengthBot]] = []
        if not _draws_coin(legal.kinds):
            twin = self._scratch()
            return [(canonical_action(twin.other(view, prof)), 1.0, twin)]
        p = self.style.bluff
        for bluff, weight in ((True, p), (False, 1.0 - p)):
            if weight > 0.0:
                twin = self._scratch()
                action = canonical_action(twin.decide_bet(view, prof, bluff))
                if out and out[0][0] == action and _same_state(out[0][2], twin):
                    out[0] = (action, 1.0, twin)  # the coin changed nothing
                else:
                    out.append((action, weight, twin))
        return out

    def _scratch(self) -> StrengthBot:
        """A copy of the bot whose decisions leave the bot itself untouched: its own
        generators in the bot's states and its own copy of the memo."""
        twin = copy.copy(self)
        twin.rng = _copy_random(self.rng)
        twin.mc_rng = _copy_random(self.mc_rng)
        twin._memo = _copy_memo(self._memo)
        return twin

    def _load_profile(self, view: SeatView) -> Profile:
        """The game's profile (by the game key in the view's ``game``), remembered while
        the views share one ``game`` (a table's views do, for a match or a hand)."""
        prof = self._prof = profile(view)
        self._prof_game = view.game
        return prof

    def decide_bet(self, view: SeatView, prof: Profile, bluff: bool | None = None) -> Action:
        """Fold, check/call, bring in or bet/raise: equity (sampled only as precisely as
        the decision needs) against the style's thresholds. ``bluff``: the bluff coin,
        drawn here unless given (:meth:`policy` gives each side)."""
        legal = view.legal
        assert legal is not None
        spot = self.spot(view)
        if bluff is None:
            bluff = self.rng.random() < self.style.bluff
        ths = self.thresholds(view, spot, bluff)
        e = 0.0 if ths is None else self.cached_equity(view, prof, ths)
        action = self.bet(view, prof, e, spot, bluff)
        kind = action.kind
        if kind != RAISE_KIND and kind in legal.kinds:
            return action
        return legalize(action, legal, view.hole, down_cards(view))

    def other(self, view: SeatView, prof: Profile) -> Action:
        """Discard, show, turn up or declare."""
        legal = view.legal
        assert legal is not None
        kinds = legal.kinds
        if DISCARD_KIND in kinds:
            return self.discard(view, prof)
        if SHOW_KIND in kinds:
            return Action(SHOW_KIND, 0, tuple(view.hole))
        if EXPOSE_KIND in kinds:
            return Action(EXPOSE_KIND, 0, prof.expose_choice(down_cards(view),
                                                             legal.discard_min))
        if DECLARE_KIND in kinds:
            choices = getattr(legal, "choices", ()) or (1, 2, 3)
            d = prof.declaration(view)
            return Action(DECLARE_KIND, d if d in choices else choices[0])
        return self.decide_bet(view, prof)

    def spot(self, view: SeatView) -> tuple[int, float, bool, float]:
        """(live seats, position bonus, may raise, raise threshold per opponent)."""
        legal = view.legal
        assert legal is not None
        st = self.style
        folded = view.folded
        n = len(folded)
        live = n - sum(folded) if True in folded else n
        bonus = st.position_bonus if acts_last(view) else 0.0
        return ((live if live > 2 else 2), bonus,
                legal.max_to > 0 and RAISE_KIND in legal.kinds,
                st.raise_th + st.reraise_step * raises_this_round(view) - bonus)

    def thresholds(self, view: SeatView, spot: tuple[int, float, bool, float],
                   bluff: bool = True) -> tuple[float, ...] | None:
        """The pot shares at which :meth:`bet`'s choice changes (with ``bluff``, as drawn
        for this decision); None when the choice does not depend on equity at all."""
        live, bonus, can_raise, th = spot
        legal = view.legal
        assert legal is not None
        st = self.style
        p = live - 1
        call = legal.call
        if not call or BRING_IN_KIND in legal.kinds:
            # check or bet (bring in or complete): a bluff bets whatever the equity
            if not can_raise or (bluff and not st.size_by_equity):
                return None
            return ((th if th > 0.0 else 0.0) ** p,)
        odds = call / (view.pot + call) + st.call_margin - bonus
        if not can_raise and st.open_th <= 0:
            return (odds,)
        out = [(th if th > 0.0 else 0.0) ** p, odds] if can_raise else [odds]
        if st.open_th > 0:
            out.append(st.open_th ** p)
        if can_raise and bluff and st.bluff > 0:
            out.append(0.3 ** p)
        return tuple(out)

    def cached_equity(self, view: SeatView, prof: Profile,
                      thresholds: tuple[float, ...] = ()) -> float:
        """:meth:`equity`, remembered for the hand by what the seat has seen."""
        memo = self._memo
        if view.hand_no != self._memo_hand[1] or view.match_no != self._memo_hand[0]:
            self._memo_hand = (view.match_no, view.hand_no)
            memo.clear()
        key: Any = (view.hole, view.board, view.up, view.folded)
        if prof.is_draw:
            key = (key, view.street, view.phase, self._discards(view))
        elif self.style.narrow:
            key = (key, raise_counts(view))
        found = memo.get(key)
        if found is not None and (found[1] >= self.samples or not thresholds
                                  or _clear_of(found[0], found[1], thresholds)):
            return found[0]
        got = memo[key] = self.equity_stats(view, prof, thresholds)
        return got[0]

    def _hand_memo(self, view: SeatView) -> dict[Any, Any]:
        """The memo of the current hand (emptied when a new hand starts)."""
        hand = (view.match_no, view.hand_no)
        if hand != self._memo_hand:
            self._memo_hand = hand
            self._memo.clear()
        return self._memo

    def _discards(self, view: SeatView) -> tuple[int, ...]:
        """How many cards each discard in the history changed."""
        return discard_log(view, self._hand_memo(view)).sizes

    def equity(self, view: SeatView, prof: Profile) -> float:
        """Pot share estimate for the view."""
        return self.equity_stats(view, prof)[0]

    def equity_stats(self, view: SeatView, prof: Profile,
                     thresholds: tuple[float, ...] = ()) -> tuple[float, int]:
        """(pot share estimate, deals behind it); sampling may stop early once the
        estimate is clear of ``thresholds``."""
        st = self.style
        if prof.is_draw:
            return (prof.draw_equity(view, self.mc_rng, st.draw_samples, self._hand_memo(view)),
                    self.samples)
        return prof.equity_stats(view, self.samples, self.mc_rng, narrow=st.narrow,
                                 thresholds=thresholds, min_samples=self.min_samples)

    def discard(self, view: SeatView, prof: Profile) -> Action:
        """The discard that maximises the expected hand after the draw."""
        legal = view.legal
        assert legal is not None
        memo = self._hand_memo(view)
        cards, _ = prof._best_discard_memo(view.hole, legal.discard_min, legal.discard_max,
                                           self.mc_rng, prof.draws_left(view.street),
                                           self.style.draw_samples,
                                           discard_log(view, memo).mine, memo)
        return Action(DISCARD_KIND, 0, cards)

    def raise_to(self, view: SeatView, prof: Profile, e_n: float) -> int:
        """The total (this round) to bet or raise to."""
        legal = view.legal
        assert legal is not None
        lo, hi = legal.min_to, legal.max_to
        if lo >= hi or prof.limit:
            return lo
        st = self.style
        frac = st.bet_frac
        if st.size_by_equity:
            frac = min(1.2, max(0.4, st.bet_frac + 1.5 * (e_n - st.raise_th)))
        mine = view.bets[view.seat]
        call = legal.call
        target = mine + call + frac * (view.pot + call)
        if target >= 0.6 * (mine + view.stacks[view.seat]):
            target = hi
        return int(min(hi, max(lo, round(target))))

    def bet(self, view: SeatView, prof: Profile, e: float,
            spot: tuple[int, float, bool, float] | None = None,
            bluff: bool | None = None) -> Action:
        """Fold, check/call, bring in, or bet/raise by equity and pot odds (``bluff``:
        drawn here unless given)."""
        legal = view.legal
        assert legal is not None
        kinds = legal.kinds
        st = self.style
        live, bonus, can_raise, th = spot or self.spot(view)
        e_n = e ** (1.0 / (live - 1)) if live > 2 else e
        if bluff is None:
            bluff = self.rng.random() < st.bluff
        if BRING_IN_KIND in kinds:
            if can_raise and (e_n >= th or bluff):
                return Action(RAISE_KIND, self.raise_to(view, prof, e_n))
            return Action(BRING_IN_KIND)
        call = legal.call
        if call == 0:
            if can_raise and (e_n >= th or bluff):
                return Action(RAISE_KIND, self.raise_to(view, prof, e_n))
            return Action(CALL_KIND)
        odds = call / (view.pot + call)
        if can_raise and (e_n >= th or (bluff and e_n >= 0.3)):
            return Action(RAISE_KIND, self.raise_to(view, prof, e_n))
        if e_n >= st.open_th and e >= odds + st.call_margin - bonus:
            return Action(CALL_KIND)
        return Action(FOLD_KIND) if FOLD_KIND in kinds else passive_action(legal, view.hole)
