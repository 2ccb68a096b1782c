"""Benchmark of ndeval's diversity measures: irscale against pyndeval and ir_measures.

Case: 50 topics × 100 runs × 1,000 documents, 3–8 intents per topic, diversity
qrels with graded and zero judgments (generated once into ``benchmarks/data/``,
git-ignored). For every tool a fresh Python process reads the qrels file and the 100 run
files and computes the per-topic values of ndeval's 21 columns (ERR-IA, nERR-IA,
alpha-DCG, alpha-nDCG @5/10/20, NRBP, nNRBP, MAP-IA, P-IA and strec @5/10/20), writing
them to a file; the parent records the wall time (interpreter start-up and imports
included), the CPU time (user + system, all threads) and the peak resident memory
(``ru_maxrss``) of the child, side by side in one run. Repetitions go round the tools
(irscale, pyndeval, ir_measures, irscale, ...) so that a machine shared with other work
loads every tool alike; the table gives medians, the load average before and after.

* irscale: ``evaluate_diversity(qrels_path, run_paths, "ndeval")`` (ranks by the rank
  column, as ndeval);
* pyndeval: the qrels and runs read line by line in Python (its API takes tuples), then
  ``RelevanceEvaluator(...).evaluate(run)`` per run;
* ir_measures: ``read_trec_qrels`` / ``read_trec_run`` and ``iter_calc`` over its ndeval
  measures (pyndeval underneath; ERR-IA, nERR-IA, P-IA and MAP-IA at α = 0.5).

    python benchmarks/bench_diversity.py [--tools irscale pyndeval ir_measures]
                                         [--repeat 3] [--runs 100]
                                         [--markdown docs/benchmarks-diversity.md]

``--runs N`` evaluates the first N run files only (the case keeps its 100).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "diversity_50x100x1000"
TOPICS, RUNS, DOCS = 50, 100, 1000

COLUMNS = (
    [f"{m}@{k}" for m in ("ERR-IA", "nERR-IA", "alpha-DCG", "alpha-nDCG") for k in (5, 10, 20)]
    + ["NRBP", "nNRBP", "MAP-IA"]
    + [f"{m}@{k}" for m in ("P-IA", "strec") for k in (5, 10, 20)])


def generate(folder: Path, seed: int = 12) -> None:
    """Qrels (300 judged documents per topic, 3-8 intents, judgments 0/1/2 per intent) and
    100 runs of 1,000 documents per topic (half judged documents, distinct ranks)."""
    if (folder / "done").exists():
        return
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    judged: dict[int, list[str]] = {}
    with open(folder / "qrels.txt", "w") as out:
        for t in range(1, TOPICS + 1):
            intents = rng.randint(3, 8)
            docs = [f"clueweb-{t:03d}-{i:05d}" for i in range(300)]
            judged[t] = docs
            for d in docs:
                for s in range(1, intents + 1):
                    j = rng.choices((0, 1, 2), weights=(80, 15, 5))[0]
                    out.write(f"{t} {s} {d} {j}\n")
    for r in range(RUNS):
        with open(folder / f"run{r:03d}.txt", "w") as out:
            lines = []
            for t in range(1, TOPICS + 1):
                pool = rng.sample(judged[t], 150) + [f"clueweb-{t:03d}-u{r}-{i:05d}"
                                                     for i in range(DOCS - 150)]
                rng.shuffle(pool)
                lines.extend(f"{t} Q0 {d} {i + 1} {DOCS - i} run{r:03d}\n"
                             for i, d in enumerate(pool))
            out.writelines(lines)
    (folder / "done").write_text("ok\n")


WORKERS = {
    "irscale": """
import sys, warnings
from irscale.evaluation.diversity import evaluate_diversity
qrels, out, runs = sys.argv[1], sys.argv[2], sys.argv[3:]
ev = evaluate_diversity(qrels, runs, "ndeval")
import numpy as np
np.save(out, np.column_stack([ev.values[c] for c in ev.measures]))
""",
    "pyndeval": """
import sys, pickle
import pyndeval
qrels_path, out, runs = sys.argv[1], sys.argv[2], sys.argv[3:]
COLUMNS = COLUMNS_LITERAL
with open(qrels_path) as f:
    qrels = [(t, s, d, int(j)) for t, s, d, j in (line.split() for line in f)]
evaluator = pyndeval.RelevanceEvaluator(qrels, COLUMNS)
results = []
for path in runs:
    with open(path) as f:
        run = [(t, d, -float(r)) for t, _, d, r, _, _ in (line.split() for line in f)]
    results.append(evaluator.evaluate(run))
pickle.dump(results, open(out, "wb"))
""".replace("COLUMNS_LITERAL", repr(COLUMNS)),
    "ir_measures": """
import sys, pickle
import ir_measures
from ir_measures import ERR_IA, nERR_IA, alpha_DCG, alpha_nDCG, NRBP, nNRBP, AP_IA, P_IA, StRecall
qrels_path, out, runs = sys.argv[1], sys.argv[2], sys.argv[3:]
measures = [m @ k for m in (ERR_IA, nERR_IA, alpha_DCG, alpha_nDCG) for k in (5, 10, 20)]
measures += [NRBP, nNRBP, AP_IA] + [m @ k for m in (P_IA, StRecall) for k in (5, 10, 20)]
qrels = list(ir_measures.read_trec_qrels(qrels_path))
results = []
for path in runs:
    run = list(ir_measures.read_trec_run(path))
    values = {}
    for m in ir_measures.iter_calc(measures, qrels, run):
        values.setdefault(m.query_id, {})[str(m.measure)] = m.value
    results.append({q: [v[str(m)] for m in measures] for q, v in values.items()})
