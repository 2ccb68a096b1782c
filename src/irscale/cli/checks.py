"""Validation of the options of ``irscale compare`` and ``irscale meta``, before any work.

Two rules (``docs/errors.md``): an impossible value is refused, naming the option as the
user wrote it and, where it differs, the Python name (``--samples (samples) must be an
integer ≥ 1, got 0``); an option that the chosen test, model or analysis would ignore is
refused too, rather than silently ignored (``--alternative`` with Tukey's HSD,
``--samples`` with a t-test, ``-p`` with Kendall's τ, ...). Options whose default depends
on the choice are declared with ``default=None`` so that "given" can be told from "not
given"; the functions here set the real defaults on ``args`` once the choice is validated.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

from ..core.params import SCALE_MEASURES, TABLE_DIGITS, Names
from ..errors import ParameterError
from ..stats.names import (
    MODEL_NAMES,
    MULTI_ALIASES,
    MULTI_TESTS,
    PROCEDURE,
    RANK_MODELS,
    RESAMPLING_TESTS,
    SHARD_MODEL_NAMES,
    TEST_ALIASES,
    TEST_NAMES,
)
from .main import given
from .options import check_scheduler

#: Formats whose numbers keep full precision (``--digits`` has no effect on them).
FULL_PRECISION = ("csv", "json")


#: ``compare --test``: a many-system procedure or a two-system test, by name or alias.
COMPARE_TEST = Names("test", (*MULTI_TESTS, *TEST_NAMES), {**TEST_ALIASES, **MULTI_ALIASES},
                     fold=True)
#: What ``-B/--samples`` applies to.
RESAMPLING = ("randomization, bootstrap, bootstrap-shift, unpaired-bootstrap, "
              "randomized-tukey-hsd")


def _refuse(flags: Sequence[str], reason: str) -> None:
    if flags:
        verb = "applies" if len(flags) == 1 else "apply"
        raise ParameterError(f"{', '.join(flags)} {verb} {reason}")


# --------------------------------------------------------------------------- shared
def add_digits(parser: argparse.ArgumentParser) -> None:
    """``--digits``: decimals of text, Markdown and LaTeX tables (:func:`check_digits_option`)."""
    from .options import add_param

    add_param(parser, TABLE_DIGITS)


def check_digits_option(args: argparse.Namespace) -> None:
    """``--digits`` (its range checked as it is parsed): for text, Markdown and LaTeX output
    only."""
    if given(args, "digits") and args.fmt in FULL_PRECISION:
        raise ParameterError(f"--digits applies to text, markdown and latex tables; "
                             f"--format {args.fmt} keeps every digit")


def check_sources(args: argparse.Namespace) -> None:
    """``--topic-column`` only with ``--scores``."""
    if given(args, "topic_column") and not getattr(args, "scores", None):
        raise ParameterError("--topic-column applies to --scores files (score CSVs), not to "
                             "runs evaluated against qrels")


#: ``meta simulate``'s options of the normal model: ``{NormalModel field (dest): option}``.
NORMAL_OPTIONS = {"topics": "--topics", "systems": "--systems", "effects": "--effects",
                  "topic_sd": "--topic-sd", "error_sd": "--error-sd"}


def is_resampling(procedure: str) -> bool:
    """Whether the canonical ``procedure`` resamples (``-B/--samples`` applies)."""
    return procedure == "randomized-tukey-hsd" or procedure in RESAMPLING_TESTS


# --------------------------------------------------------------------------- compare
def check_compare(args: argparse.Namespace) -> None:
    """Validate every option of ``irscale compare`` and set the choice-dependent defaults
    (``--test``, ``--correction`` and the numbers are checked as they are parsed)."""
    from .inputs import check_inputs

    test = args.test
    multi = test in MULTI_TESTS
    if given(args, "model"):
        if test != "tukey-hsd":
            raise ParameterError(f"--model applies to --test tukey-hsd, not to {test!r}")
        if args.model not in (*MODEL_NAMES, *RANK_MODELS, "topic", "system") and \
                "+" not in args.model:
            raise ParameterError(f"--model: unknown model {args.model!r}; choose from "
                                 f"{', '.join((*MODEL_NAMES, *RANK_MODELS))} or a formula "
                                 "such as 'topic + system'")
    if multi:
        what = ("the ANOVA or rank model and Tukey's HSD" if test == "tukey-hsd"
                else "the randomised Tukey HSD")
        _refuse([f for f, a in (("--correction", "correction"), ("--alternative", "alternative"),
                                ("--baseline", "baseline")) if given(args, a)],
                f"to two-system tests, not to --test {test}: {what} compares every pair "
                "two-sided and controls the family-wise error itself")
    if not is_resampling(test):
        _refuse([f for f, a in (("-B/--samples", "samples"), ("--seed", "seed"),
                                ("--workers", "workers"), ("--scheduler", "scheduler"))
                 if given(args, a)],
                f"to resampling tests ({RESAMPLING}), not to --test {test}")
    check_scheduler(args)
    check_digits_option(args)
    check_sources(args)
    check_inputs(args)


# --------------------------------------------------------------------------- meta
def _meta_common(args: argparse.Namespace) -> None:
    check_scheduler(args)
    check_digits_option(args)
    check_sources(args)


def _correlate(args: argparse.Namespace) -> None:
    if given(args, "p") and args.method != "rbo":
        raise ParameterError(f"-p/--p (p) is the RBO persistence: it applies to --method rbo, "
                             f"not to {args.method}")
    if given(args, "samples") and args.by != "overall":
        raise ParameterError(f"-B/--samples applies to --by overall (the interval of the "
                             f"overall correlation), not to --by {args.by}")
    if given(args, "seed") and not given(args, "samples"):
        raise ParameterError("--seed applies to -B/--samples (the bootstrap interval, the "
                             "only random part of correlate)")


def _discriminative_power(args: argparse.Namespace) -> None:
    if given(args, "seeds"):
        _refuse([f for f, a in (("--pairs", "pairs"), ("--plot", "plot"))
                 if getattr(args, a, None)],
                "to one resampling run, not to --seeds (which prints the spread across seeds)")


def _split(args: argparse.Namespace) -> None:
    if given(args, "alpha") and given(args, "metric") and args.metric in ("tau", "tau_sd"):
        raise ParameterError(f"--alpha applies to the significance metrics; --metric "
                             f"{args.metric} (Kendall's τ between the halves' rankings) uses "
                             "no test decision")
    names = [*args.models, *(name for pair in args.cross for name in pair)]
    for name in names:
        if name in SHARD_MODEL_NAMES:
            raise ParameterError(f"{name} is a shard model: it needs topics × systems × shards "
                                 "scores, which a score CSV does not hold (use "
                                 "irscale.meta.split_study(..., shards=...))")
    if given(args, "samples") and not resampling_procedures(names):
        raise ParameterError(
            f"-B/--samples applies to the resampling procedures ({RESAMPLING}) among "
            f"--models and --cross, and the study has none ({', '.join(dict.fromkeys(names))})")


def resampling_procedures(names: Sequence[str]) -> list[str]:
    """The canonical names of the procedures among ``names`` that resample (those that
    ``-B/--samples`` sets)."""
    canonical = dict.fromkeys(PROCEDURE.check(name, "procedure") for name in names)
    return [name for name in canonical if is_resampling(name)]


def _swap(args: argparse.Namespace) -> None:
    if given(args, "bin_width") and not args.by_bin:
        raise ParameterError("--bin-width applies to --by-bin (the swap rate per difference "
                             "bin); without it no bins are made")
    if given(args, "samples") and not (given(args, "test") and is_resampling(args.test)):
        raise ParameterError(f"-B/--samples applies to a resampling --test ({RESAMPLING})")
    if not given(args, "test") and given(args, "alpha"):
        raise ParameterError("--alpha applies to --test (the significance filter of the swap "
                             "method); without --test no test is run")


def _loo(args: argparse.Namespace) -> None:
    if given(args, "contributors") and given(args, "contributor_pattern"):
        raise ParameterError("--contributor-pattern applies without --contributors (the file "
                             "names every run's contributor)")


def _scales(args: argparse.Namespace) -> None:
    if not args.measures:
        args.measures = list(SCALE_MEASURES)
    if given(args, "alpha") and args.table in ("2", "4"):
        raise ParameterError(f"--alpha applies to the significance tables (5, 6, invariants, "
                             f"all), not to --table {args.table}")
    if given(args, "table_n"):
        if args.table not in ("all", "4", "5", "6"):
            raise ParameterError(f"--table-cutoff applies to tables 4, 5 and 6 (and all), "
                                 f"not to --table {args.table}")
        if args.table_n not in args.cutoffs:
            raise ParameterError(f"--table-cutoff {args.table_n} is not one of the --cutoffs "
                                 f"{list(args.cutoffs)}")


def _simulate(args: argparse.Namespace) -> None:
    """``meta simulate``: the options of the other model refused, the tests' defaults,
    ``--checkpoint`` (a folder, with ``--seed``, not holding ``-o``); the values of the
    options are checked as they are parsed."""
    from .eval_diversity import check_no_intent_options
    from .runargs import check_no_runs_option

    if args.model == "normal":
        _refuse([f for f, given in (("--null", args.null), ("QRELS RUN...", args.inputs),
                                    ("--scores", args.scores), ("-m", args.measures),
                                    ("--topic-column", given(args, "topic_column")))
                 if given], "to --model bootstrap (the matrix whose topics are resampled), "
                "not to --model normal")
        check_no_runs_option(args, "--model normal (no runs are read)")
        check_no_intent_options(args, "diversity measures of --model bootstrap, not to "
                                "--model normal")
        if args.qrels_format != "auto":
            raise ParameterError("--qrels-format applies to --model bootstrap's QRELS, not "
                                 "to --model normal")
    else:
        _refuse([option for name, option in NORMAL_OPTIONS.items() if given(args, name)],
                "to --model normal, not to --model bootstrap (whose matrix, every system of "
                "the runs or --scores given, is resampled as it is)")
    tests = args.test or ["t"]
    if given(args, "samples") and not resampling_procedures(tests):
        raise ParameterError(
            "-B/--samples applies to the resampling tests (randomization, bootstrap, "
            "bootstrap-shift, unpaired-bootstrap) among --test, and the study has none "
            f"({', '.join(tests)})")
    if given(args, "checkpoint"):  # the folder is checked with every output (check_outputs)
        if not given(args, "seed"):
            raise ParameterError("--checkpoint needs --seed: a study resumes only with the "
                                 "seed it started with")
        output = getattr(args, "output", "-")
        if output != "-" and os.path.dirname(os.path.realpath(output)) == \
                os.path.realpath(args.checkpoint):
            raise ParameterError(f"-o {output} lies in --checkpoint {args.checkpoint}, whose "
                                 "files the study writes: write it outside")


_META = {
    "correlate": _correlate, "discriminative-power": _discriminative_power,
    "dp": _discriminative_power, "split": _split, "swap": _swap,
    "loo": _loo, "scales": _scales, "simulate": _simulate,
}


def check_meta(args: argparse.Namespace) -> None:
    """Validate the options of an ``irscale meta`` subcommand; set the real defaults."""
    from .inputs import check_inputs

    _meta_common(args)
    if args.meta_command in _META:  # the others' options are checked as they are parsed
        _META[args.meta_command](args)
    if args.meta_command != "simulate" or args.model == "bootstrap":
        check_inputs(args)
