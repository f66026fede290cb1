"""``bench dashboard``: does every route the dashboard calls stay fast as a run grows?

For each size a finished run is made as ``bench storage`` makes it (one unit of 6-max
no-limit hold'em played for real, written again as every unit: real rows, real schema,
real part writer, the manifest a driver writes), then ended as the driver ends a run
(:func:`~pokerarena.platform.compaction.compact_after_run`: compaction, the stored
standings, and the page summaries when there are any). Then every route the page calls
for the selected run is requested in process over FastAPI's ``TestClient`` on the real
app (:func:`~pokerarena.platform.api.create_app`: its query pool of processes, its
middleware), first with the process's caches of footers and schemas emptied (as a
freshly started service has them: the OS page cache stays warm), then once again.

The peer is the same request answered from every hand: the routes run again with the
page summaries switched off (``POKERARENA_PAGE_SUMMARIES=off``), on the same run, in the
same process. Sizes not measured are projected from the two largest measured ones.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

ROUTES = {
    "run": "/api/runs/{id}",
    "leaderboard": "/api/runs/{id}/leaderboard",
    "charts": "/api/runs/{id}/charts",
    "hands_pot": "/api/runs/{id}/hands?order=pot&limit=10",
    "hands_loss": "/api/runs/{id}/hands?order=loss&limit=10",
    "hands_win": "/api/runs/{id}/hands?order=win&limit=10",
    "hands_luck": "/api/runs/{id}/hands?order=luck&limit=10",
    "study": "/api/runs/{id}/study",
    "sequential": "/api/runs/{id}/sequential",
    "games": "/api/runs/{id}/games",
    "standings": "/api/runs/{id}/standings",
    "sheet": "/api/runs/{id}/sheet",
}
"""What ``dashboards/web/app.js`` asks for a selected run (the hands finder in each
order it offers; ``study`` and ``sheet`` answer 409/404 on a match, as on the page)."""

TARGET_S = 1.0
SWITCH = "POKERARENA_PAGE_SUMMARIES"
SUMMARY_DIR = "page_summaries"  # pokerarena.platform.page_summaries.SUMMARY_DIR


def _time_routes(client: Any, run_id: str) -> dict[str, Any]:
    """Each route: its status, the first request's seconds (caches emptied) and the
    repeated request's."""
    from pokerarena.bench.storage_bench import _cold

    out: dict[str, Any] = {}
    for name, path in ROUTES.items():
        url = path.format(id=run_id)
        _cold()
        t0 = time.perf_counter()
        r = client.get(url)
        first = time.perf_counter() - t0
        t0 = time.perf_counter()
        again = client.get(url)
        repeat = time.perf_counter() - t0
        out[name] = {"status": r.status_code, "first_s": round(first, 4),
                     "repeat_s": round(repeat, 4),
                     "same": r.status_code == again.status_code and r.content == again.content,
                     "sha256": hashlib.sha256(r.content).hexdigest()[:16]}
    return out


def _forget_summaries(run_dir: Path) -> None:
    shutil.rmtree(run_dir / SUMMARY_DIR, ignore_errors=True)


