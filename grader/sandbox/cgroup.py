"""A control group per worker, so that the kernel counts and caps what a worker uses.

The kernel charges a control group for every page its processes make it hold: their
heaps, the files they write to a RAM-backed file system (`/dev/shm`, a `/tmp` on tmpfs,
a tmpfs of their own), shared memory, socket buffers queued and not read, kernel memory.
Past the group's limit its own processes are killed (the out-of-memory killer stays
inside the group), and it can hold no more than its number of tasks (processes and
threads) at once. No reading of /proc sees all of that.

Where the cpu controller is there too, every worker's group has the same weight: workers
that want the CPU at once get equal shares of it, so a worker running many busy threads
takes no more from another worker than one running a single thread.

Two layouts are used: cgroup v2 (one hierarchy; the memory and pids controllers, and cpu
where it can, enabled for our own group's children), or v1's separate memory, pids and
cpu hierarchies. The grader makes a folder for its run under its own group (`Tree`), and
one group per worker in it (`Group`), where it may: as root, or in a subtree delegated
to its user. A run without the cpu controller still gets memory and pids groups.
A worker is placed in its group before it runs anything (see `held`): a process moved
after it forked would leave its children outside.
"""

from __future__ import annotations

import errno
import itertools
import os
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from grader.sandbox.usage import pid_namespace

RUN_PREFIX = "grader-"  # a run's folder: grader-<its PID namespace>-<the grader's pid>-<the sandbox's number in it>
CPU_SHARES = 1024  # every worker's weight in v1's cpu hierarchy (the kernel's default)...
CPU_WEIGHT = 100  # ...and in v2's (its default too): the same for all, whatever they run
REMOVE_ROUNDS = 100  # tries at emptying and removing a group (its killed processes must be reaped first)
#: Run before the worker's own command: wait for one line on standard input (sent once the
#: grader has put this process in its group), then become the command.
HOLD = ["/bin/sh", "-c", 'read -r _ && exec "$@"', "sh"]


def held(argv: list[str]) -> list[str]:
    """`argv` behind `HOLD`: it starts once released (see `Group.place`)."""
    return [*HOLD, *argv]


def _own_groups(table: str = "/proc/self/cgroup") -> dict[str, str]:
    """Our own group in each hierarchy: controller name (or "" for v2) -> path."""
    groups: dict[str, str] = {}
    with open(table, encoding="utf-8") as handle:
        for line in handle:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for name in controllers.split(",") if controllers else [""]:
                groups[name] = path
    return groups


def _mounts(table: str = "/proc/self/mountinfo") -> list[tuple[str, str, str, set[str]]]:
    """Mounted cgroup file systems: (what of the hierarchy they show, where, type, options)."""
    found = []
    with open(table, encoding="utf-8") as handle:
        for line in handle:
            before, _, after = line.partition(" - ")
            fields, tail = before.split(), after.split()
            if len(fields) > 4 and len(tail) > 2 and tail[0] in ("cgroup", "cgroup2"):
                found.append((fields[3], fields[4], tail[0], set(tail[2].split(","))))
    return found


def _folder(own: str, shown: str, point: str) -> Path:
    """Where our group `own` is, in a mount at `point` showing the hierarchy from `shown`."""
    if shown != "/" and (own == shown or own.startswith(shown.rstrip("/") + "/")):
        own = own[len(shown.rstrip("/")) :]
    return Path(point) / own.lstrip("/")


def _write(path: Path, text: str) -> None:
    with open(path, "w", encoding="ascii") as handle:
        handle.write(text)


def _read_int(path: Path) -> int | None:
    """A number the kernel shows in `path` ("max" and absent files are None)."""
    try:
        text = path.read_text(encoding="ascii").strip()
        return int(text)
    except (OSError, ValueError):
        return None


def _field(path: Path, name: str) -> int:
    """The value of `name` in a file of "name value" lines (0 when absent)."""
    try:
        for line in path.read_text(encoding="ascii").splitlines():
            key, _, value = line.partition(" ")
            if key == name:
                return int(value)
    except (OSError, ValueError):
        pass
    return 0


