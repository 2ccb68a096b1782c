"""Parameters bound once, at the function (:mod:`irscale.core.binding`): arity, keywords,
domains and applicability checked on entry; the command line's rules built from the same
declarations."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re

import pytest

import irscale
from irscale.cli.main import build_parser
from irscale.cli.rules import RULES, Rule
from irscale.core.binding import (
    Binding,
    Choice,
    Derived,
    Either,
    Excludes,
    Narrows,
    Required,
    SizedBy,
    bind_arguments,
    binding_of,
)
from irscale.core.params import Integers, Names, Needs, Param, Reals, Switch
from irscale.errors import ParameterError

LEVEL = Param("level", Integers(1), 1, "a level", ("-l",), "L")
KIND = Param("kind", Names("kind", ("a", "b", "c")), "a", "a kind", ("--kind",), "K")
WEIGHT = Param("weight", Reals(0.0, 1.0, "()"), 0.5, "a weight", ("--weight",), "W")
ORACLE = Param("oracle", Integers(0), None, "an oracle", ("--oracle",), "O")
DEPTH = Param("depth", Integers(1), None, "a depth", ("--depth",), "K")

SPAN = Param("span", Integers(1), None, "a span", ("--span",), "S")
TOY = Binding((LEVEL, KIND, WEIGHT, DEPTH),
              rules=(Needs((WEIGHT,), on=KIND, values=("b",)),
                     Needs((LEVEL,), on=ORACLE),
                     Required(DEPTH, on=KIND, values=("c",)),
                     Excludes((SPAN,), on=DEPTH, why="a depth sets the span")))


@TOY
def toy(data, kind="a", /, *, level=1, weight=0.5, oracle=None, depth=None, span=None):
    return data, kind, level, weight, oracle, depth


def test_the_body_gets_the_values_the_domains_return():
    assert toy("x", "a", level=2.0, oracle=0) == ("x", "a", 2, 0.5, 0, None)
    assert type(toy("x", level=3.0, oracle=0)[2]) is int


@pytest.mark.parametrize(("call", "message"), [
    (lambda: toy(), r"toy: missing data \(required\)"),
    (lambda: toy("x", "a", "extra"), r"toy takes at most 2 positional arguments \(data and "
     r"kind\), got 3"),
    (lambda: toy("x", levle=2), r"unknown keyword argument\(s\) levle \(did you mean level\?\)"),
    (lambda: toy("x", kind="a"), r"unknown keyword argument\(s\) kind"),  # positional-only
    (lambda: toy("x", level=0), "level must be an integer ≥ 1, got 0"),
    (lambda: toy("x", "d"), "kind: unknown kind 'd'"),
    (lambda: toy("x", weight=0.7), "weight= applies to kind 'b', not to kind 'a'"),
    (lambda: toy("x", level=2), "level= applies only with oracle="),
    (lambda: toy("x", "c"), "kind='c' needs depth="),
    (lambda: toy("x", "c", depth=2, span=3), r"span= applies without depth= \(a depth sets "
     "the span\\)"),
])
def test_refusals(call, message):
    with pytest.raises(ParameterError, match=message):
        call()


def test_rules_that_hold():
    assert toy("x", "b", weight=0.7)[3] == 0.7
    assert toy("x", level=2, oracle=0)[2] == 2
    assert toy("x", "c", depth=3)[5] == 3


def test_a_binding_refuses_a_parameter_the_function_lacks():
    with pytest.raises(TypeError, match="declares"):
        @Binding((LEVEL,))
        def lacks(data):
            return data


def test_arity_of_methods_and_varargs():
    class Thing:
        def method(self, a, *rest, b=1, **more):
            return a

    assert bind_arguments(Thing.method, (Thing(), 1, 2, 3), {"b": 2, "c": 3}) is not None
    with pytest.raises(ParameterError, match=r"missing a"):
        bind_arguments(Thing.method, (Thing(),), {})


def _command_line_of(binding: Binding) -> argparse.ArgumentParser:
    """A parser with the options of ``binding`` and its rules (as ``add_command`` builds)."""
    from irscale.cli.options import add_param
    from irscale.cli.parser import Parser
    from irscale.cli.rules import add_rules, binding_rules

    parser = Parser(prog="toy")
    for param in (*binding.params, ORACLE, SPAN):
        add_param(parser, param)
    add_rules(parser, *binding_rules(binding))
    return parser


@pytest.mark.parametrize(("argv", "keywords"), [
    (["--weight", "0.7"], {"weight": 0.7}),
    (["-l", "2"], {"level": 2}),
    (["--kind", "c"], {}),
    (["--kind", "c", "--depth", "2", "--span", "3"], {}),
    (["--kind", "b", "--weight", "0.7"], None),
    (["-l", "2", "--oracle", "0"], None),
])
def test_the_command_line_refuses_what_the_function_refuses(argv, keywords):
    """The same declaration refuses the same calls through both doors."""
    from irscale.cli.rules import check_options

    parser = _command_line_of(TOY)
    args = parser.parse_args(argv)
    given = {dest: getattr(args, dest) for dest in ("kind", "level", "weight", "oracle",
                                                    "depth", "span")}
    kind = given.pop("kind")
    call = {k: v for k, v in given.items() if v is not None and v != {"level": 1,
                                                                   "weight": 0.5}.get(k)}
    if keywords is None:  # both accept
        check_options(args)
        toy("x", kind, **call)
        return
    with pytest.raises(ParameterError) as cli:
        check_options(args)
    with pytest.raises(ParameterError) as api:
        toy("x", kind, **call)
    # one message, each spelling the parameters its own way
    plain = [re.sub(r" [A-Z]\b|[-=' ]", "", str(e.value).replace("-l ", "level "))
             for e in (cli, api)]
    assert plain[0] == plain[1], plain


NARROWED = Binding((KIND, LEVEL), rules=(Narrows(LEVEL, Integers(1, 3), on=KIND, values=("b",),
                                             why="kind b has three levels"),))


@NARROWED
def narrowed(*, kind="a", level=1):
    return kind, level


@pytest.mark.parametrize(("argv", "refused"), [
    (["--kind", "b", "-l", "4"], True), (["--kind", "b", "-l", "3"], False),
    (["--kind", "a", "-l", "4"], False), (["-l", "4"], False)])
def test_a_domain_narrowed_by_another_value(argv, refused):
    """:class:`~irscale.core.binding.Narrows`: a parameter's narrower domain where another
    holds some values, refused alike by the function and the command line."""
    from irscale.cli.rules import check_options

    args = _command_line_of(NARROWED).parse_args(argv)
    call = {"kind": args.kind, "level": args.level}
    if not refused:
        check_options(args)
        assert narrowed(**call) == (args.kind, args.level)
        return
    with pytest.raises(ParameterError, match=r"^-l with --kind b \(kind b has three levels\) "
                       r"must be an integer in \[1, 3\], got 4$"):
        check_options(args)
    with pytest.raises(ParameterError, match=r"^level with kind='b' \(kind b has three "
                       r"levels\) must be an integer in \[1, 3\], got 4$"):
        narrowed(**call)


ROWS = Param("rows", Integers(2), None, "rows drawn", ("--rows",), "R")
SIZED = Binding((ROWS,), rules=(SizedBy(ROWS, lambda call: len(call["data"]),
                                        "by default the rows of data"),))


@SIZED
def sized(data, *, rows=None):
    return rows


def test_a_default_read_from_the_data():
    """:class:`~irscale.core.binding.SizedBy`: a parameter not given takes its value from
    the call's data, checked against its domain on entry; the body receives it as given."""
    assert sized([1, 2, 3]) == 3
    assert sized([1, 2, 3], rows=5) == 5
    with pytest.raises(ParameterError, match=r"^rows \(by default the rows of data\) must "
                       r"be an integer ≥ 2, got 1$") as info:
        sized([1])
    assert info.value.param == "rows"
    with pytest.raises(ParameterError, match=r"^rows must be an integer ≥ 2, got 1$"):
        sized([1, 2, 3], rows=1)
    assert _command_line_of(SIZED).get_default(RULES) == ()  # (the data is not read yet)


