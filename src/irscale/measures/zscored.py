"""trec_eval's ``-Z Zmean_file``: every per-topic value as a z-score against the means and
standard deviations of a reference set of runs (:class:`~irscale.io.zscores.ZScores`).

trec_eval 9.0.8 (``convert_zscores.c``, called in ``trec_eval.c`` after a topic's measures
are computed and before they are accumulated) replaces each value ``v`` of measure ``m``
on topic ``t`` by

* ``(v − mean) / std_dev`` with the Z file's line ``t m mean std_dev``;
* with ``std_dev`` 0: 0 when ``v == mean``, else −1000000 (``MISSING_ZSCORE_VALUE``);
* −1000000 when the file has no line for ``t`` and ``m`` (its help says so).

The summaries then follow ``meas_avg.c`` on those values: means divide their sum (added
topic by topic) by the number of evaluated topics, or with ``-c`` by the number of qrels
topics (a topic the run misses adds 0: it is not converted); counts such as ``num_ret``
are the sum of their z-scores; gm_map and gm_bpref hold ``log(max(v, 1e-5))`` per topic,
so their z-score is that of the logarithm and the summary ``exp`` of the mean of those
z-scores (with ``-c`` each missing topic adds ``log(1e-5)``); ``num_q`` still counts topics,
and with ``-c`` 9.0.8's ``num_rel`` still counts the qrels' relevant judgments. Every
converted line is printed ``Z%-22s\\t%s\\t%6.4f`` (counts too); ``runid`` and
``relstring`` are printed as without ``-Z``.

Where trec_eval's binary search reads past its table (a topic, or a measure of the file's
last topic, that sorts after every entry of the file) 9.0.8 crashes or reads another
topic's entry; here the value is −1000000, as its help says, and a warning names the
missing pairs (``docs/trec_eval_semantics.md``).
"""

from __future__ import annotations

import io
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import IO, Any

import numpy as np

from ..errors import ParameterError
from ..io.table import Column, check_run_index, summary_mean
from ..io.zscores import ZScores
from .results import Evaluation

#: trec_eval.h's ``MISSING_ZSCORE_VALUE``: the z-score of a value with no reference.
MISSING_ZSCORE_VALUE = -1000000.0
#: trec_eval.h's ``MIN_GEO_MEAN``: the floor of the values a geometric mean averages.
MIN_GEO_MEAN = 1e-5
#: Aggregates whose per-topic values are converted (``count`` prints the number of topics).
_CONVERTED = ("mean", "sum", "gmean")


@dataclass(frozen=True, eq=False, repr=False)
class ZScoredEvaluation(Evaluation):
    """An :class:`Evaluation` whose values are trec_eval's ``-Z`` z-scores (module
    documentation): :meth:`summary` follows ``meas_avg.c`` on them and the ``trec`` format
    prints ``Z`` before each converted measure's name, as ``trec_eval -Z`` does. Tables
    (``csv``, ``json``, :meth:`per_topic`, :meth:`to_matrix`) keep the measures' names."""

    zscored: frozenset[str] = frozenset()

    def summary(self, run_index: int) -> list[tuple[Column, Any]]:
        shown = [c for c in self.columns if c.aggregate != "none"]
        return list(zip(shown, self._run_summary(check_run_index(self, run_index)), strict=True))

    def _run_summary(self, run_index: int) -> list[Any]:
        rows = np.flatnonzero(self.rows.ranking_run == run_index)
        averaging = self.averaging
        divisor = averaging.n_qrels_topics if averaging.complete else len(rows)
        out: list[Any] = []
        for column in self.columns:
            if column.aggregate == "none":
                continue
            if column.aggregate == "runid":
                out.append(self.runs[run_index])
            elif column.aggregate == "count":
                out.append(float(divisor))
            elif column.label in averaging.totals:  # 9.0.8's num_rel with -c
                out.append(float(averaging.totals[column.label]))
            elif column.aggregate == "mean":
                out.append(summary_mean(self.values[column.label][rows], divisor,
                                        "trec_eval"))
            else:  # sum, gmean: the z-scores added topic by topic
                total = summary_mean(self.values[column.label][rows], 1, "trec_eval")
                if column.aggregate == "sum":
                    out.append(total)
                else:
                    total += (divisor - len(rows)) * math.log(MIN_GEO_MEAN)
                    out.append(math.exp(total / divisor) if divisor else 0.0)
        return out

    def write(self, stream: IO[bytes], fmt: str = "trec", *, per_query: bool = False,
              summary: bool = True, **options: Any) -> None:
        """:meth:`Evaluation.write`; the ``trec`` lines of z-scores start with ``Z``."""
        if fmt != "trec":
            super().write(stream, fmt, per_query=per_query, summary=summary, **options)
            return
        out = io.BytesIO()
        super().write(out, fmt, per_query=per_query, summary=summary, **options)
        prefixed = {label.encode() for label in self.zscored}
        for line in out.getvalue().splitlines(keepends=True):
            label = line.split(b"\t", 1)[0].rstrip(b" ")
            stream.write(b"Z" + line if label in prefixed else line)


