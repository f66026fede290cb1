"""HTTP bots: the observation is POSTed as JSON, the answer is an action in JSON.

``HttpBot("http://127.0.0.1:8000/act")`` POSTs ``view_to_json(view)`` (with
``"event": "act"``) to the URL and reads back an action such as ``{"kind": "cbr",
"amount": 20}`` (``schemas/observation.schema.json``, ``schemas/action.schema.json``).
With ``hooks=true`` it also POSTs ``start_match``, ``start_hand`` and ``end_hand`` events
(``{"event": ..., ...}``; the answer is ignored). One persistent connection per bot;
a refused connection, an HTTP error or a timeout is an exception, and an answer that is
not an action JSON is garbage: the table's fault rules apply to both.

With ``policy=true`` (:func:`http_bot`; ``?policy=true`` in a spec's URL) the bot is an
:class:`HttpPolicyBot`: it declares its policy (``bots.base.DeclaresPolicy``) by POSTing
``{"event": "policy", ...observation}`` and reading ``{"policy": [{"action": ...,
"probability": p}, ...]}`` (``schemas/policy_request.schema.json``,
``schemas/policy_answer.schema.json``). Without it nothing is declared: a plain
:class:`HttpBot` has no ``policy`` attribute, so ``declared_policy`` finds none. Any way
the policy request can fail is one :class:`HttpPolicyError`.
"""

from __future__ import annotations

import http.client
import json
import math
from typing import Any
from urllib.parse import unquote_plus, urlsplit, urlunsplit

from pokerarena.bots.base import (
    DECLARE_KIND,
    EXPOSE_KIND,
    ActionFormatError,
    HandSummary,
    MatchInfo,
    Policy,
    SeatView,
    canonical_action,
    coerce_action,
    view_to_json,
)
from pokerarena.engine.actions import DISCARD_KIND, RAISE_KIND, SHOW_KIND, Action


class HttpBotError(RuntimeError):
    """The HTTP bot could not be reached or answered with an error status."""


class HttpPolicyError(ValueError):
    """An HTTP bot gave no usable policy: the request failed (refused, HTTP error,
    timeout) or the answer is not a distribution over the legal actions at the view.
    One type for every failure, so a reader of declared policies handles them all in one
    clause; a ValueError, as the project's other readings of a bad declaration are
    (``solvers.exact.policy_over``, which AIVAT and the exact tools call)."""


POLICY_TOLERANCE = 1e-6
"""How far from 1 a declared policy's probabilities may sum (then renormalized): JSON
numbers printed by another language's float formatting need not sum to 1 exactly."""

URL_OPTIONS = ("hooks", "policy")
"""The adapter's own options that a spec's URL may carry in its query (``?policy=true``);
they are taken out of the URL, every other query parameter goes to the endpoint."""


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


class HttpPolicyBot(HttpBot):
    """An HTTP bot that declares its policy: the endpoint answers ``policy`` events too.

    The answer is read as strictly as an exact tool needs: a declaration that is off
    by an illegal move or a probability biases AIVAT's decision terms silently, so it is
    refused (:class:`HttpPolicyError`) rather than repaired."""

    def policy(self, view: SeatView) -> Policy:
        """POST ``{"event": "policy", ...observation}``; the declared distribution."""
        try:
            answer = self.post({"event": "policy", **view_to_json(view)})
        except (HttpBotError, http.client.HTTPException, OSError) as exc:
            raise HttpPolicyError(f"{self.name}: policy request failed: {exc}") from None
        return read_policy(answer, view, self.name)


