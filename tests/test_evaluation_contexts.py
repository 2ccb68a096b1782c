"""The evaluation contexts are declarations (:mod:`irscale.evaluation.context`): a context
declared here, in the test, is chosen by :func:`irscale.evaluate` and by ``irscale eval``
and its unread options refused by the one rule, with no edit to either; a new context
added as real files (its catalogue module and its evaluation module, in a package on
``sys.path``) is listed, parsed and evaluated by both; each declared context (sessions,
texts, pyramids ...) is evaluated through :func:`irscale.evaluate` against an oracle
written here."""

from __future__ import annotations

import importlib
import math
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import irscale
from irscale.cli.main import main
from irscale.errors import MeasureError, ParameterError
from irscale.evaluation.context import CONTEXTS, Context, register, unregister
from irscale.measures.results import Evaluation

QRELS = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 1}}
RUN = {"q1": {"d1": 2.0, "d2": 1.0, "d9": 0.5}, "q2": {"d3": 1.0}}


def _count_documents(held: list[Any], measures: Any, *, allow_empty: bool = False
                     ) -> Evaluation:
    """A toy runner: the number of documents retrieved per topic (trec_eval's ``num_ret``,
    through an ordinary evaluation); the tests' oracle is the length of each topic's dict."""
    qrels, runs = held
    held.clear()
    return irscale.evaluate(qrels, runs, "num_ret", allow_empty=allow_empty)


@pytest.fixture
def toy() -> Iterator[Context]:
    """A context that claims the measure name ``toy`` and reads ``allow_empty`` only."""
    class Toy(Context):
        name = "toy"
        what = "toy measures"
        why = "they count the documents retrieved"
        reads = frozenset({"allow_empty"})
        averaging = "mean"
        formats = ("trec", "csv")

        def claims(self, qrels, measures, options):
            return measures == "toy" or measures == ["toy"]

        def run(self, held, measures, **options):
            return _count_documents(held, measures, **options)

    context = register(Toy())
    try:
        yield context
    finally:
        unregister("toy")
    assert "toy" not in CONTEXTS


def test_a_declared_context_is_chosen_by_evaluate(toy):
    values = irscale.evaluate(QRELS, RUN, "toy").per_topic().set_index("topic")["value"]
    assert values.to_dict() == {topic: float(len(docs)) for topic, docs in RUN.items()}


def test_its_unread_options_are_refused_by_the_one_rule(toy):
    with pytest.raises(ParameterError) as error:
        irscale.evaluate(QRELS, RUN, "toy", judged_only=True)
    assert str(error.value) == ("judged_only= does not apply to toy measures (they count "
                                "the documents retrieved)")
    irscale.evaluate(QRELS, RUN, "toy", judged_only=False)  # a default is not given


def test_its_measures_mixed_with_others_are_refused_by_the_one_rule(toy, tmp_path, capsys):
    message = ("toy measures cannot be mixed with other measures ('map'): evaluate them in a "
               "call of their own")
    with pytest.raises(MeasureError) as error:
        irscale.evaluate(QRELS, RUN, ["toy", "map"])
    assert str(error.value) == message
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q1 0 d1 1\n")
    run.write_text("q1 Q0 d1 1 1.0 sys\n")
    assert main(["eval", "-m", "map", "-m", "toy", str(qrels), str(run)]) == 2
    assert capsys.readouterr().err.strip() == f"irscale: {message}"


def test_without_its_declaration_the_name_is_unknown():
    with pytest.raises(MeasureError, match="toy"):
        irscale.evaluate(QRELS, RUN, "toy")


def test_irscale_eval_chooses_it_and_refuses_by_the_same_rule(toy, tmp_path, capsys):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("".join(f"{t} 0 {d} {r}\n" for t, docs in QRELS.items()
                             for d, r in docs.items()))
    run.write_text("".join(f"{t} Q0 {d} {i} {s} sys\n" for t, docs in RUN.items()
                           for i, (d, s) in enumerate(docs.items(), 1)))
    assert main(["eval", "-q", "-m", "toy", str(qrels), str(run)]) == 0
    lines = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    counted = {topic: value for name, topic, value in lines if topic != "all"}
    assert {t: float(v) for t, v in counted.items()} == {t: float(len(d))
                                                         for t, d in RUN.items()}
    assert main(["eval", "-J", "-m", "toy", str(qrels), str(run)]) == 2
    assert capsys.readouterr().err.strip() == ("irscale: -J/--judged-only does not apply to toy "
                                               "measures (they count the documents retrieved)")
    assert main(["eval", "--format", "json", "-m", "toy", str(qrels), str(run)]) == 2
    assert capsys.readouterr().err.strip() == ("irscale: --format json does not apply to toy "
                                               "measures (trec or csv)")


