"""ROUGE: every score against rouge-score on generated texts, ROUGE-S/SU and
the multi-reference rules against a brute force written here (Sakai 2014, eq. 36–39), and
the Evaluation / ScoreMatrix downstream."""

from __future__ import annotations

import itertools
import math
import re
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.errors import (
    DuplicateError,
    InputError,
    InputFormatError,
    MeasureError,
    ParameterError,
)
from irscale.io.text import read_stopwords
from irscale.text.rouge import (
    evaluate_rouge,
    lcs_bits,
    lcs_lengths,
    parse_rouge,
    rouge,
    skip_bigram_hits,
    skip_bigram_totals,
    tokenize,
)

from .oracle_imports import lazy_importorskip
from .property_examples import examples

rouge_module = sys.modules["irscale.text.rouge"]

rouge_scorer = lazy_importorskip("rouge_score.rouge_scorer")

# words that exercise the tokenizer: case, punctuation inside words, digits, non-ASCII
# letters (dropped or split), the Kelvin sign (lower-cases to 'k'), stems
WORDS = ("The", "cat", "cats", "running", "runs", "ran", "dog-like", "Dogs!", "a", "of",
         "42", "x9", "über", "naïve", "İstanbul", "\u212aelvin", "generously", "quickly",
         "the", "on", "mat", "sat", "it's", "U.S.A.", "--", "caresses", "ponies")
text_st = st.lists(st.sampled_from(WORDS), max_size=30).map(" ".join)


def _scores(cands, refs, stem, kinds=("1", "2", "3", "L")):
    return rouge(cands, refs, [f"ROUGE-{k}(stat={s})" for k in kinds for s in "prf"],
                 stem=stem)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.tuples(text_st, st.lists(text_st, min_size=1, max_size=4)),
                min_size=1, max_size=8), st.booleans())
def test_every_score_equals_rouge_score(pairs, stem):
    cands = [c for c, _ in pairs]
    refs = [r for _, r in pairs]
    got = _scores(cands, refs, stem)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rouge3", "rougeL"],
                                      use_stemmer=stem)
    for i, (c, r) in enumerate(pairs):
        expected = scorer.score_multi(r, c)
        for k in ("1", "2", "3", "L"):
            e = expected[f"rouge{k}"]
            for s, value in zip("prf", (e.precision, e.recall, e.fmeasure), strict=True):
                assert got[f"ROUGE-{k}(stat={s})"][i] == value, (k, s, c, r)


def test_longer_texts_equal_rouge_score():
    """100-word texts of a 300-word vocabulary (the benchmark's shape, LCS of two rows)."""
    rng = np.random.default_rng(3)
    vocab = [f"w{i}" for i in range(300)]
    cands = [" ".join(rng.choice(vocab, 100)) for _ in range(20)]
    refs = [[" ".join(rng.choice(vocab, int(rng.integers(60, 140)))) for _ in range(4)]
            for _ in cands]
    got = _scores(cands, refs, False, ("1", "2", "L"))
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"])
    for i, (c, r) in enumerate(zip(cands, refs, strict=True)):
        e = scorer.score_multi(r, c)
        for k in ("1", "2", "L"):
            assert got[f"ROUGE-{k}(stat=f)"][i] == e[f"rouge{k}"].fmeasure


@settings(max_examples=examples(30), deadline=None)
@given(st.lists(st.tuples(text_st, st.lists(text_st, min_size=1, max_size=3)),
                min_size=1, max_size=5),
       st.sets(st.sampled_from(("the", "a", "of", "cat", "runs", "42")), max_size=4),
       st.booleans())
def test_stopwords_equal_rouge_score_on_filtered_texts(pairs, stop, stem):
    """Oracle: rouge-score on the texts with the stop words removed from its own tokens
    (removal before stemming)."""
    plain = rouge_scorer.RougeScorer(["rouge1"])._tokenizer

    def drop(text):
        return " ".join(t for t in plain.tokenize(text) if t not in stop)

    cands = [c for c, _ in pairs]
    refs = [r for _, r in pairs]
    got = rouge(cands, refs, ["ROUGE-1(stat=r)", "ROUGE-2", "ROUGE-L(stat=p)"], stem=stem,
                stopwords=stop)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=stem)
    for i, (c, r) in enumerate(pairs):
        e = scorer.score_multi([drop(x) for x in r], drop(c))
        assert got["ROUGE-1(stat=r)"][i] == e["rouge1"].recall
        assert got["ROUGE-2"][i] == e["rouge2"].fmeasure
        assert got["ROUGE-L(stat=p)"][i] == e["rougeL"].precision


# ----------------------------------------------------------------------------- brute force
def _tokens(text):
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).split()


