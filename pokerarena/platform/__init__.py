"""The control plane: run specs, planner, scheduler/driver, storage and DuckDB views.

A run goes ``spec`` (:mod:`~pokerarena.platform.spec`) -> ``plan`` of work units
(:mod:`~pokerarena.platform.planner`) -> executed by a driver
(:mod:`~pokerarena.platform.driver`) on Ray actors or in-process
(:mod:`~pokerarena.platform.executors`) -> Parquet parts and a manifest
(:mod:`~pokerarena.platform.storage`) -> SQL over named views
(:mod:`~pokerarena.platform.query`).

Nothing here knows about HTTP: a service drives runs through :class:`RunDriver`
(``progress()``, ``cancel()``, ``run()``) and reads state from disk.
"""

from pokerarena.platform.spec import RunSpec, SpecError, load_spec, parse_spec

__all__ = ["RunSpec", "SpecError", "load_spec", "parse_spec"]
