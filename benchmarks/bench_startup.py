"""Start-up of every command: ``irscale X --help`` and a mistyped option, whole processes.

The start-up case of ``bench_eval.py`` times ``irscale --help`` and ``irscale eval`` on
6-line files; this extends it to every command and sub-command the parser has: for each,
``--help`` and one usage error (an option given a value it refuses, the first value its
domain leaves out (:mod:`irscale.core.params`) or a name not among its choices, else an
unknown option). Both must be answered before numpy, pyarrow, scipy, pandas or matplotlib
are imported (``tests/test_startup.py`` checks that, without timing): the target is
≤ 0.3 s of CPU each (the CPU time, which the load of other processes leaves alone). And
every command that reads files, given files that do not exist and files of each malformed
kind of ``tests.cli_parsers.MALFORMED`` (``missing input``, ``malformed input``,
``malformed table input``), and given valid files before a malformed later one (every
input but the first in turn: ``tests.cli_parsers.later_input_cases``, ``input k of n
malformed``): reported before pandas and scipy are imported (``tests/test_startup.py``
again), also ≤ 0.3 s of CPU. Each command
line runs ``--repeat`` times in a fresh process (the median is
reported, the runs of all command lines interleaved so that no command always follows the
same one), beside the floor of the interpreter itself (``python -c pass``) and the import
of the command line's entry module; every process imports a byte-compiled copy of the
sources taken at the start, as ``bench_eval.py`` does (:func:`bench_eval.take_snapshot`).

The start-up targets are ratios to ``python -c pass`` of the same interpreter,
reported for wall and CPU time: ``irscale eval`` of a 10-line run with the official measures
≤ :data:`EVAL_RATIO` ×, ``irscale --help``, every ``--help`` and every usage error ≤
:data:`USAGE_RATIO` ×; and ``irscale eval -q`` of a TREC track run (50 topics × 1,000
documents, ``datagen.py`` case ``track50``) against trec_eval 9.0.8 (``--trec-eval PATH``, a
binary built from NIST's sources, which this repository does not hold) ≤ 1.0 ×.

    python benchmarks/bench_startup.py [--repeat 5] [--markdown docs/benchmarks.md]
                                       [--trec-eval PATH]
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_eval  # noqa: E402

BEGIN = "<!-- BEGIN GENERATED: benchmarks/bench_startup.py -->"
#: Seconds each ``--help`` and usage error may take.
TARGET = 0.3
#: The floors: the interpreter alone, and the import of the command line's entry module.
FLOORS = {"python -c pass": ["-c", "pass"],
          "import irscale.cli.main": ["-c", "import irscale.cli.main"]}
#: Most times ``python -c pass`` an evaluation of a 10-line run may take (wall and CPU).
EVAL_RATIO = 2.0
#: Most times ``python -c pass`` every ``--help`` and usage error may take.
USAGE_RATIO = 1.5
#: The 10-line run (two topics; the qrels are ``bench_eval.STARTUP_QRELS``).
TEN_LINE_RUN = "".join(f"{topic} Q0 d{rank} {rank} {10 - rank}.0 r\n"
                       for topic in (1, 2) for rank in range(1, 6))
EVAL_LABEL = "irscale eval (10-line run, official measures)"
TRACK_LABEL = "irscale eval -q (track run 50 × 1,000, official measures)"
TREC_EVAL_LABEL = "trec_eval -q (track run 50 × 1,000, official measures)"


def evaluations(work: Path, trec_eval: str | None) -> list[tuple[str, list[str], int]]:
    """``(label, command, expected exit status)`` of the evaluations the targets name: the
    10-line run and the track run with irscale's command line (whole commands, the
    interpreter first), and the track run with ``trec_eval`` when given."""
    import datagen

    inputs = work / "inputs"
    inputs.mkdir(exist_ok=True)
    qrels, run = inputs / "startup.qrels", inputs / "ten-lines.run"
    qrels.write_text(bench_eval.STARTUP_QRELS)
    run.write_text(TEN_LINE_RUN)
    track = datagen.ensure_case(datagen.CASES["track50"], HERE / "data")
    irscale = [sys.executable, *bench_eval.IRSCALE_COMMAND]
    jobs = [(EVAL_LABEL, [*irscale, "eval", str(qrels), str(run)], 0),
            (TRACK_LABEL, [*irscale, "eval", "-q", *map(str, track)], 0)]
    if trec_eval:
        jobs.append((TREC_EVAL_LABEL, [trec_eval, "-q", *map(str, track)], 0))
    return jobs


def commands(work: Path) -> list[tuple[str, list[str], int]]:
    """``(label, arguments, expected exit status)`` of every command line measured: the
    ``--help`` of every (sub-)command and a usage error of each; and every command that
    reads files given files that do not exist, then files of each malformed kind of
    ``tests.cli_parsers.MALFORMED`` (written under ``work``; ``tests.cli_parsers.input_cases``
    and ``option_input_cases`` build the command lines), then valid files before a
    malformed later one (``tests.cli_parsers.later_input_cases``)."""
    from irscale.cli.main import build_parser

    sys.path.insert(0, str(HERE.parent))
    from tests.cli_parsers import (
        MALFORMED,
        input_cases,
        later_input_cases,
        option_input_cases,
        parsers,
    )

    lines = []
    for prog, parser in parsers(build_parser()):
        words = prog.split()[1:]
        lines.append((f"{prog} --help", [*words, "--help"], 0))
        wrong = _refused_value(parser) or "--no-such-option"
        lines.append((f"{prog} {wrong}", [*words, wrong], 2))
    inputs = work / "inputs"
    inputs.mkdir(exist_ok=True)
    for kind in ("missing", *MALFORMED):
        prefix = str(inputs / f"{kind.replace(' ', '-')}-")
        for argv in [*input_cases(build_parser(), prefix), *option_input_cases(prefix)]:
            if kind in MALFORMED:
                for arg in argv:
                    if arg.startswith(prefix):
                        Path(arg).write_text(MALFORMED[kind])
            command = " ".join(arg for arg in argv if not arg.startswith(str(inputs)))
            lines.append((f"irscale {command} ({kind} input)", argv, 2))
    prefix = str(inputs / "later-")
    for argv, files in later_input_cases(build_parser(), prefix):
        for file, text in files.items():
            Path(file).write_text(text)
        bad = [text == MALFORMED["malformed table"] for text in files.values()].index(True)
        command = " ".join(arg for arg in argv if not arg.startswith(str(inputs)))
        lines.append((f"irscale {command} (input {bad + 1} of {len(files)} malformed)",
                      argv, 2))
    return lines


def _refused_value(parser: argparse.ArgumentParser) -> str | None:
    """``--option=VALUE`` with a value the first option that declares a domain refuses
    (else the first option with choices), or None."""
    options = [action for action in parser._actions
               if action.option_strings and action.nargs != 0]
    for action in options:
        domain = getattr(action, "domain", None)
        if domain is not None:
            return f"{max(action.option_strings, key=len)}={domain.outside()[0]}"
    for action in options:
        if action.choices is not None:
            return f"{max(action.option_strings, key=len)}=no-such-choice"
    return None


def measure(repeat: int, work: Path, trec_eval: str | None = None
            ) -> tuple[list[dict], dict[str, dict[str, float]]]:
    """The median wall and CPU time of every command line (:func:`evaluations` first), and
    those of the floors."""
    jobs = evaluations(work, trec_eval)
    jobs += [(label, [sys.executable, *bench_eval.IRSCALE_COMMAND, *argv], status)
             for label, argv, status in commands(work)]
    jobs += [(label, [sys.executable, *argv], 0) for label, argv in FLOORS.items()]
    times: dict[str, list[float]] = {label: [] for label, _, _ in jobs}
    cpu: dict[str, list[float]] = {label: [] for label, _, _ in jobs}
    log = work / "startup.log"
    for repetition in range(repeat):
        turn = (repetition * 7) % len(jobs)  # a different order each repetition
        for label, command, status in jobs[turn:] + jobs[:turn]:
            job = bench_eval.run_job(command, 60.0, log)
            if job["returncode"] != status:
                raise SystemExit(f"{label}: exit status {job['returncode']}, expected "
                                 f"{status}:\n{bench_eval.tail(log)}")
            times[label].append(job["wall_s"])
            cpu[label].append(job["cpu_s"])
    rows = [{"command": label, "wall_s": statistics.median(times[label]),
             "cpu_s": statistics.median(cpu[label])} for label, _, _ in jobs]
    return ([row for row in rows if row["command"] not in FLOORS],
            {row["command"]: row for row in rows if row["command"] in FLOORS})


def ratio_targets(rows: list[dict], floor: dict[str, float]) -> list[str]:
    """The ratio targets (:data:`EVAL_RATIO`, :data:`USAGE_RATIO`, trec_eval), each with
    the measured ratios and its verdicts in CPU and by the wall clock (which the load of
    other processes inflates), as Markdown lines."""
    by_label = {row["command"]: row for row in rows}
    evaluation, track = by_label[EVAL_LABEL], by_label[TRACK_LABEL]
    usage = [row for row in rows if _is_usage(row["command"])]
    worst = max(usage, key=lambda row: row["cpu_s"] / floor["cpu_s"])
    met = {clock: sum(row[clock] <= USAGE_RATIO * floor[clock] for row in usage)
           for clock in ("cpu_s", "wall_s")}
    lines = [f"* `{EVAL_LABEL}` ≤ {EVAL_RATIO} × `python -c pass`: "
             f"{_ratios(evaluation, floor)}: {_verdict(evaluation, floor, EVAL_RATIO)}.",
             f"* every `--help` and usage error ≤ {USAGE_RATIO} × `python -c pass`: "
             f"**{met['cpu_s']} of {len(usage)} met in CPU, {met['wall_s']} by the wall "
             f"clock** (most: `{worst['command']}`, {_ratios(worst, floor)})."]
    if TREC_EVAL_LABEL in by_label:
        peer = by_label[TREC_EVAL_LABEL]
        lines.append(f"* `{TRACK_LABEL}` ≤ 1.0 × trec_eval 9.0.8: {_ratios(track, peer)}: "
                     f"{_verdict(track, peer, 1.0)}.")
    else:
        lines.append(f"* `{TRACK_LABEL}` against trec_eval 9.0.8: not measured (no "
                     "`--trec-eval PATH`).")
    return lines


def _ratios(row: dict, base: dict) -> str:
    return (f"{row['cpu_s'] / base['cpu_s']:.2f} × in CPU, "
            f"{row['wall_s'] / base['wall_s']:.2f} × by the wall clock")


def _verdict(row: dict, base: dict, most: float) -> str:
    """Whether ``row`` takes at most ``most`` times ``base``, in CPU and by the wall clock."""
    return ", ".join(
        f"**{'met' if row[clock] <= most * base[clock] else 'missed'}** {words}"
        for clock, words in (("cpu_s", "in CPU"), ("wall_s", "by the wall clock")))


def _is_usage(label: str) -> bool:
    """Whether the row ``label`` is a ``--help`` or a usage error of :func:`commands` (not a
    missing or malformed input, ``... (kind input)``, nor one of :func:`evaluations`)."""
    return label.startswith("irscale ") and not label.endswith(")")


def markdown(rows: list[dict], floors: dict[str, dict[str, float]], meta: dict) -> str:
    floor = floors["python -c pass"]
    parsed = [row for row in rows if row["command"] not in
              (EVAL_LABEL, TRACK_LABEL, TREC_EVAL_LABEL)]
    worst = max(parsed, key=lambda row: row["cpu_s"])  # CPU: what other processes leave alone
    slowest = max(parsed, key=lambda row: row["wall_s"])
    met = "met" if worst["cpu_s"] <= TARGET else "missed"
    lines = [BEGIN, "",
             f"*{meta['date']}; `{meta['command']}`; source {meta['source']}; "
             f"{meta['machine']['cpu']}, Python {meta['machine']['python']}; load "
             f"{meta['load']}.*", "",
             f"Every `--help` and one usage error of every command and sub-command, and "
             f"every command that reads files given missing and malformed ones, and valid "
             f"ones before a malformed later one (input k of n), each a whole process "
             f"(median of {meta['repeat']} runs, wall and CPU seconds), and the evaluations "
             f"the ratio targets name. Target: every command line ≤ {TARGET} s of CPU: "
             f"**{met}** (most: `{worst['command']}`, {worst['cpu_s']:.3f} s; the slowest by "
             f"the wall clock, under the load above: `{slowest['command']}`, "
             f"{slowest['wall_s']:.3f} s). Ratio targets of the start-up:", "",
             *ratio_targets(rows, floor), "",
             "| floor | wall s | CPU s |", "|---|---:|---:|"]
    lines += [f"| `{label}` | {value['wall_s']:.3f} | {value['cpu_s']:.3f} |"
              for label, value in floors.items()]
    lines += ["", "| command line | wall s | CPU s | × `python -c pass` (wall, CPU) |",
              "|---|---:|---:|---:|"]
    lines += [f"| `{row['command']}` | {row['wall_s']:.3f} | {row['cpu_s']:.3f} | "
              f"{row['wall_s'] / floor['wall_s']:.2f}, {row['cpu_s'] / floor['cpu_s']:.2f} |"
              for row in rows]
    lines += ["", bench_eval.END]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5,
                        help="runs of every command line (default 5; the median)")
    parser.add_argument("--markdown", type=Path, default=None,
                        help="write the table into this Markdown file (between the markers "
                        "of its generated section)")
    parser.add_argument("--work-dir", type=Path, default=HERE / "results",
                        help="the copy of the sources and the log (git-ignored)")
    parser.add_argument("--no-snapshot", action="store_true",
                        help="measure the live source tree instead of a copy")
    parser.add_argument("--trec-eval", metavar="PATH", default=None,
                        help="a trec_eval 9.0.8 binary: its run of the track case beside "
                        "irscale's")
    args = parser.parse_args(argv)
    if args.trec_eval:
        args.trec_eval = str(Path(args.trec_eval).resolve())
    args.work_dir.mkdir(parents=True, exist_ok=True)
    source = bench_eval.use_live_tree() if args.no_snapshot else \
        bench_eval.take_snapshot(args.work_dir)
    meta = {"date": dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
            "command": "python benchmarks/bench_startup.py " + " ".join(argv or sys.argv[1:]),
            "source": source, "machine": bench_eval.machine_description(),
            "load": bench_eval.load_average(), "repeat": args.repeat}
    rows, floors = measure(args.repeat, args.work_dir, args.trec_eval)
    for label, value in floors.items():
        print(f"{value['wall_s']:7.3f} {value['cpu_s']:7.3f}  {label}")
    for row in rows:
        print(f"{row['wall_s']:7.3f} {row['cpu_s']:7.3f}  {row['command']}")
    if args.markdown:
        bench_eval.write_markdown(args.markdown, markdown(rows, floors, meta), BEGIN)
    return 0


if __name__ == "__main__":
    sys.exit(main())
