"""A real headless browser for the tests of the kit's pages: playwright driving the system's
chromium (Debian's, from apt; playwright downloads no browser of its own).

Pages are opened from file URLs. Every request a page starts, web sockets included, goes
through playwright's routing: it is recorded, and refused unless it is for a local file, so
a test can assert that a page asked for nothing but itself and nothing left the machine.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Page, Route, WebSocketRoute, sync_playwright

#: The browser's executable names, Debian's first.
NAMES = ("chromium", "chromium-browser", "google-chrome")
#: Milliseconds any one browser action may take before the test fails (a hung page, not a slow machine).
PATIENCE_MS = 60_000
#: A second wall behind the routing, for what the browser itself might ask for: no name resolves.
NO_NAMES = "--host-resolver-rules=MAP * ~NOTFOUND"


def chromium() -> str | None:
    """The headless browser's path, or None when none is installed."""
    return next((path for path in map(shutil.which, NAMES) if path), None)


@dataclass
class Offline:
    """One page of a headless browser and every URL it asked for, in order."""

    page: Page
    requested: list[str] = field(default_factory=list)

    def route(self, route: Route) -> None:
        """Record a request; let it through only if it reads a local file."""
        self.requested.append(route.request.url)
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            route.abort("blockedbyclient")

    def socket(self, socket: WebSocketRoute) -> None:
        """Record a web socket and close it, never connected to its server."""
        self.requested.append(socket.url)
        socket.close()


@contextmanager
def offline_page(executable: str, width: int = 1280, height: int = 900) -> Iterator[Offline]:
    """A headless `executable` (chromium) with one page of `width` x `height` pixels, every
    request recorded and none but a file's let through; closed on leaving."""
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=executable, args=[NO_NAMES, "--allow-file-access-from-files"])
        try:
            context = launched.new_context(viewport={"width": width, "height": height})
            context.set_default_timeout(PATIENCE_MS)
            opened = Offline(context.new_page())
            context.route("**/*", opened.route)
            context.route_web_socket("**/*", opened.socket)
            yield opened
        finally:
            launched.close()


def load(page: Page, path: Path, fragment: str = "") -> float:
    """Load the file `path` afresh (through about:blank: a new fragment on the page already
    open would not reload it) and wait for its load event; the seconds from the navigation's
    start to that event, as the page's own Navigation Timing counts them."""
    page.goto("about:blank")
    page.goto(path.resolve().as_uri() + (f"#{fragment}" if fragment else ""))
    return float(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventStart")) / 1000
