"""The grader's side of the sandbox: start a worker, ask it questions, stop it.

A `Worker` is one sandboxed process that has loaded a student's file. The grader asks it
one question at a time (`call`) with a deadline; the answer is read from a pipe of its
own, bounded and checked into a typed record (`wire.read_reply`), and everything the worker prints on its
standard output and error is read from another pipe, kept up to `Limits.output_kept`
characters and cut off (with the worker) past `Limits.output_bytes` bytes.

`run_tasks` runs the grader's tasks (a search, a set of hook cases, a game...) in order,
each with a time limit, in `jobs` parallel chains, one worker per chain: after a timeout
or a crash the worker is killed with everything it started, and a fresh one takes the
next task.
"""

from __future__ import annotations

import ctypes
import os
import selectors
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from grader.sandbox.isolation import Sandbox
from grader.sandbox.wire import Answer, BadMessage, Raised, Ready, clean_text, encode, read_ready, read_reply

PR_SET_CHILD_SUBREAPER = 36  # Linux prctl option
POLL_SECONDS = 0.2  # how often a silent worker is checked for death or an interrupt

_live: dict[int, Worker] = {}  # pid -> worker, for interrupt() and orphan detection
_live_lock = threading.Lock()
_stopping = threading.Event()


@dataclass(frozen=True)
class Limits:
    """What one worker may use."""

    memory_mb: int = 1024
    min_load_seconds: float = 5.0  # starting Python and importing the student's file
    output_kept: int = 2000  # characters of printed output kept per task
    output_bytes: int = 16 << 20  # printing more than this during one task (or while loading) ends it


class WorkerFailure(Exception):
    """The worker could not answer: `status` is "timeout" or "error"."""

    def __init__(self, status: str, message: str):
        super().__init__(message)
        self.status, self.message = status, message


class StudentRaised(Exception):
    """The student's function raised; `fatal` ones (not implemented, exit, memory) end the task."""

    def __init__(self, message: str, fatal: bool):
        super().__init__(message)
        self.message, self.fatal = message, fatal


def interrupt() -> None:
    """Stop grading now: no new worker starts, every live one is killed."""
    _stopping.set()
    with _live_lock:
        workers = list(_live.values())
    for worker in workers:
        worker.kill()


