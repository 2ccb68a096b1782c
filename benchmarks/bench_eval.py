"""End-to-end benchmark of irscale against pytrec_eval-terrier, ir_measures and ranx.

For every case × measure set × tool, a fresh Python process reads the qrels and run files,
evaluates, and writes the per-topic values to a file; the parent records the process's wall
time (interpreter start-up and imports included, as users pay them) and its peak resident
memory (``ru_maxrss`` from ``wait4``). Stage timings measured inside the worker show where
the time goes. The parent itself imports nothing heavy, so that the children's peak memory
is their own.

    python benchmarks/bench_eval.py [--cases i ii] [--sets three all_trec]
                                    [--tools irscale pytrec_eval ir_measures ranx floor]
                                    [--trec-eval PATH]
                                    [--markdown docs/benchmarks.md [--section small-topics]]

Cases (generated once by ``benchmarks/datagen.py`` into ``benchmarks/data/``, git-ignored):
(i) 100,000 topics × 100 documents (10M run lines), (ii) 7,000 topics × 1,000 documents;
many small topics: (iii) 20,000 × 100 and (iv) 100,000 × 20 (2M run lines each), where
irscale runs as its command line (``irscale eval -q -m ... -o FILE``, whole process);
``startup``: 6-line qrels and run files, every tool in a fresh process doing the least a
user can (irscale: ``irscale --help`` and ``irscale eval``; the peers: import, read,
evaluate the three measures, print), ``--startup-repeat`` times. The engine targets' shapes, also
through irscale's command line: ``ties`` 10,000 × 1,000 with 3-decimal scores (10M lines,
ties in every topic), ``track`` 200 × 1,000 (a TREC track), ``shuffled`` 2,000 × 1,000 with
the lines in random order, ``clueweb`` 1,000 × 1,000 with ClueWeb12-style docnos; shapes
another generator may give: ``deep`` 5 × 200,000 (few very deep topics), ``unranked``
1,000 × 1,000 with integer scores (ties everywhere) in lines not sorted by score,
``judged`` 1,000 × 100 with about 5,000 judgments per topic (5M qrels lines), ``many``
1,000,000 topics of one document each, ``tsv`` 2,000 × 1,000 in tab-separated files with
docnos of several lengths (``doc123456``) and each topic's lines in random order,
``aligned`` 1,000 × 1,000 with every column padded to its width and a blank at each line's
end (as tools that print with field widths write them), ``uneven`` 2,000 topics cut to
1–29 or 500–1,000 documents, each topic's lines in random order, ``interleaved`` 100,000 ×
20 with the lines of both files in random order (qrels not written topic by topic),
``longties`` 1,000 × 1,000 with integer scores, ClueWeb docnos (25 bytes) and each topic's
lines in random order, ``hashorder`` 100,000 × 20 with the topics in one random order in
both files (each topic's lines together), ``doubles`` 2,000 × 500 with negative scores
printed in full (``-12.141923568650839``, as ``repr`` writes doubles) and topic ids
``q1`` .. ``q2000``.
Measure sets: ``three`` = map, ndcg_cut_10, recip_rank; ``all_trec`` = trec_eval's whole
set (each peer computes what it can express; see ``bench_tools.py``).

Files from elsewhere (another generator, a real collection) are measured the same way with
``--files NAME QRELS RUN`` (repeatable): case ``NAME``, irscale as its command line, the
data's statistics computed from the files (``datagen.py --files``).

``--tools ... floor`` adds the floor of the stack beside the tools (not a peer: see
:data:`FLOOR`); a target it misses too is marked so in the report.

trec_eval itself joins as a peer with ``--trec-eval PATH`` (a binary built from NIST's
sources, which this repository does not hold): its command line, as a user runs it, and its
output compared byte for byte with irscale's on the cases where irscale runs as its command
line; its peak memory is the bound set for irscale on cases of 1M run lines or more.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TOOL_NAMES = ("irscale", "pytrec_eval", "ir_measures", "ranx", "trec_eval", "floor")
PEERS = ("pytrec_eval", "ir_measures", "ranx", "trec_eval")
#: The tools measured in a worker process (trec_eval is a binary run by its command line).
WORKER_TOOLS = tuple(t for t in TOOL_NAMES if t not in ("trec_eval", "floor"))
#: The trec_eval binary (``--trec-eval``), run as a peer when given.
TREC_EVAL: str | None = None
#: Peak memory ≤ trec_eval's on cases of at least this many run lines.
MEMORY_VS_TREC_EVAL_LINES = 1_000_000
SETS = ("three", "all_trec")
SET_LABEL = {"three": "map ndcg_cut_10 recip_rank", "all_trec": "all_trec"}
CASE_LABEL = {
    "i": "(i) 100,000 × 100",
    "ii": "(ii) 7,000 × 1,000",
    "tiny": "tiny 1,000 × 100",
    "small": "small 5,000 × 200",
    "iii": "(iii) 20,000 × 100",
    "iv": "(iv) 100,000 × 20",
    "startup": "start-up, 6-line files",
    "ties": "ties 10,000 × 1,000, 3 decimals",
    "track": "track 200 × 1,000",
    "shuffled": "shuffled 2,000 × 1,000",
    "clueweb": "clueweb 1,000 × 1,000",
    "deep": "deep 5 × 200,000",
    "unranked": "unranked 1,000 × 1,000, integer scores",
    "judged": "judged 1,000 × 100, 5M qrels lines",
    "many": "many 1,000,000 × 1",
    "tsv": "tsv 2,000 × 1,000, tab-separated",
    "aligned": "aligned 1,000 × 1,000, padded columns",
    "uneven": "uneven 2,000 × 1–1,000, lines not in score order",
    "interleaved": "interleaved 100,000 × 20, both files' lines in random order",
    "longties": "longties 1,000 × 1,000, integer scores, ClueWeb docnos",
    "hashorder": "hashorder 100,000 × 20, topics in one random order",
    "doubles": "doubles 2,000 × 500, scores as doubles in full",
    "urls": "urls 2,000 × 500, URLs as docnos",
    "graded": "graded 1,000 × 1,000, grades 0-100, 2M qrels lines",
    "signed": "signed 2,000 × 500, scores around 0 with signed zeros, long topic ids",
}
#: Cases on which irscale is measured through its command line, as a user runs it.
CLI_CASES = ("iii", "iv", "startup", "ties", "track", "shuffled", "clueweb", "deep",
             "unranked", "judged", "many", "tsv", "aligned", "uneven", "interleaved",
             "longties", "hashorder", "doubles", "urls", "graded", "signed")
#: Cases of ``--files`` (name -> (qrels, run)), measured like :data:`CLI_CASES`.
FILE_CASES: dict[str, tuple[Path, Path]] = {}


def through_cli(case: str) -> bool:
    """Whether irscale runs as its command line on ``case``."""
    return case in CLI_CASES or case in FILE_CASES


#: The ``irscale`` console script (``irscale.cli.main:main``), run by this interpreter.
IRSCALE_COMMAND = ["-c", "import sys; from irscale.cli.main import main; sys.exit(main())"]
CLI_MEASURES = {"three": ["-m", "map", "-m", "ndcg_cut.10", "-m", "recip_rank"],
                "all_trec": ["-m", "all_trec"]}
#: The start-up case's files: 6 lines each, 2 topics (one unjudged run topic, as usual).
STARTUP_QRELS = "1 0 d1 1\n1 0 d2 0\n1 0 d3 2\n2 0 d1 1\n2 0 d4 0\n2 0 d5 1\n"
STARTUP_RUN = ("1 Q0 d1 1 2.0 r\n1 Q0 d2 2 1.0 r\n1 Q0 d3 3 1.0 r\n2 Q0 d4 1 3.0 r\n"
               "2 Q0 d1 2 1.5 r\n3 Q0 d9 1 1.0 r\n")
#: What each peer does in the start-up case (``python -c CODE QRELS RUN OUTPUT``): import,
#: read both files with its own reader, evaluate the three measures, write the values.
STARTUP_PEERS = {
    "pytrec_eval": r"""