def _units(tokens, kind, n=1, skip=math.inf):
    if kind == "N":
        return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))
    pairs = Counter((tokens[i], tokens[j]) for i, j in
                    itertools.combinations(range(len(tokens)), 2) if j - i - 1 <= skip)
    if kind == "SU":
        pairs.update((t,) for t in tokens)
    return pairs


def _lcs(a, b):
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a, 1):
        for j, y in enumerate(b, 1):
            table[i][j] = table[i - 1][j - 1] + 1 if x == y else \
                max(table[i - 1][j], table[i][j - 1])
    return table[-1][-1]


def _f(p, r, beta):
    return (1 + beta**2) * p * r / (beta**2 * p + r) if p + r else 0.0


def _brute(cand, refs, kind, n, skip, beta, multi):
    """(P, R, F) by Sakai (2014), eq. 36-39 and the documented multi-reference rules."""
    c = _tokens(cand)
    per = []
    for ref in refs:
        r = _tokens(ref)
        if kind == "L":
            hits, ct, rt = _lcs(c, r), len(c), len(r)
        else:
            cu, ru = _units(c, kind, n, skip), _units(r, kind, n, skip)
            hits = sum(min(v, ru[k]) for k, v in cu.items())
            ct, rt = sum(cu.values()), sum(ru.values())
        per.append((hits, ct, rt))
    if multi == "pooled":
        h, ct, rt = (sum(x[k] for x in per) for k in range(3))
        p, r = h / max(ct, 1), h / max(rt, 1)
        return p, r, _f(p, r, beta)
    prf = [(h / max(ct, 1), h / max(rt, 1), _f(h / max(ct, 1), h / max(rt, 1), beta))
           for h, ct, rt in per]
    if multi == "mean":
        return tuple(sum(x[k] for x in prf) / len(prf) for k in range(3))
    return max(prf, key=lambda x: x[2])  # the first of the best


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.tuples(text_st, st.lists(text_st, min_size=1, max_size=3)),
                min_size=1, max_size=5),
       st.sampled_from([("S", 2, 0), ("S", 2, 1), ("S", 2, 4), ("S", 2, math.inf),
                        ("SU", 2, 4), ("SU", 2, math.inf), ("N", 1, 0), ("N", 4, 0),
                        ("L", 0, 0)]),
       st.sampled_from(["max", "mean", "pooled"]), st.sampled_from([1.0, 0.5, 3.0]))
def test_skip_bigrams_and_multi_against_brute_force(pairs, unit, multi, beta):
    kind, n, skip = unit
    base = {"S": "ROUGE-S", "SU": "ROUGE-SU", "N": f"ROUGE-{n}", "L": "ROUGE-L"}[kind]
    extra = f",skip={'inf' if skip == math.inf else int(skip)}" if kind in ("S", "SU") else ""
    names = [f"{base}(stat={s},beta={beta}{extra})" for s in "prf"]
    got = rouge([c for c, _ in pairs], [r for _, r in pairs], names, multi=multi)
    for i, (c, r) in enumerate(pairs):
        expected = _brute(c, r, kind, n, skip, beta, multi)
        for name, value in zip(names, expected, strict=True):
            assert got[name][i] == pytest.approx(value, rel=1e-12, abs=1e-15), (name, c, r)


token_lists = st.lists(st.integers(0, 5), max_size=25)


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(token_lists, min_size=1, max_size=6),
       st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=8),
       st.sampled_from([0, 1, 3, 30, math.inf]), st.sampled_from([1, 9, 64, 1 << 20]))
def test_skip_bigram_hits_against_brute_force(texts, pairs, skip, cells):
    """Counted without listing the bigrams, in blocks as small as one row: Σ min(count in
    x, count in y) over the skip bigrams listed here, and the totals."""
    ids = np.array([t for x in texts for t in x], dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum([len(x) for x in texts]))).astype(np.int64)
    pairs = [(a % len(texts), b % len(texts)) for a, b in pairs]
    cand, ref = (np.array(side, dtype=np.int64) for side in zip(*pairs, strict=True))
    got = skip_bigram_hits(ids, offsets, cand, ref, skip, cells=cells)
    units = [_units(x, "S", skip=skip) for x in texts]
    assert got.tolist() == [sum((units[a] & units[b]).values()) for a, b in pairs]
    assert skip_bigram_totals(np.diff(offsets), skip).tolist() == \
        [sum(u.values()) for u in units]


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.tuples(text_st, st.lists(text_st, min_size=1, max_size=3)),
                min_size=1, max_size=5),
       st.sampled_from([("S", 0), ("S", 4), ("S", math.inf), ("SU", 4), ("SU", math.inf)]),
       st.sampled_from(["max", "mean", "pooled"]))
