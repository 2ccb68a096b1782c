"""The declared examples of the commands, and the example workspace they run in.

Every command (each subcommand, and each action of ``text``, ``scale``, ``meta``, ``pool``,
``labels``, ``online``, ``online ab``) declares one example invocation where it is declared:
``example="ARGUMENTS"`` in its :func:`irscale.cli.options.add_command` call (directly, or
through a group's :func:`~irscale.cli.meta_common.add_analysis` or
:func:`~irscale.cli.online.add_action`), the arguments after the command's words in a
shell's words. :func:`examples` reads them by walking the real parser
(:func:`irscale.cli.main.build_parser`), so the sweeps of this folder (outputs onto inputs,
FIFOs, work, deep inputs, numeric options) take a command's example the day it is declared,
with no line added to them; ``tests/faults/test_command_examples.py`` fails for a command
that declares none, naming it.

The examples name the files of one workspace, made by one fixture, :func:`sweep_ws`: the
collection of :func:`~tests.faults.conftest.populate` (:data:`POPULATED`: ``qrels.txt``,
``a.run``, ``b.run``, ``c.run``, ``labels.txt``, ``ap.csv``, ``p10.csv``, ``gold.csv``,
``contrib.txt``) and :data:`FILES`, one small valid file of every other kind of input (the
faults modules' own valid files: ``s.run`` session runs, ``refs.tsv``/``cands.tsv`` texts,
``crowd.txt`` crowd labels, ``train.log`` click logs, ``t.csv`` per-user tables, ...). A
new command whose input is of a new kind adds its file here.
"""

from __future__ import annotations

import argparse
import functools
import shlex
from collections.abc import Mapping

import pytest

from ..cli_parsers import irscale_parser, parsers
from .conftest import qrels_lines, run_lines, text
from .test_collections_faults import SAMPLED
from .test_compare_faults import SHARDS
from .test_diversity_faults import FILES as DIVERSITY
from .test_diversity_faults import PROBS as INTENT_PROBS
from .test_labels_faults import CROWD, GP_FILES, PROBS, Q2
from .test_labels_pairwise_faults import FILES as PAIRWISE_FILES
from .test_meta_gtheory_faults import FILES as GTHEORY_FILES
from .test_meta_judge_noise_faults import FILES as NOISE_FILES
from .test_online_calibrate_faults import FILES as CALIBRATE_FILES
from .test_online_clicks_faults import FILES as CLICK_FILES
from .test_online_counterfactual_faults import FILES as OPE_FILES
from .test_online_faults import LOGS, MODEL, TABLE
from .test_online_satisfaction_faults import FILES as SATISFACTION_FILES
from .test_online_score_faults import FILES as SCORE_FILES
from .test_online_score_faults import LOG as SCORE_LOG
from .test_report_answers_faults import SAMPLES as ANSWER_FILES
from .test_text_assignments_faults import FILES as ASSIGNMENT_FILES
from .test_text_assignments_faults import RAG_HUMAN
from .test_text_citations_faults import CITE_HUMAN
from .test_text_citations_faults import FILES as CITATION_FILES
from .test_text_faults import AFILES, PFILES, RFILES
from .test_text_faults import FILES as SESSION_FILES
from .test_zscores_faults import Z


def _shard_means() -> str:
    """The score matrix of :data:`SHARDS` (each topic and run: the mean of its shards)."""
    import io

    import pandas as pd

    shards = pd.read_csv(io.StringIO(SHARDS)).dropna()
    return shards.groupby(["topic", "run"]).value.mean().unstack().round(4).to_csv()


#: The files of :func:`conftest.populate`.
POPULATED = {"qrels.txt", "a.run", "b.run", "c.run", "labels.txt", "ap.csv", "p10.csv",
             "gold.csv", "contrib.txt"}

