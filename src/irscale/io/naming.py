"""Naming runs: by file, by run id, or by names given one per run.

One rule names the runs of every command, table, LaTeX table, report and plot, in the API
and on the command line alike: **a run read from a file is named by its file**, the file's
name without its extension (``runs/bm25.run.gz`` → ``bm25``, ``CUNI_EN_Run1.txt`` →
``CUNI_EN_Run1``); where two runs of one call share that name, each of those runs is named
by the shortest trailing part of its path, without the extension, that no other run of
that group has (``bm25/run`` and ``splade/run`` for ``bm25/run.txt`` and
``splade/run.txt``; separators written ``/``), with one short warning. The choice is made
per group of runs that share a name, from the paths alone, so it does not depend on the
order of the runs. (Two files that differ only by their extension, ``a/bm25.run`` and
``a/bm25.txt``, are told apart by their file names; one file given twice is an error.)
Runs given as ``Run`` objects, dicts, DataFrames or a mapping ``{name: run}`` keep the
names they have. Nothing is merged, and no run is named silently.

The same vocabulary serves the Python API (``read_runs(paths, names=...)``,
``evaluate(qrels, runs, names=...)``) and the ``--names`` option of every command:

* ``"file"`` (default): the rule above;
* ``"runid"``: the run id of each run file (trec_eval's rule, what ranx and PyTerrier
  users see), the runs that share a run id each named by its file as above (with a
  warning: two CLEF eHealth 2016 teams reused one id across all their runs);
* a sequence of names, one per run in order (``--names a,b,c``).

trec_eval's ``runid`` measure prints a run's run id whatever its name
(:func:`run_id`). A run is designated (``--baseline``, ``compare(baseline)``, ``--system``
...) by its name, its file's name with or without extension, its path or its run id,
wherever that designates one run of the call: the resolver, :func:`find_run` and its
helpers, is :mod:`irscale.core.run_names` (it reads no file, so the layers below the
readers use it too), re-exported here.
"""

from __future__ import annotations

import os
import warnings
from collections import Counter
from collections.abc import Iterable, Sequence

from ..core.records import record, replace
from ..core.run_names import (  # noqa: F401 - the resolver, re-exported (module documentation)
    RunKey,
    by_run,
    designates,
    file_stem,
    find_in,
    find_names,
    find_run,
    has_file,
    keys_of,
    run_keys,
)
from ..errors import ParameterError

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, ClassVar, Protocol, TypeAlias, TypeVar

    class NamedRun(Protocol):
        """What :func:`name_runs` reads of a run (a ``Run``, or a stochastic run of
        :mod:`irscale.io.stochastic`): its name and source, a dataclass field ``name``."""

        __dataclass_fields__: ClassVar[dict[str, Any]]

        @property
        def name(self) -> str: ...

        @property
        def source(self) -> str: ...

    R = TypeVar("R", bound=NamedRun)

#: The naming rules by keyword, the default first; otherwise ``names`` lists one name per
#: run.
NAME_MODES = ("file", "runid")

#: ``"file"``, ``"runid"`` or one name per run.
NameSpec: TypeAlias = "str | Sequence[str]"

@record
class NamedFiles:
    """Run files and the ``--names`` rule that names them (``"file"``, ``"runid"`` or one
    name per file), not read yet: where every input is a TREC file the engine reads and
    judges them with the others (:func:`irscale.io.native_inputs.native_inputs`), the
    names chosen from what it says of each file; elsewhere the Python readers read them
    (:func:`irscale.io.sources.read_runs`). One rule, :func:`name_runs`' and the same
    warnings and errors, names them either way."""

    files: tuple[str, ...]
    names: str | tuple[str, ...]


def named_files(files: Sequence[str], names: NameSpec) -> NamedFiles:
    """``files`` to be named by ``names`` (a rule, or one name per file) once read."""
    return NamedFiles(tuple(files), names if isinstance(names, str) else tuple(names))


def files_names(names: NameSpec, runids: Sequence[str], files: Sequence[str | None], *,
                stacklevel: int = 2) -> list[str]:
    """The names ``names`` gives runs read from ``files`` (``None``: a run without a file)
    whose last lines' run ids are ``runids``, as :func:`name_runs` names the runs read from
    them: by file (:func:`file_names`), by run id (:func:`runid_names`) or as given
    (:func:`given_names`)."""
    if isinstance(names, str):
        if names not in NAME_MODES:
            raise ParameterError(f"names must be {' or '.join(NAME_MODES)} or one name per "
                                 f"run, got {names!r}")
        if names == "runid":
            return runid_names(runids, files, stacklevel=stacklevel + 1)
        return file_names(files, runids, stacklevel=stacklevel + 1)
    return given_names(names, len(runids))