SWITCHED = Param("loo", Switch(), True, "the test", ("--loo",))
NO_LOO = Param("no_loo", Switch(), False, "skip the test", ("--no-loo",))
TEAMS = Binding((SPAN,), rules=(Needs((SPAN,), "the test", on=SWITCHED, values=(True,)),))


@pytest.mark.parametrize(("argv", "message"), [
    (["--no-loo", "--span", "2"], "--span applies to the test, which --no-loo leaves out"),
    (["--no-loo", "--oracle", "2"], "--oracle applies to the test, which --no-loo leaves out"),
    (["--span", "2", "--oracle", "2"], None), (["--no-loo"], None)])
def test_a_switch_given_as_its_opposite(argv, message):
    """:class:`~irscale.cli.rules.Negated`: a rule on a switch the command line gives as its
    opposite (``--no-loo``: ``loo=False``) holds where the option is not given; a
    parameter given by several options (``sources``) is governed by each."""
    from irscale.cli.options import add_param
    from irscale.cli.parser import Parser
    from irscale.cli.rules import Negated, add_rules, binding_rules, check_options

    parser = Parser(prog="toy")
    for param in (SPAN, ORACLE, NO_LOO):
        add_param(parser, param)
    add_rules(parser, *binding_rules(TEAMS, {"span", "oracle", "no_loo"},
                                     {"loo": Negated("no_loo"), "span": ("span", "oracle")}))
    args = parser.parse_args(argv)
    if message is None:
        check_options(args)
        return
    with pytest.raises(ParameterError, match=f"^{re.escape(message)}$"):
        check_options(args)


