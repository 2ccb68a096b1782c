"""sARE, sMARE and the ANOVA of query performance predictors (Faggioli et al. 2021):
a worked example, ranks counted by hand and scipy's rankdata, and statsmodels' ANOVA."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irscale.core import ScoreMatrix
from irscale.errors import InputError, ParameterError
from irscale.stats import qpp_anova, sare, smare

from .oracle_imports import lazy_import

stats = lazy_import("scipy.stats")


def counted_ranks(x: np.ndarray) -> np.ndarray:
    """Mid-ranks by counting: 1 + #smaller + (#equal − 1)/2."""
    return np.array([1 + np.sum(x < v) + (np.sum(x == v) - 1) / 2 for v in x])


def test_worked_example():
    # ranks by prediction 1, 4, 3, 2; by AP 2, 1, 4, 3: |differences| 1, 3, 1, 1 over 4
    predicted = [0.1, 0.4, 0.3, 0.2]
    ap = [0.2, 0.1, 0.5, 0.3]
    assert sare(predicted, ap) == pytest.approx([0.25, 0.75, 0.25, 0.25])
    assert smare(predicted, ap) == pytest.approx(0.375)
    assert smare(ap, ap) == 0.0


@pytest.mark.parametrize("seed", range(4))
def test_sare_against_counted_and_scipy_ranks(seed):
    rng = np.random.default_rng(seed)
    predicted = rng.integers(0, 5, 25).astype(float)  # many ties
    ap = np.round(rng.random(25), 1)
    expected = np.abs(counted_ranks(predicted) - counted_ranks(ap)) / 25
    assert sare(predicted, ap) == pytest.approx(expected, abs=1e-15)
    scipy_ranks = np.abs(stats.rankdata(predicted) - stats.rankdata(ap)) / 25
    assert sare(predicted, ap) == pytest.approx(scipy_ranks, abs=1e-15)


def frames(seed: int, systems: tuple[str, ...] = ("bm25", "ql"),
           variants: tuple[str, ...] = ("v1", "v2"), topics: int = 20
           ) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    rows, observed = [], []
    for system in systems:
        for variant in variants:
            ap = rng.random(topics)
            for t in range(topics):
                observed.append({"topic": f"t{t}", "system": system, "variant": variant,
                                 "value": ap[t]})
                for predictor, noise in (("clarity", 0.3), ("nqc", 0.1), ("wig", 0.5)):
                    rows.append({"topic": f"t{t}", "system": system, "variant": variant,
                                 "predictor": predictor,
                                 "value": ap[t] + rng.normal(0, noise)})
    return pd.DataFrame(rows), pd.DataFrame(observed)


def test_sare_of_every_cell_and_smare_per_predictor():
    predictions, observed = frames(1)
    result = qpp_anova(predictions, observed)
    for (predictor, system, variant), cell in result.scores.groupby(
            ["predictor", "system", "variant"]):
        p = predictions[(predictions.predictor == predictor) & (predictions.system == system)
                        & (predictions.variant == variant)].set_index("topic")["value"]
        o = observed[(observed.system == system) & (observed.variant == variant)] \
            .set_index("topic")["value"]
        expected = np.abs(counted_ranks(p.to_numpy()) - counted_ranks(o[p.index].to_numpy()))
        got = cell.set_index("topic")["sare"][p.index]
        assert got.to_numpy() == pytest.approx(expected / len(p))
    table = result.to_frame()
    assert list(table["predictor"]) == ["nqc", "clarity", "wig"]  # less noise, lower sMARE
    means = result.scores.groupby("predictor")["sare"].mean()
    for row in table.itertuples():
        assert row.smare == pytest.approx(means[row.predictor])
    # the predictor marginal means of the ANOVA are the sMARE values
    anova_means = dict(zip(result.anova.systems, result.anova.system_means, strict=True))
    for row in table.itertuples():
        assert anova_means[row.predictor] == pytest.approx(row.smare)
    assert len(result.smare(by=("system", "variant"))) == 12


@pytest.mark.parametrize("model", [None, "topic + predictor", "topic + predictor + system + "
                                   "variant + topic:predictor + predictor:system"])
