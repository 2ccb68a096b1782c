"""Options and measure names: an option of one value given twice, the suggestions for an
unknown measure, and what ``measures`` may be in the Python API (``docs/errors.md``).

An option that holds one value (argparse's ``store``) given twice is a usage error naming
the option, whatever the values: ``-M 10 -M 20`` used to keep 20 silently. Options meant to
be repeated (``-m``, ``--labels``, ``--scores``: ``append``) and flags (``-q``) stay
repeatable. The check lives in the command line's ``Parser`` and holds for every
subcommand.
"""

from __future__ import annotations

import argparse
import re
import warnings

import pytest

import irscale
from irscale.cli.main import build_parser
from irscale.errors import MeasureError
from irscale.measures.names import IR_NAMES, RANX_NAMES, parse_measures

from ..cli_parsers import parsers
from .conftest import assert_error, assert_ok, err, ok, output_contains, run_case

EVAL = ["eval", "qrels.txt", "a.run"]
IMAGE = ["scale", "image", "-m", "AP", "--no-progress"]
DP = ["meta", "dp", "--scores", "ap.csv", "-B", "20"]
SPLIT = ["meta", "split", "--scores", "ap.csv", "--sizes", "2,3", "--repetitions", "3"]


def twice(option: str, first: str | None = None) -> tuple[str, str]:
    """The needles of 'option ... given twice' (``first``: its first spelling)."""
    return (f"option {option} given twice", f"first as {first}" if first else option)


CASES = [
    # ---- eval: every kind of single-value option
    err("eval-M-twice", [*EVAL, "-M", "10", "-M", "20"], *twice("-M")),
    err("eval-M-twice-same-value", [*EVAL, "-M", "10", "-M", "10"], *twice("-M")),
    err("eval-M-then-long-form", [*EVAL, "-M", "10", "--max-retrieved", "20"],
        *twice("--max-retrieved", "-M")),
    err("eval-M-equals-form", [*EVAL, "--max-retrieved=10", "--max-retrieved=20"],
        *twice("--max-retrieved")),
    err("eval-l-twice", [*EVAL, "-l", "1", "-l", "2"], *twice("-l")),
    err("eval-N-twice", [*EVAL, "-N", "100", "-N", "200"], *twice("-N")),
    err("eval-format-twice", [*EVAL, "--format", "trec", "--format", "csv"],
        *twice("--format")),
    err("eval-compat-twice", [*EVAL, "--compat", "9", "--compat", "10"], *twice("--compat")),
    err("eval-ties-twice", [*EVAL, "--ties", "trec_eval", "--ties", "file-order"],
        *twice("--ties")),
    err("eval-output-twice", [*EVAL, "-o", "one.txt", "-o", "two.txt"], *twice("-o")),
    err("eval-twice-before-positionals", ["eval", "-M", "3", "-M", "4", "qrels.txt", "a.run"],
        *twice("-M")),
    # ---- compare, scale image, meta dp / split
    err("compare-test-twice", ["compare", "--scores", "ap.csv", "--test", "t", "--test",
                               "tukey-hsd"], *twice("--test")),
    err("compare-alpha-twice", ["compare", "--scores", "ap.csv", "--alpha", "0.05",
                                "--alpha", "0.01"], *twice("--alpha")),
    err("compare-seed-twice", ["compare", "--scores", "ap.csv", "--seed", "1", "--seed", "2"],
        *twice("--seed")),
    err("image-N-twice", [*IMAGE, "-N", "3", "-N", "4"], *twice("-N")),
    err("image-measure-twice", ["scale", "image", "-m", "AP", "-m", "P@10", "-N", "3"],
        *twice("-m")),
    err("image-format-twice", [*IMAGE, "-N", "3", "--format", "json", "--format", "csv"],
        *twice("--format")),
    err("dp-seed-twice", [*DP, "--seed", "1", "--seed", "2"], *twice("--seed")),
    err("dp-samples-twice", [*DP, "--samples", "10"], *twice("--samples", "-B")),
    err("dp-method-twice", [*DP, "--method", "bootstrap", "--method", "bootstrap"],
        *twice("--method")),
    err("split-models-twice", [*SPLIT, "--models", "MD1", "--models", "MD2"],
        *twice("--models")),
    err("split-repetitions-twice", [*SPLIT, "--repetitions", "4"], *twice("--repetitions")),
    # ---- repeatable by design: append options and flags
    ok("eval-m-repeated", [*EVAL, "-m", "map", "-m", "P@5"], output_contains("map", "P@5")),
    ok("eval-flags-repeated", [*EVAL, "-m", "map", "-q", "-q", "-n", "-n"],
       output_contains("map")),
    ok("image-flag-repeated", [*IMAGE, "-N", "3", "--no-progress"]),
]


