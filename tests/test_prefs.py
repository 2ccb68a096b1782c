"""Preference measures (trec_eval 9.0.8's ``-R prefs`` / ``-R qrels_prefs``): byte for byte
against trec_eval's output frozen in ``tests/fixtures/prefs_reference`` (written by
``tests/fixtures/make_prefs_reference.py``), and hand-computed examples."""

from __future__ import annotations

import importlib.util
import warnings
from pathlib import Path

import pytest

import irscale
from irscale.cli.main import main
from irscale.errors import InputFormatError
from irscale.io.prefs import read_prefs

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "prefs_reference"
FORMS = {"prefs": "prefs.txt", "qrels_prefs": "qrels.txt"}
OPTIONS = {"default": {}, "c": {"complete": True}, "M5": {"max_docs": 5}}


def _generator():
    spec = importlib.util.spec_from_file_location(
        "make_prefs_reference", FIXTURE.parent / "make_prefs_reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fixture_inputs_are_what_the_generator_writes():
    generated = _generator().generate()
    for relative, content in generated.items():
        assert (FIXTURE / relative).read_text() == content, relative


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("run", ("alpha", "beta", "gamma"))
def test_bytes_of_trec_eval(form, options, run):
    expected = (FIXTURE / "expected" / f"{form}-{options}-{run}.txt").read_bytes()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # topic 999: not judged
        evaluation = irscale.evaluate(FIXTURE / FORMS[form], FIXTURE / "runs" / f"{run}.run",
                                      "all_prefs", relevance_format=form, **OPTIONS[options])
    assert evaluation.format("trec", per_query=True).encode() == expected


def test_command_line_prints_trec_evals_bytes(capsysbinary):
    judgments, run = FIXTURE / "prefs.txt", FIXTURE / "runs" / "beta.run"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        status = main(["eval", "-q", "-c", "-R", "prefs", "-m", "all_prefs", str(judgments),
                       str(run)])
    assert status == 0
    expected = (FIXTURE / "expected" / "prefs-c-beta.txt").read_bytes()
    assert capsysbinary.readouterr().out == expected


def _values(prefs: bytes, run: dict[str, dict[str, float]], measures: str = "all_prefs",
            form: str = "prefs") -> dict[str, float]:
    evaluation = irscale.evaluate(prefs, run, measures, relevance_format=form)
    frame = evaluation.per_topic()
    return dict(zip(frame["measure"], frame["value"], strict=True))


def test_one_subgroup_example_of_get_prefs():
    # get_prefs.c: levels 3, 2, 0, 6, 0, 2 give 13 preferences
    prefs = b"".join(f"q u s d{k} {v}\n".encode() for k, v in
                     enumerate((3.0, 2.0, 0.0, 6.0, 0.0, 2.0), 1))
    assert _values(prefs, {"q": {"x": 1.0}})["prefs_num_prefs_poss"] == 13


@pytest.mark.parametrize(("lines", "count"), [
    # get_prefs.c's examples: two sub-groups (its comment lists 1>2, 1>3, 2>3, 4>1, 4>2,
    # the duplicate 1>2 counted once; the transitive closure adds 4>3, and trec_eval 9.0.8
    # counts 6), transitivity (1>2, 1>3, 2>3, 2>4, 1>4), two groups (1>2; 3>1, 4>1, 3>4,
    # 2>1)
    (["1 s1 a 3", "1 s1 b 2", "1 s1 c 1", "1 s2 a 2", "1 s2 b 1", "1 s2 d 3"], 6),
    (["1 s1 a 3", "1 s1 b 2", "1 s1 c 1", "1 s2 b 5", "1 s2 d 4"], 5),
    (["1 s1 a 3", "1 s1 b 2", "2 s1 a 0", "2 s1 c 6", "2 s1 d 2", "2 s2 a 0", "2 s2 b 8"],
     5),
])
def test_sub_group_examples_of_get_prefs(lines, count):
    prefs = "".join(f"q {line}\n" for line in lines).encode()
    assert _values(prefs, {"q": {"x": 1.0}})["prefs_num_prefs_poss"] == count


def test_hand_computed_ratios():
    # d1 > d2 > d3; the run ranks d2 above d1 and misses d3: d1 > d2 fails (both
    # retrieved), d1 > d3 and d2 > d3 are fulfilled as implied preferences
    prefs = b"q u s d1 2\nq u s d2 1\nq u s d3 0\n"
    v = _values(prefs, {"q": {"d2": 2.0, "d1": 1.0}})
    assert v["prefs_num_prefs_poss"] == 3 and v["prefs_num_prefs_ful"] == 2
    assert v["prefs_num_prefs_ful_ret"] == 0 and v["prefs_simp_ret"] == 0.0
    assert v["prefs_simp"] == pytest.approx(2 / 3) and v["prefs_simp_imp"] == pytest.approx(2 / 3)
    # pairs: (d2, d1) 0 of 1 JG agrees, (d2, d3) and (d1, d3) 1 of 1
    assert v["prefs_pair"] == pytest.approx(2 / 3) and v["prefs_pair_ret"] == 0.0
    # one JG: avgjg = simp; Rnonrel: R = 2 relevant ≥ N = 1, so 2·(2−1) fulfilled and
    # possible preferences are added: (2 + 2) / (3 + 2)
    assert v["prefs_avgjg"] == pytest.approx(2 / 3)
    assert v["prefs_avgjg_Rnonrel"] == pytest.approx(4 / 5)


def test_ties_are_broken_by_docno_ascending():
    # form_prefs_counts.c orders equal scores by docno ascending (trec_eval's other
    # measures: descending): d1 comes first and d1 > d2 is fulfilled
    prefs = b"q u s d1 2\nq u s d2 1\n"
    assert _values(prefs, {"q": {"d2": 1.0, "d1": 1.0}})["prefs_simp"] == 1.0


def test_qrels_form_groups_by_the_second_field():
    # two JGs (iter 0 and 1) that disagree: pair = 1/2, avgjg = (1 + 0) / 2
    qrels = b"q 0 a 1\nq 0 b 0\nq 1 a 0\nq 1 b 1\n"
    v = _values(qrels, {"q": {"a": 2.0, "b": 1.0}}, form="qrels_prefs")
    assert v["prefs_pair"] == 0.5 and v["prefs_avgjg"] == 0.5 and v["prefs_simp"] == 0.5


def test_reader_names_line_and_text():
    with pytest.raises(InputFormatError, match=r"line 2: .*not a number.*'q u s d2 x'"):
        read_prefs(b"q u s d1 1\nq u s d2 x\n")
    levels = read_prefs(b"q 0 d1 1.00000001\n", "qrels_prefs").level
    assert levels.dtype.name == "float32" and levels.tolist() == [1.0]


@pytest.mark.parametrize(("options", "message"), [
    ({"relevance_format": "bogus"}, r"relevance_format must be one of \[.qrels., .qrels_jg., "
                                    r".prefs., .qrels_prefs.\], got .bogus."),
    ({"relevance_format": "prefs", "judged_only": True}, "judged_only"),
    ({"relevance_format": "prefs", "ties": "file-order"}, "ties"),
    ({"relevance_format": "prefs", "max_docs": 0}, "max_docs"),
])
def test_options_that_do_not_apply_are_refused(options, message):
    with pytest.raises(irscale.errors.ParameterError, match=message):
        irscale.evaluate(b"q u s d1 1\n", {"q": {"d1": 1.0}}, "prefs_simp", **options)


def test_several_runs_and_topics_missing_on_either_side():
    prefs = b"q1 u s a 1\nq1 u s b 0\nq2 u s a 1\n"
    runs = {"one": {"q1": {"b": 2.0, "a": 1.0}, "q3": {"a": 1.0}},
            "two": {"q1": {"a": 2.0}}}
    with pytest.warns(UserWarning, match="q3"):
        evaluation = irscale.evaluate(prefs, runs, ["prefs_simp", "num_q"],
                                      relevance_format="prefs", complete=True)
    table = evaluation.mean()
    # -c: the mean is over both judged topics (q2 missed by both runs)
    assert table.loc["one", "prefs_simp"] == 0.0 and table.loc["two", "prefs_simp"] == 0.5


def test_rnonrel_recount_compares_the_kept_class_with_itself():
    # R = 1 relevant (d1), N = 2 non-relevant: the recount keeps d2, the first non-relevant
    # document, and compares every class with it, the non-relevant class included: d1 > d2
    # fulfilled, d2 vs d2 and d3 vs d2 possible, not fulfilled: 1/3 (trec_eval 9.0.8 prints
    # 0.3333), not the 1/1 of d1 > d2 alone
    v = _values(b"q u s d1 1\nq u s d2 0\nq u s d3 0\n", {"q": {"d1": 3.0, "d2": 2.0, "d3": 1.0}})
    assert v["prefs_avgjg_Rnonrel"] == pytest.approx(1 / 3)
    assert v["prefs_avgjg_Rnonrel_ret"] == pytest.approx(1 / 3)


def test_rnonrel_warns_where_trec_eval_reads_past_its_judgments():
    # two relevant documents, non-relevant ones at 0 and -1: the lowest class (-1) holds one
    # document where the recount wants two
    prefs = b"q u s a 2\nq u s b 1\nq u s c 0\nq u s d 0\nq u s e -1\n"
    with pytest.warns(UserWarning, match="reads past its judgments"):
        _values(prefs, {"q": {"a": 2.0, "c": 1.0}}, "prefs_avgjg_Rnonrel")
