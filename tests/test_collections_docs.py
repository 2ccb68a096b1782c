"""docs/collections.md: the Python example prints what its comments say, and the CLEF 2016
relevant-found table and the counts around it are what the code gives (read from the page,
so page and code cannot drift apart)."""

from __future__ import annotations

import contextlib
import io
import warnings

import pandas as pd

from irscale import read_qrels
from irscale.collections import simulate_pooling

from .docs_numbers import blocks, paragraph, table
from .docs_numbers import read as read_doc

TEXT = read_doc("collections.md")


def test_python_example_prints_its_comments():
    block = blocks(TEXT)[0]
    expected = [line.split("#", 1)[1].strip() for line in block.splitlines()
                if line.startswith("print(")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "docs/collections.md", "exec"), {})
    assert out.getvalue().splitlines() == expected


def test_later_examples_print_their_comment_lines():
    """The examples after the first show their output on '# ...' lines after each print."""
    for block in blocks(TEXT)[1:]:
        shown = [line[2:] for line in block.splitlines() if line.startswith("# ")]
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, "docs/collections.md", "exec"), {})
        assert out.getvalue().splitlines() == shown


def test_clef_table(clef):
    rows = table(TEXT, "Relevant documents found (all 50 topics)")
    strategies = [c for c in rows[0] if c != "budget"]
    budgets = [int(r["budget"]) for r in rows]
    runs = sorted(str(p) for p in (clef / "runs").glob("*.txt"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # runs sharing a run id are named after files
        sim = simulate_pooling(clef / "task2.qrels", runs, strategies, budgets, loo=False,
                               rng=2016)
    found = sim.relevant_found()
    stated = pd.DataFrame([{s: int(r[s]) for s in strategies} for r in rows], index=budgets)
    pd.testing.assert_frame_equal(found.astype(int), stated, check_names=False,
                                  check_index_type=False)
    text = paragraph(TEXT, "The 16 runs of")
    qrels = read_qrels(clef / "task2.qrels")
    assert f"{len(qrels):,} judgments" in text
    assert f"{int((qrels.rel >= 1).sum()):,} relevant" in text
    assert f"{int(sim.table['relevant_pool'].iloc[0]):,} of them retrieved" in text
