"""The parameters of the evaluation of sessions and texts, declared once.

The functions of :mod:`irscale.text` check their arguments against these declarations and
the command line builds its options from them (:func:`irscale.cli.options.add_param`): this
module imports nothing but :mod:`irscale.core.params` (the mechanism).
"""

from __future__ import annotations

from ..core.binding import Binding, Choice, Excludes
from ..core.extras import NLTK, REGEX, Requires
from ..core.params import (
    ALLOW_EMPTY,
    NO_WORK,
    PPI_TUNING,
    RELEVANCE,
    SAMPLE_DESIGNS,
    SIGNIFICANCE,
    Cost,
    InputFiles,
    Integers,
    Names,
    Needs,
    Param,
    Reals,
    Switch,
)

#: The gain of every click of a session's click log (:func:`irscale.evaluate_sessions`).
CLICK_GAIN = Reals(0.0)
#: Least share of a nugget's distinct terms a text must hold to match it (POURPRE).
MATCH_THRESHOLD = Reals(0.0, 1.0, "(]")
THRESHOLD = Param("threshold", MATCH_THRESHOLD, 0.5, "least share of a nugget's distinct "
                  "terms a text must contain to match it", ("--threshold",), "T")
#: The order clicks of a session are read in (:func:`irscale.evaluate_sessions`).
CLICK_ORDERS: tuple[str, ...] = ("time", "rank")
CLICK_ORDER = Param("click_order", Names("click order", CLICK_ORDERS), "time", "read the "
                    "clicks in time order (non-linear traversal) or by query and rank",
                    ("--click-order",), "ORDER")
#: How ROUGE scores a text against several references (:func:`irscale.text.evaluate_rouge`).
ROUGE_MULTI = Param("multi", Names("multi-reference rule", ("max", "mean", "pooled")), "max",
                    "several references: the best by F (max, rouge-score's score_multi), the "
                    "mean, or pooled counts (ROUGE-1.5.5 -f A)", ("--multi",), "RULE")
#: The gain of a click in a session (:func:`irscale.evaluate_sessions`).
SESSION_CLICK_GAIN = Param("click_gain", CLICK_GAIN, None, "gain of every click (0.5: "
                           "'clicked = relevant' as Sakai's algorithm)", ("--click-gain",),
                           "G", unset="the qrels gain of the clicked document")
#: The positions of every query's list in the Markov chain of MsM
#: (:mod:`irscale.text.session_markov`): the measure's cut-off ``@k``, or without one the
#: longest list of a session (the size of the session run, declared as an option's cost
#: is): the chain's memory grows with them.
MSM_POSITIONS = Param("positions", Integers(1), None, "the positions of every query's list in "
                      "the Markov chain of MsM: its cut-off @k, or the longest list of a "
                      "session without one", ("@k",), label="the cut-off @k of MsM",
                      cost=Cost("positions", per="a state of the chain of every query's list"))

# ------------------------------------------------------------------ cli-x
#: ``--stem``: Porter-stemmed tokens, as rouge-score's ``use_stemmer``.
STEM = Param("stem", Switch(), False, "Porter-stem tokens longer than 3 characters "
             "(rouge-score's use_stemmer; needs nltk, the irscale[text] extra)", ("--stem",),
             requires=(Requires(NLTK, "{option}"),))


def intl_tokens(name: object) -> bool:
    """Whether the BLEU measure ``name`` asks for the international tokeniser
    (``BLEU(tokenize=intl)``), which needs the regex package."""
    return isinstance(name, str) and "tokenize=intl" in "".join(name.split())


#: ``text bleu -m 'BLEU(tokenize=intl)'``: the Unicode classes of the regex package.
BLEU_INTL = Requires(REGEX, when=intl_tokens)
#: ``--stopwords FILE``: words removed before stemming.
STOPWORDS = Param("stopwords", InputFiles(), None, "remove these words (blank- or line-separated) "
                  "before stemming", ("--stopwords",), "FILE")
#: ``--lengths FILE`` / ``--texts FILE``: the outputs of the nugget measures, one or the
#: other (:func:`irscale.text.evaluate_nuggets`' ``lengths`` and ``texts``).
OUTPUT_LENGTHS = Param("lengths", InputFiles(), None, "output lengths: topic run length "
                       "(characters)", ("--lengths",), "FILE")
OUTPUT_TEXTS = Param("texts", InputFiles(), None, "output texts: topic<TAB>run<TAB>text (length: "
                     "non-blank characters)", ("--texts",), "FILE")