import sys, pytrec_eval
with open(sys.argv[1]) as f:
    qrels = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f:
    run = pytrec_eval.parse_run(f)
res = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut.10", "recip_rank"}).evaluate(run)
with open(sys.argv[3], "w") as out:
    for qid, values in sorted(res.items()):
        for m, v in sorted(values.items()):
            out.write(f"{m}\t{qid}\t{v:.4f}\n")
""",
    "ir_measures": r"""
import sys, ir_measures
from ir_measures import AP, RR, nDCG
qrels = list(ir_measures.read_trec_qrels(sys.argv[1]))
run = list(ir_measures.read_trec_run(sys.argv[2]))
with open(sys.argv[3], "w") as out:
    for m in ir_measures.iter_calc([AP, nDCG @ 10, RR], qrels, run):
        out.write(f"{m.measure}\t{m.query_id}\t{m.value:.4f}\n")
""",
    "ranx": r"""
import sys
from ranx import Qrels, Run, evaluate
qrels, run = Qrels.from_file(sys.argv[1], kind="trec"), Run.from_file(sys.argv[2], kind="trec")
metrics = ["map", "ndcg@10", "mrr"]
scores = evaluate(qrels, run, metrics, return_mean=False, make_comparable=True,
                  save_results_in_run=False)
with open(sys.argv[3], "w") as out:
    for m in metrics:
        for qid, v in zip(run.get_query_ids(), scores[m].tolist(), strict=True):
            out.write(f"{m}\t{qid}\t{v:.4f}\n")
""",
}
#: The floor (``--tools floor``): the least a Python process pays that reads the files with
#: pyarrow and evaluates them with numpy, whatever it evaluates. It takes the command line's
#: memory settings (:mod:`irscale.cli.allocator`) where irscale's command does (with
#: ``IRSCALE_TUNE_MEMORY=1``), imports numpy and ``pyarrow.csv``, and parses the fields
#: irscale reads of each file named (topic and docno as strings, the run's score as a
#: double or the qrels' label as an integer; blocks of 8 MiB, separated by the first line's
#: tab or blank), and nothing else. It writes
#: (to the file named last) the memory of the process after its imports and the size of the
#: parsed columns of every file: their sum is the interpreter and libraries plus a compact
#: columnar copy of both files, the least memory an evaluation in this stack holds. A file
#: of padded columns (``aligned``) fails it.
#: The floor's CSV blocks (the size irscale's reader parsed in when it used pyarrow's).
FLOOR_BLOCK_BYTES = 1 << 23
FLOOR = (
    "import os\n"
    "if os.environ.get('IRSCALE_TUNE_MEMORY') == '1':\n"
    "    from irscale.cli.allocator import tune_memory\n"
    "    tune_memory()\n"
    "import json, sys, numpy, pyarrow as pa, pyarrow.csv as c\n"
    "status = open('/proc/self/status').read().split('VmHWM:')[1]\n"
    "libraries = int(status.split()[0]) * 1024 / 1e6\n"
    "*paths, out = sys.argv[1:]\n"
    "columns = 0\n"
    "for path in paths:\n"
    "    first = open(path, 'rb').readline()\n"
    "    names = list('abcdef')[:len(first.split())]\n"
    "    value = 'e' if len(names) == 6 else 'd'\n"
    "    columns += c.read_csv(path, read_options=c.ReadOptions(column_names=names, "
    f"block_size={FLOOR_BLOCK_BYTES}), parse_options=c.ParseOptions("
    "delimiter='\\t' if b'\\t' in first "
    "else ' ', quote_char=False, escape_char=False), convert_options=c.ConvertOptions("
    "column_types={'a': pa.string(), 'c': pa.string(), value: pa.float64() if value == 'e' "
    "else pa.int64()}, include_columns=['a', 'c', value])).nbytes / 1e6\n"
    "open(out, 'w').write(json.dumps({'libraries_mb': libraries, 'columns_mb': columns}))\n"
)
HELP_ROW = "irscale --help"
HELP_TARGET = 0.15  # seconds, irscale --help
TINY_EVAL_TARGET = 0.3  # seconds, irscale eval on the 6-line files

DISTRIBUTIONS = {
    "irscale": "irscale",
    "pytrec_eval": "pytrec-eval-terrier",
    "ir_measures": "ir-measures",
    "ranx": "ranx",
    "numba": "numba",
    "numpy": "numpy",
    "pyarrow": "pyarrow",
    "pandas": "pandas",
}
#: irscale ≤ this × the fastest peer (every shape ≤ 0.25 ×)
TIME_TARGET = 0.25
#: Cases whose target is set against one peer: a TREC track's small files, where start-up
#: weighs most, ≤ 1.0 × pytrec_eval
TIME_TARGETS = {"track": (1.0, "pytrec_eval")}
MEMORY_TARGET_MB = 1500.0  # on case (i): 1.5 GB = 1.5e9 bytes
ALL_TREC_TARGET = 2.0  # all_trec ≤ 2 × the three-measure set
PROFILE_PREIMPORTS = {"irscale": ("irscale", "irscale.evaluation", "irscale.io.output")}
BEGIN = "<!-- BEGIN GENERATED: benchmarks/bench_eval.py -->"
END = "<!-- END GENERATED -->"
#: ``--section NAME`` writes between these markers instead (another part of the page).
SECTION_BEGIN = "<!-- BEGIN GENERATED: benchmarks/bench_eval.py --section {} -->"


# ============================================================================ worker side
def worker_main(args: argparse.Namespace) -> int:
    sys.path.insert(0, str(HERE))
    import bench_tools

    function = bench_tools.TOOLS[args.worker]
    profiler = None
    if args.profile:
        import cProfile
        import importlib

        # imports are timed as a stage of their own: keep them out of the profile
        for module in PROFILE_PREIMPORTS.get(args.worker, ()):
            importlib.import_module(module)

        profiler = cProfile.Profile()
        profiler.enable()
    result = function(args.qrels, args.run, args.set, args.output)
    if profiler is not None:
        import io
        import pstats

        profiler.disable()
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(80)
        Path(args.profile).write_text(text.getvalue())
    import resource

    result.setdefault("per_topic", result["measures"])
    result["self_maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6
    # the high-water mark of this process's own memory since exec (ru_maxrss also covers
    # the forking parent's size at the time of the fork, hence the lean parent)
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            result["vmhwm_mb"] = int(line.split()[1]) * 1024 / 1e6
    Path(args.report).write_text(json.dumps(result))
    return 0


def check_main(args: argparse.Namespace) -> int:
    """Cross-checks (run in a child process): values of irscale against the peers."""
    sys.path.insert(0, str(HERE))
    import bench_check

    report = bench_check.check(
        args.check, Path(args.qrels), Path(args.run), Path(args.out_dir), args.sample
    )
    Path(args.report).write_text(json.dumps(report, indent=1))
    return 0


# ============================================================================ parent side
#: Environment of the measured processes (set by :func:`take_snapshot` or
#: :func:`use_live_tree`).
CHILD_ENV: dict[str, str] | None = None


def take_snapshot(work: Path) -> str:
    """Copy irscale's sources and make every child import that copy.

    Other people may edit ``src/`` while a run of half an hour goes on; the copy makes
    every measurement of one run use the same code. The copy is byte-compiled, as pip
    compiles an installed package (and the children may write bytecode even where the
    environment says ``PYTHONDONTWRITEBYTECODE``): without it every process would compile
    irscale's modules again, which no installed copy does. Returns the commit of the copy.
    """
    global CHILD_ENV
    state = source_state()
    target = work / "snapshot"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(ROOT / "src" / "irscale", target / "irscale",
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = compiled_env(target)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(target), env.get("PYTHONPATH")) if p)
    CHILD_ENV = env
    return state


def use_live_tree() -> str:
    """``--no-snapshot``: the children import the live source tree (the installed one),
    byte-compiled first as :func:`take_snapshot` compiles its copy (bytecode older than an
    edited module would otherwise be compiled again in every process). Returns its state."""
    global CHILD_ENV
    CHILD_ENV = compiled_env(ROOT / "src")
    return source_state()


def compiled_env(tree: Path) -> dict[str, str]:
    """Byte-compile the modules below ``tree``; the measured processes' environment, in
    which they may write bytecode."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree)], check=True)
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_job(command: list[str], timeout: float, log: Path) -> dict:
    """Run ``command`` in a fresh process; wall seconds, CPU seconds, peak RSS, status.

    The parent blocks in ``wait4`` (a timer thread kills the process group past
    ``timeout``), so the wall time ends when the process does, not at the next poll."""
    with open(log, "wb") as log_file:
        start = time.perf_counter()
        process = subprocess.Popen(
            command, stdout=log_file, stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True,
            env=CHILD_ENV,
        )
        timed_out = threading.Event()
        timer = threading.Timer(timeout, _kill_group, (process.pid, timed_out))
        timer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)  # keep Popen from waiting again
    ended = "ok" if process.returncode == 0 else "error"
    return {
        "wall_s": wall,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "peak_mb": usage.ru_maxrss * 1024 / 1e6,  # Linux: KiB
        "status": "timeout" if timed_out.is_set() else ended,
        "returncode": process.returncode,
    }


