"""What a process that runs student code may do, enforced by the kernel: a seccomp filter
installed before any student code runs, which it cannot remove. The filter is an
allowlist: every system call not in `CALLS` fails with EPERM, calls newer than this file
included.

`CALLS` holds what Python code, threads, the import of the standard library and the
worker's own item loop were measured to need (strace of gradings, of hooks using threads,
pools, files and clocks, and of an import of every standard-library module): files the
isolation lets it see, pipes, memory of its own, threads, time, sleeping, signal handlers,
its own ids, random bytes. Some of them only in a safe form:

- **Threads, not processes.** `clone` only with `CLONE_THREAD` and the flags a thread is
  made with (no namespace, `vfork`, tracing or pidfd); `clone3` fails with ENOSYS, so the
  C library falls back to `clone` for threads. Every CPU second and byte is then this
  process's own, where the grader reads it, and no namespace hides memory from the count.
- **No locks.** `fcntl` only duplicates descriptors and reads or sets their flags: no
  record locks, leases, change notices or pipe sizes. A lock on a file every worker reads
  would tell a student who else is being graded; `flock` fails too.
- **No hand on shared pages.** `madvise` only for its own memory: no advice that reads
  ahead, evicts, pages out or merges pages, which another worker could time; `mincore`,
  `readahead` and `fadvise64` fail.
- **Only itself.** `kill` and `tgkill` only to this process, `prlimit64` only on it;
  `ioctl` only asks whether a descriptor is a terminal and its size, or sets close-on-exec.

Refused, among everything else: `statfs`, `fstatfs`, `ustat` and `sysinfo` (the free
space of file systems other gradings write to; the machine's load, thread count and free
memory); `execve`; sockets (the network, and socket buffers outside
the memory count); `memfd_create`, System V IPC, POSIX message queues and keyrings (memory
no process maps, channels to later workers); `unshare`, `setns`, `mount`; `ptrace`,
`process_vm_*`, `pidfd_*`, `io_uring_*`, `bpf`, `perf_event_open`, `userfaultfd`;
`chmod`, `umask` and `symlink`: `confine` sets umask 077 first, so what it writes in a
shared folder no other worker can read.

Any other architecture than the filter's, or a system call made through another ABI
(x32, i386 on x86_64), kills the process. Standard library only: this module runs inside
the sandbox. Linux on x86_64 and aarch64; elsewhere `confine` does nothing.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import sys

PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
LOAD, JUMP_IF_EQUAL, JUMP_IF_SET, RETURN = 0x20, 0x15, 0x45, 0x06  # BPF_LD|W|ABS, BPF_JMP|JEQ|K, BPF_JMP|JSET|K, BPF_RET|K
ALLOW, KILL = 0x7FFF0000, 0x80000000
X32_SYSCALL = 0x40000000
#: The audit architecture of each machine the filter knows.
ARCHITECTURES = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
#: Every allowed call (as measured, see above), by its number on (x86_64, aarch64); None:
#: the machine has no such call (aarch64 has only the `*at`, `p*` and `*3` forms of older ones).
CALLS = {
    # files the isolation lets it see, and its descriptors
    "read": (0, 63),
    "write": (1, 64),
    "open": (2, None),
    "openat": (257, 56),
    "close": (3, 57),
    "stat": (4, None),
    "fstat": (5, 80),
    "lstat": (6, None),
    "newfstatat": (262, 79),
    "statx": (332, 291),
    "access": (21, None),
    "faccessat": (269, 48),
    "faccessat2": (439, 439),
    "lseek": (8, 62),
    "pread64": (17, 67),
    "readv": (19, 65),
    "writev": (20, 66),
    "getdents64": (217, 61),
    "readlink": (89, None),
    "readlinkat": (267, 78),
    "getcwd": (79, 17),
    "dup": (32, 23),
    "dup2": (33, None),
    "dup3": (292, 24),
    "fcntl": (72, 25),
    "ioctl": (16, 29),
    "mkdir": (83, None),
    "mkdirat": (258, 34),
    "rename": (82, None),
    "renameat": (264, 38),
    "renameat2": (316, 276),
    "unlink": (87, None),
    "unlinkat": (263, 35),
    "rmdir": (84, None),
    "fallocate": (285, 47),
    "link": (86, None),
    "linkat": (265, 37),
    "pipe": (22, None),
    "pipe2": (293, 59),
    # memory of its own
    "brk": (12, 214),
    "mmap": (9, 222),
    "munmap": (11, 215),
    "mremap": (25, 216),
    "mprotect": (10, 226),
    "madvise": (28, 233),
    # threads
    "clone": (56, 220),
    "futex": (202, 98),
    "set_robust_list": (273, 99),
    "rseq": (334, 293),
    "gettid": (186, 178),
    "sched_yield": (24, 124),
    "sched_getaffinity": (204, 123),
    "exit": (60, 93),
    "exit_group": (231, 94),
    # signal handlers, and signals to itself only
    "kill": (62, 129),
    "tgkill": (234, 131),
    "rt_sigaction": (13, 134),
    "rt_sigprocmask": (14, 135),
    "rt_sigreturn": (15, 139),
    "sigaltstack": (131, 132),
    "restart_syscall": (219, 128),
    # time and waiting
    "clock_gettime": (228, 113),
    "clock_getres": (229, 114),
    "gettimeofday": (96, 169),
    "time": (201, None),
    "clock_nanosleep": (230, 115),
    "nanosleep": (35, 101),
    "getrusage": (98, 165),
    "times": (100, 153),
    "poll": (7, None),
    "ppoll": (271, 73),
    "select": (23, None),
    "pselect6": (270, 72),
    "epoll_create1": (291, 20),
    "epoll_ctl": (233, 21),
    "epoll_wait": (232, None),
    "epoll_pwait": (281, 22),
    # about itself
    "getpid": (39, 172),
    "getppid": (110, 173),
    "getuid": (102, 174),
    "geteuid": (107, 175),
    "getgid": (104, 176),
    "getegid": (108, 177),
    "getrandom": (318, 278),
    "uname": (63, 160),
    "prlimit64": (302, 261),
}
CLONE3 = 435  # on both machines
#: Calls allowed only with one of these values of one argument (by its index); the kernel
#: reads only the low 32 bits of each of these arguments, and so does the filter.
ONLY_WITH = {
    "fcntl": (1, (0, 1, 2, 3, 4, 1030)),  # F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_DUPFD_CLOEXEC
    "ioctl": (1, (0x5401, 0x5413, 0x5450, 0x5451)),  # TCGETS, TIOCGWINSZ, FIONCLEX, FIOCLEX
    # NORMAL, RANDOM, SEQUENTIAL, DONTNEED, FREE, DONTFORK, DOFORK, HUGEPAGE, NOHUGEPAGE, DONTDUMP, DODUMP,
    # WIPEONFORK, KEEPONFORK, GUARD_INSTALL, GUARD_REMOVE
    "madvise": (2, (0, 1, 2, 4, 8, 10, 11, 14, 15, 16, 17, 18, 19, 102, 103)),
    "prlimit64": (0, (0,)),  # pid 0: this process
}
#: Calls allowed only when their first argument is this process's id (filled in by `program`).
TO_ITSELF = ("kill", "tgkill")
CLONE_THREAD = 0x10000
#: The flags a thread may be cloned with: VM, FS, FILES, SIGHAND, THREAD, SYSVSEM, SETTLS,
#: PARENT_SETTID, CHILD_CLEARTID, DETACHED, CHILD_SETTID (no CLONE_NEW*, VFORK, PTRACE, PIDFD).
THREAD_FLAGS = 0x100 | 0x200 | 0x400 | 0x800 | CLONE_THREAD | 0x40000 | 0x80000 | 0x100000 | 0x200000 | 0x400000 | 0x1000000


class Instruction(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint32)]


class Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Instruction))]


def _fail(number: int) -> int:
    return 0x00050000 | number  # SECCOMP_RET_ERRNO


def _argument(index: int) -> tuple[int, int, int, int]:
    return (LOAD, 0, 0, 16 + 8 * index)  # the low half of args[index] (little-endian)


def _checked(name: str, pid: int) -> list[tuple[int, int, int, int]]:
    """The steps after a call's number matched: allow it only in its safe form (`pid`:
    this process's id)."""
    if name == "clone":
        return [
            _argument(0),
            (JUMP_IF_SET, 2, 0, ~THREAD_FLAGS & 0xFFFFFFFF),
            (JUMP_IF_SET, 0, 1, CLONE_THREAD),
            (RETURN, 0, 0, ALLOW),
            (RETURN, 0, 0, _fail(errno.EPERM)),
        ]
    if name not in ONLY_WITH and name not in TO_ITSELF:
        return [(RETURN, 0, 0, ALLOW)]
    index, values = ONLY_WITH.get(name, (0, (pid,)))
    steps = [_argument(index)]
    for value in values:
        steps += [(JUMP_IF_EQUAL, 0, 1, value), (RETURN, 0, 0, ALLOW)]
    return steps + [(RETURN, 0, 0, _fail(errno.EPERM))]