def _read_word_runs(paths, names):
    """A toy context's run reader: every file a run named after its stem, lines ``topic
    docno docno ...`` (best first)."""
    from pathlib import Path

    runs = {}
    for path in paths:
        lines = [line.split() for line in Path(path).read_text().splitlines()]
        runs[Path(path).stem] = {t: {d: float(len(ds) - i) for i, d in enumerate(ds)}
                                 for t, *ds in lines}
    return runs


@pytest.fixture
def words() -> Iterator[list[dict]]:
    """A context that claims ``words``, reads its run files itself (``topic docno ...``
    lines), is handed the format asked for and gives its own score matrix; what its
    hooks were handed is recorded in the list yielded."""
    seen: list[dict] = []

    class Words(Context):
        name = "words"
        what = "word measures"
        why = "they count the words of a line"
        reads = frozenset({"allow_empty"})
        averaging = "mean"

        def claims(self, qrels, measures, options):
            return list(measures) == ["words"]

        def run(self, held, measures, *, allow_empty=False, fmt=None):
            seen.append({"fmt": fmt})
            return _count_documents(held, measures, allow_empty=allow_empty)

        def read_runs(self, paths, names, trec):
            seen.append({"paths": [str(p) for p in paths], "names": names})
            return _read_word_runs(paths, names)

        def format_options(self, fmt):
            return {"fmt": fmt}

        def matrix(self, evaluate):
            seen.append({"matrix": True})
            return super().matrix(evaluate)

    register(Words())
    try:
        yield seen
    finally:
        unregister("words")
    assert "words" not in CONTEXTS


def test_irscale_eval_reads_and_evaluates_as_the_context_declares(words, tmp_path, capsys):
    """``irscale eval`` (main() in process) reads the run files by the context's reader
    (a folder expanded), hands its runner the options the output format asks for, and
    refuses an option it does not read by the one rule: no edit to ``cli/eval.py``."""
    qrels, folder = tmp_path / "qrels", tmp_path / "runs"
    qrels.write_text("q1 0 d1 1\nq2 0 d3 1\n")
    folder.mkdir()
    (folder / "a.txt").write_text("q1 d1 d2 d9\nq2 d3\n")
    (folder / "b.txt").write_text("q1 d2\nq2 d3 d1\n")
    assert main(["eval", "-q", "--format", "csv", "-m", "words", str(qrels),
                 str(folder)]) == 0
    rows = [line.split(",") for line in capsys.readouterr().out.splitlines()[1:]]
    counted = {(run, topic): float(value) for run, topic, measure, value in rows
               if topic in ("q1", "q2")}
    expected = {(path.stem, line.split()[0]): float(len(line.split()) - 1)
                for path in sorted(folder.iterdir())
                for line in path.read_text().splitlines()}
    assert counted == expected
    assert words == [{"paths": [str(folder / "a.txt"), str(folder / "b.txt")],
                      "names": None}, {"fmt": "csv"}]
    assert main(["eval", "-l", "2", "-m", "words", str(qrels), str(folder)]) == 2
    assert capsys.readouterr().err.strip() == ("irscale: -l/--relevance-level does not "
                                               "apply to word measures (they count the "
                                               "words of a line)")


def test_evaluate_matrix_chooses_the_context_and_its_matrix(words):
    """:func:`irscale.evaluation.evaluate_matrix` chooses the context as
    :func:`irscale.evaluate` does, takes its score matrix and refuses the options it does
    not read by the one rule."""
    from irscale.evaluation import evaluate_matrix

    other = {"q1": {"d2": 1.0}, "q2": {"d3": 2.0, "d1": 1.0}}
    matrix = evaluate_matrix(QRELS, {"a": RUN, "b": other}, ["words"])
    assert {"matrix": True} in words
    for s, run in enumerate((RUN, other)):
        assert matrix.values[:, s, 0].tolist() == [float(len(run[t])) for t in matrix.topics]
    with pytest.raises(ParameterError) as error:
        evaluate_matrix(QRELS, {"a": RUN, "b": other}, ["words"], intent_types="x")
    assert str(error.value) == ("intent_types= does not apply to word measures (they count "
                                "the words of a line)")


