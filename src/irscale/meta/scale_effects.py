"""A measure versus its interval-scaled version (Ferrante et al. 2021, §7.1–7.3, Tables 2, 4, 5, 6).

For runs cut at length N and a list of measures M, :func:`irscale.scales.transform.transform`
gives, per topic and run, M and its ranked (interval-scaled) version M_R = φ(M) (Ferrante et al.
2021, §5, ties ``unq``). The report reproduces the paper's analyses on any set of runs:

Table 2 — how far a measure is from an interval scale (§7.1)
    The *overall* Kendall τ (Ferrante et al. 2021, §3.3, :func:`irscale.stats.kendall.kendall_tau`)
    between the systems' means of M and of M_R, per cut-off N. The topic-by-topic τ is 1 by
    construction (φ preserves each topic's order); :meth:`ScaleReport.topic_by_topic`
    reports its minimum as the paper's sanity check.
Table 4 — correlation among measures and among ranked measures (§7.2)
    For every two measures A, B: Msr = τ(A, B) overall, RnkMsr = τ(A_R, B_R) overall and
    Δ% = 100 (RnkMsr − Msr)/Msr.
Tables 5 and 6 — significance tests (§7.3)
    For each of the eight tests of §2.5/§7.3 — sign, Wilcoxon rank-sum, Wilcoxon signed-rank
    and Student's t on every pair (α, no correction), one-way ANOVA, Kruskal–Wallis,
    two-way ANOVA and Friedman each followed by Tukey's HSD
    (:mod:`irscale.meta.procedures`) — *Sig* is the number of significantly different
    pairs with M, *S2NS* the pairs significant with M but not with M_R, *NS2S* the
    reverse, both also as a share of Sig, and Δ% = (S2NS + NS2S)/Sig. Table 5 holds the
    measures whose values do not depend on the recall base (P, RBP, DCG, RR), Table 6 those
    that do (R, AP, nDCG) (§5.2).

Invariants of the paper that hold on any data: P and RBP_p05 are interval scales (affine
images of their ranked versions for a fixed N), so τ(M, M_R) = 1 and S2NS = NS2S = 0 under
every test (:meth:`ScaleReport.invariants`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..core import ScoreMatrix
from ..core.notebook import HtmlRepr
from ..core.numbers import declare, undefined
from ..core.params import CUTOFF
from ..errors import InputError, ParameterError
from ..io.formats import TABLE_FORMATS
from ..io.json_input import parse_json
from ..stats.kendall import kendall_tau
from ..stats.tables import Format, check_format, json_text
from ..stats.validation import check_alpha, check_counts
from .common import format_frame
from .params import SCALE_CUTOFFS, SCALE_MEASURES, SCALE_REPORT
from .procedures import ORDINAL_TESTS, SCALE_PAPER_TESTS, decide

if TYPE_CHECKING:
    from ..scales.scale import TieStrategy

#: The measures and cut-offs of Ferrante et al. (2021), §6.
DEFAULT_MEASURES, DEFAULT_CUTOFFS = SCALE_MEASURES, SCALE_CUTOFFS
#: Measures that are interval scales on REL^N (Ferrante et al. 2021, §7.1.1): τ = 1, no change.
INTERVAL_MEASURES: tuple[str, ...] = ("P", "RBP_p05")

__all__ = ["DEFAULT_CUTOFFS", "DEFAULT_MEASURES", "INTERVAL_MEASURES", "ScaleEffects",
           "ScaleReport", "check_cutoffs", "scale_effects", "scale_report"]


def _change(before: float, after: float) -> float:
    """100 (after − before)/before: Table 4's Δ% (NaN when ``before`` is 0: τ = 0 among
    four systems raised ZeroDivisionError)."""
    return 100.0 * (after - before) / before if before else float("nan")


def _share(count: int, total: int) -> float:
    """100 · count / total (NaN when total is 0)."""
    return 100.0 * count / total if total else float("nan")


@dataclass(frozen=True, eq=False)
class ScaleEffects(HtmlRepr):
    """The analyses of one set of runs at one cut-off N (see the module documentation).

    ``matrix`` holds M and M_R for every measure; ``pairs`` lists (M, M_R) labels;
    ``recall_base`` says which measures depend on the recall base; ``significant`` maps
    (label, test) to the boolean decisions of every system pair. A report: ``to_frame()``
    (:meth:`significance`) and ``format(fmt)``.
    """

    label: str
    N: int | None
    matrix: ScoreMatrix
    pairs: tuple[tuple[str, str], ...]
    recall_base: Mapping[str, bool]
    tests: tuple[str, ...]
    alpha: float
    significant: Mapping[tuple[str, str], np.ndarray] = field(repr=False)

    @property
    def measures(self) -> tuple[str, ...]:
        return tuple(m for m, _ in self.pairs)

    @property
    def n_pairs(self) -> int:
        k = self.matrix.n_systems
        return k * (k - 1) // 2

    def ranked(self, measure: str) -> str:
        return dict(self.pairs)[measure]

    def tau(self, a: str, b: str) -> float:
        """Overall Kendall τ between the systems' means of two columns of the matrix."""
        return kendall_tau(self.matrix.mean(a), self.matrix.mean(b)).tau

    def to_frame(self) -> pd.DataFrame:
        """Sig, S2NS, NS2S and Δ% per (measure, test): :meth:`significance`."""
        return self.significance()

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """:meth:`significance` as a ``text``, ``csv``, ``markdown``, ``latex`` or ``json``
        table."""
        title = f"{self.label}: significance tests on M and M_R ({self.n_pairs} pairs)"
        return format_frame(self.to_frame(), fmt, digits=digits,
                            title=None if fmt in ("csv", "json") else title)

    def significance(self) -> pd.DataFrame:
        """Sig, S2NS, NS2S and Δ% per (measure, test) (Tables 5–6, one cut-off)."""
        rows = []
        for measure, ranked in self.pairs:
            for test in self.tests:
                before = self.significant[(measure, test)]
                after = self.significant[(ranked, test)]
                sig = int(before.sum())
                s2ns = int((before & ~after).sum())
                ns2s = int((~before & after).sum())
                rows.append({
                    "N": self.N, "measure": measure, "test": test,
                    "label": SCALE_PAPER_TESTS.get(test, test), "ordinal": test in ORDINAL_TESTS,
                    "recall_base": self.recall_base[measure], "sig": sig,
                    "sig_ranked": int(after.sum()), "s2ns": s2ns, "s2ns_%": _share(s2ns, sig),
                    "ns2s": ns2s, "ns2s_%": _share(ns2s, sig),
                    "delta_%": _share(s2ns + ns2s, sig),
                })
        return pd.DataFrame(rows)


