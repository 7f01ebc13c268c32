"""A real headless browser for the tests of the kit's pages: Debian's chromium, driven over
the DevTools protocol on a pair of pipes (`--remote-debugging-pipe`: one JSON message per
NUL-terminated chunk), so no library and no open port is needed.

Pages are opened from file URLs with the network cut (a proxy that does not exist and a
resolver that finds no name); every request a page starts is recorded, so a test can
assert that a page asked for nothing but itself.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

#: The browser's executable names, Debian's first.
NAMES = ("chromium", "chromium-browser", "google-chrome")
#: Seconds any one protocol call may take before the test fails (a hung page, not a slow machine).
PATIENCE = 60.0
#: File descriptors the browser reads commands from and writes answers to.
COMMANDS_FD, ANSWERS_FD = 3, 4


def chromium() -> str | None:
    """The headless browser's path, or None when none is installed."""
    return next((path for path in map(shutil.which, NAMES) if path), None)


class BrowserError(RuntimeError):
    """The browser answered a call with an error, or stopped answering."""


class Browser:
    """One headless browser with one page. Use as a context manager."""

    def __init__(self, executable: str, width: int = 1280, height: int = 900) -> None:
        self.profile = tempfile.mkdtemp(prefix="kit-browser-")
        commands_read, self._commands = os.pipe()
        self._answers, answers_write = os.pipe()

        def wire() -> None:  # in the child: the two pipe ends on the fds the protocol uses
            os.dup2(commands_read, COMMANDS_FD)
            os.dup2(answers_write, ANSWERS_FD)

        self.process = subprocess.Popen(
            [
                executable,
                "--headless=new",
                "--no-sandbox",
                "--remote-debugging-pipe",
                f"--user-data-dir={self.profile}",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--proxy-server=127.0.0.1:9",
                "--host-resolver-rules=MAP * ~NOTFOUND",
                "--allow-file-access-from-files",
                "about:blank",
            ],
            pass_fds=(COMMANDS_FD, ANSWERS_FD),
            preexec_fn=wire,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(commands_read)
        os.close(answers_write)
        self._buffer = b""
        self._last_id = 0
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        for domain in ("Page", "Network", "Runtime"):
            self.call(f"{domain}.enable")
        self.resize(width, height)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the browser and remove its profile."""
        try:
            self._send("Browser.close", {}, session=False)
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        finally:
            for fd in (self._commands, self._answers):
                try:
                    os.close(fd)
                except OSError:
                    pass
            shutil.rmtree(self.profile, ignore_errors=True)

    # -- the protocol -------------------------------------------------------------------
    def _send(self, method: str, params: dict[str, Any], session: bool) -> int:
        self._last_id += 1
        message: dict[str, Any] = {"id": self._last_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        return self._last_id

    def _next_message(self, deadline: float) -> dict[str, Any]:
        import select

        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._answers], [], [], left)[0]:
                raise BrowserError("the browser stopped answering")
            chunk = os.read(self._answers, 1 << 16)
            if not chunk:
                raise BrowserError("the browser ended")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method: str, params: dict[str, Any] | None = None, session: bool = True) -> dict[str, Any]:
        """Send one protocol command and return its result (events meanwhile are kept)."""
        wanted = self._send(method, params or {}, session)
        deadline = time.monotonic() + PATIENCE
        while True:
            message = self._next_message(deadline)
            if message.get("id") == wanted:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def wait_for(self, event: str) -> dict[str, Any]:
        """The first event named `event` not yet seen (kept ones first)."""
        for index, message in enumerate(self.events):
            if message.get("method") == event:
                return self.events.pop(index)
        deadline = time.monotonic() + PATIENCE
        while True:
            message = self._next_message(deadline)
            if message.get("method") == event:
                return message
            if "method" in message:
                self.events.append(message)

    # -- what the tests use ---------------------------------------------------------------
    def resize(self, width: int, height: int) -> None:
        self.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def open(self, path: Path, fragment: str = "") -> float:
        """Load `path` (a file) and wait for its load event; the seconds it took."""
        self.events = [e for e in self.events if e.get("method") != "Page.loadEventFired"]
        started = time.monotonic()
        url = path.resolve().as_uri() + (f"#{fragment}" if fragment else "")
        self.call("Page.navigate", {"url": url})
        self.wait_for("Page.loadEventFired")
        return time.monotonic() - started

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (a promise is awaited)."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression!r} raised: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def dom(self) -> str:
        """The rendered document's HTML, as --dump-dom prints it."""
        return str(self.evaluate("document.documentElement.outerHTML"))

    def press(self, key: str, code: str | None = None, key_code: int = 0) -> None:
        """One key pressed and released on the page ("ArrowRight", "Home", " ", ...)."""
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": code or key, "windowsVirtualKeyCode": key_code})

    def screenshot(self, out: Path) -> None:
        """The visible page as a PNG file."""
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        out.write_bytes(base64.b64decode(data))

    def requested(self) -> list[str]:
        """Every URL the page asked for since the browser started, in order."""
        self.evaluate("0")  # let pending events arrive
        return [e["params"]["request"]["url"] for e in self.events if e.get("method") == "Network.requestWillBeSent"]
