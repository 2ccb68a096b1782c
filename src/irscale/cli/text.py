"""``irscale text rouge|bleu|nuggets|pyramid|citations``: evaluate textual outputs, printed as
``irscale eval`` prints its values (usage: ``docs/cli.md``, ``docs/text.md``)."""

from __future__ import annotations

import argparse

from ..core.params import PPI_TUNING, SIGNIFICANCE, Param
from ..core.records import replace
from ..errors import ParameterError
from ..text.params import (
    ASSIGNMENT_SAMPLE,
    ASSIGNMENTS,
    AUTO_MATCH,
    BLEU_CHOICE,
    BLEU_INTL,
    CITATION_DESIGN,
    CITATION_JUDGMENTS,
    CITATION_SAMPLE,
    CITATIONS,
    CORPUS,
    EVALUATE_ROUGE,
    HUMAN_DESIGN,
    HUMAN_SAMPLE,
    MAX_CITATIONS,
    NUGGET_INPUTS,
    OUTPUT_LENGTHS,
    OUTPUT_TEXTS,
    POURPRE,
    PYRAMID,
    ROUGE_MULTI,
    STEM,
    STOPWORDS,
    THRESHOLD,
)
from .common_params import MEASURES, QRELS, RUNS
from .eval import add_evaluation_output, add_values_options, write_evaluation
from .options import Argument, add_actions, add_command, add_param
from .outputs import Done
from .rules import Rule, each

#: ``text bleu -m``: a measure of the international tokeniser needs the regex package.
BLEU_MEASURES = replace(MEASURES, requires=(BLEU_INTL,))


def _common(parser: argparse.ArgumentParser) -> None:
    """The output options every ``irscale text`` command shares with ``irscale eval``."""
    add_values_options(parser)
    add_evaluation_output(parser, "topic", "none of whose topics is in the gold standard")


def _inputs(gold: str, gold_doc: str, outputs: str, outputs_doc: str, measures_doc: str,
            nargs: str = "+", measures: Param = MEASURES) -> tuple[Argument, ...]:
    """The gold standard (``QRELS``'s place), the outputs evaluated (``RUNS``') and ``-m``
    (``measures``) of a ``text`` command."""
    return ((QRELS, {"metavar": gold, "doc": gold_doc}),
            (RUNS, {"nargs": nargs, "metavar": outputs, "doc": outputs_doc}),
            (measures, {"action": "append", "metavar": "MEASURE", "doc": measures_doc}))


#: ``references candidates...``: the texts of ROUGE and BLEU.
_TEXTS = ("references", "reference texts: topic<TAB>ref_id<TAB>text", "candidates",
          "candidate texts: topic<TAB>run<TAB>text (a file may hold several runs)")
def _outputs(parser: argparse.ArgumentParser) -> None:
    """``--lengths FILE`` or ``--texts FILE``: the outputs of ``text nuggets`` (none with
    ``--assignments``, whose records judge the outputs: the binding's rule)."""
    outputs = parser.add_mutually_exclusive_group()
    add_param(outputs, OUTPUT_LENGTHS)
    add_param(outputs, OUTPUT_TEXTS)


