"""``irscale meta simulate``: the command is
:func:`irscale.meta.simulation_study` with its arguments — its table equals the API's frame
for the same arguments (both models, every format that keeps full precision); a study
whose checkpoint lost a task file resumes to the uninterrupted output, recomputing that
task only and reading the others; the paired t-test's Type I rate under the normal null
model lies within the Wilson interval the command prints (the interval itself recomputed
from the printed counts with statsmodels); the defaults the help states are the API's."""

from __future__ import annotations

import csv
import inspect
import io
import json
import re

import numpy as np
import pandas as pd
import pytest

from irscale.cli.main import main
from irscale.errors import ParameterError
from irscale.io.csv_floats import EXACT_FLOATS
from irscale.meta import BootstrapModel, CopulaModel, NormalModel, simulation_study
from irscale.meta.simulation import REPETITIONS_PER_TASK


def cli(capsys, *argv: str) -> str:
    status = main(["meta", "simulate", "--no-progress", *argv])
    out = capsys.readouterr()
    assert status == 0, out.err
    return out.out


def frame_of(text: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(text), **EXACT_FLOATS)


@pytest.fixture
def scores(tmp_path):
    """A 15-topic, 4-system score CSV whose systems differ."""
    rng = np.random.default_rng(3)
    values = np.clip(rng.normal(0.4, 0.15, (15, 1)) + np.array([0.0, 0.02, 0.05, 0.1])
                     + rng.normal(0, 0.08, (15, 4)), 0, 1)
    path = tmp_path / "ap.csv"
    pd.DataFrame(values, columns=["s1", "s2", "s3", "s4"]).to_csv(path, index=False)
    return path, pd.read_csv(path, **EXACT_FLOATS)


def test_normal_model_output_equals_the_api_frame(capsys):
    out = cli(capsys, "--model", "normal", "--topics", "12", "--effects", "0,0,0.05",
              "--topic-sd", "0.2", "--error-sd", "0.05", "--repetitions", "40",
              "--test", "t,wilcoxon,randomization", "--correction", "none,holm",
              "--alpha", "0.1", "-B", "99", "--seed", "7", "--format", "csv")
    model = NormalModel(topics=12, systems=3, effects=(0.0, 0.0, 0.05), topic_sd=0.2,
                        error_sd=0.05)
    study = simulation_study(model, ["t", "wilcoxon", "randomization"], ["none", "holm"], 40,
                             alpha=0.1, options={"randomization": {"samples": 99}}, rng=7)
    pd.testing.assert_frame_equal(frame_of(out), study.to_frame(), check_exact=True)


def test_bootstrap_model_output_equals_the_api_frame(capsys, scores):
    path, table = scores
    for null in (False, True):
        argv = ["--model", "bootstrap", "--scores", str(path), "--repetitions", "30",
                "--test", "t,sign", "--seed", "2", "--format", "json"]
        out = cli(capsys, *argv, *(["--null"] if null else []))
        study = simulation_study(BootstrapModel.of(table.to_numpy(), null=null),
                                 ["t", "sign"], repetitions=30, rng=2)
        expected = study.to_frame().astype(object).where(study.to_frame().notna(), None)
        assert json.loads(out) == expected.to_dict("records")


def test_copula_model_output_equals_the_api_frame(capsys, scores):
    path, table = scores
    for extra, kwargs in (([], {}), (["--null"], {"null": True}),
                          (["--equal", "s4,s1", "--copula", "t", "--margins", "truncnorm,bks",
                            "--topics", "20"],
                           {"equal": ("s4", "s1"), "copula": "t",
                            "margins": ["truncnorm", "bks"], "topics": 20})):
        argv = ["--model", "copula", "--scores", str(path), "--repetitions", "30",
                "--test", "t,sign", "--seed", "2", "--format", "json", *extra]
        out = cli(capsys, *argv)
        study = simulation_study(CopulaModel.fit(table, **kwargs), ["t", "sign"],
                                 repetitions=30, rng=2)
        expected = study.to_frame().astype(object).where(study.to_frame().notna(), None)
        assert json.loads(out) == expected.to_dict("records")