def parse_names(text: str) -> str | list[str]:
    """The value of a ``--names`` option: ``file``, ``runid`` or a comma-separated list of
    names, one per run (``a,b,c``)."""
    if text in NAME_MODES:
        return text
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise ParameterError(f"--names takes file, runid or one name per run (a,b,c), "
                             f"got an empty name in {text!r}")
    return names


def source_name(source: str, runid: str) -> str:
    """The name a run read from ``source`` (its name in messages) takes by default: its
    file's stem, or ``runid`` where it has no file (``<stdin>``, ``<bytes>``)."""
    return runid if source.startswith("<") else file_stem(source)


def run_id(run: Any) -> str:
    """The run's run id, as trec_eval's ``runid`` measure prints it: the run id of the
    file's last line (the readers keep it last in ``runids``), or the run's name where it
    has none (a run of a dict or a frame)."""
    runids = getattr(run, "runids", ())
    return runids[-1] if runids else run.name


def is_file_named(run: Any) -> bool:
    """Whether ``run`` bears the name its file gives it (read from a file, not renamed):
    the runs the naming rules name (module documentation)."""
    return has_file(run) and run.name == file_stem(run.source)


def _path_forms(source: str) -> tuple[list[str], list[str]]:
    """The names of a run file from the shortest: its stem, then the stem under one, two
    ... parent folders of its absolute path (``bm25``, ``runs/bm25``, ``x/runs/bm25``);
    and the file name under as many (``bm25.run``, ``runs/bm25.run`` ...: for two files
    that differ only by their extension)."""
    parts = [part for part in os.path.abspath(source).split(os.sep) if part]
    stem = file_stem(source)
    folders = parts[:-1]
    return (["/".join([*folders[len(folders) - depth:], stem])
             for depth in range(len(folders) + 1)],
            ["/".join(parts[len(parts) - depth:]) for depth in range(1, len(parts) + 1)])


def distinct_names(names: Sequence[str], sources: Sequence[str | None]) -> list[str]:
    """``names`` made distinct (module documentation): each run that shares its name with
    others takes, if it has a file (``sources[i]`` not ``None``), the shortest trailing
    part of its path that no other run of the group has at that length; a run without a
    file keeps its name. Groups are formed again while a name chosen is another run's.

    Raises
    ------
    ParameterError
        Two runs without a file share a name, or one file is given twice.
    """
    chosen = list(names)
    for _ in range(len(chosen) + 1):
        groups: dict[str, list[int]] = {}
        for i, name in enumerate(chosen):
            groups.setdefault(name, []).append(i)
        clashes = [(name, members) for name, members in groups.items() if len(members) > 1]
        if not clashes:
            return chosen
        for name, members in clashes:
            _tell_apart(name, members, sources, chosen)
    raise ParameterError(f"runs {_sources(sources, range(len(chosen)))} cannot be told "
                         "apart by their files: give the runs' names (--names a,b,c)")


def _sources(sources: Sequence[str | None], members: Iterable[int]) -> str:
    """``a.run, <no file>``: the files of ``members``."""
    return ", ".join(sources[i] or "<no file>" for i in members)


def _tell_apart(name: str, members: list[int], sources: Sequence[str | None],
                chosen: list[str]) -> None:
    """Name each run of ``members`` (all named ``name``) that has a file by the shortest end
    of its path (:func:`_path_forms`), beyond ``name``, that no other member has at that
    length; a run whose path ends another's (``a/run``, ``x/a/run``) by its whole path,
    two that differ by their extension alone by their file names (:func:`_whole_names`).
    A run without a file keeps ``name``. ``chosen`` is updated in place."""
    without = [i for i in members if sources[i] is None]
    if len(without) > 1:
        raise ParameterError(f"{len(without)} runs without a file are all named {name!r}, "
                             "with no file name to be named by: give the runs' names "
                             "(--names a,b,c, or a mapping {name: run} in Python)")
    forms = {i: _path_forms(source) for i in members if (source := sources[i]) is not None}
    ends = {i: [name, *_beyond(name, stems)] for i, (stems, _) in forms.items()}
    found = {i: _shortest_end(i, ends, bool(without)) for i in ends}
    for i, end in found.items():
        if end is not None:
            chosen[i] = end
    exhausted = {i: [ends[i][-1], *forms[i][1]] for i, end in found.items() if end is None}
    if exhausted:
        _whole_names(name, exhausted, [chosen[i] for i in members if i not in exhausted],
                     sources, chosen)


def _shortest_end(i: int, ends: dict[int, list[str]], named: bool) -> str | None:
    """The shortest of the ends of run ``i``'s path (``ends[i]``, the shared name first)
    that no other run of the group has at that length (``named``: a run without a file has
    the shared name at every length); ``None`` where there is none."""
    own = ends[i]
    others = [other for j, other in ends.items() if j != i]
    for depth in range(1, len(own)):
        taken = {other[depth] for other in others if depth < len(other)}
        if own[depth] not in taken and not (named and own[depth] == own[0]):
            return own[depth]
    return None


