"""Every option that names a file is declared an input or an output (``docs/errors.md``,
rule 4), and the checks of the call compare what it writes with what it reads by resolved
path and by inode: the oracle is the file system itself (``os.link``, ``os.symlink``)."""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

import pytest

from irscale.cli.main import build_parser
from irscale.cli.outputs import call_files, command_parsers, file_role
from irscale.core.params import InputFiles
from irscale.errors import OutputExistsError, ParameterError
from irscale.io.call_inputs import CallInputs, InputFile, check_folder_inputs, check_not_input
from irscale.io.files import check_output
from irscale.io.sources import run_files, source_files

#: A metavar that names a file (or a folder): ``FILE``, ``DIR``, ``LOG``, ``RUN`` ..., also
#: as a part of one (``NAME=RUNS``, ``AUTO_QRELS``).
FILE_METAVAR = re.compile(r"(?<![A-Za-z])(FILE|DIR|LOG2?|RUNS?|QRELS|TABLE|USERS|SAMPLE|"
                          r"LABELS)(?![A-Za-z])|\.json")
#: Help of an option without a metavar that names a file or a folder.
FILE_HELP = re.compile(r"\b(files?|folders?|directory)\b")

#: Options that look like files but name none: (command, option) → why.
NOT_FILES = {
    ("report", "--baseline"): "the name of a run of the report, not a file",
}


def leaf_parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    """Every subcommand's own parser (``meta dp`` is ``meta discriminative-power``)."""
    found: list[tuple[str, argparse.ArgumentParser]] = []

    def walk(parser: argparse.ArgumentParser, prefix: str) -> None:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            found.append((prefix, parser))
            return
        seen: set[int] = set()
        for name, sub in subs[0].choices.items():
            if id(sub) not in seen:
                seen.add(id(sub))
                walk(sub, f"{prefix} {name}".strip())

    walk(build_parser(), "")
    return found


def takes_a_file(action: argparse.Action) -> bool:
    """A positional argument, an option whose metavar names a file, or an option of free
    text (no metavar, choices or type) whose help speaks of a file or a folder."""
    if action.nargs == 0 or isinstance(action, (argparse._HelpAction,
                                                argparse._VersionAction)):
        return False
    if not action.option_strings:
        return True
    if FILE_METAVAR.search(str(action.metavar or "")):
        return True
    return (action.metavar is None and action.choices is None and action.type is None
            and bool(FILE_HELP.search(action.help or "")))


def _name(action: argparse.Action) -> str:
    return max(action.option_strings, key=len) if action.option_strings else action.dest


def test_every_file_option_is_declared():
    """Walk every subcommand's parser: an option that takes a file is declared an input or
    an output (its parameter's domain: :class:`irscale.core.params.InputFiles`,
    :class:`~irscale.core.params.OutputPath`), or named
    in :data:`NOT_FILES` with the reason."""
    undeclared = []
    for command, parser in leaf_parsers():
        for action in parser._actions:
            if takes_a_file(action) and file_role(action) is None \
                    and (command, _name(action)) not in NOT_FILES:
                undeclared.append(f"irscale {command} {_name(action)}")
    assert not undeclared, f"options naming a file, neither input nor output: {undeclared}"
    assert len(leaf_parsers()) > 30


def test_every_command_declares_its_outputs():
    """Every subcommand writes something it declares: ``-o``, or ``demo --out``."""
    for command, parser in leaf_parsers():
        kinds = {file_role(a).kind for a in parser._actions if file_role(a) is not None}
        assert kinds - {"input"}, f"irscale {command} declares no output"


def test_not_files_are_still_options():
    """The exceptions name options that exist (a renamed option leaves no stale entry)."""
    parsers = dict(leaf_parsers())
    for command, option in NOT_FILES:
        assert option in parsers[command]._option_string_actions, (command, option)


def _files(argv: list[str]):
    parser = build_parser(argv[0])
    args = parser.parse_args(argv)
    return call_files(args, parser), command_parsers(parser, args)


def test_call_files_of_a_command_line():
    """The inputs and outputs an ``eval`` command line names, as given."""
    files, chain = _files(["eval", "q.txt", "a.run", "runs", "--labels", "u=lab.txt",
                           "--intent-types", "t.txt", "-o", "out.txt", "--per-topic-out",
                           "pt", "-m", "map"])
    assert [p.prog for p in chain] == ["irscale", "irscale eval"]
    assert files.inputs == [("q.txt", ""), ("a.run", ""), ("runs", ""),
                            ("lab.txt", "--labels"), ("t.txt", "--intent-types")]
    assert sorted(files.outputs) == [("--per-topic-out", "pt", "folder"),
                                     ("-o", "out.txt", "file")]