def measure(root: Path, units: int, hands: int, peer: bool = True,
            seed: int = 29) -> dict[str, Any]:
    """One size: synthesise, end it as the driver does, time the routes."""
    from fastapi.testclient import TestClient

    from pokerarena.bench.storage_bench import _template, synthesise
    from pokerarena.platform import compaction
    from pokerarena.platform.api import create_app

    unit_hands = max(1, hands // units)
    data = root / f"u{units}-h{hands}"
    t0 = time.perf_counter()
    template = _template(data / "template", unit_hands, seed)
    store = synthesise(data, "bench", units, unit_hands, template, seed)
    out: dict[str, Any] = {"units": units, "hands": units * template["hands"].num_rows,
                           "synthesise_s": round(time.perf_counter() - t0, 2)}
    t0 = time.perf_counter()
    ended = compaction.compact_after_run(store) or {}
    out["finish_s"] = round(time.perf_counter() - t0, 2)  # compaction + stored summaries
    out["finish"] = {k: ended.get(k) for k in ("generation", "standings", "summaries",
                                         "summaries_s")}
    shutil.rmtree(data / "template", ignore_errors=True)
    app = create_app(data, token="bench-token", resume=False)
    saved = os.environ.get(SWITCH)
    try:
        with TestClient(app, base_url="http://127.0.0.1") as client:
            os.environ.pop(SWITCH, None)
            out["routes"] = _time_routes(client, "bench")
            if peer:
                os.environ[SWITCH] = "off"
                out["routes_from_hands"] = _time_routes(client, "bench")
                os.environ.pop(SWITCH, None)
                _forget_summaries(store.run_dir)  # computed on the first request again
                out["routes_first_computed"] = _time_routes(client, "bench")
    finally:
        if saved is None:
            os.environ.pop(SWITCH, None)
        else:
            os.environ[SWITCH] = saved
    routes = out["routes"]
    out["slowest"] = max(routes, key=lambda k: routes[k]["first_s"])
    out["meets_target"] = all(v["first_s"] < TARGET_S for v in routes.values())
    if peer:
        out["answers_identical"] = {  # the same bytes from summaries and every hand
            k: out["routes"][k]["sha256"] == out["routes_from_hands"][k]["sha256"]
            == out["routes_first_computed"][k]["sha256"] for k in ROUTES}
    shutil.rmtree(data, ignore_errors=True)
    return out


def _project(sizes: list[dict[str, Any]], key: str, route: str, hands: int) -> float | None:
    pts = sorted((s["hands"], s[key][route]["first_s"]) for s in sizes if key in s)
    if len(pts) < 2 or pts[-1][0] == pts[-2][0]:
        return None
    (h1, t1), (h2, t2) = pts[-2], pts[-1]
    return round(t2 + max(0.0, (t2 - t1) / (h2 - h1)) * (hands - h2), 3)


def bench_dashboard(units: int = 100, hands: list[int] | None = None,
                    project: list[int] | None = None, peer: bool = True,
                    root: Path | None = None) -> dict[str, Any]:
    """Measure each size of ``hands``; project the first requests to ``project``."""
    hands = hands or [100_000, 1_000_000]
    project = project or [10_000_000]
    own = root is None
    base = root or Path(tempfile.mkdtemp(prefix="pokerarena-dashboard-bench-"))
    try:
        sizes = [measure(base, units, h, peer) for h in hands]
    finally:
        if own:
            shutil.rmtree(base, ignore_errors=True)
    projected = [{"hands": h, "projected": True,
                  "first_s": {r: _project(sizes, "routes", r, h) for r in ROUTES},
                  "first_s_from_hands": {r: _project(sizes, "routes_from_hands", r, h)
                                         for r in ROUTES} if peer else None}
                 for h in project if h > max(s["hands"] for s in sizes)]
    try:
        load = os.getloadavg()
    except OSError:
        load = None
    return {"benchmark": "dashboard", "synthesised": True,
            "client": "FastAPI TestClient on create_app (in process; queries in the app's "
                      "query pool of processes)",
            "note": "first_s: the process's caches of footers and schemas emptied first; "
                    "repeat_s: the same request again; routes_from_hands: the page "
                    f"summaries off ({SWITCH}=off); routes_first_computed: their files "
                    "deleted, so the first request computes and stores them",
            "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                        "system": platform.platform(), "load_average_after": load},
            "target_s": TARGET_S, "units": units, "sizes": sizes, "projected": projected,
            "meets_target": all(s["meets_target"] for s in sizes)}


def register_bench(sub: argparse._SubParsersAction) -> None:
    """Add ``bench dashboard``."""
    from pokerarena.bench.storage_bench import add_size_arguments

    p = sub.add_parser(
        "dashboard", help="every route the dashboard calls for a finished run, first and "
        "repeated request, as the run grows",
        description="Synthesises finished runs (as `bench storage`), ends them as the "
        "driver does (compaction, stored standings and page summaries), and times each "
        "route the dashboard calls over FastAPI's TestClient on the real app, with the "
        "same routes answered from every hand as the peer.")
    add_size_arguments(p, 100, "total hands of each measured run (default 1e5,1e6; 1e7 "
                       "when asked)", "total hands to project the first requests to "
                       "(default 1e7)")
    p.add_argument("--no-peer", action="store_true",
                   help="skip the routes answered from every hand (minutes at 1e7)")
    p.set_defaults(func=run_dashboard_bench)


def run_dashboard_bench(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena bench dashboard``."""
    import json

    from pokerarena.bench.storage_bench import sizes

    units, hands, projected = sizes(args)
    r = bench_dashboard(units, hands, projected, peer=not args.no_peer)
    if args.json:
        print(json.dumps(r))
        return 0
    for s in r["sizes"]:
        print(f"{s['hands']:,} hands, {s['units']} units (finish {s['finish_s']} s):")
        for name, v in s["routes"].items():
            peer = s.get("routes_from_hands", {}).get(name)
            print(f"  {name:12} {v['status']} first {v['first_s']} s, again {v['repeat_s']} s"
                  + (f"; from every hand {peer['first_s']} s" if peer else ""))
    for pr in r["projected"]:
        print(f"{pr['hands']:,} hands (projected): {pr['first_s']}")
    return 0