def _kill_group(pid: int, timed_out: threading.Event) -> None:
    """Kill the process group ``pid`` leads (a job past its time limit)."""
    timed_out.set()
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:  # it ended as the timer fired
        pass


def tail(path: Path, n: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-n:])
    except OSError:
        return ""


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def library_versions() -> dict[str, str]:
    from importlib import metadata

    versions = {}
    for key, dist in DISTRIBUTIONS.items():
        try:
            versions[key] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[key] = "not installed"
    return versions


def machine_description() -> dict[str, str]:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram = "?"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                ram = f"{int(line.split()[1]) / 1024**2:.1f} GiB"
                break
    except OSError:
        pass
    return {
        "cpu": f"{os.cpu_count()} × {cpu}",
        "ram": ram,
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
    }


def source_state() -> str:
    """The commit of the working tree measured (``-dirty``: with uncommitted changes)."""
    try:
        return subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT,
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def warm_page_cache(paths: list[Path]) -> None:
    """Read the files once, so that no tool pays for a cold disk read the others skip."""
    for path in paths:
        with open(path, "rb") as handle:
            while handle.read(1 << 24):
                pass


def worker_command(tool: str, qrels: Path, run: Path, measure_set: str, output: Path,
                   report: Path, profile: Path | None = None) -> list[str]:
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", tool,
               "--qrels", str(qrels), "--run", str(run), "--set", measure_set,
               "--output", str(output), "--report", str(report)]
    if profile is not None:
        command += ["--profile", str(profile)]
    return command


def cli_command(qrels: Path, run: Path, measure_set: str, output: Path) -> list[str]:
    """``irscale eval -q -m ... -o OUTPUT QRELS RUN``: per-topic values to a file, as the
    workers write them."""
    return [sys.executable, *IRSCALE_COMMAND, "eval", "-q", *CLI_MEASURES[measure_set],
            "--force", "-o", str(output), str(qrels), str(run)]


def job_command(tool: str, case: str, qrels: Path, run: Path, measure_set: str,
                output: Path, report: Path) -> list[str]:
    """The measured command: the irscale command line on :data:`CLI_CASES` (and
    ``irscale --help``), the peers' start-up snippets on the start-up case, the worker
    otherwise."""
    if tool == HELP_ROW:
        return [sys.executable, *IRSCALE_COMMAND, "--help"]
    if tool == "irscale" and through_cli(case):
        return cli_command(qrels, run, measure_set, output)
    if case == "startup" and tool in STARTUP_PEERS:
        return [sys.executable, "-c", STARTUP_PEERS[tool], str(qrels), str(run), str(output)]
    if tool == "floor":
        return [sys.executable, "-c", FLOOR, str(qrels), str(run), str(output)]
    if tool == "trec_eval":  # `trec_eval -q -m ... QRELS RUN > OUTPUT`
        return ["sh", "-c", 'out=$1; shift; exec "$@" > "$out"', "sh", str(output),
                str(TREC_EVAL), "-q", *CLI_MEASURES[measure_set], str(qrels), str(run)]
    return worker_command(tool, qrels, run, measure_set, output, report)


