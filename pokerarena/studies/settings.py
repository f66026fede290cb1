"""A study's own settings (the ``[study]`` table of a ``kind = "study"`` run spec): which
cell the others are compared with, and how the comparisons are corrected for their
number. Validated here, beside the code that reads them, from plain data (the run spec
that holds them sits above, in the platform)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from pokerarena.errors import UserError
from pokerarena.studies.metrics import METRICS, metric_info

__all__ = ["Question", "StudySettings", "StudySettingsError", "parse_settings"]

DEFAULT_METRICS = ("showdown_rate", "pot_bb", "rounds_reached", "raises_per_round",
                   "war_length", "fold_to_bet", "seat_net:0", "skill_edge")
"""What a question's section shows when the question names no metrics."""


class StudySettingsError(ValueError, UserError):
    """Study settings that cannot be used; the message names the field."""


class Question(BaseModel):
    """A question the report answers in a section of its own: its ``text`` and the
    ``metrics`` that answer it (names of :data:`~pokerarena.studies.metrics.METRICS`
    or of the families ``seat_net:P``, ``category:C``, ``win_category:C``; default:
    :data:`DEFAULT_METRICS`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str = Field(min_length=1, max_length=500)
    metrics: tuple[str, ...] = Field(DEFAULT_METRICS, min_length=1, max_length=50)

    @field_validator("metrics")
    @classmethod
    def _known(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        for name in names:
            family, sep, arg = name.partition(":")
            try:
                metric_info(name)
            except KeyError:
                raise ValueError(f"unknown metric {name!r}; known: {', '.join(METRICS)}, "
                                 "seat_net:P, category:C, win_category:C") from None
            if sep and not arg.replace("_", "").replace("-", "").isalnum():
                raise ValueError(f"metric {name!r}: {family}: needs a position or category")
        return names


class StudySettings(BaseModel):
    """``baseline``: the index of the cell every other cell is compared with (cells in
    plan order: games as expanded, then the mixes); ``correction``: for the number of
    comparisons, Holm's (controls the family-wise error) or Benjamini-Hochberg's
    (the false discovery rate, for large grids); ``alpha``: the level after it;
    ``freezeouts``: besides its hands, each cell plays this many winner-take-all
    freeze-outs of its mix at its rules (up to ``freezeout_rounds`` rounds each), for
    the metric ``hands_per_freezeout``; ``title`` and ``questions``: what the report
    says it answers (a question is its
    text, or a table with ``text`` and the ``metrics`` that answer it)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    baseline: int = Field(0, ge=0)
    correction: Literal["holm", "bh"] = "holm"
    alpha: float = Field(0.05, gt=0, lt=0.5)
    freezeouts: int = Field(0, ge=0, le=10_000)
    freezeout_rounds: int = Field(5_000, ge=1, le=1_000_000)
    title: str = Field("", max_length=200)
    questions: list[Question] = Field(default_factory=list, max_length=100)

    @field_validator("questions", mode="before")
    @classmethod
    def _texts(cls, v: Any) -> Any:
        """A bare string is a question with the default metrics."""
        if isinstance(v, list):
            return [{"text": q} if isinstance(q, str) else q for q in v]
        return v


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
