"""Benchmark of irscale's resampling tests against straightforward Python/scipy loops.

On the TREC-8 ad hoc AP matrix (50 topics × 129 systems, 8,256 pairs;
``../shared/data/urbano-sigir2019/adhoc8_ap.csv``), side by side in one run:

1. randomised Tukey HSD (Sakai 2014, Fig. 15) with B = 100,000;
2. paired randomisation tests with B = 10,000 for all 8,256 pairs;
3. Sakai's paired studentised bootstrap test (Fig. 11–12) with B = 1,000 for all pairs.

Every job runs in a fresh Python process (``--worker JOB``); the parent records the
process's peak resident memory (``ru_maxrss`` from ``wait4``). Times are compute times
(data loaded and modules imported before the clock starts; numba's compilation of ranx is
excluded and reported). Loop baselines are timed on a subset of samples or pairs and
extrapolated linearly to the full job — the output says so for each line.

    python benchmarks/bench_stats.py [--markdown docs/benchmarks-stats.md] [--quick]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = ROOT.parent / "shared" / "data" / "urbano-sigir2019" / "adhoc8_ap.csv"
SAMPLES = {"rtukey": 100_000, "randomization": 10_000, "bootstrap": 1_000}
SPEED_TARGET = 20.0
RTUKEY_SECONDS_TARGET = 30.0
BEGIN = "<!-- BEGIN GENERATED: benchmarks/bench_stats.py -->"
END = "<!-- END GENERATED -->"


# ============================================================================ jobs
def _load():
    import numpy as np
    import pandas as pd

    return np.ascontiguousarray(pd.read_csv(DATA).to_numpy(dtype=np.float64))


def _pairs(k: int):
    import numpy as np

    return np.triu_indices(k, k=1)


def job_rtukey_irscale(quick: bool) -> dict:
    from irscale.stats import randomized_tukey_hsd

    values = _load()
    start = time.perf_counter()
    result = randomized_tukey_hsd(values, samples=SAMPLES["rtukey"], rng=1)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "done": 1.0, "detail": f"{result.n_significant} significant"}


def job_rtukey_irscale_1(quick: bool) -> dict:
    from irscale.stats import randomized_tukey_hsd

    values = _load()
    start = time.perf_counter()
    result = randomized_tukey_hsd(values, samples=SAMPLES["rtukey"], rng=1, workers=1)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "done": 1.0,
            "detail": f"{result.n_significant} significant, identical to the default"}


def job_rtukey_loop_samples(quick: bool) -> dict:
    """Loop over samples; rows permuted by Generator.permuted, pairs compared at once."""
    import numpy as np

    values = _load()
    rng = np.random.default_rng(1)
    means = values.mean(axis=0)
    i, j = _pairs(values.shape[1])
    observed = np.abs(means[i] - means[j])
    subset = 2_000 if quick else 10_000
    count = np.zeros(len(observed))
    start = time.perf_counter()
    for _ in range(subset):
        permuted = rng.permuted(values, axis=1)
        col = permuted.mean(axis=0)
        count += (col.max() - col.min()) >= observed
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "done": subset / SAMPLES["rtukey"]}


def job_rtukey_loop_rows(quick: bool) -> dict:
    """Fig. 15 with a loop over samples and topics (rng.permutation per row)."""
    import numpy as np

    values = _load()
    rng = np.random.default_rng(1)
    means = values.mean(axis=0)
    i, j = _pairs(values.shape[1])
    observed = np.abs(means[i] - means[j])
    subset = 500 if quick else 2_000
    count = np.zeros(len(observed))
    start = time.perf_counter()
    for _ in range(subset):
        permuted = np.array([rng.permutation(row) for row in values])
        col = permuted.mean(axis=0)
        count += (col.max() - col.min()) > observed
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "done": subset / SAMPLES["rtukey"]}


def job_rtukey_literal(quick: bool) -> dict:
    """Fig. 15 transcribed literally: loops over samples, topics and pairs."""
    import numpy as np

    values = _load()
    rng = np.random.default_rng(1)
    n, m = values.shape
    means = values.mean(axis=0).tolist()
    pairs = [(a, b) for a in range(m) for b in range(a + 1, m)]
    count = dict.fromkeys(pairs, 0)
    subset = 5 if quick else 20
    start = time.perf_counter()
    for _ in range(subset):
        permuted = np.array([rng.permutation(values[t]) for t in range(n)])
        col = permuted.mean(axis=0)
        spread = col.max() - col.min()
        for a, b in pairs:
            if spread > abs(means[a] - means[b]):
                count[(a, b)] += 1
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "done": subset / SAMPLES["rtukey"]}


def job_randomization_irscale(quick: bool) -> dict:
    from irscale.stats import pairwise_tests

    values = _load()
    start = time.perf_counter()
    result = pairwise_tests(values, "randomization", correction="none",
                            samples=SAMPLES["randomization"], rng=1)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "done": 1.0, "detail": f"{result.n_significant} p <= 0.05"}


def job_randomization_scipy(quick: bool) -> dict:
    """scipy.stats.permutation_test (paired, vectorised over resamples) pair by pair."""
    import numpy as np
    from scipy import stats

    values = _load()
    i, j = _pairs(values.shape[1])
    subset = 10 if quick else 40
    rng = np.random.default_rng(1)

    def mean_difference(x, y, axis):
        return np.mean(x - y, axis=axis)

    start = time.perf_counter()
    for a, b in zip(i[:subset], j[:subset], strict=True):
        stats.permutation_test((values[:, a], values[:, b]), mean_difference,
                               permutation_type="samples", vectorized=True,
                               n_resamples=SAMPLES["randomization"], random_state=rng)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "done": subset / len(i)}


def _numpy_pair_loop(test_one_pair, quick: bool) -> dict:
    """``test_one_pair(x, y, rng)`` for the first 1,000 pairs (200 with ``quick``): the
    loops over pairs, each vectorised over the B samples, timed on that subset."""
    import numpy as np

    values = _load()
    i, j = _pairs(values.shape[1])
    rng = np.random.default_rng(1)
    subset = 200 if quick else 1_000
    start = time.perf_counter()
    for a, b in zip(i[:subset], j[:subset], strict=True):
        test_one_pair(values[:, a], values[:, b], rng)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "done": subset / len(i)}


def job_randomization_loop(quick: bool) -> dict:
    """The sign-flip test pair by pair, each vectorised over the B sign vectors (numpy)."""
    import numpy as np

    def test_one_pair(x, y, rng):
        d = x - y
        signs = 1.0 - 2.0 * rng.integers(0, 2, size=(SAMPLES["randomization"], len(d)))
        np.mean(np.abs(signs @ d) >= abs(d.sum()))

    return _numpy_pair_loop(test_one_pair, quick)


def job_randomization_ranx(quick: bool) -> dict:
    """ranx's fisher_randomization_test (numba, parallel) pair by pair."""
    import numpy as np
    from ranx.statistical_tests import fisher_randomization_test

    values = _load()
    i, j = _pairs(values.shape[1])
    compile_start = time.perf_counter()
    fisher_randomization_test(values[:, 0], values[:, 1], 10, 0.05, 1)
    compile_seconds = time.perf_counter() - compile_start
    subset = 50 if quick else 200
    start = time.perf_counter()
    for a, b in zip(i[:subset], j[:subset], strict=True):
        fisher_randomization_test(np.ascontiguousarray(values[:, a]),
                                  np.ascontiguousarray(values[:, b]),
                                  SAMPLES["randomization"], 0.05, 42)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "done": subset / len(i),
            "detail": f"numba compilation {compile_seconds:.1f} s excluded"}