# --------------------------------------------------------------------------- the package
def _bound_functions() -> list:
    """Every function of irscale declared with a :class:`Binding` (its modules imported)."""
    found = []
    for module in pkgutil.walk_packages(irscale.__path__, "irscale."):
        if ".cli." in module.name or module.name.endswith("__main__"):
            continue
        try:
            loaded = importlib.import_module(module.name)
        except ImportError:  # an optional package
            continue
        for value in vars(loaded).values():
            if callable(value) and binding_of(value) is not None and \
                    getattr(value, "__module__", "") == module.name:
                found.append(value)
    return found


BOUND = _bound_functions()


def test_bindings_are_found():
    assert any(f.__name__ == "pool" for f in BOUND)


@pytest.mark.parametrize("function", BOUND, ids=lambda f: f"{f.__module__}.{f.__name__}")
def test_defaults_hold_their_domains(function):
    """A default is never checked on entry: it must lie in its domain, and be the
    parameter's declared default (the command line's)."""
    from irscale.core.binding import arity

    binding = binding_of(function)
    defaults = arity(function).defaults
    for param in binding.params:
        default = defaults.get(param.name)  # (none: a required parameter)
        check = getattr(param.domain, "check", None)
        if default is not None and check is not None:
            check(default, param.name)
        if param.default is not None and default is not None:  # (None: worked out)
            assert default == param.default, (param.name, default, param.default)
    for rule in binding.rules:
        named = rule.params if hasattr(rule, "params") else (rule.param,)
        depends = rule.depends() if isinstance(rule, Either) else (rule.on,)
        for param in (*named, *depends):  # its own, or one of its **options
            assert param.name in defaults or param.name in arity(function).positional \
                or arity(function).varkw, (function.__name__, param.name)


def _parsers():
    """Every (sub)command parser of the command line, with its command words."""
    stack = [((), build_parser())]
    while stack:
        words, parser = stack.pop()
        yield words, parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    stack.append(((*words, name), sub))


#: Options a binding's rule governs that a hand-written rule also governs, on another
#: condition (not a restatement), by command, with why.
ALSO_BY_HAND = {
    ("pool", "simulate"): ({"contributor_pattern"}, "--contributors FILE and "
                           "--contributor-pattern give one argument (contributors=): not "
                           "both; the binding's rule is the leave-one-out test's (--no-loo)"),
}


def test_no_command_line_rule_restates_a_binding():
    """A command whose function has a binding takes its rules from it
    (``add_command(..., binding=...)``): no hand-written rule of the command refuses an
    option the binding's rules already govern (but those of :data:`ALSO_BY_HAND`)."""
    for words, parser in _parsers():
        rules = parser.get_default(RULES) or ()
        bound = [r for r in rules if isinstance(r, Rule) and r.bound]
        governed = {dest for r in bound for dest in r.dests}
        hand = [r for r in rules if isinstance(r, Rule) and r not in bound]
        twice = governed & {dest for r in hand for dest in r.dests}
        assert twice == ALSO_BY_HAND.get(tuple(words), (set(),))[0], (words, twice)


