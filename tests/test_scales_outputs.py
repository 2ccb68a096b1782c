"""What ``irscale scale table`` and ``scale image`` print, from :mod:`irscale.scales.diagnostics`:
Table 2 of Ferrante, Ferro & Fuhr (2021) (:func:`format_tau_table`, from rows written by
hand) and the image of a scale (:func:`image_document`, :func:`phi_lines`, against the
image of P@2 listed by hand)."""

from __future__ import annotations

import math

import pandas as pd

from irscale.scales.diagnostics import format_tau_table

ROWS = pd.DataFrame({"N": [5, 5, 10, 10], "measure": ["RBP", "AP", "RBP", "AP"],
                     "tau_overall": [0.9, 0.75, 1.0, math.nan],
                     "tau_topic_min": [0.5, 0.25, 0.8, math.nan]})


def test_csv_is_one_row_per_n_in_the_measures_order():
    assert format_tau_table(ROWS, "csv").splitlines() == ["N,RBP,AP", "5,0.9,0.75",
                                                           "10,1.0,undefined"]


def test_markdown_writes_undefined_for_nan():
    assert format_tau_table(ROWS, "markdown") == (
        "| N | RBP | AP |\n|---|---:|---:|\n| 5 | 0.9000 | 0.7500 |\n"
        "| 10 | 1.0000 | undefined |\n")


def test_text_adds_the_least_topic_tau():
    lines = format_tau_table(ROWS, "text").splitlines()
    assert lines[-1] == "topic-by-topic τ: minimum 0.2500 over the topics where it is defined"
    assert lines[-2].split() == ["10", "1.0000", "undefined"]
    tied = ROWS.assign(tau_topic_min=math.nan)
    assert format_tau_table(tied, "text").splitlines()[-1] == (
        "topic-by-topic τ: defined on no topic (the runs tie on every topic)")


def test_the_image_of_precision_at_two_listed_by_hand():
    from irscale.scales import scale
    from irscale.scales.diagnostics import image_document, phi_lines

    # binary runs of length 2: 00, 01, 10, 11 give P = 0, 1/2, 1/2, 1
    sc = scale("P", 2, progress=False)
    document = image_document(sc, values=True)
    assert list(document) == ["measure", "N", "levels", "n_runs", "n_distinct", "values",
                              "phi"]
    assert (document["N"], document["n_runs"], document["n_distinct"]) == (2, 4, 3)
    assert document["values"] == [0.0, 0.5, 1.0] and document["phi"] == [1, 2, 3]
    assert image_document(sc, intents=3)["values"] is None
    assert list(image_document(sc, intents=3))[-1] == "intents"
    assert phi_lines(sc) == ("  φ =   1  0.000000  (1 runs)\n  φ =   2  0.500000  (2 runs)\n"
                             "  φ =   3  1.000000  (1 runs)\n")