def job_bootstrap_irscale(quick: bool) -> dict:
    from irscale.stats import pairwise_tests

    values = _load()
    start = time.perf_counter()
    result = pairwise_tests(values, "bootstrap", correction="none",
                            samples=SAMPLES["bootstrap"], rng=1)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "done": 1.0, "detail": f"{result.n_significant} p <= 0.05"}


def job_bootstrap_loop(quick: bool) -> dict:
    """Fig. 11–12 pair by pair, each vectorised over the B samples (numpy indexing)."""
    import numpy as np

    def test_one_pair(x, y, rng):
        z = x - y
        n = len(z)
        t_z = z.mean() / (z.std(ddof=1) / np.sqrt(n))
        w = z - z.mean()
        sample = w[rng.integers(0, n, size=(SAMPLES["bootstrap"], n))]
        with np.errstate(divide="ignore", invalid="ignore"):
            t_b = sample.mean(axis=1) / (sample.std(axis=1, ddof=1) / np.sqrt(n))
        np.mean(np.abs(t_b) >= abs(t_z))

    return _numpy_pair_loop(test_one_pair, quick)


def job_bootstrap_literal(quick: bool) -> dict:
    """Fig. 11–12 transcribed literally: a Python loop per sample and per topic."""
    import math
    import random

    values = _load().tolist()
    n, m = len(values), len(values[0])
    random.seed(1)
    subset = 1 if quick else 3

    def t_stat(z):
        mean = sum(z) / n
        sd = math.sqrt(sum((v - mean) ** 2 for v in z) / (n - 1))
        return mean / (sd / math.sqrt(n)) if sd > 0 else 0.0

    pairs = [(a, b) for a in range(m) for b in range(a + 1, m)][:subset]
    start = time.perf_counter()
    for a, b in pairs:
        z = [row[a] - row[b] for row in values]
        mean = sum(z) / n
        w = [v - mean for v in z]
        observed = abs(t_stat(z))
        count = 0
        for _ in range(SAMPLES["bootstrap"]):
            sample = [w[random.randrange(n)] for _ in range(n)]
            if abs(t_stat(sample)) >= observed:
                count += 1
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "done": subset / (m * (m - 1) // 2)}


JOBS = {
    "rtukey-irscale": ("rtukey", "irscale randomized_tukey_hsd (default: one worker per core)",
                       job_rtukey_irscale),
    "rtukey-irscale-1": ("rtukey", "irscale randomized_tukey_hsd, workers=1",
                         job_rtukey_irscale_1),
    "rtukey-loop-samples": ("rtukey", "loop over samples (Generator.permuted rows)",
                            job_rtukey_loop_samples),
    "rtukey-loop-rows": ("rtukey", "loop over samples and topics (Fig. 15 rows)",
                         job_rtukey_loop_rows),
    "rtukey-literal": ("rtukey", "Fig. 15 literally (loops over samples, topics, pairs)",
                       job_rtukey_literal),
    "randomization-irscale": ("randomization", "irscale pairwise_tests('randomization')",
                              job_randomization_irscale),
    "randomization-scipy": ("randomization", "scipy.stats.permutation_test per pair",
                            job_randomization_scipy),
    "randomization-loop": ("randomization", "numpy loop over pairs (vectorised over B)",
                           job_randomization_loop),
    "randomization-ranx": ("randomization", "ranx fisher_randomization_test per pair",
                           job_randomization_ranx),
    "bootstrap-irscale": ("bootstrap", "irscale pairwise_tests('bootstrap')",
                          job_bootstrap_irscale),
    "bootstrap-loop": ("bootstrap", "numpy loop over pairs (vectorised over B)",
                       job_bootstrap_loop),
    "bootstrap-literal": ("bootstrap", "Fig. 11–12 literally (pure Python loops)",
                          job_bootstrap_literal),
}
#: The straightforward loop of each task (the yardstick of the 20× target): the figure of
#: Sakai (2014) transcribed as written, or scipy called pair by pair.
STRAIGHTFORWARD = {
    "rtukey": "rtukey-literal",
    "randomization": "randomization-scipy",
    "bootstrap": "bootstrap-literal",
}
#: The loop of each task vectorised with numpy (the yardstick for peak memory).
NUMPY_LOOP = {
    "rtukey": "rtukey-loop-samples",
    "randomization": "randomization-loop",
    "bootstrap": "bootstrap-loop",
}
TASK_LABEL = {
    "rtukey": "randomised Tukey HSD, B = 100,000, 8,256 pairs",
    "randomization": "paired randomisation tests, B = 10,000, all 8,256 pairs",
    "bootstrap": "Sakai's paired bootstrap test, B = 1,000, all 8,256 pairs",
}


# ============================================================================ parent side
def run_job(name: str, quick: bool) -> dict:
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", name]
    if quick:
        command.append("--quick")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep
               + os.environ.get("PYTHONPATH", ""))
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=env, cwd=ROOT)
    _, status, usage = os.wait4(process.pid, 0)
    out = process.stdout.read().decode()
    err = process.stderr.read().decode()
    if os.waitstatus_to_exitcode(status) != 0:
        return {"error": err.strip().splitlines()[-1] if err.strip() else "failed"}
    result = json.loads(out.strip().splitlines()[-1])
    result["peak_mb"] = usage.ru_maxrss / 1024.0  # Linux: kilobytes
    result["full_seconds"] = result["seconds"] / result["done"]
    return result