@pytest.mark.parametrize("module", ["cli/eval.py", "cli/inputs.py", "evaluation/api.py"])
def test_the_runners_name_no_context(module):
    """``irscale eval``, the score matrices and :func:`irscale.evaluate` are built from the
    declarations: their source names no context (no string that is a context's name, but
    for trec_eval's ``-R`` values, and no lookup in the registry of contexts)."""
    import ast
    from pathlib import Path

    from irscale.cli.eval_options import RELEVANCE_FORMATS
    from irscale.evaluation.contexts import declared

    declared()
    tree = ast.parse((Path(irscale.__file__).parent / module).read_text(encoding="utf-8"))
    strings = {node.value for node in ast.walk(tree)
               if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    assert set(CONTEXTS) & strings <= set(RELEVANCE_FORMATS)
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                for alias in node.names}
    assert not {"CONTEXTS", "DEFAULT"} & (names | imported)


# --------------------------------------------------------------- a new context, as files
#: A new context's catalogue, as a module of ``irscale/measures/contexts/`` declares it
#: (``declare_context``), with its families (as their module of ``irscale/measures/``
#: registers them): ``retrieved`` takes no parameter and its names no cut-off (declared
#: with ``register``'s default parameters), ``found(min=...)@k`` takes both.
TALLIES_CATALOGUE = '''\
"""Tallies: rankings counted."""

from __future__ import annotations

import numpy as np

from irscale.core.contexts import ContextInfo, declare_context
from irscale.measures.base import register
from irscale.measures.params import Keyword, Keywords, integer

TALLIES = declare_context("tallies", ContextInfo(
    "rankings counted (a test's)", "tally", ("retrieved", "found(min=2)@5"),
    "irscale.evaluate", whole="list"))


@register("retrieved", context="tallies", cutoff="none", doc="The documents retrieved.",
          formula="|ranking|", source="a test")
def retrieved(jr, params, cutoff):
    return np.diff(jr.offsets).astype(float)


@register("found", context="tallies", cutoff="required",
          params=Keywords(min=Keyword(integer(low=1), 1, "the smallest degree counted")),
          doc="The documents of degree min or more in the top k.",
          formula="|{d in top k: rel(d) >= min}|", source="a test")
def found(jr, params, cutoff):
    lengths = np.diff(jr.offsets)
    ranking = np.repeat(np.arange(len(lengths)), lengths)
    rank = np.arange(len(jr.rel)) - jr.offsets[ranking]
    counted = (jr.rel >= params["min"]) & (rank < cutoff)
    return np.bincount(ranking, weights=counted, minlength=len(lengths))
'''
#: Its evaluation context, as a module of ``irscale/evaluation/contexts/`` declares it
#: (a subclass of ``Context`` registered, its runner loaded when it runs).
TALLIES_EVALUATION = '''\
"""Tallies: the measures of the catalogue's context ``tallies`` on judged rankings."""

from __future__ import annotations

from irscale.evaluation.context import (
    CatalogueContext, measure_names, register, take)


class Tallies(CatalogueContext):
    name = "tallies"
    what = "tallies"
    why = "they count the documents of each ranking"
    reads = frozenset({"allow_empty"})
    averaging = "mean"

    def run(self, held, measures, *, allow_empty=False):
        """Each measure's kernel on the judged rankings of ``held`` (``[qrels, runs]``)."""
        import irscale
        from irscale.measures.base import CATALOGUE
        from irscale.measures.names import parse_name
        from irscale.measures.results import build_evaluation

        qrels, runs = take(held)
        judged = irscale.evaluate(qrels, runs, "num_ret", allow_empty=allow_empty)
        values = {}
        for name in measure_names(measures):
            measure = parse_name(name, "tallies")
            kernel = CATALOGUE["tallies"][measure.family].kernel
            values[measure.label] = kernel(judged.rankings, measure.params, measure.cutoff)
        return build_evaluation(values, judged.rows, rankings=judged.rankings)


TALLIES = register(Tallies())
'''
GRADED = {"q1": {"d1": 1, "d2": 2, "d9": 2}, "q2": {"d3": 2, "d1": 1}}


def _write_package(root: Path, package: str, modules: dict[str, str]) -> None:
    """The package ``package`` under ``root`` (on ``sys.path``), its modules written."""
    folder = root / package
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    for module, text in modules.items():
        (folder / f"{module}.py").write_text(text)
    importlib.invalidate_caches()


