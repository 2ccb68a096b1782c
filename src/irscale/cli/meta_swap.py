"""``irscale meta swap``: the swap method and swap rates by topic-set size (Voorhees &
Buckley 2002). Usage: ``docs/cli.md``, ``docs/meta.md``."""

from __future__ import annotations

import argparse

from ..core.params import RESAMPLES, RNG_SEED, SIGNIFICANCE, Param, Switch
from ..meta.params import SWAP_BIN_WIDTH
from ..stats.names import PROCEDURE, RESAMPLING, is_resampling
from .main import given
from .meta_common import SIZES, add_analysis, one_measure, render
from .options import add_scheduler, scheduler, wants_progress
from .outputs import write_text
from .rules import Rule

#: ``meta swap --test``: the significance filter of the swap method.
SWAP_TEST = Param("test", PROCEDURE, None, "count only the pairs this test finds significant "
                  "on TS1", ("--test",), label="--test", unset="every pair")
#: ``meta swap --by-bin``: the swap rate of every bin of score differences.
BY_BIN = Param("by_bin", Switch(), False, "swap rate per difference bin", ("--by-bin",))


def add_parser(subparsers) -> None:
    """``meta swap``: the swap method."""
    add_analysis(
        subparsers, "swap", run_swap, *SIZES, SWAP_BIN_WIDTH, SWAP_TEST,
        (SIGNIFICANCE, {"doc": "significance level of --test"}), RNG_SEED,
        (RESAMPLES, {"doc": "resamples of a resampling --test"}), BY_BIN,
        lambda p: add_scheduler(p, "the repetitions of --test"), standardise=True,
        help="swap method and swap rates (Voorhees & Buckley 2002)",
        rules=(Rule(("bin_width",), lambda args: args.by_bin, "--bin-width applies to "
                    "--by-bin (the swap rate per difference bin); without it no bins are "
                    "made"),
               Rule(("samples",), lambda args: given(args, "test")
                    and is_resampling(args.test),
                    f"-B/--samples applies to a resampling --test ({RESAMPLING})"),
               Rule(("alpha",), lambda args: given(args, "test"), "--alpha applies to --test "
                    "(the significance filter of the swap method); without --test no test "
                    "is run")))


def run_swap(args: argparse.Namespace) -> int:
    """``meta swap``: swap rates by topic-set size (Voorhees & Buckley 2002)."""
    from .. import meta

    table = one_measure(args, "the swap method")
    with scheduler(args) as executor:
        result = meta.swap_rates(table, args.sizes, args.repetitions,
                                 bin_width=args.bin_width, test=args.test, alpha=args.alpha,
                                 samples=args.samples, rng=args.seed,
                                 progress=wants_progress(args), executor=executor)
    frame = result.rates if args.by_bin else result.overall
    return write_text(args, render(frame, args, repr(result)))
