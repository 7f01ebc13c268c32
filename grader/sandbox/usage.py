"""What a worker's processes use, read from /proc: CPU time, memory, how many there are,
whether any of them is running, and each thread's time on a core and waiting for one.

A worker's processes are the process the grader started and all its descendants, and
those that left its tree (a daemon is still the worker's): the processes of its control
group where it has one, else, when it has a user id of its own, every process of that
user. The kernel's own counters are read, so a figure does not depend on how busy the
machine is: CPU time is what the processes ran, not how long they waited for a core.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
RUNNING = frozenset("R")  # running or waiting for a core: anything else is asleep, blocked or stopped
NANOSECONDS = 1e9


def pid_namespace() -> int:
    """The PID namespace this process sees pids in (0 where it cannot be told): names that
    hold a pid carry it, so that no grader takes another namespace's pid for one of its own."""
    try:
        return os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return 0


@dataclass(frozen=True)
class Usage:
    """One reading: `cpu` seconds (the processes' own and their reaped children's),
    `memory` bytes resident (summed), `processes`, and `running`: whether any thread of
    them is on a core or waiting for one. `pids`: the processes read."""

    cpu: float = 0.0
    memory: int = 0
    processes: int = 0
    running: bool = False
    pids: tuple[int, ...] = ()


@dataclass(frozen=True)
class _Process:
    pid: int
    parent: int
    state: str
    ticks: int  # utime + stime + cutime + cstime
    pages: int  # resident set


def _processes() -> Iterator[_Process]:
    """Every process /proc shows (processes that end while being read are skipped)."""
    try:
        entries = os.scandir("/proc")
    except OSError:
        return
    with entries:
        for entry in entries:
            if not entry.name.isdigit():
                continue
            process = _process(int(entry.name))
            if process is not None:
                yield process


def _process(pid: int) -> _Process | None:
    """Process `pid` as /proc shows it (None once it is gone)."""
    text = _read(f"/proc/{pid}/stat")
    if text is None:
        return None
    fields = text[text.rfind(b")") + 2 :].split()  # the command name may hold spaces and parentheses
    try:
        return _Process(pid, int(fields[1]), fields[0].decode(), sum(int(value) for value in fields[11:15]), int(fields[21]))
    except (IndexError, ValueError):
        return None


def _owner(pid: int) -> int | None:
    """The real user id of a process (from its status: a process that made itself
    undumpable shows root as the owner of its /proc folder)."""
    try:
        with open(f"/proc/{pid}/status", "rb") as handle:
            for line in handle:
                if line.startswith(b"Uid:"):
                    return int(line.split()[1])
    except (OSError, IndexError, ValueError):
        pass
    return None


def _read(path: str) -> bytes | None:
    """The first 4 KiB of a file of /proc, None once its process is gone (one open, read
    and close: a reading does this for every process on the machine)."""
    try:
        handle = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        return os.read(handle, 4096)
    except OSError:
        return None
    finally:
        os.close(handle)


def members(root: int, uid: int | None = None, grouped: Iterable[int] | None = None) -> list[_Process]:
    """The processes of the worker started as `root`: its descendants, and those that left
    its tree: `grouped`, the processes the kernel keeps in the worker's control group,
    when it has one (none can leave it), else every process of user `uid` when given.
    With a group, its processes and `root` are all that is read: every descendant is
    born in the group (`cgroup.held`), so no walk over the machine's processes is needed."""
    if grouped is not None:
        return [process for process in map(_process, sorted({root, *grouped})) if process is not None]
    table = {process.pid: process for process in _processes()}
    children: dict[int, list[int]] = {}
    for process in table.values():
        children.setdefault(process.parent, []).append(process.pid)
    found: set[int] = set()
    stack = [root] if root in table else []
    if grouped is not None:
        stack += [pid for pid in grouped if pid in table]
    elif uid is not None:
        stack += [pid for pid in table if _owned_by(pid, uid)]
    while stack:
        pid = stack.pop()
        if pid not in found:
            found.add(pid)
            stack.extend(children.get(pid, ()))
    return [table[pid] for pid in found]


def _owned_by(pid: int, uid: int) -> bool:
    try:
        owner = os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return False
    return owner == uid or (owner == 0 and _owner(pid) == uid)


def usage(root: int, uid: int | None = None, grouped: Iterable[int] | None = None) -> Usage:
    """What the worker started as `root` (and the processes of its control group, else
    user `uid`'s) use right now."""
    found = members(root, uid, grouped)
    running = any(p.state in RUNNING for p in found) or any(_thread_running(p.pid) for p in found)
    return Usage(
        cpu=sum(p.ticks for p in found) / TICKS,
        memory=sum(p.pages for p in found) * PAGE,
        processes=len(found),
        running=running,
        pids=tuple(p.pid for p in found),
    )


def scheduled(pids: tuple[int, ...]) -> dict[int, tuple[float, float]]:
    """Each thread of the processes `pids`: thread id -> (seconds it ran on a core, seconds
    it was ready to run and waited for one), the kernel's counts since the thread began
    (schedstat; a thread asleep, blocked or stopped waits for nothing). Empty where the
    kernel keeps no such counts."""
    found: dict[int, tuple[float, float]] = {}
    for pid in pids:
        try:
            threads = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for thread in threads:
            try:
                ran, waited = (_read(f"/proc/{pid}/task/{thread}/schedstat") or b"").split()[:2]
                found[int(thread)] = (int(ran) / NANOSECONDS, int(waited) / NANOSECONDS)
            except ValueError:
                continue
    return found


def _thread_running(pid: int) -> bool:
    """Whether any thread of the process is on a core or waiting for one (its main thread
    may be waiting for the others: a join, the interpreter's lock)."""
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    for thread in threads:
        text = _read(f"/proc/{pid}/task/{thread}/stat")
        if text is not None and text[text.rfind(b")") + 2 :][:1].decode() in RUNNING:
            return True
    return False


#: File systems whose files are held in memory.
RAM_FILE_SYSTEMS = frozenset({"tmpfs", "ramfs"})
#: Entries of one user's counted per reading of its files in memory: more is taken as over any limit.
FILE_BUDGET = 20_000


def in_memory(folders: list[str], mounts: str = "/proc/self/mounts") -> list[str]:
    """Those of `folders` whose files are held in memory (on a tmpfs, say /dev/shm)."""
    try:
        with open(mounts, encoding="utf-8", errors="replace") as handle:
            table = [line.split()[1:3] for line in handle if len(line.split()) > 2]
    except OSError:
        return []

    def kind(folder: str) -> str:
        matching = [(point, fs) for point, fs in table if folder == point or folder.startswith(point.rstrip("/") + "/")]
        return max(matching, key=lambda pair: len(pair[0]))[1] if matching else ""

    return [folder for folder in folders if kind(folder) in RAM_FILE_SYSTEMS]


def files_in_memory(uid: int, folders: list[str]) -> int:
    """Bytes of memory that user `uid`'s files in `folders` hold (at any depth, links not
    followed). Only what `uid` owns counts, and only folders it could write to are
    entered (its own, and those anyone may write to): another user's entries, however
    many, cost it nothing. Past FILE_BUDGET entries of its own, more than any limit."""
    total, owned, stack = 0, 0, list(folders)
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if entry.is_dir(follow_symlinks=False) and (info.st_uid == uid or info.st_mode & 0o002):
                stack.append(entry.path)
            if info.st_uid == uid:
                total += info.st_blocks * 512
                owned += 1
                if owned > FILE_BUDGET:
                    return 1 << 62
    return total
