"""The rule that names runs read from files (:mod:`irscale.io.naming`), as properties: the
names are distinct, each is a trailing part of its path without the extension, the
shortest that tells its collision group apart, and none depends on the order of the runs;
and the one resolver of every argument that names a run (:func:`find_run`), in the API and
on the command line."""

from __future__ import annotations

import os
import posixpath
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irscale
from irscale.cli.main import main
from irscale.errors import ParameterError
from irscale.io.naming import distinct_names, file_names, file_stem, find_run
from irscale.stats.risk import risk_table

FOLDERS = st.sampled_from(["a", "b", "runs", "bm25", "splade", "x"])
STEMS = st.sampled_from(["run", "bm25", "ql", "a"])
EXTENSIONS = st.sampled_from([".txt", ".run", ".run.gz", ""])


@st.composite
def paths(draw) -> list[str]:
    """Distinct absolute paths of run files whose paths without extension are distinct
    (two files that differ by their extension alone are told apart by their file names,
    and a file of the root folder has no folder to add: outside the property)."""
    found: dict[str, str] = {}
    for _ in range(draw(st.integers(1, 8))):
        folders = draw(st.lists(FOLDERS, min_size=1, max_size=3))
        stem = draw(STEMS)
        path = "/" + "/".join([*folders, stem + draw(EXTENSIONS)])
        found.setdefault(posixpath.join(*["/", *folders, stem]), path)
    return list(found.values())


def _without_extension(path: str) -> str:
    return posixpath.join(posixpath.dirname(path), file_stem(path))


@settings(max_examples=200, deadline=None)
@given(paths(), st.randoms(use_true_random=False))
def test_names_are_the_shortest_distinguishing_ends_of_the_paths(chosen, random):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        names = file_names(chosen)
        shuffled = list(chosen)
        random.shuffle(shuffled)
        again = dict(zip(shuffled, file_names(shuffled), strict=True))
    assert len(set(names)) == len(names)  # distinct
    assert [again[path] for path in chosen] == names  # the order of the runs plays no part
    stems = [file_stem(path) for path in chosen]
    for path, name, stem in zip(chosen, names, stems, strict=True):
        plain = _without_extension(path)
        assert plain.endswith("/" + name)  # a trailing part of its path, no extension
        group = [_without_extension(other) for other, s in zip(chosen, stems, strict=True)
                 if s == stem and other != path]
        if not group:
            assert name == stem  # alone: its file's name
            continue
        depth = name.count("/")
        assert depth >= 1  # in a group: longer than the shared name
        # it tells the group apart at its length (unless it is the whole path, which ends
        # another: a/run beside x/a/run), and no shorter end does
        tail = lambda text, k: "/".join(text.split("/")[-(k + 1):])  # noqa: E731
        assert plain == "/" + name or all(tail(other, depth) != name for other in group)
        for shorter in range(1, depth):
            assert any(tail(other, shorter) == tail(plain, shorter) for other in group)


def test_examples_of_the_rule():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a plain file-named call: no warning
        assert file_names(["runs/bm25.run.gz", "runs/ql.txt"]) == ["bm25", "ql"]
    with pytest.warns(UserWarning, match=r"2 runs share a name with another run \('run' ×2\)"):
        assert file_names(["/e/bm25/run.txt", "/e/splade/run.txt", "/e/x.txt"]) == \
            ["bm25/run", "splade/run", "x"]
    with pytest.warns(UserWarning):  # per group: each the shortest end of its own
        assert file_names(["/p/a/r.txt", "/q/a/r.txt", "/q/b/r.txt"]) == \
            ["p/a/r", "q/a/r", "b/r"]
    with pytest.warns(UserWarning):  # only the extension differs: the file names
        assert file_names(["/a/bm25.run", "/a/bm25.txt"]) == ["bm25.run", "bm25.txt"]
    with pytest.raises(ParameterError, match="given twice"):
        file_names(["/a/bm25.run", "/a/./bm25.run"])
    with pytest.raises(ParameterError, match="no file name to be named by"):
        distinct_names(["r", "r"], [None, None])
    # a run without a file keeps its name; the file's runs move aside
    assert distinct_names(["r", "r"], [None, "/x/r.txt"]) == ["r", "x/r"]