def _forget(package: str, context: str) -> None:
    """Every trace of a package's context: its evaluation context, its catalogue context
    and families, its modules."""
    from irscale.core.contexts import CONTEXTS as CATALOGUE_CONTEXTS
    from irscale.core.contexts import undeclare_context
    from irscale.measures.base import CATALOGUE

    if context in CONTEXTS:
        unregister(context)
    if context in CATALOGUE_CONTEXTS:
        undeclare_context(context)
    CATALOGUE.pop(context, None)
    for module in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
        del sys.modules[module]


def _registered_names() -> set[str]:
    """The names the registries hold, in lower case: every evaluation context's, its own
    output formats' and its qrels form's; every catalogue context's and the noun of its
    measures (``diversity``); irscale's command names (``session``) are commands, not
    contexts."""
    import irscale.measures.contexts  # noqa: F401  (declares the catalogue's contexts)
    from irscale.cli.main import SUBCOMMANDS
    from irscale.core.contexts import CONTEXTS as CATALOGUE
    from irscale.evaluation.contexts import declared

    contexts = declared()
    assert any(context.outputs for context in contexts)
    assert any(context.qrels_format for context in contexts)
    names = {context.name for context in contexts}
    names |= {output.name for context in contexts for output in context.outputs}
    names |= {context.qrels_format for context in contexts if context.qrels_format}
    names |= set(CATALOGUE) | {info.noun for info in CATALOGUE.values() if info.noun}
    return {name.lower() for name in names} - set(SUBCOMMANDS)


def test_irscale_eval_names_no_context_and_no_format_of_one():
    """``cli/eval.py`` applies what the contexts declare (their output formats' rules,
    their qrels forms) and names none of them: no word of its source, code, strings,
    comments and docstrings, in any case, is a name the registries hold
    (:func:`_registered_names`; a word is a run of letters, so ``NDEVAL_RISK_ALPHA``
    names ``ndeval`` and ``contexts`` does not name ``texts``)."""
    import re
    from pathlib import Path

    source = (Path(irscale.__file__).parent / "cli" / "eval.py").read_text(encoding="utf-8")
    words = set(re.findall(r"[a-z]+", source.lower()))
    assert sorted(_registered_names() & words) == []


def test_the_parser_offers_what_the_contexts_declare():
    """The formats and forms that ``irscale eval``'s parser offers before any context is
    loaded (:mod:`irscale.cli.eval_options`) are those the contexts declare: the formats of
    ``--format`` beyond those every evaluation writes are the contexts' own output formats,
    the formats of ``--ci`` beyond those the ones that print intervals, the forms of
    ``--qrels-format`` beyond ``auto`` and ``trec`` the contexts' qrels forms, and every
    format a context of ``irscale eval`` lists is one ``--format`` offers."""
    from irscale.cli.eval_options import EVAL_FORMATS, INTERVAL_FORMATS, QRELS_FORMATS
    from irscale.evaluation.contexts import declared
    from irscale.io.formats import OUTPUT_FORMATS

    contexts = declared()
    outputs = [output for context in contexts for output in context.outputs]
    assert set(EVAL_FORMATS) - set(OUTPUT_FORMATS) == {output.name for output in outputs}
    assert set(INTERVAL_FORMATS) - set(OUTPUT_FORMATS) == \
        {output.name for output in outputs if output.intervals}
    assert set(QRELS_FORMATS) - {"auto", "trec"} == \
        {context.qrels_format for context in contexts if context.qrels_format}
    for context in contexts:
        if context.command is None:
            assert set(context.formats or ()) <= set(EVAL_FORMATS), context.name
        for output in context.outputs:
            assert context.formats is None or output.name in context.formats, context.name


@pytest.fixture
def tallies(tmp_path, monkeypatch) -> Iterator[None]:
    """A new context added as real files: a package on ``sys.path`` holding its catalogue
    module and its evaluation module, each registered by importing it (inside irscale,
    the one line ``from . import tallies`` of ``measures/contexts/__init__.py`` and of
    ``evaluation/contexts/__init__.py``, its families' module named in
    ``measures.base.FAMILY_MODULES``); every trace removed after."""
    _write_package(tmp_path, "tallykit", {"catalogue": TALLIES_CATALOGUE,
                                          "evaluation": TALLIES_EVALUATION})
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        importlib.import_module("tallykit.catalogue")
        importlib.import_module("tallykit.evaluation")
        yield
    finally:
        _forget("tallykit", "tallies")
    assert "tallies" not in CONTEXTS


