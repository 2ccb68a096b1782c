"""Every public result speaks one protocol: ``to_frame()`` and ``format(fmt)``, with the
formats named by one vocabulary (:data:`irscale.io.formats.FORMATS`).

The result types are found by introspection, not listed by hand: the classes that the
public functions of the public modules of irscale's evaluation and analysis packages
(``irscale.evaluation``, ``irscale.evaluation.many``, ``irscale.text``, ``irscale.stats``,
``irscale.meta``, ``irscale.collections``, ``irscale.online``; a module's ``__all__`` when
it has one) return — their resolved return annotations, inside ``X | None``, tuples and
lists too — defined in those layers (not the data model of ``irscale.core`` and
``irscale.io``, inputs and score matrices, nor the measure requests of
``irscale.measures``), less the few classes that are data for another step
(:data:`NOT_RESULTS`). Each of them is then run: an instance made through the public API
(here, or in tests/test_result_protocol.py for irscale.stats and irscale.meta) gives a
DataFrame and writes or clearly refuses every format of the vocabulary."""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import inspect
import pkgutil
import typing
from pathlib import Path

import pytest

from irscale.io.formats import EVALUATION_FORMATS, FORMATS, OUTPUT_FORMATS, TABLE_FORMATS

PACKAGES = ("irscale", "irscale.stats", "irscale.meta", "irscale.collections",
            "irscale.online", "irscale.text")
#: Where result types are defined (module prefixes).
RESULT_MODULES = ("irscale.evaluation", "irscale.measures.results", "irscale.text.",
                  "irscale.stats.", "irscale.meta.", "irscale.collections.",
                  "irscale.online.")


def _classes_in(annotation: object) -> set[type]:
    found = {annotation} if isinstance(annotation, type) else set()
    for argument in typing.get_args(annotation):
        found |= _classes_in(argument)
    return found


def _return_classes(function: typing.Callable[..., object]) -> set[type]:
    """The classes named by ``function``'s return annotation, resolved in its module (and
    its ``TYPE_CHECKING`` imports, which are importable names of irscale)."""
    annotation = inspect.signature(function).return_annotation
    if annotation is inspect.Signature.empty:
        return set()
    if isinstance(annotation, str):
        annotation = eval(annotation, _namespace(function.__module__))
    return _classes_in(annotation)


@functools.cache
def _namespace(module: str) -> dict[str, object]:
    """The names a return annotation of ``module`` may use: its own and those it imports
    under ``if TYPE_CHECKING:`` (read once per module)."""
    return {**vars(importlib.import_module(module)), **_type_checking_names(module)}


def _type_checking_names(module: str) -> dict[str, object]:
    """Names imported under ``if TYPE_CHECKING:`` in ``module``, imported here."""
    loaded = importlib.import_module(module)
    source = Path(loaded.__file__ or "").read_text()
    names: dict[str, object] = {}
    package = loaded.__package__ or module
    if "TYPE_CHECKING" not in source:
        return names
    for node in ast.parse(source).body:  # (the blocks stand at module level)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                if isinstance(child, ast.ImportFrom):
                    base = importlib.util.resolve_name(
                        "." * child.level + (child.module or ""), package) \
                        if child.level else child.module or ""
                    source_module = importlib.import_module(base)
                    for alias in child.names:  # (a name declared for type
                        if hasattr(source_module, alias.name):  # checkers only is left out)
                            names[alias.asname or alias.name] = getattr(source_module,
                                                                        alias.name)
                elif isinstance(child, ast.Import):
                    for alias in child.names:
                        names[alias.asname or alias.name] = importlib.import_module(
                            alias.name)
    return names


def _public_modules() -> list[str]:
    """The public modules of :data:`PACKAGES` (no ``_private`` part in their names)."""
    names = []
    for package in PACKAGES[1:]:
        module = importlib.import_module(package)
        names.append(package)
        names += [info.name for info in pkgutil.walk_packages(module.__path__, package + ".")
                  if not any(part.startswith("_") for part in info.name.split("."))]
    runners = [f"irscale.evaluation.{name}" for name in (
        "many", "setup", "trec_text", "bleu", "citations", "nuggets", "pyramids", "rouge",
        "sessions")]
    return ["irscale", "irscale.evaluation", *runners, *names]


