"""irscale evaluates without pyarrow installed: ``irscale.evaluate`` and ``irscale eval`` on
TREC files, dicts of dicts and pandas DataFrames, in an interpreter in which importing
pyarrow raises (a meta path finder, as in ``tests/test_startup.py``), give pytrec_eval's
values (trec_eval 9.0.8's code: the independent oracle).

The inputs have graded and negative judgments, tied scores, topics on one side only and
a run that lists a topic's lines apart (the readers group them).
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

pytrec_eval = pytest.importorskip("pytrec_eval")

#: trec_eval's names of the measures compared, as pytrec_eval names them.
MEASURES = ["map", "P_5", "ndcg", "ndcg_cut_10", "recip_rank", "bpref", "num_rel_ret",
            "Rprec"]

#: Run one case of ``CASES`` with pyarrow blocked; print ``{topic: {measure: value}}``.
_SCRIPT = textwrap.dedent("""
    import importlib.abc, json, sys

    class NoPyarrow(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "pyarrow" or name.startswith("pyarrow."):
                raise ImportError(f"{name} is blocked")

    sys.meta_path.insert(0, NoPyarrow())
    import contextlib, io
    case, qrels_path, run_path, measures = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]

    def lines(path, columns):
        with open(path) as stream:
            return [[line.split()[k] for k in columns] for line in stream if line.strip()]

    def as_dicts(rows, cast):
        out = {}
        for topic, docno, value in rows:
            out.setdefault(topic, {})[docno] = cast(value)
        return out

    qrels_rows, run_rows = lines(qrels_path, (0, 2, 3)), lines(run_path, (0, 2, 4))
    values = {}
    if case == "cli":
        from irscale.cli.main import main
        out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
        argv = ["eval", "-q", "-n", *[f"-m{m}" for m in measures], qrels_path, run_path]
        with contextlib.redirect_stdout(out):
            status = main(argv)
        out.flush()
        assert status == 0, status
        for line in out.buffer.getvalue().decode().splitlines():
            measure, topic, value = line.split()[:3]
            values.setdefault(topic, {})[measure] = float(value)
    else:
        import irscale
        if case == "files":
            qrels, run = qrels_path, run_path
        elif case == "dicts":
            qrels, run = as_dicts(qrels_rows, int), as_dicts(run_rows, float)
        elif case == "frames":
            import pandas as pd
            qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"]
                                 ).astype({"relevance": int})
            run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"]
                               ).astype({"score": float})
        evaluation = irscale.evaluate(qrels, run, measures)
        for row in evaluation.per_topic().itertuples():
            values.setdefault(row.topic, {})[row.measure] = row.value
    assert "pyarrow" not in sys.modules
    print(json.dumps(values))