def _whole_names(name: str, spare: dict[int, list[str]], taken: list[str],
                 sources: Sequence[str | None], chosen: list[str]) -> None:
    """Name the runs of ``spare`` (each with its forms: its whole path without extension,
    then its file name under 0, 1 ... folders) by their whole paths where these differ,
    else (the same path but for the extension) by the first of their other forms that no
    other run of the group takes or may take (``taken``: the names chosen already)."""
    wholes = Counter(forms[0] for forms in spare.values())
    for i, forms in spare.items():
        others = set(taken) | {form for j, more in spare.items() if j != i
                               for form in more[1:]}
        free = [form for form in forms[1:] if form != name and form not in others]
        if wholes[forms[0]] == 1 and forms[0] not in taken:
            chosen[i] = forms[0]
        elif free:
            chosen[i] = free[0]
        else:
            raise ParameterError(f"run file {sources[i]} is given twice")


def _beyond(name: str, forms: list[str]) -> list[str]:
    """The forms longer than ``name`` where ``name`` is one of them, else all."""
    return forms[forms.index(name) + 1:] if name in forms else forms


def name_runs(runs: Sequence[R], names: NameSpec = "file") -> list[R]:
    """The runs named as ``names`` says (module documentation), every name distinct.

    The rules ``"file"`` and ``"runid"`` name the runs that bear their file's name (read
    from a file, :func:`is_file_named`); the others keep theirs. Renaming keeps everything
    the readers computed (fingerprints, topic blocks). A warning names the runs whose names
    come from their paths because names collide.
    """
    runs = list(runs)
    if isinstance(names, str):
        if names not in NAME_MODES:
            raise ParameterError(f"names must be {' or '.join(NAME_MODES)} or one name per "
                                 f"run, got {names!r}")
        given = [run_id(run) if names == "runid" and is_file_named(run) else run.name
                 for run in runs]
        sources = [run.source if has_file(run) else None for run in runs]
        chosen = _named(given, sources, "run id" if names == "runid" else "name",
                        stacklevel=3)
    else:
        chosen = given_names(names, len(runs))
    return [run if run.name == name else replace(run, name=name)
            for run, name in zip(runs, chosen, strict=True)]


def given_names(names: Sequence[str], count: int) -> list[str]:
    """``names`` given one per run for ``count`` runs, checked: as many, none empty, none
    twice."""
    chosen = [str(name) for name in names]
    if len(chosen) != count:
        raise ParameterError(f"names: {len(chosen)} name{'s' * (len(chosen) != 1)} given "
                             f"for {count} run{'s' * (count != 1)}: give one per "
                             "run, in order")
    repeated = [name for name, count in Counter(chosen).items() if count > 1]
    if repeated:
        raise ParameterError(f"names: {repeated[0]!r} is given twice")
    if not all(chosen):
        raise ParameterError("names: a run name cannot be empty")
    return chosen


def _named(given: Sequence[str], sources: Sequence[str | None], what: str, *,
           stacklevel: int) -> list[str]:
    """:func:`distinct_names` of ``given`` (run ids, or names: ``what``), with one warning
    of the runs renamed by their paths (``stacklevel``: the warning's, from the caller)."""
    chosen = distinct_names(given, sources)
    renamed = [i for i, name in enumerate(chosen) if name != given[i]]
    if renamed:
        counts = Counter(given)
        shared = list(dict.fromkeys(given[i] for i in renamed))
        how = "after its file" if what == "run id" else \
            "by the shortest part of its path that tells them apart"
        _warn_named(f"{len(renamed)} runs share a {what} with another run "
                    f"({_counted(shared, counts)}): each is named {how}",
                    [source or "<no file>" for source in sources], chosen, renamed,
                    stacklevel + 1)
    return chosen


def runid_names(given: Sequence[str], sources: Sequence[str | None], *, stacklevel: int = 2
                ) -> list[str]:
    """The names ``names="runid"`` gives runs of run ids ``given`` read from ``sources``
    (``None``: a run without a file), as :func:`name_runs`."""
    return _named(given, sources, "run id", stacklevel=stacklevel + 1)


def file_names(paths: Sequence[str | os.PathLike | None], given: Sequence[str] = (), *,
               stacklevel: int = 2) -> list[str]:
    """The names ``names="file"`` gives runs read from ``paths``, known before any file is
    read (:func:`irscale.evaluate_many` streams them): every file by its stem, a path's
    trailing part where stems collide (with a warning); a run without a path (``None``)
    is named ``given[i]``."""
    sources = [None if path is None else os.fspath(path) for path in paths]
    names = [file_stem(source) if source is not None else given[i]
             for i, source in enumerate(sources)]
    return _named(names, sources, "name", stacklevel=stacklevel + 1)


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
