"""van Dijk et al.'s (ECIR 2019) Markovian session measures MsM: the chain's quantities
against a dense linear solve of the full transition matrix written here (and a Monte
Carlo walk of it), closed forms without back moves, a session measure written out cell by
cell from the session's gain matrix, a hand computation, and the catalogue's DCG for a
one-query session."""

from __future__ import annotations

import math

import numpy as np
import pytest

import irscale
from irscale.errors import MeasureError, ParameterError
from irscale.measures.names import parse_name
from irscale.text import evaluate_sessions
from irscale.text.session_markov import session_chain

from .oracle_imports import lazy_import

mpmath = lazy_import("mpmath")

#: (p, q, r, s) sets: no back moves, back moves, back likelier than forward, tiny ends.
PROBABILITIES = [(0.7, 0.1, 0.1, 0.1), (0.8, 0.0, 0.1, 0.1), (0.6, 0.2, 0.1, 0.1),
                 (0.2, 0.5, 0.2, 0.1), (0.97, 0.01, 0.01, 0.01), (0.05, 0.0, 0.05, 0.9)]


def transition_matrix(n: int, p: float, q: float, r: float, s: float) -> mpmath.matrix:
    """The (n + 2) × (n + 2) chain: positions 0..n−1, then F (end) and Q (next query);
    the first position has no back move and the last no forward move (rows rescaled)."""
    F, Q = n, n + 1
    P = mpmath.zeros(n + 2, n + 2)
    for i in range(n):
        row = {F: mpmath.mpf(s), Q: mpmath.mpf(r)}
        if i + 1 < n:
            row[i + 1] = mpmath.mpf(p)
        if i > 0:
            row[i - 1] = mpmath.mpf(q)
        total = sum(row.values())
        for j, v in row.items():
            P[i, j] = v / total
    P[F, F] = P[Q, Q] = 1
    return P


def restricted(P: mpmath.matrix, states: list[int]) -> mpmath.matrix:
    """P's rows and columns of ``states``, every row rescaled to sum to 1 (a row left with
    nothing, the last position's without back moves, is never used and left at 0)."""
    out = mpmath.matrix([[P[i, j] for j in states] for i in states])
    for i in range(len(states)):
        total = sum(out[i, j] for j in range(len(states)))
        for j in range(len(states) if total else 0):
            out[i, j] /= total
    return out


def absorption(T: mpmath.matrix, rhs: list) -> mpmath.mpf:
    """x_0 of (I − T) x = rhs."""
    return mpmath.lu_solve(mpmath.eye(T.rows) - T, mpmath.matrix(rhs))[0]


def dense_chain(n: int, p: float, q: float, r: float, s: float):
    """(e_1..e_n, e_Q, h) by dense solves in 40-digit arithmetic, each as the authors'
    implementation states it."""
    with mpmath.workdps(40):
        P = transition_matrix(n, p, q, r, s)
        F, Q = n, n + 1
        docs = restricted(P, list(range(n)))
        e = [0.0]
        for i in range(1, n):  # the time to leave positions 0..i−1: to reach position i
            e.append(float(absorption(docs[:i, :i], [1] * i)))
        no_end = restricted(P, [*range(n), Q])
        e_q = float(absorption(no_end[:n, :n], [1] * n))
        inner = P[:n, :n]
        h_end = absorption(inner, [P[k, F] for k in range(n)])
        h_next = absorption(inner, [P[k, Q] for k in range(n)])
        assert float(h_end + h_next) == pytest.approx(1.0, abs=1e-30)
        return np.array(e), e_q, float(h_next)


@pytest.mark.parametrize("probabilities", PROBABILITIES)
@pytest.mark.parametrize("n", [1, 2, 3, 7, 25])
def test_chain_matches_dense_solves(n, probabilities):
    chain = session_chain(n, *probabilities)
    e, e_q, h = dense_chain(n, *probabilities)
    np.testing.assert_allclose(chain.reach_time, e, rtol=1e-12)
    assert chain.query_time == pytest.approx(e_q, rel=1e-12)
    assert chain.next_query == pytest.approx(h, rel=1e-12)


