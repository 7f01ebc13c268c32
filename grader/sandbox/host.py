"""The grader's side of the sandbox: start a worker, ask it questions, stop it.

A `Worker` is one sandboxed process that has loaded a student's file. For each graded
item it forks a fresh copy of itself (`begin`, `end`); the grader asks that copy one
question at a time (`call`). The answer is read from a pipe of its own, bounded and
checked into a typed record (`wire.read_reply`), and everything the worker prints on its
standard output and error is read from another pipe, kept up to `Limits.output_kept`
characters and cut off (with the worker) past `Limits.output_bytes` bytes.

While the grader waits, it reads what the worker's processes use (`usage`): the item's
time (`Budget`). Memory and processes are kept by the kernel in a control group of the
worker's own (`cgroup`), whose out-of-memory kill is the student's memory error; where no
group can be made, the grader counts them from its readings. Past a limit the worker is
killed with everything it started.

A failure is the student's (`WorkerFailure`) unless it is marked `ours`: a failure
before any student code ran (a worker that could not start, or did not say it started),
or the wall-clock backstop reached by an item that spent most of it waiting for the
machine while its worker had a CPU share of its own (see `Budget`). From the worker's
{"started": true} on, everything else is the student's: a file that does not load (kind
"unloadable", from the worker's typed load report), a limit, a death, and the backstop
reached sleeping, stopped or writing to us. The caller retries the failures that are
ours instead of scoring them (`grader.sandbox.tasks`).
"""

from __future__ import annotations

import ctypes
import os
import select
import selectors
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from grader.errors import HookError
from grader.sandbox import stopping
from grader.sandbox.budget import Budget, CallTimes, Lateness
from grader.sandbox.cgroup import Group, held
from grader.sandbox.cores import keep_on
from grader.sandbox.importrule import outside_rule
from grader.sandbox.isolation import Isolation, Sandbox
from grader.sandbox.usage import Usage, files_in_memory, members, scheduled, usage
from grader.sandbox.wire import (
    Answer,
    BadMessage,
    BoardRequest,
    CallsDigest,
    Ended,
    Raised,
    RaisedKind,
    Ready,
    Reply,
    Searched,
    Upto,
    batch_ends,
    batch_message,
    clean_text,
    encode,
    read_began,
    read_ended,
    read_ready,
    read_reply,
    read_search_reply,
    read_started,
)

PR_SET_CHILD_SUBREAPER = 36  # Linux prctl option
POLL_SECONDS = 0.2  # how often a silent worker is checked for death or a stop (`stopping`)

_live: dict[int, Worker] = {}  # pid -> worker, for interrupt() and orphan detection
_live_lock = threading.Lock()  # never taken by a signal handler (see `stopping`)


START_SECONDS = 60.0  # wall-clock seconds for a worker to start, before any student code runs
END_SECONDS = 10.0  # wall-clock seconds for an item's process to end when told to
PIPE_BYTES = 1 << 16  # what a pipe holds: a read this long may have kept the worker waiting


@dataclass(frozen=True)
class Limits:
    """What one worker may use: memory and processes count over all its processes."""

    memory_mb: int = 1024
    min_load_seconds: float = 5.0  # importing the student's file (seconds, like an item's limit)
    output_kept: int = 2000  # characters of printed output kept per task
    output_bytes: int = 16 << 20  # printing more than this during one task (or while loading) ends it
    processes: int = 32  # processes at once, the worker's own included (counted by us where no control group is)
    tasks: int = 128  # processes and threads at once, kept by the kernel (a control group's pids limit)


FailureKind = Literal["crashed", "timeout", "unloadable", "output"]
"""How a worker failed (`ErrorKind`'s words): "unloadable" when the student's file did not
load (the worker's load report said so, or the load ran out of time or died); "output"
when it printed past `Limits.output_bytes`; "crashed" when its process ended, went over a
limit or sent a bad message; a typed fact, never text read back from a reason."""


