"""The ``irscale eval`` and ``irscale demo`` commands."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

import irscale
from irscale.cli.main import main


def cli(args: list[str]) -> tuple[int, str, str]:
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    err = io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(args)
    out.flush()
    return status, out.buffer.getvalue().decode(), err.getvalue()


def files(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 a 1\n")
    run = tmp_path / "run.txt"
    run.write_text("1 Q0 a 1 3 sysA\n1 Q0 b 2 2 sysA\n1 Q0 c 3 1 sysA\n3 Q0 a 1 1 sysA\n")
    return str(qrels), str(run)


def test_eval_trec_format_and_options(tmp_path):
    qrels, run = files(tmp_path)
    status, out, err = cli(["eval", "-q", "-m", "map", "-m", "P.2", qrels, run])
    assert status == 0
    assert out.splitlines() == [
        "map                   \t1\t0.8333",
        "P_2                   \t1\t0.5000",
        "map                   \tall\t0.8333",
        "P_2                   \tall\t0.5000",
    ]
    assert "topic(s) with results but no judgments" in err and ": 3" in err
    _, out, _ = cli(["eval", "-l2", "-M1", "-m", "map", qrels, run])
    assert out == "map                   \tall\t0.0000\n"
    _, out, _ = cli(["eval", "-c", "-m", "map", qrels, run])
    assert out == "map                   \tall\t0.4167\n"


def test_eval_json_and_ir_measures_names(tmp_path):
    qrels, run = files(tmp_path)
    _, out, _ = cli(["eval", "--format", "json", "-m", "AP", "-m", "P(rel=2)@1",
                          qrels, run])
    rows = json.loads(out)
    assert {r["measure"] for r in rows} == {"AP", "P(rel=2)@1"}


def test_errors_are_reported_with_exit_status_2(tmp_path):
    qrels, run = files(tmp_path)
    bad = tmp_path / "bad.run"
    bad.write_text("1 Q0 a 1 3 x\n1 Q0 b 2 NaN x\n")
    status, _, err = cli(["eval", qrels, str(bad)])
    assert status == 2 and "bad.run, line 2" in err and "not finite" in err
    status, _, err = cli(["eval", "-m", "nosuch", qrels, run])
    assert status == 2 and "unknown measure 'nosuch'" in err
    status, _, err = cli(["eval", "-M", "-1", "-m", "map", qrels, run])
    assert status == 2 and "max_docs" in err


def test_demo_generates_and_evaluates(tmp_path):
    status, out, _ = cli(["demo", "--out", str(tmp_path / "demo"), "--topics", "5"])
    assert status == 0
    assert (tmp_path / "demo" / "qrels.txt").exists()
    assert len(list((tmp_path / "demo").glob("*.run"))) == 5
    assert "| system5 |" in out and "runid                 \tall\tsystem5" in out
    assert "two-way ANOVA (MD2)" in out and "Tukey HSD after two-way ANOVA" in out


def test_complete_counts_every_qrels_topic_and_relstring_is_quoted(tmp_path):
    qrels, run = files(tmp_path)
    _, out, _ = cli(["eval", "-c", "-m", "num_q", "-m", "num_rel", "-m", "gm_map", qrels, run])
    # 9.0.8: num_q counts qrels topics; num_rel the judgments > 0 of every qrels topic
    # (m_num_rel.c te_calc_avg_num_rel), topic 2 included; missing topic → 1e-5
    assert out.splitlines() == [
        "num_q                 \tall\t2",
        "num_rel               \tall\t3",
        f"gm_map                \tall\t{(0.8333333333333333 * 1e-5) ** 0.5:6.4f}",
    ]
    _, out, _ = cli(["eval", "-q", "-m", "relstring", qrels, run])
    assert out.splitlines()[0].startswith("relstring             \t1\t'")


def test_compat_profiles_choose_trec_eval_tables(tmp_path):
    qrels, run = files(tmp_path)
    _, nine, _ = cli(["eval", "-m", "all_trec", qrels, run])
    _, ten, _ = cli(["eval", "--compat", "10", "-m", "all_trec", qrels, run])
    names9 = [line.split()[0] for line in nine.splitlines()]
    names10 = [line.split()[0] for line in ten.splitlines()]
    assert "rbp" not in names9 and names9[-1] == "num_nonrel_judged_ret"
    assert names10[-5:] == ["rbp", "rbp_resid", "unj_5", "unj_10", "unj_20"]
    assert names10[: len(names9)] == names9


def test_compat_10_compares_scores_as_doubles(tmp_path):
    """trec_eval 9.0.8 stores scores as C floats (1.000000049 and 1.000000048 tie, docno
    descending: d2 first); 10.0 as doubles (d1 first)."""
    qrels = tmp_path / "q.txt"
    qrels.write_text("1 0 d1 1\n1 0 d2 0\n")
    run = tmp_path / "r.txt"
    run.write_text("1 Q0 d1 1 1.000000049 r\n1 Q0 d2 2 1.000000048 r\n")
    _, nine, _ = cli(["eval", "-q", "-m", "recip_rank", str(qrels), str(run)])
    _, ten, _ = cli(["eval", "--compat", "10", "-q", "-m", "recip_rank", str(qrels), str(run)])
    assert nine.splitlines()[0] == "recip_rank            \t1\t0.5000"
    assert ten.splitlines()[0] == "recip_rank            \t1\t1.0000"
    api = {compat: irscale.evaluate(str(qrels), str(run), "recip_rank", compat=compat)
           .per_topic()["value"].tolist() for compat in (9, 10)}
    assert api == {9: [0.5], 10: [1.0]}
