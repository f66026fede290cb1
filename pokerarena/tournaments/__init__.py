"""Tournaments: formats, pairings, scoring, ratings and stopping rules over the arena's
matches.

The statistics (:mod:`.estimates`, :mod:`.sprt`, :mod:`.ratings`, :mod:`.rankings`,
:mod:`.icm`) are pure functions of per-block results, so they serve tournaments run on
Ray, a single match at the command line and the tests alike.
"""
