"""What issue 29 changed to bring a game family's units on Ray to their in-process rate,
each checked against what it replaced:

* the table skips building a seat's view for a hook that does nothing (the families'
  default ``start_game``/``end_game``): every family's unit lands the same rows as with
  every hook called;
* a game's seed takes one word of its ``SeedSequence`` state instead of two: the same
  seed as the first of two words;
* table workers run at niceness 0, not at Ray's 15: a local cluster's workers are
  started so, and an actor on a cluster that niced it lowers its own niceness.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from pokerarena.arena import family_match
from pokerarena.arena.family_match import FamilyGuard, does_nothing
from pokerarena.games import family, family_ids
from pokerarena.platform.planner import plan
from pokerarena.platform.spec import parse_spec
from pokerarena.workers.family_unit import _seed_of, play_family_unit

SMALL = {"painted": {"max_cards": 2}, "variety": {"deals": 1},
         "boston": {"simple_tours": 1, "double_tours": 0}}
"""Options that keep a game short where the default game is long."""


def _unit(fam_id: str) -> object:
    """A 3-game unit of ``fam_id`` with every built-in bot of the family seated."""
    fam = family(fam_id)
    seats = max(fam.players[0], min(len(fam.bots), fam.players[1]))
    names = [fam.bots[i % len(fam.bots)] for i in range(seats)]
    bots = [n if n not in names[:i] else f"{n}#{i + 1}" for i, n in enumerate(names)]
    spec = parse_spec({"kind": "match", "name": "t", "seed": 3, "bots": bots, "hands": 3,
                       "unit_hands": 3, "games": [{"variant": fam_id,
                                                   "options": SMALL.get(fam_id, {})}]})
    return plan(spec, "t").units[0]


@pytest.mark.parametrize("fam_id", family_ids())
def test_skipping_empty_hooks_lands_the_same_rows(fam_id: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    unit = _unit(fam_id)
    fam = family(fam_id)
    assert fam.new_bot is not None
    skipped = [not FamilyGuard(fam.new_bot(b, 1), b).wants("end_game") for b in fam.bots]
    assert any(skipped)  # the families' default hooks are skipped: the test means something
    fast = play_family_unit(unit)
    # the table as it was: every hook of every guard asked, with the seat's view built
    # (the guard's hook itself passes over a removed bot or a missing hook)
    monkeypatch.setattr(FamilyGuard, "wants", lambda self, name: True)
    slow = play_family_unit(unit)
    assert fast.tables.keys() == slow.tables.keys()
    for name, table in fast.tables.items():
        assert table.equals(slow.tables[name]), name
    assert fast.tables["hands"].num_rows == 3
    assert fast.decisions == slow.decisions


def test_hooks_that_do_something_are_still_called() -> None:
    fam = family("red_black")
    assert fam.new_bot is not None

    class Counting:  # a bot of its own module: called on a thread, as an HTTP bot
        def __init__(self) -> None:
            self.inner = fam.new_bot("rule", 1)
            self.started = self.ended = 0

        def start_game(self, view: object) -> None:
            self.started += 1

        def end_game(self, view: object) -> None:
            self.ended += 1

        def act(self, view: object) -> object:
            return self.inner.act(view)

    bots = [Counting(), Counting()]
    guards = [FamilyGuard(b, f"c{i}") for i, b in enumerate(bots)]
    game = fam.make({})
    for g in range(3):
        family_match.play_family_game(game, guards, g, g)
    assert [(b.started, b.ended) for b in bots] == [(3, 3), (3, 3)]
    sim = family("variety").new_bot("sim", 1)  # a built-in bot whose start_game works
    assert FamilyGuard(sim, "sim").wants("start_game")
    assert not FamilyGuard(sim, "sim").wants("end_game")


def test_does_nothing_tells_empty_bodies_from_the_rest() -> None:
    def doc(view: object) -> None:
        """Only a docstring."""

    def passes(view: object) -> None:
        pass

    def returns_none(view: object) -> None:
        return None

    def appends(view: list) -> None:
        view.append(1)

    def raises(view: object) -> None:
        raise ValueError(view)

    def generator(view: object):  # type: ignore[no-untyped-def]
        yield

    class Bot:
        def start_game(self, view: object) -> None:
            """Nothing."""

        def end_game(self, view: object) -> None:
            self.seen = view

    assert all(does_nothing(f) for f in (doc, passes, returns_none, Bot().start_game))
    assert not any(does_nothing(f) for f in (appends, raises, generator, Bot().end_game,
                                             print, lambda view: 1, None))


def test_a_game_seed_is_the_first_of_two_state_words() -> None:
    rng = np.random.default_rng(11)
    for _ in range(300):
        entropy = int(rng.integers(0, 2**63))
        key = tuple(int(k) for k in rng.integers(0, 10**6, size=int(rng.integers(0, 3))))
        words = np.random.SeedSequence(entropy, spawn_key=key).generate_state(4, np.uint32)
        first = int(words[0]) | int(words[1]) << 32  # little-endian, as numpy pairs them
        assert _seed_of(np.random.SeedSequence(entropy, spawn_key=key)) == first >> 1


NICENESS = "RAY_worker_niceness"
"""Ray's variable (its spelling) for the niceness of worker processes."""


