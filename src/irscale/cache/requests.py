"""The command line's own entries of the results cache: ``irscale eval ... --cache DIR``
answered from the command line as typed, before its parser, its options, the measure
catalogue or the evaluation contexts are loaded (docs/evaluation.md, "The results cache").

A cached evaluation's key (:mod:`irscale.cache.evaluations`) holds the checked options and
the measures as the catalogue resolves them: computing it loads what an evaluation loads
but the judging, and a hit cost as much as the evaluation of a TREC track run. So the
command line keeps a second entry, its *reply*, under the key of its request:

* the request's key (:func:`request_key`): irscale's version and every word of the command
  line, in order (what argparse reads: nothing else chooses an option or a file); no word
  is interpreted, so two spellings of one request are two replies (the second a hit of the
  evaluation's own entry, as without replies);
* the reply (kind ``"reply"``, framed and checked as every entry: :mod:`.frames`): the
  files of the evaluation's key with the digest of their bytes that went into it and their
  identity when it was settled (:func:`irscale.io.regular_files.settled_identity`), what
  the command wrote on standard error (the evaluation's warnings, a dataset's note) and the
  bytes it printed.

A reply is used only when each of its files is still a regular file with the same
identity (no write since it was hashed) or, without one, the same digest (hashed again, as
the evaluation's key hashes it): a changed input is a miss, never a wrong answer, and so
are another version, an altered entry (a warning, as for any entry) and a request that
differs by one character. It is written by a command whose printed text
was a cache entry's (:func:`irscale.cache.calls.cached` with ``text``: trec_eval's
measures of TREC files, :func:`irscale.evaluation.trec_text.trec_eval_text`), which
succeeded and printed to standard output; whose files are words of the command line (a
folder or a glob pattern, whose files may change, is never replied to); none of which
changed while it ran; and whose standard error held no progress bar. The cache's own
warnings (an entry not used, not written) are not part of a reply.

This module imports only :mod:`os` and :mod:`sys` when loaded; a hit loads the cache's
folder and frames (:mod:`.store`, :mod:`.frames`), the engine's version and the one writer
of standard output (:mod:`irscale.io.files`), nothing else.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover
    import argparse
    from collections.abc import Sequence
    from typing import Any

    from .keys import FileStamps
    from .store import CacheDir

#: The option that names the cache folder, as the command line spells it.
OPTION = "--cache"
#: The kind of a reply's entry (:mod:`.frames`).
REPLY = "reply"
#: The commands answered from a reply.
COMMANDS = ("eval",)


def cache_folder(argv: Sequence[str]) -> str | None:
    """The folder that ``--cache DIR`` (or ``--cache=DIR``) names in ``argv``, given once;
    ``None`` otherwise (no reply is looked for: the command runs as typed)."""
    found = []
    for index, word in enumerate(argv):
        if word == OPTION and index + 1 < len(argv):
            found.append(argv[index + 1])
        elif word.startswith(OPTION + "="):
            found.append(word[len(OPTION) + 1:])
    return found[0] if len(found) == 1 and found[0] else None


def request_key(version: str, argv: Sequence[str]) -> str:
    """The key of the reply to the command line ``argv`` (module documentation): the
    BLAKE2b digest (32 bytes, :func:`irscale.cache.frames.digest`: the module that reads
    the reply) of irscale's version and of its words, each preceded by its length in bytes
    (no two command lines write the same bytes), as text items of
    :class:`~irscale.cache.keys.KeyWriter` are (whose module a hit does not load)."""
    from .frames import digest

    hashed = digest()
    for item in ("irscale command line", version, *argv):
        data = item.encode("utf-8", "surrogatepass")
        hashed.update(b"S" + len(data).to_bytes(8, "little") + data)
    return str(hashed.hexdigest())


def _version() -> str:
    """irscale's version (the engine's: :mod:`irscale.core.version`)."""
    from ..core.version import __version__

    return __version__


class Request:
    """A command line that a reply may answer: its words and the cache folder they name.
    :meth:`reply` answers it from the folder; otherwise the command runs :meth:`recording`
    and :meth:`store` keeps its reply."""

    def __init__(self, argv: Sequence[str], folder: str) -> None:
        self.argv = list(argv)
        self.folder = folder
        self._key: str | None = None
        self._dir: CacheDir | None = None
        #: What the command's cached text was (:func:`offer`): its folder, files and text.
        self._offers: list[tuple[str, FileStamps, bytes]] = []
        self._stderr: list[str] = []
        self._muted = 0

    @classmethod
    def of(cls, argv: Sequence[str]) -> Request | None:
        """The request of ``argv`` when a reply may answer it (one of :data:`COMMANDS`
        with ``--cache DIR``), else ``None``."""
        command = next((word for word in argv if not word.startswith("-")), None)
        folder = cache_folder(argv) if command in COMMANDS else None
        return None if folder is None else cls(argv, folder)

    @property
    def key(self) -> str:
        if self._key is None:
            self._key = request_key(_version(), self.argv)
        return self._key

    def _folder(self) -> CacheDir:
        if self._dir is None:
            from .store import CacheDir

            self._dir = CacheDir.read_only(self.folder)
        return self._dir

    def reply(self) -> int | None:
        """Write the reply to this request (its standard error, then its text) and return
        the exit status, 0; ``None`` when there is none to trust (module documentation:
        an entry that is not one warns, as any entry of the cache)."""
        if not os.path.isdir(self.folder):
            return None
        found = self._folder().get(self.key, _version(), decode_reply)
        if found is None:
            return None
        from ..core import reads
        from ..io.files import STDIO, atomic_output

        files, stderr, text = found[0]
        with reads.call():  # its inputs noted: standard output is never one of them
            if not _unchanged(files):
                return None
            if stderr:  # its lines as message_line made them, escaped again (an entry is
                # a file: a line in it that a terminal would act on is shown, not obeyed)
                from ..errors import printable

                for line in stderr.splitlines():
                    sys.stderr.write(printable(line))
                    sys.stderr.write("\n")
                sys.stderr.flush()
            with atomic_output(STDIO, "wb") as stream:  # the one writer, as the command's
                stream.write(text)
        return 0

    def recording(self) -> _Recording:
        """The command's run: its cached text offered (:func:`offer`) and its standard
        error recorded, but the cache's own warnings."""
        return _Recording(self)

    def store(self, args: argparse.Namespace, done: Any, status: int) -> None:
        """Keep the reply of the command that ran (its ``args``, the ``done`` it returned
        and its exit ``status``) when it may answer the request again (module
        documentation)."""
        from ..io.files import is_stdio

        if status != 0 or len(self._offers) != 1 or not is_stdio(getattr(args, "output", None)):
            return
        folder, stamps, text = self._offers[0]
        stderr = "".join(self._stderr)
        if folder != self.folder or done is not text or "\r" in stderr:
            return
        if not _named_files(self.argv, self.folder, stamps.digests) or not stamps.unchanged() \
                or not _settled(stamps.identities):
            return
        from .store import CacheDir

        if self._dir is None:  # (the folder was checked by the evaluation's cache)
            self._dir = CacheDir.read_only(self.folder)
        files = [(path, digest, stamps.identities.get(path))
                 for path, digest in stamps.digests.items()]
        self._dir.put(self.key, _version(), (files, stderr, text), [], encode_reply)