class WorkerFailure(Exception):
    """The worker could not answer: `kind` says how; `hook` is the call that was waiting
    for an answer; `ours` marks a failure of the grader's or the machine's before any
    student code ran, which must never cost the student points."""

    def __init__(self, kind: FailureKind, message: str, hook: str | None = None, ours: bool = False, why: str = ""):
        super().__init__(message)
        self.kind, self.message, self.hook, self.ours = kind, message, hook, ours
        self.why = why  # for "unloadable": why the file did not load, without its name or what it printed


class StudentRaised(HookError):
    """The student's function `hook` raised (`kind`: NotImplementedError or another, as the
    worker saw it); `fatal` ones (not implemented, exit, memory) end the task."""

    def __init__(self, message: str, fatal: bool, hook: str = "", kind: RaisedKind = "raised", where: tuple[str, int] | None = None):
        super().__init__(message, hook, kind)
        self.fatal, self.where = fatal, where  # where: the exception's type and line in the student's files, as the worker saw them


@dataclass
class Recording:
    """A search the worker runs itself (`Worker.recorded`): the calls the grader's own search
    made of it so far, and whether the worker's calls turned out to be others (`parted`):
    then what the grader's search found is not kept, and it searches again asking each call."""

    digest: CallsDigest = field(default_factory=CallsDigest)
    parted: bool = False


class Parted(Exception):
    """The grader's search asked for a call after the worker's search had ended."""


def interrupt() -> None:
    """Stop grading now: no new worker starts, every live one is killed. Called on the
    way out of a KeyboardInterrupt, never from a signal handler (it takes a lock)."""
    stopping.ask("SIGINT")
    with _live_lock:
        workers = list(_live.values())
    for worker in workers:
        worker.kill()