def test_clef_runs_are_named_by_their_file_stems(clef):
    files = sorted((clef / "runs").iterdir())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        runs = irscale.read_runs(files)
    assert [run.name for run in runs] == [os.path.splitext(f.name)[0] for f in files]
    assert len(files) == 16


# ------------------------------------------------- every argument that names a run
@pytest.fixture
def three(tmp_path):
    """Three runs: ``bm25.run.gz`` (run id ``okapi``), ``x/ql.txt`` and ``y/ql.txt`` (both
    run id ``shared``), and their qrels."""
    qrels = tmp_path / "qrels"
    qrels.write_text("".join(f"{t} 0 d{k} {k % 2}\n" for t in (1, 2, 3) for k in range(4)))

    def run(path, runid, shift):
        path.parent.mkdir(parents=True, exist_ok=True)
        lines = "".join(f"{t} Q0 d{(k + shift + t) % 4} {k + 1} {10 - k} {runid}\n"
                        for t in (1, 2, 3) for k in range(4))
        if path.suffix == ".gz":
            import gzip

            path.write_bytes(gzip.compress(lines.encode()))
        else:
            path.write_text(lines)
        return str(path)

    paths = [run(tmp_path / "bm25.run.gz", "okapi", 0), run(tmp_path / "x" / "ql.txt",
                                                             "shared", 1),
             run(tmp_path / "y" / "ql.txt", "shared", 2)]
    return str(qrels), paths


#: Each way of designating the first run, which is named ``bm25``.
DESIGNATIONS = ["bm25", "bm25.run.gz", "okapi"]


def _evaluation(three):
    qrels, paths = three
    with pytest.warns(UserWarning, match="share a name"):
        return irscale.evaluate(qrels, paths, ["P@2", "AP"])


def test_evaluation_knows_its_runs_by_name_file_path_and_run_id(three):
    ev = _evaluation(three)
    assert ev.runs == ("bm25", "x/ql", "y/ql")
    for name in [*DESIGNATIONS, three[1][0]]:
        table = ev.compare(name).to_frame()
        assert set(table["baseline"]) == {"bm25"}, name
        assert "bm25" in ev.format("latex", baseline=name)
    assert set(ev.compare(three[1][2]).to_frame()["baseline"]) == {"y/ql"}
    first = ev.to_ir_measures(run="bm25")
    for name in [*DESIGNATIONS, three[1][0]]:
        assert ev.to_ir_measures(run=name) == first, name
    assert ev.to_ir_measures(run=three[1][2]) == ev.to_ir_measures(run="y/ql")
    for name in [*DESIGNATIONS, three[1][0], 0]:  # equal= takes positions too
        model = irscale.meta.CopulaModel.fit(ev.to_matrix(), "AP", equal=(name, "y/ql"))
        assert model.equal == (0, 2), name
    matrix = ev.to_matrix()  # a score matrix knows its systems by name
    pairs = irscale.stats.pairwise_tests(matrix, "t", measure="AP", baseline="bm25")
    assert set(pairs.to_frame()["b"]) == {"bm25"}


#: The API's arguments that name runs, and whether the call knows the runs' files and run
#: ids (an evaluation) or their names alone (a score matrix).
CALLS = [
    (lambda ev, name: ev.compare(name), True),
    (lambda ev, name: ev.format("latex", baseline=name), True),
    (lambda ev, name: irscale.stats.baseline_comparison(ev, name), True),
    (lambda ev, name: irscale.stats.pairwise_tests(ev.to_matrix(), "t", measure="AP",
                                                   baseline=name), False),
    (lambda ev, name: irscale.stats.pairwise_tests(ev.to_matrix(), "t", measure="AP",
                                                   systems=["bm25", name]), False),
    (lambda ev, name: risk_table(ev.to_matrix().subset(measures=["AP"]), name), False),
    (lambda ev, name: ev.to_ir_measures(run=name), True),
    (lambda ev, name: irscale.meta.CopulaModel.fit(ev.to_matrix(), "AP",
                                                   equal=("x/ql", name)), True),
]


