"""Compact letter display (Piepho 2004 insert-and-absorb): hand examples and properties
checked by brute force on random decision patterns."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from irscale.errors import ParameterError
from irscale.stats.letters import compact_letters


def test_hand_example_chain():
    # A > B > C > D; A–C, A–D and B–D differ. By hand (Piepho's steps):
    # {ABCD} -A–C-> {BCD},{ABD} -A–D-> {BCD},{AB} (absorbed {BD} ⊂ {BCD})
    # -B–D-> {CD},{BC},{AB}; lettered by their first system: {AB}=a, {BC}=b, {CD}=c.
    letters = compact_letters("ABCD", [("A", "C"), ("A", "D"), ("B", "D")])
    assert letters == {"A": "a", "B": "ab", "C": "bc", "D": "c"}


def test_all_different_and_none_different():
    names = ["s1", "s2", "s3"]
    every = list(itertools.combinations(names, 2))
    assert compact_letters(names, every) == {"s1": "a", "s2": "b", "s3": "c"}
    assert compact_letters(names, []) == {"s1": "a", "s2": "a", "s3": "a"}
    assert compact_letters([], []) == {}


def test_more_than_26_letters():
    names = [f"s{i}" for i in range(28)]
    letters = compact_letters(names, itertools.combinations(names, 2))
    assert letters["s25"] == "z" and letters["s26"] == "aa" and letters["s27"] == "ab"


@pytest.mark.parametrize("seed", range(40))
def test_letters_represent_the_decisions_exactly(seed):
    """Brute force over every pair: share a letter ⇔ not significant; no letter is
    redundant (its systems are never all inside another letter's)."""
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 9))
    names = [f"r{i}" for i in range(k)]
    pairs = [p for p in itertools.combinations(names, 2) if rng.random() < rng.random()]
    letters = compact_letters(names, pairs)
    significant = {frozenset(p) for p in pairs}
    for a, b in itertools.combinations(names, 2):
        shared = set(letters[a]) & set(letters[b])
        assert bool(shared) == (frozenset((a, b)) not in significant), (a, b, letters)
    groups = {}
    for name, held in letters.items():
        assert held, name  # every system holds a letter
        for letter in held:
            groups.setdefault(letter, set()).add(name)
    for x, y in itertools.permutations(groups, 2):
        assert not groups[x] <= groups[y], (x, y, groups)
    # the first system holds "a"
    assert letters[names[0]].startswith("a")


def test_errors():
    with pytest.raises(ParameterError, match=r"'c' names no run: .*; runs: 'a', 'b'"):
        compact_letters(["a", "b"], [("a", "c")])
    with pytest.raises(ParameterError, match="itself"):
        compact_letters(["a", "b"], [("a", "a")])
    with pytest.raises(ParameterError, match="distinct"):
        compact_letters(["a", "a"], [])