@dataclass
class Tree:
    """This run's folder in each hierarchy: `memory`, `pids` and `cpu` (one folder in v2);
    `cpu` None where the cpu controller cannot be had, and `unshared` says why."""

    memory: Path
    pids: Path
    v2: bool
    cpu: Path | None = None
    unshared: str = ""
    _numbers: itertools.count[int] = field(default_factory=itertools.count)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def group(self, memory_bytes: int, tasks: int) -> Group:
        """A new empty group for one worker: at most `memory_bytes` of memory (swap
        included) and `tasks` processes and threads, with the same CPU weight as every
        other worker. OSError when it cannot be made."""
        with self._lock:
            name = f"w{next(self._numbers)}"
        group = self._named(name)
        made: list[Path] = []
        try:
            for folder in group.folders:
                folder.mkdir(mode=0o755)
                made.append(folder)
            group.limit(memory_bytes, tasks)
        except OSError:
            for folder in made:
                _remove_folder(folder)
            raise
        return group

    def close(self) -> None:
        """Remove the run's folders, with any group still in them and what it holds."""
        folders = self._named("").folders
        names = sorted({child.name for folder in folders for child in folder.glob("w*")})
        for name in names:
            self._named(name).remove()
        for folder in folders:
            _remove_folder(folder)

    def _named(self, name: str) -> Group:
        """The group `name` in the run's folders (the run's own folders for "")."""
        return Group(self.memory / name, self.pids / name, self.cpu / name if self.cpu else None, self.v2)


@dataclass
class Group:
    """One worker's group: its folders (in v1 one per hierarchy: memory, pids, cpu; in v2
    the same folder); `cpu` None where no cpu controller shares the CPU."""

    memory: Path
    pids: Path
    cpu: Path | None
    v2: bool

    @property
    def folders(self) -> list[Path]:
        return list(dict.fromkeys(folder for folder in (self.memory, self.pids, self.cpu) if folder is not None))

    def limit(self, memory_bytes: int, tasks: int) -> None:
        if self.v2:
            _write(self.memory / "memory.max", str(memory_bytes))
            _write(self.memory / "memory.swap.max", "0")
            _write(self.memory / "memory.oom.group", "1")  # one killed, all killed: no half-dead worker
        else:
            _write(self.memory / "memory.limit_in_bytes", str(memory_bytes))
            swap = self.memory / "memory.memsw.limit_in_bytes"  # absent when the kernel does not count swap
            if swap.exists():
                _write(swap, str(memory_bytes))
        _write(self.pids / "pids.max", str(tasks))
        if self.cpu is not None:
            _write(self.cpu / ("cpu.weight" if self.v2 else "cpu.shares"), str(CPU_WEIGHT if self.v2 else CPU_SHARES))

    def place(self, pid: int) -> None:
        """Move process `pid` (which has started nothing yet) into this group."""
        for folder in self.folders:
            _write(folder / "cgroup.procs", str(pid))

    def out_of_memory(self) -> bool:
        """Whether the kernel killed a process of this group for being over its memory."""
        events = self.memory / ("memory.events" if self.v2 else "memory.oom_control")
        return _field(events, "oom_kill") > 0

    def peak(self) -> int | None:
        """The most memory the group held at once, in bytes (None where not shown)."""
        return _read_int(self.memory / ("memory.peak" if self.v2 else "memory.max_usage_in_bytes"))

    def processes(self) -> list[int]:
        found: set[int] = set()
        for folder in self.folders:
            try:
                found.update(int(line) for line in (folder / "cgroup.procs").read_text(encoding="ascii").split())
            except (OSError, ValueError):
                continue
        return sorted(found)

    def kill(self) -> None:
        """SIGKILL every process in the group, again until none is left to signal (a
        process that forks meanwhile is born inside it, bounded by its task limit)."""
        for _ in range(REMOVE_ROUNDS):
            alive = self.processes()
            if not alive:
                return
            if self.v2 and (self.memory / "cgroup.kill").exists():
                _write(self.memory / "cgroup.kill", "1")
            for pid in alive:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            time.sleep(0.005)

    def remove(self) -> None:
        """Kill what is left in the group and remove it (once its dead are reaped)."""
        self.kill()
        for folder in self.folders:
            _remove_folder(folder)


