"""What a command line gave, and when its options apply, declared next to them
(``docs/errors.md``).

An option that the other choices of a call would ignore is refused, not silently ignored
(``--samples`` with a t-test): each command declares its :class:`Rule` s, and the
:class:`Default` of an option whose default depends on another, with :func:`add_rules`;
:func:`check_options` applies them after parsing, in order, before any work.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from ..core.params import Needs, Param, Switch
from ..core.records import field, record
from ..errors import ParameterError
from .given import given as given
from .given import named as named
from .given import spelling as spelling

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..core.binding import Binding, Choice, Either, Excludes, Narrows
    from ..core.binding import Required as Needed
    from ..core.binding import Rule as BoundRule


#: The namespace entry of the rules and dependent defaults of a command (:func:`add_rules`).
RULES = "_rules"


@record
class Rule:
    """The options ``dests`` apply only where ``holds(args)``; elsewhere they are refused
    with ``message`` (or the message a function of the command line gives), formatted with
    the command line's values, ``{options}`` (those given, spelt as declared or as
    ``spelt`` says) and ``{applies}`` (the verb that agrees with them). ``bound``: built
    from a function's :class:`~irscale.core.binding.Binding` (:func:`binding_rules`)."""

    dests: tuple[str, ...]
    holds: Callable[[argparse.Namespace], bool]
    message: str | Callable[[argparse.Namespace], str]
    spelt: Mapping[str, str] = field(default_factory=dict)
    bound: bool = False

    def check(self, args: argparse.Namespace) -> None:
        """Refuse the options of ``dests`` given where the rule does not hold."""
        named = [self.spelt.get(dest) or spelling(args, dest) for dest in self.dests
                 if given(args, dest)]
        if not named or self.holds(args):
            return
        text = self.message(args) if callable(self.message) else self.message
        raise ParameterError(text.format_map(
            {**vars(args), "options": ", ".join(named),
             "applies": "applies" if len(named) == 1 else "apply"}))


def each(dests: tuple[str, ...], holds: Callable[[argparse.Namespace], bool],
         message: str | Callable[[argparse.Namespace], str],
         spelt: Mapping[str, str] | None = None) -> tuple[Rule, ...]:
    """One :class:`Rule` per option of ``dests``, in order: a message names one option."""
    return tuple(Rule((dest,), holds, message, spelt or {}) for dest in dests)


def binding_rules(binding: Binding, offered: Collection[str] | None = None,
                  sources: Sources | None = None) -> tuple[Declared, ...]:
    """The rules of a function's :class:`~irscale.core.binding.Binding` as the command line
    applies them (the options spelt as given): the parameters of a
    :class:`~irscale.core.params.Needs` refused where the option they depend on is not given
    or does not hold one of its values, a :class:`~irscale.core.binding.Required` option
    asked for. The same declarations the function checks on entry, so the two refuse the
    same calls. (:mod:`irscale.core.binding` is loaded here: the commands without a binding do
    without it, and ``irscale eval --help`` too, its binding named: :class:`LaterBinding`.)

    ``offered``: the command's options (their dests), where known: a rule none of whose
    parameters the command offers, or that depends on a parameter it does not offer (nor
    ``sources`` names), is the function's alone (a report section's parameter that no
    option gives). ``sources``: a parameter the command
    line gives by any of several options, by the parameter's dest (a report's
    ``collections``: ``--collection`` or ``--collections FILE``; ``pool simulate``'s
    ``contributors``: ``--contributors FILE`` or ``--contributor-pattern``), or by a switch
    that says the opposite (:class:`Negated`: ``loo=False`` is ``--no-loo``)."""
    return tuple(_declared(rule, sources) for rule in binding.rules
                 if rule.on is not None and _offers(rule, offered, sources))


@record
class Negated:
    """A switch parameter the command line gives as its opposite: the option stored in
    ``dest`` (``--no-loo``, ``--no-robustness``) sets the parameter to False, its absence
    leaves it True. A rule of the binding on the parameter (``contributors`` apply where
    ``loo`` is True) holds where the option is not given; its message names the option
    (``--contributors applies to the leave-one-contributor-out test, which --no-loo leaves
    out``)."""

    dest: str


#: The options (dests) that give a parameter the command line gives by several, or the
#: switch that gives its opposite (:class:`Negated`), by the parameter's dest
#: (:func:`binding_rules`).
Sources = Mapping[str, tuple[str, ...] | Negated]


