"""Bots that misbehave on purpose, importable by Python path in tests."""


class RaisingBot:
    """Raises on every decision: each one is an ``exception`` fault."""

    name = "raiser"

    def act(self, view):
        raise RuntimeError("this bot always fails")
