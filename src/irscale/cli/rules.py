"""When the options of a command apply, declared next to them (``docs/errors.md``).

An option that the other choices of a call would ignore is refused rather than silently
ignored (``--samples`` with a t-test, ``-p`` with Kendall's τ): each command declares the
:class:`Rule` of its options, and the :class:`Default` of an option whose default depends
on another, with :func:`add_rules`; :func:`check_options` applies them after parsing, in
the order declared, before any work.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..core.params import Needs
from ..errors import ParameterError
from .main import given, spelling

#: The namespace entry of the rules and dependent defaults of a command (:func:`add_rules`).
RULES = "_rules"


@dataclass(frozen=True)
class Rule:
    """The options ``dests`` apply only where ``holds(args)``: given elsewhere, they are
    refused with ``message``, rather than silently ignored (``docs/errors.md``).

    ``message`` is formatted with the values of the command line (``{test}``), the options
    given among ``dests`` (``{options}``: ``-B/--samples, --seed``) and the verb that agrees
    with them (``{applies}``); or it is a function of the command line that gives the text
    to format (so a text it builds holds no value as the user typed it: those go through
    the fields). The options are spelt as their declarations spell them, or as ``spelt``
    says (``{"measures": "-m"}``).
    """

    dests: tuple[str, ...]
    holds: Callable[[argparse.Namespace], bool]
    message: str | Callable[[argparse.Namespace], str]
    spelt: Mapping[str, str] = field(default_factory=dict)

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
    """One :class:`Rule` for each option of ``dests``, checked in that order: the message
    names the first of them given (``{options}``), not all of them."""
    return tuple(Rule((dest,), holds, message, spelt or {}) for dest in dests)


def needs(declared: Needs, dest: str) -> Rule:
    """The rule of the parameters of ``declared`` (:class:`~irscale.core.params.Needs`):
    they apply where the option stored in ``dest`` is given, refused elsewhere with the
    functions' message, spelt as the command spells the options."""
    return Rule(tuple(p.dest or p.name for p in declared.params),
                lambda args: getattr(args, dest) is not None,
                lambda args: declared.message("{options}", spelling(args, dest), "{applies}"))


@dataclass(frozen=True)
class Default:
    """The default of the option ``dest`` where it depends on other options: ``value(args)``
    when the option is not given."""

    dest: str
    value: Callable[[argparse.Namespace], object]


#: What :func:`add_rules` declares: a rule, a dependent default, or a check of its own (a
#: function of the command line that raises where the options do not go together).
Declared = Rule | Default | Callable[[argparse.Namespace], None]


def add_rules(parser: argparse.ArgumentParser, *rules: Declared) -> None:
    """Declare ``rules`` (and dependent defaults) of the options of ``parser``, checked in
    the order declared by :func:`check_options`."""
    declared = parser.get_default(RULES) or ()
    parser.set_defaults(**{RULES: (*declared, *rules)})


def check_options(args: argparse.Namespace) -> None:
    """Apply the rules of the command's options and set their dependent defaults
    (:func:`add_rules`), in the order declared, before any work."""
    for rule in getattr(args, RULES, ()):
        if isinstance(rule, Default):
            if not given(args, rule.dest):
                setattr(args, rule.dest, rule.value(args))
        elif isinstance(rule, Rule):
            rule.check(args)
        else:
            rule(args)