def _options(sources: Sources | None, dest: str) -> tuple[str, ...]:
    """The options (dests) that give the parameter of ``dest``: its ``sources``, else its
    own."""
    found = (sources or {}).get(dest, (dest,))
    return (found.dest,) if isinstance(found, Negated) else found


def _governed(params: Iterable[Param], sources: Sources | None) -> tuple[str, ...]:
    """The options (dests) of the parameters a rule governs, each by its ``sources``."""
    return tuple(each for param in params for each in _options(sources, _dest(param)))


def _value(args: argparse.Namespace, dest: str, sources: Sources) -> object:
    """The value of the parameter of ``dest`` as the command line gives it (a
    :class:`Negated` switch: the opposite of its option)."""
    found = sources.get(dest)
    return not getattr(args, found.dest) if isinstance(found, Negated) else \
        getattr(args, dest)


def _offers(rule: BoundRule, offered: Collection[str] | None, sources: Sources | None
            ) -> bool:
    """Whether the command offers a parameter ``rule`` governs and every one it depends on
    (``offered`` None: every one; a switch given as its opposite, :class:`Negated`, for
    the rules that read its value: :class:`~irscale.core.params.Needs`, and
    :class:`~irscale.core.binding.Either`'s cases)."""
    from ..core.binding import Either, Narrows, SizedBy
    from ..core.binding import Required as Needed

    if offered is None:
        return True
    governed = (rule.param,) if isinstance(rule, (Needed, Narrows, SizedBy)) else rule.params
    depends = rule.depends() if isinstance(rule, Either) else (rule.on,)
    found = sources or {}
    reads = isinstance(rule, (Needs, Either))  # (the others read an option's own value)

    def given_by(dest: str) -> bool:
        return dest in offered or (dest in found and
                                   (reads or not isinstance(found[dest], Negated)))

    return any(dest in offered for dest in _governed(governed, sources)) and \
        all(given_by(_dest(param)) for param in depends if param is not None)


def _declared(rule: BoundRule, sources: Sources | None = None) -> Declared:
    """One rule of a binding (its ``on`` named) as the command line applies it."""
    from ..core.binding import Either, Excludes, Narrows
    from ..core.binding import Required as Needed

    if isinstance(rule, Needed):
        return _required(rule)
    if isinstance(rule, Narrows):
        return _narrowed(rule)
    if isinstance(rule, Excludes):
        return _excluded(rule)
    if isinstance(rule, Either):
        return _either(rule, sources or {})
    assert rule.on is not None  # (binding_rules, choice_rules)
    return _applicable(rule, rule.on, sources or {})


def choice_rules(choice: Choice, offered: Mapping[str, Param | None]) -> tuple[Declared, ...]:
    """The rules of a command that calls one of several functions, chosen by an option
    (:class:`~irscale.core.binding.Choice`): each option a binding declares refused where
    the choice made calls a function that does not take it (a
    :class:`~irscale.core.params.Needs` on the choosing option, the values
    :meth:`~irscale.core.binding.Choice.applies_to` gives); then, where a value is chosen,
    its function's :func:`binding_rules` and the domains of its parameters whose option
    (``offered``: each option's own parameter, by dest) is built from another declaration
    (``--model``: a named model or a formula for Tukey's HSD, one of two for the
    document-sampling test). None of them where one of the choice's ``unless`` is given:
    another function is called."""
    on = _dest(choice.on)
    unless = tuple(_dest(param) for param in choice.unless)

    def made(args: argparse.Namespace) -> bool:
        return not any(given(args, dest) for dest in unless)

    built: list[Declared] = []
    for param in choice.declared().values():
        needs = Needs((param,), on=choice.on, values=choice.applies_to(param.name))
        built.append(_only(_applicable(needs, choice.on), made))
    for binding, values in choice.chosen().values():
        def chosen(args: argparse.Namespace, values: tuple[str, ...] = values) -> bool:
            return made(args) and getattr(args, on) in values

        checked = tuple(param for param in binding.params if _dest(param) != on
                        and _dest(param) in offered
                        and offered[_dest(param)] is not param
                        and getattr(param.domain, "check", None) is not None)
        if checked:
            built.append(_only(_domains(checked), chosen))
        # (the rules on the choosing option itself are applies_to's)
        built += [_only(_declared(rule), chosen) for rule in binding.rules
                  if rule.on is not None and _dest(rule.on) != on]
    return tuple(built)


