"""Score adjustment for pooling bias (Webber & Park 2009) against a brute-force
recomputation: every contributing run (or team) left out of a depth-k pool by plain set
arithmetic, its runs re-evaluated by pytrec_eval (trec_eval 9.0.8), the mean per-topic error
added to the new run's pytrec_eval score."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irscale import meta
from irscale.errors import ParameterError

from .docs_examples import DOCS
from .property_examples import examples

pytrec_eval = pytest.importorskip("pytrec_eval")

MEASURES = {"map": "map", "P@5": "P_5", "nDCG": "ndcg"}


@st.composite
def collections(draw):
    """Judgments of 20 documents on 3 topics (graded 0..2), 3 contributing runs and 2 new
    ones of up to 10 documents each from 24 (some never judged), distinct scores."""
    qrels = {}
    for t in range(3):
        grades = draw(st.lists(st.integers(0, 2), min_size=20, max_size=20))
        # one relevant document no run retrieves: no topic loses every judgment
        qrels[f"q{t}"] = {**{f"d{i}": g for i, g in enumerate(grades)}, "zz": 1}
    runs = {}
    for name in ("a1", "a2", "b1", "new1", "new2"):
        runs[name] = {}
        for t in range(3):
            docs = draw(st.lists(st.integers(0, 23), min_size=1, max_size=10, unique=True))
            runs[name][f"q{t}"] = {f"d{d}": float(50 - rank) for rank, d in enumerate(docs)}
    return qrels, runs


def _pooled(run: dict[str, dict[str, float]], depth: int) -> set[tuple[str, str]]:
    """The (topic, document) pairs of ``run``'s first ``depth`` documents."""
    return {(t, d) for t, docs in run.items()
            for d in sorted(docs, key=lambda d: -docs[d])[:depth]}


def _scores(qrels, run, measure):
    result = pytrec_eval.RelevanceEvaluator(qrels, {measure.split("_")[0]}).evaluate(run)
    return {t: values[measure] for t, values in result.items()}


def _brute_force(qrels, runs, contributing, new, team_of, depth):
    """{(new run, trec measure): adjusted mean}, leaving each team out by hand."""
    pooled = {team: set() for team in team_of.values()}
    for name in contributing:
        pooled[team_of[name]] |= _pooled(runs[name], depth)
    errors: dict[tuple[str, str], list[float]] = {}
    for name in contributing:
        team = team_of[name]
        others = set().union(*(p for k, p in pooled.items() if k != team))
        unique = pooled[team] - others
        loo = {t: {d: g for d, g in docs.items() if (t, d) not in unique}
               for t, docs in qrels.items()}
        loo = {t: docs for t, docs in loo.items() if docs}
        for measure in MEASURES.values():
            full = _scores(qrels, runs[name], measure)
            left = _scores(loo, runs[name], measure)
            for t in left:
                errors.setdefault((t, measure), []).append(full[t] - left[t])
    out = {}
    for name in new:
        for measure in MEASURES.values():
            full = _scores(qrels, runs[name], measure)
            out[(name, measure)] = np.mean([full[t] + np.mean(errors[(t, measure)])
                                            for t in full])
    return out


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collections(), st.sampled_from([2, 5]), st.booleans())
def test_adjusted_scores_match_a_brute_force_recomputation(data, depth, by_team):
    qrels, runs = data
    contributing, new = ["a1", "a2", "b1"], ["new1", "new2"]
    team_of = ({name: name[0] for name in contributing} if by_team
               else {name: name for name in contributing})
    result = meta.pooling_bias(qrels, {n: runs[n] for n in contributing},
                               {n: runs[n] for n in new}, list(MEASURES),
                               contributors=team_of if by_team else None, depth=depth)
    expected = _brute_force(qrels, runs, contributing, new, team_of, depth)
    frame = result.to_frame()
    for row in frame.itertuples():
        assert row.adjusted == pytest.approx(expected[(row.run, MEASURES[row.measure])],
                                             abs=1e-12)
    assert len(frame) == len(new) * len(MEASURES)


def test_a_contributing_run_given_as_new_is_refused():
    qrels = {"q": {"d1": 1, "d2": 0}}
    run = {"q": {"d1": 2.0, "d2": 1.0}}
    with pytest.raises(ParameterError, match="both as contributing and as new"):
        meta.pooling_bias(qrels, {"r": run, "s": run}, {"r": run}, ["map"])


def test_the_documented_example_prints_what_the_page_shows(capsys):
    """docs/meta.md's example: each ``print`` is followed by the ``# ...`` lines it prints."""
    import re

    code = next(block for block in re.findall(r"```python\n(.*?)```",
                                              (DOCS / "meta.md").read_text(), re.S)
                if "pooling_bias(" in block)
    lines = code.splitlines()
    shown = [line[2:] for i, line in enumerate(lines)
             if line.startswith("# ") and lines[i - 1].startswith("print(")]
    exec(compile(code, "meta.md", "exec"), {})
    assert capsys.readouterr().out.splitlines() == shown


def test_documented_clef_errors(clef):
    """docs/meta.md: each CLEF eHealth 2016 team in turn judged by the other teams'
    depth-100 pool; mean absolute error of its runs' scores against the full qrels,
    unadjusted and adjusted (the full-qrels scores are the oracle)."""
    import glob
    import warnings

    from irscale import evaluate
    from irscale.io.sources import as_qrels, read_runs

    # named after their files, whose first part is the team (the run ids are not: CUNI's
    # are Run1 and Run3, InfoLab's first BM25b0.75)
    runs = read_runs(sorted(glob.glob(str(clef / "runs" / "*.txt"))), names="file")
    team = {run.name: run.name.split("_")[0] for run in runs}
    qrels = as_qrels(clef / "task2.qrels")
    judged = qrels.to_frame()
    judged[["query_id", "doc_id"]] = judged[["query_id", "doc_id"]].astype(str)
    pool = meta.pool_contributions(qrels, runs, team, depth=100)
    measures = ["map", "P@10"]
    truth = evaluate(qrels, runs, measures).mean()
    errors: dict[str, list[tuple[float, float]]] = {m: [] for m in measures}
    for left in sorted(set(team.values())):
        kept = judged[~meta.loo.unique_judgments(judged, pool, left)[1]]
        others = [run for run in runs if team[run.name] != left]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            bias = meta.pooling_bias(kept, others, [r for r in runs if team[r.name] == left],
                                     measures, contributors=team, depth=100)
        for row in bias.runs.itertuples():
            true = truth.loc[row.run, row.measure]
            errors[row.measure].append((abs(row.score - true), abs(row.adjusted - true)))
    stated = {"map": (0.0068, 0.0056, 9), "P@10": (0.0221, 0.0234, 9)}
    for measure, (before, after, closer) in stated.items():
        pairs = np.array(errors[measure])
        assert len(pairs) == 16
        assert pairs.mean(axis=0) == pytest.approx([before, after], abs=5e-5)
        assert int(np.sum(pairs[:, 1] < pairs[:, 0])) == closer
