"""Runs played in stages: Swiss rounds paired from the results of the rounds before,
and heads-up matches stopped early by a sequential test (``stop``).

The driver asks a :class:`Schedule` which units may be sent now
(:meth:`Schedule.begin`) and tells it each unit that landed (:meth:`Schedule.landed`),
which may release more. Every decision is a pure function of the landed units' rows,
read from their ``seats`` and ``hands`` parts (:func:`read_unit`), never of timing:

- A run without Swiss rounds or ``stop`` is one stage, its whole plan released at once
  in plan order, and plays exactly as before (nothing is read back).
- **Early stopping**: a stoppable match sends one shard at a time; when a shard lands,
  its deals (a duplicate pair heads-up, one hand without duplicate) go to the match's
  test *in shard order* and the test is looked at after the shard (group-sequential).
  Once it decides, the later shards are never sent. No shard is sent before the
  earlier ones' results are known, so nothing beyond the stop point exists to be
  withdrawn, and the rows are the same on one worker or many; parallelism comes from
  the other matches (a tournament has many).
- **Swiss**: round ``r + 1`` is paired once every match of round ``r`` is complete
  (played out or stopped), from the points of the rounds before
  (:func:`~pokerarena.tournaments.swiss.swiss_pairs`); its match numbers continue
  after round ``r``'s. A resumed run
  derives the same pairings from the same rows; each round's pairing and each match's
  decision is also recorded in the manifest (``stage`` and ``decision`` events), and
  a resume that derives anything else stops with :class:`StageMismatch`.

:meth:`Schedule.summary` is the small JSON document a leaderboard shows (each tested
match's decision, LLR, bounds and mbb/hand with its interval; the Swiss rounds and
standings); the driver keeps it as ``<run>/tournament.json`` (:func:`write_summary`).
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from pokerarena.platform.planner import Unit, UnitLimits, match_units, plan
from pokerarena.platform.spec import RunSpec, StopRule
from pokerarena.platform.storage import is_uri, read_part
from pokerarena.tournaments.sequential_interval import METHOD as SEQUENTIAL
from pokerarena.tournaments.sequential_interval import sequential_interval
from pokerarena.tournaments.sprt import MIN_PAIRS, Sprt
from pokerarena.tournaments.swiss import swiss_pairs, swiss_standings

__all__ = ["MatchTest", "Schedule", "StageMismatch", "UnitResult", "load_summary",
           "read_unit", "write_summary"]

SUMMARY_NAME = "tournament.json"
_NEVER = 2**62  # min_pairs of a Sprt whose decision is taken here, after each shard


class StageMismatch(RuntimeError):
    """A resumed run derived another pairing or decision than the one it recorded (the
    rows changed under it): a bug, never papered over."""


# what a stage reads of a unit ----------------------------------------------------------


@dataclass(frozen=True)
class UnitResult:
    """What the stages need of one landed unit: per deal, in deal order, the first
    lineup bot's result in mbb/hand (``pairs``); per bot its chips in big blinds,
    exactly (``chips``), and its hands."""

    pairs: tuple[float, ...]
    chips: dict[str, Fraction]
    hands: dict[str, int]


SCORED = {"raw": "net", "allin": "equity_net", "aivat": "aivat_net"}
"""The ``seats`` column a stop rule's ``estimator`` scores the deals by."""


def read_unit(run_dir: str | Path, unit_id: str, first_bot: str,
              estimator: str = "raw") -> UnitResult:
    """:class:`UnitResult` of a landed unit, from its ``seats`` and ``hands`` parts; the
    pairs scored by ``estimator``'s column (the chips are always the raw nets)."""

    col = SCORED[estimator]
    names = ["hand", "bot", "net"] + ([] if col == "net" else [col])
    seats = read_part(run_dir, "seats", unit_id, names)  # or an object's
    if col != "net":  # a hand the estimator left uncorrected scores its chips
        import pyarrow.compute as pc

        seats = seats.set_column(seats.schema.get_field_index(col), col, pc.coalesce(
            seats[col], pc.cast(seats["net"], "double")))
    hands = read_part(run_dir, "hands", unit_id, ["hand", "deal", "bb"])
    sums = [("net", "sum"), ("hand", "count")] + ([] if col == "net" else [(col, "sum")])
    groups = seats.join(hands, "hand").group_by(["deal", "bot", "bb"]).aggregate(
        sums).to_pylist()
    groups.sort(key=lambda g: (g["deal"], g["bot"], g["bb"]))
    chips: dict[str, Fraction] = {}
    counts: dict[str, int] = {}
    deals: dict[int, list[float]] = {}
    for g in groups:
        bot, won, n = g["bot"], int(g["net_sum"]), int(g["hand_count"])
        chips[bot] = chips.get(bot, Fraction(0)) + Fraction(won, int(g["bb"]))
        counts[bot] = counts.get(bot, 0) + n
        if bot == first_bot:
            acc = deals.setdefault(int(g["deal"]), [0.0, 0])
            acc[0] += float(g[f"{col}_sum"]) / g["bb"]
            acc[1] += n
    pairs = tuple(1000.0 * bb / n for bb, n in (deals[d] for d in sorted(deals)))
    return UnitResult(pairs, chips, counts)


