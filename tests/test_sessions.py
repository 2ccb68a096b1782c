"""Multi-query sessions: sDCG, nsDCG and session U against hand computations
from Sakai (2014, eq. 35, eq. 19–20, Fig. 8–9), brute-force implementations written out here,
and the catalogue's DCG/nDCG through :func:`irscale.evaluate`."""

from __future__ import annotations

import math

import numpy as np
import pytest

import irscale
from irscale.errors import DuplicateError, InputError, MeasureError, ParameterError
from irscale.io.sessions import read_clicks, read_session_run
from irscale.measures.names import parse_name
from irscale.text import evaluate_sessions

QRELS = {"s1": {"d1": 1, "d2": 2, "d3": 0}, "s2": {"d1": 1}}
RUN = (b"s1 1 d3 1 0.9 sys\ns1 1 d1 2 0.5 sys\ns1 2 d2 1 0.7 sys\ns1 2 d1 2 0.6 sys\n"
       b"s2 1 d1 1 1.0 sys\n")
LENGTHS = {"d1": 1000.0, "d2": 500.0, "d3": 2000.0, "d4": 300.0}


def log(x: float, base: float) -> float:
    return math.log(x) / math.log(base)


def value(evaluation, label: str, session: str) -> float:
    rows = evaluation.per_topic()
    hit = rows[(rows.measure == label) & (rows.topic == session)]
    assert len(hit) == 1
    return float(hit.value.iloc[0])


# ----------------------------------------------------------------------------- hand-computed
def test_sdcg_worked_example():
    """s1: query 1 shows d3 (0), d1 (1); query 2 shows d2 (2), d1 again (removed)."""
    e = evaluate_sessions(QRELS, RUN, ["sDCG@10", "sDCG(bq=2)@10", "sDCG@1"])
    expected = 1 / math.log2(3) + 2 / (log(2 + 4 - 1, 4) * math.log2(4))
    assert value(e, "sDCG@10", "s1") == pytest.approx(expected, rel=1e-12)
    expected_b2 = 1 / math.log2(3) + 2 / (log(2 + 2 - 1, 2) * math.log2(4))
    assert value(e, "sDCG(bq=2)@10", "s1") == pytest.approx(expected_b2, rel=1e-12)
    # @1: d3 (query 1), d2 (query 2) at concatenated rank 2
    assert value(e, "sDCG@1", "s1") == pytest.approx(2 / (log(5, 4) * math.log2(3)))
    assert value(e, "sDCG@10", "s2") == pytest.approx(1.0)


def test_jarvelin_sdcg_worked_example():
    """Järvelin et al. (2008): s1's query 1 shows d3 (0), d1 (1); query 2 d2 (2), d1 (1)
    again, which gains again. Sakai's sDCG gives 1.492 on this session; Järvelin's, each
    query's DCG (rank discount max(1, log2 j)) over 1 + log4(q), gives 3.000."""
    names = ["sDCG", "sDCG(form=jarvelin)", "sDCG(form=jarvelin,discount=1+log)",
             "sDCG(form=jarvelin,bq=2,base=3)@1", "nsDCG(form=jarvelin,norm=jarvelin)",
             "nsDCG(form=jarvelin)@1"]
    e = evaluate_sessions(QRELS, RUN, names)
    assert value(e, "sDCG", "s1") == pytest.approx(1.4923, abs=1e-4)
    assert value(e, "sDCG(form=jarvelin)", "s1") == pytest.approx(3.0, rel=1e-12)
    smooth = 1 / 2 + (2 / 1 + 1 / 2) / (1 + log(2, 4))
    assert value(e, "sDCG(form=jarvelin,discount=1+log)", "s1") == pytest.approx(smooth,
                                                                                 rel=1e-12)
    assert value(e, "sDCG(form=jarvelin,bq=2,base=3)@1", "s1") == pytest.approx(2 / 2)
    # Järvelin's ideal: the ideal list d2 (2), d1 (1) for each of the two queries
    ideal = (2 + 1) + (2 + 1) / (1 + log(2, 4))
    assert value(e, "nsDCG(form=jarvelin,norm=jarvelin)", "s1") == pytest.approx(3 / ideal)
    # @1, single ideal list cut at m·k = 2: d2, d1 at query 1
    assert value(e, "nsDCG(form=jarvelin)@1", "s1") == pytest.approx((2 / 1.5) / (2 + 1))
    assert value(e, "sDCG(form=jarvelin)", "s2") == pytest.approx(1.0)


