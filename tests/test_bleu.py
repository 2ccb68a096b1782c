"""BLEU against sacrebleu (the oracle) on generated and fixed texts: tokens, sentence and
corpus BLEU under every smoothing, tokeniser, order, case and effective-order setting; the
evaluation of files; and the errors."""

from __future__ import annotations

import logging
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.errors import InputError, MeasureError, ParameterError
from irscale.text.bleu import (
    bleu_tokens,
    corpus_bleu,
    evaluate_bleu,
    evaluate_corpus_bleu,
    parse_bleu,
    sentence_bleu,
)

from .oracle_imports import lazy_importorskip
from .property_examples import examples

sacrebleu = lazy_importorskip("sacrebleu")

logging.getLogger("sacrebleu").setLevel(logging.ERROR)  # its effective-order advice

# words, punctuation, digits with separators, entities, non-ASCII letters, symbols, blanks
PIECES = ["the", "cat", "The", "CAT", "sat", "on", "mat", "a", "ÉTÉ", "été", "straße",
          "猫", "3.50", "1,000", "2-3", "-", ".", ",", "!", "?", "'", '"', "(", ")", "$",
          "€", "&amp;", "&quot;", "<skipped>", "a.b", "x,y", "end.", "¿", "«", "»", "—",
          "…", "\u00a0", "\t", "\u2028", "@", "#", "1.", ".5", "U.S.", "9-9", "19-"]
joiner = st.sampled_from([" ", " ", " ", "", "  ", "\n"])
text_st = st.lists(st.tuples(st.sampled_from(PIECES), joiner), max_size=14).map(
    lambda parts: "".join(p + j for p, j in parts))
# the characters the tokenisers' rules turn on, densely
dense_text_st = st.text(alphabet="09a.,-&;<>qut \n'\"$€!¿_~", max_size=25)
free_text_st = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)),
                       max_size=20)
SMOOTH = [("exp", None), ("floor", None), ("floor", 0.3), ("add-k", None), ("add-k", 2.0),
          ("none", None)]


def _name(tokenize: str, smooth: str, value: float | None, order: int, lowercase: bool,
          effective: bool) -> str:
    value_part = f",value={value}" if value is not None else ""
    return (f"BLEU(tokenize={tokenize},smooth={smooth}{value_part},order={order},"
            f"lowercase={int(lowercase)},effective={int(effective)})")


def _oracle(tokenize: str, smooth: str, value: float | None, order: int, lowercase: bool,
            effective: bool):
    return sacrebleu.BLEU(tokenize=tokenize, smooth_method=smooth, smooth_value=value,
                          max_ngram_order=order, lowercase=lowercase,
                          effective_order=effective, force=True)


def _streams(references: list[list[str]]) -> list[list[str | None]]:
    """sacrebleu's reference streams: one per position, None where a hypothesis has fewer
    references."""
    width = max(map(len, references))
    return [[refs[k] if k < len(refs) else None for refs in references]
            for k in range(width)]


settings_ = dict(deadline=None, max_examples=examples(80))


@settings(**settings_)
@given(st.lists(st.tuples(text_st, st.lists(text_st, min_size=1, max_size=3)),
                min_size=1, max_size=6),
       st.sampled_from(["13a", "none", "intl"]), st.sampled_from(SMOOTH),
       st.sampled_from([4, 1, 2, 5]), st.booleans(), st.booleans())
def test_sentence_and_corpus_bleu_as_sacrebleu(pairs, tokenize, smooth, order, lowercase,
                                               effective):
    hyps = [h for h, _ in pairs]
    refs = [r for _, r in pairs]
    args = (tokenize, smooth[0], smooth[1], order, lowercase, effective)
    name = _name(*args)
    oracle = _oracle(*args)
    got = sentence_bleu(hyps, refs, [name])[name].tolist()
    for h, r, value in zip(hyps, refs, got, strict=True):
        expected = oracle.sentence_score(h, r).score / 100
        assert value == pytest.approx(expected, rel=1e-9, abs=1e-15), (h, r)
    expected = _oracle(*args).corpus_score(hyps, _streams(refs)).score / 100
    assert corpus_bleu(hyps, refs, [name])[name] == pytest.approx(expected, rel=1e-9,
                                                                  abs=1e-15)