def _found(qrels: dict, run: dict, minimum: int, k: int) -> dict[str, float]:
    """The oracle of ``found(min=minimum)@k``: per topic, the documents of the top k
    (scores distinct, best first) judged ``minimum`` or more."""
    return {topic: float(sum(qrels[topic].get(doc, -1) >= minimum
                             for doc in sorted(docs, key=docs.__getitem__, reverse=True)[:k]))
            for topic, docs in run.items()}


def test_a_new_context_is_evaluated_by_evaluate(tallies):
    """Its names, with no cut-off and no parameter (``retrieved``: declared with no
    ``params``, read as ``Keywords()``) and with both, are chosen and evaluated by
    :func:`irscale.evaluate` against the oracle; an option it does not read is refused by
    the one rule."""
    names = ["retrieved", "found(min=2)@2", "found@1"]
    evaluation = irscale.evaluate(GRADED, RUN, names)
    frame = evaluation.per_topic()
    got = {(m, t): v for m, t, v in zip(frame["measure"], frame["topic"], frame["value"],
                                        strict=True)}
    expected = {**{("retrieved", t): float(len(docs)) for t, docs in RUN.items()},
                **{("found(min=2)@2", t): v for t, v in _found(GRADED, RUN, 2, 2).items()},
                **{("found@1", t): v for t, v in _found(GRADED, RUN, 1, 1).items()}}
    assert got == expected
    with pytest.raises(ParameterError) as error:
        irscale.evaluate(GRADED, RUN, "retrieved", judged_only=True)
    assert str(error.value) == ("judged_only= does not apply to tallies (they count the "
                                "documents of each ranking)")


def test_a_new_context_is_evaluated_by_irscale_eval(tallies, tmp_path, capsys):
    """``irscale eval`` (``main()`` in process) chooses it, prints its values per topic and
    their mean, and refuses an option it does not read by the one rule."""
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("".join(f"{t} 0 {d} {r}\n" for t, docs in GRADED.items()
                             for d, r in docs.items()))
    run.write_text("".join(f"{t} Q0 {d} {i} {s} sys\n" for t, docs in RUN.items()
                           for i, (d, s) in enumerate(docs.items(), 1)))
    assert main(["eval", "-q", "-m", "retrieved", "-m", "found(min=2)@2", str(qrels),
                 str(run)]) == 0
    lines = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    got = {(name.strip(), topic): float(value) for name, topic, value in lines}
    for name, oracle in (("retrieved", {t: float(len(d)) for t, d in RUN.items()}),
                         ("found(min=2)@2", _found(GRADED, RUN, 2, 2))):
        assert {t: got[name, t] for t in RUN} == oracle
        assert got[name, "all"] == pytest.approx(sum(oracle.values()) / len(oracle),
                                                 abs=5e-5)
    assert main(["eval", "-J", "-m", "retrieved", str(qrels), str(run)]) == 2
    assert capsys.readouterr().err.strip() == ("irscale: -J/--judged-only does not apply to "
                                               "tallies (they count the documents of each "
                                               "ranking)")


def test_a_new_context_is_listed_and_its_names_read(tallies, capsys):
    """Its catalogue declaration is read by ``irscale measures`` (its ``--context`` choices
    and listing) and by the name parser (its parameters, cut-off rule and words)."""
    from irscale.measures.names import parse_name

    assert main(["measures", "--context", "tallies"]) == 0
    listed = capsys.readouterr().out
    assert listed.startswith("tallies: rankings counted (a test's) (irscale.evaluate)\n")
    assert "  retrieved\n      |ranking|\n      source: a test\n" in listed
    found = parse_name("found(min=3)@4", "tallies")
    assert (found.family, dict(found.params), found.cutoff) == ("found", {"min": 3}, 4)
    for name, message in [
        ("retrieved@5", "measure 'retrieved' takes no cut-off (retrieved uses the whole "
                        "list), got 'retrieved@5'"),
        ("retrieved(min=2)", "measure 'retrieved(min=2)': unknown parameter(s) ['min'] "
                             "(accepted: none)"),
        ("found(max=2)@2", "measure 'found(max=2)@2': unknown parameter(s) ['max'] "
                           "(accepted: min)"),
        ("found", "measure 'found' needs a cut-off: found@k"),
        ("retreived", "unknown tally measure 'retreived' (did you mean retrieved?); tally "
                      "measures: retrieved, found, e.g. retrieved, 'found(min=2)@5'"),
    ]:
        with pytest.raises(MeasureError) as error:
            parse_name(name, "tallies")
        assert str(error.value) == message


