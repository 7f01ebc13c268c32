"""What a process that runs student code may not do, enforced by the kernel: a seccomp
filter installed before any student code runs, which it cannot remove.

- **No new processes.** `fork`, `vfork` and `clone` without `CLONE_THREAD` fail with
  EPERM (`clone3` with ENOSYS, so the C library falls back to `clone` for threads):
  threads are allowed, and their CPU time is the process's own. Every CPU second and every
  byte of memory a worker uses is then its own process's, where the grader reads it.
- **No memory outside the counts.** `memfd_create` and System V shared memory fail:
  pages no process maps are resident in no process.
- **No channels to later workers.** System V message queues and semaphores, POSIX message
  queues and kernel keyrings fail: what one worker leaves there could reach the next.
- **No hand on other processes.** `ptrace` and `process_vm_readv`/`writev` fail (the
  worker's own process, which forks the confined ones, is also not dumpable).

Any other architecture than this filter's knows, or a system call made through another
ABI (x32, i386 on x86_64), kills the process. Standard library only: this module runs
inside the sandbox. Linux on x86_64 and aarch64; elsewhere `confine` does nothing.
"""

from __future__ import annotations

import ctypes
import errno
import platform
import sys

PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
LOAD, JUMP_IF_EQUAL, JUMP_IF_SET, RETURN = 0x20, 0x15, 0x45, 0x06  # BPF_LD|W|ABS, BPF_JMP|JEQ|K, BPF_JMP|JSET|K, BPF_RET|K
ALLOW, KILL = 0x7FFF0000, 0x80000000
CLONE_THREAD = 0x10000
X32_SYSCALL = 0x40000000
#: For each machine: the audit architecture, and the system calls refused (with their errno).
REFUSED = {
    "x86_64": (0xC000003E, {"clone": 56, "fork": 57, "vfork": 58, "clone3": 435, "memfd_create": 319, "shmget": 29,
                            "semget": 64, "msgget": 68, "mq_open": 240, "add_key": 248, "request_key": 249, "keyctl": 250,
                            "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311}),
    "aarch64": (0xC00000B7, {"clone": 220, "clone3": 435, "memfd_create": 279, "shmget": 194, "semget": 190,
                             "msgget": 186, "mq_open": 180, "add_key": 217, "request_key": 218, "keyctl": 219,
                             "ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271}),
}


class Instruction(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint32)]


class Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Instruction))]


def _fail(number: int) -> int:
    return 0x00050000 | number  # SECCOMP_RET_ERRNO


def program(machine: str) -> list[tuple[int, int, int, int]]:
    """The filter for `machine` as (code, jump if true, jump if false, value) instructions."""
    arch, calls = REFUSED[machine]
    steps = [(LOAD, 0, 0, 4), (JUMP_IF_EQUAL, 1, 0, arch), (RETURN, 0, 0, KILL), (LOAD, 0, 0, 0),  # arch, then nr
             (JUMP_IF_SET, 0, 1, X32_SYSCALL), (RETURN, 0, 0, KILL)]
    for name, number in calls.items():
        if name != "clone":
            steps += [(JUMP_IF_EQUAL, 0, 1, number), (RETURN, 0, 0, _fail(errno.ENOSYS if name == "clone3" else errno.EPERM))]
    steps += [(JUMP_IF_EQUAL, 0, 4, calls["clone"]), (LOAD, 0, 0, 16),  # clone: its flags, the low half of args[0]
              (JUMP_IF_SET, 0, 1, CLONE_THREAD), (RETURN, 0, 0, ALLOW), (RETURN, 0, 0, _fail(errno.EPERM)),
              (RETURN, 0, 0, ALLOW)]
    return steps


def can_confine() -> bool:
    """Whether this system has a filter (Linux on a machine it knows)."""
    return sys.platform.startswith("linux") and platform.machine() in REFUSED


def confine() -> str | None:
    """Install the filter in this process (and every thread it starts); None when done
    or when this system has none (`can_confine`), else why it could not be."""
    if not can_confine():
        return None
    steps = program(platform.machine())
    instructions = (Instruction * len(steps))(*(Instruction(*step) for step in steps))
    filter_program = Program(len(steps), instructions)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or \
            libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(filter_program), 0, 0) != 0:
        return f"the seccomp filter could not be installed (errno {ctypes.get_errno()})"
    return None
