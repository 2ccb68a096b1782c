"""From TREC files to judged rankings: the native engine (``irscale.io.native_trec``)
against the Python path (``irscale.read_qrels`` / ``read_run`` and
``irscale.core.judge.build_judged_rankings``), on generated cases (:mod:`datagen`).

Each path runs in a fresh process (imports not counted): the seconds from the files'
paths to a ``JudgedRankings``, the process's CPU seconds and its peak resident memory.
Both paths must give the same arrays (compared by digest).

    python benchmarks/bench_native_judge.py i track --data-dir /tmp/bench
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from datagen import CASES, ensure_case

#: One measurement, in a child process: its result is one JSON line.
CHILD = """
import hashlib, json, resource, sys, time
from irscale.core.judge import build_judged_rankings
from irscale.io.native_trec import judge_files
import irscale
path, qrels, runs = sys.argv[1], sys.argv[2], sys.argv[3:]
start = time.perf_counter()
if path == "native":
    jr = judge_files(qrels, runs)
else:
    jr = build_judged_rankings(irscale.read_qrels(qrels), [irscale.read_run(r) for r in runs])
seconds = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_SELF)
digest = hashlib.sha256(b"".join(a.tobytes() for a in (jr.rel, jr.offsets, jr.rel_levels,
                                                         jr.ranking_topic))).hexdigest()
print(json.dumps({"seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime,
                  "peak_mb": usage.ru_maxrss / 1024, "digest": digest}))
"""


def measure(path: str, qrels: Path, runs: list[Path]) -> dict:
    """One path's measurement in a fresh process."""
    out = subprocess.run([sys.executable, "-c", CHILD, path, str(qrels), *map(str, runs)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", default=["i"], metavar="CASE")
    parser.add_argument("--data-dir", default=str(Path(__file__).parent / "data"))
    parser.add_argument("--repeat", type=int, default=3, help="measurements of each path")
    args = parser.parse_args(argv)
    for name in args.cases:
        qrels, run = ensure_case(CASES[name], Path(args.data_dir))
        rows = {path: [measure(path, qrels, [run]) for _ in range(args.repeat)]
                for path in ("native", "python")}
        digests = {row["digest"] for found in rows.values() for row in found}
        print(f"case {name}: the same judged rankings: {len(digests) == 1}")
        for path, found in rows.items():
            best = min(found, key=lambda row: row["seconds"])
            print(f"  {path:7} {best['seconds']:6.2f} s (best of {len(found)}), "
                  f"{best['cpu']:6.2f} CPU s, peak {best['peak_mb']:7.0f} MB")


if __name__ == "__main__":
    main()
