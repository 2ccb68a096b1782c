"""Shared machinery of the fault-injection suite (``docs/errors.md``).

Every case runs in its own temporary folder, which is also the current directory, so that
the command lines use short relative names (``run.txt``) and error messages can be checked
for them. The folder holds a tiny valid collection (see :func:`populate`); a case may add or
replace files, then runs ``irscale`` in-process through :func:`run_cli` and checks the
contract:

* a failure: exit status 2, exactly one line on standard error that starts with
  ``irscale: `` (lines ``irscale: warning: ...`` may come besides), no ``Traceback``, no
  ``usage:`` text, the line names what the case says (file, line number, offending text,
  option), and the folder is byte-for-byte what it was (no output, no partial or temporary
  file, no input modified);
* a success: exit status 0, standard error holds nothing but ``irscale: warning:`` lines
  (and ``irscale: note:`` lines),
  the inputs are unchanged, and the case's own check of the output holds.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import signal
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from irscale.cli.main import main

# ----------------------------------------------------------------------------- the data
TOPICS = ("1", "2", "3", "4", "5", "6")
DOCS = tuple(f"d{i}" for i in range(1, 9))

# relevance of d1..d6 for each topic (d7, d8 unjudged); graded 0/1/2, every topic has a
# relevant document
_REL = {
    "1": (2, 0, 1, 0, 0, 1),
    "2": (0, 1, 0, 0, 2, 0),
    "3": (1, 1, 0, 2, 0, 0),
    "4": (0, 0, 0, 1, 0, 2),
    "5": (1, 0, 2, 0, 1, 0),
    "6": (0, 2, 0, 0, 0, 1),
}
# documents retrieved by each run (rank order), per topic
_ORDERS = {
    "a": ("d1", "d2", "d3", "d7", "d5"),
    "b": ("d6", "d5", "d4", "d3", "d2"),
    "c": ("d8", "d4", "d1", "d2", "d6"),
}
RUN_IDS = {"a": "teamA_r1", "b": "teamB_r1", "c": "teamC_r2"}


def qrels_lines() -> list[str]:
    return [f"{t} 0 d{i + 1} {r}" for t in TOPICS for i, r in enumerate(_REL[t])]


def run_lines(which: str = "a") -> list[str]:
    lines = []
    for t in TOPICS:
        order = _ORDERS[which]
        shift = int(t) % len(order)  # vary the ranking by topic
        order = order[shift:] + order[:shift]
        for rank, doc in enumerate(order, 1):
            lines.append(f"{t} Q0 {doc} {rank} {1.0 - rank / 10:.2f} {RUN_IDS[which]}")
    return lines


def labels_lines() -> list[str]:
    """A second label file (understandability 0..100, as CLEF eHealth), qrels format."""
    return [f"{t} 0 d{i + 1} {(i * 37 + int(t) * 11) % 100}" for t in TOPICS for i in range(6)]


# score matrices: 12 topics x 4 systems, no topic column (row order)
SYSTEMS = ("sysA", "sysB", "sysC", "sysD")


def _score_rows(kind: str) -> list[list[float]]:
    rows = []
    for t in range(12):
        base = 0.15 + 0.05 * ((t * 7) % 5)
        row = []
        for s in range(4):
            # (s // 3: sysD is no constant shift of sysA, which no paired test could test)
            value = base + 0.1 * s + 0.03 * (((t + 1) * (s + 2) + s // 3) % 3)
            if kind == "p10":
                value = round(value * 10) / 10
            elif kind == "gold":
                value = value**0.5
            row.append(min(value, 1.0))
        rows.append(row)
    return rows


def score_text(kind: str = "ap", *, systems: Sequence[str] = SYSTEMS,
               rows: int | None = None) -> str:
    data = _score_rows(kind)[: rows or 12]
    lines = [",".join(systems)]
    lines += [",".join(f"{v:.4f}" for v in row[: len(systems)]) for row in data]
    return "\n".join(lines) + "\n"


def text(lines: Sequence[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def replace_line(lines: Sequence[str], number: int, new: str) -> bytes:
    """``lines`` with line ``number`` (1-based) replaced by ``new``."""
    out = list(lines)
    out[number - 1] = new
    return text(out)


def populate(root: Path) -> None:
    """The valid collection every case starts from."""
    (root / "qrels.txt").write_bytes(text(qrels_lines()))
    for which in _ORDERS:
        (root / f"{which}.run").write_bytes(text(run_lines(which)))
    (root / "labels.txt").write_bytes(text(labels_lines()))
    for kind in ("ap", "p10", "gold"):
        (root / f"{kind}.csv").write_text(score_text(kind))
    (root / "contrib.txt").write_text(
        "".join(f"{rid} {rid.split('_')[0]}\n" for rid in RUN_IDS.values()))
    (root / "adir").mkdir()
    (root / "adir" / "keep.txt").write_text("a file inside a folder\n")


# ----------------------------------------------------------------------------- workspace
def snapshot(root: Path) -> dict[str, str]:
    """Every file (hash) and folder under ``root``, hidden ones included."""
    state: dict[str, str] = {}
    for folder, dirs, files in os.walk(root):
        for d in dirs:
            path = Path(folder, d)
            state[str(path.relative_to(root))] = "<link>" if path.is_symlink() else "<dir>"
        for f in files:
            path = Path(folder, f)
            rel = str(path.relative_to(root))
            if path.is_symlink():
                state[rel] = "<link> " + os.readlink(path)
            else:
                state[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return state


def changes(before: dict[str, str], after: dict[str, str]) -> list[str]:
    out = [f"created {k}" for k in sorted(after.keys() - before.keys())]
    out += [f"removed {k}" for k in sorted(before.keys() - after.keys())]
    out += [f"modified {k}" for k in sorted(before.keys() & after.keys())
            if before[k] != after[k]]
    return out


@dataclass
class Workspace:
    root: Path

    def write(self, name: str, data: bytes | str) -> Path:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_dir() and not path.is_symlink():
            raise AssertionError(f"{name} is a folder")
        path.write_bytes(data.encode() if isinstance(data, str) else data)
        return path

    def read(self, name: str) -> bytes:
        return (self.root / name).read_bytes()

    def snapshot(self) -> dict[str, str]:
        return snapshot(self.root)


@pytest.fixture(scope="session", autouse=True)
def sigint_as_from_a_terminal() -> Iterator[None]:
    """The processes these tests start get ^C as they would from a terminal. A shell starts
    its background jobs with SIGINT ignored, and an ignored signal stays ignored across
    ``exec``: pytest run as one (``pytest &``) started every irscale process deaf to the
    ^C of the SIGINT tests. While pytest catches it, its children start at the default."""
    ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    if ignored:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


# ----------------------------------------------------------------------------- warnings
class ForeignWarning(BaseException):
    """A warning that is not irscale's own (a numpy ``RuntimeWarning``, a library's
    ``DeprecationWarning``...) reached the user. A ``BaseException``: ``main`` does not
    turn it into an internal error, it escapes to :func:`_run_in_process`, which reports
    it as a traceback, so that the case fails naming the warning and where it arose."""


def _ours(category: type[Warning]) -> bool:
    """irscale's warnings: ``UserWarning`` (``warnings.warn(message)``) and the categories of
    :mod:`irscale.errors` (``NoVarianceWarning``)."""
    return category is UserWarning or category.__module__ == "irscale.errors"


def pytest_collection_modifyitems(config, items) -> None:
    """A numpy ``RuntimeWarning`` is an error in every test of the suite (the Python API
    cases: ``docs/errors.md`` §6), raised where it arises."""
    here = str(Path(__file__).parent) + os.sep
    error = pytest.mark.filterwarnings("error::RuntimeWarning")
    for item in items:
        if str(item.path).startswith(here):
            item.add_marker(error)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Any other warning that is not irscale's own (numpy's, pandas' ``FutureWarning`` or
    ``PerformanceWarning``, scipy's...) that a case lets reach its caller fails the case,
    as :func:`foreign_warnings_fail` fails it on the command line: the suite runs with
    numpy, pandas and scipy warnings as errors. (Warnings a case catches itself, with
    ``pytest.warns``, are its own.)"""
    with warnings.catch_warnings(record=True) as caught:
        warnings.filterwarnings("always", append=True)  # after the marks' filters
        result = yield
    foreign = [w for w in caught if not _ours(w.category)]
    if foreign:
        pytest.fail("; ".join(f"{w.category.__name__} reached the caller: {w.message} "
                              f"({w.filename}:{w.lineno})" for w in foreign),
                    pytrace=False)
    return result


