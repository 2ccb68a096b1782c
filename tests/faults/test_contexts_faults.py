"""The contexts with inputs of their own (sessions, texts, pyramids, nuggets,
:mod:`irscale.evaluation.contexts`): :func:`irscale.evaluate` evaluates or refuses them by
their declarations, ``irscale eval`` names their command. Table-driven: every row is one
call checked against the contract of ``docs/errors.md`` (see ``conftest.py``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import irscale
from irscale.errors import MeasureError, ParameterError

from .conftest import err, run_case

QRELS = b"s1 0 d1 1\ns1 0 d2 2\n"
SESSION_RUN = b"s1 1 d3 1 0.9 sys\ns1 1 d1 2 0.5 sys\ns1 2 d2 1 0.7 sys\n"
REFERENCES = b"q1\tr1\tthe cat sat on the mat\n"
CANDIDATES = b"q1\tA\tthe cat sat\n"
FILES = {"qrels.txt": QRELS, "a.run": SESSION_RUN}
DIVERSITY = {"div.qrels": b"1 1 d1 1\n", "a.run": b"1 Q0 d1 1 1.0 sys\n",
             "b.run": b"1 Q0 d1 1 1.0 base\n"}


def _eval(measure: str) -> list[str]:
    return ["eval", "-m", measure, "qrels.txt", "a.run"]


CASES = [
    err("eval-session-measures-name-their-command", _eval("sDCG@10"), "session measures",
        "irscale session", files=FILES),
    err("eval-text-measures-name-their-command", _eval("ROUGE-L"), "ROUGE and BLEU",
        "irscale text rouge|bleu", files=FILES),
    err("eval-pyramid-measures-name-their-command", _eval("pyramid_modified"),
        "pyramid scores", "irscale text pyramid", files=FILES),
    err("eval-nugget-measures-name-their-command", _eval("W-Rec"), "nugget measures",
        "irscale text nuggets", files=FILES),
    # a family of theirs with a bad parameter or cut-off is still theirs (it was "unknown
    # measure 'sDCG(b=2)' (did you mean SDCG?)")
    err("eval-session-measure-bad-parameter-names-its-command", _eval("sDCG(b=2)@5"),
        "session measures", "irscale session", files=FILES),
    # the formats a context declares: one rule and wording (diversity measures and
    # preference judgments said it in words of their own before)
    err("eval-diversity-format-declared", ["eval", "-m", "ndeval", "--format", "json",
                                           "div.qrels", "a.run"],
        "--format json does not apply to diversity measures (ndeval, trec or csv)",
        files={"div.qrels": b"1 1 d1 1\n", "a.run": b"1 Q0 d1 1 1.0 sys\n"}),
    err("eval-prefs-format-declared", ["eval", "-R", "prefs", "--format", "latex",
                                       "qrels.txt", "a.run"],
        "--format latex does not apply to preference judgments (trec, csv, json or "
        "markdown)", files=FILES),
    # the options of the outputs a context reads are declared with it: one rule and
    # wording refuses the others (diversity, fairness and preference judgments said it in
    # rules of their own before)
    err("eval-diversity-test-not-read", ["eval", "-m", "ndeval", "--format", "ndeval",
                                         "--baseline", "b.run", "--test", "sign",
                                         "div.qrels", "a.run"],
        "--test does not apply to diversity measures (", files=DIVERSITY),
    err("eval-diversity-batches-not-read", ["eval", "-m", "ndeval", "--batch-size", "2",
                                            "div.qrels", "a.run"],
        "--batch-size does not apply to diversity measures (", files=DIVERSITY),
    err("eval-prefs-baseline-not-read", ["eval", "-R", "prefs", "-m", "prefs_simp",
                                         "--format", "latex", "--baseline", "a",
                                         "qrels.txt", "a.run"],
        "--baseline does not apply to preference judgments (", files=FILES),
    err("eval-prefs-batches-not-read", ["eval", "-R", "prefs", "-m", "prefs_simp",
                                        "--workers", "2", "qrels.txt", "a.run"],
        "--workers does not apply to preference judgments (", files=FILES),
    err("eval-topic-alpha-not-read", ["eval", "-m", "map", "--topic-alpha", "al.txt",
                                      "qrels.txt", "a.run"],
        "--topic-alpha does not apply to trec_eval's and the catalogue's measures (",
        files={**FILES, "al.txt": b"1 0.3\n"}),
    err("eval-diversity-ci-not-read", ["eval", "-m", "ndeval", "--format", "csv", "--ci",
                                       "t", "div.qrels", "a.run"],
        "--ci does not apply to diversity measures (", files=DIVERSITY),
    err("eval-prefs-bounds-not-read", ["eval", "-R", "prefs", "-m", "prefs_simp",
                                       "--bounds", "qrels.txt", "a.run"],
        "--bounds does not apply to preference judgments (", files=FILES),
    # a context's measures mixed with others: one rule and wording for every context in
    # the API and on the command line (diversity and fairness said it in words of their
    # own before, and sessions, texts, pyramids and nuggets gave "unknown measure")
    err("eval-diversity-mixed", ["eval", "-m", "map", "-m", "alpha-nDCG@20", "div.qrels",
                                 "a.run"],
        "diversity measures cannot be mixed with other measures ('map'): evaluate them in "
        "a call of their own", files=DIVERSITY),
    err("eval-session-mixed", ["eval", "-m", "sDCG@10", "-m", "map", "qrels.txt", "a.run"],
        "session measures cannot be mixed with other measures ('map'): evaluate them in a "
        "call of their own", files=FILES),
    err("eval-text-mixed", ["eval", "-m", "map", "-m", "ROUGE-L", "qrels.txt", "a.run"],
        "ROUGE and BLEU cannot be mixed with other measures ('map'): evaluate them in a "
        "call of their own", files=FILES),
    # ndeval's -riskAlpha: one rule and wording (the diversity rules said it twice)
    err("eval-risk-alpha-without-baseline", ["eval", "-m", "ndeval", "--format", "ndeval",
                                             "--risk-alpha", "1", "div.qrels", "a.run"],
        "--risk-alpha applies to ndeval's risk-sensitive output (diversity measures, "
        "--format ndeval --baseline FILE)", files=DIVERSITY),
    # trec_eval's names skip the other contexts by the manifest (src/irscale/_manifest.py):
    # their refusals, which read a context's declarations from it and load the context to
    # word the message, are those of the contexts themselves
    err("eval-trec-names-with-a-context-format", ["eval", "--format", "ndeval", "-m", "map",
                                                  "qrels.txt", "a.run"],
        "--format ndeval prints diversity measures (-m ndeval)", files=FILES),
    err("eval-trec-names-with-a-context-qrels-form",
        ["eval", "--qrels-format", "diversity", "-m", "map", "div.qrels", "a.run"],
        "--qrels-format diversity needs diversity measures (ndeval, alpha-nDCG@20, "
        "ERR-IA@20 ...), got 'map'", files=DIVERSITY),
    err("eval-context-names-with-trec-qrels",
        ["eval", "--qrels-format", "trec", "-m", "alpha-nDCG@20", "div.qrels", "a.run"],
        "diversity measures need diversity qrels: --qrels-format diversity (or auto)",
        files=DIVERSITY),
    err("eval-trec-nickname-then-a-context-measure",
        ["eval", "-m", "all_trec", "-m", "ndeval", "div.qrels", "a.run"],
        "diversity measures cannot be mixed with other measures ('all_trec')",
        files=DIVERSITY),
    err("eval-trec-name-then-a-session-measure",
        ["eval", "-m", "map", "-m", "sDCG@10", "qrels.txt", "a.run"],
        "session measures cannot be mixed with other measures ('map')", files=FILES),
    err("eval-trec-family-bad-parameter", ["eval", "-m", "P.x", "qrels.txt", "a.run"],
        "measure 'P': cut-offs must be positive integers, got 'x'", files=FILES),
    # trec_eval's names of TREC files take the default context as the manifest declares it
    # (irscale.evaluation.context_manifest.Declared, its module not loaded): its refusals
    # are the context's, word for word
    err("eval-trec-names-declared-context-refuses-intents",
        ["eval", "-m", "map", "--intent-probs", "p.txt", "qrels.txt", "a.run"],
        "--intent-probs does not apply to trec_eval's and the catalogue's measures (the "
        "intents are read by diversity measures only: I-rec@10, D#-nDCG@10, P+Q ...)",
        files={**FILES, "p.txt": b"1 1 0.5\n"}),
    err("eval-trec-names-declared-context-refuses-relevance-format",
        ["eval", "-R", "qrels", "qrels.txt", "a.run"],
        "-R/--relevance-format does not apply to trec_eval's and the catalogue's measures (",
        files=FILES),
]


@pytest.mark.parametrize("case", CASES)
def test_contexts_cli(case, ws, run_cli):
    run_case(case, ws, run_cli)


#: (id, call, error type, the message's start): calls of :func:`irscale.evaluate`.
API_ROWS: list[tuple[str, Callable[[], object], type, str]] = [
    ("session-option-not-read",
     lambda: irscale.evaluate(QRELS, SESSION_RUN, "sDCG@10", compat=10), ParameterError,
     "compat= does not apply to session measures ("),
    ("text-option-not-read",
     lambda: irscale.evaluate(REFERENCES, CANDIDATES, "ROUGE-L", judged_only=True),
     ParameterError, "judged_only= does not apply to ROUGE and BLEU ("),
    ("pyramid-option-not-read",
     lambda: irscale.evaluate(b"", b"", "pyramid", max_docs=5), ParameterError,
     "max_docs= does not apply to pyramid scores ("),
    ("bleu-mixed-with-rouge",
     lambda: irscale.evaluate(REFERENCES, CANDIDATES, "BLEU ROUGE-L"), MeasureError,
     "BLEU cannot be mixed with ROUGE measures ('ROUGE-L')"),
    ("diversity-mixed",
     lambda: irscale.evaluate(QRELS, SESSION_RUN, ["alpha-nDCG@20", "map"]), MeasureError,
     "diversity measures cannot be mixed with other measures ('map'): evaluate them in a "
     "call of their own"),
    ("fairness-mixed",
     lambda: irscale.evaluate(QRELS, SESSION_RUN, ["map", "AWRF@10"]), MeasureError,
     "fairness measures cannot be mixed with other measures ('map'): evaluate them in a "
     "call of their own"),
    ("session-measure-bad-parameter",
     lambda: irscale.evaluate(QRELS, SESSION_RUN, "sDCG(b=2)@10"), MeasureError,
     "measure 'sDCG(b=2)@10': unknown parameter(s) ['b']"),
    ("session-mixed",
     lambda: irscale.evaluate(QRELS, SESSION_RUN, ["P@5", "sDCG@10"]), MeasureError,
     "session measures cannot be mixed with other measures ('P@5'): evaluate them in a "
     "call of their own"),
    ("pyramid-mixed",
     lambda: irscale.evaluate(b"", b"", ["pyramid", "map"]), MeasureError,
     "pyramid scores cannot be mixed with other measures ('map'): evaluate them in a call "
     "of their own"),
    ("nuggets-mixed",
     lambda: irscale.evaluate(b"", b"", ["W-Rec", "map"]), MeasureError,
     "nugget measures cannot be mixed with other measures ('map'): evaluate them in a "
     "call of their own"),
    ("session-click-options-need-clicks",
     lambda: irscale.evaluate_sessions(QRELS, SESSION_RUN, "sDCG@10", click_order="rank"),
     ParameterError, "click_order= applies to click logs (clicks=)"),
    ("nuggets-need-outputs",
     lambda: irscale.evaluate(b"", b"", "W-Rec"), ParameterError,
     "nugget measures read the outputs' lengths or texts"),
    # the score matrices choose the context and refuse what it does not read as
    # irscale.evaluate does (the intents' options were ignored without diversity measures)
    ("matrix-intent-types-not-read",
     lambda: _matrix(["P_1"], intent_types=b"s1 1 nav\n"), ParameterError,
     "intent_types= does not apply to trec_eval's and the catalogue's measures ("),
    ("matrix-intent-probabilities-not-read",
     lambda: _matrix(["sDCG@10"], intent_probabilities=b"s1 1 1\n"), ParameterError,
     "intent_probabilities= does not apply to session measures ("),
]


def _matrix(measures: list[str], **options: object) -> object:
    """:func:`irscale.evaluation.evaluate_matrix` of two runs with ``options``."""
    from irscale.evaluation import evaluate_matrix

    return evaluate_matrix(QRELS, {"a": SESSION_RUN, "b": SESSION_RUN}, measures, **options)


@pytest.mark.parametrize(("call", "kind", "start"), [row[1:] for row in API_ROWS],
                         ids=[row[0] for row in API_ROWS])
def test_contexts_api(call, kind, start):
    with pytest.raises(kind) as error:
        call()
    assert str(error.value).startswith(start), str(error.value)