""")

#: The cases run.
CASES = ["cli", "files", "dicts", "frames"]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> tuple[Path, Path]:
    """Qrels and a run: 6 topics, graded (0-3) and negative degrees, scores with ties,
    a run topic not in the qrels and a qrels topic not in the run, and the run's lines of
    two topics interleaved."""
    rng = np.random.default_rng(7)
    root = tmp_path_factory.mktemp("noarrow")
    qrels, run = [], []
    for t in range(1, 7):
        docs = [f"doc-{t}-{d:03d}" for d in range(40)]
        if t != 6:  # topic 6: in the qrels only
            scores = rng.integers(0, 12, size=30) / 4  # many ties
            run += [f"{t} Q0 {docs[d]} {r} {s} sys" for r, (d, s) in
                    enumerate(zip(rng.permutation(40)[:30], scores, strict=True))]
        judged = rng.permutation(40)[:25]
        qrels += [f"{t} 0 {docs[d]} {rng.integers(-1, 4)}" for d in judged]
    run += [f"9 Q0 doc-9-{d} {d} {1 / (d + 1)} sys" for d in range(5)]  # not in the qrels
    run[3], run[40] = run[40], run[3]  # topics 1 and 2 apart
    (root / "qrels").write_text("\n".join(qrels) + "\n")
    (root / "run").write_text("\n".join(run) + "\n")
    return root / "qrels", root / "run"


@pytest.fixture(scope="module")
def expected(files) -> dict[str, dict[str, float]]:
    qrels_path, run_path = files
    with open(qrels_path) as stream:
        qrels = pytrec_eval.parse_qrel(stream)
    with open(run_path) as stream:
        run = pytrec_eval.parse_run(stream)
    names = {m.split("_cut_")[0] + ("_cut" if "_cut_" in m else "") for m in MEASURES}
    names = {"P" if n.startswith("P_") else n for n in names}
    found = pytrec_eval.RelevanceEvaluator(qrels, names).evaluate(run)
    return {topic: {m: values[m] for m in MEASURES} for topic, values in found.items()}


def test_a_parquet_run_names_the_extra_without_pyarrow(tmp_path):
    """A Parquet run read without pyarrow: an :class:`~irscale.errors.InputError` naming
    the file and the extra to install."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    run = tmp_path / "run.parquet"
    pq.write_table(pa.table({"query_id": ["1"], "doc_id": ["d"], "score": [1.0]}), run)
    script = _SCRIPT.split("import contextlib")[0] + textwrap.dedent(f"""
        import irscale
        try:
            irscale.evaluate({{"1": {{"d": 1}}}}, {str(run)!r}, ["map"])
        except irscale.errors.InputError as error:
            print(type(error).__name__, error)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == (f"InputError {run}, reading a Parquet run needs pyarrow: "
                                   "pip install 'irscale[parquet]'")


@pytest.mark.parametrize("case", CASES)
def test_evaluates_as_trec_eval_without_pyarrow(case, files, expected):
    qrels_path, run_path = files
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, case, str(qrels_path), str(run_path), *MEASURES],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    values = json.loads(done.stdout)
    assert set(values) == set(expected)  # topics of both only
    for topic, measures in expected.items():
        for measure, value in measures.items():
            assert values[topic][measure] == pytest.approx(value, abs=1e-4 if case == "cli"
                                                           else 1e-12), (topic, measure)


# -- the readers of the other text formats, and the commands that read them ------------------

#: The readers whose modules must not need pyarrow (a file of each is read below).
READERS = {"irscale/io/crowd.py", "irscale/io/sampled.py", "irscale/io/prefs.py",
           "irscale/io/policy.py", "irscale/io/interleaving_log.py",
           "irscale/io/clicklog.py", "irscale/io/stochastic.py", "irscale/io/labels.py"}

#: A small file of every format (blank lines, tabs and runs of blanks between fields).
FILES = {
    "crowd": "1 d1 w1 1\n1 d1 w2 1\n1 d1 w3 0\n\n1 d2 w1 0\n1\td2  w2 0\n2 d1 w1 2\n",
    "sampled": "1 0 d1 1 0.5\n1 0 d2 0 1\n\n2\t0\td1 2 2.5e-1\n",
    "prefs": "q1 u1 s1 d1 3\nq1 u1 s1 d2 0\nq1 u1 s1 d3 1.5\n\nq2 u1 s2 d1 0.1\n",
    "policy": "q1 d1 1 0.5\nq1  d2 2 0.25\nq2\td1 1 1\n",
    "interleaving": "i1 t1 1 d1 A 1\ni1 t1 2 d2 B 0\ni2 t1 2 d1 A 1\ni2 t1 1 d2 B 1\n"
                    "\ni3 t2 1 d3 A 0\ni3 t2 2 d4 B 1\n",
    "clicks": "s1 q1 1 d1 0 1.5\ns1 q1 2 d2 1 2.5\ns2 q2 1 d3 1 3\ns2 q2 3 d2 1 5\n"
              "s2\tq2 2 d1 0 4\n",
    "stochastic": "1 0 a 1 2 r\n1 0 b 2 1 r\n1 1 b 1 2 r\n1 1 a 2 1 r\n1 1 c 3 2 r\n"
                  "2 0 x 1 0 r\n",
    "labels": "101 0 d1 95\n101 0 d2 7\n\n102 0 d1 0.5\n",
}

#: A run for ``eval -R prefs``: d2, d1, d3 for q1 (d1 over d2 and d3 over d2 unfulfilled).
PREFS_RUN = "q1 Q0 d2 1 3 r\nq1 Q0 d1 2 2 r\nq1 Q0 d3 3 1 r\n"

#: Read ``sys.argv[2]`` (a file of format ``sys.argv[1]``) with pyarrow blocked, or run the
#: command ``sys.argv[2:]`` (format ``cli``); print ``{"values": ...}``, or
#: ``{"pyarrow_needed_by": module}`` when a module imported pyarrow.
_READ_SCRIPT = _SCRIPT.split("import contextlib")[0] + textwrap.dedent("""
    import contextlib, io, json, traceback

    def plain(value):
        return value.item() if hasattr(value, "item") else value

    def rows(frame):
        return [[plain(v) for v in row] for row in frame.itertuples(index=False)]

    def read(kind, path):
        if kind == "crowd":
            from irscale.io.crowd import read_crowd_labels
            return rows(read_crowd_labels(path).to_frame())
        if kind == "sampled":
            from irscale.io.sampled import read_sampled_qrels
            return rows(read_sampled_qrels(path))
        if kind == "prefs":
            from irscale.io.prefs import read_prefs
            p = read_prefs(path)
            return [p.topic.tolist(), p.jg.tolist(), p.jsg.tolist(), p.docno.tolist(),
                    p.level.tolist(), str(p.level.dtype)]
        if kind == "policy":
            from irscale.io.policy import read_probability_table
            return rows(read_probability_table(path))
        if kind == "interleaving":
            from irscale.io.interleaving_log import read_interleaving_log
            log = read_interleaving_log(path)
            return [[log.impressions[n], log.topics[log.shown.query[n]], int(r) + 1,
                     log.shown.docs[log.shown.doc[n, r]],
                     log.teams[log.team[n, r]] if log.team[n, r] >= 0 else "-",
                     int(log.clicks[n, r])] for n, r in zip(*log.valid.nonzero())]
        if kind == "clicks":
            from irscale.io.clicklog import read_click_log
            return rows(read_click_log(path).to_frame())
        if kind == "parquet-clicks":
            from irscale.errors import InputError
            from irscale.io.clicklog import read_click_log
            try:
                read_click_log(path)
            except InputError as error:
                return f"{type(error).__name__} {error}"
        if kind == "stochastic":
            from irscale.io.stochastic import read_stochastic_run
            run = read_stochastic_run(path)
            return [run.name, run.topic.to_pylist(), run.sample.to_pylist(),
                    run.docno.to_pylist(), run.position.tolist()]
        if kind == "labels":
            from irscale.io.labels import read_labels
            table = read_labels(path)
            return [table.topic.to_pylist(), table.docno.to_pylist(), table.value.tolist()]
        from irscale.cli.main import main
        out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
        with contextlib.redirect_stdout(out):
            status = main(sys.argv[2:])
        out.flush()
        assert status == 0, status
        return out.buffer.getvalue().decode()

    try:
        values = read(sys.argv[1], sys.argv[2])
    except ImportError as error:  # the irscale module whose import of pyarrow was refused
        frames = [frame.filename for frame in traceback.extract_tb(error.__traceback__)
                  if "/irscale/" in frame.filename]
        print(json.dumps({"pyarrow_needed_by": "irscale/" + frames[-1].split("/irscale/")[-1]}))
    else:
        assert "pyarrow" not in sys.modules
        print(json.dumps({"values": values}))
""")


def _without_pyarrow(*args: str):
    """The values :data:`_READ_SCRIPT` prints for ``args``; skipped while a module outside
    :data:`READERS` (the text reader, another reader on a command's path) still needs
    pyarrow, failed when one of them does."""
    done = subprocess.run([sys.executable, "-c", _READ_SCRIPT, *args], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "IRSCALE_DEBUG": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.splitlines()[-1])
    if "pyarrow_needed_by" in found:
        module = found["pyarrow_needed_by"]
        assert module not in READERS, f"{module} imports pyarrow"
        pytest.skip(f"{module} still imports pyarrow")
    return found["values"]


@pytest.fixture(scope="module")
def format_files(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("formats")
    for kind, text in {**FILES, "run": PREFS_RUN}.items():
        (root / f"{kind}.txt").write_text(text)
    return {kind: root / f"{kind}.txt" for kind in [*FILES, "run"]}


def _fields(text: str) -> list[list[str]]:
    """The fields of every non-blank line (str.split: runs of blanks and tabs)."""
    return [line.split() for line in text.splitlines() if line.strip()]


def _single(value: float) -> float:
    """``value`` rounded to a C float (trec_eval's preference levels)."""
    return struct.unpack("f", struct.pack("f", value))[0]


def _expected(kind: str) -> object:
    """What the reader of ``kind`` gives for :data:`FILES`, computed from the lines."""
    lines = _fields(FILES[kind])
    if kind == "crowd":
        return [[t, d, w, int(x)] for t, d, w, x in lines]
    if kind == "sampled":
        return [[t, d, int(r), float(p)] for t, _, d, r, p in lines]
    if kind == "prefs":
        return [*map(list, zip(*[line[:4] for line in lines], strict=True)),
                [_single(float(line[4])) for line in lines], "float32"]
    if kind == "policy":
        return [[q, d, int(r), float(p)] for q, d, r, p in lines]
    if kind == "interleaving":  # impressions in first-appearance order, then rank
        order = list(dict.fromkeys(line[0] for line in lines))
        return sorted(([i, t, int(r), d, team, int(c)] for i, t, r, d, team, c in lines),
                      key=lambda row: (order.index(row[0]), row[2]))
    if kind == "clicks":
        order = list(dict.fromkeys(line[0] for line in lines))
        return sorted(([s, q, int(r), d, int(c), float(ts)] for s, q, r, d, c, ts in lines),
                      key=lambda row: (order.index(row[0]), row[2]))
    if kind == "stochastic":  # by topic, sample, score descending, docno descending
        ranked = sorted(lines, key=lambda line: line[2], reverse=True)
        ranked.sort(key=lambda line: (line[0], line[1], -float(line[4])))
        position, rankings = [], {}
        for line in ranked:
            rankings[line[0], line[1]] = rankings.get((line[0], line[1]), 0) + 1
            position.append(rankings[line[0], line[1]])
        return [lines[0][5], [line[0] for line in ranked], [line[1] for line in ranked],
                [line[2] for line in ranked], position]
    return [[t for t, *_ in lines], [d for _, _, d, _ in lines],
            [float(v) for *_, v in lines]]


@pytest.mark.parametrize("kind", list(FILES))
def test_reads_every_format_without_pyarrow(kind, format_files):
    assert _without_pyarrow(kind, str(format_files[kind])) == _expected(kind)


def test_a_parquet_click_log_names_the_extra_without_pyarrow(tmp_path):
    """A Parquet click log read without pyarrow: the error of a Parquet run, naming the
    file and the extra to install."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    log = tmp_path / "clicks.parquet"
    pq.write_table(pa.table({"session": ["s"], "query": ["q"], "rank": [1], "docno": ["d"],
                             "clicked": [1]}), log)
    assert _without_pyarrow("parquet-clicks", str(log)) == (
        f"InputError {log}, reading a Parquet click log needs pyarrow: "
        "pip install 'irscale[parquet]'")


def test_labels_aggregate_without_pyarrow(format_files):
    """``irscale labels aggregate``: the majority label of every document."""
    votes: dict[tuple[str, str], list[int]] = {}
    for topic, docno, _, label in _fields(FILES["crowd"]):
        votes.setdefault((topic, docno), []).append(int(label))
    aggregated = _without_pyarrow("cli", "labels", "aggregate", str(format_files["crowd"]))
    assert {(t, d): int(x) for t, _, d, x in _fields(aggregated)} == {
        pair: max(set(labels), key=labels.count) for pair, labels in votes.items()}


def test_online_score_without_pyarrow(format_files):
    """``irscale online score``: team-draft wins, losses and ties of A over B (the team with
    more clicks in an impression wins it)."""
    clicks_of: dict[str, dict[str, int]] = {}
    for impression, _, _, _, team, clicked in _fields(FILES["interleaving"]):
        clicks_of.setdefault(impression, {"A": 0, "B": 0})[team] += int(clicked)
    outcome = [(c["A"] > c["B"]) - (c["A"] < c["B"]) for c in clicks_of.values()]
    scored = json.loads(_without_pyarrow("cli", "online", "score", "--format", "json",
                                         str(format_files["interleaving"])))
    assert [(s["a"], s["b"], s["wins"], s["losses"], s["ties"]) for s in scored] == [
        ("A", "B", outcome.count(1), outcome.count(-1), outcome.count(0))]


def test_online_prefs_without_pyarrow(format_files):
    """``irscale online prefs``: skip-above, a clicked document over every unclicked one
    shown above it (Joachims et al. 2005), for the session's query."""
    shown: dict[str, list[list[str]]] = {}
    for session, query, rank, docno, clicked, _ in _fields(FILES["clicks"]):
        shown.setdefault(session, []).append([query, rank, docno, clicked])
    preferred = set()
    for lines in shown.values():
        lines.sort(key=lambda line: int(line[1]))
        for k, (query, _, docno, clicked) in enumerate(lines):
            if clicked == "1":
                preferred |= {(query, docno, above[2]) for above in lines[:k]
                              if above[3] == "0"}
    prefs = _fields(_without_pyarrow("cli", "online", "prefs", str(format_files["clicks"])))
    groups: dict[tuple[str, str, str], list[tuple[float, str]]] = {}
    for qid, jg, jsg, docno, level in prefs:
        groups.setdefault((qid, jg, jsg), []).append((float(level), docno))
    assert preferred and {(qid, hi[1], lo[1]) for (qid, _, _), group in groups.items()
                          for hi in group for lo in group if hi[0] > lo[0]} == preferred


def test_eval_prefs_without_pyarrow(format_files):
    """``irscale eval -R prefs``: the preferences of q1 (a higher level over a lower one)
    and those the run's order fulfils."""
    levels = {docno: float(level) for qid, _, _, docno, level in _fields(FILES["prefs"])
              if qid == "q1"}
    ranked = [line[2] for line in _fields(PREFS_RUN)]
    pairs = [(a, b) for a in levels for b in levels if levels[a] > levels[b]]
    evaluated = _without_pyarrow("cli", "eval", "-R", "prefs", "-q", "-m",
                                 "prefs_num_prefs_poss", "-m", "prefs_num_prefs_ful",
                                 str(format_files["prefs"]), str(format_files["run"]))
    values = {(m, t): float(v) for m, t, v in _fields(evaluated)}
    assert values[("prefs_num_prefs_poss", "q1")] == len(pairs) == 3
    assert values[("prefs_num_prefs_ful", "q1")] == sum(
        ranked.index(a) < ranked.index(b) for a, b in pairs) == 1
