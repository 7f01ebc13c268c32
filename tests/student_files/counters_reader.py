"""A student that reads the machine: every counter other gradings could move (the load
and thread count, CPU time, memory, pressure, disk and scheduler statistics, free space
of every file system it sees, `sysinfo`) and everything it can read of /proc, where the
host's paths would show. At the first hook call of each item it reads them three times,
0.2 s apart, and raises, naming them, if any changed; else it answers as the model answer.
`readings` and `host_text` are also called by tests/test_trust_counters.py from a worker
started as the grader starts one."""

import ctypes
import os
import sys
import time

from model_answer import at_least_clauses as _at_least_clauses
from model_answer import at_most_clauses as _at_most_clauses
from model_answer import constraint_bounds as _constraint_bounds
from model_answer import forward_check as _forward_check
from model_answer import order_values as _order_values
from model_answer import select_variable as _select_variable

COUNTERS = [
    "/proc/loadavg", "/proc/stat", "/proc/meminfo", "/proc/uptime", "/proc/vmstat", "/proc/diskstats",
    "/proc/schedstat", "/proc/pressure/cpu", "/proc/pressure/memory", "/proc/pressure/io", "/proc/interrupts",
    "/proc/softirqs", "/proc/sys/fs/file-nr", "/proc/sys/fs/inode-nr", "/proc/sys/kernel/ns_last_pid",
    "/proc/self/mountinfo", "/proc/self/mounts", "/proc/self/cgroup", "/sys/fs/cgroup/cpu.stat",
    "/sys/fs/cgroup/memory.current", "/sys/kernel/mm/transparent_hugepage/enabled", "/sys/devices/system/cpu/online",
]
#: Files of /proc that block, are huge, or are no text.
UNREAD = {"kmsg", "kcore", "kpagecount", "kpageflags", "kpagecgroup", "mem", "pagemap", "clear_refs", "sysrq-trigger"}


class SysInfo(ctypes.Structure):
    _fields_ = [("uptime", ctypes.c_long), ("loads", ctypes.c_ulong * 3), ("totalram", ctypes.c_ulong),
                ("freeram", ctypes.c_ulong), ("sharedram", ctypes.c_ulong), ("bufferram", ctypes.c_ulong),
                ("totalswap", ctypes.c_ulong), ("freeswap", ctypes.c_ulong), ("procs", ctypes.c_ushort),
                ("pad", ctypes.c_ushort), ("totalhigh", ctypes.c_ulong), ("freehigh", ctypes.c_ulong),
                ("mem_unit", ctypes.c_uint), ("rest", ctypes.c_char * 8)]


def _attempt(read):
    try:
        return repr(read())
    except Exception as error:  # unreadable: the same error every time
        return type(error).__name__


def _sysinfo():
    info = SysInfo()
    if ctypes.CDLL(None, use_errno=True).sysinfo(ctypes.byref(info)) != 0:
        raise PermissionError(ctypes.get_errno(), "sysinfo")
    return (list(info.loads), info.procs, info.freeram, info.sharedram, info.bufferram, info.freeswap)


def _read(path):
    with open(path, "rb") as handle:
        return handle.read(1 << 20)


def readings():
    """Every counter, as text (or the error that reading it raised)."""
    found = {path: _attempt(lambda path=path: _read(path)) for path in COUNTERS}
    places = ["/", "/tmp", "/dev", "/dev/shm", os.path.dirname(os.__file__), sys.executable, os.path.dirname(__file__), sys.path[-1]]
    for place in places:
        found[f"statvfs {place}"] = _attempt(lambda place=place: tuple(os.statvfs(place)))
    found["sysinfo"] = _attempt(_sysinfo)
    found["getloadavg"] = _attempt(os.getloadavg)
    return found


def host_text():
    """Everything this process can read of /proc (its own files two levels deep, links
    read as where they lead), as one text."""
    parts = []

    def take(path, depth):
        if os.path.basename(path) in UNREAD:
            return
        try:
            if os.path.islink(path):
                parts.append(f"{path} -> {os.readlink(path)}")
            elif os.path.isdir(path):
                if depth > 0:
                    for name in sorted(os.listdir(path)):
                        take(os.path.join(path, name), depth - 1)
            else:
                parts.append(f"{path}: {_read(path).decode(errors='replace')}")
        except OSError:
            pass

    try:
        top = [name for name in os.listdir("/proc") if not name.isdigit()]
    except OSError:
        return ""
    for name in sorted(top):
        take(os.path.join("/proc", name), 2 if name in ("self", "thread-self") else 1)
    return "\n".join(parts)


_CHECKED = []


def _check():
    """Once per item: raise if anything read moved within 0.4 s."""
    if not _CHECKED:
        _CHECKED.append(True)
        first = readings()
        for _ in range(2):
            time.sleep(0.2)
            moved = sorted(name for name, value in readings().items() if value != first[name])
            if moved:
                raise RuntimeError(f"moved: {', '.join(moved)}")


def constraint_bounds(scope, domains):
    _check()
    return _constraint_bounds(scope, domains)


def forward_check(csp, domains, assigned):
    _check()
    return _forward_check(csp, domains, assigned)


def select_variable(csp, domains, unassigned):
    _check()
    return _select_variable(csp, domains, unassigned)


def order_values(csp, var, domains):
    _check()
    return _order_values(csp, var, domains)


def at_least_clauses(lits, k):
    _check()
    return _at_least_clauses(lits, k)


def at_most_clauses(lits, k):
    _check()
    return _at_most_clauses(lits, k)
