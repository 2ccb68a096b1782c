"""The runners' own parameters that the command line builds its options from
(:func:`irscale.cli.options.add_param`): the batches, the results cache and the per-topic
folder of :func:`irscale.evaluate_many`, the collections of a suite
(:mod:`irscale.evaluation.suite`); and the sizes of the synthetic collection the runners
are shown on (:mod:`irscale.datasets`, of this layer); and the bindings of the evaluations
the command line calls (:data:`EVALUATE`, :data:`EVALUATE_MANY`, :data:`EVALUATE_SEEDS`,
:data:`SEED_TABLE`): trec_eval's options, ``-Z``, ``-R`` and the label sets, declared once
with the rules that refuse them, which :func:`irscale.evaluate` checks on entry and
``irscale eval`` builds its options' rules from. Loads nothing numerical (the binding's
mechanism, :mod:`irscale.core.binding`, is light): the command line reads the bindings
here, before numpy is imported; the functions' modules apply them. The bindings are made on
first use (:func:`__getattr__`, PEP 562): the parsers of the command line are built from
the parameters alone, and a command line that is only asked for ``--help`` never loads
:mod:`irscale.core.binding` (``irscale eval`` checks its binding's rules when it runs:
:func:`irscale.cli.options.add_command`, a binding named by its module and name)."""

from __future__ import annotations

