"""ndeval's risk-sensitive output, ``irscale eval -m ndeval --format ndeval --baseline B
--risk-alpha A`` (= ``ndeval -baseline B -riskAlpha A``), against an
independent transcription of ndeval 4.5's ``outputMeasures`` written below from ndeval.c,
fed with pyndeval's per-topic values of the run and of the baseline (pyndeval has no
baseline option), and against hand examples.

ndeval.c, as transcribed in :func:`reference`: ``RiskBased(r, b, a) = r >= b ? r − b :
(a + 1)(r − b)``; run and baseline topics are walked together in topic order; a topic
missing from one side counts 0 for it (``TopicVal``: ``ZeroRun`` / ``ZeroBase``); a
baseline topic the run lacks is printed only with ``-c``; ``amean`` divides the sum by the
usual count (run topics the qrels judge, or every qrels topic with ``-c``) or by the number
of printed rows when larger; the label is ``runid (rel to. B; rs=1+a; a=<A as typed>)``.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irscale.cli.main import main
from irscale.measures.diversity import NDEVAL_COLUMNS

from .property_examples import examples
from .test_diversity_ndeval import collections, oracle, qrels_bytes, run_bytes

pytest.importorskip("pyndeval")


def printf6(value: float) -> str:
    """C's ``printf("%.6f")`` (glibc prints a NaN with its sign bit as ``-nan``)."""
    if math.isnan(value):
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    return f"{value:.6f}"


def risk_based(r: float, b: float, a: float) -> float:
    return r - b if r >= b else (a + 1) * (r - b)


def reference(qrels, run, baseline, alpha_text, complete, runid="sys", baseid="base"):
    """What ndeval -baseline -riskAlpha prints, from pyndeval's per-topic values."""
    alpha = float(alpha_text)
    mine = oracle(qrels, run, list(NDEVAL_COLUMNS), False)
    theirs = oracle(qrels, baseline, list(NDEVAL_COLUMNS), False)
    label = f"{runid} (rel to. {baseid}; rs=1+a; a={alpha_text})"
    lines = ["runid,topic," + ",".join(NDEVAL_COLUMNS)]
    totals = [0.0] * len(NDEVAL_COLUMNS)
    rows = 0
    r_topics, b_topics = sorted(mine, key=int), sorted(theirs, key=int)
    i = j = 0
    while i < len(r_topics) or (j < len(b_topics) and complete):
        zero_run = i >= len(r_topics)
        zero_base = j >= len(b_topics)
        if not zero_run and not zero_base:
            if int(r_topics[i]) == int(b_topics[j]):
                topic, i, j = r_topics[i], i + 1, j + 1
            elif int(r_topics[i]) > int(b_topics[j]):
                zero_run, topic = True, b_topics[j]
                j += 1
                if not complete:
                    continue
            else:
                zero_base, topic = True, r_topics[i]
                i += 1
        elif zero_run:
            topic, j = b_topics[j], j + 1
        else:
            topic, i = r_topics[i], i + 1
        r_values = None if zero_run else mine[topic]
        b_values = None if zero_base else theirs[topic]
        values = []
        for k, column in enumerate(NDEVAL_COLUMNS):
            r = 0.0 if r_values is None else r_values[column]
            b = 0.0 if b_values is None else b_values[column]
            values.append(risk_based(r, b, alpha))
            totals[k] += values[-1]
        rows += 1
        lines.append(f"{label},{topic}," + ",".join(printf6(v) for v in values))
    judged = {q[0] for q in qrels}
    count = len(judged) if complete else sum(1 for t in mine if t in judged)
    count = max(count, rows)
    lines.append(f"{label},amean," + ",".join(printf6(t / count) for t in totals))
    return "\n".join(lines) + "\n"


