"""The API's routes, one module per area, each a FastAPI ``router``.

``health`` (liveness, ``/metrics``), ``catalogue`` (variants, bots), ``runs`` (submit,
list, follow, cancel), ``query`` (leaderboard, charts, SQL), ``dashboard`` (API docs and
the web dashboard's files). :func:`~pokerarena.platform.api.app.create_app` includes
them in this order (the dashboard's ``/`` mount last: it would shadow the rest).
"""
