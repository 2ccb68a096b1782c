"""The families of nuggets and iUnits: names, parameters, formulas (Voorhees 2003; Sakai,
Kato & Song 2011; Sakai & Kato 2012).

Declared here, in the one catalogue under the context ``nuggets``; computed by
the kernels of :mod:`irscale.text.nuggets` (runner:
:func:`irscale.evaluation.nuggets.evaluate_nuggets`), whose module documentation states each
definition in full: V* the topic's gold nuggets (weights w, vital strings vs), V those
found in an output of length l, pos(v) where nugget v ends.
"""

from __future__ import annotations

from .base import Family, declare
from .params import Keyword, Keywords, choice, number

_L = Keyword(number(low=0.0, open_low=True), 1000.0,
             "patience L in characters: the value of a nugget ending at L or later is 0")
_BETA = Keyword(number(low=0.0, open_low=True), 1.0, "β of the F measure")
_ALLOWANCE = Keyword(number(low=0.0), 100.0, "characters allowed per matched nugget")
_NUGGETS = Keyword(choice("all", "vital"), "all",
                   "the nuggets counted in the recall: all, or the vital ones only")
_TREC_QA = "Voorhees 2003 (TREC QA)"


def _nugget(name: str, params: Keywords, doc: str, formula: str, source: str,
            aliases: tuple[str, ...] = ()) -> None:
    declare(Family(name, None, params, doc, context="nuggets", cutoff="none",
                   formula=formula, source=source, aliases=aliases))


_nugget("W-Rec", Keywords(nuggets=_NUGGETS), "Weighted nugget recall.",
        "Σ_V w(v) / Σ_V* w(v)", _TREC_QA)
_nugget("Prec_allow", Keywords(allowance=_ALLOWANCE),
        "Length-allowance precision: every matched nugget is entitled to allowance characters.",
        "1 − max(0, l − allowance·|V|) / l", _TREC_QA)
_nugget("F_QA", Keywords(beta=_BETA, allowance=_ALLOWANCE, nuggets=_NUGGETS),
        "TREC QA's nugget F (β = 5 in 2003, 3 in 2004–2005).",
        "(β² + 1)·P·R / (β²·P + R), P = Prec_allow, R = W-Rec", _TREC_QA)
_nugget("S", Keywords(L=_L), "S-measure: nugget weights discounted by where they end, over "
        "those of the pseudo-minimal output.",
        "Σ_V w(v)·max(0, L − pos(v)) / Σ_V* w(v)·max(0, L − pos*(v))",
        "Sakai, Kato & Song 2011")
_nugget("T", Keywords(), "T-measure: share of the output made of vital strings.",
        "Σ_V |vs(v)| / l", "Sakai, Kato & Song 2011")
_nugget("Ssharp", Keywords(L=_L, beta=_BETA), "S♯: F of the capped S and T.",
        "(1 + β²)·T♭·S♭ / (β²·T♭ + S♭), S♭ = min(1, S), T♭ = min(1, T)",
        "Sakai & Kato 2012", aliases=("S#",))

# ------------------------------------------------------- nugget assignments (TREC RAG)
_RAG = "Pradeep et al. 2024 (TREC 2024 RAG track, nuggetizer)"
#: The measures of nugget assignment records (:func:`irscale.text.evaluate_assignments`):
#: All, Vital and Weighted, with partial credit and strict; not measures of matches.
ASSIGNMENT_FAMILIES = ("A", "V", "W", "A_strict", "V_strict", "W_strict")
_SCORE = {"": "s(v) = 1 support, 0.5 partial_support, 0 not_support",
          "_strict": "s(v) = 1 support, 0 otherwise"}
for _suffix, _credit in _SCORE.items():
    _how = "strict: partial support counts 0" if _suffix else "partial support counts 0.5"
    _nugget(f"A{_suffix}", Keywords(), f"All: mean support of all the nuggets ({_how}).",
            f"Σ_v s(v) / |v|, {_credit}", _RAG)
    _nugget(f"V{_suffix}", Keywords(), f"Vital: mean support of the vital nuggets ({_how}; "
            "undefined without a vital nugget).", f"Σ_vital s(v) / |vital|, {_credit}", _RAG)
    _nugget(f"W{_suffix}", Keywords(), f"Weighted: support weighted 1 (vital), 0.5 (okay) "
            f"({_how}).", f"Σ_v w(v)·s(v) / Σ_v w(v), w = 1 vital, 0.5 okay, {_credit}",
            _RAG)