def test_vine_copula_on_p10_output_equals_the_api_frame(capsys, tmp_path):
    """``--copula vine`` end to end on a small P@10 matrix (discrete margins in the vine)."""
    pytest.importorskip("pyvinecopulib")
    rng = np.random.default_rng(5)
    base = rng.binomial(10, 0.4, (20, 1))
    tenths = np.clip(base + rng.integers(-2, 3, (20, 3)) + np.array([0, 1, 2]), 0, 10) / 10
    path = tmp_path / "p10.csv"
    pd.DataFrame(tenths, columns=["a", "b", "c"]).to_csv(path, index=False)
    argv = ["--model", "copula", "--scores", str(path), "--copula", "vine", "--repetitions",
            "30", "--test", "t", "--seed", "3", "--format", "json"]
    out = cli(capsys, *argv)
    model = CopulaModel.fit(pd.read_csv(path, **EXACT_FLOATS), copula="vine")
    assert {m.family for m in model.margins} <= {"bbinom", "dks"}
    study = simulation_study(model, ["t"], repetitions=30, rng=3)
    expected = study.to_frame().astype(object).where(study.to_frame().notna(), None)
    assert json.loads(out) == expected.to_dict("records")
    assert cli(capsys, *argv) == out


def test_the_text_table_is_the_api_table(capsys):
    out = cli(capsys, "--model", "normal", "--repetitions", "30", "--seed", "4")
    study = simulation_study(NormalModel(), repetitions=30, rng=4)
    assert study.format("text") in out


def test_a_lost_task_file_is_recomputed_and_the_others_are_read(capsys, tmp_path):
    folder = tmp_path / "study"
    argv = ["--model", "normal", "--systems", "3", "--effects", "0,0,0.04",
            "--topics", "10", "--repetitions", str(3 * REPETITIONS_PER_TASK), "--test",
            "t", "--correction", "none,bonferroni", "--seed", "11", "--format", "csv"]
    fresh = cli(capsys, *argv)
    first = cli(capsys, *argv, "--checkpoint", str(folder))
    assert first == fresh
    tasks = sorted(folder.glob("task-*.npy"))
    assert [p.name for p in tasks] == [f"task-{i:08d}.npy" for i in range(3)]
    kept = {p.name: p.stat().st_mtime_ns for p in tasks if p.name != "task-00000001.npy"}
    (folder / "task-00000001.npy").unlink()  # the interruption: task 1 never finished
    resumed = cli(capsys, *argv, "--checkpoint", str(folder))
    assert resumed == fresh
    assert (folder / "task-00000001.npy").exists()
    assert {n: (folder / n).stat().st_mtime_ns for n in kept} == kept  # not rewritten
    # the finished tasks are read, not recomputed: zeroed counts in task 0 show in the
    # output (its 25 matrices' comparisons vanish from the totals: one null and two
    # non-null pairs per matrix)
    np.save(folder / "task-00000000.npy", np.zeros_like(np.load(tasks[0])))
    altered = frame_of(cli(capsys, *argv, "--checkpoint", str(folder)))
    n = REPETITIONS_PER_TASK
    assert frame_of(fresh)[["null", "non_null"]].values.tolist() == [[3 * n, 6 * n]] * 2
    assert altered[["null", "non_null"]].values.tolist() == [[2 * n, 4 * n]] * 2


