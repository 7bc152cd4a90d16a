"""No HTML record makes a browser fetch anything: each page carries a
Content-Security-Policy that lets it load nothing outside itself, whatever template made it. Each body here
passed the old "refers to nothing outside itself" check, and Chromium fetched its URL on opening the file.

Opened in Debian's Chromium through Playwright; every request the page makes is recorded and aborted. On CI
(CI=true) a missing browser or Playwright is a failure, elsewhere a skip.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chargen import api
from chargen.render import fetcher, render_html
from chargen.render.errors import RenderError
from chargen.tables import Tables
from tests.serve_support import CHROMIUM
from tests.serve_support import FLAGS as ARGS

pytestmark = pytest.mark.slow  # a server or a browser

ROLF = (Path(__file__).parent / "examples" / "rolf.yaml").read_text(encoding="utf-8")
HOST = "http://127.0.0.1:9"

#: The nine bodies once reported (the last is refused by the check, since no policy stops it).
BODIES = {
    "script": f'<script>fetch("{HOST}/script")</script>',
    "css-escape": f'<p style="background: u\\72l({HOST}/css-escape)">x</p>',
    "url-quotes": f"<style>p {{ background: url('{HOST}/url-quotes\") }}</style><p>x</p>",
    "import-quotes": f"<style>@import '{HOST}/import-quotes\";</style>",
    "image-set": f"<p style='background-image: image-set(\"{HOST}/image-set\" 1x)'>x</p>",
    "iframe-srcdoc": f"<iframe srcdoc=\"<img src='{HOST}/iframe-srcdoc'>\"></iframe>",
    "iframe-data": f"<iframe src=\"data:text/html,<img src='{HOST}/iframe-data'>\"></iframe>",
    "svg-set": f'<svg><image width="9" height="9"><set attributeName="href" to="{HOST}/svg-set"/></image></svg>',
    "meta-refresh": f'<meta http-equiv="refresh" content="0;{HOST}/meta-refresh">',
}


@pytest.fixture(scope="module")
def rolf() -> dict[str, Any]:
    return api.build(ROLF, "rolf.yaml")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip("Playwright is not installed")
    if CHROMIUM is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is not installed")
        pytest.skip("chromium is not installed")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


def requests_made(browser: Any, page_path: Path) -> list[str]:
    """Every URL the page asked for besides itself, each request aborted."""
    asked: list[str] = []

    def route(handled: Any) -> None:
        url = handled.request.url
        if url == page_path.as_uri():
            handled.continue_()
            return
        asked.append(url)
        handled.abort()

    context = browser.new_context()
    try:
        page = context.new_page()
        page.on("request", lambda request: None)
        context.route("**/*", route)
        page.goto(page_path.as_uri(), wait_until="load")
        page.wait_for_timeout(700)  # a refresh of 0 seconds, a frame's own load
    finally:
        context.close()
    return [url for url in asked if not url.startswith("data:")]


def custom_page(tmp_path: Path, rolf: dict[str, Any], tables: Tables, body: str) -> Path:
    template = tmp_path / "gm.j2"
    template.write_text(
        f"<!DOCTYPE html><html><head></head><body><h1>{{{{ sheet.name }}}}</h1>{body}</body></html>"
    )
    page = render_html(rolf, tables, template=template)
    path = tmp_path / "o.html"
    path.write_text(page, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(set(BODIES) - {"meta-refresh"}))
def test_a_custom_template_cannot_make_the_browser_fetch(
    tmp_path: Path, rolf: dict[str, Any], tables: Tables, browser: Any, name: str, monkeypatch: Any
) -> None:
    """The policy is the defence: with the early check out of the way, the browser still fetches nothing."""
    monkeypatch.setattr(fetcher, "check_standalone", lambda page, where: None)
    assert requests_made(browser, custom_page(tmp_path, rolf, tables, BODIES[name])) == []


def test_the_policy_is_what_stops_them(
    tmp_path: Path, rolf: dict[str, Any], tables: Tables, browser: Any, monkeypatch: Any
) -> None:
    """The same page without its policy fetches: the test above tests the policy, not a broken body."""
    monkeypatch.setattr(fetcher, "check_standalone", lambda page, where: None)
    path = custom_page(tmp_path, rolf, tables, BODIES["script"] + BODIES["css-escape"])
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("Content-Security-Policy", "x-no-policy"), encoding="utf-8")
    assert sorted(requests_made(browser, path)) == [f"{HOST}/css-escape", f"{HOST}/script"]


def test_a_refresh_is_refused_before_anything_is_written(
    tmp_path: Path, rolf: dict[str, Any], tables: Tables
) -> None:
    """A policy cannot stop a page from replacing itself: the check refuses any refresh, however written."""
    for body in (BODIES["meta-refresh"], "<!-- --!><meta http-equiv=REFRESH content='0;//x'> -->"):
        with pytest.raises(RenderError, match="may not reload"):
            custom_page(tmp_path, rolf, tables, body)


def test_the_record_and_the_roster_open_without_a_request(
    tmp_path: Path, rolf: dict[str, Any], tables: Tables, browser: Any
) -> None:
    from chargen.batch import BatchOptions, run_batch

    record = tmp_path / "record.html"
    record.write_text(render_html(rolf, tables), encoding="utf-8")
    assert requests_made(browser, record) == []
    run_batch(BatchOptions(count=3, seed=1, roster=str(tmp_path / "roster.html"), jobs=1), tables=tables)
    assert requests_made(browser, tmp_path / "roster.html") == []


def test_our_templates_carry_the_policy(rolf: dict[str, Any], tables: Tables) -> None:
    from chargen.paths import templates_dir

    assert fetcher.POLICY_META in (templates_dir() / "roster.html.j2").read_text(encoding="utf-8")
    # the record's template is given its policy: the book's, but for chargen serve's preview
    assert "{{ policy }}" in (templates_dir() / "record.html.j2").read_text(encoding="utf-8")
    assert fetcher.POLICY_META in render_html(rolf, tables)
    served = render_html(rolf, tables, fonts_at="/fonts/")
    assert fetcher.POLICY_META.replace(fetcher.POLICY, fetcher.SERVED_FONTS_POLICY) in served


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        ("<p>x</p>", f"{fetcher.POLICY_META}<p>x</p>"),
        ("<!DOCTYPE html>\n<html>", f"<!DOCTYPE html>{fetcher.POLICY_META}\n<html>"),
        (" <!doctype html><!-- a --><p>", f" <!doctype html>{fetcher.POLICY_META}<!-- a --><p>"),
    ],
)
def test_the_policy_goes_first(page: str, expected: str) -> None:
    assert fetcher.with_policy(page) == expected