def test_a_bound_command_offers_the_functions_parameters_with_their_domains():
    """A command built with a function's binding offers each of its parameters as an option
    built from the same declaration (:func:`irscale.cli.options.add_param`), checked against
    the same domain: the command line and the function refuse the same values."""
    from irscale.core.params import Listed

    checked = 0
    for words, parser in _parsers():
        binding = getattr(parser, "irscale_binding", None)
        if binding is None:
            continue
        options = {id(getattr(action, "irscale_param", None)): action
                   for action in parser._actions}
        for param in binding.params:
            action = options.get(id(param))
            assert action is not None, (words, param.name, "no option built from it")
            domain = param.domain.domain if isinstance(param.domain, Listed) else param.domain
            assert getattr(action, "domain", domain) == domain, (words, param.name)
            checked += 1
    assert checked >= 20


# --------------------------------------------------------------------------- either
SEEDED = Param("seed", Integers(0), 0, "a seed", ("--seed",), "S")
DRAWS = Param("draws", Integers(1), None, "draws", ("--draws",), "N")
SOURCE = Param("source", Integers(0), None, "a source", ("--source",), "S")
EITHER = Binding((KIND, SEEDED, DRAWS),
                 rules=(Either((SEEDED,), ((Needs((), on=DRAWS),),
                                           (Needs((), on=KIND, values=("b",)),
                                            Needs((), on=SOURCE))), "what draws"),))


@EITHER
def drawn(data, *, kind="a", seed=0, draws=None, source=None):
    return data, kind, seed, draws, source


@pytest.mark.parametrize(("call", "api", "cli"), [
    ({"seed": 3}, "seed= applies to what draws (draws= or kind='b' with source=)",
     "--seed applies to what draws (--draws or --kind b with --source/--sources)"),
    ({"seed": 3, "kind": "b"}, "seed= applies to what draws", "--seed applies to what draws"),
    ({"seed": 3, "source": 1}, "seed= applies to what draws", "--seed applies to what draws"),
    ({"seed": 3, "draws": 2}, None, None),
    ({"seed": 3, "kind": "b", "source": 1}, None, None),
    ({"seed": 3, "kind": "b", "sources": 1}, "unknown keyword", None),  # the option only
    ({"kind": "b"}, None, None),
])
def test_either_holds_where_one_case_holds(call, api, cli):
    """An :class:`Either` refuses its parameters where no case holds, the function and the
    command line alike; the command line gives a parameter by any of its ``sources``."""
    from irscale.cli.options import add_command
    from irscale.cli.parser import Parser
    from irscale.cli.rules import check_options

    if api is None:
        drawn("x", **call)
    else:
        with pytest.raises(ParameterError, match=re.escape(api)):
            drawn("x", **call)
    parser = Parser(prog="toy")
    add_command(parser.add_subparsers(dest="command"), "toy", lambda args: 0, KIND, SEEDED,
                DRAWS, SOURCE, Param("sources", Integers(0), None, "sources", ("--sources",)),
                binding=EITHER, sources={"source": ("source", "sources")}, help="a toy")
    argv = [part for key, value in call.items() for part in (f"--{key}", str(value))]
    args = parser.parse_args(["toy", *argv])
    if cli is None:
        check_options(args)
        return
    with pytest.raises(ParameterError, match=re.escape(cli)):
        check_options(args)


# --------------------------------------------------------------------------- a choice
TEST = Param("test", Names("test", ("one", "two", "three")), "one", "a test", ("--test",))
FIRST = Binding((WEIGHT, KIND), rules=(Needs((LEVEL,), on=KIND, values=("b",)),), takes=(ORACLE,))
SECOND = Binding((LEVEL, KIND, Param("depth", Integers(5), None, "d", ("--depth",))),
                 rules=(Needs((SPAN,), on=TEST, values=("three",)),))
