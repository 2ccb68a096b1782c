"""The guard on text lets through what the renderers write on purpose: identifiers of the
inputs that spell a non-finite word (a topic ``nan``, a document ``inf``, a run named
``nan``) in every format that writes them, and trec_eval's own text of them. Each row
writes such an output with exit 0 (:func:`irscale.core.numbers.check_text`, the one writer
of :mod:`irscale.cli.outputs`)."""

from __future__ import annotations

import pytest

from .conftest import ok, output_contains, run_case

#: Topic ``nan`` judged and retrieved (document ``inf``), run tag ``Inf`` (the runs are
#: named by their tags with ``--names runid``; by their files, ``nan`` and ``other``, else).
QRELS = b"nan 0 inf 1\nnan 0 d2 0\n1 0 d1 1\n"
RUN = b"nan Q0 inf 1 2.0 Inf\nnan Q0 d2 2 1.0 Inf\n1 Q0 d1 1 1.0 Inf\n"
#: Run ``nan``: document ``inf`` second for topic ``nan``.
OTHER = b"nan Q0 d2 1 2.0 nan\nnan Q0 inf 2 1.0 nan\n1 Q0 d1 1 1.0 nan\n"
FILES = {"nan.qrels": QRELS, "nan.run": RUN, "other.run": OTHER}

CASES = [
    ok("guard-eval-topic-nan-trec", ["eval", "-q", "nan.qrels", "nan.run"],
       output_contains("map                   \tnan\t1.0000", "runid                 \tall\tInf"),
       files=FILES),
    ok("guard-eval-topic-nan-by-evaluate", ["eval", "-q", "-m", "AP", "-m", "nDCG@10",
                                            "nan.qrels", "nan.run"],
       output_contains("\tnan\t"), files=FILES),
    ok("guard-eval-topic-nan-csv", ["eval", "-q", "--format", "csv", "nan.qrels", "nan.run"],
       output_contains("nan,nan,map,1.0", "nan,all,runid,Inf"), files=FILES),
    ok("guard-eval-topic-nan-json", ["eval", "-q", "--format", "json", "nan.qrels",
                                     "nan.run"], output_contains('"topic": "nan"'),
       files=FILES),
    ok("guard-eval-two-runs-named-inf-and-nan", ["eval", "-q", "--names", "runid",
                                                 "nan.qrels", "nan.run", "other.run"],
       output_contains("\tnan\t1.0000\tInf", "\tnan\t0.5000\tnan", "\tall\tnan\tnan"),
       files=FILES),
    ok("guard-fuse-docno-inf-tag-nan", ["fuse", "--method", "combsum", "--run-tag", "nan",
                                        "nan.run", "other.run"],
       output_contains("nan Q0 inf ", " nan\n"), files=FILES),
    ok("guard-compare-runs-named-inf-and-nan", ["compare", "--names", "runid", "nan.qrels",
                                                "nan.run", "other.run", "-m", "AP"],
       output_contains("Inf", "nan"), files=FILES),
]


@pytest.mark.parametrize("case", CASES)
def test_output_guard(case, ws, run_cli):
    run_case(case, ws, run_cli)