@pytest.mark.parametrize("call, files", CALLS)
def test_api_refuses_unknown_and_ambiguous_runs(three, call, files):
    ev = _evaluation(three)
    with pytest.raises(ParameterError, match=r"'nosuch' names no run: .*runs: 'bm25'"):
        call(ev, "nosuch")
    if files:
        with pytest.raises(ParameterError,
                           match="'ql' is ambiguous: it names the runs 'x/ql'"):
            call(ev, "ql")
        with pytest.raises(ParameterError, match="'shared' is ambiguous"):
            call(ev, "shared")


@pytest.mark.parametrize("name", [*DESIGNATIONS, "PATH"])
def test_cli_baseline_and_systems_take_any_designation(three, name, capsys):
    qrels, paths = three
    name = paths[0] if name == "PATH" else name
    assert main(["eval", qrels, *paths, "-m", "AP", "--format", "latex",
                 "--baseline", name]) == 0
    assert "bm25" in capsys.readouterr().out
    assert main(["compare", qrels, *paths, "-m", "AP", "--test", "t", "--baseline",
                 name]) == 0
    assert "bm25" in capsys.readouterr().out
    assert main(["compare", qrels, *paths, "-m", "AP", "--test", "t", "--systems",
                 f"{name},{paths[1]}"]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("option", ["--baseline", "--systems"])
@pytest.mark.parametrize("name, message", [
    ("nosuch", "'nosuch' names no run"),
    ("ql", "'ql' is ambiguous: it names the runs 'x/ql'"),
    ("shared", "'shared' is ambiguous"),
])
def test_cli_refuses_unknown_and_ambiguous_runs(three, option, name, message, capsys):
    qrels, paths = three
    value = f"bm25,{name}" if option == "--systems" else name
    assert main(["compare", qrels, *paths, "-m", "AP", "--test", "t", option, value]) == 2
    *warned, error = capsys.readouterr().err.splitlines()  # the naming warning, the error
    assert error.startswith("irscale: ") and message in error and "warning" not in error
    assert all("share a name" in line for line in warned)


def test_find_run_takes_a_resolved_path(three, tmp_path):
    _, paths = three
    link = tmp_path / "link.gz"
    link.symlink_to(paths[0])
    with pytest.warns(UserWarning):
        runs = irscale.read_runs(paths)
    assert find_run(str(link), runs) == "bm25"


def test_trec_eval_text_of_one_run_prints_its_run_id(clef, capsys):
    """``irscale eval`` of one run prints what trec_eval 9.0.8 printed (the official
    output, ``runid`` line included): the run id, not the run's name by file."""
    run = clef / "runs" / "CUNI_EN_Run2.txt"
    official = (clef / "trec_eval-9.0.8" / "CUNI_EN_Run2.official.txt").read_text()
    runid = [line for line in official.splitlines() if line.startswith("runid")]
    assert runid == ["runid                 \tall\tRun3"]
    assert main(["eval", "-m", "runid", "-m", "map", str(clef / "task2.qrels"), str(run)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == runid[0]
    assert out.splitlines()[1] in official.splitlines()


def test_plots_and_letters_take_the_runs_names_and_files(three):
    """``precision_recall(runs=)`` designates a run by its name, file or run id, a forest
    plot's and a letter display's pairs their systems by name, each refusing a name of
    none with the resolver's message."""
    import matplotlib

    matplotlib.use("Agg")
    from irscale.plots import precision_recall
    from irscale.stats.letters import compact_letters

    qrels, paths = three
    with pytest.warns(UserWarning, match="share a name"):
        ev = irscale.evaluate(qrels, paths, ["iprec_at_recall"])
    for name in [*DESIGNATIONS, paths[0]]:
        ax = precision_recall(ev, [name, "y/ql"])
        assert [text.get_text() for text in ax.get_legend().get_texts()] == ["bm25", "y/ql"]
    with pytest.raises(ParameterError, match="runs: 'ql' is ambiguous"):
        precision_recall(ev, ["ql"])
    assert compact_letters(["a", "b"], [("a", "b")]) == {"a": "a", "b": "b"}
    with pytest.raises(ParameterError, match=r"'c' names no run: .*runs: 'a', 'b'"):
        compact_letters(["a", "b"], [("a", "c")])
