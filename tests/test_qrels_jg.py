"""Multi-judge qrels (trec_eval 9.0.8's ``-R qrels_jg``: ``map_avgjg``, ``P_avgjg``,
``Rprec_mult_avgjg``): byte for byte against the binary on random cases where one is
installed (``IRSCALE_TREC_EVAL`` or PATH), and without it against two independent oracles —
the measures computed here from their definitions (m_*_avgjg.c) in plain Python, and
pytrec_eval run on each judgment group's qrels alone, averaged over a topic's groups — and
the hand values of docs/trec_eval_semantics.md §8."""

from __future__ import annotations

import io
import os
import random
import shutil
import struct
import subprocess
import warnings
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

import irscale
from irscale.cli.main import main

BINARY = os.environ.get("IRSCALE_TREC_EVAL") or shutil.which("trec_eval")
needs_binary = pytest.mark.skipif(
    not BINARY, reason="needs a trec_eval 9.0.8 binary (IRSCALE_TREC_EVAL or PATH)")

CUTOFFS = (1, 2, 3, 7, 30)
MULTIPLES = (0.2, 0.5, 1.0, 1.2, 1.5, 2.0, 3.0)
MEASURES = ("map_avgjg", "P_avgjg.1,2,3,7,30", "Rprec_mult_avgjg.0.2,0.5,1,1.2,1.5,2,3")


def _case(seed: int) -> tuple[str, str]:
    """Random multi-judge qrels and a run: topics judged by 1 to 4 groups (some judging
    nothing relevant, some documents unjudged in the pool, levels up to 2), the run with tied
    scores, a judged topic it lacks and a topic the judgments lack."""
    rng = random.Random(seed)
    qrels, run = [], []
    for t in range(rng.randint(1, 5)):
        topic = f"q{t}"
        for g in rng.sample(["u1", "u2", "0", "jg10", "B"], rng.randint(1, 4)):
            nothing = rng.random() < 0.25
            for d in rng.sample(range(15), rng.randint(1, 9)):
                rel = 0 if nothing else rng.choice([-1, 0, 0, 0, 1, 1, 2])
                qrels.append(f"{topic} {g} d{d} {rel}")
        if t > 0 and rng.random() < 0.2:
            continue  # a judged topic the run lacks
        for rank, d in enumerate(rng.sample(range(18), rng.randint(1, 14))):
            run.append(f"{topic} Q0 d{d} {rank} {rng.choice([1, 2, 2.5, 3, 4, 5])} sys")
    run.append("zz Q0 d1 0 1 sys")
    rng.shuffle(qrels)
    return "\n".join(qrels) + "\n", "\n".join(run) + "\n"


def _files(tmp_path: Path, seed: int) -> tuple[str, str]:
    qrels, run = _case(seed)
    (tmp_path / "jg.txt").write_text(qrels)
    (tmp_path / "r.run").write_text(run)
    return str(tmp_path / "jg.txt"), str(tmp_path / "r.run")


def _cli(args: list[str]) -> bytes:
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        status = main(["eval", *args])
    out.flush()
    assert status == 0, args
    return out.buffer.getvalue()


OPTIONS = ([], ["-q"], ["-q", "-c"], ["-M", "4"], ["-l", "2", "-q"], ["-J", "-q"],
           ["-c", "-M", "2", "-J"])


@needs_binary
@pytest.mark.parametrize("seed", range(30))
def test_bytes_of_trec_eval(tmp_path, seed):
    qrels, run = _files(tmp_path, seed)
    options = OPTIONS[seed % len(OPTIONS)]
    names = ["qrels_jg"] if seed % 3 == 0 else list(MEASURES)
    args = [*options, "-R", "qrels_jg", *(a for n in names for a in ("-m", n)), qrels, run]
    assert BINARY is not None
    expected = subprocess.run([BINARY, *args], capture_output=True, check=True,
                              timeout=60).stdout
    assert _cli(args) == expected


@needs_binary
@pytest.mark.parametrize("args", [["-m", "map_avgjg"], ["-R", "qrels_jg", "-m", "map"],
                                  ["-R", "qrels_jg"]])
def test_binary_refuses_what_irscale_refuses(tmp_path, args):
    """trec_eval exits 4 on a measure not paired with the format; irscale exits 2."""
    qrels, run = _files(tmp_path, 1)
    assert BINARY is not None
    done = subprocess.run([BINARY, *args, qrels, run], capture_output=True, timeout=60)
    assert done.returncode == 4
    with redirect_stderr(io.StringIO()) as err:
        assert main(["eval", *args, qrels, run]) == 2
    assert err.getvalue().startswith("irscale: ")


