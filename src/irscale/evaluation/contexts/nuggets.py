"""Nuggets: the nugget and iUnit measures (``W-Rec``, ``F_QA``, ``S``, ``Ssharp`` ...,
:mod:`irscale.evaluation.nuggets`) of outputs by the gold-standard nuggets they match, and
the TREC RAG track's scores of nugget assignment records (``A``, ``V``, ``W`` ...,
:mod:`irscale.evaluation.assignments`), averaged over the topics. They read inputs
:func:`irscale.evaluate` does not take (the outputs' lengths or texts, the assignment
records): it names the runners that do."""

from __future__ import annotations

from ..context import RunnerContext, register


class Nuggets(RunnerContext):
    """Nuggets: evaluated by a command of their own (:attr:`command`)."""

    name = "nuggets"
    what = "nugget measures"
    why = "they read the nuggets, the matches and the outputs' lengths or texts"
    command = "irscale text nuggets"
    refused = ("nugget measures read the outputs' lengths or texts besides the nuggets and "
               "the matches: irscale.text.evaluate_nuggets(nuggets, matches, measures, "
               "lengths=... or texts=...); A, V, W and their _strict forms read nugget "
               "assignment records: irscale.text.evaluate_assignments(records, measures)")


NUGGETS = register(Nuggets())
