"""Bounds of a run's measures under its unjudged documents.

A run retrieves documents the qrels do not judge; trec_eval counts them non-relevant. How
far could the judgments the collection lacks move a value? For every measure, the lowest
and highest value the run can take when each unjudged document it retrieves is given
either the lowest or the highest grade of the qrels (their smallest and largest ``rel``),
with ``R``, the ideal ranking and every other quantity recomputed from the completed
judgments as the measure defines them. Documents the run does not retrieve keep their
status: judged ones their grade, unjudged ones stay unjudged (no run's judgments are
invented outside its ranking; a relevant unretrieved document would only lower the run's
values further, without limit as the collection grows). RBP's residual (Moffat and Zobel,
"Rank-biased precision for measurement of retrieval effectiveness", TOIS 2008) is the one
bound of this kind the field already reports; this generalises it to every measure.

**The search.** With ``u`` unjudged documents there are ``2^u`` completions. For a measure
that never falls when a higher-graded document is swapped above a lower-graded one (the
trec_eval measures do: precision, recall, AP, nDCG, RR, R-precision, bpref ...) and whose
``R`` and ideal ranking depend only on how many documents get each grade, the best
completion giving ``k`` documents the highest grade gives it to the first ``k`` unjudged
documents of the ranking, the worst to the last ``k`` (exchange argument: swapping such a
pair keeps the grade counts). So the maximum is the largest of the ``u + 1`` prefix
completions and the minimum the smallest of the ``u + 1`` suffix completions, every one
evaluated by the engine, exactly as the measure is computed. For measures cut off at depth
``c`` (``P``, ``ndcg_cut``, ``map_cut``, ``recall``, ``success``, ``relative_P``) the
documents below the deepest cut-off ``D`` asked for move a value only through ``R`` or the
ideal ranking, which they can only raise (as below any cut-off after ``@``, ``RR@10``,
or a ``cutoff`` parameter, ``Q@10``): they take the lowest grade in the prefix
completions and the highest in the suffix ones, and only the unjudged documents of the
first ``D`` ranks are searched. The tests check the bounds against every one of the ``2^u``
completions evaluated by pytrec_eval.

For measures of the grades of the retrieved documents alone (precision, success, RR, RBP,
DCG, ERR: :data:`GRADE_FAMILIES`), which have no ``R`` and no ideal ranking, the maximum is
the completion giving every unjudged document the highest grade and the minimum the one
giving every one the lowest: two evaluations of each ranking, whatever its length (RBP's
residual is the difference of these two, for the documents the run retrieves).

The cost is ``2 · (u' + 1)`` evaluations of each topic's ranking (``u'`` its unjudged
documents in the searched depth): a few for cut-off measures, up to twice the ranking's
length squared for measures of the whole ranking. Its memory is estimated before any work
and refused beyond ``max_memory`` (:func:`irscale.core.budget.check_memory`).

The mean bounds are the means of the per-topic bounds over the topics the run is evaluated
on (each topic's completion is independent). Two runs whose mean intervals overlap are
*undecided*: some completion of the judgments orders them either way.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pandas as pd

from ..core.notebook import HtmlRepr
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..errors import InputError, ParameterError
from ..io.sources import as_qrels, as_runs

if TYPE_CHECKING:  # pragma: no cover
    from ..stats.tables import Format

#: Families whose parameters are depth cut-offs: a value at depth c depends on the
#: documents below c only through R or the ideal ranking (module documentation).
DEPTH_FAMILIES = frozenset({"P", "ndcg_cut", "map_cut", "recall", "success", "relative_P"})
#: Families whose value depends on the grades of the retrieved documents alone (no ``R``, no
#: ideal ranking, no count of judged non-relevant documents) and never falls when one of
#: them is raised: their extremes are the two completions that give every searched
#: unjudged document the highest grade and the lowest (module documentation).
GRADE_FAMILIES = frozenset({"P", "success", "recip_rank", "RBP", "rbp", "DCG", "dcg", "ERR",
                            "set_P", "num_rel_ret"})
#: Bytes of memory a ranking line of a completion costs at the peak of its evaluation (its
#: run and qrels rows in frames and in the engine; measured on CLEF eHealth 2016 runs).
BYTES_PER_LINE = 400


@dataclass(frozen=True)
class UnjudgedBounds(HtmlRepr):
    """The bounds of :func:`unjudged_bounds`: ``per_topic`` (run, topic, measure, value,
    low, high, unjudged), ``means`` (run, measure, value, low, high) and ``undecided``
    (measure, a, b: the pairs of runs whose mean intervals overlap)."""

    per_topic: pd.DataFrame
    means: pd.DataFrame
    undecided: pd.DataFrame
    lowest: int
    highest: int

    def to_frame(self) -> pd.DataFrame:
        """The mean bounds (one row a run and measure)."""
        return self.means

    def format(self, fmt: Format | Literal["trec"] = "text", *, digits: int = 4,
               per_topic: bool = False) -> str:
        """The mean bounds (``per_topic``: the per-topic ones too) and the undecided pairs
        as ``fmt`` (``csv``: the one table, per topic or of the means; ``json``: every
        table; ``trec``: trec_eval's lines ``measure_low topic value run`` and
        ``measure_high ...``, the topics' (``per_topic``) then the means' (``all``), and a
        line ``undecided measure a,b`` a pair of runs the judgments do not order)."""
        from ..io.formats import TABLE_FORMATS, check_format
        from ..stats.protocol import format_table

        check_format(fmt, (*TABLE_FORMATS, "trec"), "bounds")
        table = self.per_topic if per_topic else self.means
        if fmt == "trec":
            rows = [*(self.per_topic.itertuples() if per_topic else ()),
                    *self.means.assign(topic="all").itertuples()]
            lines = [f"{row.measure}_{side:<{21 - len(str(row.measure))}}\t{row.topic}\t"
                     f"{getattr(row, side):.{digits}f}\t{row.run}"
                     for row in rows for side in ("low", "high")]
            lines += [f"{'undecided':<22}\t{row.measure}\t{row.a},{row.b}"
                      for row in self.undecided.itertuples()]
            return "\n".join(lines) + "\n"
        if fmt == "csv":
            return format_table(table, "csv")
        if fmt == "json":
            import json

            return json.dumps({"lowest": self.lowest, "highest": self.highest,
                               **{name: json.loads(getattr(self, name).to_json(
                                   orient="records"))
                                  for name in ("means", "per_topic", "undecided")}}, indent=2)
        title = (f"Bounds under the unjudged retrieved documents (each given grade "
                 f"{self.lowest} or {self.highest})")
        parts = [format_table(table, fmt, digits=digits, title=title)]
        if len(self.undecided):
            parts.append(format_table(self.undecided, fmt, digits=digits,
                                      title="Pairs of runs the judgments do not order (their "
                                      "mean intervals overlap)"))
        return "\n\n".join(parts)


def _depth(measures: Sequence[str]) -> int | None:
    """The deepest cut-off of ``measures`` when every one is cut off (a depth family, a
    cut-off after ``@`` such as ``RR@10``, or a ``cutoff`` parameter such as ``Q@10``'s),
    else None (every rank is searched)."""
    from ..measures.names import parse_measures
    from ..measures.params import Params

    depths = []
    for request in parse_measures(list(measures)):
        family, params = getattr(request, "family", None), getattr(request, "params", None)
        declared = dict(params.items_) if isinstance(params, Params) else {}
        cutoff = getattr(request, "cutoff", None)
        if cutoff is not None:
            depths.append(int(cutoff))
        elif declared.get("cutoff") is not None:
            depths.append(int(declared["cutoff"]))
        elif family in DEPTH_FAMILIES and params:
            depths.append(max(int(p) for p in params))
        else:
            return None
    return max(depths)


def _extremes(measures: Sequence[str]) -> bool:
    """Whether every one of ``measures`` is of :data:`GRADE_FAMILIES`: two completions a
    topic decide its bounds."""
    from ..measures.names import parse_measures

    return all(getattr(request, "family", None) in GRADE_FAMILIES
               for request in parse_measures(list(measures)))


def _ranked(run: Any, topics: set[str]) -> pd.DataFrame:
    """The run's lines of judged topics in trec_eval's order (score descending, ties by
    docno descending), with their topic and rank."""
    frame = run.to_frame()
    frame.columns = ["topic", "docno", "score", *frame.columns[3:]]
    frame = frame[frame["topic"].isin(topics)]
    frame = frame.sort_values(["topic", "score", "docno"], ascending=[True, False, False],
                              kind="mergesort").reset_index(drop=True)
    frame["rank"] = frame.groupby("topic", sort=False).cumcount()
    return frame[["topic", "docno", "score", "rank"]]


def _completions(ranked: pd.DataFrame, qrels: pd.DataFrame, depth: int | None,
                 lowest: int, highest: int, extremes: bool
                 ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The virtual topics of every completion searched (module documentation): their qrels,
    their run and the table ``(virtual, topic, family, k)`` (family 0: prefix, 1: suffix;
    with ``extremes`` only the prefix of every searched document and the empty suffix)."""
    judged = ranked.merge(qrels[["topic", "docno"]], on=["topic", "docno"], how="left",
                          indicator=True)["_merge"].eq("both").to_numpy()
    unjudged = ranked[~judged].copy()
    searched = np.ones(len(unjudged), dtype=bool) if depth is None else \
        unjudged["rank"].to_numpy() < depth
    unjudged["searched"] = searched
    unjudged["order"] = unjudged.groupby("topic", sort=False).cumcount()
    topics = ranked["topic"].drop_duplicates().tolist()
    code = {t: i for i, t in enumerate(topics)}
    u = np.bincount(unjudged["topic"].map(code).to_numpy(dtype=np.int64)[searched],
                    minlength=len(topics))
    copies = np.full(len(topics), 2) if extremes else 2 * (u + 1)
    first = np.concatenate([[0], np.cumsum(copies)[:-1]])
    table = pd.DataFrame({
        "virtual": np.arange(copies.sum()),
        "topic": np.repeat(topics, copies),
        "family": np.tile([0, 1], len(topics)) if extremes else
        np.concatenate([np.repeat([0, 1], n + 1) for n in u]) if len(u) else [],
    })
    table["k"] = np.column_stack([u, np.zeros_like(u)]).ravel() if extremes else \
        table.groupby(["topic", "family"], sort=False).cumcount()

    def spread(frame: pd.DataFrame) -> tuple[pd.DataFrame, np.ndarray]:
        """``frame`` (with a topic column) repeated once a completion of its topic, with
        each copy's completion index."""
        t = frame["topic"].map(code).to_numpy(dtype=np.int64)
        times = copies[t]
        rows = np.repeat(np.arange(len(frame)), times)
        offset = np.arange(times.sum()) - np.repeat(np.cumsum(times) - times, times)
        return frame.iloc[rows].reset_index(drop=True), np.repeat(first[t], times) + offset

    run_rows, run_virtual = spread(ranked)
    run = pd.DataFrame({"topic": run_virtual.astype(str), "docno": run_rows["docno"],
                        "score": run_rows["score"]})
    kept = qrels[qrels["topic"].isin(code)]
    q_rows, q_virtual = spread(kept)
    u_rows, u_virtual = spread(unjudged)
    family = table["family"].to_numpy()[u_virtual]
    k = table["k"].to_numpy()[u_virtual]
    n_searched = u[u_rows["topic"].map(code).to_numpy(dtype=np.int64)]
    order = u_rows["order"].to_numpy(dtype=np.int64)
    inside = u_rows["searched"].to_numpy(dtype=bool)
    high = np.where(family == 0, inside & (order < k),
                    ~inside | (inside & (order >= n_searched - k)))
    completed = pd.DataFrame({
        "topic": np.concatenate([q_virtual, u_virtual]).astype(str),
        "docno": np.concatenate([q_rows["docno"].to_numpy(), u_rows["docno"].to_numpy()]),
        "rel": np.concatenate([q_rows["rel"].to_numpy(),
                               np.where(high, highest, lowest)]).astype(np.int64)})
    return completed, run, table


def _estimate(ranked: pd.DataFrame, qrels: pd.DataFrame, depth: int | None,
              extremes: bool) -> int:
    """Ranking lines over every completion of ``ranked`` (module documentation)."""
    if extremes:
        return 2 * len(ranked)
    judged = ranked.merge(qrels[["topic", "docno"]], on=["topic", "docno"], how="left",
                          indicator=True)["_merge"].eq("both").to_numpy()
    searched = ~judged if depth is None else ~judged & (ranked["rank"].to_numpy() < depth)
    per_topic = pd.DataFrame({"topic": ranked["topic"], "u": searched}).groupby(
        "topic", sort=False).agg(n=("u", "size"), u=("u", "sum"))
    return int((2 * (per_topic["u"] + 1) * per_topic["n"]).sum())


def unjudged_bounds(qrels: Any, runs: Any, measures: str | Sequence[str], *,
                    relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                    max_memory: str | int | float | None = None
                    ) -> UnjudgedBounds:
    """The lowest and highest value of every measure of every run when its unjudged
    retrieved documents take the lowest or the highest grade (module documentation).

    Parameters
    ----------
    qrels : qrels (path, Qrels, DataFrame, dict)
    runs : runs (paths, a folder, a list or mapping of runs)
    measures : str or sequence of str
        Measures with per-topic values (``P@10``, ``ndcg_cut_10``, ``map`` ...).
    relevance_level : int
        Smallest relevant grade (trec_eval's ``-l``).
    max_memory : size, optional
        The most memory the completions may take (bytes or a size such as ``"2G"``;
        default half of the RAM): beyond, a :class:`~irscale.errors.ParameterError` says
        the estimate before any work.

    Returns
    -------
    UnjudgedBounds
    """
    from ..evaluation import evaluate

    names = [measures] if isinstance(measures, str) else list(measures)
    if not names:
        raise ParameterError("measures: give one measure at least (P@10, map ...)")
    judged = as_qrels(qrels)
    frame = judged.to_frame()
    frame.columns = ["topic", "docno", "rel"]
    lowest, highest = int(frame["rel"].min()), int(frame["rel"].max())
    run_list = as_runs(runs)
    depth = _depth(names)
    extremes = _extremes(names)
    topics = set(frame["topic"])
    ranked = [_ranked(run, topics) for run in run_list]
    from ..core.budget import MAX_MEMORY, check_memory, format_size

    lines = max(_estimate(r, frame, depth, extremes) for r in ranked)  # a run at a time
    where = "every rank (a measure of the whole ranking)" if depth is None else \
        f"the first {depth} ranks"
    check_memory(lines * BYTES_PER_LINE,
                 f"the bounds search {lines:,} ranking lines of completions in {where}: about "
                 f"{format_size(lines * BYTES_PER_LINE)}",
                 "cut-off measures such as P@10 or nDCG@10 search only their depth",
                 max_memory=max_memory, option=MAX_MEMORY)
    per_topic, means = [], []
    for run, lines_of in zip(run_list, ranked, strict=True):
        if lines_of.empty:
            raise InputError(f"run {run.name!r} retrieves no judged topic")
        original = evaluate(judged, {run.name: run}, names, relevance_level=relevance_level
                            ).to_matrix()
        completed, virtual_run, table = _completions(lines_of, frame, depth, lowest, highest,
                                                     extremes)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            matrix = evaluate(completed, {run.name: virtual_run}, names,
                              relevance_level=relevance_level).to_matrix()
        values = pd.DataFrame(matrix.values[:, 0, :], columns=list(matrix.measures))
        values["virtual"] = [int(t) for t in matrix.topics]
        values = values.merge(table, on="virtual")
        low = values[values.family == 1].groupby("topic", sort=False)[
            list(matrix.measures)].min()
        high = values[values.family == 0].groupby("topic", sort=False)[
            list(matrix.measures)].max()
        unjudged = table.groupby("topic", sort=False)["k"].max()  # u': the last k
        for m, measure in enumerate(original.measures):
            topic_list = list(original.topics)
            rows = pd.DataFrame({
                "run": run.name, "topic": topic_list, "measure": measure,
                "value": original.values[:, 0, m],
                "low": low.loc[topic_list, measure].to_numpy(),
                "high": high.loc[topic_list, measure].to_numpy(),
                "unjudged": unjudged.loc[topic_list].to_numpy()})
            per_topic.append(rows)
            means.append({"run": run.name, "measure": measure,
                          "value": float(rows["value"].mean()),
                          "low": float(rows["low"].mean()),
                          "high": float(rows["high"].mean())})
    mean_frame = pd.DataFrame(means)
    undecided = [{"measure": measure, "a": a.run, "b": b.run}
                 for measure, group in mean_frame.groupby("measure", sort=False)
                 for a, b in itertools.combinations(group.itertuples(), 2)
                 if a.low <= b.high and b.low <= a.high]
    return UnjudgedBounds(pd.concat(per_topic, ignore_index=True), mean_frame,
                          pd.DataFrame(undecided, columns=["measure", "a", "b"]),
                          lowest, highest)