def add_parser(subparsers) -> None:
    """Register ``irscale text`` (rouge, bleu, nuggets, pyramid, citations)."""
    commands = add_actions(
        subparsers, "text", what="what to evaluate", metavar="MEASURES",
        description="Evaluate textual outputs (summaries, answers) per topic. See "
        "docs/text.md.")
    add_command(
        commands, "rouge", run_rouge,
        *_inputs(*_TEXTS, "ROUGE measure (repeatable): ROUGE-1, 'ROUGE-2(stat=r)', ROUGE-L, "
                 "ROUGE-SU4, 'ROUGE-S(skip=inf,beta=2)' (default: ROUGE-1, ROUGE-2, "
                 "ROUGE-L; F1)"),
        STEM, STOPWORDS, ROUGE_MULTI, _common,
        example="refs.tsv cands.tsv",
        help="ROUGE-N, ROUGE-L, ROUGE-S, ROUGE-SU against reference texts",
        description="ROUGE of candidate texts against reference texts, tokens as "
        "rouge-score makes them. See docs/text.md.", binding=EVALUATE_ROUGE)
    add_command(
        commands, "bleu", run_bleu,
        *_inputs(*_TEXTS, "BLEU measure (repeatable): BLEU, 'BLEU(smooth=floor,value=0.1)', "
                 "'BLEU(tokenize=intl,lowercase=1)', 'BLEU(order=2)' (default: BLEU; with "
                 "--corpus: 'BLEU(effective=0)')", measures=BLEU_MEASURES),
        CORPUS, _common,
        rules=(Rule(("per_query",), lambda args: not args.corpus, "{options} does not apply "
                    "with --corpus: a corpus value has no per-topic values",
                    {"per_query": "-q/--per-query"}),
               Rule(("no_summary",), lambda args: not args.corpus, "{options} does not "
                    "apply with --corpus: the corpus values are the summary lines",
                    {"no_summary": "-n/--no-summary"})), binding=BLEU_CHOICE,
        example="refs.tsv cands.tsv",
        help="BLEU (sacrebleu's) against reference texts: per text or per corpus",
        description="Sentence BLEU of candidate texts against the topic's reference texts "
        "as sacrebleu computes it, or each run's corpus BLEU. See docs/text.md.")
    add_command(
        commands, "nuggets", run_nuggets,
        (QRELS, {"metavar": "nuggets", "nargs": "?", "doc": "nuggets: topic nugget_id "
                 "weight vital|okay [vital_string] (none with --assignments)"}),
        (RUNS, {"nargs": "*", "metavar": "matches", "doc": "nugget matches: topic run "
                "nugget_id offset (none with --auto-match or --assignments)"}),
        (MEASURES, {"action": "append", "metavar": "MEASURE", "doc": "nugget measure "
                    "(repeatable): W-Rec, Prec_allow, 'F_QA(beta=3)', 'S(L=1000)', T, "
                    "'Ssharp(L=1000,beta=1)' (default: these six); with --assignments: A, V, "
                    "W, A_strict, V_strict, W_strict (default: all six)"}),
        _outputs, AUTO_MATCH, (ASSIGNMENTS, {"nargs": "+"}), (HUMAN_SAMPLE, {"nargs": "+"}),
        (HUMAN_DESIGN, {"choices": HUMAN_DESIGN.domain.names}),
        (SIGNIFICANCE, {"doc": "--human-sample: 1 - the level of the intervals"}),
        (PPI_TUNING, {"choices": PPI_TUNING.domain.names,
                      "doc": "--human-sample: " + PPI_TUNING.doc}),
        (THRESHOLD, {"doc": "--auto-match: least share of a nugget's distinct terms the "
                     "output must contain"}),
        (STEM, {"doc": "--auto-match: Porter-stem words as ROUGE does (needs nltk)"}),
        (STOPWORDS, {"doc": "--auto-match: " + STOPWORDS.doc}), _common,
        rules=(_matches, *each(("threshold", "stem", "stopwords"), lambda args: args.auto_match,
                               "{options} applies to --auto-match",
                               {"threshold": "--threshold", "stem": "--stem",
                                "stopwords": "--stopwords"})),
        example="nug.txt --texts auto.tsv --auto-match",
        help="nugget recall/precision/F (TREC QA), S, T, S# (one click access) and the "
        "TREC RAG track's All, Vital, Weighted (--assignments)",
        description="Nugget and iUnit measures of outputs (--lengths or --texts) from their "
        "matched nuggets (match files, or --auto-match); or the scores of nugget "
        "assignment records (--assignments), a model's corrected on a human sample "
        "(--human-sample: prediction-powered intervals). See docs/text.md.",
        binding=(POURPRE, NUGGET_INPUTS, ASSIGNMENT_SAMPLE))
    add_command(
        commands, "pyramid", run_pyramid,
        *_inputs("pyramid", "SCUs: topic<TAB>scu_id<TAB>contributors (ref ids, comma-"
                 "separated) | weight | -", "peers", "peer SCUs: topic<TAB>peer<TAB>scu_id|- "
                 "(a file may hold several peers)", "pyramid (original score) or "
                 "pyramid_modified (normalised by the average reference's SCU count) "
                 "(repeatable; default: both)"),
        _common, binding=PYRAMID,
        example="pyr.tsv peers.tsv",
        help="pyramid scores (original, modified) of peers from their SCUs",
        description="Pyramid scores of peer summaries from the summary content units they "
        "express (Nenkova & Passonneau 2004). See docs/text.md.")
    add_command(
        commands, "citations", run_citations,
        (CITATION_JUDGMENTS, {"nargs": "+"}),
        (MEASURES, {"action": "append", "metavar": "MEASURE", "doc": "citation measure "
                    "(repeatable): citation_recall, citation_precision (ALCE), ais, "
                    "support_precision, support_recall (TREC RAG) (default: all five)"}),
        MAX_CITATIONS, (CITATION_SAMPLE, {"nargs": "+"}),
        (CITATION_DESIGN, {"choices": CITATION_DESIGN.domain.names}),
        (SIGNIFICANCE, {"doc": "--human-sample: 1 - the level of the intervals"}),
        (PPI_TUNING, {"choices": PPI_TUNING.domain.names,
                      "doc": "--human-sample: " + PPI_TUNING.doc}), _common,
        example="cite.jsonl",
        help="ALCE's citation recall and precision, the AIS rate and the TREC RAG track's "
        "support scores of cited answers",
        description="Citation measures of answers from the support judgments of their "
        "sentences and citations (made by people or an entailment model), a model's "
        "corrected on a human sample of the answers (--human-sample: prediction-powered "
        "intervals). See docs/text.md.", binding=CITATIONS)