def test_a_family_whose_names_cannot_carry_its_parameters_is_refused_when_declared(
        tmp_path, monkeypatch):
    """Outside judged rankings a family's names are ``Name(key=value,...)@k``: one declared
    with trec_eval's kind of parameters (a list of cut-offs) is refused when its module is
    imported, with what to write."""
    _write_package(tmp_path, "votekit", {"catalogue": '''\
from irscale.core.contexts import ContextInfo, declare_context
from irscale.measures.base import Cutoffs, Family, declare

declare_context("votes", ContextInfo("votes cast (a test's)", "vote", ("VoteShare",),
                                     "irscale.evaluate"))
declare(Family("VoteShare", None, Cutoffs(5, 10), "The share of the votes.",
               context="votes", cutoff="none"))
'''})
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        with pytest.raises(RuntimeError) as error:
            importlib.import_module("votekit.catalogue")
    finally:
        _forget("votekit", "votes")
    assert str(error.value) == (
        "measure family 'VoteShare' of votes: its names are read as "
        "VoteShare(key=value,...)@k, not with params=Cutoffs(...): declare "
        "params=Keywords(key=Keyword(parse, default, doc), ...) from irscale.measures.params "
        "(none: Keywords()), and its cut-off @k by cutoff='optional', 'required' or 'none'")


def test_every_option_of_evaluate_reaches_a_context_that_reads_it():
    """A context that reads every keyword option of ``irscale.evaluate`` (its signature)
    is handed each of them, with its value; the dataset's conventions, which
    ``evaluate`` applies itself, are none of them."""
    import inspect

    options = {name: p.default for name, p in
               inspect.signature(irscale.evaluate).parameters.items()
               if p.kind == p.KEYWORD_ONLY and name not in ("dataset", "dataset_defaults")}
    seen = {}

    def record(held, measures, **given):
        seen.update(given)
        return "recorded"

    class All(Context):
        name = "all"
        what = "everything"
        why = "-"
        reads = frozenset(options)
        averaging = "mean"

        def claims(self, qrels, measures, o):
            return measures == "all"

        def run(self, held, measures, **given):
            return record(held, measures, **given)

    register(All())
    try:
        assert irscale.evaluate(QRELS, RUN, "all", max_docs=3) == "recorded"
    finally:
        unregister("all")
    assert seen == {**options, "max_docs": 3}


def test_every_option_a_context_reads_is_one_of_evaluate_or_of_the_outputs():
    """The names of :attr:`Context.reads` and of ``irscale eval``'s options that the one
    rule refuses are options of ``irscale.evaluate`` or of the outputs
    (:data:`~irscale.evaluation.context.OUTPUT_OPTIONS`): a misspelt name would refuse
    nothing."""
    import inspect

    from irscale.cli.eval import API_OPTIONS
    from irscale.evaluation.context import OUTPUT_OPTIONS
    from irscale.evaluation.contexts import declared

    # the dataset's conventions are evaluate's own, applied before any context runs
    known = {name for name, p in inspect.signature(irscale.evaluate).parameters.items()
             if p.kind == p.KEYWORD_ONLY and name not in ("dataset", "dataset_defaults")} \
        | OUTPUT_OPTIONS
    for context in declared():
        assert context.reads <= known, context.name
    assert set(API_OPTIONS.values()) == known - {"names", "allow_empty"}


