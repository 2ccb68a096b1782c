"""ir_datasets as a source of qrels and runs: ``irds:DATASET_ID``.

``read_qrels("irds:msmarco-passage/dev/small")`` (and so ``irscale.evaluate`` and
``irscale eval irds:msmarco-passage/dev/small RUN``) reads the qrels of an `ir_datasets
<https://ir-datasets.com>`_ dataset; ``read_run("irds:ID")`` reads its scored documents (the
dataset's own baseline run, e.g. MS MARCO's BM25 top 1000), named after the dataset. A
dataset object (``ir_datasets.load(ID)``) can be passed to :func:`irscale.evaluate` as qrels
too. ir_datasets is an optional dependency (``pip install 'irscale[irds]'``).

The judgments come from ir_datasets' ``qrels_iter()`` (``TrecQrel(query_id, doc_id,
relevance, iteration)`` namedtuples), handed by :func:`dataset_rows` to
:mod:`irscale.io.sources`, which reads them as any list of namedtuples
(:func:`irscale.io.memory.qrels_from_records`): the same qrels as ``read_qrels`` gives on the
dataset's qrels file. ir_datasets fetches a dataset's files on first use, as it always does
(into ``IR_DATASETS_HOME``, default ``~/.ir_datasets``); when they are not there and cannot
be fetched (no network, a dataset that needs a manual download), the error says that the
dataset is not available locally, with ir_datasets' own reason.
"""

from __future__ import annotations

from ..core.extras import IR_DATASETS
from ..core.extras import IRDS_PREFIX as PREFIX
from ..core.extras import irds_name as is_irds
from ..errors import InputError

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any


def load_dataset(spec: str) -> Any:
    """The ir_datasets dataset of ``irds:ID``.

    Raises
    ------
    InputError
        ir_datasets not installed, an empty id, or an id ir_datasets does not know (with
        the closest known ids)."""
    dataset_id = spec[len(PREFIX):] if is_irds(spec) else spec
    if not dataset_id:
        raise InputError(f"{spec!r}: name an ir_datasets dataset after {PREFIX!r} "
                         f"(e.g. {PREFIX}msmarco-passage/dev/small)")
    ir_datasets = IR_DATASETS.load(f"reading {spec!r}", InputError)
    try:
        return ir_datasets.load(dataset_id)
    except KeyError:
        import difflib  # here: only a mistyped id needs it

        close = difflib.get_close_matches(dataset_id, list(ir_datasets.registry), n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise InputError(f"unknown ir_datasets dataset {dataset_id!r}{hint}; the ids are "
                         "listed at https://ir-datasets.com") from None


def _provides(dataset: Any) -> str:
    kinds = [k for k in ("docs", "queries", "qrels", "scoreddocs", "docpairs", "qlogs")
             if getattr(dataset, f"has_{k}", lambda: False)()]
    return ", ".join(kinds) or "nothing"


def _dataset_source(dataset: Any) -> str:
    dataset_id = getattr(dataset, "dataset_id", None)
    return f"{PREFIX}{dataset_id()}" if callable(dataset_id) else "<ir_datasets dataset>"


def _rows(dataset: Any, kind: str, source: str) -> list:
    """Every namedtuple of ``dataset.{kind}_iter()``; ir_datasets' failures to find or fetch
    the files as :class:`InputError` (not available locally)."""
    if not getattr(dataset, f"has_{kind}", lambda: False)():
        what = "qrels" if kind == "qrels" else "scored documents (scoreddocs, a run)"
        raise InputError(f"the ir_datasets dataset has no {what}; it provides "
                         f"{_provides(dataset)}", source=source)
    try:
        return list(getattr(dataset, f"{kind}_iter")())
    except (OSError, RuntimeError) as error:
        reason = f"{type(error).__name__}: {error}".rstrip(": ")
        # FileNotFoundError (a manual download), requests' errors (no network), a checksum
        # mismatch, 'All download sources failed': the files are not there
        if isinstance(error, OSError) or "download" in str(error).lower():
            raise InputError(f"the dataset's {kind} are not available locally and "
                             f"ir_datasets could not fetch them ({reason})",
                             source=source) from None
        raise InputError(f"ir_datasets could not read the dataset's {kind} ({reason})",
                         source=source) from None


def dataset_rows(dataset: Any, kind: str, source: str | None = None) -> tuple[list, str]:
    """Every namedtuple of ``dataset``'s ``qrels`` or ``scoreddocs`` (``kind``), and the
    name of the source in messages: ``source`` (``irds:ID``), or the dataset's id."""
    source = source or _dataset_source(dataset)
    return _rows(dataset, kind, source), source


__all__ = ["PREFIX", "dataset_rows", "is_irds", "load_dataset"]