def result_types() -> list[type]:
    found: set[type] = set()
    for name in _public_modules():
        module = importlib.import_module(name)
        exported = getattr(module, "__all__", None)
        for attribute, obj in vars(module).items():
            if attribute.startswith("_") or (exported is not None
                                             and attribute not in exported):
                continue
            if inspect.isfunction(obj) and obj.__module__ == name:
                found |= _return_classes(obj)
            elif inspect.isfunction(obj) and name in PACKAGES:
                found |= _return_classes(obj)
    return sorted((c for c in found if c.__module__.startswith(RESULT_MODULES)
                   and not any(p.startswith("_") for p in c.__module__.split("."))
                   and not c.__name__.startswith("_")
                   and not issubclass(c, BaseException) and not _is_value(c)),
                  key=lambda c: f"{c.__module__}.{c.__qualname__}")


def _is_value(cls: type) -> bool:
    """Values, not results: named tuples (a confidence interval), measure requests and
    the inputs the analyses are fed (:data:`NOT_RESULTS`)."""
    return issubclass(cls, tuple) or cls.__name__.endswith("Request") \
        or cls.__name__ in NOT_RESULTS


#: Classes a public function returns that are data for another step, not results.
NOT_RESULTS = {
    "Chains": "the completions of judged rankings, what the bounds of unjudged documents "
              "compute on",
    "EvaluationSetup": "the checked options of an evaluation (evaluation_setup)",
    "SessionRankings": "judged session rankings, what the session measures read",
    "SessionChain": "the average times and probability of one list length's Markov chain, "
                    "what MsM reads",
    "Candidates": "the ranked documents of runs, what pooling and interleaving read",
    "Copula": "a fitted copula, a part of the CopulaModel a simulation draws from",
    "Margin": "a fitted margin, a part of the CopulaModel a simulation draws from",
    "DiscreteMargin": "a fitted discrete margin, a part of the CopulaModel a simulation "
                      "draws from",
    "VineCopula": "a fitted vine copula, a part of the CopulaModel a simulation draws from",
    "TopicKernel": "one topic's Gaussian process, what the EM of the gp label aggregation "
                   "fits",
}


RESULTS = result_types()
_SET_ASIDE = dict(NOT_RESULTS)


def test_the_walk_finds_the_results_of_every_family():
    names = {c.__name__ for c in RESULTS}
    assert {"Evaluation", "ManyEvaluation", "TestResult", "AnovaResult", "AwareResult",
            "Aggregation", "SensitivityResult", "Pool", "DiscriminativePower",
            "InterleavingResult", "ClickModelFit"} <= names
    # every class set aside is still returned by a public function (no stale entry)
    NOT_RESULTS.clear()
    try:
        assert {c.__name__ for c in result_types()} - names == set(_SET_ASIDE)
    finally:
        NOT_RESULTS.update(_SET_ASIDE)


