"""AIVAT for the engine's betting games: hold'em, Omaha, stud, draw (issue 26, part 3):
the table that records what the correction needs while it plays, matches, and the
estimates.

The walk over a finished hand and its terms are :mod:`.aivat_walk`'s; the last street
played ahead by the bots, :mod:`.aivat_lookahead`'s (the default wherever every bot at
the table can be played ahead). While a hand is played, :class:`PolicyRecorder` reads a
declared bot's ``policy(view)`` just before its ``act(view)`` on the very view (so a
bot's internal state, a Monte Carlo generator or a memo, is the one its ``act`` draws
with), after the table has copied every bot's state (:class:`~.aivat_walk.Snapshot`); each
finished hand is corrected by :class:`TableAivat`, which a run's unit and
:func:`play_engine_aivat` share. **All-in settlement** rides along for comparison: each
deal's hands are settled at equity together (``variance.settle_deal``), so a match
reports raw, all-in and AIVAT on the same hands.

Value functions (:data:`VALUES`, :func:`make_value`): ``aivat_fit.FittedValue`` where a
fitted table is shipped for the game (heads-up hold'em, fixed and no limit), else
``aivat_value.EquityValue`` (:func:`default_value`); why each is what it is: there.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerarena.arena.match import big_blind, play_match
from pokerarena.bots.base import SeatView, declared_policy, snapshot_of
from pokerarena.engine.actions import Action
from pokerarena.engine.game import Game
from pokerarena.tournaments.aivat import (
    AivatError,
    AivatMatch,
    ValueFunction,
    seeded_bots,
)
from pokerarena.tournaments.aivat_fit import FittedValue, load
from pokerarena.tournaments.aivat_lookahead import LookaheadAivat
from pokerarena.tournaments.aivat_value import EquityValue
from pokerarena.tournaments.aivat_walk import (
    CHANCE_SAMPLES,
    EXACT_OUTCOMES,
    SALT,
    CardView,
    Declared,
    EngineAivat,
    EngineState,
    EngineWalk,
    Snapshot,
    Term,
    clone,
)
from pokerarena.tournaments.estimates import Estimate, Reduction, block_rate, reduction
from pokerarena.tournaments.variance import EQUITY_SAMPLES, settle_deal

VALUES = ("default", "equity", "fitted")
"""The value functions by name: ``equity`` (:class:`EquityValue`), ``fitted``
(:class:`FittedValue`, heads-up hold'em only), ``default`` (:func:`default_value`)."""


def default_value(game: Game) -> ValueFunction[EngineState]:
    """The value used when none is named: the fitted one where a fit is shipped for the
    game (``variant:betting``, heads-up), else the equity value. Both are fixed in code
    and data before any hand is judged."""
    if load(f"{game.variant_id}:{game.system_name}") is not None:
        return FittedValue(game)
    return EquityValue(game)


def make_value(name: str, game: Game) -> ValueFunction[EngineState]:
    """The value function called ``name`` (:data:`VALUES`) for ``game``."""
    if name == "default":
        return default_value(game)
    if name == "equity":
        return EquityValue(game)
    if name == "fitted":
        try:
            return FittedValue(game)
        except ValueError as exc:
            raise AivatError(str(exc)) from None
    raise AivatError(f"aivat: no value function {name!r} (one of {', '.join(VALUES)})")


# Recording declared policies while playing -------------------------------------------
class PolicyRecorder:
    """A declared bot as the table sees it: ``act(view)`` first reads ``policy(view)`` on
    the same view and keeps it, then draws from the bot. Everything else is the bot's."""

    def __init__(self, bot: Any) -> None:
        fn = declared_policy(bot)
        if fn is None:
            raise AivatError(f"aivat: {getattr(bot, 'name', bot)!r} declares no policy")
        self.bot, self._policy = bot, fn
        self.name = str(getattr(bot, "name", "bot"))
        self.kept: list[tuple[Declared | None, Snapshot | None]] = []
        self.before: Callable[[SeatView], Snapshot] | None = None
        """Called first at each decision (a table that looks ahead: every bot's state)."""

    def act(self, view: SeatView) -> Action:
        """Record the declared distribution, then play. A declaration that cannot be
        read (a remote bot's bad answer: ``ValueError``) costs only this decision's term:
        whether a term is used is settled before the action is drawn, so the estimate
        stays unbiased."""
        snap = self.before(view) if self.before is not None else None
        try:
            pol: Declared | None = tuple((a, float(p)) for a, p in self._policy(view))
        except ValueError:
            pol = None
        self.kept.append((pol, snap))
        return self.bot.act(view)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)