def _only(rule: Declared, when: Callable[[argparse.Namespace], bool]) -> Declared:
    """``rule`` applied only where ``when(args)`` holds."""
    if isinstance(rule, Rule):
        holds = rule.holds
        return Rule(rule.dests, lambda args: not when(args) or holds(args), rule.message,
                    rule.spelt, bound=rule.bound)

    def check(args: argparse.Namespace) -> None:
        if when(args):
            rule(args)  # type: ignore[operator]

    return check


def _domains(params: tuple[Param, ...]) -> Callable[[argparse.Namespace], None]:
    """The options of ``params`` given, checked against the domains of ``params`` (the
    chosen function's, narrower than the option's own) and stored as they return them."""
    def check(args: argparse.Namespace) -> None:
        for param in params:
            dest = _dest(param)
            if given(args, dest):
                setattr(args, dest, param.domain.check(getattr(args, dest),
                                                       spelling(args, dest)))

    return check


def _dest(param: Param) -> str:
    return param.dest or param.name


def _chosen(args: argparse.Namespace, dest: str) -> str:
    """The value of the option ``dest`` as the command line wrote it (a list: its items,
    comma-separated)."""
    value = getattr(args, dest)
    return ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


def _given(args: argparse.Namespace, dest: str, sources: Sources) -> bool:
    """Whether the parameter of ``dest`` is given: its option, or one of its ``sources``."""
    return any(given(args, each) for each in _options(sources, dest))


def _spelt(args: argparse.Namespace, dest: str, sources: Sources) -> str:
    """How a message spells the parameter of ``dest``: its option as given, or each of its
    ``sources`` (``--collection/--collections``)."""
    return "/".join(spelling(args, each) for each in _options(sources, dest))


def _holds(need: Needs, args: argparse.Namespace, sources: Sources) -> bool:
    """Whether the condition of ``need`` (its ``on``, given or holding its values) holds."""
    from ..core.binding import applies

    assert need.on is not None  # (a rule names the parameter it depends on)
    dest = _dest(need.on)
    if need.values is None:
        return _given(args, dest, sources)
    return applies(need.values, _value(args, dest, sources))


def _applicable(rule: Needs, on: Param, sources: Sources | None = None) -> Rule:
    """A :class:`~irscale.core.params.Needs` as a command-line :class:`Rule`."""
    dest = _dest(on)
    found = sources or {}

    def message(args: argparse.Namespace) -> str:
        negated = found.get(dest)
        if isinstance(negated, Negated) and rule.values in ((True,), (False,)):
            flag = spelling(args, negated.dest)
            if rule.values == (True,) and rule.what:  # the opposite leaves it out
                return f"{{options}} {{applies}} to {rule.what}, which {flag} leaves out"
            without = "without" if rule.values == (True,) else "with"
            return f"{{options}} {{applies}} only {without} {flag}"
        if isinstance(on.domain, Switch) and rule.values in ((True,), (False,)):
            # a switch chooses: applies with it, or without it (text bleu --corpus)
            with_it = "with" if rule.values == (True,) else "without"
            return f"{{options}} {{applies}} only {with_it} {on.flags[-1]}"
        flag = _spelt(args, dest, found) if rule.values is None else on.flags[-1]
        chosen = None if rule.values is None else _chosen(args, dest).replace(
            "{", "{{").replace("}", "}}")
        return rule.message("{options}", flag, "{applies}", chosen=chosen)

    return Rule(_governed(rule.params, found),
                lambda args: _holds(Needs((), on=on, values=rule.values), args, found),
                message, bound=True)


def _either(rule: Either, sources: Sources) -> Rule:
    """An :class:`~irscale.core.binding.Either` as a command-line :class:`Rule`: each case
    spelt as options (``--label-probabilities with --design topics``)."""
    def case(args: argparse.Namespace, needs: tuple[Needs, ...]) -> str:
        return " with ".join(
            _spelt(args, _dest(need.on), sources) if need.values is None else
            f"{need.on.flags[-1]} {words([str(v) for v in need.values], 'or')}"
            for need in needs if need.on is not None)

    return Rule(_governed(rule.params, sources),
                lambda args: any(all(_holds(need, args, sources) for need in needs)
                                 for needs in rule.cases),
                lambda args: rule.message("{options}", [case(args, needs)
                                                        for needs in rule.cases],
                                          "{applies}"), bound=True)


