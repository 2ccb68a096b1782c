"""Diagnostics of a measure's scale (Ferrante et al. 2021, §3.2 and §7.1, Ferrante et al. 2019).

* :func:`summarize` — for a measure and N: runs, distinct values, tied values and runs, the gaps of
  the sorted image (equi-spacing: an interval scale has equal gaps), the unused range (the largest
  gap and its share of the range — "AP leaves one quarter of its range unused" at N = 4 —; the share
  of the range inside gaps at least ``wide`` (2) × the equi-spaced step ``(max − min)/(|image| −
  1)``; the share of distinct values in each tenth of the range; for measures bounded by 1, ``1 −
  max``), and whether M is an ordinal or interval scale with respect to the SBTO and RBTO orders;
* :func:`order_properties` — the latter alone. M is *ordinal* w.r.t. a total order ≼ on
  runs when ``r ≼ s ⇔ M(r) ≤ M(s)`` (Ferrante et al. 2019, §4.2), i.e. φ equals the dense rank of
  the order; *interval* when, moreover, M is affine in the order's rank function, i.e. the
  image is equi-spaced. Decided exactly by enumeration up to ``enumerate_limit`` runs;
  beyond, analytically for the closed forms (P, R, F, SBTO, RR, RBTO-ordered measures)
  and otherwise by a search for a counterexample among consecutive runs of the order
  (the witnesses of Ferrante et al. 2019, ``(u, a_0, a_c, ..., a_c) ≺ (u, a_1, a_0, ..., a_0)`` and
  random runs): ``False`` comes with a witness pair, ``None`` means "not refuted";
* :func:`figure_data` — the data of Ferrante et al. (2021), Figures 2–5: every distinct value with
  its runs (Figure 2, small N), or the value at evenly spaced fractions of the runs sorted by
  value (Figures 3–5), streamed;
* :func:`tau_table` — Table 2: overall and topic-by-topic Kendall τ between each measure
  and its ranked version on real runs, for several N.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..core.options import TiePolicy
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..stats.kendall import overall_tau, topic_taus
from .closed_forms import CountImage, LexImage
from .cost import ENUMERATE_LIMIT, SAMPLE_CELLS, SAMPLES, STRUCTURED_POSITIONS
from .enumeration import format_run, iter_runs, run_index
from .image import ConstantImage
from .params import TAU_TABLE
from .scale import Scale, ScaledImage
from .ties import rank_values

#: Relative tolerance of the equi-spacing test (gaps equal within tol × range).
EQUI_TOL = 1e-9
#: Measures bounded above by 1 (their unused top range is reported).
NORMALISED = ("P", "R", "F", "AP", "RR", "RBP", "nDCG")


@dataclass(frozen=True)
class OrderProperty:
    """Whether a measure is an ordinal/interval scale w.r.t. an order (``None``: unknown)."""

    value: bool | None
    method: str
    witness: tuple[str, str] | None = None


@dataclass(frozen=True)
class ImageSummary:
    """Diagnostics of one scale (see :func:`summarize`)."""

    measure: str
    N: int
    levels: int
    space: str
    algorithm: str
    exactness: str
    n_runs: int
    n_distinct: int
    min_value: float
    max_value: float
    tied_values: int | None = None
    tied_runs: int | None = None
    max_tie: int | None = None
    min_gap: float | None = None
    max_gap: float | None = None
    mean_gap: float | None = None
    gap_cv: float | None = None
    equi_spaced: bool | None = None
    largest_gap: tuple[float, float] | None = None
    largest_gap_fraction: float | None = None
    unused_fraction: float | None = None
    tenths: tuple[float, ...] | None = None
    unused_top: float | None = None
    orders: dict[str, OrderProperty] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["orders"] = {k: asdict(v) for k, v in self.orders.items()}
        return out

    def to_frame(self) -> pd.DataFrame:
        """One row per diagnostic: ``name, value``."""
        flat = {k: v for k, v in self.to_dict().items() if k != "orders"}
        for name, prop in self.orders.items():
            flat[name] = prop.value
        return pd.DataFrame({"name": list(flat), "value": [str(v) for v in flat.values()]})

    def __repr__(self) -> str:
        lines = [f"{self.measure} on {self.space}: {self.n_distinct} distinct values over "
                 f"{self.n_runs} runs ({self.algorithm}; ties {self.exactness})"]
        if self.min_gap is not None:
            lines.append(f"  range [{self.min_value:.6g}, {self.max_value:.6g}], gaps "
                         f"{self.min_gap:.3g}..{self.max_gap:.3g}, equi-spaced: "
                         f"{self.equi_spaced}, unused: {self.unused_fraction:.3f}")
        if self.tied_runs is not None:
            lines.append(f"  {self.tied_values} tied values holding {self.tied_runs} runs "
                         f"(largest tie: {self.max_tie})")
        for name, prop in self.orders.items():
            lines.append(f"  {name}: {prop.value} ({prop.method})")
        return "\n".join(lines)


# ====================================================================== image statistics
def listed_values(sc: Scale) -> tuple[list[float], list[int]]:
    """The distinct values of the image of ``sc``, in order, and their numbers of runs,
    streamed from the image (:meth:`Scale.iter_values`)."""
    values: list[float] = []
    counts: list[int] = []
    for v, c in sc.iter_values():
        values.extend(float(x) for x in v)
        counts.extend(int(x) for x in c)
    return values, counts


def image_document(sc: Scale, *, values: bool = False,
                   intents: int | None = None) -> dict[str, Any]:
    """The JSON object of the scale ``sc`` (``irscale scale image --format json``): the
    measure, N, levels, runs and distinct values, and, with ``values``, every distinct
    value and its φ (1, 2, ...; None otherwise); ``intents``: the intents of a diversity
    measure's space."""
    document: dict[str, Any] = {"measure": sc.measure.label, "N": sc.N, "levels": sc.levels,
                                "n_runs": sc.n_runs, "n_distinct": sc.n_distinct,
                                "values": None, "phi": None}
    if intents is not None:
        document["intents"] = intents
    if values:
        listed, _ = listed_values(sc)
        document["values"] = listed
        document["phi"] = list(range(1, len(listed) + 1))
    return document


