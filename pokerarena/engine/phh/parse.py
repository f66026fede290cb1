"""Reading PHH text and files (``.phh``: one hand; ``.phhs``: several, each a TOML
table ``[1]``, ``[2]``, ...) into dicts."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from pokerarena.engine.phh.common import PHHError


def load_phh(path: str | Path) -> dict[str, Any]:
    """Read a ``.phh`` file as a dict."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise PHHError(f"{p}: cannot read: {exc.strerror}") from None
    return loads_phh(text, origin=str(p))


def load_phhs(path: str | Path) -> list[tuple[str, dict[str, Any]]]:
    """Read a ``.phhs`` file (several hands, each a TOML table such as ``[1]``) as
    ``(key, hand)`` pairs in file order."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise PHHError(f"{p}: cannot read: {exc.strerror}") from None
    return loads_phhs(text, origin=str(p))


def loads_phhs(text: str, origin: str = "PHHS") -> list[tuple[str, dict[str, Any]]]:
    """Parse ``.phhs`` text: every top-level table is one hand."""
    return _tables(loads_phh(text, origin), origin)


def _tables(data: dict[str, Any], origin: str) -> list[tuple[str, dict[str, Any]]]:
    loose = [k for k, v in data.items() if not isinstance(v, dict)]
    if loose:
        raise PHHError(f"{origin}: field {loose[0]!r} is outside a hand's table "
                       "(a .phhs file holds tables such as [1], [2], ...)")
    if not data:
        raise PHHError(f"{origin}: no hands (tables such as [1], [2], ...)")
    return list(data.items())


def load_hands(path: str | Path) -> list[tuple[str | None, dict[str, Any]]]:
    """Every hand of a PHH file as ``(key, hand)`` pairs: one ``(None, hand)`` for a
    single hand, the tables ``[1]``, ``[2]``... in order for several. Files are told
    apart by content, not by name: some published ``.phh`` files hold several hands."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise PHHError(f"{p}: cannot read: {exc.strerror}") from None
    data = loads_phh(text, origin=str(p))
    single = p.suffix != ".phhs" and (not data or not all(isinstance(v, dict)
                                                          for v in data.values()))
    if single:
        return [(None, data)]
    return [(k, v) for k, v in _tables(data, str(p))]



def loads_phh(text: str, origin: str = "PHH") -> dict[str, Any]:
    """Parse PHH text as a dict."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"{origin}: not valid TOML: {exc}") from None

