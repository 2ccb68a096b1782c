"""The catalogue loads its families other than trec_eval's lazily: reading trec_eval's
names and planning their evaluation imports neither numpy, pandas nor pyarrow, and every
name resolves the same (requests, labels, errors, suggestions) whatever has been loaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from irscale.measures.base import (
    CATALOGUE,
    REGISTRY,
    TREC_FAMILIES,
    Cutoffs,
    Floats,
    load_catalogue,
)
from irscale.measures.names import IR_NAMES, NTCIR_NAMES, _pattern, canonical_name
from irscale.measures.params import Keywords
from irscale.measures.trec_table import NICKNAMES, TREC10_MEASURES, TREC_MEASURES

#: The names of trec_eval's families that must not load the others.
TREC_NAMES = ("official all_trec map P.5,10 ndcg_cut.10 P_10 ndcg_cut_10 iprec_at_recall.0.1 "
              "Rprec_mult.0.2 utility.1,-1,0,0 set_F.0.5 relstring.10 gm_map num_q runid "
              "ndcg.0=0,1=1,2=3 rbp.p=0.8 P@10 AP@100 nDCG@10").split()


def _python(code: str, stdin: str = "") -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True,
                          text=True, env=env, check=True)
    return done.stdout


def test_trec_names_and_their_plan_import_no_numpy() -> None:
    code = f"""
import sys
from irscale.measures.names import parse_measures
parse_measures(["official"])
parse_measures({" ".join(TREC_NAMES)!r})
from irscale.measures.plan import plan_trec
from irscale.measures.base import EvalContext
assert plan_trec(parse_measures({" ".join(TREC_NAMES)!r}), EvalContext()) is not None
print(sorted({{"numpy", "pandas", "pyarrow"}} & set(sys.modules)))
"""
    assert _python(code).strip() == "[]"


#: Resolves each name of stdin in a fork of a fresh interpreter (so each starts from the
#: same catalogue): its requests and whether they print trec_eval's names, or the error;
#: and whether reading it loaded the whole catalogue. argv[1] "full": load it first.
_RESOLVE = """
import json, os, sys
from irscale.measures import base
from irscale.measures.names import is_measure_name, is_trec_request, parse_measures
if sys.argv[1] == "full":
    base.load_catalogue()
else:  # what the families' modules import, loaded once (registering no family)
    import irscale.core.judged, irscale.core.subsets, irscale.measures.arrays
    import irscale.measures.gain_discount, irscale.io.table
    assert not base._LOADED and set(dict.keys(base.REGISTRY)) <= set(base.TREC_FAMILIES)

def resolve(name):
    try:
        requests = parse_measures([name])
    except Exception as error:
        answer = [type(error).__name__, str(error)]
    else:
        answer = [[repr(r), is_trec_request(r)] for r in requests]
    loaded = bool(base._LOADED)
    try:
        family = base.get_family(name).name
    except Exception as error:
        family = str(error)
    return [answer, family, is_measure_name(name), loaded]

results = []
for name in json.load(sys.stdin):
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        with os.fdopen(write, "w") as out:
            json.dump(resolve(name), out)
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as answer:
        results.append(json.loads(answer.read()))
    os.waitpid(pid, 0)
json.dump(results, sys.stdout)
"""


def _names() -> list[str]:
    load_catalogue()
    ours = [f for f in REGISTRY.values() if f.native is None]
    names = [*TREC_NAMES, *NICKNAMES, *TREC_MEASURES, *TREC10_MEASURES, *IR_NAMES,
             *(f"{n}@10" for n in IR_NAMES), *(f"{n}(rel=2)@5" for n in IR_NAMES),
             *(canonical_name(f) for f in ours), *(f.name for f in ours),
             *(f"ntcir:{n}" + ("10" if n.endswith("@") else "") for n in NTCIR_NAMES),
             "RBP(p=0.8)", "ERR@20", "nDCG(gain=exp)@10", "AP(norm=min)@10", "RR@10",
             "P(condensed=1)@10", "mapp", "Map", "p", "P_x", "P_0", "ndcg_cut_0", "foo",
             "RBP@x", "AP@-1", "P@", "nDCG@", "ndcg.x=2", "P.5,5", "iprec_at_recall_2",
             "Rprec_mult_0.2", "utility.1,2", "set_F", "gRBP", "Qmeasure", "U", "map.5",
             "runid.3", "success_1", "map_cut_100", "P_10.5", "ERR_10", "nDCG_10", "RBP_0.5",
             "S#", "", " ", "P@10@10", "P(rel=0)@5", "NumRet(rel=2)", "num_q(rel=2)"]
    return list(dict.fromkeys(names))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="resolves each name in a fork")
def test_names_resolve_alike_whatever_is_loaded() -> None:
    names = _names()
    lazy = json.loads(_python(_RESOLVE.replace("sys.argv[1]", "'lazy'"), json.dumps(names)))
    full = json.loads(_python(_RESOLVE.replace("sys.argv[1]", "'full'"), json.dumps(names)))
    for name, (answer, family, known, _), (answer_full, family_full, known_full, _) in zip(
            names, lazy, full, strict=True):
        assert (answer, family, known) == (answer_full, family_full, known_full), name
    loaded = {name: result[3] for name, result in zip(names, lazy, strict=True)}
    assert not any(loaded[name] for name in TREC_NAMES)
    assert loaded["RBP(p=0.8)"] and loaded["mapp"]  # a name of ours, an unknown name


def test_no_family_of_ours_is_spelt_as_trec_evals() -> None:
    """What lets trec_eval's names be read among trec_eval's families alone: no family of
    ours is named ``<trec_eval family of cut-offs or levels>_...`` (``_trec_output_name``
    takes the longest such family name that reads the rest: ``bpref_R`` may be ours), none
    takes trec_eval's lists of numbers (``P_10``), none has
    a dot or a character outside the name grammar, and an ir_measures name is a trec_eval
    family, a keyword family or no family."""
    load_catalogue()
    trec = set(TREC_FAMILIES)
    assert trec >= set(TREC_MEASURES) | set(TREC10_MEASURES)
    assert all(REGISTRY[name].native is not None for name in trec)
    for table in CATALOGUE.values():
        for name in table:
            assert _pattern("family").fullmatch(name), name
    numbered = [t for t in trec if isinstance(REGISTRY[t].params, (Cutoffs, Floats))]
    for name, family in REGISTRY.items():
        if name in trec:
            continue
        assert family.native is None
        assert not any(name.startswith(t + "_") for t in numbered), name
        assert not isinstance(family.params, (Cutoffs, Floats)), name
    for name in IR_NAMES:
        assert name in trec or name not in REGISTRY or isinstance(REGISTRY[name].params,
                                                                    Keywords), name


def test_the_catalogue_lists_alike_whatever_is_imported_first() -> None:
    """The families of judged rankings keep the catalogue's order when a module of ours is
    imported before the catalogue loads (the diversity measures import graded's)."""
    code = """
{first}
from irscale.measures.base import REGISTRY
print(list(REGISTRY))
"""
    plain = _python(code.format(first=""))
    assert _python(code.format(first="import irscale.measures.diversity")) == plain
    assert _python(code.format(first="import irscale.text.sessions")) == plain
    assert plain.index("'ERR'") < plain.index("'map'") < plain.index("'Q'")