def test_counted_skip_bigrams_equal_listed_ones(pairs, unit, multi):
    """Both ways of counting (listing and sorting the bigrams, or not listing them) give
    the same values, bit for bit."""
    kind, skip = unit
    names = [f"ROUGE-{kind}(stat={s},skip={'inf' if skip == math.inf else skip})"
             for s in "prf"]
    cands, refs = [c for c, _ in pairs], [r for _, r in pairs]
    listed = rouge(cands, refs, names, multi=multi)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rouge_module, "_LISTED_UNITS", 0)
        counted = rouge(cands, refs, names, multi=multi)
    assert counted.equals(listed)


def _skip_bigram_counts(tokens, vocabulary):
    """C(a, b) of every pair of tokens by a matrix product: Xᵀ·S, X the one-hot matrix of
    the text, S[i, b] the number of b's after position i."""
    one_hot = np.eye(vocabulary, dtype=np.int64)[tokens]
    after = np.cumsum(one_hot[::-1], axis=0)[::-1] - one_hot
    return one_hot.T @ after


def test_long_texts_in_bounded_memory():
    """ROUGE-S and ROUGE-SU of a 21,000-token candidate: a fresh process's peak memory
    stays far below the 8 GB that listing its 220 million skip bigrams took (a bound on
    memory, not on time); the value against the matrix-product counts."""
    script = (
        "import resource, numpy as np\n"
        "from irscale.text.rouge import rouge\n"
        "rng = np.random.default_rng(7)\n"
        "weights = 1 / np.arange(1, 5001)\n"
        "words = rng.choice(5000, 26000, p=weights / weights.sum())\n"
        "text = [' '.join(f'w{w}' for w in part) for part in (words[:21000], words[21000:])]\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "rouge([text[0]], [[text[1]]], ['ROUGE-S', 'ROUGE-SU'])\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    assert int(done.stdout) < 500_000, done.stdout  # kilobytes
    rng = np.random.default_rng(8)
    cand, ref = rng.integers(0, 40, 21000), rng.integers(0, 40, 3000)
    hits = np.minimum(_skip_bigram_counts(cand, 40), _skip_bigram_counts(ref, 40)).sum()
    got = rouge([" ".join(f"w{t}" for t in cand)], [[" ".join(f"w{t}" for t in ref)]],
                ["ROUGE-S(stat=r)", "ROUGE-S(stat=p)"])
    assert got["ROUGE-S(stat=r)"][0] == hits / (3000 * 2999 // 2)
    assert got["ROUGE-S(stat=p)"][0] == hits / (21000 * 20999 // 2)


def test_rouge_s_by_hand():
    """Lin (2004)'s skip-bigram example: S1 'police killed the gunman' has C(4,2) = 6 skip
    bigrams; S2 'police kill the gunman' shares 3 of them (police the, police gunman,
    the gunman): R = P = 3/6. With skip=0 only adjacent pairs: 'the gunman' of 3."""
    got = rouge(["police kill the gunman"], [["police killed the gunman"]],
                ["ROUGE-S(stat=r)", "ROUGE-S0(stat=r)", "ROUGE-SU(stat=r)"])
    assert got["ROUGE-S(stat=r)"][0] == 3 / 6
    assert got["ROUGE-S0(stat=r)"][0] == 1 / 3
    assert got["ROUGE-SU(stat=r)"][0] == (3 + 3) / (6 + 4)  # + unigrams police, the, gunman


def test_lcs_batches_of_any_size():
    """Batches of any size, and pairs whose texts are both at least ``long`` tokens long
    through :func:`lcs_bits` (the others through the batched DP): the DP's lengths."""
    rng = np.random.default_rng(5)
    texts = [list(rng.integers(0, 4, int(rng.integers(0, 40)))) for _ in range(60)]
    ids = np.array([t for x in texts for t in x], dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum([len(x) for x in texts]))).astype(np.int64)
    a, b = rng.integers(0, 60, 200), rng.integers(0, 60, 200)
    expected = [_lcs(texts[i], texts[j]) for i, j in zip(a, b, strict=True)]
    for cells, long in itertools.product((1, 50, 1 << 18), (0, 20, 10**6)):
        assert lcs_lengths(ids, offsets, a, b, cells=cells, long=long).tolist() == expected


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.integers(0, 3), max_size=120), st.lists(st.integers(0, 3), max_size=120),
       st.sampled_from([0, 1 << 29]))
def test_bit_parallel_lcs_against_the_dp(x, y, budget):
    """Hyyrö's bit-parallel recurrence (masks kept or rebuilt) against the textbook DP."""
    assert lcs_bits(np.array(x, dtype=np.int64), np.array(y, dtype=np.int64),
                    budget=budget) == _lcs(x, y)


