"""Evaluation contexts, each declared once: what it evaluates, the options it reads, how it
averages, whether it can be cached, and its runner.

:func:`irscale.evaluate` and ``irscale eval`` know no context by name: they ask the
declared contexts, in order, which one claims the call
(:func:`irscale.evaluation.contexts.choose`; the first that claims it evaluates it, judged
rankings when none does) and refuse every option the chosen context does not read by one
rule (:func:`refuse_unread`), with one message in the API and on the command line. A new
context is a module (in :mod:`.contexts`) that declares a subclass of :class:`Context` and
registers an instance (:func:`register`): what every
context has (its name, what it evaluates, the options it reads, how it averages, its claim
and its runner) it writes; what only some contexts do (their own run files, trec_eval's
text straight from the files, the options an output format asks of its runner, their own
score matrix) are methods whose defaults are those of judged rankings, which it overrides.
Its kernels stay in ``measures``. The output formats only its evaluations are written in
(:class:`Output`) and the form its qrels are read in on the command line
(:attr:`Context.qrels_format`) are declared on it too, as literal class attributes, with
the rules and messages ``irscale eval`` applies to them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..core.records import fields, record
from ..errors import MeasureError, ParameterError
from .context_manifest import measure_names, refusal, refuse_unread
from .context_manifest import read_runs as read_declared_runs
from .context_manifest import text as declared_text

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, NoReturn, TypeAlias

    from ..core import ScoreMatrix
    from ..measures.results import Evaluation

#: ``trec()``: the run files of the command line read as TREC run files, as
#: :func:`irscale.evaluate` reads them (:meth:`Context.read_runs`' default).
TrecReader: TypeAlias = "Callable[[], Any]"
#: ``evaluate()``: a context's evaluation of the call (:meth:`Context.matrix`).
Evaluate: TypeAlias = "Callable[[], Evaluation]"


@record
class Output:
    """An output format only a context's evaluations are written in (none of
    :data:`irscale.io.formats.OUTPUT_FORMATS`, which every evaluation writes), declared on
    the context (:attr:`Context.outputs`) with the options of
    :meth:`~irscale.measures.results.Evaluation.format` it reads and the rules by which
    ``irscale eval`` refuses them where they do not apply, one message each.

    Attributes
    ----------
    name : str
        The format (``--format NAME``, a name of :data:`irscale.io.formats.FORMATS`).
    baseline : str
        What ``--baseline`` is with it, as the refusal of ``--baseline`` with the other
        formats says it (every output format of a context's own reads a baseline).
    options : tuple of str
        The other options only it reads, as ``irscale eval`` and
        :meth:`~irscale.measures.results.Evaluation.format` name them (the latex table's
        ``test``, ``correction``, ``alpha``; ndeval's ``risk_alpha``).
    unbaselined : str
        The message refusing :attr:`options` given without ``--baseline`` (``{options}``:
        those given, spelt as the command line spells them).
    at_once : bool, default False
        :attr:`options` are refused by :attr:`unbaselined` wherever the format or
        ``--baseline`` is missing, before any other output rule (ndeval's
        ``--risk-alpha``). Otherwise they are refused with the formats every evaluation
        writes by "``{options} applies to --format NAME only``" (with another context's
        own format, that context refuses them itself, :func:`refuse_unread`), and without
        ``--baseline`` by :attr:`unbaselined` after :attr:`refusal`.
    refused : tuple of str
        The options of ``irscale eval`` it refuses (``per_query``, ``no_summary``).
    refusal : str
        The message refusing them.
    intervals : bool, default False
        It prints the means' intervals itself (``--ci``: the latex table's columns).
    """

    name: str
    baseline: str
    options: tuple[str, ...]
    unbaselined: str
    refused: tuple[str, ...]
    refusal: str
    at_once: bool = False
    intervals: bool = False


class Context:
    """One evaluation context, declared once: a subclass, in its own module
    (:mod:`irscale.evaluation.contexts`), registered as an instance (:func:`register`).

    What every context declares, as class attributes (literal values: a reader of the
    source, such as a manifest generator, finds them without importing the module):

    name : str
        Short identifier (``"judged"``, ``"intents"``, ``"fairness"``, ``"prefs"``,
        ``"sessions"``, ``"texts"``, ``"pyramids"``, ``"nuggets"``).
    what : str
        What it evaluates, as the refusal message names it ("diversity measures").
    why : str
        Why the options it does not read are refused (said in the refusal message).
    reads : frozenset of str
        The options it reads besides the inputs and the measures: those of
        :func:`irscale.evaluate`, and those of the outputs of its evaluations that
        ``irscale eval`` gives (:data:`OUTPUT_OPTIONS`); every other option given with a
        value other than its default is refused (:func:`refuse_unread`), in the API and
        on the command line alike, which maps its flags to these names.
    averaging : str
        How per-topic values are summarised (:class:`~irscale.io.table.Averaging`
        kinds: ``"trec_eval"``, ``"ndeval"``, ``"mean"``).

    and the two methods every context writes: :meth:`claims` (whether it evaluates a
    call) and :meth:`run` (its runner).

    What only some contexts declare has a default here, which a context overrides:

    cacheable : bool, default False
        Whether its evaluations may be stored in a results cache (:mod:`irscale.cache`):
        then it reads ``cache`` too, handed as a :class:`~irscale.cache.calls.CacheCall`.
    formats : tuple of str or None, default None
        The output formats of its evaluations (names of :data:`irscale.io.formats.FORMATS`)
        where not every format of an evaluation applies: ``irscale eval --format`` refuses
        the others by one rule (:meth:`format_refusal`).
    command : str or None, default None
        Its own command (``"irscale session"``) when its inputs are not the files
        ``irscale eval`` reads (qrels and TREC runs): ``irscale eval`` then refuses its
        measures by one rule and names that command (:meth:`elsewhere`).
    keep_rank : bool, default False
        Its runs are ranked by their rank column (ndeval's order): ``irscale eval`` and
        the score matrices (:func:`~irscale.evaluation.api.evaluate_matrix`) read the TREC
        run files keeping it, as with ``--ties rank-column``.
    baseline_run : bool, default False
        Its ``baseline`` is a run file evaluated with the same measures and options and
        handed to its output as that evaluation (ndeval's ``-baseline FILE``), not the
        name of one of the runs evaluated (the latex table's).
    outputs : tuple of Output, default ()
        The output formats only its evaluations are written in, with their options and
        rules (:class:`Output`; each one of :attr:`formats` where those are listed).
    qrels_format : str or None, default None
        The form its qrels are read in, named by the command line's ``--qrels-format``
        (``"diversity"``): the command line reads QRELS so when every measure is one it
        claims, or when ``--qrels-format`` names it, and refuses its measures with
        ``--qrels-format trec``, other measures with its form and its :attr:`outputs`
        when QRELS are not read so, in messages built from :attr:`what` and
        :attr:`examples`. ``None``: QRELS are qrels (``"trec"``).
    examples : tuple of str, default ()
        Names of its measures, as those messages cite them (the first: the one to ask
        for with one of its :attr:`outputs`).
    text_by : str or None, default None
        The function (``"module:function"``) that makes its output in trec_eval's format
        straight from the files (:meth:`text`), None: it has none.
    named_runs_by : str or None, default None
        The function (``"module:function"``) that reads its run files named by
        ``--names`` (:meth:`read_runs`), None: read as TREC run files.

    and the methods :meth:`read_runs`, :meth:`text`, :meth:`format_options` and
    :meth:`matrix`, whose defaults are those of judged rankings.
    """

    name: str
    what: str
    why: str
    reads: frozenset[str]
    averaging: str
    cacheable: bool = False
    formats: tuple[str, ...] | None = None
    command: str | None = None
    keep_rank: bool = False
    baseline_run: bool = False
    outputs: tuple[Output, ...] = ()
    qrels_format: str | None = None
    examples: tuple[str, ...] = ()
    text_by: str | None = None
    named_runs_by: str | None = None

    #: The class attributes every context declares (:meth:`__init_subclass__`).
    REQUIRED = ("name", "what", "why", "reads", "averaging")

    def __init_subclass__(cls, abstract: bool = False, **kwargs: Any) -> None:
        """A context that leaves out one of :data:`REQUIRED`, or the methods
        :meth:`claims` and :meth:`run`, is refused where it is declared (a
        :class:`TypeError` naming what to declare), not when a call first reaches it;
        ``abstract``: a base of contexts (:class:`CatalogueContext`), declaring part."""
        super().__init_subclass__(**kwargs)
        if abstract:
            return
        missing = [attribute for attribute in cls.REQUIRED if not hasattr(cls, attribute)]
        missing += [f"def {method}()" for method in ("claims", "run")
                    if getattr(cls, method) is getattr(Context, method)]
        if missing:
            raise TypeError(f"evaluation context {cls.__qualname__} declares no "
                            f"{', '.join(missing)}")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"

    def claims(self, qrels: Any, measures: Any, options: Mapping[str, Any]) -> bool:
        """Whether it evaluates a call: ``options`` are those given, of
        :func:`irscale.evaluate`, and on the command line ``qrels_format``, the form its
        qrels are read in (``"trec"``, or a context's own, :attr:`qrels_format`, as
        ``--qrels-format`` says). It may raise for a call that mixes its measures with
        others."""
        raise NotImplementedError

    def run(self, *arguments: Any, **options: Any) -> Evaluation:
        """``run(held, measures, **options)``: the evaluation of ``held`` (``[qrels,
        runs]``, taken out by :func:`take`) of ``measures`` with the options it reads
        (:attr:`accepts`), each context's runner taking those keywords only."""
        raise NotImplementedError

    def read_runs(self, paths: Sequence[str], names: Any, trec: TrecReader) -> Any:
        """How ``irscale eval`` reads its run files: ``paths`` the files given (folders
        and glob patterns expanded, none twice), ``names`` its ``--names`` (``None``: not
        given). By default TREC run files, as :func:`irscale.evaluate` reads them
        (``trec()``, the command line's reading, with its ranking options); a context
        whose runs are not TREC runs reads and names them itself (stochastic runs:
        every file's samples), and one that declares :attr:`named_runs_by` reads the files
        named by ``--names`` so (:func:`~irscale.evaluation.context_manifest.read_runs`:
        the manifest holds the same, so that the command line reads them without the
        context's module)."""
        return read_declared_runs(self.named_runs_by, paths, names, trec)

    def text(self, qrels: Any, runs: Any, measures: Any, **options: Any) -> bytes | None:
        """Its output in trec_eval's format computed from the files without an
        :class:`~irscale.measures.results.Evaluation` (the engine's trec_eval text, no
        numpy), with ``allow_empty``, ``per_query``, ``summary``, ``cache`` and
        trec_eval's options; ``irscale eval`` asks it first when nothing but that text is
        printed. ``None``: a measure or an input it does not take alone, or no
        :attr:`text_by` declared (:func:`~irscale.evaluation.context_manifest.text`, which
        the command line calls with the manifest's :attr:`text_by`)."""
        return declared_text(self.text_by, qrels, runs, measures, **options)

    def format_options(self, fmt: str) -> Mapping[str, Any]:
        """The options of its runner that the output format ``fmt`` asks for (ndeval's
        topic ids with ``--format ndeval``); none by default."""
        return {}

    def matrix(self, evaluate: Evaluate) -> ScoreMatrix:
        """Its score matrix (:func:`~irscale.evaluation.api.evaluate_matrix`, the analyses
        of ``irscale compare`` and ``meta``), ``evaluate()`` giving its evaluation: by
        default the evaluation's :meth:`~irscale.measures.results.Evaluation.to_matrix`
        as it is (a context whose runs may cover topics it does not evaluate says so
        here, by its own warnings)."""
        return evaluate().to_matrix(allow_missing=True)

    @property
    def accepts(self) -> frozenset[str]:
        """The options it reads, ``cache`` included when it can be cached."""
        return self.reads | {"cache"} if self.cacheable else self.reads

    def refusal(self, option: str) -> str:
        """The one message that refuses ``option`` (``"labels="``, ``"-J"``) here
        (:func:`~irscale.evaluation.context_manifest.refusal`)."""
        return refusal(self.what, self.why, option)

    def format_refusal(self, option: str) -> str:
        """The one message that refuses an output format (``option``: ``"--format json"``)
        not among :attr:`formats`."""
        listed = self.formats or ()
        return (f"{option} does not apply to {self.what} ({', '.join(listed[:-1])} or "
                f"{listed[-1]})")

    def mixed(self, other: str) -> str:
        """The one message that refuses its measures in a call with another measure
        (``other``), in the API and on the command line
        (:func:`~irscale.evaluation.contexts.choose`)."""
        return (f"{self.what} cannot be mixed with other measures ({other!r}): evaluate "
                "them in a call of their own")

    def elsewhere(self) -> str:
        """The one message of ``irscale eval`` given the measures of a context with a
        command of its own (:attr:`command`)."""
        return (f"{self.what} are not evaluated by irscale eval (their inputs are not qrels "
                f"and TREC runs): use {self.command}")


#: The options of an evaluation's outputs a context may read (:attr:`Context.reads`) besides
#: those of :func:`irscale.evaluate`, as the functions that take them name them: the run
#: the latex table tests against, or ndeval's ``-baseline`` run
#: (:meth:`~irscale.measures.results.Evaluation.format`'s ``baseline``), the latex table's
#: tests (``test``, ``correction``, ``alpha``), the diversity measures' α per topic
#: (:func:`~irscale.evaluation.diversity.evaluate_diversity`'s ``topic_alphas``), the
#: means' intervals (:meth:`~irscale.measures.results.Evaluation.intervals`, ``interval``),
#: the bounds under the unjudged documents (``bounds``:
#: :func:`irscale.collections.unjudged_bounds`), and the run files evaluated a batch at a
#: time (``batches``: :func:`irscale.evaluate_many`).
OUTPUT_OPTIONS = frozenset({"baseline", "test", "correction", "alpha", "topic_alphas",
                            "interval", "bounds", "batches"})
#: The options of :data:`OUTPUT_OPTIONS` that a runner reads itself (``irscale eval`` hands
#: them to a context that reads them, :func:`~irscale.evaluation.api.evaluate_by`); the
#: others are read by the outputs of its evaluations.
RUNNER_OPTIONS = frozenset({"topic_alphas"})
#: The declared contexts, in the order they are asked; :data:`DEFAULT` answers last.
CONTEXTS: dict[str, Context] = {}
#: The name of the context of a call no other context claims (judged rankings; the
#: manifest's ``DEFAULT_CONTEXT``, :data:`irscale.evaluation.context_manifest.DEFAULT`).
DEFAULT = "judged"


def register(context: Context) -> Context:
    """Declare ``context`` (a name declared twice is a :class:`ValueError`)."""
    if context.name in CONTEXTS:
        raise ValueError(f"evaluation context {context.name!r} declared twice")
    CONTEXTS[context.name] = context
    return context


def unregister(name: str) -> None:
    """Remove the context declared as ``name`` (a context declared for a while)."""
    del CONTEXTS[name]


class CatalogueContext(Context, abstract=True):
    """A context that evaluates the measures of one of the catalogue's contexts
    (:data:`irscale.core.contexts.CONTEXTS`) of the same :attr:`~Context.name`: it claims a
    call when every name is read by the one name parser in that catalogue
    (:func:`~irscale.measures.names.parse_name`), and not every name is one of trec_eval's
    or of the catalogue's rankings (which never loads another catalogue). A name of one of
    its families with a bad parameter or cut-off is claimed too, so that the context says
    what is wrong with it (not "unknown measure")."""

    def claims(self, qrels: Any, measures: Any, options: Mapping[str, Any]) -> bool:
        """Every name one of its catalogue's (see the class)."""
        names = measure_names(measures)
        if not names:
            return False
        from ..measures.names import is_measure_name, parse_name

        if all(map(is_measure_name, names)):
            return False
        try:
            for name in names:
                parse_name(name, self.name)
        except MeasureError:
            return all(_names_a_family(name, self.name) for name in names)
        return True


class RunnerContext(CatalogueContext, abstract=True):
    """A catalogue context whose measures read an input :func:`irscale.evaluate` does not
    take (support judgments, outputs' texts): evaluated, averaged over the topics, by a
    runner and a command of their own (:attr:`command`), which read ``allow_empty`` only;
    :meth:`run` refuses the call with :attr:`refused`, the message that names the
    runner."""

    reads = frozenset({"allow_empty"})
    averaging = "mean"
    #: The message of :meth:`run`: what the measures read, and the runner that reads it.
    refused: str

    def run(self, held: list[Any], measures: Any, **options: Any) -> NoReturn:
        """Refused (the class): the inputs are let go, the message names the runner."""
        held.clear()
        raise ParameterError(self.refused)


def _names_a_family(text: str, catalogue: str) -> bool:
    """Whether ``text`` names a family of the catalogue's context ``catalogue`` (its name
    before any parameters and cut-off, as the name parser reads it), right or not in the
    rest."""
    from ..measures.base import CATALOGUE
    from ..measures.names import find_family, split_name

    parts = split_name(text.strip().replace("\u266f", "#"))
    try:
        return parts is not None and find_family(CATALOGUE[catalogue], parts.name, catalogue,
                                                 text) is not None
    except MeasureError:  # a family's stem with a bad value after it (ROUGE-x)
        return True


def declared_data(context: Context, *, claims_trec_eval: bool = True) -> dict[str, Any]:
    """What the command line reads of ``context`` before loading it, as data (an entry of
    :data:`irscale._manifest.CONTEXTS`, :func:`irscale.evaluation.contexts.declaration`):
    its module, what it evaluates, the options it reads, its formats, own command, qrels
    form, examples and own output formats (the fields of :class:`Output`), whether it
    claims a call of trec_eval's measures (``claims_trec_eval``), and, where it makes a
    text straight from the files (:attr:`Context.text_by`) and reads run files, makes its
    text and refuses options by the defaults of :class:`Context` (``by_data``; None
    otherwise: the command line loads it), what the command line takes it as without its
    module
    (:class:`~irscale.evaluation.context_manifest.Declared`): why it refuses the options
    it does not read, its ranking of runs, its baseline, and the functions that read its
    named run files and make its text (:attr:`Context.named_runs_by`,
    :attr:`Context.text_by`)."""
    own = type(context)
    defaults = context.text_by is not None and all(
        getattr(own, method) is getattr(Context, method)
        for method in ("read_runs", "text", "refusal"))
    return {
        "module": own.__module__,
        "what": context.what,
        "reads": tuple(sorted(context.accepts)),
        "formats": context.formats,
        "command": context.command,
        "qrels_format": context.qrels_format,
        "examples": context.examples,
        "outputs": tuple({field.name: getattr(output, field.name) for field in fields(output)}
                         for output in context.outputs),
        "claims_trec_eval": claims_trec_eval,
        "by_data": {"why": context.why, "keep_rank": context.keep_rank,
                    "baseline_run": context.baseline_run, "text_by": context.text_by,
                    "named_runs_by": context.named_runs_by} if defaults else None,
    }


def take(held: list[Any]) -> tuple[Any, Any]:
    """The two inputs a runner is handed (``[qrels, runs]``, :func:`irscale.evaluate`),
    taken out of the list so that no frame but the runner's keeps them (memory)."""
    first, second = held
    held.clear()
    return first, second


__all__ = ["CONTEXTS", "DEFAULT", "OUTPUT_OPTIONS", "RUNNER_OPTIONS", "CatalogueContext",
           "Context", "Output", "RunnerContext", "declared_data", "measure_names",
           "refuse_unread", "register", "take", "unregister"]
