"""The hand evaluator: numba kernels and small lookup tables for every ranking.

See docs/evaluator.md for the contract: values are ``int32``, higher is better, and
comparable within one :class:`Ranking`.
"""

from pokerarena.evaluator.api import (
    evaluate,
    evaluate_batch,
    evaluate_omaha,
    evaluate_omaha_batch,
)
from pokerarena.evaluator.rankings import (
    CATEGORY_NAMES,
    HIGH,
    RANKING_NAMES,
    WILD_NAMES,
    Ranking,
    ranking,
)
from pokerarena.evaluator.words import (
    category,
    category_floor,
    category_id,
    describe,
    qualifies_low,
    qualifies_low_batch,
)

__all__ = [
    "CATEGORY_NAMES", "HIGH", "RANKING_NAMES", "WILD_NAMES", "Ranking", "category",
    "category_floor", "category_id", "describe", "evaluate", "evaluate_batch", "evaluate_omaha",
    "evaluate_omaha_batch", "qualifies_low", "qualifies_low_batch", "ranking",
]