def brute_jarvelin(lists, judged, *, k=None, bq=4.0, base=2.0):
    """Σ_q DCG_q / (1 + log_bq q), DCG_q with max(1, log_b j), every list whole."""
    return sum(
        sum(max(judged.get(doc, 0), 0) / max(1.0, log(j, base))
            for j, doc in enumerate(docs[:k] if k else docs, 1)) / (1 + log(q, bq))
        for q, docs in enumerate(lists, 1))


@pytest.mark.parametrize("seed", range(3))
def test_jarvelin_sdcg_matches_brute_force(seed):
    rng = np.random.default_rng(50 + seed)
    qrels, run, shown = random_sessions(rng)
    e = evaluate_sessions(qrels, run, ["sDCG(form=jarvelin)", "sDCG(form=jarvelin,bq=2)@3",
                                       "sDCG(form=jarvelin,base=3)"])
    for sid, lists in shown.items():
        judged = qrels[sid]
        assert value(e, "sDCG(form=jarvelin)", sid) == pytest.approx(brute_jarvelin(lists,
                                                                                    judged))
        assert value(e, "sDCG(form=jarvelin,bq=2)@3", sid) == pytest.approx(
            brute_jarvelin(lists, judged, k=3, bq=2.0))
        assert value(e, "sDCG(form=jarvelin,base=3)", sid) == pytest.approx(
            brute_jarvelin(lists, judged, base=3.0))


@pytest.mark.parametrize("name, match", [
    ("sDCG(discount=1+log)", "with form=jarvelin"),
    ("sDCG(base=3)", "with form=jarvelin"),
    ("nsDCG(form=jarvelin,discount=log2,base=3)", "no effect with discount=log2"),
    ("sDCG(form=nosuch)", "nosuch"),
])
def test_jarvelin_parameters_refused_where_they_do_nothing(name, match):
    with pytest.raises(MeasureError, match=match):
        evaluate_sessions(QRELS, RUN, [name])


def test_nsdcg_normalisations_by_hand():
    e = evaluate_sessions(QRELS, RUN, ["nsDCG@1", "nsDCG(norm=jarvelin)@1", "nsDCG"])
    sdcg_at_1 = 2 / (log(5, 4) * math.log2(3))
    # single ideal list d2 (2), d1 (1), cut at m·k = 2 documents
    assert value(e, "nsDCG@1", "s1") == pytest.approx(sdcg_at_1 / (2 + 1 / math.log2(3)))
    # Järvelin: the ideal top-1 (d2) for each of the 2 queries, duplicates allowed
    jarvelin = 2 / 1 + 2 / (log(5, 4) * math.log2(3))
    assert value(e, "nsDCG(norm=jarvelin)@1", "s1") == pytest.approx(sdcg_at_1 / jarvelin)
    # without a cut-off: the whole single ideal list
    full = 1 / math.log2(3) + 2 / (log(5, 4) * math.log2(4))
    assert value(e, "nsDCG", "s1") == pytest.approx(full / (2 + 1 / math.log2(3)))


def test_u_linear_traversal_by_hand():
    """Snippets of every document (200 characters), then 20 % of each relevant one; the
    duplicate d1 of query 2 costs its snippet and gains nothing."""
    e = evaluate_sessions(QRELS, RUN, ["U", "U(L=1000)"], labels={"doclen": LENGTHS})
    pos_d1 = 2 * 200 + 0.2 * 1000
    pos_d2 = pos_d1 + 200 + 0.2 * 500
    assert value(e, "U", "s1") == pytest.approx(
        1 * (1 - pos_d1 / 132000) + 2 * (1 - pos_d2 / 132000))
    assert value(e, "U(L=1000)", "s1") == pytest.approx(1 * (1 - 600 / 1000) + 2 * (1 - 900 / 1000))
    assert value(e, "U", "s2") == pytest.approx(1 - 400 / 132000)


# Fig. 8 (g)-(h): four documents shown for one query; the click log shows rank 4 clicked
# first, then rank 2: the user reads the four snippets, then F of document 4, then F of
# document 2.
FIG8_QRELS = {"t": {"a": 1, "b": 1, "c": 0, "e": 1}}
FIG8_RUN = b"t 1 a 1 4 sys\nt 1 b 2 3 sys\nt 1 c 3 2 sys\nt 1 e 4 1 sys\n"
FIG8_LENGTHS = {"a": 1000.0, "b": 3000.0, "c": 500.0, "e": 2000.0}
FIG8_CLICKS = b"t 1 4 10\nt 1 2 25\n"


