"""The demo's tournament part: ratings with intervals and the duplicate gain of the run
just played, a sequential test between two bots decided live, one match judged three
ways (raw duplicate pairs, all-in settlement, AIVAT), and a short painted-poker
tournament of its built-in bots with a game's score sheet."""

from __future__ import annotations

import time
from typing import Any

from rich.console import Console
from rich.table import Table

PLAIN_SQL = """
SELECT s.bot, count(*) AS n, stddev_samp(s.net / h.bb) AS sd
FROM seats s JOIN hands h USING (run_id, match, hand) GROUP BY s.bot
"""


def ratings(console: Console, data: Any, run_id: str) -> None:
    """Each bot's rate with its interval over deals next to the interval the same
    hands would give without duplicate deals, the Bradley-Terry and OpenSkill ratings
    with theirs, and the two ACPC rankings."""
    from pokerarena.platform.query import connect
    from pokerarena.platform.standings import run_standings

    board = run_standings(data, run_id)
    con = connect(data, run_id)
    try:
        plain = {b: (n, sd) for b, n, sd in con.execute(PLAIN_SQL).fetchall()}
    finally:
        con.close()
    bt = {r["bot"]: r for r in board.get("bradley_terry", [])}
    osk = {r["bot"]: r for r in board["openskill"]}
    t = Table(title="[bold]Ratings[/bold] with 95% intervals. dup ±: over duplicate "
              "deals; plain ±: the same hands taken as independent; hands: what duplicate "
              "needs for the same precision; BT: Bradley-Terry Elo", title_justify="left")
    for name in ("bot", "mbb/hand", "dup ±", "plain ±", "hands", "BT", "OpenSkill"):
        t.add_column(name, justify="left" if name == "bot" else "right")
    for r in board["bots"]:
        n, sd = plain.get(r["bot"], (0, None))
        half = 1000 * 1.96 * sd / n ** 0.5 if sd and n else None
        gain = f"{(r['ci95'] / half) ** 2:.0%}" if half else "-"
        b, o = bt.get(r["bot"]), osk[r["bot"]]
        t.add_row(f"[bold]{r['bot']}[/bold]", f"{r['value']:+,.0f}", f"{r['ci95']:,.0f}",
                  f"{half:,.0f}" if half else "-", gain,
                  "-" if not b else f"{b['rating']:+.0f}" if b["lo"] is None
                  else f"{b['rating']:+.0f}±{(b['hi'] - b['lo']) / 2:.0f}",
                  f"{o['rating']:.1f}±{(o['hi'] - o['lo']) / 2:.1f}")
    console.print(t)
    console.print("All-in equity settlement, sd ratio per pairing (reported next to the "
                  f"raw figures, never instead): {_reductions(board)}.")
    st = board.get("stability")
    console.print("Total bankroll: " + ", ".join(r["bot"] for r in board["total_bankroll"])
                  + ".  Instant run-off: " + ", ".join(board["instant_runoff"]) + "."
                  + (f"  The Bradley-Terry order survives {st['order_kept']:.0%} of "
                     f"{st['trials']} random drops of {st['dropped']} segments." if st else ""))


def live_sprt(console: Console, new: str, old: str, h1: float = 100.0) -> dict[str, Any]:
    """``new`` against ``old`` in fixed-limit hold'em, duplicate pairs until the SPRT of
    H0 = 0 against H1 = ``h1`` mbb/hand decides, printing the LLR as it goes."""
    from pokerarena.commands.tournaments import llr_bar
    from pokerarena.tournaments.sequential import batches, play_batch, run_test
    from pokerarena.tournaments.sprt import Sprt

    console.print(f"\n[bold]Sequential test[/bold]: is {new} better than {old}? "
                  f"H0: +0 mbb/hand, H1: +{h1:.0f} mbb/hand (α = β = 5%), "
                  "duplicate pairs of fixed-limit hold'em:")
    t0 = time.perf_counter()

    def show(state: dict[str, Any]) -> None:
        lo, hi = state["ci95"]
        console.print(f"  {llr_bar(state)}  pairs {state['pairs']:>5,}  "
                      f"{state['mbb_per_hand']:+,.0f} mbb/hand [{lo:+,.0f}, {hi:+,.0f}] "
                      "fixed-n")

    state = run_test(Sprt(0.0, h1), map(play_batch, batches(
        "holdem", "fixed_limit", {}, (new, old), 2026, 50, 20_000)), show)
    verdict = {"H1": f"{new} is better (H1 accepted)", "H0": "no better (H0 accepted)",
               "inconclusive": "undecided at the hand limit"}[state["decision"]]
    lo, hi = state["ci95"]
    console.print(f"  → {verdict} after {state['hands']:,} hands in "
                  f"{time.perf_counter() - t0:.1f} s  (pokerarena sprt --bots {new},{old}); "
                  f"{state['mbb_per_hand']:+,.0f} mbb/hand, 95% interval valid after the "
                  f"stop [{lo:+,.0f}, {hi:+,.0f}]")
    return state


