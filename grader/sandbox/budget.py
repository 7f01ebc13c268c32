"""An item's time: CPU seconds charged to the item, not seconds on the wall clock.

A graded item may use `limit` seconds of:

- CPU time of the worker's processes (the worker and everything it started, its own run
  of a board's search included), read from the kernel's counters (`usage`), so a machine
  busy with other work does not shorten it;
- CPU time of the grader's own thread doing the item's work (the search it runs, the
  checks it makes), read from the thread's clock;
- time the worker spent asleep or blocked while the grader waited for an answer (a
  `time.sleep`, a read that never returns): asleep is not busy, but it is the student's
  code that chose to wait.

A worker that is ready to run but gets no core is charged nothing, and neither is a
worker blocked on a full pipe to the grader for as long as the grader was slow to read
it (`Lateness`), up to the limit once more per item: only what the grader measurably
lost is excused, so a worker that sleeps between writes is charged its sleep.

A wall-clock backstop, several times the limit, still ends an item that makes no progress
at all. Once student code has run, reaching it is the student's timeout (sleeping,
stopped, writing to us), unless the item spent most of that wall time waiting for the
machine (`waited_for_the_machine`): the worker ready to run with none of its threads on a
core, or the grader's thread waiting for one, as the kernel counts them. A worker with a
CPU share of its own (`grader.sandbox.cgroup`) is starved like that only by load outside
the grader's workers: a failure of ours. A student cannot make that wait: it cannot lower
its own priority or stop itself into a ready state (stopped is not ready), and time its
own threads take from each other is not counted (`Budget.read_threads`).
"""

from __future__ import annotations

import os
import threading
import time
from io import FileIO

WALL_FACTOR = 5.0  # the wall-clock backstop: this many times the limit...
WALL_EXTRA = 60.0  # ...and at least this many seconds more than it
STARVED_SHARE = 0.5  # past the backstop, the failure is ours when more than this share of it was waiting for the machine
SCHEDSTAT = "/proc/thread-self/schedstat"  # this thread's CPU time, time waiting for a core, time slices (ns)


class Budget:
    """The time an item has used, against its limit."""

    def __init__(self, limit: float, worker_cpu: float):
        self.limit = limit
        self.wall_deadline = time.monotonic() + max(limit * WALL_FACTOR, limit + WALL_EXTRA)
        self.wall = self.wall_deadline - time.monotonic()
        self._grader_started = time.thread_time()
        self._worker_started = worker_cpu
        self.worker = 0.0  # CPU seconds of the worker's processes since the item began
        self.asleep = 0.0
        self.excused = 0.0  # waits on a full pipe not charged: the grader was slow to read (at most the limit)
        self.watching = 0.0  # the grader's CPU seconds spent watching the worker: not the item's
        self.starved = 0.0  # seconds the worker was ready to run and none of its threads had a core
        self._queued_started = waited_for_a_core()  # the grader's thread's wait for a core so far
        self._threads: dict[int, tuple[float, float]] | None = None  # the last reading of the worker's threads
        self._threads_cpu, self._threads_at = worker_cpu, time.monotonic()

    def grader(self) -> float:
        """CPU seconds the grader's thread spent on the item's own work."""
        return time.thread_time() - self._grader_started - self.watching

    def read_worker(self, cpu: float) -> None:
        """A new reading of the worker's total CPU time (never counted backwards: a
        process that ended and was reaped outside the worker takes its time with it)."""
        self.worker = max(self.worker, cpu - self._worker_started)

    def read_threads(self, threads: dict[int, tuple[float, float]], cpu: float, now: float) -> None:
        """A new reading of the worker's threads (thread id -> seconds on a core, seconds
        ready and waiting for one: `usage.scheduled`) and of its processes' total CPU
        time, at `now`. Since the last reading, the worker was starved at least as long as
        a thread of it waited for a core, less the time its other threads ran meanwhile
        (a wait for its own threads is its own), and no longer than the time between them.
        The first reading only sets where the counts start."""
        last, self._threads = self._threads, threads
        seconds, self._threads_at = now - self._threads_at, now
        ran_before, self._threads_cpu = self._threads_cpu, cpu
        if last is None:
            return
        changes = [_since(last.get(thread), counts) for thread, counts in threads.items()]
        all_ran = max(sum(ran for ran, _ in changes), cpu - ran_before)  # ended threads' CPU stays in the total
        starved = max((waited - max(0.0, all_ran - ran) for ran, waited in changes), default=0.0)
        self.starved += min(max(0.0, starved), max(0.0, seconds))

    def waited_for_the_machine(self) -> float:
        """Seconds of the item's wall time it waited for a core: the worker starved, or
        the grader's thread waiting for one."""
        return self.starved + max(0.0, waited_for_a_core() - self._queued_started)

    def starved_most(self) -> bool:
        """Whether the item spent most of the wall-clock backstop waiting for the machine."""
        return self.waited_for_the_machine() > STARVED_SHARE * self.wall

    def excuse(self, waited: float, late: float) -> float:
        """How much of a wait that may have been on a full pipe to the grader is not
        charged: what the grader was `late` in reading, while the item's excuses stay
        within its limit."""
        excused = max(0.0, min(waited, late, self.limit - self.excused))
        self.excused += excused
        return excused

    def spent(self) -> float:
        return self.worker + self.grader() + self.asleep

    def over(self) -> bool:
        return self.spent() > self.limit

    def past_backstop(self) -> bool:
        return time.monotonic() > self.wall_deadline

    def describe(self) -> str:
        """What the time went to: "your code used 9.8 s of CPU, slept 0.2 s, ...": the
        parts of a tenth of the limit or more (so the same work is described alike)."""
        parts = [f"your code used {self.worker:.1f} s of CPU"]
        if self.asleep >= self.limit / 10:
            parts.append(f"was asleep or blocked {self.asleep:.1f} s")
        if self.grader() >= self.limit / 10:
            parts.append(f"the grader's own work for it took {self.grader():.1f} s")
        return ", ".join(parts)