def measure(tool: str, case: str, measure_set: str, files: tuple[Path, Path], work: Path,
            timeout: float) -> dict:
    qrels, run = files
    slug = tool.replace(" ", "").replace("-", "")
    output = work / "out" / f"{case}_{measure_set}_{slug}.txt"
    report = work / "reports" / f"{case}_{measure_set}_{slug}.json"
    log = work / "logs" / f"{case}_{measure_set}_{slug}.log"
    report.unlink(missing_ok=True)
    # written beside the output, which it replaces only when the run ends well: a run
    # stopped at the time limit leaves no partial output where an earlier repetition's
    # complete one is compared (all complete outputs of a tool are alike)
    partial = output.with_name(f"{output.stem}.partial.txt")
    load_before = load_average()
    job = run_job(job_command(tool, case, qrels, run, measure_set, partial, report), timeout,
                  log)
    if job["status"] == "ok" and partial.exists():
        os.replace(partial, output)
    partial.unlink(missing_ok=True)
    row = {"tool": tool, "case": case, "set": measure_set, **job, "load": load_before,
           "output": str(output)}
    if job["status"] == "ok" and report.exists():
        row.update(json.loads(report.read_text()))
    elif job["status"] == "error":
        row["error"] = tail(log)
    return row


def secs(value: float) -> str:
    """Seconds as the tables print them: milliseconds below one second."""
    return f"{value:.3f}" if value < 1 else f"{value:.1f}"


def fmt_seconds(row: dict | None, timeout: float) -> str:
    if row is None:
        return "–"
    if row["status"] == "timeout":
        return f"> {timeout:.0f} (timeout)"
    if row["status"] != "ok":
        return "error"
    return secs(row["wall_s"])


def summarise(rows: list[dict]) -> dict[tuple[str, str], dict]:
    """Per (case, set): the irscale row, the fastest peer and the ratios."""
    out = {}
    for case, measure_set in dict.fromkeys((r["case"], r["set"]) for r in rows):
        group = [r for r in rows if r["case"] == case and r["set"] == measure_set]
        ok = [r for r in group if r["status"] == "ok"]
        peers = [r for r in ok if r["tool"] in PEERS]
        fastest = min(peers, key=lambda r: r["wall_s"]) if peers else None
        ours = next((r for r in ok if r["tool"] == "irscale"), None)
        floor = next((r for r in ok if r["tool"] == "floor"), None)
        # a timed-out peer still bounds the comparison from below
        out[(case, measure_set)] = {"rows": group, "fastest": fastest, "irscale": ours,
                                    "floor": floor}
    return out


def floor_time(floor: dict | None, reference: dict, target: float) -> tuple[str, bool]:
    """The floor's time against the reference peer's (text for the measured column) and
    whether the floor alone misses the time target."""
    if floor is None:
        return "", False
    ratio = floor["wall_s"] / reference["wall_s"]
    return f"; floor {secs(floor['wall_s'])} s = {ratio:.2f} ×", ratio > target


def floor_memory(floor: dict | None) -> float | None:
    """The floor's memory (MB): its interpreter and libraries plus the parsed columns of both
    files (see :data:`FLOOR`)."""
    if floor is None or not Path(floor["output"]).exists():
        return None
    report = json.loads(Path(floor["output"]).read_text())
    return report["libraries_mb"] + report["columns_mb"]


#: The verdict of a target that the floor alone misses.
BELOW_FLOOR = "**missed** (the floor alone misses it)"


def ratio_text(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def results_table(rows: list[dict], timeout: float) -> list[list[str]]:
    groups = summarise(rows)
    table = []
    for (case, measure_set), group in groups.items():
        ours, fastest = group["irscale"], group["fastest"]
        for row in group["rows"]:
            ok = row["status"] == "ok"
            to_ours = row["wall_s"] / ours["wall_s"] if ok and ours else None
            to_fastest = row["wall_s"] / fastest["wall_s"] if ok and fastest else None
            table.append([
                row["tool"], CASE_LABEL.get(case, case), SET_LABEL[measure_set],
                fmt_seconds(row, timeout),
                secs(row["cpu_s"]) if ok else "–",
                f"{row['peak_mb']:,.0f}" if row["status"] != "timeout" else "–",
                ratio_text(to_ours), ratio_text(to_fastest),
                str(row.get("n_measures", "–")),
            ])
    return table


HEADER = ["tool", "case", "measures", "seconds", "CPU s", "peak MB", "× irscale",
          "× fastest peer", "# measures"]


def print_table(table: list[list[str]]) -> None:
    widths = [max(len(h), *(len(r[i]) for r in table)) for i, h in enumerate(HEADER)]
    print("  ".join(h.ljust(w) for h, w in zip(HEADER, widths, strict=True)))
    for r in table:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))


def targets(rows: list[dict], run_lines: dict[str, int]) -> list[tuple[str, str, str]]:
    """(target, measured, verdict) lines (``run_lines``: the run lines of each case)."""
    groups = summarise(rows)
    lines = []
    for (case, measure_set), group in groups.items():
        ours, fastest = group["irscale"], group["fastest"]
        if case == "startup":  # its targets are absolute (below)
            continue
        name = f"time, {CASE_LABEL.get(case, case)}, {SET_LABEL[measure_set]}"
        if ours is None:
            lines.append((name, "irscale did not finish", "**missed**"))
            continue
        peers_done = [r for r in group["rows"] if r["tool"] in PEERS]
        target, reference = TIME_TARGETS.get(case, (TIME_TARGET, None))
        if fastest is None:
            # a peer stopped at the time limit bounds the ratio from above; a failed one
            # gives no bound
            stopped = [r["wall_s"] for r in peers_done if r["status"] == "timeout"]
            if stopped:
                bound = ours["wall_s"] / max(stopped)
                lines.append((name, f"irscale {secs(ours['wall_s'])} s; no peer finished "
                              f"within {secs(max(stopped))} s (< {bound:.2f} ×)",
                              "met" if bound <= target else "**missed**"))
            else:
                lines.append((name, f"irscale {secs(ours['wall_s'])} s",
                              "n/a (no peer gave a result)" if peers_done
                              else "n/a (no peer run)"))
            continue
        ratio = ours["wall_s"] / fastest["wall_s"]
        against = f"{fastest['tool']} {secs(fastest['wall_s'])} s = {ratio:.2f} ×"
        peer = next((r for r in peers_done if r["tool"] == reference
                     and r["status"] == "ok"), None) if reference else None
        if reference and peer is None:
            lines.append((f"{name}: irscale ≤ {target} × {reference}",
                          f"{reference} not run (fastest peer {against})", "n/a"))
            continue
        if peer is not None:
            ratio = ours["wall_s"] / peer["wall_s"]
            against = (f"{reference} {secs(peer['wall_s'])} s = {ratio:.2f} × (fastest peer "
                       f"{against})")
        floor_text, floor_misses = floor_time(group["floor"], peer or fastest, target)
        lines.append((
            f"{name}: irscale ≤ {target} × {reference or 'fastest peer'}",
            f"{secs(ours['wall_s'])} s vs {against}{floor_text}",
            "met" if ratio <= target else BELOW_FLOOR if floor_misses else "**missed**",
        ))
    for row in rows:
        if row["case"] != "startup" or row["status"] != "ok":
            continue
        if row["tool"] == HELP_ROW:
            limit, what = HELP_TARGET, "irscale --help"
        elif row["tool"] == "irscale":
            limit, what = TINY_EVAL_TARGET, "irscale eval, 6-line files"
        else:
            continue
        lines.append((f"start-up: {what} ≤ {limit} s", f"{secs(row['wall_s'])} s (CPU "
                      f"{secs(row['cpu_s'])} s)", "met" if row["wall_s"] <= limit
                      else "**missed**"))
    for row in rows:
        if row["tool"] == "irscale" and row["case"] == "i" and row["status"] == "ok":
            lines.append((
                f"peak memory, (i), {SET_LABEL[row['set']]}: ≤ 1.5 GB",
                f"{row['peak_mb']:,.0f} MB",
                "met" if row["peak_mb"] <= MEMORY_TARGET_MB else "**missed**",
            ))
    lines += trec_eval_targets(rows, run_lines)
    for case in dict.fromkeys(r["case"] for r in rows):
        def ours(measure_set: str, case: str = case) -> dict | None:
            return next((r for r in rows if r["tool"] == "irscale" and r["case"] == case
                         and r["set"] == measure_set and r["status"] == "ok"), None)

        three, full = ours("three"), ours("all_trec")
        if three and full:
            ratio = full["wall_s"] / three["wall_s"]
            lines.append((
                f"all_trec ≤ {ALL_TREC_TARGET} × three measures, {CASE_LABEL.get(case, case)}",
                f"{full['wall_s']:.1f} s / {three['wall_s']:.1f} s = {ratio:.2f} × "
                f"({full.get('n_measures', '?')} vs {three.get('n_measures', '?')} measures)",
                "met" if ratio <= ALL_TREC_TARGET else "**missed**",
            ))
    return lines


