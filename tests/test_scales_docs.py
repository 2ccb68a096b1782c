"""docs/scales.md: the Python examples run as written (from the repository root), and the
numbers the page states are what the code gives — the outputs written as comments in the
examples (``print(dcg.n_runs, dcg.n_distinct)  # 16 12``) and the counts and ranges of the
text. The expected numbers are read from the page (:mod:`tests.docs_numbers`)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from irscale.scales import scale
from irscale.scales.diagnostics import summarize

from .docs_numbers import blocks, numbers, paragraph
from .docs_numbers import read as read_doc

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "scales.md"
TEXT = read_doc("scales.md")
BLOCKS = blocks(TEXT)
#: An output comment: nothing but numbers, brackets and spaces (``# [ 9  9 12]``).
OUTPUT = re.compile(r"^[\[\]()\d\s.,-]+$")


@pytest.mark.parametrize("code", BLOCKS, ids=[f"example{i + 1}" for i in range(len(BLOCKS))])
def test_documented_example_runs(code, monkeypatch, capsys, tmp_path):
    """Every example runs where a user runs it: it makes its own data (no ../shared)."""
    assert "shared/data" not in code
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    exec(compile(code, str(DOC), "exec"), namespace)
    assert capsys.readouterr().out


def _documented_outputs(code: str) -> list[tuple[str, str]]:
    """``(expression, stated output)`` of the lines ``print(expression)  # output``."""
    found = []
    for line in code.splitlines():
        if line.startswith("print(") and "#" in line:
            source, stated = (part.strip() for part in line.split("#", 1))
            if OUTPUT.match(stated):
                found.append((source[len("print("):-1], stated))
    return found


def test_documented_outputs_of_example_12():
    """Ferrante et al. (2021), Example 12: ``16 12``, ``[ 9  9 12]``, ``[12 11 10  9  2  1]``, each
    computed by the call the page shows."""
    code = next(code for code in BLOCKS if "Example 12" in code)
    namespace: dict[str, object] = {}
    exec(compile(code, str(DOC), "exec"), namespace)
    outputs = _documented_outputs(code)
    assert len(outputs) == 3
    for expression, stated in outputs:
        value = eval(expression, namespace)
        text = " ".join(str(v) for v in value) if isinstance(value, tuple) else str(value)
        assert numbers(text) == numbers(stated), (expression, text, stated)


def test_documented_count_of_dcg_values():
    """"DCG_b02 at N = 30 has 24·8·4·2^20 = 805,306,368 distinct values"."""
    text = paragraph(TEXT, "distinct values. Within a")
    n, product, count = re.search(
        r"DCG_b02 at N = (\d+) has ([\d·^]+) = ([\d,]+) distinct values", text).groups()
    factors = [int(b) ** int(e) if "^" in f else int(f)
               for f in product.split("·") for b, _, e in [f.partition("^")]]
    assert math.prod(factors) == int(count.replace(",", ""))
    assert scale("DCG_b02", int(n)).n_distinct == int(count.replace(",", ""))


def test_documented_count_of_binary_rbp_values():
    """"binary RBP never ties, for any rational p (2^30 values at N = 30)"."""
    text = paragraph(TEXT, "binary RBP never ties")
    base, exponent, n = re.search(r"\((\d+)\^(\d+) values at N = (\d+)\)", text).groups()
    for name in ("RBP_p05", "RBP_p08"):
        assert scale(name, int(n)).n_distinct == int(base) ** int(exponent), name


def test_documented_unused_ranges():
    """"at N = 4 AP leaves the top quarter unused, RR the top half"."""
    text = paragraph(TEXT, "leaves the top")
    n = int(re.search(r"at N = (\d+) AP leaves", text)[1])
    shares = {"quarter": 0.25, "half": 0.5}
    stated = re.findall(r"(AP|RR)(?: leaves)? the top (quarter|half)", text)
    assert [measure for measure, _ in stated] == ["AP", "RR"]
    for measure, share in stated:
        summary = summarize(scale(measure, n))
        assert summary.largest_gap[1] == summary.max_value, measure  # the top of the range
        assert summary.largest_gap_fraction == shares[share], measure


def test_documented_transform_numbers(capsys):
    """The transform example's comments: P_R's range (φ from 1 to 11: the P values of runs
    of length 10) and the overall τ it prints (AP 0.9263, nDCG_b02 0.9684, the others 1)."""
    code = next(code for code in BLOCKS if "result.legend()" in code)
    exec(compile(code, str(DOC), "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    legend_comment = next(line for line in code.splitlines() if "result.legend()" in line)
    low, high = numbers(legend_comment.split("#", 1)[1])
    assert f"φ from {low} to {high}, ties unq" in printed[0]
    assert int(high) == 10 + 1  # P on runs of length 10: 0, 1/10, ..., 1
    tau = {line.split()[0]: line.split()[1] for line in printed[2:]}
    start = code.index("Ferrante, Ferro and Fuhr (2021), Table 2: overall τ (")
    comment = code[start:code.index("topic τ is 1")]
    stated = dict(re.findall(r"(\w+) (\d\.\d+)", " ".join(comment.replace("#", " ").split())))
    assert stated == {"AP": tau["AP"], "nDCG_b02": tau["nDCG_b02"]}
    assert {tau[m] for m in tau if m not in stated} == {"1.0"}
