"""Naming runs: run ids, file names, or names given one per run.

One rule names the runs of every table, report and plot, in the API and on the command
line alike, and a run's name depends on the run alone except where its run id is not
enough to tell it from another run of the call: a run is named after its run id
(trec_eval's rule, what ranx and PyTerrier users see), unless another run of the call has
the same run id (two CLEF eHealth 2016 teams reused one
id across all their runs): then each of the runs that share it is named after its file,
with one short warning (how many, the first two). So ``CUNI_EN_Run2.txt`` is ``Run3``
beside any runs, and ``KDEIR_EN_Run1.txt``, whose id ``KDEIR`` another run has, is
``KDEIR_EN_Run1`` in every call that gives both. A file's name is its stem
(``bm25.run.gz`` → ``bm25``) or, where that is another run's name too, the first
unambiguous longer form: the whole file name, then the file name with as many parent
folders as needed (``a/bm25.run``). Nothing is merged, and no run is named silently.

The same vocabulary serves the Python API (``read_runs(paths, names=...)``,
``evaluate(qrels, runs, names=...)``) and the ``--names`` option of the command line:

* ``"runid"`` (default): run ids, file names for the runs that share one (above);
* ``"file"``: every run by its file stem (longer forms where stems collide, with a warning);
* a sequence of names, one per run in order (``--names a,b,c``).

``irscale eval-many`` names runs by file by default (``--names runid`` asks for the rule
above): it streams thousands of files and prints each batch before reading the next, so
its names must be known before the run ids are.
"""

from __future__ import annotations

import os
import warnings
from collections import Counter
from collections.abc import Iterable, Sequence

from ..core.records import replace
from ..errors import AlignmentError, ParameterError

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, ClassVar, Protocol, TypeAlias, TypeVar

    from ..core.inputs import Run

    class NamedRun(Protocol):
        """What :func:`name_runs` reads of a run (a ``Run``, or a stochastic run of
        :mod:`irscale.io.stochastic`): its name and source, a dataclass field ``name``."""

        __dataclass_fields__: ClassVar[dict[str, Any]]

        @property
        def name(self) -> str: ...

        @property
        def source(self) -> str: ...

    R = TypeVar("R", bound=NamedRun)

#: The naming rules by keyword; otherwise ``names`` lists one name per run.
NAME_MODES = ("runid", "file")

#: ``"runid"``, ``"file"`` or one name per run.
NameSpec: TypeAlias = "str | Sequence[str]"

#: Suffixes of compressed files, dropped before the extension to form the stem.
_COMPRESSED = (".gz", ".gzip")


def parse_names(text: str) -> str | list[str]:
    """The value of a ``--names`` option: ``runid``, ``file`` or a comma-separated list of
    names, one per run (``a,b,c``)."""
    if text in NAME_MODES:
        return text
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise ParameterError(f"--names takes runid, file or one name per run (a,b,c), "
                             f"got an empty name in {text!r}")
    return names


def has_file(run: Run) -> bool:
    """Whether the run was read from a named file (not a frame, dict, bytes or stdin)."""
    return not run.source.startswith("<")


def file_stem(path: str | os.PathLike) -> str:
    """The file name without its extension (and without ``.gz`` first):
    ``runs/bm25.run.gz`` → ``bm25``, ``input.ql`` → ``input``."""
    base = os.path.basename(os.fspath(path))
    for suffix in _COMPRESSED:
        if base.lower().endswith(suffix) and len(base) > len(suffix):
            base = base[: -len(suffix)]
            break
    stem, _ = os.path.splitext(base)
    return stem or base


def _file_forms(source: str) -> list[str]:
    """Names of a run file from the shortest to the longest: the stem, the file name, then
    the file name under one, two, ... parent folders (of its absolute path)."""
    parts = os.path.abspath(source).split(os.sep)
    forms = [file_stem(source)]
    for depth in range(1, len(parts) + 1):
        form = "/".join(part for part in parts[-depth:] if part)
        if form and form != forms[-1]:
            forms.append(form)
    return forms