#: ``--auto-match``: the matches found in the texts (POURPRE).
AUTO_MATCH = Param("auto_match", Switch(), False, "match nuggets to the --texts by unigram "
                   "overlap with their vital strings (POURPRE-style) instead of match files",
                   ("--auto-match",))
#: ``--assignments FILE...``: nugget assignment records (JSON lines,
#: :mod:`irscale.io.assignments`): :func:`irscale.text.evaluate_nuggets`' ``assignments``,
#: the first argument of :func:`irscale.text.evaluate_assignments`.
ASSIGNMENTS = Param("assignments", InputFiles(), None, "nugget assignment records (JSON lines "
                    "of qid, run_id, nuggets: nuggetizer's, the TREC RAG track's): score "
                    "them with A, V, W (and _strict) instead of nuggets and matches",
                    ("--assignments",), "FILE")


def _human_sample(what: str) -> Param:
    """``--human-sample FILE...``: human labels (``what``, and of what sample) of the
    model's labels given first (prediction-powered inference:
    :mod:`irscale.evaluation.assignments_ppi`, :mod:`irscale.evaluation.citations_ppi`)."""
    return Param("human_sample", InputFiles(), None, f"human {what}, which are a model's: "
                 "each score estimated by prediction-powered inference, the model's score "
                 "corrected on the sample, with its interval", ("--human-sample",), "FILE")


def _sample_design(default: str, doc: str) -> Param:
    """``--design``: how a human sample (:func:`_human_sample`) was drawn, ``doc`` the
    designs."""
    return Param("design", Names("human sample design", ("answers", *SAMPLE_DESIGNS)), default,
                 f"how the human sample was drawn: {doc}", ("--design",), "DESIGN")


def _sampled(params: tuple[Param, ...], design: Param, sample: Param,
             takes: tuple[Param, ...]) -> Binding:
    """A runner's ``params``, then the ``design``, level and tuning, which apply to a human
    ``sample`` (``human_sample=``, ``--human-sample``) only."""
    return Binding((*params, design, SIGNIFICANCE, PPI_TUNING), rules=(
        Needs((design, SIGNIFICANCE, PPI_TUNING), "a human sample", on=sample),), takes=takes)


#: Human assignment records of a sample of the model's nuggets
#: (:mod:`irscale.evaluation.assignments_ppi`): :func:`irscale.text.evaluate_assignments`'
#: ``human_sample``.
HUMAN_SAMPLE = _human_sample("assignment records (the same JSON lines) of a sample of the "
                             "nuggets of the --assignments")
#: How the human sample of the nugget assignments was drawn.
HUMAN_DESIGN = _sample_design("uniform", "uniform: a uniform sample of the model's nuggets "
                              "(all runs together); stratified: of the nuggets of every model "
                              "assignment; inclusion: nuggets with stated probabilities (their "
                              "prob); answers: a uniform sample of the answers, every nugget "
                              "relabelled")
#: :func:`irscale.text.evaluate_assignments`: the design, level and tuning apply to a human
#: sample.
ASSIGNMENT_SAMPLE = _sampled((ALLOW_EMPTY,), HUMAN_DESIGN, HUMAN_SAMPLE, takes=(HUMAN_SAMPLE,))
#: ``--topics FILE``: the session map.
SESSION_MAP = Param("topics", InputFiles(), None, "session map, lines 'session topic': the qrels "
                    "topic of each session", ("--topics",), "FILE",
                    unset="the session id is the topic id")
#: ``--clicks FILE`` (repeatable): the click logs of U.
CLICKS = Param("clicks", InputFiles(), None, "click log 'session query_no rank timestamp', one per "
               "run in the runs' order (repeatable): U is computed from the clicks",
               ("--clicks",), "FILE")
#: :func:`irscale.text.rouge.rouge` and :func:`irscale.evaluation.rouge.evaluate_rouge`
#: (``irscale text rouge``): the rule of several references and the stemming.
ROUGE = Binding((ROUGE_MULTI, STEM))
#: :func:`irscale.evaluation.rouge.evaluate_rouge` (``irscale text rouge``): the kernel's, and
#: the switch ``allow_empty`` (``--allow-empty``) of every runner of files.
EVALUATE_ROUGE = ROUGE.extended(ALLOW_EMPTY)
#: :func:`irscale.text.pourpre.pourpre_matches` (``irscale text nuggets --auto-match``): the
#: share of a nugget's terms that matches it, and the stemming.
POURPRE = Binding((THRESHOLD, STEM))
#: :func:`irscale.text.evaluate_nuggets` (``irscale text nuggets``): with assignment records
#: (``assignments=``, ``--assignments``), which hold the judged nuggets of every answer, the
#: outputs' lengths and texts do not apply.
NUGGET_INPUTS = Binding((ALLOW_EMPTY,), rules=(Excludes(
    (OUTPUT_LENGTHS, OUTPUT_TEXTS), on=ASSIGNMENTS,
    why="the assignment records hold the judged nuggets of every answer"),),
    takes=(ASSIGNMENTS,))
