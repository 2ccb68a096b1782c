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
        "irscale.core", "irscale.core.lazy", "irscale.core.version", "irscale.errors"}
#: What ``irscale eval --help`` loads besides: the manifest, from which its parser is built
#: (:data:`irscale._manifest.HELP`, :func:`irscale.cli.parser.parser_of_help`).
EVAL_HELP = HELP | {"irscale._manifest"}
#: What a command line of ``eval`` of trec_eval's options loads to parse and check it: no
#: parser, no declarations of its options (:mod:`irscale.cli.eval_path`, from the
#: manifest's data; the record of what was given, :mod:`irscale.cli.given`; its run,
#: :mod:`irscale.cli.eval_run`), trec_eval's options and ``-m`` as trec_eval reads it
#: (:mod:`irscale.cli.runargs`, :mod:`irscale.evaluation.options`, their checks in
#: :mod:`irscale.core.options` and :mod:`irscale.core.option_values`: no declaration,
#: :mod:`irscale.core.params`), the runs told
#: from folders and patterns (:mod:`irscale.io.call_inputs`, not the readers of
#: :mod:`irscale.io.sources`), and the context that evaluates it as the manifest declares
#: it (:mod:`irscale.evaluation.context_manifest`: not the contexts' registry nor the
#: context's module).
EVAL_START = {
    "irscale", "irscale._engine", "irscale._manifest", "irscale.cli", "irscale.cli.eval_path",
    "irscale.cli.eval_run", "irscale.cli.given", "irscale.cli.main", "irscale.cli.runargs",
    "irscale.core", "irscale.core.extras", "irscale.core.lazy", "irscale.core.option_values",
    "irscale.core.options",
    "irscale.core.reads", "irscale.core.records", "irscale.errors", "irscale.evaluation",
    "irscale.evaluation.context_manifest", "irscale.evaluation.options", "irscale.io",
    "irscale.io.call_inputs", "irscale.io.files"}
#: What the evaluation loads besides: the judging, trec_eval's families of the measures
#: asked (each its module alone), the memory limit of the readers (:mod:`irscale.core.budget`),
#: the API's edge turned off (its switch alone, :mod:`irscale.core.edge_switch`: no public
#: function is called through it) and the one writer (:mod:`irscale.cli.outputs`); the dicts' reader
#: (:mod:`irscale.io.native_dicts`) and the readers' messages
#: (:mod:`irscale.core.input_messages`) only where dicts are given or a message is made.
EVAL = EVAL_START | {
    "irscale.cli.outputs", "irscale.core.budget", "irscale.core.edge_switch",
    "irscale.core.kernels", "irscale.core.numbers", "irscale.core.run_names",
    "irscale.evaluation.setup", "irscale.evaluation.trec_text",
    "irscale.io.naming", "irscale.io.native_files",
    "irscale.io.native_inputs",
    "irscale.measures", "irscale.measures.engine_calls", "irscale.measures.plan",
    "irscale.measures.trec_plain", "irscale.measures.trec_reading"}

#: What a hit of ``irscale eval --cache DIR`` loads of irscale: the reply to its command
#: line (:mod:`irscale.cache.requests`) read from the folder (:mod:`irscale.cache.store`,
#: its frame checked: :mod:`irscale.cache.frames`) with the files' digests
#: (:mod:`irscale.io.regular_files`), irscale's version from the engine, and the one writer
#: of standard output; no parser, no catalogue, no context, no judging.
CACHE_HIT = {
    "irscale", "irscale._engine", "irscale.cache", "irscale.cache.frames",
    "irscale.cache.requests", "irscale.cache.store", "irscale.cli", "irscale.cli.main",
    "irscale.core", "irscale.core.lazy", "irscale.core.reads", "irscale.core.version",
    "irscale.errors", "irscale.io", "irscale.io.files", "irscale.io.regular_files"}

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


