"""``irscale convert``: qrels or a run read in any of irscale's input formats and written as
TREC text or as ranx's JSON (:mod:`irscale.io.ranx_json`; usage: ``docs/cli.md``,
``docs/inputs.md``)."""

from __future__ import annotations

import argparse

from ..core.params import InputFiles, Names, Param, Text
from .main import SUBCOMMANDS
from .options import add_command, add_output
from .outputs import Done
from .rules import Rule

#: ``INPUT``: the qrels or run file converted.
INPUT = Param("input", InputFiles(), None, "the qrels or run file (TREC text, plain or "
              "gzip; ranx's JSON; a run in Parquet)", ("input",))
#: ``--kind``: what the file holds.
KIND = Param("kind", Names("kind of input", ("qrels", "run")), "run", "what INPUT holds",
             ("--kind",))
#: ``--to``: the format written.
TO = Param("to", Names("output format", ("ranx-json", "trec"), {"json": "ranx-json"}),
           "ranx-json", "the format written: ranx's JSON ({query: {doc: value}}, what "
           "ranx's Qrels.save / Run.save write and from_file reads) or TREC text",
           ("--to",))
#: ``--name``: the run's name.
NAME = Param("name", Text(), None, "the run's name in TREC text (--kind run)",
             ("--name",), "NAME", unset="its run id; a ranx JSON file: its file name")


def add_parser(subparsers) -> None:
    """Register ``irscale convert``."""
    add_command(
        subparsers, "convert", run, INPUT, KIND, TO, NAME,
        lambda p: add_output(p, what="converted file"),
        rules=(Rule(("name",), lambda args: args.kind == "run", "--name names a run: it "
                    "applies to --kind run, not {kind}"),),
        example="qrels.txt --kind qrels --to ranx-json",
        help=SUBCOMMANDS["convert"],
        description="Read qrels or a run (TREC text, ranx's JSON, a Parquet run) and write "
        "them as ranx's JSON or as TREC text: what ranx reads back with Qrels.from_file / "
        "Run.from_file, value for value. See docs/inputs.md.")


def run(args: argparse.Namespace) -> Done:
    """``irscale convert``: the file's qrels or run in the format ``--to``."""
    from ..io.ranx_json import ranx_json_bytes
    from ..io.sources import read_qrels, read_run
    from ..io.trec_write import qrels_text, run_text

    if args.kind == "qrels":
        qrels = read_qrels(args.input)
        return ranx_json_bytes(qrels) if args.to == "ranx-json" else qrels_text(qrels)
    found = read_run(args.input, name=args.name)
    return ranx_json_bytes(found) if args.to == "ranx-json" else run_text(found)