def run_cli(tmp_path, capsys, qrels, run, baseline, alpha_text, complete):
    (tmp_path / "q").write_bytes(qrels_bytes(qrels))
    (tmp_path / "r").write_bytes(run_bytes(run, "sys"))
    (tmp_path / "b").write_bytes(run_bytes(baseline, "base"))
    args = ["eval", "-m", "ndeval", "--format", "ndeval", "--baseline", str(tmp_path / "b"),
            *(["--risk-alpha", alpha_text] if alpha_text != "0" else []),
            *(["-c"] if complete else []), "--allow-empty",  # ndeval prints any run
            str(tmp_path / "q"), str(tmp_path / "r")]
    capsys.readouterr()
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(args) == 0
    return capsys.readouterr().out


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # capsys read each time
@given(collections(), collections(), st.sampled_from(["0", "1", "0.5", "2.50", "5"]),
       st.booleans())
def test_against_ndeval_transcription(tmp_path_factory, capsys, data, other, alpha, complete):
    qrels, run = data
    # the baseline: another run over (mostly) the same topic ids
    baseline = [(str(int(t) % 31 or 1), d, r, s) for t, d, r, s in other[1]]
    baseline = list({(t, d): (t, d, r, s) for t, d, r, s in baseline}.values())
    baseline = _reranked(baseline)
    tmp_path = tmp_path_factory.mktemp("risk")
    got = run_cli(tmp_path, capsys, qrels, run, baseline, alpha, complete)
    assert got == reference(qrels, run, baseline, alpha, complete)


def _reranked(rows):
    """Distinct ranks 1..n per topic (ndeval refuses a repeated rank)."""
    out, seen = [], {}
    for t, d, _, s in rows:
        seen[t] = seen.get(t, 0) + 1
        out.append((t, d, seen[t], s))
    return out


QRELS = [("1", "1", "a", 1), ("1", "2", "b", 1), ("2", "1", "c", 1), ("3", "1", "e", 0)]


def test_hand_example(tmp_path, capsys):
    """strec@5 by hand, α = 0.5. Run: topic 1 covers intent 1 of 2 (0.5), topic 2 its only
    intent (1), topic 3 has no relevant document (0). Baseline: topic 1 both intents (1),
    topic 3 (0), topic 4 unjudged (0). Rows: 1: 1.5·(0.5 − 1) = −0.75; 2: the baseline
    lacks it, 1 − 0 = 1; 3: 0. Without -c the baseline-only topic 4 is skipped: mean
    0.25/3. With -c, topic 4 is printed (0 − 0 = 0) and the mean divides by max(3 qrels
    topics, 4 rows) = 4: 0.0625."""
    run = [("1", "a", 1, 3.0), ("1", "x", 2, 2.0), ("2", "c", 1, 1.0), ("3", "e", 1, 1.0)]
    base = [("1", "b", 1, 2.0), ("1", "a", 2, 1.0), ("3", "e", 1, 1.0), ("4", "z", 1, 1.0)]
    label = "sys (rel to. base; rs=1+a; a=0.5),"  # ndeval's label: "; rs=1+a; a="
    column = NDEVAL_COLUMNS.index("strec@5") + 1
    for complete, topics, values in (
            (False, ["1", "2", "3", "amean"], [-0.75, 1, 0, 0.25 / 3]),
            (True, ["1", "2", "3", "4", "amean"], [-0.75, 1, 0, 0, 0.0625])):
        out = run_cli(tmp_path, capsys, QRELS, run, base, "0.5", complete).splitlines()
        assert all(line.startswith(label) for line in out[1:])
        cells = [line[len(label):].split(",") for line in out[1:]]
        assert [c[0] for c in cells] == topics
        assert [c[column] for c in cells] == [f"{v:.6f}" for v in values]


def test_nan_keeps_its_sign(tmp_path, capsys):
    """nNRBP of topic 3 (no relevant document) is ndeval's 0/0 = -nan on both sides:
    RiskBased(-nan, -nan) is -nan, and so is the mean."""
    run = [("3", "e", 1, 1.0)]
    out = run_cli(tmp_path, capsys, QRELS, run, run, "0", False).splitlines()
    label = "sys (rel to. base; rs=1+a; a=0),"
    column = NDEVAL_COLUMNS.index("nNRBP") + 1
    assert all(line.startswith(label) for line in out[1:])
    assert [line[len(label):].split(",")[column] for line in out[1:]] == ["-nan", "-nan"]