@pytest.mark.parametrize("case", CASES)
def test_options(case, ws, run_cli):
    run_case(case, ws, run_cli)


def test_option_twice_names_the_command(ws, run_cli):
    """One line ``irscale: <command>: option X given twice (see ...)``, exit status 2."""
    line = assert_error(run_cli([*EVAL, "-M", "10", "-M", "20"]), *twice("-M"))
    assert line.startswith("irscale: eval: option -M given twice"), line
    line = assert_error(run_cli([*IMAGE, "-N", "3", "-N", "4"]), *twice("-N"))
    assert line.startswith("irscale: scale image: option -N given twice"), line


def test_no_state_between_calls(ws, run_cli):
    """``main`` is called many times in one process: an option given once per call is
    never 'given twice', and one parser parses several command lines."""
    for value in ("3", "4", "3"):
        assert_ok(run_cli([*EVAL, "-m", "map", "-M", value]))
    assert_error(run_cli([*EVAL, "-M", "3", "-M", "4"]), *twice("-M"))
    assert_ok(run_cli([*EVAL, "-m", "map", "-M", "4"]))
    parser = build_parser("eval")
    first = parser.parse_args([*EVAL, "-M", "3"])
    second = parser.parse_args([*EVAL, "-M", "4"])
    assert (first.max_retrieved, second.max_retrieved) == (3, 4)
    for args in (first, second):  # the parser's bookkeeping is not left in the namespace
        assert all(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) for key in vars(args)), \
            sorted(vars(args))


def test_every_single_value_option_is_checked():
    """Every option of every (sub)command that takes a value either refuses a second
    occurrence (``store``) or is meant to be repeated (``append``): none keeps the last
    value silently."""
    from irscale.cli.parser import Parser

    store_once = Parser("x")._registry_get("action", "store")
    assert store_once is not argparse._StoreAction
    checked = 0
    for prog, parser in parsers(build_parser()):
        for action in parser._actions:
            if not action.option_strings or action.nargs == 0:
                continue  # positionals, flags, --help, --version
            assert isinstance(action, (store_once, argparse._AppendAction)), \
                f"{prog} {'/'.join(action.option_strings)}: {type(action).__name__}"
            checked += isinstance(action, store_once)
    assert checked > 50, checked


# ================================================================ measure names
def _suggestions(message: str) -> list[str]:
    found = re.search(r"\(did you mean (.*)\?\)", message)
    return found[1].split(", ") if found else []


@pytest.mark.parametrize("name", ["Pp", "P_", "p", "ndgc", "Rprec_", "MAp", "recall_",
                                  "NDCG_", "mapp", "success_", "nDGC@10", "precison@10",
                                  "ndgc_cut_10", "RBP_0.5", "sETf@10", "rbp(p=0.5)"])
def test_suggestions_name_each_measure_once(name):
    """Each suggestion reads, as a measure no other suggestion reads as."""
    with pytest.raises(MeasureError) as raised:
        parse_measures([name])
    suggestions = _suggestions(str(raised.value))
    assert suggestions, str(raised.value)
    read = [_read_as(suggestion) for suggestion in suggestions]
    assert all(read.count(measures) == 1 for measures in read), str(raised.value)