def test_u_nonlinear_traversal_fig8():
    e = evaluate_sessions(FIG8_QRELS, FIG8_RUN, ["U(L=2000)"], clicks=[FIG8_CLICKS],
                          labels={"doclen": FIG8_LENGTHS})
    pos_e = 4 * 200 + 0.2 * 2000
    pos_b = pos_e + 0.2 * 3000
    assert value(e, "U(L=2000)", "t") == pytest.approx((1 - pos_e / 2000) + (1 - pos_b / 2000))
    # in rank order (Fig. 8 (e)-(f) style): snippets 1-2, b, snippets 3-4, e
    r = evaluate_sessions(FIG8_QRELS, FIG8_RUN, ["U(L=2000)"], clicks=[FIG8_CLICKS],
                          click_order="rank", labels={"doclen": FIG8_LENGTHS})
    pos_b = 2 * 200 + 0.2 * 3000
    pos_e = pos_b + 2 * 200 + 0.2 * 2000
    assert value(r, "U(L=2000)", "t") == pytest.approx((1 - pos_b / 2000) + (1 - pos_e / 2000))
    # Fig. 9's gain: every click is worth (2^1 - 1)/2^1 = 0.5
    g = evaluate_sessions(FIG8_QRELS, FIG8_RUN, ["U(L=2000)"], clicks=[FIG8_CLICKS],
                          click_gain=0.5, labels={"doclen": FIG8_LENGTHS})
    pos_e = 4 * 200 + 0.2 * 2000
    pos_b = pos_e + 0.2 * 3000
    assert value(g, "U(L=2000)", "t") == pytest.approx(0.5 * (2 - pos_e / 2000 - pos_b / 2000))


# ----------------------------------------------------------------------------- brute force
def fig9(clicks, shown, lengths, gain, *, L, snippet=200.0, F=0.2):
    """Sakai (2014), Fig. 9, written out: clicks (query, rank, time) of one session."""
    pos, u, snippet_done, rewarded = 0.0, 0.0, {}, set()
    for query, rank, _ in sorted(clicks, key=lambda c: c[2]):
        done = snippet_done.setdefault(query, set())
        for r in range(1, rank + 1):
            if r not in done:
                pos += snippet
                done.add(r)
        doc = shown[query][rank - 1]
        pos += F * lengths[doc]
        if doc not in rewarded:
            rewarded.add(doc)
            u += gain.get(doc, 0) * max(0.0, 1 - pos / L)
    return u


def brute_sdcg(lists, judged, *, k=None, bq=4.0):
    seen, out, r = set(), 0.0, 0
    for q, docs in enumerate(lists, 1):
        for doc in docs[:k]:
            if doc in seen:
                continue
            seen.add(doc)
            r += 1
            out += max(judged.get(doc, 0), 0) / (log(q + bq - 1, bq) * math.log2(r + 1))
    return out


def brute_ideal(lists, judged, *, k, norm, bq=4.0):
    ideal = sorted((g for g in judged.values() if g > 0), reverse=True)
    if norm == "single":
        depth = len(ideal) if k is None else min(len(ideal), k * len(lists))
        return sum(g / math.log2(r + 1) for r, g in enumerate(ideal[:depth], 1))
    out, r = 0.0, 0
    for q, docs in enumerate(lists, 1):
        for t in range(k if k is not None else len(docs)):
            r += 1
            g = ideal[t] if t < len(ideal) else 0
            out += g / (log(q + bq - 1, bq) * math.log2(r + 1))
    return out


def random_sessions(rng, n_sessions=12, docs=15):
    qrels, lines, shown = {}, [], {}
    for s in range(n_sessions):
        sid = f"s{s}"
        qrels[sid] = {f"d{d}": int(rng.integers(-1, 4)) for d in range(docs)
                      if rng.random() < 0.6}
        if not qrels[sid]:
            qrels[sid] = {"d0": 1}
        shown[sid] = []
        for q in range(1, int(rng.integers(1, 5)) + 1):
            picked = [f"d{d}" for d in rng.choice(docs + 3, int(rng.integers(1, 8)),
                                                  replace=False)]
            shown[sid].append(picked)
            lines += [f"{sid} {q} {doc} {r} {10 - r} sys" for r, doc in enumerate(picked, 1)]
    return qrels, ("\n".join(lines) + "\n").encode(), shown


