"""Cross-checks of the benchmark: are the tools computing the same numbers?

1. Full precision, on a sample of topics: irscale against pytrec_eval (trec_eval 9.0.8)
   for the three measures and for every per-topic measure both compute in all_trec.
2. The per-topic files the benchmark wrote for the three-measure set (4 decimals): irscale's
   against each peer's, on every topic.
"""

from __future__ import annotations

import tempfile
import warnings
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv

#: Each tool's name of the three measures → trec_eval's.
CANONICAL = {
    "map": "map", "AP": "map",
    "ndcg_cut_10": "ndcg_cut_10", "nDCG@10": "ndcg_cut_10", "ndcg@10": "ndcg_cut_10",
    "recip_rank": "recip_rank", "RR": "recip_rank", "mrr": "recip_rank",
}
THREE = ("map", "ndcg_cut_10", "recip_rank")


def _read_fields(path: Path, names: list[str]) -> pa.Table:
    """A benchmark file's fields, separated by single blanks, tabs (the ``tsv`` case) or runs
    of blanks (the ``aligned`` case: split line by line in Python, as a check should)."""
    with path.open("rb") as handle:
        first = handle.readline().rstrip(b"\n")
    delimiter = "\t" if b"\t" in first else " "
    if first != delimiter.encode().join(first.split()):
        with path.open() as handle:
            rows = [line.split() for line in handle if line.strip()]
        return pa.table({name: pa.array([row[k] for row in rows], pa.string())
                         for k, name in enumerate(names)})
    return pcsv.read_csv(
        path,
        read_options=pcsv.ReadOptions(column_names=names, block_size=1 << 24),
        parse_options=pcsv.ParseOptions(delimiter=delimiter, quote_char=False),
        convert_options=pcsv.ConvertOptions(column_types={n: pa.string() for n in names}),
    )


def _write_space(table: pa.Table, path: Path) -> None:
    pcsv.write_csv(table, path, write_options=pcsv.WriteOptions(
        include_header=False, delimiter=" ", quoting_style="none"))


def sample_check(qrels_path: Path, run_path: Path, n_topics: int) -> dict:
    import pytrec_eval

    import irscale

    qrels = _read_fields(qrels_path, ["qid", "iter", "docno", "rel"])
    run = _read_fields(run_path, ["qid", "q0", "docno", "rank", "score", "runid"])
    topics = np.intersect1d(pc.unique(qrels["qid"]).to_numpy(zero_copy_only=False),
                            pc.unique(run["qid"]).to_numpy(zero_copy_only=False))
    rng = np.random.default_rng(7)
    chosen = pa.array(rng.choice(topics, size=min(n_topics, len(topics)), replace=False))
    with tempfile.TemporaryDirectory() as tmp:
        sub_qrels, sub_run = Path(tmp) / "sample.qrels", Path(tmp) / "sample.run"
        _write_space(qrels.filter(pc.is_in(qrels["qid"], value_set=chosen)), sub_qrels)
        _write_space(run.filter(pc.is_in(run["qid"], value_set=chosen)), sub_run)
        ours_q, ours_r = irscale.read_qrels(sub_qrels), irscale.read_run(sub_run)
        with sub_qrels.open() as handle:
            ref_qrels = pytrec_eval.parse_qrel(handle)
        with sub_run.open() as handle:
            ref_run = pytrec_eval.parse_run(handle)

    def ours(names: list[str]) -> dict[str, dict[str, float]]:
        from irscale.errors import MeasureError

        usable = []
        for name in names:
            try:
                irscale.parse_measures([name])
            except MeasureError:
                continue
            usable.append(name)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ev = irscale.evaluate(ours_q, [ours_r], usable)
        topics = ev.rankings.topic_labels
        return {label: dict(zip(topics, ev.values[label].astype(float).tolist(), strict=True))
                for label in ev.measures}

    def reference(measures: set[str]) -> dict[str, dict[str, float]]:
        results = pytrec_eval.RelevanceEvaluator(ref_qrels, measures).evaluate(ref_run)
        table: dict[str, dict[str, float]] = {}
        for qid, values in results.items():
            for name, value in values.items():
                table.setdefault(name, {})[qid] = value
        return table

    def compare(a: dict, b: dict) -> dict[str, float]:
        out = {}
        for label in sorted(set(a) & set(b)):
            common = sorted(set(a[label]) & set(b[label]))
            if common:
                out[label] = max(abs(a[label][t] - b[label][t]) for t in common)
        return out

    three = compare(ours(["map", "ndcg_cut.10", "recip_rank"]),
                    reference({"map", "ndcg_cut.10", "recip_rank"}))
    ours_all = ours(["all_trec"])
    reference_all = reference(set(pytrec_eval.supported_measures))
    full = compare(ours_all, reference_all)
    worst = max(full, key=full.get) if full else None
    return {
        "topics": len(chosen),
        "per_measure": three,
        "missing_three": [m for m in THREE if m not in three],
        "max_abs_diff_three": max(three.values(), default=float("nan")),
        "n_common_all_trec": len(full),
        "max_abs_diff_all_trec": max(full.values(), default=float("nan")),
        "worst_all_trec": f"{worst} {full[worst]:.3g}" if worst and full[worst] > 0 else "",
        "differing_all_trec": {k: v for k, v in full.items() if v > 1e-9},
        "only_irscale": sorted(set(ours_all) - set(reference_all)),
        "only_pytrec_eval": sorted(set(reference_all) - set(ours_all)),
    }


