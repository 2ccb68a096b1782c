"""The columnar engine behind :mod:`irscale.core` (private): identifier columns held as
Arrow arrays, their codes, fingerprints, duplicates and the qrels index.

Only :mod:`irscale.core`, :mod:`irscale.io`, :mod:`irscale.evaluation` and
:mod:`irscale.evaluation.many` import it (``tests/test_layers.py``); the layers above use
the public helpers of :mod:`irscale.core`.
"""
