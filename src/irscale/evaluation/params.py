"""The runners' own parameters that the command line builds its options from
(:func:`irscale.cli.options.add_param`): the batches, the results cache and the per-topic
folder of :func:`irscale.evaluate_many`, the collections of a suite
(:mod:`irscale.evaluation.suite`). Loads nothing numerical."""

from __future__ import annotations

from ..core.extras import PYARROW, Requires
from ..core.params import NO_WORK, Cost, InputFiles, Integers, OutputPath, Param

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
              "holds about one batch per worker", ("--batch-size",), "N",
              cost=NO_WORK)

#: What a collection of a suite costs (:func:`irscale.evaluation.suite.evaluate_collections`,
#: then :func:`irscale.stats.across_collections.across_collections`): the work grows with
#: the collections, as many as the input names.
COLLECTION_COST = Cost("collections", per="a collection's qrels and runs read and evaluated, "
                       "its block of the mixed model")
#: ``--collection NAME=QRELS,RUNS`` (repeatable): a collection, its qrels and its runs.
COLLECTION = Param("collections", InputFiles(named=True, lists=True), None, "a collection: "
                   "its name, its qrels file, then its runs (comma-separated run files, a "
                   "folder or a glob pattern, quoted); repeatable, 2 at least, every "
                   "collection with runs of the same systems (matched by run name): "
                   "compares the systems across the collections instead",
                   ("--collection",), "NAME=QRELS,RUNS", cost=COLLECTION_COST)
#: ``--collections FILE``: the manifest of the collections (:mod:`irscale.io.manifest`),
#: instead of ``--collection``; its rows are the work.
COLLECTIONS = Param("collections_file", InputFiles(), None, "a manifest of the "
                    "collections instead of --collection: a tab-separated file with the "
                    "header collection, qrels, run and one line per collection and run "
                    "(paths relative to its folder; # comments)", ("--collections",), "FILE",
                    cost=COLLECTION_COST)
