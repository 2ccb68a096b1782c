"""Benchmark of click-model fitting: EM of the DBN (and the other models) on
10^6 sessions × 10 ranks.

Case: 1,000 queries with 100 documents each; every session shows 10 of its query's
documents in random order; clicks drawn from a DBN with attractiveness and satisfaction
uniform in [0.05, 0.9] and γ = 0.9 (fixed seed). Each measurement runs in a fresh process
(``--child``), which builds the :class:`~irscale.online.clicklog.ClickLog` from arrays,
simulates the clicks, then fits; it reports the fit's wall and CPU time, its EM
iterations, the recovery of γ and the process's peak resident memory (input log
included). ``--cli`` also times ``irscale online fit LOG --model dbn`` end to end on the
log written as text (reading 10^7 lines included).

    python benchmarks/bench_online_clicks.py [--sessions 1000000] [--models dbn,pbm]
        [--repeat 3] [--cli]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
RANKS, QUERIES, DOCS = 10, 1000, 100


def make_log(sessions: int):
    """The case's log (no clicks yet) and the DBN that clicks it."""
    import pandas as pd

    from irscale.online.clicklog import ClickLog
    from irscale.online.clickmodels import ClickModel

    rng = np.random.default_rng(14)
    query = rng.integers(0, QUERIES, sessions)
    # 10 distinct documents of the query's 100: a random offset and stride coprime to 100
    start = rng.integers(0, DOCS, sessions)
    stride = rng.choice([1, 3, 7, 9, 11, 13, 17, 19], sessions)
    local = (start[:, None] + stride[:, None] * np.arange(RANKS)) % DOCS
    doc = query[:, None] * DOCS + local
    names = np.array([f"s{i}" for i in range(sessions)], dtype=object)
    log = ClickLog(names, np.array([f"q{q}" for q in range(QUERIES)], dtype=object),
                   np.array([f"d{d}" for d in range(QUERIES * DOCS)], dtype=object),
                   query, doc, np.zeros((sessions, RANKS), dtype=bool),
                   np.full(sessions, RANKS), None, "<benchmark>")
    pairs = pd.MultiIndex.from_arrays([
        np.repeat(log.queries, DOCS),
        log.docs], names=["query", "docno"])
    model = ClickModel("dbn", pd.Series(rng.uniform(0.05, 0.9, len(pairs)), index=pairs),
                       satisfaction=pd.Series(rng.uniform(0.05, 0.9, len(pairs)),
                                              index=pairs), gamma=0.9)
    return log, model


def child(model_name: str, sessions: int) -> dict:
    from irscale.online.clickmodels import fit_click_model

    log, truth = make_log(sessions)
    log = truth.simulate(log, rng=15)
    before = os.times()
    start = time.perf_counter()
    fit = fit_click_model(log, model_name)
    wall = time.perf_counter() - start
    after = os.times()
    return {"model": model_name, "sessions": sessions, "wall_s": wall,
            "cpu_s": (after.user - before.user) + (after.system - before.system),
            "iterations": fit.iterations, "gamma": fit.gamma,
            "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "clicks": int(log.clicks.sum())}


def run_child(model_name: str, sessions: int) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", model_name, "--sessions",
                          str(sessions)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def cli(sessions: int, folder: Path) -> dict:
    """``irscale online fit`` end to end on the log as text (written once)."""
    path = folder / f"dbn_{sessions}.log"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        log, truth = make_log(sessions)
        truth.simulate(log, rng=15).to_frame().to_csv(path, sep="\t", index=False,
                                                      header=False)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-m", "irscale.cli.main", "online", "fit",
                                    str(path), "--model", "dbn", "-o",
                                    str(Path(tmp) / "p.tsv")])
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit("irscale online fit failed")
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
            "peak_mib": usage.ru_maxrss / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1_000_000)
    parser.add_argument("--models", default="dbn")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cli", action="store_true")
    parser.add_argument("--data-dir", type=Path, default=HERE / "data" / "online_clicks")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.sessions)))
        return
    print(f"load average at start: {os.getloadavg()[0]:.2f} (2 cores, shared machine)")
    for name in args.models.split(","):
        rows = [run_child(name, args.sessions) for _ in range(args.repeat)]
        walls = [r["wall_s"] for r in rows]
        print(f"{name}: {args.sessions:,} sessions x {RANKS} ranks, "
              f"{rows[0]['clicks']:,} clicks, {rows[0]['iterations']} EM iterations; fit "
              f"wall median {statistics.median(walls):.1f} s (runs "
              f"{', '.join(f'{w:.1f}' for w in walls)}), CPU "
              f"{statistics.median(r['cpu_s'] for r in rows):.1f} s, peak "
              f"{max(r['peak_mib'] for r in rows):.0f} MiB"
              + (f", gamma {rows[0]['gamma']:.4f} (true 0.9)" if name == "dbn" else ""))
    if args.cli:
        result = cli(args.sessions, args.data_dir)
        print(f"irscale online fit (text log, end to end): wall {result['wall_s']:.1f} s, "
              f"CPU {result['cpu_s']:.1f} s, peak {result['peak_mib']:.0f} MiB")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
