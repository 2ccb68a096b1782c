"""``irscale eval`` of trec_eval's options alone, parsed from the manifest's data, and the
part of ``eval`` that this path runs.

A command line ``eval QRELS RUN... [OPTIONS]`` whose options are among trec_eval's
(``-m``, ``-q``, ``-n``, ``-l``, ``-M``, ``-J``, ``-c``, ``-N``, ``--compat``, ``--ties``:
:data:`irscale._manifest.EVAL_PATH`, written by ``tools/manifest.py`` from the parser built
from the declarations and compared with it by ``tests/test_manifest.py``) is parsed here,
without :mod:`argparse` and without the modules that declare the options (some 40 million
instructions of a 10-line ``eval``, a third of it). :func:`parse` takes only what it
knows the declared parser stores the same way: each value of a form its declaration
takes as it is (a decimal integer in its range, a choice as spelt), each option once, the
positional arguments in one block, no input that needs an optional package or stands
for several files or for standard input. Anything else, or a rule of ``eval`` that
refuses the command line, gives None: :func:`irscale.cli.main.main` then builds the
declared parser, which parses, checks and reports it as always. The namespace it makes is
the declared parser's after its checks (every ``dest`` at its default, the record of what
was given, the context of the call), so that :func:`run` and the writer read it as theirs.
"""

from __future__ import annotations

import types

from ..errors import IrscaleError, MeasureError, ParameterError
from .eval_run import API_OPTIONS, run
from .given import GIVEN, Given, given, spelling

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import argparse
    from collections.abc import Sequence
    from typing import Any

    from ..evaluation.context import Context
    from ..evaluation.context_manifest import Declared


def parse(argv: Sequence[str]) -> Any:
    """The namespace of ``argv`` (``["eval", ...]``) as ``eval``'s declared parser and its
    checks make it, where ``argv`` stays on trec_eval's path (module documentation); None
    otherwise, also where a rule of ``eval`` refuses it (the declared parser reports it)."""
    from .._manifest import EVAL_PATH

    if not argv or argv[0] != "eval":
        return None
    options = EVAL_PATH["options"]
    values: dict[str, Any] = {}
    positionals: list[str] = []
    block = None  # where the positional arguments are: (start, end) in argv
    index = 1
    while index < len(argv):
        word = argv[index]
        if not word.startswith("-") or word == "-":
            if block is not None and block[1] != index:  # options amid them
                return None
            block = (index if block is None else block[0], index + 1)
            positionals.append(word)
            index += 1
            continue
        option = options.get(word)
        if option is None:  # not trec_eval's, an abbreviation, a -xVALUE, a --x=VALUE, --
            return None
        dest, kind, domain = option
        if kind == "flag":
            if dest in values:
                return None
            values[dest] = True
            index += 1
            continue
        if index + 1 == len(argv):
            return None
        value = _value(argv[index + 1], kind, domain)
        if value is None or (kind != "append" and dest in values):
            return None
        if kind == "append":
            values.setdefault(dest, []).append(value)
        else:
            values[dest] = value
        index += 2
    if len(positionals) < 2 or not _plain_inputs(positionals):
        return None
    values["qrels"], values["runs"] = positionals[0], positionals[1:]
    args = _namespace(EVAL_PATH, argv, values)
    try:
        args.context = eval_context(args)
        refuse_unread_options(args)
    except IrscaleError:  # reported by the declared parser's checks, in their order
        return None
    return args


def _value(word: str, kind: str, domain: Any) -> Any:
    """``word`` as the declared option of ``kind`` stores it (``append``: as given; ``int``:
    a decimal integer in ``domain``'s range; ``choice``: one of ``domain`` as spelt), or
    None for a word the declared parser should read."""
    if word.startswith("-"):
        return None
    if kind == "append":
        return word
    if kind == "choice":
        return word if word in domain else None
    low, high = domain
    if not (word.isascii() and word.isdigit()) or str(int(word)) != word:
        return None
    number = int(word)
    return number if low <= number <= high else None


def _plain_inputs(paths: Sequence[str]) -> bool:
    """Whether ``paths`` (QRELS RUN...) are files read by irscale alone, each named as
    such: no standard input, no folder or glob pattern, none that an optional package
    reads (a Parquet run, an ir_datasets dataset: the declared requirements,
    :data:`irscale.core.extras.IRDS_INPUT` and ``RUN_INPUTS``)."""
    from ..core.extras import IRDS_INPUT, RUN_INPUTS
    from ..io.call_inputs import expands

    qrels, runs = paths[0], paths[1:]
    if IRDS_INPUT.needed(qrels):
        return False
    return not any(path == "-" or expands(path) or any(r.needed(path) for r in RUN_INPUTS)
                   for path in (qrels, *runs))


def _namespace(data: dict[str, Any], argv: Sequence[str], values: dict[str, Any]) -> Any:
    """The namespace of the declared parser: every ``dest`` at its default (lists copied),
    ``values`` given, the record of what was given (:class:`~irscale.cli.given.Given`: each
    option spelt as ``--help`` shows it, but where the manifest says otherwise), the
    command and its run, and no dataset conventions applied."""
    defaults = {dest: list(value) if isinstance(value, list) else value
                for dest, value in data["defaults"].items()}
    args = types.SimpleNamespace(**{**defaults, **values}, command="eval", func=run,
                                 conventions=None, conventions_note=None)
    from .._manifest import HELP

    record = Given()
    record.dests.update(values)
    record.spelt.update((dest, "/".join(flags))
                        for flags, dest, *_ in HELP["eval"]["arguments"] if flags)
    record.spelt.update(data["spelt"])
    record.flags.update((data["api"].get(dest, dest), spelt)
                        for dest, spelt in record.spelt.items())
    record.argv = list(argv)
    setattr(args, GIVEN, record)
    return args


