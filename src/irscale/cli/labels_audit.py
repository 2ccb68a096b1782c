"""``irscale labels audit``: automatic (LLM) judges audited against human qrels
(:func:`irscale.labels.audit`), or with ``--assignments`` model-made nugget assignments
against human ones (:func:`irscale.labels.audit_assignments`), or with ``--citations`` a
model's citation support labels against human ones
(:func:`irscale.labels.audit_citations`); docs/labels.md."""

from __future__ import annotations

import argparse

from ..core.params import RELEVANCE, SIGNIFICANCE, TABLE_DIGITS, InputFiles, Param
from ..errors import ParameterError
from ..io.formats import TABLE_FORMATS
from ..labels import params as lp
from ..stats.names import MULTIPLE_CORRECTION
from .common_params import INPUTS
from .options import (
    DIGITS_RULE,
    add_command,
    add_format,
    add_output,
    add_progress,
    wants_progress,
)
from .outputs import Done, table_text
from .runargs import add_names, named_runs, read_inputs

#: ``--judge JUDGE_QRELS``, repeatable: the judges audited, named by their files.
JUDGE = Param("judges", InputFiles(), None, "the qrels of a judge (repeatable; with "
              "--samples, a repeated sample of one judge; with --assignments, a model's "
              "assignment file; with --citations, a model's support judgments), named by "
              "its file", ("--judge",), "JUDGE")
#: ``-m``: its default depends on ``--assignments`` and ``--citations`` (the functions' own
#: defaults).
MEASURE = Param("measure", lp.AUDIT_MEASURE.domain, None, f"{lp.AUDIT_MEASURE.doc} (with "
                "--assignments: A, V or W, strict or partial, under the human and the "
                "model's assignments; with --citations: citation_recall, "
                "citation_precision, ais, support_precision or support_recall)",
                ("-m", "--measure"), "MEASURE",
                unset=f"{lp.DEFAULT_AUDIT_MEASURE}; {lp.DEFAULT_ASSIGNMENT_MEASURE} with "
                f"--assignments; {lp.DEFAULT_CITATION_MEASURE} with --citations")


def _counts(args: argparse.Namespace) -> None:
    """HUMAN and two runs at least (with ``--assignments`` or ``--citations``, one of
    them, HUMAN only); with ``--samples``, two judges at least."""
    if args.assignments and args.citations:
        raise ParameterError("--assignments and --citations: give one of them (the judges "
                             "give nugget assignments, or support judgments)")
    for given, what in ((args.assignments, "--assignments: give the human assignment file"),
                        (args.citations, "--citations: give the human support judgments")):
        if given and len(args.inputs) != 1:
            raise ParameterError(f"{what} only, the runs are those of its records (got "
                                 f"{len(args.inputs)} files)")
        if given:
            return
    if len(args.inputs) < 3:
        raise ParameterError(f"give the human qrels then two run files at least (got "
                             f"{len(args.inputs)} files)")
    if args.samples and len(args.judges) < 2:
        raise ParameterError(f"--samples: give two --judge samples of the judge at least "
                             f"(got {len(args.judges)})")


def add_parser(sub) -> None:
    """``labels audit``."""
    add_command(
        sub, "audit", run_audit,
        (INPUTS, {"nargs": "*", "metavar": "HUMAN RUN",
                  "doc": "the human qrels, then the runs (two at least); with "
                  "--assignments, the human assignment file only; with --citations, the "
                  "human support judgments only"}),
        (JUDGE, {"action": "append", "required": True}),
        MEASURE, lp.AUDIT_ASSIGNMENTS_MODE, lp.AUDIT_CITATIONS_MODE,
        (lp.MAX_CITATIONS, {"doc": "with --citations: score the first K citations of every "
                            "sentence only (the agreement compares every label given)"}),
        lp.AUDIT_REPEATED,
        (SIGNIFICANCE, {"doc": "level of the tests and of the runs flagged for bias; the "
                        "intervals are at 1 - A"}),
        lp.AUDIT_TEST, MULTIPLE_CORRECTION, lp.AUDIT_SAMPLES, lp.AUDIT_SEED, lp.AUDIT_RBO_P,
        lp.AUDIT_TOP_K, (RELEVANCE, {"doc": "smallest relevant grade, for every qrels"}),
        add_names, lambda p: add_format(p, TABLE_FORMATS), TABLE_DIGITS, add_output,
        add_progress,
        example="h.txt a.run b.run c.run --judge qrels.txt -B 20 --top-k 2",
        help="audit automatic (LLM) judges against human qrels",
        description="Label agreement (Cohen's kappa, Krippendorff's alpha), system-ranking "
        "fidelity (tau_b, tau_ap, RBO, top-k) with bootstrap intervals over topics, the "
        "decisions of paired tests under each qrels, the judge's bias per run (a mixed "
        "model) and the unjudged documents of every judge; with --assignments, the same of "
        "a model's nugget assignments against human ones; with --citations, of a model's "
        "citation support labels against human ones; see docs/labels.md.",
        binding=(lp.AUDIT_CHOICE, lp.CITATIONS_CHOICE), rules=(DIGITS_RULE, _counts))


def run_audit(args: argparse.Namespace) -> Done:
    """``labels audit``: the tables of :class:`irscale.labels.AuditResult`."""
    if args.assignments:
        from ..labels.audit_assignments import audit_assignments

        return table_text(args, audit_assignments(
            args.inputs[0], args.judges, measure=args.measure or lp.DEFAULT_ASSIGNMENT_MEASURE,
            alpha=args.alpha, test=args.test, correction=args.correction, n_boot=args.n_boot,
            rng=args.seed, p=args.p, top_k=args.top_k, progress=wants_progress(args)))
    if args.citations:
        from ..labels.audit_citations import audit_citations

        return table_text(args, audit_citations(
            args.inputs[0], args.judges, measure=args.measure or lp.DEFAULT_CITATION_MEASURE,
            max_citations=args.max_citations, alpha=args.alpha, test=args.test,
            correction=args.correction, n_boot=args.n_boot, rng=args.seed, p=args.p,
            top_k=args.top_k, progress=wants_progress(args)))
    human, runs = read_inputs(args.inputs[0], named_runs(args.inputs[1:], args.names))
    judges = [read_inputs(path, [])[0] for path in args.judges]  # before scipy
    from ..labels.audit import audit

    return table_text(args, audit(
        human, judges, runs, measure=args.measure or lp.DEFAULT_AUDIT_MEASURE,
        samples=args.samples, alpha=args.alpha,
        test=args.test, correction=args.correction, n_boot=args.n_boot, rng=args.seed,
        p=args.p, top_k=args.top_k, relevance_level=args.relevance_level,
        progress=wants_progress(args)))
