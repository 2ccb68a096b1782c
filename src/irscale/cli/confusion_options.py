"""The options that give the judges' confusion (``irscale meta judge-noise``, ``irscale
report``'s section on judge noise), declared once in :mod:`irscale.collections.params`, and
the confusion they give (:class:`irscale.collections.judgment_noise.Confusion`)."""

from __future__ import annotations

import argparse

from ..collections.params import AUTO_SAMPLE, CONFUSION_FILE, DOUBLE_JUDGED, FLIP_RATE
from ..errors import ParameterError
from .rules import given

#: The options of the confusion, as :func:`irscale.cli.options.add_command` takes them.
CONFUSION_OPTIONS = (CONFUSION_FILE, FLIP_RATE, (DOUBLE_JUDGED, {"many": True}),
                     (AUTO_SAMPLE, {"many": True}))
#: ``(dest, option)`` of each, one of which gives the confusion.
SOURCES = (("confusion", "--confusion"), ("flip_rate", "--flip-rate"),
           ("double_judged", "--double-judged"), ("auto_sample", "--auto-sample"))
#: How the options are named in messages.
CHOICES = ("--confusion FILE, --flip-rate P, --double-judged FIRST,SECOND or --auto-sample "
           "AUTO,HUMAN")


def confusion_given(args: argparse.Namespace) -> bool:
    """Whether one of the options of the confusion is given."""
    return any(given(args, dest) for dest, _ in SOURCES)


def confusion_files(args: argparse.Namespace) -> list[str]:
    """The files the options of the confusion read (for the report's provenance)."""
    return [*([args.confusion] if args.confusion is not None else []),
            *(args.double_judged or []), *(args.auto_sample or [])]


def read_confusion_options(args: argparse.Namespace):
    """The confusion of the one of :data:`SOURCES` given (the files read); none or two of
    them are a :class:`~irscale.errors.ParameterError`."""
    named = [option for dest, option in SOURCES if given(args, dest)]
    if len(named) != 1:
        raise ParameterError(f"give the judges' confusion with one of {CHOICES}"
                             + (f" (given: {', '.join(named)})" if named else ""))
    from ..collections.judgment_noise import Confusion

    if args.confusion is not None:
        return Confusion.read(args.confusion)
    if args.flip_rate is not None:
        return Confusion.flip(args.flip_rate)
    if args.double_judged is not None:
        if len(args.double_judged) != 2:
            raise ParameterError(f"--double-judged takes two qrels files FIRST,SECOND (the "
                                 f"same pairs judged twice), got {len(args.double_judged)}")
        return Confusion.estimate(*args.double_judged)
    if len(args.auto_sample) != 2:
        raise ParameterError(f"--auto-sample takes two qrels files AUTO,HUMAN (irscale labels "
                             f"auto's automatic judgments and human sample), got "
                             f"{len(args.auto_sample)}")
    return Confusion.from_sample(*args.auto_sample)