def _since(before: tuple[float, float] | None, now: tuple[float, float]) -> tuple[float, float]:
    """What a thread ran and waited between two readings of its counts: all of them for a
    thread not read before (new, or a reused id whose counts went back)."""
    if before is None or now[0] < before[0] or now[1] < before[1]:
        return now
    return now[0] - before[0], now[1] - before[1]


class CoreWait:
    """The calling thread's seconds spent ready to run but without a core (the kernel's
    count; 0 where the kernel keeps none), read from its schedstat file kept open: a
    pread per reading (opening the file costs ten times that), opened again when
    another thread reads or the file stops answering."""

    def __init__(self) -> None:
        self._thread = 0
        self._file: FileIO | None = None

    def read(self) -> float:
        thread = threading.get_ident()  # no system call, unlike the native id: read twice a reply
        for _ in range(2):
            if self._file is None or thread != self._thread:
                self._open(thread)
            if self._file is None:
                return 0.0
            try:
                return int(os.pread(self._file.fileno(), 256, 0).split()[1]) / 1e9
            except OSError:  # a file left open by a thread that ended: once more, the caller's own
                self._file = None
            except (IndexError, ValueError):
                return 0.0
        return 0.0

    def _open(self, thread: int) -> None:
        self._thread = thread
        try:
            self._file = FileIO(SCHEDSTAT, "r")
        except OSError:
            self._file = None


def waited_for_a_core() -> float:
    """`CoreWait` read once (for the rare readings: an open, a read and a close)."""
    return CoreWait().read()


class Lateness:
    """How slow the grader's thread was to read a worker's pipes while it waited for an
    answer: time away from them (checking the worker, reading what came), and time it
    waited for a core after data woke it. A worker blocked on a full pipe waited at most
    this long for the grader; the rest of its wait is its own."""

    def __init__(self) -> None:
        self.total = 0.0
        self._away = time.monotonic()
        self._waited_at = 0.0
        self._core_wait = CoreWait()  # read twice per answer awaited

    def away_since(self, moment: float) -> None:
        """The grader began waiting for an answer at `moment` (earlier time is not an item's)."""
        self._away = moment

    def listening(self) -> None:
        """The grader is back at the pipes: the time away counts."""
        self.total += max(0.0, time.monotonic() - self._away)
        self._waited_at = self._core_wait.read()

    def woke(self) -> None:
        """The wait at the pipes ended: the time the thread then waited for a core counts."""
        self.total += max(0.0, self._core_wait.read() - self._waited_at)
        self._away = time.monotonic()


class CallTimes:
    """How many calls of each hook an item made, and the seconds spent waiting for their
    answers (on the wall clock: a hint of which hook is slow, never a grade)."""

    def __init__(self) -> None:
        self.by_hook: dict[str, tuple[int, float]] = {}

    def add(self, hook: str, seconds: float) -> None:
        calls, total = self.by_hook.get(hook, (0, 0.0))
        self.by_hook[hook] = (calls + 1, total + seconds)

    def rows(self) -> list[tuple[str, int, float]]:
        """(hook, calls, seconds), the slowest first."""
        return sorted(((hook, calls, seconds) for hook, (calls, seconds) in self.by_hook.items()), key=lambda row: -row[2])
