"""Differential testing of trec_eval families against pytrec_eval-terrier (trec_eval 9.0.8).

A plain module of the tests package (``from .trec_oracle import ...``). It provides

* hypothesis strategies for nasty inputs (:func:`cases`): many tied scores (a small score
  alphabet, including scores equal only in single precision, as trec_eval stores them),
  graded, zero and negative judgments, documents outside the qrels, one-document rankings,
  topics missing on either side, topic ids and docnos whose byte order matters;
* :func:`compare`, which evaluates trec_eval measure specs (``"P"``, ``"P.1,2,3"``,
  ``"set_F.0.5"``) with irscale and with pytrec_eval and returns every per-topic mismatch.

pytrec_eval exposes only ``-l`` (relevance_level ≥ 1) and ``-J``; ``-M`` is emulated by
handing it each ranking truncated in trec_eval's order (score as a C float descending,
then docno descending by bytes). Inputs on which trec_eval 9.0.8 itself fails are kept away
from the oracle (see :func:`prepare`); the tests check those cases by hand.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from irscale.core.judge import build_judged_rankings
from irscale.core.options import RankingOptions
from irscale.io.memory import qrels_from_dict, run_from_dict
from irscale.measures.base import MIN_GEO_MEAN, EvalContext, get_family
from irscale.measures.names import parse_measure

Qrels = dict[str, dict[str, int]]
Run = dict[str, dict[str, float]]

#: Topic ids and docnos whose byte order differs from numeric or case-insensitive order.
TOPICS = ("1", "10", "2", "B", "a")
JUDGED_DOCS = ("d1", "d10", "d2", "D1", "d_1", "\u00e91", "z", "d3", "d4", "d5", "d6", "d7")
OTHER_DOCS = ("n1", "n2", "N3", "n10", "x")
#: Degrees: negative (pooled but unjudged), 0, graded, and one above 9 (relstring's '>').
RELS = (-2, -1, 0, 0, 0, 1, 1, 2, 3, 12)
#: A small alphabet of scores: many ties; 1.0 and 1.00000001 are equal as C floats.
SCORES = (-1.0, 0.0, 0.5, 1.0, 1.00000001, 2.0, 3.5)

#: Families whose per-topic pytrec_eval value is meaningless (strings, the run id).
NOT_COMPARABLE = frozenset({"relstring", "runid"})
#: Families pytrec_eval reports per topic as log(max(v, 1e-5)) (trec_eval's gm_* values).
GEOMETRIC = frozenset({"gm_map", "gm_bpref"})


@dataclass(frozen=True)
class Options:
    """trec_eval options exercised by the differential tests."""

    relevance_level: int = 1
    judged_only: bool = False
    max_docs: int | None = None


def _at_least_one_judged(qrels: Qrels) -> Qrels:
    # trec_eval 9.0.8 fails on a topic whose judgments are all negative when it is the first
    # one evaluated (form_res_rels gets no rel_levels buffer); pytrec_eval then returns
    # garbage or crashes. Keep one judged document per topic.
    fixed = {}
    for topic, docs in qrels.items():
        docs = dict(docs)
        if all(rel < 0 for rel in docs.values()):
            first = next(iter(docs))
            docs[first] = 0
        fixed[topic] = docs
    return fixed


def qrels_strategy() -> st.SearchStrategy[Qrels]:
    topic_qrels = st.dictionaries(st.sampled_from(JUDGED_DOCS), st.sampled_from(RELS),
                                  min_size=1, max_size=len(JUDGED_DOCS))
    return st.dictionaries(st.sampled_from(TOPICS), topic_qrels, min_size=1,
                           max_size=len(TOPICS)).map(_at_least_one_judged)


def run_strategy() -> st.SearchStrategy[Run]:
    ranking = st.dictionaries(st.sampled_from(JUDGED_DOCS + OTHER_DOCS), st.sampled_from(SCORES),
                              min_size=1, max_size=12)
    return st.dictionaries(st.sampled_from(TOPICS), ranking, min_size=1, max_size=len(TOPICS))


def options_strategy() -> st.SearchStrategy[Options]:
    return st.builds(
        Options,
        relevance_level=st.sampled_from((1, 1, 2, 3)),
        judged_only=st.booleans(),
        max_docs=st.sampled_from((None, None, 1, 2, 5)),
    )


@st.composite
def cases(draw: st.DrawFn) -> tuple[Qrels, Run, Options]:
    """``(qrels, run, options)`` as pytrec_eval-style dicts (see the module documentation)."""
    return draw(qrels_strategy()), draw(run_strategy()), draw(options_strategy())


# ---------------------------------------------------------------- trec_eval's ordering
def trec_order(ranking: Mapping[str, float]) -> list[str]:
    """Docnos in trec_eval's order: C-float score descending, then docno descending (bytes)."""
    return sorted(ranking, key=lambda d: (np.float32(ranking[d]), d.encode()), reverse=True)


