"""Benchmark of the comparison across collections against statsmodels, side by side.

Data (generated, seeded): 50 collections × 50 topics × 20 systems (190 pairs), each
score a system effect plus a collection, system × collection, topic and residual term.

1. DerSimonian–Laird meta-analysis of every pair over the 50 collections: irscale's
   :func:`irscale.stats.random_effects` (all pairs at once) against statsmodels'
   ``combine_effects(method_re="dl")`` called pair by pair (the pooled effects checked
   equal where τ² > 0);
2. the mixed model with the collection as a factor (REML): irscale's
   :func:`irscale.stats.collection_model.collection_model` against statsmodels'
   ``MixedLM`` (the collection as its group, a random intercept, system × collection and
   topic as variance components; the variance components compared);
3. for information, the whole :func:`irscale.stats.across_collections` (1,000 bootstrap
   samples, the meta-analyses and the mixed model).

Every job runs in a fresh Python process (``--worker JOB``); the parent records its CPU
time (user + system, ``wait4``) and peak resident memory (``ru_maxrss``). Times inside a
job are compute times (data built, modules imported and, for the meta-analyses, one
first call made before the clock starts: irscale imports scipy.stats lazily).

    python benchmarks/bench_across_collections.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
COLLECTIONS, TOPICS, SYSTEMS = 50, 50, 20
JOBS = ("meta_irscale", "meta_statsmodels", "mixed_irscale", "mixed_statsmodels", "whole")


def _arrays():
    import numpy as np

    gen = np.random.default_rng(80)
    effects = np.linspace(0.0, 0.1, SYSTEMS)
    return [0.4 + gen.normal(0, 0.05) + gen.normal(0, 0.1, (TOPICS, 1)) + effects
            + gen.normal(0, 0.03, (1, SYSTEMS)) + gen.normal(0, 0.05, (TOPICS, SYSTEMS))
            for _ in range(COLLECTIONS)]


def _effects():
    """Every pair's per-collection mean difference and its variance (pairs × k)."""
    import numpy as np

    arrays = _arrays()
    a, b = np.triu_indices(SYSTEMS, 1)
    d = np.array([(x[:, a] - x[:, b]).mean(axis=0) for x in arrays]).T
    v = np.array([(x[:, a] - x[:, b]).var(axis=0, ddof=1) / TOPICS for x in arrays]).T
    return d, v


def job_meta_irscale() -> dict:
    from irscale.stats import random_effects

    d, v = _effects()
    random_effects(d[:1], v[:1], estimator="dl")  # its lazy imports, before the clock
    start = time.perf_counter()
    result = random_effects(d, v, estimator="dl")
    return {"seconds": time.perf_counter() - start, "effects": list(map(float, result.effect)),
            "tau2": list(map(float, result.tau2))}


def job_meta_statsmodels() -> dict:
    from statsmodels.stats.meta_analysis import combine_effects

    d, v = _effects()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        combine_effects(d[0], v[0], method_re="dl")  # as irscale's: a first call untimed
        start = time.perf_counter()
        results = [combine_effects(d[i], v[i], method_re="dl") for i in range(len(d))]
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "effects": [float(r.mean_effect_re) for r in results],
            "tau2": [float(r.tau2) for r in results]}


def job_mixed_irscale() -> dict:
    from irscale.stats.collection_model import collection_model

    arrays = _arrays()
    start = time.perf_counter()
    model = collection_model(arrays, tuple(f"s{i}" for i in range(SYSTEMS)), alpha=0.05)
    return {"seconds": time.perf_counter() - start,
            "components": [value for _, value in model.components]}


def job_mixed_statsmodels() -> dict:
    import pandas as pd
    import statsmodels.formula.api as smf

    arrays = _arrays()
    frame = pd.DataFrame([(c, t, f"s{s:02d}", x[t, s]) for c, x in enumerate(arrays)
                          for t in range(TOPICS) for s in range(SYSTEMS)],
                         columns=["collection", "topic", "system", "score"])
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = smf.mixedlm("score ~ 0 + C(system)", frame, groups="collection",
                          re_formula="1", vc_formula={"sc": "0 + C(system)",
                                                      "topic": "0 + C(topic)"}
                          ).fit(reml=True, method=["lbfgs"])
    return {"seconds": time.perf_counter() - start,
            "components": [float(fit.cov_re.iloc[0, 0]), *map(float, fit.vcomp),
                           float(fit.scale)]}


def job_whole() -> dict:
    from irscale.core import ScoreMatrix
    from irscale.stats import across_collections

    matrices = {f"c{c}": ScoreMatrix.from_array(
        x, topics=[str(t) for t in range(TOPICS)], systems=[f"s{s}" for s in range(SYSTEMS)],
        measures=["ap"]) for c, x in enumerate(_arrays())}
    start = time.perf_counter()
    across_collections(matrices, samples=1000, rng=1)
    return {"seconds": time.perf_counter() - start}


def _run(job: str) -> dict:
    """``job`` in a fresh process: its own result, CPU time and peak memory."""
    process = subprocess.Popen([sys.executable, __file__, "--worker", job],
                               stdout=subprocess.PIPE, text=True)
    out = process.stdout.read() if process.stdout else ""
    _, status, usage = os.wait4(process.pid, 0)
    if status:
        raise SystemExit(f"job {job} failed ({status})")
    result = json.loads(out)
    result["cpu"] = usage.ru_utime + usage.ru_stime
    result["peak_mib"] = usage.ru_maxrss / 1024
    return result


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        print(json.dumps(globals()[f"job_{sys.argv[2]}"]()))
        return 0
    import numpy as np

    results = {job: _run(job) for job in JOBS}
    ours, theirs = results["meta_irscale"], results["meta_statsmodels"]
    positive = np.array(theirs["tau2"]) > 0
    agree = np.allclose(np.array(ours["effects"])[positive],
                        np.array(theirs["effects"])[positive], rtol=1e-9)
    gap = np.max(np.abs(np.array(results["mixed_irscale"]["components"])
                        / np.array(results["mixed_statsmodels"]["components"]) - 1))
    print(f"{COLLECTIONS} collections × {TOPICS} topics × {SYSTEMS} systems "
          f"({SYSTEMS * (SYSTEMS - 1) // 2} pairs); OPENBLAS_NUM_THREADS="
          f"{os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}")
    print(f"{'job':<20}{'compute s':>11}{'CPU s':>9}{'peak MiB':>10}")
    for job, result in results.items():
        print(f"{job:<20}{result['seconds']:>11.4f}{result['cpu']:>9.2f}"
              f"{result['peak_mib']:>10.0f}")
    print(f"DL meta-analysis: statsmodels / irscale = "
          f"{theirs['seconds'] / ours['seconds']:.1f}× (pooled effects equal where τ² > 0: "
          f"{agree})")
    print(f"mixed model: statsmodels / irscale = "
          f"{results['mixed_statsmodels']['seconds'] / results['mixed_irscale']['seconds']:.1f}×"
          f" (largest relative gap of the variance components: {gap:.1e})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
