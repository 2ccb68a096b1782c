"""Designating a run: the one resolver of every argument that names a run.

The rule is stated once, in ``docs/evaluation.md`` ("Naming a run"): an argument that
names a run of a call — a baseline, the systems of a test, ``Evaluation.to_ir_measures(run=)``,
``CopulaModel.fit(equal=)``, the runs named in a file — takes the run's name, its file's
name with or without extension (``bm25.run.gz``, ``bm25``), its path (as given or spelt
otherwise) or its run id, wherever that designates exactly one run of the call; a name of
no run, or of several, is a :class:`~irscale.errors.ParameterError` listing the call's runs
with their files, never a guess.

This module is the resolver alone: it takes the runs as their names, files (``source``,
``<...>`` for none) and run ids — ``Run`` objects, or :class:`RunKey` records of the runs of
an evaluation or a score matrix (:func:`run_keys`) — and a user's name, and returns the run
it designates or raises. It reads no file (a path is compared as a string, and resolved
through the file system's links), so every layer may use it: the results of
:mod:`irscale.measures` and the studies of :mod:`irscale.meta` as well as the readers.
How runs are named in the first place (by file, by run id, by names given one per run) is
:mod:`irscale.io.naming`'s, which re-exports these functions.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from ..errors import ParameterError
from .records import record

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - typing is not loaded on the start-up path
    from typing import Any

__all__ = ["RunKey", "by_run", "designates", "file_stem", "find_in", "find_names",
           "find_run", "has_file", "keys_of", "run_keys"]

#: Suffixes of compressed files, dropped before the extension to form the stem.
_COMPRESSED = (".gz", ".gzip")


def has_file(run: Any) -> bool:
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


def _position(name: object) -> int | None:
    """``name`` as a position (an ``int`` or a numpy integer, not a ``bool``), else
    ``None``."""
    if isinstance(name, bool) or not hasattr(type(name), "__index__"):
        return None
    return int(name)  # type: ignore[call-overload]


def find_run(name: object, runs: Sequence[Any], what: str = "baseline", *,
             positions: bool = False, param: str | None = None) -> str:
    """The name of the run that ``name`` designates among ``runs``: its name, its run id,
    or its file as the user knows it: the path (as given, or spelt otherwise: ``./a.run``,
    resolved), the file name (``a.run.gz``) or its stem (``a``). Every argument of the API
    and the command line that names a run resolves it here. With ``positions``, an integer
    designates the run at that position (from 0), for the arguments documented to take
    positions (``CopulaModel.fit(equal=(0, 1))``; a position of no run is refused with the
    message of a name of none, which then names the positions). ``param``: the parameter the errors
    name (``ParameterError.param``, which the command line spells as its
    option).

    A name that designates no run, or several (a run id that two runs share, a run's name
    that is another run's run id, a file name shared by files in two folders), is an error
    listing the runs (with their files), never a guess.

    Raises
    ------
    ParameterError
        ``name`` designates no run or several (a path names one), or is not a non-empty
        string (nor, with ``positions``, an integer).

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
    ['b', 'a', 'a', 'a']
    """
    at = _position(name) if positions else None
    if at is None and (not isinstance(name, str) or not name):
        raise ParameterError(f"{what} must name a run{' or give its position' * positions}"
                             f", got {name!r}", param=param)
    found = _designated(name, at, runs)
    if len(found) == 1:
        return runs[found[0]].name
    if not found:
        raise ParameterError(f"{what} {name!r} names no run: give a run's name, "
                             f"{_ways(at, len(runs))}; runs: "
                             f"{_listed(runs, range(len(runs)))}", param=param)
    raise ParameterError(f"{what} {name!r} is ambiguous: it names the runs "
                         f"{_listed(runs, found)}; give the run's name or the path of its "
                         "file", param=param)


def _designated(name: object, at: int | None, runs: Sequence[Any]) -> list[int]:
    """The indices of the runs that ``name`` designates (:func:`designates`), or, where it
    is a position ``at``, of the run there (none out of range)."""
    if at is not None:
        return [at] if 0 <= at < len(runs) else []
    return [i for i, run in enumerate(runs) if designates(str(name), run)]


def _ways(at: int | None, count: int) -> str:
    """How a run may be designated, positions (of ``count`` runs) named where ``at``, a
    position, was given."""
    if at is None:
        return "its run id or its file (path, file name or stem)"
    return f"its run id, its file (path, file name or stem) or its position (0 to {count - 1})"


@record
class RunKey:
    """What designates a run that is no longer at hand (:func:`find_run`): its name, its
    file (``source``: ``<...>`` for none) and its run ids."""

    name: str
    source: str = "<run>"
    runids: tuple[str, ...] = ()


def run_keys(table: Any) -> list[RunKey]:
    """The runs of ``table`` as :func:`find_run` designates them: an evaluation's (its
    ``runs``, with the ``runids`` and ``sources`` it knows), or a score matrix's systems
    (``systems``: names only)."""
    names = [str(name) for name in getattr(table, "runs", None) or table.systems]
    runids = getattr(table, "runids", ()) or ()
    sources = getattr(table, "sources", ()) or ()
    return [RunKey(name, sources[i] if len(sources) == len(names) else "<run>",
                   (runids[i],) if len(runids) == len(names) else ())
            for i, name in enumerate(names)]


def keys_of(data: object, names: Sequence[str]) -> list[RunKey]:
    """The runs named ``names`` (the systems of a score table read from ``data``) as
    :func:`find_run` designates them: by their files and run ids too where ``data`` is an
    evaluation or a score matrix that knows them (:func:`run_keys`), else by name (a wide
    DataFrame, an array)."""
    if isinstance(getattr(data, "sources", None), tuple):
        keys = run_keys(data)
        if [key.name for key in keys] == [str(name) for name in names]:
            return keys
    return [RunKey(str(name)) for name in names]


def by_run(mapping: Any, runs: Sequence[Any], what: str = "contributors"
           ) -> tuple[dict[str, Any], list[Any]]:
    """``mapping``'s values by the name of the run each key designates (:func:`find_run`:
    a run's name, run id or file), and the keys that designate no run. A key that
    designates several runs, or two keys one run, is a :class:`ParameterError`."""
    found: dict[str, Any] = {}
    unknown = []
    for key, value in mapping.items():
        matches = [run for run in runs if designates(str(key), run)]
        if not matches:
            unknown.append(key)
            continue
        name = find_run(str(key), matches if len(matches) == 1 else runs, what)
        if name in found:
            raise ParameterError(f"{what}: the run {name!r} is given twice (as {key!r})")
        found[name] = value
    return found, unknown


def find_names(wanted: Iterable[str], names: Sequence[str], what: str = "baseline"
               ) -> list[str]:
    """:func:`find_run` of each of ``wanted`` among runs known by their ``names`` alone
    (the systems of a score table)."""
    keys = [RunKey(str(name)) for name in names]
    return [find_run(name, keys, what) for name in wanted]


def find_in(name: str, table: Any, what: str = "baseline") -> str:
    """:func:`find_run` among the runs of an evaluation or the systems of a score matrix
    (:func:`run_keys`)."""
    return find_run(name, run_keys(table), what)


def designates(name: str, run: Any) -> bool:
    """Whether ``name`` is the run's name, its run id or its file (its path however spelt,
    its file name or its stem: :func:`file_stem`)."""
    if name == run.name or name in getattr(run, "runids", ()):
        return True
    if not has_file(run):
        return False
    source = run.source
    return name in (os.path.basename(source), file_stem(source)) \
        or os.path.abspath(name) == os.path.abspath(source) \
        or os.path.realpath(name) == os.path.realpath(source)


def _listed(runs: Sequence[Any], indices: Iterable[int], most: int = 10) -> str:
    """``'a' (a.run), 'b' (b.run), ...``: at most ``most`` runs, then how many in all."""
    chosen = list(indices)
    shown = ", ".join(f"{runs[i].name!r}" + (f" ({runs[i].source})" if has_file(runs[i])
                                              else "") for i in chosen[:most])
    return shown + (f", ... ({len(chosen)} in all)" if len(chosen) > most else "")