def trec_eval_targets(rows: list[dict], run_lines: dict[str, int]
                      ) -> list[tuple[str, str, str]]:
    """(target, measured, verdict) lines against trec_eval: irscale's output byte-identical
    to its own where irscale runs as its command line, and irscale's peak memory at most
    trec_eval's on cases of :data:`MEMORY_VS_TREC_EVAL_LINES` run lines or more."""
    lines = []
    for (case, measure_set), group in summarise(rows).items():
        ours = group["irscale"]
        ran = [r for r in group["rows"] if r["tool"] == "trec_eval"]
        theirs = next((r for r in ran if r["status"] == "ok"), None)
        label = f"{CASE_LABEL.get(case, case)}, {SET_LABEL[measure_set]}"
        if ours is not None and ran and theirs is None and through_cli(case):
            failed = ran[0]  # a crash (signal: negative code) or a refusal of the input
            lines.append((f"output byte-identical to trec_eval, {label}",
                          f"trec_eval {failed['status']} (exit code {failed['returncode']}):"
                          " not compared", "n/a"))
        if ours is None or theirs is None:
            continue
        if through_cli(case) and case != "startup":
            ours_text = Path(ours["output"]).read_bytes().splitlines()
            their_text = Path(theirs["output"]).read_bytes().splitlines()
            pairs = enumerate(zip(ours_text, their_text, strict=False))
            differ = next((i for i, (a, b) in pairs if a != b),
                          None if len(ours_text) == len(their_text)
                          else min(len(ours_text), len(their_text)))
            lines.append((
                f"output byte-identical to trec_eval, {label}",
                f"{len(ours_text):,} lines identical" if differ is None else
                f"line {differ + 1} differs (of {len(ours_text):,} / {len(their_text):,}): "
                f"irscale `{_line(ours_text, differ)}`, trec_eval `{_line(their_text, differ)}`",
                "met" if differ is None else "**missed**",
            ))
        if run_lines.get(case, 0) >= MEMORY_VS_TREC_EVAL_LINES:
            floor = floor_memory(group["floor"])
            lines.append((
                f"peak memory ≤ trec_eval's, {label}",
                f"{ours['peak_mb']:,.0f} MB vs {theirs['peak_mb']:,.0f} MB "
                f"= {ours['peak_mb'] / theirs['peak_mb']:.2f} ×"
                + ("" if floor is None else f"; floor {floor:,.0f} MB"),
                "met" if ours["peak_mb"] <= theirs["peak_mb"]
                else BELOW_FLOOR if floor is not None and floor > theirs["peak_mb"]
                else "**missed**",
            ))
    return lines


def _line(lines: list[bytes], index: int) -> str:
    """Line ``index`` as text, blanks collapsed (``end of file`` past the last)."""
    return " ".join(lines[index].decode(errors="replace").split()) if index < len(lines) \
        else "end of file"


def stage_table(rows: list[dict], tool: str) -> list[str]:
    order = ["import", "read qrels", "read run", "judge/rank", "measures", "evaluate other",
             "evaluate", "evaluate+write", "write"]
    lines = []
    picked = [r for r in rows if r["tool"] == tool and r["status"] == "ok" and "stages" in r]
    if not picked:
        return lines
    names = [s for s in order if any(s in r["stages"] for r in picked)]
    if tool == "irscale":
        names = [s for s in names if s != "evaluate"]
    lines.append("| case | measures | " + " | ".join(names) + " | in-process total | "
                 "process wall |")
    lines.append("|---|---|" + "---:|" * (len(names) + 2))
    for r in picked:
        stages = r["stages"]
        total = sum(v for k, v in stages.items()
                    if not (tool == "irscale" and k in ("judge/rank", "measures",
                                                        "evaluate other")))
        cells = [f"{stages[s]:.2f}" if s in stages else "–" for s in names]
        share = [f"{stages[s]:.2f} ({100 * stages[s] / r['wall_s']:.0f}%)" if s in stages
                 else "–" for s in names] if tool == "irscale" else cells
        lines.append(f"| {CASE_LABEL.get(r['case'], r['case'])} | {SET_LABEL[r['set']]} | "
                     + " | ".join(share) + f" | {total:.2f} | {r['wall_s']:.2f} |")
    return lines


def case_run_lines(meta: dict) -> dict[str, int]:
    """The run lines of every generated case (its data statistics)."""
    return {case: int(stats.get("run_lines", 0)) for case, stats in meta["data"].items()}


