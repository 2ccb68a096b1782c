"""The results cache of evaluations: ``irscale.evaluate(..., cache=DIR)``,
``irscale.evaluate_many(..., cache=DIR)``, ``irscale eval --cache DIR`` (docs/evaluation.md,
"The results cache").

* :mod:`~irscale.cache.keys`: the keys, digests of the inputs' bytes and of the options;
* :mod:`~irscale.cache.entries`: the bytes of an entry, checked when read;
* :mod:`~irscale.cache.store`: the folder, atomic writes, the warnings recorded;
* :mod:`~irscale.cache.evaluations`: the keys of calls;
* :mod:`~irscale.cache.calls`: the calls the evaluations make (:func:`~.calls.cached`, the
  entry of a whole call; :class:`~.calls.RunCache`, those of evaluate_many's run files).
"""
