"""``irscale labels audit``: automatic (LLM) judges audited against human qrels
(:func:`irscale.labels.audit`; docs/labels.md)."""

from __future__ import annotations

import argparse

from ..core.params import RELEVANCE, SIGNIFICANCE, TABLE_DIGITS
from ..errors import ParameterError
from ..io.formats import TABLE_FORMATS
from ..labels import params as lp
from ..stats.names import MULTIPLE_CORRECTION
from .common_params import INPUTS, RUNS_OPTION
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


def _two_files(args: argparse.Namespace) -> None:
    """HUMAN and one JUDGE at least (with --samples, two)."""
    least = 3 if args.samples else 2
    if len(args.inputs) < least:
        why = " (--samples: repeated samples of one judge)" if args.samples else ""
        raise ParameterError(f"give the human qrels then {least - 1} judge qrels at least"
                             f"{why} (got {len(args.inputs)} files)")


def add_parser(sub) -> None:
    """``labels audit``."""
    add_command(
        sub, "audit", run_audit,
        (INPUTS, {"nargs": "*", "metavar": "HUMAN JUDGE",
                  "doc": "the human qrels, then the qrels of one judge or more"}),
        (RUNS_OPTION, {"nargs": "+", "required": True, "doc": "the runs (two at least)"}),
        lp.AUDIT_MEASURE, lp.AUDIT_REPEATED,
        (SIGNIFICANCE, {"doc": "level of the tests and of the runs flagged for bias; the "
                        "intervals are at 1 - A"}),
        lp.AUDIT_TEST, MULTIPLE_CORRECTION, lp.AUDIT_SAMPLES, lp.AUDIT_SEED, lp.AUDIT_RBO_P,
        lp.AUDIT_TOP_K, (RELEVANCE, {"doc": "smallest relevant grade, for every qrels"}),
        add_names, lambda p: add_format(p, TABLE_FORMATS), TABLE_DIGITS, add_output,
        add_progress,
        example="h.txt qrels.txt --runs a.run b.run c.run -B 20 --top-k 2",
        help="audit automatic (LLM) judges against human qrels",
        description="Label agreement (Cohen's kappa, Krippendorff's alpha), system-ranking "
        "fidelity (tau_b, tau_ap, RBO, top-k) with bootstrap intervals over topics, the "
        "decisions of paired tests under each qrels, the judge's bias per run (a mixed "
        "model) and the unjudged documents of every judge; see docs/labels.md.",
        binding=lp.AUDIT, rules=(DIGITS_RULE, _two_files))


def run_audit(args: argparse.Namespace) -> Done:
    """``labels audit``: the tables of :class:`irscale.labels.AuditResult`."""
    human, runs = read_inputs(args.inputs[0], named_runs(args.runs, args.names))
    judges = [read_inputs(path, [])[0] for path in args.inputs[1:]]  # before scipy
    from ..labels.audit import audit

    return table_text(args, audit(
        human, judges, runs, measure=args.measure, samples=args.samples, alpha=args.alpha,
        test=args.test, correction=args.correction, n_boot=args.n_boot, rng=args.seed,
        p=args.p, top_k=args.top_k, relevance_level=args.relevance_level,
        progress=wants_progress(args)))