def scale_effects(
    matrix: ScoreMatrix,
    pairs: Sequence[tuple[str, str]],
    *,
    N: int | None = None,
    label: str = "",
    recall_base: Mapping[str, bool] | None = None,
    tests: Sequence[str] = tuple(SCALE_PAPER_TESTS),
    alpha: float = 0.05,
) -> ScaleEffects:
    """The analyses on a score matrix that holds each measure M and its ranked M_R
    (``pairs`` of labels), e.g. ``transform(...).matrix`` and ``.labels``."""
    alpha = check_alpha(alpha)
    if recall_base is None:
        from ..scales import scale_measure

        recall_base = {m: scale_measure(m).depends_on_recall_base for m, _ in pairs}
    significant: dict[tuple[str, str], np.ndarray] = {}
    for measure, ranked in pairs:
        for column in (measure, ranked):
            values = matrix.array(column)
            for test in tests:
                try:
                    significant[(column, test)] = decide(values, test, alpha=alpha).significant
                except InputError as error:  # which of the many analyses could not be run
                    where = f"{label}, " if label else ""
                    raise type(error)(f"{where}{column}, {SCALE_PAPER_TESTS.get(test, test)}: "
                                      f"{error}") from None
    return ScaleEffects(label=label, N=N, matrix=matrix, pairs=tuple((m, r) for m, r in pairs),
                        recall_base=dict(recall_base), tests=tuple(tests), alpha=alpha,
                        significant=significant)


def _percent(count: int, share: float) -> str:
    return f"{count} ({share:.2f}%)" if np.isfinite(share) else f"{count} (–)"


