"""Sweeps the system calls from inside a graded item. At its first constraint_bounds call
it makes every system call number (0 to 1023) its filter does not allow, with zero
arguments, and the allowed ones in the forms that must be refused (a process, a namespace,
locks, page-cache advice, another process's signals or limits); the test writes in which
calls are allowed on this machine ({{ALLOWED}}: name -> number). A call that is not
refused (EPERM; ENOSYS for clone3) is named in the error the hook raises; else it answers
as the model answer. A refused call never runs: under the filter the sweep is harmless,
and a harmless probe (getpgid) stops it at once where the filter is not an allowlist.
Left out: x86_64's uretprobe and uprobe (335, 336), which the kernel lets past every
seccomp filter: they act only when called from its own probe trampolines (elsewhere
uretprobe kills the caller with SIGILL)."""

import ctypes
import errno
import fcntl
import json
import os
import socket
import threading

from model_answer import at_least_clauses, at_most_clauses, forward_check, order_values, select_variable  # noqa: F401
from model_answer import constraint_bounds as _constraint_bounds

ALLOWED = json.loads('{{ALLOWED}}')
PASSED_BY_THE_KERNEL = (335, 336) if "open" in ALLOWED else ()  # on x86_64 (the only one with `open`)
THREAD_FLAGS = 0x100 | 0x200 | 0x400 | 0x800 | 0x10000 | 0x40000 | 0x80000 | 0x100000 | 0x200000
LIBC = ctypes.CDLL(None, use_errno=True)
LIBC.syscall.restype = ctypes.c_long
_SWEPT = []


def _call(number, *args):
    """The raw system call's errno (0 when it succeeded)."""
    ctypes.set_errno(0)
    result = LIBC.syscall(ctypes.c_long(number), *(ctypes.c_long(a) for a in (list(args) + [0] * 6)[:6]))
    return ctypes.get_errno() if result == -1 else 0


def _forms():
    """(what, number, arguments, errno it must fail with) for the allowed calls' refused forms."""
    fd = os.open(os.__file__, os.O_RDONLY)
    parent = os.getppid()
    forms = [("clone3", 435, (0, 0), errno.ENOSYS)]
    for flags in (17, 0x4000 | 0x100 | 17, THREAD_FLAGS | 0x10000000, THREAD_FLAGS | 0x20000, THREAD_FLAGS | 0x2000,
                  THREAD_FLAGS | 0x40000000, THREAD_FLAGS | 0x1000):  # fork, vfork, +NEWUSER, +NEWNS, +PTRACE, +NEWNET, +PIDFD
        forms.append((f"clone {flags:#x}", ALLOWED["clone"], (flags,), errno.EPERM))
    for command in (5, 6, 7, 8, 10, 36, 37, 38, 1024, 1025, 1026, 1031, 1033, 6 | 1 << 32):  # locks, owner, leases...
        forms.append((f"fcntl {command:#x}", ALLOWED["fcntl"], (fd, command), errno.EPERM))
    for advice in (3, 9, 12, 13, 20, 21, 22, 23, 25, 100):  # WILLNEED, REMOVE, MERGEABLE, ... COLD, PAGEOUT
        forms.append((f"madvise {advice}", ALLOWED["madvise"], (0, 0, advice), errno.EPERM))
    for command in (0x5412, 0x540E, 0x541B):  # TIOCSTI, TIOCSCTTY, FIONREAD
        forms.append((f"ioctl {command:#x}", ALLOWED["ioctl"], (0, command), errno.EPERM))
    for target in (parent, 1, -1):
        forms.append((f"kill {target}", ALLOWED["kill"], (target, 0), errno.EPERM))
        forms.append((f"tgkill {target}", ALLOWED["tgkill"], (target, target, 0), errno.EPERM))
        forms.append((f"prlimit64 {target}", ALLOWED["prlimit64"], (target, 9, 0, 0), errno.EPERM))
    return fd, forms


def sweep():
    """What was not refused, in words (nothing, under the filter)."""
    if _call(121 if "open" in ALLOWED else 155) != errno.EPERM:  # getpgid(0), allowed nowhere
        return ["getpgid"]
    swept = [n for n in range(1024) if n not in (*ALLOWED.values(), 435, *PASSED_BY_THE_KERNEL)]
    wrong = [str(n) for n in swept if _call(n) != errno.EPERM]
    fd, forms = _forms()
    wrong += [what for what, number, args, expected in forms if _call(number, *args) != expected]
    for what, attempt in (("flock", lambda: fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)),
                          ("lockf", lambda: fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)),
                          ("socket", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)),
                          ("socketpair", socket.socketpair), ("fork", os.fork)):
        try:
            attempt()
            wrong.append(what)
        except PermissionError:
            pass
    if _call(ALLOWED["kill"], os.getpid(), 0) or _call(ALLOWED["fcntl"], fd, 1) or _call(ALLOWED["madvise"], 0, 0, 4):
        wrong.append("kill, fcntl or madvise in their allowed forms")
    worker = threading.Thread(target=lambda: _SWEPT.append("thread"))
    worker.start()
    worker.join()
    return wrong if "thread" in _SWEPT else [*wrong, "no thread"]


def constraint_bounds(scope, domains):
    if not _SWEPT:
        wrong = sweep()
        if wrong:
            raise RuntimeError("not refused: " + " ".join(wrong))
    return _constraint_bounds(scope, domains)
