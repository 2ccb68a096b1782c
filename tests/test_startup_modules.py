"""The modules the commands typed most import, listed: a 10-line ``irscale eval`` of
trec_eval's measures, the same with ``--cache DIR`` once it is cached (a hit),
``irscale --help`` and ``irscale eval --help``.

Each runs in a fresh interpreter started with ``-S`` (no ``site``: no ``.pth`` file of the
machine pre-imports a module the command would otherwise pay for, as a user's fresh virtual
environment has none), with irscale and its dependencies on the path. The modules of irscale
each command loads are listed exactly: a new one on the path fails the test until it is
added here, knowingly. Of the standard library and the dependencies, those that cost a
command line more than it uses are refused: numpy, pandas, scipy, pyarrow, matplotlib,
``dataclasses`` and ``inspect`` (with ``ast`` and ``dis``: classes are
:mod:`irscale.core.records`), ``typing`` (annotations are text; type checkers read the
``TYPE_CHECKING`` imports), ``pathlib`` (and ``urllib``, ``ipaddress``), ``tempfile`` (and
``random``), ``threading``, ``glob``, ``shutil`` (with ``bz2``, ``lzma`` and ``fnmatch``:
argparse's help width is read without it, :func:`irscale.cli.parser.help_width`). Their
cost is measured by ``benchmarks/bench_startup.py``, never here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

import irscale

#: The 10 lines of the evaluation: qrels of one topic, a run of ten documents.
QRELS = "".join(f"1 0 d{k} {k % 2}\n" for k in range(10))
RUN = "".join(f"1 Q0 d{k} {k + 1} {10 - k} r\n" for k in range(10))

REFUSED = {"numpy", "pandas", "scipy", "pyarrow", "matplotlib", "dataclasses", "inspect",
           "ast", "dis", "typing", "pathlib", "urllib", "ipaddress", "tempfile", "random",
           "threading", "glob", "shutil", "bz2", "lzma", "fnmatch"}

#: What ``irscale --help`` loads of irscale: the command table, no subcommand's module.
HELP = {"irscale", "irscale._engine", "irscale.cli", "irscale.cli.main", "irscale.cli.parser",
        "irscale.core", "irscale.core.version", "irscale.errors"}
#: What ``irscale eval --help`` loads besides: the parser of ``eval`` and the declarations of
#: its options.
EVAL_HELP = HELP | {
    "irscale.cli.common_params", "irscale.cli.dataset_options", "irscale.cli.eval",
    "irscale.cli.eval_options",
    "irscale.cli.eval_many", "irscale.cli.intervals", "irscale.cli.options",
    "irscale.cli.outputs", "irscale.cli.rules", "irscale.cli.runargs",
    "irscale.core.binding", "irscale.core.budget", "irscale.core.extras", "irscale.core.lazy",
    "irscale.core.options",
    "irscale.core.params",
    "irscale.core.reads", "irscale.core.records", "irscale.evaluation",
    "irscale.evaluation.options", "irscale.evaluation.params",
    "irscale.io", "irscale.io.files", "irscale.io.formats",
    "irscale.io.irds", "irscale.io.naming", "irscale.io.sources", "irscale.stats",
    "irscale.stats.names"}
#: What the evaluation loads besides: the contexts, the judging and trec_eval's families.
EVAL = EVAL_HELP | {
    "irscale.cache", "irscale.cache.calls", "irscale.cli.requirements", "irscale.core.contexts",
    "irscale.evaluation.context",
    "irscale.core.edge",
    "irscale.core.input_messages", "irscale.core.kernels", "irscale.core.numbers",
    "irscale.evaluation.contexts", "irscale.evaluation.contexts.fairness",
    "irscale.evaluation.contexts.intents", "irscale.evaluation.contexts.judged",
    "irscale.evaluation.contexts.nuggets", "irscale.evaluation.contexts.prefs",
    "irscale.evaluation.contexts.pyramids", "irscale.evaluation.contexts.qrels_jg",
    "irscale.evaluation.contexts.sessions",
    "irscale.evaluation.contexts.texts", "irscale.evaluation.setup",
    "irscale.evaluation.trec_text", "irscale.io.native_dicts", "irscale.io.native_files",
    "irscale.io.native_inputs", "irscale.measures", "irscale.measures.base",
    "irscale.measures.contexts", *(f"irscale.measures.contexts.{name}" for name in (
        "intents", "nuggets", "policies", "prefs", "pyramids", "qrels_jg", "rankings",
        "sessions", "texts")),
    "irscale.measures.ir_measures_names", "irscale.measures.layout",
    "irscale.measures.names", "irscale.measures.native", "irscale.measures.params",
    "irscale.measures.plan", "irscale.measures.trec", "irscale.measures.trec_reading",
    "irscale.measures.trec_table",
    *(f"irscale.measures.trec.{name}" for name in (
        "average_precision", "bpref", "counts", "gain_g", "gains", "interpolated", "ndcg",
        "ndcg_averaged", "precision", "rbp", "recall", "reciprocal_rank", "relstring",
        "set_measures", "unjudged"))}

#: What a hit of ``irscale eval --cache DIR`` loads of irscale: the reply to its command
#: line (:mod:`irscale.cache.requests`) read from the folder (:mod:`irscale.cache.store`,
#: its frame checked: :mod:`irscale.cache.frames`) with the files' digests
#: (:mod:`irscale.io.regular_files`), irscale's version from the engine, and the one writer
#: of standard output; no parser, no catalogue, no context, no judging.
CACHE_HIT = {
    "irscale", "irscale._engine", "irscale.cache", "irscale.cache.frames",
    "irscale.cache.requests", "irscale.cache.store", "irscale.cli", "irscale.cli.main",
    "irscale.core", "irscale.core.budget", "irscale.core.extras", "irscale.core.reads",
    "irscale.core.records", "irscale.core.version", "irscale.errors", "irscale.io",
    "irscale.io.files", "irscale.io.json_input", "irscale.io.regular_files"}

_SCRIPT = textwrap.dedent("""
    import contextlib, io, json, sys
    from irscale.cli.main import main
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with contextlib.redirect_stdout(out):
        try:
            status = main(json.loads(sys.argv[1]))
        except SystemExit as stop:  # --help
            status = stop.code
    print(json.dumps({"status": status, "modules": sorted(sys.modules)}))
