"""The command line's hand-written rules, each listed with why it is the command line's own.

A rule about a function's parameters is declared once, in the function's
:class:`~irscale.core.binding.Binding`, and the command line derives its rule from there
(:func:`irscale.cli.rules.binding_rules`, :func:`~irscale.cli.rules.choice_rules`): the API
and the command line refuse the same values and cannot disagree. What ``cli/`` still writes
by hand (a :class:`~irscale.cli.rules.Rule` not ``bound``) is a rule no function has: an
output only the command line writes or prints (a file, a format, rounding), which input
file it reads (an option that names a file instead of another), an option that chooses
which function is called (``--optimize``, ``--by``, ``--collection``) or that gives one
argument by several options or several arguments by one. Each is listed here, in
:data:`SHARED` (a rule several commands declare, by the module that declares it) or
:data:`OWN` (by command), with why; a new one fails :func:`test_no_new_hand_written_rule`:
declare the rule in its function's binding, or list it with why. A rule gone (moved into
a binding) is taken off the list.
"""

from __future__ import annotations

import argparse
from collections import Counter

from irscale.cli.rules import RULES, Rule

from .cli_parsers import irscale_parser, parsers

OUTPUT = "an output only the command line writes or prints"
INPUT = "which input the command reads"
CHOICE = "an option that chooses the function called"

#: Rules that several commands declare, by (module that declares them, options): why.
SHARED: dict[tuple[str, tuple[str, ...]], str] = {
    ("cli/options.py", ("digits",)): f"{OUTPUT}: --digits rounds printed text, which the "
    "full-precision formats are not",
    ("cli/inputs.py", ("topic_column",)): f"{INPUT}: --topic-column names a column of "
    "--scores files",
    ("cli/inputs.py", ("no_cdf",)): "--no-cdf modifies --standardise, the command line's "
    "preprocessing of the score files",
    ("cli/intervals.py", ("alpha",)): f"{OUTPUT}: --alpha is the level of --ci, the "
    "interval the command line adds to its table",
    ("cli/intervals.py", ("ci",)): f"{OUTPUT}: trec_eval's layout has no place for --ci's "
    "interval",
    ("cli/intervals.py", ("ci_samples", "ci_seed")): f"{CHOICE}: --ci bootstrap calls the "
    "bootstrap interval, whose resamples and seed these are",
    ("cli/compare_collections.py", ("weights", "max_memory")): f"{CHOICE}: --collection/"
    "--collections call the comparison across collections, whose options these are",
}

