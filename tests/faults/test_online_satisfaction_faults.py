"""``irscale online satisfaction``: learned satisfaction from labelled sessions; faulty
labels (file, line and text named), features and options."""

from __future__ import annotations

import pytest

from .conftest import any_of, err, ok, opt, output_contains, run_case


def _text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


#: 24 sessions of 3 ranks with timestamps: session i clicks rank 1 when i % 2 == 0 and
#: rank 2 when i % 3 == 0, 10·(i % 5 + 1) seconds after the page; satisfied when it
#: clicked rank 1 or i % 7 == 0.
_LOG, _LABELS = [], []
for _i in range(24):
    _clicks = (_i % 2 == 0, _i % 3 == 0, False)
    _LOG += [f"s{_i} q{_i % 4} {r + 1} d{r} {int(_clicks[r])} {10 * (_i % 5 + 1) * (r + 1)}"
             for r in range(3)]
    _LABELS.append(f"s{_i} {int(_i % 2 == 0 or _i % 7 == 0)}")
LOG, LABELS = _text(_LOG), _text(_LABELS)
FILES = {"log.txt": LOG, "labels.txt": LABELS}
BASE = ["online", "satisfaction", "log.txt", "--labels", "labels.txt", "--seed", "1"]


def _line2(text: str, new: str) -> str:
    lines = text.splitlines()
    lines[1] = new
    return _text(lines)


CASES = [
    ok("model", BASE, output_contains("intercept", "reciprocal_rank", "success", "cv_auc"),
       files=FILES),
    ok("features", [*BASE, "--features", "clicks,abandoned", "--format", "csv"],
       output_contains("term,coefficient", "abandoned"), files=FILES),
    ok("apply", [*BASE, "--apply", "log.txt", "--folds", "3", "--l2", "0.5"],
       output_contains("satisfaction", "log.txt"), files=FILES),
    ok("json", [*BASE, "--format", "json"], output_contains('"cv_accuracy"'), files=FILES),
    err("labels-missing", [*BASE[:4], "nope.txt"], "nope.txt", files=FILES),
    err("labels-not-binary", BASE, any_of("labels.txt, line 2", "labels.txt:2"), "0",
        files={**FILES, "labels.txt": _line2(LABELS, "s1 yes")}),
    # standard input is read once: the line of a label other than 0 or 1 is named from
    # the bytes read (the file was read a second time to find it: nothing came)
    err("labels-not-binary-stdin", [*BASE[:4], "-", *BASE[5:]], "line 2", "s1 yes",
        files=FILES, stdin=_line2(LABELS, "s1 yes").encode()),
    err("labels-one-field", BASE, any_of("labels.txt, line 2", "labels.txt:2"),
        files={**FILES, "labels.txt": _line2(LABELS, "s1")}),
    err("labels-twice", BASE, any_of("labels.txt, line 2", "labels.txt:2"), "twice",
        files={**FILES, "labels.txt": _line2(LABELS, "s0 1")}),
    err("labels-unknown-session", BASE, "s99", "not in the log",
        files={**FILES, "labels.txt": LABELS + "s99 1\n"}),
    err("labels-too-few", [*BASE, "--folds", "20"], "sessions of each label",
        files=FILES),
    err("feature-unknown", [*BASE, "--features", "clicks,magic"], "magic", files=FILES),
    # a comma-separated list as every list option reads one, before any file is read
    err("feature-twice", [*BASE, "--features", "clicks,clicks"], "--features", "twice",
        files=FILES),
    err("feature-empty-item", [*BASE, "--features", "clicks,,dwell"], "--features",
        "empty name", files=FILES),
    err("feature-not-finite", [*BASE, "--features", "dwell"], "dwell", "finite",
        files=FILES),
    err("l2-zero", [*BASE, "--l2", "0"], opt("--l2"), files=FILES),
    err("folds-one", [*BASE, "--folds", "1"], opt("--folds"), files=FILES),
    err("no-labels", BASE[:3], opt("--labels"), files=FILES),
    err("apply-without-timestamps", [*BASE, "--apply", "plain.txt"], "plain.txt", "s0",
        "success", "timestamps",
        files={**FILES, "plain.txt": _text([" ".join(x.split()[:5]) for x in _LOG])}),
    err("apply-missing", [*BASE, "--apply", "nope.txt"], "nope.txt", files=FILES),
]


@pytest.mark.parametrize("case", CASES)
def test_online_satisfaction(case, ws, run_cli):
    run_case(case, ws, run_cli)
