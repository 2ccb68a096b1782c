"""The names of type annotations read as their modules write them: an annotation's text
parsed (``from __future__ import annotations`` keeps annotations as text), a name resolved
in its module, in :mod:`typing`, :mod:`collections.abc` and the builtins, or among the
names its module imports for type checkers only (``if TYPE_CHECKING:``), imported then.
Read by :mod:`irscale.core.hints` (the declared types judged on entry)."""

from __future__ import annotations

import builtins
import collections.abc
import functools
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import ast
    from typing import Any

#: Module aliases the annotations use (``pd.DataFrame``, ``np.ndarray``).
ALIASES = {"pd": "pandas", "np": "numpy", "npt": "numpy.typing"}
#: What a name that stands for nothing resolves to.
MISSING = object()


@functools.lru_cache(maxsize=1024)
def parsed(text: str) -> ast.expr:
    """The parsed annotation ``text`` (parsed once: judged at every call)."""
    import ast

    return ast.parse(text, mode="eval").body


def resolve(node: ast.expr, namespace: dict[str, Any]) -> Any:
    """The object a name or dotted name of an annotation stands for, or :data:`MISSING`."""
    import ast
    import typing

    if isinstance(node, ast.Name):
        for scope in (namespace, vars(typing), vars(collections.abc), vars(builtins)):
            if node.id in scope:
                return scope[node.id]
        if node.id in ALIASES:
            return sys.modules.get(ALIASES[node.id], MISSING)
        return MISSING
    if isinstance(node, ast.Attribute):
        base = resolve(node.value, namespace)
        return MISSING if base is MISSING else getattr(base, node.attr, MISSING)
    return MISSING


@functools.cache
def checking_imports(module_name: str) -> dict[str, Any]:
    """The names a module imports under ``if TYPE_CHECKING:``, imported now."""
    import ast
    import importlib
    import inspect

    module = sys.modules.get(module_name)
    try:
        tree = ast.parse(inspect.getsource(module))  # type: ignore[arg-type]
    except (OSError, TypeError, SyntaxError):
        return {}
    found: dict[str, Any] = {}
    for node in tree.body:
        if not (isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)):
            continue
        for statement in node.body:
            if not isinstance(statement, ast.ImportFrom):
                continue
            source = "." * statement.level + (statement.module or "")
            try:
                imported = importlib.import_module(source, module.__package__)  # type: ignore[union-attr]
            except ImportError:
                continue
            for alias in statement.names:
                value = getattr(imported, alias.name, MISSING)
                if value is not MISSING:
                    found[alias.asname or alias.name] = value
    return found


def without_none(node: ast.expr) -> tuple[ast.expr, bool]:
    """A parsed annotation without its ``| None`` (``MeasureNames | None``), and whether
    it had one."""
    import ast

    optional = False
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr) and \
            isinstance(node.right, ast.Constant) and node.right.value is None:
        node, optional = node.left, True
    return node, optional


def alias(name: str, namespace: dict[str, Any]) -> Any:
    """The object a name of an annotation stands for (``DuplicatePolicy``), also where its
    module imports it for type checkers only; None if it names nothing."""
    import ast

    target = resolve(ast.Name(id=name), namespace)
    if target is MISSING:
        return checking_imports(namespace.get("__name__", "")).get(name)
    return target
