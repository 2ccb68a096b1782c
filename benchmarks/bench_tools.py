"""One benchmark job per tool: read qrels + run files, evaluate, write per-topic values.

Each function runs inside a fresh worker process started by ``bench_eval.py`` and returns a
dict with the time of each stage (seconds, ``time.perf_counter``), the measures computed and
the number of per-topic values written. Imports are timed as a stage too: users pay them.

Every tool writes one line per (topic, measure), ``measure<TAB>topic<TAB>value`` with 4
decimals (irscale writes trec_eval's own ``-q`` format, which is the same layout plus the
summary lines), so that the work done is comparable and the outputs can be cross-checked.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import contextmanager

#: The three-measure set, in each tool's vocabulary.
THREE = {
    "irscale": ["map", "ndcg_cut.10", "recip_rank"],
    "pytrec_eval": ["map", "ndcg_cut.10", "recip_rank"],
    "ir_measures": ["AP", "nDCG@10", "RR"],
    "ranx": ["map", "ndcg@10", "mrr"],
}

#: trec_eval 9.0.8's default cut-offs (P, recall, ndcg_cut, map_cut, relative_P).
CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)

#: ir_measures' closest expression of trec_eval's all_trec (what its pytrec_eval provider
#: can compute, with trec_eval's default parameters).
IR_MEASURES_ALL_TREC = (
    ["NumRet", "NumRel", "NumRelRet", "AP", "Rprec", "Bpref", "RR"]
    + [f"IPrec@{r / 10:.1f}" for r in range(11)]
    + [f"P@{k}" for k in CUTOFFS]
    + [f"R@{k}" for k in CUTOFFS]
    + ["infAP", "nDCG"]
    + [f"nDCG@{k}" for k in CUTOFFS]
    + ["Success@1", "Success@5", "Success@10"]
    + [f"AP@{k}" for k in CUTOFFS]
    + ["SetP", "SetR", "SetF", "SetAP", "SetRelP"]
)

#: ranx's closest metric list to all_trec (ranx has no iprec, infAP, gm_*, utility, 11pt,
#: Rprec_mult, G/binG, relative_P, ndcg_rel/Rndcg, set_map, num_ret/num_rel).
RANX_ALL_TREC = (
    ["hits", "map", "r-precision", "bpref", "mrr"]
    + [f"precision@{k}" for k in CUTOFFS]
    + [f"recall@{k}" for k in CUTOFFS]
    + ["ndcg"]
    + [f"ndcg@{k}" for k in CUTOFFS]
    + ["hit_rate@1", "hit_rate@5", "hit_rate@10"]
    + [f"map@{k}" for k in CUTOFFS]
    + ["precision", "recall", "f1"]
)


class Stages:
    """Wall-clock time of consecutive named stages."""

    def __init__(self) -> None:
        self.times: dict[str, float] = {}

    @contextmanager
    def __call__(self, name: str):
        start = time.perf_counter()
        try:
            yield
        finally:
            self.times[name] = self.times.get(name, 0.0) + time.perf_counter() - start


def _write_lines(path: str, lines) -> int:
    n = 0
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        for line in lines:
            out.write(line)
            n += 1
    return n


# ---------------------------------------------------------------------------- irscale
def irscale_measures(measure_set: str) -> tuple[list[str], list[str]]:
    """(names to request, names asked for but not registered yet in this checkout)."""
    from irscale.errors import MeasureError
    from irscale.measures.names import parse_measure

    wanted = THREE["irscale"] if measure_set == "three" else ["all_trec"]
    ok, missing = [], []
    for name in wanted:
        try:
            parse_measure(name)
        except MeasureError:
            missing.append(name)
        else:
            ok.append(name)
    return ok, missing


def run_irscale(qrels_path: str, run_path: str, measure_set: str, output: str) -> dict:
    stages = Stages()
    with stages("import"):
        import irscale
        import irscale.evaluation.judged as evaluation_module
        from irscale.io.output import write_results
    # time the two halves of evaluate() (judging and measures) without changing the call
    build, compute = evaluation_module.build_judged_rankings, evaluation_module.compute_shared

    def timed(name: str, function: Callable) -> Callable:
        def wrapper(*args, **kwargs):
            with stages(name):
                return function(*args, **kwargs)

        return wrapper

    evaluation_module.build_judged_rankings = timed("judge/rank", build)
    evaluation_module.compute_shared = timed("measures", compute)
    measures, missing = irscale_measures(measure_set)
    with stages("read qrels"):
        qrels = irscale.read_qrels(qrels_path)
    with stages("read run"):
        run = irscale.read_run(run_path)
    with stages("evaluate"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the few unjudged topics are reported, as usual
            ev = irscale.evaluate(qrels, [run], measures)
    with stages("write"), open(output, "wb") as stream:
        write_results(ev, stream, fmt="trec", per_query=True)
    times = dict(stages.times)
    times["evaluate other"] = times["evaluate"] - times["judge/rank"] - times["measures"]
    per_query = [c.label for c in ev.columns if c.per_query]
    return {
        "stages": times,
        "measures": [c.label for c in ev.columns],
        "per_topic": per_query,
        "n_measures": len(per_query),
        "n_values": len(per_query) * ev.rankings.n_rankings,
        "missing": missing,
        "requested": measures,
        "module": irscale.__file__,
    }


# ---------------------------------------------------------------------------- pytrec_eval
def run_pytrec_eval(qrels_path: str, run_path: str, measure_set: str, output: str) -> dict:
    stages = Stages()
    with stages("import"):
        import pytrec_eval
    measures = (
        set(THREE["pytrec_eval"]) if measure_set == "three" else set(pytrec_eval.supported_measures)
    )
    with stages("read qrels"), open(qrels_path) as handle:
        qrels = pytrec_eval.parse_qrel(handle)
    with stages("read run"), open(run_path) as handle:
        run = pytrec_eval.parse_run(handle)
    with stages("evaluate"):
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, measures)
        results = evaluator.evaluate(run)
    with stages("write"):
        n = _write_lines(
            output,
            (
                f"{m}\t{qid}\t{v:.4f}\n"
                for qid in sorted(results)
                for m, v in sorted(results[qid].items())
            ),
        )
    names = sorted(next(iter(results.values())).keys()) if results else []
    return {"stages": stages.times, "measures": names, "n_measures": len(names),
            "n_values": n, "requested": sorted(measures)}


# ---------------------------------------------------------------------------- ir_measures
def run_ir_measures(qrels_path: str, run_path: str, measure_set: str, output: str) -> dict:
    stages = Stages()
    with stages("import"):
        import ir_measures
    names = THREE["ir_measures"] if measure_set == "three" else IR_MEASURES_ALL_TREC
    measures = [ir_measures.parse_measure(name) for name in names]
    with stages("read qrels"):
        qrels = list(ir_measures.read_trec_qrels(qrels_path))
    with stages("read run"):
        run = list(ir_measures.read_trec_run(run_path))
    # iter_calc is lazy: evaluation and writing interleave, so they are timed together
    with stages("evaluate+write"):
        n = _write_lines(
            output,
            (f"{m.measure}\t{m.query_id}\t{m.value:.4f}\n"
             for m in ir_measures.iter_calc(measures, qrels, run)),
        )
    return {"stages": stages.times, "measures": [str(m) for m in measures],
            "n_measures": len(measures), "n_values": n, "requested": names}


# ---------------------------------------------------------------------------- ranx
def run_ranx(qrels_path: str, run_path: str, measure_set: str, output: str) -> dict:
    stages = Stages()
    with stages("import"):
        import ranx
    metrics = THREE["ranx"] if measure_set == "three" else RANX_ALL_TREC
    with stages("read qrels"):
        qrels = ranx.Qrels.from_file(qrels_path, kind="trec")
    with stages("read run"):
        run = ranx.Run.from_file(run_path, kind="trec")
    with stages("evaluate"):
        # make_comparable: ranx refuses runs with topics the qrels lack (the few unjudged ones)
        scores = ranx.evaluate(qrels, run, metrics, return_mean=False, make_comparable=True,
                               save_results_in_run=False)
        if len(metrics) == 1:
            scores = {metrics[0]: scores}
        qids = run.get_query_ids()  # make_comparable sorted the run in place: scores' order
    with stages("write"):
        n = _write_lines(
            output,
            (f"{m}\t{qid}\t{v:.4f}\n" for m in metrics
             for qid, v in zip(qids, scores[m].tolist(), strict=True)),
        )
    return {"stages": stages.times, "measures": list(metrics), "n_measures": len(metrics),
            "n_values": n, "requested": list(metrics)}


TOOLS: dict[str, Callable[[str, str, str, str], dict]] = {
    "irscale": run_irscale,
    "pytrec_eval": run_pytrec_eval,
    "ir_measures": run_ir_measures,
    "ranx": run_ranx,
}
