"""The documentation site (``mkdocs.yml``): ``mkdocs build --strict`` succeeds (no broken
link or anchor, no page outside the nav, no docstring griffe cannot parse), every page of
``docs/`` is built, and every function and class of the API pages' modules' ``__all__`` is
documented in the API reference."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: API page (docs/api/<page>.md) → the module it documents
API_PAGES = {"irscale": "irscale"} | {
    name: f"irscale.{name}" for name in ("stats", "meta", "scales", "collections", "labels",
                                         "online", "text", "fusion", "measures", "plots",
                                         "report", "errors")}


def test_every_page_of_docs_is_built(site):
    pages = sorted(ROOT.glob("docs/**/*.md"))
    assert len(pages) > 30
    for page in pages:
        relative = page.relative_to(ROOT / "docs").with_suffix("")
        folder = site if relative == Path("index") else site / relative  # index: the home
        assert (folder / "index.html").is_file(), relative


def test_the_build_prints_only_its_own_log(site_build):
    """The build prints mkdocs' INFO lines and nothing else: no warning (``--strict`` would
    fail on one) and no banner of the theme's (its releases from 9.7.2 print one at every
    build: pyproject.toml keeps the theme below them)."""
    _, printed = site_build
    lines = [line for line in printed.splitlines() if line.strip()]
    assert lines, "the build printed nothing"
    strays = [line for line in lines if not line.startswith("INFO")]
    assert not strays, strays[:5]


#: the languages of the pages' code blocks: examples that the page's test runs (python,
#: console, bash), output or figures (text), and the forms of commands and calls with
#: placeholder files (synopsis, labelled so on the site: mkdocs_hooks.py)
LANGUAGES = {"python", "console", "bash", "text", "synopsis"}
RUN = {"python", "console", "bash"}


def test_every_code_block_runs_or_is_a_synopsis():
    """A block is run by the test of its page (a test module names the page) or is not a
    command to run as shown."""
    tests = "".join(path.read_text(encoding="utf-8") for path in ROOT.glob("tests/test_*.py"))
    for page in sorted(ROOT.glob("docs/**/*.md")):
        fences = re.findall(r"^```(.*)\n(?:.*\n)*?^```$", page.read_text(encoding="utf-8"),
                            re.M)
        assert set(fences) <= LANGUAGES, (page.name, set(fences) - LANGUAGES)
        if RUN & set(fences):
            assert f'"{page.name}"' in tests, page.name


def _ids(html: Path) -> set[str]:
    return set(re.findall(r'id="([^"]+)"', html.read_text(encoding="utf-8")))


def test_the_api_reference_documents_every_public_function_and_class(site):
    ids = {page: _ids(site / "api" / page / "index.html") for page in API_PAGES}
    every_id = set().union(*ids.values())
    for page, name in API_PAGES.items():
        module = importlib.import_module(name)
        public = getattr(module, "__all__", None) or [
            member for member, value in vars(module).items()
            if not member.startswith("_") and getattr(value, "__module__", None) == name]
        documented = [member for member in public
                      if inspect.isclass(getattr(module, member))
                      or inspect.isfunction(getattr(module, member))]
        assert documented, name
        for member in documented:
            value = getattr(module, member)
            # on its module's page, or (a function named like the submodule that defines
            # it, or a re-export) under the path of its definition on an API page
            assert (f"{name}.{member}" in ids[page]
                    or f"{value.__module__}.{member}" in every_id), f"{name}.{member}"


def test_the_docstrings_rest_roles_become_links(site):
    """``:func:`anova_oneway``` in irscale.stats' docstring: a link to its entry on the same
    page (mkdocs_hooks.py); no role is left as text on any API page."""
    stats = (site / "api" / "stats" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a class="autorefs[^"]*"[^>]* href="#irscale\.stats\.anova_oneway">'
                     r"<code>anova_oneway</code></a>", stats)
    for page in API_PAGES:
        text = (site / "api" / page / "index.html").read_text(encoding="utf-8")
        assert not re.search(r":(func|class|mod|meth|attr|data|exc|obj|const):<code>", text), page


def test_links_between_pages_show_titles_not_file_names(site):
    """``[evaluation.md](evaluation.md)``, a code span ```docs/stats.md``` (in a page or a
    docstring) and docs/meta.md in running text are shown by the page's title
    (mkdocs_hooks.py)."""
    for html in site.glob("**/index.html"):
        text = html.read_text(encoding="utf-8")
        links = re.findall(r"<a [^>]*>(?:<code>)?([\w/.-]+\.md)(?:</code>)?</a>", text)
        spans = [name for name in re.findall(r"<code>docs/([\w/-]+\.md)</code>", text)
                 if (ROOT / "docs" / name).is_file()]
        prose = re.sub(r"<(pre|code|script)\b.*?</\1>", "", text, flags=re.S)
        named = [name for name in re.findall(r"docs/([\w/-]+\.md)", prose)
                 if (ROOT / "docs" / name).is_file()]
        assert links == spans == named == [], html.relative_to(site)


def test_user_pages_cite_no_test_file():
    """A user page says what was checked, not which test file checks it: only the pages
    for contributors (architecture, benchmarks) name files under tests/."""
    for page in sorted(ROOT.glob("docs/*.md")):
        if page.name == "architecture.md" or page.name.startswith("benchmarks"):
            continue
        cited = re.findall(r"tests/\w+\.py", page.read_text(encoding="utf-8"))
        assert not cited, (page.name, cited)