def test_keywords_name_no_file():
    """``online interleave --clicks perfect`` reads no file; ``--clicks m.json`` does."""
    files, _ = _files(["online", "interleave", "a.run", "b.run", "--clicks", "perfect"])
    assert [path for path, _ in files.inputs] == ["a.run", "b.run"]
    files, chain = _files(["online", "interleave", "a.run", "b.run", "--clicks", "m.json"])
    assert [p.prog for p in chain][-1] == "irscale online interleave"
    assert ("m.json", "--clicks") in files.inputs


@pytest.mark.parametrize(("argv", "inputs"), [
    (["eval-seeds", "q", "--system", "A=r0.run,r1.run", "--system", "B=runs", "--system",
      "C=runs/*.run", "-m", "map"],
     [("q", ""), ("r0.run", "--system"), ("r1.run", "--system"), ("runs", "--system"),
      ("runs/*.run", "--system")]),
    (["report", "h.qrels", "a.run", "b.run", "--automatic", "auto.qrels"],
     [("h.qrels", ""), ("a.run", ""), ("b.run", ""), ("auto.qrels", "--automatic")]),
    (["online", "counterfactual", "log", "--run", "a.run", "--estimator", "pbm-ips",
      "--propensities", "1,0.5,nan"], [("log", ""), ("a.run", "--run")]),
    (["online", "counterfactual", "log", "--run", "a.run", "--estimator", "pbm-ips",
      "--propensities", "pbm.json"],
     [("log", ""), ("a.run", "--run"), ("pbm.json", "--propensities")]),
    (["online", "counterfactual", "log", "--run", "a.run", "--logging", "empirical"],
     [("log", ""), ("a.run", "--run")]),
    (["online", "sensitivity", "q", "a.run", "b.run", "--model", "informational"],
     [("q", ""), ("a.run", ""), ("b.run", "")]),
    (["session", "q", "s.run", "--labels", "doclen=len.txt"],
     [("q", ""), ("s.run", ""), ("len.txt", "--labels")]),
    (["fuse", "a.run", "b.run", "--method", "posfuse", "--train-qrels", "t.q",
      "--train-runs", "ta.run", "tb.run"],
     [("a.run", ""), ("b.run", ""), ("t.q", "--train-qrels"), ("ta.run", "--train-runs"),
      ("tb.run", "--train-runs")]),
])
def test_compound_values_name_their_files(argv, inputs):
    """The files a value names, as its parameter's domain reads it (``NAME=PATHS`` with a
    comma-separated list, a folder or a pattern; keywords and lists of numbers that name no
    file), are the inputs of the call."""
    files, _ = _files(argv)
    assert files.inputs == inputs


def test_input_domains_split_values():
    """:meth:`InputFiles.split`: the name and the paths of a value, in every form."""
    system = InputFiles(named=True, lists=True)
    assert system.split("A=r0.run, r1.run,") == ("A", ["r0.run", "r1.run"])
    assert system.split("A=runs") == ("A", ["runs"])
    assert system.split("A=") == ("A", []) and system.split("A") == ("A", [])
    labels = InputFiles(named=True)
    assert labels.split("under=a=b.txt") == ("under", ["a=b.txt"])
    assert InputFiles(numbers=True).paths("0.5,1e-3") == []
    assert InputFiles(numbers=True).paths("0.5,gamma.json") == ["0.5,gamma.json"]
    assert InputFiles(keywords=("perfect",)).paths("perfect") == []
    assert InputFiles().paths("a,b.run") == ["a,b.run"]  # a comma is a name's


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").mkdir()
    for name in ("a.run", "b.run", ".hidden"):
        (tmp_path / "runs" / name).write_text(f"{name}\n")
    (tmp_path / "runs" / "sub").mkdir()
    (tmp_path / "q.txt").write_text("qrels\n")
    return tmp_path


def test_input_files_expand_folders_and_patterns(tree):
    """Folders and glob patterns give the files the commands read (no hidden file, no
    subfolder), each named with how it was found."""
    files, _ = _files(["eval", "q.txt", "runs", "runs/*.run", "-o", "x", "-m", "map"])
    assert list(files.input_files()) == [
        InputFile("q.txt"),
        InputFile("runs/a.run", "in folder runs"), InputFile("runs/b.run", "in folder runs"),
        InputFile("runs/a.run", "matched by runs/*.run"),
        InputFile("runs/b.run", "matched by runs/*.run")]
    assert source_files("runs") == ["runs/a.run", "runs/b.run"]
    assert source_files("none/*.run") == [] and source_files("missing.run") == ["missing.run"]


