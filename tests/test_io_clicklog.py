"""Click logs (:func:`irscale.io.clicklog.read_click_log`): a rank given twice in a session,
and a document shown twice in it, are found (with numpy, pandas not imported) on the line
a walk of the lines in file order with sets of keys finds first."""

from __future__ import annotations

import numpy as np
import pytest

from irscale.errors import DuplicateError, InputError
from irscale.io.clicklog import read_click_log


def _oracle(rows: list[list[str]]) -> tuple[str, int] | None:
    """The first repeated (session, rank), else the first repeated (session, document):
    its kind and 1-based line."""
    for kind, field in (("rank", 2), ("document", 3)):
        seen: set[tuple[str, str]] = set()
        for line, fields in enumerate(rows, 1):
            key = (fields[0], fields[field])
            if key in seen:
                return kind, line
            seen.add(key)
    return None


@pytest.mark.parametrize("seed", range(60))
def test_repeats_found_on_the_first_line(seed):
    rng = np.random.default_rng(seed)
    rows = []
    for session in range(int(rng.integers(1, 5))):
        ranks = list(range(1, int(rng.integers(1, 5)) + 1))
        if rng.random() < 0.2:
            ranks[-1] = ranks[0]
        rows += [[f"s{session}", "q", str(rank), f"d{int(rng.integers(0, 4))}", "0"]
                 for rank in ranks]
    rng.shuffle(rows)
    data = "".join(" ".join(fields) + "\n" for fields in rows).encode()
    expected = _oracle(rows)
    if expected is None:
        try:
            read_click_log(data)
        except DuplicateError as error:  # pragma: no cover (the assertion says why)
            raise AssertionError(f"no repeat, yet {error}") from None
        except InputError:
            pass  # a gap in a session's ranks
        return
    with pytest.raises(DuplicateError) as caught:
        read_click_log(data)
    kind, line = expected
    assert caught.value.line == line
    assert ("rank given twice" if kind == "rank" else "shown twice") in str(caught.value)


def test_matrices_beyond_the_memory_limit_are_refused_from_the_declared_costs(monkeypatch):
    """The (sessions × SERP size) matrices beyond the memory limit: refused before they are
    made, the change asked for read from the declared cost of what sizes them
    (``--serp-size`` where it is given, the log's sessions otherwise)."""
    from irscale.core import budget
    from irscale.errors import ParameterError

    monkeypatch.setattr(budget, "default_max_memory", lambda: 1 << 20)
    log = b"s1 q 1 a 1\ns2 q 1 b 0\n"
    with pytest.raises(ParameterError, match=r"2 sessions × a SERP size of 100,000, "
                       r"about 12\.2 MiB: .*\(fewer --serp-size\)"):
        read_click_log(log, serp_size=100_000)
    with pytest.raises(ParameterError, match=r"2 sessions × the longest session's 100,000 "
                       r"ranks .*split or drop the longest.*\(fewer sessions\)"):
        read_click_log(b"s1 q 1 a 1\ns2 q 100000 b 0\n")
