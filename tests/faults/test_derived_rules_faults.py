"""Rules the command line stated by hand, now declared once in the function's binding and
derived by the command line (``docs/errors.md``, "Rules declared once"): the API refuses
what the command line refused, naming the argument, and the command line says it in its
own words, from the same declaration.

* RBO's ``p`` and ``ties`` apply to ``method='rbo'`` (``meta correlate -p/--ties``): the
  API refused them as unknown keywords, naming no argument;
* a shard model is a named one or a formula over topic, system and shard
  (``pool shards --model``): the API refused an unknown one while parsing the formula,
  naming no argument, the command line by a rule of its own after parsing;
* a switch given as its opposite (``--no-loo``, ``--no-robustness``) and a parameter given
  by several options (``--contributors`` or ``--contributor-pattern``): the rules of
  ``simulate_pooling`` and of the report's robustness panel derived, not restated;
* ``CopulaModel.fit``'s default ``topics``, the rows of the data, read and checked by the
  binding (:class:`~irscale.core.binding.SizedBy`), not by the body;
* ``split_study``'s ``shards`` apply to the shard models among the procedures studied
  (``meta split --shard-scores``, ``--empty``): the API dropped them silently without one,
  the command line refused them by a rule of its own. The rule reads the procedures by
  their canonical names (``md3`` is ``MD3``), in ``models`` and in the pairs of ``cross``;
* the values those rules read (the procedures of a study, the kind of a measure whose
  scale is built) are derived by the binding on entry
  (:class:`~irscale.core.binding.Derived`), refused as unknown keywords where given.
"""

from __future__ import annotations

import numpy as np
import pytest

from irscale import meta, scales, stats
from irscale.errors import InputError, ParameterError
from irscale.stats.names import SHARD_MODEL_NAMES

from .conftest import err, ok, opt, output_contains, run_case
from .test_api_faults import bad, check_row
from .test_meta_faults import SPLIT, shard_csv

X = [0.31, 0.25, 0.40, 0.18, 0.22]
Y = [0.45, 0.41, 0.52, 0.30, 0.43]


def _matrix() -> np.ndarray:
    return np.random.default_rng(0).uniform(size=(8, 4))


def _shards() -> stats.ShardScores:
    return stats.ShardScores(np.random.default_rng(0).uniform(size=(4, 3, 2)),
                             topics=["1", "2", "3", "4"], systems=["a", "b", "c"],
                             shards=["s1", "s2"])


def _split_shards() -> stats.ShardScores:
    """Shard scores of :func:`_matrix`'s topics and systems, in two shards."""
    return stats.ShardScores(np.random.default_rng(0).uniform(size=(8, 4, 2)),
                             topics=[str(t) for t in range(1, 9)],
                             systems=["s1", "s2", "s3", "s4"], shards=["k1", "k2"])


def _split(**keywords: object) -> object:
    """A small topic-splitting study of :func:`_matrix`."""
    return meta.split_study(_matrix(), [2], 1, rng=1, **keywords)


ROWS = [
    bad("correlation-p-with-kendall", lambda a: meta.correlation(X, Y, "kendall", p=0.8),
        "p= applies to method 'rbo'", "not to method 'kendall'"),
    bad("correlation-ties-with-spearman", lambda a: meta.correlation(
        X, Y, "spearman", ties="b"), "ties= applies to method 'rbo'", "'spearman'"),
    bad("overall-correlation-p-with-tau_ap", lambda a: meta.overall_correlation(
        _matrix(), method="tau_ap", p=0.5), "p= applies to method 'rbo'", "'tau_ap'"),
    bad("correlation_ci-ties-with-kendall", lambda a: meta.correlation_ci(
        _matrix(), samples=10, ties="w"), "ties= applies to method 'rbo'"),
    bad("shard_anova-model-unknown", lambda a: stats.shard_anova(_shards(), "nope"),
        "model", "unknown model 'nope'", "choose from MD3"),
    bad("shard_anova-model-factor-run", lambda a: stats.shard_anova(_shards(), "topic+run"),
        "model", "'topic+run'", "topic + system + shard"),
    bad("split_study-shards-without-shard-model", lambda a: _split(
        models=("MD1",), shards=_split_shards()), "shards= applies to the shard models",
        "not to procedures ('MD1',)"),
    bad("split_study-shards-cross-without-shard-model", lambda a: _split(
        models=(), cross=[("md1", "md2")], shards=_split_shards()),
        "shards= applies to the shard models", "('MD1', 'MD2')"),
    bad("split_study-empty-without-shard-model", lambda a: _split(
        models=("MD1",), options={"md3": {"empty": "zero"}}), "['MD3'] not in the study"),
    # the values the rules read are derived on entry (Derived), never the caller's to give
    bad("split_study-procedures-given", lambda a: _split(procedures=("MD3",)),
        "split_study: unknown keyword argument(s) procedures", "it takes data, sizes"),
    bad("scale-kind-given", lambda a: scales.scale("AP", 3, kind="diversity measure"),
        "scale: unknown keyword argument(s) kind;", "intents, executor, shards, summary"),
]


@pytest.mark.parametrize("row", ROWS)
def test_api_refuses_what_the_command_line_refused(row):
    check_row(row, None)  # (the rows' calls need no files)


