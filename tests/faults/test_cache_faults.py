"""``--cache DIR`` of ``irscale eval`` and ``irscale eval-many``: the folder's rules (a file,
an input, a folder holding inputs, a folder that cannot be created; a
read-only folder serves its hits, an entry that cannot be written warns once), inputs with
no content to key (standard input), diversity measures and Dask clusters refused; and the
output with a cache, written and then read back, equal to the output without one.
"""

from __future__ import annotations

import os

import pytest

from .conftest import Link, all_checks, assert_ok, err, ok, opt, run_case, text

EVAL = ["eval", "qrels.txt", "a.run", "b.run", "-m", "map", "-m", "P.5", "-q"]
MANY = ["eval-many", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map", "-m", "P.5",
        "--no-progress"]
RUNS_ONLY = {"runs/a.run": Link("../a.run"), "runs/b.run": Link("../b.run")}


def hit_equals(*argv: str):
    """Run ``argv`` (with ``--cache c``) again: it reads the cache and prints the same."""

    def check(result, ws, run) -> None:
        names = os.listdir(ws.root / "c")
        assert names and all(name.endswith(".entry") for name in names), names
        again = run([*argv, "--cache", "c"])
        assert_ok(again)
        assert sorted(os.listdir(ws.root / "c")) == sorted(names)  # nothing new
        assert again.out == result.out

    return check


def same_as_uncached(*argv: str):
    def check(result, ws, run) -> None:
        reference = run(list(argv))
        assert_ok(reference)
        assert result.out == reference.out

    return check


def _flip(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 0x01]) + data[middle + 1:]


def _header(data: bytes) -> tuple[int, bytes]:
    """Where an entry's header starts (after its magic, checksum and length) and its bytes
    (packed: :func:`irscale.io.regular_files.pack`)."""
    from irscale.cache.frames import MAGIC

    start = len(MAGIC) + 32 + 8
    length = int.from_bytes(data[start - 8:start], "little")
    return start, data[start:start + length]


def _other_kind(data: bytes) -> bytes:
    """The entry framed again, intact, as an entry of the evaluations: its checksum holds,
    its key and version are the entry's own, only its kind differs."""
    from irscale.cache.frames import frame
    from irscale.io.regular_files import unpack

    start, packed = _header(data)
    header = unpack(packed, "header")
    rest = {k: v for k, v in header.items() if k not in ("key", "version", "kind", "warnings")}
    return frame(header["key"], header["version"], "evaluation", header["warnings"], rest,
                 [data[start + len(packed):]])


def _header_with(value: bytes):
    """A damage: the entry framed again, its checksum holding, with an item ``"x"`` first
    in its header whose packed bytes are ``value`` (anyone who can write into the folder
    can frame one)."""

    def damage(data: bytes) -> bytes:
        from irscale.cache.frames import MAGIC, digest

        start, packed = _header(data)
        count = int.from_bytes(packed[1:9], "little")
        header = b"D" + (count + 1).to_bytes(8, "little") + b"S" + (1).to_bytes(8, "little") \
            + b"x" + value + packed[9:]
        body = len(header).to_bytes(8, "little") + header + data[start + len(packed):]
        return MAGIC + digest(body).digest() + body

    return damage


def damaged_is_not_served(damage, *argv: str, reason: str = "is not used"):
    """Damage every entry (``damage``: its bytes to the bytes written back), run ``argv``
    (with ``--cache c``) again: each entry is reported not used (the warning saying
    ``reason``), the output is the one written first, and the entry is written again (a
    third run reads it silently)."""

    def check(result, ws, run) -> None:
        names = sorted(os.listdir(ws.root / "c"))
        for name in names:
            (ws.root / "c" / name).write_bytes(damage((ws.root / "c" / name).read_bytes()))
        again = run([*argv, "--cache", "c"])
        assert_ok(again)
        warned = _warnings(again)
        assert len(warned) == len(names) and all(
            "is not used" in w and reason in w for w in warned), again.describe()
        assert again.out == result.out, again.describe()
        third = run([*argv, "--cache", "c"])
        assert_ok(third)
        assert third.out == result.out and not _warnings(third), third.describe()

    return check


