"""POURPRE-style automatic nugget matching: hand examples, a brute force
written out here (sets of words, prefixes scanned word by word, exact fractions), and the
nugget measures read from the automatic matches."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest

from irscale.errors import InputError, ParameterError
from irscale.io.text import read_matches
from irscale.text import evaluate_nuggets, pourpre_matches

NUGGETS = (b"q1 n1 2 vital born in 1942\n"
           b"q1 n2 1 okay Liverpool England\n"
           b"q1 n3 1 okay the Beatles bass player\n"
           b"q2 m1 1 vital Mount Everest\n")
TEXTS = (b"q1\tA\tHe was born in Liverpool.\n"
         b"q1\tB\tPaul, bass player of the Beatles, was born in 1942 in England.\n"
         b"q2\tA\tThe highest mountain.\n")


def rows(matches):
    return list(zip(matches.topic, matches.run, matches.nugget, matches.offset, strict=True))


def test_hand_example():
    """Non-blank characters up to the end of each word (punctuation after a word is not
    part of it): A = He(2) was(5) born(9) in(11) Liverpool(20); B = Paul(4) bass(9)
    player(15) of(17) the(20) Beatles(27) was(31) born(35) in(37) 1942(41) in(43)
    England(50). Threshold 0.5: n1 needs 2 of {born, in, 1942}, n2 1 of
    {liverpool, england}, n3 2 of {the, beatles, bass, player}; m1 1 of {mount, everest}."""
    m = pourpre_matches(NUGGETS, TEXTS)
    assert rows(m) == [("q1", "A", "n1", 11), ("q1", "A", "n2", 20),
                       ("q1", "B", "n1", 37), ("q1", "B", "n2", 50), ("q1", "B", "n3", 15)]
    assert m.line == (1, 1, 2, 2, 2)
    # threshold 1: every term; n3 complete at "Beatles" (27), n1 at "1942" (41); n2
    # nowhere (A lacks England, B Liverpool)
    strict = pourpre_matches(NUGGETS, TEXTS, threshold=1.0)
    assert rows(strict) == [("q1", "B", "n1", 41), ("q1", "B", "n3", 27)]
    # a stop word list removes "the" and "in": n1 then needs 1 of {born, 1942} (A: 9)
    stopped = pourpre_matches(NUGGETS, TEXTS, threshold=0.5, stopwords={"the", "in"})
    assert ("q1", "A", "n1", 9) in rows(stopped)


def test_stemming_matches_inflections():
    nug = b"t n1 1 vital running dogs\n"
    text = b"t\tS\tA dog runs.\n"
    assert rows(pourpre_matches(nug, text, threshold=1.0)) == []
    pytest.importorskip("nltk")
    # Porter: running -> run, runs -> run, dogs/dog -> dog (words of 3 letters unstemmed)
    assert rows(pourpre_matches(nug, text, threshold=1.0, stem=True)) == [("t", "S", "n1", 8)]


def brute(nuggets, texts, threshold, stopwords=frozenset()):
    """Every (output, nugget) of a topic: scan the output's words, count the nugget's
    distinct terms seen so far, record where the count first reaches ⌈threshold·n⌉."""
    out = []
    for t, run, text in texts:
        words = [(w.group(), w.end()) for w in re.finditer(r"[a-z0-9]+", text.lower())]
        for topic, nid, vs in nuggets:
            if topic != t:
                continue
            terms = {w for w in re.findall(r"[a-z0-9]+", vs.lower()) if w not in stopwords}
            need = next(c for c in range(1, len(terms) + 1)
                        if Fraction(c, len(terms)) >= Fraction(str(threshold)))
            seen = set()
            for word, end in words:
                if word in terms:
                    seen.add(word)
                    if len(seen) == need:
                        out.append((t, run, nid, len("".join(text[:end].split()))))
                        break
    return sorted(out)


@pytest.mark.parametrize("seed", range(6))
def test_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    vocab = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "iota", "the"]
    nuggets, texts = [], []
    for t in range(4):
        for k in range(int(rng.integers(1, 5))):
            words = rng.choice(vocab, int(rng.integers(1, 6)))
            nuggets.append((f"q{t}", f"n{k}", " ".join(words).title()))
        for r in range(int(rng.integers(1, 4))):
            words = rng.choice([*vocab, "x", "y,", "Z."], int(rng.integers(1, 25)))
            texts.append((f"q{t}", f"R{r}", "  ".join(words)))
    nug_file = "".join(f"{t} {n} 1 vital {vs}\n" for t, n, vs in nuggets).encode()
    text_file = "".join(f"{t}\t{r}\t{x}\n" for t, r, x in texts).encode()
    for threshold in (0.3, 0.5, 2 / 3, 1.0, 1e-6):
        got = sorted(rows(pourpre_matches(nug_file, text_file, threshold=threshold)))
        assert got == brute(nuggets, texts, threshold), threshold
    stop = frozenset({"the", "eta"})
    if all(set(vs.lower().split()) - stop for _, _, vs in nuggets):
        got = sorted(rows(pourpre_matches(nug_file, text_file, stopwords=stop)))
        assert got == brute(nuggets, texts, 0.5, stop)
    else:  # a nugget of stop words only can never be matched: an error, not a 0
        with pytest.raises(InputError, match="stop words only"):
            pourpre_matches(nug_file, text_file, stopwords=stop)


def test_measures_read_the_automatic_matches():
    """The automatic matches give the same values as the same matches written to a file."""
    m = pourpre_matches(NUGGETS, TEXTS)
    written = "".join(f"{t} {r} {n} {o}\n" for t, r, n, o in rows(m)).encode()
    measures = ["W-Rec", "F_QA(beta=3)", "S(L=100)", "T"]
    auto = evaluate_nuggets(NUGGETS, m, measures, texts=TEXTS).per_topic()
    by_file = evaluate_nuggets(NUGGETS, read_matches(written), measures,
                               texts=TEXTS).per_topic()
    assert auto.equals(by_file)
    # W-Rec of (q1, A): n1 (2) and n2 (1) of 2 + 1 + 1
    hit = auto[(auto.run == "A") & (auto.topic == "q1") & (auto.measure == "W-Rec")]
    assert float(hit.value.iloc[0]) == pytest.approx(3 / 4)


@pytest.mark.parametrize("threshold", [0, -0.5, 1.5, float("nan"), "0.5"])
def test_bad_threshold(threshold):
    with pytest.raises(ParameterError, match="threshold"):
        pourpre_matches(NUGGETS, TEXTS, threshold=threshold)


def test_nugget_without_words_or_vital_string():
    with pytest.raises(InputError, match=r"line 2.*no vital string|no vital string"):
        pourpre_matches(b"q1 n1 1 vital born\nq1 n2 1 okay\n", TEXTS)
    with pytest.raises(InputError, match="stop words only"):
        pourpre_matches(b"q1 n1 1 vital the\n", TEXTS, stopwords={"the"})
