"""Workers: what runs where the games are played.

:mod:`~pokerarena.workers.records` plays a unit into Arrow tables,
:mod:`~pokerarena.workers.parts` writes them atomically as Parquet parts,
:mod:`~pokerarena.workers.table` ties both together, and
:mod:`~pokerarena.workers.actor` wraps that in a Ray actor. Nothing here knows about
the driver, the control plane or HTTP; Ray is imported only by ``actor`` and by
:mod:`~pokerarena.workers.solve_unit` (hold'em MCCFR's slices on Ray actors).
"""