def _socket(path) -> None:
    import socket

    with socket.socket(socket.AF_UNIX) as server:
        server.bind(os.path.relpath(path))  # (a short name: the case's folder is current)


def _replaced(ws, make) -> list[str]:
    """Every entry of the cache ``c`` replaced by what ``make(path)`` makes there."""
    names = sorted(os.listdir(ws.root / "c"))
    assert names, "no entry written"
    for name in names:
        (ws.root / "c" / name).unlink()
        make(ws.root / "c" / name)
    return names


def _missed(again, result, names: list[str], kind: str) -> None:
    """``again`` gave ``result``'s output, one warning for each entry, naming its kind."""
    assert again.status == 0 and again.out == result.out, again.describe()
    warned = _warnings(again)
    assert len(warned) == len(names), again.describe()
    assert all("is not used" in w and f"not a regular file: {kind}" in w for w in warned), \
        again.describe()


def not_a_file_is_a_miss(make, kind: str, *argv: str):
    """Put what ``make(path)`` makes (a folder, a socket) in place of every entry and run
    ``argv`` (with ``--cache c``) again: each is a miss with one warning, the output is
    the one written first."""

    def check(result, ws, run) -> None:
        names = _replaced(ws, make)
        again = run([*argv, "--cache", "c"])
        assert_ok(again)
        _missed(again, result, names, kind)

    return check


def fifo_is_not_waited_for(*argv: str):
    """Every entry a FIFO, ``argv`` (with ``--cache c``) run in a process of its own (a
    reader that waited for a writer would wait for ever: the process is stopped after two
    minutes and the case fails): each is a miss with one warning."""

    def check(result, ws, run) -> None:
        import subprocess

        from .conftest import BIN, Result, subprocess_env

        names = _replaced(ws, os.mkfifo)
        process = subprocess.run([*BIN, *argv, "--cache", "c"], cwd=ws.root,
                                 env=subprocess_env(), stdin=subprocess.DEVNULL,
                                 capture_output=True, timeout=120)
        again = Result(list(argv), process.returncode, process.stdout.decode(),
                       process.stderr.decode())
        assert_ok(again)
        _missed(again, result, names, "a FIFO")

    return check


def _hit_modules(ws, argv: list[str]) -> tuple[object, str, set[str]]:
    """The exit status, output and modules loaded of ``irscale ARGV`` in a process of its
    own."""
    import json
    import subprocess
    import sys

    from .conftest import subprocess_env

    script = ("import io, json, sys\nfrom irscale.cli.main import main\n"
              "out = sys.stdout\nsys.stdout = io.TextIOWrapper(io.BytesIO(), 'utf-8')\n"
              "status = main(json.loads(sys.argv[1]))\nsys.stdout.flush()\n"
              "text = sys.stdout.buffer.getvalue().decode()\n"
              "out.write(json.dumps([status, text, sorted(sys.modules)]))\n")
    done = subprocess.run([sys.executable, "-c", script, json.dumps(argv)], cwd=ws.root,
                          env=subprocess_env(), capture_output=True, text=True, timeout=120,
                          check=True)
    status, text, modules = json.loads(done.stdout)
    return status, text, set(modules)


#: What a hit of ``irscale eval`` must not load: the parser of its options, the measure
#: catalogue, the evaluation contexts, the judging and the evaluation's key.
NOT_FOR_A_HIT = ("irscale.cli.parser", "irscale.cli.eval", "irscale.measures.names",
                 "irscale.evaluation.contexts", "irscale.evaluation.setup",
                 "irscale.io.native_files", "irscale.cache.keys", "irscale.cache.evaluations")


def hit_is_a_reply(*argv: str):
    """Run ``argv`` (with ``--cache c``) again in a process of its own: the same output,
    read from the cache's reply to the command line, with none of :data:`NOT_FOR_A_HIT`
    loaded."""

    def check(result, ws, run) -> None:
        status, text, modules = _hit_modules(ws, [*argv, "--cache", "c"])
        assert status == 0 and text == result.out
        assert sorted(modules & set(NOT_FOR_A_HIT)) == []

    return check