@settings(**settings_)
@given(st.one_of(free_text_st, dense_text_st), st.sampled_from(["13a", "none", "intl"]),
       st.booleans())
def test_tokens_as_sacrebleu(text, tokenize, lowercase):
    oracle = _oracle(tokenize, "exp", None, 4, lowercase, True)
    assert bleu_tokens(text, tokenize, lowercase=lowercase) == \
        oracle._preprocess_segment(text).split()


@settings(**settings_)
@given(st.lists(st.tuples(free_text_st, st.lists(free_text_st, min_size=1, max_size=2)),
                min_size=1, max_size=4), st.sampled_from(["13a", "intl"]))
def test_any_unicode_text_as_sacrebleu(pairs, tokenize):
    hyps = [h for h, _ in pairs]
    refs = [r for _, r in pairs]
    name = f"BLEU(tokenize={tokenize})"
    oracle = sacrebleu.BLEU(tokenize=tokenize, effective_order=True)
    got = sentence_bleu(hyps, refs, [name])[name].tolist()
    for h, r, value in zip(hyps, refs, got, strict=True):
        assert value == pytest.approx(oracle.sentence_score(h, r).score / 100, rel=1e-9,
                                      abs=1e-15)


FIXED = [
    ("The cat sat on the mat.", ["The cat sat on a mat.", "A cat was sitting on the mat."]),
    ("It costs $3.50, isn't it?", ["It costs 3.50 $, is it not?"]),
    ("", ["An empty hypothesis."]),
    ("Short.", ["Short."]),
    ("one two", ["one two three four five six"]),
    ("Hello", ["hello"]),
    ("the the the the the the the", ["The cat is on the mat.", "There is a cat on the mat."]),
]


@pytest.mark.parametrize("smooth", SMOOTH)
@pytest.mark.parametrize("hyp, refs", FIXED)
def test_fixed_sentences(hyp, refs, smooth):
    name = _name("13a", smooth[0], smooth[1], 4, False, True)
    expected = _oracle("13a", smooth[0], smooth[1], 4, False, True).sentence_score(
        hyp, refs).score / 100
    assert sentence_bleu([hyp], [refs], [name])[name][0] == pytest.approx(
        expected, rel=1e-12, abs=1e-15)


def test_papineni_worked_example():
    """Papineni et al. (2002), §2.1.1: 'the the the the the the the' against two
    references has the modified unigram precision 2/7 (the clipped count of 'the' is
    the larger of its counts in a reference: 2); BLEU with N = 1 and no penalty (the
    hypothesis is as long as the closest reference... 7 vs 6 and 7: 7) is 2/7."""
    refs = [["The cat is on the mat .", "There is a cat on the mat ."]]
    hyp = ["the the the the the the the"]
    name = "BLEU(order=1,lowercase=1,tokenize=none)"
    assert corpus_bleu(hyp, refs, [name])[name] == pytest.approx(2 / 7, rel=1e-12)


def test_brevity_penalty_by_hand():
    """c = 2 tokens matching, r = 4: BP = exp(1 − 4/2); every unigram and the bigram
    match, order 2: p_1 = p_2 = 1 → BLEU = exp(−1)."""
    got = corpus_bleu(["a b"], [["a b c d"]], ["BLEU(order=2,effective=0)"])
    assert got["BLEU(order=2,effective=0)"] == pytest.approx(math.exp(-1.0), rel=1e-12)