class _Recording:
    """:meth:`Request.recording`: the request made the one that :func:`offer` reaches,
    standard error teed into it while the cache's warnings are muted."""

    def __init__(self, request: Request) -> None:
        self.request = request

    def __enter__(self) -> Request:
        import warnings

        global _ACTIVE
        self._stderr = sys.stderr
        self._showwarning = warnings.showwarning
        sys.stderr = _Tee(self._stderr, self.request)
        warnings.showwarning = self._show
        _ACTIVE = self.request
        return self.request

    def _show(self, message: Any, category: type[Warning], *args: Any, **kwargs: Any) -> None:
        from ..errors import CacheEntryWarning, CacheWriteWarning

        muted = issubclass(category, (CacheEntryWarning, CacheWriteWarning))
        self.request._muted += muted
        try:
            self._showwarning(message, category, *args, **kwargs)
        finally:
            self.request._muted -= muted

    def __exit__(self, *exc: object) -> None:
        import warnings

        global _ACTIVE
        _ACTIVE = None
        if warnings.showwarning == self._show:
            warnings.showwarning = self._showwarning
        sys.stderr = self._stderr


class _Tee:
    """Standard error, what is written recorded in the request (but while muted)."""

    def __init__(self, stream: Any, request: Request) -> None:
        self._stream = stream
        self._request = request

    def write(self, text: str) -> int:
        if not self._request._muted:
            self._request._stderr.append(text)
        return int(self._stream.write(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


#: The request whose command runs (:meth:`Request.recording`).
_ACTIVE: Request | None = None


def offer(folder: str | os.PathLike[str], stamps: FileStamps, text: bytes) -> None:
    """A cached text (:func:`irscale.cache.calls.cached`), read or made, for the reply of
    the command that runs, if any: its folder, its key's files and the text."""
    if _ACTIVE is not None and isinstance(text, bytes):
        _ACTIVE._offers.append((os.fspath(folder), stamps, text))


def _named_files(argv: Sequence[str], folder: str, digests: dict[str, bytes]) -> bool:
    """Whether every file of the key is a word of the command line, and no word but the
    cache ``folder`` names a folder or a glob pattern (whose files may change: module
    documentation)."""
    from ..io.sources import expands

    words = set(argv)
    return bool(digests) and all(path in words for path in digests) and not any(
        expands(word) for word in words - {folder, f"{OPTION}={folder}"})


#: A file of a reply: its path, the digest of its bytes and its settled identity (or None).
File = tuple[str, bytes, "tuple[int, ...] | None"]


def _settled(identities: dict[str, tuple[int, ...] | None]) -> bool:
    """Whether no file whose identity was settled when it was hashed has changed since
    (its status changed: a write, even of the same size at the same modification time)."""
    import time

    from ..io.regular_files import settled_identity

    now = time.time_ns()
    for path, identity in identities.items():
        try:
            if identity is not None and settled_identity(os.stat(path), now) != identity:
                return False
        except OSError:
            return False
    return True


def _unchanged(files: list[File]) -> bool:
    """Whether every file is a regular file with the identity it had when its digest was
    taken, settled (:func:`~irscale.io.regular_files.settled_identity`: no write since),
    or else whose bytes have its digest (hashed as the evaluation's key hashes them); each
    noted as read by the running call (:mod:`irscale.core.reads`: the output is refused on
    one, as the command's is)."""
    import stat
    import time

    from ..core import reads
    from ..io.regular_files import file_digest, settled_identity

    now = time.time_ns()
    for path, digest, identity in files:
        try:
            info = os.stat(path)
            if not stat.S_ISREG(info.st_mode):
                return False
            if (identity is None or settled_identity(info, now) != identity) \
                    and file_digest(path) != digest:
                return False
        except OSError:
            return False
        reads.note(info)
    return True


def encode_reply(key: str, version: str, reply: tuple[list[File], str, bytes],
                 warned: list[tuple[str, str]]) -> bytes:
    """The bytes of a reply's entry: its files (path, digest, identity) and standard error
    in the header, its text the data."""
    from .frames import frame

    files, stderr, text = reply
    return frame(key, version, REPLY, warned, {
        "files": [[path, digest.hex(), None if identity is None else list(identity)]
                  for path, digest, identity in files],
        "stderr": stderr}, [text])


def decode_reply(data: bytes, key: str, version: str
                 ) -> tuple[tuple[list[File], str, bytes], list[tuple[str, str]]]:
    """The files (with their digests and identities), standard error and text of a reply
    written by :func:`encode_reply` for ``key`` and ``version``;
    :class:`~.frames.BadEntry` otherwise."""
    from .frames import BadEntry, unframe

    header, text, warned = unframe(data, key, version, REPLY)
    try:
        files: list[File] = [
            (str(path), bytes.fromhex(digest),
             None if identity is None else tuple(int(item) for item in identity))
            for path, digest, identity in header["files"]]
        stderr = header["stderr"]
        if not isinstance(stderr, str) or not files:
            raise TypeError("its standard error is not text, or it names no file")
    except (KeyError, TypeError, ValueError) as error:
        raise BadEntry(f"malformed header ({error})") from None
    return (files, stderr, bytes(text)), warned


__all__ = ["COMMANDS", "OPTION", "REPLY", "Request", "cache_folder", "offer", "request_key"]
