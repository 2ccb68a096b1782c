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

import json
from typing import Any

from ..errors import InputFormatError
from .files import check_text, read_input

#: The fields that hold ``[query, docno, value]`` rows.
PAIR_FIELDS = ("attractiveness", "satisfaction")
#: The fields a file must hold.
REQUIRED = ("model", "attractiveness")
#: What a JSON value that is not an object is called in a message.
_JSON_TYPES = {"list": "an array", "str": "a string", "int": "a number", "float": "a number",
               "bool": "a boolean", "NoneType": "null"}


def not_parameters(reason: str, source: str) -> InputFormatError:
    """The error of a file that is not a click model's parameters, saying why."""
    return InputFormatError(f"not a click model's parameters (irscale online fit --format "
                            f"json): {reason}", source=source)


def read_click_params(source: str | bytes) -> dict[str, Any]:
    """The JSON object of a click model's parameters (a path, ``-`` for standard input, or
    bytes), checked: UTF-8 text (an error names its first line that is not), JSON, an
    object with the :data:`REQUIRED` fields, :data:`PAIR_FIELDS` lists of
    ``[query, docno, value]`` rows."""
    name = source if isinstance(source, str) else "<json>"
    data = source if isinstance(source, bytes) else read_input(source)
    check_text(data, name)
    return click_params(data.decode("utf-8"), name)


def click_params(text: str, source: str = "<json>") -> dict[str, Any]:
    """The JSON object of the text of a click model's parameters, checked as
    :func:`read_click_params` says; ``source`` names it in errors."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise not_parameters(str(error), source) from None
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
