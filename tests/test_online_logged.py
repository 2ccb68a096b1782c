"""Scoring logged interleaving experiments (irscale.online.logged, io.interleaving_log).

Oracles: (1) the lists irscale builds itself (``interleave_runs``), written as a log with a
click matrix, score exactly as ``Interleavings.score`` on the same clicks, for every method
and credit rule; (2) tiny logs whose wins, losses and ties are worked out by hand below from
the papers' credit rules; (3) the binomial p is ``scipy.stats.binomtest``'s.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest

from irscale.errors import DuplicateError, InputError, InputFormatError, ParameterError
from irscale.io.interleaving_log import read_interleaving_log
from irscale.online.interleaving import interleave_runs
from irscale.online.logged import logged_interleavings, score_log

COLUMNS = ["a", "b", "n", "wins", "losses", "ties", "delta", "ci_low", "ci_high", "p"]


def _rankings(rankers: str, seed: int = 0) -> dict[str, dict[str, list[str]]]:
    rng = np.random.default_rng(seed)
    docs = [f"d{i}" for i in range(10)]
    return {r: {f"q{t}": [str(d) for d in rng.permutation(docs)[:rng.integers(4, 10)]]
                for t in range(4)} for r in rankers}


def _log_bytes(batch, clicks: np.ndarray, *, shuffle: int | None = 0) -> bytes:
    """The log of the lists of ``batch`` and the clicks (lines in a random order)."""
    frame = batch.to_frame()
    if "team" not in frame:
        frame["team"] = "-"
    frame["clicked"] = clicks[frame["impression"], frame["rank"] - 1].astype(int)
    frame["impression"] = "imp" + frame["impression"].astype(str)
    lines = [" ".join(map(str, row)) for row in frame[
        ["impression", "topic", "rank", "docno", "team", "clicked"]].itertuples(index=False)]
    if shuffle is not None:
        lines = list(np.random.default_rng(shuffle).permutation(lines))
    return ("\n".join(lines) + "\n").encode()


CASES = [  # method, credit, rankers, needs the rankings
    ("team-draft", None, "AB", False),
    ("team-draft", None, "ABC", False),
    ("balanced", None, "AB", True),
    ("probabilistic", "marginal", "AB", True),
    ("probabilistic", "assignment", "AB", False),
    ("optimized", "inverse", "AB", True),
    ("optimized", "linear", "AB", True),
]


@pytest.mark.parametrize(("method", "credit", "rankers", "needs"), CASES)
def test_a_log_of_irscale_lists_scores_as_interleavings_score(method, credit, rankers,
                                                               needs):
    runs = _rankings(rankers, seed=3 if credit == "linear" else 0)
    batch = interleave_runs(runs, 30, method=method, credit=credit, length=5, rng=7)
    clicks = (np.random.default_rng(1).random(batch.pairs.shape) < 0.35) & (batch.pairs >= 0)
    expected = batch.score(clicks, alpha=0.1, bootstrap=500, rng=11).to_frame()
    log = _log_bytes(batch, clicks)
    got = score_log(log, runs if needs else None, method=method, credit=credit, alpha=0.1,
                    bootstrap=500, rng=11).to_frame()
    assert got[["a", "b", "test"]].equals(expected[["a", "b", "test"]])
    if credit == "marginal":  # posterior probabilities, recomputed from the list shown
        np.testing.assert_allclose(got[COLUMNS[2:]].to_numpy(float),
                                   expected[COLUMNS[2:]].to_numpy(float), rtol=1e-9)
    else:
        pd.testing.assert_frame_equal(got, expected)
    if not needs:  # the rankings, when given, change nothing (they are checked only)
        with_runs = score_log(log, runs, method=method, credit=credit, alpha=0.1,
                              bootstrap=500, rng=11).to_frame()
        pd.testing.assert_frame_equal(with_runs, expected)


def test_marginal_assignment_probabilities_equal_the_generators():
    runs = _rankings("AB", seed=5)
    batch = interleave_runs(runs, 50, method="probabilistic", length=6, rng=2)
    clicks = np.zeros(batch.pairs.shape, dtype=bool)
    logged = logged_interleavings(_log_bytes(batch, clicks, shuffle=None), runs,
                                  method="probabilistic")
    np.testing.assert_allclose(logged.prob, batch.prob, rtol=1e-12, atol=1e-15)


# A hand-made team-draft log: impression (team, clicked) per rank, and its outcome by the
# team-draft rule (the team with more clicks on its documents wins).
TEAM_DRAFT = """\
i1 q 1 d1 A 1
i1 q 2 d2 B 0
i2 q 1 d3 B 1
i2 q 2 d1 A 1
i3 q 1 d1 A 0
i3 q 2 d2 B 1
i4 q 1 d2 B 0
i4 q 2 d1 A 0
i5 q 1 d1 A 1
i5 q 2 d4 B 0
i5 q 3 d5 A 1
i5 q 4 d6 B 1
i6 r 2 e2 A 1
i6 r 1 e1 B 0
"""
# i1: A 1-0 (win); i2: 1-1 (tie); i3: 0-1 (loss); i4: 0-0 (tie); i5: A 2-1 (win);
# i6: A 1-0 (win): wins 3, losses 1, ties 2 over n = 6.


def test_hand_made_team_draft_log():
    result = score_log(TEAM_DRAFT.encode(), rng=0)
    row = result.to_frame().iloc[0]
    assert (row["a"], row["b"], row["n"]) == ("A", "B", 6)
    assert (row["wins"], row["losses"], row["ties"]) == (3, 1, 2)
    assert row["delta"] == pytest.approx((3 + 2 / 2) / 6 - 0.5)
    assert result.pvalue == pytest.approx(binomtest(3, 4).pvalue)
    assert row["test"] == "binomial"


def test_the_binomial_p_is_scipys_on_a_larger_log():
    runs = _rankings("AB", seed=9)
    batch = interleave_runs(runs, 200, length=6, rng=4)
    clicks = (np.random.default_rng(3).random(batch.pairs.shape) < 0.3) & (batch.pairs >= 0)
    row = score_log(_log_bytes(batch, clicks), rng=0).to_frame().iloc[0]
    team = batch.team
    a = ((team == 0) & clicks).sum(axis=1)  # brute force: clicks per team
    b = ((team == 1) & clicks).sum(axis=1)
    wins, losses = int((a > b).sum()), int((a < b).sum())
    assert (row["wins"], row["losses"], row["ties"]) == (wins, losses, 200 * 4 - wins - losses)
    assert row["p"] == binomtest(wins, wins + losses).pvalue


def test_hand_made_multileaving_log():
    # i1: A 1, B 0, C 1 → A~C tie, A>B, C>B;  i2: B 1, C 0, A 0 → B>A, B>C, A~C
    log = ("i1 q 1 a1 A 1\ni1 q 2 b1 B 0\ni1 q 3 c1 C 1\n"
           "i2 q 1 b1 B 1\ni2 q 2 c1 C 0\ni2 q 3 a1 A 0\n")
    frame = score_log(log.encode(), rng=0).to_frame().set_index(["a", "b"])
    assert frame.loc[("A", "B"), ["wins", "losses", "ties"]].tolist() == [1, 1, 0]
    assert frame.loc[("A", "C"), ["wins", "losses", "ties"]].tolist() == [0, 0, 2]
    assert frame.loc[("B", "C"), ["wins", "losses", "ties"]].tolist() == [1, 1, 0]


# Rankings A = d1 d2 d3, B = d2 d3 d1; the balanced list with A first is d1 d2 d3.
RANKS = {"A": {"q": ["d1", "d2", "d3"]}, "B": {"q": ["d2", "d3", "d1"]}}


def _balanced_log(clicks: list[set[int]]) -> bytes:
    return "".join(f"i{n} q {r} d{r} - {int(r in c)}\n" for n, c in enumerate(clicks)
                   for r in (1, 2, 3)).encode()


def test_hand_made_balanced_log():
    # balanced credit (Joachims 2002): d the lowest clicked document, k its best rank in A
    # or B, h_s = clicked documents in s[1..k].
    # {d3}: k = min(3, 2) = 2, A[1..2] = {d1, d2} → 0, B[1..2] = {d2, d3} → 1: loss
    # {d1}: k = min(1, 3) = 1, A[1] = {d1} → 1, B[1] = {d2} → 0: win
    # {d1, d2}: d = d2, k = min(2, 1) = 1, h_A = 1 (d1), h_B = 1 (d2): tie
    # {}: tie
    row = score_log(_balanced_log([{3}, {1}, {1, 2}, set(), {1}]), RANKS,
                    method="balanced", rng=0).to_frame().iloc[0]
    assert (row["wins"], row["losses"], row["ties"]) == (2, 1, 2)


def test_hand_made_optimized_log():
    # inverse credit δ_s(d) = 1/r_s(d): click d1 → A 1, B 1/3: win; click d2 → A 1/2, B 1:
    # loss; click d3 → A 1/3, B 1/2: loss; click d1, d3 → A 4/3, B 5/6: win
    row = score_log(_balanced_log([{1}, {2}, {3}, {1, 3}]), RANKS, method="optimized",
                    rng=0).to_frame().iloc[0]
    assert (row["wins"], row["losses"], row["ties"]) == (2, 2, 0)
    # linear credit δ_s(d) = -r_s(d): click d1, d2 → A -3, B -4: win; d2, d3 → A -5, B -3
    row = score_log(_balanced_log([{1, 2}, {2, 3}, {2, 3}]), RANKS, method="optimized",
                    credit="linear", rng=0).to_frame().iloc[0]
    assert (row["wins"], row["losses"], row["ties"]) == (1, 2, 0)


def test_hand_made_probabilistic_log():
    # A = d1 d2, B = d2 d1, τ = 3, list d1 d2, d1 clicked. Position 1: both rankers have
    # documents, p_A = 1/2 · 1/(1 + 1/8) = 4/9, p_B = 1/2 · (1/8)/(9/8) = 1/18, so
    # P(d1 from A | list) = (4/9)/(4/9 + 1/18) = 8/9: A wins with 8/9, loses with 1/9.
    runs = {"A": {"q": ["d1", "d2"]}, "B": {"q": ["d2", "d1"]}}
    log = b"i1 q 1 d1 - 1\ni1 q 2 d2 - 0\ni2 q 1 d1 - 1\ni2 q 2 d2 - 0\n"
    row = score_log(log, runs, method="probabilistic", rng=0).to_frame().iloc[0]
    assert row["wins"] == pytest.approx(2 * 8 / 9)
    assert row["losses"] == pytest.approx(2 * 1 / 9)
    assert row["delta"] == pytest.approx((8 / 9 - 1 / 9) / 2)


def test_a_dataframe_log_reads_as_its_text():
    runs = _rankings("AB")
    batch = interleave_runs(runs, 5, length=4, rng=0)
    clicks = np.zeros(batch.pairs.shape, dtype=bool)
    clicks[:, 0] = True
    frame = batch.to_frame()
    frame["clicked"] = clicks[frame["impression"], frame["rank"] - 1].astype(int)
    text = score_log(_log_bytes(batch, clicks, shuffle=None), rng=0).to_frame()
    pd.testing.assert_frame_equal(score_log(frame, rng=0).to_frame(), text)
    with pytest.raises(InputFormatError, match="clicked"):
        read_interleaving_log(frame.drop(columns="clicked"))


def test_reader_matrices_and_errors():
    log = read_interleaving_log(TEAM_DRAFT.encode())
    assert log.impressions.tolist() == ["i1", "i2", "i3", "i4", "i5", "i6"]
    assert log.shown.lengths.tolist() == [2, 2, 2, 2, 4, 2]
    assert log.team[5].tolist()[:2] == [1, 0]  # i6 is given rank 2 first
    with pytest.raises(DuplicateError, match=r"line 2.*'d1' shown twice"):
        read_interleaving_log(b"i1 q 1 d1 A 1\ni1 q 2 d1 B 0\n")
    with pytest.raises(InputFormatError, match=r"line 2.*not 1\.\.n"):
        read_interleaving_log(b"i1 q 1 d1 A 1\ni1 q 3 d2 B 0\n")


def test_api_refusals():
    with pytest.raises(ParameterError, match="runs"):
        score_log(TEAM_DRAFT.encode(), method="balanced")
    with pytest.raises(ParameterError, match="two rankers"):
        score_log(b"i1 q 1 a A 1\ni1 q 2 b B 0\ni1 q 3 c C 0\n", _rankings("ABC"),
                  method="balanced")
    with pytest.raises(InputError, match="one team only"):
        score_log(b"i1 q 1 a A 1\ni2 q 1 b A 0\n")
    with pytest.raises(ParameterError, match="method"):
        score_log(TEAM_DRAFT.encode(), method="tdi")  # type: ignore[arg-type]


def test_the_command_prints_the_api_result(tmp_path, capsys):
    from irscale.cli.main import main

    path = tmp_path / "log.txt"
    path.write_text(TEAM_DRAFT)
    status = main(["online", "score", str(path), "--format", "csv", "--seed", "3",
                   "--bootstrap", "300", "--alpha", "0.1"])
    assert status in (0, None)
    expected = score_log(path, alpha=0.1, bootstrap=300, rng=3).format("csv") + "\n"
    assert capsys.readouterr().out == expected


def _run_files(folder, ids: dict[str, str]) -> list:
    """The rankings of :data:`RANKS` (A, B) as run files ``a.run`` and ``b.run`` whose run
    ids are ``ids[ranker]``: the runs are named ``a`` and ``b`` by their files."""
    paths = []
    for ranker, path in (("A", folder / "a.run"), ("B", folder / "b.run")):
        path.write_text("".join(f"q Q0 {d} {i + 1} {10 - i} {ids[ranker]}\n"
                                for i, d in enumerate(RANKS[ranker]["q"])))
        paths.append(path)
    return paths


def _team_log(teams: dict[str, str]) -> bytes:
    """:data:`TEAM_DRAFT` with its teams renamed (``{"A": "bm25"}``)."""
    return "".join(" ".join([*f[:4], teams.get(f[4], f[4]), f[5]]) + "\n"
                   for f in map(str.split, TEAM_DRAFT.splitlines())).encode()


_Q_LOG = b"i1 q 1 d1 A 1\ni1 q 2 d2 B 0\ni2 q 1 d2 B 1\ni2 q 2 d1 A 0\n"


@pytest.mark.parametrize("teams", [{"A": "bm25", "B": "ql"}, {"A": "a", "B": "b"},
                                   {"A": "a.run", "B": "b.run"}])
def test_the_teams_name_runs_by_run_id_name_or_file(tmp_path, teams):
    """A log's teams designate the runs as every run argument does
    (:func:`irscale.io.naming.find_run`): a log written with run ids scores the runs named
    by their files, and the rankers take the runs' names."""
    paths = _run_files(tmp_path, {"A": "bm25", "B": "ql"})
    log = b"".join(_Q_LOG.replace(b" A ", f" {teams['A']} ".encode())
                   .replace(b" B ", f" {teams['B']} ".encode()).splitlines(keepends=True))
    for method in ("team-draft", "balanced"):
        got = score_log(log, paths, method=method, rng=0).to_frame()
        expected = score_log(_Q_LOG, RANKS, method=method, rng=0).to_frame()
        assert got[["a", "b"]].values.tolist() == [["a", "b"]]
        pd.testing.assert_frame_equal(got.drop(columns=["a", "b"]),
                                      expected.drop(columns=["a", "b"]))


