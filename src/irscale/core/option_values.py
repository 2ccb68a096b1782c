"""The values trec_eval's options share between their checks (:mod:`irscale.core.options`)
and their declarations (:mod:`irscale.core.params`): the largest C ``long``, and ``-l``'s
label and default. A module of its own, importing nothing, so that the checks load no
declaration and neither side imports the other."""

#: The largest value of a C ``long`` (and of numpy's int64): trec_eval reads ``-l``, ``-M``
#: and ``-N`` into C longs.
INT64_MAX = 2**63 - 1
#: How messages name ``-l``: as trec_eval's options are named.
RELEVANCE_LEVEL = "relevance level (-l, relevance_level)"
#: ``-l``'s default, the one every ``relevance_level=`` of the functions reads.
DEFAULT_RELEVANCE_LEVEL = 1