@pytest.fixture(autouse=True)
def foreign_warnings_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the command line a warning is printed as ``irscale: warning: ...`` whatever its
    category (``main`` shows every warning with its own filter, over pytest's): one that is
    not irscale's own raises :class:`ForeignWarning` where it is issued, so that ``irscale:
    warning: invalid value encountered in divide`` cannot pass for one of ours."""
    from irscale.cli import main as cli

    shown = cli._show_warning

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        if not _ours(category):
            raise ForeignWarning(f"{category.__name__} reached the user: {message} "
                                 f"({filename}:{lineno})")
        shown(message, category, filename, lineno, file, line)

    monkeypatch.setattr(cli, "_show_warning", show)


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    root = tmp_path / "ws"
    root.mkdir()
    populate(root)
    monkeypatch.chdir(root)
    monkeypatch.delenv("IRSCALE_DEBUG", raising=False)
    return Workspace(root)


# ----------------------------------------------------------------------------- running
@dataclass
class Result:
    argv: list[str]
    status: int | None
    out: str
    err: str
    escaped: BaseException | None = None

    def describe(self) -> str:
        esc = f"\n  escaped exception: {self.escaped!r}" if self.escaped else ""
        return (f"\n  argv: {self.argv}\n  status: {self.status}{esc}\n  stderr: "
                f"{self.err[:1500]!r}\n  stdout: {self.out[:600]!r}")


def _run_in_process(capsys, monkeypatch, argv: Sequence[str],
                    stdin: bytes | None) -> Result:
    argv = [os.fspath(a) for a in argv]
    stream = io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stream)
    capsys.readouterr()
    escaped = None
    try:
        status = main(argv)
    except SystemExit as exit_:  # argparse (or anything) leaking SystemExit
        escaped = exit_
        status = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None
                                                                   else 1)
    except BaseException as error:  # a traceback reaching the user
        escaped = error
        status = None
    captured = capsys.readouterr()
    err = captured.err
    if escaped is not None and not isinstance(escaped, SystemExit):
        err += f"\nTraceback (escaped from main): {type(escaped).__name__}: {escaped}"
    return Result(argv, status, captured.out, err, escaped)


@pytest.fixture
def run_cli(capsys, monkeypatch) -> Callable[..., Result]:
    """``run_cli(argv, stdin=None)``: ``irscale.cli.main.main(argv)`` in-process."""

    def run(argv: Sequence[str], stdin: bytes | None = None) -> Result:
        return _run_in_process(capsys, monkeypatch, argv, stdin)

    return run


# ----------------------------------------------------------------------------- contract
Needle = str | tuple[str, ...]  # a tuple: any one of these

#: The announcement of the rest of long work (``irscale.core.progress.announce_rest``): made
#: when the rest is measured to take longer than a few seconds, so on a loaded machine a
#: command that is quick elsewhere may make it; never an error.
ANNOUNCED = re.compile(r"^irscale: .+: [\d,]+ more .+ each \(measured\), about ")


def _notes(line: str) -> bool:
    """Whether a line of standard error is a warning, an announcement or a note (``irscale
    eval``'s dataset conventions: irscale.cli.dataset_options.note)."""
    return line.startswith(("irscale: warning: ", "irscale: note: ")) \
        or ANNOUNCED.match(line) is not None


def _has(line: str, needle: Needle) -> bool:
    if isinstance(needle, tuple):
        return any(n in line for n in needle)
    return needle in line


def error_line(result: Result) -> str:
    """The one error line of a failed call (asserting the shape of standard error)."""
    assert "Traceback" not in result.err + result.out, "traceback shown" + result.describe()
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert not any(line.lstrip().lower().startswith("usage:") for line in lines), \
        "usage text shown" + result.describe()
    errors = [line for line in lines if not _notes(line)]
    assert len(errors) == 1, f"{len(errors)} error lines, expected 1" + result.describe()
    line = errors[0]
    assert line.startswith("irscale: "), "error line lacks 'irscale: '" + result.describe()
    assert not line.startswith("irscale: internal error"), "internal error" + result.describe()
    assert_plain_values(result)
    return line


def assert_error(result: Result, *needles: Needle, status: int = 2,
                 max_length: int = 4000) -> str:
    assert result.status == status, f"exit status {result.status}, expected {status}" \
        + result.describe()
    line = error_line(result)
    # a case that repeats an option of its base command would be refused for that alone and
    # test nothing else: only the cases about repeated options may end that way
    assert not re.search(r"option \S+ given twice", line) or any(
        "given twice" in (n if isinstance(n, str) else " ".join(n)) for n in needles), \
        "the case repeats an option (replace it with with_option)" + result.describe()
    missing = [n for n in needles if not _has(line, n)]
    assert not missing, f"message does not name {missing}" + result.describe()
    assert len(line) <= max_length, f"error line of {len(line)} characters" + \
        result.describe()
    return line


#: A numpy scalar as numpy 2 writes it (``np.float64(nan)``): never in a message.
NUMPY_REPR = re.compile(r"\bnp\.[a-z]+[0-9]*_?\(")


#: A character a terminal acts on (C0 and C1 controls but the line feed, DEL): never raw on
#: standard error, where a hostile topic id could recolour or clear the screen.
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def assert_plain_values(result: Result) -> None:
    """Standard error quotes values as the user wrote them, never numpy's reprs, and no
    control character raw (:data:`CONTROL`)."""
    found = NUMPY_REPR.search(result.err)
    assert not found, f"standard error shows {found[0]}...)" + result.describe()
    raw = CONTROL.search(result.err)
    assert not raw, f"standard error shows the control character {raw[0]!r}" + \
        result.describe()


def assert_ok(result: Result) -> None:
    assert result.status == 0, f"exit status {result.status}, expected 0" + result.describe()
    assert_plain_values(result)
    assert "Traceback" not in result.err + result.out, "traceback shown" + result.describe()
    other = [line for line in result.err.splitlines() if line.strip() and not _notes(line)]
    assert not other, f"stderr holds more than 'irscale: warning:' lines: {other}" \
        + result.describe()


def warnings_of(result: Result) -> list[str]:
    return [line for line in result.err.splitlines() if line.startswith("irscale: warning: ")]


# ----------------------------------------------------------------------------- cases
Check = Callable[[Result, Workspace, Callable[..., Result]], None]


@dataclass(frozen=True)
class Case:
    """One row of a fault table.

    ``expect`` is ``"error"`` (exit 2, one line naming every needle, folder unchanged),
    ``"ok"`` (exit 0, inputs unchanged, then ``check``), or ``"either"`` (a clean error
    naming the needles, or success passing ``check``: for inputs the contract lets the
    implementation refuse or interpret explicitly).
    """

    id: str
    argv: tuple[str, ...]
    expect: str = "error"
    needles: tuple[Needle, ...] = ()
    files: tuple[tuple[str, bytes | str | None], ...] = ()
    stdin: bytes | None = None
    check: Check | None = None
    allowed_new: tuple[str, ...] = ()  # files a success may create (or replace)
    max_length: int = 4000

    def param(self):
        return pytest.param(self, id=self.id)


def err(id: str, argv: Sequence[str], *needles: Needle, files: dict | None = None,
        stdin: bytes | None = None, max_length: int = 4000):
    return Case(id, tuple(argv), "error", tuple(needles), tuple((files or {}).items()),
                stdin, max_length=max_length).param()


def ok(id: str, argv: Sequence[str], check: Check | None = None, *,
       files: dict | None = None, stdin: bytes | None = None,
       allowed_new: Sequence[str] = ()):
    return Case(id, tuple(argv), "ok", (), tuple((files or {}).items()), stdin, check,
                tuple(allowed_new)).param()


def either(id: str, argv: Sequence[str], *needles: Needle, check: Check | None = None,
           files: dict | None = None, stdin: bytes | None = None):
    return Case(id, tuple(argv), "either", tuple(needles), tuple((files or {}).items()),
                stdin, check).param()


@dataclass(frozen=True)
class Link:
    """A file of a case that is a symbolic (or, ``hard=True``, hard) link to ``target``."""

    target: str
    hard: bool = False


def prepare(ws: Workspace, case: Case) -> None:
    for name, data in case.files:
        path = ws.root / name
        if data is None:  # remove (e.g. a missing file)
            path.unlink(missing_ok=True)
        elif isinstance(data, Link):
            path.parent.mkdir(parents=True, exist_ok=True)
            if data.hard:
                os.link(ws.root / data.target, path)
            else:
                os.symlink(data.target, path)
        elif data == "<dir>":
            path.mkdir(parents=True, exist_ok=True)
        else:
            ws.write(name, data)


def run_case(case: Case, ws: Workspace, run_cli: Callable[..., Result]) -> Result:
    prepare(ws, case)
    before = ws.snapshot()
    result = run_cli(list(case.argv), stdin=case.stdin)
    after = ws.snapshot()
    diff = changes(before, after)
    failed = result.status != 0
    if case.expect == "error" or (case.expect == "either" and failed):
        assert_error(result, *case.needles, max_length=case.max_length)
        assert not diff, f"the folder changed on failure: {diff}" + result.describe()
    else:
        assert_ok(result)
        touched = [d for d in diff if not d.startswith("created ")
                   and d.split(" ", 1)[1] not in case.allowed_new]
        assert not touched, f"inputs changed: {touched}" + result.describe()
        created = [d.removeprefix("created ") for d in diff if d.startswith("created ")]
        stray = [c for c in created if c not in case.allowed_new
                 and not any(c == a.rstrip("/") or c.startswith(a.rstrip("/") + "/")
                             for a in case.allowed_new)]
        assert not stray, f"unexpected files created: {stray}" + result.describe()
        if case.check is not None:
            case.check(result, ws, run_cli)
    return result


# ----------------------------------------------------------------------------- checks
def file_holds_output_of(name: str, *argv: str) -> Check:
    """File ``name`` holds what ``argv`` prints on standard output."""

    def check(result: Result, ws: Workspace, run: Callable[..., Result]) -> None:
        path = ws.root / name
        assert path.is_file() and not path.is_symlink(), f"{name} not written" + \
            result.describe()
        reference = run(list(argv))
        assert_ok(reference)
        assert path.read_text(encoding="utf-8") == reference.out, \
            f"{name} differs from the standard output of {list(argv)}"

    return check


def same_output_as(*argv: str) -> Check:
    """The output equals the output of ``argv`` (on the valid files)."""

    def check(result: Result, ws: Workspace, run: Callable[..., Result]) -> None:
        reference = run(list(argv))
        assert_ok(reference)
        assert result.out == reference.out, (
            f"output differs from {list(argv)}:\n{result.out[:800]}\n--- expected\n"
            f"{reference.out[:800]}")

    return check


def output_contains(*needles: str) -> Check:
    def check(result: Result, ws: Workspace, run: Callable[..., Result]) -> None:
        for needle in needles:
            assert needle in result.out, f"{needle!r} not in output" + result.describe()

    return check


def warns_of(*needles: str) -> Check:
    """A check: one ``irscale: warning:`` line names every needle."""

    def check(result: Result, ws: Workspace, run: Callable[..., Result]) -> None:
        assert any(all(n in line for n in needles) for line in warnings_of(result)), \
            f"no warning naming {needles}" + result.describe()

    return check


def all_checks(*checks: Check | None) -> Check:
    def check(result: Result, ws: Workspace, run: Callable[..., Result]) -> None:
        for c in checks:
            if c is not None:
                c(result, ws, run)

    return check


def trec_values(out: str, measure: str, topic: str = "all") -> list[str]:
    """The values printed for ``measure`` and ``topic`` in trec_eval format."""
    values = []
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[0] == measure and topic in fields[1:-1]:
            values.append(fields[-1])
    return values


def gz(data: bytes) -> bytes:
    import gzip

    return gzip.compress(data, mtime=0)


BIN = [sys.executable, "-m", "irscale.cli.main"]


def subprocess_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("IRSCALE_DEBUG", None)
    env["PYTHONWARNINGS"] = ""
    return env


def irscale_bin() -> list[str]:
    return list(BIN)


def any_of(*names: str) -> tuple[str, ...]:
    return tuple(names)


def with_option(argv: Sequence[str], name: str, *values: str) -> list[str]:
    """``argv`` with option ``name`` (and its one value) replaced by ``name values...``
    (appended when absent): a case varies one option of a base command without repeating
    it, which the CLI refuses."""
    out = list(argv)
    if name in out:
        at = out.index(name)
        del out[at:at + 2]
    return [*out, name, *values]


def opt(name: str, *aliases: str) -> tuple[str, ...]:
    """An option named in a message: as spelt on the command line, or by its parameter
    name (``--alpha`` or ``alpha``, ``--bin-width`` or ``bin_width``/``bin width``)."""
    bare = name.lstrip("-")
    return (name, bare, bare.replace("-", "_"), bare.replace("-", " "), *aliases)
