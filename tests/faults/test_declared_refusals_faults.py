"""Wrong values that a declaration refuses on entry, where they used to fail inside.

Each row gives a public function a value that its parameter's declaration can tell apart
(``None`` where a name is declared, a data frame where a switch or a model is, an empty
table of impression topics, no object of click-model parameters): the domain, or the
binding's rule that depends on the parameter, refuses it before the body runs, with an
irscale error naming the parameter and the value. None of them is a raw exception that the
API's edge (:mod:`irscale.core.edge`) turns into one after the fact: the error has no
``__cause__``, and no frame of the body is in its traceback.
"""

from __future__ import annotations

import pandas as pd
import pytest

import irscale
import irscale.collections
import irscale.labels
import irscale.meta
import irscale.online
import irscale.scales
import irscale.text
from irscale import stats
from irscale.errors import IrscaleError, ParameterError

from ..oracle_imports import lazy_import
from .test_api_faults import Api, api  # noqa: F401

#: imported when its row runs (matplotlib and pandas: seconds of every collection)
report = lazy_import("irscale.report")

RUNS = ["a.run", "b.run"]

ROWS = [
    # a data frame where a model is declared: the domain's refusal, not a comparison's
    pytest.param(lambda a: stats.scheffe(a.matrix, model=pd.DataFrame()), ParameterError,
                 "model", ("model", "unknown model", "DataFrame of shape (0, 0)"),
                 id="scheffe-model-frame"),
    # a data frame where the switch a rule depends on is declared: the rule refuses it
    pytest.param(lambda a: report.build_report("qrels.txt", RUNS, "map",
                                               robustness=pd.DataFrame()),
                 ParameterError, "robustness",
                 ("robustness", "True or False", "DataFrame of shape (0, 0)"),
                 id="build_report-robustness-frame"),
    pytest.param(lambda a: irscale.collections.automatic_judgments(
        "qrels.txt", "qrels.txt", RUNS, "map", label_probabilities=pd.DataFrame()),
        ParameterError, "label_probabilities",
        ("label_probabilities", "True or False", "DataFrame of shape (0, 0)"),
        id="automatic_judgments-label_probabilities-frame"),
    # a data frame for the switch a rule depends on, with the parameter the rule governs:
    # the rule refuses it in the switch's words
    pytest.param(lambda a: irscale.collections.simulate_pooling(
        "qrels.txt", RUNS, strategies=["depth"], budgets=[5], loo=pd.DataFrame(),
        contributors={"a": "a", "b": "b"}),
        ParameterError, "loo", ("loo", "True or False", "DataFrame of shape (0, 0)"),
        id="simulate_pooling-loo-frame-contributors"),
    # None where a measure's name is declared
    pytest.param(lambda a: irscale.labels.audit("qrels.txt", ["qrels.txt"], RUNS,
                                                measure=None),
                 ParameterError, "measure", ("measure", "a name", "None"), id="audit-measure-None"),
    pytest.param(lambda a: irscale.labels.audit("qrels.txt", ["qrels.txt"], RUNS,
                                                measure=["map"]),
                 ParameterError, "measure", ("measure", "['map']"), id="audit-measure-list"),
    pytest.param(lambda a: irscale.labels.audit_assignments("qrels.txt", ["qrels.txt"],
                                                            measure=None),
                 ParameterError, "measure", ("measure", "None"),
                 id="audit_assignments-measure-None"),
    # a table, or nothing, where the topics of the impressions are declared
    pytest.param(lambda a: irscale.online.interleave_runs(RUNS, pd.DataFrame()),
                 ParameterError, "impressions", ("impressions", "DataFrame of shape (0, 0)"),
                 id="interleave_runs-impressions-frame"),
    pytest.param(lambda a: irscale.online.interleave_runs(RUNS, []), ParameterError,
                 "impressions", ("impressions", "no impression"),
                 id="interleave_runs-impressions-empty"),
    pytest.param(lambda a: irscale.online.fair_pairs_run("a.run", []), ParameterError,
                 "impressions", ("impressions", "no impression"),
                 id="fair_pairs_run-impressions-empty"),
    # no object of parameters: None where a text or an object is declared
    pytest.param(lambda a: irscale.online.ClickModel.from_json(None), ParameterError, "text",
                 ("text", "str | dict", "None"), id="ClickModel.from_json-None"),
    # None where the parameter's annotation does not admit it: refused on entry by the
    # edge in the words its after-the-fact judgment used, with no raw exception behind it
    pytest.param(lambda a: stats.ShardScores.from_frame(None), ParameterError, "frame",
                 ("frame", "expected pd.DataFrame", "None"), id="ShardScores.from_frame-None"),
    pytest.param(lambda a: irscale.collections.shard_documents(None, 2), ParameterError,
                 "docnos", ("docnos", "expected Iterable[str]", "None"),
                 id="shard_documents-docnos-None"),
    pytest.param(lambda a: irscale.online.aa_test(None), ParameterError, "values",
                 ("values", "expected Sequence[float]", "None"), id="aa_test-values-None"),
    pytest.param(lambda a: irscale.text.rouge(None, "a b"), ParameterError, "candidates",
                 ("candidates", "expected Sequence[str]", "None"), id="rouge-candidates-None"),
    pytest.param(lambda a: irscale.meta.rbo(None, ["d1"]), ParameterError, "a",
                 ("a: expected Sequence[Hashable]", "None"), id="rbo-a-None"),
    # a domain the binding does not consult for None (an option's absent value): the
    # annotation refuses it before any file is read
    pytest.param(lambda a: irscale.scales.tau_table("qrels.txt", RUNS, ["map"], None),
                 ParameterError, "Ns", ("Ns", "expected Iterable[int]", "None"),
                 id="tau_table-Ns-None"),
    # a value read as true or false where a switch is declared (``bool``, no binding)
    pytest.param(lambda a: stats.wilcoxon(a.x, a.y, correction="no"), ParameterError,
                 "correction", ("correction", "True or False", "'no'"),
                 id="wilcoxon-correction-text"),
    pytest.param(lambda a: stats.mann_whitney(a.x, a.y, correction=float("nan")),
                 ParameterError, "correction", ("correction", "True or False", "nan"),
                 id="mann_whitney-correction-nan"),
    pytest.param(lambda a: stats.effect_sizes(a.x, a.y, paired=1), ParameterError, "paired",
                 ("paired", "True or False", "1"), id="effect_sizes-paired-int"),
    pytest.param(lambda a: irscale.read_runs(RUNS, keep_rank="yes"), ParameterError,
                 "keep_rank", ("keep_rank", "True or False", "'yes'"),
                 id="read_runs-keep_rank-text"),
]


@pytest.mark.parametrize(("call", "kind", "param", "needles"), ROWS)
def test_refused_by_its_declaration(call, kind, param, needles, api: Api):  # noqa: F811
    with pytest.raises(IrscaleError) as caught:
        call(api)
    error = caught.value
    message = str(error)
    assert isinstance(error, kind), f"{type(error).__name__}: {message}"
    assert error.__cause__ is None, f"made from {error.__cause__!r} after the fact: {message}"
    if param is not None:
        assert getattr(error, "param", None) == param, message
    missing = [needle for needle in needles if needle not in message]
    assert not missing, f"{message!r} does not name {missing}"
    assert "\n" not in message, message
