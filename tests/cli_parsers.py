"""The parsers of the ``irscale`` command line, for the tests that walk every option."""

from __future__ import annotations

import argparse
import functools
from collections.abc import Iterator


@functools.cache
def irscale_parser() -> argparse.ArgumentParser:
    """The parser of the ``irscale`` command (:func:`irscale.cli.main.build_parser`), built
    once for the test modules that walk it when they are collected (a build takes about
    0.1 s). Shared: read it, never change it."""
    from irscale.cli.main import build_parser

    return build_parser()


def parsers(parser: argparse.ArgumentParser, prog: str = "irscale"
            ) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """``(command, parser)`` of ``parser`` and of every sub-parser below it, each once
    (aliases such as ``meta dp`` share the parser of ``meta discriminative-power``)."""
    yield prog, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            seen = set()
            for name, sub in action.choices.items():
                if sub is not None and id(sub) not in seen:  # (a subcommand not built)
                    seen.add(id(sub))
                    yield from parsers(sub, f"{prog} {name}")


#: Values of the required options that are neither inputs nor choices, for
#: :func:`input_cases`.
REQUIRED_VALUES = {"--measure": "AP", "--length": "3", "--salt": "s", "--min-diff": "0.1",
                   "--sd": "1", "--strategy": "mtf", "fuse --method": "combsum",
                   "--original": "a,b", "--reproduced": "a,b", "--model": "bootstrap"}


#: What the files of the malformed cases of :func:`input_cases` hold (``tests/test_startup.py``,
#: ``benchmarks/bench_startup.py``): a line of no input format, and a table of numbers with a
#: word among them (a per-user table's metric with a typo; to the line readers a line of too
#: few fields, a user id holding a blank).
MALFORMED = {"malformed": "this line is no input of any command\n",
             "malformed table": "user,variant,clicks\nu1,A,3\nu2,B,x y\n"}


#: A valid small file of every kind of input (the formats of ``docs/``), for the cases of
#: :func:`later_input_cases`: the files read before the malformed one.
VALID = {
    "qrels": "1 0 d1 1\n1 0 d2 0\n2 0 d1 2\n2 0 d3 1\n",
    "run": "1 Q0 d1 1 2.0 r\n1 Q0 d2 2 1.0 r\n2 Q0 d3 1 1.5 r\n2 Q0 d1 2 1.0 r\n",
    "session run": "s1 1 d1 1 2.0 r\ns1 1 d2 2 1.0 r\n",
    "texts": "1\tsysA\tThe cat sat on the mat.\n",
    "nuggets": "1 n1 2 vital\n1 n2 1 okay\n",
    "matches": "1 sysA n1 3\n",
    "pyramid": "1\tscu1\tA,B\n",
    "peers": "1\tsysA\tscu1\n",
    "sampled": "1 0 d1 1 0.5\n1 0 d2 0 1\n",
    "crowd labels": "1 d1 w1 1\n1 d1 w2 0\n1 d2 w1 0\n",
    "pairwise": "1 w1 d1 d2 d1\n1 w2 d1 d2 d2\n",
    "click log": "s1 q1 1 d1 1\ns1 q1 2 d2 0\ns2 q1 1 d2 0\ns2 q1 2 d1 1\n",
    "interleaving log": "i1 1 1 d1 A 1\ni1 1 2 d3 B 0\ni2 2 1 d3 A 0\n",
    "users": "u1\nu2\n",
    "session users": "s1 u1\ns2 u2\n",
    "user variants": "u1 control\nu2 treatment\n",
    "sessions": "s1\n",
    "user table": "user,variant,clicks\nu1,A,3\nu2,B,1\n",
    "scores": "sysA,sysB\n0.1,0.2\n0.3,0.1\n0.5,0.4\n",
    "features": "1 d1 0.5 1\n1 d2 0.25 0\n",
    "preferences": "1 sysA sysB left\n",
    "lengths": "1 sysA 20\n",
    "predictions": "topic,predictor,value\n1,p,0.5\n2,p,0.25\n",
    "observed": "topic,value\n1,0.5\n2,0.25\n",
    "satisfaction labels": "s1 1\ns2 0\n",
    "contributors": "r teamA\n",
    # no run id: several files are several runs, named by the files
    "support judgments": '{"qid": "1", "sentences": [{"citations": ["d1"], "support": 1}]}\n',
    "click params": ('{"model": "pbm", "prior": [0.5, 0.5], "attractiveness": [["q1", '
                     '"d1", 0.8], ["q1", "d2", 0.2]], "satisfaction": null, "examination": '
                     '[1.0, 0.9], "continuation": null, "gamma": null, "tau": null}\n'),
}