@pytest.mark.parametrize("seed", range(5))
def test_sdcg_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    qrels, run, shown = random_sessions(rng)
    names = ["sDCG", "sDCG@3", "sDCG(bq=2.5)@2", "nsDCG", "nsDCG@3",
             "nsDCG(norm=jarvelin)@3", "nsDCG(norm=jarvelin)"]
    e = evaluate_sessions(qrels, run, names)
    for sid, lists in shown.items():
        judged = qrels[sid]
        assert value(e, "sDCG", sid) == pytest.approx(brute_sdcg(lists, judged))
        assert value(e, "sDCG@3", sid) == pytest.approx(brute_sdcg(lists, judged, k=3))
        assert value(e, "sDCG(bq=2.5)@2", sid) == pytest.approx(
            brute_sdcg(lists, judged, k=2, bq=2.5))
        for name, k, norm in (("nsDCG", None, "single"), ("nsDCG@3", 3, "single"),
                              ("nsDCG(norm=jarvelin)@3", 3, "jarvelin"),
                              ("nsDCG(norm=jarvelin)", None, "jarvelin")):
            ideal = brute_ideal(lists, judged, k=k, norm=norm)
            top = brute_sdcg(lists, judged, k=k)
            assert value(e, name, sid) == pytest.approx(top / ideal if ideal else 0.0), name


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("order", ["time", "rank"])
def test_click_u_matches_fig9(seed, order):
    rng = np.random.default_rng(100 + seed)
    qrels, run, shown = random_sessions(rng)
    lengths = {f"d{d}": float(rng.integers(100, 5000)) for d in range(20)}
    clicks, per_session = [], {}
    for sid, lists in shown.items():
        for _ in range(int(rng.integers(0, 6))):
            q = int(rng.integers(1, len(lists) + 1))
            rank = int(rng.integers(1, len(lists[q - 1]) + 1))
            t = float(rng.integers(0, 1000))
            if (q, rank, t) in per_session.get(sid, []):
                continue
            per_session.setdefault(sid, []).append((q, rank, t))
            clicks.append(f"{sid} {q} {rank} {t}")
    log_bytes = ("\n".join(clicks) + "\n").encode()
    e = evaluate_sessions(qrels, run, ["U(L=5000)"], clicks=[log_bytes], click_order=order,
                          labels={"doclen": lengths})
    for sid, lists in shown.items():
        mine = per_session.get(sid, [])
        if order == "rank":  # clicks read by query and rank: the time is their position
            ranked = sorted(mine, key=lambda c: (c[0], c[1], c[2]))
            mine = [(q, r, i) for i, (q, r, _) in enumerate(ranked)]
        gains = {d: g for d, g in qrels[sid].items() if g > 0}
        assert value(e, "U(L=5000)", sid) == pytest.approx(
            fig9(mine, {q: docs for q, docs in enumerate(lists, 1)}, lengths, gains,
                 L=5000.0))


# ----------------------------------------------------------------------------- properties
def test_one_query_session_equals_catalogue_dcg():
    rng = np.random.default_rng(7)
    qrels, trec_lines, session_lines = {}, [], []
    for t in range(20):
        tid = str(100 + t)
        qrels[tid] = {f"d{d}": int(rng.integers(0, 4)) for d in range(30)}
        scores = rng.permutation(40)
        ranked = sorted(range(40), key=lambda d: -scores[d])
        for r, d in enumerate(ranked, 1):
            trec_lines.append(f"{tid} Q0 d{d} {r} {scores[d]} sys")
            session_lines.append(f"{tid} 1 d{d} {r} {scores[d]} sys")
    trec = ("\n".join(trec_lines) + "\n").encode()
    session = ("\n".join(session_lines) + "\n").encode()
    catalogue = irscale.evaluate(qrels, irscale.read_run(trec),
                                 ["DCG", "DCG@10", "nDCG", "nDCG@10"])
    mine = evaluate_sessions(qrels, session, ["sDCG", "sDCG@10", "nsDCG", "nsDCG@10"])
    for theirs, ours in (("DCG", "sDCG"), ("DCG@10", "sDCG@10"), ("nDCG", "nsDCG"),
                         ("nDCG@10", "nsDCG@10")):
        # equal up to the order of a sum's additions (numpy 1.x sums in another order)
        np.testing.assert_allclose(mine.values[ours], catalogue.values[theirs], rtol=1e-15)
    jk = irscale.evaluate(qrels, irscale.read_run(trec), ["DCG(discount=jk)@10",
                                                           "nDCG(discount=jk)@10"])
    jarvelin = evaluate_sessions(qrels, session, ["sDCG(form=jarvelin)@10",
                                                  "nsDCG(form=jarvelin)@10"])
    np.testing.assert_allclose(jarvelin.values["sDCG(form=jarvelin)@10"],
                               jk.values["DCG(discount=jk)@10"], rtol=1e-14)
    np.testing.assert_allclose(jarvelin.values["nsDCG(form=jarvelin)@10"],
                               jk.values["nDCG(discount=jk)@10"], rtol=1e-14)