def allowed(machine: str) -> dict[str, int]:
    """The calls `machine`'s filter lets through (some only in a safe form), by number."""
    column = list(ARCHITECTURES).index(machine)
    return {name: number for name, numbers in CALLS.items() if (number := numbers[column]) is not None}


def program(machine: str, pid: int) -> list[tuple[int, int, int, int]]:
    """The filter for `machine` and the process `pid` as (code, jump if true, jump if
    false, value) instructions."""
    steps = [
        (LOAD, 0, 0, 4),
        (JUMP_IF_EQUAL, 1, 0, ARCHITECTURES[machine]),
        (RETURN, 0, 0, KILL),  # arch, then nr
        (LOAD, 0, 0, 0),
        (JUMP_IF_SET, 0, 1, X32_SYSCALL),
        (RETURN, 0, 0, KILL),
        (JUMP_IF_EQUAL, 0, 1, CLONE3),
        (RETURN, 0, 0, _fail(errno.ENOSYS)),
    ]
    for name, number in allowed(machine).items():
        then = _checked(name, pid)
        steps += [(JUMP_IF_EQUAL, 0, len(then), number), *then]
    return steps + [(RETURN, 0, 0, _fail(errno.EPERM))]


def can_confine() -> bool:
    """Whether this system has a filter (Linux on a machine it knows)."""
    return sys.platform.startswith("linux") and platform.machine() in ARCHITECTURES


def confine() -> str | None:
    """Install the filter in this process (and every thread it starts); None when done
    or when this system has none (`can_confine`), else why it could not be."""
    if not can_confine():
        return None
    os.umask(0o077)
    steps = program(platform.machine(), os.getpid())
    instructions = (Instruction * len(steps))(*(Instruction(*step) for step in steps))
    filter_program = Program(len(steps), instructions)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(filter_program), 0, 0) != 0:
        return f"the seccomp filter could not be installed (errno {ctypes.get_errno()})"
    return None
