"""The vocabulary the subcommands share (``docs/cli.md``): options built from declarations
(:func:`add_param`, checked while parsed, before numpy is imported, in the functions'
words), comma-separated lists (:func:`parse_list`), ``--scheduler`` (a Dask cluster
instead of this process's threads, the same results), ``--ties``/``--phi-ties``, ``-o``
and ``--force``, and :func:`add_command`, a subcommand declared in one call. When options
apply: :mod:`irscale.cli.rules`; files: :mod:`irscale.cli.outputs`.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from ..core.options import TIE_ORDERS
from ..core.params import NO_WORK, Cost, Integers, Listed, Names, Param, Reals, Switch, Text
from ..core.trec_options import TIE_POLICY
from ..errors import ParameterError
from .common_params import FORCE, FORMAT, NO_PROGRESS, OUTPUT, SCHEDULER
from .given import wants_progress as wants_progress
from .main import SUBCOMMANDS
from .outputs import declare_paths
from .parser import GIVEN, Choices, StoreOnce, UsageError
from .rules import (
    Declared,
    LaterBinding,
    Rule,
    Sources,
    add_rules,
    binding_rules,
    choice_rules,
    given,
    named_binding,
    words,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, TypeAlias

    from ..core.binding import Binding, Choice

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
    """The items of the comma-separated list ``text`` given to ``option`` (of ``kind``
    ``"int"``, ``"float"`` or ``"str"``): one message per fault for every option (an empty
    list or item, an item not a number, with ``unique`` an item twice); ranges are the
    user's to check."""
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


class Checked(StoreOnce):
    """An option of one value in ``domain`` (:mod:`irscale.core.params`), stored as the
    domain's check returns it; messages name it ``label`` (default ``--alpha (alpha)``,
    ``api`` the Python name)."""

    def __init__(self, option_strings, dest, *, domain: Any, api: str | None = None,
                 label: str | None = None, spelt: str | None = None, **kwargs) -> None:
        kwargs.setdefault("type", domain.type)
        super().__init__(option_strings, dest, **kwargs)
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
    """The option of ``param`` (:class:`~irscale.core.params.Param`): its spellings (and
    ``aliases``), checked as parsed (:class:`Checked`; ``many``: a list, :class:`ListAction`),
    its help the doc, the values where few and the default. ``domain``, ``doc``,
    ``default``, ``unset`` narrow or say more for one command; other ``kwargs`` go to
    argparse (``choices``: argparse's check). A ``Switch`` is a flag, a ``Text`` stored as
    given; a first spelling without a dash is a positional argument. The option keeps its
    parameter (:func:`declared_cost`: the tests find the options that scale work)."""
    default = param.default if default is ... else default
    domain = domain or param.domain
    if isinstance(domain, Listed):  # a list: its items checked one by one
        if type(domain).check is not Listed.check:  # and the list as a whole (Increasing)
            kwargs.setdefault("whole", domain)
        domain, many = domain.domain, True
        kwargs.setdefault("item", param.domain.what)
    if not param.flags:  # a declaration's fault, named as what to declare
        raise ValueError(f"parameter {param.name!r} declares no spellings: an option of the "
                         "command line declares its flags (('--name',); ('name',) for a "
                         "positional argument)")
    built: dict[str, Any] = {"help": _help(param, domain, doc, default, unset, kwargs)}
    if param.flags[0].startswith("-"):  # a positional argument's dest is its name
        built["dest"] = param.dest or param.name
    if isinstance(domain, Switch):
        built["action"] = "store_true"
    elif isinstance(domain, Text) and not many:  # used as given: nothing to check
        built["metavar"] = param.metavar
        if default is not None or "dest" in built:  # argparse's own for a positional
            built["default"] = default
    else:  # the items of a list of text are used as given too
        built.update(domain=None if isinstance(domain, Text) else domain, default=default,
                     metavar=param.metavar)
        _checked_action(param, domain, many, built, kwargs)
    action = parser.add_argument(*param.flags, *aliases, **{**built, **kwargs})
    action.irscale_param = param  # type: ignore[attr-defined]
    declare_paths(action, domain)