def _niceness(pid: int) -> int:
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        return int(f.read().rsplit(")", 1)[1].split()[16])


def _may_lower_niceness() -> bool:
    import resource

    return os.geteuid() == 0 or resource.getrlimit(resource.RLIMIT_NICE)[0] >= 20


def test_a_local_cluster_starts_its_workers_at_niceness_zero(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import ray

    from pokerarena.platform import executors

    seen: list[tuple[str | None, bool]] = []
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **kw: seen.append(
        (os.environ.get(NICENESS), "address" in kw)))
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setenv(NICENESS, "")  # recorded, so that the end of the test restores it
    monkeypatch.delenv(NICENESS)
    executors.init_ray(None, 2)  # the raylet it starts reads the variable
    monkeypatch.setenv(NICENESS, "7")
    executors.init_ray(None, 2)  # a value the user set is kept
    assert seen == [("0", False), ("7", False)]


def test_a_table_worker_on_a_niced_cluster_lowers_its_niceness(ray_cluster: str) -> None:
    """The session's cluster is started without the variable: Ray nices its workers
    (15), and the actor lowers its own niceness where the system allows it."""
    from pokerarena.platform.executors import RayExecutor

    ex = RayExecutor(1, ray_cluster)
    ex.start()
    try:
        (pid,) = ex.pids()
        assert _niceness(pid) == (0 if _may_lower_niceness() else 15)
    finally:
        ex.shutdown()


def test_bench_families_refuses_bad_input_in_one_line(pokerarena_cli: list[str],
                                                      tmp_path: Path) -> None:
    import argparse

    from pokerarena.bench.families import register_bench, run_families_bench
    from pokerarena.errors import UserError

    parser = argparse.ArgumentParser()
    register_bench(parser.add_subparsers())
    for args, words in ((["--family", "chess"], "unknown game family"),
                        (["--family", "durak", "--bot", "sim"], "not a durak bot"),
                        (["--family", "durak", "--seats", "9"], "2 to 6 players"),
                        (["--workers", "0"], "--workers"), (["--units", "0"], "--units"),
                        (["--data", str(tmp_path / "nowhere")], "not a folder")):
        with pytest.raises(UserError, match=words):
            run_families_bench(parser.parse_args(["families", *args]))
    r = subprocess.run([*pokerarena_cli, "bench", "families", "--family", "chess"],
                       capture_output=True, text=True, timeout=120,
                       env={**os.environ, "RAY_ADDRESS": ""})
    assert r.returncode == 2 and "unknown game family" in r.stderr, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_the_units_needed_for_80_percent_match_a_search() -> None:
    from pokerarena.bench.families import _units_for

    rng = np.random.default_rng(5)
    for _ in range(200):
        units, workers = int(rng.integers(1, 20)), int(rng.integers(1, 4))
        per_unit_ip = float(rng.uniform(0.05, 5.0))
        per_unit_ray = per_unit_ip * float(rng.uniform(0.9, 1.3))
        fixed = float(rng.uniform(0.0, 3.0))  # CPU seconds per actor outside its units
        ray_row = {"units": units, "unit_cpu_s": per_unit_ray * units, "driver_cpu_s": 0.1,
                   "actor_cpu_s": per_unit_ray * units + fixed * workers - 0.1}
        ip = {"units": 7, "cpu_seconds": per_unit_ip * 7}
        got = _units_for(0.8, ray_row, ip, workers)
        ok = [u for u in range(1, 100_000)
              if u * per_unit_ip >= 0.8 * (fixed + u * per_unit_ray) - 1e-9]
        assert got == (ok[0] if ok else None), (got, ok[:1], fixed, per_unit_ip, per_unit_ray)
