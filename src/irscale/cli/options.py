"""The vocabulary the subcommands share (``docs/cli.md``): declared options, their rules,
lists, the scheduler and the two kinds of ties.

* **Declarations**: an option of a parameter declared in :mod:`irscale.core.params` (its
  domain, default, doc and spellings) is built by :func:`add_param`; its values are checked
  while the command line is parsed (:class:`Checked`, :class:`ListAction`), before any
  numerical package is imported, with the check and the words of the Python function.
* **Rules**: an option that the choices of a call would ignore is refused, not silently
  ignored: each command declares next to its options when they apply
  (:mod:`irscale.cli.rules`).
* **Lists** are comma-separated everywhere (``-N 5,10,20``, ``--systems a,b``), parsed by
  :func:`parse_list`, with the same messages for an empty list, an empty item and an item
  that is not a number.
* **Scheduler**: ``--scheduler tcp://HOST:PORT`` or ``local:N`` runs a command's parallel
  loops on Dask (:mod:`irscale.parallel`) instead of this process's threads
  (``--workers``), with the same results.
* **Ties**: ``--ties`` orders documents with equal scores; ``--phi-ties`` is φ's tie
  strategy (:func:`add_ties`).
* **Outputs**: ``-o/--output`` and ``--force`` (:func:`add_output`), declared outputs
  (:func:`irscale.cli.outputs.declare_outputs`).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..core.options import TIE_POLICIES
from ..core.params import (
    TABLE_DIGITS,
    TIE_STRATEGIES,
    Integers,
    Names,
    Param,
    Reals,
    Switch,
    Text,
)
from ..errors import ParameterError
from ..io.formats import FORMAT
from .common_params import FORCE, NO_PROGRESS, OUTPUT, SCHEDULER
from .main import GIVEN, _lazy, given
from .outputs import declare_inputs, declare_outputs
from .rules import Declared, Rule, add_rules

if TYPE_CHECKING:  # pragma: no cover - the class is defined on first use
    from argparse import _StoreAction as _StoreOnce
else:
    _StoreOnce = _lazy("_StoreOnce")

#: What an item of a list is: (noun of the items, of one item, converter, example list).
_KINDS: dict[str, tuple[str, str, Callable[[str], object], str]] = {
    "int": ("integers", "value", int, "5,10,20"),
    "str": ("names", "name", str, "a,b,c"),
    "float": ("numbers", "value", float, "0,0,0.05"),
}


def join(values: Sequence[object]) -> str:
    """A list as the command line writes it: ``5,10,20``."""
    return ",".join(str(v) for v in values)


def parse_list(text: str, option: str, kind: str = "int", *, unique: bool = False
               ) -> list:
    """The items of the comma-separated list ``text`` given to ``option``.

    One message per fault, whatever the option: an empty list, an empty item (``5,,10``,
    a trailing comma), an item that is not a number (``kind="int"`` or ``"float"``;
    ``float`` also reads ``nan`` and ``inf``, which the user of the values refuses), and, with
    ``unique``, an item given twice. Spaces around items are ignored. Ranges (``≥ 1``, no
    repeated cut-off, ...) are checked by the function that uses the values.
    """
    noun, one, convert, example = _KINDS[kind]
    hint = f"give comma-separated {noun}, e.g. {example}"
    items = [item.strip() for item in text.split(",")]
    if not any(items):
        raise ParameterError(f"{option} is empty: {hint}")
    if not all(items):
        raise ParameterError(f"{option} has an empty {one} in {text!r}: {hint}")
    values = []
    for item in items:
        try:
            values.append(convert(item))
        except ValueError:
            what = "an integer" if kind == "int" else "a number"
            raise ParameterError(f"{option}: {item!r} is not {what}: {hint}") from None
    if unique:
        twice = list(dict.fromkeys(v for v in values if values.count(v) > 1))
        if twice:
            raise ParameterError(f"{option} names {twice} twice in {text!r}")
    return values


class Checked(_StoreOnce):
    """An option of one value in ``domain`` (:mod:`irscale.core.params`), checked as it is
    parsed; the value stored is the one the domain's check returns (a name's canonical
    spelling). ``api``: the Python name messages add in parentheses (``--alpha (alpha)
    must lie in (0, 1), got 2.0``); ``label``: the whole name instead (trec_eval's options
    are named as their functions name them, ``relevance level (-l, relevance_level)``)."""

    def __init__(self, option_strings, dest, *, domain: Any, api: str | None = None,
                 label: str | None = None, spelt: str | None = None, **kwargs) -> None:
        kwargs.setdefault("type", domain.type)
        super().__init__(option_strings, dest, **kwargs)
        #: How messages spell the option (its spellings but another tool's: ``spelt``).
        self.spelt = spelt or "/".join(option_strings)
        self.domain, self.api = domain, api
        self.label = label or (f"{self.spelt} ({api})" if api else self.spelt)

    def __call__(self, parser, namespace, values, option_string=None):
        super().__call__(parser, namespace, self.domain.check(values, self.label),
                         option_string)


def add_param(parser: argparse.ArgumentParser | argparse._ArgumentGroup, param: Param, *,
              aliases: Sequence[str] = (), domain: Any = None, doc: str | None = None,
              default: Any = ..., unset: str | None = None, many: bool = False,
              **kwargs) -> None:
    """The option of the parameter ``param`` (:class:`~irscale.core.params.Param`): its
    spellings (and ``aliases``, another tool's spelling), checked against its domain as it
    is parsed (:class:`Checked`; with ``many``, a comma-separated list of values of the
    domain, :class:`ListAction`), stored under the Python name (or the declared ``dest``)
    with the functions' default, its help the doc, the values where they are few
    (:func:`_values`; ``choices``: argparse's own check, message and metavar) and the
    default. ``domain``, ``doc``, ``default`` and ``unset`` (what a default of None, of
    no items or ``-`` means) narrow or say more where one command does (a domain within the
    declared one); other ``kwargs`` (``nargs``, ``metavar``, ``action="append"``) go to
    argparse. A :class:`~irscale.core.params.Switch` is a flag (``store_true``), a
    :class:`~irscale.core.params.Text` is stored as given; a declaration whose first
    spelling has no dash is a positional argument."""
    default = param.default if default is ... else default
    domain = domain or param.domain
    values = None if "choices" in kwargs else _values(domain)  # choices: in the metavar
    text = (doc or param.doc) + (f": {values}" if values else "")
    unset = unset or param.unset
    shown = join(default) if isinstance(default, (list, tuple)) else default
    if not isinstance(domain, Switch) and (shown not in (None, "", "-") or unset):
        # no default, an empty list or standard input/output ("-"): ``unset`` says it
        text += f" (default: {unset if shown in (None, '', '-') else shown})"
    dest = param.dest or param.name
    built: dict[str, Any] = {"help": text.replace("%", "%%")}
    if param.flags[0].startswith("-"):  # a positional argument's dest is its name
        built["dest"] = dest
    if isinstance(domain, Switch):
        built["action"] = "store_true"
    elif isinstance(domain, Text) and not many:  # used as given: nothing to check
        built["metavar"] = param.metavar
        if default is not None or "dest" in built:  # argparse's own for a positional
            built["default"] = default
    else:  # the items of a list of text are used as given too
        built.update(domain=None if isinstance(domain, Text) else domain, default=default,
                     metavar=param.metavar)
        if many:
            kwargs.setdefault("unique", True)
            kwargs.update(action=ListAction, kind=_LIST_KINDS[domain.type],
                          api=None if param.label else param.name)
            built["default"] = None if default is None else list(default)
        else:
            spelt = "/".join(param.flags)
            kwargs.update(action=Checked, api=param.name, spelt=spelt)
            kwargs.setdefault("label", param.label or f"{spelt} ({dest})")
    parser.add_argument(*param.flags, *aliases, **{**built, **kwargs})


#: The kind of the items of a list option (:func:`parse_list`) by the type of its domain.
_LIST_KINDS = {int: "int", float: "float", str: "str"}


def _values(domain: Any) -> str | None:
    """The values of ``domain`` as a help says them, where they are a short range or a set
    of names (``an integer in [0, 17]``, ``a number in (0, 1)``, ``one of none | holm``);
    None for the others (every integer ≥ 1)."""
    if isinstance(domain, Integers) and domain.high is not None and domain.high <= 10**6:
        return domain.text()
    if isinstance(domain, Reals) and math.isfinite(domain.low) and math.isfinite(domain.high):
        return "a number " + domain.text().removeprefix("lie ")
    if isinstance(domain, Names):
        return "one of " + " | ".join(domain.names)
    return None


class ListAction(_StoreOnce):
    """A comma-separated list option (:func:`parse_list`), given once.

    ``kind``: ``"int"``, ``"float"`` or ``"str"``; ``api``: the Python name messages add in
    parentheses (``--cutoffs (cutoffs) is empty``); ``domain`` (:mod:`irscale.core.params`)
    and ``item``: every item must lie in the domain, messages call one ``item`` if given
    (``--budget (budgets): a budget must be an integer ≥ 1, got 0``); ``keywords``: values stored as
    they are instead of a list (``--names runid``).
    """

    def __init__(self, option_strings, dest, *, kind: str = "int", api: str | None = None,
                 unique: bool = False, keywords: Sequence[str] = (),
                 domain: Any = None, item: str | None = None, **kwargs) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.kind, self.api, self.unique = kind, api, unique
        self.keywords = tuple(keywords)
        self.domain, self.item = domain, item

    def __call__(self, parser, namespace, values, option_string=None):
        option = option_string or self.dest
        named = f"{option} ({self.api})" if self.api else option
        parsed = values if values in self.keywords else \
            parse_list(values, named, self.kind, unique=self.unique)
        if self.domain is not None and parsed is not values:
            name = f"{named}: {self.item}" if self.item else named
            parsed = [self.domain.check(value, name) for value in parsed]
        super().__call__(parser, namespace, parsed, option_string)


#: Formats whose numbers keep full precision (``--digits`` has no effect on them).
FULL_PRECISION = ("csv", "json")
#: ``--digits``: for text, Markdown and LaTeX tables only.
DIGITS_RULE = Rule(("digits",), lambda args: args.fmt not in FULL_PRECISION,
                   "--digits applies to text, markdown and latex tables; --format {fmt} "
                   "keeps every digit")


def add_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup, *flags: str,
               default: Any, doc: str, **kwargs) -> None:
    """An option of the command line alone (no function declares it): its help the doc and
    the default, as :func:`add_param` writes them."""
    parser.add_argument(*flags, default=default, help=f"{doc} (default: {default})".replace(
        "%", "%%"), **kwargs)


def add_digits(parser: argparse.ArgumentParser) -> None:
    """``--digits``: decimals of text, Markdown and LaTeX tables (:data:`DIGITS_RULE`)."""
    add_param(parser, TABLE_DIGITS)


def add_format(parser: argparse.ArgumentParser, choices: Sequence[str], *,
               default: str = "text", doc: str | None = None) -> None:
    """``--format``: one of ``choices`` (a subset of :data:`irscale.io.formats.FORMATS`)."""
    add_param(parser, FORMAT, choices=choices, default=default, doc=doc)


#: ``--ties``: the order of documents with equal scores (the functions' ``tie_policy``).
TIE_POLICY = Param("tie_policy", Names("tie policy", TIE_POLICIES), "trec_eval",
                   "order of documents with equal scores: trec_eval (score descending, then "
                   "docno descending), file-order (as NTCIREVAL and cwl_eval) or rank-column",
                   ("--ties",), dest="ties")
#: ``--phi-ties``: φ's tie strategy for runs of equal value (Ferrante, Ferro & Fuhr 2021,
#: eq. 2; the functions' ``ties``).
PHI_TIES = Param("ties", Names("tie strategy", TIE_STRATEGIES), "unq", "tie strategy of φ "
                 "for runs of equal value", ("--phi-ties",), dest="phi_ties")


def add_ties(parser: argparse.ArgumentParser, *, phi: bool = False) -> None:
    """``--ties POLICY`` (documents with equal scores) and, with ``phi``, ``--phi-ties``
    (φ's tie strategy)."""
    if phi:
        add_param(parser, PHI_TIES, choices=TIE_STRATEGIES)
    add_param(parser, TIE_POLICY, choices=TIE_POLICIES)


def add_scheduler(parser: argparse.ArgumentParser | argparse._ArgumentGroup,
                  what: str) -> None:
    """``--scheduler ADDRESS``: where ``what`` runs (module documentation)."""
    add_param(parser, SCHEDULER, doc=SCHEDULER.doc.format(what=what))


def check_scheduler(args: argparse.Namespace) -> None:
    """``--scheduler``'s form (nothing is connected yet), and not with ``--workers``."""
    address = getattr(args, "scheduler", None)
    if address is None:
        return
    from ..parallel import check_executor, is_local

    if not is_local(check_executor(address, "--scheduler")) and given(args, "workers"):
        raise ParameterError("--workers (threads of this process) and --scheduler (a Dask "
                             "cluster) exclude each other: give one")


@contextmanager
def scheduler(args: argparse.Namespace) -> Iterator[Any]:
    """The executor of ``--scheduler`` for the whole command: a Client connected once
    (or a local cluster started once), ``"local"`` without the option."""
    from ..parallel import executor_scope

    check_scheduler(args)
    with executor_scope(getattr(args, "scheduler", None) or "local", "--scheduler") as ready:
        yield ready


def add_output(parser: argparse.ArgumentParser, *, what: str = "output") -> None:
    """``-o/--output FILE`` (default standard output) and ``--force``."""
    add_param(parser, OUTPUT, doc=OUTPUT.doc.replace("the output", f"the {what}"))
    declare_outputs(parser, "-o")
    add_force(parser)


def add_force(parser: argparse.ArgumentParser) -> None:
    """``--force``: replace existing output files (never an input of the same call)."""
    add_param(parser, FORCE)


def add_progress(parser: argparse.ArgumentParser) -> None:
    """``--no-progress``: every command that does long work takes it (one mechanism:
    :mod:`irscale.core.progress`)."""
    add_param(parser, NO_PROGRESS)


def wants_progress(args: argparse.Namespace) -> bool:
    """Whether to show the estimate and the progress of long work: unless ``--no-progress``
    was given (a bar on a terminal, plain lines elsewhere: :mod:`irscale.core.progress`)."""
    return not getattr(args, "no_progress", False)


def command_line(args: argparse.Namespace) -> str:
    """The call's command line as given, quoted for a shell (a reproducibility block)."""
    import shlex

    return shlex.join(["irscale", *getattr(args, GIVEN).argv])


def at_terminal(args: argparse.Namespace) -> bool:
    """Whether to add notes for a person reading standard error (a legend under a table):
    standard error is a terminal and ``--no-progress`` was not given. Elsewhere (a log, a
    pipe) standard error holds warnings and errors only."""
    return sys.stderr.isatty() and wants_progress(args)


#: An argument of :func:`add_command`: a declaration, a declaration with what one command
#: narrows or says more (the keywords of :func:`add_param`), or a builder of several
#: arguments (:func:`add_output`, :func:`add_progress`, a command's own).
Argument = Param | tuple[Param, dict[str, Any]] | Callable[[argparse.ArgumentParser], None]


def add_command(subparsers: Any, name: str, run: Callable[[argparse.Namespace], int],
                *arguments: Argument, help: str, description: str | None = None,
                inputs: Sequence[str] = (), outputs: Sequence[str] = (),
                folders: Sequence[str] = (), rules: Sequence[Declared] = (),
                **defaults: Any) -> argparse.ArgumentParser:
    """The subcommand ``name`` declared in one call: its one-line ``help`` (and the longer
    ``description``, by default the help), its ``arguments`` in order (see
    :data:`Argument`), the arguments that name files it reads (``inputs``:
    :func:`irscale.cli.outputs.declare_inputs`), the files and folders it writes
    (``outputs``, ``folders``), the :mod:`irscale.cli.rules` of its
    options, and the function that ``run`` s it (other namespace ``defaults`` beside it).
    Returns the parser, for what one command adds by hand."""
    parser = subparsers.add_parser(name, help=help, description=description or help)
    for argument in arguments:
        if isinstance(argument, Param):
            add_param(parser, argument)
        elif isinstance(argument, tuple):
            add_param(parser, argument[0], **argument[1])
        else:
            argument(parser)
    if inputs:
        declare_inputs(parser, *inputs)
    declare_outputs(parser, *outputs)
    declare_outputs(parser, *folders, kind="folder")
    if rules:
        add_rules(parser, *rules)
    parser.set_defaults(func=run, **defaults)
    return parser
