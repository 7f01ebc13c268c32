"""Running graded items in separate worker processes, with a time limit per item.

A worker runs its items in order and reports each as a JSON line. If an item runs past
its time limit, the worker's whole process group is killed and a fresh worker takes the
remaining items; if the worker dies, the item it was on is reported and the rest go on.
With several jobs, the items are split into contiguous chunks, one worker chain each;
the outcomes do not depend on the number of jobs.
"""

from __future__ import annotations

import ctypes
import json
import os
import secrets
import selectors
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from .worker import MEMORY_ENV

OUTPUT_KEPT = 2000  # bytes of a dead worker's own output shown with its error
PR_SET_CHILD_SUBREAPER = 36  # Linux prctl option

_workers: set[int] = set()  # pids of live workers; every other child of ours is an orphan to kill
_workers_lock = threading.Lock()
_stopping = threading.Event()  # set on Ctrl-C: no new worker starts, live ones are killed


def interrupt() -> None:
    """Stop grading now: kill every live worker; chains record the rest as interrupted."""
    _stopping.set()
    with _workers_lock:
        for pid in list(_workers):
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _become_subreaper() -> None:
    """Adopt orphaned descendants (a student's detached child becomes ours, so it can be killed)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: process groups are all we have
        pass


def _children() -> list[int]:
    """Pids whose parent is this process (from /proc; empty where there is none)."""
    me, found = os.getpid(), []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if parent == me:
                found.append(int(entry))
    return found


def _session(pid: int) -> int | None:
    try:
        return os.getsid(pid)
    except ProcessLookupError:
        return None


def _kill_orphans() -> None:
    """Kill and reap every adopted orphan (call with the lock held).

    An orphan is a child of ours that is not a live worker and runs outside our own
    session: workers start sessions of their own, so everything they leave behind does,
    while children that whoever called the grader started share its session and are left
    alone. Killing one orphan may hand us its children, so repeat until none is left.
    """
    ours = os.getsid(0)
    while True:
        orphans = [pid for pid in _children() if pid not in _workers and _session(pid) not in (ours, None)]
        if not orphans:
            return
        for pid in orphans:
            for action in (lambda: os.kill(pid, signal.SIGKILL), lambda: os.waitpid(pid, 0)):
                try:
                    action()
                except (ProcessLookupError, ChildProcessError):
                    pass


@dataclass(frozen=True)
class Limits:
    """What one graded item may use."""

    memory_mb: int = 1024
    min_load_seconds: float = 5.0  # starting Python and importing the solver's file


def _describe_exit(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


class _Worker:
    """One worker process, the pipe it reports on, and a file catching its raw output.

    `module` runs with `job` (plus a per-run token) as JSON on standard input. An
    interactive worker keeps its standard input open for more requests, one JSON line each.
    """

    def __init__(self, module: str, job: dict[str, Any], limits: Limits, interactive: bool = False):
        self.token = secrets.token_hex(16)  # reports without it did not come from the worker's loop
        read_fd, write_fd = os.pipe()
        env = {**os.environ, "GRADER_RESULT_FD": str(write_fd), MEMORY_ENV: str(limits.memory_mb),
               "PYTHONDONTWRITEBYTECODE": "1"}
        self.output = tempfile.TemporaryFile()
        with _workers_lock:
            self.process = subprocess.Popen(
                [sys.executable, "-m", module],
                stdin=subprocess.PIPE,
                stdout=self.output,
                stderr=self.output,
                pass_fds=(write_fd,),
                env=env,
                start_new_session=True,
            )
            _workers.add(self.process.pid)
        os.close(write_fd)
        self.reader = os.fdopen(read_fd, "rb", buffering=0)
        self.buffer = b""
        self.send({**job, "token": self.token})
        if not interactive:
            self.close_input()

    def send(self, data: dict[str, Any]) -> bool:
        """Write one JSON line to the worker; False when it no longer listens."""
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(json.dumps(data).encode() + b"\n")
            self.process.stdin.flush()
            return True
        except (BrokenPipeError, ValueError):
            return False

    def close_input(self) -> None:
        try:
            assert self.process.stdin is not None
            self.process.stdin.close()
        except BrokenPipeError:
            pass

    def next_report(self, timeout: float) -> dict[str, Any] | str:
        """The next report, or "timeout" / "eof"."""
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            selector.register(self.reader, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    return "timeout"
                chunk = self.reader.read(1 << 16)
                if not chunk:
                    return "eof"
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        try:
            report = json.loads(line)
        except ValueError:
            return "eof"
        if not isinstance(report, dict) or report.pop("token", None) != self.token:
            return "eof"
        return report

    def stop(self, grace: float = 0.0) -> tuple[str, str]:
        """Kill the worker and everything it started; how it ended and what it printed.

        `grace`: seconds to let a worker that is already dying exit by itself, so its own
        exit code is reported rather than our kill.
        """
        if grace:
            try:
                self.process.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        try:  # the whole group, before reaping: until then the pid cannot be reused
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        code = self.process.wait()
        with _workers_lock:
            _workers.discard(self.process.pid)
            _kill_orphans()  # anything that left the group: a new session, a double fork
        self.reader.close()
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.close_input()
        self.output.seek(0)
        printed = self.output.read(OUTPUT_KEPT).decode("utf-8", "replace")
        self.output.close()
        return _describe_exit(code), printed


def _run_chain(solver: str, items: list[dict[str, Any]], timeouts: list[float], limits: Limits) -> list[dict[str, Any]]:
    """Run items in order in one worker, starting a new worker after a timeout or a crash."""
    outcomes: list[dict[str, Any]] = []
    while len(outcomes) < len(items):
        start = len(outcomes)
        if _stopping.is_set():
            outcomes += [{"status": "error", "message": "grading was interrupted", "seconds": 0.0}] * (len(items) - start)
            break
        worker = _Worker("grader.worker", {"solver": solver, "items": items[start:]}, limits)
        ready = worker.next_report(max(limits.min_load_seconds, timeouts[start]))
        if isinstance(ready, dict) and ready.get("ready"):
            for index in range(start, len(items)):
                started = time.monotonic()
                report = worker.next_report(timeouts[index])
                if isinstance(report, dict):
                    outcomes.append(report)
                    continue
                how, printed = worker.stop(grace=0.0 if report == "timeout" else 1.0)
                if report == "timeout":
                    outcomes.append({"status": "timeout", "message": f"no answer within {timeouts[index]:g} s",
                                     "seconds": timeouts[index], "output": printed})
                else:
                    outcomes.append({"status": "error", "message": f"the process running it ended ({how})",
                                     "seconds": time.monotonic() - started, "output": printed})
                break
            else:
                worker.stop()
            continue
        how, printed = worker.stop(grace=1.0 if ready == "eof" else 0.0)
        if isinstance(ready, dict):
            message = ready.get("message", "the solver's file did not load")
        elif ready == "timeout":
            message = "the solver's file did not finish loading in time"
        else:
            message = f"the process ended while loading the solver's file ({how})"
        outcomes += [{"status": "error", "message": message, "seconds": 0.0, "output": printed}] * (len(items) - start)
    return outcomes


def _chunks(count: int, jobs: int) -> list[range]:
    """`count` indices split into at most `jobs` contiguous, nearly equal ranges."""
    jobs = max(1, min(jobs, count))
    bounds = [count * j // jobs for j in range(jobs + 1)]
    return [range(bounds[j], bounds[j + 1]) for j in range(jobs) if bounds[j] < bounds[j + 1]]


def run_items(
    solver: str,
    items: list[dict[str, Any]],
    timeouts: list[float],
    jobs: int = 1,
    limits: Limits = Limits(),
) -> list[dict[str, Any]]:
    """Run every item with `solver` (in `jobs` parallel workers); one outcome per item, in order.

    An outcome has "status": "ok" (with the worker's payload), "error" (with "message")
    or "timeout".
    """
    _become_subreaper()
    chunks = _chunks(len(items), jobs)
    pool = ThreadPoolExecutor(max_workers=max(1, len(chunks)))
    try:
        parts = list(pool.map(
            lambda chunk: _run_chain(solver, items[chunk.start:chunk.stop], timeouts[chunk.start:chunk.stop], limits),
            chunks,
        ))
    except KeyboardInterrupt:
        interrupt()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return [outcome for part in parts for outcome in part]
