"""Every file argument of every subcommand given as a named pipe (``docs/errors.md`` §4):
a FIFO or standard input can be read once only, and a second ``open`` waits for a writer
that never comes. Each input is read once, or refused with one ``irscale:`` line.

The inputs are found by walking the real parsers (:func:`irscale.cli.main.build_parser`):
every positional argument and option declared an input (its parameter's domain is
:class:`irscale.core.params.InputFiles`). Each runs from a small valid command line
that uses it (:data:`USES`, else the command's declared example,
:mod:`tests.faults.examples`), with the file replaced by a FIFO
(of the same name, in a folder of its own) whose writer writes the file's bytes once and
closes. The call must give the output of the call on the file, or one clean refusal, and
must not wait for a second writer: after :data:`PATIENCE` seconds (a safety net, far beyond
what any of these calls takes) the writer opens the FIFO again to release a reader blocked
in a second ``open``, and the case fails on that.
"""

from __future__ import annotations

import argparse
import errno
import os
import re
import threading
from pathlib import Path

import pytest

from irscale.cli.main import build_parser
from irscale.cli.outputs import file_role

from ..cli_parsers import parsers
from .conftest import Result, error_line
from .examples import EXAMPLES, FILES, POPULATED, varied, what_to_declare
from .examples import sweep_ws as sweep_ws
from .test_labels_faults import GP

#: Seconds a writer waits for the command to end before it releases a second ``open``.
PATIENCE = 60.0

