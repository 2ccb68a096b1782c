"""Start-up of the ``irscale`` command: each command imports only what it needs.

``irscale --help`` lists the commands without building their parsers, and every
subcommand's ``--help`` builds that command's parser: they must not load numpy, pyarrow,
scipy, pandas or matplotlib (choices come from light modules such as
:mod:`irscale.stats.names` and :mod:`irscale.io.formats`; package ``__init__`` files import
lazily). ``irscale eval`` must not load pyarrow (the engine reads TREC files; pyarrow is
for Parquet files only), scipy, pandas or matplotlib. Nor ``numpy.ma`` (numpy 2 imports it
on the first ``np.unique``: :func:`irscale.core.identifiers.unique_integers`), nor, for
trec_eval's measures, the diversity modules.
Each case runs in a fresh interpreter and reads ``sys.modules``; times are measured by
``benchmarks/bench_eval.py`` and ``benchmarks/bench_startup.py``, not here.

Mistakes in a command line are reported before any of those packages is imported: the
``--help`` of every command, a value outside the domain of every option that declares one
(:mod:`irscale.core.params`), a name that is not among an option's choices, and options
that exclude each other. These cases run in an interpreter in which importing numpy,
pyarrow, scipy, pandas or matplotlib raises; the parsers are walked, so that every option
added later is covered, and every option that takes a number must declare its domain.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import json
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import irscale
from irscale.cli.main import build_parser

from .cli_parsers import (
    MALFORMED,
    input_cases,
    irscale_parser,
    later_input_cases,
    option_input_cases,
    parsers,
)

#: numpy 1.x imports numpy.ma with numpy itself
NUMPY_1 = int(np.__version__.split(".")[0]) < 2

#: Run ``main(argv)`` for every argv given as JSON, then print the top-level packages of
#: ``WATCHED`` that are loaded (after each argv, so that a failure names the culprit).
_SCRIPT = textwrap.dedent("""
    import contextlib, io, json, sys
    from irscale.cli.main import main
    WATCHED = {"numpy", "pyarrow", "scipy", "pandas", "matplotlib"}
    report = []
    for argv in json.loads(sys.argv[1]):
        out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            try:
                status = main(argv)
            except SystemExit as stop:  # --help
                status = stop.code
        out.flush()
        loaded = sorted({m.split(".")[0] for m in sys.modules} & WATCHED)
        report.append({"argv": argv, "status": status, "loaded": loaded,
                       "numpy_ma": "numpy.ma" in sys.modules,
                       "scipy_stats": "scipy.stats" in sys.modules,
                       "diversity": sorted(m for m in sys.modules if "diversity" in m),
                       "output": out.buffer.getvalue().decode()})
    print(json.dumps(report))
""")


def _run(*argvs: list[str], cwd=None) -> list[dict]:
    done = subprocess.run([sys.executable, "-c", _SCRIPT, json.dumps(argvs)], cwd=cwd,
                          capture_output=True, text=True, timeout=300, check=True)
    return json.loads(done.stdout)


#: Run ``main(argv)`` for every argv given as JSON with the numerical packages blocked: an
#: import of one raises ``Heavy`` (a ``BaseException``, which no ``except Exception`` of
#: irscale catches), so that the command stops where it would have loaded it.
_BLOCKED = textwrap.dedent("""
    import contextlib, importlib.abc, io, json, sys
    HEAVY = set(json.loads(sys.argv[1]))
    class Heavy(BaseException):
        pass
    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in HEAVY:
                raise Heavy(name)
    sys.meta_path.insert(0, Block())
    from irscale.cli.main import main
    report = []
    for argv in json.loads(sys.stdin.read()):
        err = io.StringIO()
        out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as stop:  # --help
                status = stop.code
            except Heavy as error:
                status = f"imported {error}"
        out.flush()
        report.append({"argv": argv, "status": status, "stderr": err.getvalue(),
                       "output": out.buffer.getvalue().decode()})
    assert not {m.partition(".")[0] for m in sys.modules} & HEAVY
    print(json.dumps(report))
""")


#: The packages :func:`_blocked` blocks unless told otherwise.
HEAVY = ("numpy", "pyarrow", "scipy", "pandas", "matplotlib")


def _blocked(argvs: list[list[str]], heavy: tuple[str, ...] = HEAVY, cwd=None) -> list[dict]:
    done = subprocess.run([sys.executable, "-c", _BLOCKED, json.dumps(heavy)],
                          input=json.dumps(argvs), cwd=cwd, capture_output=True, text=True,
                          timeout=600, check=True)
    return json.loads(done.stdout)


#: Every command (``irscale pool simulate``) and its parser.
COMMANDS = list(parsers(irscale_parser()))


def _domain(action: argparse.Action):
    """The domain an option declares, or None."""
    return getattr(action, "domain", None)


def _options(parser: argparse.ArgumentParser):
    return [action for action in parser._actions if action.option_strings and
            action.nargs != 0 and not isinstance(action, argparse._HelpAction)]


def _bad_values(action: argparse.Action) -> list[str]:
    """Values the option refuses: out of its declared domain, or not one of its choices."""
    domain = _domain(action)
    if domain is not None:
        return list(domain.outside())
    return ["no-such-choice"] if action.choices is not None else []


#: Run ``main(argv)`` (argv given as JSON); print its status, standard output and the
#: irscale modules loaded.
_NO_COMMAND_SCRIPT = textwrap.dedent("""
    import contextlib, io, json, sys
    from irscale.cli.main import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            status = main(json.loads(sys.argv[1]))
        except SystemExit as stop:  # --help
            status = stop.code
    print(json.dumps({"status": status, "output": out.getvalue(),
                      "loaded": sorted(m for m in sys.modules if m.startswith("irscale."))}))
