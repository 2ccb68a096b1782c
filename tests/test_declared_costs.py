"""Every number an option takes says whether it scales work (``docs/errors.md`` §7).

An option whose domain holds large numbers (integers beyond :data:`LARGE`, or without an
upper bound) declares its parameter's cost: a :class:`~irscale.core.params.Cost` (its units
and how the work grows, swept at 10^6 times its usual value by
``tests/faults/test_work_sweep_faults.py``), or :data:`~irscale.core.params.NO_WORK` (the
value changes what is computed, not how much: a relevance level, a seed, a cap). A new
option declared with neither fails here, naming what to declare: a naive command that loops
over its own ``--samples`` cannot be silent on 10^9 of them unnoticed.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import irscale
from irscale.cli.main import build_parser
from irscale.core.params import Integers, Listed

#: Integers beyond this are numbers a loop could run over for minutes.
LARGE = 10_000


def _options() -> list[tuple[str, str, object]]:
    """``(command, option, param)`` of every option of every command."""
    found: list[tuple[str, str, object]] = []
    stack = [((), build_parser())]
    while stack:
        words, parser = stack.pop()
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                stack.extend(((*words, name), sub) for name, sub in action.choices.items())
            param = getattr(action, "irscale_param", None)
            if param is not None:
                found.append((" ".join(words), "/".join(action.option_strings) or action.dest,
                              param))
    return found


def test_every_large_number_declares_its_cost():
    silent = []
    for command, option, param in _options():
        domain = param.domain.domain if isinstance(param.domain, Listed) else param.domain
        if isinstance(domain, Integers) and (domain.high is None or domain.high > LARGE) \
                and param.cost is None:
            silent.append(f"irscale {command} {option} ({param.name})")
    assert not silent, (
        "these options take large numbers and declare no cost: give their Param "
        "cost=Cost(units, grows, per) if the work grows with the value (then docs/errors.md "
        "§7 names it), or cost=NO_WORK if it does not:\n" + "\n".join(sorted(set(silent))))


#: The modules that keep the one mechanism: they alone estimate, refuse and announce.
MECHANISM = ("core/progress.py", "core/budget.py")
#: Calls that estimate, refuse or announce work by hand, with a message of their own.
HAND_CALLS = re.compile(r"\b(check_memory|announce_rest)\(")


def test_work_is_estimated_from_declarations_only():
    """The memory of work is refused, and its rest announced, from the declared costs of its
    parameters (``core.progress.counted_work``, ``core.progress.declared_memory``), never by
    a call of the mechanism's primitives written beside the loop, whose message and units
    nothing declares."""
    root = Path(irscale.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root).as_posix()
        if name in MECHANISM:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if HAND_CALLS.search(line) and not line.lstrip().startswith(("def ", "#")):
                found.append(f"src/irscale/{name}:{number}: {line.strip()}")
    assert not found, (
        "work estimated by hand: declare the cost on the parameter (or the input) that "
        "sizes it (Param(..., cost=Cost(units, grows, per))) and call "
        "core.progress.counted_work(PARAM, count, ...) or core.progress.declared_memory("
        "PARAMS, need, ...):\n" + "\n".join(found))