def hit_says_the_same(*argv: str):
    """Run ``argv`` (with ``--cache c``) again: the same output and standard error (the
    evaluation's warnings, shown again by the reply), and the reply was read (no
    evaluation loaded: :func:`hit_is_a_reply`)."""

    def check(result, ws, run) -> None:
        assert _warnings(result), "the case emits no warning"
        again = run([*argv, "--cache", "c"])
        assert_ok(again)
        assert (again.out, again.err) == (result.out, result.err), again.describe()
        hit_is_a_reply(*argv)(result, ws, run)

    return check


def _unjudged_topic(which: str) -> bytes:
    """Run ``which`` of the collection with one more line, of a topic the qrels do not
    judge (a warning names it)."""
    from .conftest import run_lines

    lines = run_lines(which)
    return text([*lines, f"999 Q0 dX 1 1.0 {lines[0].split()[5]}"])


def changed_input_is_a_miss(name: str, change, *argv: str):
    """After the reply is stored, change the input ``name`` (``change``: its bytes to the
    bytes written back): ``argv`` (with ``--cache c``) prints what it prints without a
    cache for the new bytes, and again from the reply stored then."""

    def check(result, ws, run) -> None:
        ws.write(name, change(ws.read(name)))
        reference = run(list(argv))
        assert_ok(reference)
        assert reference.out != result.out, "the change changes no value"
        for _ in range(2):
            again = run([*argv, "--cache", "c"])
            assert_ok(again)
            assert again.out == reference.out, again.describe()

    return check


def _same_size_change(data: bytes) -> bytes:
    """The first run line's document swapped with the last one's: the same bytes, in
    another order (the same size, the values changed)."""
    lines = data.split(b"\n")
    body = [index for index, line in enumerate(lines) if line.strip()]
    first, last = body[0], body[-1]
    a, b = lines[first].split(), lines[last].split()
    if a[0] == b[0]:
        a[2], b[2] = b[2], a[2]
    else:
        a[4], b[4] = b[4], a[4]
    lines[first], lines[last] = b" ".join(a), b" ".join(b)
    return b"\n".join(lines)


def new_run_in_folder_is_evaluated(*argv: str):
    """``argv`` names a folder of runs: a run file added to it is evaluated by the next
    call with the cache (a folder's files may change: no reply answers it)."""

    def check(result, ws, run) -> None:
        os.symlink("../c.run", ws.root / "runs" / "c.run")
        reference = run(list(argv))
        assert_ok(reference)
        again = run([*argv, "--cache", "c"])
        assert_ok(again)
        assert again.out == reference.out != result.out, again.describe()

    return check


def output_onto_an_input_is_refused(*argv: str):
    """``argv`` (with ``--cache c``) again, its standard output appended to its run file
    ``a.run``: refused as without a cache, the file unchanged."""

    def check(result, ws, run) -> None:
        import subprocess

        from .conftest import BIN, subprocess_env

        before = ws.read("a.run")
        with open(ws.root / "a.run", "ab") as stream:
            done = subprocess.run([*BIN, *argv, "--cache", "c"], cwd=ws.root,
                                  env=subprocess_env(), stdin=subprocess.DEVNULL,
                                  stdout=stream, stderr=subprocess.PIPE, timeout=120)
        assert done.returncode == 2 and b"a file this call has read" in done.stderr
        assert ws.read("a.run") == before

    return check


