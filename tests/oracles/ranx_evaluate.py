"""ranx's means, recorded: ``ranx.evaluate`` on the collection of ``tests/test_neighbours.py``
(its measures whose documented semantics are trec_eval's), written with the collection to
``tests/fixtures/ranx_evaluate.json``.

ranx compiles its measures through numba on first use (30 s of CPU on a fresh machine for
this one call); the test compares irscale with the recorded means, and asks ranx again only
where another release is installed or ``IRSCALE_REFRESH_ORACLES=1`` asks
(:mod:`tests.oracles.recorded`). Every mean is ranx's own, written by this module::

    PYTHONPATH=src python -m tests.oracles.ranx_evaluate
"""

from __future__ import annotations

import importlib.metadata
import json
from pathlib import Path
from typing import Any

#: The recorded means.
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "ranx_evaluate.json"


def means(qrels: Any, run: Any, names: list[str]) -> dict[str, float]:
    """``ranx.evaluate``'s mean of each of ``names`` (ranx's own ``Qrels`` and ``Run``)."""
    import ranx

    found = ranx.evaluate(qrels, run, names)
    return {name: float(found[name]) for name in names}


def record(qrels_rows: list, run_rows: list, names: list[str]) -> dict[str, Any]:
    """ranx's means of ``names`` on the collection (rows ``(topic, docno, value)``), with
    the collection and the ranx release."""
    import ranx

    from tests.test_neighbours import _dicts

    answer = means(ranx.Qrels(_dicts(qrels_rows)), ranx.Run(_dicts(run_rows), name="sys"),
                   names)
    return {"ranx": importlib.metadata.version("ranx"), "qrels": [list(r) for r in qrels_rows],
            "run": [list(r) for r in run_rows], "means": answer}


def load() -> dict[str, Any]:
    """The recorded means (:data:`FIXTURE`)."""
    with FIXTURE.open(encoding="utf-8") as handle:
        return json.load(handle)


def main() -> None:
    """Record ranx's means of the collection of ``tests/test_neighbours.py``."""
    from tests.test_neighbours import RANX_SAME, _collection

    answer = record(*_collection(low=0), list(RANX_SAME))
    FIXTURE.write_text(json.dumps(answer, indent=None, separators=(",", ":")) + "\n",
                       encoding="utf-8")
    print(f"{FIXTURE}: {len(answer['means'])} means of ranx {answer['ranx']}")


if __name__ == "__main__":
    main()
