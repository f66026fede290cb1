"""A study's own settings (the ``[study]`` table of a ``kind = "study"`` run spec): which
cell the others are compared with, and how the comparisons are corrected for their
number. Validated here, beside the code that reads them, from plain data (the run spec
that holds them sits above, in the platform)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pokerarena.errors import UserError

__all__ = ["StudySettings", "StudySettingsError", "parse_settings"]


class StudySettingsError(ValueError, UserError):
    """Study settings that cannot be used; the message names the field."""


class StudySettings(BaseModel):
    """``baseline``: the index of the cell every other cell is compared with (cells in
    plan order: games as expanded, then the mixes); ``correction``: for the number of
    comparisons, Holm's (controls the family-wise error) or Benjamini-Hochberg's
    (the false discovery rate, for large grids); ``alpha``: the level after it;
    ``title`` and ``questions``: what the report says it answers."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    baseline: int = Field(0, ge=0)
    correction: Literal["holm", "bh"] = "holm"
    alpha: float = Field(0.05, gt=0, lt=0.5)
    title: str = Field("", max_length=200)
    questions: list[str] = Field(default_factory=list, max_length=100)


def parse_settings(data: dict[str, Any], cells: int) -> StudySettings:
    """Validate ``data`` for a study of ``cells`` cells."""
    try:
        settings = StudySettings.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "study"
        raise StudySettingsError(f"{where}: {first['msg']}") from None
    if settings.baseline >= cells:
        raise StudySettingsError(f"baseline: cell {settings.baseline}, but the study has "
                                 f"{cells} cells (0 to {cells - 1})")
    return settings