def markdown(rows: list[dict], meta: dict, checks: dict, profiles: dict, timeout: float,
             begin: str = BEGIN) -> str:
    m = meta["machine"]
    v = meta["versions"]
    out = [begin, "", f"Measured on {meta['date']} by `{meta['command']}` "
           f"(irscale at commit `{meta.get('source', '?')}`; total "
           f"{meta.get('total_s', 0) / 60:.0f} min).", ""]
    out += [
        "**Machine.** " + f"{m['cpu']}, {m['ram']} RAM, {m['os']}, Python {m['python']}. "
        f"Load average before the run: {meta['load_start']}; after: {meta['load_end']} "
        "(the cores are shared with other work, so expect a few percent of noise).",
        "",
        "**Versions.** " + ", ".join(f"{k} {val}" for k, val in v.items()) + ".",
        "",
        "**Data** (generated by `benchmarks/datagen.py`, seeded"
        + ("; the cases of `--files` are the files named" if FILE_CASES else "") + "):",
        "",
    ]
    for case, stats in meta["data"].items():
        files = (f" (`{FILE_CASES[case][0]}`, `{FILE_CASES[case][1]}`)"
                 if case in FILE_CASES else "")
        out.append(
            f"* {CASE_LABEL.get(case, case)}{files}: {stats['run_lines']:,} run lines "
            f"({stats['run_mb']:.0f} MB), {stats['qrels_lines']:,} qrels lines, "
            f"{stats['relevant_judgments']:,} relevant judgments, "
            f"{stats['retrieved_judgments']:,} judged documents retrieved, "
            f"{stats['topics_with_ties']:,} topics with tied scores, "
            f"{stats['unjudged_run_topics']} run topics without judgments."
        )
    if any(r["case"] == "startup" for r in rows):
        out.append(f"* {CASE_LABEL['startup']}: qrels and run of 6 lines each (2 judged "
                   "topics, 1 run topic without judgments), in the work folder.")
    cli_cases = [CASE_LABEL.get(c, c) for c in [*CLI_CASES, *FILE_CASES]
                 if any(r["case"] == c for r in rows)]
    out += ["", "### Results", ""]
    if cli_cases:
        out += [f"On {', '.join(cli_cases)}, irscale is its command line, as users run it: "
                f"`irscale eval -q {' '.join(CLI_MEASURES['three'])} -o FILE QRELS RUN` "
                "(the console script's `main`, in a fresh process); the peers run as on the "
                "other cases, except on the start-up case, where each runs the least a user "
                "can (`python -c`: import, read both files with its own reader, evaluate the "
                "three measures, write the values; see `STARTUP_PEERS`). The start-up rows "
                f"are the median of {meta.get('startup_repeat', 1)} runs.", ""]
    out += [
            "Seconds = wall time of a fresh process (start-up, imports, read qrels and run, "
            "evaluate, write per-topic values to a file). CPU s = user + system time of that "
            "process (above the wall time when a tool uses both cores). Peak MB = `ru_maxrss` "
            "of the process (10^6 bytes). × fastest peer = seconds / seconds of the fastest "
            "of pytrec_eval, ir_measures and ranx (and trec_eval, when run) on the same case "
            "and measure set.", ""]
    if any(r["tool"] == "floor" for r in rows):
        out += ["The floor is not a peer: a fresh process that takes irscale's memory "
                "settings, imports numpy and `pyarrow.csv` as irscale does, and parses the "
                "fields irscale reads of both files (topic, docno, score or label) with "
                "pyarrow's reader as irscale's reader calls it, and does nothing else "
                "(`FLOOR`): the least any evaluation read with pyarrow and computed with numpy "
                "pays. Its memory in the targets is its interpreter and libraries (`VmHWM` "
                "after the imports) plus the size of the parsed columns of both files: a "
                "compact columnar copy, the least such an evaluation holds. A target that the "
                "floor misses too is marked so: no work done after the parse can meet it in "
                "this stack. The floor fails on padded columns (`aligned`).", ""]
    table = results_table(rows, timeout)
    out.append("| " + " | ".join(HEADER) + " |")
    out.append("|---|---|---|" + "---:|" * (len(HEADER) - 3))
    for r in table:
        out.append("| " + " | ".join(r) + " |")
    out += ["", "### Targets", "", "| target | measured | verdict |", "|---|---|---|"]
    for name, measured, verdict in targets(rows, case_run_lines(meta)):
        out.append(f"| {name} | {measured} | {verdict} |")
    ours = stage_table(rows, "irscale")
    if ours:
        out += ["", "### Where irscale's time goes", "",
                "Seconds per stage inside the irscale process (share of the process wall "
                "time); `judge/rank` is `build_judged_rankings` (index the qrels, sort the "
                "run, look up judgments), `measures` the measure kernels, `evaluate other` "
                "the rest of `evaluate()` (parsing names, input checks).", ""]
        out += ours
    elif any(stage_table(rows, tool) for tool in PEERS):
        out += ["", "### Where the peers' time goes"]
    for tool in PEERS:
        lines = stage_table(rows, tool)
        if lines:
            out += ["", f"{tool} stages (seconds):", "", *lines]
    if profiles:
        out += ["", "cProfile of the irscale process after its imports (top entries by "
                "cumulative time; a separate, untimed run):", ""]
        for key, text in profiles.items():
            out += [f"<details><summary>{key}</summary>", "", "```", text.strip(), "```", "",
                    "</details>", ""]
    if any(r["set"] == "all_trec" for r in rows):
        out += ["", "### What each tool computes for \"all_trec\"", ""]
    for tool in TOOL_NAMES:
        row = next((r for r in rows if r["tool"] == tool and r["set"] == "all_trec"
                    and "measures" in r), None)
        if row is None:
            continue
        names = row.get("per_topic", row["measures"])
        extra = ""
        if row.get("missing"):
            extra = f" (not registered yet: {', '.join(row['missing'])})"
        out.append(f"* **{tool}** ({row['n_measures']} per-topic values per topic): "
                   + ", ".join(f"`{n}`" for n in names) + extra)
    missing = [r for r in rows if r["tool"] == "irscale" and r.get("missing")]
    if missing:
        out += ["", "irscale measures asked for but not registered in this checkout: "
                + ", ".join(sorted({n for r in missing for n in r["missing"]}))
                + ". The script requests them by name, so it picks them up once they exist."]
    if meta.get("warmup"):
        out += ["", "### JIT and warm-up", ""]
        for tool, info in meta["warmup"].items():
            out.append(f"* {tool}: first run on the tiny case took {info['wall_s']:.1f} s "
                       f"(a second one {info['again_s']:.1f} s).")
        out.append("ranx compiles its numba kernels on first use and caches them on disk; the "
                   "warm-up run populates that cache (as any earlier use would), and the "
                   "measured runs pay the cache loading and dispatch, which is part of their "
                   "`evaluate` stage.")
    if checks:
        out += ["", "### Cross-checks", ""]
        for case, report in checks.items():
            out += [f"Case {CASE_LABEL.get(case, case)}:", ""]
            out += bench_check_lines(report)
            out.append("")
    out += [END]
    return "\n".join(out) + "\n"


def section_begin(section: str | None) -> str:
    return BEGIN if section is None else SECTION_BEGIN.format(section)