@dataclass(frozen=True, eq=False)
class ScaleReport(HtmlRepr):
    """Tables 2, 4, 5 and 6 of Ferrante et al. (2021) for one collection over several cut-offs. A
    report: ``to_frame()`` (:meth:`significance`, every cut-off, measure and test) and
    ``format(fmt)`` (every table; ``format(table, fmt)`` one of them)."""

    collection: str
    effects: tuple[ScaleEffects, ...]

    def _pick(self, N: int | None) -> ScaleEffects:
        if N is None:
            return self.effects[-1]
        for effect in self.effects:
            if effect.N == N:
                return effect
        raise ParameterError(f"no cut-off N={N} in the report "
                             f"(has {[e.N for e in self.effects]})")

    def table2(self) -> pd.DataFrame:
        """Overall τ between each measure and its ranked version: one row per cut-off."""
        rows = {e.label: {m: e.tau(m, r) for m, r in e.pairs} for e in self.effects}
        frame = pd.DataFrame.from_dict(rows, orient="index")
        frame.index.name = "track"
        return _taus(frame)

    def topic_by_topic(self) -> pd.DataFrame:
        """Smallest topic-by-topic τ between M and M_R (1 by construction; NaN where a
        measure ties every system on every topic)."""
        rows = {}
        for e in self.effects:
            row = {}
            for m, r in e.pairs:
                x, y = e.matrix.array(m), e.matrix.array(r)
                taus = [kendall_tau(x[t], y[t]).tau for t in range(len(x))]
                row[m] = float(np.nanmin(taus)) if np.isfinite(taus).any() else float("nan")
            rows[e.label] = row
        frame = pd.DataFrame.from_dict(rows, orient="index")
        frame.index.name = "track"
        return _taus(frame)

    def table4(self, N: int | None = None) -> pd.DataFrame:
        """Msr, RnkMsr and Δ% for every two measures at cut-off N (default: the largest)."""
        e = self._pick(N)
        rows = []
        names = e.measures
        for a in range(len(names)):
            for b in range(a + 1, len(names)):
                msr = e.tau(names[a], names[b])
                rnk = e.tau(e.ranked(names[a]), e.ranked(names[b]))
                rows.append({"measure": f"{names[a]} vs {names[b]}", "Msr": msr,
                             "RnkMsr": rnk, "delta_%": _change(msr, rnk)})
        return declare(_taus(pd.DataFrame(rows)), {"delta_%": undefined(
            "τ among the measures (Msr) is 0 or undefined: a relative change is x/0")})

    def significance(self) -> pd.DataFrame:
        """Sig, S2NS, NS2S, Δ% for every cut-off, measure and test (long format)."""
        return pd.concat([e.significance() for e in self.effects], ignore_index=True)

    def to_frame(self) -> pd.DataFrame:
        """:meth:`significance`: every cut-off, measure and test."""
        return self.significance()

    def table5(self, N: int | None = None, *, recall_base: bool = False) -> pd.DataFrame:
        """Table 5 (measures without recall base) or, with ``recall_base=True``, Table 6,
        at cut-off N (default: the largest), in the paper's layout."""
        e = self._pick(N)
        frame = e.significance()
        frame = frame[frame["recall_base"] == recall_base]
        return pd.DataFrame({
            "measure": frame["measure"], "test": frame["label"], "Sig": frame["sig"],
            "S2NS (%)": [_percent(c, s) for c, s in zip(frame["s2ns"], frame["s2ns_%"],
                                                         strict=True)],
            "NS2S (%)": [_percent(c, s) for c, s in zip(frame["ns2s"], frame["ns2s_%"],
                                                         strict=True)],
            "Δ%": [f"{v:.2f}%" if np.isfinite(v) else "–" for v in frame["delta_%"]],
        }).reset_index(drop=True)

    def table6(self, N: int | None = None) -> pd.DataFrame:
        """Table 6: the measures that depend on the recall base."""
        return self.table5(N, recall_base=True)

    def invariants(self, measures: Sequence[str] = INTERVAL_MEASURES) -> pd.DataFrame:
        """For the interval-scale measures: overall τ(M, M_R), the smallest topic τ and the
        number of pairs whose decision changes under any test (all must be 1, 1, 0)."""
        sig = self.significance()
        topic = self.topic_by_topic()
        rows = []
        for e in self.effects:
            for m in measures:
                if m not in e.measures:
                    continue
                part = sig[(sig["N"] == e.N) & (sig["measure"] == m)]
                rows.append({"track": e.label, "measure": m, "tau": e.tau(m, e.ranked(m)),
                             "min_topic_tau": topic.loc[e.label, m],
                             "changes": int((part["s2ns"] + part["ns2s"]).sum())})
        return _taus(pd.DataFrame(rows))

    def format(self, table: str = "all", fmt: Format = "text", *, N: int | None = None,
               digits: int = 4) -> str:
        """``table``: ``2``, ``4``, ``5``, ``6``, ``invariants`` or ``all``; ``format(fmt)``
        with a format name (``"json"``...) first gives every table in it. ``all`` in JSON
        is one object ``{"table2": [...], "table4": [...], ..., "invariants": [...]}``; in
        CSV, one section per table, separated by a blank line."""
        if table in TABLE_FORMATS and fmt == "text":
            table, fmt = "all", check_format(table)
        parts = []
        records: dict[str, object] = {}
        names = ("2", "4", "5", "6", "invariants") if table == "all" else (str(table),)
        for name in names:
            if name == "2":
                frame = self.table2().reset_index()
                title = (f"Table 2: overall Kendall τ between each measure and its ranked "
                         f"version ({self.collection})")
            elif name == "4":
                frame = self.table4(N)
                title = (f"Table 4: overall τ among measures (Msr) and ranked measures "
                         f"(RnkMsr), {self._pick(N).label}")
            elif name in ("5", "6"):
                frame = self.table5(N, recall_base=name == "6")
                which = "depending" if name == "6" else "not depending"
                title = (f"Table {name}: measures {which} on the recall base, "
                         f"{self._pick(N).label}, {self._pick(N).n_pairs} system pairs")
            elif name == "invariants":
                frame = self.invariants()
                title = "Invariants: interval-scale measures (τ = 1, no decision changes)"
            else:
                raise ParameterError(f"unknown table {table!r}: 2, 4, 5, 6, invariants or all")
            text = format_frame(frame, fmt, digits=digits,
                                title=None if fmt in ("csv", "json") else title)
            parts.append(text.replace("Δ\\%", "$\\Delta$\\%") if fmt == "latex" else text)
            records[name if name == "invariants" else f"table{name}"] = parse_json(
                text, f"table {name}") if fmt == "json" else None
        if fmt == "json" and len(parts) > 1:
            return json_text(records, indent=2) + "\n"
        return "\n".join(parts)

    def __repr__(self) -> str:
        e = self.effects[0]
        return (f"ScaleReport({self.collection}: {len(e.measures)} measures, cut-offs "
                f"{[x.N for x in self.effects]}, {e.matrix.n_systems} runs, "
                f"{e.matrix.n_topics} topics, {len(e.tests)} tests)")