def run_rouge(args: argparse.Namespace) -> Done:
    """``text rouge``: the ROUGE measures of every output."""
    from ..evaluation.rouge import evaluate_rouge
    from ..text.rouge import DEFAULT_MEASURES

    evaluation = evaluate_rouge(args.qrels, args.runs, args.measures or list(DEFAULT_MEASURES),
                                stem=args.stem, stopwords=args.stopwords, multi=args.multi,
                                allow_empty=args.allow_empty)
    return write_evaluation(args, evaluation)


def run_bleu(args: argparse.Namespace) -> Done:
    """``text bleu``: sentence BLEU of every output, or with ``--corpus`` corpus BLEU per
    run."""
    from ..evaluation.bleu import evaluate_bleu, evaluate_corpus_bleu
    from ..text.bleu import DEFAULT_MEASURES

    if not args.corpus:
        return write_evaluation(args, evaluate_bleu(
            args.qrels, args.runs, args.measures or list(DEFAULT_MEASURES),
            allow_empty=args.allow_empty))
    from ..io.output import write_summary
    from .outputs import Output

    scores = evaluate_corpus_bleu(args.qrels, args.runs, args.measures or ["BLEU(effective=0)"])
    return Output(lambda stream: write_summary(scores, stream, fmt=args.fmt), mode="wb")


def run_pyramid(args: argparse.Namespace) -> Done:
    """``text pyramid``: the pyramid scores of every peer summary."""
    from ..evaluation.pyramids import evaluate_pyramid
    from ..text.pyramid import PYRAMID_MEASURES

    evaluation = evaluate_pyramid(args.qrels, args.runs,
                                  list(dict.fromkeys(args.measures or PYRAMID_MEASURES)),
                                  allow_empty=args.allow_empty)
    return write_evaluation(args, evaluation)


def run_citations(args: argparse.Namespace) -> Done:
    """``text citations``: the citation measures of every judged answer."""
    from ..evaluation.citations import evaluate_citations
    from ..measures.results import Evaluation
    from ..text.citations import DEFAULT_MEASURES

    measures = args.measures or list(DEFAULT_MEASURES)
    if args.human_sample:
        return _estimates_table(args, evaluate_citations(
            args.judgments, measures, max_citations=args.max_citations,
            human_sample=args.human_sample, design=args.design, alpha=args.alpha,
            tuning=args.tuning))
    evaluation = evaluate_citations(args.judgments, measures,
                                    max_citations=args.max_citations,
                                    allow_empty=args.allow_empty)
    assert isinstance(evaluation, Evaluation)  # (without a human sample)
    return write_evaluation(args, evaluation)


