"""Work bounded by the input (``docs/errors.md`` §7), and numbers inside the declared
domains: a manifest of many collections (``compare --collections``), a long confusion file
(``meta judge-noise --confusion``), ``labels pairwise --regularization`` at the end of its
float range, ``fuse --norm zmuv`` of a score near the largest double, and intent
probabilities that are NaN or do not sum to 1.

The size of the work of an input is declared as an option's is (``Param(..., cost=Cost(
"collections", ...))``) and kept by one mechanism (:func:`irscale.core.progress.
counted_work`); it is tested here with small inputs, a small ``--max-memory`` and the
statement's threshold set to 0 s (as :mod:`tests.faults.test_probe_faults` does), never
with the large inputs that took minutes.
"""

from __future__ import annotations

import math

import pytest

import irscale.core.progress
from irscale.errors import InputFormatError, ParameterError

from .conftest import err, ok, opt, output_contains, run_case, text

#: A manifest of :data:`MANY` collections, all the workspace's qrels and three runs.
MANY = 40
SUITE = text(["collection\tqrels\trun",
              *(f"c{i}\tqrels.txt\t{run}.run" for i in range(MANY) for run in "abc")])
ACROSS = ["compare", "--collections", "suite.tsv", "-m", "map", "--samples", "20", "--seed",
          "1"]
#: A confusion of the collection's grades 0, 1 and 2.
CONFUSION = "0 0 0.9\n0 1 0.1\n1 0 0.2\n1 1 0.7\n1 2 0.1\n2 1 0.3\n2 2 0.7\n"
NOISE = ["meta", "judge-noise", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map",
         "--replicates", "3", "--seed", "1", "--confusion"]
#: Diversity qrels of the workspace's documents (three intents a topic).
DIV_QRELS = text([f"{t} {s} d{d} {(t + s + d) % 3}" for t in range(1, 7) for s in (1, 2, 3)
                  for d in range(1, 7)])
PROBS_EVAL = ["eval", "-m", "alpha-nDCG-w@10", "div.qrels", "a.run", "--intent-probs",
              "p.txt"]
#: A run whose first score is near the largest double (warned: outside a C float).
HUGE_RUN = text(["1 Q0 d1 1 1e308 big", "1 Q0 d2 2 0.5 big", "1 Q0 d3 3 0.2 big"])


def fused_scores_finite(result, ws, run) -> None:
    """The fused run: every score finite, d1's z-scores (+√2 in big.run, −√2 in a.run)
    cancelling."""
    lines = [line.split() for line in result.out.splitlines() if line.startswith("1 ")]
    scores = {fields[2]: float(fields[4]) for fields in lines}
    assert scores and all(math.isfinite(value) for value in scores.values()), result.out
    assert abs(scores["d1"]) < 1e-12 and abs(scores["d2"] - math.sqrt(2)) < 1e-12, scores