#: Command lines that use the inputs the declared examples leave out: (command, input's
#: dest) -> argv. Most vary the command's example (:func:`~tests.faults.examples.varied`:
#: the option that reads the input, and the choices it applies to); the lines given whole
#: read other inputs than the example (other files, another number of runs or systems,
#: QRELS RUN... instead of --scores), which no variation of its options gives.
USES: dict[tuple[str, str], list[str]] = {
    ("meta judge-noise", "--confusion"): ["meta", "judge-noise", "qrels.txt", "a.run", "b.run",
                                          "-m", "map", "--confusion", "conf.txt",
                                          "--replicates", "3", "--seed", "1"],
    ("meta judge-noise", "--double-judged"): ["meta", "judge-noise", "qrels.txt", "a.run",
                                              "b.run", "-m", "map", "--double-judged",
                                              "qrels.txt,second.txt", "--replicates", "3",
                                              "--seed", "1"],
    ("meta judge-noise", "--auto-sample"): ["meta", "judge-noise", "qrels.txt", "a.run",
                                            "b.run", "-m", "map", "--auto-sample",
                                            "second.txt,human.txt", "--replicates", "3",
                                            "--seed", "1"],
    ("report", "--confusion"): ["report", "qrels.txt", "a.run", "b.run", "--no-robustness",
                                "-m", "P@5", "--format", "markdown", "--replicates", "3",
                                "--confusion", "conf.txt"],
    ("report", "--double-judged"): ["report", "binary.txt", "a.run", "b.run", "c.run",
                                    "--no-robustness", "-m", "map", "--format", "markdown",
                                    "--replicates", "3", "--double-judged",
                                    "qrels.txt,second.txt"],
    ("report", "--auto-sample"): ["report", "qrels.txt", "a.run", "b.run", "--no-robustness",
                                  "-m", "P@5", "--format", "markdown", "--replicates", "3",
                                  "--auto-sample", "second.txt,human.txt"],
    ("report", "--assignments"): varied("report", None, "--assignments",
                                        "rag-abc.jsonl"),
    ("report", "--citations"): varied("report", None, "--citations",
                                      "cite-abc.jsonl"),
    ("report", "--assignments-sample"): varied("report", None, "--assignments",
                                               "rag-abc.jsonl", "--assignments-sample",
                                               "h-nug.jsonl"),
    ("report", "--citations-sample"): varied("report", None, "--citations",
                                             "cite-abc.jsonl", "--citations-sample",
                                             "h-cite.jsonl"),
    ("compare", "inputs"): ["compare", "qrels.txt", "a.run", "b.run", "-m", "map"],
    ("compare", "--intent-probs"): ["compare", "div.qrels", "a.run", "b.run", "-m",
                                    "D-nDCG@5", "--intent-probs", "p.txt"],
    ("compare", "--intent-types"): ["compare", "div.qrels", "a.run", "b.run", "-m",
                                    "DIN-nDCG@5", "--intent-types", "t.txt"],
    ("compare", "--shard-scores"): ["compare", "--shard-scores", "sh.csv", "--test", "mixed"],
    ("compare", "--collection"): ["compare", "--collection", "A=qrels.txt,a.run,b.run",
                                  "--collection", "B=human.qrels,a.run,b.run", "-m", "map",
                                  "--seed", "1"],
    ("compare", "--collections"): ["compare", "--collections", "suite.tsv", "-m", "map",
                                   "--seed", "1"],
    ("eval", "--Zscore"): ["eval", "-q", "-m", "map", "-m", "num_ret", "-Z", "z.txt",
                           "qrels.txt", "a.run"],
    ("eval", "--labels"): ["eval", "qrels.txt", "a.run", "--labels", "under=labels.txt", "-m",
                           "uRBP(p=0.8)"],
    ("eval", "--intent-probs"): ["eval", "-q", "-m", "D-nDCG@5", "div.qrels", "a.run",
                                 "--intent-probs", "p.txt"],
    ("eval", "--intent-types"): ["eval", "-q", "-m", "DIN-nDCG@5", "div.qrels", "a.run",
                                 "--intent-types", "t.txt"],
    ("fuse", "--qrels"): varied("fuse", {"--weights": None}, "--optimize", "--qrels",
                                "qrels.txt", "--step", "0.5"),
    ("fuse", "--train-qrels"): varied("fuse", {"--method": "posfuse", "--weights": None},
                                      "--train-qrels", "qrels.txt", "--train-runs", "a.run",
                                      "b.run"),
    ("fuse", "--train-runs"): varied("fuse", {"--method": "posfuse", "--weights": None},
                                     "--train-qrels", "qrels.txt", "--train-runs",
                                     "train-a.run", "train-b.run"),
    ("online satisfaction", "--apply"): varied("online satisfaction", {}, "--apply",
                                               "sat2.log", "--format", "csv"),
    # binary crowd labels and their features (gp's inputs)
    ("labels aggregate", "--features"): GP,
    ("meta correlate", "inputs"): ["meta", "correlate", "qrels.txt", "a.run", "b.run",
                                   "c.run", "-m", "map", "-m", "P@5"],
    ("meta discriminative-power", "inputs"): ["meta", "dp", "qrels.txt", "a.run", "b.run",
                                              "c.run", "-m", "map", "-B", "20", "--seed",
                                              "1"],
    ("meta loo", "--contributors"): varied("meta loo", {"--contributors": "contrib.txt"}),
    ("online ab measures", "--variants"): varied("online ab measures",
                                                 {"--salt": None, "--variants": "v.tsv"}),
    ("online counterfactual", "--policy"): varied("online counterfactual", {
        "--run": None, "--bootstrap": None, "--seed": None, "--policy": "policy.txt"}),
    ("online counterfactual", "--reward"): varied("online counterfactual", {
        "--bootstrap": None, "--seed": None, "--estimator": "dr", "--reward": "reward.txt"}),
    ("online interleave", "--qrels"): varied("online interleave", {"--bootstrap": None}),
    # the parameters of a fitted model instead of the clicks of a log
    ("online loglik", "--params"): ["online", "loglik", "--params", "pbm.json", "--test",
                                    "test.log"],
    ("online simulate-clicks", "--params"): varied("online simulate-clicks",
                                                   {"--params": "pbm-model.json"}),
    # (pool build: two runs under a strategy with a budget; the example pools three by depth)
    ("pool build", "--qrels"): ["pool", "build", "a.run", "b.run", "--strategy", "mm-ns",
                                "--budget", "3", "--seed", "1", "--qrels", "qrels.txt"],
    ("session", "--clicks"): varied("session", {"-m": "U", "--labels": "doclen=len.txt",
                                                "--clicks": "c.log"}),
    ("session", "--labels"): varied("session", {"-m": "U", "--labels": "doclen=len.txt",
                                                "--clicks": "c.log"}),
    ("text rouge", "--stopwords"): varied("text rouge", {"--stopwords": "stop.txt"}),
    ("text nuggets", "runs"): ["text", "nuggets", "nug.txt", "match.txt", "--lengths",
                               "nlen.txt"],
    ("meta gstudy", "--facet-scores"): varied("meta gstudy", {"--scores": None,
                                                              "--facet-scores": "facet.csv"}),
    ("meta pool-bias", "--contributors"): varied("meta pool-bias",
                                                 {"--contributors": "contrib.txt"}),
    ("meta reproduce", "--scores"): ["meta", "reproduce", "--scores", "ap.csv", "--original",
                                     "sysA,sysB", "--reproduced", "sysC,sysD"],
    ("meta simulate", "--scores"): varied("meta simulate", {
        "--model": "bootstrap", "--topics": None, "--repetitions": "10",
        "--scores": "ap.csv"}),
    ("meta simulate", "inputs"): ["meta", "simulate", "--model", "bootstrap", "qrels.txt",
                                  "a.run", "b.run", "c.run", "-m", "map", "--repetitions",
                                  "10", "--seed", "1"],
    ("meta predict", "inputs"): ["meta", "predict", "qrels.txt", "a.run", "b.run", "c.run",
                                 "-m", "map", "--preferences", "rprefs.txt"],
    ("meta split", "inputs"): ["meta", "split", "qrels.txt", "a.run", "b.run", "c.run", "-m",
                               "map", "--sizes", "2,3", "--repetitions", "3", "--seed", "1"],
    ("meta swap", "inputs"): ["meta", "swap", "qrels.txt", "a.run", "b.run", "c.run", "-m",
                              "map", "--sizes", "2,3", "--repetitions", "3", "--seed", "1"],
    ("meta drank", "inputs"): ["meta", "drank", "qrels.txt", "a.run", "b.run", "c.run", "-m",
                               "P@5", "-m", "map"],
    ("meta concordance", "inputs"): ["meta", "concordance", "qrels.txt", "a.run", "b.run",
                                     "c.run", "-m", "P@5", "-m", "map", "-m", "ndcg",
                                     "--gold", "ndcg"],
    ("meta gstudy", "inputs"): ["meta", "gstudy", "qrels.txt", "a.run", "b.run", "c.run",
                                "-m", "map"],
    ("online ab measures", "--answered"): varied("online ab measures",
                                                 {"--answered": "ans.txt"}),
    ("online calibrate", "--qrels"): varied("online calibrate", {"-m": "ERR",
                                                                 "--qrels": "qrels.txt"}),
    # a log of probabilistic interleaving and the runs it interleaved
    ("online score", "--runs"): ["online", "score", "prob.log", "--method", "probabilistic",
                                 "--runs", "a.run", "b.run", "--seed", "1", "--bootstrap",
                                 "50"],
    ("online sensitivity", "--model"): varied("online sensitivity",
                                              {"--model": "pbm-model.json"}),
    ("pool sample", "--qrels"): varied("pool sample", {"--qrels": "qrels.txt"}),
    ("pool simulate", "--contributors"): varied("pool simulate",
                                                {"--contributors": "contrib.txt"}),
    ("session", "--topics"): varied("session", {"--topics": "map.txt"}),
    # three runs, one batch each (a single batch reads the qrels once anyway)
    ("eval-many", "qrels"): ["eval-many", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map",
                             "--batch-size", "1", "--no-progress"],
    ("eval", "--topic-alpha"): ["eval", "-q", "-m", "alpha-nDCG-w(topic_alpha=1)@5",
                                "div.qrels", "a.run", "--topic-alpha", "alpha.txt"],
    ("online counterfactual", "--propensities"): varied("online counterfactual", {
        "--logging": None, "--bootstrap": None, "--seed": None, "--estimator": "pbm-ips",
        "--propensities": "pbm.json"}),
    ("online interleave", "--clicks"): varied("online interleave", {
        "--clicks": "pbm-model.json", "--qrels": None, "--bootstrap": None}),
    ("online fairpairs", "--clicks"): varied("online fairpairs", {
        "--clicks": "pbm-model.json", "--qrels": None}),
    ("text nuggets", "--stopwords"): varied("text nuggets", {"--stopwords": "stop.txt"}),
    ("meta split", "--shard-scores"): varied("meta split", {
        "--scores": "shm.csv", "--topic-column": "topic", "--shard-scores": "sh.csv",
        "--models": "shard-main", "--empty": "zero"}),
    ("text nuggets", "--lengths"): ["text", "nuggets", "nug.txt", "match.txt", "--lengths",
                                    "nlen.txt"],
    ("text nuggets", "--assignments"): ["text", "nuggets", "--assignments", "rag.jsonl"],
    ("text nuggets", "--human-sample"): ["text", "nuggets", "--assignments", "rag.jsonl",
                                         "--human-sample", "rag-human.jsonl"],
    ("text citations", "--human-sample"): ["text", "citations", "cite.jsonl",
                                           "--human-sample", "cite-human.jsonl"],
    ("eval-seeds", "--system"): ["eval-seeds", "qrels.txt", "--system", "A=a.run", "--system",
                                 "B=b.run,c.run", "-m", "map"],
    ("report", "--automatic"): ["report", "human.qrels", "a.run", "b.run", "c.run",
                                "--no-robustness", "--automatic", "qrels.txt", "-m", "P@5",
                                "--format", "markdown"],
    ("report", "--collection"): ["report", "qrels.txt", "a.run", "b.run", "--no-robustness",
                                 "-m", "P@5", "--format", "markdown", "--seed", "1",
                                 "--collection", "A=human.qrels,a.run,b.run",
                                 "--collection", "B=qrels.txt,a.run,b.run"],
    ("report", "--judge"): ["report", "human.qrels", "a.run", "b.run", "c.run",
                            "--no-robustness", "--judge", "qrels.txt", "-m", "P@5",
                            "--format", "markdown"],
    ("report", "--collections"): ["report", "qrels.txt", "a.run", "b.run", "--no-robustness",
                                  "-m", "P@5", "--format", "markdown", "--seed", "1",
                                  "--collections", "suite.tsv"],
    ("report", "--plan-pilot"): ["report", "qrels.txt", "a.run", "b.run", "c.run",
                                 "--no-robustness", "--plan-pilot", "h.txt", "--plan-width",
                                 "0.3", "-m", "P@5", "--format", "markdown"],
}