def prepare(qrels: Qrels, run: Run, options: Options) -> tuple[Run, Run]:
    """``(run for irscale, run for pytrec_eval)``, without the rankings trec_eval fails on.

    The pytrec_eval copy is truncated to ``max_docs`` (it has no -M). With -J a ranking
    left without any judged document is empty: trec_eval 9.0.8 fails on it when it is the
    first evaluated (no results buffer yet) and pytrec_eval may crash, so such topics are
    dropped from both runs.
    """
    ours: Run = {}
    theirs: Run = {}
    for topic, ranking in run.items():
        kept = trec_order(ranking)
        if options.max_docs is not None:
            kept = kept[: options.max_docs]
        if options.judged_only and topic in qrels:
            if not any(qrels[topic].get(d, -1) >= 0 for d in kept):
                continue
        if not kept:
            continue
        ours[topic] = dict(ranking)
        theirs[topic] = {d: ranking[d] for d in kept}
    return ours, theirs


# ---------------------------------------------------------------- evaluation
def irscale_values(
    qrels: Qrels, run: Run, specs: Iterable[str], options: Options, *, compat: int = 9,
    num_docs_in_coll: int = 0,
) -> dict[str, dict[str, object]]:
    """``{topic: {output name: value}}`` computed by irscale's kernels for trec specs."""
    jr = build_judged_rankings(
        qrels_from_dict(qrels),
        [run_from_dict(run)],
        RankingOptions(relevance_level=options.relevance_level, max_docs=options.max_docs,
                       judged_only=options.judged_only),
    )
    ctx = EvalContext(compat=compat, num_docs_in_coll=num_docs_in_coll)
    out: dict[str, dict[str, object]] = {t: {} for t in jr.topic_labels}
    for spec in specs:
        for request in parse_measure(spec):
            values = get_family(request.family).compute(jr, request.params, ctx)
            for name, array in values.items():
                for topic, value in zip(jr.topic_labels, array, strict=True):
                    out[topic][name] = value
    return out


def pytrec_values(qrels: Qrels, run: Run, specs: Iterable[str],
                  options: Options) -> dict[str, dict[str, float]]:
    import pytrec_eval

    evaluator = pytrec_eval.RelevanceEvaluator(
        qrels, set(specs), relevance_level=options.relevance_level,
        judged_docs_only_flag=options.judged_only,
    )
    return evaluator.evaluate(run)


def same(ours: float, theirs: float, tol: float) -> bool:
    if math.isnan(ours) or math.isnan(theirs):
        return math.isnan(ours) and math.isnan(theirs)
    return ours == theirs if tol == 0 else abs(ours - theirs) <= tol


def compare(
    qrels: Qrels, run: Run, specs: Iterable[str], options: Options = Options(), *,
    tol: float = 0.0,
) -> list[str]:
    """Every per-topic disagreement between irscale and pytrec_eval (empty: all agree).

    ``specs`` are trec_eval measure arguments (family, optionally ``.params``). Values must
    be equal (``tol=0``: bit for bit) or within ``tol``. Output names irscale derives from
    the parameter text (``set_F_0.5``) are matched to pytrec_eval's bare family name.
    """
    specs = list(specs)
    ours_run, their_run = prepare(qrels, run, options)
    if not their_run or not set(their_run) & set(qrels):
        return []
    ours = irscale_values(qrels, ours_run, specs, options)
    theirs = pytrec_values(qrels, their_run, specs, options)
    problems = []
    if set(ours) != set(theirs):
        problems.append(f"topics differ: irscale {sorted(ours)}, pytrec_eval {sorted(theirs)}")
    families = {request.family for spec in specs for request in parse_measure(spec)}
    for topic in sorted(set(ours) & set(theirs)):
        mine, ref = ours[topic], theirs[topic]
        matched = {n for n in ref if n in NOT_COMPARABLE}
        for name, value in mine.items():
            family = max((f for f in families if name == f or name.startswith(f + "_")),
                         key=len)
            if family in NOT_COMPARABLE:
                continue
            ref_name = name if name in ref else family
            if ref_name not in ref:
                problems.append(f"{topic} {name}: missing from pytrec_eval")
                continue
            matched.add(ref_name)
            value = float(value)  # type: ignore[arg-type]
            if family in GEOMETRIC:
                value = math.log(max(value, MIN_GEO_MEAN))
            if not same(value, ref[ref_name], tol):
                problems.append(f"{topic} {name}: irscale {value!r} pytrec_eval {ref[ref_name]!r}")
        extra = set(ref) - matched
        if extra:
            problems.append(f"{topic}: only pytrec_eval has {sorted(extra)}")
    return problems


def describe(qrels: Qrels, run: Run, options: Options, problems: list[str]) -> str:
    """A failure message with the inputs (for hypothesis' falsifying examples)."""
    head = "\n".join(problems[:20])
    return f"{head}\nqrels={qrels!r}\nrun={run!r}\noptions={options!r}"