#: The example files besides the collection of :func:`conftest.populate`.
FILES: dict[str, str | bytes] = {
    **SESSION_FILES, **{k: v for k, v in AFILES.items() if k != "len.txt"},
    "crowd.txt": text(CROWD), **GP_FILES, "h.txt": Q2["h.txt"], **PAIRWISE_FILES, **SAMPLED,
    **PROBS,
    "pbm-model.json": MODEL["pbm.json"], **TABLE, "ab.log": LOGS["log.txt"],
    "su.txt": LOGS["su.txt"], "sut.txt": "s1 u1 0\ns2 u1 4000\ns3 u2 10\n",
    "train.log": CLICK_FILES["train.log"], "test.log": CLICK_FILES["test.log"],
    "pbm.json": CLICK_FILES["pbm.json"], "score.log": SCORE_LOG, **CALIBRATE_FILES,
    "prob.log": SCORE_FILES["prob.txt"],
    "cf.log": OPE_FILES["log.txt"], "uniform.txt": OPE_FILES["uniform.txt"],
    "ilog.txt": OPE_FILES["ilog.txt"], **GTHEORY_FILES,
    "sat.log": SATISFACTION_FILES["log.txt"], "sat-labels.txt": SATISFACTION_FILES["labels.txt"],
    **NOISE_FILES,
    "prefs.txt": text(["1 sysA sysB left", "2 sysC sysA right", "3 sysB sysD left"]),
    **DIVERSITY, "p.txt": INTENT_PROBS, "t.txt": b"1 2 nav\n", "sh.csv": SHARDS,
    "shm.csv": _shard_means(),
    "z.txt": Z, "v.tsv": LOGS["v.tsv"], "policy.txt": OPE_FILES["policy.txt"],
    "reward.txt": OPE_FILES["reward.txt"], "c.log": SESSION_FILES["c.log"],
    "s.run": SESSION_FILES["s.run"], "len.txt": SESSION_FILES["len.txt"], **RFILES,
    **PFILES, "map.txt": SESSION_FILES["map.txt"], "ans.txt": "s2\n",
    "users.txt": "u1\nu2\nu3\n",
    "train-a.run": text(run_lines("a")), "train-b.run": text(run_lines("b")),
    "sat2.log": SATISFACTION_FILES["log.txt"],
    "rprefs.txt": text(["1 a b left", "2 c a right"]),  # runs are named by their file
    "alpha.txt": text([f"{t} 0.5" for t in range(1, 7)]),
    "nlen.txt": text(["1 sysA 60", "1 sysB 40", "2 sysA 10", "2 sysB 8"]),
    "human.qrels": text([line for line in qrels_lines() if line.split()[0] in "123"]),
    "suite.tsv": text(["collection\tqrels\trun", "A\tqrels.txt\ta.run", "A\tqrels.txt\tb.run",
                       "B\thuman.qrels\ta.run", "B\thuman.qrels\tb.run"]),
    "seeds/s1.run": text(run_lines("a")), "seeds/s2.run": text(run_lines("b")),
    "rag.jsonl": ASSIGNMENT_FILES["sysA.jsonl"],
    "rag-human.jsonl": RAG_HUMAN, "cite.jsonl": CITATION_FILES["sysA.jsonl"],
    "cite-human.jsonl": CITE_HUMAN, **ANSWER_FILES,
}


@pytest.fixture
def sweep_ws(ws):
    """The workspace of the examples: :data:`FILES` on the collection of ``ws``."""
    for name, data in FILES.items():
        ws.write(name, data)
    return ws


def commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Every command of ``parser`` that runs (not a group of actions), by its name without
    ``irscale`` (``online ab size``)."""
    return {prog.removeprefix("irscale").strip(): command
            for prog, command in parsers(parser)
            if not any(isinstance(a, argparse._SubParsersAction) for a in command._actions)}


def examples(parser: argparse.ArgumentParser) -> dict[str, list[str]]:
    """The example command line of every command of ``parser`` that declares one: the
    command's words, then its declared arguments (:attr:`irscale.cli.parser.Parser.
    example`)."""
    return {name: [*name.split(), *shlex.split(command.example)]
            for name, command in commands(parser).items()
            if getattr(command, "example", None) is not None}


def undeclared(parser: argparse.ArgumentParser) -> list[str]:
    """The commands of ``parser`` that declare no example."""
    return sorted(commands(parser).keys() - examples(parser).keys())


def what_to_declare(command: str) -> str:
    """What a command without an example is told to declare."""
    return (f"irscale {command} declares no example: give its declaration (add_command, "
            f"a group's table) example=\"ARGUMENTS\", a small valid call on the example "
            f"files of tests/faults/examples.py (docs/architecture.md, 'a subcommand')")


#: The declared example of every command (the real parser's).
EXAMPLES = examples(irscale_parser())
#: The parser of every command, by name.
COMMANDS = commands(irscale_parser())


def example(command: str) -> list[str]:
    """The declared example of ``command`` (a copy)."""
    if command not in EXAMPLES:
        raise LookupError(what_to_declare(command))
    return list(EXAMPLES[command])


@functools.cache
def _action(command: str, option: str) -> argparse.Action:
    return COMMANDS[command]._option_string_actions[option]


def varied(command: str, changes: Mapping[str, str | None] | None = None,
           *extra: str) -> list[str]:
    """The example of ``command`` with each option of ``changes`` (however the example
    spells it) given its value, in place (added at the end where the example lacks it), or
    removed with its value where the value is None (a flag: the flag alone, as its
    declaration says), then the words ``extra``: a command line that differs from the
    declared example only in those options."""
    argv = example(command)
    for option, value in (changes or {}).items():
        action = _action(command, option)
        if action.nargs not in (None, 0):
            raise ValueError(f"{command} {option}: varied sets options of one value or flags")
        at = next((i for i, word in enumerate(argv) if word in action.option_strings), None)
        width = 1 if action.nargs == 0 else 2
        if value is None:
            if at is not None:
                del argv[at:at + width]
        elif at is None:
            argv += [option, value]
        else:
            argv[at + 1] = value
    return [*argv, *extra]