def _remove_folder(folder: Path, tries: int = REMOVE_ROUNDS) -> None:
    """rmdir, retried while the kernel still counts a dying process in the group."""
    for _ in range(tries):
        try:
            folder.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError as error:
            if error.errno != errno.EBUSY:
                return
            time.sleep(0.01)


def open_tree() -> Tree | str:
    """This run's folder in the memory and pids hierarchies (and cpu where it can), or why
    none can be made here."""
    try:
        own, mounts = _own_groups(), _mounts()
    except (OSError, ValueError) as error:
        return f"the control groups cannot be read ({error})"
    v1 = {
        name: _folder(own[name], shown, point)
        for shown, point, kind, options in mounts
        if kind == "cgroup"
        for name in ("memory", "pids", "cpu")
        if name in options and name in own
    }
    if "memory" in v1 and "pids" in v1:
        return _make_tree(v1["memory"], v1["pids"], v1.get("cpu"), v2=False)
    unified = [_folder(own[""], shown, point) for shown, point, kind, _ in mounts if kind == "cgroup2" and "" in own]
    if unified:
        return _make_tree(unified[0], unified[0], unified[0], v2=True)
    return "no memory and pids control groups are mounted"


def _make_tree(memory: Path, pids: Path, cpu: Path | None, v2: bool) -> Tree | str:
    _sweep(*(folder for folder in (memory, pids, cpu) if folder is not None))
    name = f"{_run_prefix()}{os.getpid()}-{next(_RUNS)}"  # one process may open several sandboxes
    made: list[Path] = []
    try:
        if v2:
            available = (memory / "cgroup.controllers").read_text(encoding="ascii").split()
            if not {"memory", "pids"} <= set(available):
                return f"the memory and pids controllers are not available to {memory}"
            _write(memory / "cgroup.subtree_control", "+memory +pids")
        for folder in dict.fromkeys((memory / name, pids / name)):
            folder.mkdir(mode=0o755)
            made.append(folder)
        if v2:
            _write(memory / name / "cgroup.subtree_control", "+memory +pids")
    except OSError as error:
        for folder in made:
            _remove_folder(folder)
        return f"no control group can be made in {memory} ({error.strerror or error})"
    shared = _cpu_folder(cpu, name, v2)
    if isinstance(shared, str):
        return Tree(memory / name, pids / name, v2, unshared=shared)
    return Tree(memory / name, pids / name, v2, cpu=shared)


def _cpu_folder(cpu: Path | None, name: str, v2: bool) -> Path | str:
    """The run's folder `name` in the cpu hierarchy at `cpu` (v2: the run's own folder,
    given the cpu controller), or why the workers cannot have cpu groups."""
    if cpu is None:
        return "no cpu control group is mounted"
    try:
        if v2:
            _write(cpu / "cgroup.subtree_control", "+cpu")
            _write(cpu / name / "cgroup.subtree_control", "+cpu")
        else:
            (cpu / name).mkdir(mode=0o755)
    except OSError as error:
        return f"no cpu control group can be made in {cpu} ({error.strerror or error})"
    return cpu / name


_RUNS = itertools.count()  # sandboxes opened by this process


def _run_prefix() -> str:
    """The start of our runs' folder names: the PID namespace we see pids in, so that a
    grader never takes another namespace's run for one of its own dead ones."""
    return f"{RUN_PREFIX}{pid_namespace()}-"


def _sweep(*parents: Path) -> None:
    """Remove the empty folders graders of our PID namespace that are gone (killed) left
    beside ours."""
    prefix = _run_prefix()
    for parent in dict.fromkeys(parents):
        for run in parent.glob(f"{prefix}*"):
            number = run.name[len(prefix) :].split("-")[0]
            if number.isdigit() and not Path(f"/proc/{number}").exists():
                for child in run.glob("w*"):
                    _remove_folder(child, tries=1)
                _remove_folder(run, tries=1)