@settings(**settings_)
@given(st.integers(0, 6), st.lists(st.integers(0, 8), min_size=1, max_size=4))
def test_reference_lengths_as_sacrebleu(hyp_len, ref_lens):
    """The closest reference length (the shorter on ties) through the brevity penalty:
    texts of distinct words, so that only lengths differ."""
    hyp = " ".join(f"w{k}" for k in range(hyp_len))
    refs = [" ".join(f"w{k}" for k in range(n)) for n in ref_lens]
    expected = sacrebleu.BLEU(effective_order=True).sentence_score(hyp, refs).score / 100
    assert sentence_bleu([hyp], [refs])["BLEU"][0] == pytest.approx(expected, rel=1e-12,
                                                                    abs=1e-15)


def test_closest_reference_length_prefers_the_shorter():
    """c = 3, references of 2 and 4 tokens: r = 2 (no penalty) — with 4, BP < 1."""
    got = corpus_bleu(["a b c"], [["a b", "a b c d"]], ["BLEU(order=1)"])
    assert got["BLEU(order=1)"] == pytest.approx(1.0)


def test_parse_defaults():
    request = parse_bleu("BLEU")
    assert (request.tokenize, request.smooth, request.value, request.order,
            request.lowercase, request.effective) == ("13a", "exp", None, 4, False, True)
    assert parse_bleu("BLEU(smooth=floor)").value == 0.1


@pytest.mark.parametrize("name, error", [
    ("BLEU(smooth=exp,value=1)", MeasureError),
    ("BLEU(tokenize=zh)", MeasureError),
    ("BLEU(order=0)", MeasureError),
    ("BLEU(smooth=floor,value=-1)", MeasureError),
    ("ROUGE-1", ParameterError),
])
def test_bad_names(name, error):
    with pytest.raises(error):
        sentence_bleu(["a"], [["a"]], [name])


def test_inputs_refused():
    with pytest.raises(ParameterError, match="one list per hypothesis"):
        sentence_bleu(["a", "b"], [["a"]])
    with pytest.raises(ParameterError, match="no reference"):
        sentence_bleu(["a"], [[]])
    with pytest.raises(ParameterError, match="one list per hypothesis"):
        corpus_bleu("a b", [["a b"]])


REFS = b"q1\tr1\tThe cat sat on the mat.\nq1\tr2\tA cat sat.\nq2\tr1\tA dog barked.\n"
CANDS = b"q1\tA\tthe cat sat\nq2\tA\ta dog\nq1\tB\ton the mat\nq9\tB\tx\n"


def test_evaluation_per_topic_and_corpus():
    with pytest.warns(UserWarning, match="no references are not evaluated: q9"):
        evaluation = evaluate_bleu(REFS, CANDS, ["BLEU", "BLEU(smooth=floor)"])
    oracle = sacrebleu.BLEU(effective_order=True)
    q1 = ["The cat sat on the mat.", "A cat sat."]
    a1 = oracle.sentence_score("the cat sat", q1).score / 100
    a2 = oracle.sentence_score("a dog", ["A dog barked."]).score / 100
    assert evaluation.mean().loc["A", "BLEU"] == pytest.approx((a1 + a2) / 2, rel=1e-12)
    corpus = evaluate_corpus_bleu(REFS, CANDS).mean()
    expected = sacrebleu.BLEU().corpus_score(["the cat sat", "a dog"],
                                             [[q1[0], "A dog barked."], [q1[1], None]]
                                             ).score / 100
    assert corpus.loc["A", "BLEU(effective=0)"] == pytest.approx(expected, rel=1e-12)
    b = sacrebleu.BLEU().corpus_score(["on the mat"], [[q1[0]], [q1[1]]]).score / 100
    assert corpus.loc["B", "BLEU(effective=0)"] == pytest.approx(b, rel=1e-12, abs=1e-15)


def test_corpus_run_without_references_refused():
    with pytest.raises(InputError, match="no text for a topic"):
        evaluate_corpus_bleu(REFS, b"q9\tC\tx\n")
