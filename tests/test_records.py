"""Records (:mod:`irscale.core.records`) behave as frozen dataclasses: the oracle is
:mod:`dataclasses` itself, given the same class bodies (fields, defaults, factories,
``init=False``, ``repr=False``, ``compare=False``, inheritance, ``ClassVar``,
``__post_init__``, methods of the class's own), compared on construction (values and
errors), equality, hashes, ``repr``, ``fields``, ``replace``, freezing and pickling."""

from __future__ import annotations

import dataclasses
import pickle
from typing import ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from irscale.core import records
from irscale.core.records import FrozenRecordError, field, record


def pair(body: str, *, eq: bool = True, bases: str = "") -> tuple[type, type]:
    """The class ``body`` made a frozen dataclass and a record (same name, same body)."""
    made = []
    for kind in ("dataclass", "record"):
        namespace = {"dataclasses": dataclasses, "record": record, "field": field,
                     "dfield": dataclasses.field, "ClassVar": ClassVar,
                     "__name__": __name__}  # (dataclasses finds ClassVar there)
        decorator = (f"@dataclasses.dataclass(frozen=True, eq={eq})" if kind == "dataclass"
                     else f"@record(eq={eq})")
        text = body.replace("FIELD(", "dfield(" if kind == "dataclass" else "field(")
        exec(f"from __future__ import annotations\n{decorator}\nclass C{bases}:\n{text}",
             namespace)
        made.append(namespace["C"])
    return made[0], made[1]


def outcome(make, *args, **kwargs):
    """What ``make(*args, **kwargs)`` gives: its fields, or the error's type and text (the
    class name aside)."""
    try:
        value = make(*args, **kwargs)
    except TypeError as error:
        return ("TypeError", str(error).replace("C.__init__", "__init__"))
    return tuple((f.name, getattr(value, f.name)) for f in
                 (dataclasses.fields(value) if dataclasses.is_dataclass(value)
                  else records.fields(value)))


BODY = """
    a: int
    b: str = "x"
    c: list = FIELD(default_factory=list, compare=False)
    d: float = FIELD(default=1.5, repr=False)
    e: int = FIELD(default=0, compare=False)
    kind: ClassVar[str] = "k"
"""


@given(args=st.lists(st.integers(), max_size=3),
       kwargs=st.dictionaries(st.sampled_from(["a", "b", "d", "e", "z"]), st.integers(),
                              max_size=3))
def test_construction_as_dataclasses(args, kwargs):
    data, rec = pair(BODY)
    assert outcome(rec, *args, **kwargs) == outcome(data, *args, **kwargs)


@given(st.lists(st.tuples(st.integers(0, 2), st.sampled_from(["x", "y"]),
                          st.integers(0, 2)), min_size=2, max_size=2))
def test_equality_hash_repr_as_dataclasses(values):
    data, rec = pair(BODY)
    (a1, b1, e1), (a2, b2, e2) = values
    d1, d2 = data(a1, b1, e=e1), data(a2, b2, e=e2)
    r1, r2 = rec(a1, b1, e=e1), rec(a2, b2, e=e2)
    assert (r1 == r2) == (d1 == d2)
    assert (hash(r1) == hash(r2)) == (hash(d1) == hash(d2)) or d1 != d2
    assert repr(r1) == repr(d1)
    assert r1 != d1 and (r1 == object()) is False


def test_identity_equality():
    data, rec = pair("    a: int\n", eq=False)
    assert rec(1) != rec(1) and data(1) != data(1)
    one = rec(1)
    assert one == one and hash(one) == object.__hash__(one)


def test_frozen():
    _, rec = pair(BODY)
    value = rec(1)
    with pytest.raises(FrozenRecordError):
        value.a = 2
    with pytest.raises(AttributeError):
        del value.b
    assert value.a == 1


def test_fields_defaults_and_class_attributes():
    data, rec = pair(BODY)
    assert [f.name for f in records.fields(rec)] == [f.name for f in dataclasses.fields(data)]
    assert rec.b == data.b == "x" and rec.kind == "k"
    assert not hasattr(rec, "c") and not hasattr(data, "c")
    assert rec(1).c is not rec(1).c  # a factory per instance


def test_replace():
    data, rec = pair(BODY)
    assert outcome(lambda: records.replace(rec(1, c=[2]), b="y", e=3)) == \
        outcome(lambda: dataclasses.replace(data(1, c=[2]), b="y", e=3))
    with pytest.raises(TypeError):
        records.replace(rec(1), z=1)
    with pytest.raises(TypeError, match="record"):
        records.fields(object())


def test_inheritance_post_init_and_own_methods():
    body = ("    a: int\n    b: int = 2\n"
            "    def __post_init__(self):\n"
            "        object.__setattr__(self, 'total', self.a + self.b)\n"
            "    def __repr__(self):\n        return 'mine'\n")
    data, rec = pair(body)
    assert rec(1).total == data(1).total == 3 and repr(rec(1)) == repr(data(1)) == "mine"

    @record
    class Base:
        a: int
        b: int = 2

    @record
    class Child(Base):
        c: int = 3
        a: int = 1  # a field written again keeps its place

    assert [f.name for f in records.fields(Child)] == ["a", "b", "c"]
    assert Child() == Child(1, 2, 3) and Child() != Base(1, 2)

    @record(init=False)
    class Own:
        a: int

        def __init__(self, text: str) -> None:
            object.__setattr__(self, "a", int(text))

    assert Own("4") == Own("4") and Own("4").a == 4 and repr(Own("4")).endswith(".Own(a=4)")


def test_a_default_before_a_required_field_is_refused():
    with pytest.raises(TypeError, match="non-default argument 'b'"):
        pair("    a: int = 1\n    b: int\n")


def test_pickle():
    value = Picklable(1, (2,))
    assert pickle.loads(pickle.dumps(value)) == value


@record
class Picklable:
    a: int
    b: tuple = ()