def test_signatures_take_trec_eval_options_as_declared():
    """Every function that takes trec_eval's options takes all of them, with the declared
    defaults and types (:mod:`irscale.evaluation.options`), its signature built from the
    declaration (not written out), and the judged rankings read them."""
    import ast
    import inspect
    import typing
    from pathlib import Path

    from irscale.evaluation import options
    from irscale.evaluation.contexts.judged import JUDGED
    from irscale.evaluation.judged import run_judged
    from irscale.evaluation.many import evaluate_many
    from irscale.evaluation.options import TREC_EVAL_DEFAULTS, option_types
    from irscale.evaluation.setup import evaluation_setup
    from irscale.evaluation.trec_text import trec_eval_text

    declared = option_types()
    # (compat carries its domain, judged on entry in compat_option's words)
    assert typing.get_origin(declared["compat"]) is typing.Annotated
    assert typing.get_args(declared["compat"])[0] == typing.Literal[9, 10]
    assert repr(declared["compat"].__metadata__[0]) == "Checked(compat_option)"
    assert declared["ties"] == typing.Literal["trec_eval", "file-order", "rank-column",
                                             "expected"]
    for function in (irscale.evaluate, evaluate_many, evaluation_setup, trec_eval_text,
                     run_judged):
        parameters = inspect.signature(function).parameters
        assert {name: parameters[name].default for name in TREC_EVAL_DEFAULTS} == \
            TREC_EVAL_DEFAULTS, function.__qualname__
        assert {name: parameters[name].annotation for name in declared} == declared, \
            function.__qualname__
        # the signature is built from the declaration, not written out: the function
        # takes them as **trec (trec_eval_keywords)
        code = inspect.unwrap(function).__code__
        written = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
        assert not set(declared) & set(written), function.__qualname__
        assert code.co_flags & inspect.CO_VARKEYWORDS, function.__qualname__
    assert set(TREC_EVAL_DEFAULTS) <= JUDGED.reads
    # the keywords' types for mypy and IDEs (a TypedDict type checkers read) are the
    # declaration's, written alike
    classes = {node.name: {s.target.id: ast.unparse(s.annotation) for s in node.body
                           if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)}
               for node in ast.walk(ast.parse(Path(options.__file__).read_text("utf-8")))
               if isinstance(node, ast.ClassDef)}
    assert classes["TrecEvalKeywords"] == classes["TrecEvalOptions"] != {}


def test_the_ranking_options_are_declared_once():
    """trec_eval's options that rank and judge the runs take their defaults from the one
    declaration the judging reads (:class:`irscale.core.options.RankingOptions`), and the
    functions that judge files take that declaration, not the options one by one."""
    import inspect

    from irscale.core.options import RankingOptions
    from irscale.core.records import fields
    from irscale.evaluation.options import TREC_EVAL_DEFAULTS
    from irscale.io.native_trec import judge_files

    ranking = {f.name: f.default for f in fields(RankingOptions)}
    assert {name: TREC_EVAL_DEFAULTS[name] for name in ranking} == ranking
    assert not set(ranking) & set(inspect.signature(judge_files).parameters)


def _mean(evaluation: Evaluation, run: str) -> float:
    return float(evaluation.mean().loc[run].iloc[0])


def test_evaluate_chooses_the_sessions_context():
    """sDCG (Sakai 2014, eq. 35) of a two-query session: d1 (gain 1) at rank 2 of query 1,
    d2 (gain 2) at rank 3 of the concatenated list, in query 2."""
    run = b"s1 1 d3 1 0.9 sys\ns1 1 d1 2 0.5 sys\ns1 2 d2 1 0.7 sys\n"
    evaluation = irscale.evaluate({"s1": {"d1": 1, "d2": 2}}, run, "sDCG(bq=4)@10")
    expected = 1 / (math.log(4, 4) * math.log2(3)) + 2 / (math.log(5, 4) * math.log2(4))
    assert _mean(evaluation, "sys") == pytest.approx(expected, rel=1e-12)


def test_evaluate_chooses_the_texts_context():
    """ROUGE-1 recall (Lin 2004): the clipped unigram overlap over the reference's count."""
    reference, candidate = "the cat sat on the mat", "the cat sat"
    evaluation = irscale.evaluate(f"q1\tr1\t{reference}\n".encode(),
                                  f"q1\tA\t{candidate}\n".encode(), "ROUGE-1(stat=r)")
    ref, cand = Counter(reference.split()), Counter(candidate.split())
    expected = sum((ref & cand).values()) / sum(ref.values())
    assert _mean(evaluation, "A") == pytest.approx(expected, rel=1e-12)


def test_evaluate_chooses_the_pyramids_context():
    """The original pyramid score (Nenkova & Passonneau 2004): D / Max(X)."""
    pyramid = b"q1\ta\tr1,r2\nq1\tb\tr1\nq1\tc\tr2\n"  # weights a 2, b 1, c 1
    peers = b"q1\tP\ta\nq1\tP\tc\nq1\tQ\tb\n"
    evaluation = irscale.evaluate(pyramid, peers, "pyramid")
    assert _mean(evaluation, "P") == pytest.approx((2 + 1) / (2 + 1))  # X = 2
    assert _mean(evaluation, "Q") == pytest.approx(1 / 2)  # X = 1: Max(1) = 2