def read_policy(answer: Any, view: SeatView, name: str = "bot") -> Policy:
    """The distribution in a ``{"policy": [{"action": ..., "probability": p}, ...]}``
    answer at ``view``: each action read as an ``act`` answer is (``coerce_action``) and
    canonicalized, duplicates merged, zeros dropped, renormalized. Raises
    :class:`HttpPolicyError` for anything else: not JSON, a malformed entry, an action
    not legal at the view, a probability that is not a finite number >= 0, or a sum
    more than :data:`POLICY_TOLERANCE` from 1."""
    if isinstance(answer, _Garbage):
        raise HttpPolicyError(f"{name}: the policy answer is {answer!r}")
    entries = answer.get("policy") if isinstance(answer, dict) else None
    if not isinstance(entries, list):
        raise HttpPolicyError(f'{name}: a policy answer is {{"policy": [...]}}, not '
                              f"{json.dumps(answer)[:80]}")
    merged: dict[Action, float] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or "action" not in entry or "probability" not in entry:
            raise HttpPolicyError(f"{name}: policy[{i}] is not an object with 'action' and "
                                  "'probability'")
        p = _probability(entry["probability"])
        if p is None:
            raise HttpPolicyError(f"{name}: policy[{i}]: probability "
                                  f"{entry['probability']!r} is not a finite number >= 0")
        try:
            action = canonical_action(coerce_action(entry["action"]))
        except ActionFormatError as exc:
            raise HttpPolicyError(f"{name}: policy[{i}]: {exc}") from None
        why = _illegal(action, view)
        if why is not None:
            raise HttpPolicyError(f"{name}: policy[{i}]: {action} is not legal here: {why}")
        if p > 0:
            merged[action] = merged.get(action, 0.0) + p
    total = math.fsum(merged.values())
    if not abs(total - 1.0) <= POLICY_TOLERANCE:
        raise HttpPolicyError(f"{name}: the policy's probabilities sum to {total!r}, not 1")
    return [(a, p / total) for a, p in merged.items()]


def _probability(value: Any) -> float | None:
    """``value`` as a probability, or None when it is not a finite number >= 0 (JSON
    readers accept NaN and Infinity, and an integer may be too large for a float)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        p = float(value)
    except OverflowError:
        return None
    return p if math.isfinite(p) and p >= 0 else None


def _illegal(action: Action, view: SeatView) -> str | None:
    """Why ``action`` is not allowed at ``view`` (None when it is): the table's reading
    (``arena.faults.check_legal``), which this layer may not import."""
    legal, hole = view.legal, view.hole
    if legal is None:
        return "not this seat's turn"
    kind, cards = action.kind, action.cards
    if kind not in legal.kinds:
        return f"{kind!r} is not one of {', '.join(legal.kinds)}"
    if kind == RAISE_KIND:
        choices = getattr(legal, "choices", ())
        if not legal.min_to <= action.amount <= legal.max_to or \
                (choices and action.amount not in choices):
            return f"cannot bet/raise to {action.amount}"
    if kind in (DISCARD_KIND, EXPOSE_KIND):
        if len(set(cards)) != len(cards) or any(c not in hole for c in cards):
            return "names cards it does not hold"
        if not legal.discard_min <= len(cards) <= legal.discard_max:
            return f"{len(cards)} cards: allowed {legal.discard_min}-{legal.discard_max}"
    if kind == SHOW_KIND and cards and sorted(cards) != sorted(hole):
        return "shows cards it does not hold"
    if kind == DECLARE_KIND and action.amount not in (getattr(legal, "choices", ()) or (1, 2, 3)):
        return f"declares {action.amount!r}: 1 high, 2 low, 3 both"
    return None


def _flag(key: str, text: str) -> bool:
    low = text.lower()
    if low in ("", "1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"URL option {key}={text!r} is not true or false")


def http_bot(url: str, **options: Any) -> HttpBot:
    """The adapter a spec's URL names: :class:`HttpPolicyBot` when ``policy`` is true,
    else :class:`HttpBot`. ``hooks`` and ``policy`` may be given as keywords or in the
    URL's query (the keywords win); they are taken out of the URL the endpoint gets,
    and the bot's name stays the URL as written (the spec the results name)."""
    parts = urlsplit(url)
    kept: list[str] = []
    found: dict[str, bool] = {}
    for piece in filter(None, parts.query.split("&")):
        key, _, value = piece.partition("=")
        if unquote_plus(key) in URL_OPTIONS:
            found[unquote_plus(key)] = _flag(key, unquote_plus(value))
        else:
            kept.append(piece)
    target = urlunsplit(parts._replace(query="&".join(kept)))
    flags = {**found, **{k: options.pop(k) for k in URL_OPTIONS if k in options}}
    cls = HttpPolicyBot if flags.get("policy") else HttpBot
    options.setdefault("name", url)
    return cls(target, hooks=bool(flags.get("hooks", False)), **options)


__all__ = ["POLICY_TOLERANCE", "HttpBot", "HttpBotError", "HttpPolicyBot", "HttpPolicyError",
           "http_bot", "read_policy"]
