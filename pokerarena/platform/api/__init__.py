"""The control plane's HTTP service (FastAPI): runs, results, metrics, dashboard.

``create_app`` lives in :mod:`pokerarena.platform.api.app`; importing this package
stays light (Ray workers import :mod:`pokerarena.platform.api.executors`).
"""

from __future__ import annotations

from typing import Any


def create_app(*args: Any, **kwargs: Any) -> Any:
    """See :func:`pokerarena.platform.api.app.create_app`."""
    from pokerarena.platform.api.app import create_app as _create

    return _create(*args, **kwargs)


__all__ = ["create_app"]
