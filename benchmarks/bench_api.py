"""The API and ``compare`` against what users would otherwise run, side by side.

Three rows, each tool's processes interleaved with its peer's in one loop (``--repeat``
rounds; the median is reported), with CPU time (user + system of the process), wall time
and peak memory (the process's maximum RSS), and the machine's load before and after:

* ``api-fresh``: a whole script in a fresh process: dicts of 1,000 topics × 100 documents
  built in plain Python, then ``import irscale``, ``irscale.evaluate(qrels, run,
  measures=[5 measures])`` and the means printed (``.mean()``), against the same script
  with pytrec_eval-terrier (``RelevanceEvaluator(qrels, measures).evaluate(run)`` and the
  means over topics in Python).
* ``api-warm``: the same calls on 100 topics × 100 documents, in a process that made them
  once already (imports and first-call costs excluded): the median CPU time of one call
  (``time.process_time`` around it), irscale's ``evaluate(...).mean().as_dict()`` against
  pytrec_eval's evaluation and means.
* ``compare``: ``irscale compare -m map --test t --correction holm`` of 10 CLEF eHealth 2016
  runs (``../shared/data/clef2016-task2``; skipped when absent) against ``irscale eval -m
  map`` of the same runs, and beside them the floor ``python -c "import numpy,
  scipy.special"`` (what a t-test with Holm's correction needs): ``compare``'s own cost is
  its CPU beyond the floor, reported as a ratio to ``eval``.

``--callgrind`` also counts the instructions of every process under ``valgrind
--tool=callgrind`` (one run each; independent of the machine's load, so the ratios of a
busy machine hold). ``--fresh-venv`` runs every process in a virtual environment built for
the run: a wheel of this tree (``pip wheel . -w WORK/wheels --no-deps``: maturin compiles
the engine, minutes), ``python -m venv WORK/venv`` and ``pip install`` of the wheel, its
dependencies and pytrec-eval-terrier (pip takes them from its cache where it holds them,
else from the registry; ``--wheel PATH``: a wheel built already), so that no ``.pth`` file
or editable install of the machine changes what a user's first script imports.
``--python PATH``: the interpreter of an environment made otherwise. Without either, the
processes run a byte-compiled copy of this tree's ``src`` (the engine built beside it).

No timing is asserted anywhere; ``tests/test_api_means.py`` and
``tests/test_startup_modules.py`` check what the API and ``compare`` import.

    python benchmarks/bench_api.py [--rows api-fresh api-warm compare] [--repeat 5]
                                   [--callgrind] [--fresh-venv [--wheel PATH] | --python PATH]
                                   [--work DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import bench_eval  # noqa: E402

CLEF = ROOT.parent / "shared" / "data" / "clef2016-task2"
#: The five measures, as each tool names them.
IRSCALE_MEASURES = ["map", "P@10", "ndcg_cut.10", "recip_rank", "recall@100"]
PYTREC_MEASURES = ["map", "P_10", "ndcg_cut_10", "recip_rank", "recall_100"]

#: The dicts of ``TOPICS`` topics × 100 documents (half judged, degrees 0-2), in plain
#: Python, seeded.
DICTS = textwrap.dedent("""
    import random
    rng = random.Random(0)
    qrels = {f"q{t}": {f"d{d}": rng.randint(0, 2) for d in range(0, 100, 2)}
             for t in range(TOPICS)}
    run = {f"q{t}": {f"d{d}": rng.random() for d in range(100)} for t in range(TOPICS)}