""")


def _modules(argv: list[str], cwd: str) -> tuple[object, set[str]]:
    """The exit status of ``irscale ARGV`` and the modules loaded, in an interpreter
    without ``site``."""
    import numpy  # where the dependencies are installed (not imported by the command)

    path = [os.path.dirname(os.path.dirname(irscale.__file__)),
            os.path.dirname(os.path.dirname(numpy.__file__))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    done = subprocess.run([sys.executable, "-S", "-c", _SCRIPT, json.dumps(argv)], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=300, check=True)
    report = json.loads(done.stdout.splitlines()[-1])
    return report["status"], set(report["modules"])


@pytest.mark.parametrize(("argv", "listed"), [
    (["eval", "qrels", "run"], EVAL),
    (["--help"], HELP),
    (["eval", "--help"], EVAL_HELP),
], ids=["eval-10-lines", "help", "eval-help"])
def test_the_modules_a_command_imports_are_listed(tmp_path, argv, listed):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    status, modules = _modules(argv, str(tmp_path))
    _check_listed(status, modules, listed)


def test_the_modules_a_cache_hit_imports_are_listed(tmp_path):
    """``irscale eval --cache DIR`` run twice: the second, a hit, loads :data:`CACHE_HIT`
    of irscale (and the first wrote the reply it reads: two entries)."""
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    argv = ["eval", "qrels", "run", "--cache", "c"]
    status, _ = _modules(argv, str(tmp_path))  # a miss
    assert status == 0
    assert len(os.listdir(tmp_path / "c")) == 2
    status, modules = _modules(argv, str(tmp_path))
    _check_listed(status, modules, CACHE_HIT)


def _check_listed(status: object, modules: set[str], listed: set[str]) -> None:
    """The command succeeded, loaded exactly ``listed`` of irscale and none of
    :data:`REFUSED`."""
    assert status == 0
    ours = {name for name in modules if name == "irscale" or name.startswith("irscale.")}
    assert sorted(ours - listed) == [], "modules of irscale not listed for this command"
    assert sorted(listed - ours) == [], "listed but no longer imported: take them out"
    assert sorted({name.partition(".")[0] for name in modules} & REFUSED) == []