def test_a_study_interrupted_by_ctrl_c_resumes_to_the_uninterrupted_output(
        capsys, tmp_path, monkeypatch):
    """^C after the second task's file is written: exit 130, no -o file, two task files;
    the same command again computes the third task only and writes the table of a run
    that was never interrupted."""
    from irscale.meta import simulation

    folder, out = tmp_path / "study", tmp_path / "rates.csv"
    argv = ["--model", "normal", "--systems", "3", "--topics", "10", "--repetitions",
            str(3 * REPETITIONS_PER_TASK), "--test", "t,sign", "--seed", "3", "--format",
            "csv"]
    fresh = cli(capsys, *argv)
    save, saved = simulation._Checkpoint.save, []

    def save_then_interrupt(self, index, part):
        save(self, index, part)
        saved.append(index)
        if len(saved) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(simulation._Checkpoint, "save", save_then_interrupt)
    status = main(["meta", "simulate", *argv, "--checkpoint", str(folder), "-o", str(out)])
    assert status == 130 and "interrupted" in capsys.readouterr().err
    assert not out.exists() and len(list(folder.glob("task-*.npy"))) == 2
    computed = []
    monkeypatch.setattr(simulation._Checkpoint, "save",
                        lambda self, index, part: (computed.append(index),
                                                   save(self, index, part)))
    cli(capsys, *argv, "--checkpoint", str(folder), "-o", str(out))
    assert len(computed) == 1 and out.read_text(encoding="utf-8") == fresh


def test_another_study_in_the_checkpoint_is_refused_with_the_api_message(capsys, tmp_path):
    folder = tmp_path / "study"
    argv = ["--model", "normal", "--repetitions", "30", "--seed", "1", "--checkpoint",
            str(folder)]
    cli(capsys, *argv)
    assert main(["meta", "simulate", *argv[:-2], "--topics", "20", "--checkpoint",
                 str(folder)]) == 2
    err = capsys.readouterr().err
    with pytest.raises(ParameterError) as api:
        simulation_study(NormalModel(topics=20), repetitions=30, rng=1, checkpoint=folder)
    assert err.strip() == f"irscale: {api.value}"
    assert "holds another study" in err and "model" in err


def test_type_I_rate_of_the_t_test_under_the_normal_null_is_alpha(capsys):
    """X = u_t + e_ts with equal means: the paired t-test is exact, so its Type I rate is
    α = 0.05, and 3,000 matrices (one pair each: independent comparisons) put it in the
    printed 95% Wilson interval (for 95% of seeds; seed 1 is one of them). The interval
    is recomputed from the printed counts with statsmodels' Wilson interval."""
    from statsmodels.stats.proportion import proportion_confint

    row = frame_of(cli(capsys, "--model", "normal", "--topics", "20", "--repetitions",
                       "3000", "--test", "t", "--seed", "1", "--format", "csv")).iloc[0]
    assert (row["null"], row["non_null"]) == (3000, 0)
    errors = round(row["type_I"] * row["null"])
    low, high = proportion_confint(errors, row["null"], alpha=0.05, method="wilson")
    assert row["type_I_low"] == pytest.approx(low, abs=1e-12)
    assert row["type_I_high"] == pytest.approx(high, abs=1e-12)
    assert low <= 0.05 <= high
    assert high - low < 0.02


def test_scheduler_gives_the_local_output(capsys):
    pytest.importorskip("distributed")
    argv = ["--model", "normal", "--systems", "3", "--repetitions", "60", "--seed", "5",
            "--test", "t,bootstrap", "-B", "50", "--format", "csv"]
    assert cli(capsys, *argv, "--scheduler", "local:2") == cli(capsys, *argv)


def _stated_default(option: str) -> str:
    from irscale.cli.main import build_parser

    from .cli_parsers import expanded_help, parsers

    for prog, parser in parsers(build_parser()):
        if prog == "irscale meta simulate":
            action = next(a for a in parser._actions if option in a.option_strings)
            text = " ".join(expanded_help(parser, action).split())
            return re.search(r"\(default:? ([^)]*)\)", text)[1]
    raise AssertionError("no meta simulate parser")