def phi_lines(sc: Scale) -> str:
    """Every distinct value of the image of ``sc`` with its φ and its number of runs, a
    line each (``  φ =   1  0.000000  (3 runs)``)."""
    values, counts = listed_values(sc)
    return "".join(f"  φ = {phi:>3}  {v:.6f}  ({c} runs)\n"
                   for phi, (v, c) in enumerate(zip(values, counts, strict=True), start=1))


def summarize(sc: Scale, *, stream: bool = True, wide: float = 2.0,
              orders: bool = True, **order_options) -> ImageSummary:
    """Diagnostics of a scale (module documentation). ``stream=False`` skips the pass over
    the whole image (gaps, ties, tenths) for very large images."""
    image = sc.image
    lo, _, hi, _ = image.extremes()
    n = sc.n_distinct
    stats: dict[str, Any] = {}
    if stream:
        pass_stats = StreamStats(lo, hi, n, wide)
        for values, counts in sc.iter_values():
            pass_stats.add(values, counts)
        stats = pass_stats.result()
    unused_top = 1.0 - hi if sc.measure.kind in NORMALISED else None
    props = order_properties(sc, **order_options) if orders else {}
    return ImageSummary(
        measure=sc.measure.label, N=sc.N, levels=sc.levels, space=sc.space.label(),
        algorithm=sc.algorithm, exactness=sc.exactness, n_runs=sc.n_runs, n_distinct=n,
        min_value=lo, max_value=hi, unused_top=unused_top, orders=props, **stats)