PAINTED = {"kind": "tournament", "name": "demo-painted", "seed": 2026, "seats": 3,
           "bots": ["random", "rule", "sim"], "hands": 6, "unit_hands": 3, "duplicate": True,
           "games": [{"variant": "painted", "options": {"jokers": 1, "max_cards": 4}}]}


def three_ways(console: Console, bots: tuple[str, str] = ("tag", "lag"), hands: int = 1000,
               target_mbb: float = 10.0) -> dict[str, Any]:
    """One no-limit duplicate match of ``bots`` judged by the raw pairs, all-in equity
    settlement and AIVAT on the same hands, each with its interval, its sd per pair and
    the hands it would need for a ±``target_mbb`` interval (docs/tournaments.md, "AIVAT
    on hold'em")."""
    from pokerarena.bench.aivat_bench import bench_case

    t0 = time.perf_counter()
    with console.status(f"AIVAT: {hands:,} hands of {bots[0]} v {bots[1]}, no limit..."):
        row = bench_case("no_limit", list(bots), hands, seed=2026)
    t = Table(title=f"One match judged three ways: {bots[0]} v {bots[1]}, no-limit hold'em, "
              f"{row['hands']:,} hands in duplicate pairs (mbb/hand of {bots[0]})")
    for col in ("estimator", "mbb/hand", "95% interval", "sd per pair",
                f"hands for ±{target_mbb:g}"):
        t.add_column(col, justify="left" if col == "estimator" else "right")
    for name, label in (("raw", "raw pairs"), ("allin", "all-in equity"),
                        ("aivat", "AIVAT")):
        e = row["estimators"][name]
        need = 2 * (1.96 * e["sd"] / target_mbb) ** 2  # two hands a pair
        t.add_row(label, f"{e['mbb_per_hand']:,.0f}",
                  f"[{e['ci95'][0]:,.0f}, {e['ci95'][1]:,.0f}]", f"{e['sd']:,.0f}",
                  f"{need:,.0f}")
    console.print(t)
    lo, hi = row["aivat_minus_raw"]["ci95"]
    console.print(f"AIVAT's sd over the raw pairs' {row['sd_ratio']:.2f} "
                  f"[{row['sd_ratio_ci95'][0]:.2f}, {row['sd_ratio_ci95'][1]:.2f}]; "
                  f"AIVAT − raw {row['aivat_minus_raw']['mbb_per_hand']:,.0f} "
                  f"[{lo:,.0f}, {hi:,.0f}] (AIVAT is unbiased: this interval covers 0 "
                  "95% of the time); "
                  f"{time.perf_counter() - t0:.0f} s.")
    return row


def painted(console: Console, data: Any) -> str:
    """Painted poker («расписной покер»): the three built-in bots at one table, two deal
    sequences each played in the three seatings (in this process), the standings in
    points per game and the first game's score sheet; returns the run's id."""
    from pokerarena.platform.driver import RunDriver
    from pokerarena.platform.executors import LocalExecutor
    from pokerarena.platform.family_standings import standings_text
    from pokerarena.platform.score_sheets import score_sheet
    from pokerarena.platform.spec import parse_spec
    from pokerarena.platform.standings import run_standings

    spec = parse_spec(PAINTED)
    console.print("\n[bold]Painted poker[/bold] («расписной покер», one joker, hands of up "
                  "to 4 cards): random, rule and sim at one table, two deal sequences, "
                  "each played in the 3 seatings")
    t0 = time.perf_counter()
    driver = RunDriver.create(spec, data, LocalExecutor())
    final = driver.run()
    console.print(f"Played {final.hands_done} whole games in {time.perf_counter() - t0:.1f} s "
                  f"(run {driver.run_id}).", markup=False)
    console.print(standings_text(run_standings(data, driver.run_id)), markup=False,
                  soft_wrap=True)
    console.print("\nThe score sheet of its first game (pokerarena sheet "
                  f"{driver.run_id} --game 0):", markup=False)
    console.print(score_sheet(data, driver.run_id, game=0), markup=False, highlight=False,
                  soft_wrap=True)
    return driver.run_id


def _reductions(board: dict[str, Any]) -> str:
    """Per game, the range of the equity settlement's sd ratios over its pairings (each
    pairing has its own: pooled, one pairing's gain hid another's loss)."""
    by_game: dict[str, list[float]] = {}
    for r in board["variance_reduction"]:
        if r["equity_sd_ratio"] is not None:
            game = f"{r['variant']} {r['betting'].replace('_', '-')}"
            by_game.setdefault(game, []).append(r["equity_sd_ratio"])
    return ", ".join(f"{g} ×{min(v):.2f}" + (f"–×{max(v):.2f} over {len(v)} pairings"
                                              if len(v) > 1 else "")
                     for g, v in by_game.items())