def _become_subreaper() -> None:
    """Adopt orphaned descendants, so that a detached child of a worker can still be killed."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: process groups are all we have
        pass


def _kill_orphans() -> None:
    """Kill and reap adopted orphans: our children that are no live worker and run
    outside our own session (workers start sessions of their own; children of whoever
    called the grader share its session and are left alone)."""
    ours, me = os.getsid(0), os.getpid()
    while True:
        orphans = []
        for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
            if not entry.isdigit() or int(entry) in _live:
                continue
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
                if parent == me and os.getsid(int(entry)) != ours:
                    orphans.append(int(entry))
            except (OSError, IndexError, ValueError):
                continue
        if not orphans:
            return
        for pid in orphans:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass


def _describe_exit(code: int | None, wrapped: bool = False) -> str:
    """How a worker ended; `wrapped`: it ran under bubblewrap, which exits with 128 + N
    when its command was killed by signal N."""
    if wrapped and code is not None and code > 128:
        code = 128 - code
    if code is not None and code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


class Worker:
    """One sandboxed process that loaded `hooks` (a private copy of the student's file)."""

    def __init__(self, sandbox: Sandbox, hooks: Path, limits: Limits):
        if _stopping.is_set():
            raise WorkerFailure("error", "grading was interrupted")
        self.sandbox, self.limits = sandbox, limits
        self.printed: list[str] = []
        self.printed_bytes = 0
        self.buffer = b""
        reply_read, reply_write = os.pipe()
        output_read, output_write = os.pipe()
        self.uid = sandbox.take_uid()
        argv, extra = sandbox.command(hooks, reply_write, limits.memory_mb, self.uid)
        self.scratch = Path(extra["cwd"])  # the worker's private folder, removed when it stops
        try:
            with _live_lock:
                self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=output_write, stderr=output_write,
                                                pass_fds=(reply_write,), start_new_session=True, **extra)
                _live[self.process.pid] = self
        except OSError as error:
            for fd in (reply_read, reply_write, output_read, output_write):
                os.close(fd)
            sandbox.release_uid(self.uid)
            raise WorkerFailure("error", f"the worker could not start ({error.strerror})") from None
        os.close(reply_write)
        os.close(output_write)
        self.replies, self.output = reply_read, output_read
        assert self.process.stdin is not None
        self.requests = self.process.stdin.fileno()
        os.set_blocking(self.requests, False)
        self.stopped = False

    def load(self, timeout: float) -> None:
        """Wait for the student's file to load; WorkerFailure when it does not."""
        try:
            ready = self._next(time.monotonic() + max(self.limits.min_load_seconds, timeout), read_ready)
        except WorkerFailure as failure:
            if failure.status == "timeout":
                raise WorkerFailure("error", "the file did not finish loading in time") from None
            raise WorkerFailure("error", f"the process ended while loading the file ({failure.message})") from None
        assert isinstance(ready, Ready)
        if not ready.ok:
            raise WorkerFailure("error", clean_text(ready.why or "the file did not load", 400))
        self.printed_bytes = 0  # the output bound counts per task from here

    def send(self, request: dict[str, Any], deadline: float) -> None:
        """Write one request; WorkerFailure if the worker stops reading before `deadline`."""
        data = encode(request)
        with selectors.DefaultSelector() as selector:
            selector.register(self.requests, selectors.EVENT_WRITE)
            while data:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise WorkerFailure("timeout", "no answer in time")
                try:
                    data = data[os.write(self.requests, data):]
                except BlockingIOError:
                    continue
                except OSError:
                    raise WorkerFailure("error", self._ended()) from None

    def call(self, hook: str, args: dict[str, Any], deadline: float) -> Any:
        """The student's answer to one hook call (data, see `wire`), or StudentRaised."""
        self.send({"op": "call", "hook": hook, "args": args}, deadline)
        reply = self._next(deadline, read_reply)
        if isinstance(reply, Raised):
            raise StudentRaised(clean_text(reply.message, 400), reply.fatal)
        assert isinstance(reply, Answer)
        return reply.value

    def _next(self, deadline: float, read: Callable[[bytes], Ready | Answer | Raised]) -> Ready | Answer | Raised:
        """The next message, reading printed output meanwhile; WorkerFailure on timeout,
        death, an output flood or a bad message."""
        with selectors.DefaultSelector() as selector:
            selector.register(self.replies, selectors.EVENT_READ)
            selector.register(self.output, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                if len(self.buffer) > 1 << 20:
                    raise WorkerFailure("error", "sent an answer over 1048576 bytes")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise WorkerFailure("timeout", "no answer in time")
                events = selector.select(min(left, POLL_SECONDS))
                if not events:  # the worker may be gone while what it started holds its pipes
                    if _stopping.is_set():
                        raise WorkerFailure("error", "grading was interrupted")
                    if self.process.poll() is not None:
                        raise WorkerFailure("error", self._ended())
                    continue
                for key, _ in events:
                    chunk = os.read(key.fd, 1 << 16)
                    if key.fd == self.output:
                        self._printed(chunk, selector)
                    elif not chunk:
                        raise WorkerFailure("error", self._ended())
                    else:
                        self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        self._drain_output()
        try:
            return read(line)
        except BadMessage as error:
            raise WorkerFailure("error", f"the worker sent {error}") from None

    def _printed(self, chunk: bytes, selector: selectors.BaseSelector | None = None) -> None:
        if not chunk:
            if selector is not None:
                selector.unregister(self.output)
            return
        self.printed_bytes += len(chunk)
        if sum(map(len, self.printed)) < self.limits.output_kept:
            self.printed.append(chunk.decode("utf-8", "replace"))
        if self.printed_bytes > self.limits.output_bytes:
            raise WorkerFailure("error", f"printed more than {self.limits.output_bytes >> 20} MiB "
                                         "(leftover debugging output?), so it was stopped")

    def _drain_output(self) -> None:
        """Read what the worker printed before its answer, without waiting."""
        with selectors.DefaultSelector() as selector:
            selector.register(self.output, selectors.EVENT_READ)
            while selector.select(0):
                chunk = os.read(self.output, 1 << 16)
                self._printed(chunk)
                if not chunk:
                    return

    def take_output(self) -> str:
        """What the worker printed since the last call, made safe to show."""
        text = "".join(self.printed)
        self.printed.clear()
        self.printed_bytes = 0
        return clean_text(text, self.limits.output_kept)

    def _ended(self) -> str:
        try:
            code = self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "the worker stopped answering"
        return f"the process running it ended ({_describe_exit(code, self.sandbox.mode == 'bwrap')})"

    def kill(self) -> None:
        """Kill the worker's process group (from any thread; `stop` cleans up)."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def stop(self) -> None:
        """Kill the worker and everything it started; free its pipes and its user id."""
        if self.stopped:
            return
        self.stopped = True
        self.kill()  # the whole group, before reaping: until then the pid cannot be reused
        self.process.wait()
        with _live_lock:
            _live.pop(self.process.pid, None)
            if self.sandbox.mode == "none":
                _kill_orphans()  # anything that left the group: a new session, a double fork
        self.sandbox.release_uid(self.uid)  # under `user`: every process of that user
        shutil.rmtree(self.scratch, ignore_errors=True)  # nothing of it for the next worker with that id
        for fd in (self.replies, self.output):
            os.close(fd)
        try:
            assert self.process.stdin is not None
            self.process.stdin.close()
        except OSError:
            pass


class Asker(Protocol):
    """Who answers hook calls: a sandboxed `Worker`, or the reference in our own process."""

    def call(self, hook: str, args: dict[str, Any], deadline: float) -> Any: ...

    def send(self, request: dict[str, Any], deadline: float) -> None: ...

    def take_output(self) -> str: ...


@dataclass(frozen=True)
class Task:
    """Grader work that asks hooks questions: `run(asker, deadline)` within `timeout` seconds."""

    run: Callable[[Asker, float], dict[str, Any]]
    timeout: float


def _failed(status: str, message: str, output: str = "", seconds: float = 0.0) -> dict[str, Any]:
    return {"status": status, "message": message, "output": output, "seconds": seconds}


def _run_chain(start_worker: Callable[[float], Asker], tasks: list[Task], stop: Callable[[Asker], None],
               failures: tuple[type[Exception], ...]) -> list[dict[str, Any]]:
    """Run tasks in order with one asker, replacing it after a failure."""
    outcomes: list[dict[str, Any]] = []
    asker: Asker | None = None
    load_error: str | None = None
    try:
        for task in tasks:
            if load_error is not None:
                outcomes.append(_failed("error", load_error))
                continue
            try:
                asker = asker or start_worker(task.timeout)
            except WorkerFailure as failure:
                load_error = "grading was interrupted" if _stopping.is_set() else failure.message
                outcomes.append(_failed("error", load_error))
                continue
            started = time.monotonic()  # the task's time starts once its worker is ready
            try:
                outcome = {"status": "ok", **task.run(asker, started + task.timeout)}
            except WorkerFailure as failure:
                message = f"no answer within {task.timeout:g} s" if failure.status == "timeout" else failure.message
                outcome = _failed(failure.status, "grading was interrupted" if _stopping.is_set() else message)
                outcome["output"] = asker.take_output()
                stop(asker)
                asker = None
            except failures as error:
                outcome = _failed("error", str(error))
            if outcome.pop("worker_broken", False) and asker is not None:  # the task finished without it
                outcome["output"] = asker.take_output()
                stop(asker)
                asker = None
            outcome["output"] = outcome.get("output") or (asker.take_output() if asker is not None else "")
            outcome["seconds"] = time.monotonic() - started
            outcomes.append(outcome)
    finally:
        if asker is not None:
            stop(asker)
    return outcomes


def _chunks(count: int, jobs: int) -> list[range]:
    """`count` indices split into at most `jobs` contiguous, nearly equal ranges."""
    jobs = max(1, min(jobs, count))
    bounds = [count * j // jobs for j in range(jobs + 1)]
    return [range(bounds[j], bounds[j + 1]) for j in range(jobs) if bounds[j] < bounds[j + 1]]


def run_tasks(start: Callable[[float], Asker], stop: Callable[[Asker], None], tasks: list[Task], jobs: int = 1,
              failures: tuple[type[Exception], ...] = ()) -> list[dict[str, Any]]:
    """Every task's outcome, in order: {"status": "ok", **what it returned} or a failure
    {"status": "error"|"timeout", "message"}; each with "seconds" and "output".

    `start(timeout)` gives a ready asker, `stop` ends one; `failures` are the exceptions
    a task may raise that cost that task only (a broken contract, say).
    """
    _become_subreaper()
    chunks = _chunks(len(tasks), jobs)
    if len(chunks) <= 1:
        return _run_chain(start, tasks, stop, failures)
    pool = ThreadPoolExecutor(max_workers=len(chunks))
    try:
        parts = list(pool.map(lambda chunk: _run_chain(start, tasks[chunk.start:chunk.stop], stop, failures), chunks))
    except KeyboardInterrupt:
        interrupt()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return [outcome for part in parts for outcome in part]


def start_worker(sandbox: Sandbox, hooks: Path, limits: Limits) -> Callable[[float], Asker]:
    """A `start` for run_tasks: a loaded worker for `hooks`."""
    def start(timeout: float) -> Asker:
        worker = Worker(sandbox, hooks, limits)
        try:
            worker.load(timeout)
        except WorkerFailure as failure:
            output = worker.take_output()
            worker.stop()
            printed = f" (it printed: {output.strip()[:200]})" if output.strip() else ""
            raise WorkerFailure("error", failure.message + printed) from None
        return worker

    return start


def stop_worker(asker: Asker) -> None:
    if isinstance(asker, Worker):
        asker.stop()
