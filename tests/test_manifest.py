"""The manifest (``src/irscale/_manifest.py``): the declarations the command line reads at
start-up, as data, derived from the declarations themselves by ``tools/manifest.py``.

It is rendered again here from the declarations as they are and compared with the file: a
command, an evaluation context, a catalogue context or a family of trec_eval's declared
(or changed) without the manifest written again fails with the command that writes it. It
is a literal that imports nothing, and what reads it behaves as the declarations do: the
contexts' output formats and qrels forms, trec_eval's families in the order they register,
each loaded alone.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import irscale
from irscale import _manifest

ROOT = Path(__file__).resolve().parent.parent


def _generator() -> ModuleType:
    """``tools/manifest.py``, imported from its file."""
    spec = importlib.util.spec_from_file_location("irscale_manifest_tool",
                                                  ROOT / "tools" / "manifest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _stale(generator: ModuleType) -> str:
    return f"the manifest is stale: run {generator.COMMAND}"


def test_the_manifest_is_the_declarations():
    """The file is what the generator renders from the declarations now."""
    generator = _generator()
    text = Path(_manifest.__file__).read_text(encoding="utf-8")
    assert generator.TARGET == Path(_manifest.__file__).resolve()
    assert text == generator.render(), _stale(generator)


def test_a_context_declared_without_the_manifest_written_again_is_caught():
    """A context registered (here, for the test's time) but absent from the manifest makes
    the rendered manifest differ from the file: the test above fails, naming the command;
    meanwhile :func:`~irscale.evaluation.contexts.declarations` reads it from its instance,
    and a call of trec_eval's measures no longer skips the claims."""
    from irscale.evaluation.context import Context, register, unregister
    from irscale.evaluation.contexts import declarations, declared

    class Stray(Context):
        name = "stray"
        what = "stray measures"
        why = "they are a test's"
        reads = frozenset({"allow_empty"})
        averaging = "mean"

        def claims(self, qrels, measures, options):
            return measures == ["map"]

        def run(self, held, measures, **options):
            raise AssertionError("not run")

    declared()
    generator = _generator()
    register(Stray())
    try:
        assert generator.render() != Path(_manifest.__file__).read_text(encoding="utf-8")
        assert declarations()["stray"]["claims_trec_eval"] is True
        from irscale.evaluation.contexts import choose

        assert choose("qrels", ["map"], {}).name == "stray"  # asked, not skipped
    finally:
        unregister("stray")


def test_the_manifest_is_a_literal_that_imports_nothing():
    """Every statement of the file is an assignment of a literal (dicts, tuples, strings,
    numbers, booleans, None), annotated with builtin types: reading it runs no code and
    loads no module."""
    tree = ast.parse(Path(_manifest.__file__).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        assert isinstance(node, ast.AnnAssign) and node.value is not None, ast.dump(node)
        ast.literal_eval(node.value)


def test_the_contexts_outputs_and_forms_are_the_declared_ones():
    """What the command line reads from the manifest (the output formats, the qrels forms,
    what each context evaluates) is what each context declares."""
    from irscale.evaluation.contexts import declarations, declared, declared_outputs

    contexts = declared()
    assert list(_manifest.CONTEXTS) == [context.name for context in contexts]
    assert declared_outputs() == [output for context in contexts
                                  for output in context.outputs]
    for context in contexts:
        entry = declarations()[context.name]
        assert (entry["qrels_format"], entry["what"], entry["formats"]) == \
            (context.qrels_format, context.what, context.formats)


#: What :class:`~irscale.evaluation.context_manifest.Declared` reads of a context from the
#: manifest, as the context's attributes name it.
_DECLARED_ATTRIBUTES = ("name", "what", "why", "accepts", "keep_rank", "baseline_run",
                        "formats", "command", "qrels_format", "examples", "text_by",
                        "named_runs_by")


def test_the_contexts_as_the_manifest_declares_them_are_the_contexts():
    """Every field of each context's entry is what the context declares now
    (:func:`~irscale.evaluation.contexts.declaration`, its claim of trec_eval's measures
    asked), and a context the manifest holds whole (``by_data``) read from it alone
    (:class:`~irscale.evaluation.context_manifest.Declared`) has the context's attributes,
    reads run files and makes its text by the same functions, and refuses an option in the
    same words; the default context is one (the command line takes it so)."""
    from irscale.evaluation.context_manifest import DEFAULT, Declared
    from irscale.evaluation.contexts import declaration, declared

    assert _manifest.DEFAULT_CONTEXT == DEFAULT
    for context in declared():
        entry = _manifest.CONTEXTS[context.name]
        for field, value in declaration(context, probe=True).items():
            assert entry[field] == value, (context.name, field)
        assert set(entry) == set(declaration(context)), context.name
        if entry["by_data"] is None:
            continue
        light = Declared(context.name)
        assert {a: getattr(light, a) for a in _DECLARED_ATTRIBUTES} == \
            {a: getattr(context, a) for a in _DECLARED_ATTRIBUTES}, context.name
        assert light.refusal("-J") == context.refusal("-J")
        assert light.loaded() is context
        for reference in (light.text_by, light.named_runs_by):  # functions that exist
            module, _, name = (reference or "").partition(":")
            assert reference is None or callable(
                getattr(importlib.import_module(module), name, None)), reference
    assert _manifest.CONTEXTS[DEFAULT]["by_data"] is not None


@pytest.mark.parametrize("method", ["text", "read_runs", "refusal"])
def test_a_context_that_reads_otherwise_than_its_data_is_not_taken_from_the_manifest(
        monkeypatch, method):
    """A context whose text, reading of run files or refusal is a method of its own is not
    held whole by the manifest (``by_data`` None): its declaration says so, and the
    manifest written before then disagrees with it (the test above fails)."""
    from irscale.evaluation.contexts import declaration, load

    judged = load("judged")
    monkeypatch.setattr(type(judged), method, lambda self, *a, **o: None, raising=False)
    assert declaration(judged, probe=True)["by_data"] is None
    assert declaration(judged, probe=True) != _manifest.CONTEXTS["judged"]


@pytest.mark.parametrize("attribute", ["why", "keep_rank", "text_by", "named_runs_by"])
def test_a_context_changed_without_the_manifest_written_again_disagrees(monkeypatch,
                                                                        attribute):
    """A declaration the command line reads from the manifest, changed on the context
    (here for the test's time), makes its declaration and the manifest's data differ."""
    from irscale.evaluation.contexts import declaration, load

    judged = load("judged")
    changed = {"why": "other", "keep_rank": True, "text_by": "irscale.x:y",
               "named_runs_by": None}[attribute]
    monkeypatch.setattr(type(judged), attribute, changed)
    assert declaration(judged, probe=True)["by_data"] != _manifest.CONTEXTS["judged"]["by_data"]


#: In a fresh interpreter: the names of trec_eval's families read before any is loaded, the
#: modules each of ``-m map``'s and ``-m P_10``'s reading and plan load, then every family.
_FRESH = """
import json, sys
from irscale.measures.base import TREC_FAMILIES
from irscale.measures.base import EvalContext
from irscale.measures.names import parse_measures
from irscale.measures.plan import plan_trec
names = list(TREC_FAMILIES)
loaded = lambda: sorted(m for m in sys.modules if m.startswith("irscale.measures.trec."))
plan_trec(parse_measures(["map"]), EvalContext())
first = loaded()
plan_trec(parse_measures(["P_10"]), EvalContext())
second = loaded()
import irscale.measures.trec as trec
trec.register_all()
print(json.dumps({"names": names, "first": first, "second": second,
                  "after": list(TREC_FAMILIES), "registered": sorted(dict.keys(TREC_FAMILIES))}))
"""


def test_trec_eval_families_load_one_module_at_a_time():
    """trec_eval's families are known by name before any is loaded (in the order the
    package registers them, the manifest's), and reading and planning a name loads the
    module of its family alone; once every family is registered, they are listed in that
    order still, whichever was read first."""
    done = subprocess.run([sys.executable, "-c", _FRESH], capture_output=True, text=True,
                          timeout=300, check=True)
    report = json.loads(done.stdout)
    assert report["names"] == list(_manifest.TREC_FAMILIES) == report["after"]
    assert report["registered"] == sorted(_manifest.TREC_FAMILIES)
    assert report["first"] == ["irscale.measures.trec.average_precision"]
    assert report["second"] == ["irscale.measures.trec.average_precision",
                                "irscale.measures.trec.precision"]


@pytest.mark.parametrize("argv", [["-m", "map"], [], ["-q", "-m", "P.5,10", "-m", "ndcg_cut_10"],
                                  ["-c", "-J", "-M", "1", "-l", "2", "-m", "all_trec"]],
                         ids=["map", "official", "cut-offs", "options"])
def test_eval_of_trec_eval_measures_loads_no_context(tmp_path, argv):
    """``irscale eval`` of trec_eval's measures of TREC files imports no context's module:
    the one that evaluates them is taken as the manifest declares it
    (:class:`~irscale.evaluation.context_manifest.Declared`), its text straight from the
    files made by the function it names."""
    (tmp_path / "qrels").write_text("1 0 d1 1\n1 0 d2 0\n")
    (tmp_path / "run").write_text("1 Q0 d1 1 2 r\n1 Q0 d2 2 1 r\n")
    code = ("import json, sys\nfrom irscale.cli.main import main\n"
            f"status = main({[*['eval'], *argv, 'qrels', 'run']!r})\n"
            "print(json.dumps([status, sorted(m for m in sys.modules "
            "if m.startswith('irscale.evaluation.context'))]))")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, check=True)
    status, loaded = json.loads(done.stdout.splitlines()[-1])
    assert (status, loaded) == (0, ["irscale.evaluation.context_manifest"]), done.stderr


def test_the_manifest_names_modules_that_exist():
    """Every module the manifest names is one of irscale's."""
    modules = [*_manifest.COMMANDS.values(), *_manifest.TREC_FAMILIES.values(),
               *(entry["module"] for entry in _manifest.CONTEXTS.values())]
    for module in modules:
        assert importlib.util.find_spec(module) is not None, module
    assert irscale.__name__ == "irscale"


def test_the_parser_data_are_the_declarations():
    """The values the parser of ``eval`` reads from the manifest are those of the modules
    it does not load at start-up: ``--names``' keywords (:data:`irscale.io.naming.NAME_MODES`),
    which ``eval``'s option offers as declared."""
    from irscale.cli.main import build_parser
    from irscale.io.naming import NAME_MODES

    assert _manifest.PARSER_DATA == {"name_modes": NAME_MODES}
    chosen = build_parser(argv=["eval", "q", "r"])._subparsers._group_actions[0].choices["eval"]
    names = next(action for action in chosen._actions if action.dest == "names")
    assert names.keywords == NAME_MODES, vars(names)


@pytest.mark.parametrize("columns", ["20", "52", "80", "131", "300"])
@pytest.mark.parametrize("asked", ["--help", "-h"])
def test_a_help_from_the_manifest_is_the_declared_help(monkeypatch, capsys, columns, asked):
    """``irscale eval --help`` (and ``-h``) alone builds ``eval``'s parser from the
    manifest (:data:`irscale._manifest.HELP`, :func:`irscale.cli.parser.parser_of_help`):
    its text is, at every width, that of the parser built from the declarations."""
    from irscale.cli.main import build_parser, main

    monkeypatch.setenv("COLUMNS", columns)
    for command in _manifest.HELP:
        with pytest.raises(SystemExit) as stop:
            main([command, asked])
        assert stop.value.code == 0
        shown = capsys.readouterr().out
        declared = build_parser(command)._subparsers._group_actions[0].choices[command]
        assert shown == declared.format_help()
        # with any other argument, the parser is built from the declarations
        assert build_parser(argv=[command, asked, "x"])._subparsers._group_actions[0] \
            .choices[command].format_help() == shown


def test_the_rules_a_binding_refuses_are_the_bindings():
    """:data:`irscale._manifest.BINDING_REFUSES` lists, for each binding a command names,
    the options its command-line rules refuse (each rule refusing only options given):
    a command line that gives none of them passes every rule of the binding, whatever the
    options the rules read (``-R``, ``--compat``, ``--labels``), so that it is checked
    without loading the binding (:class:`irscale.cli.rules.LaterBinding`); one that gives
    one of them is checked by the binding's rules."""
    from irscale.cli.main import build_parser
    from irscale.cli.rules import (
        RULES,
        LaterBinding,
        Rule,
        binding_rules,
        check_rule,
        may_refuse,
        named_binding,
    )

    generator = _generator()
    assert set(_manifest.BINDING_REFUSES) == set(generator.NAMED_BINDINGS)
    for name, refused in _manifest.BINDING_REFUSES.items():
        rules = binding_rules(named_binding(name))
        assert all(isinstance(rule, Rule) for rule in rules) == (refused is not None)
        assert set(refused or ()) == {dest for rule in rules for dest in rule.dests}
    chosen = build_parser(argv=["eval", "q", "r"])._subparsers._group_actions[0].choices
    later = [rule for rule in chosen["eval"].get_default(RULES)
             if isinstance(rule, LaterBinding)]
    assert [rule.name for rule in later] == list(_manifest.BINDING_REFUSES)
    rules = binding_rules(named_binding(later[0].name))
    for options, skipped in [([], True), (["-R", "prefs", "--compat", "10"], True),
                             (["--labels", "u=q"], True), (["-Z", "z"], False),
                             (["--dataset", "d"], False)]:
        parser = build_parser(argv=["eval", *options, "q", "r"])
        args = parser.parse_args(["eval", *options, "q", "r"])
        assert may_refuse(later[0].name, args) is not skipped, options
        if skipped:  # every rule of the binding passes it
            for rule in rules:
                check_rule(rule, args)


#: Command lines of ``eval`` on trec_eval's path (:mod:`irscale.cli.eval_path`): each
#: option of :data:`irscale._manifest.EVAL_PATH`, in each of its spellings, and values at
#: the ends of their ranges.
ON_THE_PATH = [
    [], ["-q"], ["--per-query"], ["-n"], ["--no-summary"], ["-J"], ["--judged-only"],
    ["-c"], ["--complete"], ["-m", "map"], ["--measure", "map", "-m", "P.5,10"],
    ["-m", "all_trec", "-q", "-c", "-J"], ["-M", "1"], ["--max-retrieved", "10"],
    ["-M", str(2**63 - 1)], ["-l", "2"], ["--relevance-level", "1"], ["--level-for-rel", "3"],
    ["-N", "0"], ["--num-docs-in-coll", "5"], ["--compat", "9"], ["--compat", "10"],
    *(["--ties", policy] for policy in ("trec_eval", "file-order", "rank-column", "expected")),
    ["-m", "P@5", "-m", "nDCG@10"], ["-m", "uRBP(p=0.8)"],
]
#: Command lines it leaves to the parser built from the declarations, each for a reason
#: (a value that parser reads its own way or refuses, an option given twice or of another
#: path, another form of a word, an input for an optional package or standing for several).
OFF_THE_PATH = [
    ["-M", "010"], ["-M", "+5"], ["-M", "0"], ["-M", "-1"], ["-M", str(2**63)], ["-l", "0"],
    ["--compat", "11"], ["--ties", "random"], ["-M", "5", "-M", "6"], ["-q", "-q"],
    ["-qJ"], ["-M5"], ["--max-retrieved=5"], ["--per"], ["-m"], ["-m", "-q"], ["--"],
    ["--format", "csv"], ["-R", "prefs"], ["-o", "out"], ["--dataset", "d"], ["-h"],
    ["--cache", "c"], ["--batch-size", "1"], ["--labels", "u=l"], ["-Z", "z"],
]


def _declared(argv: list[str]) -> dict:
    """The namespace ``eval``'s parser built from the declarations makes of ``argv``, once
    checked (:func:`irscale.cli.main._check`), without its rules and run."""
    from irscale.cli.main import _check, build_parser

    parser = build_parser(argv=argv)
    args = parser.parse_args(argv)
    _check(args, parser)
    return vars(args)


def _fields(namespace: dict) -> dict:
    """``namespace`` without its rules and run, its record of what was given as its fields."""
    from irscale.cli.given import GIVEN

    fields = {key: value for key, value in namespace.items()
              if key not in (GIVEN, "_rules", "func")}
    fields[GIVEN] = vars(namespace[GIVEN])
    return fields


@pytest.mark.parametrize("options", ON_THE_PATH, ids=" ".join)
def test_the_trec_eval_path_parses_as_the_declared_parser(tmp_path, monkeypatch, options):
    """:func:`irscale.cli.eval_path.parse` makes of a command line of trec_eval's options
    the namespace the parser built from the declarations makes and checks (every value, the
    record of what was given, the context of the call), with the options before, after and
    around the positional arguments."""
    from irscale.cli import eval_path

    monkeypatch.chdir(tmp_path)
    (tmp_path / "qrels").write_text("1 0 d1 1\n")
    (tmp_path / "run").write_text("1 Q0 d1 1 1 r\n")
    (tmp_path / "run2").write_text("1 Q0 d1 1 1 s\n")
    for argv in (["eval", "qrels", "run", *options], ["eval", *options, "qrels", "run", "run2"]):
        parsed = eval_path.parse(argv)
        assert parsed is not None, argv
        assert parsed.func is eval_path.run
        assert _fields(vars(parsed)) == _fields(_declared(argv)), argv


@pytest.mark.parametrize("options", OFF_THE_PATH, ids=" ".join)
def test_the_trec_eval_path_leaves_the_rest_to_the_declared_parser(tmp_path, monkeypatch,
                                                                   options):
    """A command line beyond trec_eval's path is not parsed from the manifest's data: the
    parser built from the declarations parses, checks and reports it, as before."""
    from irscale.cli import eval_path

    monkeypatch.chdir(tmp_path)
    assert eval_path.parse(["eval", "qrels", "run", *options]) is None


@pytest.mark.parametrize("inputs", [
    ["-", "run"], ["qrels", "-"], ["irds:msmarco-passage/dev", "run"], ["qrels", "run.parquet"],
    ["qrels", "runs"], ["qrels", "r*.txt"], ["qrels", "run", "-q", "run2"], ["qrels"],
], ids=" ".join)
def test_the_trec_eval_path_leaves_inputs_beyond_files_to_the_declared_parser(
        tmp_path, monkeypatch, inputs):
    """Standard input, a folder or a glob pattern of runs, an input that needs an optional
    package (its declared requirement: Parquet, ir_datasets), positional arguments split
    by an option or missing: the declared parser's."""
    from irscale.cli import eval_path

    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").mkdir()
    assert eval_path.parse(["eval", *inputs]) is None


def test_the_trec_eval_path_reads_the_declared_requirements():
    """The inputs :func:`irscale.cli.eval_path.parse` leaves to the declared parser for an
    optional package are those QRELS and RUN declare (:mod:`irscale.core.extras`)."""
    from irscale.cli.common_params import QRELS, RUNS
    from irscale.core.extras import IRDS_INPUT, RUN_INPUTS

    assert QRELS.requires == (IRDS_INPUT,)
    assert RUNS.requires == RUN_INPUTS


def test_a_command_line_the_trec_eval_path_refuses_is_the_declared_parsers(tmp_path,
                                                                         monkeypatch):
    """A rule of ``eval`` that refuses a command line of trec_eval's options (here a mix
    of a context's measures and others) leaves it to the declared parser, which reports it
    as before."""
    from irscale.cli import eval_path
    from irscale.errors import IrscaleError

    monkeypatch.chdir(tmp_path)
    argv = ["eval", "qrels", "run", "-m", "alpha-nDCG@20", "-m", "map"]
    assert eval_path.parse(argv) is None
    with pytest.raises(IrscaleError):
        _declared(argv)


#: Names of trec_eval's families in every spelling the plain path reads, and beside them
#: the spellings it leaves to the catalogue (bad cut-offs, other parameters, irscale's and
#: ir_measures' names, the nicknames of ``-R qrels_jg``, unknown names).
def _spellings() -> list[str]:
    names = ["official", "all_trec", "set", "qrels_jg", "P@10", "nDCG@10", "mapp", "P.x",
             "P.5,map", "P.0", "P.05", "P.5,5", "P.10,5", "P_0", "P_5,10", "map.5",
             "iprec_at_recall_0.10", "iprec_at_recall.0.1", "Rprec_mult.0.5", "P_avgjg",
             "P_avgjg.5", "utility.2,-1,0,0", "rbp.95", "ndcg.1=3", "P. 5", " map", "",
             "ntcir:map", "P_" + "9" * 20, "P." + "9" * 19, "P.9223372036854775807"]
    for family in _manifest.TREC_FAMILIES:
        names += [family, f"{family}.5,10", f"{family}.7", f"{family}_10", f"{family}_1.5"]
    return names


def _catalogue(callable_, *args):
    """What ``callable_`` answers, or the type and message of its error."""
    from irscale.errors import IrscaleError

    try:
        return callable_(*args)
    except IrscaleError as error:
        return type(error).__name__, str(error)


def test_the_plain_names_data_are_the_catalogues():
    """The manifest's data of trec_eval's plain names (``TREC_PLAIN``) is what the catalogue
    declares now: a family whose declaration changes (here its default cut-offs) makes the
    rendered manifest differ from the file, so that the test above names the command."""
    from irscale.measures.base import TREC_FAMILIES, Cutoffs
    from irscale.measures.trec_plain import AGGREGATE, CUTOFFS

    generator = _generator()
    assert _manifest.TREC_PLAIN == generator._trec_plain()
    fields = _manifest.TREC_PLAIN["fields"]
    assert (fields.index("cutoffs"), fields.index("aggregate")) == (CUTOFFS, AGGREGATE)
    family = TREC_FAMILIES["P"]
    original = family.params
    object.__setattr__(family, "params", Cutoffs(5, 10))
    try:
        assert generator._trec_plain()["families"]["P"][0] == (5, 10)
        assert _manifest.TREC_PLAIN != generator._trec_plain()
    finally:
        object.__setattr__(family, "params", original)
    assert _manifest.TREC_PLAIN == generator._trec_plain()


@pytest.mark.parametrize("compat", [9, 10])
def test_a_plain_name_is_read_and_planned_as_the_catalogue_reads_and_plans_it(compat):
    """Every name the plain path reads (:mod:`irscale.measures.trec_plain`) gives the
    catalogue's requests (family, parameters, spelling), its reading as trec_eval's
    (:func:`~irscale.measures.trec_reading.trec_eval_reading`), whether it is trec_eval's
    name, and its plan; a name it does not read is one the catalogue reads otherwise or
    refuses (then its message is the catalogue's, made on its route)."""
    from irscale.measures.engine_calls import EvalContext
    from irscale.measures.names import parse_measures
    from irscale.measures.plan import plan_trec
    from irscale.measures.trec_plain import plain_plan, plain_reading, plain_request
    from irscale.measures.trec_reading import is_trec_eval_name, trec_eval_reading

    plain = 0
    for name in _spellings():
        found = plain_request(name, compat)
        if found is None:
            continue
        plain += 1
        requests = parse_measures([name], compat=compat)
        assert [(r.family, r.params, r.requested) for r in found] == \
            [(r.family, r.params, r.requested) for r in requests], name
        assert all(r.relevance_level is None and r.cutoff is None and not r.condensed
                   and not r.conditional for r in requests), name
        assert is_trec_eval_name(name), name
        for n in (0, 1000):
            context = EvalContext(compat=compat, num_docs_in_coll=n)
            planned = plain_plan(found, compat, n)
            assert planned is None or planned == plan_trec(requests, context), (name, n)
    assert plain > 60
    groups = [["P", "map", "P.7", "P.5"], ["official", "P.7", "map_cut_5"],
              ["all_trec", "P.5", "P.7", "success_1"], ["set", "utility"],
              ["map", "P.5,10", "ndcg_cut.10", "P_10"], ["runid", "num_q", "runid"],
              ["all_trec", "relstring", "P_5", "recall.7,9"], ["official", "P@10"]]
    for names in groups:
        for per_query in (False, True):
            read = plain_reading(names, compat, per_query)
            if read is None:
                continue
            import irscale.measures.trec_reading as reading

            original = reading.plain_reading
            reading.plain_reading = lambda *_: None  # the catalogue's route
            try:
                assert read == trec_eval_reading(names, compat=compat, per_query=per_query)
            finally:
                reading.plain_reading = original
            requests = parse_measures(read, compat=compat)
            from irscale.measures.trec_plain import plain_requests

            assert plain_plan(plain_requests(read, compat), compat, 0) == \
                plan_trec(requests, EvalContext(compat=compat)), names


@pytest.mark.parametrize("name", ["P@10", "mapp", "P.x", "P.5,map", "P.05", "P.5,5", "map.5",
                                  "qrels_jg", "P_avgjg", "iprec_at_recall_0.10", "", " map",
                                  "P. 5", "rbp.95", "P." + "9" * 19])
def test_a_name_the_plain_path_leaves_is_the_catalogues(name):
    """A name the plain path does not read goes to the catalogue, which reads it or
    refuses it with its message (the plain path makes none)."""
    from irscale.measures.trec_plain import plain_reading, plain_request

    assert plain_request(name, 9) is None and plain_reading(["map", name], 9, False) is None