#: The other hand-written rules, by (command, options): why.
OWN: dict[tuple[str, tuple[str, ...]], str] = {
    # compare
    ("irscale compare", ("ci",)): f"{OUTPUT}: --ci's intervals in the table, where the "
    "test chosen has them",
    ("irscale compare", ("plot",)): f"{OUTPUT}: --plot draws Tukey's or Scheffé's groups "
    "of an ANOVA model (a rank model has no residuals)",
    ("irscale compare", ("relevance_level",)): f"{INPUT}: -l judges QRELS RUN...; "
    "--scores, --shard-scores and --collection hold scores",
    ("irscale compare", ("scheduler",)): "--scheduler is the executor the command line "
    "makes for a resampling test's resamples",
    ("irscale compare", ("scores", "standardise", "systems")): f"{INPUT}: --test "
    "document-sampling reads QRELS RUN RUN, not a score table",
    ("irscale compare", ("test",)): f"{INPUT}: --test bootstrap-anova reads its replicated "
    "scores from --shard-scores FILE",
    ("irscale compare", ("shard_scores",)): f"{INPUT}: --shard-scores FILE is the input of "
    "--test mixed and bootstrap-anova",
    # convert
    ("irscale convert", ("name",)): f"{OUTPUT}: --name is the run id written; qrels have "
    "none",
    # eval (its options are the engine's: see cli/eval_options.py)
    ("irscale eval", ("baseline",)): f"{OUTPUT}: the formats that print a baseline",
    ("irscale eval", ("fmt",)): f"{OUTPUT}: the formats of the context, of -Z and of the "
    "batches",
    ("irscale eval", ("batch_size", "scheduler", "workers", "per_topic_out")): f"{OUTPUT}: "
    "the batches print values, not -Z's z-scores",
    ("irscale eval", ("bounds",)): f"{OUTPUT}: --bounds prints a table of its own, of "
    "judged rankings",
    ("irscale eval", ("ci",)): f"{OUTPUT}: what the batches print",
    ("irscale eval", ("per_query",)): f"{OUTPUT}: what the batches print",
    ("irscale eval", ("no_summary",)): f"{OUTPUT}: what the batches print",
    ("irscale eval", ("labels",)): f"{OUTPUT}: what the batches print",
    ("irscale eval", ("risk_alpha",)): f"{OUTPUT}: what the batches print",
    ("irscale eval-seeds", ("shard_scores",)): f"{OUTPUT}: --shard-scores FILE writes one "
    "measure's values",
    # fuse
    ("irscale fuse", ("qrels", "measure", "step", "weights_out", "max_memory")): f"{CHOICE}: "
    "--optimize calls optimize_fusion instead of fuse",
    # labels
    ("irscale labels aggregate", ("confidence",)): f"{OUTPUT}: --confidence FILE, the "
    "probabilities that kos and mmsr do not give",
    ("irscale labels aggregate", ("workers_file",)): f"{OUTPUT}: --workers FILE, the worker "
    "quality that kos does not estimate",
    ("irscale labels aggregate", ("kernel_file",)): f"{OUTPUT}: --kernel FILE, gp's kernels",
    ("irscale labels pairwise", ("workers_file",)): f"{OUTPUT}: --workers FILE, noisybt's "
    "skills",
    ("irscale labels aware", ("digits",)): f"{OUTPUT}: --digits rounds the text format",
    ("irscale labels agree-qrels", ("measure", "relevance_level")): f"{INPUT}: the runs "
    "share one positional with the two qrels (the function's own rule, QRELS_AGREEMENT, on "
    "its runs=, stated by the count of the files)",
    ("irscale labels agree-qrels", ("names",)): f"{INPUT}: --names names the run files",
    # meta
    ("irscale meta correlate", ("samples",)): f"{CHOICE}: --by calls overall_correlation, "
    "topic_correlations or correlation_matrix; -B calls correlation_ci",
    ("irscale meta correlate", ("seed",)): f"{CHOICE}: --seed seeds -B's correlation_ci",
    ("irscale meta qpp", ("alpha",)): f"{CHOICE}: --tukey, --correlations and --compare each "
    "call a function of their own",
    ("irscale meta qpp", ("samples", "seed")): f"{CHOICE}: the bootstrap of qpp_correlations "
    "and qpp_compare, which --correlations and --compare call",
    ("irscale meta qpp", ("correlation",)): f"{CHOICE}: qpp_compare's, which --compare calls",
    ("irscale meta swap", ("bin_width",)): f"{OUTPUT}: --by-bin prints the rates per bin",
    ("irscale meta discriminative-power", ("pairs", "plot")): f"{CHOICE}: --seeds calls the "
    "spread across seeds; --pairs and --plot are one run's outputs",
    ("irscale meta gstudy", ("facet", "n_facet")): f"{INPUT}: --facet-scores FILE",
    ("irscale meta gstudy", ("inputs", "scores", "measures", "topic_column", "systems")):
    f"{INPUT}: the topics × systems scores or --facet-scores FILE",
    ("irscale meta gstudy", ("intent_probs",)): f"{INPUT}: QRELS RUN... or --facet-scores",
    ("irscale meta gstudy", ("intent_types",)): f"{INPUT}: QRELS RUN... or --facet-scores",
    ("irscale meta gstudy", ("names", "allow_empty")): f"{INPUT}: QRELS RUN... or "
    "--facet-scores",
    ("irscale meta gstudy", ("qrels_format",)): f"{INPUT}: QRELS RUN... or --facet-scores",
    ("irscale meta informativeness", ("ci",)): f"{OUTPUT}: --per-list prints every list's "
    "error, no mean for --ci's interval",
    ("irscale meta informativeness", ("relevance_level",)): f"{INPUT}: diversity qrels are "
    "read per intent (judged_intent_lists, which takes no level)",
    ("irscale meta judge-noise", ("intent_probs",)): f"{INPUT}: no measure of judge-noise "
    "reads intents",
    ("irscale meta judge-noise", ("intent_types",)): f"{INPUT}: no measure of judge-noise "
    "reads intents",
    ("irscale meta reproduce", ("depth", "p")): f"{INPUT}: ranking_agreement's, of the runs' "
    "orderings, which --scores files do not hold",
    ("irscale meta reproduce", ("seed",)): f"{CHOICE}: the bootstrap of --effect-samples",
    ("irscale meta scales", ("alpha",)): f"{OUTPUT}: --table chooses the table printed; "
    "tables 2 and 4 run no test",
    ("irscale meta scales", ("table_n",)): f"{OUTPUT}: --table-cutoff picks the printed "
    "table's cut-off among --cutoffs",
    ("irscale meta simulate", ("inputs", "scores", "measures", "topic_column")): f"{CHOICE}: "
    "--model normal reads no data",
    ("irscale meta simulate", ("intent_probs",)): f"{INPUT}: QRELS RUN... of --model runs",
    ("irscale meta simulate", ("intent_types",)): f"{INPUT}: QRELS RUN... of --model runs",
    ("irscale meta simulate", ("names", "allow_empty")): f"{INPUT}: QRELS RUN... of --model "
    "runs",
    ("irscale meta simulate", ("qrels_format",)): f"{INPUT}: the QRELS of --model bootstrap "
    "or copula",
    ("irscale meta simulate", ("samples",)): "-B is given to each resampling test among "
    "--test (simulation_study's options by test: no parameter of that name)",
    ("irscale meta simulate", ("scores", "topic_column")): f"{INPUT}: --model runs draws "
    "from QRELS",
    ("irscale meta split", ("alpha",)): f"{OUTPUT}: --metric tau prints no test decision",
    ("irscale meta split", ("models", "cross")): f"{INPUT}: a shard model reads "
    "--shard-scores FILE (split_study's shards=)",
    ("irscale meta split", ("samples",)): "-B is given to each resampling procedure among "
    "--models and --cross (split_study's options by procedure)",
    # online
    ("irscale online ab analyze", ("analysis", "missing")): f"{CHOICE}: --oec calls its own "
    "delta-method test",
    ("irscale online ab analyze", ("oec",)): f"{CHOICE}: --oec or --metric",
    ("irscale online ab measures", ("splits",)): f"{INPUT}: --salt and --splits hash the "
    "users into variants (assign); --variants FILE gives them",
    ("irscale online simulate-clicks", ("gamma",)): "--params FILE gives a fitted user "
    "model; -l and --gamma build one from the qrels",
    ("irscale online simulate-clicks", ("relevance_level",)): "--params FILE gives a fitted "
    "user model; -l and --gamma build one from the qrels",
    ("irscale online score", ("names",)): f"{INPUT}: --names names the run files of --runs",
    # pool
    ("irscale pool build", ("qrels",)): f"{OUTPUT}: the pool file holds no judgments: "
    "--qrels replays those of the adaptive strategies",
    ("irscale pool shards", ("tukey",)): f"{OUTPUT}: --tukey's second table, which the "
    "full-precision formats cannot hold",
    ("irscale pool simulate", ("contributor_pattern",)): "--contributors FILE and "
    "--contributor-pattern give one argument (contributors=): not both",
    # report
    ("irscale report", ("samples",)): "-B gives two sections' resamples (dp_samples, "
    "collection_samples)",
    ("irscale report", ("title",)): f"{OUTPUT}: the HTML page's title",
    # scale
    ("irscale scale transform", ("per_query", "summary_only", "no_summary")): f"{OUTPUT}: "
    "--ci prints the means with their intervals",
    ("irscale scale transform", ("summary_only",)): f"{OUTPUT}: what is printed",
    # text
    ("irscale text bleu", ("per_query",)): f"{OUTPUT}: --corpus values have no topics",
    ("irscale text bleu", ("no_summary",)): f"{OUTPUT}: --corpus values are the summary",
    ("irscale text nuggets", ("threshold",)): f"{CHOICE}: --auto-match calls the matcher, "
    "whose options these are",
    ("irscale text nuggets", ("stem",)): f"{CHOICE}: --auto-match calls the matcher",
    ("irscale text nuggets", ("stopwords",)): f"{CHOICE}: --auto-match calls the matcher",
}