""")
#: One call of each tool: the five measures' means over topics.
CALLS = {
    "irscale": textwrap.dedent(f"""
        import irscale
        def call():
            return irscale.evaluate(qrels, run, measures={IRSCALE_MEASURES!r}).mean()
    """),
    "pytrec_eval": textwrap.dedent(f"""
        import pytrec_eval
        def call():
            found = pytrec_eval.RelevanceEvaluator(qrels, {set(PYTREC_MEASURES)!r}
                                                   ).evaluate(run)
            return {{m: sum(v[m] for v in found.values()) / len(found)
                    for m in {PYTREC_MEASURES!r}}}
    """),
}
#: The fresh script: build, import, one call, print.
FRESH = "TOPICS = 1000\nDICTS\nCALL\nprint(call())\n"
#: The warm script: build, one call, then ``--calls`` timed calls; prints their median
#: CPU seconds as JSON.
WARM = "TOPICS = 100\nDICTS\nCALL\n" + textwrap.dedent("""
    import json, statistics, sys, time
    call()
    spent = []
    for _ in range(int(sys.argv[1])):
        start = time.process_time()
        call()
        spent.append(time.process_time() - start)
    print(json.dumps({"call_cpu_s": statistics.median(spent)}))
""")


def script(kind: str, tool: str) -> str:
    """The script of a ``kind`` (``fresh``, ``warm``) process of ``tool``."""
    text = FRESH if kind == "fresh" else WARM
    return text.replace("DICTS", DICTS).replace("CALL", CALLS[tool])


def jobs(rows: list[str], work: Path, python: str, calls: int) -> list[tuple[str, str, list[str]]]:
    """``(row, label, command)`` of every process, peers next to each other."""
    found = []
    for kind in ("fresh", "warm"):
        if f"api-{kind}" not in rows:
            continue
        for tool in CALLS:
            path = work / f"{kind}_{tool}.py"
            path.write_text(script(kind, tool))
            found.append((f"api-{kind}", tool, [python, str(path),
                                                *([str(calls)] if kind == "warm" else [])]))
    if "compare" in rows:
        if not CLEF.is_dir():
            print(f"compare: skipped ({CLEF} absent)", flush=True)
        else:
            qrels = str(CLEF / "task2.qrels")
            runs = [str(p) for p in sorted((CLEF / "runs").glob("*.txt"))[:10]]
            cli = [python, "-m", "irscale.cli.main"]
            found += [
                ("compare", "floor: import numpy, scipy.special",
                 [python, "-c", "import numpy, scipy.special"]),
                ("compare", "irscale eval -m map", [*cli, "eval", "-m", "map", qrels, *runs]),
                ("compare", "irscale compare -m map --test t --correction holm",
                 [*cli, "compare", "-m", "map", "--test", "t", "--correction", "holm", qrels,
                  *runs]),
            ]
    return found


def measure(found: list[tuple[str, str, list[str]]], repeat: int, work: Path
            ) -> dict[tuple[str, str], dict[str, float]]:
    """Every process ``repeat`` times, the rounds interleaved; medians."""
    samples: dict[tuple[str, str], list[dict]] = {(row, label): [] for row, label, _ in found}
    for _ in range(repeat):
        for row, label, command in found:
            log = work / "job.log"
            result = bench_eval.run_job(command, 600, log)
            if result["status"] != "ok":
                raise SystemExit(f"{label} failed:\n{bench_eval.tail(log)}")
            if row == "api-warm":
                result["call_cpu_s"] = json.loads(log.read_text().splitlines()[-1]
                                                  )["call_cpu_s"]
            samples[row, label].append(result)
    return {key: {name: statistics.median(r[name] for r in runs) for name in runs[0]
                  if isinstance(runs[0][name], float)}
            for key, runs in samples.items()}


def callgrind(found: list[tuple[str, str, list[str]]]) -> dict[tuple[str, str], int]:
    """Instructions of each process under callgrind (one run each)."""
    counts = {}
    for row, label, command in found:
        done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                               *command], capture_output=True, text=True, cwd=ROOT,
                              env=bench_eval.CHILD_ENV, check=True)
        counts[row, label] = int(done.stderr.rsplit("Collected :", 1)[1].split()[0])
    return counts


def report(results: dict, counts: dict) -> None:
    """The rows, each tool beside its peer, and the ratios."""
    def line(key: tuple[str, str], base: tuple[str, str] | None, extra: str = "") -> None:
        r = results[key]
        cpu = r.get("call_cpu_s", r["cpu_s"])
        text = (f"  {key[1]:<52} cpu {cpu * 1000:9.1f} ms  wall {r['wall_s']:6.2f} s  "
                f"peak {r['peak_mb']:7.1f} MB")
        if key in counts:
            text += f"  {counts[key] / 1e6:8.0f} M instr"
        if base is not None:
            b = results[base]
            text += f"  cpu ×{cpu / b.get('call_cpu_s', b['cpu_s']):.2f}"
            if key in counts and base in counts:
                text += f"  instr ×{counts[key] / counts[base]:.2f}"
        print(text + extra)

    for row in ("api-fresh", "api-warm"):
        if (row, "irscale") in results:
            print(f"{row}:" + (" (CPU of one warm call)" if row == "api-warm" else ""))
            line((row, "pytrec_eval"), None)
            line((row, "irscale"), (row, "pytrec_eval"))
    keys = [key for key in results if key[0] == "compare"]
    if keys:
        floor, evaluation, comparison = keys
        print("compare (10 CLEF runs):")
        line(floor, None)
        line(evaluation, None)
        line(comparison, evaluation)
        own = results[comparison]["cpu_s"] - results[floor]["cpu_s"]
        text = (f"  compare's CPU beyond the floor: {own:.3f} s, × "
                f"{own / results[evaluation]['cpu_s']:.2f} eval -m map")
        if counts:
            beyond = counts[comparison] - counts[floor]
            text += (f"; instructions beyond the floor {beyond / 1e6:.0f} M, × "
                     f"{beyond / counts[evaluation]:.2f} eval -m map")
        print(text)


def fresh_venv(work: Path, wheel: Path | None = None) -> str:
    """A virtual environment with this tree's wheel (``wheel``: one built already),
    its dependencies and pytrec-eval-terrier installed; its interpreter. pip takes the
    packages from its cache where it holds them, else from the registry."""
    venv = work / "venv"
    if wheel is None:
        wheels = work / "wheels"
        subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "-w", str(wheels),
                        "--no-deps"], check=True)
        wheel = sorted(wheels.glob("irscale-*.whl"))[-1]
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "-q", str(wheel), "pytrec-eval-terrier"],
                   check=True)
    return python


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", nargs="+", default=["api-fresh", "api-warm", "compare"],
                        choices=["api-fresh", "api-warm", "compare"])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--calls", type=int, default=50,
                        help="timed calls of each warm process")
    parser.add_argument("--callgrind", action="store_true")
    parser.add_argument("--fresh-venv", action="store_true")
    parser.add_argument("--wheel", type=Path, default=None,
                        help="with --fresh-venv: this wheel of irscale, not one built now")
    parser.add_argument("--python", default=None,
                        help="the interpreter of every process: one of a virtual environment "
                             "in which irscale and pytrec-eval-terrier are installed")
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="bench_api-"))
    work.mkdir(parents=True, exist_ok=True)
    if args.fresh_venv or args.python:
        python = args.python or fresh_venv(work, args.wheel)
        bench_eval.CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        state = (f"installed for {python}" if args.python else
                 f"wheel {args.wheel.name}" if args.wheel else
                 "wheel of " + bench_eval.source_state())
    else:
        python = sys.executable
        state = bench_eval.take_snapshot(work)
    print(f"irscale {state}; {bench_eval.machine_description()}", flush=True)
    print(f"load before: {bench_eval.load_average()}", flush=True)
    found = jobs(args.rows, work, python, args.calls)
    results = measure(found, args.repeat, work)
    counts = callgrind(found) if args.callgrind else {}
    print(f"load after: {bench_eval.load_average()}; median of {args.repeat} rounds")
    report(results, counts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
