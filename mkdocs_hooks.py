"""MkDocs hooks of the documentation site (``mkdocs.yml``: ``hooks``).

The pages link each other by file (``[evaluation.md](evaluation.md#ties)``, or name one in
running text or a code span, ``docs/evaluation.md``), which reads well in a repository but
not on the site. :func:`on_page_markdown` shows each such link by the title the page has in the
navigation (``mkdocs.yml``: ``nav``, the one place titles are declared), and
:func:`on_page_content` makes each code span naming a page (a docstring's included) a link
shown the same way.

A code block fenced as ``synopsis`` shows the form of a command or a call, with placeholder
files, rather than an example run on the demo data (which the tests run): the site shows it
under a *Synopsis* label (an admonition), the convention the home page states.

The docstrings cross-reference in reST (Sphinx) roles, ``:func:`name```, which Markdown
renders as the role's text and a code span. :func:`on_page_content` turns each into a
cross-reference that mkdocs-autorefs resolves after every page is built: a link to the API
entry of ``name`` (a dotted path, or a name of the page's module: ``docs/api/stats.md``
documents ``irscale.stats``), or the code span alone when no entry has that name (an
*optional* reference: no warning). As in Sphinx, ``~a.b.c`` shows ``c``.

The numpy docstring parser (griffe's) typesets the doctests of an ``Examples`` section as
code; a doctest anywhere else (a module docstring, a function's prose) would reach Markdown
as text, its ``>>>`` read as three nested blockquotes and its lines run together.
:class:`DoctestsAsCode`, a griffe extension (``mkdocs.yml``: the python handler's
``extensions``), fences those as ``pycon`` code, where they stand, before the docstring is
parsed; the docstrings themselves stay plain doctests (``tests/test_doctests.py``).
"""

from __future__ import annotations

import html
import posixpath
import re
from typing import Any

import griffe

#: a role and its code span; the name may be broken over lines in the docstring
ROLE = re.compile(r":(?:func|meth|class|mod|attr|data|exc|obj|const):<code>(~?)([\w.\s]+)</code>")


#: a code block fenced as ``synopsis``
SYNOPSIS = re.compile(r"^```synopsis\n(.*?)^```$", re.M | re.S)
#: a link shown by its file name: [evaluation.md](...), [`docs/stats.md`](...#anchor)
FILE_LINK = re.compile(r"\[`?(?:docs/)?([\w/.-]+\.md)`?\]\(([^)\s#]*)(#[^)\s]*)?\)")
#: a page named by its path in the repository in running text: docs/meta.md
FILE_NAME = re.compile(r"(?<![\w/.-])docs/([\w-]+(?:/[\w-]+)*\.md)(?![\w/-])")
#: what Markdown does not read as running text: fenced blocks and code spans
CODE = re.compile(r"^```.*?^```$|(`+).+?(?<!`)\1(?!`)", re.M | re.S)
#: HTML that is not running text: tags, and code, links and scripts whole
MARKUP = re.compile(r"<(pre|code|a|script|autoref)\b.*?</\1>|<[^>]*>", re.S)
#: a code span naming a page of the site by its path in the repository, in the HTML of a
#: page or of a docstring: `docs/meta.md`
FILE_SPAN = re.compile(r"<code>docs/([\w/-]+\.md)</code>")


