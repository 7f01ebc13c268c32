"""One core for a worker and the thread that asks it, while it asks question after question
(an agent's moves): each waits while the other works, so on one core neither has a core
of its own to wake for every answer. On an idle machine the scheduler otherwise puts the
worker on the other, idle core, which then sleeps and wakes at every move; on a virtual
machine each of them then starts every move from cold caches (measured: a third more CPU
a move, the worker's and the grader's alike).

A hint to the scheduler, never a limit: the kernel counts and limits every process as
before, a process may move itself elsewhere (to its own cost), and the thread gets its
cores back when the questions end (`SharedCore.end`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

STAT = "/proc/thread-self/stat"
PROCESSOR = 36  # the field after the command's ")" that is the core the thread last ran on ("processor")


def core_now() -> int | None:
    """The core this thread runs on (the kernel's count), None where it does not say."""
    try:
        with open(STAT, "rb") as stat:
            return int(stat.read().rsplit(b")", 1)[1].split()[PROCESSOR])
    except (OSError, IndexError, ValueError):
        return None


class SharedCore:
    """This thread and the processes of its workers kept on the core the thread ran on when
    the first worker joined, until `end`."""

    def __init__(self) -> None:
        self.core: int | None = None
        self.kept: set[int] | None = None  # the thread's cores before

    def join(self, keep_on: Callable[[set[int]], bool]) -> None:
        """Put a worker (`keep_on`: `Worker.keep_on`, which says whether the kernel took
        every process of it) on this thread's core, and the thread too once the first
        worker is there. Where the kernel refuses, nothing is kept."""
        core = self.core if self.core is not None else core_now()
        if core is None or not keep_on({core}) or self.core is not None:
            return
        try:
            kept = os.sched_getaffinity(0)
            os.sched_setaffinity(0, {core})
        except OSError:
            return
        self.core, self.kept = core, kept

    def end(self) -> None:
        """Give the thread back the cores it had."""
        if self.kept is not None:
            try:
                os.sched_setaffinity(0, self.kept)
            except OSError:
                pass
        self.core = self.kept = None


def keep_on(pids: Iterable[int], cores: set[int]) -> bool:
    """Keep each of `pids` (the thread of that id, and every process or thread it starts)
    on `cores`; whether the kernel took every one."""
    taken = True
    for pid in pids:
        try:
            os.sched_setaffinity(pid, cores)
        except OSError:  # gone, or a core it may not use
            taken = False
    return taken