CASES = [
    # ------------------------------------------------------------ the collections' memory
    err("collections-beyond-max-memory", [*ACROSS, "--max-memory", "100K"],
        "40 collections (--collections)", "MiB", "--max-memory", "fewer --collections",
        files={"suite.tsv": SUITE}),
    err("collection-beyond-max-memory",
        ["compare", "--collection", "X=qrels.txt,a.run,b.run,c.run", "--collection",
         "Y=qrels.txt,a.run,b.run,c.run", "-m", "map", "--max-memory", "10K"],
        "2 collections (--collection)", "--max-memory"),
    err("max-memory-without-collections", ["compare", "--scores", "ap.csv", "--max-memory",
                                           "1G"], opt("--max-memory"), "across collections"),
    ok("collections-within-max-memory", [*ACROSS, "--max-memory", "1G"],
       output_contains("systems' means over 40 collections"), files={"suite.tsv": SUITE}),
    # ------------------------------------------------------------ the confusion file
    err("confusion-comment-then-bad-line", [*NOISE, "bad.txt"], "bad.txt", "line 3",
        "true observed probability", files={"bad.txt": "# grades\n0 0 1\n1 1 x\n"}),
    err("confusion-negative-grade", [*NOISE, "bad.txt"], "bad.txt", "line 2", "-1 1 1",
        files={"bad.txt": "0 0 1\n-1 1 1\n"}),
    err("confusion-nan", [*NOISE, "bad.txt"], "bad.txt", "line 1", "nan",
        files={"bad.txt": "0 0 nan\n"}),
    err("confusion-pair-twice-after-others", [*NOISE, "bad.txt"], "bad.txt", "line 4",
        "1 → 1 is given twice", files={"bad.txt": "0 0 1\n1 1 1\n2 2 1\n1 1 1\n"}),
    ok("confusion-comments-kept-out", [*NOISE, "conf.txt"], output_contains("mean_tau"),
       files={"conf.txt": "# a comment\n" + CONFUSION.replace("\n", "\n  # indented\n", 1)}),
    # ------------------------------------------------------------ noisybt's anchor weight
    err("noisybt-regularization-largest-double",
        ["labels", "pairwise", "pairs.txt", "--method", "noisybt", "--regularization",
         "1e308"], opt("--regularization"), "(0, 1000]",
        files={"pairs.txt": text(["1 w1 a b a", "1 w2 b a a", "1 w1 b a b"])}),
    ok("noisybt-regularization-1000",
       ["labels", "pairwise", "pairs.txt", "--method", "noisybt", "--regularization",
        "1000"], output_contains("1 a "),
       files={"pairs.txt": text(["1 w1 a b a", "1 w2 b a a", "1 w1 b a b"])}),
    # ------------------------------------------------------------ zmuv near 1e308
    ok("fuse-zmuv-score-near-largest-double",
       ["fuse", "big.run", "a.run", "--method", "combmnz", "--norm", "zmuv"],
       fused_scores_finite, files={"big.run": HUGE_RUN}),
    ok("fuse-min-max-scores-spanning-the-doubles",
       ["fuse", "big.run", "a.run", "--method", "combsum", "--norm", "min-max"],
       output_contains("1 Q0 d3 1 1.25 "),  # 0.5 + 0.75
       files={"big.run": text(["1 Q0 d1 1 1e308 big", "1 Q0 d2 2 -1e308 big",
                               "1 Q0 d3 3 0.2 big"])}),
    # ------------------------------------------------------------ intent probabilities
    err("intent-probs-nan", PROBS_EVAL, "p.txt", "line 1", "1 1 nan",
        files={"div.qrels": DIV_QRELS, "p.txt": b"1 1 nan\n1 2 0.25\n1 3 0.25\n"}),
    err("intent-probs-sum-1.4", PROBS_EVAL, "p.txt", "line 1", "sum to 1.4",
        "tolerance 0.001", files={"div.qrels": DIV_QRELS,
                                  "p.txt": b"1 1 0.9\n1 2 0.25\n1 3 0.25\n"}),
    err("intent-probs-sum-of-a-topic-not-in-the-qrels", PROBS_EVAL, "p.txt", "line 4",
        "topic 9", "sum to 0.5",
        files={"div.qrels": DIV_QRELS,
               "p.txt": b"1 1 0.5\n1 2 0.25\n1 3 0.25\n9 1 0.5\n"}),
]


@pytest.mark.parametrize("case", CASES)
def test_input_costs(case, ws, run_cli):
    run_case(case, ws, run_cli)


