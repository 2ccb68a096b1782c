"""Files of click models' parameters: the JSON object ``irscale online fit --format json``
writes (:meth:`irscale.online.ClickModel.to_json`), read and checked as text
(:func:`read_click_params`) before the model is built and pandas imported
(:meth:`irscale.online.ClickModel.from_json`; :mod:`irscale.io.pending`).

The object names its ``model`` and holds ``attractiveness`` (and, for some models,
``satisfaction``) as lists of ``[query, docno, value]`` rows; its other fields are numbers
or lists of numbers, checked with the model (:meth:`irscale.online.ClickModel.check`).
Errors name the file and what is wrong.

>>> read_click_params(b'{"model": "cm", "attractiveness": [["q", "d", 0.5]]}')["model"]
'cm'
"""

from __future__ import annotations

from typing import Any

from ..errors import InputFormatError
from .files import check_text, read_input
from .json_input import parse_json

#: The fields that hold ``[query, docno, value]`` rows.
PAIR_FIELDS = ("attractiveness", "satisfaction")
#: The fields a file must hold.
REQUIRED = ("model", "attractiveness")
#: What a JSON value that is not an object is called in a message.
_JSON_TYPES = {"list": "an array", "str": "a string", "int": "a number", "float": "a number",
               "bool": "a boolean", "NoneType": "null"}


def not_parameters(reason: str, source: str, line: int | None = None,
                   text: str | None = None) -> InputFormatError:
    """The error of a file that is not a click model's parameters, saying why (and where,
    given ``line`` and its ``text``)."""
    return InputFormatError(f"not a click model's parameters (irscale online fit --format "
                            f"json): {reason}", source=source, line=line, text=text)


def read_click_params(source: str | bytes) -> dict[str, Any]:
    """The JSON object of a click model's parameters (a path, ``-`` for standard input, or
    bytes), checked: UTF-8 text (an error names its first line that is not), JSON, an
    object with the :data:`REQUIRED` fields, :data:`PAIR_FIELDS` lists of
    ``[query, docno, value]`` rows."""
    name = source if isinstance(source, str) else "<json>"
    data = source if isinstance(source, bytes) else read_input(source)
    check_text(data, name)
    return click_params(data, name)


def click_params(text: str | bytes, source: str = "<json>") -> dict[str, Any]:
    """The JSON object of the text of a click model's parameters (UTF-8 bytes or a
    ``str``), checked as :func:`read_click_params` says; ``source`` names it in errors.
    The text is parsed within the bounds of :func:`irscale.io.json_input.parse_json`
    (nesting, integers of 64 bits): a fault names its line."""
    try:
        data = parse_json(text, source)
    except InputFormatError as error:
        raise not_parameters(error.reason, source, error.line, error.text) from None
    if not isinstance(data, dict):
        raise not_parameters(f"a JSON object is expected, the file holds "
                             f"{_JSON_TYPES.get(type(data).__name__, 'a value')}", source)
    missing = [name for name in REQUIRED if name not in data]
    if missing:
        raise not_parameters(f"no {missing[0]!r} field", source)
    for name in PAIR_FIELDS:
        rows = data.get(name)
        if rows is not None and (not isinstance(rows, list) or not all(
                isinstance(row, list) and len(row) == 3 for row in rows)):
            raise not_parameters(f"{name} must be a list of [query, docno, value] rows",
                                 source)
    return data


__all__ = ["PAIR_FIELDS", "REQUIRED", "click_params", "not_parameters", "read_click_params"]
