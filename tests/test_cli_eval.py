"""The ``irscale eval`` and ``irscale demo`` commands."""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pandas as pd
import pytest

import irscale
from irscale.cli.main import main


def cli(args: list[str]) -> tuple[int, str, str]:
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    err = io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(args)
    out.flush()
    return status, out.buffer.getvalue().decode(), err.getvalue()


def files(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 a 1\n")
    run = tmp_path / "run.txt"
    run.write_text("1 Q0 a 1 3 sysA\n1 Q0 b 2 2 sysA\n1 Q0 c 3 1 sysA\n3 Q0 a 1 1 sysA\n")
    return str(qrels), str(run)


def test_eval_trec_format_and_options(tmp_path):
    qrels, run = files(tmp_path)
    status, out, err = cli(["eval", "-q", "-m", "map", "-m", "P.2", qrels, run])
    assert status == 0
    assert out.splitlines() == [
        "map                   \t1\t0.8333",
        "P_2                   \t1\t0.5000",
        "map                   \tall\t0.8333",
        "P_2                   \tall\t0.5000",
    ]
    assert "topic(s) with results but no judgments" in err and ": 3" in err
    _, out, _ = cli(["eval", "-l2", "-M1", "-m", "map", qrels, run])
    assert out == "map                   \tall\t0.0000\n"
    _, out, _ = cli(["eval", "-c", "-m", "map", qrels, run])
    assert out == "map                   \tall\t0.4167\n"


def test_eval_json_and_ir_measures_names(tmp_path):
    qrels, run = files(tmp_path)
    _, out, _ = cli(["eval", "--format", "json", "-m", "AP", "-m", "P(rel=2)@1",
                          qrels, run])
    rows = json.loads(out)
    assert {r["measure"] for r in rows} == {"AP", "P(rel=2)@1"}


def test_errors_are_reported_with_exit_status_2(tmp_path):
    qrels, run = files(tmp_path)
    bad = tmp_path / "bad.run"
    bad.write_text("1 Q0 a 1 3 x\n1 Q0 b 2 NaN x\n")
    status, _, err = cli(["eval", qrels, str(bad)])
    assert status == 2 and "bad.run, line 2" in err and "not finite" in err
    status, _, err = cli(["eval", "-m", "nosuch", qrels, run])
    assert status == 2 and "unknown measure 'nosuch'" in err
    status, _, err = cli(["eval", "-M", "-1", "-m", "map", qrels, run])
    assert status == 2 and "max_docs" in err


def test_demo_generates_and_evaluates(tmp_path):
    status, out, _ = cli(["demo", "--out", str(tmp_path / "demo"), "--topics", "5"])
    assert status == 0
    assert (tmp_path / "demo" / "qrels.txt").exists()
    assert len(list((tmp_path / "demo").glob("*.run"))) == 5
    assert "| system5 |" in out and "runid                 \tall\tsystem5" in out
    assert "two-way ANOVA (MD2)" in out and "Tukey HSD after two-way ANOVA" in out


def _pytrec_ap(folder) -> pd.DataFrame:
    """Topics × runs AP of the demo's files, by pytrec_eval (trec_eval 9.0.8's code)."""
    import pytrec_eval

    with open(folder / "qrels.txt") as stream:
        qrels = pytrec_eval.parse_qrel(stream)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"map"})
    columns = {}
    for path in sorted(folder.glob("*.run")):
        with open(path) as stream:
            scores = evaluator.evaluate(pytrec_eval.parse_run(stream))
        columns[path.stem] = {topic: values["map"] for topic, values in scores.items()}
    return pd.DataFrame(columns)