def _help(param: Param, domain: Any, doc: str | None, default: Any, unset: str | None,
          kwargs: dict[str, Any]) -> str:
    """The help of the option of ``param``: its doc (or ``doc``), the values of ``domain``
    where few (not with argparse's ``choices``, which the metavar shows) and the default
    (``unset`` where there is none, or it is standard input/output)."""
    values = None if "choices" in kwargs else _values(domain)  # choices: in the metavar
    text = (doc or param.doc) + (f": {values}" if values else "")
    unset = unset or param.unset
    shown = join(default) if isinstance(default, (list, tuple)) else default
    if not isinstance(domain, Switch) and (shown not in (None, "", "-") or unset):
        # no default, an empty list or standard input/output ("-"): ``unset`` says it
        text += f" (default: {unset if shown in (None, '', '-') else shown})"
    return text.replace("%", "%%")


def _checked_action(param: Param, domain: Any, many: bool, built: dict[str, Any],
                    kwargs: dict[str, Any]) -> None:
    """The action of an option whose values ``domain`` checks (into ``kwargs``): a list
    (``many``, :class:`ListAction`) or one value (:class:`Checked`)."""
    if many:
        kwargs.setdefault("unique", True)
        kwargs.update(action=ListAction, kind=domain.type.__name__,
                      api=None if param.label else param.name)
        built["default"] = None if built["default"] is None else list(built["default"])
    else:
        spelt = "/".join(param.flags)
        kwargs.update(action=Checked, api=param.name, spelt=spelt)
        kwargs.setdefault("label", param.label or f"{spelt} ({param.dest or param.name})")


def declared_cost(action: argparse.Action) -> Cost | None:
    """The cost of the parameter an option was built from (:func:`add_param`), None for
    an option that scales no work."""
    param = getattr(action, "irscale_param", None)
    return None if param is None or param.cost == NO_WORK else param.cost


def _values(domain: Any) -> str | None:
    """The values of ``domain`` as a help says them where few (``a number in (0, 1)``,
    ``one of none | holm``); None for the others."""
    if isinstance(domain, Integers) and domain.high is not None and domain.high <= 10**6:
        return domain.text()
    if isinstance(domain, Reals) and math.isfinite(domain.low) and math.isfinite(domain.high):
        return "a number " + domain.text().removeprefix("lie ")
    if isinstance(domain, Names):
        return "one of " + " | ".join(domain.names)
    return None


class ListAction(StoreOnce):
    """A comma-separated list option (:func:`parse_list`) given once: ``api`` the Python
    name messages add, every item in ``domain`` (messages call one ``item``), ``keywords``
    stored as they are (``--names runid``)."""

    def __init__(self, option_strings, dest, *, kind: str = "int", api: str | None = None,
                 unique: bool = False, keywords: Sequence[str] = (),
                 domain: Any = None, item: str | None = None, whole: Any = None,
                 **kwargs) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.kind, self.api, self.unique = kind, api, unique
        self.keywords = tuple(keywords)
        self.domain, self.item, self.whole = domain, item, whole

    def __call__(self, parser, namespace, values, option_string=None):
        option = option_string or self.dest
        named = f"{option} ({self.api})" if self.api else option
        parsed = values if values in self.keywords else \
            parse_list(values, named, self.kind, unique=self.unique)
        if self.domain is not None and parsed is not values:
            name = f"{named}: {self.item}" if self.item else named
            parsed = [self.domain.check(value, name) for value in parsed]
        if self.whole is not None and parsed is not values:  # (increasing edges)
            parsed = self.whole.check(parsed, named)
        super().__call__(parser, namespace, parsed, option_string)


#: Formats whose numbers keep full precision: ``--digits`` (``TABLE_DIGITS``) applies to the
#: others only.
FULL_PRECISION = ("csv", "json")
DIGITS_RULE = Rule(("digits",), lambda args: args.fmt not in FULL_PRECISION,
                   "--digits applies to text, markdown and latex tables; --format {fmt} "
                   "keeps every digit")