def become_subreaper() -> None:
    """Adopt orphaned descendants, so that a detached child of a worker can still be killed."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: process groups are all we have
        pass


def kill_orphans(spared: frozenset[int] = frozenset()) -> None:
    """Kill and reap adopted orphans: our children that are no live worker, none of the
    sandbox's own `spared` helpers, and run outside our own session (workers start
    sessions of their own; children of whoever called the grader share its session and
    are left alone)."""
    ours, me = os.getsid(0), os.getpid()
    while True:
        orphans = []
        for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
            if not entry.isdigit() or int(entry) in _live or int(entry) in spared:
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


def describe_exit(code: int | None, wrapped: bool = False) -> str:
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
        stopping.check()
        self.sandbox, self.limits = sandbox, limits
        self.name = hooks.name  # the student's file, as its reasons name it
        self.printed: list[str] = []
        self.printed_bytes = 0
        self.buffer = b""
        self.budget: Budget | None = None  # the current item's time, or None: a wall-clock deadline only
        self.wall_deadline = time.monotonic() + START_SECONDS
        self.pending: str | None = None  # the hook whose answer is awaited
        self.call_limit: tuple[float, float] | None = None  # (time spent when the call began, its limit)
        self.read_at = 0.0  # when the worker's usage was last read
        self.pipe_full_at = 0.0  # when a read last found a pipe from the worker full
        self.late = Lateness()  # how slow the grader was to read the worker's pipes
        self.late_at_read = 0.0  # `late.total` when the worker's usage was last read
        self.student_ran = False  # the worker said it started: from here on, student code may run
        self.uid: int | None = None
        self.group: Group | None = None  # the worker's control group, where the kernel keeps its limits
        self.calls = CallTimes()  # the current item's hook calls
        self.recording: Recording | None = None  # a search the worker runs itself, whose replies `call` reads
        reply_read, reply_write = os.pipe()
        output_read, output_write = os.pipe()
        try:
            self.uid = sandbox.take_uid()
            stopping.check()  # a stop asked while this waited for a user id
            argv, extra = sandbox.command(hooks, reply_write, limits.memory_mb, self.uid)
            self.scratch = Path(extra["cwd"])  # the worker's private folder, removed when it stops
            self.group = sandbox.group(limits.memory_mb << 20, limits.tasks)
            with _live_lock:
                self.process = subprocess.Popen(
                    held(argv) if self.group else argv,
                    stdin=subprocess.PIPE,
                    stdout=output_write,
                    stderr=output_write,
                    pass_fds=(reply_write,),
                    start_new_session=True,
                    **extra,
                )
                _live[self.process.pid] = self
            if self.group is not None:
                self._release_into(self.group)
        except (OSError, KeyboardInterrupt) as error:
            for fd in (reply_read, reply_write, output_read, output_write):
                os.close(fd)
            if hasattr(self, "process"):
                self._remove()
            sandbox.release_uid(self.uid)
            if self.group is not None:
                self.group.remove()
            if isinstance(error, KeyboardInterrupt):
                raise
            raise WorkerFailure("crashed", f"the worker could not start ({error.strerror or error})", ours=True) from None
        os.close(reply_write)
        os.close(output_write)
        self.replies, self.output = reply_read, output_read
        self.selector = selectors.DefaultSelector()  # both pipes, watched while an answer is awaited (one for the worker's life)
        self.selector.register(self.replies, selectors.EVENT_READ)
        self.selector.register(self.output, selectors.EVENT_READ)
        assert self.process.stdin is not None
        self.requests = self.process.stdin.fileno()
        os.set_blocking(self.requests, False)
        self.stopped = False
        self.own: set[int] = set()  # the worker's processes before any student code ran (`load`)

    def _release_into(self, group: Group) -> None:
        """Put the worker, still waiting behind `held`, in its group; then let it start:
        everything it starts is born there."""
        group.place(self.process.pid)
        assert self.process.stdin is not None
        self.process.stdin.write(b"\n")
        self.process.stdin.flush()

    def _remove(self) -> None:
        """Kill and reap the worker's process; it is no live worker any more."""
        self.kill()
        self.process.wait()
        with _live_lock:
            _live.pop(self.process.pid, None)
        assert self.process.stdin is not None
        self.process.stdin.close()

    def load(self, limit: float) -> None:
        """Wait for the worker to start, then for a first fork of it to load the student's
        file within `limit` seconds (at least `Limits.min_load_seconds`); WorkerFailure
        when it does not."""
        try:
            self._next(read_started)
        except WorkerFailure as failure:  # no student code has run yet: this failure is ours
            raise WorkerFailure("crashed", f"the worker could not start ({failure.message})", ours=True) from None
        self.own = self._alive()
        self.student_ran = True
        self.budget = Budget(max(self.limits.min_load_seconds, limit), self._usage().cpu)
        try:
            ready = self._next(read_ready)
            if isinstance(ready, Ready):  # and the worker says its first fork ended (student code may stop it)
                self._next(read_ended)
                self._gone()
        except WorkerFailure as failure:
            if failure.ours:
                raise
            if failure.kind == "timeout":
                why = f"the file did not finish loading in time ({failure.message})"
            else:
                why = f"the process ended while loading the file ({failure.message})"
            raise WorkerFailure("unloadable", why, why=why) from None
        finally:
            self.budget = None
        if isinstance(ready, Ended):
            why = f"the process ended while loading the file ({ready.how})"
            raise WorkerFailure("unloadable", why, why=why)
        if not ready.ok:
            rule = outside_rule(ready.missing) if ready.missing else None
            why = rule or clean_text(ready.why or "the file did not load", 400)
            raise WorkerFailure("unloadable", f"cannot load {self.name}: {why}", why=why)
        self.printed_bytes = 0  # the output bound counts per task from here

    def begin(self, limit: float) -> None:
        """Start an item in a fresh fork of the worker, with `limit` seconds (see `Budget`),
        loading the student's file again included."""
        self._fork(Budget(limit, self._usage().cpu))

    def again(self) -> None:
        """Start the current item again in a fresh fork of the worker, its time going on:
        what its first process used stays charged (a fresh process is no fresh budget)."""
        budget = self.budget
        assert budget is not None, "again: no item is running"
        self.end()
        self._fork(budget)

    def _fork(self, budget: Budget) -> None:
        """Run the item in a fresh fork of the worker, charged to `budget`."""
        self.budget = budget
        self.calls = CallTimes()
        self.send({"op": "task"})
        began = self._next(read_began)
        if isinstance(began, Ended):
            raise WorkerFailure("crashed", f"the process for this item ended at once ({began.how})")

    def end(self) -> None:
        """The item is done: its process exits. WorkerFailure if it does not (stop the worker then)."""
        self.budget, self.wall_deadline = None, time.monotonic() + END_SECONDS
        self.send({"op": "end"})
        self._next(read_ended)
        self._gone()

    def _alive(self) -> set[int]:
        """The worker's processes now: its control group's, else those `usage` counts."""
        if self.group is not None:
            return set(self.group.processes())
        return {process.pid for process in members(self.process.pid, self.uid)}

    def keep_on(self, cores: set[int]) -> bool:
        """Keep the worker's processes, and those they start, on `cores` (a hint to the
        scheduler: `cores.SharedCore`); whether the kernel took every one."""
        return keep_on(self._alive(), cores)

    def _gone(self) -> None:
        """WorkerFailure unless the fork that just said it ended is gone: "ended" travels
        on the pipe student code writes its answers to, so a fork can say it for itself and
        live on to serve the next item with what it kept. Only the processes the worker had
        before any student code ran may be left (a fork cannot start processes)."""
        if self._alive() - self.own:
            raise WorkerFailure("crashed", "the item's process said it had ended but still ran", self.pending)

    def used(self) -> float:
        """Seconds charged to the current item so far (see `Budget`), read afresh."""
        if self.budget is None:
            return 0.0
        started = time.thread_time()
        self.budget.read_worker(self._usage().cpu)
        self.budget.watching += time.thread_time() - started
        return self.budget.spent()

    @contextmanager
    def uncharged(self) -> Iterator[None]:
        """The grader's own work in this block (checking answers against the model
        answer's) is not charged to the item."""
        started = time.thread_time()
        try:
            yield
        finally:
            if self.budget is not None:
                self.budget.watching += time.thread_time() - started

    def spent(self) -> str:
        """What the current item's time went to, in words."""
        return self.budget.describe() if self.budget is not None else ""

    def send(self, request: dict[str, Any]) -> None:
        """Write one request; WorkerFailure if the worker stops reading in time. A request
        the pipe has room for is written at once, without waiting."""
        self.write(encode(request))

    def write(self, data: bytes) -> None:
        """`send` of a request already encoded (`wire.encode`)."""
        try:
            data = data[os.write(self.requests, data) :]
        except BlockingIOError:
            pass
        except OSError:
            raise WorkerFailure("crashed", self._ended(), self.pending) from None
        if not data:
            return
        with selectors.DefaultSelector() as selector:
            selector.register(self.requests, selectors.EVENT_WRITE)
            waiting_since = time.monotonic()
            while data:
                self._check(waiting_since)
                if not selector.select(POLL_SECONDS):
                    continue
                try:
                    data = data[os.write(self.requests, data) :]
                except BlockingIOError:
                    continue
                except OSError:
                    raise WorkerFailure("crashed", self._ended(), self.pending) from None

    @contextmanager
    def recorded(self, board: BoardRequest) -> Iterator[Recording]:
        """Within: the item's process runs the grader's search of `board` (a board request)
        itself with the student's hooks, and `call` reads its next reply instead of asking
        (see `wire`: "search"), each call counted and digested as it is made here. On
        leaving, the rest of its replies are read; `parted` says whether its calls were
        other than those made here (then `Parted` from a call ended the search here)."""
        self.send({**board, "op": "search"})
        recording = self.recording = Recording()
        try:
            yield recording
        except Parted:
            recording.parted = True
            return
        finally:
            self.recording = None
        while not isinstance(ended := self._replayed(None), Searched):
            recording.parted = True  # a reply to a call the grader's search did not make
        recording.parted |= (ended.calls, ended.inputs) != (recording.digest.calls, recording.digest.text())

    def _replayed(self, hook: str | None) -> Answer | StudentRaised | Searched:
        """The next reply of a search the worker runs, read as the answer to a call of `hook`
        (None: of no call the grader made)."""
        reply = self._awaited(hook, read_search_reply)
        return reply if isinstance(reply, Searched) else self._answered_as(reply, hook or "")

    def _awaited(self, hook: str | None, read: Callable[[bytes], Reply]) -> Any:
        """The next message, read by `read` as the reply to a call of `hook` (None: of no
        call), the wait for it counted as that hook's."""
        self.pending, started = hook, time.monotonic()
        try:
            return self._next(read)
        finally:
            self.pending = None
            if hook is not None:
                self.calls.add(hook, time.monotonic() - started)

    def call(self, hook: str, args: dict[str, Any], limit: float | None = None) -> Any:
        """The student's answer to one hook call (data, see `wire`), or StudentRaised; with
        `limit`, this call alone may take at most that many seconds of the item's time.
        Within `recorded`, the next reply of the worker's search."""
        if self.recording is None:
            return self.call_line(hook, encode({"op": "call", "hook": hook, "args": args}), limit)
        stopping.check()
        self.recording.digest.add(hook, encode(args))
        reply = self._replayed(hook)
        if isinstance(reply, Searched):
            raise Parted
        if isinstance(reply, StudentRaised):
            raise reply
        return reply.value

    def call_line(self, hook: str, request: bytes, limit: float | None = None, read: Callable[[bytes], Reply] = read_reply) -> Any:
        """`call` of a request already encoded (`wire.encode` of {"op": "call"}), outside
        `recorded`, its reply read by `read` (`read_reply`, or one that reads the replies of
        this hook it knows quicker and any other line as `read_reply` does): for a call
        asked over and over (an agent's moves), made with no more work than it needs."""
        stopping.check()
        self.pending = hook
        self.call_limit = (self.budget.spent(), limit) if self.budget is not None and limit is not None else None
        started = time.monotonic()
        try:
            self.write(request)
            reply = self._next(read)
        finally:
            self.pending, self.call_limit = None, None
            self.calls.add(hook, time.monotonic() - started)
        answered = self._answered_as(reply, hook)
        if isinstance(answered, StudentRaised):
            raise answered
        return answered.value

    def call_all(self, asks: list[dict[str, Any]], upto: Upto) -> list[Answer | StudentRaised]:
        """The replies to a batch of requests (`wire`: boards and calls whose arguments do
        not depend on earlier answers), one per call in turn, read one by one up to where
        the batch's answers end (`upto`, `wire.batch_ends`): what asking them one by one
        would have got, the worker's time, output and failures included."""
        stopping.check()
        calls = [ask for ask in asks if ask["op"] == "call"]
        replies: list[Answer | StudentRaised] = []
        if not calls:
            return replies
        self.pending = calls[0]["hook"]
        try:
            self.send(batch_message(asks, upto))
            for ask in calls:
                reply = self._awaited(ask["hook"], read_reply)
                answered = self._answered_as(reply, ask["hook"])
                replies.append(answered)
                if batch_ends(reply, ask["hook"], ask["args"], upto):
                    break
        finally:
            self.pending = None
        return replies

    def _answered_as(self, reply: Any, hook: str) -> Answer | StudentRaised:
        """A reply to a call of `hook`: the answer, or what the student's function raised;
        WorkerFailure when the item's process ended instead."""
        if isinstance(reply, Ended):
            raise WorkerFailure("crashed", f"the process running it ended ({reply.how})", hook)
        if isinstance(reply, Raised):
            return StudentRaised(
                (outside_rule(reply.missing) if reply.missing else None) or clean_text(reply.message, 400), reply.fatal, hook, reply.kind, reply.where
            )
        assert isinstance(reply, Answer)
        return reply

    def _next(self, read: Callable[[bytes], Reply]) -> Any:
        """The next message, reading printed output meanwhile; WorkerFailure on timeout,
        death, an output flood, a limit or a bad message."""
        waiting_since = time.monotonic()
        self.late.away_since(waiting_since)
        wakeup = stopping.wakeup_fd()
        if wakeup is not None and wakeup not in self.selector.get_map():  # a signal wakes this wait at once
            self.selector.register(wakeup, selectors.EVENT_READ)
        printed = True  # whether output may wait to be read (the worker prints before it answers)
        while b"\n" not in self.buffer:
            if len(self.buffer) > 1 << 20:
                raise WorkerFailure("crashed", "sent an answer over 1048576 bytes", self.pending)
            self._check(waiting_since)
            self.late.listening()
            events = self.selector.select(POLL_SECONDS)
            self.late.woke()
            if not events:  # the worker may be gone while what it started holds its pipes
                if self.process.poll() is not None:
                    raise WorkerFailure("crashed", self._ended(), self.pending)
                continue
            printed = any(key.fd == self.output for key, _ in events)  # else none was printed before the wait's answer
            for key, _ in events:
                self._take(key.fd, self.selector)
        line, self.buffer = self.buffer.split(b"\n", 1)
        if printed:
            self._drain_output()
        try:
            message = read(line)
        except BadMessage as error:
            raise WorkerFailure("crashed", f"the worker sent {error}", self.pending) from None
        if isinstance(message, Ended) and self._out_of_memory():  # the kernel killed it for its memory
            raise WorkerFailure("crashed", self._memory_text(), self.pending)
        return message

    def _take(self, fd: int, selector: selectors.BaseSelector) -> None:
        """Read what descriptor `fd` of a wait has: a reply, printed output, or a signal
        (`stopping.woken`)."""
        if fd == stopping.wakeup_fd():
            stopping.woken()
            return
        chunk = os.read(fd, PIPE_BYTES)
        if len(chunk) == PIPE_BYTES:  # a full pipe: the worker may have waited for us to read
            self.pipe_full_at = time.monotonic()
        if fd == self.output:
            self._printed(chunk, selector)
        elif not chunk:
            raise WorkerFailure("crashed", self._ended(), self.pending)
        else:
            self.buffer += chunk

    def _check(self, waiting_since: float) -> None:
        """WorkerFailure when the item is out of time or the worker over a limit. A
        failure before the worker said it started is ours; after that, the wall-clock
        backstop is ours only when the item spent most of it waiting for the machine and
        the worker had a CPU share of its own (no other worker could starve it); else it
        is the student's (a worker that sleeps, stops itself or keeps writing to us is
        never charged more than the grader really lost). KeyboardInterrupt when a stop was
        asked (`stopping`)."""
        stopping.check()
        now = time.monotonic()
        budget = self.budget
        if budget is None:
            if now > self.wall_deadline:
                raise WorkerFailure("timeout", "no answer in time", self.pending, ours=not self.student_ran)
            return
        if now - self.read_at >= POLL_SECONDS:
            started = time.thread_time()
            reading = self._usage()
            budget.read_threads(scheduled(reading.pids), reading.cpu, time.monotonic())
            budget.watching += time.thread_time() - started
            before = budget.worker
            budget.read_worker(reading.cpu)
            if not reading.running and not self._answered():  # no thread on a core or waiting for one: asleep,
                # blocked or stopped, but not done and waiting for us (the grader's thread waited for a core),
                # nor running other threads
                since = max(self.read_at, waiting_since)
                waited = now - since
                if self.pipe_full_at > since:  # it may have been blocked on a full pipe to us
                    waited -= budget.excuse(waited, self.late.total - self.late_at_read)
                budget.asleep += max(0.0, waited - (budget.worker - before))
            self.read_at, self.late_at_read = now, self.late.total
            self._check_resources(reading)
        if budget.over():
            raise WorkerFailure("timeout", f"ran out of time ({budget.limit:g} s): {budget.describe()}", self.pending)
        if self.call_limit is not None and budget.spent() - self.call_limit[0] > self.call_limit[1]:
            raise WorkerFailure("timeout", f"no answer within {self.call_limit[1]:g} s: {budget.describe()}", self.pending)
        if budget.past_backstop():
            if self._shares_cpu() and budget.starved_most():
                raise WorkerFailure(
                    "timeout",
                    f"no answer within {budget.wall:g} s of wall-clock time, most of it "
                    f"waiting for a busy machine ({budget.waited_for_the_machine():.0f} s)",
                    self.pending,
                    ours=True,
                )
            raise WorkerFailure(
                "timeout",
                f"no answer within {budget.wall:g} s of wall-clock time ({budget.describe()}): "
                "an item that sleeps, stops or keeps sending output is ended there",
                self.pending,
            )

    def _shares_cpu(self) -> bool:
        """Whether the worker has a CPU share of its own, equal to every other worker's."""
        return self.group is not None and self.group.cpu is not None

    def _answered(self) -> bool:
        """Whether a reply is waiting to be read (the worker is done, we were slow to look)."""
        return b"\n" in self.buffer or bool(select.select([self.replies], [], [], 0)[0])

    def _check_resources(self, reading: Usage) -> None:
        """WorkerFailure past a memory or process limit: the kernel's figures where the
        worker has a control group, else our own count. Neither is the item's time."""
        started = time.thread_time()
        try:
            if self._out_of_memory():
                raise WorkerFailure("crashed", self._memory_text(), self.pending)
            if self.group is None:
                self._count_resources(reading)
        finally:
            if self.budget is not None:
                self.budget.watching += time.thread_time() - started

    def _out_of_memory(self) -> bool:
        """Whether the kernel killed a process of the worker's for being over its memory."""
        return self.group is not None and self.group.out_of_memory()

    def _memory_text(self) -> str:
        return (
            f"used more than {self.limits.memory_mb} MB of memory (its processes, the files it keeps in memory, "
            "its unread socket buffers and the kernel's memory for it together), so it was stopped"
        )

    def _count_resources(self, reading: Usage) -> None:
        """Where no control group keeps the limits: the worker's resident memory, under
        `user` with its own files in RAM-backed folders, and its processes, as we read them."""
        if reading.memory > self.limits.memory_mb << 20:
            raise WorkerFailure(
                "crashed", f"used more than {self.limits.memory_mb} MB of memory (all its processes together), so it was stopped", self.pending
            )
        ram_files = self.sandbox.ram_folders
        if ram_files and self.uid is not None and reading.memory + files_in_memory(self.uid, ram_files) > self.limits.memory_mb << 20:
            raise WorkerFailure(
                "crashed",
                f"used more than {self.limits.memory_mb} MB of memory (all its processes "
                f"and its files in {', '.join(ram_files)} together), so it was stopped",
                self.pending,
            )
        if reading.processes > self.limits.processes:
            raise WorkerFailure("crashed", f"ran more than {self.limits.processes} processes at once, so it was stopped", self.pending)

    def _usage(self) -> Usage:
        return usage(self.process.pid, self.uid, self.group.processes() if self.group is not None else None)

    def _printed(self, chunk: bytes, selector: selectors.BaseSelector | None = None) -> None:
        if not chunk:
            if selector is not None:
                selector.unregister(self.output)
            return
        self.printed_bytes += len(chunk)
        if sum(map(len, self.printed)) < self.limits.output_kept:
            self.printed.append(chunk.decode("utf-8", "replace"))
        if self.printed_bytes > self.limits.output_bytes:
            raise WorkerFailure(
                "output", f"printed more than {self.limits.output_bytes >> 20} MiB (leftover debugging output?), so it was stopped", self.pending
            )

    def _drain_output(self) -> None:
        """Read what the worker printed before its answer, without waiting."""
        while select.select([self.output], [], [], 0)[0]:
            chunk = os.read(self.output, 1 << 16)
            self._printed(chunk)
            if not chunk:
                return

    def take_output(self) -> str:
        """What the worker printed since the last call, made safe to show."""
        if not self.printed:  # nothing kept since (the usual case: no text to clean)
            self.printed_bytes = 0
            return ""
        text = "".join(self.printed)
        self.printed.clear()
        self.printed_bytes = 0
        return clean_text(text, self.limits.output_kept)

    def _ended(self) -> str:
        try:
            code: int | None = self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        if self._out_of_memory():  # the kernel killed a process of it for its memory
            return self._memory_text()
        if code is None:
            return "the worker stopped answering"
        return f"the process running it ended ({describe_exit(code, self.sandbox.mode is Isolation.BWRAP)})"

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
        if self.group is not None:
            self.group.kill()  # every process in its control group, wherever it went
        self.process.wait()
        self.sandbox.release_uid(self.uid)  # as root: every process of that user, and under `user` its files
        with _live_lock:
            _live.pop(self.process.pid, None)
            kill_orphans(self.sandbox.helpers())  # anything that left the group (a new session, a double fork) and came to us
        if self.group is not None:
            self.group.remove()  # once its processes are reaped
        shutil.rmtree(self.scratch, ignore_errors=True)  # nothing of it for the next worker with that id
        self.selector.close()
        for fd in (self.replies, self.output):
            os.close(fd)
        try:
            assert self.process.stdin is not None
            self.process.stdin.close()
        except OSError:
            pass