def _module(rule: Rule) -> str:
    """The module (``cli/options.py``) that declares ``rule``: its condition's."""
    code = getattr(rule.holds, "__code__", None)
    return "" if code is None else code.co_filename.replace("\\", "/").split("irscale/")[-1]


def _hand_written() -> Counter[tuple[str, str, tuple[str, ...]]]:
    """Every hand-written rule of every command, as (command, module, options)."""
    found: Counter[tuple[str, str, tuple[str, ...]]] = Counter()
    for command, parser in parsers(irscale_parser()):
        assert isinstance(parser, argparse.ArgumentParser)
        for rule in parser.get_default(RULES) or ():
            if isinstance(rule, Rule) and not rule.bound:
                found[(command, _module(rule), rule.dests)] += 1
    return found


def test_no_new_hand_written_rule():
    """Every hand-written rule of the command line is listed, with why it is not a rule
    of a function's binding."""
    new = sorted({(command, dests) for command, module, dests in _hand_written()
                  if (module, dests) not in SHARED and (command, dests) not in OWN})
    assert not new, f"hand-written command-line rules not listed: {new}: declare the rule " \
        "in the function's Binding (irscale.core.binding: Needs, Excludes, Narrows ...), " \
        "from which the command line derives it, or list it in tests/test_cli_rules.py " \
        "with why it is the command line's own"


def test_listed_rules_exist():
    """A rule taken off the command line (moved into a binding) is taken off the list."""
    found = _hand_written()
    shared = {(module, dests) for _, module, dests in found}
    own = {(command, dests) for command, _, dests in found}
    assert not sorted(set(SHARED) - shared), "listed shared rules that are gone"
    assert not sorted(set(OWN) - own), "listed rules that are gone"


def test_every_listed_rule_says_why():
    assert all(reason.strip() for reason in (*SHARED.values(), *OWN.values()))
