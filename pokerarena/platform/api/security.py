"""What the service lets a client do: the bearer token, the hosts it answers, the paths
it shows, and the specs it accepts over HTTP. The sandboxed SQL of the query endpoint is
:mod:`pokerarena.platform.sandbox` (re-exported here for the API's callers)."""

from __future__ import annotations

import hmac
import json
import os
import re
import secrets
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pokerarena.platform.sandbox import (  # noqa: F401 - the API's names for them
    PolicyError,
    QueryLimits,
    QueryTimeout,
    check_sql_paths,
    links_leaving,
    path_problem,
    run_sandboxed,
    sandboxed_connection,
)

TOKEN_ENV = "POKERARENA_API_TOKEN"
TOKEN_FILE_ENV = "POKERARENA_API_TOKEN_FILE"
TOKEN_FILE_NAME = ".api-token"


# token ------------------------------------------------------------------------------


def load_or_create_token(data_dir: str | Path, token_file: str | Path | None = None
                         ) -> tuple[str, Path | None, bool]:
    """The API token: ``$POKERARENA_API_TOKEN``, else the token file
    (``token_file``, ``$POKERARENA_API_TOKEN_FILE``, else ``<data>/.api-token``), created
    with a fresh random token (mode 0600) when missing.

    Returns ``(token, file or None, created)``.
    """
    env = os.environ.get(TOKEN_ENV, "").strip()
    if env:
        return env, None, False
    path = Path(token_file or os.environ.get(TOKEN_FILE_ENV) or Path(data_dir) / TOKEN_FILE_NAME)
    if path.is_file():
        token = path.read_text(encoding="utf-8").strip()
        if token:
            return token, path, False
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(token + "\n")
    return token, path, True


def token_matches(header: str | None, token: str) -> bool:
    """True when ``header`` is ``Bearer <token>`` (constant-time comparison)."""
    if not header:
        return False
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(value.strip().encode(), token.encode())


# Host header ------------------------------------------------------------------------
# A service on 127.0.0.1 is reachable from any web page the user opens through DNS
# rebinding (attacker.example first resolves to the attacker, then to 127.0.0.1): the
# browser then sends ``Host: attacker.example``. Answering only the names the service is
# known by closes that door.

LOCAL_HOSTS: tuple[str, ...] = ("localhost", "127.0.0.1", "::1")
"""Names a local service always answers for."""

_WILDCARD_BINDS = ("", "0.0.0.0", "::", "[::]")
_HOST_NAME = re.compile(r"^[a-z0-9_](?:[a-z0-9_.-]{0,252})$")
_IPV6 = re.compile(r"^[0-9a-f:.]{2,45}$")


def host_name(header: str) -> str | None:
    """The host of a ``Host`` header value: lower case, without the port, the IPv6
    brackets or a trailing dot; None when it is not a host name or address."""
    value = header.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        name, rest = value[1:end], value[end + 1:]
        if rest and not (rest.startswith(":") and rest[1:].isdigit()):
            return None
        return name if _IPV6.match(name) else None
    name, colon, port = value.rpartition(":")
    if not colon:
        name = value
    elif not port.isdigit():
        return None
    name = name.rstrip(".")
    return name if _HOST_NAME.match(name) else None


def allowed_hosts(bind: str | None = None, extra: Iterable[str] = ()) -> frozenset[str]:
    """The host names a service bound to ``bind`` answers for: ``bind`` itself (unless a
    wildcard such as 0.0.0.0), :data:`LOCAL_HOSTS` and ``extra`` (``--allowed-host``;
    ``*`` allows every host, ``*.example.org`` every name under example.org)."""
    names = set(LOCAL_HOSTS)
    if bind is not None and bind.strip() not in _WILDCARD_BINDS:
        name = host_name(bind if ":" not in bind or bind.startswith("[") else f"[{bind}]")
        if name:
            names.add(name)
    for h in extra:
        h = h.strip().lower()
        if h == "*" or h.startswith("*."):
            names.add(h.rstrip("."))
        elif h:
            name = host_name(h if h.count(":") < 2 or h.startswith("[") else f"[{h}]")
            if name is None:
                raise PolicyError(f"allowed host {h!r} is not a host name or address")
            names.add(name)
    return frozenset(names)


def host_allowed(name: str, allowed: frozenset[str]) -> bool:
    """True when host ``name`` (as :func:`host_name` gives it) is in ``allowed``."""
    if name in allowed or "*" in allowed:
        return True
    return any(a.startswith("*.") and name.endswith(a[1:]) for a in allowed)