class StreamStats:
    """The statistics of a sorted image gathered chunk by chunk in one pass with bounded
    memory (:func:`summarize`, :func:`irscale.scales.stream.write_image`): ties, gaps, the
    largest gap, the range inside gaps of at least ``wide`` equi-spaced steps
    ``(hi − lo)/(n − 1)`` and the share of the ``n`` distinct values per tenth of
    ``[lo, hi]``. ``add`` takes the chunks in increasing order; ``rows`` counts the values."""

    def __init__(self, lo: float, hi: float, n: int, wide: float = 2.0) -> None:
        self.lo, self.hi, self.n = lo, hi, n
        self.span = hi - lo
        self.step = self.span / (n - 1) if n > 1 else 0.0
        self.wide = wide
        self.tenth_edges = np.linspace(lo, hi, 11)
        self.tenths = np.zeros(10, dtype=np.int64)
        self.prev: float | None = None
        self.min_gap, self.max_gap, self.total, self.total_sq, self.count = \
            math.inf, 0.0, 0.0, 0.0, 0
        self.largest = (lo, lo)
        self.unused = 0.0
        self.tied_values = self.tied_runs = self.max_tie = 0
        self.rows = 0

    def add(self, values: np.ndarray, counts: np.ndarray) -> None:
        """The next chunk: sorted distinct values above the previous chunk's, run counts."""
        if len(values) == 0:
            return
        self.rows += len(values)
        counts = np.asarray(counts)
        multiple = counts > 1
        self.tied_values += int(multiple.sum())
        self.tied_runs += int(sum(int(c) for c in counts[multiple])) \
            if counts.dtype == object else int(counts[multiple].sum())
        self.max_tie = max(self.max_tie, int(counts.max()))
        if self.span > 0:
            self.tenths += np.histogram(values, bins=self.tenth_edges)[0]
        joined = values if self.prev is None else np.concatenate(([self.prev], values))
        gaps = np.diff(joined)
        if len(gaps):
            k = int(np.argmax(gaps))
            if gaps[k] > self.max_gap:
                self.max_gap = float(gaps[k])
                self.largest = (float(joined[k]), float(joined[k + 1]))
            self.min_gap = min(self.min_gap, float(gaps.min()))
            self.total += float(gaps.sum())
            self.total_sq += float((gaps * gaps).sum())
            self.count += len(gaps)
            if self.step > 0:
                self.unused += float(gaps[gaps >= self.wide * self.step].sum())
        self.prev = float(values[-1])

    def result(self) -> dict[str, Any]:
        """The fields of :class:`ImageSummary` the pass fills."""
        count, span, largest = self.count, self.span, self.largest
        mean = self.total / count if count else 0.0
        var = max(self.total_sq / count - mean * mean, 0.0) if count else 0.0
        min_gap = self.min_gap if count else 0.0
        return dict(
            tied_values=self.tied_values, tied_runs=self.tied_runs, max_tie=self.max_tie,
            min_gap=min_gap, max_gap=self.max_gap, mean_gap=mean,
            gap_cv=math.sqrt(var) / mean if mean > 0 else 0.0,
            equi_spaced=(self.max_gap - min_gap) <= EQUI_TOL * max(span, 1e-300),
            largest_gap=largest, unused_fraction=self.unused / span if span > 0 else 0.0,
            largest_gap_fraction=(largest[1] - largest[0]) / span if span > 0 else 0.0,
            tenths=tuple(float(v) for v in self.tenths / max(self.n, 1)),
        )


# ====================================================================== orders
def _sbto(sc: Scale, runs: np.ndarray) -> np.ndarray:
    counter = CountImage("SBTO", sc.space, sc.context)
    return np.asarray(counter.values_of(runs), dtype=np.float64)


def _prop_from_keys(phi: np.ndarray, key: np.ndarray, runs: np.ndarray, equi: bool | None,
                    method: str) -> tuple[OrderProperty, OrderProperty]:
    """Ordinal ⇔ φ equals the dense rank of ``key``; interval ⇔ ordinal and equi-spaced."""
    phi = np.asarray(phi, dtype=np.int64)
    dense = rank_values(key, "unq").astype(np.int64)
    if np.array_equal(phi, dense):
        ordinal = OrderProperty(True, method)
    else:
        order = np.lexsort((phi, key))
        k_sorted, p_sorted = key[order], phi[order]
        bad = np.flatnonzero((np.diff(k_sorted) == 0) & (np.diff(p_sorted) != 0)
                             | (np.diff(k_sorted) > 0) & (np.diff(p_sorted) <= 0))
        i = int(bad[0]) if len(bad) else 0
        witness = (format_run(runs[order[i]]), format_run(runs[order[i + 1]]))
        ordinal = OrderProperty(False, method, witness)
    interval = OrderProperty(bool(ordinal.value and equi) if equi is not None else None,
                             method + ("" if ordinal.value else " (not ordinal)"),
                             ordinal.witness)
    return ordinal, interval