@pytest.mark.parametrize("seed", range(5))
def test_duplicates_never_increase_sdcg(seed):
    rng = np.random.default_rng(200 + seed)
    qrels, run, shown = random_sessions(rng)
    base = evaluate_sessions(qrels, run, ["sDCG", "sDCG@4", "U"],
                             labels={"doclen": {f"d{d}": 700.0 for d in range(20)}})
    lines = run.decode().splitlines()
    for sid, lists in shown.items():  # show an earlier document again, in the last query
        q = len(lists)
        doc = lists[0][0]
        if doc in lists[-1]:
            continue
        lines.append(f"{sid} {q} {doc} {len(lists[-1]) + 1} 0 sys")
    more = evaluate_sessions(qrels, ("\n".join(lines) + "\n").encode(), ["sDCG", "sDCG@4", "U"],
                             labels={"doclen": {f"d{d}": 700.0 for d in range(20)}})
    for label in ("sDCG", "sDCG@4", "U"):
        assert (more.values[label] <= base.values[label] + 1e-12).all(), label


@pytest.mark.parametrize("seed", range(3))
def test_u_non_decreasing_in_L(seed):
    rng = np.random.default_rng(300 + seed)
    qrels, run, _ = random_sessions(rng)
    patiences = [10, 100, 500, 1000, 5000, 132000, 1e9]
    names = [f"U(L={p:g})" for p in patiences]
    e = evaluate_sessions(qrels, run, names,
                          labels={"doclen": {f"d{d}": 900.0 for d in range(20)}})
    stacked = np.vstack([e.values[n] for n in names])
    assert (np.diff(stacked, axis=0) >= 0).all()


def test_score_matrix_feeds_statistics():
    run_b = RUN.replace(b" sys\n", b" other\n").replace(b"s1 1 d3 1", b"s1 1 d3 9")
    e = evaluate_sessions(QRELS, [RUN, run_b], ["sDCG@10", "nsDCG@10"])
    matrix = e.to_matrix()
    assert matrix.topics == ("s1", "s2") and matrix.systems == ("sys", "other")
    assert matrix.shape == (2, 2, 2)
    second = 2 / (log(5, 4) * math.log2(4))  # d2, first document of query 2, rank 3
    # sys: d3, d1 in query 1; other: d1, d3 (rank 9 now)
    np.testing.assert_allclose(matrix.array("sDCG@10")[0], [1 / math.log2(3) + second,
                                                             1 + second])
    assert 0 < irscale.paired_t(matrix.measure("sDCG@10")).pvalue < 1


def test_session_map():
    e = evaluate_sessions({"101": {"d1": 1}}, b"a 1 d1 1 1 sys\nb 1 d2 1 1 sys\n",
                          ["sDCG"], topics={"a": "101", "b": "101"})
    assert e.values["sDCG"].tolist() == [1.0, 0.0]
    with pytest.raises(InputError, match=r"'b'.*not in the session map"):
        evaluate_sessions({"101": {"d1": 1}}, b"a 1 d1 1 1 sys\nb 1 d2 1 1 sys\n",
                          ["sDCG"], topics={"a": "101"})


# ----------------------------------------------------------------------------- errors
@pytest.mark.parametrize(("name", "match"), [
    ("DCG@10", "unknown session measure"), ("sDCG@0", "cut-off"), ("sDCG@x", "cut-off"),
    ("sDCG(bq=1)", "bq"), ("nsDCG(norm=max)", "norm"), ("sDCG(L=3)", "unknown parameter"),
    ("U(L=0)", "L"), ("sRBP(b=1.5)", "b"), ("sRBP(p=1)", "p"), ("sRBP(bq=2)", "unknown parameter"),
    ("sERR(prob=x)", "prob"), ("sERR(bq=0.5)", "bq"), ("sRBP(gain=binary,maxrel=2)", "maxrel"),
])
def test_bad_measure_names(name, match):
    with pytest.raises(MeasureError, match=match):
        parse_name(name, "sessions")


def test_reader_errors_name_the_line():
    with pytest.raises(DuplicateError, match=r"line 2: rank given twice"):
        read_session_run(b"s 1 d1 1 1 r\ns 1 d2 1 1 r\n")
    with pytest.raises(InputError, match=r"line 1: query_no"):
        read_session_run(b"s 0 d1 1 1 r\n")
    with pytest.raises(InputError, match=r"line 2: a session run holds one run"):
        read_session_run(b"s 1 d1 1 1 r\ns 1 d2 2 1 x\n")
    with pytest.raises(InputError, match=r"line 1: timestamp"):
        read_clicks(b"s 1 1 inf\n")