@pytest.mark.parametrize("p, r, s", [(0.8, 0.1, 0.1), (0.5, 0.3, 0.2), (0.05, 0.05, 0.9)])
@pytest.mark.parametrize("n", [1, 2, 10])
def test_chain_without_back_moves_closed_forms(n, p, r, s):
    """q = 0: position i is reached after i − 1 steps; the list is left at position k < n
    with probability a^(k−1)(1 − a) (a = p/(p + r) without F), at n with a^(n−1); the
    session ends at position k < n with b^(k−1) s/(p + r + s), b = p/(p + r + s), at n with
    b^(n−1) s/(r + s)."""
    chain = session_chain(n, p, 0.0, r, s)
    np.testing.assert_array_equal(chain.reach_time, np.arange(n, dtype=float))
    a, b = p / (p + r), p / (p + r + s)
    e_q = sum(k * a ** (k - 1) * (1 - a) for k in range(1, n)) + n * a ** (n - 1)
    end = sum(b ** (k - 1) * s / (p + r + s) for k in range(1, n)) + b ** (n - 1) * s / (r + s)
    assert chain.query_time == pytest.approx(e_q, rel=1e-12)
    assert chain.next_query == pytest.approx(1.0 - end, rel=1e-12)


def walk(P: np.ndarray, start: int, absorbing: set[int], rng, walkers: int, steps: int):
    """Simulate ``walkers`` walks of P from ``start``: the state each was absorbed in and
    the number of steps it took (every walk is absorbed within ``steps``)."""
    state = np.full(walkers, start)
    taken = np.zeros(walkers, dtype=np.int64)
    cumulative = P.cumsum(axis=1)
    for _ in range(steps):
        alive = ~np.isin(state, list(absorbing))
        if not alive.any():
            return state, taken
        u = rng.random(int(alive.sum()))
        rows = cumulative[state[alive]]
        state[alive] = np.minimum((u[:, None] > rows).sum(axis=1), P.shape[0] - 1)
        taken[alive] += 1
    raise AssertionError("walks not absorbed")


@pytest.mark.parametrize("probabilities", [(0.6, 0.2, 0.1, 0.1), (0.3, 0.4, 0.2, 0.1)])
def test_chain_matches_monte_carlo_walks(probabilities):
    """The three quantities as frequencies and mean times of simulated walks, within four
    standard errors."""
    rng = np.random.default_rng(20190414)
    n, walkers = 5, 40_000
    chain = session_chain(n, *probabilities)
    P = np.array(transition_matrix(n, *probabilities).tolist(), dtype=float)
    F, Q = n, n + 1
    # h: walks of the full chain absorbed in Q
    state, _ = walk(P, 0, {F, Q}, rng, walkers, 10_000)
    hits = (state == Q).mean()
    assert abs(hits - chain.next_query) < 4 * math.sqrt(hits * (1 - hits) / walkers)
    # e_Q: steps to Q with F removed (its probability given to the other moves)
    no_end = P.copy()
    no_end[:n, F] = 0.0
    no_end[:n] /= no_end[:n].sum(axis=1, keepdims=True)
    _, taken = walk(no_end, 0, {Q}, rng, walkers, 10_000)
    assert abs(taken.mean() - chain.query_time) < 4 * taken.std() / math.sqrt(walkers)
    # e_i: steps from position 1 to position i over the positions alone
    docs = P[:n, :n] / P[:n, :n].sum(axis=1, keepdims=True)
    for i in range(1, n):
        _, taken = walk(docs, 0, {i}, rng, walkers, 10_000)
        assert abs(taken.mean() - chain.reach_time[i]) <= 4 * taken.std() / math.sqrt(walkers)


# ----------------------------------------------------------------------------- the measure
QRELS = {"s1": {"d1": 1, "d2": 2, "d3": 0}, "s2": {"d1": 1}}
RUN = (b"s1 1 d3 1 0.9 sys\ns1 1 d1 2 0.5 sys\ns1 2 d2 1 0.7 sys\ns1 2 d1 2 0.6 sys\n"
       b"s2 1 d1 1 1.0 sys\n")


