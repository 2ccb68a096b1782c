"""Runs read by the engine in blocks of whole lines (``rust/src/read/blocks.rs``): lines cut
at a block's end, CRLF and lone CR line ends, no final newline, faults in several blocks
(the first in file order is named), gzip data and files read by path. The oracle is the
Python readers' path (:func:`irscale.read_run` and ``build_judged_rankings``); the engine
reads blocks of 4 MiB, so the texts here span several."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import subprocess
import sys
import warnings

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irscale.core.options import RankingOptions
from irscale.errors import InputError
from irscale.io.native_trec import judge_files

from .property_examples import examples
from .test_native_judge import assert_same

#: The engine's block (``BLOCK`` in ``rust/src/read/run.rs``).
BLOCK = 1 << 22
QRELS = b"".join(f"t{t} 0 doc{d:07d} {d % 3 - (d % 7 == 0)}\n".encode()
                 for t in range(40) for d in range(0, 3000, 9))


def filler(lines: int, start: int = 0, end: bytes = b"\n") -> list[bytes]:
    """``lines`` well-formed run lines (40 topics in turn, ties among the scores)."""
    return [f"t{i % 40} Q0 doc{i // 40:07d} {i} {(i * 7919) % 251 / 8} r".encode() + end
            for i in range(start, start + lines)]


def test_lines_across_blocks_crlf_and_no_final_newline():
    endings = (b"\r\n", b"\n", b"\n \t\n", b"\r\n\r\n", b"\r")
    body = b"".join(line.rstrip(b"\n") + endings[i % len(endings)]
                    for i, line in enumerate(filler(260_000)))
    assert len(body) > 2 * BLOCK
    run = body + b"t3 Q0 last 0 0.5 r"  # no final newline
    for ties in ("trec_eval", "file-order", "rank-column"):
        assert assert_same(QRELS, [run], RankingOptions(ties=ties))[0] == "ok"
    assert assert_same(QRELS, [gzip.compress(run)], RankingOptions())[0] == "ok"


def test_the_first_fault_in_file_order_is_named():
    lines = filler(300_000)
    assert len(b"".join(lines[:140_000])) > BLOCK
    lines[140_000] = b"t1 Q0 x 1 notascore r\n"  # in the second block
    lines[290_000] = b"t1 Q0 y 1\n"  # in a later block
    outcome = assert_same(QRELS, [b"".join(lines)], RankingOptions())
    assert outcome[0] == "error" and "line 140001" in outcome[2], outcome
    lines[2] = b"t1 Q0 z 1 nan r\n"  # the first block: a NaN, found once every line fits
    lines[140_000] = filler(1, 140_000)[0]
    lines[290_000] = filler(1, 290_000)[0]
    outcome = assert_same(QRELS, [b"".join(lines)], RankingOptions())
    assert outcome[0] == "error" and "line 3" in outcome[2], outcome


def test_faults_and_warnings_named_by_line_in_later_blocks(tmp_path):
    lines = filler(300_000)
    lines[250_000] = b"t0 Q0 big 1 1e39 r\n"  # a score beyond a C float
    lines[260_000] = lines[259_960]  # a document retrieved twice for a topic
    run = b"".join(lines)
    outcome = assert_same(QRELS, [run], RankingOptions())
    assert outcome[0] == "error" and "line 260001" in outcome[2], outcome
    assert any("line 250001" in warning for warning in outcome[-1]), outcome
    # the same, read by path (plain and gzip): the file is read again to name the lines
    (tmp_path / "q").write_bytes(QRELS)
    for name, data in (("r", run), ("r.gz", gzip.compress(run))):
        (tmp_path / name).write_bytes(data)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            try:
                judge_files(tmp_path / "q", [tmp_path / name])
                raise AssertionError("a duplicate is refused")
            except InputError as error:
                assert "line 260001" in str(error)
        assert any("line 250001" in str(w.message) for w in seen)


#: Lines of the soups: well-formed, or not (fields, numbers, UTF-8, NUL, line ends).
SOUP_LINES = st.lists(st.one_of(
    st.builds(lambda t, d, s: f"t{t} Q0 d{d} 1 {s} r\n".encode(),
              st.integers(0, 3), st.integers(0, 9), st.sampled_from(["1", "0.5", "2e3", "-0"])),
    st.sampled_from([b"\n", b"\r\n", b"\r", b" \t\n", b"t1 Q0 d1 1\n", b"t1 Q0 d1 x 1 r\n",
                     b"t1 Q0 d1 1 inf r\n", b"t1 Q0 d\xff 1 1 r\n", b"t1 Q0 d\x00 1 1 r\n",
                     b"\xef\xbb\xbft1 Q0 bom 1 1 r\n", b"t1\xc2\xa0Q0 d 1 1 r\n",
                     b"t1 Q0 d2 1 1 other\n", b"t1 Q0 tiny 1 1e-50 r\n"]),
    st.binary(max_size=12)), max_size=6)

#: One process's outcome of judging a run (argv: qrels, run): its arrays' digest or its
#: error, and its warnings, as JSON.
OUTCOME = """
import hashlib, json, sys, warnings
from irscale.errors import InputError
from irscale.io.native_trec import judge_files
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    try:
        jr = judge_files(sys.argv[1], [sys.argv[2]])
        found = hashlib.sha256(b"".join(a.tobytes() for a in (jr.rel, jr.offsets,
                                                              jr.rel_levels))).hexdigest()
    except InputError as error:
        found = type(error).__name__ + ": " + str(error)
print(json.dumps([found, sorted(str(w.message) for w in seen)]))
"""


@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(head=SOUP_LINES, middle=SOUP_LINES, tail=SOUP_LINES)
def test_line_soup_in_blocks_whatever_the_threads(tmp_path_factory, head, middle, tail):
    """Soups of lines at the start, across the first block's end and at the end of a run of
    several blocks: the Python readers' outcome, and the same on 1 thread and on 2."""
    fill = b"".join(filler(130_000))
    run = b"".join(head) + fill[:BLOCK - 40] + b"".join(middle) + fill[BLOCK - 40:]
    run += b"".join(tail)
    expected = assert_same(QRELS, [run], RankingOptions())
    folder = tmp_path_factory.mktemp("soup")
    (folder / "q").write_bytes(QRELS)
    (folder / "r").write_bytes(run)
    found = []
    for threads in ("1", "2"):
        env = {**os.environ, "RAYON_NUM_THREADS": threads,
               "PYTHONPATH": os.pathsep.join(sys.path)}
        out = subprocess.run([sys.executable, "-c", OUTCOME, str(folder / "q"),
                              str(folder / "r")], check=True, env=env, capture_output=True)
        found.append(json.loads(out.stdout))
    assert found[0] == found[1]
    if expected[0] == "error":
        assert found[0][0].startswith(expected[1] + ": "), (found, expected)
    else:
        jr = expected[1]
        digest = hashlib.sha256(b"".join(a.tobytes() for a in (jr.rel, jr.offsets,
                                                               jr.rel_levels))).hexdigest()
        assert found[0][0] == digest
