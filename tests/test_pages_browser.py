"""The browser the page tests use (tests/browser.py): it is the system's chromium, and a page
that reaches out of the machine is refused, every request recorded."""

from __future__ import annotations

import subprocess
from pathlib import Path

from browser import Offline, chromium, load

OUTSIDE = ("https://fonts.example.com/a.css", "http://images.example.com/a.png", "https://frames.example.com/")
REACHING = (
    "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>reaching out</title>"
    f"<link rel='stylesheet' href='{OUTSIDE[0]}'></head><body>"
    f"<img id='outside' src='{OUTSIDE[1]}' alt='outside'><img id='inside' src='local.svg' alt='inside'>"
    f"<iframe src='{OUTSIDE[2]}' title='outside'></iframe></body></html>"
)


def test_the_browser_is_the_systems_chromium(offline_browser: Offline) -> None:
    """No browser of playwright's own: the one launched is the executable on PATH."""
    executable = chromium()
    assert executable is not None
    told = subprocess.run([executable, "--version"], capture_output=True, text=True, check=True).stdout
    browser = offline_browser.page.context.browser
    assert browser is not None and browser.version in told, (browser.version, told)


def test_a_page_that_reaches_out_is_refused_and_every_request_recorded(offline_browser: Offline, tmp_path: Path) -> None:
    page, requested = offline_browser.page, offline_browser.requested
    (tmp_path / "local.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'/>", encoding="utf-8")
    (tmp_path / "out.html").write_text(REACHING, encoding="utf-8")
    before, failed = len(requested), {}
    page.on("requestfailed", lambda request: failed.setdefault(request.url, request.failure))
    load(page, tmp_path / "out.html")
    assert page.evaluate("[document.getElementById('outside').naturalWidth, document.getElementById('inside').naturalWidth]") == [0, 4]
    fetched = "fetch('https://api.example.com/x').then(() => 'answered', () => 'refused')"
    assert page.evaluate(fetched) == "refused"
    socket = (
        "new Promise(done => { const s = new WebSocket('wss://socket.example.com/');"
        " s.onmessage = () => done('message'); s.onclose = () => done('closed'); })"
    )
    assert page.evaluate(socket) == "closed"
    asked = requested[before:]
    assert asked[0] == (tmp_path / "out.html").resolve().as_uri() and (tmp_path / "local.svg").resolve().as_uri() in asked
    assert set(asked) >= {*OUTSIDE, "https://api.example.com/x", "wss://socket.example.com/"}, asked
    for url in (*OUTSIDE, "https://api.example.com/x"):  # refused by the routing, not by a name that does not resolve
        assert str(failed.get(url)).startswith("net::ERR_BLOCKED_BY_CLIENT"), (url, failed)
