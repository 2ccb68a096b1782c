"""The report as a list of sections (:mod:`irscale.report.sections`): every module of the
package declares one :class:`~irscale.report.section.Section` (its options, what it needs,
how it is built and written), the list holds every module, the report's binding is the
union of their declarations, and the function, the page and the tables walk that list (a
throw-away section added to it is built, checked and written with no other line)."""

from __future__ import annotations

import argparse
import importlib
import pkgutil

import pytest

import irscale.report.sections as listed
from irscale.core.binding import Binding, Either, binding_of
from irscale.core.params import Integers, Needs, Param
from irscale.errors import ParameterError
from irscale.report import build_report, format_tables, render_html
from irscale.report.params import DP, REPORT
from irscale.report.section import SEED_OF_DRAWS, Requirement, Section, command_binding
from tests.report_data import write_collection


def _modules(paths) -> list[str]:
    """The modules of the sections' package found in ``paths`` (its ``__path__``)."""
    return sorted(info.name for info in pkgutil.iter_modules(paths))


def _unlisted(paths) -> list[str]:
    """The modules of the package that :data:`~irscale.report.sections.SECTIONS` leaves
    out: a section the report would never walk."""
    named = {section.name for section in listed.SECTIONS}
    return [name for name in _modules(paths) if name not in named]


def _check_listed(paths) -> None:
    unlisted = _unlisted(paths)
    assert not unlisted, (
        f"irscale.report.sections: {', '.join(unlisted)} not in SECTIONS (irscale/report/"
        "sections/__init__.py): add its line where the report shows it")


def test_every_module_of_the_package_is_a_listed_section():
    _check_listed(listed.__path__)
    assert [s.name for s in listed.SECTIONS] == [
        "summary", "baseline", "drilldown", "anova", "plots", "robustness", "discriminative",
        "bounds", "automatic", "audit", "plan", "noise", "across", "answers",
        "reproducibility"]


def test_a_section_module_left_out_of_the_list_is_named(tmp_path, monkeypatch):
    """A new module in the package that the list does not hold fails the test above,
    which names it."""
    (tmp_path / "extra_panel.py").write_text('"""A section nobody listed."""\n')
    with pytest.raises(AssertionError, match="extra_panel not in SECTIONS"):
        _check_listed([*listed.__path__, str(tmp_path)])


@pytest.mark.parametrize("name", _modules(listed.__path__))
def test_every_section_declares_options_needs_and_renderers(name):
    module = importlib.import_module(f"irscale.report.sections.{name}")
    section = getattr(module, "SECTION", None)
    assert isinstance(section, Section), f"{module.__name__} declares no SECTION"
    assert section.name == name
    assert all(isinstance(need, Requirement) for need in section.needs)
    assert all(isinstance(p, Param) for p in (*section.params, *section.own, *section.takes))
    assert section.html is not None or section.tables is not None, name
    if section.html is None or section.tables is None:  # a renderer left out says why
        assert section.why, f"{name}: a renderer declared None without why"
    if section.on is not None:  # a section not always there leaves its fields
        assert section.absent is not None, name
    assert section.steps in ("none", "one", "each measure")


def test_the_binding_is_the_union_of_the_sections():
    """The function checks every option of every section on entry (REPORT), the command
    line builds its options from the sections' ``params`` (command_binding), and both hold
    every section's rules and the seed's, whose cases are the sections that draw."""
    assert binding_of(build_report) is REPORT and isinstance(REPORT, Binding)
    names = {p.name for p in REPORT.params}
    command = command_binding(listed.SECTIONS)
    offered = {p.name for p in command.params}
    for section in listed.SECTIONS:
        assert {p.name for p in (*section.params, *section.own)} <= names, section.name
        assert {p.name for p in section.params} <= offered, section.name
        assert not {p.name for p in section.own} & offered, section.name
        for rule in section.rules:
            assert rule in REPORT.rules and rule in command.rules, section.name
    seed = [rule for rule in REPORT.rules if isinstance(rule, Either)
            and rule.params == (SEED_OF_DRAWS,)]
    assert len(seed) == 1 and seed[0].cases == tuple(
        s.draws for s in listed.SECTIONS if s.draws)
    # the resamples, weights, test and correction: checked on entry, no body repeats it
    assert {"interval_samples", "dp_samples", "collection_samples", "collection_weights",
            "test", "correction"} <= names


def test_the_command_offers_every_sections_options():
    """``irscale report`` builds an option from each section's ``params`` (the same
    declaration: its domain and flags), and applies the sections' binding."""
    import argparse

    from irscale.cli.main import build_parser

    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    report = action.choices["report"]
    built = {id(getattr(a, "irscale_param", None)) for a in report._actions}
    for section in listed.SECTIONS:
        for param in section.params:
            assert id(param) in built, (section.name, param.name)
    assert report.irscale_binding.params == command_binding(listed.SECTIONS).params
    assert report.irscale_binding.rules == command_binding(listed.SECTIONS).rules


#: The option of a throw-away section (below): a number, applying with ``--dp`` only.
EXTRA_DEPTH = Param("extra_depth", Integers(1, 99), 3, "depth of the extra section",
                    ("--extra-depth",), "N")