def add_format(parser: argparse.ArgumentParser, choices: Sequence[str], *,
               default: str = "text", doc: str | None = None) -> None:
    """``--format``: one of ``choices`` (:data:`irscale.io.formats.FORMATS`)."""
    add_param(parser, FORMAT, choices=choices, default=default, doc=doc)


def add_ties(parser: argparse.ArgumentParser, *, phi: bool = False) -> None:
    """``--ties`` (documents with equal scores) and with ``phi`` ``--phi-ties`` (φ's)."""
    if phi:  # (the scales' declarations, loaded by the commands of scales only)
        from ..scales.params import PHI_TIES, TIE_STRATEGIES

        add_param(parser, PHI_TIES, choices=TIE_STRATEGIES)
    add_param(parser, TIE_POLICY, choices=TIE_ORDERS)


def add_scheduler(parser: argparse.ArgumentParser | argparse._ArgumentGroup,
                  what: str) -> None:
    """``--scheduler ADDRESS``: where ``what`` runs."""
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
    """The executor of ``--scheduler`` for the whole command (connected or started once),
    ``"local"`` without it."""
    from ..parallel import executor_scope

    check_scheduler(args)
    with executor_scope(getattr(args, "scheduler", None) or "local", "--scheduler") as ready:
        yield ready


def add_output(parser: argparse.ArgumentParser, *, what: str = "output") -> None:
    """``-o/--output FILE`` (default standard output) and ``--force``."""
    add_param(parser, OUTPUT, doc=OUTPUT.doc.replace("the output", f"the {what}"))
    add_param(parser, FORCE)


def add_progress(parser: argparse.ArgumentParser) -> None:
    """``--no-progress`` (every command that does long work: :mod:`irscale.core.progress`)."""
    add_param(parser, NO_PROGRESS)


def command_line(args: argparse.Namespace) -> str:
    """The call's command line as given, quoted for a shell (a reproducibility block)."""
    import shlex

    return shlex.join(["irscale", *getattr(args, GIVEN).argv])


def at_terminal(args: argparse.Namespace) -> bool:
    """Whether to add notes for a person (a legend): standard error is a terminal and no
    ``--no-progress``; elsewhere it holds warnings and errors only."""
    return sys.stderr.isatty() and wants_progress(args)


#: An argument of :func:`add_command`: a declaration, with :func:`add_param`'s keywords, or a
#: builder of arguments (:func:`add_output`, a command's own).
Argument: TypeAlias = \
    "Param | tuple[Param, dict[str, Any]] | Callable[[argparse.ArgumentParser], None]"


