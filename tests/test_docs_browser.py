"""The documentation site in a real browser: Debian's headless Chromium, driven by
Playwright as in ``tests/test_report_browser.py`` (skipped, with the reason, where Chromium
is not installed).

The site (``mkdocs build --strict``, the session fixture of ``tests/conftest.py``) is served
to the browser from its folder under a made-up origin, as ``mkdocs serve`` serves it (a
folder's address answers with its ``index.html``, a missing file with 404; nothing else is
fetched). From the home page every internal link is followed, the navigation's included:
each answers a page (status 200), every page built is reached, every ``#anchor`` linked
exists on its page; no page shows a blockquote inside a blockquote (what a docstring's
``>>>`` becomes outside code), and every ``>>>`` prompt shown is inside a code block.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlsplit

import pytest

from .oracle_imports import lazy_import
from .test_report_browser import ARGS, CHROMIUM  # skips this module without Chromium

sync_api = lazy_import("playwright.sync_api")

ORIGIN = "http://irscale-docs.invalid"

#: what the page shows: its links, its ids, its blockquotes inside blockquotes, and the
#: texts with a ``>>>`` prompt outside a ``pre`` block (scripts and styles aside)
SURVEY = """() => {
  const loose = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (node.textContent.includes('>>>') && !parent.closest('pre, script, style'))
      loose.push(node.textContent.trim().slice(0, 80));
  }
  return {
    links: Array.from(document.querySelectorAll('a[href]'), a => a.href),
    ids: Array.from(document.querySelectorAll('[id]'), e => e.id),
    nested: document.querySelectorAll('blockquote blockquote').length,
    loose: loose,
  };
}"""


def _file(folder: Path, url: str) -> Path | None:
    """The file of the site that answers ``url`` (a folder: its ``index.html``), or None."""
    path = folder / unquote(urlsplit(url).path).lstrip("/")
    if path.is_dir():
        path = path / "index.html"
    return path if path.is_file() else None


@pytest.fixture(scope="module")
def browser() -> Iterator[sync_api.Browser]:
    with sync_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield instance
        instance.close()


def _served(browser: sync_api.Browser, site: Path, width: int = 1280
            ) -> sync_api.BrowserContext:
    """A browser context ``width`` pixels wide to which :data:`ORIGIN` serves ``site``."""
    context = browser.new_context(viewport={"width": width, "height": 900})

    def serve(route: sync_api.Route) -> None:
        if not route.request.url.startswith(ORIGIN + "/"):
            route.abort()  # the theme's web fonts: nothing leaves the machine
            return
        path = _file(site, route.request.url)
        if path is None:
            route.fulfill(status=404, body="not found")
        else:
            route.fulfill(path=str(path))

    context.route("**/*", serve)
    return context


@pytest.fixture(scope="module")
def survey(site, browser) -> dict[str, dict]:
    """Every page reached from the home page through the links of the pages: its status
    and what :data:`SURVEY` finds, by address (without fragment)."""
    context = _served(browser, site)
    page = context.new_page()
    found: dict[str, dict] = {}
    queue = [ORIGIN + "/"]
    try:
        while queue:
            url = queue.pop()
            if url in found:
                continue
            # the page's HTML parsed: its links, ids and blockquotes are the built site's (the
            # theme's scripts add none of them; waiting for them cost a fifth of the walk)
            response = page.goto(url, wait_until="domcontentloaded")
            status = response.status if response is not None else 0
            found[url] = {"status": status} | (page.evaluate(SURVEY) if status == 200 else {})
            for link in found[url].get("links", []):
                address = urldefrag(link).url
                if address.startswith(ORIGIN + "/") and address not in found \
                        and (address.endswith("/") or address.endswith(".html")):
                    queue.append(address)
    finally:
        context.close()
    return found


def test_the_home_page_answers(survey):
    home = survey[ORIGIN + "/"]
    assert home["status"] == 200
    assert ORIGIN + "/getting-started/" in home["links"]


def test_every_link_answers_and_every_page_is_reached(site, survey):
    assert {url: seen["status"] for url, seen in survey.items() if seen["status"] != 200} \
        == {}
    built = set()
    for path in site.glob("**/index.html"):
        folder = path.parent.relative_to(site).as_posix()
        built.add(ORIGIN + "/" if folder == "." else f"{ORIGIN}/{folder}/")
    assert len(built) > 40
    assert built - set(survey) == set()


def test_every_linked_file_and_anchor_exists(site, survey):
    ids = {url: set(seen["ids"]) for url, seen in survey.items()}
    broken = []
    for url, seen in survey.items():
        for link in seen["links"]:
            address, fragment = urldefrag(link)
            if not address.startswith(ORIGIN + "/"):
                continue
            if _file(site, address) is None:
                broken.append((url, link))
            elif fragment and address in ids and unquote(fragment) not in ids[address]:
                broken.append((url, link))
    assert not broken


def test_no_nested_blockquote_and_every_prompt_in_code(survey):
    nested = {url: seen["nested"] for url, seen in survey.items() if seen["nested"]}
    assert not nested
    loose = {url: seen["loose"] for url, seen in survey.items() if seen["loose"]}
    assert not loose


#: The code blocks of a page: their text and whether their lines are wider than the block
#: (shown cut at its right edge, the rest reached only by scrolling it)
CODE_BLOCKS = """() => Array.from(document.querySelectorAll('pre > code'), code => ({
  text: code.textContent, cut: code.scrollWidth > code.clientWidth}))"""


def test_the_home_page_s_install_command_is_shown_whole(site, browser):
    """The install command of the home page fits its block on a laptop's screen (a
    viewport 1280 pixels wide, the theme's content column): none of it is hidden past the
    block's right edge, where a reader copying it by eye would miss ``pip install .``."""
    context = _served(browser, site)
    try:
        page = context.new_page()
        page.goto(ORIGIN + "/", wait_until="load")
        blocks = page.evaluate(CODE_BLOCKS)
    finally:
        context.close()
    install = [block for block in blocks if "check-toolchain.sh" in block["text"]]
    assert install and "pip install ." in install[0]["text"]
    assert not install[0]["cut"], install[0]["text"]