@settings(max_examples=examples(80), deadline=None)
@given(st.lists(text_st, min_size=1, max_size=4), st.lists(text_st, min_size=1, max_size=4),
       st.integers(1, 12))
def test_ngrams_of_any_n_against_brute_force(cands, refs, n):
    """n-gram codes built by doubling (two overlapping w-grams for n between powers of
    two) count the n-grams of the brute force, for every n."""
    pairs = list(zip(cands, refs, strict=False))
    got = rouge([c for c, _ in pairs], [[r] for _, r in pairs], [f"ROUGE-{n}(stat=r)"])
    for i, (c, r) in enumerate(pairs):
        cu, ru = _units(_tokens(c), "N", n), _units(_tokens(r), "N", n)
        hits, total = sum((cu & ru).values()), sum(ru.values())
        assert got[f"ROUGE-{n}(stat=r)"][i] == (hits / total if total else 0.0)


def test_tokenize_drops_stop_words_before_stemming():
    ids, _, vocab = tokenize(["Running runs of the cats"], stem=True,
                                   stopwords={"running", "the"})
    assert [vocab[i] for i in ids] == ["run", "of", "cat"]


# ----------------------------------------------------------------------------- names
@pytest.mark.parametrize("name", ["ROUGE-0", "ROUGE-X", "ROUGE-L4", "ROUGE-2(skip=3)",
                                  "ROUGE-1(stat=x)", "ROUGE-1(beta=0)", "ROUGE-S4(skip=2)",
                                  "ROUGE-S(skip=-1)", "ROUGE-S(skip=\u0663)", "rouge-1"])
def test_bad_names(name):
    with pytest.raises(MeasureError):
        parse_rouge(name)


def test_skip_beyond_any_text_counts_every_pair():
    """A skip of 2^53 tokens or more (no text has that many) is inf, not a float error."""
    huge = "9" * 400
    assert parse_rouge(f"ROUGE-S(skip={huge})").skip == math.inf
    assert parse_rouge(f"ROUGE-SU{huge}").skip == math.inf
    got = rouge(["a b c a"], [["c a b"]], [f"ROUGE-S{huge}", "ROUGE-S"])
    assert got[f"ROUGE-S{huge}"][0] == got["ROUGE-S"][0]


def test_bad_arguments():
    with pytest.raises(ParameterError, match="multi"):
        rouge(["a"], [["a"]], multi="best")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="no reference"):
        rouge(["a"], [[]])
    with pytest.raises(InputFormatError, match="line 2"):
        read_stopwords(b"the\nDon't\n")


# ----------------------------------------------------------------------------- evaluation
REFS = b"q1\tr1\tthe cat sat on the mat\nq1\tr2\ta cat sat\nq2\tr1\ta dog barked loudly\n"
CANDS = (b"q1\tA\tthe cat sat\nq2\tA\ta dog\nq1\tB\ton the mat\nq2\tB\tdog barked\n"
         b"q3\tB\tnothing\n")


def test_evaluation_per_topic_and_matrix():
    with pytest.warns(UserWarning, match="q3"):
        e = evaluate_rouge(REFS, CANDS, ["ROUGE-1", "ROUGE-L(stat=r)"])
    table = e.per_topic()
    expected = rouge(["the cat sat", "a dog", "on the mat", "dog barked"],
                     [["the cat sat on the mat", "a cat sat"], ["a dog barked loudly"]] * 2,
                     ["ROUGE-1", "ROUGE-L(stat=r)"])
    for k, (run, topic) in enumerate([("A", "q1"), ("A", "q2"), ("B", "q1"), ("B", "q2")]):
        for m in ("ROUGE-1", "ROUGE-L(stat=r)"):
            row = table[(table.run == run) & (table.topic == topic) & (table.measure == m)]
            assert row.value.item() == expected[m][k]
    matrix = e.to_matrix()
    assert matrix.topics == ("q1", "q2") and matrix.systems == ("A", "B")
    assert e.unjudged_topics == {"A": (), "B": ("q3",)}


def test_evaluation_errors():
    with pytest.raises(DuplicateError, match="line 2"):
        evaluate_rouge(REFS, b"q1\tA\tx\nq1\tA\ty\n")
    with pytest.raises(InputFormatError, match="empty text"):
        evaluate_rouge(REFS, b"q1\tA\t  \n")
    with pytest.raises(InputFormatError, match="TAB"):
        evaluate_rouge(REFS, b"q1 A some text\n")
    with pytest.raises(InputError, match="two texts"):
        evaluate_rouge(REFS, [b"q1\tA\tx\n", b"q1\tA\ty\n"])