def test_anova_matches_statsmodels(model):
    smf = pytest.importorskip("statsmodels.formula.api")
    from statsmodels.stats.anova import anova_lm

    predictions, observed = frames(2)
    result = qpp_anova(predictions, observed, model=model)
    formula = {None: "C(topic) + C(predictor) + C(system) + C(variant) + "
                     "C(predictor):C(system) + C(predictor):C(variant)",
               "topic + predictor": "C(topic) + C(predictor)"}.get(
        model, "C(topic) + C(predictor) + C(system) + C(variant) + C(topic):C(predictor) + "
               "C(predictor):C(system)")
    ref = anova_lm(smf.ols("sare ~ " + formula, result.scores).fit())
    for row in result.anova.rows[:-2]:
        name = ":".join(f"C({f})" for f in row.factor.split(":"))
        assert row.ss == pytest.approx(ref.loc[name, "sum_sq"], rel=1e-9, abs=1e-12)
        assert row.df == ref.loc[name, "df"]
        assert row.f == pytest.approx(ref.loc[name, "F"], rel=1e-8)
    assert result.anova.row("error").ss == pytest.approx(ref.loc["Residual", "sum_sq"])
    assert result.anova.statistic == result.anova.row("predictor").f
    hsd = result.anova.tukey_hsd()
    assert set(hsd.columns["a"]) | set(hsd.columns["b"]) == {"clarity", "nqc", "wig"}


def test_one_system_and_a_score_matrix_of_effectiveness():
    predictions, observed = frames(3, systems=("bm25",), variants=("v1",))
    matrix = ScoreMatrix.from_wide(
        observed.pivot(index="topic", columns="system", values="value"))
    by_matrix = qpp_anova(predictions.drop(columns="variant"), matrix)
    by_frame = qpp_anova(predictions.drop(columns="variant"),
                         observed.drop(columns="variant"))
    assert by_matrix.factors == ("topic", "predictor", "system")
    pd.testing.assert_frame_equal(by_matrix.to_frame(), by_frame.to_frame())
    no_system = qpp_anova(predictions.drop(columns=["variant", "system"]),
                          observed.drop(columns=["variant", "system"]))
    assert no_system.anova.model == "topic + predictor"
    assert no_system.to_frame()["smare"].tolist() == pytest.approx(
        by_frame.to_frame()["smare"].tolist())


def test_scores_of_unpredicted_queries_are_left_out_with_a_warning():
    predictions, observed = frames(3, systems=("bm25",), variants=("v1",))
    extra = pd.concat([observed, pd.DataFrame([{"topic": "t99", "system": "bm25",
                                                "variant": "v1", "value": 0.9}])])
    with pytest.warns(UserWarning, match="1 effectiveness score.*topic 't99'"):
        result = qpp_anova(predictions, extra)
    pd.testing.assert_frame_equal(result.to_frame(),
                                  qpp_anova(predictions, observed).to_frame())


def test_bad_inputs():
    predictions, observed = frames(4)
    with pytest.raises(InputError, match="no prediction for topic 't3'"):
        qpp_anova(predictions.drop(index=[predictions.index[
            (predictions.topic == "t3").to_numpy()][0]]), observed)
    with pytest.raises(InputError, match="no effectiveness score"):
        qpp_anova(predictions, observed.iloc[1:])
    with pytest.raises(InputError, match="appears twice"):
        qpp_anova(pd.concat([predictions, predictions.iloc[:1]]), observed)
    with pytest.raises(InputError, match="no column 'system'"):
        qpp_anova(predictions, observed.drop(columns="system"))
    bad = predictions.copy()
    bad.loc[5, "value"] = np.nan
    with pytest.raises(InputError, match="not a finite number"):
        qpp_anova(bad, observed)
    with pytest.raises(ParameterError, match="predictor factor"):
        qpp_anova(predictions, observed, model="topic + system")
    with pytest.raises(ParameterError, match="unknown factor"):
        qpp_anova(predictions, observed, model="topic + predictor + collection")
    perfect = predictions.merge(observed, on=["topic", "system", "variant"],
                                suffixes=("_p", ""))[["topic", "system", "variant",
                                                      "predictor", "value"]]
    with pytest.raises(InputError, match="every sARE is 0"):
        qpp_anova(perfect, observed)
    with pytest.raises(InputError, match="two at least"):
        sare([1.0], [2.0])
    with pytest.raises(ParameterError, match="by"):
        qpp_anova(predictions, observed).smare(by=("topic",))


def test_command_line_prints_the_api_numbers(tmp_path):
    """``irscale meta qpp --format json``: the sMARE and ANOVA rows of the API."""
    import json

    from .test_cli_eval import cli

    predictions, observed = frames(5)
    predictions.to_csv(tmp_path / "pred.csv", index=False)
    observed.to_csv(tmp_path / "obs.csv", index=False)
    status, out, err = cli(["meta", "qpp", "--predictions", str(tmp_path / "pred.csv"),
                            "--observed", str(tmp_path / "obs.csv"), "--format", "json"])
    assert status == 0, err
    document = json.loads(out)
    result = qpp_anova(predictions, observed)
    assert [r["predictor"] for r in document["smare"]] == list(result.to_frame()["predictor"])
    assert [r["smare"] for r in document["smare"]] == pytest.approx(
        list(result.to_frame()["smare"]))
    assert [r["f"] for r in document["anova"][:-2]] == pytest.approx(
        [r.f for r in result.anova.rows[:-2]])
