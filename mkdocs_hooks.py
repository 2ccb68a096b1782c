"""MkDocs hooks of the documentation site (``mkdocs.yml``: ``hooks``).

The docstrings cross-reference in reST (Sphinx) roles, ``:func:`name```, which Markdown
renders as the role's text and a code span. :func:`on_page_content` turns each into a
cross-reference that mkdocs-autorefs resolves after every page is built: a link to the API
entry of ``name`` (a dotted path, or a name of the page's module: ``docs/api/stats.md``
documents ``irscale.stats``), or the code span alone when no entry has that name (an
*optional* reference: no warning). As in Sphinx, ``~a.b.c`` shows ``c``.
"""

from __future__ import annotations

import html
import re
from typing import Any

#: a role and its code span; the name may be broken over lines in the docstring
ROLE = re.compile(r":(?:func|meth|class|mod|attr|data|exc|obj|const):<code>(~?)([\w.\s]+)</code>")


def _module(src_uri: str) -> str | None:
    """The module an API page documents: ``api/stats.md`` → ``irscale.stats``."""
    match = re.fullmatch(r"api/(\w+)\.md", src_uri)
    if match is None:
        return None
    return "irscale" if match[1] == "irscale" else f"irscale.{match[1]}"


def on_page_content(html_text: str, page: Any, **kwargs: Any) -> str:
    """The page's reST roles as optional autorefs (module doc)."""
    module = _module(page.file.src_uri)

    def reference(match: re.Match[str]) -> str:
        tilde, name = match[1], re.sub(r"\s+", "", match[2])
        identifier = name if "." in name or module is None else f"{module}.{name}"
        shown = name.rsplit(".", 1)[-1] if tilde else name
        return (f'<autoref identifier="{html.escape(identifier)}" optional>'
                f"<code>{html.escape(shown)}</code></autoref>")

    return ROLE.sub(reference, html_text)
