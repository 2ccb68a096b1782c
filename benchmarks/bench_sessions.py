"""Benchmark of session evaluation: ``irscale session`` end to end.

Case: 100,000 sessions × 5 queries × 10 documents (5,000,000 session-run lines), qrels of
20 judged documents per session topic (degrees 0–3, 2,000,000 lines), generated once into
``benchmarks/data/sessions_100000x5x10/`` (git-ignored, fixed seed). Each repetition runs
``irscale session QRELS RUN -m sDCG@10 -m nsDCG@10 -m U --labels doclen=LENGTHS -q -o FILE``
(document lengths 1,000–3,183 characters) in a
fresh process (interpreter start-up, reading, judging, every measure and writing the
per-session output included) and records the wall time, the CPU time (user and system:
on a shared machine the wall time also counts waiting for a core), the peak resident
memory and the load average.

    python benchmarks/bench_sessions.py [--repeat 3] [--sessions 100000]

Case ``--paths``: the expected session measures over browsing paths (esnDCG, esAP;
Kanoulas et al. 2011) of 100 sessions × 5 queries × 50 documents drawn from 120 documents
per session (a document is shown again in later queries often), 40 judged documents per
session topic (degrees 0–3), at ``@10``, ``@20`` and ``@50``: each measure is evaluated by
``evaluate_sessions`` in a fresh process (reading and judging included; wall and CPU time of
the call) under a time limit.

    python benchmarks/bench_sessions.py --paths [--path-sessions 100] [--limit 600]

Case ``--many``: the same measures on many small sessions, 10,000 sessions × 3 queries × 10
documents drawn from 30 documents per session, 15 judged documents per session topic, at
``@10`` (the cost of evaluating sessions one by one shows here, not in ``--paths``).

    python benchmarks/bench_sessions.py --many [--many-sessions 10000] [--limit 600]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
QUERIES, DOCS, JUDGED = 5, 10, 20
MEASURES = ("sDCG@10", "nsDCG@10", "U")
PATH_QUERIES, PATH_DOCS, PATH_POOL, PATH_JUDGED = 5, 50, 120, 40
PATH_MEASURES = ("esnDCG@10", "esnDCG@20", "esnDCG@50", "esAP@10", "esAP@20", "esAP@50")
MANY_QUERIES, MANY_DOCS, MANY_POOL, MANY_JUDGED = 3, 10, 30, 15
MANY_MEASURES = ("esnDCG@10", "esAP@10")


def generate(folder: Path, sessions: int) -> tuple[Path, Path, Path]:
    """The qrels, the session run and the document lengths of the case (written once)."""
    qrels, run, lengths = folder / "qrels.txt", folder / "run.txt", folder / "doclen.txt"
    pool = 60  # documents a session's lists draw from: duplicates across queries occur
    if not lengths.exists():
        folder.mkdir(parents=True, exist_ok=True)
        lengths.write_text("".join(f"* 0 D{d} {1000 + 37 * d}\n" for d in range(pool)))
    if qrels.exists() and run.exists():
        return qrels, run, lengths
    rng = np.random.default_rng(17)
    sid = np.repeat(np.arange(sessions), JUDGED)
    judged = np.argsort(rng.random((sessions, pool)), axis=1)[:, :JUDGED].ravel()
    degree = rng.integers(0, 4, sessions * JUDGED)
    with open(qrels, "w") as out:
        out.writelines(f"s{s} 0 D{d} {g}\n" for s, d, g in
                       zip(sid.tolist(), judged.tolist(), degree.tolist(), strict=True))
    n = sessions * QUERIES
    shown = np.argsort(rng.random((n, pool)), axis=1)[:, :DOCS].ravel()
    session = np.repeat(np.arange(sessions), QUERIES * DOCS)
    query = np.tile(np.repeat(np.arange(1, QUERIES + 1), DOCS), sessions)
    rank = np.tile(np.arange(1, DOCS + 1), n)
    with open(run, "w") as out:
        out.writelines(f"s{s} {q} D{d} {r} {1.0 / r:.4f} bench\n" for s, q, d, r in
                       zip(session.tolist(), query.tolist(), shown.tolist(), rank.tolist(),
                           strict=True))
    return qrels, run, lengths


def run_once(qrels: Path, run: Path, lengths: Path) -> tuple[float, float, float, float]:
    """Wall seconds, user and system CPU seconds and peak resident memory (MB) of one
    ``irscale session`` process (its own resource usage, from ``wait4``)."""
    with tempfile.TemporaryDirectory() as tmp:
        argv = [sys.executable, "-m", "irscale.cli.main", "session", str(qrels), str(run),
                "--labels", f"doclen={lengths}", "-q", "-o", os.path.join(tmp, "out.txt")]
        for measure in MEASURES:
            argv += ["-m", measure]
        start = time.perf_counter()
        process = subprocess.Popen(argv)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode:
            raise SystemExit(f"irscale session failed (exit {process.returncode})")
    return wall, usage.ru_utime, usage.ru_stime, usage.ru_maxrss / 1024


def generate_paths(folder: Path, sessions: int, queries: int = PATH_QUERIES,
                   docs: int = PATH_DOCS, pool: int = PATH_POOL,
                   judged: int = PATH_JUDGED) -> tuple[Path, Path]:
    """The qrels and the session run of the ``--paths`` case (written once): ``sessions``
    sessions of ``queries`` lists of ``docs`` documents drawn from ``pool`` documents, of
    which ``judged`` are judged."""
    qrels, run = folder / "qrels.txt", folder / "run.txt"
    if qrels.exists() and run.exists():
        return qrels, run
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(23)
    with open(qrels, "w") as out:
        for s in range(sessions):
            chosen = rng.permutation(pool)[:judged]
            degree = rng.integers(0, 4, judged)
            out.writelines(f"s{s} 0 D{d} {g}\n" for d, g in zip(chosen, degree, strict=True))
    with open(run, "w") as out:
        for s in range(sessions):
            for q in range(1, queries + 1):
                shown = rng.permutation(pool)[:docs]
                out.writelines(f"s{s} {q} D{d} {r} {1.0 / r:.4f} bench\n"
                               for r, d in enumerate(shown, 1))
    return qrels, run


def bench_paths(sessions: int, limit: float, many: bool = False) -> None:
    """Seconds of each measure of the ``--paths`` case (``--many`` when ``many``) in a fresh
    process (or the limit)."""
    if many:
        folder = HERE / "data" / f"session_many_{sessions}x{MANY_QUERIES}x{MANY_DOCS}"
        qrels, run = generate_paths(folder, sessions, MANY_QUERIES, MANY_DOCS, MANY_POOL,
                                    MANY_JUDGED)
    else:
        qrels, run = generate_paths(HERE / "data" / f"session_paths_{sessions}", sessions)
    code = ("import sys, time; from irscale.text import evaluate_sessions; "
            "t, c = time.perf_counter(), time.process_time(); "
            "e = evaluate_sessions(sys.argv[1], sys.argv[2], [sys.argv[3]]); "
            "print(f'{time.perf_counter() - t:.3f} {time.process_time() - c:.3f} '"
            "f'{float(e.values[sys.argv[3]].mean()):.12f}')")
    for measure in MANY_MEASURES if many else PATH_MEASURES:
        load = os.getloadavg()[0]
        try:
            done = subprocess.run([sys.executable, "-c", code, str(qrels), str(run), measure],
                                  capture_output=True, text=True, timeout=limit, check=True)
        except subprocess.TimeoutExpired:
            print(f"{measure}: over {limit:.0f} s (load average {load:.2f})", flush=True)
            continue
        seconds, cpu, mean = done.stdout.split()
        print(f"{measure}: {float(seconds):.3f} s wall, {float(cpu):.3f} s CPU in process, "
              f"mean {mean} over {sessions} sessions (load average {load:.2f} before)",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="repetitions (default 3)")
    parser.add_argument("--sessions", type=int, default=100_000,
                        help="number of sessions (default 100000)")
    parser.add_argument("--paths", action="store_true",
                        help="the esnDCG/esAP case instead (module documentation)")
    parser.add_argument("--path-sessions", type=int, default=100,
                        help="sessions of the --paths case (default 100)")
    parser.add_argument("--many", action="store_true",
                        help="the esnDCG/esAP case on many small sessions (module documentation)")
    parser.add_argument("--many-sessions", type=int, default=10_000,
                        help="sessions of the --many case (default 10000)")
    parser.add_argument("--limit", type=float, default=600.0,
                        help="seconds allowed to one measure of --paths (default 600)")
    args = parser.parse_args()
    if args.paths:
        bench_paths(args.path_sessions, args.limit)
        return
    if args.many:
        bench_paths(args.many_sessions, args.limit, many=True)
        return
    folder = HERE / "data" / f"sessions_{args.sessions}x{QUERIES}x{DOCS}"
    qrels, run, lengths = generate(folder, args.sessions)
    walls, cpus = [], []
    for _ in range(args.repeat):
        load = os.getloadavg()[0]
        wall, user, system, peak = run_once(qrels, run, lengths)
        walls.append(wall)
        cpus.append(user + system)
        print(f"irscale session: {wall:.2f} s wall, CPU {user:.2f} s user + {system:.2f} s "
              f"system, peak {peak:.0f} MB (load average {load:.2f} before, "
              f"{os.getloadavg()[0]:.2f} after, {os.cpu_count()} CPUs)", flush=True)
    print(f"median of {len(walls)}: {statistics.median(walls):.2f} s wall, "
          f"{statistics.median(cpus):.2f} s CPU")


if __name__ == "__main__":
    main()
