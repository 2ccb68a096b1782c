"""``irscale eval -m ndeval --format ndeval`` against the ndeval program itself, byte for byte.

The oracle is ndeval 4.5's C source as the pyndeval source distribution ships it, compiled
here (an ``ndeval`` already on the PATH is used instead). Where neither can be had (no C
compiler, no package index) the tests skip, naming why; the differential tests against
pyndeval (``test_diversity_ndeval.py``) run regardless.

Every case is a generated collection: integer topics and subtopics, graded judgments, runs
whose topic fields are written as ndeval's runs may write them (``7``, ``07``, ``wt09-7``),
given ranks (ties in score), topics missing from either side; and the options ``-c``,
``-traditional``, ``-M``, ``-alpha``/``-beta`` and ``-baseline``/``-riskAlpha``.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import tarfile
import warnings
from pathlib import Path

import pytest

from irscale.cli.main import main

PYNDEVAL_SDIST = "pyndeval==0.0.8"


@pytest.fixture(scope="module")
def ndeval(tmp_path_factory) -> str:
    """The ndeval program: on the PATH, or compiled from pyndeval's source distribution."""
    found = shutil.which("ndeval")
    if found:
        return found
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler to build ndeval")
    folder = tmp_path_factory.mktemp("ndeval")
    try:  # the registry may be slow or out of reach: then there is nothing to compare with
        download = subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary",
             ":all:", "-d", str(folder), PYNDEVAL_SDIST], capture_output=True, text=True,
            timeout=120)
    except subprocess.TimeoutExpired:
        pytest.skip("pyndeval's source distribution could not be downloaded within 120 s")
    archives = list(folder.glob("pyndeval-*.tar.gz"))
    if download.returncode != 0 or not archives:
        pytest.skip(f"pyndeval's source distribution could not be downloaded: "
                    f"{download.stderr.strip()[-200:]}")
    with tarfile.open(archives[0]) as archive:
        member = next(m for m in archive.getmembers() if m.name.endswith("src/ndeval.c"))
        source = folder / "ndeval.c"
        source.write_bytes(archive.extractfile(member).read())
    binary = folder / "ndeval"
    build = subprocess.run([compiler, "-O2", "-o", str(binary), str(source), "-lm"],
                           capture_output=True, text=True, timeout=120)
    if build.returncode != 0:
        pytest.skip(f"ndeval.c did not compile: {build.stderr.strip()[-200:]}")
    return str(binary)


def _collection(seed: int, folder: Path) -> tuple[Path, list[Path]]:
    """Diversity qrels and two runs (one ranking each per topic, topic fields in ndeval's
    three spellings), written under ``folder``."""
    rnd = random.Random(seed)
    topics = rnd.sample(range(1, 60), rnd.randint(2, 6))
    docs = [f"clueweb-{i:04d}" for i in range(rnd.randint(8, 40))]
    lines = []
    for t in topics:
        subs = rnd.sample(range(1, 9), rnd.randint(1, 6))
        judged = {(rnd.choice(subs), rnd.choice(docs)) for _ in range(rnd.randint(1, 50))}
        lines += [f"{t} {s} {d} {rnd.choice([0, 0, 1, 1, 2, 3])}" for s, d in sorted(judged)]
    qrels = folder / f"qrels{seed}.txt"
    qrels.write_text("\n".join(lines) + "\n")
    runs = []
    for k in range(2):
        run_topics = rnd.sample([*topics, 77], rnd.randint(1, len(topics) + 1))
        rows = []
        for t in run_topics:
            field = rnd.choice([str(t), f"0{t}", f"wt09-{t}"])
            chosen = rnd.sample([*docs, "spam-1", "spam-2"], rnd.randint(1, len(docs)))
            ranks = rnd.sample(range(1, len(chosen) + 1), len(chosen))
            rows += [f"{field} Q0 {d} {r} {rnd.choice([1, 2, 2.5, 3])} sys{seed}-{k}"
                     for d, r in zip(chosen, ranks, strict=True)]
        run = folder / f"run{seed}-{k}.txt"
        run.write_text("\n".join(rows) + "\n")
        runs.append(run)
    return qrels, runs


def _irscale(args: list[str], capsys) -> str:
    """irscale's standard output (missing topics warn on standard error: not under test)."""
    capsys.readouterr()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        status = main(args)
    out = capsys.readouterr().out
    assert status == 0, out
    return out


CASES = [
    ([], []),
    (["-traditional"], ["-m", "ndeval(traditional=1)"]),
    (["-c"], ["-c"]),
    (["-M", "5"], ["-M", "5"]),
    (["-alpha", "0.3"], ["-m", "ndeval(alpha=0.3)"]),
    (["-beta", "0.8"], ["-m", "ndeval(beta=0.8)"]),
]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(("ndeval_args", "irscale_args"), CASES,
                         ids=["default", "traditional", "c", "M", "alpha", "beta"])
def test_same_bytes_as_ndeval(ndeval, tmp_path, capsys, seed, ndeval_args, irscale_args):
    qrels, runs = _collection(seed, tmp_path)
    expected = subprocess.run([ndeval, *ndeval_args, str(qrels), str(runs[0])],
                              capture_output=True, text=True, check=True).stdout
    measures = [] if "-m" in irscale_args else ["-m", "ndeval"]
    got = _irscale(["eval", *measures, *irscale_args, "--format", "ndeval", "--allow-empty",
                    str(qrels), str(runs[0])], capsys)
    assert got == expected


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("alpha", ["0", "1", "2.50"])
@pytest.mark.parametrize("complete", [False, True])
def test_baseline_same_bytes_as_ndeval(ndeval, tmp_path, capsys, seed, alpha, complete):
    qrels, runs = _collection(seed + 100, tmp_path)
    c = ["-c"] if complete else []
    expected = subprocess.run([ndeval, *c, "-baseline", str(runs[1]), "-riskAlpha", alpha,
                               str(qrels), str(runs[0])],
                              capture_output=True, text=True, check=True).stdout
    got = _irscale(["eval", "-m", "ndeval", *c, "--format", "ndeval", "--allow-empty",
                    "--baseline", str(runs[1]), "--risk-alpha", alpha,
                    str(qrels), str(runs[0])], capsys)
    assert got == expected
