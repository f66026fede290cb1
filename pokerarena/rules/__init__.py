"""Variants and betting systems as data: TOML files validated into typed models.

``load_variant("holdem")`` reads a shipped file from ``variants/``; ``load_variant(path)``
reads a user's file. Errors are :class:`VariantError` with one message naming the field.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from pokerarena.rules.model import (
    BETTING_SYSTEMS,
    BetStreet,
    DealStreet,
    DeclareStreet,
    DrawStreet,
    ExposeStreet,
    FixedLimit,
    Forced,
    KnockStreet,
    LastBetLimit,
    NoLimit,
    PotLimit,
    Showdown,
    SpreadLimit,
    Stakes,
    VariableLimit,
    Variant,
    VariantError,
    betting_system,
    format_validation_error,
    load_variant_data,
    load_variant_text,
)

__all__ = [
    "BETTING_SYSTEMS", "BetStreet", "DealStreet", "DeclareStreet", "DrawStreet",
    "ExposeStreet", "FixedLimit", "Forced", "KnockStreet",
    "LastBetLimit", "NoLimit", "PotLimit", "VariableLimit", "Showdown", "SpreadLimit",
    "Stakes", "Variant", "VariantError",
    "betting_system", "format_validation_error", "load_variant", "load_variant_data",
    "load_variant_text", "variant_ids", "all_variants", "phh_codes",
]


def _variant_dir():
    return resources.files("pokerarena.rules") / "variants"


@cache
def variant_ids() -> tuple[str, ...]:
    """Identifiers of the variant files shipped with the package, sorted."""
    return tuple(sorted(p.name[:-5] for p in _variant_dir().iterdir()
                        if p.name.endswith(".toml")))


@cache
def _shipped(variant_id: str) -> Variant:
    path = _variant_dir() / f"{variant_id}.toml"
    variant = load_variant_text(path.read_text(encoding="utf-8"), origin=f"{variant_id}.toml")
    if variant.id != variant_id:
        raise VariantError(f"{variant_id}.toml: id: {variant.id!r} differs from the file name")
    return variant


def load_variant(name_or_path: str | Path) -> Variant:
    """A shipped variant by identifier, or a variant file by path (``.toml``)."""
    text = str(name_or_path)
    if text in variant_ids():
        return _shipped(text)
    path = Path(text)
    if path.suffix == ".toml" or path.exists():
        try:
            content = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise VariantError(f"{path}: cannot read: {exc.strerror}") from None
        return load_variant_text(content, origin=str(path))
    raise VariantError(f"unknown variant {text!r}; known: {', '.join(variant_ids())}")


def all_variants() -> list[Variant]:
    """Every shipped variant."""
    return [_shipped(v) for v in variant_ids()]


@cache
def phh_codes() -> dict[str, tuple[str, str]]:
    """PHH variant code -> (variant id, betting system) for the shipped variants."""
    out: dict[str, tuple[str, str]] = {}
    for variant in all_variants():
        for system, code in variant.phh.items():
            out[code] = (variant.id, system)
    return out