from ..core.extras import PYARROW, Requires
from ..core.params import (
    DEMO_TOPIC_COUNT,
    MAX_TOPICS,
    MEAN_INTERVAL,
    MEAN_SAMPLES,
    MEAN_SEED,
    NO_WORK,
    RELEVANCE,
    SIGNIFICANCE,
    Cost,
    InputFiles,
    Integers,
    Needs,
    OutputPath,
    Param,
    Switch,
    Text,
)
from ..core.trec_options import (
    COLLECTION_SIZE,
    COMPAT,
    COMPLETE,
    JUDGED_ONLY,
    MAX_RETRIEVED,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from ..core.binding import Binding, Excludes

    #: -Z's rules: trec_eval 9.0.8's z-scores of its measures (not 10.0's, no label sets).
    ZSCORES_RULES: tuple[Excludes, ...]
    #: :func:`irscale.evaluate` (and ``irscale eval``): trec_eval's options, ``-Z``, ``-R``,
    #: the results cache and a dataset's conventions (for judgments), checked on entry.
    EVALUATE: Binding
    #: :func:`irscale.evaluate_many` (and ``irscale eval-many``): its batches, trec_eval's
    #: options and the results cache, checked on entry.
    EVALUATE_MANY: Binding
    #: :func:`irscale.stats.seeds.evaluate_seeds` (``irscale eval-seeds``): trec_eval's
    #: options but ``-c``, which a seed evaluation always applies.
    EVALUATE_SEEDS: Binding
    #: The table of a seed evaluation (:meth:`irscale.stats.seeds.SeedEvaluation.format`).
    SEED_TABLE: Binding

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

# --------------------------------------------------------------------------- evaluate
#: The forms of qrels (trec_eval's ``-R``).
RELEVANCE_FORMATS = ("qrels", "qrels_jg", "prefs", "qrels_prefs")
RELEVANCE_FORMAT = Param("relevance_format", Text(), "qrels", "the form of QRELS (trec_eval "
                         "-R): qrels; multi-judge qrels 'qid jg docno rel' (qrels_jg), evaluated "
                         "by the measures averaged over judgment groups (-m qrels_jg, "
                         "map_avgjg ...); or preference judgments 'qid jg jsg docno level' "
                         "(prefs) or a qrels file read as preferences (qrels_prefs), "
                         "evaluated by the preference measures (-m all_prefs, -m prefs ...)",
                         ("-R", "--relevance-format"))
#: trec_eval's ``-Z``: the Z file whose means and deviations standardise every value.
ZSCORES = Param("zscores", InputFiles(), None, "print z-scores instead of the values, as trec_eval "
                "-Z: FILE holds lines 'qid measure_name mean std_dev' from a reference set of "
                "runs (irscale eval-many --write-zscores writes one); a value with no line is "
                "printed -1000000", ("-Z", "--Zscore"), "FILE")
#: ``--labels NAME=FILE`` (repeatable; ``eval``, ``session``): a label set and its file
#: (the functions' ``labels=``, a mapping {name: file}: :func:`irscale.cli.runargs.label_files`).
LABEL_FILES = Param("labels", InputFiles(named=True), [], "a label set and its file",
                    ("--labels",), "NAME=FILE")
#: ``--dataset``: a dataset's conventions (:mod:`irscale.evaluation.conventions`), for
#: judgments only.
DATASET = Param("dataset", Text(), None, "apply the evaluation conventions of a dataset: its "
                "official measures where -m is not given, its relevance level where -l is "
                "not: a collection of irscale's table (trec-dl-2019-passage, trec-robust-2004 "
                "...) or an ir_datasets id", ("--dataset",), "NAME",
                unset="those of QRELS irds:ID, else none")
#: trec_eval's options whose values a domain checks, and its switches: the parameters
#: every evaluation of TREC files takes (``-c`` aside, which :data:`EVALUATE_SEEDS` fixes).
TREC_EVAL_BOUND = (RELEVANCE, MAX_RETRIEVED, COLLECTION_SIZE, JUDGED_ONLY)
#: ``--runs``: every run's mean instead of the systems' table.
EVERY_RUN = Param("runs", Switch(), False, "print every run's mean instead of the systems' "
                  "table", ("--runs",))
#: ``--pairs``: with ``--ci``, every pair of systems' difference of means.
PAIRS = Param("pairs", Switch(), False, "with --ci: print every pair of systems' difference "
              "of means with its interval over topics and both systems' runs instead",
              ("--pairs",))

#: The bindings :func:`__getattr__` makes on first use.
_BINDINGS = ("ZSCORES_RULES", "EVALUATE", "EVALUATE_MANY", "EVALUATE_SEEDS", "SEED_TABLE")


def __getattr__(name: str) -> Any:
    """The bindings (:data:`_BINDINGS`), made on first use and kept in the module: each
    a :class:`~irscale.core.binding.Binding` of the parameters above, made once."""
    if name not in _BINDINGS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    made = _bindings()
    globals().update(made)
    return made[name]


def _bindings() -> dict[str, Any]:
    """The bindings of the evaluations the command line calls, by name."""
    from ..core.binding import Binding, Either, Excludes

    # -Z reproduces trec_eval 9.0.8's z-scores of its measures: not the 10.0 profile, not
    # the measures that read label sets
    ZSCORES_RULES = (
        Excludes((ZSCORES,), on=COMPAT, values=(10,), why="the z-scores are trec_eval "
                 "9.0.8's"),
        Excludes((ZSCORES,), on=LABEL_FILES, why="the z-scores are those of trec_eval's "
                 "measures, which read no label set"),
    )
    # irscale.evaluate (and irscale eval): trec_eval's options, -Z, -R, the results cache
    # and a dataset's conventions (for judgments: a dataset's conventions are for its
    # qrels), checked on entry
    EVALUATE = Binding((*TREC_EVAL_BOUND, COMPLETE, ZSCORES, RELEVANCE_FORMAT, CACHE,
                        DATASET),
                       rules=(*ZSCORES_RULES, Needs((DATASET,), "judgments",
                                                    on=RELEVANCE_FORMAT, values=("qrels",))))
    # irscale.evaluate_many (and irscale eval-many): its batches, trec_eval's options and
    # the results cache, checked on entry
    EVALUATE_MANY = Binding((BATCH, *TREC_EVAL_BOUND, COMPLETE, CACHE))
    # irscale.stats.seeds.evaluate_seeds (irscale eval-seeds): trec_eval's options but -c,
    # which a seed evaluation always applies
    EVALUATE_SEEDS = Binding(TREC_EVAL_BOUND)
    # the table of a seed evaluation (irscale.stats.seeds.SeedEvaluation.format): every
    # run's mean (runs) has no interval (those are the systems'), the differences (pairs)
    # are printed with their intervals, alpha is the intervals' level and samples and rng
    # the bootstrap's
    SEED_TABLE = Binding(
        (MEAN_INTERVAL, SIGNIFICANCE, MEAN_SAMPLES, EVERY_RUN, PAIRS), takes=(MEAN_SEED,),
        rules=(Excludes((MEAN_INTERVAL, PAIRS), on=EVERY_RUN, why="the intervals are the "
                        "systems'"),
               Needs((PAIRS, SIGNIFICANCE), on=MEAN_INTERVAL, what="the intervals"),
               Either((MEAN_SAMPLES, MEAN_SEED), ((Needs((), on=MEAN_INTERVAL,
                                                         values=("bootstrap",)),),),
                      "the bootstrap intervals")))
    return {name: value for name, value in locals().items() if name in _BINDINGS}


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