def order_properties(sc: Scale, *, enumerate_limit: int = ENUMERATE_LIMIT, samples: int = SAMPLES,
                     seed: int = 0) -> dict[str, OrderProperty]:
    """Ordinal/interval w.r.t. SBTO and RBTO (module documentation)."""
    space = sc.space
    if space.levels**space.N <= enumerate_limit:
        runs = np.concatenate(list(iter_runs(space)))
        phi = np.asarray(sc.phi(runs), dtype=np.int64)
        values, _ = sc.image_values()
        gaps = np.diff(values)
        span = values[-1] - values[0] if len(values) else 0.0
        equi = bool(len(gaps) == 0 or gaps.max() - gaps.min() <= EQUI_TOL * max(span, 1e-300))
        o_s, i_s = _prop_from_keys(phi, _sbto(sc, runs), runs, equi, "enumeration")
        o_r, i_r = _prop_from_keys(phi, run_index(runs, space.levels).astype(np.float64)
                                   if space.levels**space.N < 1 << 53 else
                                   np.arange(len(runs), dtype=np.float64), runs, equi,
                                   "enumeration")
        return {"ordinal_sbto": o_s, "interval_sbto": i_s, "ordinal_rbto": o_r,
                "interval_rbto": i_r}
    return _large_properties(sc, samples, seed)