def _excluded(rule: Excludes) -> Rule:
    """An :class:`~irscale.core.binding.Excludes` as a command-line :class:`Rule`."""
    dest = _dest(rule.on)
    if rule.values is None:
        return Rule(tuple(_dest(param) for param in rule.params),
                    lambda args: not given(args, dest),
                    lambda args: rule.message("{options}", spelling(args, dest), "{applies}"),
                    bound=True)
    from ..core.binding import applies

    def message(args: argparse.Namespace) -> str:
        chosen = _chosen(args, dest).replace("{", "{{").replace("}", "}}")
        return rule.message("{options}", f"{rule.on.flags[-1]} {chosen}", "{applies}")

    return Rule(tuple(_dest(param) for param in rule.params),
                lambda args: not applies(rule.values, getattr(args, dest)), message,
                bound=True)


def _required(rule: Needed) -> Callable[[argparse.Namespace], None]:
    """A :class:`~irscale.core.binding.Required` as a command-line check."""
    from ..core.binding import applies

    dest, on = _dest(rule.param), _dest(rule.on)

    def check(args: argparse.Namespace) -> None:
        if getattr(args, dest) is None and applies(rule.values, getattr(args, on)):
            raise ParameterError(rule.message(
                f"{'/'.join(rule.param.flags)} {rule.param.metavar or ''}".rstrip(),
                f"{rule.on.flags[-1]} {_chosen(args, on)}"))

    return check


def _narrowed(rule: Narrows) -> Callable[[argparse.Namespace], None]:
    """A :class:`~irscale.core.binding.Narrows` as a command-line check: the option's
    value in the narrower domain where the option it depends on holds one of its values."""
    from ..core.binding import applies

    dest, on = _dest(rule.param), _dest(rule.on)

    def check(args: argparse.Namespace) -> None:
        if applies(rule.values, getattr(args, on)):
            text = rule.refusal(getattr(args, dest), spelling(args, dest),
                                f"{rule.on.flags[-1]} {_chosen(args, on)}")
            if text is not None:
                raise ParameterError(text)

    return check


@record
class Default:
    """The default of the option ``dest``, ``value(args)``, where it depends on others."""

    dest: str
    value: Callable[[argparse.Namespace], object]


#: What :func:`add_rules` declares: a rule, a dependent default, or a check of its own.
Declared = Rule | Default | Callable[[argparse.Namespace], None]


def add_rules(parser: argparse.ArgumentParser, *rules: Declared) -> None:
    """Declare ``rules`` of the options of ``parser``, checked in order."""
    parser.set_defaults(**{RULES: (*(parser.get_default(RULES) or ()), *rules)})


def check_options(args: argparse.Namespace) -> None:
    """Apply the command's rules and set its dependent defaults, in the order declared."""
    for rule in getattr(args, RULES, ()):
        check_rule(rule, args)


def check_rule(rule: Declared, args: argparse.Namespace) -> None:
    """Apply one declared rule (:func:`check_options`): a dependent default set where its
    option was not given, a :class:`Rule` checked, a check of its own called."""
    if isinstance(rule, Default):
        if not given(args, rule.dest):
            setattr(args, rule.dest, rule.value(args))
    elif isinstance(rule, Rule):
        rule.check(args)
    else:
        rule(args)


def named_binding(name: str) -> Binding:
    """The binding ``name`` names, ``"MODULE:ATTRIBUTE"`` (its module imported)."""
    import importlib

    module, _, attribute = name.partition(":")
    return getattr(importlib.import_module(module), attribute)


@record
class LaterBinding:
    """The rules of a binding named by its module and attribute
    (``"irscale.evaluation.params:EVALUATE"``, :func:`named_binding`), made from it
    (:func:`binding_rules`, ``offered`` and ``sources`` as there) and applied in their
    order when the command line is checked: a parser built for a command line that is only
    asked for ``--help`` loads neither the binding nor :mod:`irscale.core.binding`
    (:func:`irscale.cli.options.add_command`), and a command line that gives none of the
    options its rules refuse loads neither either (:func:`may_refuse`)."""

    name: str
    offered: frozenset[str]
    sources: Sources | None = None

    def __call__(self, args: argparse.Namespace) -> None:
        if self.sources is None and not may_refuse(self.name, args):
            return
        for rule in binding_rules(named_binding(self.name), self.offered, self.sources):
            check_rule(rule, args)