def _single(value: float) -> float:
    return struct.unpack("f", struct.pack("f", value))[0]


def _ranking(lines: list[list[str]], max_docs: int | None) -> list[str]:
    """trec_eval 9.0.8's order: score (a C float) descending, docno descending."""
    docs = sorted(lines, key=lambda f: (_single(float(f[4])), f[2]), reverse=True)
    return [f[2] for f in docs][:max_docs]


def _group_values(ranked: list[str], judged: dict[str, int], level: int,
                  judged_only: bool) -> dict[str, float]:
    """map, P and Rprec_mult of one group, from their definitions (m_map.c, m_P.c,
    m_Rprec_mult.c)."""
    if judged_only:
        ranked = [d for d in ranked if judged.get(d, -1) >= 0]
    rel = [judged.get(d, -1) >= level for d in ranked]
    big_r = sum(1 for v in judged.values() if v >= level)
    hits = [sum(rel[:k]) for k in range(len(rel) + 1)]

    def found(k: int) -> int:
        return hits[min(k, len(rel))]

    values = {"map": sum(found(i + 1) / (i + 1) for i, r in enumerate(rel) if r) / big_r
              if big_r else 0.0}
    for k in CUTOFFS:
        values[f"P_{k}"] = found(k) / k
    for x in MULTIPLES:
        cut = int(x * big_r + 0.9)
        values[f"Rprec_mult_{x:.2f}"] = found(cut) / cut if cut > 0 else 0.0
    return values


def _brute_force(qrels: str, run: str, level: int, max_docs: int | None,
                 judged_only: bool) -> dict[str, dict[str, float]]:
    groups: dict[str, dict[str, dict[str, int]]] = {}
    for fields in (line.split() for line in qrels.splitlines()):
        groups.setdefault(fields[0], {}).setdefault(fields[1], {})[fields[2]] = int(fields[3])
    by_topic: dict[str, list[list[str]]] = {}
    for fields in (line.split() for line in run.splitlines()):
        by_topic.setdefault(fields[0], []).append(fields)
    out = {}
    for topic, jgs in groups.items():
        if topic not in by_topic:
            continue
        ranked = _ranking(by_topic[topic], max_docs)
        per_group = [_group_values(ranked, jgs[g], level, judged_only) for g in sorted(jgs)]
        out[topic] = {name: sum(v[name] for v in per_group) / len(per_group)
                      for name in per_group[0]}
    return out


