"""The columns of an evaluation, in output order: one rule for the evaluation of judged
rankings (:func:`irscale.measures.compute.compute_requests`) and its numpy-free plan
(:func:`irscale.measures.plan.plan_trec`).

Requests spelled the trec_eval way come first, in the order of trec_eval's measure table
(``-m all_trec`` prints them so, whatever the order of ``-m``); the others follow in the
order asked (:func:`ordered_requests`). A trec-spelt request's outputs keep trec_eval's
names; another spelling labels its one output as requested (``P@10``); a label met before
is skipped; a family that yields no output but prints the run's name gets one column
(:func:`output_labels`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import MeasureError
from .base import Family, MeasureRequest, table_order
from .engine_calls import NO_OUTPUT
from .names import is_trec_request


def ordered_requests(requests: Sequence[MeasureRequest], compat: int = 9
                     ) -> list[MeasureRequest]:
    """``requests`` in output order: the trec-spelt ones in trec_eval's table order
    (``compat`` chooses the table), then the others as asked."""
    trec_style = [r for r in requests if is_trec_request(r)]
    other = [r for r in requests if not is_trec_request(r)]
    trec_style.sort(key=lambda r: table_order(r.family, compat))
    return trec_style + other


def output_labels(request: MeasureRequest, family: Family, names: Sequence[str],
                  seen: set[str]) -> list[tuple[int, str]]:
    """``(output index, label)`` of the new columns of ``request`` whose ``family`` yields
    the outputs ``names``; ``seen`` (the labels of the columns before) grows with them.
    A family without output that aggregates ``runid`` gets the index :data:`NO_OUTPUT`."""
    rename = not is_trec_request(request)
    if rename and len(names) != 1:
        raise MeasureError(f"measure {request.requested!r} yields {len(names)} values")
    columns = []
    for index, name in enumerate(names):
        label = request.requested if rename else name
        if label not in seen:
            seen.add(label)
            columns.append((index, label))
    if not names and family.aggregate == "runid" and family.name not in seen:
        seen.add(family.name)
        columns.append((NO_OUTPUT, family.name))
    return columns