#: The kind (:data:`VALID`) of every input of the parsers, by the name an input has: the
#: words of its metavar (``QRELS RUN``: the first file a qrels file, the others runs), else
#: its option or its ``dest``; ``command name`` where a command reads another kind under
#: a name. A command whose input has a name of none is refused by
#: :func:`later_input_cases`: declare its kind here.
INPUT_KINDS = {
    "qrels": "qrels", "QRELS": "qrels", "QRELS_A": "qrels", "QRELS_B": "qrels",
    "AUTO": "qrels", "HUMAN": "qrels", "JUDGE": "qrels", "PILOT": "qrels", "--judge": "qrels",
    "runs": "run", "RUN": "run", "RUNS": "run",
    "--new": "run", "--source": "run", "--target": "run", "--runs": "run", "--system": "run",
    "session_run": "session run", "references": "texts", "candidates": "texts",
    "nuggets": "nuggets", "matches": "matches", "pyramid": "pyramid", "peers": "peers",
    "SAMPLE": "sampled", "LABELS": "crowd labels", "JUDGMENTS": "pairwise",
    "LOG": "click log", "CLICKLOG": "click log", "LOG2": "click log", "USERS": "users",
    "TABLE": "user table", "--users": "session users", "--variants": "user variants",
    "--answered": "sessions", "--preferences": "preferences",
    "--predictions": "predictions", "--observed": "observed",
    "--labels": "satisfaction labels", "--params": "click params",
    "MODEL.json": "click params", "--features": "features", "--scores": "scores",
    "--contributors": "contributors", "online historical LOG": "interleaving log",
    "online score LOG": "interleaving log", "text citations FILE": "support judgments",
}


#: Options a command needs besides its inputs and required options, so that its command
#: line is complete (:func:`later_input_cases` must reach the files): by command, the
#: longest prefix of its name that is a key.
COMMAND_OPTIONS = {
    "compare": ["-m", "map"], "meta": ["-m", "map"], "meta qpp": [],
    "pool sample": ["--size", "2"], "online ab measures": ["--salt", "s"],
    "online loglik": ["--model", "pbm"], "text nuggets": ["--lengths", "@lengths"],
}


def _kind(prog: str, names: list[str]) -> str | None:
    """The kind of an input called ``names`` (its option, then its name) in the command
    ``prog``: the first of them :data:`INPUT_KINDS` declares for that command, else for
    every command."""
    command = prog.split(maxsplit=1)[1]
    return next((INPUT_KINDS[key] for name in names
                 for key in (f"{command} {name}", name) if key in INPUT_KINDS), None)


def _files_of(action: argparse.Action) -> int:
    """How many files an input takes in a case: ``nargs`` where it is a number, one per
    word of a metavar such as ``QRELS RUN`` and one run more (two runs), three of a
    repeatable argument of one kind (``RUN...``), else one."""
    words = str(action.metavar or "").split()
    if isinstance(action.nargs, int):
        return action.nargs
    if action.nargs in ("*", "+"):
        return len(words) + 1 if len(words) > 1 else 3 if action.nargs == "+" else 1
    return 1


def _input_files(parser: argparse.ArgumentParser, name: str
                 ) -> Iterator[tuple[list[str], list[tuple[str, str | None]]]]:
    """``(argv, [(file, kind)])`` of every command of ``parser`` that reads files
    (:func:`input_cases`); the kind (:data:`INPUT_KINDS`) None where the parser's name of
    the input is none of them."""
    from irscale.cli.outputs import file_role

    for prog, command in parsers(parser):
        if any(isinstance(a, argparse._SubParsersAction) for a in command._actions):
            continue
        files = iter(f"{name}{i}" for i in range(100))
        positional, options, kinds, reads = [], [], [], False
        for action in command._actions:
            role = file_role(action)
            is_input = role is not None and role.kind == "input"
            names = (str(action.metavar).split("|")[-1].split()
                     if action.metavar else [action.dest])
            if not action.option_strings or action.required:
                if not action.option_strings or is_input:
                    given = [next(files) for _ in range(_files_of(action))]
                    option = action.option_strings[-1:]
                    kinds += [(file, _kind(prog, [*option, names[min(k, len(names) - 1)]]))
                              for k, file in enumerate(given)] if is_input else []
                    reads |= is_input
                    if option:  # (a value NAME=FILE names its file after the '=')
                        named = is_input and role.named
                        options += [*option, *(f"A={file}" if named else file
                                               for file in given)]
                    else:
                        positional += given
                    continue
                option = action.option_strings[-1]
                value = REQUIRED_VALUES.get(f"{prog.split(maxsplit=1)[1]} {option}",
                                            REQUIRED_VALUES.get(option, "1"))
                options += [option, value if action.choices is None or value in
                            action.choices else next(iter(action.choices))]
        if reads:
            words = prog.split()[1:]
            extra = next((COMMAND_OPTIONS[" ".join(words[:k])]
                          for k in range(len(words), 0, -1)
                          if " ".join(words[:k]) in COMMAND_OPTIONS), [])
            if "@lengths" in extra:
                lengths = next(files)
                kinds.append((lengths, "lengths"))
                extra = [lengths if arg == "@lengths" else arg for arg in extra]
            yield [*words, *options, *extra, *positional], kinds