CHOICE = Choice(on=TEST, bindings={"one": FIRST, "two": SECOND, "three": SECOND},
                unless=(ORACLE,))


def _command_line_of_choice() -> argparse.ArgumentParser:
    """A parser with a choice's options and the rules ``add_command`` builds from it."""
    from irscale.cli.options import add_command
    from irscale.cli.parser import Parser

    parser = Parser(prog="toy")
    commands = parser.add_subparsers(dest="command")
    add_command(commands, "toy", lambda args: 0, TEST, LEVEL, KIND, WEIGHT, ORACLE, DEPTH,
                SPAN, binding=CHOICE, help="a toy")
    return parser


@pytest.mark.parametrize(("argv", "message"), [
    (["--test", "two", "--weight", "0.7"], "--weight applies to --test one, not to --test two"),
    (["--test", "one", "--depth", "7"], "--depth applies to --test two and three, not to "
     "--test one"),
    (["--test", "two", "--span", "1"], "--span applies to --test three, not to --test two"),
    # the chosen function's own rules, and its domains where narrower than the option's
    (["--test", "one", "-l", "2"], "-l applies to --kind b, not to --kind a"),
    (["--test", "two", "--depth", "2"], "--depth must be an integer ≥ 5, got 2"),
    (["--test", "one", "-l", "2", "--kind", "b"], None),
    (["--test", "two", "-l", "2"], None),
    (["--test", "three", "--depth", "6", "--span", "1"], None),
    # not made: another function is called
    (["--oracle", "1", "--weight", "0.7", "--test", "two"], None),
])
def test_a_choice_refuses_what_the_chosen_function_does_not_take(argv, message):
    from irscale.cli.rules import check_options

    args = _command_line_of_choice().parse_args(["toy", *argv])
    if message is None:
        check_options(args)
        return
    with pytest.raises(ParameterError, match=re.escape(message)):
        check_options(args)


def test_a_choice_declares_where_each_parameter_applies():
    assert CHOICE.applies_to("weight") == ("one",)
    assert CHOICE.applies_to("oracle") == ("one",)  # taken, its domain undeclared
    assert CHOICE.applies_to("span") == ("three",)  # the binding's rule on the choice
    assert set(CHOICE.declared()) == {"weight", "level", "oracle", "kind", "depth", "span"}


def test_commands_with_a_choice_take_its_rules():
    """A command declared with a :class:`Choice` governs every parameter its bindings
    declare and it offers by a rule built from the choice (``bound``), and no hand rule
    of it governs one (:func:`test_no_command_line_rule_restates_a_binding`)."""
    found = 0
    for words, parser in _parsers():
        choice = getattr(parser, "irscale_choice", None)
        if choice is None:
            continue
        found += 1
        dests = {action.dest for action in parser._actions}
        rules = parser.get_default(RULES) or ()
        bound = {dest for r in rules if isinstance(r, Rule) and r.bound for dest in r.dests}
        for name, param in choice.declared().items():
            dest = param.dest or name
            if dest in dests:
                assert dest in bound, (words, dest)
    assert found >= 1


# --------------------------------------------------------------------------- every command
#: The leaf commands declared without a binding, each with why: the function it calls takes
#: no parameter whose domain or rule a binding declares, or its binding cannot give the
#: command's options. A command absent here must declare the binding of the function it calls
#: (``add_command(..., binding=...)``), so that a new command cannot skip its function's rules.
UNBOUND = {
    "convert": "reads one input (read_qrels or read_run, as --kind says) and writes it; its "
               "one rule is --name's, a run's name, which qrels have not",
    "demo": "writes the example files; the engine's evaluation is irscale eval's",
}


def test_every_command_declares_its_functions_binding():
    """Every leaf command declares the binding (or the choice) of the function it calls,
    or is listed in :data:`UNBOUND` with why; a command listed there is one that exists."""
    names: dict[int, set[str]] = {}
    parsers: dict[int, argparse.ArgumentParser] = {}
    for words, parser in _parsers():
        if words and not any(isinstance(action, argparse._SubParsersAction)
                             for action in parser._actions):
            names.setdefault(id(parser), set()).add(" ".join(words))
            parsers[id(parser)] = parser
    unlisted = [sorted(said) for key, said in names.items()
                if getattr(parsers[key], "irscale_binding", None) is None
                and getattr(parsers[key], "irscale_choice", None) is None
                and not said & set(UNBOUND)]
    assert not unlisted, f"commands without the binding of their function: {unlisted}"
    every = set().union(*names.values())
    assert set(UNBOUND) <= every, sorted(set(UNBOUND) - every)


