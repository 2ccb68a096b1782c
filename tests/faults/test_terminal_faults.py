"""Hostile identifiers never reach the terminal raw: every line irscale writes on standard
error (errors, warnings, notices, progress) goes through one function that escapes the
characters a terminal acts on (:func:`irscale.errors.message_line`).

Topic ids, docnos, run ids, worker ids and file names holding ESC sequences (a colour, a
window title ended by BEL, the C1 control CSI), carriage returns and backspaces are fed
through several commands; every case's standard error is checked for raw control
characters by the contract of the fault suite (:func:`~tests.faults.conftest.
assert_plain_values`), on errors and warnings alike, and shows them escaped.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import irscale
from irscale.errors import message_line, printable

from .conftest import err, ok, qrels_lines, run_case, run_lines, text, warns_of

#: What a hostile identifier may hold: a colour, a window title (ended by BEL), the C1 CSI,
#: a carriage return and a backspace.
ESC = "\x1b[31m"
TITLE = "\x1b]0;owned\x07"
CSI = "\x9b2J"
TOPIC = f"9{ESC}x"  # a topic of the runs only: the warning of topics without judgments
DOC = f"d{TITLE}1"


def _hostile_run(which: str) -> bytes:
    """Run ``which`` with a topic no qrels judge, a docno and a run id, all hostile."""
    return text([*run_lines(which), f"{TOPIC} Q0 {DOC} 1 0.5 run{which}{CSI}",
                 f"{TOPIC} Q0 d2\b 2 0.4 run{which}{CSI}"])


FILES = {"h.run": _hostile_run("a"), "k.run": _hostile_run("b"),
         "hq.txt": text([*qrels_lines(), f"1 0 {DOC} 1", f"1 0 {DOC} 0"]),
         "crowd.txt": text([f"1 d1 w{ESC}1 1", "1 d1 w2 1", f"1 d2 w{ESC}1 x{CSI}"])}
#: The escaped forms a warning or an error shows.
SHOWN = printable(TOPIC)


def _warns_escaped(result, ws, run) -> None:
    """The warning of the hostile topic shows it escaped."""
    warns_of(SHOWN)(result, ws, run)


CASES = [
    ok("eval-topic-without-judgments", ["eval", "qrels.txt", "h.run"], _warns_escaped,
       files=FILES),
    ok("eval-many-topic-without-judgments", ["eval-many", "qrels.txt", "h.run", "k.run",
                                             "--no-progress"], _warns_escaped, files=FILES),
    ok("compare-topic-without-judgments", ["compare", "qrels.txt", "h.run", "k.run", "-m",
                                           "map"], _warns_escaped, files=FILES),
    ok("report-topic-without-judgments", ["report", "qrels.txt", "h.run", "k.run", "-m",
                                          "map", "--no-robustness", "-o", "r.html"],
       _warns_escaped, files=FILES, allowed_new=["r.html"]),
    ok("meta-loo-topic-without-judgments", ["meta", "loo", "qrels.txt", "h.run", "k.run",
                                            "c.run", "-m", "map", "--depth", "3"],
       _warns_escaped, files=FILES),
    ok("fuse-hostile-ids", ["fuse", "h.run", "k.run", "--method", "rrf"], files=FILES),
    ok("pool-hostile-ids", ["pool", "build", "h.run", "k.run", "--strategy", "depth",
                            "--depth", "2"], files=FILES),
    err("eval-duplicate-hostile-docno", ["eval", "hq.txt", "a.run"], "line",
        printable(DOC), files=FILES),
    err("eval-run-line-hostile-score", ["eval", "qrels.txt", "bad.run"], "line 1",
        files={"bad.run": f"1 Q0 d1 1 0.5{ESC} r\n"}),
    err("eval-hostile-file-name", ["eval", "qrels.txt", f"no{TITLE}such.run"],
        "cannot read", printable(f"no{TITLE}such.run")),
    err("labels-hostile-worker-and-label", ["labels", "aggregate", "crowd.txt", "--method",
                                            "mv"], "line 3", files=FILES),
]


@pytest.mark.parametrize("case", CASES)
def test_hostile_identifiers(case, ws, run_cli):
    run_case(case, ws, run_cli)


def _writes_to_stderr(node: ast.AST) -> ast.expr | None:
    """What a call writes on standard error (``sys.stderr.write(x)``, ``print(x,
    file=sys.stderr)``), or None."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    func = ast.unparse(node.func)
    if func == "sys.stderr.write" or (func == "print" and any(
            k.arg == "file" and ast.unparse(k.value) == "sys.stderr" for k in node.keywords)):
        return node.args[0]
    return None


def test_every_write_on_stderr_goes_through_the_one_function():
    """The source of irscale writes on standard error only what :func:`message_line` (a
    line) or :func:`printable` (a progress bar redrawn in place) made, or a line break."""
    source = Path(irscale.__file__).parent
    raw = []
    for path in sorted(source.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            written = _writes_to_stderr(node)
            if written is None:
                continue
            text = ast.unparse(written)
            if not ("message_line(" in text or "printable(" in text or text == "'\\n'"):
                raw.append(f"{path.relative_to(source)}:{node.lineno}: {text}")
    assert not raw, "\n".join(raw)


def test_every_line_is_one_escaped_line():
    """The one function: line breaks made spaces, every other control character escaped,
    printable text as it is."""
    assert message_line(f"a\nb{ESC}\r{CSI}\x7f") == "irscale: a b\\x1b[31m\\r\\x9b2J\\x7f"
    assert message_line("φ ≤ 1 … ✓") == "irscale: φ ≤ 1 … ✓"