def test_teams_that_name_no_run_one_run_twice_or_two_runs_are_refused(tmp_path):
    paths = _run_files(tmp_path, {"A": "bm25", "B": "ql"})
    with pytest.raises(InputError, match=r"line 1: team 'x' names no run: .* runs: 'a' "
                       r"\(.*a\.run\), 'b'"):
        score_log(_Q_LOG.replace(b" A ", b" x "), paths, method="balanced")
    with pytest.raises(InputError, match=r"line 2: teams 'bm25' and 'a' both name the run "
                       "'a'"):
        score_log(_Q_LOG.replace(b" A ", b" bm25 ").replace(b" B ", b" a "), paths,
                  method="balanced")
    paths = _run_files(tmp_path, {"A": "bm25", "B": "a"})  # b.run's run id is a's name
    with pytest.raises(InputError, match=r"team 'a' is ambiguous: it names the runs 'a' "
                       r"\(.*\), 'b'"):
        score_log(_Q_LOG.replace(b" A ", b" a "), paths, method="balanced")


def test_rankings_by_name_know_their_names_only():
    with pytest.raises(InputError, match=r"team 'a' names no run: .*runs: 'A', 'B'"):
        score_log(_Q_LOG.replace(b" A ", b" a "), RANKS, method="balanced")


def test_the_command_names_the_runs_as_eval_does(tmp_path, capsys):
    from irscale.cli.main import main

    paths = [str(path) for path in _run_files(tmp_path, {"A": "bm25", "B": "ql"})]
    log = tmp_path / "log.txt"
    log.write_bytes(_Q_LOG.replace(b" A ", b" bm25 ").replace(b" B ", b" ql "))
    for names, shown in ((None, ["a", "b"]), ("runid", ["bm25", "ql"]), ("x,y", ["x", "y"])):
        argv = ["online", "score", str(log), "--runs", *paths, "--method", "balanced",
                "--format", "csv", "--seed", "0"]
        assert main(argv + (["--names", names] if names else [])) in (0, None)
        assert capsys.readouterr().out.splitlines()[1].split(",")[:2] == shown