def test_click_errors():
    with pytest.raises(InputError, match=r"line 2: click on rank 9 of query 1"):
        evaluate_sessions(FIG8_QRELS, FIG8_RUN, ["U"], clicks=[b"t 1 1 0\nt 1 9 1\n"],
                          labels={"doclen": FIG8_LENGTHS})
    with pytest.raises(ParameterError, match="one click log per run"):
        evaluate_sessions(FIG8_QRELS, FIG8_RUN, ["U"], clicks=[FIG8_CLICKS, FIG8_CLICKS])
    with pytest.raises(ParameterError, match="U only"):
        evaluate_sessions(FIG8_QRELS, FIG8_RUN, ["sDCG"], clicks=[FIG8_CLICKS])
    with pytest.raises(MeasureError, match="no length"):
        evaluate_sessions(FIG8_QRELS, FIG8_RUN, ["U"], clicks=[FIG8_CLICKS],
                          labels={"doclen": {"a": 1.0}})


# ----------------------------------------------------------------------------- file layout
def _reordered(run: bytes, how: str, rng) -> bytes:
    lines = run.decode().splitlines()
    if how == "shuffled":
        rng.shuffle(lines)
    elif how == "reversed":
        lines = lines[::-1]
    elif how == "sessions-moved":  # grouped, sessions not in id order
        by_session: dict[str, list[str]] = {}
        for line in lines:
            by_session.setdefault(line.split()[0], []).append(line)
        lines = [line for sid in rng.permutation(list(by_session)) for line in by_session[sid]]
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize("how", ["shuffled", "reversed", "sessions-moved"])
@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_file_order_and_chunks_change_nothing(how, chunk, monkeypatch):
    """Runs written session by session, query by query, rank by rank only have their
    session blocks moved; other orders are sorted; documents are judged in chunks of whole
    sessions. Every order and chunk size gives the brute force's values."""
    import irscale.text.sessions as sessions

    if chunk is not None:
        monkeypatch.setattr(sessions, "_CHUNK_ROWS", chunk)
    rng = np.random.default_rng(400 + len(how))
    qrels, run, shown = random_sessions(rng, n_sessions=15)
    lengths = {f"d{d}": float(rng.integers(100, 3000)) for d in range(20)}
    names = ["sDCG", "sDCG@2", "nsDCG@3", "nsDCG(norm=jarvelin)@2", "U", "U@2"]
    e = evaluate_sessions(qrels, _reordered(run, how, rng), names, labels={"doclen": lengths})
    for sid, lists in shown.items():
        judged = qrels[sid]
        assert value(e, "sDCG", sid) == pytest.approx(brute_sdcg(lists, judged))
        assert value(e, "sDCG@2", sid) == pytest.approx(brute_sdcg(lists, judged, k=2))
        ideal = brute_ideal(lists, judged, k=3, norm="single")
        assert value(e, "nsDCG@3", sid) == pytest.approx(
            brute_sdcg(lists, judged, k=3) / ideal if ideal else 0.0)
    grouped = evaluate_sessions(qrels, run, names, labels={"doclen": lengths})
    for name in names:  # the same floating-point operations in the same order
        np.testing.assert_array_equal(e.values[name], grouped.values[name])


@pytest.mark.parametrize(("lines", "match"), [
    # grouped file: a document twice in one query (lines 2 and 3)
    (b"a 1 d1 1 1 r\na 1 d2 2 1 r\na 1 d2 3 1 r\nb 1 d2 1 1 r\n",
     r"line 3: document given twice for query 1 of session a \(first on line 2\)"),
    # the same document in two queries is no repeat; a rank twice in a shuffled file is
    (b"b 1 d1 1 1 r\na 2 d1 1 1 r\na 1 d1 1 1 r\nb 1 d2 1 1 r\n",
     r"line 4: rank given twice for query 1 of session b \(first on line 1\)"),
    (b"b 2 d1 1 1 r\na 1 d1 1 1 r\nb 2 d1 2 1 r\n",
     r"line 3: document given twice for query 2 of session b \(first on line 1\)"),
])
def test_repeats_found_in_any_file_order(lines, match):
    with pytest.raises(DuplicateError, match=match):
        read_session_run(lines)


def test_label_lookup_by_dictionary_codes_matches_brute_force():
    """core.labels.lookup on distinct strings plus codes = on the pairs themselves = a
    dictionary lookup written out (a topic's own value first, unless NaN; then topic *)."""
    import pyarrow as pa

    from irscale.core.labels import LabelTable, lookup

    rng = np.random.default_rng(5)
    rows = [(t, f"d{d}", float(rng.integers(1, 9)) if rng.random() < 0.9 else np.nan)
            for t in ("*", "t1", "t2") for d in range(8) if rng.random() < 0.6]
    table = LabelTable(topic=pa.chunked_array([[r[0] for r in rows]]),
                       docno=pa.chunked_array([[r[1] for r in rows]]),
                       value=np.array([r[2] for r in rows]))
    own = {(t, d): v for t, d, v in rows}
    topics, docs = ["t1", "t2", "t3"], [f"d{d}" for d in range(10)]
    topic_code = rng.integers(0, len(topics), 200)
    doc_code = rng.integers(0, len(docs), 200)
    expected = []
    for t, d in zip(topic_code, doc_code, strict=True):
        v = own.get((topics[t], docs[d]), np.nan)
        expected.append(own.get(("*", docs[d]), np.nan) if np.isnan(v) else v)
    coded = lookup(table, pa.array(topics), pa.array(docs), topic_code=topic_code,
                   doc_code=doc_code)
    plain = lookup(table, pa.array([topics[t] for t in topic_code]),
                   pa.array([docs[d] for d in doc_code]))
    np.testing.assert_array_equal(coded, np.array(expected))
    np.testing.assert_array_equal(plain, np.array(expected))


