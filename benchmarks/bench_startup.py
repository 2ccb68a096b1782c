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

    python benchmarks/bench_startup.py [--repeat 5] [--markdown docs/benchmarks.md]
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


def measure(repeat: int, work: Path) -> tuple[list[dict], dict[str, float]]:
    """The median wall and CPU time of every command line, and the median wall time of the
    floors."""
    jobs = [(label, [sys.executable, *bench_eval.IRSCALE_COMMAND, *argv], status)
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
    medians = {label: statistics.median(values) for label, values in times.items()}
    rows = [{"command": label, "wall_s": medians[label],
             "cpu_s": statistics.median(cpu[label])} for label, _, _ in jobs
            if label not in FLOORS]
    return rows, {label: medians[label] for label in FLOORS}


def markdown(rows: list[dict], floors: dict[str, float], meta: dict) -> str:
    worst = max(rows, key=lambda row: row["cpu_s"])  # CPU: what other processes leave alone
    slowest = max(rows, key=lambda row: row["wall_s"])
    met = "met" if worst["cpu_s"] <= TARGET else "missed"
    lines = [BEGIN, "",
             f"*{meta['date']}; `{meta['command']}`; source {meta['source']}; "
             f"{meta['machine']['cpu']}, Python {meta['machine']['python']}; load "
             f"{meta['load']}.*", "",
             f"Every `--help` and one usage error of every command and sub-command, and "
             f"every command that reads files given missing and malformed ones, and valid "
             f"ones before a malformed later one (input k of n), each a whole process "
             f"(median of {meta['repeat']} runs, wall and CPU seconds). "
             f"Target: every one ≤ {TARGET} s of CPU: **{met}** (most: `{worst['command']}`, "
             f"{worst['cpu_s']:.3f} s; the slowest by the wall clock, under the load above: "
             f"`{slowest['command']}`, {slowest['wall_s']:.3f} s).", "",
             "| floor | wall s |", "|---|---:|"]
    lines += [f"| `{label}` | {value:.3f} |" for label, value in floors.items()]
    lines += ["", "| command line | wall s | CPU s | − `python -c pass` |",
              "|---|---:|---:|---:|"]
    floor = floors["python -c pass"]
    lines += [f"| `{row['command']}` | {row['wall_s']:.3f} | {row['cpu_s']:.3f} | "
              f"{row['wall_s'] - floor:+.3f} |" for row in rows]
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
    args = parser.parse_args(argv)
    args.work_dir.mkdir(parents=True, exist_ok=True)
    source = bench_eval.use_live_tree() if args.no_snapshot else \
        bench_eval.take_snapshot(args.work_dir)
    meta = {"date": dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
            "command": "python benchmarks/bench_startup.py " + " ".join(argv or sys.argv[1:]),
            "source": source, "machine": bench_eval.machine_description(),
            "load": bench_eval.load_average(), "repeat": args.repeat}
    rows, floors = measure(args.repeat, args.work_dir)
    for label, value in floors.items():
        print(f"{value:7.3f}  {label}")
    for row in rows:
        print(f"{row['wall_s']:7.3f} {row['cpu_s']:7.3f}  {row['command']}")
    if args.markdown:
        bench_eval.write_markdown(args.markdown, markdown(rows, floors, meta), BEGIN)
    return 0


if __name__ == "__main__":
    sys.exit(main())
