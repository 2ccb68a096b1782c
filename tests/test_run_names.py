"""A run read from a file is named by its file (its name without extension), the runs that
share that name by the shortest end of their paths that tells them apart, with one short
warning; ``names="runid"`` gives run ids (files where run ids collide);
``read_runs(names=...)`` and ``--names file|runid|a,b,c`` on eval, compare, meta and scale.
Real case: two CLEF eHealth 2016 teams reuse one run id across their runs (KDEIR,
WHUIRGroup), others name runs unlike their files (CUNI_EN_Run2.txt is 'Run3')."""

from __future__ import annotations

import shutil
import warnings

import pytest

import irscale
from irscale.cli.main import main
from irscale.errors import ParameterError
from irscale.io.naming import file_stem, find_run, name_runs, parse_names
from irscale.io.sources import as_runs


def write(path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return str(path)


def names_of(runs) -> list[str]:
    return [run.name for run in runs]


def test_file_stem():
    assert file_stem("runs/bm25.run.gz") == "bm25"
    assert file_stem("bm25.txt") == "bm25"
    assert file_stem("input.ql") == "input"
    assert file_stem("noext") == "noext"
    assert file_stem("a/.hidden") == ".hidden"


def test_shared_run_id_names_those_runs_by_file_stem_with_a_warning(tmp_path):
    """The runs that share a run id are named after their files; a run whose id no other
    run has keeps it, whatever runs come with it (it was renamed too, "so that no table
    mixes run ids and file names", which made its name depend on its company)."""
    a = write(tmp_path / "bm25.run.gz", "1 Q0 d 1 1 same\n")
    b = write(tmp_path / "ql.txt", "1 Q0 d 1 1 same\n")
    c = write(tmp_path / "c.txt", "1 Q0 d 1 1 other\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # by file (the default): no warning
        assert names_of(irscale.read_runs([a, b, c])) == ["bm25", "ql", "c"]
    with pytest.warns(UserWarning) as caught:
        runs = irscale.read_runs([a, b, c], names="runid")
    assert names_of(runs) == ["bm25", "ql", "other"]
    assert len(caught) == 1
    message = str(caught[0].message)
    assert message.startswith("2 runs share a run id with another run ('same' ×2): each is "
                              "named after its file: ")
    assert f"'bm25' ({a})" in message and f"'ql' ({b})" in message and "'other'" not in message
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # distinct ids: no warning, trec_eval's names
        assert names_of(irscale.read_runs([a, c], names="runid")) == ["same", "other"]
        assert names_of(irscale.read_runs([c], names="runid")) == ["other"]


def test_the_warning_names_two_runs_whatever_their_number(tmp_path):
    """Many runs of one run id (a toolkit's default tag): one warning of the count, the
    first two shared ids and the first two runs, not every path."""
    paths = [write(tmp_path / f"run{k:02d}.txt", f"1 Q0 d 1 1 {'tag' if k < 30 else k % 3}\n")
             for k in range(40)]
    with pytest.warns(UserWarning) as caught:
        runs = irscale.read_runs(paths, names="runid")
    assert names_of(runs)[:30] == [f"run{k:02d}" for k in range(30)]
    assert names_of(runs)[30:33] == ["run30", "run31", "run32"]  # ids 0, 1, 2 shared too
    assert len(caught) == 1
    message = str(caught[0].message)
    assert message.startswith("40 runs share a run id with another run ('tag' ×30, '0' ×4, "
                              "...): ")
    assert paths[0] in message and paths[1] in message and paths[2] not in message
    assert len(message) < 300 + 2 * len(paths[0])


def test_colliding_stems_fall_back_to_longer_forms(tmp_path):
    # TREC's input.<runid> files: same stem 'input', told apart by their file names
    a = write(tmp_path / "input.bm25", "1 Q0 d 1 1 same\n")
    b = write(tmp_path / "input.ql", "1 Q0 d 1 1 same\n")
    with pytest.warns(UserWarning, match="share a run id"):
        assert names_of(irscale.read_runs([a, b], names="runid")) == ["input.bm25", "input.ql"]
    with pytest.warns(UserWarning, match="share a name"):
        assert names_of(irscale.read_runs([a, b])) == ["input.bm25", "input.ql"]
    # same file name in two folders: the folder is added
    c = write(tmp_path / "x" / "k.txt", "1 Q0 d 1 1 same\n")
    d = write(tmp_path / "y" / "k.txt", "1 Q0 d 1 1 same\n")
    with pytest.warns(UserWarning, match="share a run id"):
        assert names_of(irscale.read_runs([c, d], names="runid")) == ["x/k", "y/k"]
    with pytest.warns(UserWarning, match="share a name"):
        assert names_of(irscale.read_runs([c, d])) == ["x/k", "y/k"]
    # a renamed run never takes the name of another run (here e's run id, k)
    e = write(tmp_path / "z" / "other.txt", "1 Q0 d 1 1 k\n")
    with pytest.warns(UserWarning, match="share a run id"):
        assert names_of(irscale.read_runs([e, c, d], names="runid")) == ["k", "x/k", "y/k"]


def test_the_same_file_twice_is_an_error(tmp_path):
    a = write(tmp_path / "a.txt", "1 Q0 d 1 1 same\n")
    with pytest.raises(ParameterError, match="given twice"):
        irscale.read_runs([a, a])


def test_names_file_and_explicit_names(tmp_path):
    a = write(tmp_path / "a.run", "1 Q0 d 1 1 one\n")
    b = write(tmp_path / "b.run.gz", "1 Q0 d 1 1 two\n")
    assert names_of(irscale.read_runs([a, b], names="file")) == ["a", "b"]
    assert names_of(irscale.read_runs([a, b])) == ["a", "b"]
    assert names_of(irscale.read_runs([a, b], names="runid")) == ["one", "two"]
    assert names_of(irscale.read_runs([a, b], names=["x", "y"])) == ["x", "y"]
    with pytest.raises(ParameterError, match="1 name given for 2 runs"):
        irscale.read_runs([a, b], names=["x"])
    with pytest.raises(ParameterError, match="'x' is given twice"):
        irscale.read_runs([a, b], names=["x", "x"])
    with pytest.raises(ParameterError, match="file or runid"):
        irscale.read_runs([a, b], names="stem")
    with pytest.raises(ParameterError, match="mapping"):
        irscale.read_runs({"x": a, "y": b}, names="runid")
    c = write(tmp_path / "sub" / "a.run", "1 Q0 d 1 1 three\n")
    with pytest.warns(UserWarning, match="2 runs share a name with another run \\('a' ×2\\)"):
        assert names_of(irscale.read_runs([a, c], names="file")) == [
            f"{tmp_path.name}/a", "sub/a"]  # both equally long: neither is preferred


def test_parse_names():
    assert parse_names("runid") == "runid" and parse_names("file") == "file"
    assert parse_names("a, b,c") == ["a", "b", "c"]
    with pytest.raises(ParameterError, match="empty name"):
        parse_names("a,,b")


def test_in_memory_runs_without_files_must_be_named():
    runs = as_runs({"x": {"1": {"d": 1.0}}, "y": {"1": {"d": 2.0}}})
    assert names_of(runs) == ["x", "y"]
    same = [irscale.read_run(b"1 Q0 d 1 1 r\n"), irscale.read_run(b"1 Q0 e 1 1 r\n")]
    with pytest.raises(ParameterError, match="no file name"):
        name_runs(same)
    with pytest.raises(ParameterError, match="no file name"):
        name_runs(same, "runid")
    assert names_of(name_runs(same, ["p", "q"])) == ["p", "q"]


def test_evaluate_takes_runs_that_share_an_id(tmp_path):
    qrels = {"1": {"d": 1, "e": 0}}
    a = write(tmp_path / "a.txt", "1 Q0 d 1 2 same\n1 Q0 e 2 1 same\n")
    b = write(tmp_path / "b.txt", "1 Q0 e 1 2 same\n1 Q0 d 2 1 same\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ev = irscale.evaluate(qrels, [a, b], ["P@1"])
    assert ev.runs == ("a", "b")
    with pytest.warns(UserWarning, match="share a run id with another run \\('same' ×2\\)"):
        assert irscale.evaluate(qrels, [a, b], ["P@1"], names="runid").runs == ("a", "b")
    assert ev.mean()["P@1"].tolist() == [1.0, 0.0]


# ---------------------------------------------------------------- command line, real runs
@pytest.fixture
def two_copies(clef, tmp_path):
    """Two copies of one CLEF run (run id KDEIR) in two folders, and a third KDEIR run."""
    source = clef / "runs" / "KDEIR_EN_Run1.txt"
    first, second = tmp_path / "a" / "kdeir.txt", tmp_path / "b" / "kdeir.txt"
    for path in (first, second):
        path.parent.mkdir()
        shutil.copy(source, path)
    return str(clef / "task2.qrels"), str(first), str(second)


def test_eval_two_copies_of_a_clef_run(two_copies, clef, capsys):
    qrels, first, second = two_copies
    for names, warned in ((), "2 runs share a name with another run ('kdeir' ×2)"), \
            (("--names", "runid"), "2 runs share a run id with another run ('KDEIR' ×2)"):
        assert main(["eval", "-q", "-m", "runid", "-m", "map", "-m", "P.10", *names, qrels,
                     first, second]) == 0
        out, err = capsys.readouterr()
        assert f"irscale: warning: {warned}" in err
        assert "'a/kdeir'" in err and "'b/kdeir'" in err
        lines = [line.split("\t") for line in out.splitlines()]
        assert {len(fields) for fields in lines} == {4}
        runs = [fields[3] for fields in lines]
        assert runs == ["a/kdeir"] * (len(lines) // 2) + ["b/kdeir"] * (len(lines) // 2)
        # trec_eval's runid prints the run id, the fourth field the run's name
        assert [fields[2] for fields in lines if fields[0].strip() == "runid"] == ["KDEIR"] * 2
    assert main(["eval", "-m", "map", "--names", "first,second", qrels, first, second]) == 0
    out, _ = capsys.readouterr()
    assert [line.split("\t")[3] for line in out.splitlines()] == ["first", "second"]
    other = str(clef / "runs" / "KDEIR_EN_Run2.txt")
    for names in ((), ("--names", "file")):
        assert main(["eval", "-m", "map", *names, qrels, first, other]) == 0
        out, err = capsys.readouterr()
        assert [line.split("\t")[3] for line in out.splitlines()] == ["kdeir", "KDEIR_EN_Run2"]
        assert "warning" not in err


def test_eval_names_errors(two_copies, capsys):
    qrels, first, second = two_copies
    assert main(["eval", "-m", "map", "--names", "x", qrels, first, second]) == 2
    err = capsys.readouterr().err
    assert err.startswith("irscale: ") and "1 name given for 2 runs" in err
    assert len(err.splitlines()) == 1
    assert main(["eval", "-m", "map", "--names", "x,", qrels, first, second]) == 2
    assert "empty name" in capsys.readouterr().err
    assert main(["eval", "-m", "map", qrels, first, first]) == 2
    assert "given twice" in capsys.readouterr().err


def test_compare_two_copies_of_a_clef_run(two_copies, clef, capsys):
    qrels, first, second = two_copies
    other = str(clef / "runs" / "KDEIR_EN_Run2.txt")
    assert main(["compare", qrels, first, second, other, "-m", "P@10", "--test", "t"]) == 0
    out, err = capsys.readouterr()
    assert "2 runs share a name with another run ('kdeir' ×2)" in err
    for name in ("a/kdeir", "b/kdeir", "KDEIR_EN_Run2"):
        assert name in out
    assert main(["compare", qrels, first, other, "-m", "P@10", "--test", "t",
                 "--names", "one,two"]) == 0
    out, err = capsys.readouterr()
    # named: no warning of shared run ids (the t-test of identical runs is undefined, and says so)
    assert "one" in out and "two" in out and "share" not in err


def test_meta_never_merges_runs(two_copies, tmp_path, capsys):
    """``--names file`` used to build {stem: path}, silently dropping same-stem runs."""
    qrels, first, second = two_copies
    third = write(tmp_path / "c" / "X_1.txt",
                  open(first).read().replace("KDEIR", "X_1"))
    assert main(["meta", "loo", qrels, first, second, third, "-m", "P@10", "--depth", "10",
                 "--names", "file", "--per-run", "--format", "csv"]) == 0
    out, err = capsys.readouterr()
    assert "a/kdeir" in out and "b/kdeir" in out and "X_1" in out
    assert "share a name with another run ('kdeir' ×2)" in err
    assert main(["meta", "correlate", qrels, first, second, third, "-m", "P@10", "-m", "map",
                 "--names", "A_1,B_1,C_1", "--format", "csv"]) == 0
    capsys.readouterr()


def test_names_refused_with_score_files(tmp_path, capsys):
    scores = write(tmp_path / "ap.csv", "topic,a,b\n1,0.1,0.2\n2,0.3,0.1\n3,0.2,0.2\n")
    assert main(["compare", "--scores", scores, "--names", "file"]) == 2
    assert "--names applies to runs evaluated against qrels" in capsys.readouterr().err
    assert main(["meta", "correlate", "--scores", scores, "--allow-empty"]) == 2
    assert "--allow-empty applies" in capsys.readouterr().err


def test_find_run_by_name_path_file_name_stem_or_run_id(tmp_path, monkeypatch):
    """A baseline is designated by the run's name, its run id or its file, however the user
    knows it: the path as given or spelt otherwise, the file name, the stem (``.gz``
    dropped)."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "runs" / "bm25.run.gz", "1 Q0 d 1 1 okapi\n")
    write(tmp_path / "runs" / "ql.txt", "1 Q0 d 1 1 dirichlet\n")
    runs = irscale.read_runs(["runs/bm25.run.gz", "runs/ql.txt"])
    assert names_of(runs) == ["bm25", "ql"]
    for name in ("okapi", "bm25", "bm25.run.gz", "runs/bm25.run.gz", "./runs/bm25.run.gz",
                 str(tmp_path / "runs" / "bm25.run.gz")):
        assert find_run(name, runs) == "bm25", name
    assert find_run("ql", runs) == find_run("ql.txt", runs) == find_run("dirichlet", runs) \
        == "ql"
    by_id = irscale.read_runs(["runs/bm25.run.gz", "runs/ql.txt"], names="runid")
    assert [find_run(name, by_id) for name in ("bm25", "okapi", "runs/ql.txt")] == \
        ["okapi", "okapi", "dirichlet"]


def test_find_run_refuses_a_name_of_no_run_listing_the_runs(tmp_path):
    paths = [write(tmp_path / f"r{k:02d}.run", f"1 Q0 d 1 1 sys{k:02d}\n") for k in range(12)]
    runs = irscale.read_runs(paths)
    with pytest.raises(ParameterError) as caught:
        find_run("bm25.run", runs)
    message = str(caught.value)
    assert message.startswith("baseline 'bm25.run' names no run: ")
    assert f"'r00' ({paths[0]})" in message and f"'r09' ({paths[9]})" in message
    assert "r10" not in message and message.endswith(", ... (12 in all)")
    frames = as_runs({"a": {"1": {"d": 1.0}}, "b": {"1": {"d": 2.0}}})  # no files
    with pytest.raises(ParameterError, match=r"runs: 'a', 'b'$"):
        find_run("c", frames)
    for bad in ("", None, 3):
        with pytest.raises(ParameterError, match="baseline must name a run"):
            find_run(bad, runs)


def test_find_run_refuses_a_name_of_several_runs(tmp_path):
    """A run id that is another run's name, a file name shared by two folders, a run id
    two runs share: an error naming the runs; the path tells them apart."""
    a = write(tmp_path / "x" / "a.run", "1 Q0 d 1 1 b\n")
    b = write(tmp_path / "y" / "b.run", "1 Q0 d 1 1 other\n")
    c = write(tmp_path / "y" / "a.run", "1 Q0 d 1 1 b\n")
    with pytest.warns(UserWarning, match="share a name"):
        runs = irscale.read_runs([a, b, c])
    assert names_of(runs) == ["x/a", "b", "y/a"]
    with pytest.raises(ParameterError) as caught:
        find_run("b", runs)
    assert str(caught.value) == (f"baseline 'b' is ambiguous: it names the runs 'x/a' ({a}), "
                                 f"'b' ({b}), 'y/a' ({c}); give the run's name or the path of "
                                 "its file")
    with pytest.raises(ParameterError) as caught:
        find_run("a.run", runs)
    assert f"'a.run' is ambiguous: it names the runs 'x/a' ({a}), 'y/a' ({c});" in \
        str(caught.value)
    assert find_run(c, runs) == "y/a" and find_run(b, runs) == "b"
    assert find_run("x/a", runs) == "x/a" and find_run("other", runs) == "b"


def test_evaluate_takes_names(tmp_path):
    a = write(tmp_path / "bm25.run", "1 Q0 d1 1 2 same\n1 Q0 d2 2 1 same\n")
    b = write(tmp_path / "ql.run", "1 Q0 d2 1 2 other\n")
    qrels = {"1": {"d1": 1, "d2": 0}}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert irscale.evaluate(qrels, [a, b], "map").runs == ("bm25", "ql")
        assert irscale.evaluate(qrels, [a, b], "map", names="file").runs == ("bm25", "ql")
        assert irscale.evaluate(qrels, [a, b], "map", names="runid").runs == ("same", "other")
        ev = irscale.evaluate(qrels, [a, b], "map", names=["x", "y"])
    assert ev.runs == ("x", "y") and ev.mean()["map"].tolist() == [1.0, 0.0]
    with pytest.raises(ParameterError, match="1 name given for 2 runs"):
        irscale.evaluate(qrels, [a, b], "map", names=["x"])


def _last_run_id(path) -> str:
    """The run id of a run file's last line (trec_eval's), read here with ``split``."""
    return path.read_text().splitlines()[-1].split()[5]


def test_clef_runs_are_named_by_their_files(clef):
    """The 16 CLEF runs: every run is named by its file, in any company, with no warning
    (by run id, 11 were named 'Run1', 'BM25b0.75' ... and the 5 that share run ids by
    file). ``names="runid"`` keeps the run-id rule: each run its run id, the five that
    share one (KDEIR, WHUIRGroup) by their files, with one warning counting the five."""
    files = sorted((clef / "runs").iterdir())
    stems = [f.name.removesuffix(".txt") for f in files]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert list(irscale.evaluate(clef / "task2.qrels", files, "P@10").runs) == stems
        for company in ([0, 1, 5], [1, 8, 9], [1, 10, 11, 12]):
            chosen = [files[k] for k in company]
            assert list(irscale.evaluate(clef / "task2.qrels", chosen, "P@10").runs) == \
                [stems[k] for k in company], company
            assert names_of(irscale.read_runs(chosen)) == [stems[k] for k in company]
    ids = {f: _last_run_id(f) for f in files}
    shared = {runid for runid in ids.values() if list(ids.values()).count(runid) > 1}
    assert shared == {"KDEIR", "WHUIRGroup"}
    expected = [f.name.removesuffix(".txt") if ids[f] in shared else ids[f] for f in files]
    with pytest.warns(UserWarning) as caught:
        ev = irscale.evaluate(clef / "task2.qrels", files, "P@10", names="runid")
    assert list(ev.runs) == expected and "Run3" in expected
    (message,) = [str(w.message) for w in caught]
    assert message.startswith("5 runs share a run id with another run ('KDEIR' ×2, "
                              "'WHUIRGroup' ×3)") and len(message) < 400, message


def test_clef_runid_measure_prints_the_run_id(clef):
    """trec_eval's ``runid`` prints the run id whatever the run's name, in the API and on
    the command line (whose text of one run is trec_eval's)."""
    files = [clef / "runs" / "CUNI_EN_Run2.txt", clef / "runs" / "KDEIR_EN_Run1.txt"]
    ev = irscale.evaluate(clef / "task2.qrels", files, ["runid", "P@10"])
    assert ev.runs == ("CUNI_EN_Run2", "KDEIR_EN_Run1")
    assert [ev.summary(i)[0][1] for i in range(2)] == ["Run3", "KDEIR"]
    one = irscale.evaluate(clef / "task2.qrels", files[0], ["runid", "P@10"])
    assert one.runs == ("CUNI_EN_Run2",) and one.summary(0)[0][1] == "Run3"


@pytest.mark.parametrize("option", ["--systems", "--baseline"])
def test_compare_refuses_a_name_of_no_run_before_evaluating(option, tmp_path, capsys,
                                                            monkeypatch):
    """``compare QRELS RUN... --systems/--baseline NAME``: a name of no run is refused once
    the runs are read, before any measure is computed; a file stem names its run."""
    from irscale import evaluation

    qrels = write(tmp_path / "qrels", "1 0 d1 1\n2 0 d2 1\n")
    runs = [write(tmp_path / f"{name}.run", f"1 Q0 d1 1 1 {name}_id\n2 Q0 d2 1 1 {name}_id\n")
            for name in ("a", "b", "c")]

    def refused(*args, **kwargs):
        raise AssertionError("evaluated before the names were checked")

    monkeypatch.setattr(evaluation, "evaluate_matrix", refused)
    assert main(["compare", qrels, *runs, "-m", "map", "--test", "t", option, "a,nosuch"
                 if option == "--systems" else "nosuch"]) == 2
    assert f"{option} 'nosuch' names no run" in capsys.readouterr().err
    main(["compare", qrels, *runs, "-m", "map", "--test", "t", option, "a"])  # a.run's stem
    assert "evaluated before the names were checked" in capsys.readouterr().err
