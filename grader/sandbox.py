"""Running graded items in a separate worker process, with a time limit per item.

One worker runs the items in order and reports each as a JSON line. If an item runs past
its time limit the worker's whole process group is killed and a fresh worker takes the
remaining items; if the worker dies, the item it was on is reported and the rest go on.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import time
from typing import Any

LOAD_TIMEOUT = 30.0  # seconds to start Python and import the solver's file


def _describe_exit(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


class _Worker:
    """One worker process and the pipe it reports on."""

    def __init__(self, solver: str, items: list[dict[str, Any]]):
        read_fd, write_fd = os.pipe()
        env = {**os.environ, "GRADER_RESULT_FD": str(write_fd), "PYTHONDONTWRITEBYTECODE": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "grader.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(write_fd,),
            env=env,
            start_new_session=True,
        )
        os.close(write_fd)
        self.reader = os.fdopen(read_fd, "rb", buffering=0)
        self.buffer = b""
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(json.dumps({"solver": solver, "items": items}).encode())
            self.process.stdin.close()
        except BrokenPipeError:
            pass

    def next_line(self, timeout: float) -> dict[str, Any] | str:
        """The next report, or "timeout" / "eof"."""
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            selector.register(self.reader, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    return "timeout"
                chunk = self.reader.read(65536)
                if not chunk:
                    return "eof"
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        try:
            return json.loads(line)
        except ValueError:
            return "eof"

    def stop(self) -> str:
        """Kill the worker and everything it started; how it ended."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        code = self.process.wait()
        self.reader.close()
        return _describe_exit(code)


def run_items(solver: str, items: list[dict[str, Any]], timeouts: list[float]) -> list[dict[str, Any]]:
    """Run every item with `solver`; one outcome dict per item, in order.

    An outcome has "status": "ok" (with the worker's payload), "error" (with "message")
    or "timeout".
    """
    outcomes: list[dict[str, Any]] = []
    while len(outcomes) < len(items):
        start = len(outcomes)
        worker = _Worker(solver, items[start:])
        ready = worker.next_line(LOAD_TIMEOUT)
        if not isinstance(ready, dict) or not ready.get("ready"):
            how = worker.stop()
            message = ready.get("message") if isinstance(ready, dict) else f"the solver's file did not load ({ready}, {how})"
            outcomes += [{"status": "error", "message": message, "seconds": 0.0}] * (len(items) - start)
            break
        for index in range(start, len(items)):
            started = time.monotonic()
            report = worker.next_line(timeouts[index])
            if isinstance(report, dict):
                outcomes.append(report)
                continue
            how = worker.stop()
            if report == "timeout":
                outcomes.append({"status": "timeout", "message": f"no answer within {timeouts[index]:g} s", "seconds": timeouts[index]})
            else:
                outcomes.append({"status": "error", "message": f"the process running it ended ({how})", "seconds": time.monotonic() - started})
            break
        else:
            worker.stop()
    return outcomes
