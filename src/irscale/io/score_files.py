"""The score matrix of several score files (``irscale compare --scores``): each read by
:mod:`irscale.io.scores_csv`, put side by side in one :class:`~irscale.core.ScoreMatrix`.
(Apart from the reader, which ``ScoreMatrix.read_csv`` calls: the reader builds no
matrix.)"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from ..errors import AlignmentError, InputError
from .scores_csv import read_tables

if TYPE_CHECKING:  # pragma: no cover
    from ..core import ScoreMatrix


def read_score_files(paths: Sequence[object], topic_column: str | None = None) -> ScoreMatrix:
    """One score matrix of score files (``irscale compare --scores``): a score CSV gives one
    measure, named after the file; irscale's long results (``--format csv`` of ``eval``,
    ``session``, ``text``) one per measure they hold (:func:`read_tables`). Every table
    must hold the same systems and topics (an :class:`~irscale.errors.AlignmentError`
    otherwise), and no measure may come twice."""
    tables = [(path, table) for path in paths
              for table in read_tables(path, topic_column=topic_column)]
    first_path, first = tables[0]
    for path, table in tables[1:]:
        if set(table.systems) != set(first.systems):
            raise AlignmentError(
                f"{path}: systems differ from {first_path} "
                f"({sorted(set(table.systems) ^ set(first.systems))[:5]})"
            )
        if set(table.topics) != set(first.topics):
            only = sorted(set(table.topics) ^ set(first.topics))
            raise AlignmentError(
                f"{path}: topics differ from {first_path} ({len(only)} not in both: "
                f"{only[:5]})"
            )
    names = [table.measure for _, table in tables]
    if len(set(names)) != len(names):
        raise InputError(f"two score files give the same measure name: {names}")
    from ..core import ScoreMatrix  # (imports pandas: after the files are checked)

    matrices = [ScoreMatrix.from_array(t.values, topics=t.topics, systems=t.systems,
                                       measures=[t.measure]) for _, t in tables]
    values = np.stack(
        [m.subset(topics=first.topics, systems=first.systems).values[:, :, 0] for m in matrices],
        axis=2,
    )
    matrix = ScoreMatrix.from_array(values, topics=first.topics, systems=first.systems,
                                    measures=names)
    import pandas as pd

    from .user_tables import RowLines

    return replace(matrix, lines={t.measure: RowLines(t.source, pd.Index(t.topics), t.rows)
                                  for _, t in tables if t.rows is not None})