def _read_output(path: Path) -> dict[tuple[str, str], float]:
    table = pcsv.read_csv(
        path,
        read_options=pcsv.ReadOptions(column_names=["measure", "topic", "value"],
                                      block_size=1 << 24),
        parse_options=pcsv.ParseOptions(delimiter="\t", quote_char=False),
        convert_options=pcsv.ConvertOptions(column_types={
            "measure": pa.string(), "topic": pa.string(), "value": pa.string()}),
    )
    table = table.filter(pc.not_equal(table["topic"], "all"))
    measures = [CANONICAL.get(m.strip(), m.strip()) for m in table["measure"].to_pylist()]
    values = pc.cast(table["value"], pa.float64()).to_pylist()
    return {(m, t): v for m, t, v in zip(measures, table["topic"].to_pylist(), values,
                                           strict=True) if m in THREE}


def tied_topics(run_path: Path) -> set[str]:
    """Topics of the run with at least two documents of equal score (as C floats, as
    trec_eval compares them; :func:`datagen.tied_topics`)."""
    import datagen
    from irscale.io.trec import read_run

    return datagen.tied_topics(read_run(run_path))


def output_check(case: str, out_dir: Path, run_path: Path) -> dict:
    mine = out_dir / f"{case}_three_irscale.txt"
    if not mine.exists():
        return {}
    ours = _read_output(mine)
    tied: set[str] | None = None
    report = {}
    for peer in ("pytrec_eval", "ir_measures", "ranx"):
        path = out_dir / f"{case}_three_{peer}.txt"
        if not path.exists():
            continue
        theirs = _read_output(path)
        common = sorted(set(ours) & set(theirs))
        diff = np.array([abs(ours[k] - theirs[k]) for k in common])
        beyond = diff > 1.5e-4
        info = {
            "compared": len(common),
            "only_irscale": len(set(ours) - set(theirs)),
            "only_peer": len(set(theirs) - set(ours)),
            "max_abs_diff": float(diff.max(initial=0.0)),
            "beyond_rounding": int(beyond.sum()),
        }
        if beyond.any():
            bad = [common[i] for i in np.flatnonzero(beyond)]
            per = {m: sum(1 for b in bad if b[0] == m) for m in THREE}
            if tied is None:
                tied = tied_topics(run_path)
            topics = {b[1] for b in bad}
            info["note"] = ("differing values per measure: "
                            + ", ".join(f"{m} {n:,}" for m, n in per.items() if n)
                            + f"; {len(topics & tied):,} of the {len(topics):,} topics "
                            "concerned have tied scores")
        if info["only_peer"] or info["only_irscale"]:
            extra = f"{info['only_irscale']:,} values only in irscale's output, " \
                    f"{info['only_peer']:,} only in {peer}'s"
            info["note"] = f"{info['note']}; {extra}" if info.get("note") else extra
        report[peer] = info
    return report


def check(case: str, qrels_path: Path, run_path: Path, out_dir: Path, sample: int) -> dict:
    return {"sample": sample_check(qrels_path, run_path, sample),
            "outputs": output_check(case, out_dir, run_path)}
