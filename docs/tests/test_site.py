"""The built documentation site, opened in headless Chromium.

``make test-docs`` builds the site (``make docs``, into ``site/``), then this module serves it on
the loopback interface and drives Debian's ``chromium`` with Playwright (no browser download:
``executable_path``). Every page must render (a title, a heading, no console error, no failed
request), the search must find pages and link to the right one, and every internal link and
anchor must resolve. The browser never reaches the network: requests to other hosts are
refused, and the external links of the pages are listed in ``target/docs/external-links.txt``,
not fetched.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"
EXTERNAL_LINKS = ROOT / "target" / "docs" / "external-links.txt"

#: What the theme asks other hosts for, refused here like every other request: the repository's
#: stars and latest release, which mkdocs-material shows beside the repository link.
THEME_REQUESTS = {
    "https://api.github.com/repos/uuidx/uuidx",
    "https://api.github.com/repos/uuidx/uuidx/releases/latest",
}

#: Searches and the page (path under the site) each must list among its results.
SEARCHES = {
    "TypeID": "text-forms/",
    "rollback": "generators/",
    "uuid7_bounds": "time/",
    "Spark": "columns/",
}


def chromium() -> str:
    found = shutil.which("chromium")
    if found is None:
        if os.environ.get("UUIDX_REQUIRE_CHROMIUM") == "1":
            pytest.fail("chromium not found (UUIDX_REQUIRE_CHROMIUM=1)")
        pytest.skip("no chromium (make chromium installs Debian's package as root)")
    return found


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """The site, served from ``site/`` on 127.0.0.1 at a free port."""
    if not (SITE / "index.html").exists():
        pytest.fail(f"{SITE} has no index.html: build the site first (make docs)")
    handler = functools.partial(_Quiet, directory=str(SITE))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class Visit:
    """What a page showed the browser."""

    title: str
    h1: str
    ids: set[str]
    links: list[str]
    errors: list[str] = field(default_factory=list)


def pages() -> list[str]:
    """Every page of the site, as a path under it (``""`` for the home page)."""
    found = []
    for html in sorted(SITE.rglob("index.html")):
        relative = html.parent.relative_to(SITE).as_posix()
        if relative == ".":
            found.append("")
        elif not relative.startswith(("assets", "search")):
            found.append(relative + "/")
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    executable = chromium()
    with sync_playwright() as p:
        # --no-sandbox: Chromium's sandbox cannot start as root, which is how CI runs.
        launched = p.chromium.launch(
            executable_path=executable, headless=True, args=["--no-sandbox"]
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="module")
def context(browser: Any, base_url: str) -> Iterator[Any]:
    ctx = browser.new_context()
    external: set[str] = set()

    def route(r: Any) -> None:
        if r.request.url.startswith(base_url):
            r.continue_()
        else:
            external.add(r.request.url)
            r.abort()

    ctx.route("**/*", route)
    ctx.external_requests = external
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture(scope="module")
def visits(context: Any, base_url: str) -> dict[str, Visit]:
    """Every page, opened once."""
    seen: dict[str, Visit] = {}
    page = context.new_page()
    errors: list[str] = []
    page.on(
        "console",
        lambda m: (
            errors.append(f"console {m.type}: {m.text} ({m.location})")
            if m.type == "error" and m.location.get("url") not in THEME_REQUESTS
            else None
        ),
    )
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on(
        "requestfailed",
        lambda r: (
            errors.append(f"request failed: {r.url} ({r.failure})")
            if r.url.startswith(base_url)
            else None
        ),
    )
    page.on(
        "response",
        lambda r: errors.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None,
    )
    for path in pages():
        errors.clear()
        page.goto(base_url + path, wait_until="load")
        page.wait_for_load_state("networkidle")
        seen[path] = Visit(
            title=page.title(),
            h1=(page.locator("article h1").first.text_content(timeout=5000) or "").strip(),
            ids=set(
                page.eval_on_selector_all(
                    "[id], a[name]", "els => els.map(e => e.id || e.getAttribute('name'))"
                )
            ),
            links=page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)"),
            errors=list(errors),
        )
    page.close()
    return seen


def test_the_site_has_its_pages(visits: dict[str, Visit]) -> None:
    for path in ("", "getting-started/", "generators/", "reference/uuidx/", "performance/"):
        assert path in visits, sorted(visits)
    assert len(visits) >= 20, sorted(visits)


def test_every_page_renders(visits: dict[str, Visit]) -> None:
    problems = {}
    for path, visit in visits.items():
        issues = list(visit.errors)
        if not visit.title.endswith("uuidx"):
            issues.append(f"title {visit.title!r}")
        if not visit.h1:
            issues.append("no heading")
        if issues:
            problems[path or "/"] = issues
    assert not problems, problems


def test_no_page_needs_the_network(context: Any, visits: dict[str, Visit]) -> None:
    """The pages load nothing from other hosts (fonts, scripts, images): they work offline and
    tell nobody who reads them."""
    assert context.external_requests <= THEME_REQUESTS, sorted(context.external_requests)


def test_internal_links_and_anchors_resolve(visits: dict[str, Visit], base_url: str) -> None:
    broken = []
    external = set()
    for path, visit in visits.items():
        for href in visit.links:
            url, anchor = urldefrag(href)
            if not url.startswith(base_url):
                if urlsplit(url).scheme in ("http", "https", "mailto"):
                    external.add(url)
                    continue
                broken.append((path, href, "not http"))
                continue
            target = unquote(url[len(base_url) :].split("?", 1)[0])
            if target in visits:
                if anchor and unquote(anchor) not in visits[target].ids:
                    broken.append((path, href, "no such anchor"))
            elif not (SITE / target).is_file():
                broken.append((path, href, "no such page or file"))
    EXTERNAL_LINKS.parent.mkdir(parents=True, exist_ok=True)
    EXTERNAL_LINKS.write_text("".join(f"{u}\n" for u in sorted(external)), encoding="utf-8")
    assert not broken, broken
    assert external, "the pages link to no external page at all: the link scan read nothing"


#: True once the search results shown are those of query ``q`` (lower case).
FOR_QUERY = """q => {
    const hs = Array.from(document.querySelectorAll(".md-search-result__item a"),
                          a => (new URL(a.href).searchParams.get("h") || "").toLowerCase());
    return hs.includes(q) && hs.every(h => h === "" || h === q);
}"""


@pytest.mark.parametrize("query", sorted(SEARCHES))
def test_search_finds_the_page(context: Any, base_url: str, query: str) -> None:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(base_url, wait_until="networkidle")
        field_ = page.locator("input.md-search__input")
        field_.click()
        field_.press_sequentially(query, delay=20)  # keystrokes, as a reader types
        results = page.locator(".md-search-result__item a")
        # The results follow the keystrokes: wait for those of the whole query (each result
        # links with ?h=QUERY, for highlighting), not of its first letters.
        page.wait_for_function(FOR_QUERY, arg=query.lower(), timeout=15_000)
        hrefs = results.evaluate_all("els => els.map(e => e.href)")
        wanted = base_url + SEARCHES[query]
        # A result links to its page with ?h=QUERY (highlighting) and maybe an anchor.
        pages_found = [h.split("?", 1)[0].split("#", 1)[0] for h in hrefs]
        assert wanted in pages_found, (query, hrefs)
        # Following the first result that points there opens that page.
        results.nth(pages_found.index(wanted)).click()
        page.wait_for_url(wanted + "**")
        assert page.title().endswith("uuidx")
        assert not errors, errors
    finally:
        page.close()