@pytest.mark.parametrize(("name", "expected"), [("Pp", ["P"]), ("P_", ["P"]), ("p", ["P"])])
def test_suggestions_of_a_misspelt_P(name, expected):
    with pytest.raises(MeasureError) as raised:
        parse_measures(name)
    assert _suggestions(str(raised.value)) == expected, str(raised.value)


@pytest.mark.parametrize(("name", "first"), [
    ("Ndcg@10", "ndcg@10"), ("p_10", "P_10"), ("P-10", "P@10"), ("nDCG_10", "nDCG@10"),
    ("ndcg_cut@10", "ndcg_cut_10"), ("NDCG_cut_10", "ndcg_cut_10"), ("MAp", "MAP"),
    ("Precision@10", "precision@10"), ("hitrate@10", "hit_rate@10"),
    ("NDCG_burges@10", "ndcg_burges@10"), ("r_precision", "r-precision"),
    ("rbp(p=0.5)", "RBP(p=0.5)"),
    # typos: the name meant, its cut-off kept
    ("nDGC@10", "nDCG@10"), ("precison@10", "precision@10"), ("reacll@100", "recall@100"),
    ("ndgc_cut_10", "ndcg_cut_10")])
def test_suggestion_first_is_the_name_meant(name, first):
    with pytest.raises(MeasureError) as raised:
        parse_measures([name])
    suggestions = _suggestions(str(raised.value))
    assert suggestions[:1] == [first], str(raised.value)


def _read_as(name: str) -> list:
    return [(r.family, r.params, r.cutoff, r.relevance_level) for r in parse_measures([name])]


@pytest.mark.parametrize("name", [
    *(f"{n}@10" for n in IR_NAMES if n != "IPrec"),
    *(n for n, (bare, _) in IR_NAMES.items() if bare is not None),
    *(f"{n}@10" for n, (_, at_k) in RANX_NAMES.items() if at_k is not None),
    *(n for n, (bare, _) in RANX_NAMES.items() if bare is not None),
    "P_10", "ndcg_cut_10", "recall_100", "map_cut_100", "success_1"])
def test_a_name_in_other_case_suggests_the_same_measure_first(name):
    """A known name written in another case (``NDCG@10`` → ``ndcg@10``) or with its
    punctuation changed (``P_10`` → ``p-10``, ``P10``) is read (as itself or as another
    known name), or refused as a ranx form irscale does not give (``bpref@10``), or
    suggests first a name read as the original."""
    expected = _read_as(name)
    for variant in {name.swapcase(), name.upper(), name.lower(),
                    name.replace("_", "-"), name.replace("_", "")}:
        try:
            _read_as(variant)
        except MeasureError as error:
            if not str(error).startswith("unknown measure"):  # ranx's bpref@10: refused
                assert str(error).startswith(f"measure {variant!r}: ranx"), str(error)
                continue
            suggestions = _suggestions(str(error))
            assert suggestions and _read_as(suggestions[0]) == expected, (variant, str(error))


def test_suggestion_on_the_command_line(ws, run_cli):
    line = assert_error(run_cli([*EVAL, "-m", "Pp"]), "Pp")
    assert line.endswith("(did you mean P?)"), line


@pytest.mark.parametrize(("name", "cutoff"), [
    ("AP@-1", "'-1'"), ("P@-1", "'-1'"), ("nDCG@x", "'x'"), ("AP@", "''"),
    ("P(rel=2)@-3", "'-3'"), ("AP@0", "'0'"), ("nDCG@0", "'0'"), ("RR@0", None),
    ("IPrec@-1", "'-1'")])
def test_invalid_cutoff_is_named(name, cutoff, ws, run_cli):
    """A known measure with an impossible cut-off: the cut-off is invalid, named as the
    user wrote the measure; no other measure is suggested (AP@-1 suggested AP11)."""
    line = assert_error(run_cli([*EVAL, "-m", name]), f"measure {name!r}", "cut-off")
    assert "did you mean" not in line and "unknown measure" not in line, line
    assert cutoff is None or line.endswith(f"got {cutoff}"), line