#: Inputs that are never read: ``eval --baseline`` names one of the runs (by its name or
#: its file), declared an input so that no output may be written over it.
NOT_READ = {("eval", "--baseline")}

#: Inputs read by the same option group, and reader, as an input swept above
#: (:func:`irscale.cli.inputs`): the diversity files of every ``meta`` command that
#: evaluates runs are those of ``eval`` and ``compare``.
SHARED = {(command, option) for command in EXAMPLES if command.startswith("meta ")
          for option in ("--intent-probs", "--intent-types")} | {
    ("meta simulate", "--intent-probs"), ("meta simulate", "--intent-types")}

def inputs(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.Action]]:
    """``(command, action)`` of every input of every subcommand of ``parser``."""
    found = []
    for prog, command in parsers(parser):
        for action in command._actions:
            role = file_role(action)
            if role is not None and role.kind == "input":
                found.append((prog.removeprefix("irscale").strip(), action))
    return found


PARSER = build_parser()
INPUTS = inputs(PARSER)


def key(action: argparse.Action) -> str:
    return max(action.option_strings, key=len) if action.option_strings else action.dest


def _values(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [v for item in value for v in _values(item)]
    return [str(value)]


def placed(command: str, action: argparse.Action) -> tuple[list[str], int, str] | None:
    """A valid command line using ``action``, the index of the argument that names its
    file, and the file; ``None`` when no command line at hand uses it."""
    argv = USES.get((command, key(action))) or EXAMPLES.get(command)
    if argv is None:
        return None
    try:
        namespace = PARSER.parse_args(argv)
    except SystemExit:
        return None
    for value in _values(getattr(namespace, action.dest, None)):
        # --labels NAME=FILE; --collection NAME=QRELS,RUNS: its first file
        parts = re.split(r"[=,]", value)
        file = next((p for p in parts if p in FILES or p in POPULATED), parts[-1])
        at = [i for i, arg in enumerate(argv) if arg in (value, file)
              or file in re.split(r"[=,]", arg)[1:]]
        if len(at) == 1 and (file in FILES or file in POPULATED):
            return argv, at[0], file
    return None


class Rescuer(threading.Thread):
    """Waits; a reader blocked in an ``open`` of the FIFO at ``path`` after
    :data:`PATIENCE` seconds is released by opening it for writing (``rescued``)."""

    def __init__(self, path: Path):
        super().__init__(daemon=True)
        self.path = path
        self.stop = threading.Event()
        self.rescued = False

    def run(self) -> None:
        self.release()

    def release(self) -> None:
        if self.stop.wait(PATIENCE):
            return
        while not self.stop.is_set():
            try:
                os.close(os.open(self.path, os.O_WRONLY | os.O_NONBLOCK))
                self.rescued = True
            except OSError as error:
                if error.errno != errno.ENXIO:
                    raise
            self.stop.wait(0.01)


class OnceWriter(Rescuer):
    """Writes ``data`` into the FIFO at ``path`` once a reader opens it, closes it, then
    waits; a reader still there after :data:`PATIENCE` seconds (blocked in a second
    ``open``) is released (:class:`Rescuer`)."""

    def __init__(self, path: Path, data: bytes):
        super().__init__(path)
        self.data = data

    def run(self) -> None:
        descriptor = os.open(self.path, os.O_WRONLY)  # waits for the reader
        try:
            view = memoryview(self.data)
            while view:
                view = view[os.write(descriptor, view):]
        except BrokenPipeError:
            pass
        finally:
            os.close(descriptor)
        self.release()


_REFERENCES: dict[tuple[str, ...], Result] = {}


def test_every_input_is_swept():
    """Every input of every subcommand has a command line that uses it (a command without
    an example is named by ``tests/faults/test_command_examples.py``)."""
    missing = sorted(f"{command} {key(action)}" for command, action in INPUTS
                     if placed(command, action) is None and command in EXAMPLES
                     and (command, key(action)) not in SHARED | NOT_READ)
    assert not missing, f"no command line uses {missing} (the command's declared example " \
        "does not: add a line to USES that varies it)"
    assert len(INPUTS) > 100, len(INPUTS)


@pytest.mark.parametrize(("command", "action"), [
    pytest.param(command, action, id=f"{command} {key(action)}")
    for command, action in INPUTS if (command, key(action)) not in SHARED | NOT_READ])
def test_fifo_input(command, action, sweep_ws, run_cli, tmp_path):
    """The input of ``action`` in a FIFO: the output of the call on the file, or one
    ``irscale:`` line; never a wait for a second writer."""
    found = placed(command, action)
    if found is None and command not in EXAMPLES:
        pytest.skip(what_to_declare(command))
    if found is None:
        pytest.skip("no command line uses it (test_every_input_is_swept fails)")
    _read_once(*found, sweep_ws, run_cli, tmp_path)


#: Options under which a command reads its inputs again (``eval --bounds``: the values,
#: then the bounds): (argv, the place of the file in it).
AGAIN = [(["eval", "qrels.txt", "a.run", "b.run", "--bounds", "-m", "P@3", "-q"], 1),
         (["eval", "qrels.txt", "a.run", "b.run", "--bounds", "-m", "P@3", "-q"], 2)]


@pytest.mark.parametrize(("argv", "at"), [
    pytest.param(argv, at, id=f"{argv[0]}-{argv[at]}-{'-'.join(argv[3:5])}")
    for argv, at in AGAIN])
def test_fifo_input_read_again(argv, at, sweep_ws, run_cli, tmp_path):
    """An input in a FIFO under an option that uses it twice: read once all the same."""
    _read_once(argv, at, argv[at], sweep_ws, run_cli, tmp_path)


def _read_once(argv: list[str], at: int, file: str, sweep_ws, run_cli, tmp_path) -> None:
    """``argv`` with its file ``argv[at]`` in a FIFO gives the output of the call on the
    file, or one ``irscale:`` line, and never waits for a second writer."""
    reference = run_cli(argv)
    assert reference.status == 0, "the valid call fails" + reference.describe()
    folder = tmp_path / "fifo"
    folder.mkdir()
    fifo = folder / file
    os.mkfifo(fifo)
    writer = OnceWriter(fifo, sweep_ws.read(file))
    writer.start()
    try:
        result = run_cli([*argv[:at], argv[at].replace(file, str(fifo)), *argv[at + 1:]])
    finally:
        writer.stop.set()
        try:  # a reader that never came: release the writer's open
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        except OSError:
            pass
        writer.join(10)
    assert not writer.rescued, "waited for a second writer (the FIFO opened twice)" + \
        result.describe()
    if result.status == 0:
        out = result.out.replace(str(fifo), file)
        assert out == reference.out, "output differs from the call on the file" + \
            result.describe()
    else:
        assert result.status == 2, f"exit status {result.status}" + result.describe()
        error_line(result)


#: Command lines with a cache (``--cache c`` added): its entries are inputs too.
CACHED = [["eval", "qrels.txt", "a.run", "b.run", "-m", "map", "-q"],
          ["eval", "qrels.txt", "a.run", "b.run", "-m", "map", "-m", "P@5", "--format", "csv"],
          ["eval-many", "qrels.txt", "a.run", "b.run", "-m", "map", "--no-progress"]]


@pytest.mark.parametrize("argv", [pytest.param(argv, id="-".join(argv[:1] + argv[-2:]))
                                  for argv in CACHED])
def test_fifo_cache_entries(argv, sweep_ws, run_cli):
    """The entries of ``--cache`` as FIFOs (anyone who can write into a shared cache
    folder can make one): each is a miss with one warning, never opened to wait for a
    writer (a reader that waits is released after :data:`PATIENCE` seconds, and the case
    fails), and the output is the one written first."""
    cached = [*argv, "--cache", "c"]
    first = run_cli(cached)
    assert first.status == 0, first.describe()
    names = sorted(os.listdir(sweep_ws.root / "c"))
    assert names, "no entry written"
    rescuers = []
    for name in names:
        path = sweep_ws.root / "c" / name
        path.unlink()
        os.mkfifo(path)
        rescuers.append(Rescuer(path))
        rescuers[-1].start()
    try:
        result = run_cli(cached)
    finally:
        for rescuer in rescuers:
            rescuer.stop.set()
            rescuer.join(10)
    assert not any(r.rescued for r in rescuers), "waited for a writer of a FIFO entry" + \
        result.describe()
    assert result.status == 0 and result.out == first.out, result.describe()
    warned = [line for line in result.err.splitlines() if "is not used" in line]
    assert len(warned) == len(names) and all("a FIFO" in line for line in warned), \
        result.describe()