class Asker(Protocol):
    """Who answers hook calls: a sandboxed `Worker`, or the reference in our own process."""

    def begin(self, limit: float) -> None: ...

    def call(self, hook: str, args: dict[str, Any], limit: float | None = None) -> Any: ...

    def call_all(self, asks: list[dict[str, Any]], upto: Upto) -> list[Answer | StudentRaised]: ...

    def recorded(self, board: BoardRequest) -> AbstractContextManager[Recording]: ...

    def send(self, request: dict[str, Any]) -> None: ...

    def end(self) -> None: ...

    def again(self) -> None: ...

    def used(self) -> float: ...

    def spent(self) -> str: ...

    def uncharged(self) -> AbstractContextManager[object]: ...

    @property
    def calls(self) -> CallTimes: ...

    def take_output(self) -> str: ...


def start_worker(sandbox: Sandbox, hooks: Path, limits: Limits) -> Callable[[float], Worker]:
    """A `start` for run_tasks: a loaded worker for `hooks`, the file given `limit` seconds
    to load. A file that did not load (the student's doing) is not loaded again: every
    later start fails alike at once."""
    refused: list[WorkerFailure] = []

    def start(limit: float) -> Worker:
        if refused:
            raise WorkerFailure(refused[0].kind, refused[0].message, why=refused[0].why)
        worker = Worker(sandbox, hooks, limits)
        try:
            worker.load(limit)
        except WorkerFailure as failure:
            output = worker.take_output()
            worker.stop()
            printed = f" (it printed: {output.strip()[:200]})" if output.strip() and not failure.ours else ""
            failed = WorkerFailure(failure.kind, failure.message + printed, ours=failure.ours, why=failure.why)
            if not failure.ours:
                refused.append(failed)
            raise failed from None
        return worker

    return start


def stop_worker(asker: Asker) -> None:
    if isinstance(asker, Worker):
        asker.stop()
