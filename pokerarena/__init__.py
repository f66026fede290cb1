"""pokerarena: poker bots playing each other at scale."""

__version__ = "0.1.0"
