"""Exact answers for games small enough to walk (Kuhn poker, Leduc hold'em): expected
values of declared policies, best responses and exploitability, computed on the
engine's own game (docs/exact.md)."""

from pokerarena.solvers.exact import ExactError, ExactResult, GameTree, build_tree, evaluate

__all__ = ["ExactError", "ExactResult", "GameTree", "build_tree", "evaluate"]
