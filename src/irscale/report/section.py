"""What a section of the report declares, and the one walk over the declarations.

A section of the experiment report (:mod:`irscale.report.sections`: one module each) is a
:class:`Section`: the options it takes (their domains, and when they apply, as a
:class:`~irscale.core.binding.Binding`'s parameters and rules), when it is in the report
(``on``), what it needs from the call and the evaluation (:class:`Requirement`), the
progress steps it takes, how it computes its part of the report (``build``: the fields of
:class:`~irscale.report.content.ReportContent` it fills) and how it is written (``html``:
its part of the page; ``tables``: its LaTeX and Markdown tables). The report's binding is
the union of the sections' declarations (:func:`report_binding`), checked on entry by
:func:`~irscale.report.build_report` and applied by ``irscale report``
(:func:`irscale.cli.rules.binding_rules`); the function, the page and the tables walk the
list of sections (:data:`irscale.report.sections.SECTIONS`), and each body receives
checked values. Adding a section is one module and one line of that list.

Loads nothing numerical: the command line reads the declarations before numpy is loaded
(a section imports what it computes with inside its functions).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

from ..core.binding import Binding, Either, Rule, applies
from ..core.params import NO_WORK, SEED, Needs, Param
from ..core.records import field, record

__all__ = ["SEED_OF_DRAWS", "Build", "Page", "Requirement", "Section", "TablesFormat",
           "check_needs", "command_binding", "in_report", "needs_of", "report_binding",
           "step_count"]

#: When a requirement is checked: on the call's options (before any input is read), on
#: the inputs read (before the evaluation), or on the evaluation.
Stage = Literal["call", "inputs", "evaluation"]
#: The formats of a section's tables (:func:`irscale.report.format_tables`).
TablesFormat = Literal["latex", "markdown"]
#: The progress steps a section takes (:data:`irscale.report.build.STEP_UNITS` units each):
#: none, one, or one per measure of the report.
Steps = Literal["none", "one", "each measure"]

#: The seed of every section of the report that draws (``--seed``): it applies where one
#: of them is in the report (each declares when it draws: :attr:`Section.draws`).
SEED_OF_DRAWS = Param("seed", SEED, 0, "seed of --dp, of --collection's bootstrap, of the draws "
                      "of --label-probabilities, of the judge-noise replicates and of the "
                      "bootstrap of --judge (the report is reproducible)", ("--seed",), "S",
                      cost=NO_WORK)


@record(eq=False)
class Build:
    """The state of one call of :func:`~irscale.report.build_report` that the sections read
    and fill: ``options`` (the call's arguments by name, checked on entry; a requirement
    may settle one, the baseline's run), the relevance ``level`` of every evaluation, the
    ``qrels`` and ``runs`` read, the measures ``requested`` (names), the ``evaluation``,
    the report's ``measures`` (labels), the ``fields`` of the report made so far,
    ``advance()`` (one more progress step done) and ``within(done, total)`` (the step
    under way that far)."""

    options: dict[str, Any]
    level: int = 1
    qrels: Any = None
    runs: Any = None
    requested: tuple[str, ...] = ()
    evaluation: Any = None
    measures: tuple[str, ...] = ()
    fields: dict[str, Any] = field(default_factory=dict)
    advance: Callable[[], None] = field(default=lambda: None)
    within: Callable[[int, int], None] = field(default=lambda done, total: None)

    def set(self, **values: Any) -> None:
        """Set ``values`` (the walk's, as it goes: the inputs, the evaluation, the
        progress)."""
        for name, value in values.items():
            object.__setattr__(self, name, value)


@record(eq=False)
class Requirement:
    """What a section needs, in words (``what``), checked at ``stage`` by ``check(build)``,
    which raises the refusal (an :mod:`irscale.errors` exception); a check of the inputs may
    settle an option (``build.options``: the baseline's run, by its name or file)."""

    what: str
    stage: Stage
    check: Callable[[Build], None]


@record(eq=False)
class Page:
    """What a section's HTML renderer is given besides the report: the ``digits`` of its
    numbers and ``figure(ax, caption)``, an inline SVG figure (numbered in the page)."""

    digits: int
    figure: Callable[[Any, str], str]


@record(eq=False)
class Section:
    """One section of the report (module documentation).

    ``name``: the section's module. ``params``: its options, whose domains are checked on
    entry, the command line building an option from each; ``own``: its options the command
    line gives its own way (``-B`` for the resamples of two sections), their domains
    checked on entry; ``takes``: options it takes whose domain is not checked; ``rules``:
    when they apply (:class:`~irscale.core.params.Needs`). ``on``/``values``: the option
    that puts the section in the report (given, or holding one of ``values``); None: always
    in it. ``draws``: the conditions under which it draws from the report's seed
    (:data:`SEED_OF_DRAWS`), together; empty: it does not draw. ``needs``: its
    requirements, checked in order where it is in the report. ``steps``: its progress
    steps. ``build(build)``: the fields of the report it fills; ``absent()``: those it
    leaves where it is not in the report. ``heading``: the title and anchor of its section
    of the page (None: its part continues the section before it); ``html(report, page)``:
    its part of the page, None where the report holds nothing of it; ``tables(report, fmt,
    digits)``: its LaTeX or Markdown tables (``fmt``), none where it holds nothing. A
    renderer declared None: the section has no part in that output (said in ``why``).
    ``group``: the title of its options in ``irscale report --help`` (default: its
    heading's title, else its name; :func:`irscale.cli.report.add_section_options`)."""

    name: str
    needs: tuple[Requirement, ...]
    build: Callable[[Build], Mapping[str, Any]] | None
    html: Callable[[Any, Page], list[str] | None] | None
    tables: Callable[[Any, TablesFormat, int], list[str]] | None
    params: tuple[Param, ...] = ()
    own: tuple[Param, ...] = ()
    takes: tuple[Param, ...] = ()
    rules: tuple[Rule, ...] = ()
    on: Param | None = None
    values: tuple[object, ...] | None = None
    draws: tuple[Needs, ...] = ()
    steps: Steps = "none"
    absent: Callable[[], Mapping[str, Any]] | None = None
    heading: tuple[str, str] | None = None
    why: str = ""
    group: str = ""


def in_report(section: Section, options: Mapping[str, Any]) -> bool:
    """Whether ``section`` is in the report of a call with ``options`` (:attr:`Section.on`
    given, or holding one of :attr:`Section.values`)."""
    if section.on is None:
        return True
    return applies(section.values, options.get(section.on.name), section.on.default)


def step_count(sections: Iterable[Section], measures: int) -> int:
    """The progress steps of ``sections`` (those in the report) for ``measures`` measures."""
    return sum({"none": 0, "one": 1, "each measure": measures}[s.steps] for s in sections)


def needs_of(sections: Iterable[Section]) -> tuple[Requirement, ...]:
    """The requirements of ``sections``, each once, in the order of the sections."""
    return tuple({id(need): need for section in sections for need in section.needs}.values())


def check_needs(needs: Iterable[Requirement], stage: Stage, build: Build) -> None:
    """Check the requirements ``needs`` of the call ``build`` at ``stage``, in order."""
    for need in needs:
        if need.stage == stage:
            need.check(build)


def _once(params: Iterable[Param]) -> tuple[Param, ...]:
    """``params`` without repeats (by name), in order."""
    return tuple({param.name: param for param in params}.values())


def _rules(sections: Sequence[Section]) -> tuple[Rule, ...]:
    """The rules of ``sections``, then that of the seed: it applies to the sections that
    draw (:attr:`Section.draws`, in the order of the sections)."""
    rules = tuple(rule for section in sections for rule in section.rules)
    cases = tuple(section.draws for section in sections if section.draws)
    return (*rules, Either((SEED_OF_DRAWS,), cases, "the sections that draw")) if cases \
        else rules


def report_binding(sections: Sequence[Section]) -> Binding:
    """The binding of :func:`~irscale.report.build_report`: the union of the sections'
    declarations (their ``params``, ``own`` and the parameter each is chosen by, ``on``,
    checked on entry; their rules, the seed's)."""
    params = _once(p for section in sections
                   for p in (*section.params, *section.own, *_chosen_by(section)))
    takes = _once(p for section in sections for p in section.takes)
    return Binding((*params, SEED_OF_DRAWS), rules=_rules(sections), takes=takes)


def _chosen_by(section: Section) -> tuple[Param, ...]:
    """The parameter that puts ``section`` in the report (``robustness=``), if any: its
    domain is checked as any parameter's (a data frame is no switch)."""
    return () if section.on is None else (section.on,)


def command_binding(sections: Sequence[Section]) -> Binding:
    """The same declarations as the command line applies them (``irscale report``, built
    from :data:`~irscale.report.sections.SECTIONS` as it stands when the parser is made):
    the options it builds from the sections' ``params`` and the same rules; the options it
    gives its own way (``own``) are taken, not built."""
    params = _once(p for section in sections for p in section.params)
    takes = _once(p for section in sections for p in (*section.own, *section.takes))
    return Binding((*params, SEED_OF_DRAWS), rules=_rules(sections), takes=takes)