@dataclass(frozen=True)
class EngineAivatMatch(AivatMatch):
    """:class:`~.aivat.AivatMatch` of an engine game, with the CPU seconds of the play and
    of the AIVAT computation, and the big blind (the unit of mbb)."""

    big_blind: int = 1
    cpu_play: float = 0.0
    cpu_aivat: float = 0.0
    allin: np.ndarray | None = None
    """Per hand and entrant: the chips with all-in runouts settled at equity, both hands
    of a duplicate deal at the point they share (``tournaments.variance.settle_deal``)."""
    lookahead: bool = False
    """Whether the last street was played ahead by the bots (:mod:`.aivat_lookahead`)."""
    lookahead_steps: dict[str, int] | None = None
    """Then: the last street's steps corrected by playing ahead (``ahead``), and by the
    value alone (``value_alone``: a walk over its budget, a move no branch plays)."""

    def blocks(self, which: str = "aivat") -> np.ndarray:
        """Block totals, ``[blocks, entrants]``: ``raw``, ``aivat`` or ``allin``."""
        if which != "allin":
            return super().blocks(which)
        if self.allin is None:
            raise AivatError("aivat: this match kept no all-in settlement")
        out = np.zeros((int(self.block.max()) + 1, self.allin.shape[1]))
        np.add.at(out, self.block, self.allin)
        return out