# --------------------------------------------------------------------------- body checks
#: The checks of a value against a declared domain that a body still makes outside the
#: mechanism (``core/``), found by :func:`_body_checks` as (module, what is checked), each
#: with why it is no binding's: the command line's own machinery, a value no declaration
#: can state (a part of a parsed text, a size read from the data, a check whose domain
#: depends on another value), a helper shared by bound functions, or a check still to be
#: moved into its function's binding (said so). A new body check fails
#: :func:`test_no_new_body_check_outside_the_bindings`: declare the parameter in its
#: function's :class:`~irscale.core.binding.Binding` instead.
BODY_CHECKS = {
    # the command line's machinery: options checked as parsed, rules applied
    ("cli/options.py", "self.domain"): "an option's value checked as parsed (Checked, "
                                       "ListAction): the domain of its parameter",
    ("cli/options.py", "self.whole"): "a list option checked as a whole (Increasing)",
    ("cli/rules.py", "rule"): "the command's rules applied (check_options)",
    ("cli/rules.py", "param.domain"): "a chosen function's narrower domain (choice_rules)",
    ("cli/inputs.py", "rule"): "the inputs' rules applied before the inputs are read",
    ("cli/eval.py", "Rule(dests, lambda _: holds, message)"): "irscale eval's rules (its "
                                                             "options are the engine's)",
    ("online/params.py", "super()"): "a domain's own check (Impressions extends Integers)",
    ("stats/params.py", "super()"): "a domain's own check (Scheffé's models extend the "
                                    "ANOVA models' domain)",
    ("meta/params.py", "Listed(MATRIX_SIZE, 'a topic-set size')"): "a domain's own check "
        "(the topic-set sizes, N or N,N,..., each checked as Listed(MATRIX_SIZE))",
    ("meta/simulation.py", "TOPIC_SUBSETS.domain"): "BootstrapModel's field (a record: its "
                                                    "constructor checks its declared fields)",
    # a value no declaration states: parts of a parsed text, sizes read from the data
    ("cli/pool.py", "DEPTH"): "--strata D:F,...: each depth of the text as it is split",
    ("cli/pool.py", "cp.STRATUM_RATE"): "--strata D:F,...: each rate of the text as it is "
                                        "split",
    ("collections/sampling.py", "DEPTH"): "strata='D:F,...': each depth of the text",
    ("collections/sampling.py", "STRATUM_RATE"): "strata='D:F,...': each rate of the text",
    ("io/table.py", "Integers(0, max(len(table.runs) - 1, 0), strict=True)"):
        "a run's index, bounded by the runs of the table read",
    ("meta/simulation.py", "param.domain"): "NormalModel's fields (a record: its "
                                            "constructor checks its declared parameters)",
    ("meta/simulation.py", "EFFECT"): "NormalModel's effects, one per system: their count "
                                      "is the systems'",
    ("meta/simulated_runs.py", "EFFECT"): "RunsModel's qualities, a list that may repeat "
                                          "a value (Listed refuses repeats)",
    ("meta/splitting.py", "SHARD_EMPTY"): "the empty-cell policy of shard models, read "
                                          "where a shard table is met",
    ("measures/base.py", "valid"): "a measure family's parameter range, of the name parsed",
    ("report/section.py", "need"): "a report section's declared Requirement, checked at "
                                   "its stage (the declaration itself, not a body check)",
    ("online/clickmodels.py", "result"): "a fitted click model's own consistency",
    ("online/rewards.py", "reward"): "a reward model's own consistency",
    ("online/simulate.py", "model"): "a user model's own consistency",
    # helpers shared by bound functions (each the check of one declared domain)
    ("scales/space.py", "LENGTH"): "Space, the record every scale function builds: its N",
    ("scales/space.py", "DEGREES"): "Space: its levels",
    ("scales/space.py", "RECALL_COUNT"): "Space: a recall base of its degrees, whose count "
                                         "is the levels'",
    ("scales/shards.py", "SHARDS"): "the shards of a sharded image made outside scale()",
    ("stats/validation.py", "domain"): "check_counts, the lists of counts of the statistics",
    ("stats/resampling.py", "SEED"): "check_seed: a seed, a sequence of seeds or a numpy "
                                     "SeedSequence (no declared domain takes all three)",
    ("stats/names.py", "PROCEDURE"): "the procedures of a list named by the meta analyses",
    ("stats/registry.py", "TEST"): "the registry's lookup of a test by name",
    ("stats/corrections.py", "CORRECTION"): "a correction named where p-values are adjusted",
    ("stats/mixed.py", "RANDOM.domain"): "each term of a formula's random part",
    ("meta/procedures.py", "PROCEDURE"): "canonical_procedure, the name of a procedure a "
                                         "list or a pair holds",
    ("meta/rank_correlation.py", "CORRELATION"): "method_name, shared by the correlations",
    ("meta/rank_correlation.py", "PERSISTENCE"): "check_persistence, RBO's p where a method "
                                                 "takes it among its options",
    ("parallel/executor.py", "WORKERS"): "check_workers, shared by every threaded function",
    # another package's, not moved here
}