# the sequential test of one match -------------------------------------------------------


class MatchTest:
    """The generalized SPRT of a heads-up match (:mod:`pokerarena.tournaments.sprt`:
    blocks are the deals, at least ``MIN_PAIRS`` before any decision), on the first
    lineup bot's results, looked at after each shard (group-sequential: fewer looks
    than after every pair, so each test's error rates stay at or under α and β).

    One-sided (``two_sided = false``): the test of H0 (``h0`` mbb/hand) against H1
    (``h1``) at α and β decides. Two-sided: the mirrored test (H0 ``-h0`` against H1
    ``-h1``: the second bot's view) runs beside it, each side at α/2, so that two bots
    of equal strength are found "ahead" at most α of the time in all, as written
    (measured in the tests); a test's decision, once taken, stands. The match stops
    with ``H1`` as soon as either test accepts its H1 (that side is ahead; ``ahead``
    names the bot), with ``H0`` once both accepted H0 (neither is ahead by ``h1``);
    ``inconclusive`` when the hands run out first. The interval in :meth:`state` is
    the one valid after the stop (:mod:`~pokerarena.tournaments.sequential_interval`,
    with these looks and this two-sided design)."""

    def __init__(self, rule: StopRule, lineup: tuple[str, ...]) -> None:
        self.rule = rule
        self.lineup = lineup
        alpha = rule.alpha / 2 if rule.two_sided else rule.alpha
        self.tests = [Sprt(rule.h0, rule.h1, alpha, rule.beta, min_pairs=_NEVER)]
        if rule.two_sided:
            self.tests.append(Sprt(-rule.h0, -rule.h1, alpha, rule.beta,
                                   min_pairs=_NEVER))
        self.looks: list[int] = []  # pairs at each look, up to the decision
        self.stopped_at: int | None = None

    def add(self, pairs: Iterable[float]) -> None:
        """Feed one shard's deal results (in deal order)."""
        for x in pairs:
            for t in self.tests:
                t.add(x)

    def check(self) -> tuple[str, str | None] | None:
        """Look at the test after a shard: ``(decision, bot ahead or None)`` once
        decided, else None."""
        n = self.tests[0].n
        if n < MIN_PAIRS:
            return None
        if self.stopped_at is None and (not self.looks or self.looks[-1] < n):
            self.looks.append(n)
        verdict = self._verdict()
        if verdict is not None and self.stopped_at is None:
            self.stopped_at = self.looks[-1]
        return verdict

    def _verdict(self) -> tuple[str, str | None] | None:
        for t in self.tests:
            lo, hi = t.bounds
            if t.decision is None and t.llr >= hi:
                t.decision = "H1"
            elif t.decision is None and t.llr <= lo:
                t.decision = "H0"
        for t in self.tests:
            if t.decision == "H1":  # the bot the accepted alternative favours
                return "H1", self.lineup[0 if t.h1 > t.h0 else 1]
        if all(t.decision == "H0" for t in self.tests):
            return "H0", None
        return None

    def state(self, hands_per_pair: int) -> dict[str, Any]:
        """The forward test's figures (pairs, hands, LLR, bounds, the plain mean in
        mbb/hand), the mirror's LLR, and the 95% interval of the mean valid after the
        stop (``ci95``; ``ci95_method`` names it) beside the fixed-sample one of the
        same deals (``ci95_fixed``, which undercovers after a stop)."""
        fwd = self.tests[0]
        out = fwd.state(hands_per_pair, final=False)
        out.pop("decision")
        out["llr_mirror"] = round(self.tests[1].llr, 3) if len(self.tests) > 1 else None
        if self.looks:
            iv = sequential_interval(fwd.results, self.looks, fwd.h0, fwd.h1, fwd.bounds,
                                     two_sided=self.rule.two_sided)
            if iv is not None:
                out["ci95"] = [round(iv[0], 2), round(iv[1], 2)]
                out["ci95_method"] = SEQUENTIAL
        return out