def _with_extra(monkeypatch) -> None:
    """A throw-away section with one option, ``--extra-depth``, placed before the last one
    of the list (no other line declares it)."""
    extra = Section("extra", needs=(), build=lambda build: {}, html=lambda report, page: [],
                    tables=lambda report, fmt, digits: [], params=(EXTRA_DEPTH,),
                    rules=(Needs((EXTRA_DEPTH,), "the extra section", on=DP),),
                    group="the extra section")
    monkeypatch.setattr(listed, "SECTIONS", (*listed.SECTIONS[:-1], extra,
                                             listed.SECTIONS[-1]))


def test_a_new_sections_option_reaches_the_command_line(monkeypatch):
    """A section added to the list has its option in ``irscale report`` (its group of
    ``--help``, after those of the sections before it) and its rule, with no line of the
    command line's module."""
    from irscale.cli.main import build_parser

    _with_extra(monkeypatch)
    parser = build_parser("report")
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    report = action.choices["report"]
    titles = [group.title for group in report._action_groups]
    assert titles.index("the extra section") > titles.index("across collections")
    group = report._action_groups[titles.index("the extra section")]
    assert [getattr(a, "irscale_param", None) for a in group._group_actions] == [EXTRA_DEPTH]
    assert EXTRA_DEPTH in report.irscale_binding.params
    assert "--extra-depth N" in report.format_help()


def test_a_new_sections_option_reaches_the_function(collection, monkeypatch, capsys):
    """``irscale report --extra-depth 5`` hands ``extra_depth=5`` to ``build_report`` (the
    default where not given), and refuses it, by the section's rule, without ``--dp``."""
    import irscale.report
    from irscale.cli.main import main

    _with_extra(monkeypatch)
    seen: list[dict] = []

    def spy(qrels, runs, measures, **options):
        seen.append(dict(options))
        options.pop("extra_depth")
        return build_report(qrels, runs, measures, **options)

    monkeypatch.setattr(irscale.report, "build_report", spy)
    qrels, runs = collection
    base = ["report", str(qrels), *map(str, runs), "-m", "map", "--no-robustness",
            "--format", "markdown", "--no-progress"]
    assert main([*base, "--dp", "-B", "20", "--extra-depth", "5"]) == 0
    assert main([*base, "--dp", "-B", "20"]) == 0
    assert [options["extra_depth"] for options in seen] == [5, 3]
    assert seen[0]["dp"] is True and seen[0]["dp_samples"] == 20
    capsys.readouterr()
    assert main([*base, "--extra-depth", "5"]) == 2
    assert "--extra-depth" in capsys.readouterr().err and len(seen) == 2


@pytest.fixture(scope="module")
def collection(tmp_path_factory):
    return write_collection(tmp_path_factory.mktemp("collection"))


def test_the_report_walks_the_list(collection, monkeypatch):
    """A section added to the list is built (its requirements checked first), and written
    on the page, under its heading, and in the tables, in its place."""
    seen = []

    def need(build):
        seen.append(("need", build.evaluation is not None))

    def build(build):
        seen.append(("build", build.measures))
        return {}

    extra = Section("extra", needs=(Requirement("nothing", "evaluation", need),),
                    build=build, html=lambda report, page: ["<p>extra part</p>"],
                    tables=lambda report, fmt, digits: [f"extra {fmt}"],
                    heading=("Extra", "extra-section"))
    monkeypatch.setattr(listed, "SECTIONS", (*listed.SECTIONS[:-1], extra,
                                             listed.SECTIONS[-1]))
    qrels, runs = collection
    report = build_report(qrels, [str(r) for r in runs], ["map"], robustness=False)
    assert seen == [("need", True), ("build", ("map",))]
    page = render_html(report)
    assert '<section id="extra-section"><h2>Extra</h2>\n<p>extra part</p></section>' in page
    assert page.index('id="extra-section"') < page.index('id="reproducibility"')
    assert '<a href="#extra-section">Extra</a>' in page
    assert format_tables(report, "markdown").endswith("extra markdown")


def test_a_section_out_of_the_report_is_not_built(collection, monkeypatch):
    """A section whose option is not given is neither checked nor built: it leaves its
    fields (``absent``)."""
    def refuse(build):
        raise ParameterError("checked although out of the report")

    extra = Section("extra", needs=(Requirement("never", "call", refuse),), build=None,
                    html=None, tables=lambda report, fmt, digits: [], on=REPORT.params[0],
                    values=(99,), absent=dict, why="a test")
    monkeypatch.setattr(listed, "SECTIONS", (*listed.SECTIONS, extra))
    qrels, runs = collection
    build_report(qrels, [str(r) for r in runs], ["map"], robustness=False)


def test_the_page_holds_the_headings_in_the_order_of_the_list(collection):
    qrels, runs = collection
    page = render_html(build_report(qrels, [str(r) for r in runs], ["map"], robustness=False,
                                    bounds=True))
    anchors = [s.heading[1] for s in listed.SECTIONS if s.heading is not None
               and f'<section id="{s.heading[1]}">' in page]
    assert anchors == ["summary-section", "drill-down", "anova", "plots",
                       "robustness-section", "bounds-section", "reproducibility"]
    assert [page.index(f'<section id="{a}">') for a in anchors] == sorted(
        page.index(f'<section id="{a}">') for a in anchors)