def refused_by(binding: Binding) -> tuple[str, ...] | None:
    """The options (dests) that the command-line rules of ``binding`` refuse
    (:func:`binding_rules`, every rule, no ``sources``): each rule a :class:`Rule`, which
    refuses only options given (:meth:`Rule.check`), so that a command line giving none of
    them passes every one; None where a rule may act on a command line without them (a
    :class:`~irscale.core.binding.Required` option asked for, a
    :class:`~irscale.core.binding.Narrows` domain that may refuse a default). The data of
    :data:`irscale._manifest.BINDING_REFUSES`, written by ``tools/manifest.py``."""
    rules = binding_rules(binding)
    refusing = [rule for rule in rules if isinstance(rule, Rule)]
    if len(refusing) < len(rules):
        return None
    return tuple(dict.fromkeys(dest for rule in refusing for dest in rule.dests))


def may_refuse(name: str, args: argparse.Namespace) -> bool:
    """Whether the rules of the binding ``name`` (``"MODULE:ATTRIBUTE"``) may refuse the
    command line ``args``: it gives one of the options they refuse, as the manifest lists
    them (:data:`irscale._manifest.BINDING_REFUSES`, :func:`refused_by`); True for a
    binding the manifest does not list, or whose rules may act without them."""
    from .._manifest import BINDING_REFUSES

    dests = BINDING_REFUSES.get(name)
    return dests is None or any(given(args, dest) for dest in dests)


@record
class Required:
    """The option ``dest`` is needed where ``when(args)`` holds: without it the call is
    refused with ``message`` (or the message a function of the command line gives),
    formatted with the command line's values."""

    dest: str
    when: Callable[[argparse.Namespace], bool]
    message: str | Callable[[argparse.Namespace], str]

    def __call__(self, args: argparse.Namespace) -> None:
        if getattr(args, self.dest) is None and self.when(args):
            text = self.message(args) if callable(self.message) else self.message
            raise ParameterError(text.format_map(vars(args)))


def words(values: Sequence[object], last: str = "and") -> str:
    """``values`` as a sentence lists them: ``a``, ``a and b``, ``a, b and c`` (``last``:
    the word before the last)."""
    said = [str(value) for value in values]
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} {last} {said[-1]}"


def applies_to(other: str, table: Mapping[str, Sequence[str]], *, flag: str | None = None,
               said: Mapping[str, str] | None = None,
               spelt: Mapping[str, str] | None = None) -> tuple[Rule, ...]:
    """Rules declared by a table: each option ``dest`` of ``table`` applies where the
    option stored in ``other`` (spelt ``flag``; a list option: one of its items) takes one
    of the values listed, refused elsewhere with one message for every command (``--lr
    applies to --method zbs, not to --method ds``); ``said`` words the values another way."""
    def chosen(args: argparse.Namespace) -> list[object]:
        value = getattr(args, other)
        return list(value) if isinstance(value, (list, tuple)) else [value]

    def rule(dest: str, allowed: tuple[str, ...]) -> Rule:
        def message(args: argparse.Namespace) -> str:
            option = flag or spelling(args, other)
            text = (said or {}).get(dest) or f"{option} {words(allowed)}"
            return f"{{options}} {{applies}} to {text}, not to {option} " + \
                ",".join(map(str, chosen(args)))

        return Rule((dest,), lambda args: bool(set(allowed) & set(chosen(args))), message,
                    spelt or {})

    return tuple(rule(dest, tuple(allowed)) for dest, allowed in table.items())


def spec_names(texts: Iterable[str], param: Param, form: str, least: int = 1) -> list[str]:
    """The names of the specs ``texts`` of a named input option ``param``
    (``NAME=PATHS``, :meth:`~irscale.core.params.InputFiles.split`), each naming
    ``least`` paths at least and a name once, before any file is read; ``form`` says what a
    spec must be in the message of one that is not."""
    option = param.flags[0]
    names = []
    for text in texts:
        name, paths = param.domain.split(text)
        if "=" not in text or not name.strip() or len(paths) < least:
            raise ParameterError(f"{option} must be {form}, got {text!r}")
        names.append(name.strip())
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ParameterError(f"{option} names {repeated} twice")
    return names
