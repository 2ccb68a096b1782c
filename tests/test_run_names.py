"""A run's name depends on the run alone: its run id, or, where another run of the call
has the same run id, its file, with one short warning; ``read_runs(names=...)`` and
``--names runid|file|a,b,c`` on eval, compare, meta and scale. Real case: two CLEF eHealth
2016 teams reuse one run id across their runs (KDEIR, WHUIRGroup)."""

from __future__ import annotations

import shutil
import warnings

import pytest

import irscale
from irscale.cli.main import main
from irscale.errors import AlignmentError, ParameterError
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
    with pytest.warns(UserWarning) as caught:
        runs = irscale.read_runs([a, b, c])
    assert names_of(runs) == ["bm25", "ql", "other"]
    assert len(caught) == 1
    message = str(caught[0].message)
    assert message.startswith("2 runs share a run id with another run ('same' ×2): each is "
                              "named after its file: ")
    assert f"'bm25' ({a})" in message and f"'ql' ({b})" in message and "'other'" not in message
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # distinct ids: no warning, trec_eval's names
        assert names_of(irscale.read_runs([a, c])) == ["same", "other"]
        assert names_of(irscale.read_runs([c])) == ["other"]


def test_the_warning_names_two_runs_whatever_their_number(tmp_path):
    """Many runs of one run id (a toolkit's default tag): one warning of the count, the
    first two shared ids and the first two runs, not every path."""
    paths = [write(tmp_path / f"run{k:02d}.txt", f"1 Q0 d 1 1 {'tag' if k < 30 else k % 3}\n")
             for k in range(40)]
    with pytest.warns(UserWarning) as caught:
        runs = irscale.read_runs(paths)
    assert names_of(runs)[:30] == [f"run{k:02d}" for k in range(30)]
    assert names_of(runs)[30:33] == ["run30", "run31", "run32"]  # ids 0, 1, 2 shared too
    assert len(caught) == 1
    message = str(caught[0].message)
    assert message.startswith("40 runs share a run id with another run ('tag' ×30, '0' ×4, "
                              "...): ")
    assert paths[0] in message and paths[1] in message and paths[2] not in message
    assert len(message) < 300 + 2 * len(paths[0])


def test_colliding_stems_fall_back_to_longer_forms(tmp_path):
    # TREC's input.<runid> files: same stem 'input', different file names
    a = write(tmp_path / "input.bm25", "1 Q0 d 1 1 same\n")
    b = write(tmp_path / "input.ql", "1 Q0 d 1 1 same\n")
    with pytest.warns(UserWarning, match="share a run id"):
        assert names_of(irscale.read_runs([a, b])) == ["input.bm25", "input.ql"]
    # same file name in two folders: the folder is added
    c = write(tmp_path / "x" / "k.txt", "1 Q0 d 1 1 same\n")
    d = write(tmp_path / "y" / "k.txt", "1 Q0 d 1 1 same\n")
    with pytest.warns(UserWarning, match="share a run id"):
        assert names_of(irscale.read_runs([c, d])) == ["x/k.txt", "y/k.txt"]
    # a renamed run never takes the name of another run (here e's run id, k)
    e = write(tmp_path / "z" / "other.txt", "1 Q0 d 1 1 k\n")
    with pytest.warns(UserWarning, match="share a run id"):
        assert names_of(irscale.read_runs([e, c, d])) == ["k", "x/k.txt", "y/k.txt"]


def test_the_same_file_twice_is_an_error(tmp_path):
    a = write(tmp_path / "a.txt", "1 Q0 d 1 1 same\n")
    with pytest.raises(ParameterError, match="given twice"):
        irscale.read_runs([a, a])


def test_names_file_and_explicit_names(tmp_path):
    a = write(tmp_path / "a.run", "1 Q0 d 1 1 one\n")
    b = write(tmp_path / "b.run.gz", "1 Q0 d 1 1 two\n")
    assert names_of(irscale.read_runs([a, b], names="file")) == ["a", "b"]
    assert names_of(irscale.read_runs([a, b], names=["x", "y"])) == ["x", "y"]
    with pytest.raises(ParameterError, match="1 name given for 2 runs"):
        irscale.read_runs([a, b], names=["x"])
    with pytest.raises(ParameterError, match="'x' is given twice"):
        irscale.read_runs([a, b], names=["x", "x"])
    with pytest.raises(ParameterError, match="runid or file"):
        irscale.read_runs([a, b], names="stem")
    with pytest.raises(ParameterError, match="mapping"):
        irscale.read_runs({"x": a, "y": b}, names="file")
    c = write(tmp_path / "sub" / "a.run", "1 Q0 d 1 1 three\n")
    with pytest.warns(UserWarning, match="2 run files share a file stem with another \\('a' ×2\\)"):
        assert names_of(irscale.read_runs([a, c], names="file")) == [
            f"{tmp_path.name}/a.run", "sub/a.run"]  # both equally long: neither is preferred


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
    assert names_of(name_runs(same, ["p", "q"])) == ["p", "q"]