def versions() -> str:
    from importlib import metadata

    names = ("numpy", "scipy", "ranx", "numba")
    found = []
    for name in names:
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} (not installed)")
    return ", ".join(found)


def report(results: dict[str, dict]) -> str:
    lines = [
        f"Run {dt.datetime.now().isoformat(timespec='minutes')} on {platform.machine()}, "
        f"{os.cpu_count()} CPU core(s), Python {platform.python_version()}, {versions()}.",
        "",
        "| task | implementation | measured on | time (s, full job) | ratio | peak RSS (MB) |",
        "|---|---|---|---:|---:|---:|",
    ]
    verdicts = []
    for task, label in TASK_LABEL.items():
        ours = results.get(f"{task}-irscale", {})
        for name, (job_task, description, _) in JOBS.items():
            if job_task != task:
                continue
            r = results.get(name, {})
            if "error" in r or not r:
                lines.append(f"| {label} | {description} | failed: {r.get('error', 'not run')} "
                             "| | | |")
                continue
            scope = "full job" if r["done"] >= 1 else (
                f"{r['done']:.2%} of it, extrapolated")
            ratio = ("1 (reference)" if name == f"{task}-irscale"
                     else f"{r['full_seconds'] / ours['full_seconds']:.1f}×"
                     if ours.get("full_seconds") else "")
            detail = f" ({r['detail']})" if r.get("detail") else ""
            lines.append(f"| {label} | {description}{detail} | {scope} | "
                         f"{r['full_seconds']:.2f} | {ratio} | {r['peak_mb']:.0f} |")
        baselines = [results[n]["full_seconds"] for n, (t, _, _) in JOBS.items()
                     if t == task and "irscale" not in n and "full_seconds" in results.get(n, {})]
        mine = ours.get("full_seconds")
        plain = results.get(STRAIGHTFORWARD[task], {}).get("full_seconds")
        if mine and plain:
            ratio = plain / mine
            verdict = "meets" if ratio >= SPEED_TARGET else "MISSES"
            fastest = min(baselines) / mine
            verdicts.append(f"* {label}: {ratio:.1f}× the straightforward loop — {verdict} "
                            f"the {SPEED_TARGET:.0f}× target ({fastest:.1f}× the fastest "
                            "hand-vectorised loop).")
        loop = results.get(NUMPY_LOOP[task], {})
        if ours.get("peak_mb") and loop.get("peak_mb"):
            verdicts.append(f"* {label}: peak {ours['peak_mb']:.0f} MB against "
                            f"{loop['peak_mb']:.0f} MB for the numpy loop "
                            f"({ours['peak_mb'] / loop['peak_mb']:.2f}×; both processes "
                            "import pandas, irscale also scipy.stats).")
        if task == "rtukey" and ours.get("full_seconds"):
            ok = ours["full_seconds"] < RTUKEY_SECONDS_TARGET
            verdicts.append(f"* randomised Tukey HSD in {ours['full_seconds']:.1f} s — "
                            f"{'meets' if ok else 'MISSES'} the "
                            f"{RTUKEY_SECONDS_TARGET:.0f} s target.")
    return "\n".join([*lines, "", *verdicts]) + "\n"