def test_two_query_session_by_hand():
    """@2, p = 0.6, q = 0.2, r = 0.1, s = 0.1. Position 1 moves on with 0.75, ends with
    0.125, jumps with 0.125; position 2 moves back with 0.5, ends or jumps with 0.25 each.
    e_2 = 1. Without F: t_1 = 1 + (6/7) t_2, t_2 = 1 + (2/3) t_1, so e_Q = 13/3. h_1 =
    0.125 + 0.75 h_2, h_2 = 0.25 + 0.5 h_1: h = 1/2. s1 shows d3 (0), d1 (1), then d2 (2),
    d1 (1): d1 at (query 1, position 2), d2 and d1 again at (2, 1) and (2, 2)."""
    params = "p=0.6,q=0.2,r=0.1,s=0.1"
    e = evaluate_sessions(QRELS, RUN, [f"MsM({params})@2", f"MsM({params},discount=log)@2"])
    e_q = 13 / 3
    times = {(1, 2): 2.0, (2, 1): 1 + e_q, (2, 2): 2 + e_q}
    gains = {(1, 2): 1, (2, 1): 2, (2, 2): 1}
    lin = sum(0.5 ** (j - 1) * g / times[j, i] for (j, i), g in gains.items())
    log = sum(0.5 ** (j - 1) * g / (1 + math.log(times[j, i])) for (j, i), g in gains.items())
    assert lin == pytest.approx(0.5 + 0.5 * (2 / (16 / 3) + 1 / (19 / 3)), rel=1e-15)
    assert e.values[f"MsM({params})@2"].tolist() == pytest.approx([lin, 1.0], rel=1e-12)
    assert e.values[f"MsM({params},discount=log)@2"].tolist() == pytest.approx([log, 1.0],
                                                                                rel=1e-12)


def msm_from_matrix(queries: dict[int, list[str]], judged: dict[str, int], n: int,
                    probabilities, discount: str) -> float:
    """The measure as the authors' implementation computes it: an n × K gain matrix
    (positions × queries 1..K, zero where a list is shorter or a query missing), each cell
    divided by its discount and each column weighed by the probability of reaching it."""
    e, e_q, h = dense_chain(n, *probabilities)
    width = max(queries)
    gains = np.zeros((n, width))
    for j, docs in queries.items():
        for i, d in enumerate(docs[:n]):
            gains[i, j - 1] = judged.get(d, 0)
    time = 1 + e[:, None] + np.arange(width)[None, :] * e_q
    if discount == "log":
        time = 1 + np.log(time)
    return float(((gains / time).sum(axis=0) * h ** np.arange(width)).sum())


def random_sessions(rng, count: int = 10, docs: int = 12):
    """Sessions of 1–4 queries (numbers with gaps), lists of 1–9 documents drawn with
    repeats across queries, and their qrels."""
    sessions, qrels = {}, {}
    for k in range(count):
        name = f"s{k}"
        qrels[name] = {f"d{d}": int(rng.integers(0, 4)) for d in range(docs)}
        numbers = np.sort(rng.choice(np.arange(1, 7), size=int(rng.integers(1, 5)),
                                     replace=False))
        sessions[name] = {int(j): [f"d{d}" for d in rng.choice(docs + 3,
                                                              size=int(rng.integers(1, 10)),
                                                              replace=False)]
                          for j in numbers}
    lines = [f"{s} {j} {d} {r} 0 sys" for s, queries in sessions.items()
             for j, docs in queries.items() for r, d in enumerate(docs, 1)]
    return sessions, qrels, ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("cutoff", [None, 3, 12])
def test_measure_matches_gain_matrix(seed, cutoff):
    rng = np.random.default_rng(seed)
    sessions, qrels, run = random_sessions(rng)
    probabilities = PROBABILITIES[seed % len(PROBABILITIES)]
    p, q, r, s = probabilities
    at = "" if cutoff is None else f"@{cutoff}"
    names = [f"MsM(p={p},q={q},r={r},s={s},discount={d}){at}" for d in ("lin", "log")]
    e = evaluate_sessions(qrels, run, names)
    topics = e.per_topic()
    for name, discount in zip(names, ("lin", "log"), strict=True):
        for session, queries in sessions.items():
            n = cutoff if cutoff is not None else max(len(d) for d in queries.values())
            expected = msm_from_matrix(queries, qrels[session], n, probabilities, discount)
            got = topics[(topics.measure == name) & (topics.topic == session)].value
            assert float(got.iloc[0]) == pytest.approx(expected, rel=1e-9, abs=1e-15)


