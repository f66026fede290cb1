"""The demo's study part: a small balance study (three cells of hold'em on the same
deals: fixed limit, pot limit and no limit, three strength bots in one lineup), played in
this process, and its report written, with the summary's first lines printed."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rich.console import Console

STUDY = {
    "kind": "study", "name": "demo-study", "seed": 7, "hands": 600, "unit_hands": 300,
    "games": [{"variant": "holdem", "betting": ["fixed_limit", "pot_limit", "no_limit"]}],
    "study": {"baseline": 0, "title": "Hold'em: fixed limit, pot limit or no limit?",
              "questions": [{"text": "Which betting system makes the bigger pots and "
                             "the more showdowns, and does the first seat gain?",
                             "metrics": ["pot_bb", "showdown_rate", "seat_net:0", "seat_net:1",
                                         "seat_net:2"]}]},
}


def spec(bots: list[str]) -> Any:
    """The demo's study spec, with three of the demo's bots."""
    from pokerarena.platform.spec import parse_spec

    lineup = [b for b in ("tag", "lag", "rock") if b in bots] or bots[:3]
    return parse_spec({**STUDY, "bots": lineup})


def run(console: Console, data: Path, bots: list[str], lines: int = 4) -> Path:
    """Play the study, write its report; print the report's path and the summary's first
    ``lines`` sentences. Returns the report's path."""
    from pokerarena.platform.driver import RunDriver
    from pokerarena.platform.executors import LocalExecutor
    from pokerarena.platform.study_report import study_results, write_report
    from pokerarena.studies.report import summary_lines

    study = spec(bots)
    cells = len(study.game_configs()) * study.lineup_count()
    console.print(f"\n[bold]A balance study[/bold]: {cells} cells of hold'em "
                  f"({', '.join(study.bots)}), {study.hands:,} hands each on the same deals")
    t0 = time.perf_counter()
    driver = RunDriver.create(study, data, LocalExecutor())
    final = driver.run()
    path = write_report(data, driver.run_id, exact=False)
    console.print(f"Played {final.hands_done:,} hands and wrote the report in "
                  f"{time.perf_counter() - t0:.1f} s: [bold]{path}[/bold]")
    for line in summary_lines(study_results(data, driver.run_id, exact=False))[:lines]:
        console.print(f"  - {line}")
    return path
