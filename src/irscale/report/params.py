"""The parameters of the report (:func:`irscale.report.build_report`) that the command line
builds its options from (:func:`irscale.cli.options.add_param`), declared once, and the
report's binding (:data:`REPORT`: their domains and when each applies, checked on entry by
the function and applied by ``irscale report``). Loads nothing numerical (the package's
``__init__`` is lazy)."""

from __future__ import annotations

from ..collections.params import (
    AUTO_DESIGN,
    AUTO_DRAWS,
    AUTO_PROBABILITIES,
    NOISE_REPLICATES,
)
from ..core.binding import Binding, Either
from ..core.params import (
    MEAN_INTERVAL,
    NO_WORK,
    RELEVANCE,
    SAMPLES,
    SEED,
    SIGNIFICANCE,
    Cost,
    InputFiles,
    Needs,
    Param,
    Switch,
    Text,
)
from ..evaluation.params import COLLECTION
from ..scales.params import LENGTH
from ..stats.names import MULTIPLE_CORRECTION, WEIGHTS
from ..stats.params import PAIRWISE_TEST

#: The run length of the report's robustness panel (Ferrante, Ferro & Fuhr 2021: measures
#: without a cut-off are scaled on runs of N documents).
SCALE_DEPTH = Param("scale_depth", LENGTH, 10, "run length N of the robustness panel for "
                    "measures without a cut-off", ("--scale-depth",), "N",
                    cost=Cost("ranks", "exponential", "a factor of 2 to the rankings of the "
                              "scale"))
#: The run the others are compared with (:func:`irscale.report.build_report`'s ``baseline``).
BASELINE = Param("baseline", Text(), None, "mark runs significantly better/worse than this "
                 "one and count the topics they win, tie and lose against it (its name, or "
                 "its file's path, name or stem)", ("--baseline",), "RUN")
#: The panels added: discriminative power, the bounds under the unjudged documents.
DP = Param("dp", Switch(), False, "add discriminative power (paired bootstrap and randomised "
           "Tukey HSD)", ("--dp",))
BOUNDS = Param("bounds", Switch(), False, "add each mean's bounds under the unjudged "
               "documents the runs retrieve and the pairs of runs the judgments do not order",
               ("--bounds",))
#: Automatic judgments of every topic (``automatic``: their file).
AUTOMATIC = Param("automatic", InputFiles(), None, "automatic judgments of every topic: QRELS are "
                  "then the human judgments of a sample (--design), and the report gets a "
                  "section on the automatic judgments (agreement, corrected means, "
                  "conclusions that change)", ("--automatic",), "AUTO_QRELS")
#: The title of the HTML page (:func:`irscale.report.render_html`).
TITLE = Param("title", Text(), "irscale experiment report", "title of the HTML page",
              ("--title",), "TITLE")
#: The seed of every section of the report that draws (``--seed``).
SEED_OF_DRAWS = Param("seed", SEED, 0, "seed of --dp, of --collection's bootstrap, of the draws "
                      "of --label-probabilities and of the judge-noise replicates (the report "
                      "is reproducible)", ("--seed",), "S", cost=NO_WORK)
#: The parameters of :func:`irscale.report.build_report` that the command line gives its own
#: way (declared for the binding's rules): the panel ``--no-robustness`` leaves out, the
#: collections (``--collection`` or ``--collections FILE``), the judges' confusion (read from
#: ``--confusion``, ``--flip-rate``, ``--double-judged`` or ``--auto-sample``), the resamples
#: of discriminative power and of the collections' bootstrap (both ``--samples``), the
#: weights of the collections (``--weights``) and the bootstrap of the intervals of the
#: means (``--ci-samples``, ``--ci-seed``).
ROBUSTNESS = Param("robustness", Switch(), True, "the robustness panel", ("--no-robustness",))
COLLECTIONS = Param("collections", COLLECTION.domain, None, COLLECTION.doc,
                    ("--collection", "--collections"))
CONFUSION = Param("confusion", Text(), None, "the judges' confusion",
                  ("--confusion", "--flip-rate", "--double-judged", "--auto-sample"))
DP_SAMPLES = Param("dp_samples", SAMPLES, 1000, "resamples of discriminative power",
                   ("-B", "--samples"))
COLLECTION_SAMPLES = Param("collection_samples", SAMPLES, 1000, "resamples of the bootstrap "
                           "of the collections", ("-B", "--samples"))
COLLECTION_WEIGHTS = Param("collection_weights", WEIGHTS.domain, WEIGHTS.default, WEIGHTS.doc,
                           WEIGHTS.flags)
INTERVAL_SAMPLES = Param("interval_samples", SAMPLES, 10_000, "bootstrap samples of the "
                         "intervals of the means", ("--ci-samples",))
INTERVAL_RNG = Param("interval_rng", SEED, None, "seed of the bootstrap of the intervals of "
                     "the means", ("--ci-seed",), cost=NO_WORK)
#: :func:`irscale.report.build_report` (``irscale report``): the domains of the options, and
#: the sections each applies to: the test and the correction to the comparison with a
#: baseline; the resamples and the seed of the intervals to their bootstrap; the resamples
#: of discriminative power to it, those and the weights of the collections to their
#: comparison; the seed to every section that draws; the replicates to judge noise; the run
#: length of the robustness panel to it; the design and the label probabilities to the
#: automatic judgments, the draws to label probabilities with the topic design.
REPORT = Binding(
    (RELEVANCE, BASELINE, SIGNIFICANCE, MEAN_INTERVAL, DP, SEED_OF_DRAWS, SCALE_DEPTH,
     AUTO_DESIGN, AUTO_PROBABILITIES, AUTO_DRAWS, BOUNDS, NOISE_REPLICATES),
    rules=(Needs((PAIRWISE_TEST, MULTIPLE_CORRECTION), "the comparison with a baseline",
                 on=BASELINE),
           Needs((INTERVAL_SAMPLES, INTERVAL_RNG), on=MEAN_INTERVAL, values=("bootstrap",)),
           Needs((DP_SAMPLES,), "discriminative power", on=DP),
           Needs((COLLECTION_SAMPLES, COLLECTION_WEIGHTS), "the comparison across "
                 "collections", on=COLLECTIONS),
           Either((SEED_OF_DRAWS,),
                  ((Needs((), on=DP),), (Needs((), on=COLLECTIONS),),
                   (Needs((), on=AUTO_PROBABILITIES), Needs((), on=AUTO_DESIGN,
                                                             values=("topics",))),
                   (Needs((), on=CONFUSION),)),
                  "the sections that draw"),
           Needs((NOISE_REPLICATES,), "judge noise", on=CONFUSION),
           Needs((SCALE_DEPTH,), "the robustness panel", on=ROBUSTNESS, values=(True,)),
           Needs((AUTO_DESIGN, AUTO_PROBABILITIES), "automatic judgments", on=AUTOMATIC),
           Needs((AUTO_DRAWS,), on=AUTO_PROBABILITIES),
           Needs((AUTO_DRAWS,), on=AUTO_DESIGN, values=("topics",))),
    takes=(PAIRWISE_TEST, MULTIPLE_CORRECTION))
