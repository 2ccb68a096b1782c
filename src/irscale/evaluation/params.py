"""The runners' own parameters that the command line builds its options from
(:func:`irscale.cli.options.add_param`): the batches, the results cache and the per-topic
folder of :func:`irscale.evaluate_many`, the collections of a suite
(:mod:`irscale.evaluation.suite`); and the sizes of the synthetic collection the runners
are shown on (:mod:`irscale.datasets`, of this layer). Loads nothing numerical, nor the
binding's mechanism (:mod:`irscale.core.binding`), which ``irscale eval``, whose options
are read here, does without: the functions' modules make their bindings of these
parameters."""

from __future__ import annotations

from ..core.extras import PYARROW, Requires
from ..core.params import (
    DEMO_TOPIC_COUNT,
    MAX_TOPICS,
    NO_WORK,
    Cost,
    InputFiles,
    Integers,
    OutputPath,
    Param,
)

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

# --------------------------------------------------------------------------- datasets
#: Most judged documents per topic of :func:`irscale.datasets.synthetic_collection`.
MAX_POOL = 1_000
#: The topics of :func:`irscale.datasets.synthetic_collection`: one at least (``irscale
#: demo``'s ``--topics`` asks for two, its ANOVA's: :data:`~irscale.core.params.
#: DEMO_TOPIC_COUNT`).
SYNTHETIC_TOPICS = Param("n_topics", Integers(1, MAX_TOPICS, strict=True), 50,
                         "topics of the synthetic collection", (), "TOPICS",
                         label="number of topics (--topics, n_topics)",
                         cost=DEMO_TOPIC_COUNT.cost)
#: The judged documents of each topic of the synthetic collection.
SYNTHETIC_POOL = Param("pool_size", Integers(1, MAX_POOL, strict=True), 200,
                       "judged documents per topic", (), "N",
                       cost=Cost("documents", per="a judged document of every topic"))
#: The documents each run of the synthetic collection retrieves per topic: drawn from the
#: pool and half as many unjudged ones (at most ``pool_size + pool_size // 2``).
SYNTHETIC_DEPTH = Param("depth", Integers(1, MAX_POOL + MAX_POOL // 2, strict=True), 100,
                        "documents each run retrieves per topic", (), "K",
                        cost=Cost("ranks", per="a rank of every run on every topic"))