# ============================================================ measures= in Python
class _Opaque:
    def __repr__(self) -> str:
        return "<opaque>"


BAD_MEASURES = [
    pytest.param(None, "got None", id="none"),
    pytest.param(3, "got 3", id="int"),
    pytest.param(3.5, "got 3.5", id="float"),
    pytest.param(b"map", "got b'map'", id="bytes"),
    pytest.param(_Opaque(), "got <opaque>", id="object"),
    pytest.param([], "got []", id="empty-list"),
    pytest.param((), "got ()", id="empty-tuple"),
    pytest.param([None], "(None is not a string)", id="list-of-none"),
    pytest.param(["map", 10], "(10 is not a string)", id="list-with-int"),
    pytest.param([b"map"], "(b'map' is not a string)", id="list-of-bytes"),
    pytest.param([["map"]], "(['map'] is not a string)", id="nested-list"),
]


@pytest.mark.parametrize(("measures", "needle"), BAD_MEASURES)
def test_parse_measures_refuses(measures, needle):
    with pytest.raises(MeasureError) as raised:
        parse_measures(measures)
    message = str(raised.value)
    assert isinstance(raised.value, ValueError)
    assert message.startswith('measures must be measure names such as "map" or '
                              '["P@10", "ndcg"]'), message
    assert needle in message, message


@pytest.mark.parametrize(("measures", "needle"),
                         [p for p in BAD_MEASURES if p.id != "none"])  # None: the default
def test_evaluate_refuses(measures, needle, ws):
    with pytest.raises(MeasureError, match="measures must be measure names") as raised:
        irscale.evaluate("qrels.txt", "a.run", measures=measures)
    assert needle in str(raised.value)


def test_long_bad_measures_are_shortened():
    with pytest.raises(MeasureError) as raised:
        parse_measures([*(["map"] * 10_000), 1])
    assert len(str(raised.value)) < 1000


@pytest.mark.parametrize("measures", ["map", "map P@5", ["map", "P@5"], ("map",),
                                      iter(["map", "P@5"])])
def test_evaluate_accepts(measures, ws):
    table = irscale.evaluate("qrels.txt", "a.run", measures=measures).mean()
    assert "map" in table.columns


def test_unused_label_set_warning_not_before_the_error(ws, run_cli):
    """A measure that needs a label set that was not given is the one line, without the
    warning about the label set given in its place."""
    result = run_cli(["eval", "qrels.txt", "a.run", "--labels", "trust=labels.txt",
                      "-m", "uRBP(p=0.8)"])
    assert_error(result, "under")
    assert "warning" not in result.err, result.err


@pytest.mark.parametrize("measure", ["TBG", "U"])
def test_a_label_set_read_by_default_is_not_called_unused(ws, measure):
    """TBG and U read the document lengths of ``doclen`` unless told otherwise: given with
    the bare name, the set is used (their values change with it), not warned of as
    unused; a set no measure reads still is."""
    docnos = sorted({line.split()[2] for line in ws.read("a.run").decode().splitlines()})
    ws.write("lengths.txt", "".join(f"* 0 {d} {10 + 997 * k % 4000}\n"
                                    for k, d in enumerate(docnos)))
    ws.write("flat.txt", "".join(f"* 0 {d} 100\n" for d in docnos))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        used = irscale.evaluate("qrels.txt", "a.run", [measure],
                                labels={"doclen": "lengths.txt"}).mean()
    other = irscale.evaluate("qrels.txt", "a.run", [measure],
                             labels={"doclen": "flat.txt"}).mean()
    assert used[measure].iloc[0] != other[measure].iloc[0]
    with pytest.warns(UserWarning, match="under given but used by no measure"):
        irscale.evaluate("qrels.txt", "a.run", [measure],
                         labels={"doclen": "lengths.txt", "under": "lengths.txt"})