def add_command(subparsers: Any, name: str, run: Callable[[argparse.Namespace], Any],
                *arguments: Argument, help: str, description: str | None = None,
                rules: Sequence[Declared] = (),
                binding: Binding | Choice | tuple[Binding | Choice, ...] | str | None = None,
                ahead: Sequence[Declared] = (), aliases: Sequence[str] = (),
                example: str | None = None, sources: Sources | None = None,
                **defaults: Any) -> argparse.ArgumentParser | None:
    """The subcommand ``name`` declared in one call: ``help`` (and ``description``), its
    ``arguments`` in order (:data:`Argument`; the files it reads and writes are those of
    the arguments whose parameters have a domain of paths), its :mod:`irscale.cli.rules`
    (first those of the ``binding`` of the function it calls,
    :func:`~irscale.cli.rules.binding_rules`: the function's own rules, never restated
    here; a :class:`~irscale.core.binding.Choice` where an option chooses which function
    is called, :func:`~irscale.cli.rules.choice_rules`; both, a choice and a binding, where
    the chosen function's result is another's argument (``meta simulate``: the model, then
    the study); a binding named ``"MODULE:ATTRIBUTE"``, its rules made when the command line
    is checked, :class:`~irscale.cli.rules.LaterBinding`: ``eval --help`` loads none); after
    the rules ``ahead``, those
    of the choice of the function: ``online ab analyze --oec`` calls another function, to
    which the binding's rules do not apply; ``sources``: the options that give a parameter
    of the binding the command line gives by several, :func:`~irscale.cli.rules.
    binding_rules`), the other names it is called by (``aliases``), one ``example``
    invocation and the function that runs it (and other namespace ``defaults``). Returns
    the parser, or None where the command line chose another subcommand
    (:meth:`irscale.cli.parser.Choices.skips`: registered by name, aliases and help only).

    ``example``: the arguments after the command's words of a small valid call, in a
    shell's words, naming the example files of ``docs/cli.md`` ("Examples": ``qrels.txt``,
    ``a.run``, ``ap.csv`` ...). ``--help`` shows it (:meth:`irscale.cli.parser.Parser.
    format_help`), and the test suite's sweeps derive their command lines from it
    (``tests/faults/examples.py``): a command without one fails
    ``tests/faults/test_command_examples.py``."""
    if isinstance(subparsers, Choices) and subparsers.skips(name, aliases):
        subparsers.add_stub(name, help, aliases)
        return None
    parser = subparsers.add_parser(name, help=help, description=description or help,
                                   aliases=list(aliases))
    parser.example = example
    for argument in arguments:
        if isinstance(argument, Param):
            add_param(parser, argument)
        elif isinstance(argument, tuple):
            add_param(parser, argument[0], **argument[1])
        else:
            argument(parser)
    bound: tuple[Declared, ...] = ()
    if isinstance(binding, str):  # named: its rules made when they are checked
        if getattr(parser, "words", None) is not None:  # a command line's parser
            bound = (LaterBinding(binding, frozenset(action.dest for action in
                                                     parser._actions), sources),)
            binding = None
        else:  # built whole (the tests, the documentation): as a binding given
            binding = named_binding(binding)
    for each in binding if isinstance(binding, tuple) else () if binding is None else \
            (binding,):  # (irscale.core.binding is loaded where a binding is made)
        from ..core.binding import Choice

        if isinstance(each, Choice):
            offered = {action.dest: getattr(action, "irscale_param", None)
                       for action in parser._actions}
            bound += choice_rules(each, offered)
            parser.irscale_choice = each  # (tests/test_binding.py)
        else:
            bound += binding_rules(each, {action.dest for action in parser._actions},
                                   sources)
            parser.irscale_binding = each  # (tests/test_binding.py)
    declared = (*ahead, *bound, *rules)
    if declared:
        add_rules(parser, *declared)
    parser.set_defaults(func=run, **defaults)
    return parser


def declare(add: Callable[..., argparse.ArgumentParser | None],
            run: Callable[[argparse.Namespace], Any], *arguments: Argument,
            **keywords: Any) -> Callable[[Any, str], Any]:
    """A subcommand declared by ``add`` (:func:`add_command` or a group's own) with ``run``,
    ``arguments`` and ``keywords``, registered later under the name a group's table gives."""
    return lambda subparsers, name: add(subparsers, name, run, *arguments, **keywords)


def described(help: str, docs: str) -> str:
    """A command's description: its ``help`` as a sentence, then "See ``docs``."."""
    return f"{help[0].upper()}{help[1:]}. See {docs}."


def add_actions(subparsers: Any, name: str, *, description: str, what: str = "an action",
                metavar: str = "ACTION") -> Any:
    """The command ``name`` (``pool``, ``labels``) whose actions are registered on the
    sub-parsers returned; without one, a :class:`UsageError` names them. Its help is its
    line in ``irscale --help`` (:data:`irscale.cli.main.SUBCOMMANDS`)."""
    parser = subparsers.add_parser(name, help=SUBCOMMANDS[name], description=description)
    actions = parser.add_subparsers(dest=f"{name}_command", metavar=metavar)

    def no_action(args: argparse.Namespace) -> int:
        raise UsageError(f"{name}: choose {what}: {words(list(actions.choices), 'or')} "
                         f"(see '{parser.prog} --help')")

    parser.set_defaults(func=no_action)
    return actions