def test_demo_has_a_topic_effect_and_says_which_interval_is_which(tmp_path):
    """The demo's collection looks like a real one: a two-way ANOVA of its AP (statsmodels
    on pytrec_eval's AP) gives a strong topic effect, as TREC collections do (TREC-8 AP:
    ω² = 0.66), beside a strong system effect; the report shows that table, and its Tukey
    header gives the pairs' interval (Q · sqrt(MS_E / m)) and the per-system one (half)."""
    import statsmodels.formula.api as smf
    from scipy.stats import studentized_range
    from statsmodels.stats.anova import anova_lm

    status, out, _ = cli(["demo", "--out", str(tmp_path / "demo")])
    assert status == 0
    ap = _pytrec_ap(tmp_path / "demo")
    assert ap.shape == (50, 5)
    long = ap.rename_axis("topic").reset_index().melt("topic", var_name="system",
                                                      value_name="ap")
    table = anova_lm(smf.ols("ap ~ C(topic) + C(system)", data=long).fit())
    n = len(long)
    omega2 = {}
    for factor in ("topic", "system"):
        row = table.loc[f"C({factor})"]
        # ω², Ferro & Maistro (2024), eq. 8
        omega2[factor] = row.df * (row.F - 1) / (row.df * (row.F - 1) + n)
        shown = next(line.split() for line in out.splitlines()
                     if line.startswith(f"{factor} "))
        assert float(shown[1]) == pytest.approx(row.sum_sq, abs=5e-5)
        assert float(shown[4]) == pytest.approx(row.F, abs=5e-5)
        assert float(shown[6]) == pytest.approx(omega2[factor], abs=5e-5)
    assert 0.4 <= omega2["topic"] <= 0.7 and table.loc["C(topic)", "PR(>F)"] < 1e-10
    assert omega2["system"] >= 0.3 and table.loc["C(system)", "PR(>F)"] < 1e-10
    ms_error = table.loc["Residual", "mean_sq"]
    pair = studentized_range.ppf(0.95, 5, table.loc["Residual", "df"]) * np.sqrt(ms_error / 50)
    header = next(line for line in out.splitlines() if line.startswith("Tukey HSD after"))
    assert f"95% CI of a pair's difference: diff ± {pair:.4f}" in header
    assert f"comparison interval of a system (eq. 11): mean ± {pair / 2:.4f}" in header
    widths = [float(low) for low in re.findall(r"\[(-?[0-9.]+), ", out)]
    diffs = [float(line.split()[4]) for line in out.splitlines()
             if line.startswith("system") and "[" in line]
    assert len(widths) == len(diffs) == 10
    assert [round(d - w, 4) for d, w in zip(diffs, widths, strict=True)] == \
        pytest.approx([pair] * 10, abs=2e-4)


def test_complete_counts_every_qrels_topic_and_relstring_is_quoted(tmp_path):
    qrels, run = files(tmp_path)
    _, out, _ = cli(["eval", "-c", "-m", "num_q", "-m", "num_rel", "-m", "gm_map", qrels, run])
    # 9.0.8: num_q counts qrels topics; num_rel the judgments > 0 of every qrels topic
    # (m_num_rel.c te_calc_avg_num_rel), topic 2 included; missing topic → 1e-5
    assert out.splitlines() == [
        "num_q                 \tall\t2",
        "num_rel               \tall\t3",
        f"gm_map                \tall\t{(0.8333333333333333 * 1e-5) ** 0.5:6.4f}",
    ]
    _, out, _ = cli(["eval", "-q", "-m", "relstring", qrels, run])
    assert out.splitlines()[0].startswith("relstring             \t1\t'")


def test_compat_profiles_choose_trec_eval_tables(tmp_path):
    qrels, run = files(tmp_path)
    _, nine, _ = cli(["eval", "-m", "all_trec", qrels, run])
    _, ten, _ = cli(["eval", "--compat", "10", "-m", "all_trec", qrels, run])
    names9 = [line.split()[0] for line in nine.splitlines()]
    names10 = [line.split()[0] for line in ten.splitlines()]
    assert "rbp" not in names9 and names9[-1] == "num_nonrel_judged_ret"
    assert names10[-5:] == ["rbp", "rbp_resid", "unj_5", "unj_10", "unj_20"]
    assert names10[: len(names9)] == names9


def test_compat_10_compares_scores_as_doubles(tmp_path):
    """trec_eval 9.0.8 stores scores as C floats (1.000000049 and 1.000000048 tie, docno
    descending: d2 first); 10.0 as doubles (d1 first)."""
    qrels = tmp_path / "q.txt"
    qrels.write_text("1 0 d1 1\n1 0 d2 0\n")
    run = tmp_path / "r.txt"
    run.write_text("1 Q0 d1 1 1.000000049 r\n1 Q0 d2 2 1.000000048 r\n")
    _, nine, _ = cli(["eval", "-q", "-m", "recip_rank", str(qrels), str(run)])
    _, ten, _ = cli(["eval", "--compat", "10", "-q", "-m", "recip_rank", str(qrels), str(run)])
    assert nine.splitlines()[0] == "recip_rank            \t1\t0.5000"
    assert ten.splitlines()[0] == "recip_rank            \t1\t1.0000"
    api = {compat: irscale.evaluate(str(qrels), str(run), "recip_rank", compat=compat)
           .per_topic()["value"].tolist() for compat in (9, 10)}
    assert api == {9: [0.5], 10: [1.0]}