""")


@pytest.mark.parametrize("argv", [["--help"], [], ["--no-such-option"], ["evl"]])
def test_a_command_line_naming_no_command_builds_no_command(argv):
    """``irscale --help``, ``irscale``, an unknown option and a mistyped command name no
    command: they import no command's module and no declaration of
    :mod:`irscale.core.params` (the commands and their help are listed from
    :data:`irscale.cli.main.SUBCOMMANDS`), and ``irscale --help`` lists what the parser of
    every command lists."""
    from irscale.cli.main import SUBCOMMANDS

    done = subprocess.run([sys.executable, "-c", _NO_COMMAND_SCRIPT, json.dumps(argv)],
                          capture_output=True, text=True, timeout=300, check=True)
    report = json.loads(done.stdout)
    commands = {f"irscale.cli.{name.replace('-', '_')}" for name in SUBCOMMANDS}
    assert report["status"] == (0 if argv == ["--help"] else 2)
    assert not commands & set(report["loaded"])
    assert "irscale.core.params" not in report["loaded"]
    if argv == ["--help"]:
        assert report["output"] == build_parser().format_help()


def test_every_number_option_declares_its_domain():
    """An option that takes numbers (argparse's ``type`` int or float, or a list of them)
    declares the domain they lie in, so that it is checked as it is parsed."""
    missing = []
    for prog, parser in COMMANDS:
        for action in _options(parser):
            numbers = action.type in (int, float) or getattr(action, "kind", "str") != "str"
            if numbers and action.choices is None and _domain(action) is None:
                missing.append(f"{prog} {'/'.join(action.option_strings)}")
    assert not missing, missing


def test_mistakes_are_reported_before_the_numerical_packages():
    """``--help`` of every command, and every option given each value it refuses (alone
    after its command: the options are checked in the order they come, before the
    inputs are looked at) end in one ``irscale:`` line naming the option, exit status 2,
    without loading numpy, pyarrow, scipy, pandas or matplotlib."""
    cases = [([*prog.split()[1:], "--help"], None) for prog, _ in COMMANDS]
    for prog, parser in COMMANDS:
        for action in _options(parser):
            flag = max(action.option_strings, key=len)
            cases += [([*prog.split()[1:], f"{flag}={value}"], action)
                      for value in _bad_values(action)]
    assert len(cases) > 300
    for (_, action), report in zip(cases, _blocked([argv for argv, _ in cases]),
                                   strict=True):
        if action is None:
            assert report["status"] == 0, report
            continue
        assert report["status"] == 2, report
        lines = report["stderr"].splitlines()
        assert len(lines) == 1 and lines[0].startswith("irscale: "), report
        names = [*action.option_strings,
                 *getattr(getattr(action, "target", None), "option_strings", ())]
        assert any(name in lines[0] for name in names), report


#: Options that exclude each other, or that the rest of the command line leaves without
#: use, in every command that has such a rule checked without its inputs (the files named
#: need not exist): (command line, what the message names).
COMBINATIONS = [
    (["eval", "q", "r", "--baseline", "b"], "--baseline"),
    (["eval", "q", "r", "--test", "t"], "--test"),
    (["eval", "q", "r", "--risk-alpha", "1"], "--risk-alpha"),
    (["eval", "q", "r", "--format", "latex", "-q"], "-q"),
    (["eval", "q", "r", "--labels", "under"], "--labels"),
    (["session", "q", "r", "--click-gain", "0.5"], "--click-gain"),
    (["text", "nuggets", "n", "m", "--texts", "t", "--threshold", "0.5"], "--threshold"),
    (["demo", "--out", "."], "--out"),
    (["compare", "--scores", "x.csv", "--test", "t", "--seed", "1"], "--seed"),
    (["compare", "--scores", "x.csv", "--risk-alpha", "1"], "--baseline"),
    (["compare", "q", "a", "b"], "-m"),
    (["compare", "--scores", "x.csv", "--model", "MD9"], "--model"),
    (["scale", "image", "-m", "AP", "-N", "3", "-o", "x.txt"], "-o"),
    (["meta", "correlate", "--scores", "x.csv", "-p", "0.5"], "-p"),
    (["meta", "dp", "--scores", "x.csv", "--seeds", "3", "--pairs"], "--pairs"),
    (["meta", "split", "--scores", "x.csv", "--cross", "MD1"], "--cross"),
    (["meta", "split", "--scores", "x.csv", "--models", "MD3"], "MD3"),
    (["meta", "swap", "--scores", "x.csv", "--alpha", "0.1"], "--alpha"),
    (["meta", "concordance", "--scores", "x.csv", "--gold", "a", "--names", "x,y"],
     "--names"),
    (["meta", "loo", "q", "a", "b", "-m", "map", "--contributors", "c",
      "--contributor-pattern", "x"], "--contributor-pattern"),
    (["meta", "scales", "q", "a", "b", "--table", "2", "--alpha", "0.1"], "--alpha"),
    (["meta", "simulate", "--model", "normal", "--null"], "--null"),
    (["meta", "simulate", "--model", "bootstrap", "--topics", "5", "--null", "--scores",
      "x.csv"], "--null"),
    (["pool", "build", "a", "--strategy", "depth", "--seed", "1"], "--seed"),
    (["pool", "simulate", "q", "a", "b", "--strategy", "depth", "--seed", "1"], "--seed"),
    (["pool", "simulate", "q", "a", "b", "--contributor-pattern", "("],
     "--contributor-pattern"),
    (["pool", "shards", "q", "a", "b", "--method", "hash", "--seed", "1"], "--seed"),
    (["pool", "shards", "q", "a", "b", "--model", "MD9"], "--model"),
    (["pool", "sample", "a", "--strata", "1:1"], "--strata"),
    (["pool", "sample", "a", "--design", "stratified", "--strata", "1:2"], "--strata"),
    (["pool", "estimate", "s", "a", "--format", "csv", "--digits", "2"], "--digits"),
    (["labels", "aggregate", "x", "--method", "mv", "--n-iter", "3"], "--n-iter"),
    (["labels", "agree", "x", "y"], "crowd labels"),
    (["labels", "agree-qrels", "a", "b", "c"], "run files"),
    (["labels", "aware", "x", "a", "-m", "map", "--seed", "1"], "--seed"),
    (["labels", "audit", "h", "a", "b", "--judge", "j", "--samples"], "--samples"),
    (["labels", "plan", "q", "h", "a", "-m", "P@5", "--width", "0.1", "--design", "uniform",
      "--uniform-share", "0.2"], "--uniform-share"),
    (["labels", "select", "q", "h", "a", "-m", "P@5", "--budget", "0"], "--budget"),
    (["online", "interleave", "a", "b", "--clicks", "random", "--qrels", "q"], "--qrels"),
    (["online", "interleave", "a", "b", "--clicks", "random", "--method", "optimized",
      "--length", "20"], "--length"),
    (["online", "score", "log", "--tau", "2"], "--tau"),
    (["online", "score", "log", "--method", "optimized", "--credit", "team"], "--credit"),
    (["online", "ab", "assign", "u", "--salt", "s", "--splits", "a"], "--splits"),
    (["online", "ab", "measures", "log", "--users", "u", "--variants", "v", "--splits",
      "a=1"], "--splits"),
    (["online", "ab", "srm", "t", "--splits", "x"], "--splits"),
    (["online", "loglik", "log", "--test", "t"], "--model"),
    (["online", "simulate-clicks", "q", "r", "--format", "parquet"], "-o"),
    (["online", "sensitivity", "q", "a"], "two or more"),
    (["report", "q", "a", "b", "--seed", "1"], "--seed"),
    (["report", "q", "a", "b", "--plan-width", "0.3"], "--plan-width"),
    (["report", "q", "a", "b", "--plan-pilot", "p"], "--plan-width"),
    (["fuse", "a", "b", "--method", "rrf", "--norm", "zmuv"], "--norm"),
    (["fuse", "a", "b", "--method", "combsum", "--weights", "1,2"], "--weights"),
    (["fuse", "a", "b", "--method", "rrf", "--qrels", "q"], "--qrels"),
    (["fuse", "a", "b", "--method", "wsum", "--optimize"], "--qrels"),
    (["convert", "q", "--kind", "qrels", "--name", "x"], "--name"),
]


def test_combinations_are_reported_before_the_numerical_packages():
    for (_, needle), report in zip(COMBINATIONS, _blocked([a for a, _ in COMBINATIONS]),
                                   strict=True):
        lines = report["stderr"].splitlines()
        assert report["status"] == 2 and len(lines) == 1, report
        assert lines[0].startswith("irscale: ") and needle in lines[0], report


@pytest.mark.parametrize("kind", ["missing", *MALFORMED])
def test_bad_inputs_are_reported_before_pandas_and_scipy(kind, tmp_path):
    """Every command that reads files, given files that do not exist or that are
    malformed (:data:`~tests.cli_parsers.MALFORMED`), ends in one ``irscale:`` line and
    exit status 2 without importing pandas, scipy or matplotlib: the readers check the
    text before pandas parses it, and the analyses are imported after the inputs are read
    (the command line's own mistakes come first, :data:`COMBINATIONS`). The command lines
    come from the parsers (:func:`~tests.cli_parsers.input_cases`, and the options that
    choose an analysis with inputs of its own): a new command is covered as it is added."""
    cases = [*input_cases(build_parser(), "input"), *option_input_cases("input")]
    assert len(cases) > 50
    if kind in MALFORMED:
        for i in range(100):
            (tmp_path / f"input{i}").write_text(MALFORMED[kind])
    reports = _blocked(cases, ("pandas", "scipy", "matplotlib"), cwd=tmp_path)
    for report in reports:
        lines = report["stderr"].splitlines()
        assert report["status"] == 2 and len(lines) == 1, report
        assert lines[0].startswith("irscale: "), report


def test_bad_later_inputs_are_reported_before_pandas_and_scipy(tmp_path):
    """The cases of :func:`test_bad_inputs_are_reported_before_pandas_and_scipy` once for
    every input but the first, the inputs before it valid files of their kind
    (:func:`~tests.cli_parsers.later_input_cases`): the malformed one is named in one
    ``irscale:`` line, exit status 2, and pandas, scipy and matplotlib are not imported.
    Every file a command reads is checked before the heavy imports, not only its first."""
    cases = later_input_cases(build_parser(), "in")
    assert len(cases) > 50
    for _, files in cases:
        for file, text in files.items():
            (tmp_path / file).write_text(text)
    reports = _blocked([argv for argv, _ in cases], ("pandas", "scipy", "matplotlib"),
                       cwd=tmp_path)
    failed = []
    for (_, files), report in zip(cases, reports, strict=True):
        lines = [line for line in report["stderr"].splitlines()
                 if not line.startswith("irscale: warning: ")]  # (runs that share a name)
        bad = [file for file, text in files.items() if text == MALFORMED["malformed table"]]
        if not (report["status"] == 2 and len(lines) == 1 and lines[0].startswith("irscale: ")
                and any(file in lines[0] for file in bad)):
            failed.append((report["argv"], report["status"], report["stderr"][-300:]))
    assert not failed, "\n".join(map(str, failed))


@pytest.fixture
def tiny(tmp_path):
    (tmp_path / "qrels").write_text("1 0 d1 1\n1 0 d2 0\n1 0 d3 2\n2 0 d1 1\n2 0 d4 0\n")
    (tmp_path / "run").write_text("1 Q0 d1 1 2.0 r\n1 Q0 d2 2 1.0 r\n1 Q0 d3 3 1.0 r\n"
                                  "2 Q0 d4 1 3.0 r\n2 Q0 d1 2 1.5 r\n3 Q0 d9 1 1.0 r\n")
    (tmp_path / "run2").write_text("2 Q0 d1 1 1.0 s\n1 Q0 d3 1 9.0 s\n1 Q0 d1 2 1.0 s\n")
    (tmp_path / "under").write_text("* 0 d1 0.5\n1 0 d3 0.25\n")
    return tmp_path


def test_measures_a_command_refuses_are_reported_before_pandas_and_scipy(tiny):
    """A measure that the command cannot compute, with well-formed files, is refused before
    the files are read and pandas or scipy imported."""
    reports = _blocked([["compare", "--test", "document-sampling", "qrels", "run", "run2",
                         "-m", "ndcg"],
                        ["scale", "transform", "qrels", "run", "-m", "nDCG_b10", "-m", "nope",
                         "-N", "5"],
                        ["online", "measures", "--params", "qrels", "-m", "uM(click=0.5)",
                         "qrels", "run"]],
                       ("pandas", "scipy", "matplotlib"), cwd=tiny)
    for report, needle in zip(reports, ("computes AP and P@k, not 'ndcg'", "'nope'",
                                        "the click model gives the click probabilities"),
                              strict=True):
        lines = report["stderr"].splitlines()
        assert report["status"] == 2 and len(lines) == 1, report
        assert lines[0].startswith("irscale: ") and needle in lines[0], report


def test_values_of_inputs_are_reported_before_pandas_and_scipy(tiny):
    """The values of an input a reader checks (a crowd label off the scale or given twice
    by one worker, a click model's parameter that is no probability or is missing) are
    refused with the file's text, before pandas and scipy are imported."""
    (tiny / "twice").write_text("1 d1 w1 1\n1 d2 w1 0\n1 d1 w2 1\n1 d1 w1 0\n")
    (tiny / "off").write_text("1 d1 w1 1\n1 d1 w2 5\n")
    rows = '"attractiveness": [["1", "d1", 0.5]]'
    (tiny / "p.json").write_text('{"model": "pbm", ' + rows + ', "examination": [1.5]}')
    (tiny / "q.json").write_text('{"model": "dbn", ' + rows + "}")
    cases = [(["labels", "aggregate", "twice"], "twice, line 4: a worker labels this"),
             (["labels", "agree", "twice"], "twice, line 4"),
             (["labels", "aggregate", "off", "--scale", "0,1"], "off, line 2: label outside"),
             (["online", "simulate-clicks", "qrels", "run", "--params", "p.json",
               "--sessions", "2"], "p.json, not a click model's parameters"),
             (["online", "loglik", "--params", "q.json", "--test", "twice"],
              "parameter satisfaction missing"),
             (["online", "measures", "qrels", "run", "--params", "p.json"],
              "examination holds 1.5")]
    reports = _blocked([argv for argv, _ in cases], ("pandas", "scipy", "matplotlib"),
                       cwd=tiny)
    for (_, needle), report in zip(cases, reports, strict=True):
        lines = report["stderr"].splitlines()
        assert report["status"] == 2 and len(lines) == 1, report
        assert lines[0].startswith("irscale: ") and needle in lines[0], report


def test_eval_loads_only_what_it_needs(tiny):
    reports = _run(
        ["eval", "qrels", "run"],
        ["eval", "-q", "-c", "-J", "-M", "2", "-m", "all_trec", "qrels", "run", "run2"],
        ["eval", "--ties", "file-order", "-q", "-m", "ndcg_cut.2", "-m", "relstring",
         "qrels", "run"],
        ["eval", "--ties", "rank-column", "--names", "file", "qrels", "run", "run2"],
        ["eval", "--labels", "under=under", "-q", "-m", "uRBP(p=0.8)", "qrels", "run"],
        ["eval", "--format", "csv", "-q", "qrels", "run", "run2"],
        ["eval", "--format", "json", "-q", "qrels", "run"],
        ["eval", "--format", "markdown", "qrels", "run", "run2"],
        cwd=tiny,
    )
    for report in reports:
        assert report["status"] == 0, report
        assert report["output"].strip(), report
        assert not {"pyarrow", "scipy", "pandas", "matplotlib"} & set(report["loaded"]), report
        # nor numpy.ma, which numpy 2 imports on the first np.unique (7-25 ms); numpy 1.x
        # imports it with numpy itself
        assert not report["numpy_ma"] or NUMPY_1, report
        # trec_eval's measures are told from diversity ones without loading the latter
        assert report["diversity"] == [], report


#: Run ``main(argv)`` for every argv given as JSON (its output to a byte buffer, as a
#: process's); print, for each, its status and the irscale modules loaded (``irscale``
#: and ``irscale.*``) after it, each argv in a fresh interpreter.
_MODULES_SCRIPT = textwrap.dedent("""
    import contextlib, io, json, sys
    from irscale.cli.main import main
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            status = main(json.loads(sys.argv[1]))
        except SystemExit as stop:  # --help
            status = stop.code
    print(json.dumps({"status": status, "modules": sorted(
        m for m in sys.modules if m == "irscale" or m.startswith("irscale."))}))
""")

#: How many irscale modules a command line of trec_eval's measures of TREC files loads
#: (the default measures, ``-m`` of trec_eval's families, ``-q``, ``-c``, ``-J``, ``-M``):
#: its start-up costs about 0.19 ms a module, beside the evaluation itself. Pinned, so
#: that a module added to the path is a decision: lower it when the path sheds modules,
#: never raise it without saying why in the commit. The manifest
#: (:mod:`irscale._manifest`: the contexts, the catalogue's contexts and trec_eval's
#: families as data) brought it from 98 to 76 (``-m all_trec``: every family's module; 64
#: for ``-m map``), and ``eval``'s own options in :mod:`irscale.cli.runargs` (not
#: :mod:`irscale.cli.eval_many`) to 75 (63 for ``-m map``); what remains is the parser of
#: ``eval`` built from the declarations of its options, the judging and the run resolver
#: (docs/architecture.md, "The manifest", "How the eval path stays small"); the run
#: resolver's pure part in :mod:`irscale.core.run_names` (so that the measures' results
#: resolve a run as the command line does) adds one where runs are named: 76; the bindings'
#: mechanism, loaded only where a command line gives an option ``eval``'s binding refuses
#: (:data:`irscale._manifest.BINDING_REFUSES`), brought it to 75, and ir_measures' names,
#: loaded only for a measure object of ir_measures, to 74 (62 for ``-m map``); parsed
#: and checked from the manifest's data (:mod:`irscale.cli.eval_path`: no parser, no
#: declarations of its options; its run in :mod:`irscale.cli.eval_run`), to 64 (52 for
#: ``-m map``, 57 for the default measures); the checks of trec_eval's options without
#: their declarations (:mod:`irscale.core.options`, with the values both read,
#: :mod:`irscale.core.option_values`, not :mod:`irscale.core.params`), the runs told from
#: folders without the readers (:mod:`irscale.io.call_inputs`, not
#: :mod:`irscale.io.sources`, nor ir_datasets' reader, :mod:`irscale.io.irds`), the dicts'
#: reader and the readers' messages loaded where used, to 60 (48 for ``-m map``, 53 for
#: the default measures); the context taken as the manifest declares it
#: (:mod:`irscale.evaluation.context_manifest`: not the contexts' registry, their package
#: and the default context's module), to 58 (46 for ``-m map``, 51 for the default
#: measures); trec_eval's names read and planned from the manifest's data
#: (:mod:`irscale.measures.trec_plain`: not the catalogue's registry, parameters, name
#: grammar and families' modules), to 40 for each; the run field of the trec format's
#: lines and the sniffing of ranx's JSON where the path reads them
#: (:mod:`irscale.io.native_files`, :mod:`irscale.io.call_inputs`: not
#: :mod:`irscale.io.formats`), to 39. One pin per command line.
TREC_EVAL_PATH_MODULES = {"map": 39, "official": 39, "options": 39}
#: How many irscale modules ``irscale eval --help`` loads (pinned as above): 35, then 10,
#: its parser built from the manifest's data (:data:`irscale._manifest.HELP`,
#: :func:`irscale.cli.parser.parser_of_help`) without the declarations of its options.
EVAL_HELP_MODULES = 10
#: Modules ``irscale eval --help`` never loads: the command's own and its options'
#: declarations, the batches' command, the writer, the naming of runs, the bindings'
#: mechanism (a command line of ``eval`` that is checked makes its binding's rules then:
#: :class:`irscale.cli.rules.LaterBinding`).
EVAL_HELP_UNLOADED = ("irscale.cli.eval", "irscale.cli.options", "irscale.core.params",
                      "irscale.cli.eval_many", "irscale.io.files", "irscale.io.naming",
                      "irscale.core.binding")


#: Modules a command line of trec_eval's measures of TREC files never loads: the bindings'
#: mechanism (it gives none of the options ``eval``'s binding refuses, so that its rules
#: are not made: :class:`irscale.cli.rules.LaterBinding`,
#: :data:`irscale._manifest.BINDING_REFUSES`), ir_measures' names (its measures are names,
#: not ir_measures' objects: :func:`irscale.measures.names.labelled_names`), the
#: batches' command, and the parser and the declarations of ``eval``'s options (parsed and
#: checked from the manifest's data: :mod:`irscale.cli.eval_path`), the declarations'
#: module (:mod:`irscale.core.params`, :mod:`irscale.core.trec_options`: the checks of
#: trec_eval's options are :mod:`irscale.core.options`'), the readers of
#: :mod:`irscale.io.sources` and :mod:`irscale.io.irds`, and the dicts' reader and the
#: readers' messages, which plain files that read without a fault need not, and the
#: contexts' registry and modules (the context of the call is the manifest's data,
#: :class:`irscale.evaluation.context_manifest.Declared`), and the API's edge (the command
#: line turns off its switch, :mod:`irscale.core.edge_switch`), and the catalogue (trec_eval's
#: names read and planned from the manifest's data: :mod:`irscale.measures.trec_plain`).
TREC_EVAL_PATH_UNLOADED = ("irscale.core.binding", "irscale.measures.ir_measures_names",
                           "irscale.cli.eval_many", "irscale.cli.parser", "irscale.cli.eval",
                           "irscale.cli.options", "irscale.cli.rules",
                           "irscale.cli.common_params", "irscale.cli.eval_options",
                           "irscale.evaluation.params", "irscale.core.params",
                           "irscale.core.trec_options", "irscale.io.sources", "irscale.io.irds",
                           "irscale.io.native_dicts", "irscale.core.input_messages",
                           "irscale.evaluation.context", "irscale.evaluation.contexts",
                           "irscale.evaluation.contexts.judged", "irscale.core.edge",
                           "irscale.measures.base", "irscale.measures.params",
                           "irscale.measures.names", "irscale.measures.native",
                           "irscale.measures.layout", "irscale.measures.trec_table",
                           "irscale.measures.trec", "irscale.io.formats")


def _modules(argv: list[str], cwd) -> dict:
    done = subprocess.run([sys.executable, "-c", _MODULES_SCRIPT, json.dumps(argv)], cwd=cwd,
                          capture_output=True, text=True, timeout=300, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize(("argv", "most"), [
    (["eval", "-m", "map", "qrels", "run"], TREC_EVAL_PATH_MODULES["map"]),
    (["eval", "qrels", "run"], TREC_EVAL_PATH_MODULES["official"]),
    (["eval", "-q", "-c", "-J", "-M", "2", "-m", "all_trec", "qrels", "run", "run2"],
     TREC_EVAL_PATH_MODULES["options"]),
    (["eval", "--help"], EVAL_HELP_MODULES),
], ids=["map", "official", "options", "help"])
def test_the_trec_eval_path_loads_a_pinned_number_of_modules(tiny, argv, most):
    """``irscale eval`` of trec_eval's measures of TREC files, and ``irscale eval
    --help``, load at most the pinned number of irscale modules
    (:data:`TREC_EVAL_PATH_MODULES`, :data:`EVAL_HELP_MODULES`); the message lists them."""
    report = _modules(argv, tiny)
    assert report["status"] == 0, report
    assert len(report["modules"]) <= most, (len(report["modules"]), report["modules"])
    if argv == ["eval", "--help"]:
        assert not set(EVAL_HELP_UNLOADED) & set(report["modules"]), report["modules"]
    else:
        assert not set(TREC_EVAL_PATH_UNLOADED) & set(report["modules"]), report["modules"]


#: The standard modules the trec_eval path does not load: ``re`` and ``enum`` (which ``re``
#: imports) cost 26 M instructions, two thirds of ``python -c pass``; argparse is the full
#: parser's; numpy and pandas, the Python readers'; math and resource, shared libraries
#: (about 0.5 and 0.3 M instructions each on the launcher's path), loaded where a number
#: is checked or a limit is not in ``/proc/self/limits``. The script runs ``irscale ARGV`` and
#: writes, last on standard error, the ones irscale loaded (run without site: no .pth
#: loads one first).
TREC_EVAL_PATH_UNLOADED_STANDARD = ("re", "enum", "argparse", "typing", "numpy", "pandas",
                                    "math", "resource")
_STANDARD_SCRIPT = textwrap.dedent(f"""
    import sys
    before = set(sys.modules)
    from irscale.cli.main import main
    status = main(sys.argv[1:])
    print(status, *sorted(set({TREC_EVAL_PATH_UNLOADED_STANDARD!r}) & set(sys.modules)
                          - before), file=sys.stderr)
""")


@pytest.mark.parametrize("argv", [["eval", "qrels", "run"],
                                  ["eval", "-q", "-c", "-m", "map", "-m", "P.5,10", "qrels",
                                   "run", "run2"]], ids=["official", "options"])
def test_the_trec_eval_path_loads_no_regular_expressions(tiny, argv):
    """``irscale eval`` of trec_eval's measures of TREC files loads none of
    :data:`TREC_EVAL_PATH_UNLOADED_STANDARD`: the warnings filter of floating-point errors
    matches without a pattern (``core.numbers._FloatingPointMessage``), the names of a
    stream and of measures are read without :mod:`re`."""
    import irscale

    # without site (-S: no .pth loads a module before irscale), irscale found where it is
    home = os.path.dirname(os.path.dirname(irscale.__file__))
    done = subprocess.run([sys.executable, "-S", "-c", _STANDARD_SCRIPT, *argv], cwd=tiny,
                          env={**os.environ, "PYTHONPATH": home}, capture_output=True,
                          text=True, timeout=300, check=False)
    status, *loaded = done.stderr.strip().splitlines()[-1].split()
    assert status == "0", done.stderr
    assert loaded == [], loaded


#: The address-space limit of a process, as :func:`irscale.core.budget._address_limit` and
#: as :mod:`resource` read it, printed as JSON (``[from /proc, from resource, without
#: /proc]``), under the limit given in argv (``-1``: none set).
_LIMIT_SCRIPT = textwrap.dedent("""
    import builtins, json, resource, sys
    if int(sys.argv[1]) >= 0:
        resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), resource.RLIM_INFINITY))
    from irscale.core import budget
    read = budget._address_limit()
    soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    opened = builtins.open
    def refused(path, *args, **kwargs):
        if path == "/proc/self/limits":
            raise OSError(2, "no /proc here")
        return opened(path, *args, **kwargs)
    builtins.open = refused
    print(json.dumps([read, None if soft == resource.RLIM_INFINITY else soft,
                      budget._address_limit()]))
""")


@pytest.mark.parametrize("limit", [-1, 3 << 30, (1 << 40) + 4096])
def test_the_address_space_limit_is_read_without_resource(limit):
    """The readers' memory limit (:func:`irscale.core.budget.default_max_memory`) reads the
    address-space limit from ``/proc/self/limits`` (loading :mod:`resource`, a shared
    library, costs more than reading a small run): the same value as :mod:`resource`'s,
    none where unlimited, and :mod:`resource`'s where ``/proc`` cannot be read."""
    if not os.path.exists("/proc/self/limits"):
        pytest.skip("no /proc/self/limits: resource is read")
    done = subprocess.run([sys.executable, "-c", _LIMIT_SCRIPT, str(limit)],
                          capture_output=True, text=True, timeout=300, check=True)
    read, expected, without = json.loads(done.stdout)
    assert read == expected == without, done.stdout
    assert limit < 0 or read == limit, done.stdout


#: ``irscale ARGV`` as the process's entry point (``main()``, its start-up without the
#: cyclic collector), printing on standard error the collections the collector made
#: during the command (:data:`gc.callbacks`), as JSON.
_COLLECTIONS_SCRIPT = textwrap.dedent("""
    import gc, json, sys
    made = []
    gc.callbacks.append(lambda phase, info: phase == "start" and made.append(info))
    from irscale.cli.main import main
    sys.argv = ["irscale", *json.loads(sys.argv[1])]
    made.clear()
    status = main()
    print(json.dumps({"status": status, "collections": len(made)}), file=sys.stderr)
""")


@pytest.mark.parametrize("argv", [["eval", "qrels", "run"],
                                  ["eval", "-q", "-m", "all_trec", "qrels", "run", "run2"]],
                         ids=["official", "all_trec"])
def test_the_run_of_eval_is_made_without_the_collector(tiny, argv):
    """``irscale eval``'s run, like its start-up, is made without the cyclic garbage
    collector (:data:`irscale.cli.main.UNCOLLECTED_RUNS`): its imports are not walked again
    and again; the collector is on again afterwards (for a caller of ``main``)."""
    done = subprocess.run([sys.executable, "-c", _COLLECTIONS_SCRIPT + "\nassert "
                           "gc.isenabled()", json.dumps(argv)], cwd=tiny, capture_output=True,
                          text=True, timeout=300, check=True)
    report = json.loads(done.stderr.splitlines()[-1])
    assert report == {"status": 0, "collections": 0}, (report, done.stderr)


def test_a_named_binding_is_checked_as_the_binding_itself(tiny):
    """``eval``'s binding, named (``"irscale.evaluation.params:EVALUATE"``), is made when
    the command line is checked (:class:`irscale.cli.rules.LaterBinding`), and refuses
    what the binding refuses, in the same words; a parser built whole (the tests, the
    documentation) holds the binding's rules themselves."""
    from irscale.cli.main import main
    from irscale.cli.rules import RULES, LaterBinding
    from irscale.evaluation.params import EVALUATE

    argv = ["eval", "qrels", "run"]
    chosen = build_parser(argv=argv)._subparsers._group_actions[0].choices["eval"]
    later = [rule for rule in chosen.get_default(RULES) if isinstance(rule, LaterBinding)]
    assert [rule.name for rule in later] == ["irscale.evaluation.params:EVALUATE"]
    whole = build_parser("eval")._subparsers._group_actions[0].choices["eval"]
    assert whole.irscale_binding is EVALUATE
    assert not any(isinstance(rule, LaterBinding) for rule in whole.get_default(RULES))
    cases = [(["-Z", "under", "--labels", "u=under"], "-Z/--Zscore applies without "
              "--labels (the z-scores are those of trec_eval's measures, which read no "
              "label set)"),
             (["-Z", "under", "--compat", "10"], "-Z/--Zscore applies without --compat 10"),
             (["--dataset", "trec-robust-2004", "-R", "prefs"], "--dataset")]
    for options, message in cases:
        errors = io.StringIO()
        with contextlib.redirect_stderr(errors), contextlib.chdir(tiny):
            assert main([*argv[:1], *options, *argv[1:]]) == 2, options
        assert errors.getvalue().startswith("irscale: "), errors.getvalue()
        assert message in errors.getvalue(), (options, errors.getvalue())


def test_compare_of_two_system_tests_loads_neither_scipy_stats_nor_pandas(tmp_path):
    """``compare --test t`` (and the normal approximations of the rank tests) computes
    with scipy.special and writes its text, Markdown, LaTeX and JSON without pandas."""
    topics = range(1, 6)
    (tmp_path / "qrels").write_text("".join(f"{t} 0 d{d} {(t + d) % 2}\n"
                                            for t in topics for d in range(4)))
    for k, name in enumerate(("r1", "r2", "r3")):
        (tmp_path / name).write_text("".join(
            f"{t} Q0 d{d} {r} {10 - r} {name}\n"
            for t in topics for r, d in enumerate((d + k * t) % 4 for d in range(4))))
    runs = ["compare", "qrels", "r1", "r2", "r3", "-m", "map"]
    reports = _run(*([*runs, "--test", "t", "--correction", "holm", *fmt] for fmt in
                     ([], ["--format", "markdown"], ["--format", "latex"],
                      ["--format", "json"])),
                   [*runs, "--test", "wilcoxon"], cwd=tmp_path)
    for report in reports:
        assert report["status"] == 0 and report["output"].strip(), report
        assert "pandas" not in report["loaded"] and not report["scipy_stats"], report


def test_trec_eval_measures_of_trec_files_load_no_numerical_package(tiny):
    """trec_eval's measures of TREC files, printed in trec_eval's format, go from the files
    to the text in the engine (:mod:`irscale.evaluation.trec_text`): with numpy, pyarrow,
    scipy, pandas and matplotlib blocked, every command prints the text
    :func:`irscale.evaluate` gives, its warnings on standard error."""
    (tiny / "run.gz").write_bytes(gzip.compress((tiny / "run").read_bytes()))
    qrels, run, run2, gz = (str(tiny / name) for name in ("qrels", "run", "run2", "run.gz"))
    cases = [
        ([], [run], "official", {}),
        (["-q", "-c", "-J", "-M", "2", "-m", "all_trec"], [run, run2], "all_trec",
         dict(complete=True, judged_only=True, max_docs=2, per_query=True)),
        (["--ties", "file-order", "-q", "-m", "ndcg_cut.2", "-m", "relstring"], [gz],
         ["ndcg_cut.2", "relstring"], dict(ties="file-order", per_query=True)),
        (["--compat", "10", "-c", "-q", "-m", "P@2", "-m", "map"], [run2], ["P@2", "map"],
         dict(compat=10, complete=True, per_query=True)),
        (["-l", "2", "-n", "-q", "-m", "ndcg.0=0,1=1,2=5"], [run, run2], ["ndcg.0=0,1=1,2=5"],
         dict(relevance_level=2, summary=False, per_query=True)),
        (["-m", "P_10", "-m", "gm_map", "-m", "num_q"], [str(tiny / "folder")],
         ["P_10", "gm_map", "num_q"], {}),
        # the results cache: its text stored (a miss), then read back (a hit)
        (["-q", "--cache", str(tiny / "cache")], [run, run2], "official",
         dict(per_query=True)),
        (["-q", "--cache", str(tiny / "cache")], [run, run2], "official",
         dict(per_query=True)),
    ]
    (tiny / "folder").mkdir()
    (tiny / "folder" / "a").write_bytes((tiny / "run").read_bytes())
    reports = _blocked([["eval", *options, qrels, *runs] for options, runs, _, _ in cases])
    for (_, runs, measures, given), report in zip(cases, reports, strict=True):
        assert report["status"] == 0, report
        shown = {k: given.pop(k) for k in ("per_query", "summary") if k in given}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            evaluation = irscale.evaluate(qrels, runs if len(runs) > 1 else runs[0],
                                          measures, **given)
        assert report["output"] == evaluation.format("trec", **shown), report
    # the miss wrote the evaluation's entry and its command line's reply; the hit read them
    assert len(os.listdir(tiny / "cache")) == 2


def test_measures_loads_only_what_it_needs():
    """``irscale measures`` lists the catalogue from the families' declarations: it loads
    neither pandas (:func:`irscale.measures.catalogue` does, to make its DataFrame) nor
    scipy nor matplotlib; its ``--help`` and usage errors load nothing numerical (walked by
    :func:`test_mistakes_are_reported_before_the_numerical_packages`)."""
    reports = _run(["measures"], ["measures", "--context", "texts", "--format", "json"],
                   ["measures", "--format", "markdown"])
    for report in reports:
        assert report["status"] == 0 and report["output"].strip(), report
        assert not {"scipy", "pandas", "matplotlib"} & set(report["loaded"]), report
    assert json.loads(reports[1]["output"])[0]["name"] == "ROUGE-N"


def test_eval_output_of_the_light_path(tiny):
    """The evaluation that loads neither pyarrow nor pandas gives trec_eval's numbers
    (labels looked up with the topic-specific row first, then the ``*`` row) and CSV
    integers stay integers."""
    first, labels, table = _run(
        ["eval", "-q", "-m", "map", "-m", "num_ret", "qrels", "run"],
        ["eval", "--labels", "under=under", "-q", "-m", "uRBP(p=0.5,u=linear,scale=1)",
         "qrels", "run"],
        ["eval", "--format", "csv", "-q", "-n", "-m", "num_ret", "-m", "map", "qrels", "run"],
        cwd=tiny,
    )
    assert first["output"].splitlines() == [
        "num_ret               \t1\t3",
        "map                   \t1\t1.0000",  # d1, then d3 before d2 (tie: docno desc.)
        "num_ret               \t2\t2",
        "map                   \t2\t0.5000",
        "num_ret               \tall\t5",
        "map                   \tall\t0.7500",
    ]
    # uRBP = (1 - p) Σ p^(k-1) · r_k · U_k with U = the label: topic 1 ranks d1 (label 0.5
    # from '*'), d3 (0.25, its topic-1 label before the '*' row), d2 (not relevant); topic
    # 2 ranks d4 (not relevant), d1 (0.5 from '*').
    values = [line.split("\t")[2] for line in labels["output"].splitlines()]
    assert values == ["0.3125", "0.1250", "0.2188"]
    assert table["output"].splitlines()[:3] == [
        "run,topic,measure,value", "run,1,num_ret,3", "run,2,num_ret,2"]  # named by its file


def test_choice_names_match_the_implementations():
    from irscale.io import formats, output
    from irscale.online import params as online_params
    from irscale.online.harness import AB_MEASURES
    from irscale.online.simulate import INSTANTIATIONS
    from irscale.stats import CORRECTIONS, MODELS, SHARD_MODELS, TABLE_FORMATS, TESTS, names, tables
    from irscale.stats.corrections import adjust_pvalues

    assert names.TEST_NAMES == tuple(TESTS)
    assert names.RESAMPLING_TESTS == tuple(n for n, spec in TESTS.items() if spec.resampling)
    assert names.MODEL_NAMES == tuple(MODELS)
    assert names.SHARD_MODEL_NAMES == tuple(SHARD_MODELS)
    assert online_params.AB_MEASURES == tuple(AB_MEASURES)
    assert online_params.USERS == tuple(INSTANTIATIONS)
    assert CORRECTIONS is names.CORRECTIONS
    assert TABLE_FORMATS is names.TABLE_FORMATS is tables.TABLE_FORMATS is formats.TABLE_FORMATS
    assert output.OUTPUT_FORMATS is formats.OUTPUT_FORMATS
    for method in names.CORRECTIONS:
        adjust_pvalues(np.array([0.01, 0.02]), method)


def test_lazy_stats_package_keeps_the_anova_function():
    """``irscale.stats.anova`` is the function, as when the package imported eagerly, even
    after the submodule of the same name is imported."""
    code = ("import irscale.stats.anova, irscale.stats as s, irscale;"
            "from irscale.stats import anova;"
            "print(callable(anova), anova is s.anova is irscale.anova,"
            " type(sys.modules['irscale.stats.anova']).__name__)")
    done = subprocess.run([sys.executable, "-c", "import sys;" + code], capture_output=True,
                          text=True, timeout=120, check=True)
    assert done.stdout.split() == ["True", "True", "module"]


def test_no_diversity_name_is_a_trec_eval_or_catalogue_name():
    """What lets ``irscale eval`` skip the diversity modules: a name that parses as a
    measure of trec_eval or of the catalogue is never a diversity measure's."""
    from irscale.measures.diversity import DIVERSITY_REGISTRY, is_diversity_name
    from irscale.measures.names import is_measure_name

    names = ["ndeval", "ndeval(traditional=1)", "ntcir:D#-nDCG@0010", "alpha-nDCG(alpha=0.5)@20"]
    names += [spelling for family in DIVERSITY_REGISTRY
              for spelling in (family, f"{family}@10", f"{family}@5")]
    diversity = [name for name in names if is_diversity_name(name)]
    assert len(diversity) > len(DIVERSITY_REGISTRY)
    assert not [name for name in diversity if is_measure_name(name)]
    assert all(map(is_measure_name, ["map", "P.5,10", "ndcg_cut_10", "nDCG@10", "official",
                                     "all_trec", "RBP(p=0.8)", "ERR@20"]))


def test_small_plain_inputs_run_the_engine_with_one_thread(tmp_path, monkeypatch):
    """``eval`` of plain files of at most :data:`irscale.cli.main.ONE_THREAD_BYTES` in all
    asks the engine for one thread (``RAYON_NUM_THREADS=1``: its pool spins for more CPU
    than it spares there); a value the user set stays, and larger inputs, folders,
    compressed files and standard input keep the pool."""
    from irscale.cli import main

    (tmp_path / "qrels").write_text("1 0 d1 1\n")
    (tmp_path / "run").write_text("1 Q0 d1 1 1 r\n")
    (tmp_path / "run.gz").write_bytes(b"")
    (tmp_path / "runs").mkdir()
    big = tmp_path / "big"
    with open(big, "wb") as handle:
        handle.truncate(main.ONE_THREAD_BYTES)
    for runs, one in ([["run"], True], [["run", "big"], False], [["run.gz"], False],
                      [["runs"], False], [["-"], False], [["missing"], False]):
        monkeypatch.delenv("RAYON_NUM_THREADS", raising=False)
        main._one_thread(argparse.Namespace(qrels=str(tmp_path / "qrels"),
                                            runs=[str(tmp_path / run) if run != "-" else run
                                                  for run in runs]))
        assert (os.environ.get("RAYON_NUM_THREADS") == "1") is one, runs
    monkeypatch.setenv("RAYON_NUM_THREADS", "4")
    main._one_thread(argparse.Namespace(qrels=str(tmp_path / "qrels"),
                                        runs=[str(tmp_path / "run")]))
    assert os.environ["RAYON_NUM_THREADS"] == "4"
