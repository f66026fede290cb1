"""Calibration cases (see :mod:`pokerarena.bench.calibration`)."""

from __future__ import annotations

from pokerarena.bench.calibration import Case

CASES: list[Case] = []