def write_markdown(path: Path, body: str) -> None:
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    block = f"{BEGIN}\n{body}{END}"
    if BEGIN in text and END in text:
        text = text[: text.index(BEGIN)] + block + text[text.index(END) + len(END):]
    else:
        text = text + ("\n" if text else "") + block + "\n"
    path.write_text(text, encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", choices=sorted(JOBS), help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true",
                        help="smaller subsets for the loop baselines (a faster, noisier run)")
    parser.add_argument("--jobs", nargs="*", default=list(JOBS), choices=list(JOBS))
    parser.add_argument("--markdown", type=Path, default=None,
                        help="write the results table into this Markdown file")
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(JOBS[args.worker][2](args.quick)))  # one JSON line for the parent
        return 0
    if not DATA.exists():
        print(f"data not found: {DATA}", file=sys.stderr)
        return 1
    results = {}
    for name in args.jobs:
        results[name] = run_job(name, args.quick)
        r = results[name]
        shown = r.get("error") or (f"{r['full_seconds']:.2f} s (full job"
                                   f"{'' if r['done'] >= 1 else ', extrapolated'}), "
                                   f"peak {r['peak_mb']:.0f} MB")
        print(f"{name:24s} {shown}", flush=True)
    body = report(results)
    print()
    print(body)
    if args.markdown:
        write_markdown(args.markdown, body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