def test_with_values_shares_the_layout():
    from irscale.core.judged import JudgedRankings

    jr = JudgedRankings(rel=np.array([1, 0, 2]), offsets=np.array([0, 2, 3]),
                        rel_levels=np.array([[1, 1, 1], [0, 0, 1]]),
                        ranking_topic=np.array([0, 1]), ranking_run=np.array([0, 0]),
                        topics=("a", "b"), runs=("r",))
    segment = jr.segment
    other = jr.with_values(rel=np.array([0, 0, 1]))
    assert other.segment is segment and other.rel.tolist() == [0, 0, 1]
    assert other.rank.tolist() == [1, 2, 1] and jr.rel.tolist() == [1, 0, 2]
    with pytest.raises(InputError):
        jr.with_values(attributes=(("x", np.zeros(2)),))


# ----------------------------------------------------------------------------- sRBP, sERR
def test_srbp_serr_worked_example():
    """s1: query 1 shows d3 (0), d1 (1); query 2 shows d2 (2), d1 again (no gain). The
    batch's highest degree is 2 (gmax = 2)."""
    e = evaluate_sessions(QRELS, RUN, ["sRBP(p=0.8,b=0.5)", "sRBP", "sERR", "sERR(bq=2)@1"])
    # sRBP: bp = 0.4, reformulation factor (0.8 − 0.4)/(1 − 0.4) = 2/3;
    # d1 at (m=1, k=2): 0.4; d2 at (m=2, k=1): 2/3
    assert value(e, "sRBP(p=0.8,b=0.5)", "s1") == pytest.approx(0.2 * (0.4 * 1 + 2 / 3 * 2) / 2)
    # default b = 0.8: bp = 0.64, factor 0.16/0.36
    assert value(e, "sRBP", "s1") == pytest.approx(0.2 * (0.64 * 1 + 0.16 / 0.36 * 2) / 2)
    assert value(e, "sRBP", "s2") == pytest.approx(0.2 * 1 / 2)
    # sERR: R(d1) = (2 − 1)/4, R(d2) = (4 − 1)/4; de-duplicated list d3, d1, d2 (query 2)
    assert value(e, "sERR", "s1") == pytest.approx(
        0.25 / 2 + 0.75 * 0.75 / (3 * log(2 + 4 - 1, 4)))
    # @1: d3 (query 1), d2 (query 2, rank 2)
    assert value(e, "sERR(bq=2)@1", "s1") == pytest.approx(0.75 / (2 * log(2 + 2 - 1, 2)))


def brute_srbp(lists, judged, gmax, *, p, b, k=None, depth=400):
    """The user model walked state by state: examination probabilities of positions
    (m, t) of unbounded lists (cut at ``depth``), query numbers 1..len(lists)."""
    reach = 1.0  # probability of examining the first document of query m
    seen, total = set(), 0.0
    for docs in lists:
        examine = reach
        next_reach = 0.0
        shown = docs if k is None else docs[:k]
        for t in range(depth):
            if t < len(shown):
                doc = shown[t]
                if doc not in seen:
                    total += examine * max(judged.get(doc, 0), 0) / gmax
                    seen.add(doc)
            next_reach += examine * p * (1 - b)
            examine *= p * b
        if k is not None:
            seen.update(docs[:k])
        reach = next_reach
    return (1 - p) * total


def brute_serr(lists, judged, gmax, *, bq=4.0, k=None):
    seen, r, out, unsatisfied = set(), 0, 0.0, 1.0
    for q, docs in enumerate(lists, 1):
        for doc in docs if k is None else docs[:k]:
            if doc in seen:
                continue
            seen.add(doc)
            r += 1
            g = max(judged.get(doc, 0), 0)
            stop = (2**g - 1) / 2**gmax
            out += unsatisfied * stop / (r * log(q + bq - 1, bq))
            unsatisfied *= 1 - stop
    return out


