"""The ``test`` extra (pyproject.toml) holds what the suite uses and nothing more: every
package of it is imported by some test (``import``, ``pytest.importorskip``,
``lazy_import``) or, where the suite uses it otherwise, is in :data:`USED_OTHERWISE` with
how. The README says what the extra brings and why; an unused package would cost every
contributor its download (the extra installs about 1.5 GB)."""

from __future__ import annotations

import re
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Packages of the extra that no test imports, and how the suite uses them.
USED_OTHERWISE = {
    "pytest-xdist": "the README's and CI's test command runs the suite on every core (-n)",
    "pandas-stubs": "the types of pandas that mypy reads (tests/test_typing.py)",
    "attrs": "imported by crowd-kit, installed with --no-deps (tests/test_collections_label*)",
    "tqdm": "imported by crowd-kit, installed with --no-deps (tests/test_collections_label*)",
}
#: Module names some distributions install besides their own, too common to look for.
_GENERIC = {"test", "tests", "examples", "py"}


def _normal(name: str) -> str:
    """A distribution's name as the packaging standards compare them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _extras() -> dict[str, list[str]]:
    """The optional dependencies of pyproject.toml, by extra: the names of the packages."""
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {extra: [re.split(r"[<>=!~\[ ;]", requirement, maxsplit=1)[0]
                    for requirement in requirements]
            for extra, requirements in config["project"]["optional-dependencies"].items()}


def _modules(package: str, installed: dict[str, list[str]]) -> set[str]:
    """The top-level modules ``package`` installs (``installed``: the distributions of
    every module; its own name's where it is not installed: ``ppi-python`` is then looked
    for as ``ppi_python``)."""
    found = {module for module, owners in installed.items()
             if any(_normal(owner) == _normal(package) for owner in owners)}
    return (found - _GENERIC) or {package.replace("-", "_")}


def test_every_package_of_the_test_extra_is_used_by_the_suite():
    extras = _extras()
    # the documentation site is built by tests/test_docs_site.py from mkdocs.yml: its
    # theme and plugins are the docs extra, which the test extra holds whole
    docs = {_normal(package) for package in extras["docs"]}
    test = {_normal(package): package for package in extras["test"]}
    assert docs <= set(test), sorted(docs - set(test))
    sources = "\n".join(path.read_text(encoding="utf-8")
                        for path in (ROOT / "tests").rglob("*.py"))
    installed = packages_distributions()
    unused = []
    for key, package in test.items():
        if key in docs or package in USED_OTHERWISE:
            continue
        names = "|".join(re.escape(module) for module in sorted(_modules(package, installed)))
        imported = re.search(rf"^\s*(?:import|from)\s+(?:{names})\b|[\"'](?:{names})[.\"']",
                             sources, re.MULTILINE)
        if imported is None:
            unused.append(package)
    assert unused == []
    assert set(USED_OTHERWISE) <= set(test.values())