# ------------------------------------------------------------------ the context of a call
def _default(dest: str) -> Any:
    """The declared default of ``eval``'s option ``dest`` (the manifest's)."""
    from .._manifest import EVAL_PATH

    return EVAL_PATH["defaults"][dest]


def eval_context(args: argparse.Namespace) -> Context | Declared:
    """The context of the call, chosen as :func:`irscale.evaluate` chooses it, given the
    form QRELS are read in (with ``-R qrels``: a context's own, :func:`qrels_context`, the
    others' own output formats then refused; ``"trec"`` otherwise); a context with a
    command of its own (its inputs are not qrels and TREC runs) is refused, naming it. A
    call of trec_eval's measures that no other context claims is the default context as
    the manifest declares it (:func:`~irscale.evaluation.context_manifest.declared_default`:
    no context's module loaded)."""
    from ..evaluation.context_manifest import declared_default

    read = None
    if args.relevance_format == _default("relevance_format"):
        read = qrels_context(args)
        refuse_outputs(args, read)
    measures = [n for spec in (args.measures or []) for n in spec.split()]
    options = {"relevance_format": args.relevance_format,
               "qrels_format": "trec" if read is None else read.qrels_format}
    context: Context | Declared | None = declared_default(args.qrels, measures, options)
    if context is None:
        from ..evaluation.contexts import choose

        context = choose(args.qrels, measures, options)
    if context.command is not None:
        raise ParameterError(context.elsewhere())
    return context


def qrels_context(args: argparse.Namespace) -> Context | None:
    """The context whose own form QRELS are read in
    (:attr:`~irscale.evaluation.context.Context.qrels_format`): the first that claims every
    ``-m`` measure on its own (``--qrels-format auto``), or the one ``--qrels-format``
    names; ``None``: QRELS are TREC qrels. A mix of its measures and others, its measures
    with ``--qrels-format trec`` and its form with other measures are refused. A context's
    claim loads its measures only for a name that is none of trec_eval's or the
    catalogue's; a context is not loaded at all for trec_eval's names where the manifest
    says it claims none (:func:`~irscale.evaluation.context_manifest.declarations`)."""
    from ..evaluation.context_manifest import declarations, load, trec_eval_call

    auto = _default("qrels_format")
    names = [name for spec in (args.measures or []) for name in spec.split()]
    form = str(getattr(args, "qrels_format", auto) or auto)
    for key, declared in declarations().items():
        if declared["qrels_format"] is None or (
                form in (auto, "trec") and not declared["claims_trec_eval"]
                and trec_eval_call(None, names, {})):  # it claims none of them: not loaded
            continue
        context = load(key)
        if _claimed(context, names, form) or form == context.qrels_format:
            return context
    return None


def _claimed(context: Context, names: list[str], form: str) -> bool:
    """Whether ``context`` claims every measure of ``names`` (QRELS read as ``form``); a mix
    of its measures and others, its form without its measures and its measures with
    ``--qrels-format trec`` refused (:func:`qrels_context`)."""
    own = [context.claims(None, [name], {}) for name in names]
    if any(own) and not all(own):
        raise MeasureError(context.mixed(names[own.index(False)]))
    claimed = bool(own) and all(own)
    if form == context.qrels_format and names and not claimed:
        raise MeasureError(f"--qrels-format {form} needs {context.what} "
                           f"({', '.join(context.examples)} ...), got {names[0]!r}")
    if form == "trec" and claimed:
        raise ParameterError(f"{context.what} need {context.qrels_format} qrels: "
                             f"--qrels-format {context.qrels_format} (or "
                             f"{_default('qrels_format')})")
    return claimed


def refuse_outputs(args: argparse.Namespace, read: Context | None) -> None:
    """``--format`` one of the output formats of a context whose QRELS are read in a form
    of its own (:attr:`~irscale.evaluation.context.Context.outputs`) when they are not
    (``read``, :func:`qrels_context`): refused, naming a measure of that context (its
    formats read from the manifest, :func:`~irscale.evaluation.context_manifest.declarations`)."""
    from ..evaluation.context_manifest import declarations, load

    for name, declared in declarations().items():
        if declared["qrels_format"] is not None and (read is None or name != read.name) \
                and args.fmt in {output["name"] for output in declared["outputs"]}:
            context = load(name)
            raise ParameterError(f"--format {args.fmt} prints {context.what} "
                                 f"(-m {context.examples[0]})")


def refuse_unread_options(args: argparse.Namespace) -> None:
    """The one rule of :func:`irscale.evaluate` on the command line: an option of
    :data:`API_OPTIONS` given that ``args.context`` does not read is refused, spelt as
    the command declares it."""
    from ..evaluation.context_manifest import refuse_unread

    named: dict[str, str] = {}
    for dest, option in API_OPTIONS.items():
        if given(args, dest):
            named.setdefault(option, spelling(args, dest))
    refuse_unread(args.context, named)


__all__ = ["eval_context", "parse", "qrels_context", "refuse_outputs",
           "refuse_unread_options"]