def bench_check_lines(report: dict) -> list[str]:
    lines = []
    sample = report.get("sample")
    if sample:
        lines.append(
            f"* irscale vs pytrec_eval at full precision on {sample['topics']} sampled "
            f"topics: max |difference| = {sample['max_abs_diff_three']:.3g} for the three "
            f"measures ({', '.join(f'{k}: {v:.3g}' for k, v in sample['per_measure'].items())})"
            f"; over the {sample['n_common_all_trec']} per-topic measures both compute for "
            f"all_trec: {sample['max_abs_diff_all_trec']:.3g}"
            + (f" (largest: {sample['worst_all_trec']})" if sample.get('worst_all_trec') else "")
            + "."
        )
        if sample.get("only_irscale") or sample.get("only_pytrec_eval"):
            lines.append(
                "* numeric per-topic all_trec values only irscale gives: "
                + (", ".join(f"`{m}`" for m in sample["only_irscale"]) or "none")
                + "; only pytrec_eval gives (trec_eval prints them in the summary only, or "
                "as text): "
                + (", ".join(f"`{m}`" for m in sample["only_pytrec_eval"]) or "none") + "."
            )
    for peer, info in report.get("outputs", {}).items():
        lines.append(
            f"* written three-measure outputs, irscale vs {peer}: {info['compared']:,} values "
            f"compared, max |difference| {info['max_abs_diff']:.4f}, "
            f"{info['beyond_rounding']:,} beyond 4-decimal rounding"
            + (f" ({info['note']})" if info.get("note") else "") + "."
        )
    return lines


def write_markdown(path: Path, text: str, begin: str = BEGIN) -> None:
    """Replace the generated section that starts with ``begin`` (up to the next end
    marker); a page without it gets the section appended."""
    if path.exists():
        current = path.read_text()
        if begin in current and END in current.split(begin, 1)[1]:
            head, rest = current.split(begin, 1)
            _, foot = rest.split(END, 1)
            path.write_text(head + text.rstrip("\n") + foot)
            return
        path.write_text(current.rstrip("\n") + "\n\n" + text)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# Benchmarks\n\n" + text)


def parent_main(args: argparse.Namespace) -> int:
    global TREC_EVAL
    TREC_EVAL = args.trec_eval and str(Path(args.trec_eval).resolve())
    work = Path(args.work_dir)
    for sub in ("out", "reports", "logs", "profiles"):
        (work / sub).mkdir(parents=True, exist_ok=True)
    data_dir = Path(args.data_dir)
    started = time.perf_counter()
    FILE_CASES.update({name: (Path(q).resolve(), Path(r).resolve())
                       for name, q, r in args.files})
    # data generation in a child: the parent stays small (see the module documentation)
    cases = list(dict.fromkeys([*args.cases, *([] if args.no_warmup else ["tiny"])]))
    generated = [case for case in cases if case != "startup"]
    described = work / "data.json"
    data = {}
    if generated or FILE_CASES:
        files_options = [item for name, (q, r) in FILE_CASES.items()
                         for item in ("--files", name, str(q), str(r))]
        subprocess.run([sys.executable, str(HERE / "datagen.py"), *generated, "--data-dir",
                        str(data_dir), "--describe", str(described), *files_options],
                       check=True, cwd=ROOT)
        data = json.loads(described.read_text())
    generated += list(FILE_CASES)
    args.cases = [*args.cases, *FILE_CASES]
    files = {case: (Path(d["qrels"]), Path(d["run"])) for case, d in data.items()}
    if "startup" in cases:
        (work / "startup").mkdir(exist_ok=True)
        files["startup"] = (work / "startup" / "qrels", work / "startup" / "run")
        files["startup"][0].write_text(STARTUP_QRELS)
        files["startup"][1].write_text(STARTUP_RUN)
    meta = {
        "date": dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        "command": "python benchmarks/bench_eval.py " + " ".join(args.argv),
        "machine": machine_description(),
        "versions": library_versions(),
        "source": use_live_tree() if args.no_snapshot else take_snapshot(work),
        "load_start": load_average(),
        "data": {},
        "timeout_s": args.timeout,
        "startup_repeat": args.startup_repeat,
    }
    for case in generated:
        if case not in args.cases:
            continue
        meta["data"][case] = {**data[case]["stats"],
                              "run_mb": files[case][1].stat().st_size / 1e6}
    print(f"machine: {meta['machine']}\nversions: {meta['versions']}", flush=True)

    if not args.no_warmup:
        tiny = files["tiny"]
        meta["warmup"] = {}
        for tool in args.tools:
            first = None
            for measure_set in args.sets:
                job = measure(tool, "tiny", measure_set, tiny, work, args.timeout)
                first = job if first is None else first
                if job["status"] != "ok":
                    print(f"warm-up of {tool} failed:\n{job.get('error', job['status'])}")
            again = measure(tool, "tiny", "three", tiny, work, args.timeout)
            meta["warmup"][tool] = {"wall_s": first["wall_s"], "again_s": again["wall_s"]}
            print(f"warm-up {tool}: {first['wall_s']:.1f} s, again {again['wall_s']:.1f} s",
                  flush=True)

    rows: list[dict] = []
    results_path = work / "results.json"
    for case in args.cases:
        warm_page_cache(list(files[case]))
        startup = case == "startup"
        tools = [*args.tools, *([HELP_ROW] if startup and "irscale" in args.tools else [])]
        for measure_set in (["three"] if startup else args.sets):
            for repetition in range(args.startup_repeat if startup else args.repeat):
                # the order rotates from one repetition to the next: no tool always follows
                # the same one (a process that has just freed much memory slows the next)
                turn = repetition % len(tools)
                for tool in tools[turn:] + tools[:turn]:
                    row = measure(tool, case, measure_set, files[case], work, args.timeout)
                    rows.append(row)
                    stage = " ".join(f"{k}={v:.2f}" for k, v in row.get("stages", {}).items())
                    print(f"{tool:12s} {case:5s} {measure_set:9s} {row['status']:7s} "
                          f"{row['wall_s']:8.3f} s {row['peak_mb']:8.0f} MB  load {row['load']}"
                          f"  {stage}", flush=True)
                    if row["status"] == "error":
                        print(row.get("error", ""), flush=True)
                    results_path.write_text(json.dumps({"meta": meta, "rows": rows}, indent=1))
    rows = median_rows(rows)

    profiles = {}
    if args.cprofile and "irscale" in args.tools:
        for case in [c for c in generated if c in args.cases]:
            for measure_set in args.sets:
                qrels, run = files[case]
                key = f"{CASE_LABEL.get(case, case)}, {SET_LABEL[measure_set]}"
                profile = work / "profiles" / f"{case}_{measure_set}.txt"
                run_job(worker_command("irscale", qrels, run, measure_set,
                                       work / "out" / "profiled.txt",
                                       work / "reports" / "profiled.json", profile),
                        args.timeout, work / "logs" / "profiled.log")
                if profile.exists():
                    profiles[key] = trim_profile(profile.read_text())

    checks = {}
    if not args.no_check and "irscale" in args.tools:
        for case in [c for c in generated if c in args.cases]:
            report = work / "reports" / f"check_{case}.json"
            qrels, run = files[case]
            job = run_job([sys.executable, str(Path(__file__).resolve()), "--check", case,
                           "--qrels", str(qrels), "--run", str(run), "--out-dir",
                           str(work / "out"), "--sample", str(args.sample),
                           "--report", str(report)],
                          args.timeout, work / "logs" / f"check_{case}.log")
            if job["status"] == "ok":
                checks[case] = json.loads(report.read_text())
                for line in bench_check_lines(checks[case]):
                    print(f"check {case}: {line}", flush=True)
            else:
                print(f"check {case} failed:\n{tail(work / 'logs' / f'check_{case}.log')}")

    meta["load_end"] = load_average()
    meta["total_s"] = time.perf_counter() - started
    results_path.write_text(json.dumps({"meta": meta, "rows": rows, "checks": checks},
                                       indent=1))
    print()
    print_table(results_table(rows, args.timeout))
    print()
    for name, measured, verdict in targets(rows, case_run_lines(meta)):
        print(f"{verdict.replace('*', ''):8s} {name}: {measured}")
    if args.markdown:
        begin = section_begin(args.section)
        write_markdown(Path(args.markdown), markdown(rows, meta, checks, profiles,
                                                     args.timeout, begin), begin)
        print(f"\nwrote {args.markdown}")
    if not args.keep_outputs:
        for path in (work / "out").glob("*.txt"):
            path.unlink()
    print(f"raw results: {results_path} (total {meta['total_s'] / 60:.1f} min)")
    return 0


