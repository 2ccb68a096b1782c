"""The arguments many subcommands share and no Python function takes, declared once
(:class:`~irscale.core.params.Param`; built by :func:`irscale.cli.options.add_param`)."""

from __future__ import annotations

from ..core.extras import DASK, IRDS_INPUT, RUN_INPUTS, Requires
from ..core.params import ALLOW_EMPTY as ALLOW_EMPTY
from ..core.params import QRELS_OPTION as QRELS_OPTION
from ..core.params import InputFiles, Names, OutputPath, Param, Switch, Text

#: ``--labels NAME=FILE``: declared with the evaluation's bindings, whose rules name it.
from ..evaluation.params import LABEL_FILES as LABEL_FILES
from ..io.formats import FORMATS

#: The ``--format`` of every command: one of the subset of :data:`irscale.io.formats.FORMATS`
#: its results write.
FORMAT = Param("fmt", Names("format", FORMATS), "text", "output format", ("--format",))
OUTPUT = Param("output", OutputPath(), "-", "write the output to FILE; an existing file is never "
               "replaced without --force", ("-o", "--output"), "FILE",
               unset="standard output")
FORCE = Param("force", Switch(), False, "replace output files that exist already (inputs "
              "never are)", ("--force",))
NO_PROGRESS = Param("no_progress", Switch(), False, "no estimate and no progress on standard "
                    "error (default: for long work, a bar on a terminal, else a plain line "
                    "every 30 s and 10%)", ("--no-progress",))
SCHEDULER = Param("scheduler", Text(), None, "run {what} on a Dask cluster: tcp://HOST:PORT (a "
                  "running scheduler) or local:N (N worker processes on this machine); needs "
                  "the irscale[dask] extra; same results", ("--scheduler",), "ADDRESS",
                  unset="threads of this process",
                  requires=(Requires(DASK, when=lambda value: value != "local"),))

# ------------------------------------------------------------------ inputs
INPUTS = Param("inputs", InputFiles(), None, "qrels file then run files, evaluated with -m MEASURE",
               ("inputs",), "QRELS RUN", requires=RUN_INPUTS)
SCORES = Param("scores", InputFiles(), [], "score-matrix CSV: one column per system, one row per "
               "topic, the measure named after the file (repeatable: one file per measure)",
               ("--scores",), "FILE")
TOPIC_COLUMN = Param("topic_column", Text(), None, "column of the --scores CSVs holding the "
                     "topic ids", ("--topic-column",), "COL", unset="row order")
MEASURES = Param("measure", Text(), None, "measure (repeatable)", ("-m", "--measure"),
                 "MEASURE", dest="measures")
SYSTEMS = Param("systems", Text(), None, "comma-separated systems to keep",
                ("--systems",), "A,B,...", unset="all", label="--systems")
NAMES = Param("names", Text(), None, "how to name the runs: file (default: the file name "
              "without extension, e.g. bm25.run.gz -> bm25; where two runs share it, the "
              "shortest end of their paths that tells them apart, e.g. bm25/run, splade/run, "
              "with a warning), runid (the run id of each file; the runs that share one named "
              "by their files), or one name per run in order: a,b,c", ("--names",),
              "file|runid|A,B,...", label="--names")
STANDARDISE = Param("standardise", Switch(), False, "analyse standardised scores (Webber, "
                    "Moffat & Zobel 2008): per topic, (score - mean) / sample standard "
                    "deviation over every system given (before --systems), mapped to [0, 1] "
                    "by the normal CDF; a topic where every system scores the same gives 0.5",
                    ("--standardise",))
NO_CDF = Param("no_cdf", Switch(), False, "with --standardise: the z-scores themselves, not "
               "their normal CDF (a topic where every system scores the same gives 0)",
               ("--no-cdf",))
INTENT_PROBS = Param("intent_probs", InputFiles(), None, "diversity: intent probabilities 'topic "
                     "subtopic probability' (NTCIR Iprob) for NTCIREVAL's measures",
                     ("--intent-probs",), "FILE",
                     unset="uniform over each topic's intents with a relevant document")
INTENT_TYPES = Param("intent_types", InputFiles(), None, "diversity: intent types 'topic subtopic "
                     "inf|nav' for DIN-nDCG, P+Q and EP", ("--intent-types",), "FILE",
                     unset="every intent informational")


# ------------------------------------------------------------------ outputs
PER_QUERY = Param("per_query", Switch(), False, "also print the value of every topic",
                  ("-q", "--per-query"))
NO_SUMMARY = Param("no_summary", Switch(), False, "do not print the summary (all) lines",
                   ("-n", "--no-summary"))
QRELS = Param("qrels", InputFiles(), None, "qrels file: qid iter docno rel", ("qrels",),
              requires=(IRDS_INPUT,))
RUNS = Param("runs", InputFiles(), None, "run file(s): qid Q0 docno rank score runid", ("runs",),
             requires=RUN_INPUTS)
RUNS_OPTION = Param("runs", InputFiles(), None, "run files", ("--runs",), "RUN",
                    requires=RUN_INPUTS)
PLOT = Param("plot", OutputPath("plot"), None, "write the plot to FILE", ("--plot",), "FILE",
             unset="no plot")

