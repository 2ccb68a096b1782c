"""The runners' own parameters that the command line builds its options from
(:func:`irscale.cli.options.add_param`): the batches, the results cache and the per-topic
folder of :func:`irscale.evaluate_many`. Loads nothing numerical."""

from __future__ import annotations

from ..core.extras import PYARROW, Requires
from ..core.params import Integers, OutputPath, Param

PER_TOPIC_OUT = Param("out", OutputPath("folder"), None, "write the per-topic values (run, topic, "
                      "measure, value) as Parquet files to folder DIR, written whole or not at "
                      "all; a folder holding files is replaced only with --force, and only when it "
                      "holds an earlier output", ("--per-topic-out",), "DIR", dest="per_topic_out",
                      requires=(Requires(PYARROW, "{value}, writing per-topic Parquet files"),))
#: The results cache (docs/evaluation.md, "The results cache").
CACHE = Param("cache", OutputPath("cache"), None, "results cache: an evaluation done before (same "
              "input bytes, measures, options and irscale version) is read from folder DIR, others "
              "are evaluated and stored there (eval-many: one entry per run file, so that only new "
              "or changed runs are evaluated)", ("--cache",), "DIR")
#: Run files evaluated at a time (:func:`irscale.evaluate_many`); by default 64 runs of
#: 10^5 lines take about 0.5 GB while judged.
BATCH_SIZE = Integers(1, strict=True)
DEFAULT_BATCH_SIZE = 64
BATCH = Param("batch_size", BATCH_SIZE, DEFAULT_BATCH_SIZE, "run files per batch: memory "
              "holds about one batch per worker", ("--batch-size",), "N")
