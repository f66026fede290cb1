"""Adapters for bots outside this process: HTTP (:mod:`.http`) and ACPC (:mod:`.acpc`)."""