#: The click order and gain apply to click logs only (``clicks=``, ``--clicks``).
CLICK_OPTIONS = Needs((CLICK_ORDER, SESSION_CLICK_GAIN), "click logs", on=CLICKS)
#: ``--max-citations K``: the first K citations of every sentence count (ALCE's
#: ``--at_most_citations``, the RAG track's ``--max_citations``: 3).
MAX_CITATIONS = Param("max_citations", Integers(1), None, "count the first K citations of "
                      "every sentence only (ALCE and the TREC RAG track judge 3)",
                      ("--max-citations",), "K", unset="every citation a record gives",
                      cost=NO_WORK)
#: ``citations FILE...``: support judgments of cited answers (JSON lines,
#: :mod:`irscale.io.citations`), the first argument of
#: :func:`irscale.text.evaluate_citations`.
CITATION_JUDGMENTS = Param("judgments", InputFiles(), None, "support judgments of cited "
                           "answers (JSON lines of qid, run_id, sentences with their "
                           "citations and support labels: ALCE's, the TREC RAG track's)",
                           ("judgments",), "FILE")
#: ``citations MODEL --human-sample FILE...``: human support judgments of a sample of the
#: answers of the judgments, which are a model's (:mod:`irscale.evaluation.citations_ppi`):
#: :func:`irscale.text.evaluate_citations`' ``human_sample``.
CITATION_SAMPLE = _human_sample("support judgments (the same JSON lines) of a sample of the "
                                "answers judged")
#: How the human sample of the support judgments was drawn: whole answers, or sentences
#: (named by topic, run and sentence index; :mod:`irscale.evaluation.citations_ppi`).
CITATION_DESIGN = _sample_design("answers", "answers: a uniform sample of the answers, every "
                                 "sentence relabelled; uniform: of the sentences; stratified: "
                                 "of the sentences within each model support label (the "
                                 "sampled sentences are those a human record labels; "
                                 "inclusion is refused: a record states no sentence's "
                                 "inclusion probability)")
#: :func:`irscale.text.evaluate_citations` (``irscale text citations``): the design, level
#: and tuning apply to a human sample.
CITATIONS = _sampled((MAX_CITATIONS, ALLOW_EMPTY), CITATION_DESIGN, CITATION_SAMPLE,
                     takes=(CITATION_JUDGMENTS, CITATION_SAMPLE))
#: :func:`irscale.evaluate_sessions` (``irscale session``).
SESSIONS = Binding((CLICK_ORDER, SESSION_CLICK_GAIN, RELEVANCE, ALLOW_EMPTY),
                   rules=(CLICK_OPTIONS,))
#: ``--corpus`` (``irscale text bleu``): each run's corpus BLEU
#: (:func:`irscale.evaluation.evaluate_corpus_bleu`) instead of every text's
#: (:func:`irscale.evaluation.evaluate_bleu`).
CORPUS = Param("corpus", Switch(), False, "print each run's corpus BLEU (n-gram counts added "
               "over its topics) as its summary line, instead of the mean of sentence BLEU",
               ("--corpus",))
#: :func:`irscale.evaluation.evaluate_pyramid` (``irscale text pyramid``) and
#: :func:`irscale.evaluation.evaluate_bleu` (``irscale text bleu``): a switch, checked as
#: one; their measures are checked where their names are parsed.
PYRAMID = Binding((ALLOW_EMPTY,))
BLEU = Binding((ALLOW_EMPTY,))
#: :func:`irscale.evaluation.evaluate_corpus_bleu` (``text bleu --corpus``): measures only
#: (a run without a topic's text has no corpus BLEU: no allow_empty).
CORPUS_BLEU = Binding(())
#: ``irscale text bleu``: ``--corpus`` chooses the function.
BLEU_CHOICE = Choice(CORPUS, {False: BLEU, True: CORPUS_BLEU})