class HostCheckMiddleware:
    """Answers 400 to a request without a valid ``Host`` header and 421 (Misdirected
    Request) to one naming a host the service is not known by (DNS rebinding)."""

    def __init__(self, app: Any, allowed: Iterable[str]) -> None:
        self.app = app
        self.allowed = frozenset(allowed)

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        raw = [v for k, v in scope.get("headers") or [] if k == b"host"]
        name = host_name(raw[0].decode("latin-1")) if len(raw) == 1 else None
        if name is not None and host_allowed(name, self.allowed):
            await self.app(scope, receive, send)
            return
        if name is None:
            status, message = 400, "the request needs exactly one valid Host header"
        else:
            status = 421
            message = (f"this service does not answer for host {name[:100]!r}; start it "
                       f"with --allowed-host {name[:100]} if that is its name")
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        body = json.dumps({"error": message, "status": status}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


# no absolute server paths in public answers -----------------------------------------


def public_path_roots(data_dir: str | Path) -> dict[str, str]:
    """What absolute server paths become in public answers: the data directory's paths
    become relative to it (``runs/<id>/...``; the directory itself ``.``), the source
    tree's relative to it, the home directory's ``~/...``. Longest first."""
    repo = Path(__file__).resolve().parents[3]
    pairs: list[tuple[Path, str]] = [(Path(data_dir), ""), (repo, ""), (Path.home(), "~/")]
    roots: dict[str, str] = {}
    for path, prefix in pairs:
        for p in (path.absolute(), path.resolve()):
            if len(p.parts) >= 2 and str(p) not in roots:  # never "/" itself
                roots[str(p)] = prefix
    return dict(sorted(roots.items(), key=lambda kv: -len(kv[0])))


def _relative_with(prefix: str) -> Callable[[re.Match[str]], str]:
    """The replacement of a matched root: ``<prefix>`` before a ``/``, else the prefix
    without its slash (or ``.``)."""

    def replace(m: re.Match[str]) -> str:
        return prefix if m.group(0).endswith("/") else (prefix.rstrip("/") or ".")

    return replace


def relative_paths(text: str, roots: dict[str, str]) -> str:
    """``text`` with every path under one of ``roots`` (see :func:`public_path_roots`)
    written relative to it: ``<root>/a/b`` becomes ``<prefix>a/b``, ``<root>`` alone
    ``<prefix>`` (or ``.``). Raw and JSON-escaped spellings both."""
    for root, prefix in roots.items():
        for spelling in {root, json.dumps(root)[1:-1]}:
            if spelling not in text:
                continue
            text = re.sub(re.escape(spelling) + r"(?:/|(?![\w.-]))",
                          _relative_with(prefix), text)
    return text


class RelativePathsMiddleware:
    """Rewrites absolute server paths in JSON answers (run folders, file names in query
    results, DuckDB's error messages) with :func:`relative_paths`: a client learns
    nothing of the server's file system layout."""

    def __init__(self, app: Any, roots: dict[str, str]) -> None:
        self.app = app
        self.roots = roots

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http" or not self.roots:
            await self.app(scope, receive, send)
            return
        start: dict | None = None
        chunks: list[bytes] = []

        async def rewriting_send(message: dict) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                ctype = dict(message.get("headers") or []).get(b"content-type", b"")
                if b"json" in ctype.lower():
                    start = message
                    return
            elif message["type"] == "http.response.body" and start is not None:
                chunks.append(message.get("body", b""))
                if message.get("more_body"):
                    return
                body = relative_paths(b"".join(chunks).decode("utf-8", "surrogateescape"),
                                      self.roots).encode("utf-8", "surrogateescape")
                headers = [(k, v) for k, v in start.get("headers") or []
                           if k.lower() != b"content-length"]
                headers.append((b"content-length", str(len(body)).encode()))
                await send({**start, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
            await send(message)

        await self.app(scope, receive, rewriting_send)


# specs over HTTP --------------------------------------------------------------------


def check_http_spec(data: Any, allowed_urls: tuple[str, ...] = ()) -> None:
    """Refuse what a spec submitted over HTTP may not name: bots other than registered
    names or allowed adapter URLs (never a Python path: that would run code of the
    client's choosing), and variants other than shipped identifiers (never a file path).

    ``allowed_urls`` are URL prefixes (``http://127.0.0.1:9000/``) an adapter may use.
    """
    from pokerarena.games import families, family_ids
    from pokerarena.platform.spec import registered_bots
    from pokerarena.rules import variant_ids

    if not isinstance(data, dict):
        raise PolicyError("a run spec is a JSON object")
    bots = data.get("bots")
    if isinstance(bots, list):
        known = (*registered_bots(), *(b for f in families() for b in f.bots
                                        if b not in registered_bots()))  # + game families'
        for i, bot in enumerate(bots):
            if not isinstance(bot, str):
                raise PolicyError(f"bots[{i}]: a bot is a string")
            if bot in known:
                continue
            if bot.startswith(("http://", "https://")):
                if any(bot.startswith(p) for p in allowed_urls):
                    continue
                raise PolicyError(f"bots[{i}]: adapter URL {bot!r} is not allowed by this "
                                  "service")
            raise PolicyError(f"bots[{i}]: {bot!r} is not a registered bot; over HTTP a spec "
                              f"may name only registered bots ({', '.join(known)}) or "
                              "allowed adapter URLs, never Python paths")
    games = data.get("games")
    if isinstance(games, list):
        ids = (*variant_ids(), *family_ids())
        for gi, g in enumerate(games):
            if not isinstance(g, dict):
                continue
            variants = g.get("variant")
            for vi, v in enumerate([variants] if isinstance(variants, str) else
                                   variants if isinstance(variants, list) else []):
                if not isinstance(v, str) or v not in ids:
                    raise PolicyError(f"games[{gi}].variant[{vi}]: {v!r} is not a variant "
                                      "identifier; over HTTP only shipped variants "
                                      f"({', '.join(ids)}) may be named")
