"""Gains and ideal rankings of trec_eval's gain-based measures, computed by the engine
(``rust/src/measures/gains.rs``; the families in ``ndcg.rs``, ``ndcg_averaged.rs``,
``gain_g.rs``, ``rbp.rs``). The gain maps are parsed in Python
(:class:`irscale.measures.base.GainPairs`) and handed over in the order given.

Shared by ``ndcg``, ``dcg``, ``ideal_dcg``, ``ndcg_cut``, ``Rndcg``, ``ndcg_rel``, ``G``
and ``rbp``. Source: trec_eval 9.0.8 ``setup_gains`` / ``get_gain`` / ``comp_rel_gain``
(a static copy in each of m_ndcg.c, m_Rndcg.c, m_ndcg_rel.c, m_G.c; gathered in
gain_init.c in 10.0, with the same semantics for valid parameters).

**Gain table.** For a topic whose highest judged degree is ``L - 1`` (``L`` =
``num_rel_levels``: 1 + the highest degree with at least one judged document), trec_eval
builds a table of *entries* ``(level, gain, count)``: first the ``level=gain`` parameters in
the order given (count = number of judged documents at that level when ``0 ≤ level < L``,
else 0), then every level ``0 ≤ v < L`` not given as a parameter, with gain ``v``
(the default gain is the relevance degree). The entries are sorted by increasing gain with
``qsort`` and the comparator ``(int)(gain1 - gain2)``.

**Discount.** ``log2(rank + 1)``, computed with the C library's ``log2`` as trec_eval does
(numpy's vectorised ``log2`` differs from it in the last bit for some arguments, the first
integer being 1621: ranks beyond 1,619 of long rankings).

**Document gains** (``get_gain``): the gain of the entry with the document's level, 0 when
there is none. Documents not in the qrels (level -1) and pooled-but-unjudged ones (-2)
therefore have gain 0, unless a parameter gives that negative level a gain
(``ndcg.-1=1`` gives every non-pooled document gain 1, as trec_eval does).

**Ideal ranking.** Walking the sorted entries from the last (highest gain) down, trec_eval
lists ``count`` documents of each entry's gain, and stops at the first non-empty entry whose
gain is ≤ 0 — or at once when the *last* entry's gain is ≤ 0, even if it is empty. Only
positive gains enter the ideal ranking; its length is ``K``.

**Quirk reproduced (fractional gains).** ``(int)(gain1 - gain2)`` truncates towards zero,
so two gains closer than 1 compare *equal*, and the comparator is not even transitive
(0.3 ~ 0.9 ~ 1.5 but 0.3 < 1.5). ``qsort`` then keeps such entries in an order that depends
on the algorithm: glibc's ``qsort`` is a stable top-down merge sort, emulated exactly (up to
4,096 entries; a larger table on which the comparator is no order is sorted by true gain,
with a warning). Consequences, as in trec_eval: with ``ndcg.1=3.1,2=0.7`` the level-0
entry (gain 0) stays *above* the 0.7 entry, so the ideal ranking stops before the level-2
documents and nDCG can exceed 1; gains ordered wrongly within less than 1 of each other
give a non-ideal "ideal" ranking. Integer gains (the default) are never affected. Other C
libraries (BSD/macOS qsort) may order such entries differently; glibc is the reference.
A comparator difference of 2³¹ or more overflows ``int`` (x86-64 gives INT_MIN); that too
is emulated.

**Not reproduced.** A topic whose judgments are all negative has no level at all; trec_eval
then reuses ``num_rel_levels`` (and level counts) left over from the previously evaluated
topic (``form_res_rels.c`` never resets them). Here such a topic has ``L = 0``: an empty
ideal ranking.
"""

from __future__ import annotations

from ..native import Native, typed_label

#: The engine call of the families of a gain map and ideal rankings (ndcg, ideal_dcg, G,
#: Rndcg, ndcg_rel): the pairs in the order typed, the output named after them.
GAINS = Native(ideal=True, label=typed_label)