def _by_files(given: Sequence[str], sources: Sequence[str], selected: list[int], why: str
              ) -> list[str]:
    """Name the runs ``selected`` (named ``given``, read from ``sources``) after their
    files: each by the shortest form (stem first) that no other run's name takes."""
    for i in selected:
        if sources[i].startswith("<"):  # not read from a named file (has_file)
            raise ParameterError(
                f"run {given[i]!r} ({sources[i]}) has no file name to be named by "
                f"({why}): give the runs' names (--names a,b,c, or a mapping "
                "{name: run} in Python)")
    return _names_by_files(sources, list(given), selected)


def _names_by_files(sources: Sequence[str], chosen: list[str], selected: list[int]
                    ) -> list[str]:
    """:func:`_by_files` on the files' paths."""
    forms = {i: _file_forms(sources[i]) for i in selected}
    depth = dict.fromkeys(selected, 0)
    names = list(chosen)
    while True:
        for i in selected:
            names[i] = forms[i][min(depth[i], len(forms[i]) - 1)]
        counts = Counter(names)
        clashing = [i for i in selected if counts[names[i]] > 1]
        if not clashing:
            return names
        stuck = [i for i in clashing if depth[i] >= len(forms[i]) - 1]
        if stuck:
            raise ParameterError(f"run file {sources[stuck[0]]} is given twice")
        for i in clashing:
            depth[i] += 1




def name_runs(runs: Sequence[R], names: NameSpec = "runid") -> list[R]:
    """The runs named as ``names`` says (module documentation), every name distinct.

    Renaming keeps everything the readers computed (fingerprints, topic blocks). A warning
    names the runs whose names come from their files because run ids (or stems) collide.
    """
    runs = list(runs)
    if isinstance(names, str):
        if names not in NAME_MODES:
            raise ParameterError(f"names must be {' or '.join(NAME_MODES)} or one name per "
                                 f"run, got {names!r}")
        given = [run.name for run in runs]
        sources = [run.source for run in runs]
        if names == "runid":
            chosen = runid_names(given, sources, stacklevel=3)
        else:
            _by_files(given, sources, list(range(len(runs))), "--names file")
            chosen = file_names(sources, stacklevel=3)
    else:
        chosen = [str(name) for name in names]
        if len(chosen) != len(runs):
            raise ParameterError(f"names: {len(chosen)} name{'s' * (len(chosen) != 1)} given "
                                 f"for {len(runs)} run{'s' * (len(runs) != 1)}: give one per "
                                 "run, in order")
        repeated = [name for name, count in Counter(chosen).items() if count > 1]
        if repeated:
            raise ParameterError(f"names: {repeated[0]!r} is given twice")
        if not all(chosen):
            raise ParameterError("names: a run name cannot be empty")
    return [run if run.name == name else replace(run, name=name)
            for run, name in zip(runs, chosen, strict=True)]


def runid_names(given: Sequence[str], sources: Sequence[str], *, stacklevel: int = 2
                ) -> list[str]:
    """The names ``names="runid"`` gives runs named ``given`` (their run ids) read from
    ``sources`` (module documentation): each its run id, but the runs that share one,
    each named after its file, with a warning (``stacklevel``: that of the warning, seen
    from the caller)."""
    counts = Counter(given)
    shared = [i for i, runid in enumerate(given) if counts[runid] > 1]
    if not shared:
        return list(given)
    ids = list(dict.fromkeys(given[i] for i in shared))
    chosen = _by_files(given, sources, shared,
                       f"runs share the run id {ids[0]!r}, and each is named after its file")
    _warn_named(f"{len(shared)} runs share a run id with another run "
                f"({_counted(ids, counts)}): each is named after its file", sources, chosen,
                shared, stacklevel + 1)
    return chosen