def _irscale(qrels: str, run: str, **options) -> dict[str, dict[str, float]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # topic zz: not judged
        table = irscale.evaluate(qrels.encode(), run.encode(), list(MEASURES),
                                 relevance_format="qrels_jg", **options).per_topic()
    out: dict[str, dict[str, float]] = {}
    for row in table.itertuples():
        name = row.measure.replace("_avgjg", "")
        out.setdefault(row.topic, {})[name] = row.value
    return out


@pytest.mark.parametrize("seed", range(40))
def test_definitions(seed):
    qrels, run = _case(seed)
    options = [{}, {"max_docs": 3}, {"relevance_level": 2}, {"judged_only": True}][seed % 4]
    expected = _brute_force(qrels, run, options.get("relevance_level", 1),
                            options.get("max_docs"), options.get("judged_only", False))
    got = _irscale(qrels, run, **options)
    assert got.keys() == expected.keys()
    for topic, values in expected.items():
        assert got[topic] == pytest.approx(values, abs=1e-12), topic


@pytest.mark.parametrize("seed", range(40))
def test_pytrec_eval_per_group(seed):
    """pytrec_eval (trec_eval's own code) on each group's qrels as a topic of its own."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = _case(seed)
    level = 1 + seed % 2
    groups: dict[str, dict[str, dict[str, int]]] = {}
    for fields in (line.split() for line in qrels.splitlines()):
        groups.setdefault(fields[0], {}).setdefault(fields[1], {})[fields[2]] = int(fields[3])
    scores: dict[str, dict[str, float]] = {}
    for fields in (line.split() for line in run.splitlines()):
        scores.setdefault(fields[0], {})[fields[2]] = float(fields[4])
    split = {f"{t}/{g}": judged for t, jgs in groups.items() for g, judged in jgs.items()}
    evaluator = pytrec_eval.RelevanceEvaluator(
        split, {"map", "P." + ",".join(map(str, CUTOFFS)),
                "Rprec_mult." + ",".join(map(str, MULTIPLES))}, relevance_level=level)
    per_group = evaluator.evaluate({key: scores[key.split("/")[0]] for key in split
                                    if key.split("/")[0] in scores})
    got = _irscale(qrels, run, relevance_level=level)
    assert set(got) == {t for t in groups if t in scores}
    for topic, values in got.items():
        keys = [f"{topic}/{g}" for g in groups[topic]]
        for name, value in values.items():
            mean = sum(per_group[k][name] for k in keys) / len(keys)
            assert value == pytest.approx(mean, abs=1e-12), (topic, name)


def test_hand_values_of_the_docs():
    """docs/trec_eval_semantics.md §8: run d1, d2, d3; u1 judges d1 relevant (d2 not), u2
    judges d2 and d3 relevant."""
    qrels = b"q u1 d1 1\nq u1 d2 0\nq u2 d2 1\nq u2 d3 1\n"
    run = b"q Q0 d1 1 3 r\nq Q0 d2 2 2 r\nq Q0 d3 3 1 r\n"
    mean = irscale.evaluate(qrels, run, ["map_avgjg", "P_avgjg.1", "Rprec_mult_avgjg.1,1.2"],
                            relevance_format="qrels_jg").mean().iloc[0]
    assert mean["map_avgjg"] == pytest.approx((1 + (1 / 2 + 2 / 3) / 2) / 2)
    assert mean["P_avgjg_1"] == pytest.approx((1 + 0) / 2)
    assert mean["Rprec_mult_avgjg_1.00"] == pytest.approx((1 + 1 / 2) / 2)
    # R·1.2 = 1.2 and 2.4: P@2 (1/2) for u1, P@3 (2/3) for u2
    assert mean["Rprec_mult_avgjg_1.20"] == pytest.approx((1 / 2 + 2 / 3) / 2)


def test_complete_averages_over_the_judged_topics():
    qrels = b"a u d1 1\nb u d1 1\nb v d2 1\n"
    run = b"a Q0 d1 1 1 r\n"
    plain = irscale.evaluate(qrels, run, "map_avgjg", relevance_format="qrels_jg")
    complete = irscale.evaluate(qrels, run, "map_avgjg", relevance_format="qrels_jg",
                                complete=True)
    assert plain.mean().iloc[0]["map_avgjg"] == 1.0
    assert complete.mean().iloc[0]["map_avgjg"] == 0.5


def test_every_request_is_computed_by_the_api():
    """As irscale.evaluate computes trec_eval's families: P_avgjg.1 and P_avgjg.2 give both
    cut-offs, the set qrels_jg adds the defaults (the command line's trec output reads them
    as trec_eval does: test_a_family_requested_twice)."""
    qrels, run = b"a u d1 1\n", b"a Q0 d1 1 1 r\n"
    evaluation = irscale.evaluate(qrels, run, ["P_avgjg.1", "P_avgjg.2"],
                                  relevance_format="qrels_jg")
    assert list(evaluation.measures) == ["P_avgjg_1", "P_avgjg_2"]
    evaluation = irscale.evaluate(qrels, run, ["qrels_jg", "P_avgjg.7"],
                                  relevance_format="qrels_jg")
    assert "P_avgjg_7" in evaluation.measures and "P_avgjg_5" in evaluation.measures


@needs_binary
@pytest.mark.parametrize("names", [["P_avgjg.1", "P_avgjg.2"], ["qrels_jg", "P_avgjg.3"],
                                   ["P_avgjg.3", "qrels_jg"],
                                   ["Rprec_mult_avgjg.1", "Rprec_mult_avgjg", "map_avgjg"]])
def test_a_family_requested_twice(tmp_path, names):
    qrels, run = _files(tmp_path, 2)
    args = ["-q", "-R", "qrels_jg", *(a for n in names for a in ("-m", n)), qrels, run]
    assert BINARY is not None
    expected = subprocess.run([BINARY, *args], capture_output=True, check=True,
                              timeout=60).stdout
    assert _cli(args) == expected


@pytest.mark.parametrize(("options", "message"), [
    ({"ties": "file-order"}, "ties"),
    ({"num_docs_in_coll": 5}, "num_docs_in_coll"),
    ({"max_docs": 0}, "max_docs"),
])
def test_options_that_do_not_apply_are_refused(options, message):
    with pytest.raises(irscale.errors.ParameterError, match=message):
        irscale.evaluate(b"q u d1 1\n", {"q": {"d1": 1.0}}, "map_avgjg",
                         relevance_format="qrels_jg", **options)