# ---------------------------------------------------------------- the mechanism
@pytest.fixture
def stated_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rest stated however short (its threshold 0 s, measured from the first unit):
    what is checked is that the work is announced in its declared units, not how long it
    takes on this machine."""
    monkeypatch.setattr(irscale.core.progress, "NOTICE_SECONDS", 0.0)
    monkeypatch.setattr(irscale.core.progress, "DELAY", 0.0)
    monkeypatch.delenv("IRSCALE_NO_PROGRESS", raising=False)


def test_many_collections_are_announced_in_their_units(ws, run_cli, stated_at_once):
    """The collections' evaluation states its rest in the units its option declares (it
    worked in silence: 52 s at 20,000 collections)."""
    ws.write("suite.tsv", SUITE)
    result = run_cli(ACROSS)
    assert result.status == 0, result.describe()
    stated = [line for line in result.err.splitlines()
              if line.startswith("irscale: reading and evaluating the collections: ")]
    assert stated and "more collections (--collections) at" in stated[0] and \
        "(measured)" in stated[0], result.describe()


def test_no_progress_silences_the_statement(ws, run_cli, stated_at_once):
    ws.write("suite.tsv", SUITE)
    result = run_cli([*ACROSS, "--no-progress"])
    assert result.status == 0 and "more collections" not in result.err, result.describe()


def test_the_mixed_model_is_refused_beyond_max_memory(ws):
    """The model's memory is estimated from the collections' sizes and refused before the
    fit (its dense Z'Z was 3.1 GB at 2,000 collections and aborted the process at
    20,000)."""
    from irscale.core import ScoreMatrix
    from irscale.stats.across_collections import across_collections

    def table(shift: float) -> ScoreMatrix:
        rows = [[0.2 + shift + 0.01 * t, 0.3 + 0.02 * ((t * 7) % 5)] for t in range(50)]
        return ScoreMatrix.from_array(rows, topics=[str(t) for t in range(50)],
                                      systems=["a", "b"], measures=["ap"])

    collections = {f"c{i}": table(0.01 * i) for i in range(30)}
    with pytest.raises(ParameterError, match="the mixed model of 30 collections"):
        across_collections(collections, samples=10, rng=1, max_memory="200K")
    across_collections(collections, samples=10, rng=1, max_memory="1G")


def test_counted_work_refuses_a_parameter_without_cost():
    from irscale.core.params import RNG_SEED
    from irscale.core.progress import counted_work

    with pytest.raises(ValueError, match="declares no cost"):
        counted_work(RNG_SEED, 3, "work", False)


# ---------------------------------------------------------------- the API
def test_api_across_collections_of_a_manifest_bounded(ws):
    from irscale.stats.across_collections import across_collections

    ws.write("suite.tsv", SUITE)
    with pytest.raises(ParameterError, match=r"40 collections \(--collections\)"):
        across_collections("suite.tsv", "map", samples=10, rng=1, max_memory="100K")


def test_api_regularization_refused_by_its_domain():
    from irscale.collections import aggregate_pairwise

    with pytest.raises(ParameterError, match=r"regularization must lie in \(0, 1000\]"):
        aggregate_pairwise(b"1 w1 a b a\n1 w2 b a a\n1 w1 b a b\n", "noisybt",
                           regularization=1e308)


@pytest.mark.parametrize("given", [
    pytest.param({"1": {"1": math.nan, "2": 0.5, "3": 0.5}}, id="nan"),
    pytest.param({"1": {"1": 0.9, "2": 0.25, "3": 0.25}}, id="sum-1.4"),
    pytest.param({"1": {"1": "0.5", "2": 0.5}}, id="text")])
def test_api_intent_probabilities_refused(given):
    from irscale.io.diversity import IntentProbabilities

    with pytest.raises(InputFormatError, match="topic 1"):
        IntentProbabilities(given)


def test_api_read_intent_probabilities_refuses_a_sum():
    import irscale

    with pytest.raises(InputFormatError, match=r"line 1.*sum to 1\.4"):
        irscale.read_intent_probabilities(b"1 1 0.9\n1 2 0.25\n1 3 0.25\n")


def test_api_confusion_of_too_many_grades_refused(ws, monkeypatch):
    """A file of distinct grades asks for a matrix of the square of its lines: refused
    before it is allocated."""
    import irscale.core.budget
    from irscale.collections import Confusion

    monkeypatch.setattr(irscale.core.budget, "default_max_memory", lambda: 1 << 20)
    ws.write("c.txt", "".join(f"{g} {g} 1\n" for g in range(1000)))
    with pytest.raises(ParameterError, match=r"a confusion of 1,000 grades.*\(fewer "
                       r"--confusion\)"):
        Confusion.read("c.txt")


def test_api_aware_random_assessors_refused(monkeypatch):
    """AWARE's random assessors are refused beyond the memory limit, naming the option that
    declares their cost."""
    import irscale.core.budget
    from irscale.collections.aware import aware

    monkeypatch.setattr(irscale.core.budget, "default_max_memory", lambda: 1 << 10)
    labels = b"1 d1 w1 1\n1 d2 w1 0\n1 d1 w2 0\n1 d2 w2 1\n"
    runs = {"A": {"1": {"d1": 2.0, "d2": 1.0}}, "B": {"1": {"d2": 2.0, "d1": 1.0}}}
    with pytest.raises(ParameterError, match=r"1,000 random assessors .*: more than the "
                       r"memory limit .*\(fewer --random \(n_random\)\)"):
        aware(labels, runs, "map", weights="msd", n_random=1000, rng=1)


#: Work whose rest is stated in the units its declaration names, and the statement's
#: beginning: the EM of a click model (it named "EM iterations at most", no option), the
#: weight grid of fuse --optimize ("vectors") and the bounds search (its units a text,
#: which the mechanism no longer takes: the search failed).
STATED = {
    "online-fit": (["online", "fit", "train.log", "--model", "dbn"],
                   "irscale: dbn on 4 sessions of a SERP size of 3 (at most: stops once "
                   "converged): ", "more iterations (--iterations) at"),
    "fuse-optimize": (["fuse", "a.run", "b.run", "c.run", "d.run", "--method", "wsum",
                       "--optimize", "--qrels", "qrels.txt", "--step", "0.1"],
                      "irscale: the weight grid: ", "more weight vectors (--step) at"),
    "pool-bounds": (["pool", "bounds", "qrels.txt", "a.run", "b.run", "-m", "map",
                     "--max-memory", "1k"],
                    "irscale: bounds: ", "more ranking lines of completions (runs) at"),
}


@pytest.mark.parametrize("name", list(STATED))
def test_the_rest_is_stated_in_the_declared_units(name, ws, run_cli, stated_at_once):
    from .test_bounds_faults import RUN_D
    from .test_online_clicks_faults import FILES as CLICKS

    for file, body in {**CLICKS, **RUN_D}.items():
        ws.write(file, body)
    argv, begins, units = STATED[name]
    result = run_cli(argv)
    assert result.status == 0, result.describe()
    stated = [line for line in result.err.splitlines() if line.startswith(begins)]
    assert stated and units in stated[0] and "(measured)" in stated[0], result.describe()


def test_api_fuse_zmuv_near_the_largest_double(ws):
    import irscale.fusion

    ws.write("big.run", HUGE_RUN)
    ws.write("b2.run", text(["1 Q0 d1 1 0.5 other", "1 Q0 d2 2 0.9 other"]))
    with pytest.warns(UserWarning):
        fused = irscale.fusion.fuse(["big.run", "b2.run"], method="combmnz", norm="zmuv")
    assert all(math.isfinite(value) for value in fused.to_frame()["score"])