def play_engine_aivat(variant: str, entrants: Sequence[Any], hands: int, seed: int, *,
                      options: dict[str, Any] | None = None,
                      value: ValueFunction[EngineState] | None = None,
                      duplicate: bool = True, declared: Sequence[bool] | None = None,
                      samples: int = CHANCE_SAMPLES, policy: Any = None,
                      lookahead: bool = True) -> EngineAivatMatch:
    """Play ``hands`` hands of two bots (duplicate pairs by default) and correct each.

    ``declared[j]``: whether entrant ``j``'s policy is read (default: whenever its bot
    declares one); the others are black-box. ``value``: default :func:`default_value`.
    Blocks are duplicate pairs (or two consecutive hands without duplicate).
    ``policy``: the table's ``FaultPolicy`` (default: ``play_match``'s; a measure of
    built-in bots passes one without time limits, so that a loaded machine cannot turn
    a slow decision into a fault and change the hands). ``lookahead``: the last street
    played ahead by the bots (:mod:`.aivat_lookahead`) where both can be."""
    if len(entrants) != 2:
        raise AivatError("aivat: two bots (heads-up matches)")
    bots = seeded_bots(entrants, seed)
    table = TableAivat(variant, options, bots, seed, samples=samples, value=value,
                       declared=declared, lookahead=lookahead)
    walk = table.estimator.walk
    raw: list[list[float]] = []
    net: list[list[float]] = []
    allin: list[list[float]] = []
    deal: list[tuple[Any, list[int]]] = []  # the hands of the deal being played
    rotations = 2 if duplicate else 1
    clock = [0.0]

    def on_hand(no: int, hand: Any, seat_of: list[int]) -> None:
        t0 = time.process_time()
        got = table.nets(hand, seat_of, no // rotations)
        if got is None:
            raise AivatError("aivat: a hand's declared policies do not pair with its "
                             "decisions")
        deltas = [float(d) for d in hand.result().deltas]
        raw.append([deltas[s] for s in seat_of])
        net.append([got[s] for s in seat_of])
        deal.append((hand, seat_of))
        if len(deal) == rotations:  # the deal is complete: settle its runouts together
            settled = settle_deal([h for h, _ in deal], samples=EQUITY_SAMPLES,
                                  seed=_deal_seed(seed, no // rotations))
            for (h, seats), eq in zip(deal, settled, strict=True):
                d = eq if eq is not None else [float(x) for x in h.result().deltas]
                allin.append([float(d[s]) for s in seats])
            deal.clear()
        clock[0] += time.process_time() - t0

    n = hands + hands % 2
    t0 = time.process_time()
    play_match(walk.game, table.seated, n, seed, duplicate=duplicate, on_hand=on_hand,
               on_decision=table.on_decision, policy=policy)
    total = time.process_time() - t0
    names = tuple(str(getattr(b, "name", f"bot{j}")) for j, b in enumerate(bots))
    return EngineAivatMatch(walk.game.variant_id, names, duplicate, np.asarray(raw),
                            np.asarray(net), np.arange(len(raw)) // 2,
                            big_blind(walk.game), total - clock[0], clock[0],
                            np.asarray(allin), table.looks_ahead,
                            dict(getattr(table.estimator, "counts", {})) or None)


def _deal_seed(seed: int, deal: int) -> int:
    """The chance draws' seed of a deal: the match's seed and the deal's number only."""
    return int(np.random.SeedSequence([seed, deal, SALT]).generate_state(1)[0])


class _Recording:
    """Pairs each recorder's kept policies with the log index of its decisions."""

    def __init__(self, seated: Sequence[Any]) -> None:
        self.seated = seated
        self.at: dict[int, list[tuple[int, bool]]] = {}  # seat -> (log index, faulted)

    def on_decision(self, d: Any) -> None:
        self.at.setdefault(d.seat, []).append((d.index, d.fault is not None))

    def take(self, seat_of: Sequence[int]
             ) -> tuple[dict[int, Declared], dict[int, Snapshot]]:
        out: dict[int, Declared] = {}
        snaps: dict[int, Snapshot] = {}
        for j, bot in enumerate(self.seated):
            if not isinstance(bot, PolicyRecorder):
                continue
            steps = self.at.get(seat_of[j], [])
            if len(steps) != len(bot.kept):
                raise AivatError(f"aivat: {bot.name!r} was asked {len(bot.kept)} times "
                                 f"for {len(steps)} decisions")
            for (index, faulted), (pol, snap) in zip(steps, bot.kept, strict=True):
                if not faulted and pol is not None:  # else: no term for this decision
                    out[index] = pol
                    if snap is not None:
                        snaps[index] = snap
            bot.kept = []
        self.at = {}
        return out, snaps

    def reset(self) -> None:
        """Forget the hand's recording (its policies could not be paired)."""
        for bot in self.seated:
            if isinstance(bot, PolicyRecorder):
                bot.kept = []
        self.at = {}


class TableAivat:
    """AIVAT of a table's hands as they end, for a caller that plays them itself (a run's
    unit): :attr:`seated` are the bots to seat (declared ones wrapped in
    :class:`PolicyRecorder`), :meth:`on_decision` goes to ``play_match``'s hook, and
    :meth:`nets` corrects each finished hand. ``seed`` with the deal's number seeds the
    chance draws, so every seating of a duplicate deal draws the same samples."""

    def __init__(self, variant: str, options: dict[str, Any] | None, entrants: Sequence[Any],
                 seed: int, *, samples: int = CHANCE_SAMPLES,
                 value: ValueFunction[EngineState] | None = None,
                 declared: Sequence[bool] | None = None, lookahead: bool = True) -> None:
        """``declared[j]``: whether entrant ``j``'s policy is read (default: whenever it
        declares one); ``value``: default :func:`default_value` (the fitted value needs
        two seats; another table gets the equity value). ``lookahead``: on the last
        street, values that play the bots ahead from their states
        (:mod:`.aivat_lookahead`), where every bot is declared and can be played ahead
        (:func:`~pokerarena.bots.base.snapshot_of`); else the value alone."""
        walk = EngineWalk(variant, options, players=len(entrants), samples=samples)
        if value is None:
            value = default_value(walk.game) if len(entrants) == 2 else EquityValue(walk.game)
        use = [declared_policy(b) is not None for b in entrants] if declared is None \
            else list(declared)
        self.seated: list[Any] = [PolicyRecorder(b) if u else b
                                  for b, u in zip(entrants, use, strict=True)]
        self.entrants = list(entrants)
        if lookahead and all(use) and all(snapshot_of(b) is not None for b in entrants):
            self.estimator: EngineAivat = LookaheadAivat(walk, value)
            for rec in self.seated:
                rec.before = self._snapshot
        else:
            self.estimator = EngineAivat(walk, value)
        self.recording = _Recording(self.seated)
        self.seed = seed

    @property
    def looks_ahead(self) -> bool:
        """Whether the last street is played ahead (``lookahead`` asked, and possible)."""
        return type(self.estimator) is not EngineAivat

    def _snapshot(self, view: SeatView) -> Snapshot:
        return Snapshot(view.match_no, view.hand_no,
                        tuple(snapshot_of(b) for b in self.entrants))

    def on_decision(self, d: Any) -> None:
        """``play_match``'s ``on_decision``: where each seat's decisions are in the log."""
        self.recording.on_decision(d)

    def nets(self, hand: Any, seat_of: Sequence[int], deal: int) -> tuple[float, ...] | None:
        """``aivat_net`` per seat of a finished hand (``seat_of[j]``: entrant ``j``'s
        seat), or None when its recorded policies do not pair with its decisions (a bot
        the table removed mid-hand): that hand alone gets no value."""
        try:
            pols, snaps = self.recording.take(seat_of)
        except AivatError:
            self.recording.reset()
            return None
        self.estimator.seat_of = list(seat_of)
        _, got = self.estimator.hand(hand, seed=_deal_seed(self.seed, deal), declared=pols,
                                     snapshots=snaps)
        return got


# Estimates --------------------------------------------------------------------------
def estimates(match: AivatMatch, entrant: int = 0) -> dict[str, Any]:
    """Chips per hand of ``entrant``: ``raw`` and ``aivat`` with Student's 95% intervals
    over the blocks (duplicate pairs), ``diff`` (aivat − raw: covers 0 when unbiased),
    and ``reduction`` (sd of the AIVAT block rates over the raw ones)."""
    sizes = np.bincount(match.block)
    raw, cor = match.blocks("raw")[:, entrant], match.blocks("aivat")[:, entrant]
    red: Reduction = match.reduction(entrant)
    diff: Estimate = block_rate(cor - raw, sizes)
    out = {"raw": block_rate(raw, sizes), "aivat": block_rate(cor, sizes), "diff": diff,
           "reduction": red}
    if isinstance(match, EngineAivatMatch) and match.allin is not None:
        settled = match.blocks("allin")[:, entrant]
        out["allin"] = block_rate(settled, sizes)
        out["allin_reduction"] = reduction(raw, settled, sizes)
    return out


def estimators_json(match: EngineAivatMatch, entrant: int = 0) -> dict[str, Any]:
    """The ``"estimators"`` entry of a JSON output: ``raw``, ``allin`` and ``aivat``, each
    ``{"mbb_per_hand", "ci95": [lo, hi], "sd", "blocks", "sd_ratio"}`` in mbb/hand of
    ``entrant`` (``sd``: of the block rates, per duplicate pair; ``sd_ratio``: over
    raw's, on the same blocks)."""
    got = estimates(match, entrant)
    k = 1000.0 / match.big_blind
    sds = {"raw": got["reduction"].sd_raw, "aivat": got["reduction"].sd_reduced,
           "allin": got["allin_reduction"].sd_reduced}
    out = {}
    for name in ("raw", "allin", "aivat"):
        est = got[name]
        out[name] = {"mbb_per_hand": est.value * k, "ci95": [est.lo * k, est.hi * k],
                     "sd": sds[name] * k, "blocks": est.blocks,
                     "sd_ratio": sds[name] / sds["raw"] if sds["raw"] > 0 else None}
    return out


__all__ = ["CHANCE_SAMPLES", "EXACT_OUTCOMES", "VALUES", "CardView", "EngineAivat",
           "EngineAivatMatch", "EngineState", "EngineWalk", "EquityValue", "FittedValue",
           "PolicyRecorder", "Snapshot", "TableAivat", "Term", "clone", "default_value",
           "estimates", "estimators_json", "make_value", "play_engine_aivat"]

