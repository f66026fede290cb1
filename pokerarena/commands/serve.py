"""``pokerarena serve``: the control plane's HTTP service (FastAPI under uvicorn)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from pokerarena.commands import UserError
from pokerarena.commands.index import summary


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``serve``."""
    p = subparsers.add_parser(
        "serve", help=summary("serve"),
        description="Serve the REST API under /api (OpenAPI at /docs), Prometheus metrics "
        "at /metrics and the web dashboard at /. Runs are played on Ray: a local cluster "
        "is started unless --address or RAY_ADDRESS names one. Mutating endpoints need "
        "the token from $POKERARENA_API_TOKEN or the token file (generated and printed "
        "on first start).")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on "
                   "(default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    p.add_argument("--data", metavar="DIR", default=None,
                   help="data directory (default: $POKERARENA_DATA or ./data)")
    p.add_argument("--address", help="Ray cluster to join (default: $RAY_ADDRESS, else a "
                   "local cluster)")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="Ray actors per run (default: the CPU count)")
    p.add_argument("--local", action="store_true",
                   help="play runs in this process, without Ray (debugging, tiny runs)")
    p.add_argument("--token-file", metavar="FILE", default=None,
                   help="token file (default: $POKERARENA_API_TOKEN_FILE or DIR/.api-token)")
    p.add_argument("--no-resume", action="store_true",
                   help="mark runs left in flight interrupted instead of resuming them")
    p.add_argument("--max-runs", type=int, default=4, metavar="N",
                   help="runs driven at once (default: 4)")
    p.add_argument("--allow-adapter-url", action="append", default=[], metavar="PREFIX",
                   help="URL prefix an HTTP adapter bot in a submitted spec may use "
                   "(repeatable; default: none)")
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help="a host name clients may reach the service by, besides the --host "
                   "address, localhost, 127.0.0.1 and [::1]; requests naming any other "
                   "host get 421 (DNS rebinding). Repeatable; '*.example.org' allows the "
                   "names under example.org, '*' every name")
    p.add_argument("--query-workers", type=int, default=2, metavar="N",
                   help="query processes (each capped in memory; default: 2)")
    p.add_argument("--query-queue", type=int, default=8, metavar="N",
                   help="queries that may wait for a process; past that 429 (default: 8)")
    p.add_argument("--query-memory-mb", type=int, default=1024, metavar="MB",
                   help="memory a query process may add to its idle size; past that 413 "
                   "(default: 1024)")
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena serve``."""
    try:
        import uvicorn
    except ImportError:
        raise UserError("serve needs uvicorn and fastapi: pip install -e .") from None
    from pokerarena.platform.api.app import create_app
    from pokerarena.platform.storage import data_location, default_location

    if not 0 < args.port < 65536:
        raise UserError(f"--port must be 1-65535, got {args.port}")
    if args.workers is not None and args.workers < 1:
        raise UserError(f"--workers must be at least 1, got {args.workers}")
    if args.max_runs < 1:
        raise UserError(f"--max-runs must be at least 1, got {args.max_runs}")
    for flag, value, least in (("--query-workers", args.query_workers, 1),
                               ("--query-queue", args.query_queue, 0),
                               ("--query-memory-mb", args.query_memory_mb, 64)):
        if value < least:
            raise UserError(f"{flag} must be at least {least}, got {value}")
    from pokerarena.platform.query_pool import MIB, PoolLimits

    pool = PoolLimits(workers=args.query_workers, queue=args.query_queue,
                      memory_bytes=args.query_memory_mb * MIB)
    from pokerarena.platform.api.security import PolicyError, allowed_hosts

    try:
        hosts = allowed_hosts(args.host, args.allowed_host)
    except PolicyError as exc:
        raise UserError(f"--allowed-host: {exc}") from None
    data = data_location(args.data) if args.data else default_location()
    workers = args.workers or os.cpu_count() or 1
    factory: Any
    prepare: Any = None
    if args.local:
        from pokerarena.platform.api.executors import MeteredLocalExecutor

        factory = MeteredLocalExecutor
    else:
        from pokerarena.platform.api.executors import MeteredRayExecutor
        from pokerarena.platform.executors import init_ray

        address = args.address

        def factory() -> Any:
            return MeteredRayExecutor(workers, address)

        def prepare() -> None:
            init_ray(address, num_cpus=max(workers, os.cpu_count() or 1))

        print("starting or joining Ray ...", file=sys.stderr, flush=True)
        prepare()

    def announce(token: str, path: Path) -> None:
        print(f"generated an API token (saved in {path}):\n  {token}", file=sys.stderr,
              flush=True)

    app = create_app(data, token_file=args.token_file, executor_factory=factory,
                     prepare=prepare, resume=not args.no_resume, max_active=args.max_runs,
                     allowed_adapter_urls=tuple(args.allow_adapter_url),
                     on_token_created=announce, bind_host=args.host,
                     allowed_hosts=tuple(args.allowed_host), query_pool=pool)
    print(f"serving http://{args.host}:{args.port}/ (API docs at /docs), data in {data}",
          file=sys.stderr, flush=True)
    print("answering requests for host " + ", ".join(sorted(hosts)) + " (more with "
          "--allowed-host NAME)", file=sys.stderr, flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
