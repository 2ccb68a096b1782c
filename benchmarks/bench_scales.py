"""Benchmark of the interval-scale engine (:mod:`irscale.scales`) against enumerate-all.

For each measure, run length N and number of relevance degrees, one job computes what a
user of Ferrante et al. (2021) need: the image size ``|M(REL^N)|`` (exact) and φ of 800 random runs
(the queries of a transform: 16 runs × 50 topics). The baseline is the straightforward
implementation of the paper: materialise all ``levels^N`` runs, score them all with the
measure's kernel, ``numpy.unique`` the values (rounded to 12 digits), then ``searchsorted``
the 800 queries.

Every job runs in a fresh Python process with a wall-clock limit (``--timeout``, default
600 s) and an address-space limit (``--memory``, default 8 GB, ``RLIMIT_AS``); the parent
records the peak resident memory (``ru_maxrss`` from ``wait4``), the time, and how a job
failed (timeout, out of memory). ``--full-image`` jobs also stream the whole sorted image
(the diagnostics pass: gaps, ties, unused range).

    python benchmarks/bench_scales.py [--quick] [--markdown docs/benchmarks-scales.md]
                                      [--only AP,DCG_b02] [--timeout 600]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BEGIN = "<!-- BEGIN GENERATED: benchmarks/bench_scales.py -->"
END = "<!-- END GENERATED -->"
QUERIES = 800
BINARY = ["P", "R", "AP", "RBP_p03", "RBP_p05", "RBP_p08", "DCG_b02", "DCG_b10", "nDCG_b02",
          "nDCG_b10", "RR"]


# ============================================================================ jobs
def _queries(N: int, levels: int):
    import numpy as np

    return np.random.default_rng(7).integers(0, levels, size=(QUERIES, N))


def job_fast(measure: str, N: int, levels: int, full: bool) -> dict:
    from irscale.scales import scale
    from irscale.scales.diagnostics import summarize

    queries = _queries(N, levels)
    start = time.perf_counter()
    sc = scale(measure, N, levels, progress=False)
    phi = sc.phi(queries)
    n_distinct = sc.n_distinct
    seconds = time.perf_counter() - start
    out = {"n_distinct": int(n_distinct), "seconds": seconds, "algorithm": sc.algorithm,
           "phi_checksum": int(sum(int(v) for v in phi)) % 1_000_000_007}
    if full:
        start = time.perf_counter()
        summary = summarize(sc, orders=False)
        out["full_seconds"] = time.perf_counter() - start
        out["equi_spaced"] = summary.equi_spaced
        out["unused_fraction"] = summary.unused_fraction
    return out


def job_naive(measure: str, N: int, levels: int, full: bool) -> dict:
    import numpy as np

    from irscale.scales.generic import naive_image
    from irscale.scales.measures import scale_measure
    from irscale.scales.space import Space, to_context

    space = Space(N, levels)
    context = to_context(None, space)
    m = scale_measure(measure).for_length(N)
    queries = _queries(N, levels)
    start = time.perf_counter()
    values, _ = naive_image(m, space, context)
    phi = np.searchsorted(values, np.round(m.kernel_values(queries, context), 12), "right")
    seconds = time.perf_counter() - start
    return {"n_distinct": len(values), "seconds": seconds,
            "phi_checksum": int(phi.astype(object).sum()) % 1_000_000_007}


JOBS = {"fast": job_fast, "naive": job_naive}


def worker(argv: list[str]) -> None:
    kind, measure, N, levels, full = argv[0], argv[1], int(argv[2]), int(argv[3]), argv[4]
    result = JOBS[kind](measure, N, levels, full == "1")
    result["peak_gb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    print("RESULT " + json.dumps(result))


# ============================================================================ parent
def run_job(kind: str, measure: str, N: int, levels: int, *, timeout: float, memory: int,
            full: bool = False) -> dict:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    env = dict(os.environ, IRSCALE_NO_PROGRESS="1", OMP_NUM_THREADS="1")
    cmd = [sys.executable, __file__, "--worker", kind, measure, str(N), str(levels),
           "1" if full else "0"]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=limit, env=env, start_new_session=True)
    status = "ok"
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        status = f"timeout (> {timeout:.0f} s)"
    wall = time.perf_counter() - start
    row = {"kind": kind, "measure": measure, "N": N, "levels": levels, "status": status,
           "wall": wall}
    line = next((x for x in out.splitlines() if x.startswith("RESULT ")), None)
    if line is not None:
        row.update(json.loads(line[7:]))
    elif status == "ok":
        last = err.strip().splitlines()[-1] if err.strip() else f"exit {proc.returncode}"
        row["status"] = "out of memory" if "MemoryError" in err or "Killed" in err else \
            f"failed: {last}"
    return row


def cases(quick: bool, only: set[str] | None) -> list[tuple[str, str, int, int, bool]]:
    out: list[tuple[str, str, int, int, bool]] = []
    binary_ns = [10, 20] if quick else [10, 20, 24, 30]
    graded_ns = [10] if quick else [10, 15, 20]
    for m in BINARY:
        for N in binary_ns:
            out.append(("fast", m, N, 2, False))
        for N in graded_ns:
            out.append(("fast", m, N, 3, False))
    if not quick:
        for m in BINARY:
            if m != "AP":
                out.append(("fast", m, 40, 2, False))
        for m in ("P", "R", "RR", "RBP_p03", "RBP_p05"):
            out.append(("fast", m, 1000, 2, False))
        for m in ("AP", "DCG_b02", "RBP_p08"):
            out.append(("fast", m, 24, 2, True))
        out.append(("fast", "DCG_b02", 30, 2, True))
        for m in ("DCG_b02", "RBP_p08", "AP"):
            out.append(("fast", m, 25, 3, False))
    naive_ns = [10, 16, 20] if quick else [10, 16, 20, 22, 24, 26, 30]
    for m in ("AP", "DCG_b02", "RBP_p08", "P"):
        for N in naive_ns:
            out.append(("naive", m, N, 2, False))
            if ("fast", m, N, 2, False) not in out:
                out.append(("fast", m, N, 2, False))
    if not quick:
        for m in ("AP", "DCG_b02"):
            for N in (10, 13, 15):
                out.append(("naive", m, N, 3, False))
                if ("fast", m, N, 3, False) not in out:
                    out.append(("fast", m, N, 3, False))
    return [c for c in out if only is None or c[1] in only]


def markdown(rows: list[dict], meta: dict) -> str:
    def fmt_peak(v):
        return "–" if v is None else f"{v:.2f}"

    lines = [BEGIN, "",
             f"Run {meta['date']} on {meta['machine']} ({meta['cpus']} CPUs), Python "
             f"{meta['python']}, numpy {meta['numpy']}; limits: {meta['timeout']:.0f} s and "
             f"{meta['memory'] / 2**30:.0f} GB per job.", "",
             "| measure | levels | N | method | distinct values | time (s) | peak (GB) | status |",
             "|---|---:|---:|---|---:|---:|---:|---|"]
    fast = {(r["measure"], r["N"], r["levels"]): r for r in rows
            if r["kind"] == "fast" and "phi_checksum" in r}
    order = {m: i for i, m in enumerate(BINARY)}
    rows = sorted(rows, key=lambda r: (order.get(r["measure"], 99), r["levels"], r["N"],
                                       r["kind"] != "fast", "full_seconds" in r))
    for r in rows:
        method = "irscale" if r["kind"] == "fast" else "enumerate-all + unique"
        n = "–" if "n_distinct" not in r else f"{r['n_distinct']:,}" \
            if r["n_distinct"] < 10**15 else f"≈ {float(r['n_distinct']):.4e}"
        t = f"{r['seconds']:.2f}" if "seconds" in r else f"({r['wall']:.0f} to fail)"
        extra = ""
        twin = fast.get((r["measure"], r["N"], r["levels"]))
        if r["kind"] == "naive" and twin is not None and "phi_checksum" in r:
            same = twin["phi_checksum"] == r["phi_checksum"] and \
                twin["n_distinct"] == r["n_distinct"]
            extra = "; same image size and φ as irscale" if same else "; DIFFERS from irscale"
        if "full_seconds" in r:
            extra = f"; full sorted image streamed in {r['full_seconds']:.1f} s"
        lines.append(f"| {r['measure']} | {r['levels']} | {r['N']} | {method} | {n} | {t} | "
                     f"{fmt_peak(r.get('peak_gb'))} | {r['status']}{extra} |")
    lines += ["", END]
    return "\n".join(lines)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", default=None, help="comma-separated measures")
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--memory", type=float, default=8.0, help="GB per job")
    parser.add_argument("--markdown", default=None, help="update this file's generated part")
    parser.add_argument("--json", default=None, help="also write the rows as JSON")
    parser.add_argument("--render", action="store_true",
                        help="only rewrite --markdown from the rows of --json")
    parser.add_argument("--merge", action="store_true",
                        help="replace the matching rows of the --json file (re-run cases)")
    args = parser.parse_args()
    import numpy as np

    meta = {"date": dt.date.today().isoformat(), "machine": platform.platform(),
            "cpus": os.cpu_count(), "python": platform.python_version(),
            "numpy": np.__version__, "timeout": args.timeout,
            "memory": int(args.memory * 2**30)}
    only = set(args.only.split(",")) if args.only else None
    rows = []
    if args.render:
        saved = json.loads(Path(args.json).read_text())
        meta, rows = saved["meta"], saved["rows"]
        args.merge, only = False, set()
    for kind, measure, N, levels, full in cases(args.quick, only):
        row = run_job(kind, measure, N, levels, timeout=args.timeout, memory=meta["memory"],
                      full=full)
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.merge and args.json and Path(args.json).exists():
        def key(r: dict) -> tuple:
            return (r["kind"], r["measure"], r["N"], r["levels"], "full_seconds" in r)

        new = {key(r): r for r in rows}
        old = json.loads(Path(args.json).read_text())["rows"]
        rows = [new.pop(key(r), r) for r in old] + list(new.values())
    if args.json:
        Path(args.json).write_text(json.dumps({"meta": meta, "rows": rows}, indent=1))
    if args.markdown:
        path = Path(args.markdown)
        text = path.read_text() if path.exists() else f"{BEGIN}\n{END}\n"
        head, _, rest = text.partition(BEGIN)
        _, _, tail = rest.partition(END)
        path.write_text(head + markdown(rows, meta) + tail)


if __name__ == "__main__":
    main()