@pytest.mark.parametrize(("call", "param"), [
    (lambda: meta.correlation(X, Y, "kendall", p=0.8), "p"),
    (lambda: meta.correlation(X, Y, "spearman", ties="b"), "ties"),
    (lambda: stats.shard_anova(_shards(), "nope"), "model"),
    (lambda: _split(models=("MD1",), shards=_split_shards()), "shards"),
])
def test_the_refusal_names_the_argument(call, param):
    """The binding's refusal names its argument (the command line's ``named``)."""
    with pytest.raises(ParameterError) as info:
        call()
    assert info.value.param == param


def test_the_default_read_from_the_data():
    """``CopulaModel.fit``'s topics: the rows of the data by default, checked on entry
    (fewer than two: the data's error, naming it); a value given is checked as given."""
    data = np.random.default_rng(1).uniform(size=(6, 3))
    assert meta.CopulaModel.fit(data).topics == 6
    assert meta.CopulaModel.fit(data, topics=4).topics == 4
    with pytest.raises(ParameterError, match="topics must be an integer"):
        meta.CopulaModel.fit(data, topics=1)
    with pytest.raises(InputError, match=r"^data: at least 2 topics"):
        meta.CopulaModel.fit(data[:1])


@pytest.mark.parametrize("name", [spelt for name in SHARD_MODEL_NAMES
                                  for spelt in (name.lower(), name.upper())])
@pytest.mark.parametrize("where", ["models", "cross"])
def test_a_shard_model_in_any_case_takes_shards(name, where):
    """Every shard model, in lower or upper case, in ``models`` or in a pair of ``cross``,
    takes ``shards=`` (the rule reads the canonical names)."""
    keywords = {"models": (name,)} if where == "models" else \
        {"models": (), "cross": [("MD1", name)]}
    study = _split(shards=_split_shards(), **keywords)
    assert study.n_systems == 4


CORR = ["meta", "correlate", "--scores", "ap.csv", "--scores", "p10.csv"]
SIM = ["pool", "simulate", "qrels.txt", "a.run", "b.run", "c.run", "--strategy", "depth",
       "--budget", "2"]
SHARDS = ["pool", "shards", "qrels.txt", "a.run", "b.run", "c.run", "--shards", "2",
          "--seed", "1", "--empty", "zero"]

CASES = [
    # the binding's rule, spelt as options (the value given named with its option)
    err("correlate-p-with-kendall", [*CORR, "-p", "0.8"],
        "-p/--p applies to --method rbo, not to --method kendall"),
    err("correlate-ties-with-spearman", [*CORR, "--method", "spearman", "--ties", "b"],
        "--ties applies to --method rbo, not to --method spearman"),
    ok("correlate-rbo-p-ties", [*CORR, "--method", "rbo", "-p", "0.8", "--ties", "w"],
       output_contains("rbo")),
    # a switch given as its opposite, a parameter given by two options
    err("simulate-no-loo-contributors", [*SIM, "--no-loo", "--contributors", "contrib.txt"],
        "--contributors applies to the leave-one-contributor-out test, which --no-loo "
        "leaves out"),
    err("simulate-no-loo-pattern", [*SIM, "--no-loo", "--contributor-pattern", "^(.*)_"],
        "--contributor-pattern applies to the leave-one-contributor-out test, which "
        "--no-loo leaves out"),
    err("report-no-robustness-scale-depth", ["report", "qrels.txt", "a.run", "b.run",
                                             "--no-robustness", "--scale-depth", "5"],
        "--scale-depth applies to the robustness panel, which --no-robustness leaves out"),
    # the shard model's domain, checked as parsed (a formula of another factor was
    # refused by the function, after the runs were read and scored)
    err("shards-model-unknown", [*SHARDS, "--model", "nope"], opt("--model"),
        "unknown model 'nope'", "choose from MD3"),
    err("shards-model-factor-run", [*SHARDS, "--model", "topic+run"], opt("--model"),
        "'topic+run'"),
    ok("shards-model-formula", [*SHARDS, "--model", "topic + system + shard"],
       output_contains("shard ANOVA")),
    # split_study's shard scores: the binding's rule on the procedures, spelt as options
    err("split-shard-scores-without-shard-model", [*SPLIT, "--shard-scores", "shards.csv"],
        "--shard-scores applies to the shard models (MD3, MD3f, ...) among those studied, "
        "not to procedures MD1", files={"shards.csv": shard_csv()}),
    err("split-empty-cross-without-shard-model", [*SPLIT, "--cross", "md1:md2", "--empty",
                                                  "zero"],
        "--empty applies to the shard models", "not to procedures MD1,MD2"),
    err("split-shard-scores-and-empty-without-shard-model",
        [*SPLIT, "--shard-scores", "shards.csv", "--empty", "zero"],
        "--shard-scores, --empty apply to the shard models", "not to procedures MD1",
        files={"shards.csv": shard_csv()}),
    ok("split-lower-case-shard-model", [*SPLIT[:-1], "md3", "--shard-scores", "shards.csv"],
       output_contains("MD3"), files={"shards.csv": shard_csv()}),
    ok("split-upper-case-shard-model-in-cross", [*SPLIT, "--cross", "MD1:MD3F",
                                                 "--shard-scores", "shards.csv", "--empty",
                                                 "zero"],
       output_contains("MD3f"), files={"shards.csv": shard_csv()}),
]


@pytest.mark.parametrize("case", CASES)
def test_derived_rules(case, ws, run_cli):
    run_case(case, ws, run_cli)