#: Why a τ of the tables is undefined.
_TIED = undefined("Kendall τ is undefined where the runs' means tie under a measure "
                  "(identical runs, one run): they rank nothing")


def _taus(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its Kendall τ columns declared undefined where the runs' means tie
    under a measure (identical runs, one run): every column but ``delta_%`` and the
    counts."""
    return declare(frame, dict.fromkeys(
        (str(c) for c in frame.columns if c not in ("delta_%", "changes")), _TIED))


def check_cutoffs(cutoffs: Sequence[int], name: str = "cutoffs") -> list[int]:
    """The run lengths N as ints ≥ 1 (:data:`irscale.core.params.CUTOFF`), at least one,
    none twice."""
    return check_counts(cutoffs, name, "a cut-off", CUTOFF)


@SCALE_REPORT
def scale_report(
    qrels: object,
    runs: object,
    measures: Sequence[str] = DEFAULT_MEASURES,
    cutoffs: Sequence[int] = DEFAULT_CUTOFFS,
    *,
    collection: str = "T",
    tests: Sequence[str] = tuple(SCALE_PAPER_TESTS),
    alpha: float = 0.05,
    ties: TieStrategy = "unq",
    progress: bool = False,
    **transform_options: Any,
) -> ScaleReport:
    """Transform the runs at every cut-off (:func:`irscale.scales.transform.transform`) and
    compute the analyses of Ferrante et al. (2021), §7 (module documentation). Tracks are labelled
    ``{collection}_{N:02d}`` as in the paper (T08_30). The runs are checked and their
    topics reported as :func:`irscale.evaluate` does (``allow_empty=True`` among the
    ``transform_options`` evaluates a run with no topic in common with the qrels). The
    cut-offs, ``alpha`` and ``ties`` are checked on entry
    (:data:`irscale.meta.params.SCALE_REPORT`)."""
    from ..io.sources import as_qrels, as_runs
    from ..scales import scale_measure
    from ..scales.transform import transform

    qrels, runs = as_qrels(qrels), as_runs(runs)  # read once for every cut-off
    effects = []
    for N in cutoffs:
        result = transform(qrels, runs, list(measures), int(N), ties=ties,
                           progress=progress, **transform_options)
        recall = {m: scale_measure(m).depends_on_recall_base for m, _ in result.labels}
        effects.append(scale_effects(result.matrix, result.labels, N=int(N),
                                     label=f"{collection}_{int(N):02d}", recall_base=recall,
                                     tests=tests, alpha=alpha))
    return ScaleReport(collection=collection, effects=tuple(effects))