def _large_properties(sc: Scale, samples: int, seed: int) -> dict[str, OrderProperty]:
    image = sc.image.inner if isinstance(sc.image, ScaledImage) else sc.image
    space = sc.space
    out: dict[str, OrderProperty] = {}
    binary_space = space.levels == 2
    if isinstance(image, LexImage):
        out["ordinal_rbto"] = OrderProperty(True, "analytic (lexicographically dominant "
                                            "weights)")
        out["interval_rbto"] = OrderProperty(_geometric(image), "analytic (weights ∝ "
                                             "(c+1)^(N−i) and linear gains)")
    if isinstance(image, CountImage) and (image.kind == "SBTO" or binary_space) \
            and space.bounds is None:
        out["ordinal_sbto"] = OrderProperty(True, "analytic (function of the counts, "
                                            "increasing in SBTO)")
        out["interval_sbto"] = OrderProperty(True, "analytic (affine in SBTO)")
    if isinstance(image, ConstantImage):
        for name in ("ordinal_sbto", "interval_sbto", "ordinal_rbto", "interval_rbto"):
            out[name] = OrderProperty(space.n_runs == 1, "constant measure")
    samples = min(samples, max(SAMPLE_CELLS // space.N, 1))  # long runs: fewer samples
    found = _refute(sc, samples, seed)
    for name, witness in found.items():
        if name not in out:
            out[name] = OrderProperty(False, "counterexample", witness)
            out[name.replace("ordinal", "interval")] = OrderProperty(
                False, "counterexample (not ordinal)", witness)
    for name in ("ordinal_sbto", "interval_sbto", "ordinal_rbto", "interval_rbto"):
        out.setdefault(name, OrderProperty(None, f"not refuted by {samples} samples"))
    return {k: out[k] for k in ("ordinal_sbto", "interval_sbto", "ordinal_rbto",
                                "interval_rbto")}


def _geometric(image: LexImage) -> bool:
    """RBTO-interval: weights ratio c + 1 rank to rank and gains linear in the degree."""
    spec = image.spec
    q = [c for _, c in spec.classes]
    g = spec.gains
    levels = image.space.levels
    linear = all(g[d] - g[0] == d * (g[1] - g[0]) for d in range(len(g)))
    return linear and all(q[i] == q[i + 1] * levels for i in range(len(q) - 1))


def _successor(runs: np.ndarray, levels: int) -> tuple[np.ndarray, np.ndarray]:
    """The next run in RBTO order (base-``levels`` increment); mask of runs that have one."""
    nxt = runs.astype(np.int16)  # levels ≤ 128: a degree + 1 fits
    ok = np.zeros(len(runs), dtype=bool)
    carry = np.ones(len(runs), dtype=bool)
    for i in range(runs.shape[1] - 1, -1, -1):
        nxt[carry, i] += 1
        over = nxt[:, i] >= levels
        nxt[over & carry, i] = 0
        carry = carry & over
    ok = ~carry
    return nxt.astype(np.int8), ok


def _refute(sc: Scale, samples: int, seed: int) -> dict[str, tuple[str, str]]:
    """Counterexamples among structured and random runs (module documentation)."""
    space = sc.space
    N, c = space.N, space.c
    rng = np.random.default_rng(seed)
    structured = []
    # Ferrante et al. (2019): (0^m, a_0, a_c, ..., a_c) vs its successor-ish, at every position m
    # (at STRUCTURED_POSITIONS spread over the run when N is larger: the rows are N long)
    for m in np.unique(np.linspace(0, N - 1, min(N, STRUCTURED_POSITIONS)).astype(np.int64)):
        row = np.zeros(N, dtype=np.int8)
        row[m + 1:] = c
        structured.append(row)
        for d in range(1, c + 1):
            single = np.zeros(N, dtype=np.int8)
            single[m] = d
            structured.append(single)
    runs = np.concatenate([np.array(structured), rng.integers(0, c + 1, size=(samples, N),
                                                              dtype=np.int8)])
    runs = runs[space.allows(runs)]
    found: dict[str, tuple[str, str]] = {}
    # RBTO: φ must increase strictly from a run to its successor
    nxt, ok = _successor(runs, space.levels)
    ok &= space.allows(nxt)
    a, b = runs[ok], nxt[ok]
    if len(a):
        pa, pb = (np.asarray(sc.phi(x), dtype=np.float64) for x in (a, b))
        bad = np.flatnonzero(pb <= pa)
        if len(bad):
            found["ordinal_rbto"] = (format_run(a[bad[0]]), format_run(b[bad[0]]))
    # SBTO: a permutation keeps the multiset, so φ must not change; and φ must follow SBTO
    perm = np.array([rng.permutation(row) for row in runs]) if len(runs) else runs
    if len(runs):
        p1, p2 = (np.asarray(sc.phi(x), dtype=np.float64) for x in (runs, perm))
        bad = np.flatnonzero(p1 != p2)
        if len(bad):
            found["ordinal_sbto"] = (format_run(runs[bad[0]]), format_run(perm[bad[0]]))
        else:
            s = _sbto(sc, runs)
            order = np.argsort(s, kind="stable")
            ds, dp = np.diff(s[order]), np.diff(p1[order])
            bad = np.flatnonzero((ds > 0) & (dp <= 0) | (ds == 0) & (dp != 0))
            if len(bad):
                i = order[bad[0]], order[bad[0] + 1]
                found["ordinal_sbto"] = (format_run(runs[i[0]]), format_run(runs[i[1]]))
    return found


# ====================================================================== figures
def figure_data(sc: Scale, *, points: int = 2000, runs_limit: int = 1 << 12) -> pd.DataFrame:
    """Ferrante et al. (2021), Figures 2–5 (module documentation).

    Up to ``runs_limit`` runs: one row per distinct value, ``value, phi, n_runs,
    run_fraction`` (share of runs with a smaller or equal value) and ``runs`` (the runs,
    as in Figure 2). Beyond: ``points`` rows ``run_fraction, value`` — the value reached at
    that fraction of the runs sorted by value (the curves of Figures 3–5).
    """
    total = sc.n_runs
    if total <= runs_limit:
        runs = np.concatenate(list(iter_runs(sc.space)))
        phi = np.asarray(sc.phi(runs), dtype=np.int64)
        values, counts = sc.image_values()
        labels: list[list[str]] = [[] for _ in range(len(values))]
        for row, p in zip(runs, phi.tolist(), strict=True):
            labels[p - 1].append(format_run(row))
        counts = np.asarray(counts, dtype=np.int64)
        return pd.DataFrame({"value": values, "phi": np.arange(1, len(values) + 1),
                             "n_runs": counts, "run_fraction": np.cumsum(counts) / total,
                             "runs": [" ".join(x) for x in labels]})
    targets = (np.arange(points) + 0.5) / points * total
    out = np.full(points, np.nan)
    seen = 0
    for values, counts in sc.iter_values():
        cum = seen + np.cumsum(np.asarray(counts, dtype=np.float64))
        lo = np.searchsorted(targets, seen, side="left")
        hi = np.searchsorted(targets, cum[-1] if len(cum) else seen, side="right")
        if hi > lo:
            where = np.searchsorted(cum, targets[lo:hi], side="left")
            out[lo:hi] = values[np.minimum(where, len(values) - 1)]
        seen = cum[-1] if len(cum) else seen
    return pd.DataFrame({"run_fraction": targets / total, "value": out})


# ====================================================================== Table 2
@TAU_TABLE
def tau_table(qrels: Any, runs: Any, measures: Sequence[str], Ns: Iterable[int], *,
              levels: int = 2, relevance_level: int = DEFAULT_RELEVANCE_LEVEL, ties: str = "unq",
              feasible: bool = False, progress: bool = True, allow_empty: bool = False,
              tie_policy: TiePolicy = "trec_eval", max_memory: str | int | None = None,
              explain: bool = False, **tau_options) -> pd.DataFrame:
    """Table 2 of Ferrante et al. (2021): for every N and measure, the overall Kendall τ between M
    and M_R, and the topic-by-topic τ (minimum, mean, number of topics where it is defined).
    Pivot ``tau_overall`` by N × measure for the paper's layout. Inputs are read once; the
    runs are checked and their topics reported as :func:`irscale.evaluate` does
    (``allow_empty`` and ``tie_policy``, the order of documents with equal scores, as
    there); ``max_memory`` and ``explain`` as :func:`~irscale.scales.transform.transform`
    takes them."""
    from ..io.sources import as_qrels, as_runs
    from .transform import transform

    # every option checked on entry (TAU_TABLE), before anything is read
    qrels, runs = as_qrels(qrels), as_runs(runs, keep_rank=tie_policy == "rank-column")
    rows = []
    for N in Ns:
        result = transform(qrels, runs, measures, N, levels=levels,
                           relevance_level=relevance_level, ties=ties,
                           feasible=feasible, progress=progress, allow_empty=allow_empty,
                           tie_policy=tie_policy, max_memory=max_memory, explain=explain)
        for label, ranked in result.labels:
            overall = overall_tau(result.matrix, None, label, ranked, **tau_options)
            per_topic = topic_taus(result.matrix, None, label, ranked, **tau_options)
            defined = per_topic[~np.isnan(per_topic)]
            rows.append({"N": N, "measure": label, "tau_overall": overall.tau,
                         "tau_topic_min": float(defined.min()) if len(defined) else np.nan,
                         "tau_topic_mean": float(defined.mean()) if len(defined) else np.nan,
                         "topics_defined": len(defined), "topics": len(per_topic)})
    return pd.DataFrame(rows)


def format_tau_table(frame: pd.DataFrame, fmt: str = "text") -> str:
    """The rows of :func:`tau_table` as Table 2 prints them: one row per N, one column per
    measure (in the order they come), the overall τ; ``csv`` and ``markdown`` the table
    alone, ``text`` also the least topic-by-topic τ (``irscale scale table``)."""
    from ..core.numbers import check_table, declare, spelled
    from ..stats.kendall import NOTHING_TO_RANK
    from ..stats.tables import UNDEFINED, value_text

    wide = frame.pivot(index="N", columns="measure", values="tau_overall")
    wide = declare(wide[list(dict.fromkeys(frame["measure"]))],
                   dict.fromkeys(map(str, wide.columns), NOTHING_TO_RANK))
    meanings = check_table(wide, "Table 2")  # the guard of numbers: one warning a cause
    if fmt == "csv":
        return spelled(wide, meanings).to_csv()
    if fmt == "markdown":
        lines = ["| N | " + " | ".join(wide.columns) + " |",
                 "|---|" + "---:|" * len(wide.columns)]
        lines += [f"| {n} | " + " | ".join(value_text(v) for v in row) + " |"
                  for n, row in wide.iterrows()]
        return "\n".join(lines) + "\n"
    worst = frame["tau_topic_min"].min()  # NaN: τ is defined on no topic
    topics = ("defined on no topic (the runs tie on every topic)" if math.isnan(worst)
              else f"minimum {worst:.4f} over the topics where it is defined")
    return (wide.to_string(float_format=value_text, na_rep=UNDEFINED) + "\n"
            f"topic-by-topic τ: {topics}\n")