@pytest.mark.parametrize("how", ["same", "dot-slash", "absolute", "symlink", "hard-link",
                                 "symlink-chain", "through-linked-folder"])
def test_output_named_as_an_input_is_refused(tree, how):
    """Every name of an input file is that input, whatever ``force`` says."""
    source = tree / "runs" / "a.run"
    if how == "same":
        out = "runs/a.run"
    elif how == "dot-slash":
        out = "./runs/../runs/a.run"
    elif how == "absolute":
        out = str(source)
    elif how == "symlink":
        os.symlink(source, tree / "link")
        out = "link"
    elif how == "hard-link":
        os.link(source, tree / "hard")
        out = "hard"
    elif how == "symlink-chain":
        os.symlink(source, tree / "link2")
        os.symlink("link2", tree / "link")
        out = "link"
    else:
        os.symlink("runs", tree / "linked")
        out = "linked/a.run"
    inputs = CallInputs([InputFile("q.txt"), InputFile("runs/a.run", "in folder runs")])
    assert inputs.named_by(out) == InputFile("runs/a.run", "in folder runs")
    with pytest.raises(OutputExistsError, match=r"runs/a\.run"):
        check_not_input(out, inputs)
    assert source.read_text() == "a.run\n"


def test_other_files_are_not_inputs(tree):
    """A new file, a copy of an input and an input's folder are not the input; nor is a
    value that names no file (``eval --format latex --baseline RUNID``)."""
    (tree / "copy.run").write_bytes((tree / "runs" / "a.run").read_bytes())
    inputs = CallInputs(["runs/a.run", "-", object(), "teamA_r1"])
    assert [f.path for f in inputs.files] == ["runs/a.run", "teamA_r1"]
    for other in ("new.txt", "copy.run", "runs/b.run", "-", "teamA_r1"):
        assert inputs.named_by(other) is None, other
    check_not_input("copy.run", inputs)
    check_output("copy.run", force=True)


def test_dangling_link_input_is_its_target(tree):
    """An input that is a dangling symbolic link stands for the file it would be."""
    os.symlink("made.run", tree / "link.run")
    inputs = CallInputs(["link.run"])
    assert inputs.named_by("made.run") == InputFile("link.run")


@pytest.mark.parametrize("how", ["holds", "below", "is", "hard-link-in-it", "symlink-in-it",
                                 "above"])
def test_output_folder_holding_an_input_is_refused(tree, how):
    """An output folder that is, holds (at any depth) or links to an input is refused."""
    inputs = CallInputs(["q.txt", "runs/sub/deep.run"])
    (tree / "runs" / "sub" / "deep.run").write_text("deep\n")
    folder = {"holds": ".", "below": "runs", "is": "runs/sub/deep.run", "above": "/",
              "hard-link-in-it": "out", "symlink-in-it": "out"}[how]
    if how.endswith("in-it"):
        (tree / "out").mkdir()
        maker = os.link if how.startswith("hard") else os.symlink
        maker(tree / "q.txt", tree / "out" / "part-00000.parquet")
    assert inputs.inside(folder) is not None
    with pytest.raises(OutputExistsError, match="--dir"):
        check_folder_inputs(folder, inputs, option="--dir")


def test_output_folder_beside_the_inputs_is_fine(tree):
    inputs = CallInputs(["q.txt", "runs/a.run"])
    (tree / "out").mkdir()
    (tree / "out" / "copy").write_text("qrels\n")
    for folder in ("out", "new", "runs/sub"):
        assert inputs.inside(folder) is None, folder
        check_folder_inputs(folder, inputs, option="--dir")


@pytest.mark.parametrize("how", ["same", "dot-slash", "symlink", "hard-link", "folder-and-file",
                                 "pattern-and-folder"])
def test_run_files_given_twice_under_any_name(tree, how):
    """``run_files``: one file named twice, under one name or two, is refused."""
    if how == "symlink":
        os.symlink(tree / "runs" / "a.run", tree / "link.run")
    if how == "hard-link":
        os.link(tree / "runs" / "a.run", tree / "hard.run")
    sources = {"same": ["runs/a.run", "runs/a.run"], "dot-slash": ["runs/a.run", "./runs/a.run"],
               "symlink": ["runs/a.run", "link.run"], "hard-link": ["runs/a.run", "hard.run"],
               "folder-and-file": ["runs", "runs/b.run"],
               "pattern-and-folder": ["runs/*.run", "runs"]}[how]
    with pytest.raises(ParameterError, match="given twice"):
        run_files(sources)
    assert run_files(["runs", "q.txt"]) == ["runs/a.run", "runs/b.run", "q.txt"]