def _body_checks() -> set[tuple[str, str]]:
    """Every ``X.check(...)`` of the package outside ``core/``, as (module, ``X``)."""
    import ast
    from pathlib import Path

    root = Path(irscale.__file__).parent
    found = set()
    for path in root.rglob("*.py"):
        module = path.relative_to(root).as_posix()
        if module.startswith("core/"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr == "check":
                found.add((module, ast.unparse(node.func.value)))
    return found


def test_no_new_body_check_outside_the_bindings():
    """A body checks no parameter against its domain by itself (its function's binding
    does, on entry, for the API and the command line): the checks left are those of
    :data:`BODY_CHECKS`, each with why; a check gone is taken off the list."""
    found = _body_checks()
    new = sorted(found - set(BODY_CHECKS))
    assert not new, f"body checks outside a binding: {new}: declare the parameter in the " \
        "function's Binding (irscale.core.binding), or list it in BODY_CHECKS with why"
    gone = sorted(set(BODY_CHECKS) - found)
    assert not gone, f"listed body checks that are gone: {gone}"


# --------------------------------------------------------------------------- the edge
#: What the API's edge (``core/edge.py``) still does, each with why no declaration can do
#: it: its functions by name, and the exceptions its wrapper (``public``) translates. A
#: new function or a new ``except`` there fails :func:`test_the_edge_keeps_only_what_no_
#: binding_can_know`: move the knowledge to a domain, a rule or a declared parameter
#: (``core/params.py``, ``core/binding.py``), or list it here with why it cannot move.
EDGE_TRANSLATORS = {
    # the mechanism that puts the exports behind the edge
    "public": "the wrapper: binds the arity of a function declared without a Binding, "
              "makes the call one call (reads, warnings at the caller's line, numpy's "
              "floating-point errors)",
    "guard": "puts a package's exports behind the edge where the package exports them",
    "guarded": "a lazy export (a function, a class's constructor and public methods) "
               "behind the edge",
    "_with_methods_guarded": "the methods of what a call returns, public too: known once "
                             "the call has returned it",
    "_methods": "the public methods of a class of irscale (guarded's)",
    "__getattr__": "keyword_error loaded on first use (the binding is not on irscale "
                   "eval's start-up path)",
    # the translators
    "_forwarded": "keywords a function hands on through **options to a function the call "
                  "chooses (a test named by test=): unknown until that one is called",
    "_names_parameter": "whether an irscale error raised inside names a parameter already",
    "_name_argument": "which argument an error raised where a value is read (a file's "
                      "line, an empty table) is about: only the call knows which argument "
                      "passed the value",
    "_bind_arity": "the arity and keywords of a call: a function declared without a "
                   "Binding has no wrapper that binds them",
    "_checked_on_entry": "each argument judged on entry against its parameter's declared "
                         "type (the signature: core.hints.check_entry), in the words of "
                         "the binding's domain where the binding declares the parameter, "
                         "or of the domain an Annotated type carries: no declaration "
                         "states a parameter's type twice",
}
#: The exceptions ``public`` translates, each with why.
EDGE_HANDLERS = {
    "IrscaleError": "an error raised inside: named with the argument it is about, or "
                    "with the keywords handed on",
    "RAW": "a raw Python exception: keywords handed on through **options named, else "
           "it propagates unchanged: every argument had its declared type on entry, so "
           "it is irscale's own fault",
}
#: The most lines the edge may take (the module was 743 before its checks moved to the
#: declarations).
EDGE_LINES = 350


def test_the_edge_keeps_only_what_no_binding_can_know():
    """The edge's functions and the exceptions it translates are those listed, each with
    why no declaration can hold it; it stays small."""
    import ast
    from pathlib import Path

    path = Path(irscale.__file__).parent / "core" / "edge.py"
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert functions == set(EDGE_TRANSLATORS), (
        f"unlisted: {sorted(functions - set(EDGE_TRANSLATORS))}, gone: "
        f"{sorted(set(EDGE_TRANSLATORS) - functions)}: move the knowledge to a declaration "
        "(core/params.py, core/binding.py) or list the function with why")
    public = next(node for node in tree.body
                  if isinstance(node, ast.FunctionDef) and node.name == "public")
    handlers = {ast.unparse(node.type) for node in ast.walk(public)
                if isinstance(node, ast.ExceptHandler) and node.type is not None}
    assert handlers == set(EDGE_HANDLERS), sorted(handlers ^ set(EDGE_HANDLERS))
    lines = len(source.splitlines())
    assert lines <= EDGE_LINES, f"core/edge.py has {lines} lines (at most {EDGE_LINES})"


FLAG = Param("flag", Switch(), False, "a flag", ("--flag",))
#: A rule that depends on a parameter the binding does not declare in its params.
FLAGGED = Binding((), rules=(Needs((SPAN,), on=FLAG, values=(True,)),))


@FLAGGED
def flagged(data, *, flag=False, span=None):
    return data, flag, span


def test_a_rule_refuses_a_value_it_cannot_compare():
    """A value of the parameter a rule depends on that cannot be compared with the rule's
    values (an array for a switch) is refused by the rule itself, in its domain's words,
    not left to fail as a raw ``ValueError`` inside the rule."""
    import numpy as np

    assert flagged("x", flag=True, span=2) == ("x", True, 2)
    with pytest.raises(ParameterError, match=r"^flag must be True or False, got a ndarray "
                       r"of shape \(2,\)$") as caught:
        flagged("x", flag=np.array([True, False]), span=2)
    assert caught.value.param == "flag"
    assert caught.value.__cause__ is None


PARTS = Param("parts", Names("part", ("a", "b", "c")), None, "the parts, derived from names",
              ("parts",))
DERIVED = Binding((LEVEL,), rules=(Needs((SPAN,), "part c", on=PARTS, values=("c",)),),
                  derived=(Derived(PARTS, lambda call: (call["level"], *call["names"])),))


@DERIVED
def derived(data, *, names="a", level=1, span=None, parts=()):
    return parts, level, span


def test_a_value_derived_from_the_call():
    """:class:`~irscale.core.binding.Derived`: a value the rules depend on, worked out on
    entry from the call's arguments (defaults included, each as its domain returned it),
    given to the body; a caller who gives it is refused as for a keyword not taken."""
    assert derived("x") == ((1, "a"), 1, None)
    assert derived("x", names="ac", level=2.0, span=3) == ((2, "a", "c"), 2, 3)
    with pytest.raises(ParameterError, match=r"^span= applies to part c, not to parts "
                       r"\(1, 'a'\)$"):
        derived("x", span=3)
    with pytest.raises(ParameterError, match=r"^level must be an integer ≥ 1, got 0$"):
        derived("x", level=0, span=3)
    with pytest.raises(ParameterError, match=r"^derived: unknown keyword argument\(s\) "
                       r"parts; it takes data, names, level, span$"):
        derived("x", parts=("c",))
    with pytest.raises(TypeError, match="declares"):
        DERIVED(lambda data, *, names="a", level=1, span=None: data)