@pytest.mark.parametrize("seed", range(5))
def test_srbp_serr_match_brute_force(seed):
    rng = np.random.default_rng(400 + seed)
    qrels, run, shown = random_sessions(rng)
    gmax = max(1, max(g for judged in qrels.values() for g in judged.values()))
    names = ["sRBP", "sRBP(p=0.9,b=0.3)@3", "sRBP(p=0.5,b=0)", "sRBP(p=0.7,b=1)",
             "sERR", "sERR(bq=2)@2"]
    e = evaluate_sessions(qrels, run, names)
    for sid, lists in shown.items():
        judged = qrels[sid]
        for name, kw in (("sRBP", dict(p=0.8, b=0.8)), ("sRBP(p=0.9,b=0.3)@3",
                         dict(p=0.9, b=0.3, k=3)), ("sRBP(p=0.5,b=0)", dict(p=0.5, b=0.0)),
                         ("sRBP(p=0.7,b=1)", dict(p=0.7, b=1.0))):
            assert value(e, name, sid) == pytest.approx(
                brute_srbp(lists, judged, gmax, **kw), rel=1e-9, abs=1e-15), (name, sid)
        assert value(e, "sERR", sid) == pytest.approx(brute_serr(lists, judged, gmax))
        assert value(e, "sERR(bq=2)@2", sid) == pytest.approx(
            brute_serr(lists, judged, gmax, bq=2.0, k=2))


def test_one_query_session_equals_catalogue_rbp_err():
    rng = np.random.default_rng(8)
    qrels, trec_lines, session_lines = {}, [], []
    for t in range(20):
        tid = str(100 + t)
        qrels[tid] = {f"d{d}": int(rng.integers(0, 4)) for d in range(30)}
        scores = rng.permutation(40)
        ranked = sorted(range(40), key=lambda d: -scores[d])
        for r, d in enumerate(ranked, 1):
            trec_lines.append(f"{tid} Q0 d{d} {r} {scores[d]} sys")
            session_lines.append(f"{tid} 1 d{d} {r} {scores[d]} sys")
    trec = irscale.read_run(("\n".join(trec_lines) + "\n").encode())
    session = ("\n".join(session_lines) + "\n").encode()
    catalogue = irscale.evaluate(qrels, trec, ["RBP(p=0.8)", "RBP(p=0.4)", "ERR",
                                               "ERR(prob=ntcir)", "ERR@10"])
    mine = evaluate_sessions(qrels, session, ["sRBP(p=0.8,b=1)", "sRBP(p=0.8,b=0.5)",
                                              "sERR", "sERR(prob=ntcir)", "sERR@10"])
    np.testing.assert_allclose(mine.values["sRBP(p=0.8,b=1)"], catalogue.values["RBP(p=0.8)"],
                               rtol=1e-12)
    # b < 1 with one query: (1 − p)/(1 − bp) · RBP(p=bp)
    np.testing.assert_allclose(mine.values["sRBP(p=0.8,b=0.5)"],
                               0.2 / 0.6 * catalogue.values["RBP(p=0.4)"], rtol=1e-12)
    for theirs, ours in (("ERR", "sERR"), ("ERR(prob=ntcir)", "sERR(prob=ntcir)"),
                         ("ERR@10", "sERR@10")):
        np.testing.assert_allclose(mine.values[ours], catalogue.values[theirs], rtol=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_duplicates_never_increase_srbp_serr(seed):
    """An earlier document shown again anywhere in a later query (the documents below it
    moving down) never increases sRBP or sERR of the whole lists. (With @k it can push a
    document out of a query's top k into a later query's, where sRBP may weigh it more:
    the property is one of uncut lists.)"""
    rng = np.random.default_rng(500 + seed)
    qrels, _, shown = random_sessions(rng)

    def as_run(sessions):
        return ("\n".join(f"{sid} {q} {doc} {r} 0 sys" for sid, lists in sessions.items()
                          for q, docs in enumerate(lists, 1)
                          for r, doc in enumerate(docs, 1)) + "\n").encode()

    names = ["sRBP", "sRBP(p=0.95,b=0.5)", "sERR", "sERR(bq=2,prob=ntcir)"]
    base = evaluate_sessions(qrels, as_run(shown), names)
    more = {}
    for sid, lists in shown.items():
        lists = [list(docs) for docs in lists]
        if len(lists) > 1:
            q = int(rng.integers(1, len(lists)))
            doc = lists[0][int(rng.integers(len(lists[0])))]
            if doc not in lists[q]:
                lists[q].insert(int(rng.integers(len(lists[q]) + 1)), doc)
        more[sid] = lists
    after = evaluate_sessions(qrels, as_run(more), names)
    for name in names:
        assert (after.values[name] <= base.values[name] + 1e-12).all(), name
