"""Names of the output formats of evaluation results (:mod:`irscale.io.output`), in a
module of their own so that the command line can offer them without loading the writers."""

from __future__ import annotations

#: Output formats of :func:`irscale.io.output.write_results`.
FORMATS: tuple[str, ...] = ("trec", "csv", "json", "markdown")