@pytest.mark.parametrize("cls", RESULTS, ids=lambda c: c.__qualname__)
def test_every_result_has_to_frame_and_format(cls):
    assert callable(getattr(cls, "to_frame", None)), f"{cls.__name__} has no to_frame()"
    format_method = getattr(cls, "format", None)
    assert callable(format_method), f"{cls.__name__} has no format(fmt)"
    parameters = inspect.signature(format_method).parameters
    assert "fmt" in parameters, f"{cls.__name__}.format takes no fmt"
    default = parameters["fmt"].default
    assert default is inspect.Parameter.empty or default in FORMATS, (cls, default)
    required = [p for p in inspect.signature(cls.to_frame).parameters.values()
                if p.name != "self" and p.default is inspect.Parameter.empty
                and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    assert not required, f"{cls.__name__}.to_frame() needs {required}"


def test_one_vocabulary_of_formats():
    """Every subset of formats is drawn from the one vocabulary, and no module but
    irscale.io.formats defines a constant named FORMATS."""
    for subset in (TABLE_FORMATS, EVALUATION_FORMATS, OUTPUT_FORMATS):
        assert set(subset) <= set(FORMATS)
    source = Path(importlib.import_module("irscale").__file__ or "").parent
    defined = [path.relative_to(source.parent).as_posix()
               for path in source.rglob("*.py")
               if any(isinstance(node, (ast.Assign, ast.AnnAssign))
                      and "FORMATS" in [getattr(t, "id", None) for t in
                                        (node.targets if isinstance(node, ast.Assign)
                                         else [node.target])]
                      for node in ast.parse(path.read_text()).body)]
    assert defined == ["irscale/io/formats.py"]


# ------------------------------------------------------------- the protocol, run
QRELS = {"1": {"d1": 1, "d2": 0, "d3": 1}, "2": {"d4": 1, "d5": 0}}
RUNS = {"A": {"1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}, "2": {"d4": 2.0, "d5": 1.0}},
        "B": {"1": {"d3": 3.0, "d2": 2.0, "d1": 1.0}, "2": {"d5": 2.0, "d4": 1.0}}}


@pytest.fixture(scope="module")
def instances(tmp_path_factory):
    """An instance of every result type outside irscale.stats and irscale.meta (those are
    run by tests/test_result_protocol.py), made through the public API."""
    import warnings

    import numpy as np
    import pandas as pd

    import irscale
    from irscale import collections, online, text
    from irscale.collections.aware import aware
    from irscale.io.diversity import read_diversity_qrels
    from irscale.io.trec import read_run
    from irscale.text import evaluate_sessions
    from irscale.text.rouge import evaluate_rouge

    folder = tmp_path_factory.mktemp("results")
    (folder / "qrels").write_text("".join(f"{t} 0 {d} {r}\n" for t, docs in QRELS.items()
                                          for d, r in docs.items()))
    for name, run in RUNS.items():
        (folder / name).write_text("".join(f"{t} Q0 {d} {k} {s} {name}\n"
                                           for t, docs in run.items()
                                           for k, (d, s) in enumerate(docs.items(), 1)))
    labels = pd.DataFrame([("1", "d1", "w1", 1), ("1", "d2", "w1", 0), ("1", "d3", "w2", 1),
                           ("2", "d4", "w1", 1), ("2", "d5", "w2", 0)],
                          columns=["topic", "docno", "worker", "label"])
    frames = {name: pd.DataFrame([(t, d, s) for t, docs in run.items()
                                  for d, s in docs.items()],
                                 columns=["query_id", "doc_id", "score"])
              for name, run in RUNS.items()}
    sample = pd.DataFrame({"topic": "1", "docno": ["d1", "d3"], "rel": [1, 1],
                           "prob": [0.5, 0.25]})
    click_log = online.read_click_log(b"s1 q 1 a 1\ns1 q 2 b 0\ns2 q 1 b 0\ns2 q 2 a 0\n")
    log = b"i1 q 1 d1 A 1\ni1 q 2 d2 B 0\ni2 q 1 d2 B 1\ni2 q 2 d1 A 1\n"
    diversity = read_diversity_qrels(b"1 1 d1 1\n1 2 d3 1\n2 1 d4 1\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        made = {
            "Evaluation": [
                irscale.evaluate(QRELS, RUNS, ["map", "P@2", "num_q"]),
                irscale.evaluate(diversity, [read_run(folder / n, keep_rank=True)
                                             for n in RUNS], ["strec@2"]),
                evaluate_sessions({"s1": {"d1": 1}}, b"s1 1 d1 1 2 a\n", ["sDCG@10"]),
                evaluate_rouge(b"q1\tr\taa bb\n", b"q1\ta\taa\n", ["ROUGE-1"])],
            "ManyEvaluation": [irscale.evaluate_many(folder / "qrels",
                                                     [folder / n for n in RUNS], ["map"])],
            "AwareResult": [aware(labels, RUNS, "map")],
            "Aggregation": [collections.aggregate_labels(labels, "mv")],
            "PairwiseAggregation": [collections.aggregate_pairwise(
                b"1 w1 a b a\n1 w2 b a b\n", "bt")],
            "LabelAllocation": [collections.allocate_labels(labels, budget=4)],
            "Pool": [collections.pool(frames, "depth", depth=2)],
            "SampledEstimates": [collections.estimate_sampled(sample, frames, cutoffs=[2])],
            "ShardedEvaluation": [collections.evaluate_shards(QRELS, RUNS, "AP", shards=2,
                                                              rng=1)],
            "PoolingSimulation": [collections.simulate_pooling(QRELS, RUNS, ["depth"], [2],
                                                               loo=False)],
            "AATestResult": [online.aa_test(pd.Series(np.arange(40.0),
                                                      index=[f"u{i}" for i in range(40)]),
                                            splits=5)],
            "SampleRatioResult": [online.sample_ratio_mismatch({"control": 52,
                                                                "treatment": 48})],
            "ClickModel": [online.qrels_click_model(QRELS, "perfect")],
            "ClickModelFit": [online.fit_click_model(click_log, "sdbn")],
            "UserModelFit": [online.calibrate(click_log, "markov"),
                             online.calibrate(click_log, "err", qrels={"q": {"a": 1}})],
            "ClickQrels": [online.click_qrels(click_log, "sdbn", thresholds=(0.3, 0.6))],
            "ClickPreferences": [online.click_preferences(click_log, "skip-above")],
            "EngagementSummary": [online.engagement_summary(pd.DataFrame(
                {"variant": ["a", "a", "b", "b"], "clicks": [1.0, 2.0, 3.0, 5.0]}))],
            "SensitivityResult": [online.sensitivity(QRELS, RUNS, "perfect", impressions=[4],
                                                     repetitions=3, seed=1)],
            "InterleavingResult": [online.score_log(log, rng=1)],
            "Interleavings": [online.logged_interleavings(log)],
            "CorpusScores": [text.evaluate_corpus_bleu(
                b"q1\tr1\tthe cat sat on the mat\n", b"q1\tA\tthe cat sat on a mat\n")],
            "AutomaticJudgmentsResult": [collections.automatic_judgments(
                {**QRELS, "3": {"d6": 1, "d7": 0}}, QRELS, RUNS, ["map", "P@2"],
                pairs=True)],
            "UnjudgedBounds": [collections.unjudged_bounds(
                {"1": {"d1": 1, "d2": 0}, "2": {"d4": 1}}, RUNS, ["map", "P@2"])],
            "MeanEstimate": [collections.ppi_mean([0.2, 0.4, 0.9], [0.3, 0.5, 0.7],
                                                  [0.1, 0.6, 0.8, 0.4])],
            "FairPairs": [online.fair_pairs(["d1", "d2", "d3"], 4, rng=1)],
            "AssignmentEstimates": [text.evaluate_assignments(
                [{"qid": q, "run_id": "m", "nuggets": [
                    {"text": t, "importance": "vital", "assignment": a}
                    for t, a in (("a", "support"), ("b", "not_support"), ("c", "support"))]}
                 for q in ("q1", "q2")],
                "A", human_sample=[{"qid": q, "run_id": "m", "nuggets": [
                    {"text": t, "importance": "vital", "assignment": "support"}
                    for t in ("a", "b")]} for q in ("q1", "q2")])],
            "JudgeNoise": [collections.judge_noise(
                QRELS, RUNS, "P@2", collections.Confusion.flip(0.1), replicates=5, rng=1)],
            "CounterfactualResult": [online.counterfactual(
                click_log, {"q": ["b", "a"]}, estimator="pbm-ips")],
            "SatisfactionModel": [online.fit_satisfaction(
                b"".join(f"s{i} q 1 a {i % 2}\ns{i} q 2 b {i % 3 == 0:d}\n".encode()
                         for i in range(8)), {f"s{i}": i % 2 for i in range(8)}, folds=2,
                rng=0)],
        }
    return made


def test_every_result_outside_stats_and_meta_has_an_instance(instances):
    from .test_result_protocol import REPORTS, STATISTICAL

    walked = {c.__name__ for c in RESULTS}
    assert walked - STATISTICAL - REPORTS == set(instances)
    for name, values in instances.items():
        assert all(type(v).__name__ == name for v in values), name


@pytest.mark.parametrize("name", ["Evaluation", "ManyEvaluation", "AwareResult",
                                  "Aggregation", "Pool", "SampledEstimates",
                                  "ShardedEvaluation", "PoolingSimulation", "AATestResult",
                                  "SampleRatioResult", "ClickModel", "ClickModelFit",
                                  "UserModelFit",
                                  "SensitivityResult", "InterleavingResult",
                                  "Interleavings", "ClickQrels", "ClickPreferences",
                                  "EngagementSummary", "LabelAllocation",
                                  "PairwiseAggregation", "AutomaticJudgmentsResult",
                                  "UnjudgedBounds"])
def test_to_frame_and_every_format(instances, name):
    """to_frame() is a DataFrame; format(fmt) writes every format of the vocabulary that
    applies to the result (csv at least) and refuses the others with a ParameterError that
    lists the ones that apply."""
    import pandas as pd

    from irscale.errors import ParameterError

    for result in instances[name]:
        assert isinstance(result.to_frame(), pd.DataFrame)
        written = []
        for fmt in FORMATS:
            try:
                text = result.format(fmt=fmt)
            except ParameterError as error:
                assert "format" in str(error), (name, fmt, error)
                continue
            assert isinstance(text, str) and text, (name, fmt)
            written.append(fmt)
        assert "csv" in written and "json" in written, (name, written)


# ---------------------------------------------------------------- notebooks
@pytest.mark.parametrize("cls", RESULTS, ids=lambda c: c.__qualname__)
def test_every_result_shows_in_a_notebook(cls):
    """Jupyter's rich display protocol: every result has ``_repr_html_``."""
    assert callable(getattr(cls, "_repr_html_", None)), f"{cls.__name__} has no _repr_html_"


def test_notebook_tables_of_every_result_outside_stats_and_meta(instances):
    """The HTML is the result's repr (escaped) above its table, parsed back to the same
    cells by pandas (lxml-free: html.parser), long tables shortened."""
    from html.parser import HTMLParser

    import pandas as pd

    class Cells(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.cells: list[str] = []
            self.inside = False

        def handle_starttag(self, tag, attrs):
            self.inside = tag in ("td", "th")

        def handle_data(self, data):
            if self.inside and data.strip():
                self.cells.append(data.strip())

    for name, values in instances.items():
        for result in values:
            page = result._repr_html_()
            assert page.startswith('<div class="irscale-result"><p><code>'), name
            assert "<script" not in page and "<table" in page, name
            frame = result._html_frame()
            assert isinstance(frame, pd.DataFrame), name
            parser = Cells()
            parser.feed(page)
            header = [str(c) for c in frame.columns]
            assert all(h in parser.cells for h in header if h), (name, header)
            if len(frame) > 30:
                assert "..." in parser.cells, name


def test_an_evaluation_shows_its_means_and_escapes_its_names():
    import irscale

    qrels = {"q<1>": {"d1": 1}}
    runs = {"a&b": {"q<1>": {"d1": 1.0}}}
    ev = irscale.evaluate(qrels, runs, ["map", "P@5"])
    page = ev._repr_html_()
    assert "a&amp;b" in page and "a&b" not in page
    assert "<th>map</th>" in page and "<th>P@5</th>" in page and "1.0" in page