def input_cases(parser: argparse.ArgumentParser, name: str) -> list[list[str]]:
    """A command line of every command of ``parser`` that reads files, each of its inputs
    (positional arguments and required options declared inputs,
    :class:`irscale.core.params.InputFiles`) a file of its own, named ``{name}{i}``;
    three of a repeatable argument; the other required options a value they take."""
    return [argv for argv, _ in _input_files(parser, name)]


def option_input_cases(name: str) -> list[list[str]]:
    """Command lines whose options choose another analysis, with inputs of their own (named
    ``{name}{i}``), besides those of :func:`input_cases`."""
    return [argv for argv, _ in _option_inputs(name)]


def _option_inputs(name: str) -> list[tuple[list[str], list[tuple[str, str]]]]:
    """The cases of :func:`option_input_cases` with the kind of each file they name."""
    f = [f"{name}{i}" for i in range(4)]
    qrels, runs = [(f[0], "qrels")], [(f[1], "run"), (f[2], "run")]
    return [
        (["compare", "--test", "document-sampling", "-m", "map", *f[:3]],
         [*qrels, *runs]),
        (["compare", "--shard-scores", f[0]], [(f[0], "scores")]),
        (["compare", "--shard-scores", f[0], "--test", "bootstrap-anova"], [(f[0], "scores")]),
        (["labels", "aggregate", "--method", "gp", "--features", f[1], f[0]],
         [(f[0], "crowd labels"), (f[1], "features")]),
        (["meta", "correlate", "--scores", f[0], "--scores", f[1]],
         [(f[0], "scores"), (f[1], "scores")]),
        (["online", "ab", "measures", f[0], "--users", f[1], "--variants", f[2],
          "--answered", f[3]],
         [(f[0], "click log"), (f[1], "session users"), (f[2], "user variants"),
          (f[3], "sessions")]),
        (["online", "satisfaction", f[0], "--labels", f[1], "--apply", f[2]],
         [(f[0], "click log"), (f[1], "satisfaction labels"), (f[2], "click log")]),
        (["meta", "loo", "-m", "map", *f[:3], "--contributors", f[3]],
         [*qrels, *runs, (f[3], "contributors")]),
        (["online", "calibrate", "-m", "ERR", f[1], "--qrels", f[0]],
         [(f[1], "click log"), *qrels]),
        (["online", "interleave", f[1], f[2], "--clicks", "perfect", "--qrels", f[0]],
         [*runs, *qrels]),
        (["pool", "build", "--strategy", "mtf", f[1], f[2], "--qrels", f[0]],
         [*runs, *qrels]),
    ]


def later_input_cases(parser: argparse.ArgumentParser, name: str
                      ) -> list[tuple[list[str], dict[str, str]]]:
    """The command lines of :func:`input_cases` and :func:`option_input_cases` once for
    every input but the first: ``(argv, {file: text})``, the files before it valid
    (:data:`VALID`, of their kind), it and those after it :data:`MALFORMED`
    (``malformed table``). The files are named ``{name}{case}_{i}``."""
    found = [*_input_files(parser, "@"), *_option_inputs("@")]
    cases = []
    for number, (argv, kinds) in enumerate(found):
        for bad in range(1, len(kinds)):
            texts = {}
            for k, (file, kind) in enumerate(kinds):
                if k < bad and kind not in VALID:
                    raise KeyError(f"{' '.join(argv)}: the input {file} is of no kind of "
                                   "INPUT_KINDS; declare it")
                texts[file] = VALID[kind] if k < bad else MALFORMED["malformed table"]
            rename = {file: f"{name}{number}_{bad}_{file[1:]}" for file in texts}
            cases.append(([_renamed(arg, rename) for arg in argv],
                          {rename[file]: text for file, text in texts.items()}))
    return cases


def _renamed(arg: str, rename: dict[str, str]) -> str:
    """``arg`` with the file it names renamed (``NAME=FILE``: the file after the ``=``)."""
    name, sep, file = arg.rpartition("=")
    return f"{name}{sep}{rename[file]}" if file in rename else arg


def subcommand_helps(parser: argparse.ArgumentParser) -> Iterator[tuple[str, str | None]]:
    """``(name, help)`` of the subcommands ``parser`` lists."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                yield choice.dest, choice.help


def expanded_help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    """The help of ``action`` as ``--help`` prints it (``%(default)s`` expanded)."""
    return parser._get_formatter()._expand_help(action)