def test_one_query_session_without_back_moves_is_a_dcg():
    """One query, q = 0: position i is reached after i − 1 steps, so MsM(discount=log) is
    Σ g_i / (1 + ln i), the catalogue's DCG(discount=1+log, base=e), and
    MsM(discount=lin) is Σ g_i / i."""
    rng = np.random.default_rng(11)
    qrels, trec, session = {}, [], []
    for t in range(15):
        tid = str(200 + t)
        qrels[tid] = {f"d{d}": int(rng.integers(0, 4)) for d in range(25)}
        ranked = rng.permutation(30)
        for rank, d in enumerate(ranked, 1):
            trec.append(f"{tid} Q0 d{d} {rank} {100 - rank} sys")
            session.append(f"{tid} 1 d{d} {rank} {100 - rank} sys")
    trec_run = irscale.read_run(("\n".join(trec) + "\n").encode())
    session_run = ("\n".join(session) + "\n").encode()
    params = "p=0.8,q=0,r=0.1,s=0.1"
    mine = evaluate_sessions(qrels, session_run, [f"MsM({params},discount=log)@10",
                                                  f"MsM({params})"])
    catalogue = irscale.evaluate(qrels, trec_run, [f"DCG(discount=1+log,base={math.e})@10"])
    np.testing.assert_allclose(mine.values[f"MsM({params},discount=log)@10"],
                               catalogue.values[f"DCG(discount=1+log,base={math.e})@10"],
                               rtol=1e-13)
    topics = mine.per_topic()
    for tid, judged in qrels.items():
        ranked = [line.split()[2] for line in session if line.startswith(f"{tid} ")]
        expected = sum(judged.get(d, 0) / i for i, d in enumerate(ranked, 1))
        got = topics[(topics.measure == f"MsM({params})") & (topics.topic == tid)].value
        assert float(got.iloc[0]) == pytest.approx(expected, rel=1e-13)


def test_later_queries_weigh_less():
    """The same relevant document first in query 1 or first in query 2 (after an empty
    list's worth of positions): the later one is reached with probability h < 1 and later."""
    qrels = {"s": {"d1": 1}}
    first = evaluate_sessions(qrels, b"s 1 d1 1 0 x\ns 2 d9 1 0 x\n", ["MsM@5"])
    second = evaluate_sessions(qrels, b"s 1 d9 1 0 x\ns 2 d1 1 0 x\n", ["MsM@5"])
    chain = session_chain(5, 0.7, 0.1, 0.1, 0.1)
    assert first.values["MsM@5"][0] == 1.0
    assert second.values["MsM@5"][0] == pytest.approx(
        chain.next_query / (1 + chain.query_time), rel=1e-14)


@pytest.mark.parametrize(("name", "match"), [
    ("MsM(p=0.8)", r"p \+ q \+ r \+ s must be 1"),
    ("MsM(p=0.5,q=0.5,r=0,s=0)", "r"),
    ("MsM(p=0,q=0.8,r=0.1,s=0.1)", "p"),
    ("MsM(q=-0.1,p=0.8,r=0.2,s=0.1)", "q"),
    ("MsM(s=nan)", "s"),
    ("MsM(discount=log2)", "discount"),
    ("MsM(bq=2)", "unknown parameter"),
])
def test_bad_parameters(name, match):
    with pytest.raises(MeasureError, match=match):
        parse_name(name, "sessions")


def test_a_chain_too_long_is_refused_before_any_work():
    with pytest.raises(ParameterError, match=r"Markov chain of .* positions per query"):
        evaluate_sessions(QRELS, RUN, [f"MsM@{2**61}"])