@pytest.mark.parametrize(("measures", "name", "command"), [
    ("sDCG@10 nsDCG@10", "sessions", "irscale session"),
    ("ROUGE-L BLEU", "texts", "irscale text rouge|bleu"),
    ("pyramid_modified", "pyramids", "irscale text pyramid"),
    ("W-Rec S(L=1000)", "nuggets", "irscale text nuggets"),
    ("citation_recall support_precision", "citations", "irscale text citations"),
    ("P@10 map U@10", "judged", None),
])
def test_each_context_claims_the_names_of_its_catalogue(measures, name, command):
    from irscale.evaluation.contexts import choose

    context = choose(None, measures, {})
    assert (context.name, context.command) == (name, command)


def test_every_relevance_level_default_reads_the_declaration():
    """Every function's ``relevance_level=`` (trec_eval's ``-l``, the smallest degree counted
    relevant) defaults to the declared one (:data:`irscale.core.params.DEFAULT_RELEVANCE_LEVEL`
    or the trec_eval group's :data:`~irscale.evaluation.options.TREC_EVAL`; ``None`` where
    a measure's own ``rel=`` is not given), never to a restated 1; the declarations agree
    with each other."""
    import ast
    from pathlib import Path

    from irscale.core.params import DEFAULT_RELEVANCE_LEVEL, RELEVANCE
    from irscale.evaluation.options import TREC_EVAL
    from irscale.online.params import CLICK_RELEVANCE

    assert RELEVANCE.default == CLICK_RELEVANCE.default == TREC_EVAL.relevance_level == \
        DEFAULT_RELEVANCE_LEVEL
    source = Path(irscale.__file__).parent
    found = []
    for path in sorted(source.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                arguments = node.args
                given = [*arguments.posonlyargs, *arguments.args]
                positional = given[len(given) - len(arguments.defaults):]
                pairs = [*zip(positional, arguments.defaults, strict=True),
                         *zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)]
            elif isinstance(node, ast.ClassDef):  # dataclass fields
                pairs = [(s.target, s.value) for s in node.body
                         if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
            else:
                continue
            for argument, default in pairs:
                name = argument.arg if isinstance(argument, ast.arg) else argument.id
                if name == "relevance_level" and default is not None:
                    found.append((f"{path.relative_to(source)}:{node.name}",
                                  ast.unparse(default)))
    assert len(found) > 20  # the scan finds them (trec_eval's group: declared once)
    assert [where for where, text in found
            if text not in ("DEFAULT_RELEVANCE_LEVEL", "TREC_EVAL.relevance_level",
                            "_RANKING.relevance_level", "None")] == []  # None: the call's -l


def test_every_catalogue_context_names_functions_that_exist():
    """The functions that ``irscale measures`` names as evaluating each context of the
    catalogue (:data:`irscale.core.contexts.CONTEXTS`, declared by
    :mod:`irscale.measures.contexts`, ``evaluated_by``) exist."""
    import importlib
    import re

    from irscale.measures.contexts import CONTEXTS as CATALOGUE_CONTEXTS

    for name, info in CATALOGUE_CONTEXTS.items():
        for dotted in re.findall(r"\birscale(?:\.\w+)+", info.evaluated_by):
            module, _, attribute = dotted.rpartition(".")
            assert hasattr(importlib.import_module(module), attribute), (name, dotted)


def test_a_context_that_leaves_out_a_declaration_is_refused_where_declared():
    """A subclass of :class:`Context` without one of the declarations every context has,
    or without its claim or runner, is a :class:`TypeError` naming them, when the class
    is written (not when a call first reaches it)."""
    with pytest.raises(TypeError) as error:
        class Half(Context):
            name = "half"
            what = "half measures"

            def run(self, held, measures, **options):
                raise AssertionError
    assert str(error.value) == ("evaluation context "
                                "test_a_context_that_leaves_out_a_declaration_is_refused_where"
                                "_declared.<locals>.Half declares no why, reads, averaging, "
                                "def claims()")
    assert "half" not in CONTEXTS


def test_the_defaults_of_a_context_are_those_of_judged_rankings():
    """What only some contexts do has a default on :class:`Context` (no text, no runner
    option from a format, TREC run files, the evaluation's matrix) that the contexts
    override where they differ."""
    from irscale.evaluation.contexts.intents import INTENTS
    from irscale.evaluation.contexts.judged import JUDGED

    assert JUDGED.format_options("csv") == {} and JUDGED.read_runs([], None, lambda: "trec")\
        == "trec"
    assert INTENTS.text(None, None, "ndeval") is None
    assert INTENTS.format_options("ndeval") == {"ndeval_ids": True}
    assert repr(INTENTS) == "Intents(name='intents')"