def _matches(args: argparse.Namespace) -> None:
    """The matches come from match files, or ``--auto-match`` finds them in ``--texts``;
    ``--assignments`` takes neither nuggets nor matches; ``--human-sample`` relabels the
    ``--assignments``."""
    if args.human_sample and not args.assignments:
        raise ParameterError("--human-sample relabels a sample of the nuggets of the "
                             "--assignments: give them")
    if args.assignments:
        if args.qrels is not None or args.runs or args.auto_match:
            raise ParameterError("--assignments holds the judged nuggets of every answer: "
                                 "give no nuggets file, match file nor --auto-match")
        return
    if args.qrels is None:
        raise ParameterError("give the nuggets file, or --assignments FILE")
    if args.auto_match:
        if args.runs:
            raise ParameterError("--auto-match finds the matches: give no match file")
        if args.texts is None:
            raise ParameterError("--auto-match needs the output texts (--texts), not "
                                 "their lengths")
    elif not args.runs:
        raise ParameterError("give the nugget match file(s), or --auto-match with --texts")


def run_nuggets(args: argparse.Namespace) -> Done:
    """``text nuggets``: the nugget measures of every output (``--assignments``: of every
    assignment record)."""
    from ..evaluation.nuggets import evaluate_nuggets

    if args.assignments:
        from ..text.assignments import DEFAULT_MEASURES as ASSIGNMENT_MEASURES

        if args.human_sample:
            return _human_sample(args, args.measures or list(ASSIGNMENT_MEASURES))
        return write_evaluation(args, evaluate_nuggets(
            measures=args.measures or list(ASSIGNMENT_MEASURES),
            assignments=args.assignments, allow_empty=args.allow_empty))
    from ..text.nuggets import DEFAULT_MEASURES

    nuggets, matches, texts = args.qrels, args.runs, args.texts
    if args.auto_match:
        from ..io.text import read_nuggets, read_stopwords, read_texts
        from ..text.pourpre import pourpre_matches

        nuggets = read_nuggets(args.qrels)
        texts = read_texts(args.texts, what="output texts")
        stop = read_stopwords(args.stopwords) if args.stopwords else frozenset()
        matches = pourpre_matches(nuggets, texts, stem=args.stem, stopwords=stop,
                                  threshold=args.threshold)
    evaluation = evaluate_nuggets(nuggets, matches,
                                  args.measures or list(DEFAULT_MEASURES),
                                  lengths=args.lengths, texts=texts,
                                  allow_empty=args.allow_empty)
    return write_evaluation(args, evaluation)


def _human_sample(args: argparse.Namespace, measures: list[str]) -> str:
    """``text nuggets --assignments MODEL --human-sample HUMAN``: the prediction-powered
    scores as a table (:func:`_estimates_table`)."""
    from ..evaluation.assignments import evaluate_assignments

    return _estimates_table(args, evaluate_assignments(
        args.assignments, measures, human_sample=args.human_sample, design=args.design,
        alpha=args.alpha, tuning=args.tuning))


def _estimates_table(args: argparse.Namespace, found: object) -> str:
    """The prediction-powered scores of a model's labels corrected on a human sample
    (``text nuggets --assignments --human-sample``, ``text citations --human-sample``) as
    a table (``--format trec``, the default: the text table), the runs' rows (none with
    ``-n``) and the answers' (``-q``)."""
    from ..evaluation.assignments_ppi import AssignmentEstimates

    assert isinstance(found, AssignmentEstimates)  # (with a human sample)
    return found.format("text" if args.fmt == "trec" else args.fmt, per_topic=args.per_query,
                        summary=not args.no_summary).rstrip("\n") + "\n"