def test_the_defaults_the_help_states_are_the_apis():
    """The options default to None (the API's default applies); their help states it."""
    fields = {f: NormalModel.__dataclass_fields__[f].default
              for f in ("topics", "systems", "topic_sd", "error_sd")}
    assert _stated_default("--topics") == (f"normal: {fields['topics']}; copula: the "
                                           "matrix's topics; bootstrap: the matrix's topics "
                                           "drawn with replacement")
    assert _stated_default("--systems").endswith(f"else {fields['systems']}")
    assert _stated_default("--topic-sd") == str(fields["topic_sd"])
    assert _stated_default("--error-sd") == str(fields["error_sd"])
    signature = inspect.signature(simulation_study).parameters
    assert _stated_default("--repetitions") == str(signature["repetitions"].default)
    assert _stated_default("--alpha") == str(signature["alpha"].default)
    assert _stated_default("--test") == ",".join(signature["tests"].default)
    assert _stated_default("--correction") == ",".join(signature["corrections"].default)


def _documented_commands() -> list[tuple[list[str], str]]:
    """``(argv, output)`` of every ``$ irscale meta simulate`` example of
    docs/scale-out.md (a command with its ``\\`` continuation lines, then its output)."""
    import shlex

    from .docs_numbers import blocks
    from .docs_numbers import read as read_doc

    found = []
    for block in blocks(read_doc("scale-out.md"), "console"):
        if "$ irscale meta simulate" not in block:
            continue
        lines = block.splitlines()
        command, rest = [], iter(lines[1:])
        line = lines[0].removeprefix("$ ")
        while True:
            command.append(line.rstrip("\\"))
            if not line.endswith("\\"):
                break
            line = next(rest)
        found.append((shlex.split(" ".join(command))[1:], "\n".join(rest) + "\n"))
    return found


def test_the_documented_examples_print_what_the_page_shows(capsys, tmp_path, monkeypatch):
    """Both examples of docs/scale-out.md, run as written (the bootstrap one on the scores
    the page's ``irscale demo`` and ``irscale eval`` commands write, its checkpoint in a
    temporary folder); the bootstrap one then resumes after losing a task file, to the
    same table."""
    from .docs_examples import run_shell_example
    from .docs_numbers import blocks
    from .docs_numbers import read as read_doc

    documented = _documented_commands()
    assert len(documented) == 2 and documented[1][0].count("--checkpoint") == 1
    argv, shown = documented[0]
    assert main(argv) == 0
    assert capsys.readouterr().out == shown
    [prepare] = [block for block in blocks(read_doc("scale-out.md"), "console")
                 if "$ irscale demo" in block]
    run_shell_example(prepare, tmp_path)
    argv, shown = documented[1]
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 0
    assert capsys.readouterr().out == shown
    checkpoint = tmp_path / argv[argv.index("--checkpoint") + 1]
    (checkpoint / "task-00000001.npy").unlink()
    assert main(argv) == 0
    assert capsys.readouterr().out == shown


def test_the_documented_trec5_rates_hold(capsys, tmp_path, monkeypatch):
    """"on the 61 systems of TREC-5 ad hoc AP (1,830 null pairs, the same command on
    adhoc5_ap.csv ...) it is 0.171 against the t test's 0.059": the bootstrap example's
    command on the real data."""
    from .conftest import URBANO, require
    from .docs_numbers import assert_close, paragraph
    from .docs_numbers import read as read_doc

    argv = list(_documented_commands()[1][0])
    argv[argv.index("--scores") + 1] = str(require(URBANO) / "adhoc5_ap.csv")
    argv[argv.index("--checkpoint") + 1] = str(tmp_path / "adhoc5-null")
    argv[argv.index("--digits"):argv.index("--digits") + 2] = ["--format", "csv"]
    assert main(argv) == 0
    rows = {row["test"]: row for row in csv.DictReader(io.StringIO(capsys.readouterr().out))}
    sentence = paragraph(read_doc("scale-out.md"), "On a real collection")
    wilcoxon, t = re.search(r"it is ([\d.]+) against the t test's ([\d.]+)", sentence).groups()
    assert_close(wilcoxon, float(rows["wilcoxon"]["type_I"]), "wilcoxon type I")
    assert_close(t, float(rows["t"]["type_I"]), "t type I")
    assert int(rows["t"]["null"]) == 50 * 1830