pickle.dump(results, open(out, "wb"))
""",
}


def run_tool(tool: str, qrels: Path, runs: list[Path], out: Path) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and peak RSS (MiB) of one fresh process
    running ``tool``."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-W", "ignore", "-c", WORKERS[tool],
                                str(qrels), str(out), *map(str, runs)])
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise RuntimeError(f"{tool} failed with status {status}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def output_path(tool: str) -> Path:
    return DATA / (f"out_{tool}.npy" if tool == "irscale" else f"out_{tool}")


def check_agreement(tool: str) -> str:
    """irscale's values against ``tool``'s (pyndeval: ``{topic: {measure: value}}`` per
    run; ir_measures: ``{topic: [values in COLUMNS order]}``), to the six printed digits."""
    import pickle

    import numpy as np

    from irscale.evaluation.diversity import c_format

    mine = np.load(output_path("irscale"))
    theirs = pickle.load(open(output_path(tool), "rb"))
    row, differ = 0, 0
    for result in theirs:
        for topic in sorted(result, key=int):
            values = result[topic]
            for c, label in enumerate(COLUMNS):
                value = values[label] if isinstance(values, dict) else values[c]
                differ += c_format(mine[row, c]) != c_format(value)
            row += 1
    return f"{row} rankings × {len(COLUMNS)} values, {differ} differ in the printed digits"


BEGIN = "<!-- BEGIN GENERATED: benchmarks/bench_diversity.py -->"
END = "<!-- END GENERATED -->"


def write_markdown(path: Path, body: str) -> None:
    """Replace the generated block of ``path`` (or start the page with it), keeping the
    rest of the page (notes written by hand)."""
    text = path.read_text(encoding="utf-8") if path.exists() else MARKDOWN_HEAD
    block = f"{BEGIN}\n{body}{END}"
    if BEGIN in text and END in text:
        text = text[: text.index(BEGIN)] + block + text[text.index(END) + len(END):]
    else:
        text = text + ("\n" if text else "") + block + "\n"
    path.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tools", nargs="+", default=list(WORKERS), choices=list(WORKERS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--runs", type=int, default=RUNS, choices=range(1, RUNS + 1),
                        metavar=f"1..{RUNS}", help="evaluate the first RUNS run files")
    parser.add_argument("--markdown", type=Path, default=None)
    args = parser.parse_args()
    generate(DATA)
    qrels = DATA / "qrels.txt"
    runs = sorted(DATA.glob("run*.txt"))[: args.runs]
    load_before = os.getloadavg()
    samples: dict[str, list[tuple[float, float, float]]] = {tool: [] for tool in args.tools}
    for _ in range(args.repeat):  # round the tools, so that a shared machine loads all alike
        for tool in args.tools:
            wall, cpu, peak = run_tool(tool, qrels, runs, output_path(tool))
            samples[tool].append((wall, cpu, peak))
            print(f"{tool:12s} {wall:8.2f} s  {cpu:8.2f} s CPU  {peak:8.0f} MiB", flush=True)
    load_after = os.getloadavg()
    rows = {tool: (statistics.median(s[0] for s in got), statistics.median(s[1] for s in got),
                   max(s[2] for s in got)) for tool, got in samples.items()}
    agreement = ([f"{tool}: {check_agreement(tool)}" for tool in args.tools
                  if tool != "irscale"] if "irscale" in rows else [])
    base_wall, base_cpu, _ = rows.get("irscale", (float("nan"), float("nan"), 0))
    lines = [
        f"Case: {TOPICS} topics × {args.runs} runs × {DOCS} documents, 3–8 intents per topic, "
        f"ndeval's 21 columns per topic; median of {args.repeat} fresh processes per tool, "
        "taken round the tools (start-up and imports included).",
        "",
        "| tool | wall time (s) | irscale / tool (wall) | CPU time (s) | irscale / tool (CPU) "
        "| peak memory (MiB) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for tool, (wall, cpu, peak) in rows.items():
        lines.append(f"| {tool} | {wall:.2f} | {base_wall / wall:.3f} | {cpu:.2f} | "
                     f"{base_cpu / cpu:.3f} | {peak:.0f} |")
    if agreement:
        lines += ["", "Agreement with irscale: " + "; ".join(agreement) + "."]
    lines += ["", f"Machine: {platform.processor() or platform.machine()}, "
              f"{os.cpu_count()} CPUs, Python {platform.python_version()}, "
              f"{dt.date.today().isoformat()}; load average (1, 5, 15 min) "
              f"{', '.join(f'{x:.2f}' for x in load_before)} before, "
              f"{', '.join(f'{x:.2f}' for x in load_after)} after."]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        write_markdown(args.markdown, text)


MARKDOWN_HEAD = """# Benchmark: diversity measures (ndeval's set)

`python benchmarks/bench_diversity.py --repeat 5 --markdown docs/benchmarks-diversity.md`
regenerates the block between the GENERATED markers (the rest of the page is kept). Each
tool runs in a fresh process that reads the diversity qrels and the 100 run files and
computes every per-topic value of ndeval's 21 columns; wall and CPU time include interpreter
start-up and imports, peak memory is the child's maximum resident set size.
irscale reads the run files in threads and judges each run in the thread that read it
(its rows in ndeval's order, its docnos looked up once among the qrels' relevant pairs),
keeping only the relevant entries (rank, intent) of each ranking; it then builds the greedy
ideal rankings of all topics together and computes each measure over all rankings at once
with numpy segment operations — no Python loop per topic or per document. pyndeval and
ir_measures (which calls pyndeval) run ndeval's C code topic by topic behind a Python loop
and need the runs as Python tuples.

"""


if __name__ == "__main__":
    main()