def on_page_markdown(markdown: str, page: Any, files: Any, **kwargs: Any) -> str:
    """The page's links shown by file name, and the pages it names in running text, as
    links shown by title; its ``synopsis`` blocks under their label (module doc)."""
    here = posixpath.dirname(page.file.src_uri)

    def title(path: str) -> str | None:
        file = files.get_file_from_path(path)
        return None if file is None or file.page is None else file.page.title

    def link(match: re.Match[str]) -> str:
        shown, target, anchor = match[1], match[2], match[3] or ""
        path = posixpath.normpath(posixpath.join(here, target)) if target else page.file.src_uri
        name = title(path) if posixpath.basename(shown) == posixpath.basename(path) else None
        return match[0] if name is None else f"[{name}]({target}{anchor})"

    def synopsis(match: re.Match[str]) -> str:
        # an indented code block: Markdown's fences are not read inside an admonition
        code = "".join(f"        {line}" if line.strip() else line
                       for line in match[1].splitlines(keepends=True))
        return f'!!! abstract "Synopsis"\n\n{code}'

    def named(match: re.Match[str]) -> str:
        name = title(match[1])
        target = posixpath.relpath(match[1], here or ".")
        return match[0] if name is None else f"[{name}]({target})"

    markdown = FILE_LINK.sub(link, markdown)
    parts, end = [], 0
    for code in CODE.finditer(markdown):
        parts += [FILE_NAME.sub(named, markdown[end:code.start()]), code[0]]
        end = code.end()
    return SYNOPSIS.sub(synopsis, "".join(parts) + FILE_NAME.sub(named, markdown[end:]))


def _module(src_uri: str) -> str | None:
    """The module an API page documents: ``api/stats.md`` → ``irscale.stats``."""
    match = re.fullmatch(r"api/(\w+)\.md", src_uri)
    if match is None:
        return None
    return "irscale" if match[1] == "irscale" else f"irscale.{match[1]}"


def on_page_content(html_text: str, page: Any, files: Any, **kwargs: Any) -> str:
    """The page's reST roles as optional autorefs, its code spans naming a page as links
    (module doc)."""
    module = _module(page.file.src_uri)

    def reference(match: re.Match[str]) -> str:
        tilde, name = match[1], re.sub(r"\s+", "", match[2])
        identifier = name if "." in name or module is None else f"{module}.{name}"
        shown = name.rsplit(".", 1)[-1] if tilde else name
        return (f'<autoref identifier="{html.escape(identifier)}" optional>'
                f"<code>{html.escape(shown)}</code></autoref>")

    def page_link(match: re.Match[str]) -> str:
        file = files.get_file_from_path(match[1])
        if file is None or file.page is None:
            return match[0]
        return (f'<a href="{html.escape(file.url_relative_to(page.file))}">'
                f"{html.escape(file.page.title)}</a>")

    html_text = FILE_SPAN.sub(page_link, ROLE.sub(reference, html_text))
    parts, end = [], 0
    for markup in MARKUP.finditer(html_text):  # a docstring's running text: docs/meta.md
        parts += [FILE_NAME.sub(page_link, html_text[end:markup.start()]), markup[0]]
        end = markup.end()
    return "".join(parts) + FILE_NAME.sub(page_link, html_text[end:])


#: a numpy section heading: a title line and a dashed underline (numpydoc's format)
SECTION = re.compile(r"^[ \t]*(\S[^\n]*)\n[ \t]*-{3,}[ \t]*$", re.M)
#: a doctest: a ``>>>`` line, the lines up to the next blank one (doctest's own rule: the
#: expected output ends at a blank line), and its indentation
DOCTEST = re.compile(r"^([ \t]*)>>>[^\n]*(?:\n(?![ \t]*$)[^\n]*)*", re.M)


def fence_doctests(text: str) -> str:
    """``text`` with every doctest outside an ``Examples`` section in a ``pycon`` fence
    (indented as the doctest)."""
    headings = [(match.start(), match[1].strip()) for match in SECTION.finditer(text)]

    def fenced(match: re.Match[str]) -> str:
        section = next((title for start, title in reversed(headings)
                        if start < match.start()), None)
        if section == "Examples":
            return match[0]
        indent = match[1]
        return f"{indent}```pycon\n{match[0]}\n{indent}```"

    return DOCTEST.sub(fenced, text)


class DoctestsAsCode(griffe.Extension):
    """Fence the doctests of prose as ``pycon`` code (module doc)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """The object's docstring, its doctests fenced, before it is parsed."""
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
