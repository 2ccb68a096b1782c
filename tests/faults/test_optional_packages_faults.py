"""A command that needs an optional package that is missing is refused before any work
(``irscale.core.extras``, ``irscale.cli.requirements``): one line naming the package and
the extra that installs it, exit status 2, no file written.

Each row blocks the package in this process (``sys.modules[name] = None``: its import
raises ``ImportError`` and ``importlib.util.find_spec`` finds nothing) and names inputs that
do not exist: a command that read, listed or opened an input first would be refused for
the missing file, so the message naming the package proves that the refusal came first.
The rows that name existing inputs check that nothing was printed before the line (no
progress, no estimate) and that nothing was written. The same command lines with the
package installed go past the check (the last rows), and a scan of the source keeps every
optional import behind its one declaration.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from .conftest import err, ok, run_case

#: Inputs that do not exist: reading any of them first would be an error about the file.
NO_QRELS, NO_RUN = "missing.qrels", "missing.run"

#: (module blocked, case): the case's line must name the package, its extra and the value.
ROWS = [
    ("pyarrow", err("eval-parquet-run", ["eval", NO_QRELS, "missing.parquet"],
                    "missing.parquet, reading a Parquet file needs pyarrow: "
                    "pip install 'irscale[parquet]'")),
    ("pyarrow", err("report-parquet-run", ["report", NO_QRELS, NO_RUN, "runs.PQ"],
                    "runs.PQ, reading a Parquet file needs pyarrow", "'irscale[parquet]'")),
    ("pyarrow", err("compare-parquet-run", ["compare", NO_QRELS, NO_RUN, "b.parquet", "-m",
                                            "map"], "b.parquet", "needs pyarrow")),
    ("pyarrow", err("online-fit-parquet-log", ["online", "fit", "clicks.parquet", "--model",
                                               "pbm"],
                    "clicks.parquet, reading a Parquet file needs pyarrow")),
    ("pyarrow", err("eval-many-per-topic-out", ["eval-many", NO_QRELS, NO_RUN,
                                                "--per-topic-out", "out"],
                    "out, writing per-topic Parquet files needs pyarrow: "
                    "pip install 'irscale[parquet]'")),
    ("pyarrow", err("simulate-clicks-parquet", ["online", "simulate-clicks", NO_QRELS, NO_RUN,
                                                "--format", "parquet", "-o", "log.parquet"],
                    "log.parquet, writing a Parquet click log needs pyarrow")),
    ("pyarrow", err("scale-image-parquet", ["scale", "image", "-m", "AP", "-N", "6", "-o",
                                            "image.parquet"],
                    "image.parquet, writing a Parquet image needs pyarrow")),
    ("ir_datasets", err("eval-irds-qrels", ["eval", "irds:msmarco-passage/dev", NO_RUN],
                        "irds:msmarco-passage/dev, reading an ir_datasets dataset needs "
                        "ir_datasets: pip install 'irscale[irds]'")),
    ("ir_datasets", err("eval-irds-run", ["eval", NO_QRELS, "irds:vaswani"],
                        "irds:vaswani", "pip install 'irscale[irds]'")),
    ("pyvinecopulib", err("simulate-vine", ["meta", "simulate", "--scores", "missing.csv",
                                            "--model", "copula", "--copula", "vine"],
                          "--copula vine needs pyvinecopulib: pip install 'irscale[vines]'")),
    ("distributed", err("compare-scheduler", ["compare", NO_QRELS, NO_RUN, "b.run", "-m", "map",
                                              "--test", "randomization", "--scheduler",
                                              "local:2"],
                        "--scheduler local:2 needs Dask's distributed package: "
                        "pip install 'irscale[dask]'")),
    ("distributed", err("eval-many-scheduler", ["eval-many", NO_QRELS, NO_RUN, "--scheduler",
                                                "tcp://127.0.0.1:1"],
                        "--scheduler tcp://127.0.0.1:1 needs", "'irscale[dask]'")),
    ("nltk", err("rouge-stem", ["text", "rouge", "missing.refs", "missing.texts", "--stem"],
                 "--stem needs nltk: pip install 'irscale[text]'")),
    ("regex", err("bleu-intl", ["text", "bleu", "missing.refs", "missing.texts", "-m",
                                "BLEU(tokenize = intl)"],
                  "BLEU(tokenize = intl) needs regex: pip install 'irscale[text]'")),
    # existing inputs: refused before any progress, estimate or output
    ("pyarrow", err("report-existing-inputs", ["report", "qrels.txt", "a.run", "b.run",
                                               "c.parquet", "-o", "report.html"],
                    "c.parquet, reading a Parquet file needs pyarrow")),
]


@pytest.mark.parametrize("module,case", [pytest.param(m, c.values[0], id=c.id)
                                         for m, c in ROWS])
def test_missing_package_is_refused_before_any_work(module, case, ws, run_cli, monkeypatch):
    monkeypatch.setitem(sys.modules, module, None)  # its import raises ImportError
    result = run_case(case, ws, run_cli)
    assert result.err.count("\n") == 1, "lines before the refusal" + result.describe()
    assert result.out == ""


#: The same options with what they need installed, or values that need nothing: no
#: refusal (the command then reads its inputs: a missing file is the error).
NOT_NEEDED = [
    ("pyarrow", err("eval-text-run-without-pyarrow", ["eval", NO_QRELS, NO_RUN], NO_QRELS)),
    ("distributed", err("compare-local-without-dask", [
        "compare", NO_QRELS, NO_RUN, "b.run", "-m", "map", "--test", "randomization",
        "--scheduler", "local"], NO_QRELS)),
    ("regex", ok("bleu-13a-without-regex", ["text", "bleu", "refs.tsv", "texts.tsv", "-m",
                                            "BLEU(tokenize=13a)"],
                 files={"refs.tsv": "1\tr1\tthe cat sat\n",
                        "texts.tsv": "1\trun\tthe cat sat\n"})),
    ("pyvinecopulib", err("simulate-gaussian-without-vines", [
        "meta", "simulate", "--scores", "missing.csv", "--model", "copula", "--copula",
        "gaussian"], "missing.csv")),
]


@pytest.mark.parametrize("module,case", [pytest.param(m, c.values[0], id=c.id)
                                         for m, c in NOT_NEEDED])
def test_a_value_that_needs_nothing_is_not_refused(module, case, ws, run_cli, monkeypatch):
    monkeypatch.setitem(sys.modules, module, None)
    result = run_case(case, ws, run_cli)
    assert "pip install" not in result.err, result.describe()


#: Rows run again with their package installed (rows that would reach the network or start
#: a cluster are left out).
INSTALLED = {"eval-parquet-run": "pyarrow", "simulate-vine": "pyvinecopulib",
             "rouge-stem": "nltk", "bleu-intl": "regex"}


@pytest.mark.parametrize("case", [c.values[0] for _, c in ROWS if c.id in INSTALLED],
                         ids=lambda case: case.id)
def test_with_the_package_installed_the_check_passes(case, ws, run_cli):
    """The rows' command lines with the package there: refused for the missing input,
    never for the package."""
    pytest.importorskip(INSTALLED[case.id])
    result = run_cli(list(case.argv))
    assert result.status == 2 and "pip install" not in result.err, result.describe()
    assert "missing." in result.err, result.describe()


#: The optional packages: imported through their declaration only (irscale.core.extras).
OPTIONAL = {"pyarrow", "ir_datasets", "pyvinecopulib", "distributed", "dask", "nltk", "regex",
            "matplotlib"}
SOURCE = Path(__file__).resolve().parents[2] / "src" / "irscale"


def test_no_optional_import_is_guarded_by_hand():
    """No ``try: import OPTIONAL ... except ImportError`` outside ``irscale.core.extras``:
    every optional package is loaded by :meth:`Extra.load`, whose one message names the
    extra (matplotlib is a dependency: it needs no guard at all)."""
    found = []
    for path in SOURCE.rglob("*.py"):
        if path.name == "extras.py" and path.parent.name == "core":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Try) or not any(
                    isinstance(h.type, ast.Name) and h.type.id in ("ImportError",
                                                                  "ModuleNotFoundError")
                    for h in node.handlers):
                continue
            for inner in (n for statement in node.body for n in ast.walk(statement)):
                names = ([a.name for a in inner.names] if isinstance(inner, ast.Import) else
                         [inner.module or ""] if isinstance(inner, ast.ImportFrom) else [])
                if any(name.split(".")[0] in OPTIONAL for name in names):
                    found.append(f"{path.relative_to(SOURCE)}:{inner.lineno}")
    assert not found, f"optional imports guarded by hand: {found}"
