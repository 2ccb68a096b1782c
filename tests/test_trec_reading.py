"""A trec_eval family requested twice (``-m P.5 -m P.7``, ``-m all_trec -m relstring.20``):
``irscale eval --format trec`` prints what trec_eval 9.0.8 prints (its first parameters
of a family, the later ones unread: docs/trec_eval_semantics.md, "A family requested
twice"), checked against the binary where one is installed (``IRSCALE_TREC_EVAL`` or
``trec_eval`` on the PATH) and, without it, against the output of the request reduced as
trec_eval reduces it, by the test's own reading of that rule (the nicknames' members from
pytrec_eval); the other formats and :func:`irscale.evaluate` keep every request."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import irscale
from irscale.cli.main import main

from .property_examples import examples

REFERENCE = Path(__file__).parent / "fixtures" / "reference"
QRELS = str(REFERENCE / "qrels.txt")
RUN = str(REFERENCE / "runs" / "gamma.run")
BINARY = os.environ.get("IRSCALE_TREC_EVAL") or shutil.which("trec_eval")
needs_binary = pytest.mark.skipif(
    not BINARY, reason="needs a trec_eval 9.0.8 binary (IRSCALE_TREC_EVAL or PATH)")

#: Requests trec_eval reads: families bare and with parameters, nicknames.
TREC_NAMES = ("P", "P.5", "P.7", "P.5,7", "P.10", "official", "all_trec", "set", "map",
              "relstring", "relstring.3", "set_F.0.5", "set_F.2", "ndcg_cut.3",
              "ndcg_cut.5", "ndcg", "ndcg.1=2", "iprec_at_recall.0.5",
              "utility.1,-1,0,0", "recall.2,4")
#: Names trec_eval does not read, kept as given.
OTHER_NAMES = ("P@7", "P_7", "nDCG@5", "RBP(p=0.8)")
CASES = [["P.5", "P.7"], ["P", "P.7"], ["P.7", "P"], ["P.7", "all_trec"],
         ["all_trec", "P.7"], ["official", "P.7"], ["P.5", "P.5"], ["P.5,7", "P.10"],
         ["all_trec", "relstring.20"], ["relstring.5", "all_trec"],
         ["ndcg.1=2", "ndcg.1=5"], ["set", "set_F.0.5", "set_F.2"],
         ["iprec_at_recall.0.5", "official", "map"]]


def cli(args: list[str]) -> str:
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        status = main(args)
    out.flush()
    assert status == 0, args
    return out.buffer.getvalue().decode()


def irscale_eval(names: list[str], *options: str) -> str:
    return cli(["eval", *options, *(arg for name in names for arg in ("-m", name)),
                QRELS, RUN])


def trec_eval(names: list[str], *options: str) -> str:
    assert BINARY is not None
    done = subprocess.run([BINARY, *options, *(arg for name in names for arg in ("-m", name)),
                           QRELS, RUN], capture_output=True, check=True, timeout=60)
    return done.stdout.decode()


def reduced(names: list[str]) -> list[str]:
    """The test's own reading of trec_eval's rule: every family named (a nickname names its
    members, pytrec_eval's sets) once, where first named, with the parameters of the first
    ``family.params`` naming it; the names trec_eval does not read kept where they stand."""
    import pytrec_eval

    nicknames = pytrec_eval.supported_nicknames
    families = set(pytrec_eval.supported_measures)
    params: dict[str, str] = {}
    for name in names:
        if name.split(".")[0] in families and "." in name:
            params.setdefault(name.split(".")[0], name)
    spelled: list[str] = []
    for name in names:
        members = sorted(nicknames[name]) if name in nicknames else [name.split(".")[0]]
        spelled += [params.get(m, m) if m in families else name for m in members]
    return list(dict.fromkeys(spelled))


@needs_binary
@pytest.mark.parametrize("names", CASES, ids=" ".join)
@pytest.mark.parametrize("per_query", [False, True], ids=["summary", "q"])
def test_trec_format_is_the_binarys_output(names, per_query):
    options = ("-q",) if per_query else ()
    assert irscale_eval(names, *options) == trec_eval(names, *options)


@needs_binary
@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(TREC_NAMES), min_size=1, max_size=5), st.booleans())
def test_any_trec_request_prints_as_the_binary(names, per_query):
    options = ("-q",) if per_query else ()
    assert irscale_eval(names, *options) == trec_eval(names, *options)


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.sampled_from(TREC_NAMES + OTHER_NAMES), min_size=1, max_size=5),
       st.booleans())
def test_trec_format_prints_the_request_reduced_as_trec_eval_reduces_it(names, per_query):
    options = ("-q",) if per_query else ()
    assert irscale_eval(names, *options) == irscale_eval(reduced(names), *options)


@pytest.mark.parametrize("names", [case for case in CASES
                                   if not {"official", "all_trec", "set"} & set(case)],
                         ids=" ".join)
def test_compat_10_reads_the_request_as_well(names):
    assert irscale_eval(names, "--compat", "10") == irscale_eval(reduced(names), "--compat",
                                                                 "10")


@pytest.mark.parametrize("fmt", ["csv", "json", "markdown"])
def test_other_formats_keep_both_requests(fmt):
    out = irscale_eval(["P.5", "P.7", "all_trec", "set_F.2"], "--format", fmt)
    assert all(label in out for label in ("P_5", "P_7", "P_10", "set_F_2", "set_F"))


def test_the_api_keeps_both_requests():
    with pytest.warns(UserWarning, match="no judgments"):
        evaluation = irscale.evaluate(QRELS, RUN, ["all_trec", "relstring.20", "P.7"])
    assert {"P_5", "P_7"} <= set(evaluation.measures)
    printed = [line.split()[0] for line in evaluation.format("trec", per_query=True)
               .splitlines()]
    assert {"relstring", "relstring_20"} <= set(printed)


def test_batches_read_the_request_as_trec_eval():
    names = ["all_trec", "P.7"]
    assert cli(["eval", "--batch-size", "1", *(a for n in names for a in ("-m", n)),
                QRELS, RUN]) == cli(["eval", "--batch-size", "1", *(
                    a for n in reduced(names) if n != "relstring" for a in ("-m", n)),
                    QRELS, RUN])
