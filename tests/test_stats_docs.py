"""docs/stats.md: the Python examples run as written (from the repository root), and the
numbers the page states (code comments, sentences, the JSON example) are what the code
gives; the expected numbers are read from the page (:mod:`tests.docs_numbers`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from irscale import stats
from irscale.core import ScoreMatrix

from .conftest import URBANO, require
from .docs_examples import run_shell_example
from .docs_numbers import assert_close, blocks, comment, number_after, numbers, paragraph, printed
from .docs_numbers import read as read_doc
from .test_cli_eval import cli

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "stats.md"
TEXT = read_doc("stats.md")
BLOCKS = blocks(TEXT)


def _block(anchor: str) -> str:
    found = [code for code in BLOCKS if anchor in code]
    assert len(found) == 1, anchor
    return found[0]


@pytest.mark.parametrize("code", BLOCKS, ids=[f"example{i + 1}" for i in range(len(BLOCKS))])
def test_documented_example_runs(code, monkeypatch, capsys, tmp_path):
    """Every example runs where a user runs it: it makes its own data (no ../shared)."""
    assert "shared/data" not in code
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    exec(compile(code, str(DOC), "exec"), namespace)
    assert capsys.readouterr().out  # every example prints something


def _run_block(anchor: str, capsys) -> dict[str, object]:
    """The namespace of the example containing ``anchor``, run as written."""
    namespace: dict[str, object] = {}
    exec(compile(_block(anchor), str(DOC), "exec"), namespace)
    capsys.readouterr()
    return namespace


@pytest.fixture(scope="module")
def trec8_ap():
    return ScoreMatrix.read_csv(require(URBANO) / "adhoc8_ap.csv")


def test_the_documented_tukey_numbers_hold(capsys):
    """``print(hsd.n_significant, len(hsd), round(hsd.half_width, 4))  # 105 190 0.0201``
    of the example (20 synthetic systems), the numbers the example prints."""
    hsd = _run_block("hsd = table.tukey_hsd", capsys)["hsd"]
    significant, pairs, half_width = numbers(comment(_block("hsd = table.tukey_hsd"),
                                                     "print(hsd.n_significant"))
    assert (int(significant), int(pairs)) == (hsd.n_significant, len(hsd))
    assert_close(half_width, hsd.half_width, "half-width")


def test_the_documented_seed004_tukey_numbers_hold(trec8_ap):
    """The sentence of the Tukey HSD section on TREC-8 AP: eq. 11's half-width 0.0515
    (Ferro & Maistro 2024, §4.2.6) and 3,423 of 8,256 pairs significant."""
    hsd = stats.anova_twoway(trec8_ap).tukey_hsd(alpha=0.05)
    assert round(hsd.half_width, 4) == 0.0515  # Ferro & Maistro's
    sentence = paragraph(TEXT, "`half_width` reports eq. 11's half-width")
    assert_close(number_after(sentence, "eq. 11's half-width ("), hsd.half_width)
    assert int(number_after(sentence, "TREC-8; ")) == hsd.n_significant
    assert int(number_after(sentence, f"{hsd.n_significant:,} of ")) == len(hsd)


@pytest.fixture(scope="module")
def compare_json(tmp_path_factory):
    """The JSON of the documented ``irscale compare ... --format json`` command, run after
    the commands before it (``irscale demo``, ``irscale eval``) in a new folder."""
    shell = next(code for code in blocks(TEXT, "console") if "$ irscale compare" in code)
    outputs = run_shell_example(shell, tmp_path_factory.mktemp("stats-docs"))
    [json_out] = [out for command, out in outputs.items()
                  if command.startswith("irscale compare") and "json" in command]
    return json.loads(json_out)


@pytest.fixture(scope="module")
def trec8_json():
    """``irscale compare`` of TREC-8 AP as the two-way table's sentence describes it."""
    status, out, err = cli(["compare", "--scores", str(require(URBANO) / "adhoc8_ap.csv"),
                            "--model", "topic+system", "--test", "tukey-hsd", "--format",
                            "json"])
    assert status == 0, err
    return json.loads(out)


def _documented_object(shell: str, start: str) -> dict[str, str]:
    """``{key: value text}`` of the JSON object of the documented output starting with
    ``start`` (the example elides the rest of the output with ``...``)."""
    text = shell[shell.index(start):]
    text = text[: text.index("}")]
    return dict(re.findall(r'"(\w+)": ("[^"]*"|[-\d.e]+|true|false|null)', text))


def test_the_documented_json_output_holds(compare_json):
    shell = next(code for code in blocks(TEXT, "console") if "$ irscale compare" in code)
    anova = {row["factor"]: row for row in compare_json["anova"]}
    stated = _documented_object(shell, '{"factor": "topic"')
    assert stated.pop("factor") == '"topic"'
    for key, value in stated.items():
        assert_close(value, anova["topic"][key], f"anova topic {key}")
    first = compare_json["pairs"][0]
    stated = _documented_object(shell, '{"a": "system1"')
    assert (stated.pop("a"), stated.pop("b")) == (f'"{first["a"]}"', f'"{first["b"]}"')
    assert stated.pop("significant") == json.dumps(first["significant"])
    for key, value in stated.items():
        assert_close(value, first[key], f"pair {key}")
    stated = _documented_object(shell, '{"test": "Shapiro-Wilk"')
    shapiro = compare_json["assumptions"][0]
    for key, value in stated.items():
        if value.startswith('"') or value == "null":
            assert json.loads(value) == shapiro[key], key
        else:
            assert_close(value, shapiro[key], f"assumptions {key}")
    assert [(r["test"], r["groups"]) for r in compare_json["assumptions"][1:3]] == [
        ("Levene", "system"), ("Brown-Forsythe", "system")]
    stated_pairs = re.search(r"\(([\d,]+) pairs\)", shell)[1]  # "(10 pairs)"
    assert int(stated_pairs.replace(",", "")) == len(compare_json["pairs"])


