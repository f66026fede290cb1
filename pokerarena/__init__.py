"""pokerarena: poker bots playing each other at scale."""

from pokerarena import native as _native

__version__ = "0.1.0"

_native.install()  # the mypyc build of the table loop, when current (see pokerarena.native)
