"""``Evaluation.mean()`` without pandas: a :class:`~irscale.measures.means.Means` whose values,
``repr`` and ``as_dict`` need no pandas, whose ``frame`` is the frame ``mean()`` returned
before (the pivot of ``aggregates()``), and which answers what code written for that frame
asks (``.loc``, ``["map"]``, ``.round``, arithmetic, ``.equals``).

The import test runs in a fresh interpreter and reads ``sys.modules`` (as
tests/test_startup.py); times are measured by ``benchmarks/bench_api.py``, not here.
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pandas as pd
import pytest

import irscale
from irscale.measures.means import Means, table_text

QRELS = {"q1": {"d1": 1, "d2": 0, "d3": 2}, "q2": {"d1": 0, "d5": 1}, "q3": {"d9": 1}}
BM25 = {"q1": {"d1": 3.0, "d2": 2.0, "d4": 1.0}, "q2": {"d5": 1.0, "d1": 0.5},
        "q3": {"d1": 1.0}}
QL = {"q1": {"d3": 2.0, "d1": 2.0}, "q2": {"d1": 1.0, "d5": 1.0}, "q3": {"d9": 1.0}}


def _frame_before(result) -> pd.DataFrame:
    """What ``mean()`` returned before :class:`Means`: the pivot of ``aggregates()``."""
    frame = result.aggregates()
    frame = frame[frame["measure"].isin(result.measures)]
    table = frame.pivot(index="run", columns="measure", values="value").astype(float)
    return table.loc[list(result.runs), [m for m in result.measures if m in table.columns]]


def _evaluations(folder):
    runs = {"bm25": BM25, "ql": QL}
    yield irscale.evaluate(QRELS, runs, ["map", "P@2", "ndcg_cut.2", "num_q", "gm_map"])
    yield irscale.evaluate(QRELS, runs, "all_trec", complete=True)
    yield irscale.evaluate(QRELS, BM25, ["runid", "recip_rank"])
    yield irscale.evaluate(QRELS, {"r": BM25}, ["P@1"], zscores=b"q1 P_1 0.5 0.25\n")
    yield irscale.evaluate(QRELS, runs, ["RBP(p=0.8)", "ERR@20", "nDCG@10"])
    (folder / "qrels").write_text("".join(f"{t} 0 {d} {r}\n" for t, docs in QRELS.items()
                                          for d, r in docs.items()))
    for name, run in runs.items():
        (folder / name).write_text("".join(f"{t} Q0 {d} 0 {s} {name}\n"
                                           for t, docs in run.items() for d, s in docs.items()))
    yield irscale.evaluate_many(folder / "qrels", [folder / "bm25", folder / "ql"],
                                ["map", "P@2"])


@pytest.mark.parametrize("index", range(6))
def test_the_means_are_the_frame_mean_returned_before(index, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = list(_evaluations(tmp_path))[index]
    means = result.mean()
    before = _frame_before(result)
    assert isinstance(means, Means)
    pd.testing.assert_frame_equal(means.frame, before, check_exact=True)
    pd.testing.assert_frame_equal(means.to_frame(), before, check_exact=True)
    assert repr(means) == before.to_string()
    assert means.as_dict() == {run: {m: float(before.loc[run, m]) for m in before.columns}
                               for run in before.index}
    np.testing.assert_array_equal(means.values, before.to_numpy())
    assert means.shape == before.shape and len(means) == len(before)
    assert list(means) == list(before) and all(m in means for m in before.columns)


def test_code_written_for_the_frame_runs_unchanged():
    ev = irscale.evaluate(QRELS, {"bm25": BM25, "ql": QL}, ["map", "P@2"])
    table, before = ev.mean(), _frame_before(ev)
    assert table.loc["bm25"].round(4).tolist() == before.loc["bm25"].round(4).tolist()
    assert table["map"].tolist() == before["map"].tolist()
    assert table.iloc[0, 0] == before.iloc[0, 0]
    pd.testing.assert_frame_equal(table.round(4), before.round(4))
    pd.testing.assert_frame_equal(table - ev.mean(), before - before)
    pd.testing.assert_frame_equal(table == ev.mean(), before == before)
    assert table.equals(ev.mean()) and table.equals(before)
    assert table.to_dict() == before.to_dict()
    np.testing.assert_array_equal(np.asarray(table), before.to_numpy())
    assert "bm25" in table._repr_html_()
    copy = pickle.loads(pickle.dumps(table))
    assert copy.as_dict() == table.as_dict()


def test_the_means_are_read_only():
    means = irscale.evaluate(QRELS, BM25, ["map"]).mean()
    with pytest.raises(TypeError, match="read-only"):
        means["map"] = 0.0
    with pytest.raises(AttributeError, match="read-only"):
        means.runs = ("x",)
    changed = means.to_frame()  # a copy to change
    changed["map"] = 0.0
    assert means.as_dict() == {"run": {"map": 0.5}}


@pytest.mark.parametrize("values", [
    [[0.5, -0.25], [1.0, 2.0]], [[float("nan"), 1e-7], [1e7, 3.0]],
    [[float("inf"), 1e12], [-float("inf"), 0.0]], [[1e-5 / 3, 1 / 3], [2.0, 1e9]],
    [[-0.0, 5e-324], [1e6, 99999999.5]],
])
def test_the_text_is_pandas_text(values):
    runs, measures = ["a", "run-with-a-long-name"], ["P@10", "m"]
    frame = pd.DataFrame(values, index=pd.Index(runs, name="run"),
                         columns=pd.Index(measures, name="measure"))
    assert table_text(runs, measures, values) == frame.to_string()
    assert table_text(runs, [], [[], []]) == frame.iloc[:, []].to_string()


#: Evaluate dicts (1 run, 20 topics) and print the means and their dict; report the
#: heavy packages loaded.
_SCRIPT = textwrap.dedent("""
    import json, sys
    import irscale
    qrels = {f"q{t}": {f"d{d}": (t + d) % 3 for d in range(0, 20, 2)} for t in range(20)}
    run = {f"q{t}": {f"d{d}": float(d % 7) for d in range(20)} for t in range(20)}
    ev = irscale.evaluate(qrels, run, measures=["map", "P@10", "ndcg_cut.10",
                                                "recip_rank", "recall@100"])
    means = ev.mean()
    print(means)
    print(means.as_dict(), means.values.sum())
    heavy = {"pandas", "scipy", "matplotlib", "pyarrow"}
    print(json.dumps(sorted({m.split(".")[0] for m in sys.modules} & heavy)))
""")


def test_evaluate_of_dicts_and_its_means_load_no_pandas():
    done = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True,
                          timeout=300, check=True)
    *printed, loaded = done.stdout.splitlines()
    assert json.loads(loaded) == [], done.stdout
    assert printed[0].split() == ["measure", "map", "recip_rank", "ndcg_cut_10", "P@10",
                                  "recall@100"], done.stdout
