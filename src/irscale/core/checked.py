"""The domain a parameter's type hint carries: a check judged on entry by the API's edge
(:func:`irscale.core.hints.check_entry`), which a signature declares with the type
(``Annotated[T, Checked(check)]``) so that no body restates it."""

from __future__ import annotations

from collections.abc import Callable


class Checked:
    """The domain a parameter's type hint carries (``RngArg = Annotated[int | ... | None,
    Checked(check_rng, named=True)]``): the API's edge judges the argument on entry with
    the hint's own check (:func:`irscale.core.hints.check_entry`), None included, in its
    words, instead of the hint's type; ``named``: the check takes the parameter's name."""

    annotated = True

    def __init__(self, check: Callable[..., object], *, named: bool = False) -> None:
        self._check = check
        self._named = named

    def check(self, value: object, name: str) -> object:
        return self._check(value, name) if self._named else self._check(value)

    def __eq__(self, other: object) -> bool:  # (two declarations of one domain: one type)
        return isinstance(other, Checked) and (self._check, self._named) == \
            (other._check, other._named)

    def __hash__(self) -> int:
        return hash((self._check, self._named))

    def __repr__(self) -> str:  # (as a signature shows it: ``Checked(compat_option)``)
        return f"Checked({getattr(self._check, '__name__', self._check)})"