def _zscored(column: Column, values: Any, zscores: ZScores, topics: Sequence[str],
             codes: np.ndarray, missing: list[str], flat: list[str]) -> np.ndarray:
    """The z-scores of one measure's ``values`` (``codes``: each value's topic, an index
    into ``topics``): (v − mean) / sd by the Z file's moments of its (topic, measure), of
    log(max(v, MIN_GEO_MEAN)) for a geometric mean as trec_eval holds it; 0 where sd is 0
    and v the mean, else −1000000 (:data:`MISSING_ZSCORE_VALUE`), as where the file has no
    moments. The pairs without moments are added to ``missing``, those of sd 0 to
    ``flat``."""
    raw = np.asarray(values, dtype=np.float64)
    if column.aggregate == "gmean":  # trec_eval holds log(MAX(v, MIN_GEO_MEAN))
        raw = np.array([math.log(v if v > MIN_GEO_MEAN else MIN_GEO_MEAN)
                        for v in raw.tolist()], dtype=np.float64)
    found = [zscores.moments.get((topic, column.label)) for topic in topics]
    known = np.array([f is not None for f in found])[codes]
    mean = np.array([f[0] if f else 0.0 for f in found])[codes]
    sd = np.array([f[1] if f else 0.0 for f in found])[codes]
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(sd != 0, (raw - mean) / np.where(sd != 0, sd, 1.0),
                     np.where(raw == mean, 0.0, MISSING_ZSCORE_VALUE))
    z[~known] = MISSING_ZSCORE_VALUE
    missing += [f"{topics[c]} {column.label}" for c in codes[~known].tolist()]
    flat += [f"{topics[c]} {column.label}"
             for c in codes[known & (sd == 0) & (raw != mean)].tolist()]
    return z


def zscore_evaluation(evaluation: Evaluation, zscores: ZScores) -> ZScoredEvaluation:
    """``evaluation`` with every value replaced by its z-score against ``zscores``, as
    ``trec_eval -Z`` (module documentation). A warning names the values printed −1000000:
    a (topic, measure) the file lacks, or a value that differs from a mean whose standard
    deviation is 0."""
    averaging = evaluation.averaging
    if averaging.rule != "trec_eval" or evaluation.rows.placeholder is not None:
        raise ParameterError("zscores (-Z) applies to trec_eval 9.0.8's evaluations of "
                             "judged rankings (not diversity measures, not --compat 10)")
    topics = evaluation.rows.topics
    codes = evaluation.rows.ranking_topic
    columns: list[Column] = []
    values = dict(evaluation.values)
    missing: list[str] = []
    flat: list[str] = []
    for column in evaluation.columns:
        if column.aggregate == "count":
            columns.append(replace(column, value_type="float"))
            continue
        if column.aggregate not in _CONVERTED or column.value_type == "str":
            columns.append(column)
            continue
        values[column.label] = _zscored(column, evaluation.values[column.label], zscores,
                                        topics, codes, missing, flat)
        columns.append(replace(column, value_type="float"))
    for pairs, what in ((missing, "has no line for"), (flat, "gives std_dev 0 and another "
                                                              "mean for")):
        if pairs:
            shown = sorted(set(pairs))
            warnings.warn(  # stacklevel: the caller of irscale.evaluate
                f"Z file {zscores.source} {what} {len(shown)} (topic, measure) pair(s): "
                f"{', '.join(shown[:5])}{' ...' if len(shown) > 5 else ''}; their z-scores "
                "are -1000000, as trec_eval -Z prints them", stacklevel=5)
    return ZScoredEvaluation(
        columns=tuple(columns), values=values, rows=evaluation.rows, averaging=averaging,
        rankings=evaluation.rankings, runids=evaluation.runids,
        zscored=frozenset(c.label for c in columns
                          if c.aggregate in (*_CONVERTED, "count") and c.value_type != "str"))


__all__ = ["MISSING_ZSCORE_VALUE", "ZScoredEvaluation", "zscore_evaluation"]
