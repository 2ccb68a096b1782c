"""Deterministic generation of large, realistic TREC qrels and run files for the benchmarks.

Everything is vectorised (numpy for the numbers, pyarrow string kernels and its CSV writer
for the text), so the 10M-line run of case (i) takes seconds, not minutes.

Run file ``qid Q0 docno rank score runid``:

* topics ``1 .. n_topics`` (numeric ids, as in TREC), ``depth`` documents each, sorted by
  topic then rank; docnos ``D0000000 .. D8799999`` (an MS MARCO-sized collection of 8.8M
  passages) drawn without repetition within a topic;
* scores have 4 decimals and are drawn from a narrow range, so equal scores (ties, broken
  by docno by trec_eval) occur in a good share of the topics, as in real BM25 runs.

Cases may differ: fewer decimals (more ties), lines shuffled across topics or within each
topic (the run's, or the qrels' too), ClueWeb12-style docnos, more judgments per topic,
tab-separated fields, or columns aligned by padding with blanks (:class:`Case`).

Qrels ``qid 0 docno rel``: about 20 judged documents per topic (uniform 10..30), graded 0..3
(0..100 in one case), about half of them retrieved by the run (biased towards the top of the
ranking), the others unretrieved documents of the collection. A few run topics (1 in 2,000)
have no judgments.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv

COLLECTION_SIZE = 8_800_000
RUN_ID = "bench"
SEED = 20240601


@dataclass(frozen=True)
class Case:
    name: str
    n_topics: int
    depth: int
    seed: int
    #: decimals of the scores (3: many more ties, as engines that print 3 decimals give)
    decimals: int = 4
    #: "msmarco" (``D0123456``), "clueweb" (``clueweb12-0304wb-36-29645``: long docnos),
    #: "plain" (``doc123456``: the id unpadded, docnos of several lengths) or "url"
    #: (``http://www.site3190.org/news/news/doc123456.html``: 30 to 79 bytes)
    docnos: str = "msmarco"
    #: the field separator of both files (a blank, or a tab: TSV files)
    delimiter: str = " "
    #: lines in random order (topics interleaved) instead of topic by topic, rank by rank
    shuffled: bool = False
    #: each topic's lines together but in random order (scores not descending in the file)
    unranked: bool = False
    #: judgments per topic, drawn uniformly from this range (both ends included)
    judged: tuple[int, int] = (10, 30)
    #: fields padded to the width of their column (text to the left, numbers to the right)
    #: and a blank at the end of every line, as tools that print with widths write them
    aligned: bool = False
    #: topics cut to uneven depths: half to 1-29 documents, half to depth/2 .. depth
    #: (segments of very different lengths to sort side by side)
    uneven: bool = False
    #: qrels lines in random order (topics interleaved), as qrels written from a hash map
    #: or sorted by document come
    qrels_shuffled: bool = False
    #: topics in one random order in both files (each topic's lines together), as files
    #: written from a hash map of topics come, instead of in numeric order
    topics_random: bool = False
    #: "fixed" (``decimals`` decimals) or "double": the same scores (same order, same ties)
    #: as negative doubles printed in full (``-26.499124593519664``), as a program writing
    #: log-probabilities with ``repr`` gives them; distinct scores stay distinct as C floats;
    #: or "signed": the fixed scores less 20, negative and positive, every other zero
    #: written ``-0.00`` (a signed zero, equal to 0 as trec_eval compares them)
    scores: str = "fixed"
    #: text before every topic number (``q1``, ``q2`` ...: topic ids that are not numbers)
    topic_prefix: str = ""
    #: the highest grade: 3 (grades 1, 2, 3 with probabilities .55, .3, .15), or more (the
    #: relevant documents graded uniformly 1 .. ``grades``, as relevance scores on a
    #: 100-point scale from a judge or a model come)
    grades: int = 3

    @property
    def label(self) -> str:
        return f"{self.n_topics:,} topics x {self.depth:,} docs"


CASES: dict[str, Case] = {
    "i": Case("i", 100_000, 100, SEED + 1),
    "ii": Case("ii", 7_000, 1_000, SEED + 2),
    # small cases for trying the script out quickly (not part of the report)
    "tiny": Case("tiny", 1_000, 100, SEED + 3),
    "small": Case("small", 5_000, 200, SEED + 4),
    # many small topics (2M run lines each), where start-up and per-topic costs show
    "iii": Case("iii", 20_000, 100, SEED + 5),
    "iv": Case("iv", 100_000, 20, SEED + 6),
    # the shapes of the engine targets: tie-heavy scores, a TREC track, shuffled lines, long docnos
    "ties": Case("ties", 10_000, 1_000, SEED + 7, decimals=3),
    "track": Case("track", 200, 1_000, SEED + 8),
    # a TREC track of 50 topics (``bench_startup.py``: irscale against trec_eval's start-up)
    "track50": Case("track50", 50, 1_000, SEED + 25),
    "shuffled": Case("shuffled", 2_000, 1_000, SEED + 9, shuffled=True),
    "clueweb": Case("clueweb", 1_000, 1_000, SEED + 10, docnos="clueweb"),
    # shapes another generator may give: few very deep topics; integer scores (ties
    # everywhere) in lines not sorted by score; qrels fifty times larger than the run
    "deep": Case("deep", 5, 200_000, SEED + 11),
    "unranked": Case("unranked", 1_000, 1_000, SEED + 12, decimals=0, unranked=True),
    "judged": Case("judged", 1_000, 100, SEED + 13, judged=(4_000, 6_000)),
    # a million topics of one document each (per-topic costs: lookups of topic ids)
    "many": Case("many", 1_000_000, 1, SEED + 14, judged=(1, 3)),
    # tab-separated files, docnos of several lengths, each topic's lines in random order
    "tsv": Case("tsv", 2_000, 1_000, SEED + 15, docnos="plain", delimiter="\t",
                unranked=True),
    # aligned columns and a blank at each line's end (runs of blanks between fields)
    "aligned": Case("aligned", 1_000, 1_000, SEED + 16, docnos="clueweb", aligned=True),
    # topics of very uneven depth, each topic's lines in random order
    "uneven": Case("uneven", 2_000, 1_000, SEED + 17, unranked=True, uneven=True),
    # many small topics, the lines of both files in random order (topics interleaved)
    "interleaved": Case("interleaved", 100_000, 20, SEED + 18, shuffled=True,
                        qrels_shuffled=True),
    # integer scores (ties everywhere) and long ClueWeb docnos, each topic's lines in random
    # order: the tied docnos too long for 8-byte keys
    "longties": Case("longties", 1_000, 1_000, SEED + 19, decimals=0, docnos="clueweb",
                     unranked=True),
    # many small topics in one random order in both files (topic ids from a hash map)
    "hashorder": Case("hashorder", 100_000, 20, SEED + 20, topics_random=True),
    # scores as negative doubles in full (17 significant digits), topic ids q1 .. q2000
    "doubles": Case("doubles", 2_000, 500, SEED + 21, scores="double", topic_prefix="q"),
    # URLs as docnos, 30 to 79 bytes (their numbers of 8-byte words differ by up to six)
    "urls": Case("urls", 2_000, 500, SEED + 22, docnos="url"),
    # judgments graded 0-100 (a hundred levels: trec_eval's ideal rankings of every
    # graded measure), 1,000-3,000 per topic
    "graded": Case("graded", 1_000, 1_000, SEED + 23, judged=(1_000, 3_000), grades=100),
    # scores around zero with two decimals (negative, positive, signed zeros: many ties),
    # topic ids longer than 8 bytes (trec-dl-2019-q1 ...) and docnos of 4-10 bytes
    "signed": Case("signed", 2_000, 500, SEED + 24, decimals=2, docnos="plain",
                   scores="signed", topic_prefix="trec-dl-2019-q"),
}


def paths(case: Case, data_dir: Path) -> tuple[Path, Path]:
    """(qrels path, run path) of a case."""
    stem = f"case_{case.name}_{case.n_topics}x{case.depth}"
    return data_dir / f"{stem}.qrels", data_dir / f"{stem}.run"


def stats_path(case: Case, data_dir: Path) -> Path:
    """JSON file with the statistics of a generated case."""
    return paths(case, data_dir)[0].with_suffix(".json")


def ensure_case(case: Case, data_dir: Path, *, verbose: bool = True) -> tuple[Path, Path]:
    """Generate the files of ``case`` unless they already exist; returns their paths."""
    qrels_path, run_path = paths(case, data_dir)
    if qrels_path.exists() and run_path.exists() and stats_path(case, data_dir).exists():
        return qrels_path, run_path
    data_dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    stats = generate(case, qrels_path, run_path)
    stats["seconds"] = round(time.perf_counter() - start, 2)
    stats_path(case, data_dir).write_text(json.dumps(stats, indent=1))
    if verbose:
        print(
            f"generated case {case.name} ({case.label}) in {time.perf_counter() - start:.1f} s: "
            + json.dumps(stats),
            flush=True,
        )
    return qrels_path, run_path


def _distinct_docs(rng: np.random.Generator, n_rows: int, width: int) -> np.ndarray:
    """(n_rows, width) random docnos, distinct within each row (rows sorted ascending)."""
    docs = np.sort(rng.integers(0, COLLECTION_SIZE, size=(n_rows, width), dtype=np.int64), 1)
    while True:
        dup = np.zeros(docs.shape, dtype=bool)
        dup[:, 1:] = docs[:, 1:] == docs[:, :-1]
        if not dup.any():
            return docs
        docs[dup] = rng.integers(0, COLLECTION_SIZE, size=int(dup.sum()), dtype=np.int64)
        docs.sort(axis=1)


def _fixed(units: np.ndarray, decimals: int = 4) -> pa.Array:
    """Integers counting 10^-decimals units → text with exactly that many decimals
    (``12.3400``)."""
    scale = 10**decimals
    whole = pc.cast(pa.array(units // scale), pa.string())
    frac = pc.utf8_lpad(pc.cast(pa.array(units % scale), pa.string()), decimals, "0")
    return pc.binary_join_element_wise(whole, frac, ".")


def _doubles(units: np.ndarray, decimals: int = 4) -> pa.Array:
    """Integers counting 10^-decimals units (below 450,000 10^-4) → negative doubles in
    full, (units + 1) π/3 10^-decimals − 50 (``-26.499124593519664``): one order and the
    same ties as the units, and distinct values at least 10^-decimals apart, so that no
    two of them round to one C float (trec_eval 9.0.8 keeps scores as floats, 10.0 as
    doubles: both tie the same scores)."""
    values = (units.astype(np.float64) + 1.0) * (np.pi / 3.0) / 10**decimals - 50.0
    return pc.cast(pa.array(values), pa.string())


def _signed(units: np.ndarray, decimals: int = 4) -> pa.Array:
    """Integers counting 10^-decimals units → the score less 20 as text with exactly that
    many decimals (``-3.25``, ``0.75``), every other zero written ``-0.00``."""
    values = units - 20 * 10**decimals
    text = _fixed(np.abs(values), decimals)
    negative = (values < 0) | ((values == 0) & (np.arange(len(values)) % 2 == 1))
    return pc.if_else(pa.array(negative), pc.binary_join_element_wise("-", text, ""), text)


def _docnos(ids: np.ndarray, style: str = "msmarco") -> pa.Array:
    """Document ids as text: ``D0123456`` (msmarco), ``doc123456`` (plain), ClueWeb12-style
    ``clueweb12-SSSSxx-DD-NNNNN`` (segment, two-letter kind, file, record from the id) or
    URLs ``http://www.siteS.org/`` + ``news/`` 0-8 times + ``docID.html`` (site and depth
    from the id)."""
    ids = ids.ravel()
    if style == "msmarco":
        text = pc.utf8_lpad(pc.cast(pa.array(ids), pa.string()), 7, "0")
        return pc.binary_join_element_wise("D", text, "")
    if style == "plain":
        return pc.binary_join_element_wise("doc", pc.cast(pa.array(ids), pa.string()), "")
    if style == "url":
        site = pc.cast(pa.array(ids % 9_973), pa.string())
        depth = pc.binary_repeat(pa.array(["news/"] * len(ids)), pa.array(ids // 7 % 9))
        return pc.binary_join_element_wise(
            "http://www.site", site, ".org/", depth, "doc", pc.cast(pa.array(ids), pa.string()),
            ".html", "")

    def padded(values: np.ndarray, width: int) -> pa.Array:
        return pc.utf8_lpad(pc.cast(pa.array(values), pa.string()), width, "0")

    kind = pa.array(["wb", "tw"]).take(pa.array(ids % 2))
    return pc.binary_join_element_wise(
        "clueweb12-", padded(ids // 100_000 % 10_000, 4), kind, "-",
        padded(ids // 1_000 % 100, 2), "-", padded(ids % 100_000, 5), "")


def _write(path: Path, columns: dict[str, pa.Array], delimiter: str = " ",
           aligned: bool = False) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    if aligned:
        _write_aligned(tmp, list(columns.values()))
    else:
        pcsv.write_csv(
            pa.table(columns),
            tmp,
            write_options=pcsv.WriteOptions(
                include_header=False, delimiter=delimiter, quoting_style="none",
                batch_size=1 << 20
            ),
        )
    os.replace(tmp, path)


def _write_aligned(path: Path, columns: list[pa.Array]) -> None:
    """Lines of the columns padded to their widths (numbers to the right, text to the left),
    one blank between fields and one at the end of the line."""
    padded = []
    for column in columns:
        width = max(pc.max(pc.utf8_length(column)).as_py() or 0, 1)
        numeric = pc.all(pc.match_substring_regex(column, r"^[0-9.+-]+$")).as_py()
        padded.append(pc.utf8_lpad(column, width) if numeric else pc.utf8_rpad(column, width))
    lines = pc.binary_join_element_wise(*padded, "\n", " ")  # "a b ... f \n": one array
    offsets = np.frombuffer(lines.buffers()[1], np.int32, len(lines) + 1, lines.offset)
    path.write_bytes(lines.buffers()[2].to_pybytes()[offsets[0]: offsets[-1]])


def generate(case: Case, qrels_path: Path, run_path: Path) -> dict:
    rng = np.random.default_rng(case.seed)
    n, k = case.n_topics, case.depth

    # ---------------------------------------------------------------- the run
    docs = _distinct_docs(rng, n, k)
    # random document-to-rank assignment within each topic
    docs = np.take_along_axis(docs, np.argsort(rng.random((n, k)), axis=1), axis=1)
    # scores: a topic-dependent top score, then decreasing gaps with 4 decimals; gaps of 0
    # (ties) are frequent enough that many topics have tied documents
    top = rng.integers(150_000, 400_000, size=(n, 1))  # 15.0000 .. 40.0000
    gaps = rng.geometric(p=1.0 / (1.0 + 0.5 * top / k), size=(n, k)) - 1
    gaps[:, 0] = 0
    scores = top - np.cumsum(gaps, axis=1)
    scores = np.maximum(scores, 0)  # still non-increasing
    if case.decimals < 4:  # coarser scores: many more ties
        scores = scores // 10 ** (4 - case.decimals)
    qid_num = np.arange(1, n + 1, dtype=np.int64)
    if case.topics_random:
        qid_num = rng.permutation(qid_num)
    qid_text = pc.cast(pa.array(qid_num), pa.string())
    if case.topic_prefix:
        qid_text = pc.binary_join_element_wise(case.topic_prefix, qid_text, "")
    run_qid = qid_text.take(pa.array(np.repeat(np.arange(n), k)))
    ranks = pc.cast(pa.array(np.tile(np.arange(1, k + 1, dtype=np.int64), n)), pa.string())
    columns = {
        "qid": run_qid,
        "q0": pa.array(np.full(1, "Q0", dtype=object)).take(pa.array(np.zeros(n * k, int))),
        "docno": _docnos(docs, case.docnos),
        "rank": ranks,
        "score": {"double": _doubles, "signed": _signed, "fixed": _fixed}[case.scores](
            scores.ravel(), case.decimals),
        "runid": pa.array(np.full(1, RUN_ID, dtype=object)).take(pa.array(np.zeros(n * k, int))),
    }
    if case.unranked:
        within = np.argsort(rng.random((n, k)), axis=1) + k * np.arange(n)[:, None]
        columns = {name: column.take(pa.array(within.ravel())) for name, column in
                   columns.items()}
    run_lines = n * k
    if case.uneven:  # each topic's first lines in the file (random ones when unranked)
        depth = np.where(rng.random(n) < 0.5, rng.integers(1, 30, n),
                         rng.integers(k // 2, k + 1, n))
        kept = pa.array(np.flatnonzero((np.arange(k)[None, :] < depth[:, None]).ravel()))
        columns = {name: column.take(kept) for name, column in columns.items()}
        run_lines = len(kept)
    if case.shuffled:
        order = pa.array(rng.permutation(run_lines))
        columns = {name: column.take(order) for name, column in columns.items()}
    _write(run_path, columns, case.delimiter, case.aligned)
    tied_topics = int((np.diff(scores, axis=1) == 0).any(axis=1).sum())

    # ---------------------------------------------------------------- the qrels
    n_judged = rng.integers(case.judged[0], case.judged[1] + 1, size=n)
    n_ret_judged = np.minimum(rng.binomial(n_judged, 0.5), k)
    # retrieved judged documents: weighted sampling without replacement favouring the top
    # ranks (Gumbel top-k with weight 1/sqrt(rank))
    weight = 1.0 / np.sqrt(np.arange(1, k + 1))
    keys = np.log(rng.random((n, k))) / weight
    position = np.argsort(-keys, axis=1)
    pick = np.arange(k)[None, :] < n_ret_judged[:, None]
    ret_rows = np.repeat(np.arange(n), n_ret_judged)
    ret_docs = np.take_along_axis(docs, position, axis=1)[pick]
    ret_rank = position[pick]
    # unretrieved judged documents: random documents of the collection not in the run
    n_other = n_judged - n_ret_judged
    width = int(n_other.max(initial=0))
    other = _distinct_docs(rng, n, width) if width else np.zeros((n, 0), np.int64)
    other = np.take_along_axis(other, np.argsort(rng.random(other.shape), axis=1), axis=1)
    keep = np.arange(width)[None, :] < n_other[:, None]
    other_rows = np.repeat(np.arange(n), n_other)
    other_docs = other[keep]
    rows = np.concatenate([ret_rows, other_rows])
    qdocs = np.concatenate([ret_docs, other_docs])
    # drop documents judged twice (an "unretrieved" draw that the run did retrieve)
    pair = rows * COLLECTION_SIZE + qdocs
    _, first = np.unique(pair, return_index=True)
    rows, qdocs = rows[first], qdocs[first]  # sorted by (topic, docno)
    # grades: retrieved documents near the top are more often relevant
    is_ret = first < len(ret_rows)
    rank_of = np.full(len(first), k, dtype=np.int64)
    rank_of[is_ret] = ret_rank[first[is_ret]]
    p_rel = np.where(is_ret, 0.75 - 0.5 * rank_of / k, 0.3)
    relevant = rng.random(len(rows)) < p_rel
    if case.grades == 3:
        grade = np.where(relevant, rng.choice([1, 2, 3], size=len(rows), p=[0.55, 0.3, 0.15]),
                         0)
    else:
        grade = np.where(relevant, rng.integers(1, case.grades + 1, size=len(rows)), 0)
    # a few run topics without any judgment
    unjudged = rng.choice(n, size=max(1, n // 2000), replace=False)
    judged_row = ~np.isin(rows, unjudged)
    rows, qdocs, grade = rows[judged_row], qdocs[judged_row], grade[judged_row]
    is_ret = is_ret[judged_row]
    if case.qrels_shuffled:
        order = rng.permutation(len(rows))
        rows, qdocs, grade = rows[order], qdocs[order], grade[order]
    _write(
        qrels_path,
        {
            "qid": qid_text.take(pa.array(rows)),
            "iter": pa.array(np.full(1, "0", dtype=object)).take(
                pa.array(np.zeros(len(rows), int))
            ),
            "docno": _docnos(qdocs, case.docnos),
            "rel": pc.cast(pa.array(grade), pa.string()),
        },
        case.delimiter,
        case.aligned,
    )
    return {
        "run_lines": run_lines,
        "qrels_lines": len(rows),
        "topics_with_ties": tied_topics,
        "unjudged_run_topics": len(unjudged),
        "relevant_judgments": int((grade > 0).sum()),
        "retrieved_judgments": int(is_ret.sum()),
    }


def tied_topics(run) -> set[str]:
    """The topics of an irscale ``Run`` where two documents' scores are equal as C floats
    (the ties trec_eval breaks by docno): its scores, sorted within each topic, repeat."""
    blocks = run.topic_blocks
    labels = pc.unique(blocks.heads.to_arrow())
    code = blocks.expand(pc.index_in(blocks.heads.to_arrow(), value_set=labels).to_numpy())
    score = run.score.astype(np.float32)
    order = np.lexsort((score, code))
    code, score = code[order], score[order]
    repeat = (code[1:] == code[:-1]) & (score[1:] == score[:-1])
    return set(labels.take(pa.array(np.unique(code[1:][repeat]))).to_pylist())


def file_stats(qrels_path: Path, run_path: Path) -> dict:
    """:func:`generate`'s statistics of a qrels and a run file made elsewhere (read by
    irscale, as ``irscale eval`` reads them): judged documents retrieved are trec_eval's
    ``num_rel_ret`` + ``num_nonrel_judged_ret`` summed over the topics; a topic has tied
    scores when two of its documents' scores are equal as C floats (trec_eval's ties)."""
    import warnings

    import irscale
    from irscale.io.trec import read_qrels, read_run

    qrels, run = read_qrels(qrels_path), read_run(run_path)
    with warnings.catch_warnings():  # run topics without judgments: counted below
        warnings.simplefilter("ignore")
        judged = irscale.evaluate(qrels, run, ["num_rel_ret", "num_nonrel_judged_ret"],
                                  allow_empty=True)  # files of two collections: 0
        retrieved = judged.per_topic()["value"].sum()
    return {
        "run_lines": len(run),
        "qrels_lines": len(qrels),
        "topics_with_ties": len(tied_topics(run)),
        "unjudged_run_topics": len(set(run.topics) - set(qrels.topics)),
        "relevant_judgments": int((np.asarray(qrels.rel) > 0).sum()),
        "retrieved_judgments": int(retrieved),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # no `choices`: argparse checks an empty list against them (an error)
    parser.add_argument("cases", nargs="*", default=[], metavar="CASE",
                        help=f"generated cases among {', '.join(sorted(CASES))} (default: "
                        "i ii, none with --files)")
    parser.add_argument("--data-dir", default=str(Path(__file__).parent / "data"))
    parser.add_argument("--force", action="store_true", help="regenerate existing files")
    parser.add_argument("--describe", help="write {case: {qrels, run, stats}} to this JSON file")
    parser.add_argument("--files", nargs=3, action="append", default=[],
                        metavar=("NAME", "QRELS", "RUN"),
                        help="with --describe: describe these files too, as case NAME")
    args = parser.parse_args(argv)
    if not args.cases and not args.files:
        args.cases = ["i", "ii"]
    if unknown := [name for name in args.cases if name not in CASES]:
        parser.error(f"unknown case {unknown[0]!r}: choose among {', '.join(sorted(CASES))}")
    data_dir = Path(args.data_dir)
    description = {}
    for name in args.cases:
        case = CASES[name]
        if args.force:
            for path in (*paths(case, data_dir), stats_path(case, data_dir)):
                path.unlink(missing_ok=True)
        qrels_path, run_path = ensure_case(case, data_dir)
        description[name] = {
            "qrels": str(qrels_path),
            "run": str(run_path),
            "stats": json.loads(stats_path(case, data_dir).read_text()),
        }
    for name, qrels, run in args.files:
        description[name] = {"qrels": qrels, "run": run,
                             "stats": file_stats(Path(qrels), Path(run))}
    if args.describe:
        Path(args.describe).write_text(json.dumps(description, indent=1))


if __name__ == "__main__":
    main()