def median_rows(rows: list[dict]) -> list[dict]:
    """One row per (tool, case, set): the run with the median wall time."""
    out = []
    for key in dict.fromkeys((r["tool"], r["case"], r["set"]) for r in rows):
        group = [r for r in rows if (r["tool"], r["case"], r["set"]) == key]
        ok = sorted((r for r in group if r["status"] == "ok"), key=lambda r: r["wall_s"])
        if not ok:
            out.append(group[0])
            continue
        median = statistics.median_low([r["wall_s"] for r in ok])
        out.append(next(r for r in ok if r["wall_s"] == median))
    return out


_IMPORT_NOISE = ("<frozen", "importlib", "builtins.exec", "builtins.__import__", "hasattr",
                 "scipy/", "__getattr__", "_imp.", "marshal.loads")


def trim_profile(text: str, n: int = 25) -> str:
    """The header and the first ``n`` entries, without the import machinery's frames."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
    body = [line for line in lines[start + 1:]
            if line.strip() and not any(noise in line for noise in _IMPORT_NOISE)
            and ("(<module>)" not in line or "irscale/__init__.py" in line)]
    keep = [line.replace(str(ROOT) + "/", "") for line in [lines[start], *body[:n]]]
    keep = [re.sub(r"\S*site-packages/", "", line) for line in keep]
    return "\n".join(re.sub(r"\S*snapshot/irscale/", "irscale/", line) for line in keep)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", default=None, choices=list(CASE_LABEL),
                        help="generated cases (default: i ii, none with --files)")
    parser.add_argument("--files", nargs=3, action="append", default=[],
                        metavar=("NAME", "QRELS", "RUN"),
                        help="also measure these files as case NAME (repeatable): irscale as "
                        "its command line, compared with trec_eval when it is run")
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    parser.add_argument("--tools", nargs="+", default=list(WORKER_TOOLS),
                        choices=TOOL_NAMES)
    parser.add_argument("--trec-eval", metavar="PATH",
                        help="a trec_eval binary (built from NIST's sources): run it as a "
                        "peer and compare its output with irscale's byte for byte")
    parser.add_argument("--markdown", help="write the report into this Markdown file "
                        "(between generated-section markers; the rest is kept)")
    parser.add_argument("--timeout", type=float, default=900.0,
                        help="seconds per tool run before it is killed (default 900)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs per tool × case × set; the median is reported")
    parser.add_argument("--startup-repeat", type=int, default=5,
                        help="runs per tool on the start-up case (default 5; the median)")
    parser.add_argument("--section", default=None, metavar="NAME",
                        help="with --markdown: write between the markers of section NAME "
                        "(e.g. small-topics) instead of the main generated section")
    parser.add_argument("--data-dir", default=str(HERE / "data"))
    parser.add_argument("--work-dir", default=str(HERE / "results"),
                        help="outputs, logs and raw results (git-ignored)")
    parser.add_argument("--sample", type=int, default=1000,
                        help="topics sampled for the full-precision cross-check")
    parser.add_argument("--cprofile", action="store_true",
                        help="also run irscale under cProfile (untimed) for the report")
    parser.add_argument("--no-check", action="store_true", help="skip the cross-checks")
    parser.add_argument("--no-snapshot", action="store_true",
                        help="measure the live source tree instead of a copy taken at the start")
    parser.add_argument("--no-warmup", action="store_true",
                        help="skip the warm-up runs on a tiny case")
    parser.add_argument("--keep-outputs", action="store_true",
                        help="keep the per-topic output files of every tool")
    # internal: one measured job, or the cross-checks, in a child process
    parser.add_argument("--worker", choices=WORKER_TOOLS, help=argparse.SUPPRESS)
    parser.add_argument("--check", help=argparse.SUPPRESS)
    parser.add_argument("--qrels", help=argparse.SUPPRESS)
    parser.add_argument("--run", help=argparse.SUPPRESS)
    parser.add_argument("--set", choices=SETS, help=argparse.SUPPRESS)
    parser.add_argument("--output", help=argparse.SUPPRESS)
    parser.add_argument("--report", help=argparse.SUPPRESS)
    parser.add_argument("--profile", help=argparse.SUPPRESS)
    parser.add_argument("--out-dir", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.cases is None:
        args.cases = [] if args.files else ["i", "ii"]
    names = [name for name, _, _ in args.files]
    for name, qrels, run in args.files:
        if name in CASE_LABEL or names.count(name) > 1 or not re.fullmatch(r"[\w.-]+", name):
            parser.error(f"--files {name}: a case name of letters, digits, '.', '-' or '_', "
                         "used once and not a generated case's")
        for path in (qrels, run):
            if not os.path.isfile(path):
                parser.error(f"--files {name}: {path} is not a file")
    if args.trec_eval and "trec_eval" not in args.tools:
        args.tools.append("trec_eval")
    if "trec_eval" in args.tools and not args.trec_eval:
        parser.error("--tools trec_eval needs --trec-eval PATH")
    if args.trec_eval and not (os.path.isfile(args.trec_eval)
                               and os.access(args.trec_eval, os.X_OK)):
        parser.error(f"--trec-eval {args.trec_eval}: not an executable file")
    args.argv = argv
    return args


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    if args.worker:
        return worker_main(args)
    if args.check:
        return check_main(args)
    return parent_main(args)


if __name__ == "__main__":
    sys.exit(main())
