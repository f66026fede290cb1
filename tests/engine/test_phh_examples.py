"""Every real hand in ../shared/phh-examples replays to its expected finishing stacks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokerarena.engine.phh import load_phh, replay

EXAMPLES = Path(__file__).resolve().parents[3] / "shared" / "phh-examples"
EXPECTED = EXAMPLES / "expected.jsonl"


def _cases():
    if not EXPECTED.exists():
        return []
    return [json.loads(line) for line in EXPECTED.read_text().splitlines() if line.strip()]


CASES = _cases()


@pytest.mark.skipif(not CASES, reason="../shared/phh-examples is absent")
@pytest.mark.parametrize("case", CASES, ids=[c["path"] for c in CASES])
def test_example_replays_exactly(case):
    rep = replay(load_phh(EXAMPLES / case["path"]))
    expected = case["finishing_stacks"]
    assert len(rep.finishing_stacks) == len(expected)
    for got, want in zip(rep.finishing_stacks, expected, strict=True):
        assert got == pytest.approx(want, abs=1e-9)
    # Chips are conserved (in the file's units).
    start = sum(load_phh(EXAMPLES / case["path"])["starting_stacks"])
    assert sum(rep.finishing_stacks) == pytest.approx(start, abs=1e-6)


@pytest.mark.skipif(not CASES, reason="../shared/phh-examples is absent")
def test_examples_cover_every_phh_code():
    codes = {c["variant"] for c in CASES}
    assert {"NT", "FT", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D"} <= codes
