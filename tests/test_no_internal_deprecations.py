"""No warning that the user did not cause (docs/errors.md rule 6).

Every command that resamples runs here on clean inputs with no warning at all on standard error, and
every resampling function runs under ``warnings.simplefilter("error")``: neither a
``DeprecationWarning`` nor a numpy ``RuntimeWarning`` (the paired bootstrap used to divide ∞ by ∞
when the difference of two systems is constant on a split's topics, printing ``invalid value
encountered in divide``).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from irscale import meta, stats
from irscale.cli.main import main
from irscale.core import ScoreMatrix
from irscale.errors import InputError, NoVarianceWarning

from .faults.conftest import populate

# every subcommand that draws random numbers, with each resampling procedure it offers
COMMANDS = [
    *[f"compare --scores ap.csv --test {test} --samples 40 --seed 3 --no-progress"
      for test in ("randomization", "bootstrap", "bootstrap-shift", "unpaired-bootstrap",
                   "randomized-tukey-hsd")],
    "compare --scores ap.csv --test randomization --samples 40 --seed 3 --no-progress "
    "--alternative greater",
    "compare --scores ap.csv --scores p10.csv -m ap -m p10 --test bootstrap --samples 40 "
    "--seed 3 --no-progress",
    "meta dp --scores ap.csv -B 40 --seed 3",
    "meta dp --scores ap.csv -B 40 --seed 3 --method randomized-tukey-hsd",
    "meta dp --scores ap.csv -B 40 --seed 3 --method both --pairs",
    "meta dp --scores ap.csv -B 40 --seed 3 --seeds 2",
    "meta dp --scores ap.csv --scores p10.csv -B 40",
    "meta split --scores ap.csv --sizes 3,5 --repetitions 3 --seed 3",
    "meta split --scores ap.csv --sizes 3 --repetitions 3 --seed 3 "
    "--models randomized-tukey-hsd,bootstrap,randomization,bootstrap-shift",
    "meta split --scores ap.csv --sizes 3 --repetitions 3 --seed 3 "
    "--cross bootstrap:randomization",
    "meta swap --scores ap.csv --sizes 3,5 --repetitions 3 --seed 3",
    *[f"meta swap --scores ap.csv --sizes 3 --repetitions 3 --seed 3 --test {test}"
      for test in ("bootstrap", "randomization", "randomized-tukey-hsd")],
    "meta correlate --scores ap.csv --scores p10.csv -B 20 --seed 3",
]


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    populate(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("IRSCALE_DEBUG", raising=False)
    return tmp_path


@pytest.mark.parametrize("command", COMMANDS)
def test_resampling_commands_print_no_warning(command, folder, capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        status = main(command.split())
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert "deprecated" not in captured.err.lower(), captured.err
    # the only lines: irscale's warnings of values its tables declare undefined (on this
    # small table, pairs whose bootstrap samples have no spread, swap rates of no pair)
    others = [line for line in captured.err.splitlines()
              if not (line.startswith("irscale: warning: ") and " undefined" in line)]
    assert others == [], f"{command!r} printed {captured.err!r}"
    assert captured.out.strip()


# ---------------------------------------------------------------------- the functions
def _data():
    rng = np.random.default_rng(11)
    values = rng.random((12, 4)) * 0.6 + np.linspace(0, 0.2, 4)
    three = ScoreMatrix.from_array(np.stack([values, values**2, np.sqrt(values)], 2),
                                   measures=["ap", "p10", "gold"])
    return values, three


VALUES, THREE = _data()
AP = THREE.measure("ap")
X, Y = VALUES[:, 0], VALUES[:, 1]
# a difference constant on every topic (exact binary fractions: no variance to test)
CX = np.array([0.5, 0.75, 0.25, 1.0, 0.625, 0.375])
CY = CX - 0.25

CALLS = {
    "randomization_test": lambda **k: stats.randomization_test(X, Y, samples=40, exact=False,
                                                               **k),
    "randomization_test-exact": lambda **k: stats.randomization_test(X[:8], Y[:8], **k),
    "paired_bootstrap_test": lambda **k: stats.paired_bootstrap_test(X, Y, samples=40, **k),
    "bootstrap_shift_test": lambda **k: stats.bootstrap_shift_test(X, Y, samples=40, **k),
    "unpaired_bootstrap_test": lambda **k: stats.unpaired_bootstrap_test(X, Y, samples=40,
                                                                         **k),
    "randomized_tukey_hsd": lambda **k: stats.randomized_tukey_hsd(AP, samples=40, **k),
    "pairwise_tests-randomization": lambda **k: stats.pairwise_tests(
        AP, "randomization", samples=40, **k),
    "pairwise_tests-bootstrap": lambda **k: stats.pairwise_tests(
        THREE, "bootstrap", samples=40, **k),
    "discriminative_power": lambda **k: meta.discriminative_power(AP, samples=40, **k),
    "discriminative_power-tukey": lambda **k: meta.discriminative_power(
        AP, "randomized-tukey-hsd", samples=40, **k),
    "split_study": lambda **k: meta.split_study(AP, [3, 5], 3, **k),
    "split_study-resampling": lambda **k: meta.split_study(
        AP, [3], 3, models=["bootstrap", "randomization", "randomized-tukey-hsd"], **k),
    "swap_rates": lambda **k: meta.swap_rates(AP, [3], 3, **k),
    "swap_rates-bootstrap": lambda **k: meta.swap_rates(AP, [3], 3, test="bootstrap", **k),
    "topic_splits": lambda **k: meta.topic_splits(12, 3, 4, **k),
    "correlation_ci": lambda **k: meta.correlation_ci(THREE, measure_a="ap", measure_b="p10",
                                                      samples=20, **k),
    "decide-bootstrap": lambda **k: meta.decide(VALUES, "bootstrap", samples=40, **k),
}


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("rng", [None, 5])
def test_resampling_functions_warn_nothing(name, rng):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        CALLS[name](rng=rng)


def test_constant_difference_is_refused_without_a_numpy_warning():
    """A difference constant on every topic has no variance: the paired bootstrap refuses
    it alone and gives it p = 1 in a family, with irscale's warning, never numpy's
    (the ∞/∞ of the studentised resamples)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(InputError, match="no variance"):
            stats.paired_bootstrap_test(CX, CY, samples=40, rng=5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        family = stats.pairwise_tests(np.c_[CX, CY, CY - 0.125], "bootstrap", samples=40,
                                      rng=5)
    assert [w.category for w in caught] == [NoVarianceWarning], caught
    frame = family.to_frame()
    assert (frame["p"] == 1.0).all() and (frame["p_raw"] == 1.0).all()