def test_evaluate_takes_runs_that_share_an_id(tmp_path):
    qrels = {"1": {"d": 1, "e": 0}}
    a = write(tmp_path / "a.txt", "1 Q0 d 1 2 same\n1 Q0 e 2 1 same\n")
    b = write(tmp_path / "b.txt", "1 Q0 e 1 2 same\n1 Q0 d 2 1 same\n")
    with pytest.warns(UserWarning, match="share a run id with another run \\('same' ×2\\)"):
        ev = irscale.evaluate(qrels, [a, b], ["P@1"])
    assert ev.runs == ("a", "b")
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
    assert main(["eval", "-q", "-m", "map", "-m", "P.10", qrels, first, second]) == 0
    out, err = capsys.readouterr()
    assert "irscale: warning: 2 runs share a run id with another run ('KDEIR' ×2)" in err
    assert "'a/kdeir.txt'" in err and "'b/kdeir.txt'" in err
    lines = [line.split("\t") for line in out.splitlines()]
    assert {len(fields) for fields in lines} == {4}
    runs = [fields[3] for fields in lines]
    assert runs == ["a/kdeir.txt"] * (len(lines) // 2) + ["b/kdeir.txt"] * (len(lines) // 2)
    assert main(["eval", "-m", "map", "--names", "first,second", qrels, first, second]) == 0
    out, _ = capsys.readouterr()
    assert [line.split("\t")[3] for line in out.splitlines()] == ["first", "second"]
    other = str(clef / "runs" / "KDEIR_EN_Run2.txt")
    assert main(["eval", "-m", "map", "--names", "file", qrels, first, other]) == 0
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
    assert "3 runs share a run id with another run ('KDEIR' ×3)" in err
    for name in ("a/kdeir.txt", "b/kdeir.txt", "KDEIR_EN_Run2"):
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
    assert "a/kdeir.txt" in out and "b/kdeir.txt" in out and "X_1" in out
    assert "share a file stem with another ('kdeir' ×2)" in err
    assert main(["meta", "correlate", qrels, first, second, third, "-m", "P@10", "-m", "map",
                 "--names", "A_1,B_1,C_1", "--format", "csv"]) == 0
    capsys.readouterr()


def test_names_refused_with_score_files(tmp_path, capsys):
    scores = write(tmp_path / "ap.csv", "topic,a,b\n1,0.1,0.2\n2,0.3,0.1\n3,0.2,0.2\n")
    assert main(["compare", "--scores", scores, "--names", "file"]) == 2
    assert "--names applies to runs evaluated against qrels" in capsys.readouterr().err
    assert main(["meta", "correlate", "--scores", scores, "--allow-empty"]) == 2
    assert "--allow-empty applies" in capsys.readouterr().err


def test_find_run_by_name_path_file_name_or_stem(tmp_path, monkeypatch):
    """A baseline is designated by the run's name or by its file, however the user knows it:
    the path as given or spelt otherwise, the file name, the stem (``.gz`` dropped)."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "runs" / "bm25.run.gz", "1 Q0 d 1 1 okapi\n")
    write(tmp_path / "runs" / "ql.txt", "1 Q0 d 1 1 dirichlet\n")
    runs = irscale.read_runs(["runs/bm25.run.gz", "runs/ql.txt"])
    assert names_of(runs) == ["okapi", "dirichlet"]
    for name in ("okapi", "bm25", "bm25.run.gz", "runs/bm25.run.gz", "./runs/bm25.run.gz",
                 str(tmp_path / "runs" / "bm25.run.gz")):
        assert find_run(name, runs) == "okapi", name
    assert find_run("ql", runs) == find_run("ql.txt", runs) == "dirichlet"


def test_find_run_refuses_a_name_of_no_run_listing_the_runs(tmp_path):
    paths = [write(tmp_path / f"r{k:02d}.run", f"1 Q0 d 1 1 sys{k:02d}\n") for k in range(12)]
    runs = irscale.read_runs(paths)
    with pytest.raises(AlignmentError) as caught:
        find_run("bm25.run", runs)
    message = str(caught.value)
    assert message.startswith("baseline 'bm25.run' names no run: ")
    assert f"'sys00' ({paths[0]})" in message and f"'sys09' ({paths[9]})" in message
    assert "sys10" not in message and message.endswith(", ... (12 in all)")
    frames = as_runs({"a": {"1": {"d": 1.0}}, "b": {"1": {"d": 2.0}}})  # no files
    with pytest.raises(AlignmentError, match=r"runs: 'a', 'b'$"):
        find_run("c", frames)
    for bad in ("", None, 3):
        with pytest.raises(ParameterError, match="baseline must name a run"):
            find_run(bad, runs)


def test_find_run_refuses_a_name_of_several_runs(tmp_path):
    """A run id that is another run's file stem, a file name shared by two folders: an
    error naming both runs; the path tells them apart."""
    a = write(tmp_path / "x" / "a.run", "1 Q0 d 1 1 b\n")
    b = write(tmp_path / "y" / "b.run", "1 Q0 d 1 1 other\n")
    c = write(tmp_path / "y" / "a.run", "1 Q0 d 1 1 third\n")
    runs = irscale.read_runs([a, b, c])
    with pytest.raises(ParameterError) as caught:
        find_run("b", runs)
    assert str(caught.value) == (f"baseline 'b' is ambiguous: it names the runs 'b' ({a}), "
                                 f"'other' ({b}); give the path of the run's file")
    with pytest.raises(ParameterError) as caught:
        find_run("a.run", runs)
    assert f"'a.run' is ambiguous: it names the runs 'b' ({a}), 'third' ({c});" in \
        str(caught.value)
    assert find_run(c, runs) == "third" and find_run(b, runs) == "other"


def test_evaluate_takes_names(tmp_path):
    a = write(tmp_path / "bm25.run", "1 Q0 d1 1 2 same\n1 Q0 d2 2 1 same\n")
    b = write(tmp_path / "ql.run", "1 Q0 d2 1 2 other\n")
    qrels = {"1": {"d1": 1, "d2": 0}}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert irscale.evaluate(qrels, [a, b], "map").runs == ("same", "other")
        assert irscale.evaluate(qrels, [a, b], "map", names="file").runs == ("bm25", "ql")
        ev = irscale.evaluate(qrels, [a, b], "map", names=["x", "y"])
    assert ev.runs == ("x", "y") and ev.mean()["map"].tolist() == [1.0, 0.0]
    with pytest.raises(ParameterError, match="1 name given for 2 runs"):
        irscale.evaluate(qrels, [a, b], "map", names=["x"])


def _last_run_id(path) -> str:
    """The run id of a run file's last line (trec_eval's), read here with ``split``."""
    return path.read_text().splitlines()[-1].split()[5]


def test_clef_run_names_depend_on_the_run_alone(clef):
    """Five of the 16 CLEF runs share run ids (KDEIR, WHUIRGroup) and others have ids unlike
    their files (CUNI_EN_Run2 is 'Run3'). Every run is named by its run id, the five by
    their files, in any company: CUNI_EN_Run2 is 'Run3' among the 16 and beside two others
    (it was 'CUNI_EN_Run2' among the 16, every run renamed by the KDEIR clash). The warning
    counts the five and lists two, not the 16 paths (1,074 characters)."""
    files = sorted((clef / "runs").iterdir())
    ids = {f: _last_run_id(f) for f in files}
    shared = {runid for runid in ids.values() if list(ids.values()).count(runid) > 1}
    assert shared == {"KDEIR", "WHUIRGroup"}
    expected = {f: f.name.removesuffix(".txt") if ids[f] in shared else ids[f] for f in files}
    with pytest.warns(UserWarning) as caught:
        ev = irscale.evaluate(clef / "task2.qrels", files, "P@10")
    assert list(ev.runs) == [expected[f] for f in files]
    assert expected[clef / "runs" / "CUNI_EN_Run2.txt"] == "Run3"
    (message,) = [str(w.message) for w in caught]
    assert message.startswith("5 runs share a run id with another run ('KDEIR' ×2, "
                              "'WHUIRGroup' ×3)") and len(message) < 400, message
    for company in ([0, 1, 5], [1, 8, 9], [1, 10, 11, 12]):
        chosen = [files[k] for k in company]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ev = irscale.evaluate(clef / "task2.qrels", chosen, "P@10")
        assert list(ev.runs) == [expected[f] for f in chosen], company


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