def file_names(paths: Sequence[str], *, stacklevel: int = 2) -> list[str]:
    """The names ``names="file"`` gives runs read from ``paths`` (module documentation),
    known before any file is read: every file by its stem, longer forms where stems collide
    (with a warning)."""
    sources = [os.fspath(path) for path in paths]
    chosen = _names_by_files(sources, list(sources), list(range(len(sources))))
    stems = [file_stem(source) for source in sources]
    counts = Counter(stems)
    members = [i for i, stem in enumerate(stems) if counts[stem] > 1]
    if members:
        shared = list(dict.fromkeys(stems[i] for i in members))
        _warn_named(f"{len(members)} run files share a file stem with another "
                    f"({_counted(shared, counts)}): each is named by a longer form", sources,
                    chosen, members, stacklevel + 1)
    return chosen


def find_run(name: str, runs: Sequence[Run], what: str = "baseline") -> str:
    """The name of the run that ``name`` designates among ``runs``: its name (the run id, or
    the name the rules above gave it), or its file as the user knows it: the path (however
    spelt: ``./a.run``), the file name (``a.run.gz``) or its stem (``a``).

    A name that designates no run, or several (a run's name that is another run's file stem,
    a file name shared by files in two folders), is an error listing the runs and their
    files, never a guess.

    Raises
    ------
    AlignmentError
        ``name`` designates no run.
    ParameterError
        ``name`` designates several runs (a path names one), or is not a non-empty string.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from irscale import read_runs
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     folder = pathlib.Path(tmp)
    ...     _ = (folder / "a.run").write_text("1 Q0 d1 1 2.5 bm25\\n")
    ...     _ = (folder / "b.run").write_text("1 Q0 d1 1 1.0 ql\\n")
    ...     runs = read_runs([folder / "a.run", folder / "b.run"])
    ...     found = [find_run(name, runs) for name in ("ql", "a", "a.run", f"{tmp}/./a.run")]
    >>> found
    ['ql', 'bm25', 'bm25', 'bm25']
    """
    if not isinstance(name, str) or not name:
        raise ParameterError(f"{what} must name a run, got {name!r}")
    found = [i for i, run in enumerate(runs) if run.name == name
             or (has_file(run) and _names_file(name, run.source))]
    if len(found) == 1:
        return runs[found[0]].name
    if not found:
        raise AlignmentError(f"{what} {name!r} names no run: give a run's name or its file "
                             f"(path, file name or stem); runs: "
                             f"{_listed(runs, range(len(runs)))}")
    raise ParameterError(f"{what} {name!r} is ambiguous: it names the runs "
                         f"{_listed(runs, found)}; give the path of the run's file")


def _names_file(name: str, source: str) -> bool:
    """Whether ``name`` is the file ``source`` (its path however spelt, its file name or its
    stem: :func:`file_stem`)."""
    return name in (os.path.basename(source), file_stem(source)) \
        or os.path.abspath(name) == os.path.abspath(source)


def _listed(runs: Sequence[Run], indices: Iterable[int], most: int = 10) -> str:
    """``'a' (a.run), 'b' (b.run), ...``: at most ``most`` runs, then how many in all."""
    chosen = list(indices)
    shown = ", ".join(f"{runs[i].name!r}" + (f" ({runs[i].source})" if has_file(runs[i])
                                              else "") for i in chosen[:most])
    return shown + (f", ... ({len(chosen)} in all)" if len(chosen) > most else "")


#: Runs (and shared names) a naming warning lists: the rest are counted.
WARNED = 2


def _counted(names: Sequence[str], counts: Counter) -> str:
    """``'KDEIR' ×2, 'WHUIRGroup' ×3``: the first :data:`WARNED` names shared and how many
    runs share each, then ``...``."""
    return ", ".join(f"{name!r} ×{counts[name]}" for name in names[:WARNED]) + \
        (", ..." if len(names) > WARNED else "")


def _warn_named(what: str, sources: Sequence[str], chosen: list[str], members: list[int],
                stacklevel: int = 3) -> None:
    """One short warning: ``what``, then the first :data:`WARNED` runs renamed, each with its
    file (the others counted), and how to choose other names."""
    listed = ", ".join(f"{chosen[i]!r} ({sources[i]})" for i in members[:WARNED])
    if len(members) > WARNED:
        listed += ", ..."
    warnings.warn(f"{what}: {listed}; --names (names=) chooses other names",
                  stacklevel=stacklevel)