# matches and the schedule -------------------------------------------------------------


@dataclass
class Match:
    """One match of the schedule and how far it got: shards landed (``done``), shards
    fed to its test (``fed``, a prefix) and sent (``released``), its outcome."""

    number: int
    units: list[Unit]
    round: int = 0
    test: MatchTest | None = None
    done: set[int] = field(default_factory=set)
    fed: int = 0
    released: int = 0
    closed: bool = False
    outcome: dict[str, Any] | None = None

    @property
    def counted(self) -> list[Unit]:
        """The units whose rows count: every shard, or a stopped match's first ``fed``."""
        return self.units[:self.fed] if self.test is not None else self.units


class Schedule:
    """Which units of a run may be sent, stage by stage (see the module docstring)."""

    def __init__(self, spec: RunSpec, run_id: str, run_dir: str | Path) -> None:
        self.spec = spec
        self.run_id = run_id
        self.run_dir = run_dir if is_uri(run_dir) else Path(run_dir)  # where its parts are
        self.limits = UnitLimits.of(spec.limits.model_dump())
        ranked = spec.traits.ranked
        self.stop: StopRule | None = spec.stop if ranked else None
        self.swiss = ranked and spec.format == "swiss"
        self.first = plan(spec, run_id)  # Swiss: round 1
        if self.swiss:
            _, self.planned_units, self.planned_hands = spec.plan_size()
        else:
            self.planned_units, self.planned_hands = len(self.first.units), self.first.hands
        games = spec.game_configs()
        self.rotations = [[(g, c)] for g, c in enumerate(games)] if not spec.rotation_hands \
            else [list(enumerate(games))]
        self.shards = len(spec.segments())
        self._reset()

    def _reset(self) -> None:
        self.matches: dict[int, Match] = {}
        self.rounds: list[dict[str, Any]] = []
        self.results: dict[str, UnitResult] = {}
        self.done: set[str] = set()
        self.recorded: dict[tuple[str, int], dict[str, Any]] = {}
        self.events: list[dict[str, Any]] = []
        self.found: list[Unit] = []  # landed before their match opened (a later round)
        self.saved_units = self.saved_hands = 0

    @property
    def staged(self) -> bool:
        """Whether the run reads its results back (Swiss rounds or early stopping)."""
        return self.swiss or self.stop is not None

    @property
    def units_total(self) -> int:
        """Units the run plays: the plan's, less those a stopped match will not play."""
        return self.planned_units - self.saved_units

    @property
    def hands_total(self) -> int:
        """Hands the run plays, likewise."""
        return self.planned_hands - self.saved_hands

    def counted_done(self) -> list[Unit]:
        """The landed units whose rows count, in match and shard order."""
        return [u for m in sorted(self.matches) for u in self.matches[m].counted
                if u.unit_id in self.done]

    @property
    def complete(self) -> bool:
        """Every match of every stage played out or stopped."""
        rounds = (self.spec.rounds or 1) if self.swiss else 1
        return all(m.closed for m in self.matches.values()) and (
            not self.swiss or len(self.rounds) == rounds and "results" in self.rounds[-1])

    def drain(self) -> list[dict[str, Any]]:
        """Manifest events (``stage``, ``decision``) taken since the last drain."""
        out, self.events = self.events, []
        return out

    # the driver's calls ------------------------------------------------------------
    def begin(self, done: Iterable[str], events: Iterable[dict[str, Any]] = ()
              ) -> list[Unit]:
        """Start (or restart) from the landed units ``done`` and the manifest's
        ``events``; returns the units to send now, in plan order."""
        self._reset()
        self.done = set(done)
        for e in events:
            if e.get("event") == "stage":
                self.recorded[("stage", int(e["round"]))] = e
            elif e.get("event") == "decision":
                self.recorded[("decision", int(e["match"]))] = e
        ready = self._open_round(0) if self.swiss else self._open(self.first.units, 0)
        ready += self._next_rounds()
        self.found = []  # begin's are counted by counted_done()
        return ready

    def take_found(self) -> list[Unit]:
        """Units that had landed before their match opened during the drive (a Swiss
        round paired after a resume, its units landed by an earlier drive): the
        driver counts them done; a stopped match's units past its stop not included."""
        out, self.found = self.found, []
        return [u for u in out if self.matches[u.match].test is None
                or u.shard < self.matches[u.match].fed]

    def landed(self, unit: Unit) -> list[Unit]:
        """Unit ``unit`` landed and was recorded: the units it releases."""
        self.done.add(unit.unit_id)
        m = self.matches[unit.match]
        m.done.add(unit.shard)
        return self._advance(m) + self._next_rounds()

    # matches -------------------------------------------------------------------------
    def _open(self, units: list[Unit], rnd: int) -> list[Unit]:
        by_match: dict[int, list[Unit]] = {}
        for u in units:
            by_match.setdefault(u.match, []).append(u)
        ready: list[Unit] = []
        for number, mu in by_match.items():
            lineup = mu[0].bots
            test = MatchTest(self.stop, lineup) if self.stop and len(lineup) == 2 else None
            m = Match(number, mu, rnd, test,
                      done={u.shard for u in mu if u.unit_id in self.done})
            self.matches[number] = m
            self.found.extend(u for u in mu if u.shard in m.done)
            if test is None:
                ready.extend(u for u in mu if u.shard not in m.done)
            ready.extend(self._advance(m))
        return ready

    def _advance(self, m: Match) -> list[Unit]:
        if m.closed:
            return []
        if m.test is None:
            if len(m.done) == len(m.units):
                m.closed = True
            return []
        while m.fed in m.done:
            u = m.units[m.fed]
            m.test.add(self._result(u).pairs)
            m.fed += 1
            verdict = m.test.check()
            if verdict is not None or m.fed == len(m.units):
                self._decide(m, verdict)
                return []
        if m.released <= m.fed:
            m.released = m.fed + 1
            return [m.units[m.fed]]
        return []

    def _result(self, u: Unit) -> UnitResult:
        r = self.results.get(u.unit_id)
        if r is None:
            r = self.results[u.unit_id] = read_unit(
                self.run_dir, u.unit_id, self.matches[u.match].units[0].bots[0],
                "raw" if self.stop is None else self.stop.estimator)
        return r

    def _decide(self, m: Match, verdict: tuple[str, str | None] | None) -> None:
        assert m.test is not None
        m.closed = True
        left = m.units[m.fed:]
        self.saved_units += len(left)
        self.saved_hands += sum(u.hands for u in left)
        first = m.units[0]
        decision, ahead = verdict or ("inconclusive", None)
        m.outcome = {"match": m.number, "round": m.round + 1 if self.swiss else None,
                     "variant": first.variant, "betting": first.betting,
                     "bots": list(first.bots), "decision": decision, "ahead": ahead,
                     "shards": m.fed, "shards_planned": len(m.units),
                     **m.test.state(2 if self.spec.duplicate else 1),
                     "hands_planned": sum(u.hands for u in m.units),
                     "hands_saved": sum(u.hands for u in left), "units_saved": len(left)}
        self._record(("decision", m.number), {"event": "decision", **m.outcome},
                     ("decision", "shards", "llr"))

    def _record(self, key: tuple[str, int], event: dict[str, Any],
                compare: tuple[str, ...]) -> None:
        old = self.recorded.get(key)
        if old is None:
            self.recorded[key] = event
            self.events.append(event)
        elif any(old.get(k) != event[k] for k in compare):
            raise StageMismatch(f"{key[0]} {key[1]}: the manifest recorded "
                                f"{ {k: old.get(k) for k in compare} }, the rows now give "
                                f"{ {k: event[k] for k in compare} }")

    # Swiss rounds --------------------------------------------------------------------
    def _open_round(self, r: int) -> list[Unit]:
        scored = [rnd for rnd in self.rounds if "results" in rnd]
        table = swiss_standings(self.spec.bots, scored)
        scores = {row["bot"]: row["points"] for row in table}
        played = {frozenset(res["bots"]) for rnd in scored for res in rnd["results"]}
        byes = {b for rnd in scored for b in rnd["byes"]}
        pairs, bye = swiss_pairs(scores, played, byes)
        per_round = len(self.rotations) * len(pairs)
        units: list[Unit] = []
        for g, rotation in enumerate(self.rotations):
            for p, lineup in enumerate(pairs):
                number = r * per_round + g * len(pairs) + p
                units += match_units(self.spec, number * self.shards, number, rotation,
                                     lineup, self.run_id, self.limits)
        self.rounds.append({"round": r + 1, "pairs": [list(p) for p in pairs],
                            "byes": bye, "matches": [r * per_round, (r + 1) * per_round - 1]})
        self._record(("stage", r + 1), {"event": "stage", **self.rounds[-1]},
                     ("pairs", "byes", "matches"))
        return self._open(units, r)

    def _next_rounds(self) -> list[Unit]:
        out: list[Unit] = []
        while self.swiss and "results" not in self.rounds[-1] and all(
                m.closed for m in self.matches.values() if m.round == len(self.rounds) - 1):
            self._score_round(self.rounds[-1], len(self.rounds) - 1)
            if len(self.rounds) < (self.spec.rounds or 1):
                out += self._open_round(len(self.rounds))
        return out

    def _score_round(self, rnd: dict[str, Any], r: int) -> None:
        """A pairing's winner in a round: more chips over the round's games (big
        blinds, exactly); 1 point, a tie 0.5 each."""
        chips: dict[tuple[str, ...], list[Any]] = {}
        for m in self.matches.values():
            if m.round != r:
                continue
            acc = chips.setdefault(m.units[0].bots, [Fraction(0), Fraction(0), 0, 0])
            a, b = m.units[0].bots
            for u in m.counted:
                res = self._result(u)
                acc[0] += res.chips.get(a, 0)
                acc[1] += res.chips.get(b, 0)
                acc[2] += res.hands.get(a, 0)
                acc[3] += res.hands.get(b, 0)
        results = []
        for a, b in (tuple(p) for p in rnd["pairs"]):
            xa, xb, na, nb = chips[(a, b)]
            pts = (1.0, 0.0) if xa > xb else (0.0, 1.0) if xb > xa else (0.5, 0.5)
            results.append({"bots": [a, b], "bb": [round(float(xa), 3), round(float(xb), 3)],
                            "exact_bb": [xa, xb], "hands": [na, nb], "points": list(pts)})
        rnd["results"] = results

    # the summary ---------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        """The leaderboard's document: the tested matches' decisions, hands saved, and
        (Swiss) the rounds and the standings after the rounds scored so far."""
        decisions = [self.matches[m].outcome for m in sorted(self.matches)
                     if self.matches[m].outcome is not None]
        out: dict[str, Any] = {
            "run_id": self.run_id, "format": self.spec.format,
            "stop": None if self.stop is None else self.stop.model_dump(),
            "units_planned": self.planned_units, "hands_planned": self.planned_hands,
            "hands_saved": self.saved_hands, "units_saved": self.saved_units,
            "decisions": decisions}
        if self.swiss:
            scored = [r for r in self.rounds if "results" in r]
            out["rounds"] = [{k: v if k != "results" else
                              [{x: y for x, y in res.items() if x != "exact_bb"} for res in v]
                              for k, v in r.items()} for r in self.rounds]
            out["standings"] = swiss_standings(self.spec.bots, scored)
        return out


def write_summary(run_dir: str | Path, summary: dict[str, Any]) -> Path:
    """Keep ``summary`` as ``<run>/tournament.json`` (temporary name, then rename)."""
    path = Path(run_dir) / SUMMARY_NAME
    tmp = path.with_name(f".{SUMMARY_NAME}.{secrets.token_hex(4)}.tmp")
    tmp.write_text(json.dumps(summary, indent=1) + "\n")  # in the summary's own order
    os.replace(tmp, path)
    return path


def load_summary(run_dir: str | Path) -> dict[str, Any] | None:
    """The run's ``tournament.json``, or None (a run without stages has none)."""
    try:
        return json.loads((Path(run_dir) / SUMMARY_NAME).read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return None