#: What ``irscale compare -m map --test t --correction holm`` loads of irscale: the
#: command table, its parser, the evaluation of the runs into a score matrix (the
#: judging, the catalogue's computation and the evaluation's result), the paired t-test
#: (:mod:`irscale.stats.parametric`, not the registry's other tests), Holm's correction and
#: the text of the comparison; no rank or resampling test's module, no ANOVA, no report,
#: no plot, no meta-evaluation.
COMPARE = {
    "irscale", "irscale._engine", "irscale._manifest", "irscale.cache", "irscale.cache.calls",
    "irscale.cli", "irscale.cli.common_params", "irscale.cli.compare",
    "irscale.cli.compare_collections", "irscale.cli.dataset_options",
    "irscale.cli.eval_options", "irscale.cli.eval_path", "irscale.cli.eval_run",
    "irscale.cli.given",
    "irscale.cli.inputs", "irscale.cli.intervals", "irscale.cli.main",
    "irscale.cli.options", "irscale.cli.outputs", "irscale.cli.parser", "irscale.cli.requirements",
    "irscale.cli.rules", "irscale.cli.runargs", "irscale.core", "irscale.core._columnar",
    "irscale.core._columnar.blocks", "irscale.core._columnar.duplicates",
    "irscale.core._columnar.fingerprints", "irscale.core.binding", "irscale.core.budget",
    "irscale.core.checked", "irscale.core.columns", "irscale.core.edge",
    "irscale.core.edge_switch", "irscale.core.extras",
    "irscale.core.input_messages", "irscale.core.inputs", "irscale.core.judge",
    "irscale.core.judged", "irscale.core.kernels", "irscale.core.lazy",
    "irscale.core.mean_intervals", "irscale.core.native_columns", "irscale.core.native_judge",
    "irscale.core.notebook", "irscale.core.numbers", "irscale.core.option_values",
    "irscale.core.options", "irscale.core.params",
    "irscale.core.progress", "irscale.core.reads", "irscale.core.records", "irscale.core.rows",
    "irscale.core.run_names", "irscale.core.scorematrix", "irscale.core.segments",
    "irscale.core.strings", "irscale.core.trec_options",
    "irscale.core.version", "irscale.errors", "irscale.evaluation", "irscale.evaluation.api",
    "irscale.evaluation.context", "irscale.evaluation.context_manifest",
    "irscale.evaluation.contexts", "irscale.evaluation.contexts.judged",
    "irscale.evaluation.judged",
    "irscale.evaluation.options", "irscale.evaluation.params", "irscale.evaluation.setup",
    "irscale.io", "irscale.io.call_inputs", "irscale.io.files", "irscale.io.formats",
    "irscale.io.irds", "irscale.io.naming", "irscale.io.native_dicts", "irscale.io.native_files",
    "irscale.io.native_inputs", "irscale.io.native_trec", "irscale.io.sources", "irscale.io.table",
    "irscale.measures", "irscale.measures.base", "irscale.measures.compute",
    "irscale.measures.engine_calls", "irscale.measures.layout", "irscale.measures.means",
    "irscale.measures.names", "irscale.measures.native", "irscale.measures.params",
    "irscale.measures.results", "irscale.measures.trec", "irscale.measures.trec.average_precision",
    "irscale.measures.plan", "irscale.measures.trec_plain", "irscale.measures.trec_reading",
    "irscale.measures.trec_table", "irscale.parallel",
    "irscale.parallel.executor",
    "irscale.parallel.threads", "irscale.stats", "irscale.stats._twosample",
    "irscale.stats.corrections", "irscale.stats.distributions", "irscale.stats.effects",
    "irscale.stats.names", "irscale.stats.pairwise", "irscale.stats.parametric",
    "irscale.stats.params", "irscale.stats.protocol", "irscale.stats.registry",
    "irscale.stats.resampling", "irscale.stats.results", "irscale.stats.tables",
    "irscale.stats.validation"}
#: Of the standard library, what ``compare`` loads besides ``irscale eval`` and
#: ``import numpy, scipy.special``: the executor of the parallel loops (a thread pool, its
#: queue, uuid).
COMPARE_LIBRARY = {"_queue", "_uuid", "concurrent.futures.thread", "queue", "uuid"}


def test_the_modules_compare_of_a_t_test_imports_are_listed(tmp_path):
    """``irscale compare`` with a t-test and Holm's correction loads :data:`COMPARE` of
    irscale, and of the rest only what ``irscale eval`` and ``import numpy, scipy.special``
    load, and :data:`COMPARE_LIBRARY`: neither scipy.stats nor pandas, nor threadpoolctl."""
    (tmp_path / "qrels").write_text(QRELS.replace("1 0 ", "2 0 ") + QRELS)
    for name, shift in (("a", 0), ("b", 3), ("c", 5)):
        (tmp_path / name).write_text("".join(
            f"{t} Q0 d{(k + shift * t) % 10} {k + 1} {10 - k} {name}\n"
            for t in (1, 2) for k in range(10)))
    argv = ["compare", "-m", "map", "--test", "t", "--correction", "holm", "qrels", "a", "b",
            "c"]
    status, modules = _modules(argv, str(tmp_path))
    assert status == 0
    ours = {name for name in modules if name == "irscale" or name.startswith("irscale.")}
    assert sorted(ours - COMPARE) == [], "modules of irscale not listed for this command"
    assert sorted(COMPARE - ours) == [], "listed but no longer imported: take them out"
    _, evaluation = _modules(["eval", "-m", "map", "qrels", "a", "b", "c"], str(tmp_path))
    numerical = _imported("import numpy, scipy.special")
    assert sorted(modules - ours - evaluation - numerical - COMPARE_LIBRARY) == []


def _imported(code: str) -> set[str]:
    """The modules ``code`` loads in an interpreter without ``site`` (as :func:`_modules`)."""
    import numpy

    path = [os.path.dirname(os.path.dirname(numpy.__file__))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    done = subprocess.run([sys.executable, "-S", "-c",
                           f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"],
                          env=env, capture_output=True, text=True, timeout=300, check=True)
    return set(json.loads(done.stdout))


def test_the_registry_declares_every_test_where_it_is():
    """:data:`irscale.stats.registry.DECLARED` names every test of
    :data:`~irscale.stats.names.TEST_NAMES` with the module and the spec of that name, and
    ``TESTS`` (built from it when first read) holds them in that order."""
    from irscale.stats.names import TEST_NAMES
    from irscale.stats.registry import DECLARED, TESTS, test_spec

    assert list(DECLARED) == list(TEST_NAMES) == list(TESTS)
    for name, spec in TESTS.items():
        assert spec.name == name and test_spec(name) is spec
        assert spec.kernel.__module__ == f"irscale.stats.{DECLARED[name][0]}"