CASES = [
    # ---- a hit of irscale eval: the reply to its command line, read and printed with
    # nothing of the evaluation loaded; any change of an input a miss
    ok("eval-cache-hit-loads-no-evaluation", [*EVAL, "--cache", "c"], hit_is_a_reply(*EVAL),
       allowed_new=["c/"]),
    ok("eval-cache-hit-shows-the-warnings", ["eval", "qrels.txt", "x.run", "-m", "map",
                                             "--cache", "c"],
       hit_says_the_same("eval", "qrels.txt", "x.run", "-m", "map"),
       files={"x.run": _unjudged_topic("a")}, allowed_new=["c/"]),
    ok("eval-cache-run-changed-same-size", [*EVAL, "--cache", "c"],
       changed_input_is_a_miss("a.run", _same_size_change, *EVAL), allowed_new=["c/"]),
    ok("eval-cache-qrels-changed", [*EVAL, "--cache", "c"],
       changed_input_is_a_miss("qrels.txt", lambda data: data.replace(b" 1\n", b" 0\n", 3),
                               *EVAL), allowed_new=["c/"]),
    ok("eval-cache-run-folder-grows", ["eval", "qrels.txt", "runs", "-m", "map", "--cache",
                                       "c"],
       new_run_in_folder_is_evaluated("eval", "qrels.txt", "runs", "-m", "map"),
       files=RUNS_ONLY, allowed_new=["c/"]),
    ok("eval-cache-hit-output-onto-a-run", [*EVAL, "--cache", "c"],
       output_onto_an_input_is_refused(*EVAL), allowed_new=["c/"]),
    # ---- the output: as without a cache, on a miss and on a hit
    ok("eval-cache-miss-then-hit", [*EVAL, "--cache", "c"],
       all_checks(same_as_uncached(*EVAL), hit_equals(*EVAL)), allowed_new=["c/"]),
    ok("eval-cache-latex", [*EVAL[:-1], "--format", "latex", "--cache", "c"],
       same_as_uncached(*EVAL[:-1], "--format", "latex"), allowed_new=["c/"]),
    # ---- eval's text entries (trec_eval's measures of TREC files): a damaged entry, or
    # an intact one of another kind under the key, is reported and evaluated again
    ok("eval-cache-text-entry-altered", [*EVAL, "--cache", "c"],
       damaged_is_not_served(_flip, *EVAL), allowed_new=["c/"]),
    ok("eval-cache-text-entry-truncated", [*EVAL, "--cache", "c"],
       damaged_is_not_served(lambda data: data[:len(data) // 2], *EVAL),
       allowed_new=["c/"]),
    ok("eval-cache-text-entry-of-another-kind", [*EVAL, "--cache", "c"],
       damaged_is_not_served(_other_kind, *EVAL), allowed_new=["c/"]),
    # a header beyond the reader's bounds (lists nested 100,000 deep: a RecursionError; a
    # list of 2^62 items, which a reader would make before it found them missing)
    ok("eval-cache-header-nested-too-deep", [*EVAL, "--cache", "c"],
       damaged_is_not_served(_header_with((b"L" + (1).to_bytes(8, "little")) * 100_000
                                          + b"N"), *EVAL,
                             reason="nested deeper than 100"), allowed_new=["c/"]),
    ok("eval-cache-header-huge-count", [*EVAL, "--cache", "c"],
       damaged_is_not_served(_header_with(b"L" + (1 << 62).to_bytes(8, "little") + b"N"),
                             *EVAL, reason="items announced"), allowed_new=["c/"]),
    ok("many-cache-miss-then-hit", [*MANY, "--cache", "c"],
       all_checks(same_as_uncached(*MANY), hit_equals(*MANY)), allowed_new=["c/"]),
    ok("eval-batches-cache", [*EVAL[:-1], "--batch-size", "1", "--no-progress", "--cache",
                              "c"],
       all_checks(same_as_uncached(*EVAL[:-1], "--names", "file"),
                  hit_equals(*EVAL[:-1], "--batch-size", "1", "--no-progress")),
       allowed_new=["c/"]),
    # ---- entries that are not regular files: misses, never waited for
    ok("eval-cache-entry-a-fifo", [*EVAL, "--cache", "c"], fifo_is_not_waited_for(*EVAL),
       allowed_new=["c/"]),
    ok("many-cache-entry-a-fifo", [*MANY, "--cache", "c"], fifo_is_not_waited_for(*MANY),
       allowed_new=["c/"]),
    ok("eval-cache-entry-a-folder", [*EVAL, "--cache", "c"],
       not_a_file_is_a_miss(os.mkdir, "a folder", *EVAL), allowed_new=["c/"]),
    ok("eval-cache-latex-entry-a-folder", [*EVAL[:-1], "--format", "latex", "--cache", "c"],
       not_a_file_is_a_miss(os.mkdir, "a folder", *EVAL[:-1], "--format", "latex"),
       allowed_new=["c/"]),
    ok("many-cache-entry-a-folder", [*MANY, "--cache", "c"],
       not_a_file_is_a_miss(os.mkdir, "a folder", *MANY), allowed_new=["c/"]),
    ok("eval-cache-entry-a-socket", [*EVAL, "--cache", "c"],
       not_a_file_is_a_miss(_socket, "a socket", *EVAL), allowed_new=["c/"]),
    # ---- the folder
    err("eval-cache-is-the-qrels", [*EVAL, "--cache", "qrels.txt"], opt("--cache"),
        "qrels.txt"),
    err("eval-cache-is-a-run", [*EVAL, "--cache", "b.run"], opt("--cache"), "b.run"),
    err("eval-cache-is-a-file", [*EVAL, "--cache", "labels.txt"], opt("--cache"),
        "labels.txt", "not a folder"),
    err("eval-cache-is-the-runs-folder", ["eval", "qrels.txt", "runs", "-m", "map",
                                          "--cache", "runs"], opt("--cache"), "runs",
        files=RUNS_ONLY),
    err("many-cache-is-the-runs-folder", ["eval-many", "qrels.txt", "runs", "-m", "map",
                                          "--cache", "runs"], opt("--cache"), "runs",
        files=RUNS_ONLY),
    err("eval-cache-holds-the-qrels", [*EVAL, "--cache", "."], opt("--cache"), "qrels.txt"),
    err("eval-cache-parent-missing", [*EVAL, "--cache", "no/such/folder"], opt("--cache"),
        "no/such/folder", "cannot create"),
    err("many-cache-parent-missing", [*MANY, "--cache", "no/such/folder"], opt("--cache"),
        "cannot create"),
    err("eval-cache-same-as-per-topic-out", [*MANY, "--per-topic-out", "pt", "--cache", "pt"],
        "--per-topic-out", "--cache", "pt"),
    # ---- what a cache cannot key, and where it does not apply
    err("eval-cache-stdin-run", ["eval", "qrels.txt", "-", "-m", "map", "--cache", "c"],
        "--cache", "standard input", stdin=b"1 Q0 d1 1 1.0 x\n"),
    err("eval-cache-diversity", ["eval", "qrels.txt", "a.run", "-m", "alpha-nDCG@20",
                                 "--cache", "c"], "--cache", "diversity"),
]


@pytest.mark.parametrize("case", CASES)
def test_cache(case, ws, run_cli):
    run_case(case, ws, run_cli)


def _warnings(result) -> list[str]:
    return [line for line in result.err.splitlines() if line.startswith("irscale: warning: ")]


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root writes into any folder")
@pytest.mark.parametrize("argv", [EVAL, MANY], ids=["eval", "eval-many"])
def test_cache_read_only_folder_serves_hits(argv, ws, run_cli):
    """A cache folder that cannot be written still serves its entries (no warning, no
    evaluation), and one without the entries evaluates, warns once and succeeds."""
    reference = run_cli(list(argv))
    assert_ok(reference)
    (ws.root / "ro").mkdir()
    (ws.root / "ro").chmod(0o500)
    try:
        missed = run_cli([*argv, "--cache", "ro"])
        assert missed.status == 0, missed.describe()
        assert missed.out == reference.out, missed.describe()
        warned = _warnings(missed)
        assert len(warned) == 1 and "ro" in warned[0] and "not cached" in warned[0], \
            missed.describe()
        assert not os.listdir(ws.root / "ro")
        (ws.root / "ro").chmod(0o700)
        assert_ok(run_cli([*argv, "--cache", "ro"]))  # fills it
        entries = sorted(os.listdir(ws.root / "ro"))
        (ws.root / "ro").chmod(0o500)
        hit = run_cli([*argv, "--cache", "ro"])
        assert_ok(hit)
        assert hit.out == reference.out and not _warnings(hit), hit.describe()
        assert sorted(os.listdir(ws.root / "ro")) == entries
    finally:
        (ws.root / "ro").chmod(0o700)


@pytest.mark.parametrize("argv", [EVAL, MANY], ids=["eval", "eval-many"])
def test_cache_on_a_read_only_file_system(argv, ws, run_cli, monkeypatch):
    """A cache folder that cannot be written (a read-only file system: ``EROFS``, whoever
    runs the tests, root too) is taken on the command line: it serves its hits (no
    warning, nothing written) and evaluates its misses without storing them (one
    warning)."""
    import errno
    import tempfile

    reference = run_cli(list(argv))
    assert_ok(reference)
    assert_ok(run_cli([*argv, "--cache", "ro"]))  # fills it
    (ws.root / "empty").mkdir()
    read_only = {os.path.realpath(ws.root / name) for name in ("ro", "empty")}
    access, mkstemp = os.access, tempfile.mkstemp

    def no_write(path, mode, **kwargs):
        if mode & os.W_OK and os.path.realpath(path) in read_only:
            return False
        return access(path, mode, **kwargs)

    def no_file(*args, dir=None, **kwargs):
        if dir is not None and os.path.realpath(dir) in read_only:
            raise OSError(errno.EROFS, "Read-only file system")
        return mkstemp(*args, dir=dir, **kwargs)

    monkeypatch.setattr(os, "access", no_write)
    monkeypatch.setattr(tempfile, "mkstemp", no_file)
    entries = sorted(os.listdir(ws.root / "ro"))
    hit = run_cli([*argv, "--cache", "ro"])
    assert_ok(hit)
    assert hit.out == reference.out and not _warnings(hit), hit.describe()
    assert sorted(os.listdir(ws.root / "ro")) == entries
    missed = run_cli([*argv, "--cache", "empty"])
    assert_ok(missed)
    warned = _warnings(missed)
    assert missed.out == reference.out, missed.describe()
    assert len(warned) == 1 and "read-only file system" in warned[0] \
        and "not cached" in warned[0], missed.describe()
    assert not os.listdir(ws.root / "empty")


@pytest.mark.parametrize("argv", [EVAL, MANY], ids=["eval", "eval-many"])
@pytest.mark.parametrize("where", ["mkstemp", "replace"])
def test_cache_full_device_warns_once_and_succeeds(argv, where, ws, run_cli, monkeypatch):
    """ENOSPC when an entry is written (whoever runs the tests, root too): the command
    succeeds with the output it has without a cache, one warning, no file in the cache."""
    import errno
    import tempfile

    from irscale.cache import store

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    reference = run_cli(list(argv))
    assert_ok(reference)
    target = tempfile if where == "mkstemp" else store.os
    monkeypatch.setattr(target, where, full)
    result = run_cli([*argv, "--cache", "c"])
    assert result.status == 0, result.describe()
    assert result.out == reference.out, result.describe()
    warned = _warnings(result)
    assert len(warned) == 1 and "no space left on device" in warned[0], result.describe()
    assert not [n for n in os.listdir(ws.root / "c") if not n.endswith(".entry")]


@pytest.mark.parametrize("settled", [False, True], ids=["by-digest", "by-identity"])
def test_cache_reply_checks_its_files(settled, ws, run_cli, monkeypatch):
    """A reply checks each file by its identity (device, inode, size, modification and
    status change times) once it is settled (no write for ``SETTLED_NS`` before it was
    hashed: 0 here, so the files just written are), by the digest of its bytes before:
    settled, a hit hashes nothing; either way a change of one byte at the same size is a
    miss that prints the new values."""
    from irscale.io import regular_files

    if settled:
        monkeypatch.setattr(regular_files, "SETTLED_NS", 0)
    argv = [*EVAL, "--cache", "c"]
    first = run_cli(argv)
    assert_ok(first)
    if settled:  # a hit reads no input's bytes
        digest = regular_files.file_digest
        monkeypatch.setattr(regular_files, "file_digest", None)
        hit = run_cli(argv)
        assert_ok(hit)
        assert hit.out == first.out, hit.describe()
        monkeypatch.setattr(regular_files, "file_digest", digest)
    ws.write("a.run", _same_size_change(ws.read("a.run")))
    reference = run_cli(list(EVAL))
    assert_ok(reference)
    again = run_cli(argv)
    assert_ok(again)
    assert again.out == reference.out != first.out, again.describe()
