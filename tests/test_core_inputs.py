"""The readers' duplicate policy (``duplicates=``) is checked with the error of the contract."""

from __future__ import annotations

import pytest

import irscale
from irscale.core.duplicates import DUPLICATE_POLICIES, check_duplicate_policy
from irscale.errors import ParameterError


@pytest.mark.parametrize("policy", ["bogus", "", "ERROR", None, ["first"]])
def test_unknown_duplicate_policy(policy):
    with pytest.raises(ParameterError, match=r"unknown duplicate policy \(duplicates\) .*: "
                       r"use one of 'error', 'first', 'last', 'max'$"):
        check_duplicate_policy(policy)


def test_readers_refuse_unknown_duplicate_policy(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 d1 1\n1 0 d1 2\n")
    run = tmp_path / "run.txt"
    run.write_text("1 Q0 d1 1 0.5 r\n")
    with pytest.raises(ParameterError, match="'bogus'"):
        irscale.read_qrels(qrels, duplicates="bogus")
    with pytest.raises(ParameterError, match="'x'"):
        irscale.read_run(run, duplicates="x")
    for policy in DUPLICATE_POLICIES[1:]:
        assert len(irscale.read_qrels(qrels, duplicates=policy).topic) == 1
