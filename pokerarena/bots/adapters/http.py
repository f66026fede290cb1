"""HTTP bots: the observation is POSTed as JSON, the answer is an action in JSON.

``HttpBot("http://127.0.0.1:8000/act")`` POSTs ``view_to_json(view)`` (with
``"event": "act"``) to the URL and reads back an action such as ``{"kind": "cbr",
"amount": 20}`` (``schemas/observation.schema.json``, ``schemas/action.schema.json``).
With ``hooks=true`` it also POSTs ``start_match``, ``start_hand`` and ``end_hand`` events
(``{"event": ..., ...}``; the answer is ignored). One persistent connection per bot;
a refused connection, an HTTP error or a timeout is an exception, and an answer that is
not an action JSON is garbage: the table's fault rules apply to both.
"""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlsplit

from pokerarena.bots.base import HandSummary, MatchInfo, SeatView, view_to_json


class HttpBotError(RuntimeError):
    """The HTTP bot could not be reached or answered with an error status."""


class _Garbage:
    """An answer that is not JSON (the fault guard records it as garbage)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"<not JSON: {self.text[:60]!r}>"


class HttpBot:
    """A bot behind an HTTP endpoint."""

    def __init__(self, url: str, timeout: float = 10.0, hooks: bool = False,
                 name: str | None = None) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"{url!r} is not an http:// URL")
        self.url = url
        self.name = name or url
        self.timeout = float(timeout)
        self.hooks = bool(hooks)
        self._scheme = parts.scheme
        self._host = parts.hostname
        self._port = parts.port
        self._path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self._conn: http.client.HTTPConnection | None = None

    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            cls = (http.client.HTTPSConnection if self._scheme == "https"
                   else http.client.HTTPConnection)
            self._conn = cls(self._host, self._port, timeout=self.timeout)
        return self._conn

    def post(self, doc: dict[str, Any]) -> Any:
        """POST ``doc``; the decoded JSON answer (or a garbage marker)."""
        body = json.dumps(doc).encode()
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        for attempt in (0, 1):  # one retry on a stale keep-alive connection
            conn = self._connection()
            try:
                conn.request("POST", self._path, body=body, headers=headers)
                resp = conn.getresponse()
                data = resp.read()
            except (http.client.RemoteDisconnected, BrokenPipeError,
                    ConnectionResetError) as exc:
                self.close()
                if attempt:
                    raise HttpBotError(f"{self.url}: {exc}") from None
                continue
            except OSError as exc:
                self.close()
                raise HttpBotError(f"{self.url}: {exc}") from None
            if resp.status >= 400:
                raise HttpBotError(f"{self.url}: HTTP {resp.status} {resp.reason}")
            if resp.getheader("Connection", "").lower() == "close":
                self.close()
            try:
                return json.loads(data.decode() or "null")
            except (UnicodeDecodeError, json.JSONDecodeError):
                return _Garbage(data.decode(errors="replace"))
        raise HttpBotError(f"{self.url}: no answer")  # pragma: no cover

    def act(self, view: SeatView) -> Any:
        """POST the observation; the answer is the action document."""
        return self.post({"event": "act", **view_to_json(view)})

    def start_match(self, info: MatchInfo) -> None:
        """POST a ``start_match`` event when hooks are on."""
        if self.hooks:
            self.post({"event": "start_match", **info.as_json()})

    def start_hand(self, view: SeatView) -> None:
        """POST a ``start_hand`` event when hooks are on."""
        if self.hooks:
            self.post({"event": "start_hand", **view_to_json(view)})

    def end_hand(self, summary: HandSummary) -> None:
        """POST an ``end_hand`` event when hooks are on."""
        if self.hooks:
            self.post({"event": "end_hand", **summary.as_json()})

    def close(self) -> None:
        """Close the connection."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