def test_the_documented_trec8_assumption_checks_hold(trec8_json):
    """"W = 0.9741 ..., Levene across systems F = 3.60 on (128, 6321) df, across topics
    F = 35.27 on (49, 6400) df; Brown–Forsythe 3.05 and 25.17"."""
    checks = {(r["test"], r["groups"]): r for r in trec8_json["assumptions"]}
    sentence = paragraph(TEXT, "On TREC-8 AP (MD2, 6450 residuals)")
    assert_close(re.search(r"W = ([\d.]+)", sentence)[1],
                 checks[("Shapiro-Wilk", "")]["statistic"], "W")
    (f_system, df_system), (f_topic, df_topic) = re.findall(
        r"F = ([\d.]+) on \((\d+, \d+)\) df", sentence)
    for (value, df), groups in (((f_system, df_system), "system"),
                                ((f_topic, df_topic), "topic")):
        row = checks[("Levene", groups)]
        assert_close(value, row["statistic"], f"Levene {groups}")
        assert df == f"{row['df1']:.0f}, {row['df2']:.0f}"
    bf_system, bf_topic = re.search(r"Brown–Forsythe (\d+\.\d+) and (\d+\.\d+)",
                                    sentence).groups()
    assert_close(bf_system, checks[("Brown-Forsythe", "system")]["statistic"], "BF system")
    assert_close(bf_topic, checks[("Brown-Forsythe", "topic")]["statistic"], "BF topic")


def test_the_documented_assumption_example_numbers_hold(capsys):
    """The comments of the example: W 0.9934 (p 0.34), Levene by topic p 0.0006, the
    Brown–Forsythe p 0.31 across topics."""
    table = _run_block("table.assumptions.format", capsys)["table"]
    checks = table.assumptions
    code = _block("table.assumptions.format")
    w, p_w, p_levene = re.search(r"W ([\d.]+) \(p ([\d.]+)\); Levene by topic p ([\d.]+)",
                                 code).groups()
    assert_close(w, checks.test("Shapiro-Wilk").statistic, "W")
    assert_close(p_w, checks.test("Shapiro-Wilk").pvalue, "p of W")
    assert_close(p_levene, checks.test("Levene", "topic").pvalue, "Levene topic p")
    assert_close(re.search(r"# ([\d.]+): the median", code)[1],
                 checks.test("Brown-Forsythe", "topic").pvalue, "Brown-Forsythe topic p")


def test_the_documented_seed004_anova_table_holds(trec8_json):
    """"SS 167.9979 (topic; 167.9974 in the paper), 60.0298 (system; 60.0299), 85.3503
    (error; 85.3502); F 251.95 and 34.46; ω² 0.6559 and 0.3991" (Ferro & Maistro 2024, Table 1,
    whose sums of squares differ from ours by the rounding of the CSV's scores only)."""
    anova = {row["factor"]: row for row in trec8_json["anova"]}
    sentence = paragraph(TEXT, "reproduces Ferro and Maistro (2024), Table 1")
    for factor in ("topic", "system", "error"):
        ours, seeds = re.search(rf"([\d.]+) \({factor}; ([\d.]+)", sentence).groups()
        assert_close(ours, anova[factor]["ss"], f"SS {factor}")
        assert abs(float(seeds) - anova[factor]["ss"]) < 1e-3, (factor, seeds)
    f_topic, f_system = re.search(r"F ([\d.]+) and ([\d.]+)", sentence).groups()
    assert_close(f_topic, anova["topic"]["f"], "F topic")
    assert_close(f_system, anova["system"]["f"], "F system")
    w_topic, w_system = re.search(r"ω² ([\d.]+) and ([\d.]+)", sentence).groups()
    assert_close(w_topic, anova["topic"]["omega2"], "omega2 topic")
    assert_close(w_system, anova["system"]["omega2"], "omega2 system")


def test_the_documented_family_size_holds(monkeypatch, capsys):
    """``print(len(family), family.n_significant)  # 3 pairs × 1 measure × 2 collections``"""
    code = _block("stats.pairwise_tests(collections")
    factors = [int(n) for n in numbers(comment(code, "print(len(family)"))]
    monkeypatch.chdir(ROOT)
    exec(compile(code, str(DOC), "exec"), {})
    size = int(capsys.readouterr().out.split()[0])
    assert size == factors[0] * factors[1] * factors[2]


def test_the_documented_design_numbers_hold():
    """``power_paired_t(0.5, 30)  # ≈ 0.75`` and ``topic_set_size(...)  # n = 73``, the
    calls evaluated as the page writes them."""
    code = _block("stats.power_paired_t")
    expression, stated = printed(code, "stats.power_paired_t")
    assert_close(numbers(stated)[0], eval(expression, {"stats": stats}), expression)
    expression, stated = printed(code, 'stats.topic_set_size("paired-t"')
    design = eval(expression, {"stats": stats})
    assert stated.startswith("n =") and design.n == int(numbers(stated)[0])
