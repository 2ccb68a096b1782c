"""pytrec_eval-style dicts in: ``irscale.evaluate(qrels_dict, run_dict)`` against
pytrec_eval-terrier's ``RelevanceEvaluator(qrels_dict, measures).evaluate(run_dict)`` on the
same dicts, in one process, alternating, median of ``--repeat`` (target: ≤ 0.5 ×).

The dicts are those of a benchmark case (``benchmarks/datagen.py``, read once with
irscale and turned into ``{topic: {docno: value}}``); building them is not timed. Each tool
gets the three measures (map, ndcg_cut_10, recip_rank) and its result is kept (pytrec_eval's
dict of dicts; irscale's lazy Evaluation, whose per-topic frame is built too, so that both
deliver per-topic values). Peak memory of each call: ``tracemalloc`` (Python allocations;
numpy and pyarrow report theirs to it, pytrec_eval's C++ does not, so memory is not compared).

    python benchmarks/bench_dicts.py [--cases tiny track judged ii] [--repeat 5] [--markdown FILE]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import datagen  # noqa: E402

MEASURES_IRSCALE = ["map", "ndcg_cut.10", "recip_rank"]
MEASURES_PYTREC = {"map", "ndcg_cut_10", "recip_rank"}
BEGIN = "<!-- BEGIN GENERATED: benchmarks/bench_dicts.py -->"
END = "<!-- END GENERATED -->"


def load_dicts(case: datagen.Case) -> tuple[dict, dict]:
    """The case's qrels and run as pytrec_eval-style dicts of dicts."""
    from irscale.io.trec import read_qrels, read_run

    qrels_path, run_path = datagen.ensure_case(case, HERE / "data")
    qrels, run = read_qrels(qrels_path), read_run(run_path)

    def nest(topics, docnos, values) -> dict:
        out: dict = {}
        for t, d, v in zip(topics, docnos, values, strict=True):
            out.setdefault(t, {})[d] = v
        return out

    return (nest(qrels.topic.to_pylist(), qrels.docno.to_pylist(), qrels.rel.tolist()),
            nest(run.topic.to_pylist(), run.docno.to_pylist(), run.score.tolist()))


def time_call(fn) -> float:
    gc.collect()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def bench(case: datagen.Case, repeat: int) -> dict:
    import pytrec_eval

    import irscale

    qrels, run = load_dicts(case)

    def ours():
        with warnings.catch_warnings():  # the cases hold a few topics without judgments
            warnings.simplefilter("ignore")
            irscale.evaluate(qrels, run, MEASURES_IRSCALE).per_topic()

    def theirs():
        pytrec_eval.RelevanceEvaluator(qrels, MEASURES_PYTREC).evaluate(run)

    ours()  # imports and first-call costs are not what this measures
    theirs()
    times: dict[str, list[float]] = {"irscale": [], "pytrec_eval": []}
    for _ in range(repeat):
        times["irscale"].append(time_call(ours))
        times["pytrec_eval"].append(time_call(theirs))
    med = {tool: statistics.median(values) for tool, values in times.items()}
    lines = sum(len(v) for v in run.values())
    judgments = sum(len(v) for v in qrels.values())
    return {"case": case.label, "lines": lines, "judgments": judgments, **med,
            "ratio": med["irscale"] / med["pytrec_eval"]}


def markdown(rows: list[dict], repeat: int) -> str:
    import os
    import platform

    out = [BEGIN, "",
           f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; "
           f"median of {repeat} alternating calls in one process (`python "
           "benchmarks/bench_dicts.py`).", "",
           "| case | run entries | qrels entries | irscale | pytrec_eval | irscale / pytrec_eval |",
           "|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        out.append(f"| {r['case']} | {r['lines']:,} | {r['judgments']:,} | "
                   f"{r['irscale']:.3f} s | {r['pytrec_eval']:.3f} s | {r['ratio']:.2f} |")
    out += ["", END]
    return "\n".join(out)


def write_section(path: Path, text: str) -> None:
    """Replace the generated section of ``path`` (or append it), atomically."""
    import os

    old = path.read_text() if path.exists() else ""
    if BEGIN in old:
        head, rest = old.split(BEGIN, 1)
        new = head + text + rest.split(END, 1)[1]
    else:
        new = old.rstrip("\n") + "\n\n" + text + "\n"
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(new)
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", default=["tiny", "track", "judged", "ii"],
                        choices=datagen.CASES)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--markdown", type=Path, default=None)
    args = parser.parse_args(argv)
    rows = []
    for name in args.cases:
        row = bench(datagen.CASES[name], args.repeat)
        print(f"{row['case']}: irscale {row['irscale']:.3f} s, pytrec_eval "
              f"{row['pytrec_eval']:.3f} s, ratio {row['ratio']:.2f}", flush=True)
        rows.append(row)
    if args.markdown:
        write_section(args.markdown, markdown(rows, args.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
